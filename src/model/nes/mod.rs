//! Super Mario Bros. as the NES moves him: the game's player physics in
//! its own fixed point, frame by frame, as the comprehensive disassembly
//! (`SMBDIS.ASM`) has it. Every constant is in `tables.rs` under the
//! disassembly's label; the routines are named where they are followed.
//!
//! What is followed, in the game's order each frame:
//! - the frame timers count down (`RunningTimer`);
//! - down held on the ground cancels left and right (`PlayerCtrlRoutine`);
//! - a fresh A press on the ground starts a jump whose speed and two
//!   gravities depend on the speed at take-off (`ProcJumping`);
//! - the top speed and acceleration are picked: running while B is held
//!   or for 10 frames after, walking otherwise, the fast acceleration at
//!   high speed, doubled in a skid (`X_Physics`);
//! - on the ground, a skid below `$0b` ends at once (`GetPlayerAnimSpeed`),
//!   and the acceleration moves the speed toward the pressed direction or
//!   toward zero (`ImposeFriction`); in the air only a pressed direction
//!   accelerates (`LRAir`);
//! - the horizontal speed moves the position, its fraction carried in a
//!   sub-pixel byte (`MoveObjectHorizontally`);
//! - in the air, a rising jump keeps its weak gravity while A stays held,
//!   else takes the falling one (`JumpSwimSub`), and gravity moves the
//!   position, capped at 4 px a frame (`ImposeGravity`);
//! - the background collision (`PlayerBGCollision`, `collide.rs`).
//!
//! What is left out: water, vines, springs, pipes, enemies and power-ups,
//! the screen's edges and status bar; the level's tiles stand for the
//! game's metatiles (`collide.rs` says how each kind is read). B (run) is
//! not one of platnav's inputs: the model holds it always, as players
//! do, unless built [`NesMario::walking`].
//!
//! Units: the game's pixels, 16 to a tile, and frames of the NTSC rate,
//! 60.0988 a second.

mod collide;
mod tables;

use super::{BodyModel, Bounds};
use crate::level::{Cell, Level};
use crate::physics::Input;
use tables::*;

/// Mario's state, as the game keeps it (the disassembly's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct NesState {
    /// `Player_X_Position` with its page: the left of his 16-pixel-wide
    /// object (px).
    pub x: i32,
    /// `Player_Y_Position` with its high byte: the top of his 32-pixel
    /// object, whatever his size (px, down).
    pub y: i32,
    /// `Player_X_Speed`: sixteenths of a pixel per frame.
    pub x_speed: i8,
    /// `Player_X_MoveForce`: the horizontal sub-pixel accumulator.
    pub x_force: u8,
    /// `Player_XSpeedAbsolute`: the speed's size when it was last set.
    pub x_speed_abs: u8,
    /// `Player_Y_Speed`: whole pixels per frame.
    pub y_speed: i8,
    /// `Player_Y_MoveForce`: 1/256 of a pixel per frame.
    pub y_force: u8,
    /// `Player_YMF_Dummy`: the vertical sub-pixel accumulator.
    pub y_dummy: u8,
    /// `VerticalForce`: the gravity in effect.
    pub vertical_force: u8,
    /// `VerticalForceDown`: the falling gravity of the last jump.
    pub vertical_force_down: u8,
    /// `JumpOrigin_Y_Position`: where the last jump left from.
    pub jump_origin_y: i32,
    /// `Player_State`: 0 on the ground, 1 jumping, 2 falling.
    pub state: u8,
    /// `PlayerFacingDir`: 1 right, 2 left.
    pub facing: u8,
    /// `Player_MovingDir`: 1 right, 2 left.
    pub moving_dir: u8,
    /// `RunningTimer`.
    pub running_timer: u8,
    /// `RunningSpeed` set.
    pub running_speed: bool,
    /// `CrouchingFlag` (big Mario only).
    pub crouching: bool,
    /// `Player_CollisionBits`: a side that blocked him clears its
    /// direction's bit for the next frame's acceleration.
    pub collision_bits: u8,
    /// `PreviousA_B_Buttons`: A held on the last frame.
    pub prev_a: bool,
    /// Fell out of the level or touched a hazard.
    pub dead: bool,
}

/// Super Mario Bros.'s Mario (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NesMario {
    big: bool,
    run: bool,
}

impl NesMario {
    /// Small Mario, B held.
    #[must_use]
    pub fn small() -> Self {
        Self {
            big: false,
            run: true,
        }
    }

    /// Super Mario (32 pixels tall), B held.
    #[must_use]
    pub fn big() -> Self {
        Self {
            big: true,
            run: true,
        }
    }

    /// The same Mario with B never held: he walks.
    #[must_use]
    pub fn walking(self) -> Self {
        Self { run: false, ..self }
    }

