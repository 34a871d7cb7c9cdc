//! Physics parameters as tuning knobs, maps built only where the body can
//! go, whole-level evaluation, and the least parameter value that finishes
//! a level.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use super::AnalysisError;
use crate::classify::Classification;
use crate::graph::NavMap;
use crate::level::{Cell, Level};
use crate::links::{BuildCache, LinkOptions, links_from};
use crate::physics::{Physics, PhysicsError};
use crate::search::{SearchOptions, find_path, snap};

/// A physics parameter a sweep or a bisection can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Param {
    /// Full-hold jump height (tiles), keeping the time to apex: gravity and
    /// jump speed are rescaled with [`Physics::with_jump`].
    JumpHeight,
    /// Top horizontal speed (tiles/s).
    RunSpeed,
    /// Downward acceleration (tiles/s²); the jump speed is kept, so the jump
    /// gets lower as gravity grows.
    Gravity,
    /// Upward speed at jump start (tiles/s); gravity is kept.
    JumpSpeed,
    /// Extra jumps in the air (rounded to a whole number).
    AirJumps,
    /// Body width (tiles).
    W,
    /// Body height (tiles).
    H,
    /// Horizontal acceleration on the ground (tiles/s²).
    GroundAccel,
    /// Horizontal acceleration in the air (tiles/s²).
    AirAccel,
    /// Upward speed a released jump is cut to (tiles/s).
    JumpCutSpeed,
    /// Terminal falling speed (tiles/s).
    MaxFallSpeed,
    /// The tick length (s).
    Dt,
    /// Climbing speed on ladders (tiles/s).
    ClimbSpeed,
    /// Coyote time (ticks, rounded to a whole number).
    CoyoteTicks,
    /// Jump buffering (ticks, rounded to a whole number).
    JumpBufferTicks,
    /// A wall jump's speed away from the wall (tiles/s). Setting any
    /// wall-jump parameter of a profile without wall jumps turns them on,
    /// with the `agile` preset's other two.
    WallJumpSpeedX,
    /// A wall jump's upward speed (tiles/s).
    WallJumpSpeedY,
    /// The cap on falling speed while sliding down a wall (tiles/s).
    WallSlideSpeed,
    /// A jump pad's launch speed (tiles/s).
    PadSpeed,
    /// A spring's launch speed without jump held (tiles/s).
    SpringSpeed,
    /// A spring's launch speed with jump held (tiles/s).
    SpringJumpSpeed,
    /// The jump boost's upward acceleration (tiles/s²).
    JumpBoost,
    /// The ticks the jump boost fades over (rounded to a whole number).
    JumpBoostTicks,
}

impl Param {
    /// Every parameter.
    pub const ALL: [Param; 23] = [
        Param::JumpHeight,
        Param::RunSpeed,
        Param::Gravity,
        Param::JumpSpeed,
        Param::AirJumps,
        Param::W,
        Param::H,
        Param::GroundAccel,
        Param::AirAccel,
        Param::JumpCutSpeed,
        Param::MaxFallSpeed,
        Param::Dt,
        Param::ClimbSpeed,
        Param::CoyoteTicks,
        Param::JumpBufferTicks,
        Param::WallJumpSpeedX,
        Param::WallJumpSpeedY,
        Param::WallSlideSpeed,
        Param::PadSpeed,
        Param::SpringSpeed,
        Param::SpringJumpSpeed,
        Param::JumpBoost,
        Param::JumpBoostTicks,
    ];

