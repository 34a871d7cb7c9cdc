//! Departure profiles: where each platform program went from one place
//! after a wait, by the phase of the departure's tick, and from them, for
//! a search that expands the place again, the program's first arrival at
//! each place over all the waits at once.
//!
//! A program's outcome holds on every tick on which the platforms it
//! looked at are where they were: the phase of the tick modulo the least
//! common multiple of their periods (its modulus). Kept for every phase
//! of the cycle a wait stride visits, the first arrival at a place over
//! the waits `0, s, 2s, ...` up to a horizon depends only on the phase
//! too: a sliding minimum around that cycle.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use super::Place;
use super::menu::Outcome;
use crate::links::FastMap;

/// The most bytes the profiles keep, about; past it they start again (a
/// bound on memory, not a cache policy).
const MAX_BYTES: usize = 1 << 26;
/// The longest cycle a program's first arrivals are tabulated over.
pub(crate) const MAX_CYCLE: u64 = 4096;

/// A place departed from, the platform ridden there, and the program's
/// index in the menu.
pub(crate) type From = (Place, Option<usize>, usize);

/// What a program did from one phase: where it ended (ticks counted from
/// the departure), or `None`.
type Went = Option<Arc<Outcome>>;

/// A program's first arrivals from one phase: each place's, as its wait
/// and outcome, shortest wait first.
pub(crate) struct Arrivals {
    table: Arc<Table>,
    j: usize,
}

impl Arrivals {
    /// The arrivals.
    pub(crate) fn all(&self) -> &[(u64, Arc<Outcome>)] {
        &self.table.arrivals[self.j]
    }
}

/// The first arrivals of a program from every phase of one cycle.
struct Table {
    /// The cycle's length in ticks: a multiple of the stride and of
    /// every modulus kept.
    cycle: u64,
    /// The departures a search tries from one tick: the waits of the
    /// stride up to its horizon.
    window: usize,
    /// By `(phase - class) / stride`: the first arrival at each place,
    /// as its wait and outcome, shortest wait first.
    arrivals: Vec<Vec<(u64, Arc<Outcome>)>>,
}

/// One program's departures from one place: by modulus, by phase (a
/// place near two platforms out of step can have one for each, and for
/// both).
#[derive(Default)]
struct Profile {
    /// By modulus (at most [`MAX_CYCLE`]), by phase.
    at: Vec<(u64, Vec<Option<Went>>)>,
    /// By stride and class (the tick modulo the stride).
    tables: FastMap<(u64, u64), Arc<Table>>,
}

impl Profile {
    fn get(&self, tick: u64) -> Option<&Went> {
        self.at
            .iter()
            .find_map(|(m, phases)| phases[(tick % m) as usize].as_ref())
    }
}

/// Every place's and program's departures.
pub(crate) struct Profiles {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    by_from: FastMap<From, Profile>,
    weight: usize,
}

