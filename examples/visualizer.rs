//! The platnav visualizer: a level's tiles, node types, links and paths in
//! a window, with live physics tuning, a chase mode (K knocks the enemies,
//! to watch them recover) and an edit mode (T: click toggles a tile, O
//! opens or closes a marked door; the map updates in place and the chasing
//! enemies adapt). On a level with moving platforms, the platforms move
//! on the simulation's tick: the bodies ride them, paths are planned in
//! time from the current tick and the walking enemies follow them with a
//! `TimedFollower`.
//!
//! ```text
//! cargo run --release --example visualizer --features viz [LEVEL] [--rules FILE]
//!     [--layer NAME] [--level NAME] [--legend FILE] [--pixels-per-tile N]
//!     [--preset NAME] [--physics FILE] [--chase [--knock-every TICKS]]
//!     [--door COL,ROW,HEIGHT [--door-every TICKS]] [--screenshot FILE --frames N]
//! ```
//!
//! LEVEL is any level `platnav` reads (ASCII or VGLC text, Tiled, LDtk, PNG
//! masks), with the same loader options as the `platnav` tools. Without
//! LEVEL the default level is shown. Keys are listed on screen (press H to
//! hide them). `--help` prints the usage without opening a window.
//!
//! The static layers (tiles, nodes, links) are drawn once per rebuild by the
//! library's PNG renderer and shown as a texture; the path, the bodies and the
//! hover highlight are drawn each frame through the same `DebugDrawer`
//! functions, implemented here for macroquad.

use platnav::find_path;
use std::path::PathBuf;
use std::time::Instant;

use macroquad::prelude::*;
use platnav::fly::{
    Agent, FlyFollower, FlyOptions, FreeSpace, Point, draw_fly_path, draw_free_space,
};
use platnav::render::{
    self, DebugDrawer, Layers, RenderOptions, Rgba, draw_body, draw_cell_outline, draw_links_from,
    draw_path, draw_platforms, draw_timed_path, render_map, timed_start,
};
use platnav::search::timed::{
    Place, TimedMemory, TimedOptions, TimedPath, TimedPlanner, find_path_timed,
};
use platnav::{
    Body, Cell, Input, Level, NavMap, Path, PathFollower, Physics, SearchOptions, Tile,
    follow::{FollowOptions, FollowState, TimedFollowState, TimedFollower},
    formats::LoadOptions,
    level::{Platform, Platforms, SplitMix64},
};

const DEMO_LEVEL: &str = include_str!("../levels/demo.txt");
/// Pixels per tile of the static-layer texture.
const TEX_SCALE: u32 = 16;
/// Height of the text panel at the top, in pixels.
const HUD: f32 = 112.0;

fn window_conf() -> Conf {
    Conf {
        window_title: "platnav visualizer".to_owned(),
        window_width: 1280,
        window_height: 720,
        ..Default::default()
    }
}

/// Command-line options.
struct Args {
    level: Option<PathBuf>,
    /// The loader options every platnav tool takes.
    load: LoadOptions,
    physics: Option<PathBuf>,
    preset: Option<String>,
    chase: bool,
    /// In chase mode, knock the enemies every this many ticks.
    knock_every: Option<u32>,
    /// Cells marked as a door at start (a column from its top cell down).
    door: Vec<Cell>,
    /// Open or close the door every this many ticks.
    door_every: Option<u32>,
    screenshot: Option<PathBuf>,
    frames: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        level: None,
        load: LoadOptions::default(),
        physics: None,
        preset: None,
        chase: false,
        knock_every: None,
        door: Vec::new(),
        door_every: None,
        screenshot: None,
        frames: 10,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--legend" => args.load.legend = Some(value("--legend")?.into()),
            "--rules" | "--mapping" => args.load.rules = Some(value("--rules")?.into()),
            "--layer" => args.load.layer = Some(value("--layer")?),
            "--level" => args.load.level = Some(value("--level")?),
            "--pixels-per-tile" => {
                let v = value("--pixels-per-tile")?;
                args.load.pixels_per_tile = Some(
                    v.parse()
                        .map_err(|_| format!("--pixels-per-tile: {v:?} is not a count"))?,
                );
            }
            "--physics" => args.physics = Some(value("--physics")?.into()),
            "--preset" => args.preset = Some(value("--preset")?),
            "--chase" => args.chase = true,
            "--knock-every" => {
                args.knock_every = Some(ticks("--knock-every", &value("--knock-every")?)?)
            }
            "--door" => {
                let v = value("--door")?;
                let n: Vec<i32> = v
                    .split(',')
                    .map(|x| x.trim().parse())
                    .collect::<Result<_, _>>()
                    .map_err(|_| format!("--door: {v:?} is not COL,ROW,HEIGHT"))?;
                let [col, row, height] = n[..] else {
                    return Err(format!("--door: {v:?} is not COL,ROW,HEIGHT"));
                };
                args.door = (0..height.clamp(0, 64))
                    .map(|d| Cell::new(col, row + d))
                    .collect();
            }
            "--door-every" => {
                args.door_every = Some(ticks("--door-every", &value("--door-every")?)?)
            }
            "--screenshot" => args.screenshot = Some(value("--screenshot")?.into()),
            "--frames" => {
                let v = value("--frames")?;
                args.frames = v
                    .parse()
                    .map_err(|_| format!("--frames: {v:?} is not a count"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            _ if args.level.is_some() => return Err(format!("unexpected argument {a:?}")),
            _ => args.level = Some(a.into()),
        }
    }
    if let Some(shot) = &args.screenshot {
        let dir = shot.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            return Err(format!("{}: no such directory", shot.display()));
        }
    }
    Ok(args)
}

