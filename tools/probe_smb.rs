use platnav::*;
use std::path::Path as P;
fn main() {
    let legend = VglcLegend::load(P::new("levels/smb/legend.json")).unwrap();
    let p = Physics::smb();
    for name in std::env::args().skip(1) {
        let level = Level::load_vglc(P::new(&name), &legend).unwrap();
        let t = std::time::Instant::now();
        let map = NavMap::build(&level, &p).unwrap();
        let bt = t.elapsed();
        let w = level.width() as i32;
        let start = map
            .snap(Cell::new(2, level.height() as i32 - 3), 14)
            .unwrap();
        let ids = map.node(start).unwrap();
        let d = map.dijkstra(ids);
        let goals: Vec<Cell> = map
            .nodes()
            .iter()
            .copied()
            .filter(|c| c.col >= w - 3)
            .collect();
        let reach = goals
            .iter()
            .find(|g| d[map.node(**g).unwrap().0 as usize].is_some())
            .copied();
        let t2 = std::time::Instant::now();
        let res = reach.map(|g| map.find_path(start, g, &SearchOptions::default()));
        let max_col = map
            .nodes()
            .iter()
            .filter(|c| d[map.node(**c).unwrap().0 as usize].is_some())
            .map(|c| c.col)
            .max();
        println!(
            "{name}: build {:?} nodes {} links {} start {start} goal {:?} found {:?} query {:?} maxcol {:?}/{}",
            bt,
            map.node_count(),
            map.link_count(),
            reach,
            res.as_ref().map(|r| r
                .as_ref()
                .map(|p| (p.cost(), p.steps().len(), p.stats()))
                .map_err(|e| e.to_string())),
            t2.elapsed(),
            max_col,
            w
        );
    }
}
