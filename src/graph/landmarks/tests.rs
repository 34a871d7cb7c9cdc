//! Landmark bounds against plain Dijkstra on random graphs.

use super::compute::{dijkstra, largest_scc};
use super::*;
use crate::links::LinkKind;

/// The bound as the plain per-landmark rule, with every route test.
fn reference(lm: &Landmarks, v: u32, t: u32) -> u32 {
    let (bv, bt) = (lm.raw(v).unwrap(), lm.raw(t).unwrap());
    let mut best = 0;
    for l in 0..MAX_LANDMARKS {
        let (lv, lt) = (bv.0[l], bt.0[l]);
        if lv != FAR && lt != FAR && lt > lv {
            best = best.max(lt - lv);
        }
        let (vl, tl) = (bv.1[l], bt.1[l]);
        if vl != FAR && tl != FAR && vl > tl {
            best = best.max(vl - tl);
        }
    }
    best
}

/// Offsets and arcs, forward then reverse.
type Csr = (Vec<u32>, Vec<(u32, u32)>, Vec<u32>, Vec<(u32, u32)>);

/// A graph as `(offsets, arcs, reverse offsets, reverse arcs)`.
fn csr(n: usize, arcs: &[(u32, u32)]) -> Csr {
    let build = |pairs: Vec<(u32, u32)>| {
        let mut off = vec![0u32; n + 1];
        for &(a, _) in &pairs {
            off[a as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut sorted = pairs;
        sorted.sort_unstable();
        (
            off,
            sorted.into_iter().map(|(_, b)| (b, 1)).collect::<Vec<_>>(),
        )
    };
    let (off, fwd) = build(arcs.to_vec());
    let (roff, rev) = build(arcs.iter().map(|&(a, b)| (b, a)).collect());
    (off, fwd, roff, rev)
}

#[test]
fn largest_strongly_connected_component() {
    // 0 -> 1 (a ledge left for good), the ring 1 -> 2 -> 3 -> 4 -> 1,
    // 4 -> 5 <-> 6 (a pit of two), 7 alone.
    let arcs = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 1),
        (4, 5),
        (5, 6),
        (6, 5),
    ];
    let (off, fwd, roff, rev) = csr(8, &arcs);
    let main = largest_scc(&off, &fwd, &roff, &rev);
    let want = [false, true, true, true, true, false, false, false];
    assert_eq!(main, want);
    // A long chain with a ring at its end: explicit stacks, no recursion.
    let n = 200_000u32;
    let mut arcs: Vec<(u32, u32)> = (0..n - 1).map(|v| (v, v + 1)).collect();
    arcs.extend([(n - 1, n - 3)]);
    let (off, fwd, roff, rev) = csr(n as usize, &arcs);
    let main = largest_scc(&off, &fwd, &roff, &rev);
    assert_eq!(main.iter().filter(|&&m| m).count(), 3);
    assert!(main[(n - 1) as usize] && main[(n - 3) as usize]);
}

#[test]
fn branch_free_bound_matches_the_rule_and_never_overestimates() {
    // Short routes fit the narrow table; long ones need the wide one.
    for scale in [1u16, 2000] {
        check_bounds(scale);
    }
}

fn check_bounds(scale: u16) {
    // Two one-way chains with shortcuts, and an island no one reaches.
    let n = 30u32;
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    for v in 0..n {
        let mut add = |target: u32, ticks: u16| {
            edges.push(Edge {
                target,
                ticks,
                kind: LinkKind::RUN,
                jumps: 0,
            });
        };
        if v < 12 {
            add((v + 1) % 12, (3 + (v % 4) as u16) * scale);
            add((v * 7 + 2) % 12, 20 * scale);
        } else if v < 26 {
            add(12 + (v - 11) % 14, 5 * scale);
            if v % 3 == 0 {
                add(v - 12, 9 * scale);
            }
        }
        offsets.push(edges.len() as u32);
    }
    let lm = Landmarks::compute(&offsets, &edges);
    assert_eq!(lm.narrow.is_empty(), scale > 1);
    let fwd: Vec<(u32, u32)> = edges
        .iter()
        .map(|e| (e.target, u32::from(e.ticks)))
        .collect();
    let (mut far_seen, mut positive) = (false, false);
    for v in 0..n {
        let d = dijkstra(&offsets, &fwd, v);
        for t in 0..n {
            let b = lm.bound(v, t);
            positive |= b > 0;
            assert_eq!(b, reference(&lm, v, t), "{v} -> {t}");
            if d[t as usize] == FAR {
                far_seen = true;
            } else {
                assert!(b <= d[t as usize], "{v} -> {t}: {b} > {}", d[t as usize]);
            }
        }
    }
    assert!(far_seen && positive);
    assert!(lm.bound(0, n + 5) == 0 && lm.bound(n + 5, 0) == 0);
}