    /// The snake-case name (`jump_height`, `run_speed`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Param::JumpHeight => "jump_height",
            Param::RunSpeed => "run_speed",
            Param::Gravity => "gravity",
            Param::JumpSpeed => "jump_speed",
            Param::AirJumps => "air_jumps",
            Param::W => "w",
            Param::H => "h",
            Param::GroundAccel => "ground_accel",
            Param::AirAccel => "air_accel",
            Param::JumpCutSpeed => "jump_cut_speed",
            Param::MaxFallSpeed => "max_fall_speed",
            Param::Dt => "dt",
            Param::ClimbSpeed => "climb_speed",
            Param::CoyoteTicks => "coyote_ticks",
            Param::JumpBufferTicks => "jump_buffer_ticks",
            Param::WallJumpSpeedX => "wall_jump.speed_x",
            Param::WallJumpSpeedY => "wall_jump.speed_y",
            Param::WallSlideSpeed => "wall_jump.slide_speed",
            Param::PadSpeed => "pad_speed",
            Param::SpringSpeed => "spring_speed",
            Param::SpringJumpSpeed => "spring_jump_speed",
            Param::JumpBoost => "jump_boost",
            Param::JumpBoostTicks => "jump_boost_ticks",
        }
    }

    /// The parameter's value in `physics`.
    #[must_use]
    pub fn get(self, physics: &Physics) -> f64 {
        match self {
            Param::JumpHeight => physics.jump_height(),
            Param::RunSpeed => physics.run_speed,
            Param::Gravity => physics.gravity,
            Param::JumpSpeed => physics.jump_speed,
            Param::AirJumps => f64::from(physics.air_jumps),
            Param::W => physics.w,
            Param::H => physics.h,
            Param::GroundAccel => physics.ground_accel,
            Param::AirAccel => physics.air_accel,
            Param::JumpCutSpeed => physics.jump_cut_speed,
            Param::MaxFallSpeed => physics.max_fall_speed,
            Param::Dt => physics.dt,
            Param::ClimbSpeed => physics.climb_speed,
            Param::CoyoteTicks => f64::from(physics.coyote_ticks),
            Param::JumpBufferTicks => f64::from(physics.jump_buffer_ticks),
            Param::WallJumpSpeedX => physics.wall_jump.as_ref().map_or(0.0, |w| w.speed_x),
            Param::WallJumpSpeedY => physics.wall_jump.as_ref().map_or(0.0, |w| w.speed_y),
            Param::WallSlideSpeed => physics.wall_jump.as_ref().map_or(0.0, |w| w.slide_speed),
            Param::PadSpeed => physics.pad_launch(),
            Param::SpringSpeed => physics.spring_launch(false),
            Param::SpringJumpSpeed => physics.spring_launch(true),
            Param::JumpBoost => physics.jump_boost,
            Param::JumpBoostTicks => f64::from(physics.jump_boost_ticks),
        }
    }

    /// `physics` with this parameter set to `value`. The result is not
    /// validated (see [`Physics::validate`]); a jump height on a profile
    /// without gravity keeps the jump speed and sets gravity for a 0.4 s
    /// apex.
    #[must_use]
    pub fn apply(self, physics: &Physics, value: f64) -> Physics {
        let mut p = physics.clone();
        match self {
            Param::JumpHeight => {
                let t = if p.gravity > 0.0 && p.jump_speed > 0.0 {
                    p.jump_speed / p.gravity
                } else {
                    0.4
                };
                p = p.with_jump(value, t);
            }
            Param::RunSpeed => p.run_speed = value,
            Param::Gravity => p.gravity = value,
            Param::JumpSpeed => p.jump_speed = value,
            Param::AirJumps => p.air_jumps = count(value),
            Param::W => p.w = value,
            Param::H => p.h = value,
            Param::GroundAccel => p.ground_accel = value,
            Param::AirAccel => p.air_accel = value,
            Param::JumpCutSpeed => p.jump_cut_speed = value,
            Param::MaxFallSpeed => p.max_fall_speed = value,
            Param::Dt => p.dt = value,
            Param::ClimbSpeed => p.climb_speed = value,
            Param::CoyoteTicks => p.coyote_ticks = count(value),
            Param::JumpBufferTicks => p.jump_buffer_ticks = count(value),
            Param::WallJumpSpeedX => wall_jump(&mut p).speed_x = value,
            Param::WallJumpSpeedY => wall_jump(&mut p).speed_y = value,
            Param::WallSlideSpeed => wall_jump(&mut p).slide_speed = value,
            Param::PadSpeed => p.pad_speed = Some(value),
            Param::SpringSpeed => p.spring_speed = Some(value),
            Param::SpringJumpSpeed => p.spring_jump_speed = Some(value),
            Param::JumpBoost => p.jump_boost = value,
            Param::JumpBoostTicks => p.jump_boost_ticks = count(value),
        }
        p
    }

    /// Every parameter's name, comma-separated (for messages).
    #[must_use]
    pub fn names() -> String {
        Self::ALL.map(Param::name).join(", ")
    }

    /// Whether the parameter counts (jumps, ticks): values are rounded to
    /// whole numbers, and a bisection's precision is 1.
    #[must_use]
    pub const fn is_count(self) -> bool {
        matches!(
            self,
            Param::AirJumps | Param::CoyoteTicks | Param::JumpBufferTicks | Param::JumpBoostTicks
        )
    }
}