    /// The collision points of his size now.
    fn points(&self, s: &NesState) -> Points {
        if self.big && !s.crouching {
            BIG_POINTS
        } else {
            SMALL_POINTS
        }
    }
}

/// Left and right as the controller's bits: 1 right, 2 left, 0 neither.
fn lr_bits(move_x: i8) -> u8 {
    match move_x {
        1 => 1,
        -1 => 2,
        _ => 0,
    }
}

/// The top speeds and acceleration `X_Physics` picks.
struct XPhysics {
    max_left: i8,
    max_right: i8,
    /// `FrictionAdderLow` and `FrictionAdderHigh`.
    friction: u16,
}

impl NesMario {
    /// `ProcJumping` from the ground: the jump's speed and gravities by
    /// the take-off speed.
    fn start_jump(s: &mut NesState) {
        let i = JUMP_BUCKETS
            .iter()
            .take_while(|&&b| s.x_speed_abs >= b)
            .count();
        s.y_dummy = 0;
        s.jump_origin_y = s.y;
        s.state = 1;
        s.vertical_force = JUMP_M_FORCE[i];
        s.vertical_force_down = FALL_M_FORCE[i];
        s.y_force = INIT_M_FORCE[i];
        s.y_speed = PLAYER_Y_SPD[i];
    }

    /// `X_Physics`.
    fn x_physics(&self, s: &mut NesState, lr: u8) -> XPhysics {
        let running = if s.state != 0 {
            s.x_speed_abs >= AIR_RUN_SPEED
        } else if lr != s.moving_dir {
            false
        } else if self.run {
            s.running_timer = RUNNING_TIMER;
            true
        } else {
            s.running_timer != 0
        };
        let (table, friction) = if running {
            (0, 0)
        } else if s.running_speed || s.x_speed_abs >= FAST_SPEED {
            (1, 2)
        } else {
            (1, 1)
        };
        let mut friction = u16::from(FRICTION[friction]);
        if s.facing != s.moving_dir {
            friction <<= 1;
        }
        XPhysics {
            max_left: MAX_LEFT_X_SPD[table],
            max_right: MAX_RIGHT_X_SPD[table],
            friction,
        }
    }

    /// `GetPlayerAnimSpeed`'s part in the motion: it sets `RunningSpeed`,
    /// and ends a slow skid.
    fn ground_speed_checks(&self, s: &mut NesState, lr: u8, input: Input) {
        if s.x_speed_abs >= RUNNING_SPEED {
            s.running_speed = true;
            return;
        }
        // A button other than A held (B counts).
        if !(self.run || lr != 0 || input.down || input.up) {
            return;
        }
        if lr == s.moving_dir {
            s.running_speed = false;
        } else if s.x_speed_abs < SKID_END {
            s.moving_dir = s.facing;
            s.x_speed = 0;
            s.x_force = 0;
        }
    }
}

/// `ImposeFriction`: accelerates toward the pressed direction (a side that
/// blocked him last frame does not count), else toward rest.
fn impose_friction(s: &mut NesState, lr: u8, x: &XPhysics) {
    let bits = lr & s.collision_bits;
    let (lo, hi) = ((x.friction & 0xff) as u8, (x.friction >> 8) as u8);
    let rightward = if bits == 0 {
        if s.x_speed == 0 {
            s.x_speed_abs = 0;
            return;
        }
        // Against the motion.
        s.x_speed < 0
    } else {
        bits & 1 != 0
    };
    if rightward {
        let (force, carry) = s.x_force.overflowing_add(lo);
        s.x_force = force;
        s.x_speed = s
            .x_speed
            .wrapping_add(hi as i8)
            .wrapping_add(i8::from(carry));
        if s.x_speed.wrapping_sub(x.max_right) >= 0 {
            s.x_speed = x.max_right;
        }
    } else {
        let (force, borrow) = s.x_force.overflowing_sub(lo);
        s.x_force = force;
        s.x_speed = s
            .x_speed
            .wrapping_sub(hi as i8)
            .wrapping_sub(i8::from(borrow));
        if s.x_speed.wrapping_sub(x.max_left) < 0 {
            s.x_speed = x.max_left;
        }
    }
    s.x_speed_abs = s.x_speed.unsigned_abs();
}

/// `MoveObjectHorizontally`: the 4.4 speed's whole pixels move him, its
/// sixteenths carry through the sub-pixel byte.
fn move_horizontally(s: &mut NesState) {
    let speed = s.x_speed as u8;
    let whole = i32::from(s.x_speed >> 4);
    let (force, carry) = s.x_force.overflowing_add(speed << 4);
    s.x_force = force;
    s.x += whole + i32::from(carry);
}

