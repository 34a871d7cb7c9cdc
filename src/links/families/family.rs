//! What a link family is: a row of the engine's own ([`Engine`]) or a
//! mechanic's (`seam::Family`), behind one type ([`Family`]); and the
//! names, letters and colours of the link kinds they declare.

use super::driver;
use super::start::Start;
use crate::level::Level;
use crate::links::best::Best;
use crate::links::cache::WorkerGuard;
use crate::links::options::JumpVariety;
use crate::mechanics::seam::{self, KindSpec};
use crate::mechanics::{self, LinkKind};
use crate::physics::Physics;

/// A family of the link engine's own: its links' kinds (the first is its
/// switch), where it applies, its program count, and its generator.
pub(crate) struct Engine {
    pub kinds: &'static [KindSpec],
    pub applies: fn(&Level, &Physics) -> bool,
    pub programs: fn(&Physics, JumpVariety) -> usize,
    pub generate: fn(&Start<'_>, &mut WorkerGuard<'_>, &mut Best),
}

/// One row of the table: a family of the engine's, or a mechanic's.
#[derive(Clone, Copy)]
pub(crate) enum Family {
    Engine(&'static Engine),
    Mechanic(&'static seam::Family),
}

impl Family {
    /// The kinds of its links; the first names the family.
    pub fn kinds(self) -> &'static [KindSpec] {
        match self {
            Family::Engine(f) => f.kinds,
            Family::Mechanic(f) => f.kinds,
        }
    }

    /// Its switch in `LinkOptions`: its first kind.
    pub fn switch(self) -> LinkKind {
        self.kinds()[0].kind
    }

    /// Whether it can give a link on `level` with `physics`.
    pub fn applies(self, level: &Level, physics: &Physics) -> bool {
        match self {
            Family::Engine(f) => (f.applies)(level, physics),
            Family::Mechanic(f) => (f.applies)(level, physics),
        }
    }

    /// The most programs it tries from one standing cell.
    pub fn programs(self, physics: &Physics, jumps: JumpVariety) -> usize {
        match self {
            Family::Engine(f) => (f.programs)(physics, jumps),
            Family::Mechanic(f) => (f.programs)(physics),
        }
    }

    /// Generates its links from `start`, offering them to `best`.
    pub fn generate(self, start: &Start<'_>, worker: &mut WorkerGuard<'_>, best: &mut Best) {
        match self {
            Family::Engine(f) => (f.generate)(start, worker, best),
            Family::Mechanic(f) => driver::drive(f.generate, start, worker, best),
        }
    }
}

/// How many link kinds the families declare ([`LinkKind::COUNT`]).
const KIND_COUNT: usize = {
    let mut n = 0;
    let mut f = 0;
    while f < super::ENGINE.len() {
        n += super::ENGINE[f].kinds.len();
        f += 1;
    }
    let mut m = 0;
    while m < mechanics::ALL.len() {
        let mut f = 0;
        while f < mechanics::ALL[m].families.len() {
            n += mechanics::ALL[m].families[f].kinds.len();
            f += 1;
        }
        m += 1;
    }
    n
};

mechanics::named_id!(LinkKind, KIND_COUNT, KIND_NAMES);

/// Every kind's spec, by [`LinkKind::index`]: each kind is declared by
/// exactly one family (checked when the crate compiles).
static KINDS: [&KindSpec; KIND_COUNT] = kind_table();

/// Every kind's name, in [`LinkKind::ALL`] order (for JSON errors).
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
static KIND_NAMES: [&str; KIND_COUNT] = {
    let specs = kind_table();
    let mut names = [""; KIND_COUNT];
    let mut k = 0;
    while k < KIND_COUNT {
        names[k] = specs[k].name;
        k += 1;
    }
    names
};

const fn kind_table() -> [&'static KindSpec; KIND_COUNT] {
    let mut found: [Option<&'static KindSpec>; KIND_COUNT] = [None; KIND_COUNT];
    let mut f = 0;
    while f < super::ENGINE.len() {
        declare(&mut found, super::ENGINE[f].kinds);
        f += 1;
    }
    let mut m = 0;
    while m < mechanics::ALL.len() {
        let mut f = 0;
        while f < mechanics::ALL[m].families.len() {
            declare(&mut found, mechanics::ALL[m].families[f].kinds);
            f += 1;
        }
        m += 1;
    }
    let mut out = [&super::ENGINE[0].kinds[0]; KIND_COUNT];
    let mut k = 0;
    while k < KIND_COUNT {
        match found[k] {
            Some(spec) => out[k] = spec,
            None => panic!("a link kind no family declares"),
        }
        k += 1;
    }
    out
}

/// Files `kinds` under their numbers, refusing a number declared twice.
const fn declare(found: &mut [Option<&'static KindSpec>; KIND_COUNT], kinds: &'static [KindSpec]) {
    let mut i = 0;
    while i < kinds.len() {
        let spec = &kinds[i];
        assert!(
            found[spec.kind.index()].is_none(),
            "a link kind declared twice"
        );
        found[spec.kind.index()] = Some(spec);
        i += 1;
    }
}

/// The spec of link kind `kind`, from the family whose links it names.
#[inline]
fn kind_spec(kind: LinkKind) -> &'static KindSpec {
    KINDS[kind.index()]
}

impl LinkKind {
    /// The snake-case name used in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        kind_spec(self).name
    }

    /// Parses a name as written by [`LinkKind::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The letter marking a link of this kind on a path drawn in text.
    #[must_use]
    pub fn letter(self) -> char {
        kind_spec(self).letter
    }

    /// The colour of links of this kind in pictures, as RGB.
    #[must_use]
    pub fn colour(self) -> [u8; 3] {
        kind_spec(self).colour
    }
}

impl std::fmt::Display for LinkKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every link kind is named by exactly one family, and names, letters
    /// and colours tell the kinds apart.
    #[test]
    fn every_link_kind_belongs_to_one_family() {
        for k in LinkKind::ALL {
            let owners = super::super::all()
                .filter(|f| f.kinds().iter().any(|s| s.kind == k))
                .count();
            assert_eq!(owners, 1, "{k:?}");
            assert_eq!(LinkKind::from_name(k.name()), Some(k));
        }
        let specs: Vec<&KindSpec> = super::super::all().flat_map(|f| f.kinds()).collect();
        for (i, a) in specs.iter().enumerate() {
            for b in &specs[i + 1..] {
                assert!(a.name != b.name && a.letter != b.letter && a.colour != b.colour);
            }
        }
    }
}
