//! Physics tuning on the 18 Super Mario Bros levels (VGLC): completability
//! against jump height (time to apex kept), and bisection for the least
//! jump that finishes each level.
//!
//! One scan of every level at a grid of heights is shared by the tests
//! (computed once, on two threads).

mod common;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use platnav::{
    Level, Physics,
    analysis::{Endpoints, Least, Param, bisect, evaluate},
};

/// The scan: 3.6 to 5.2 tiles in steps of 0.4 (so that bisection on
/// [3.6, 5.2] with tolerance 0.4 only tries grid heights), and 6.4.
/// Coarse on purpose: each point is 18 map builds.
const STEP: f64 = 0.4;
const LO: f64 = 3.6;
const HI: f64 = 5.2;
const EXTRA: [f64; 1] = [6.4];

fn key(h: f64) -> i64 {
    (h * 1000.0).round() as i64
}

fn heights() -> Vec<f64> {
    let n = ((HI - LO) / STEP).round() as usize;
    let mut v: Vec<f64> = (0..=n).map(|i| LO + i as f64 * STEP).collect();
    v.extend(EXTRA);
    v
}

fn completable(level: &Level, height: f64) -> bool {
    let physics = Param::JumpHeight.apply(&Physics::smb(), height);
    evaluate(level, &physics, &Endpoints::default())
        .unwrap()
        .completable
}

struct Scan {
    levels: Vec<(String, Level)>,
    /// (level index, height key) -> completable.
    done: Mutex<HashMap<(usize, i64), bool>>,
}

impl Scan {
    fn get(&self, level: usize, height: f64) -> bool {
        if let Some(&v) = self.done.lock().unwrap().get(&(level, key(height))) {
            return v;
        }
        let v = completable(&self.levels[level].1, height);
        self.done.lock().unwrap().insert((level, key(height)), v);
        v
    }
}

fn scan() -> &'static Scan {
    static SCAN: OnceLock<Scan> = OnceLock::new();
    SCAN.get_or_init(|| {
        let scan = Scan {
            levels: common::smb_levels(),
            done: Mutex::new(HashMap::new()),
        };
        let jobs: Vec<(usize, f64)> = (0..scan.levels.len())
            .flat_map(|l| heights().into_iter().map(move |h| (l, h)))
            .collect();
        let next = Mutex::new(0usize);
        std::thread::scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    loop {
                        let i = {
                            let mut n = next.lock().unwrap();
                            *n += 1;
                            *n - 1
                        };
                        let Some(&(l, h)) = jobs.get(i) else { break };
                        scan.get(l, h);
                    }
                });
            }
        });
        scan
    })
}

#[test]
fn completability_is_monotone_in_jump_height_from_3_6_to_6_4_tiles() {
    let scan = scan();
    assert_eq!(scan.levels.len(), 18);
    for (l, (name, _)) in scan.levels.iter().enumerate() {
        let row: Vec<bool> = heights().into_iter().map(|h| scan.get(l, h)).collect();
        let first = row.iter().position(|&c| c);
        if let Some(first) = first {
            assert!(
                row[first..].iter().all(|&c| c),
                "{name}: completable at {:.1} but not at every higher height: {row:?}",
                heights()[first]
            );
        }
    }
}

#[test]
fn bisection_agrees_with_a_brute_force_scan_to_within_the_step() {
    let scan = scan();
    for (l, (name, _)) in scan.levels.iter().enumerate() {
        let brute = heights()
            .into_iter()
            .filter(|&h| h <= HI + 1e-9)
            .find(|&h| scan.get(l, h));
        let least = bisect((LO, HI), STEP, |h| Ok(scan.get(l, h))).unwrap();
        match (least, brute) {
            (Least::AtMost(v), Some(b)) | (Least::Value(v), Some(b)) => {
                assert!(
                    (v - b).abs() <= STEP + 1e-9,
                    "{name}: bisection {v}, scan {b}"
                );
            }
            (Least::Above(_), None) => {}
            other => panic!("{name}: bisection and scan disagree: {other:?}"),
        }
    }
    // Finer bisection (tolerance 0.05) lands within one scan step of the
    // scan's first completable height.
    for name in ["mario-1-3", "mario-4-1", "mario-8-1"] {
        let l = scan.levels.iter().position(|(n, _)| n == name).unwrap();
        let brute = heights().into_iter().find(|&h| scan.get(l, h)).unwrap();
        let fine = match bisect((LO, HI), 0.05, |h| Ok(scan.get(l, h))).unwrap() {
            Least::Value(v) | Least::AtMost(v) => v,
            Least::Above(v) => panic!("{name}: not completable at {v}"),
        };
        assert!(
            fine <= brute + 1e-9 && fine > brute - STEP - 1e-9,
            "{name}: fine bisection {fine}, scan {brute}"
        );
    }
}

#[test]
fn every_level_needs_at_most_the_smb_presets_jump() {
    let preset = Physics::smb().jump_height();
    assert!((preset - 5.2).abs() < 1e-9);
    let scan = scan();
    for (l, (name, _)) in scan.levels.iter().enumerate() {
        let least = bisect((LO, preset), STEP, |h| Ok(scan.get(l, h))).unwrap();
        match least {
            Least::AtMost(v) | Least::Value(v) => assert!(v <= preset + 1e-9, "{name}: {v}"),
            Least::Above(_) => panic!("{name} is not completable with the preset's jump"),
        }
    }
}

#[test]
fn a_higher_jump_with_the_same_apex_time_can_hit_a_ceiling_on_mario_5_2() {
    // Keeping the time to apex, a 9-tile gap needs a full jump at any
    // height; at 3.5 tiles its apex hits the bricks above that a 2.75-tile
    // jump passes under. So completability is not monotone everywhere.
    let scan = scan();
    let l = scan
        .levels
        .iter()
        .position(|(n, _)| n == "mario-5-2")
        .unwrap();
    assert!(scan.get(l, 2.75));
    assert!(!scan.get(l, 3.5));
}
