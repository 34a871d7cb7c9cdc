//! Landmark tables stay lower bounds through random edits.

use super::compute::dijkstra;
use super::*;
use crate::links::LinkKind;

/// A seeded generator for the random graphs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A graph as its nodes' out-links, `(target, ticks)`.
type Graph = Vec<Vec<(u32, u16)>>;

fn links_near(rng: &mut Rng, v: usize, n: usize, scale: u16) -> Vec<(u32, u16)> {
    (0..rng.below(4))
        .map(|_| {
            let t = (v as i64 + rng.below(9) as i64 - 4).clamp(0, n as i64 - 1);
            (t as u32, (1 + rng.below(12) as u16) * scale)
        })
        .collect()
}

fn csr(g: &Graph) -> (Vec<u32>, Vec<Edge>) {
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    for out in g {
        edges.extend(out.iter().map(|&(target, ticks)| Edge {
            target,
            ticks,
            kind: LinkKind::RUN,
            jumps: 0,
        }));
        offsets.push(edges.len() as u32);
    }
    (offsets, edges)
}

/// Every live half of `lm` is a potential of `g`, every bound is at
/// most the route's ticks, and `separated` is never wrong.
fn assert_bounds(lm: &Landmarks, g: &Graph, what: &str) {
    let (offsets, edges) = csr(g);
    let fwd: Vec<(u32, u32)> = edges
        .iter()
        .map(|e| (e.target, u32::from(e.ticks)))
        .collect();
    for (x, out) in g.iter().enumerate() {
        let (fx, gx) = lm.raw(x as u32).unwrap();
        for &(y, c) in out {
            let (fy, gy) = lm.raw(y).unwrap();
            for l in 0..MAX_LANDMARKS {
                if lm.dead_from >> l & 1 == 0 && fx[l] != FAR {
                    assert!(fy[l] <= fx[l] + u32::from(c), "{what}: F{l} {x} -> {y}");
                }
                if lm.dead_to >> l & 1 == 0 && gy[l] != FAR {
                    assert!(gx[l] <= gy[l] + u32::from(c), "{what}: G{l} {x} -> {y}");
                }
            }
        }
    }
    for v in 0..g.len() as u32 {
        let d = dijkstra(&offsets, &fwd, v);
        for t in 0..g.len() as u32 {
            if d[t as usize] == FAR {
                continue;
            }
            assert!(lm.bound(v, t) <= d[t as usize], "{what}: bound {v} -> {t}");
            assert!(!lm.separated(v, t), "{what}: separated {v} -> {t}");
        }
    }
}

/// Random edits of random graphs, as a map's edits make them: a
/// window of nodes is replaced by nodes old and new with links of
/// their own, links from outside the window keep their targets (none
/// leads to a new node) and lose those removed. After each, the
/// repaired table still bounds every route, in both table widths.
#[test]
fn repaired_tables_stay_bounds_through_random_edits() {
    let (with, without) = (random_edits(usize::MAX), random_edits(0));
    // The repair keeps bounds, not just drops them all, and the reverse
    // index keeps more.
    assert!(without > 0 && with > without, "{with} {without}");
}