/// A positive tick count given to option `name`.
fn ticks(name: &str, v: &str) -> Result<u32, String> {
    let n: u32 = v
        .parse()
        .map_err(|_| format!("{name}: {v:?} is not a tick count"))?;
    Ok(n.max(1))
}

const USAGE: &str = "\
usage: visualizer [LEVEL] [--rules FILE] [--layer NAME] [--level NAME] [--legend FILE]
                  [--pixels-per-tile N] [--preset NAME] [--physics FILE] [--chase [--knock-every TICKS]]
                  [--door COL,ROW,HEIGHT [--door-every TICKS]] [--screenshot FILE --frames N]

LEVEL: any level platnav reads (.txt ASCII or VGLC, .tmx, .tmj/.json, .ldtk, .png);
the loader options are those of the platnav tools (see `platnav path --help`).";

/// A loaded level: grid, spawn and goal markers, moving platforms, and
/// whether it is VGLC text (Super Mario Bros, shown with the `smb` preset
/// by default).
struct Loaded {
    level: Level,
    spawn: Option<Cell>,
    goal: Option<Cell>,
    platforms: Vec<Platform>,
    vglc: bool,
}

/// Loads the level with the same loader as the `platnav` tools, and prints
/// the same one-line summary for Tiled and LDtk maps.
fn load_level(args: &Args) -> Result<Loaded, String> {
    let Some(path) = &args.level else {
        let level: Level = DEMO_LEVEL.parse().map_err(|e| format!("{e}"))?;
        let spawn = level.cells_of(platnav::Tile::SPAWN).next();
        let goal = level.cells_of(platnav::Tile::GOAL).next();
        return Ok(Loaded {
            level,
            spawn,
            goal,
            platforms: Vec::new(),
            vglc: false,
        });
    };
    let loaded = platnav::formats::load_level(path, &args.load).map_err(|e| e.to_string())?;
    if !loaded.rules_used.is_empty() {
        eprintln!("visualizer: {}: {}", path.display(), loaded.summary());
    }
    let is_text = path
        .extension()
        .is_none_or(|e| e.eq_ignore_ascii_case("txt"));
    let vglc = is_text
        && (args.load.legend.is_some()
            || (path.with_file_name("legend.json").is_file()
                && platnav::Level::load(path).is_err()));
    Ok(Loaded {
        level: loaded.level,
        spawn: loaded.spawn,
        goal: loaded.goals.first().copied(),
        platforms: loaded.platforms,
        vglc,
    })
}

/// The physics: the preset, with a physics file's values over it.
fn load_physics(args: &Args, preset: &str) -> Result<Physics, String> {
    let base = Physics::preset(preset).map_err(|e| e.to_string())?;
    match &args.physics {
        Some(p) => {
            let text = platnav::io::files::read_text(p).map_err(|e| e.to_string())?;
            Physics::from_json_over(&text, &base).map_err(|e| format!("{}: {e}", p.display()))
        }
        None => Ok(base),
    }
}

/// The macroquad side of the one drawing code: tiles to screen pixels.
struct Screen {
    scale: f32,
    cam_x: f32,
}

impl Screen {
    fn to_px(&self, x: f32, y: f32) -> (f32, f32) {
        ((x - self.cam_x) * self.scale, y * self.scale + HUD)
    }

    fn to_tile(&self, px: f32, py: f32) -> (f32, f32) {
        (px / self.scale + self.cam_x, (py - HUD) / self.scale)
    }
}

fn color(c: Rgba) -> Color {
    Color::from_rgba(c.r, c.g, c.b, c.a)
}

impl DebugDrawer for Screen {
    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgba) {
        let (px, py) = self.to_px(x, y);
        draw_rectangle(px, py, w * self.scale, h * self.scale, color(c));
    }

    fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, c: Rgba) {
        let (a, b) = (self.to_px(x0, y0), self.to_px(x1, y1));
        draw_line(a.0, a.1, b.0, b.1, (width * self.scale).max(1.0), color(c));
    }

    fn circle(&mut self, x: f32, y: f32, radius: f32, c: Rgba) {
        let (px, py) = self.to_px(x, y);
        draw_circle(px, py, (radius * self.scale).max(1.0), color(c));
    }

    fn fill_triangle(&mut self, pts: [(f32, f32); 3], c: Rgba) {
        let [a, b, d] = pts.map(|(x, y)| {
            let (px, py) = self.to_px(x, y);
            vec2(px, py)
        });
        draw_triangle(a, b, d, color(c));
    }
}

/// The tunable physics: the preset plus the knobs the keys turn.
#[derive(Clone)]
struct Tuning {
    base: Physics,
    jump_height: f64,
    wall_jump: bool,
}

impl Tuning {
    fn new(base: Physics) -> Self {
        Self {
            jump_height: base.jump_height(),
            wall_jump: base.wall_jump.is_some(),
            base,
        }
    }

