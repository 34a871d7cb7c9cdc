//! Watching and stopping a build: `LinkOptions::progress`.

mod common;

use std::sync::Arc;
use std::time::Duration;

use platnav::{BuildError, BuildProgress, LinkOptions, NavMap, Physics};

#[test]
fn a_build_counts_its_cells_and_a_cancelled_one_returns_no_map() {
    let level = common::demo();
    // A slow profile (1,000 ticks a second, slow braking): each cell takes
    // long enough for the watcher to see the build under way.
    let slow = Physics {
        dt: 0.001,
        ground_accel: 0.3,
        ..Physics::default()
    };
    let progress = Arc::new(BuildProgress::new());
    let options = LinkOptions::default().with_progress(Some(Arc::clone(&progress)));
    let result = std::thread::scope(|scope| {
        let build = scope.spawn(|| NavMap::build_with(&level, &slow, &options));
        while progress.done() == 0 && !build.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(progress.total() > 0);
        progress.cancel();
        build.join().unwrap()
    });
    assert!(
        matches!(result, Err(BuildError::Cancelled)),
        "{:?}",
        result.map(|m| m.link_count())
    );
    // It stopped early: well short of every cell.
    assert!(
        progress.done() < progress.total(),
        "{} of {}",
        progress.done(),
        progress.total()
    );

    // Unwatched or watched, a build that is not cancelled gives the same map.
    let watched = Arc::new(BuildProgress::new());
    let options = LinkOptions::default().with_progress(Some(Arc::clone(&watched)));
    let a = NavMap::build_with(&level, &Physics::agile(), &options).unwrap();
    let b = NavMap::build(&level, &Physics::agile()).unwrap();
    assert_eq!(watched.done(), a.node_count());
    assert_eq!(watched.fraction(), 1.0);
    assert_eq!(a.link_count(), b.link_count());
    assert!(a.links().zip(b.links()).all(|(x, y)| x == y));
}