/// A count parameter's value: rounded, and at most a million (validation
/// then bounds it further).
fn count(value: f64) -> u32 {
    value.round().clamp(0.0, 1e6) as u32
}

/// The profile's wall jump, turned on with the `agile` preset's values
/// when it is off.
fn wall_jump(p: &mut Physics) -> &mut crate::physics::WallJump {
    p.wall_jump.get_or_insert(crate::physics::WallJump::AGILE)
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Param {
    type Err = AnalysisError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| AnalysisError::UnknownParam(s.to_string()))
    }
}

/// Where a level is played from and to. Empty fields fall back to the
/// level's defaults ([`default_start`], [`default_goals`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Endpoints {
    /// The start cell (snapped to the nearest standable cell).
    pub start: Option<Cell>,
    /// The goal cells (each snapped); empty for the level's defaults.
    pub goals: Vec<Cell>,
}

/// How far (cells) a start or goal that is not standable is snapped.
pub const SNAP_RADIUS: u32 = 8;

/// The default start: the level's [`crate::Tile::SPAWN`] cell snapped to
/// standing ground, else the bottom-most standable cell nearest column 2.
/// `None` when nothing is standable.
#[must_use]
pub fn default_start(map: &NavMap) -> Option<Cell> {
    if let Some(spawn) = map.level().cells_of(crate::Tile::SPAWN).next()
        && let Some(c) = snap(map, spawn, SNAP_RADIUS)
    {
        return Some(c);
    }
    map.nodes()
        .iter()
        .copied()
        .min_by_key(|c| ((c.col - 2).abs(), -c.row, c.col))
}

/// The default goals: the level's [`crate::Tile::GOAL`] cells snapped to
/// standing ground, else (for levels without markers, like the VGLC
/// Super Mario Bros levels) every standable cell in the last 3 columns.
#[must_use]
pub fn default_goals(map: &NavMap) -> Vec<Cell> {
    let mut goals: Vec<Cell> = map
        .level()
        .cells_of(crate::Tile::GOAL)
        .filter_map(|g| snap(map, g, SNAP_RADIUS))
        .collect();
    if goals.is_empty() {
        goals = last_columns(map.nodes(), map.level().width());
    }
    goals.sort_unstable();
    goals.dedup();
    goals
}

/// The cells of `nodes` in the last 3 of `width` columns: the goals of a
/// level that marks none (the VGLC Super Mario Bros levels run to the
/// right).
#[must_use]
pub fn last_columns(nodes: &[Cell], width: usize) -> Vec<Cell> {
    let first = width as i32 - 3;
    nodes.iter().copied().filter(|c| c.col >= first).collect()
}