    /// The physics these knobs describe: `jump_speed` follows from the jump
    /// height and gravity.
    fn physics(&self) -> Physics {
        let mut p = self.base.clone();
        p.jump_speed = (2.0 * p.gravity * self.jump_height).sqrt();
        p.jump_cut_speed = p.jump_cut_speed.min(p.jump_speed);
        p.wall_jump = match (self.wall_jump, self.base.wall_jump) {
            (false, _) => None,
            (true, Some(wj)) => Some(wj),
            (true, None) => Physics::agile().wall_jump,
        };
        p
    }
}

/// Everything that depends on the map (and the platforms, checked for
/// its physics' tick).
struct World {
    map: NavMap,
    platforms: Platforms,
    build_ms: f64,
    texture: Option<Texture2D>,
    start: Cell,
    goal: Cell,
    path: Result<Route, String>,
    replay: Body,
    replay_tick: usize,
}

/// A planned path: over the map's links, or, on a level with moving
/// platforms, in time from the tick it was planned on.
enum Route {
    Links(Path),
    Timed(TimedPath),
}

fn make_texture(map: &NavMap, layers: Layers) -> Option<Texture2D> {
    let opts = RenderOptions::default()
        .with_layers(Layers {
            path: false,
            ..layers
        })
        .with_scale(TEX_SCALE)
        .with_crop(None);
    let canvas = render_map(map, None, &opts).ok()?;
    let tex = Texture2D::from_rgba8(
        u16::try_from(canvas.width()).ok()?,
        u16::try_from(canvas.height()).ok()?,
        &canvas.to_rgba8(),
    );
    tex.set_filter(FilterMode::Linear);
    Some(tex)
}

/// The path from `start` to `goal`: over the map's links; or, when the
/// level has platforms, in time from tick `tick`.
fn plan(
    map: &NavMap,
    platforms: &Platforms,
    start: Cell,
    goal: Cell,
    tick: u64,
) -> Result<Route, String> {
    if platforms.is_empty() {
        return find_path(map, start, goal, &SearchOptions::default())
            .map(Route::Links)
            .map_err(|e| e.to_string());
    }
    find_path_timed(map, platforms, start, tick, goal, &TimedOptions::default())
        .map(Route::Timed)
        .map_err(|e| e.to_string())
}

/// One tick of a body, from tick `tick`: with the platforms where they
/// are on it when the level has any ([`Body::step_moving`]).
fn step_body(body: &mut Body, map: &NavMap, platforms: &Platforms, tick: u64, input: Input) {
    let (level, p) = (map.level(), map.physics());
    if platforms.is_empty() {
        body.step(level, p, input);
    } else {
        body.step_moving(level, platforms, tick, p, input);
    }
}

impl World {
    /// Builds the map and plans the path (in time from tick `tick` when
    /// there are platforms).
    fn build(
        level: &Level,
        physics: &Physics,
        platforms: &[Platform],
        start: Cell,
        goal: Cell,
        layers: Layers,
        tick: u64,
    ) -> Result<Self, String> {
        let platforms = Platforms::new(platforms.to_vec(), physics.dt)
            .map_err(|e| format!("platforms: {e}"))?;
        let t = Instant::now();
        let map = NavMap::build(level, physics).map_err(|e| e.to_string())?;
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let texture = make_texture(&map, layers);
        let path = plan(&map, &platforms, start, goal, tick);
        let mut world = Self {
            replay: Body::start(level, start, physics),
            map,
            platforms,
            build_ms,
            texture,
            start,
            goal,
            path,
            replay_tick: 0,
        };
        world.restart_replay();
        Ok(world)
    }

    /// Plans again, from tick `tick` (paths in time), and restarts the
    /// replay.
    fn replan(&mut self, tick: u64) {
        self.path = plan(&self.map, &self.platforms, self.start, self.goal, tick);
        self.restart_replay();
    }

    fn restart_replay(&mut self) {
        let (level, physics) = (self.map.level(), self.map.physics());
        self.replay = match &self.path {
            Ok(Route::Links(path)) => Body::start(level, path.start(), physics),
            Ok(Route::Timed(path)) => timed_start(level, physics, &self.platforms, path),
            Err(_) => Body::start(level, self.start, physics),
        };
        self.replay_tick = 0;
    }

    /// Tick `tick` of the replaying body; loops a second after the goal (a
    /// path in time is planned again from the next tick, the platforms
    /// having moved on).
    fn step_replay(&mut self, tick: u64) {
        // A replay in time that is not on its path's tick (the chase ran
        // meanwhile) starts again on a path planned from this tick.
        if let Ok(Route::Timed(path)) = &self.path
            && path.start_tick + self.replay_tick as u64 != tick
        {
            self.replan(tick);
        }
        let n = match &self.path {
            Err(_) => return,
            Ok(Route::Links(path)) => {
                let n = path.inputs().len();
                if self.replay_tick < n {
                    let input = path.inputs()[self.replay_tick];
                    self.replay
                        .step(self.map.level(), self.map.physics(), input);
                }
                n
            }
            Ok(Route::Timed(path)) => {
                // The tape's inputs are for the ticks from its start tick
                // on, the replay's ticks; at rest on the goal after it.
                let input = path.inputs.get(self.replay_tick).copied();
                let (level, p) = (self.map.level(), self.map.physics());
                let input = input.unwrap_or(Input::IDLE);
                self.replay
                    .step_moving(level, &self.platforms, tick, p, input);
                path.inputs.len()
            }
        };
        self.replay_tick += 1;
        if self.replay_tick > n + 60 {
            match self.path {
                Ok(Route::Timed(_)) => self.replan(tick + 1),
                _ => self.restart_replay(),
            }
        }
    }
}

