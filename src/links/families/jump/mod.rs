//! Jump and double-jump links: the programs (`programs.rs`), served from
//! the templates (`templates/`, shared trees of the programs grown toward
//! the terrain levels have) where links are computed in their start cell's
//! frame on flat ground, else simulated here; then the edge take-offs
//! (`edge.rs`) and the hop runs (`hops.rs`), which depend on where the
//! start cell's ledges and steps are and are always simulated.

pub(crate) mod edge;
pub(crate) mod hops;
pub(crate) mod programs;
pub(crate) mod templates;

use super::family::Engine;
use super::start::Start;
use crate::links::best::Best;
use crate::links::cache::{Worker, WorkerGuard};
use crate::mechanics::seam::KindSpec;
use crate::mechanics::{Active, LinkKind};
use programs::{families, run_family};
use templates::{Grown, rules_of};

/// Ground jumps, and double jumps (a ground jump and an air jump).
pub(super) const JUMP: Engine = Engine {
    kinds: &[
        KindSpec {
            kind: LinkKind::JUMP,
            name: "jump",
            letter: 'j',
            colour: [255, 240, 110],
        },
        KindSpec {
            kind: LinkKind::DOUBLE_JUMP,
            name: "double_jump",
            letter: 'd',
            colour: [255, 150, 210],
        },
    ],
    applies: |_, _| true,
    programs: |p, variety| {
        families(p, variety)
            .iter()
            .map(|f| f.switches.len() * f.targets.len() + 1)
            .sum::<usize>()
            + edge::max_programs(p, variety)
            + hops::max_programs(p, variety)
    },
    generate,
};

impl LinkKind {
    /// A ground jump.
    pub const JUMP: LinkKind = LinkKind::with_id(2);

    /// A ground jump followed by an air jump.
    pub const DOUBLE_JUMP: LinkKind = LinkKind::with_id(3);
}

/// The jump links from `s`: served from the jump templates where links are
/// computed in their start cell's frame on flat ground (the templates are
/// performed there), else each family simulated here.
fn generate(s: &Start<'_>, worker: &mut WorkerGuard<'_>, best: &mut Best) {
    let active = Active::of(s.level);
    let templated = active.flat_ground();
    if templated {
        let (cache, rules) = (worker.cache, rules_of(s.level));
        let Worker { grown, memo } = worker.get();
        if !grown
            .as_ref()
            .is_some_and(|g| g.serves(s.p, s.jumps, rules))
        {
            *grown = Some(Grown::new(
                cache.templates(s.p, s.jumps, rules),
                cache.grown_budget(),
            ));
        }
        if let Some(grown) = grown.as_mut() {
            grown.walk(s, memo, best);
        }
    }
    let memo = Some(&worker.get().memo);
    let sim = || s.sim(memo);
    if !templated {
        for fam in families(s.p, s.jumps) {
            run_family(sim(), &fam, best);
        }
    }
    // The edge take-offs and the hop runs last, as the naive reference
    // offers them.
    for fam in edge::families(sim, s.p, s.jumps) {
        run_family(sim(), &fam, best);
    }
    hops::generate(sim, s.p, s.jumps, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Classification;
    use crate::level::Level;
    use crate::links::BuildCache;
    use crate::links::options::{JumpVariety, Link};
    use crate::links::sim::Sim;
    use crate::physics::Physics;

    /// Jump links of every standable cell, by the templates (and the edge
    /// take-offs) and by simulating every family from scratch.
    fn both(
        level: &Level,
        p: &Physics,
        variety: JumpVariety,
        cache: &BuildCache,
    ) -> (Vec<Link>, Vec<Link>) {
        let classes = Classification::new(level, p);
        let (mut by_templates, mut exact) = (Vec::new(), Vec::new());
        let mut worker = cache.worker();
        for from in classes.standable_cells() {
            let mut best = Best::new(from, level);
            let start = Start {
                level,
                p,
                classes: &classes,
                from,
                reads: None,
                jumps: variety,
            };
            generate(&start, &mut worker, &mut best);
            by_templates.extend(best.into_sorted());
            let mut best = Best::new(from, level);
            let sim = || Sim::new(level, p, &classes, from);
            for fam in families(p, variety) {
                run_family(sim(), &fam, &mut best);
            }
            for fam in edge::families(sim, p, variety) {
                run_family(sim(), &fam, &mut best);
            }
            hops::generate(sim, p, variety, &mut best);
            exact.extend(best.into_sorted());
        }
        (by_templates, exact)
    }

    #[test]
    fn templates_give_exactly_the_simulated_links() {
        let demo: Level = include_str!("../../../../levels/demo.txt").parse().unwrap();
        let trap: Level = include_str!("../../../../levels/trap.txt").parse().unwrap();
        let generated = Level::generate(48, 32, 3).unwrap();
        let (full, coarse) = (JumpVariety::Full, JumpVariety::Coarse);
        let cases = [
            (demo.clone(), Physics::agile(), full),
            (demo, Physics::default(), full),
            (trap.clone(), Physics::smb(), full),
            (trap, Physics::smb(), coarse),
            (generated.clone(), Physics::default(), full),
            (generated, Physics::default(), coarse),
            (Level::generate(40, 20, 9).unwrap(), Physics::agile(), full),
        ];
        let (mut held_back, mut spent, mut twins) = (false, false, 0);
        // A small budget, so that both its limits are reached.
        let budget = 128 << 10;
        let cache = BuildCache::with_budgets(budget, BuildCache::DEFAULT_MEMO_BYTES);
        for (level, p, variety) in cases {
            // Twice: the second pass walks branches the first one grew.
            for pass in 0..2 {
                let (t, e) = both(&level, &p, variety, &cache);
                assert!(!e.is_empty());
                assert_eq!(t.len(), e.len(), "pass {pass}");
                for (a, b) in t.iter().zip(&e) {
                    assert_eq!(a, b, "pass {pass}");
                }
            }
            if let Some(g) = cache.worker().get().grown.as_ref() {
                let (some_held_back, bytes, twin_nodes) = g.budget_counts();
                held_back |= some_held_back;
                spent |= bytes > budget;
                twins += twin_nodes;
            }
        }
        // The budget's two limits were reached, and changed no link.
        assert!(held_back && spent, "held back {held_back}, spent {spent}");
        // Branches repeating earlier ones were grown as twins, and changed
        // no link either.
        assert!(twins > 0, "no twin grown");
    }
}