/// Resolves `endpoints` on this map: the snapped start and the snapped,
/// deduplicated goals (goals that snap nowhere are dropped).
///
/// # Errors
/// [`AnalysisError::NoStart`] when the start does not snap to a
/// standable cell (or the level has none).
pub fn resolve(map: &NavMap, endpoints: &Endpoints) -> Result<(Cell, Vec<Cell>), AnalysisError> {
    let start = match endpoints.start {
        Some(c) => snap(map, c, SNAP_RADIUS),
        None => default_start(map),
    }
    .ok_or(AnalysisError::NoStart {
        cell: endpoints.start,
    })?;
    let goals = if endpoints.goals.is_empty() {
        default_goals(map)
    } else {
        let mut g: Vec<Cell> = endpoints
            .goals
            .iter()
            .filter_map(|&g| snap(map, g, SNAP_RADIUS))
            .collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    Ok((start, goals))
}

/// A map with links only out of the cells reachable from `start` (snapped
/// like [`find_path`] does; `None` for the level's default
/// start). Every standable cell is still a node, so reachability,
/// traps and paths from the start are the same as on the full
/// [`NavMap::build`] map, at the cost of only the part the body can get
/// to. Regions of the unreached part are not meaningful.
///
/// # Errors
/// [`PhysicsError`] when `physics` fails [`Physics::validate`].
pub fn build_from(
    level: &Level,
    physics: &Physics,
    start: Option<Cell>,
) -> Result<NavMap, PhysicsError> {
    physics.validate()?;
    let classes = Classification::new(level, physics);
    let nodes: Vec<Cell> = classes.standable_cells().collect();
    let empty = vec![Vec::new(); nodes.len()];
    let bare = NavMap::assemble(
        level.clone(),
        physics.clone(),
        classes.clone(),
        nodes.clone(),
        empty,
    );
    let s = match start {
        Some(c) => snap(&bare, c, SNAP_RADIUS),
        None => super::default_start(&bare),
    };
    let mut per_node = vec![Vec::new(); nodes.len()];
    if let Some(s) = s.and_then(|c| bare.node(c)) {
        let options = LinkOptions::default();
        let cache = BuildCache::new();
        let mut worker = cache.worker();
        let mut seen = vec![false; nodes.len()];
        seen[s.0 as usize] = true;
        let mut queue = VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            let links = links_from(
                level,
                physics,
                &classes,
                nodes[v.0 as usize],
                &options,
                &mut worker,
            );
            for l in &links {
                if let Some(t) = bare.node(l.to)
                    && !seen[t.0 as usize]
                {
                    seen[t.0 as usize] = true;
                    queue.push_back(t);
                }
            }
            per_node[v.0 as usize] = links;
        }
    }
    Ok(NavMap::assemble(
        level.clone(),
        physics.clone(),
        classes,
        nodes,
        per_node,
    ))
}

/// Tries the reachable `goals` in order of distance from `start` and
/// returns the first that [`find_path`] proves, with its path's
/// cost in seconds.
#[must_use]
pub fn first_goal_found(
    map: &NavMap,
    start: Cell,
    goals: &[Cell],
    options: &SearchOptions,
) -> Option<(Cell, f64)> {
    let reach = super::reachable_from(map, start)?;
    let mut candidates: Vec<Cell> = goals
        .iter()
        .copied()
        .filter(|&g| map.node(g).is_some_and(|n| reach.contains(n)))
        .collect();
    candidates.sort_by_key(|g| (g.col - start.col).abs() + (g.row - start.row).abs());
    candidates.into_iter().find_map(|g| {
        find_path(map, start, g, options)
            .ok()
            .map(|p| (g, p.cost()))
    })
}

/// A level's summary under one physics profile: one row of a sweep.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Evaluation {
    /// A path to some goal was found and proven by replay.
    pub completable: bool,
    /// Standing cells reachable from the start over all standing cells.
    pub reachable_fraction: f64,
    /// Reachable cells from which the start cannot be reached again.
    pub traps: usize,
    /// Standing cells of the level.
    pub standing_cells: usize,
}