/// The radius of the flying enemy (tiles) and its top speed (tiles/s).
const BAT_RADIUS: f64 = 0.35;
const BAT_SPEED: f64 = 4.5;

/// A flying enemy: it ignores gravity and follows exact any-angle paths
/// through the level's free space for its size.
struct Bat {
    space: FreeSpace,
    pos: Point,
    home: Point,
    follower: FlyFollower,
}

impl Bat {
    fn new(level: &Level) -> Option<Self> {
        let space =
            FreeSpace::from_level(level, Agent::disc(BAT_RADIUS), &FlyOptions::default()).ok()?;
        let home = space.nearest_free(Point::new(level.width() as f64 / 2.0, 1.0))?;
        Some(Self {
            space,
            pos: home,
            home,
            follower: FlyFollower::new(BAT_SPEED),
        })
    }
}

/// How a walking enemy follows the player: a `PathFollower` over the
/// map's links, or, on a level with moving platforms, a `TimedFollower`
/// planning in time. (Three of them: their size does not matter.)
#[allow(clippy::large_enum_variant)]
enum Follower {
    Links(PathFollower),
    Timed(TimedChaser),
}

/// The fewest ticks between two goals given to a `TimedFollower` on its
/// plan: each new goal is a search in time (the first near a platform
/// fills the shared memory's places for a cycle of it, tens of
/// milliseconds), and it leaves its plan to come to rest first.
const GOAL_TICKS: u64 = 60;

/// A `TimedFollower` chasing the player, and the goal it follows: the
/// player's cell, changed on its plan only when the player is more than two
/// cells from it, at most every [`GOAL_TICKS`], and otherwise at once.
struct TimedChaser {
    follower: TimedFollower,
    goal: Option<Cell>,
    /// The tick of its last goal; `None` until it first runs.
    since: Option<u64>,
    /// The ticks it stands still before it first plans, so that the
    /// enemies search on different ticks.
    stagger: u64,
}

impl TimedChaser {
    fn new(stagger: u64) -> Self {
        Self {
            follower: TimedFollower::new(TimedOptions::default()),
            goal: None,
            since: None,
            stagger,
        }
    }

    /// The input for tick `tick` toward the player's cell `target`,
    /// planned with `planner` (shared by the enemies).
    fn next_input(
        &mut self,
        planner: &TimedPlanner<'_>,
        body: &Body,
        tick: u64,
        target: Cell,
    ) -> Input {
        let since = *self.since.get_or_insert(tick + self.stagger);
        if tick < since {
            return Input::IDLE;
        }
        let due = match self.goal {
            None => true,
            Some(goal) if goal == target => false,
            Some(goal) => {
                let far = (goal.col - target.col).abs() + (goal.row - target.row).abs() > 2;
                self.follower.state() != TimedFollowState::OnPlan
                    || (far && body.grounded && tick >= since + GOAL_TICKS)
            }
        };
        if due {
            self.goal = Some(target);
            self.since = Some(tick);
        }
        let goal = self.goal.unwrap_or(target);
        self.follower.next_input_with(planner, body, tick, goal)
    }
}

impl Follower {
    /// The follower of enemy number `k` (from 0).
    fn new(platforms: &Platforms, k: u64) -> Self {
        if platforms.is_empty() {
            Self::Links(PathFollower::new(FollowOptions::default()))
        } else {
            Self::Timed(TimedChaser::new(k * 15))
        }
    }

    fn reset(&mut self) {
        match self {
            Self::Links(f) => f.reset(),
            Self::Timed(t) => *t = TimedChaser::new(t.stagger),
        }
    }
}

/// The chase: a keyboard-driven player, three walking enemies with
/// followers and a flying one.
struct Chase {
    player: Body,
    player_start: Cell,
    enemies: Vec<(Body, Follower, Cell)>,
    bat: Option<Bat>,
    catches: u32,
    /// Random knocks (K), counted, and the enemies' deaths: how many the
    /// follower foretold (falling to death on the tick before).
    rng: SplitMix64,
    ticks: u32,
    knocks: u32,
    deaths: u32,
    foretold: u32,
    /// What the enemies' plans in time keep, shared between them.
    memory: TimedMemory,
}

impl Chase {
    fn new(map: &NavMap, platforms: &Platforms, player_start: Cell) -> Self {
        let p = map.physics();
        let nodes = map.nodes();
        let enemies = [1, 2, 3]
            .iter()
            .filter_map(|k| nodes.get(nodes.len() * k / 4).copied())
            .zip(0..)
            .map(|(c, k)| {
                (
                    Body::start(map.level(), c, p),
                    Follower::new(platforms, k),
                    c,
                )
            })
            .collect();
        Self {
            player: Body::start(map.level(), player_start, p),
            player_start,
            enemies,
            bat: Bat::new(map.level()),
            catches: 0,
            rng: SplitMix64::new(get_time().to_bits()),
            ticks: 0,
            knocks: 0,
            deaths: 0,
            foretold: 0,
            memory: TimedMemory::new(),
        }
    }