impl Profiles {
    /// None kept.
    pub(crate) fn new() -> Self {
        Self {
            kept: Mutex::new(Kept::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the program did departing `from` on tick `tick`, if kept.
    pub(crate) fn get(&self, from: &From, tick: u64) -> Option<Went> {
        self.lock().by_from.get(from)?.get(tick).cloned()
    }

    /// Keeps what the program did departing `from` on tick `tick`, which
    /// holds on the ticks of its phase of `modulus` (when that is at most
    /// [`MAX_CYCLE`]: a longer one hardly comes round again).
    pub(crate) fn put(&self, from: From, tick: u64, modulus: u64, went: Went) {
        if modulus > MAX_CYCLE {
            return;
        }
        let mut kept = self.lock();
        kept.weight += 64
            + went.as_ref().map_or(0, |o| {
                size_of::<Outcome>() + o.settle.len() * size_of::<crate::physics::Input>()
            });
        if kept.weight > MAX_BYTES {
            *kept = Kept::default();
        }
        let profile = kept.by_from.entry(from).or_default();
        let m = modulus.max(1);
        let at = match profile.at.iter().position(|(n, _)| *n == m) {
            Some(at) => at,
            None => {
                profile.at.push((m, vec![None; m as usize]));
                profile.at.len() - 1
            }
        };
        profile.at[at].1[(tick % m) as usize] = Some(went);
    }

    /// Each program's first arrivals departing `place` (riding `on`)
    /// after waits of `stride` up to `horizon` from tick `tick`: for the
    /// first `programs` of the menu, `None` where no table of them is
    /// kept.
    pub(crate) fn earliest(
        &self,
        (place, on): (Place, Option<usize>),
        programs: usize,
        tick: u64,
        stride: u64,
        horizon: u64,
    ) -> Vec<Option<Arrivals>> {
        let kept = self.lock();
        let window = (horizon / stride) as usize + 1;
        (0..programs)
            .map(|i| {
                let profile = kept.by_from.get(&(place, on, i))?;
                let table = profile.tables.get(&(stride, tick % stride))?;
                let j = ((tick % table.cycle) / stride) as usize;
                (table.window == window).then(|| Arrivals {
                    table: table.clone(),
                    j,
                })
            })
            .collect()
    }

    /// Tabulates the program's first arrivals departing `from` on the
    /// ticks of `tick`'s class of `stride`, over waits up to `horizon`,
    /// when every phase of that class is kept.
    pub(crate) fn tabulate(&self, from: &From, tick: u64, stride: u64, horizon: u64) {
        let mut kept = self.lock();
        let Some(profile) = kept.by_from.get_mut(from) else {
            return;
        };
        let class = tick % stride;
        let cycle = profile.at.iter().fold(stride, |c, &(m, _)| lcm(c, m));
        if cycle > MAX_CYCLE || profile.tables.contains_key(&(stride, class)) {
            return;
        }
        let n = (cycle / stride) as usize;
        let Some(each) = (0..n)
            .map(|j| profile.get(class + j as u64 * stride).cloned())
            .collect::<Option<Vec<Went>>>()
        else {
            return;
        };
        let window = (horizon / stride) as usize + 1;
        let arrivals = first_arrivals(&each, stride, window)
            .into_iter()
            .enumerate()
            .map(|(j, waits)| {
                let outcome = |w: u64| each[(j + (w / stride) as usize) % n].clone();
                waits
                    .into_iter()
                    .filter_map(|w| Some((w, outcome(w)?)))
                    .collect()
            })
            .collect();
        let table = Table {
            cycle,
            window,
            arrivals,
        };
        profile.tables.insert((stride, class), Arc::new(table));
    }
}

/// For each departure `j` of a cycle (`each[j]`, a stride after the one
/// before it, around the cycle), the waits of the first arrival at every
/// place over the next `window` departures from it (waits `0` to
/// `(window - 1) * stride`), the shorter wait on a tie, shortest first.
fn first_arrivals(each: &[Went], stride: u64, window: usize) -> Vec<Vec<u64>> {
    let n = each.len();
    let mut places: Vec<Place> = each.iter().flatten().map(|o| o.place).collect();
    places.sort_unstable_by_key(|p| match *p {
        Place::Cell(c) => (0, c.col, c.row),
        Place::Platform { platform, slot } => (1, platform as i32, slot as i32),
    });
    places.dedup();
    let mut waits = vec![Vec::new(); n];
    for place in places {
        // The arrival after departure i of the unrolled cycle, counted
        // from departure 0: i * stride + its ticks, where it ends there.
        let arrival = |i: usize| {
            each[i % n]
                .as_ref()
                .filter(|o| o.place == place)
                .map(|o| i as u64 * stride + o.tick)
        };
        // The least over i in [j, j + window), from the right; a tie
        // goes to the smaller i (the shorter wait).
        let mut least: VecDeque<(usize, u64)> = VecDeque::new();
        for i in (0..n + window - 1).rev() {
            if let Some(t) = arrival(i) {
                while least.back().is_some_and(|&(_, b)| b >= t) {
                    least.pop_back();
                }
                least.push_back((i, t));
            }
            while least.front().is_some_and(|&(f, _)| f >= i + window) {
                least.pop_front();
            }
            if i < n
                && let Some(&(best, _)) = least.front()
            {
                waits[i].push((best - i) as u64 * stride);
            }
        }
    }
    for w in &mut waits {
        w.sort_unstable();
    }
    waits
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple, saturating.
pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

#[cfg(test)]
mod tests {
    use super::super::menu::menu;
    use super::*;
    use crate::level::{Cell, Level};
    use crate::physics::{Body, Physics};

    fn went(col: i32, tick: u64) -> Went {
        let level: Level = "...\n###\n".parse().unwrap();
        Some(Arc::new(Outcome {
            place: Place::Cell(Cell::new(col, 0)),
            body: Body::start(&level, Cell::new(1, 0), &Physics::default()),
            tick,
            program: menu(10)[0],
            flight: 0,
            settle: Vec::new(),
        }))
    }

    /// Departures every 2 ticks around a cycle of 4: the first arrival at
    /// each place over 3 of them (waits 0, 2 and 4).
    #[test]
    fn first_arrivals_are_a_sliding_minimum_around_the_cycle() {
        let each = [went(1, 10), None, went(1, 3), went(2, 1)];
        let waits = first_arrivals(&each, 2, 3);
        // From 0: place 1 at 10 (wait 0) or 4 + 3 (wait 4): wait 4.
        assert_eq!(waits[0], vec![4]);
        // From 1: place 1 at 2 + 3 (wait 2), place 2 at 4 + 1 (wait 4).
        assert_eq!(waits[1], vec![2, 4]);
        // From 3: place 2 now; place 1 at 2 + 10 or 6 + 3 (wait 6 is out
        // of the window): wait 2.
        assert_eq!(waits[3], vec![0, 2]);
    }

    #[test]
    fn a_kept_outcome_holds_on_its_phase_only() {
        let profiles = Profiles::new();
        let from = (Place::Cell(Cell::new(0, 0)), None, 0);
        profiles.put(from, 250, 240, went(1, 5));
        assert!(profiles.get(&from, 10).is_some());
        assert!(profiles.get(&from, 490).is_some());
        assert!(profiles.get(&from, 11).is_none());
        profiles.put(from, 3, 1, None);
        assert!(profiles.get(&from, 11).is_some_and(|went| went.is_none()));
        assert_eq!(lcm(240, 312), 3120);
    }
}