/// `ImposeGravity` for the player: the speed moves him (its fraction
/// carried through `Player_YMF_Dummy`), then gravity adds to the speed,
/// capped at [`MAX_FALL`].
fn move_vertically(s: &mut NesState) {
    let (dummy, carry) = s.y_dummy.overflowing_add(s.y_force);
    s.y_dummy = dummy;
    s.y += i32::from(s.y_speed) + i32::from(carry);
    let (force, carry) = s.y_force.overflowing_add(s.vertical_force);
    s.y_force = force;
    s.y_speed = s.y_speed.wrapping_add(i8::from(carry));
    if s.y_speed.wrapping_sub(MAX_FALL) >= 0 && s.y_force >= FALL_CAP_FORCE {
        s.y_speed = MAX_FALL;
        s.y_force = 0;
    }
}

impl BodyModel for NesMario {
    type State = NesState;

    fn name(&self) -> String {
        let size = if self.big { "big" } else { "small" };
        let gait = if self.run { "" } else { ", walking" };
        format!("nes-{size}{gait}")
    }

    fn dt(&self) -> f64 {
        1.0 / FRAME_RATE
    }

    /// Standing centred on the cell, at rest, facing right, with the
    /// falling gravity the game sets on entering a level
    /// (`Entrance_GameTimerSetup`: `$28`).
    fn start(&self, _level: &Level, cell: Cell) -> NesState {
        NesState {
            x: cell.col * TILE_PX,
            y: (cell.row + 1) * TILE_PX - 2 * TILE_PX,
            x_speed: 0,
            x_force: 0,
            x_speed_abs: 0,
            y_speed: 0,
            y_force: 0,
            y_dummy: 0,
            vertical_force: 0,
            vertical_force_down: 0x28,
            jump_origin_y: 0,
            state: 0,
            facing: 1,
            moving_dir: 1,
            running_timer: 0,
            running_speed: false,
            crouching: false,
            collision_bits: 0xff,
            prev_a: false,
            dead: false,
        }
    }

    fn step(&self, level: &Level, s: &mut NesState, input: Input) {
        if s.dead {
            return;
        }
        s.running_timer = s.running_timer.saturating_sub(1);
        let mut lr = lr_bits(input.move_x);
        if input.down && s.state == 0 && lr != 0 {
            lr = 0;
        }
        if s.state == 0 {
            s.crouching = self.big && input.down;
        }
        if input.jump && !s.prev_a && s.state == 0 {
            Self::start_jump(s);
        }
        let x = self.x_physics(s, lr);
        if s.state == 0 {
            self.ground_speed_checks(s, lr, input);
            if lr != 0 {
                s.facing = lr;
            }
            impose_friction(s, lr, &x);
            move_horizontally(s);
        } else {
            let keeps_rise = s.state == 1
                && s.y_speed < 0
                && ((input.jump && s.prev_a)
                    || (s.jump_origin_y.wrapping_sub(s.y) as u8) < DIFF_TO_HALT_JUMP);
            if !keeps_rise {
                s.vertical_force = s.vertical_force_down;
            }
            if lr != 0 {
                impose_friction(s, lr, &x);
            }
            move_horizontally(s);
            move_vertically(s);
        }
        if s.x_speed != 0 {
            s.moving_dir = if s.x_speed > 0 { 1 } else { 2 };
        }
        collide::collide(level, s, self.points(s));
        s.prev_a = input.jump;
    }

    fn feet(&self, s: &NesState) -> [f64; 2] {
        let px = f64::from(TILE_PX);
        [
            f64::from(s.x + TILE_PX / 2) / px,
            f64::from(s.y + 2 * TILE_PX) / px,
        ]
    }

    fn velocity(&self, s: &NesState) -> [f64; 2] {
        let tiles_per_s = FRAME_RATE / f64::from(TILE_PX);
        let vx = f64::from(s.x_speed) / 16.0;
        let vy = f64::from(s.y_speed) + f64::from(s.y_force) / 256.0;
        [vx * tiles_per_s, vy * tiles_per_s]
    }

    fn standing_cell(&self, s: &NesState) -> Option<Cell> {
        (!s.dead && s.state == 0).then(|| {
            Cell::new(
                (s.x + TILE_PX / 2).div_euclid(TILE_PX),
                (s.y + 2 * TILE_PX).div_euclid(TILE_PX) - 1,
            )
        })
    }

    fn at_rest(&self, s: &NesState) -> bool {
        s.x_speed == 0 && self.standing_cell(s).is_some()
    }

    fn dead(&self, s: &NesState) -> bool {
        s.dead
    }

    /// 2.5 px a frame: the running top speed (`MaxRightXSpdData`), which
    /// nothing else exceeds. The collision points lie within 6 px of his
    /// feet across and 28 px above them, and a frame moves him at most 4
    /// px down and a few across: 3 tiles bound what a frame reads.
    fn bounds(&self) -> Bounds {
        let px_per_frame = f64::from(MAX_RIGHT_X_SPD[0]) / 16.0;
        Bounds::with_top_speed(px_per_frame * FRAME_RATE / f64::from(TILE_PX)).reading_within(3.0)
    }
}
