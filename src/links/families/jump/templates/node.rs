//! A node of the template trees: one stretch of a program between branch
//! points, the checks it relied on, how it ends and the link it makes.

use super::{Check, Fact, Snap};
use crate::level::Cell;
use crate::mechanics::LinkKind;
use crate::physics::{Body, Input};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    /// Landed after being airborne; `outcome` holds the settle.
    Landed,
    /// The assumed world's template stops here (a deep fall, a high or wide
    /// flight, or [`BASE_TICKS`](super::BASE_TICKS)); simulate on in the
    /// real terrain.
    Open,
    /// The program gave up (the run-up left the ground) or died.
    Failed,
    /// A switch tick: the children go on.
    Branch,
    /// A steering branch whose body, at its first tick, is bit for bit
    /// that of the earlier branch `of` (same family and direction) after
    /// `upto` of its steps. Both go on with the same inputs, so this one
    /// lands where `of` does on the same tick, and offers a link that ties
    /// `of`'s, which [`Best`](crate::links::best::Best) keeps: nothing is
    /// simulated. It holds in a real cell when `of`'s checks and death
    /// tests before step `upto` do; otherwise the branch is simulated
    /// there.
    Twin { of: u32, upto: u32 },
}

/// The link a landed node makes, in its start's frame.
pub(super) struct Outcome {
    pub(super) to: Cell,
    pub(super) kind: LinkKind,
    pub(super) jumps: u8,
    /// Ticks of braking alone to rest (a lower bound on the settle's).
    pub(super) braking: u32,
    /// The body as it landed.
    pub(super) landing: Body,
    pub(super) settle: Settle,
}

/// A landing's settle phase: simulated when a cell first needs the link
/// (most landings are beaten by a link already kept, and never need it).
pub(super) enum Settle {
    Unknown,
    Failed,
    Done(Vec<Input>),
}

/// A stretch of one program between branch points.
///
/// Laid out for the walk, which visits many nodes per cell: what it reads
/// of every node (the checks, where the settle's begin, the bottom test,
/// the end) shares the node's first cache line.
#[repr(C, align(64))]
pub(super) struct Node {
    pub(super) checks: Vec<Check>,
    /// The deepest the box's top went (`y - h`) over the node's steps,
    /// leaving out a last step that died below the level's bottom.
    pub(super) deepest: f64,
    /// `y - h` of that last step, when the node died below the bottom.
    pub(super) fell_out: Option<f64>,
    /// The checks before the settle's: `checks[..settle_from]` have steps
    /// below [`SETTLE`](super::SETTLE) (the settle's are only ever
    /// appended after them).
    pub(super) settle_from: u32,
    /// Tape index of the node's first step.
    pub(super) start: u32,
    pub(super) end: End,
    pub(super) children: Vec<u32>,
    pub(super) inputs: Vec<Input>,
    pub(super) outcome: Option<Outcome>,
    pub(super) family: u32,
    /// The steering of a branch (`None` on the base).
    pub(super) steer: Option<(usize, i8)>,
    /// The node this one continues, after that many of its steps.
    pub(super) parent: Option<(u32, u32)>,
    /// Facts known before the first step beyond those of the prefix.
    pub(super) seed: Vec<Fact>,
    pub(super) snaps: Vec<Snap>,
}

impl Node {
    /// The node of `family`/`steer` continuing `parent` from tape index
    /// `start`, knowing the facts `seed`, before its first step.
    #[inline]
    pub(super) fn new(
        family: u32,
        steer: Option<(usize, i8)>,
        parent: Option<(u32, u32)>,
        start: usize,
        seed: Vec<Fact>,
    ) -> Self {
        Node {
            family,
            steer,
            parent,
            start: start as u32,
            seed,
            // Room for a typical node's steps, so that pushing them does
            // not reallocate; the snapshots are trimmed when it is done.
            inputs: Vec::with_capacity(32),
            snaps: Vec::with_capacity(32),
            checks: Vec::new(),
            settle_from: 0,
            end: End::Landed,
            children: Vec::new(),
            outcome: None,
            deepest: f64::NEG_INFINITY,
            fell_out: None,
        }
    }

    /// The [`End::Twin`] node of steering `steer` off `parent` at tape
    /// index `start`.
    pub(super) fn twin(
        family: u32,
        steer: Option<(usize, i8)>,
        parent: (u32, u32),
        start: usize,
        of: u32,
        upto: u32,
    ) -> Self {
        Node {
            checks: Vec::new(),
            deepest: f64::NEG_INFINITY,
            fell_out: None,
            settle_from: 0,
            start: start as u32,
            end: End::Twin { of, upto },
            children: Vec::new(),
            inputs: Vec::new(),
            outcome: None,
            family,
            steer,
            parent: Some(parent),
            seed: Vec::new(),
            snaps: Vec::new(),
        }
    }

    /// Notes the node's bottom tests against a bottom `rows` down (`h`
    /// the body's height): the deepest the box's top went, and where its
    /// last step died below the bottom, if it did.
    #[inline]
    pub(super) fn note_bottom_tests(&mut self, rows: f64, h: f64) {
        for (i, snap) in self.snaps.iter().enumerate() {
            let top = snap.body.y - h;
            if top > rows && i + 1 == self.snaps.len() {
                self.fell_out = Some(top);
            } else {
                self.deepest = self.deepest.max(top);
            }
        }
    }

    pub(super) fn bytes(&self) -> usize {
        size_of::<Node>()
            + self.seed.len() * size_of::<Fact>()
            + self.inputs.len() * size_of::<Input>()
            + self.snaps.len() * size_of::<Snap>()
            + self.checks.len() * size_of::<Check>()
            + self.children.len() * 4
            + self.outcome.as_ref().map_or(0, |o| match &o.settle {
                Settle::Done(t) => t.len() * size_of::<Input>(),
                _ => 0,
            })
    }
}
