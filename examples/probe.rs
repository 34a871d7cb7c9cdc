use platnav::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let level: Level = std::fs::read_to_string(&args[1]).unwrap().parse().unwrap();
    let mut p = Physics::default();
    p.air_jumps = 1;
    p.wall_jump = Some(WallJump {
        speed_x: 6.0,
        speed_y: 15.0,
        slide_speed: 3.0,
    });
    let t = std::time::Instant::now();
    let map = NavMap::build(&level, &p).unwrap();
    println!(
        "build {:?} nodes {} links {}",
        t.elapsed(),
        map.node_count(),
        map.link_count()
    );
    for (k, n) in map.link_counts() {
        println!("{k}: {n}");
    }
    let cls = map.classification();
    for r in 0..level.height() as i32 {
        let s: String = (0..level.width() as i32)
            .map(|c| cls.get(Cell::new(c, r)).symbol())
            .collect();
        println!("{s}");
    }
}
