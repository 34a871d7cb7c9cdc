//! Conformance: how far another body profile is from the one a map was
//! built with. Each link's tape, performed from its start on the other
//! profile, either ends standing on the link's cell, alive, or it does
//! not: the links a game's own tuning cannot perform are the routes its
//! enemies would be sent on and fail.

use crate::graph::{LinkId, NavMap};
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::physics::{Body, Physics, PhysicsError};

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
        let (body, died_at) = perform(map, other, link.id, link.from);
        if died_at.is_none() && body.stands_on(link.to) {
            tally.performed += 1;
        } else {
            failures.push(Failure {
                kind: link.kind,
                from: link.from,
                to: link.to,
                ends_on: body.standing_cell().filter(|_| died_at.is_none()),
                feet: [body.x, body.y],
                died_at,
            });
        }
    }
    by_kind.retain(|k| k.links > 0);
    let links = map.link_count();
    Ok(Conformance {
        links,
        performed: links - failures.len(),
        by_kind,
        failures,
    })
}

/// Performs one link's tape from `from` on `other`: the body at its end
/// (or death) and the tick it died on, if it did.
fn perform(map: &NavMap, other: &Physics, id: LinkId, from: Cell) -> (Body, Option<u32>) {
    let level = map.level();
    let mut body = Body::start(level, from, other);
    for (t, input) in map.inputs(id).enumerate() {
        body.step(level, other, input);
        if body.dead {
            return (body, Some(t as u32));
        }
    }
    (body, None)
}