    /// Knocks every enemy: a random velocity, as a hit or an explosion
    /// would. Their followers recover on their own.
    fn knock(&mut self, map: &NavMap) {
        for (body, ..) in &mut self.enemies {
            platnav::follow::knock(body, map.physics(), &mut self.rng);
        }
        self.knocks += 1;
    }

    /// Tick `tick` of the chase (the platforms' tick, when the level has
    /// any: the bodies ride them and the enemies plan in time).
    fn step(&mut self, map: &NavMap, platforms: &Platforms, tick: u64, input: Input) {
        let (level, p) = (map.level(), map.physics());
        self.ticks += 1;
        step_body(&mut self.player, map, platforms, tick, input);
        if self.player.dead {
            self.player = Body::start(level, self.player_start, p);
        }
        let target = self
            .player
            .standing_cell()
            .unwrap_or_else(|| self.player.feet_cell());
        let mut caught = false;
        let planner =
            TimedPlanner::with_memory(map, platforms, TimedOptions::default(), &self.memory);
        for (body, follower, home) in &mut self.enemies {
            let i = match follower {
                Follower::Links(f) => f.next_input(map, body, target),
                Follower::Timed(t) => t.next_input(&planner, body, tick, target),
            };
            step_body(body, map, platforms, tick, i);
            if body.dead {
                self.deaths += 1;
                if let Follower::Links(f) = follower
                    && matches!(f.state(), FollowState::FallingToDeath { .. })
                {
                    self.foretold += 1;
                }
                *body = Body::start(level, *home, p);
                follower.reset();
            }
            caught |= (body.x - self.player.x).abs() < p.w && (body.y - self.player.y).abs() < p.h;
        }
        if let Some(bat) = &mut self.bat {
            let centre = Point::new(self.player.x, self.player.y - p.h / 2.0);
            if let Ok(step) = bat.follower.step(&bat.space, bat.pos, centre, p.dt) {
                bat.pos = Point::new(
                    bat.pos.x + step.velocity.x * p.dt,
                    bat.pos.y + step.velocity.y * p.dt,
                );
            }
            caught |= (bat.pos.x - self.player.x).abs() < p.w / 2.0 + BAT_RADIUS
                && (bat.pos.y - centre.y).abs() < p.h / 2.0 + BAT_RADIUS;
        }
        if caught {
            if let Some(bat) = &mut self.bat {
                bat.pos = bat.home;
                bat.follower = FlyFollower::new(BAT_SPEED);
            }
            self.catches += 1;
            self.player = Body::start(level, self.player_start, p);
            for (body, follower, home) in &mut self.enemies {
                *body = Body::start(level, *home, p);
                follower.reset();
            }
        }
    }
}

fn keyboard_input() -> Input {
    let left = is_key_down(KeyCode::Left);
    let right = is_key_down(KeyCode::Right);
    let move_x = i8::from(right) - i8::from(left);
    let jump = is_key_down(KeyCode::Space);
    Input::new(move_x, jump, is_key_down(KeyCode::Down)).with_up(is_key_down(KeyCode::Up))
}

/// Cells marked as a door: closed, they are solid; open, they hold the
/// tiles they had when marked.
struct Door {
    cells: Vec<Cell>,
    open_tiles: Vec<Tile>,
    closed: bool,
}

impl Door {
    fn new(level: &Level, cells: Vec<Cell>) -> Self {
        let cells: Vec<Cell> = cells.into_iter().filter(|c| level.contains(*c)).collect();
        let open_tiles = cells
            .iter()
            .map(|&c| level.get(c).unwrap_or(Tile::EMPTY))
            .collect();
        Self {
            cells,
            open_tiles,
            closed: false,
        }
    }

    /// Marks `cell` (or unmarks it) while the door is open.
    fn mark(&mut self, level: &Level, cell: Cell) {
        if self.closed {
            return;
        }
        match self.cells.iter().position(|&c| c == cell) {
            Some(i) => {
                self.cells.remove(i);
                self.open_tiles.remove(i);
            }
            None => {
                self.cells.push(cell);
                self.open_tiles.push(level.get(cell).unwrap_or(Tile::EMPTY));
            }
        }
    }

    /// The edits that close an open door or open a closed one.
    fn toggle(&mut self) -> Vec<(Cell, Tile)> {
        self.closed = !self.closed;
        if self.closed {
            self.cells.iter().map(|&c| (c, Tile::SOLID)).collect()
        } else {
            self.cells
                .iter()
                .copied()
                .zip(self.open_tiles.iter().copied())
                .collect()
        }
    }
}

const HELP: [&str; 3] = [
    "1-4 layers (tiles nodes links path)  left/right click: start/goal  M chase (arrows + space, K knock)  wheel or , . scroll  H help  Esc quit",
    "Q/A jump height  W/S run speed  E/D gravity  R/F air jumps  G wall jump  Z/X width  C/V height  P next preset (physics apply on key release)",
    "T edit mode: left click toggles a tile (solid / empty), right click marks a door cell, O opens or closes the door; the map updates in place",
];

