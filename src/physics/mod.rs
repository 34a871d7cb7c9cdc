//! Movement physics: the parameters ([`Physics`]) and the reference body
//! ([`Body`]) of `PHYSICS.md`.

mod body;
pub(crate) mod geometry;
pub(crate) mod reads;
#[cfg(feature = "serde")]
mod units;
mod view;

pub use body::{Body, Input, SLOPE_MARGIN};
pub use geometry::{EPS, GRID, on_grid, snap};
pub use view::{Frame, Surface, Tiles};

/// Wall-jump parameters; `None` in [`Physics::wall_jump`] disables wall jumps
/// and wall slides.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct WallJump {
    /// Horizontal speed away from the wall (tiles/s).
    pub speed_x: f64,
    /// Upward speed of the wall jump (tiles/s).
    pub speed_y: f64,
    /// Cap on the falling speed while sliding down a wall (tiles/s).
    pub slide_speed: f64,
}

impl WallJump {
    /// The `agile` preset's wall jump: 6 tiles/s away from the wall,
    /// 15 tiles/s up, sliding at 3 tiles/s at most.
    pub const AGILE: WallJump = WallJump {
        speed_x: 6.0,
        speed_y: 15.0,
        slide_speed: 3.0,
    };
}

/// The movement parameters of `PHYSICS.md`. Lengths in tiles, time in
/// seconds, y grows downward.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Physics {
    /// Body width (tiles).
    pub w: f64,
    /// Body height (tiles).
    pub h: f64,
    /// Top horizontal speed (tiles/s).
    pub run_speed: f64,
    /// Horizontal acceleration on the ground (tiles/s²).
    pub ground_accel: f64,
    /// Horizontal acceleration in the air (tiles/s²).
    pub air_accel: f64,
    /// Downward acceleration (tiles/s²).
    pub gravity: f64,
    /// Upward speed at jump start (tiles/s).
    pub jump_speed: f64,
    /// Upward speed a released jump is cut to (tiles/s); equal to
    /// `jump_speed` turns variable jump height off.
    pub jump_cut_speed: f64,
    /// Terminal falling speed (tiles/s).
    pub max_fall_speed: f64,
    /// Extra jumps in the air before landing again.
    pub air_jumps: u32,
    /// Wall jumps and wall slides, when enabled.
    pub wall_jump: Option<WallJump>,
    /// The tick length (s).
    pub dt: f64,
    /// Climbing speed on ladders (tiles/s; `PHYSICS.md`, "Ladders").
    /// Matters only on levels with ladders; defaults to
    /// [`Physics::DEFAULT_CLIMB_SPEED`].
    #[cfg_attr(
        feature = "serde",
        serde(
            default = "default_climb_speed",
            skip_serializing_if = "is_default_climb_speed"
        )
    )]
    pub climb_speed: f64,
    /// Coyote time: for this many ticks after the body leaves the ground
    /// without jumping, a jump press is still a ground jump (`PHYSICS.md`,
    /// "Coyote time and jump buffering"). 0, the default, turns it off.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub coyote_ticks: u32,
    /// Jump buffering: a press that starts no jump is kept this many ticks,
    /// and the body jumps on the first of them that it starts grounded.
    /// 0, the default, turns it off.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub jump_buffer_ticks: u32,
    /// The upward speed a jump pad launches the body at (tiles/s;
    /// `PHYSICS.md`, "Jump pads and springs"); `None` for
    /// [`Physics::DEFAULT_PAD_SPEED`], or less at long ticks
    /// ([`Physics::pad_launch`]). Matters only on levels with pads.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub pad_speed: Option<f64>,
    /// The upward speed a spring launches the body at when jump is not
    /// held (tiles/s); `None` for [`Physics::DEFAULT_SPRING_SPEED`] (see
    /// [`Physics::spring_launch`]). Matters only on levels with springs.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub spring_speed: Option<f64>,
    /// The upward speed a spring launches the body at when jump is held as
    /// it touches it (tiles/s); `None` for
    /// [`Physics::DEFAULT_SPRING_JUMP_SPEED`].
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub spring_jump_speed: Option<f64>,
    /// The jump boost (`PHYSICS.md`, "Jump boost"): an upward acceleration
    /// (tiles/s²) added while jump is held after a ground jump, fading
    /// linearly to nothing over [`Physics::jump_boost_ticks`] ticks, as
    /// games that lengthen a held jump do (sq2). 0, the default, turns it
    /// off.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero_f64"))]
    pub jump_boost: f64,
    /// The ticks over which [`Physics::jump_boost`] fades; 0, the default,
    /// turns it off.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub jump_boost_ticks: u32,
    /// What a body keeps of a moving platform's velocity when it leaves
    /// it (`PHYSICS.md`, "Moving platforms"); games differ. Matters only
    /// on levels with moving platforms; none by default.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "PlatformVelocity::is_none")
    )]
    pub platform_velocity: PlatformVelocity,
}

