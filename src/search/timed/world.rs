//! The world a timed path is performed in: a level, the physics and the
//! moving platforms, stepped from a given tick.

use super::memo::Touched;
use crate::level::{Cell, Level, Platforms};
use crate::physics::{Body, Input, Physics};

/// A level with moving platforms, for one physics profile.
#[derive(Debug, Clone, Copy)]
pub struct World<'a> {
    /// The tiles.
    pub level: &'a Level,
    /// The body's rules.
    pub physics: &'a Physics,
    /// The platforms, checked for the physics' tick.
    pub platforms: &'a Platforms,
    /// Where the platforms each tick looked at are noted, when a result
    /// is to be kept for every tick they are in the same places.
    touched: Option<&'a Touched>,
}

impl<'a> World<'a> {
    /// `level` with `platforms`, for `physics`.
    #[must_use]
    pub fn new(level: &'a Level, physics: &'a Physics, platforms: &'a Platforms) -> Self {
        Self {
            level,
            physics,
            platforms,
            touched: None,
        }
    }

    /// The same world, noting in `touched` every platform a tick or a
    /// ride looks at.
    pub(super) fn noting(self, touched: &'a Touched) -> Self {
        Self {
            touched: Some(touched),
            ..self
        }
    }

    /// One tick of `body` from tick `tick`.
    #[inline]
    pub fn step(&self, body: &mut Body, tick: u64, input: Input) {
        let (level, platforms, p) = (self.level, self.platforms, self.physics);
        match self.touched {
            None => body.step_moving(level, platforms, tick, p, input),
            Some(t) => body.step_moving_noting(level, platforms, tick, p, input, |k| t.note(k)),
        }
    }

    /// Notes that platform `k`'s place was looked at, when noting.
    #[inline]
    pub(super) fn note(&self, k: usize) {
        if let Some(t) = self.touched {
            t.note(k);
        }
    }

    /// The platform `body` rides as tick `tick` starts ([`Body::riding`]).
    #[must_use]
    pub fn riding(&self, body: &Body, tick: u64) -> Option<usize> {
        match self.touched {
            None => body.riding(self.platforms, tick, self.physics),
            Some(t) => body.riding_noting(self.platforms, tick, self.physics, |k| t.note(k)),
        }
    }

    /// Performs `inputs` on `body` from tick `tick`; returns the tick after.
    pub fn perform(&self, body: &mut Body, tick: u64, inputs: &[Input]) -> u64 {
        for (i, &input) in inputs.iter().enumerate() {
            self.step(body, tick + i as u64, input);
        }
        tick + inputs.len() as u64
    }

    /// The state standing on `cell`, as every path starts.
    #[must_use]
    pub fn start(&self, cell: Cell) -> Body {
        Body::start(self.level, cell, self.physics)
    }

    /// Platform `k`'s left edge and top on tick `tick`.
    #[must_use]
    pub fn corner(&self, k: usize, tick: u64) -> [f64; 2] {
        self.platforms.all()[k].at(tick)
    }

    /// The ticks a held jump takes to its apex, at least 1 and at most
    /// 120 (30 with no gravity): the platform programs' longest hold.
    #[must_use]
    pub fn apex_ticks(&self) -> u32 {
        let p = self.physics;
        if p.gravity > 0.0 {
            (p.jump_speed / p.gravity / p.dt).ceil().clamp(1.0, 120.0) as u32
        } else {
            30
        }
    }

    /// The platforms whose reach holds `cell`: those a body standing
    /// there might board by a jump or a fall, or that might pass it. A
    /// generous box around each platform's whole cycle, so it decides
    /// only where the search tries programs, never whether a path is
    /// performable.
    pub fn in_reach(&self, cell: Cell) -> impl Iterator<Item = usize> + '_ {
        let p = self.physics;
        let apex = if p.gravity > 0.0 {
            p.jump_speed / p.gravity
        } else {
            1.0
        };
        let across = (p.max_speed_x() * (2.0 * apex + 0.5)).ceil() + 2.0;
        let up = (p.jump_speed * apex / 2.0).ceil() + 2.0 + p.h;
        let (x, y) = (f64::from(cell.col) + 0.5, f64::from(cell.row) + 1.0);
        self.platforms
            .all()
            .iter()
            .enumerate()
            .filter(move |(_, m)| {
                let s = m.swept();
                x > s[0] - across && x < s[2] + across && y > s[1] - 24.0 && y < s[3] + up
            })
            .map(|(k, _)| k)
    }
}