/// Reads the arguments, the level and the physics before any window opens
/// (so `--help` and errors need no display), then runs the window.
fn main() {
    let fail = |e: String| -> ! {
        eprintln!("visualizer: error: {e}");
        std::process::exit(2);
    };
    let args = parse_args().unwrap_or_else(|e| fail(e));
    let loaded = load_level(&args).unwrap_or_else(|e| fail(e));
    let preset_name = args
        .preset
        .clone()
        .unwrap_or_else(|| if loaded.vglc { "smb" } else { "agile" }.to_owned());
    let base = load_physics(&args, &preset_name).unwrap_or_else(|e| fail(e));
    // Malformed platforms are named before the window opens.
    if let Err(e) = Platforms::new(loaded.platforms.clone(), base.dt) {
        fail(format!("platforms: {e}"));
    }
    macroquad::Window::from_config(window_conf(), run(args, loaded, preset_name, base));
}

async fn run(args: Args, loaded: Loaded, mut preset_name: String, base: Physics) {
    let mut level = loaded.level;
    let mut editing = false;
    let mut door = Door::new(&level, args.door.clone());
    let mut tuning = Tuning::new(base);
    let mut layers = Layers::ALL;
    let start = loaded
        .spawn
        .unwrap_or(Cell::new(1, level.height() as i32 - 2));
    let goal = loaded.goal.unwrap_or(Cell::new(
        level.width() as i32 - 2,
        level.height() as i32 - 2,
    ));
    // The simulation's tick: the platforms are where they are on it, and
    // the bodies step from it.
    let mut tick = 0u64;
    let platform_list = loaded.platforms;
    let mut world = match World::build(
        &level,
        &tuning.physics(),
        &platform_list,
        start,
        goal,
        layers,
        tick,
    ) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("visualizer: error: {e}");
            std::process::exit(2);
        }
    };
    let mut chase: Option<Chase> = args
        .chase
        .then(|| Chase::new(&world.map, &world.platforms, start));
    let mut message = String::new();
    let mut show_help = true;
    let mut cam_x = 0.0f32;
    let mut last_scroll = f64::NEG_INFINITY;
    let mut clock = 0.0f64;
    let mut frame = 0u32;
    let dt = world.map.physics().dt;

    loop {
        frame += 1;
        let (lw, lh) = (level.width() as f32, level.height() as f32);
        // Fit the height; fit the width too unless tiles would get tiny
        // (wide levels scroll instead).
        let scale = ((screen_height() - HUD) / lh)
            .min((screen_width() / lw).max(24.0))
            .max(4.0);
        let view_w = screen_width() / scale;
        let max_cam = (lw - view_w).max(0.0);

        // --- Input: layers, help, scrolling.
        let mut toggled = false;
        for (key, layer) in [
            (KeyCode::Key1, &mut layers.tiles),
            (KeyCode::Key2, &mut layers.nodes),
            (KeyCode::Key3, &mut layers.links),
            (KeyCode::Key4, &mut layers.path),
        ] {
            if is_key_pressed(key) {
                *layer = !*layer;
                toggled = true;
            }
        }
        if toggled {
            world.texture = make_texture(&world.map, layers);
        }
        if is_key_pressed(KeyCode::H) {
            show_help = !show_help;
        }
        if is_key_pressed(KeyCode::Escape) {
            break;
        }
        let wheel = mouse_wheel().1;
        let scrolled = if wheel != 0.0 {
            -wheel.signum() * 3.0
        } else if is_key_down(KeyCode::Comma) {
            -0.5
        } else if is_key_down(KeyCode::Period) {
            0.5
        } else {
            0.0
        };
        if scrolled != 0.0 {
            cam_x += scrolled;
            last_scroll = get_time();
        }

        // --- Physics knobs: applied on key release, then the map rebuilds.
        let mut tuned = true;
        let b = &mut tuning.base;
        if is_key_released(KeyCode::Q) {
            tuning.jump_height += 0.5;
        } else if is_key_released(KeyCode::A) {
            tuning.jump_height = (tuning.jump_height - 0.5).max(0.5);
        } else if is_key_released(KeyCode::W) {
            b.run_speed += 1.0;
        } else if is_key_released(KeyCode::S) {
            b.run_speed = (b.run_speed - 1.0).max(1.0);
        } else if is_key_released(KeyCode::E) {
            b.gravity += 5.0;
        } else if is_key_released(KeyCode::D) {
            b.gravity = (b.gravity - 5.0).max(5.0);
        } else if is_key_released(KeyCode::R) {
            b.air_jumps += 1;
        } else if is_key_released(KeyCode::F) {
            b.air_jumps = b.air_jumps.saturating_sub(1);
        } else if is_key_released(KeyCode::G) {
            tuning.wall_jump = !tuning.wall_jump;
        } else if is_key_released(KeyCode::Z) {
            b.w = (b.w - 0.1).max(0.2);
        } else if is_key_released(KeyCode::X) {
            b.w = (b.w + 0.1).min(3.0);
        } else if is_key_released(KeyCode::C) {
            b.h = (b.h - 0.1).max(0.2);
        } else if is_key_released(KeyCode::V) {
            b.h = (b.h + 0.1).min(4.0);
        } else if is_key_released(KeyCode::P) {
            let names = Physics::PRESETS;
            let i = names.iter().position(|n| *n == preset_name).unwrap_or(0);
            preset_name = names[(i + 1) % names.len()].to_owned();
            tuning = Tuning::new(Physics::preset(&preset_name).unwrap_or_default());
        } else {
            tuned = false;
        }
        if tuned {
            let physics = tuning.physics();
            let (s, g) = (world.start, world.goal);
            match World::build(&level, &physics, &platform_list, s, g, layers, tick) {
                Ok(w) => {
                    world = w;
                    message.clear();
                    if chase.is_some() {
                        chase = Some(Chase::new(&world.map, &world.platforms, start));
                    }
                }
                Err(e) => message = format!("not rebuilt: {e}"),
            }
        }

        // --- Mouse: hover, start and goal.
        let mut screen = Screen {
            scale,
            cam_x: cam_x.clamp(0.0, max_cam),
        };
        let (mx, my) = mouse_position();
        let (tx, ty) = screen.to_tile(mx, my);
        let hover = (my > HUD).then(|| Cell::new(tx.floor() as i32, ty.floor() as i32));
        if is_key_pressed(KeyCode::T) {
            editing = !editing;
        }
        let mut edits: Vec<(Cell, Tile)> = Vec::new();
        if let Some(cell) = hover.filter(|c| level.contains(*c)) {
            match (
                editing,
                is_mouse_button_pressed(MouseButton::Left),
                is_mouse_button_pressed(MouseButton::Right),
            ) {
                (false, true, _) => {
                    world.start = cell;
                    world.replan(tick);
                }
                (false, false, true) => {
                    world.goal = cell;
                    world.replan(tick);
                }
                (true, true, _) => {
                    let now = level.get(cell).unwrap_or(Tile::EMPTY);
                    let tile = if now == Tile::SOLID {
                        Tile::EMPTY
                    } else {
                        Tile::SOLID
                    };
                    edits.push((cell, tile));
                }
                (true, false, true) => door.mark(&level, cell),
                _ => {}
            }
        }
        if is_key_pressed(KeyCode::O) {
            edits.extend(door.toggle());
        }
        if let (true, Some(c)) = (is_key_pressed(KeyCode::K), &mut chase) {
            c.knock(&world.map);
        }
        if is_key_pressed(KeyCode::M) {
            chase = match chase {
                Some(_) => None,
                None => Some(Chase::new(&world.map, &world.platforms, world.start)),
            };
        }

        // --- Simulation at the physics tick rate.
        clock += f64::from(get_frame_time()).min(0.1);
        if args.screenshot.is_some() {
            clock = dt; // deterministic: one tick per frame
        }
        while clock >= dt {
            clock -= dt;
            match &mut chase {
                Some(c) => {
                    c.step(&world.map, &world.platforms, tick, keyboard_input());
                    if args.knock_every.is_some_and(|n| c.ticks % n == 0) {
                        c.knock(&world.map);
                    }
                    if args.door_every.is_some_and(|n| c.ticks % n == 0) {
                        edits.extend(door.toggle());
                    }
                }
                None => world.step_replay(tick),
            }
            tick += 1;
        }
        if !edits.is_empty() {
            let t = Instant::now();
            match world.map.edit(&edits) {
                Ok(report) => {
                    let ms = t.elapsed().as_secs_f64() * 1e3;
                    for &(c, tile) in &edits {
                        level.set(c, tile);
                    }
                    world.texture = make_texture(&world.map, layers);
                    world.replan(tick);
                    message = format!(
                        "edit: {} tiles changed, {} nodes rebuilt, map updated in {ms:.2} ms (generation {})",
                        report.tiles_changed, report.nodes_rebuilt, report.generation
                    );
                    if args.screenshot.is_some() {
                        // Scripted runs report each edit for their callers.
                        println!("{message}");
                    }
                }
                Err(e) => message = format!("not edited: {e}"),
            }
        }
        // The camera follows the player (chase) or the replaying body,
        // except for three seconds after the user scrolled.
        if get_time() - last_scroll > 3.0 {
            let x = chase.as_ref().map_or(world.replay.x, |c| c.player.x);
            cam_x = x as f32 - view_w / 2.0;
        }
        cam_x = cam_x.clamp(0.0, max_cam);
        screen.cam_x = cam_x;

        // --- Drawing.
        clear_background(color(render::BACKGROUND));
        if let Some(tex) = &world.texture {
            let (x, y) = screen.to_px(0.0, 0.0);
            draw_texture_ex(
                tex,
                x,
                y,
                WHITE,
                DrawTextureParams {
                    dest_size: Some(vec2(lw * scale, lh * scale)),
                    ..Default::default()
                },
            );
        }
        let (map, physics) = (&world.map, world.map.physics());
        if layers.tiles && !world.platforms.is_empty() {
            draw_platforms(&mut screen, &world.platforms, tick);
        }
        match (layers.path, &world.path) {
            (true, Ok(Route::Links(path))) => draw_path(&mut screen, map.level(), physics, path),
            (true, Ok(Route::Timed(path))) => {
                let level = map.level();
                draw_timed_path(&mut screen, level, physics, &world.platforms, path, None);
            }
            _ => {}
        }
        for &c in &door.cells {
            draw_cell_outline(&mut screen, c, 0.1, Rgba::rgb(200, 120, 40));
        }
        let mut hover_text = String::new();
        if let Some(cell) = hover.filter(|c| level.contains(*c)) {
            draw_cell_outline(&mut screen, cell, 0.06, Rgba::rgb(255, 255, 255));
            let t = map.node_type(cell);
            hover_text = format!("{cell}: {}", t.name());
            if let Some(node) = map.node(cell) {
                draw_links_from(&mut screen, map, node);
                let links: Vec<_> = map.links_from(node).collect();
                let mut kinds: Vec<String> = Vec::new();
                for k in platnav::LinkKind::ALL {
                    let n = links.iter().filter(|l| l.kind == k).count();
                    if n > 0 {
                        kinds.push(format!("{k} {n}"));
                    }
                }
                hover_text += &format!(", {} links out ({})", links.len(), kinds.join(", "));
            }
        }
        match &chase {
            Some(c) => {
                // Red on plan, orange recovering (its landing cell
                // outlined), magenta falling to death.
                for (body, follower, _) in &c.enemies {
                    let colour = match follower {
                        Follower::Links(f) => match f.state() {
                            FollowState::Recovering { landing, .. } => {
                                if let Some(cell) = landing {
                                    let orange = Rgba::rgb(255, 160, 0);
                                    draw_cell_outline(&mut screen, cell, 0.08, orange);
                                }
                                Rgba::rgb(255, 160, 0)
                            }
                            FollowState::FallingToDeath { .. } => Rgba::rgb(255, 0, 255),
                            _ => Rgba::rgb(255, 60, 60),
                        },
                        Follower::Timed(t) => match t.follower.state() {
                            TimedFollowState::Recovering => Rgba::rgb(255, 160, 0),
                            _ => Rgba::rgb(255, 60, 60),
                        },
                    };
                    draw_body(&mut screen, body, physics, colour);
                }
                if let Some(bat) = &c.bat {
                    if layers.nodes {
                        draw_free_space(&mut screen, &bat.space, false);
                    }
                    if let (true, Some(path)) = (layers.path, bat.follower.path()) {
                        draw_fly_path(&mut screen, path, 0.05);
                    }
                    let (x, y) = (bat.pos.x as f32, bat.pos.y as f32);
                    screen.circle(x, y, BAT_RADIUS as f32, Rgba::rgb(190, 90, 255));
                }
                draw_body(&mut screen, &c.player, physics, Rgba::rgb(80, 200, 255));
            }
            None => {
                if world.path.is_ok() {
                    draw_body(&mut screen, &world.replay, physics, Rgba::rgb(255, 230, 0));
                }
            }
        }

        // --- Text panel.
        draw_rectangle(
            0.0,
            0.0,
            screen_width(),
            HUD,
            Color::from_rgba(10, 10, 14, 255),
        );
        let p = physics;
        let line1 = format!(
            "{preset_name}: jump {:.1} tiles, run {:.1} t/s, gravity {:.1}, air jumps {}, wall jump {}, body {:.1} x {:.1}   |   {} nodes, {} links, build {:.0} ms",
            p.jump_height(),
            p.run_speed,
            p.gravity,
            p.air_jumps,
            if p.wall_jump.is_some() { "on" } else { "off" },
            p.w,
            p.h,
            map.node_count(),
            map.link_count(),
            world.build_ms
        );
        let line2 = match (&chase, &world.path) {
            (Some(c), _) => format!(
                "CHASE: arrows + space to move, K knocks the enemies; {} catches, {} knocks, {} enemy deaths ({} foretold)",
                c.catches, c.knocks, c.deaths, c.foretold
            ),
            (None, Ok(Route::Links(path))) => format!(
                "path {} -> {}: {:.2} s, {} links",
                path.start(),
                path.goal(),
                path.cost(),
                path.steps().len()
            ),
            (None, Ok(Route::Timed(path))) => format!(
                "path in time {} -> {} from tick {}: {:.2} s, {} steps{}",
                match path.start {
                    Place::Cell(c) => c,
                    Place::Platform { .. } => world.start,
                },
                path.goal,
                path.start_tick,
                path.ticks() as f64 * physics.dt,
                path.steps.len(),
                if path.rides() {
                    ", rides platforms"
                } else {
                    ""
                }
            ),
            (None, Err(e)) => format!("no path: {e}"),
        };
        let line2 = if world.platforms.is_empty() {
            line2
        } else {
            format!(
                "tick {tick}, {} platforms   |   {line2}",
                world.platforms.len()
            )
        };
        let line2 = if editing {
            format!("EDIT MODE (T to leave)   |   {line2}")
        } else {
            line2
        };
        let mut y = 18.0;
        for text in [
            line1.as_str(),
            line2.as_str(),
            hover_text.as_str(),
            message.as_str(),
        ] {
            draw_text(text, 8.0, y, 18.0, WHITE);
            y += 18.0;
        }
        if show_help {
            for text in HELP {
                draw_text(text, 8.0, y, 16.0, GRAY);
                y += 16.0;
            }
        }

        if let Some(shot) = &args.screenshot
            && frame >= args.frames
        {
            get_screen_data().export_png(&shot.to_string_lossy());
            if !world.platforms.is_empty() {
                // Scripted runs on levels with platforms report the tick
                // and the path in time for their callers.
                println!("platforms: {} on tick {tick}", world.platforms.len());
                match &world.path {
                    Ok(Route::Timed(path)) => println!(
                        "path in time: from tick {}, {} ticks, {} steps, rides {}",
                        path.start_tick,
                        path.ticks(),
                        path.steps.len(),
                        path.rides()
                    ),
                    Ok(Route::Links(_)) => {}
                    Err(e) => println!("no path in time: {e}"),
                }
            }
            break;
        }
        next_frame().await;
    }
}
