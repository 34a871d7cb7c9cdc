//! The game's constants, each under its label in the comprehensive
//! disassembly of Super Mario Bros. (`SMBDIS.ASM`, by doppelganger; the
//! copy read is `docs/smbdis.asm` of the SuperMarioBros-C repository).
//!
//! Speeds are signed bytes: horizontal ones in 4.4 fixed point (sixteenths
//! of a pixel per frame), vertical ones in whole pixels per frame, with a
//! separate byte of 1/256 pixel per frame (the "move force"). Forces are
//! added to those fractional bytes every frame.

/// `JumpMForceData`: the gravity while a jump rises with A held, by the
/// take-off speed's bucket (1/256 px per frame per frame).
pub(super) const JUMP_M_FORCE: [u8; 5] = [0x20, 0x20, 0x1e, 0x28, 0x28];

/// `FallMForceData`: the gravity falling, or once A is released.
pub(super) const FALL_M_FORCE: [u8; 5] = [0x70, 0x70, 0x60, 0x90, 0x90];

/// `PlayerYSpdData`: the vertical speed a jump starts with (px per frame,
/// negative up).
pub(super) const PLAYER_Y_SPD: [i8; 5] = [-4, -4, -4, -5, -5];

/// `InitMForceData`: the fractional vertical speed a jump starts with.
pub(super) const INIT_M_FORCE: [u8; 5] = [0x00, 0x00, 0x00, 0x00, 0x00];

/// The take-off speed buckets of `ProcJumping`: `Player_XSpeedAbsolute`
/// below each of these picks the entry before it.
pub(super) const JUMP_BUCKETS: [u8; 4] = [0x09, 0x10, 0x19, 0x1c];

/// `MaxLeftXSpdData`: the fastest leftward speed, running and walking.
pub(super) const MAX_LEFT_X_SPD: [i8; 2] = [-0x28, -0x18];

/// `MaxRightXSpdData`: the fastest rightward speed, running and walking.
pub(super) const MAX_RIGHT_X_SPD: [i8; 2] = [0x28, 0x18];

/// `FrictionData`: the acceleration added to the horizontal move force
/// each frame: running, walking, and fast (`RunningSpeed` set or speed at
/// least [`FAST_SPEED`]). Doubled while facing against the motion (a
/// skid, `ExitPhy`).
pub(super) const FRICTION: [u8; 3] = [0xe4, 0x98, 0xd0];

/// `X_Physics`: in the air, a speed of at least this keeps the running
/// acceleration and top speed.
pub(super) const AIR_RUN_SPEED: u8 = 0x19;

/// `ChkRFast`: a speed of at least this picks the fast friction.
pub(super) const FAST_SPEED: u8 = 0x21;

/// `SetRTmr`: frames `RunningTimer` keeps the run going after B is let go.
pub(super) const RUNNING_TIMER: u8 = 0x0a;

/// `GetPlayerAnimSpeed`: at least this speed on the ground sets
/// `RunningSpeed`.
pub(super) const RUNNING_SPEED: u8 = 0x1c;

/// `ProcSkid`: below this speed a skid ends, the speed zeroed and the
/// moving direction turned to the facing one.
pub(super) const SKID_END: u8 = 0x0b;

/// `MovePlayerVertically`: the fastest fall (px per frame).
pub(super) const MAX_FALL: i8 = 4;

/// `ImposeGravity`: at the fastest fall, a move force of at least this
/// is cut back to the fastest fall exactly.
pub(super) const FALL_CAP_FORCE: u8 = 0x80;

/// `ChkWtr`: `DiffToHaltJump`, the rise (px) before a jump with A let go
/// switches to the falling gravity.
pub(super) const DIFF_TO_HALT_JUMP: u8 = 1;

/// `NYSpd`: the vertical speed after the head bumps a block.
pub(super) const HEAD_BUMP_SPEED: i8 = 1;

/// `HeadChk` / `DoFootCheck`: the low nibble of the vertical position
/// below which the head bumps (at least this) and the feet land (below
/// this).
pub(super) const HEAD_NIBBLE: u8 = 4;
pub(super) const FOOT_NIBBLE: u8 = 5;

/// `BlockBuffer_X_Adder` and `BlockBuffer_Y_Adder`: where the collision
/// points lie from the object's position (px), for big Mario (offset 0)
/// and small Mario (offset 14, `BlockBufferAdderData`): the head, the two
/// feet, then the sides, left then right, each twice (upper and lower).
pub(super) const BIG_POINTS: Points = Points {
    head: (0x08, 0x04),
    feet: [(0x03, 0x20), (0x0c, 0x20)],
    sides: [[(0x02, 0x08), (0x02, 0x18)], [(0x0d, 0x08), (0x0d, 0x18)]],
};

/// See [`BIG_POINTS`].
pub(super) const SMALL_POINTS: Points = Points {
    head: (0x08, 0x12),
    feet: [(0x03, 0x20), (0x0c, 0x20)],
    sides: [[(0x02, 0x18), (0x02, 0x18)], [(0x0d, 0x18), (0x0d, 0x18)]],
};

/// The collision points of one size of Mario, from his position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Points {
    pub head: (i32, i32),
    pub feet: [(i32, i32); 2],
    pub sides: [[(i32, i32); 2]; 2],
}

/// `ImpedePlayerMove`: pixels a blocked side pushes Mario back.
pub(super) const IMPEDE_PUSH: i32 = 1;

/// Pixels a tile (a metatile) spans.
pub(super) const TILE_PX: i32 = 16;

/// The NTSC frame rate (frames per second).
pub(super) const FRAME_RATE: f64 = 60.0988;
