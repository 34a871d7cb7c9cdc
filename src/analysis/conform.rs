//! Conformance: how far another body profile, or another body model, is
//! from the one a map was built with. Each link's tape, performed from its start on the other
//! profile, either ends standing on the link's cell, alive, or it does
//! not: the links a game's own tuning cannot perform are the routes its
//! enemies would be sent on and fail.

use crate::graph::{LinkId, NavMap};
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::model::BodyModel;
use crate::physics::{Physics, PhysicsError};

/// How the links of a map perform on another profile ([`conformance`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Conformance {
    /// Links in the map.
    pub links: usize,
    /// Links whose tape the other profile performs: it ends standing on
    /// the link's cell, alive.
    pub performed: usize,
    /// The same per kind of link, for the kinds the map has.
    pub by_kind: Vec<KindConformance>,
    /// The links the other profile does not perform, in link order.
    pub failures: Vec<Failure>,
}

/// [`Conformance`] for one kind of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct KindConformance {
    /// The kind.
    pub kind: LinkKind,
    /// Its links in the map.
    pub links: usize,
    /// Those the other profile performs.
    pub performed: usize,
}

/// A link the other profile does not perform, and what its tape did
/// instead.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Failure {
    /// The link's kind.
    pub kind: LinkKind,
    /// Where it starts.
    pub from: Cell,
    /// Where it ends on the map's profile.
    pub to: Cell,
    /// Where the other body ended: the cell it stands on, if any.
    pub ends_on: Option<Cell>,
    /// Its feet at the end (tiles), or where it died.
    pub feet: [f64; 2],
    /// The tick the other body died on, if it did.
    pub died_at: Option<u32>,
}

impl Conformance {
    /// The share of links performed, 1 for a map without links.
    #[must_use]
    pub fn fraction(&self) -> f64 {
        if self.links == 0 {
            1.0
        } else {
            self.performed as f64 / self.links as f64
        }
    }
}

/// Performs every link of `map` on `other` (a profile the map was not
/// built with, say a game's own tuning against a preset) and reports which
/// it does not perform.
///
/// # Errors
/// [`PhysicsError`] when `other` is invalid.
pub fn conformance(map: &NavMap, other: &Physics) -> Result<Conformance, PhysicsError> {
    other.validate()?;
    Ok(conformance_on(map, other))
}

/// Performs every link of `map` on `model` (a game's own movement, say)
/// and reports which it does not perform: a link is performed when its
/// tape, from the model standing on the link's start, ends with the model
/// alive and standing on the link's end.
///
/// ```
/// use platnav::analysis::conformance_on;
/// use platnav::model::nes::NesMario;
/// use platnav::{Level, NavMap, Physics};
///
/// let level: Level = "..........\n..........\n.S..##..G.\n##########".parse()?;
/// let map = NavMap::build(&level, &Physics::smb())?;
/// let report = conformance_on(&map, &NesMario::small());
/// assert_eq!(report.links, map.link_count());
/// assert!(report.performed > 0, "the NES Mario performs some of the float profile's links");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn conformance_on<M: BodyModel>(map: &NavMap, model: &M) -> Conformance {
    let mut by_kind: Vec<KindConformance> = LinkKind::ALL
        .iter()
        .map(|&kind| KindConformance {
            kind,
            links: 0,
            performed: 0,
        })
        .collect();
    let mut failures = Vec::new();
    for link in map.links() {
        let tally = &mut by_kind[link.kind.index()];
        tally.links += 1;
        let (end, died_at) = perform(map, model, link.id, link.from);
        let ends_on = model.standing_cell(&end);
        if died_at.is_none() && ends_on == Some(link.to) {
            tally.performed += 1;
        } else {
            failures.push(Failure {
                kind: link.kind,
                from: link.from,
                to: link.to,
                ends_on: ends_on.filter(|_| died_at.is_none()),
                feet: model.feet(&end),
                died_at,
            });
        }
    }
    by_kind.retain(|k| k.links > 0);
    let links = map.link_count();
    Conformance {
        links,
        performed: links - failures.len(),
        by_kind,
        failures,
    }
}

/// Performs one link's tape from `from` on `model`: its state at the end
/// (or death) and the tick it died on, if it did.
fn perform<M: BodyModel>(
    map: &NavMap,
    model: &M,
    id: LinkId,
    from: Cell,
) -> (M::State, Option<u32>) {
    let level = map.level();
    let mut state = model.start(level, from);
    for (t, input) in map.inputs(id).enumerate() {
        model.step(level, &mut state, input);
        if model.dead(&state) {
            return (state, Some(t as u32));
        }
    }
    (state, None)
}