/// Builds as much of the map as the body can reach from the start (see
/// [`build_from`]) and evaluates the level: completable, reachable
/// fraction, trap count. Sequential; callers parallelize over levels and
/// parameter values.
///
/// # Errors
/// [`AnalysisError::Physics`] for invalid physics, [`AnalysisError::NoStart`]
/// when the start does not snap to a standable cell.
pub fn evaluate(
    level: &Level,
    physics: &Physics,
    endpoints: &Endpoints,
) -> Result<Evaluation, AnalysisError> {
    let map = super::build_from(level, physics, endpoints.start)?;
    let (start, goals) = super::resolve(&map, endpoints)?;
    let reach =
        super::reachable_from(&map, start).ok_or(AnalysisError::NoStart { cell: Some(start) })?;
    let completable =
        super::first_goal_found(&map, start, &goals, &SearchOptions::default()).is_some();
    Ok(Evaluation {
        completable,
        reachable_fraction: reach.fraction(),
        traps: reach.traps(&map).len(),
        standing_cells: map.node_count(),
    })
}

/// The result of [`least_value`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Least {
    /// Already completable at the low end of the range.
    AtMost(f64),
    /// Completable at this value and not at `value - tolerance`.
    Value(f64),
    /// Not completable even at the high end of the range.
    Above(f64),
}

impl fmt::Display for Least {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Least::AtMost(v) => write!(f, "<= {v:.2}"),
            Least::Value(v) => write!(f, "{v:.2}"),
            Least::Above(v) => write!(f, "> {v:.2}"),
        }
    }
}

/// The least value of `param` in `[lo, hi]` at which the level is
/// completable from its start, to within `tolerance`, by [`bisect`] (which
/// assumes completability is monotone in the parameter over the bracket:
/// it is not always, see the README's "Tuning physics").
///
/// # Errors
/// As [`evaluate`]; [`AnalysisError::BadRange`] unless
/// `lo <= hi` and `tolerance > 0`, all finite.
pub fn least_value(
    level: &Level,
    base: &Physics,
    param: Param,
    (lo, hi): (f64, f64),
    tolerance: f64,
    endpoints: &Endpoints,
) -> Result<Least, AnalysisError> {
    bisect((lo, hi), tolerance, |v| {
        Ok(evaluate(level, &param.apply(base, v), endpoints)?.completable)
    })
}

/// Bisection for the least `v` in `[lo, hi]` where `ok(v)` holds, to within
/// `tolerance`, assuming `ok` is monotone (false below a threshold, true
/// from it). Checks `hi` first ([`Least::Above`] if false), then `lo`
/// ([`Least::AtMost`] if true). When `hi - lo` is `tolerance` times a power
/// of two, every value tried lies on the grid `lo + k * tolerance`, so the
/// result matches a scan of that grid.
///
/// # Errors
/// [`AnalysisError::BadRange`] unless `lo <= hi` and `tolerance > 0`, all
/// finite; any error of `ok`.
pub fn bisect(
    (lo, hi): (f64, f64),
    tolerance: f64,
    mut ok: impl FnMut(f64) -> Result<bool, AnalysisError>,
) -> Result<Least, AnalysisError> {
    if !(lo.is_finite() && hi.is_finite() && tolerance.is_finite() && lo <= hi && tolerance > 0.0) {
        return Err(AnalysisError::BadRange { lo, hi, tolerance });
    }
    if !ok(hi)? {
        return Ok(Least::Above(hi));
    }
    if ok(lo)? {
        return Ok(Least::AtMost(lo));
    }
    let (mut bad, mut good) = (lo, hi);
    // Compare with a hair of slack so that power-of-two brackets stop on
    // the grid despite rounding.
    while good - bad > tolerance * (1.0 + 1e-9) {
        let mid = 0.5 * (bad + good);
        if ok(mid)? {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Ok(Least::Value(good))
}