/// What a body keeps of a moving platform's velocity when it jumps or
/// walks off it (`PHYSICS.md`, "Moving platforms").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PlatformVelocity {
    /// Nothing: the platform only carries the body while it stands on it.
    #[default]
    None,
    /// The platform's horizontal velocity is added to the body's.
    Horizontal,
    /// Both components are added.
    All,
}

impl PlatformVelocity {
    /// True for [`PlatformVelocity::None`].
    #[must_use]
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
    pub fn is_none(&self) -> bool {
        *self == Self::None
    }
}

#[cfg(feature = "serde")]
fn default_climb_speed() -> f64 {
    Physics::DEFAULT_CLIMB_SPEED
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_default_climb_speed(v: &f64) -> bool {
    v.to_bits() == Physics::DEFAULT_CLIMB_SPEED.to_bits()
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero_f64(v: &f64) -> bool {
    v.to_bits() == 0
}

impl Default for Physics {
    /// The reference profile of `PHYSICS.md`: a 0.8 x 1.8 body, 6 tiles/s,
    /// a 3.5-tile jump reaching its apex in 0.4 s.
    fn default() -> Self {
        Self {
            w: 0.8,
            h: 1.8,
            run_speed: 6.0,
            ground_accel: 60.0,
            air_accel: 30.0,
            gravity: 43.75,
            jump_speed: 17.5,
            jump_cut_speed: 6.0,
            max_fall_speed: 20.0,
            air_jumps: 0,
            wall_jump: None,
            dt: 1.0 / 60.0,
            climb_speed: Self::DEFAULT_CLIMB_SPEED,
            coyote_ticks: 0,
            jump_buffer_ticks: 0,
            pad_speed: None,
            spring_speed: None,
            spring_jump_speed: None,
            jump_boost: 0.0,
            jump_boost_ticks: 0,
            platform_velocity: PlatformVelocity::None,
        }
    }
}

/// Why a [`Physics`] was rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PhysicsError {
    /// A parameter is out of range.
    #[error("physics parameter `{param}` = {value}: {reason}")]
    Invalid {
        /// The parameter's name, as in `PHYSICS.md`.
        param: &'static str,
        /// Its value.
        value: f64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// No preset of that name.
    #[error("unknown physics preset {0:?} (known: {known})", known = Physics::PRESETS.join(", "))]
    UnknownPreset(String),
    /// A physics file that could not be read (see
    /// [`Physics::from_json_over`]).
    #[error("physics file: {0}")]
    File(String),
}

impl Physics {
    /// Half the box's width as the body uses it: `w / 2` on the position
    /// grid ([`snap`]; `PHYSICS.md`, "Space and units").
    #[inline]
    #[must_use]
    pub fn half_w(&self) -> f64 {
        snap(self.w / 2.0)
    }

    /// The box's height as the body uses it: `h` on the position grid.
    #[inline]
    #[must_use]
    pub fn box_h(&self) -> f64 {
        snap(self.h)
    }

    /// The names [`Physics::preset`] accepts.
    pub const PRESETS: &'static [&'static str] = &["default", "agile", "smb", "sq2"];

    /// The largest body side accepted by [`Physics::validate`] (tiles).
    pub const MAX_BODY_SIDE: f64 = 16.0;

    /// The shortest tick accepted by [`Physics::validate`] (s): 1,000 ticks
    /// a second. A link's flight may last 8 s (`PHYSICS.md`, "Link
    /// generation bounds"), so the work a standing cell can cost grows
    /// with the tick rate.
    pub const MIN_DT: f64 = 0.001;

    /// The longest tick accepted by [`Physics::validate`] (s).
    pub const MAX_DT: f64 = 1.0;

    /// The most air jumps accepted by [`Physics::validate`]: a link counts
    /// its jumps in a byte.
    pub const MAX_AIR_JUMPS: u32 = 255;

    /// The climbing speed of every preset (tiles/s), and of a physics file
    /// that does not give one.
    pub const DEFAULT_CLIMB_SPEED: f64 = 5.0;

    /// The jump pads' launch speed when [`Physics::pad_speed`] is not
    /// given (and ticks are at most `1/32` s): with the default profile's
    /// gravity, a launch about six and a half tiles high.
    pub const DEFAULT_PAD_SPEED: f64 = 24.0;

    /// The springs' launch speed without jump held, when
    /// [`Physics::spring_speed`] is not given: a bounce about three tiles
    /// high with the default profile's gravity.
    pub const DEFAULT_SPRING_SPEED: f64 = 16.0;

    /// The springs' launch speed with jump held, when
    /// [`Physics::spring_jump_speed`] is not given: about eleven tiles high
    /// with the default profile's gravity.
    pub const DEFAULT_SPRING_JUMP_SPEED: f64 = 32.0;

    /// The most `coyote_ticks` and `jump_buffer_ticks` accepted by
    /// [`Physics::validate`].
    pub const MAX_GRACE_TICKS: u32 = 255;

    /// Gravity and jump speed for a jump of height `height` (tiles) that
    /// reaches its apex after `time_to_apex` seconds: `gravity = 2H/T²`,
    /// `jump_speed = 2H/T`. Other parameters are the defaults'.
    #[must_use]
    pub fn from_jump(height: f64, time_to_apex: f64) -> Self {
        Self::default().with_jump(height, time_to_apex)
    }

    /// This profile with `gravity` and `jump_speed` set from a jump height and
    /// a time to apex (see [`Physics::from_jump`]).
    #[must_use]
    pub fn with_jump(mut self, height: f64, time_to_apex: f64) -> Self {
        self.gravity = 2.0 * height / (time_to_apex * time_to_apex);
        self.jump_speed = 2.0 * height / time_to_apex;
        self
    }

    /// The height of a full-hold jump, `jump_speed² / (2 gravity)`, in tiles
    /// (continuous-time; the ticked body differs by under a percent). With
    /// the jump boost on, the apex of the ticked rise with jump held.
    #[must_use]
    pub fn jump_height(&self) -> f64 {
        if !self.boosts() || self.gravity <= 0.0 {
            return self.jump_speed * self.jump_speed / (2.0 * self.gravity);
        }
        // Steps 4 and 6 of the rise alone: gravity, then the boost.
        let (mut vy, mut y, mut top) = (-self.jump_speed, 0.0f64, 0.0f64);
        let mut tick = 1;
        while (vy < 0.0 || tick <= self.jump_boost_ticks) && tick < 1_000_000 {
            vy += self.gravity * self.dt;
            if tick > 1 && tick <= self.jump_boost_ticks {
                vy -= self.boost_push(tick);
            }
            y += vy * self.dt;
            top = top.min(y);
            tick += 1;
        }
        -top
    }

    /// A named preset: `default` ([`Physics::default`]), `agile`
    /// ([`Physics::agile`]), `smb` ([`Physics::smb`]) or `sq2`
    /// ([`Physics::sq2`]).
    ///
    /// # Errors
    /// [`PhysicsError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<Self, PhysicsError> {
        match name {
            "default" => Ok(Self::default()),
            "agile" => Ok(Self::agile()),
            "smb" => Ok(Self::smb()),
            "sq2" => Ok(Self::sq2()),
            _ => Err(PhysicsError::UnknownPreset(name.to_string())),
        }
    }

    /// The default body with one air jump and wall jumps (away at 6 tiles/s,
    /// up at 15 tiles/s, sliding at 3 tiles/s): every link kind is possible.
    #[must_use]
    pub fn agile() -> Self {
        Self {
            air_jumps: 1,
            wall_jump: Some(WallJump::AGILE),
            ..Self::default()
        }
    }

    /// The player of the Tiled game *sq2* (`levels/sq2`), from its code
    /// (github.com/dawidkomorowski/sq2 at 77900f9; 18-pixel tiles, 60
    /// fixed updates a second, the engine's default):
    ///
    /// - body 14 x 22 px, the player's collider (`EntityFactory.cs`);
    /// - `run_speed` 100 px/s, `ground_accel` and `air_accel` 250 px/s²
    ///   (`PlayerComponent.cs`, `HorizontalMovementLogic`; the game brakes
    ///   and turns at 450 px/s², which one acceleration cannot hold);
    /// - `gravity` 500 px/s², `max_fall_speed` 200 px/s (`Movement.cs`);
    /// - the jump (`JumpLogic`) starts at 150 px/s and, while held, adds a
    ///   boost of `500 * (1 - k / 30)` px/s² on its ticks `k` = 2 to 30, for
    ///   a 52.5 px apex: `jump_boost` 500 px/s² over `jump_boost_ticks` 30
    ///   (`PHYSICS.md`, "Jump boost"). The game sets the jump's speed after
    ///   that tick's gravity, platnav before it, so `jump_speed` is 150 px/s
    ///   plus a tick of gravity (`500 / 60`), and the body rises tick for
    ///   tick as the game's does. Releasing the jump ends the boost and
    ///   cuts nothing (`jump_cut_speed` = `jump_speed`);
    /// - `climb_speed` 40 px/s (`ClimbLadderLogic`);
    /// - `pad_speed` 300 px/s, the jump pad's boost (`JumpPadComponent.cs`;
    ///   the game waits 3 ticks on the pad before it, platnav launches at
    ///   once).
    #[must_use]
    pub fn sq2() -> Self {
        let px = |v: f64| v / 18.0;
        Self {
            w: px(14.0),
            h: px(22.0),
            run_speed: px(100.0),
            ground_accel: px(250.0),
            air_accel: px(250.0),
            gravity: px(500.0),
            jump_speed: px(150.0 + 500.0 / 60.0),
            jump_cut_speed: px(150.0 + 500.0 / 60.0),
            jump_boost: px(500.0),
            jump_boost_ticks: 30,
            platform_velocity: PlatformVelocity::None,
            max_fall_speed: px(200.0),
            climb_speed: px(40.0),
            pad_speed: Some(px(300.0)),
            ..Self::default()
        }
    }

    /// Small Mario in Super Mario Bros, fitted to the game's numbers
    /// (16 px = 1 tile, 60 ticks/s):
    ///
    /// - `run_speed` 9.4 tiles/s: Mario's top running speed (B held), which
    ///   enemies of the same size can match.
    /// - The running jump: peak 5.2 tiles, and 8.9 tiles travelled before
    ///   coming back to take-off height. At 9.4 tiles/s that flight lasts
    ///   8.9 / 9.4 = 0.947 s, so `time_to_apex` = 0.473 s, and
    ///   [`Physics::with_jump`]`(5.2, 0.473)` gives `gravity` = 46.4 and
    ///   `jump_speed` = 22.0. One profile cannot hold Mario's speed-dependent
    ///   jump tables; the running jump is the one levels are designed around.
    /// - `jump_cut_speed` 8.0: releasing early gives short hops of about a
    ///   tile, as in the game.
    /// - `max_fall_speed` 15 tiles/s, as in the game.
    /// - Body 0.75 x 0.95 tiles: small Mario's 12-pixel-wide hit box, a hair
    ///   under one tile tall so that he fits one-tile gaps.
    /// - `ground_accel` 30 and `air_accel` 20 tiles/s²: top speed in about
    ///   a third of a second on the ground.
    #[must_use]
    pub fn smb() -> Self {
        let time_to_apex = 8.9 / 9.4 / 2.0;
        Self {
            w: 0.75,
            h: 0.95,
            run_speed: 9.4,
            ground_accel: 30.0,
            air_accel: 20.0,
            jump_cut_speed: 8.0,
            max_fall_speed: 15.0,
            air_jumps: 0,
            wall_jump: None,
            dt: 1.0 / 60.0,
            gravity: 0.0,
            jump_speed: 0.0,
            climb_speed: Self::DEFAULT_CLIMB_SPEED,
            coyote_ticks: 0,
            jump_buffer_ticks: 0,
            pad_speed: None,
            spring_speed: None,
            spring_jump_speed: None,
            jump_boost: 0.0,
            jump_boost_ticks: 0,
            platform_velocity: PlatformVelocity::None,
        }
        .with_jump(5.2, time_to_apex)
    }

    /// Checks the rules of `PHYSICS.md`: every value finite and non-negative,
    /// every speed times `dt` under one tile. Additionally `w`, `h` and `dt`
    /// must be positive, the body at most [`Physics::MAX_BODY_SIDE`] tiles
    /// on a side, `dt` within [`Physics::MIN_DT`] and [`Physics::MAX_DT`],
    /// `air_jumps` at most [`Physics::MAX_AIR_JUMPS`], and `coyote_ticks`
    /// and `jump_buffer_ticks` at most [`Physics::MAX_GRACE_TICKS`].
    ///
    /// Zero is fine for every other value: no gravity, no acceleration, no
    /// jump, no fall speed or a wall slide of 0 give a map whose flights
    /// that cannot end are no links.
    ///
    /// # Errors
    /// [`PhysicsError::Invalid`] naming the first bad parameter.
    pub fn validate(&self) -> Result<(), PhysicsError> {
        let bad = |param, value, reason| {
            Err(PhysicsError::Invalid {
                param,
                value,
                reason,
            })
        };
        let mut values: Vec<(&'static str, f64)> = vec![
            ("w", self.w),
            ("h", self.h),
            ("run_speed", self.run_speed),
            ("ground_accel", self.ground_accel),
            ("air_accel", self.air_accel),
            ("gravity", self.gravity),
            ("jump_speed", self.jump_speed),
            ("jump_cut_speed", self.jump_cut_speed),
            ("max_fall_speed", self.max_fall_speed),
            ("dt", self.dt),
            ("climb_speed", self.climb_speed),
            ("jump_boost", self.jump_boost),
        ];
        for (param, value) in [
            ("pad_speed", self.pad_speed),
            ("spring_speed", self.spring_speed),
            ("spring_jump_speed", self.spring_jump_speed),
        ] {
            values.extend(value.map(|v| (param, v)));
        }
        if let Some(wj) = &self.wall_jump {
            values.push(("wall_jump.speed_x", wj.speed_x));
            values.push(("wall_jump.speed_y", wj.speed_y));
            values.push(("wall_jump.slide_speed", wj.slide_speed));
        }
        for &(param, value) in &values {
            if !value.is_finite() {
                return bad(param, value, "must be finite");
            }
            if value < 0.0 {
                return bad(param, value, "must be non-negative");
            }
        }
        for (param, value) in [("w", self.w), ("h", self.h), ("dt", self.dt)] {
            if value <= 0.0 {
                return bad(param, value, "must be positive");
            }
        }
        for (param, value) in [("w", self.w), ("h", self.h)] {
            if value > Self::MAX_BODY_SIDE {
                return bad(param, value, "body side over the 16-tile limit");
            }
        }
        if self.dt < Self::MIN_DT {
            return bad(
                "dt",
                self.dt,
                "ticks shorter than 1 ms (over 1000 a second) are not supported",
            );
        }
        if self.dt > Self::MAX_DT {
            return bad("dt", self.dt, "ticks longer than 1 s are not supported");
        }
        if self.air_jumps > Self::MAX_AIR_JUMPS {
            return bad(
                "air_jumps",
                f64::from(self.air_jumps),
                "at most 255 air jumps",
            );
        }
        for (param, value) in [
            ("coyote_ticks", self.coyote_ticks),
            ("jump_buffer_ticks", self.jump_buffer_ticks),
            ("jump_boost_ticks", self.jump_boost_ticks),
        ] {
            if value > Self::MAX_GRACE_TICKS {
                return bad(param, f64::from(value), "at most 255 ticks");
            }
        }
        for &(param, value) in &values {
            let is_speed = param.ends_with("speed")
                || param.ends_with("speed_x")
                || param.ends_with("speed_y");
            if is_speed && value * self.dt >= 1.0 {
                return bad(
                    param,
                    value,
                    "speed times dt must be under 1 tile (no tunnelling)",
                );
            }
        }
        // The boost adds at most `jump_boost * dt` a tick for
        // `jump_boost_ticks` ticks to a jump's rise.
        let boosted =
            self.jump_speed + self.jump_boost * self.dt * f64::from(self.jump_boost_ticks);
        if self.boosts() && boosted * self.dt >= 1.0 {
            return bad(
                "jump_boost",
                self.jump_boost,
                "jump_speed plus the whole boost, times dt, must be under 1 tile (no tunnelling)",
            );
        }
        Ok(())
    }

    /// Whether the jump boost is on: [`Physics::jump_boost`] and
    /// [`Physics::jump_boost_ticks`] both above 0.
    #[must_use]
    pub fn boosts(&self) -> bool {
        self.jump_boost > 0.0 && self.jump_boost_ticks > 0
    }

    /// The upward speed the jump boost adds on the tick its count reaches
    /// `tick` (`PHYSICS.md`, "Jump boost"): `(jump_boost - jump_boost * k)
    /// * dt` with `k = tick / jump_boost_ticks`, in that order.
    #[must_use]
    pub(crate) fn boost_push(&self, tick: u32) -> f64 {
        let k = f64::from(tick) / f64::from(self.jump_boost_ticks);
        (self.jump_boost - self.jump_boost * k) * self.dt
    }

    /// Whether the jump boost is left at its default: off, both values 0.
    fn boost_default(&self) -> bool {
        self.jump_boost.to_bits() == 0 && self.jump_boost_ticks == 0
    }

    /// The fastest horizontal speed the body can reach (tiles/s).
    #[must_use]
    pub fn max_speed_x(&self) -> f64 {
        match &self.wall_jump {
            Some(wj) => self.run_speed.max(wj.speed_x),
            None => self.run_speed,
        }
    }

    /// A 64-bit fingerprint of every parameter, for caches and saved maps.
    ///
    /// The extension parameters (`climb_speed`, `coyote_ticks`,
    /// `jump_buffer_ticks`, the launch speeds of pads and springs, and the
    /// jump boost, what a body keeps of a platform's velocity)
    /// enter it only when one differs from its
    /// default, so a profile that leaves them alone keeps the fingerprint
    /// it had before they existed (and its saved maps stay valid).
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |v: u64| {
            for b in v.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for v in [
            self.w,
            self.h,
            self.run_speed,
            self.ground_accel,
            self.air_accel,
            self.gravity,
            self.jump_speed,
            self.jump_cut_speed,
            self.max_fall_speed,
            self.dt,
        ] {
            eat(v.to_bits());
        }
        eat(u64::from(self.air_jumps));
        match &self.wall_jump {
            Some(wj) => {
                eat(1);
                eat(wj.speed_x.to_bits());
                eat(wj.speed_y.to_bits());
                eat(wj.slide_speed.to_bits());
            }
            None => eat(0),
        }
        if !self.extensions_default() {
            eat(2);
            eat(self.climb_speed.to_bits());
            eat(u64::from(self.coyote_ticks));
            eat(u64::from(self.jump_buffer_ticks));
        }
        if !self.launchers_default() {
            eat(3);
            for v in [self.pad_speed, self.spring_speed, self.spring_jump_speed] {
                eat(v.map_or(u64::MAX, f64::to_bits));
            }
        }
        if !self.boost_default() {
            eat(4);
            eat(self.jump_boost.to_bits());
            eat(u64::from(self.jump_boost_ticks));
        }
        if !self.platform_velocity.is_none() {
            eat(5);
            eat(self.platform_velocity as u64);
        }
        h
    }

    /// Whether the extension parameters are at their defaults: the climb
    /// speed [`Physics::DEFAULT_CLIMB_SPEED`], no coyote time, no jump
    /// buffering, the default launch speeds of pads and springs, and no
    /// jump boost.
    #[must_use]
    pub fn extensions_default(&self) -> bool {
        self.climb_speed.to_bits() == Self::DEFAULT_CLIMB_SPEED.to_bits()
            && self.coyote_ticks == 0
            && self.jump_buffer_ticks == 0
            && self.launchers_default()
            && self.boost_default()
    }

    /// Whether the launch speeds of pads and springs are left to their
    /// defaults.
    fn launchers_default(&self) -> bool {
        self.pad_speed.is_none() && self.spring_speed.is_none() && self.spring_jump_speed.is_none()
    }

    /// The speed a jump pad launches the body at: [`Physics::pad_speed`],
    /// or when it is `None`, [`Physics::DEFAULT_PAD_SPEED`] capped at
    /// `0.75 / dt` so that a launch moves under a tile a tick at any tick
    /// length (`PHYSICS.md`, "Jump pads and springs").
    #[must_use]
    pub fn pad_launch(&self) -> f64 {
        self.pad_speed
            .unwrap_or_else(|| self.default_launch(Self::DEFAULT_PAD_SPEED))
    }

    /// The speed a spring launches the body at, with jump `held` as it
    /// touches it or not: [`Physics::spring_jump_speed`] or
    /// [`Physics::spring_speed`], with their defaults capped as
    /// [`Physics::pad_launch`]'s is.
    #[must_use]
    pub fn spring_launch(&self, held: bool) -> f64 {
        let (set, default) = if held {
            (self.spring_jump_speed, Self::DEFAULT_SPRING_JUMP_SPEED)
        } else {
            (self.spring_speed, Self::DEFAULT_SPRING_SPEED)
        };
        set.unwrap_or_else(|| self.default_launch(default))
    }

    /// `min(default, 0.75 / dt)`, as `PHYSICS.md` writes `min`.
    fn default_launch(&self, default: f64) -> f64 {
        let cap = 0.75 / self.dt;
        if cap < default { cap } else { default }
    }
}

/// The settle controller's tolerance when links are generated: half the
/// displacement of one tick of ground acceleration from rest (a *nudge*).
#[must_use]
pub(crate) fn settle_tolerance(p: &Physics) -> f64 {
    0.5 * (p.ground_accel * p.dt).min(p.run_speed) * p.dt + 1e-12
}

/// Ticks a route needs per column crossed, at least: chained links start
/// off-centre by up to the settle tolerance, then move at most the top
/// horizontal speed. The exact search's bound per column.
pub(crate) fn ticks_per_col(p: &Physics) -> f64 {
    let vmax = p.max_speed_x();
    if vmax * p.dt > 0.0 {
        (1.0 - settle_tolerance(p)).max(0.0) / (vmax * p.dt)
    } else {
        0.0
    }
}
