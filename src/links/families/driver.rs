//! The seam's `Driver` on the link engine's simulation: a mechanic's family
//! performs its programs on [`Sim`], from the start cell, in the frame of
//! its links, with the build's landing memo and read notes.

use super::start::Start;
use crate::level::{Cell, Level, Tile};
use crate::links::best::Best;
use crate::links::cache::WorkerGuard;
use crate::links::sim::Sim;
use crate::mechanics::LinkKind;
use crate::mechanics::seam::Driver;
use crate::physics::{Body, Frame, Input, Physics};

/// Runs a mechanic's family `generate` from `start`, offering its links to
/// `best`.
pub(super) fn drive(
    generate: fn(&mut dyn Driver),
    start: &Start<'_>,
    worker: &mut WorkerGuard<'_>,
    best: &mut Best,
) {
    let memo = Some(&worker.get().memo);
    let sim = || start.sim(memo);
    let mut driver = SimDriver {
        frame: sim().frame,
        level: start.level,
        p: start.p,
        from: start.from,
        sim: &sim,
        best,
        landed: None,
    };
    generate(&mut driver);
}

/// The link engine's side of the seam: fresh simulations from the start,
/// and the best links so far.
struct SimDriver<'s, 'a, F: Fn() -> Sim<'a>> {
    frame: Frame<'a>,
    level: &'a Level,
    p: &'a Physics,
    from: Cell,
    sim: &'s F,
    best: &'s mut Best,
    /// The flight [`Driver::fly`] last landed, until it is offered.
    landed: Option<Sim<'a>>,
}

impl<'a, F: Fn() -> Sim<'a>> Driver for SimDriver<'_, 'a, F> {
    fn physics(&self) -> &Physics {
        self.p
    }

    fn from(&self) -> Cell {
        self.from
    }

    fn tile(&self, cell: Cell) -> Option<Tile> {
        self.frame.note(cell);
        self.level.get(self.level.wrapped(cell))
    }

    fn fly(&mut self, program: &mut dyn FnMut(usize, &Body) -> Option<Input>) -> bool {
        let mut s = (self.sim)();
        let landed = s.fly(program);
        self.landed = landed.then_some(s);
        landed
    }

    fn offer(&mut self, kind: LinkKind) {
        if let Some(s) = self.landed.take() {
            let link = s.land(kind, self.best);
            self.best.offer(link);
        }
    }

    fn steered(
        &mut self,
        kind: LinkKind,
        switches: &[usize],
        targets: [i8; 2],
        program: &dyn Fn(Option<(usize, i8)>, usize) -> Input,
    ) {
        let flights = (self.sim)().steered(switches.iter().copied(), targets, |sched| {
            move |t: usize, _: &Body| Some(program(sched, t))
        });
        for s in flights {
            let link = s.land(kind, self.best);
            self.best.offer(link);
        }
    }
}
