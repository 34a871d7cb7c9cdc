//! Criterion: `platnav::fly` on a generated 256 x 256 level (0.8 box):
//! building the free space, a query, and an obstacle added and removed;
//! the `polyanya` crate on the same free space and query.

use criterion::{Criterion, criterion_group, criterion_main};
use platnav::Level;
use platnav::fly::{Agent, FlyOptions, FreeSpace, Obstacle, Point};

fn fly(c: &mut Criterion) {
    let level = Level::generate(256, 256, 42).expect("level");
    let agent = Agent::boxed(0.8, 0.8);
    let opts = FlyOptions::default();
    c.bench_function("fly build 256x256", |b| {
        b.iter(|| FreeSpace::from_level(&level, agent, &opts).expect("free space"));
    });
    let mut space = FreeSpace::from_level(&level, agent, &opts).expect("free space");
    let (from, to) = (
        space.nearest_free(Point::new(3.0, 250.0)).expect("free"),
        space.nearest_free(Point::new(250.0, 5.0)).expect("free"),
    );
    c.bench_function("fly query 256x256 corner to corner", |b| {
        b.iter(|| space.find_path(from, to).expect("path"));
    });
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    let mut index = std::collections::HashMap::new();
    for t in space.triangles() {
        triangles.push(t.map(|p| {
            *index
                .entry((p.x.to_bits(), p.y.to_bits()))
                .or_insert_with(|| {
                    vertices.push(glam::Vec2::new(p.x as f32, p.y as f32));
                    vertices.len() - 1
                })
        }));
    }
    let mut peer: polyanya::Mesh = polyanya::Trimesh {
        vertices,
        triangles,
    }
    .try_into()
    .expect("polyanya mesh");
    peer.merge_polygons();
    peer.bake();
    let (f, t) = (
        glam::Vec2::new(from.x as f32, from.y as f32),
        glam::Vec2::new(to.x as f32, to.y as f32),
    );
    c.bench_function("polyanya query 256x256 corner to corner", |b| {
        b.iter(|| peer.path(f, t).expect("path"));
    });
    let crate_ = Obstacle::Rect {
        min: Point::new(120.0, 120.0),
        max: Point::new(122.0, 121.5),
    };
    c.bench_function("fly obstacle add + remove 256x256", |b| {
        b.iter(|| {
            let id = space.add_obstacle(&crate_).expect("obstacle");
            space.remove_obstacle(id)
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = fly
}
criterion_main!(benches);