/// Edits random graphs with the repair's reverse index up to
/// `reverse_limit` links, checking the table after each; the halves
/// live at the end, summed.
fn random_edits(reverse_limit: usize) -> usize {
    let mut live_after_edits = 0;
    for (seed, scale) in (1..=24).zip([1u16, 1, 1, 3000].into_iter().cycle()) {
        let mut rng = Rng(seed);
        let n = 20 + rng.below(40) as usize;
        let mut g: Graph = (0..n).map(|v| links_near(&mut rng, v, n, scale)).collect();
        // A ring so that a strongly connected core exists.
        for (v, out) in g.iter_mut().enumerate() {
            out.push((((v + 1) % n) as u32, 5 * scale));
        }
        let (offsets, edges) = csr(&g);
        let mut lm = Landmarks::compute(&offsets, &edges);
        assert_eq!(lm.narrow.is_empty(), scale > 1);
        assert_bounds(&lm, &g, &format!("seed {seed}, built"));
        for step in 0..12 {
            let n = g.len();
            let lo = rng.below(n as u64) as usize;
            let hi = (lo + rng.below(4) as usize).min(n);
            // The window's nodes after the edit: some old ones, in
            // order, and some new ones among them.
            let mut olds = Vec::new();
            for o in lo..hi {
                if rng.below(4) != 0 {
                    olds.push(Some(o as u32));
                }
                if rng.below(3) == 0 {
                    olds.push(None);
                }
            }
            if olds.is_empty() && hi == lo {
                olds.push(None);
            }
            let moved = olds.len() as i64 - (hi - lo) as i64;
            let remap = |t: u32| -> Option<u32> {
                let t = t as usize;
                if t < lo {
                    Some(t as u32)
                } else if t >= hi {
                    Some((t as i64 + moved) as u32)
                } else {
                    olds.iter()
                        .position(|&o| o == Some(t as u32))
                        .map(|i| (lo + i) as u32)
                }
            };
            let new_n = (n as i64 + moved) as usize;
            let mut next: Graph = Vec::with_capacity(new_n);
            for out in &g[..lo] {
                next.push(
                    out.iter()
                        .filter_map(|&(t, c)| Some((remap(t)?, c)))
                        .collect(),
                );
            }
            // Old nodes keep their links (renumbered) or get new ones.
            let mut relinked = Vec::new();
            for (i, o) in olds.iter().enumerate() {
                let keep = o.filter(|_| rng.below(2) == 0);
                relinked.push(keep.is_none());
                next.push(match keep {
                    Some(o) => g[o as usize]
                        .iter()
                        .filter_map(|&(t, c)| Some((remap(t)?, c)))
                        .collect(),
                    None => links_near(&mut rng, lo + i, new_n, scale),
                });
            }
            for out in &g[hi..] {
                next.push(
                    out.iter()
                        .filter_map(|&(t, c)| Some((remap(t)?, c)))
                        .collect(),
                );
            }
            let (offsets, edges) = csr(&next);
            lm.edit(
                lo..hi,
                &olds,
                &relinked,
                &offsets,
                &edges,
                (64, reverse_limit),
            );
            g = next;
            assert_bounds(&lm, &g, &format!("seed {seed}, edit {step}"));
        }
        live_after_edits += lm.halves().0;
    }
    live_after_edits
}

#[test]
fn a_shortcut_from_an_old_node_drops_the_half_it_breaks() {
    // 0 -> 1 -> 2 -> 3 -> 0, ten ticks each.
    let g: Graph = (0..4).map(|v| vec![(((v + 1) % 4) as u32, 10)]).collect();
    let (offsets_before, edges_before) = csr(&g);
    let mut lm = Landmarks::compute(&offsets_before, &edges_before);
    assert!(!lm.stale());
    // Node 1 is rebuilt with a one-tick link straight to 3.
    let mut next = g.clone();
    next[1].push((3, 1));
    let (offsets, edges) = csr(&next);
    lm.edit(1..2, &[Some(1)], &[true], &offsets, &edges, (64, 0));
    assert!(lm.stale());
    assert_bounds(&lm, &next, "shortcut");
    // The landmarks whose routes to them it shortens lose that half;
    // routes from them are repaired.
    assert!(lm.dead_to != 0);
    assert_eq!(lm.dead_from, 0);
    assert_eq!(
        lm.halves().0,
        2 * MAX_LANDMARKS - lm.dead_to.count_ones() as usize
    );
    // With the reverse index, the old node's distances are lowered and
    // so are those of the nodes before it.
    let mut lm = Landmarks::compute(&offsets_before, &edges_before);
    lm.edit(
        1..2,
        &[Some(1)],
        &[true],
        &offsets,
        &edges,
        (64, usize::MAX),
    );
    assert!(!lm.stale());
    assert_bounds(&lm, &next, "shortcut, reverse index");
}
