//! Moving platforms placed by a map's objects (`PHYSICS.md`, "Moving
//! platforms"): which objects are platforms (the rules file's
//! `platforms.objects`, else objects whose class, name or layer names a
//! moving platform) and their paths, read in one of four ways:
//!
//! - **ends by reference** (sq2): object-reference properties naming the
//!   path's start and end; the platform's box is the object's own, and it
//!   starts where the object is, heading for the end;
//! - **a polyline or polygon** (points relative to the object): the path
//!   itself, back and forth along a polyline, around a polygon;
//! - **a point field** (LDtk `Point`/`Array<Point>`): the cells the
//!   platform's top-left corner visits after the entity's own place;
//! - **Arcade's bounds** (`change_x`/`change_y` in pixels a frame at 60
//!   frames/s, `boundary_left`/`right`/`top`/`bottom` in pixels, top and
//!   bottom counted up from the map's bottom edge as Arcade does);
//!
//! or, before all of these, a **tween** the rules file gives for the
//! object's class or name (a game's code moving it to a target and back,
//! as Phaser's yoyo tweens do).
//!
//! A point object (or polyline vertex) marks the centre of the platform's
//! box (`width` tiles by one); another object marks the box's top edge
//! and horizontal centre. Points become tiles relative to the level's
//! first cell. Anything malformed is an error naming the object.
use std::collections::HashMap;

use super::doc::{Doc, Geom, Object, Prop};
use super::mapping::{PlatformRules, TileMapping, Tween};
use crate::level::{
    LevelError, MAX_PLATFORM_POINTS, MAX_PLATFORMS, Platform, PlatformLoop, Unmodelled,
};
use crate::physics::geometry::snap;

/// Speed in tiles/s of a platform neither it nor the rules give one.
pub(crate) const DEFAULT_SPEED: f64 = 2.0;
/// The tick length, in seconds, that offsets are counted in (every
/// preset's).
const DT: f64 = 1.0 / 60.0;
/// Frames a second of Arcade's `change_x`/`change_y`.
const ARCADE_FPS: f64 = 60.0;
/// The longest rest at a tween's ends, in milliseconds (a minute).
const MAX_HOLD_MS: f64 = 60_000.0;
/// The widest platform, in tiles (`Platform::width`'s bound).
const MAX_WIDTH: u32 = 64;

/// The platforms a map's objects place.
pub(super) struct Found {
    /// In object order.
    pub platforms: Vec<Platform>,
    /// For each of the document's objects, whether it was read as a
    /// platform (it then marks no cells and is not unmodelled).
    pub taken: Vec<bool>,
    /// The load summary's phrase, when there are any.
    pub phrase: Option<String>,
}

/// How an object came to be a platform.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Named {
    /// Listed by the rules file: it must give a path.
    Listed,
    /// Named like a moving platform (the conventions): a platform when it
    /// gives a path, else left as unmodelled.
    Convention,
}

/// The moving platforms of `doc` by `rules`; `origin` is the level's first
/// cell on the map's grid.
pub(super) fn platforms(
    doc: &Doc,
    rules: &TileMapping,
    origin: (i64, i64),
) -> Result<Found, LevelError> {
    let pr = &rules.platforms;
    let mut found = Found {
        platforms: Vec::new(),
        taken: vec![false; doc.objects.len()],
        phrase: None,
    };
    let ids: HashMap<u32, &Object> = doc.objects.iter().rev().map(|o| (o.id, o)).collect();
    let ctx = Ctx {
        doc,
        pr,
        ids,
        tile: (doc.tile_w.max(1e-9), doc.tile_h.max(1e-9)),
        origin: (origin.0 as f64, origin.1 as f64),
    };
    let mut how: Vec<String> = Vec::new();
    for (i, o) in doc.objects.iter().enumerate() {
        let Some((named, why)) = named(o, pr, rules.conventions_on()) else {
            continue;
        };
        let Some(p) = ctx.read(o)? else {
            if named == Named::Listed {
                return Err(ctx.error(
                    o,
                    "is a moving platform by the rules file but gives no path (no start or end \
                     reference, polyline, polygon, point field or change_x/change_y)",
                ));
            }
            continue;
        };
        if found.platforms.len() >= MAX_PLATFORMS {
            return Err(LevelError::Limit {
                what: "moving platforms",
                value: found.platforms.len() as u64 + 1,
                limit: MAX_PLATFORMS as u64,
            });
        }
        found.platforms.push(p);
        found.taken[i] = true;
        if !how.contains(&why) && how.len() <= 3 {
            how.push(why);
        }
    }
    if !found.platforms.is_empty() {
        let n = found.platforms.len();
        let s = if n == 1 { "" } else { "s" };
        if how.len() > 3 {
            how[3] = "...".into();
        }
        found.phrase = Some(format!("{n} moving platform{s} ({})", how.join(", ")));
    }
    Ok(found)
}

/// Whether `o` is a platform, and how its name says so.
fn named(o: &Object, pr: &PlatformRules, conv: bool) -> Option<(Named, String)> {
    let candidates = [
        (o.class.as_str(), "objects of class"),
        (o.name.as_str(), "objects named"),
        (o.layer.as_str(), "object layer"),
    ];
    // A point has no box: it is a platform by its own class or name only
    // (the ends of a layer's platforms are often points on that layer).
    let by: Vec<&(&str, &str)> = candidates
        .iter()
        .enumerate()
        .filter(|&(i, (s, _))| !s.is_empty() && (i < 2 || !matches!(o.geom, Geom::Point)))
        .map(|(_, c)| c)
        .collect();
    let mut by = by.into_iter();
    if let Some((s, w)) = by.clone().find(|(s, _)| pr.tweens.contains_key(*s)) {
        return Some((Named::Listed, format!("{w} {s:?}, tweened")));
    }
    if !pr.objects.is_empty() {
        return by
            .find(|(s, _)| pr.objects.iter().any(|n| n == s))
            .map(|(s, w)| (Named::Listed, format!("{w} {s:?}")));
    }
    if !conv {
        return None;
    }
    by.find(|(s, _)| Unmodelled::named(s) == Some("moving platform"))
        .map(|(s, w)| (Named::Convention, format!("{w} {s:?}")))
}

/// What reading a platform needs of its document.
struct Ctx<'a> {
    doc: &'a Doc,
    pr: &'a PlatformRules,
    /// Objects by id (the first of several with one id).
    ids: HashMap<u32, &'a Object>,
    /// A tile in map pixels.
    tile: (f64, f64),
    /// The level's first cell.
    origin: (f64, f64),
}

/// A path read from an object, in map pixels (each point where the
/// platform's top-left corner goes).
struct Path {
    points: Vec<(f64, f64)>,
    looped: PlatformLoop,
    /// Where the platform is on tick 0, heading from the first point to
    /// the second (`None`: on the first point).
    at: Option<(f64, f64)>,
    /// Its own speed in tiles/s, if it gives one.
    speed: Option<f64>,
    /// Ticks it rests at each point.
    pause: u32,
}

impl Ctx<'_> {
    /// An error naming `o`.
    fn error(&self, o: &Object, what: &str) -> LevelError {
        self.doc.error(format!(
            "moving platform {}: {what}",
            label(o, self.doc.format)
        ))
    }

    /// The platform object `o` places, or `None` when it gives no path.
    fn read(&self, o: &Object) -> Result<Option<Platform>, LevelError> {
        let width = self.width(o)?;
        let Some(path) = self.path(o, width)? else {
            return Ok(None);
        };
        if path.points.len() > MAX_PLATFORM_POINTS {
            return Err(self.error(
                o,
                &format!(
                    "{} points on its path (at most {MAX_PLATFORM_POINTS})",
                    path.points.len()
                ),
            ));
        }
        let (tw, th) = self.tile;
        let tiles = |(x, y): (f64, f64)| [x / tw - self.origin.0, y / th - self.origin.1];
        let points: Vec<[f64; 2]> = path.points.iter().copied().map(tiles).collect();
        if let Some(q) = points
            .iter()
            .chain(path.at.map(tiles).as_ref())
            .find(|q| !q.iter().all(|v| v.is_finite()))
        {
            return Err(self.error(o, &format!("a point of its path is ({}, {})", q[0], q[1])));
        }
        let speed = match path.speed {
            Some(s) => s,
            None => self
                .pr
                .speed
                .or(self.pr.speed_px.map(|s| s / tw))
                .unwrap_or(DEFAULT_SPEED),
        };
        if !(speed.is_finite() && speed > 0.0) {
            return Err(self.error(o, &format!("speed {speed} tiles/s (must be above 0)")));
        }
        let offset = match path.at {
            Some(at) if points.len() >= 2 => offset(points[0], points[1], tiles(at), speed),
            _ => 0,
        };
        Ok(Some(Platform {
            width,
            height: 1,
            points,
            speed,
            pause: path.pause,
            looped: path.looped,
            offset,
        }))
    }

    /// The platform's width in tiles: its width property (the rules'
    /// `width`, else `Width` in any case), else its box's, else 1.
    fn width(&self, o: &Object) -> Result<u32, LevelError> {
        let key = self.pr.width.as_deref().unwrap_or("Width");
        if let Some((name, v)) = o.props.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
            let w = number(v)
                .filter(|w| w.fract() == 0.0 && (1.0..=f64::from(MAX_WIDTH)).contains(w))
                .ok_or_else(|| {
                    self.error(
                        o,
                        &format!(
                            "its {name} is {} (a whole number of tiles, 1 to {MAX_WIDTH})",
                            shown(v)
                        ),
                    )
                })?;
            return Ok(w as u32);
        }
        if !has_box(o) {
            return Ok(1);
        }
        let (x0, _, x1, _) = o.bounds();
        let w = ((x1 - x0) / self.tile.0).round();
        if !(w.is_finite() && w <= f64::from(MAX_WIDTH)) {
            return Err(self.error(
                o,
                &format!("it is {w} tiles wide (give a width of 1 to {MAX_WIDTH})"),
            ));
        }
        Ok((w as u32).max(1))
    }

    /// The path `o` gives: its tween, else the first of the four ways
    /// that applies.
    fn path(&self, o: &Object, width: u32) -> Result<Option<Path>, LevelError> {
        let wpx = f64::from(width) * self.tile.0;
        if let Some(t) = [&o.class, &o.name]
            .into_iter()
            .find_map(|k| self.pr.tweens.get(k.as_str()))
        {
            return self.tweened(o, t, wpx).map(Some);
        }
        let own_speed = self.own_speed(o)?;
        if let Some(p) = self.by_reference(o, wpx)? {
            return Ok(Some(Path {
                speed: own_speed,
                ..p
            }));
        }
        let line = match &o.geom {
            Geom::Polyline(p) => Some((p, PlatformLoop::BackAndForth)),
            Geom::Polygon(p) if !is_tile_box(p) => Some((p, PlatformLoop::Loop)),
            _ => None,
        };
        if let Some((pts, looped)) = line {
            let points = o
                .place(pts)
                .into_iter()
                .map(|q| self.centred(q, wpx))
                .collect();
            return Ok(Some(Path {
                points,
                looped,
                at: None,
                speed: own_speed,
                pause: 0,
            }));
        }
        if let Some(pts) = o.props.iter().find_map(|(_, v)| match v {
            Prop::Points(p) => Some(p),
            _ => None,
        }) {
            let (x0, y0, _, _) = o.bounds();
            let mut points = vec![(x0, y0)];
            points.extend(pts.iter().copied().skip_while(|&q| q == (x0, y0)));
            return Ok(Some(Path {
                points,
                looped: PlatformLoop::BackAndForth,
                at: None,
                speed: own_speed,
                pause: 0,
            }));
        }
        self.arcade(o)
    }

    /// The path of a tween `t` of `o` (see [`Tween`]): from where `o`
    /// puts the platform to there moved as the tween moves the object.
    fn tweened(&self, o: &Object, t: &Tween, wpx: f64) -> Result<Path, LevelError> {
        let axis = |to: Option<f64>, by: Option<f64>, at: f64, name: &str| match (to, by) {
            (Some(_), Some(_)) => {
                Err(self.error(o, &format!("its tween gives both {name} and d{name}")))
            }
            (Some(v), None) => Ok(v - at),
            (None, Some(d)) => Ok(d),
            (None, None) => Ok(0.0),
        };
        let dx = axis(t.x, t.dx, o.x, "x")?;
        let dy = axis(t.y, t.dy, o.y, "y")?;
        if !(t.ms.is_finite() && t.ms > 0.0) {
            return Err(self.error(o, &format!("its tween lasts {} ms (must be above 0)", t.ms)));
        }
        if !(t.hold_ms.is_finite() && (0.0..=MAX_HOLD_MS).contains(&t.hold_ms)) {
            return Err(self.error(
                o,
                &format!("its tween holds {} ms (0 to {MAX_HOLD_MS})", t.hold_ms),
            ));
        }
        let tiles = (dx / self.tile.0).hypot(dy / self.tile.1);
        if !(tiles.is_finite() && tiles > 0.0) {
            return Err(self.error(o, "its tween does not move it"));
        }
        let own = self.anchor(o, wpx);
        Ok(Path {
            points: vec![own, (own.0 + dx, own.1 + dy)],
            looped: PlatformLoop::BackAndForth,
            at: None,
            speed: Some(tiles / (t.ms / 1000.0)),
            pause: (t.hold_ms / 1000.0 / DT).round() as u32,
        })
    }

    /// The object's own speed: a `speed` property in tiles/s or a
    /// `speed_px` one in pixels/s (any case).
    fn own_speed(&self, o: &Object) -> Result<Option<f64>, LevelError> {
        for (key, scale) in [("speed", 1.0), ("speed_px", self.tile.0)] {
            if let Some((name, v)) = o.props.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
                let s = number(v)
                    .map(|s| s / scale)
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| {
                        self.error(o, &format!("its {name} is {} (a number above 0)", shown(v)))
                    })?;
                return Ok(Some(s));
            }
        }
        Ok(None)
    }

    /// The path between the objects `o`'s start and end properties name
    /// (either one alone: the object's own place is the other end).
    fn by_reference(&self, o: &Object, wpx: f64) -> Result<Option<Path>, LevelError> {
        let start = self.reference(o, self.pr.start.as_deref(), &["start", "from"])?;
        let end = self.reference(o, self.pr.end.as_deref(), &["end", "to", "target"])?;
        if start.is_none() && end.is_none() {
            return Ok(None);
        }
        let own = self.anchor(o, wpx);
        let place = |r: Option<&Object>| r.map_or(own, |r| self.anchor(r, wpx));
        Ok(Some(Path {
            points: vec![place(start), place(end)],
            looped: PlatformLoop::BackAndForth,
            at: Some(own),
            speed: None,
            pause: 0,
        }))
    }

    /// The object a reference property of `o` names: the property `key`
    /// (any case) when the rules name it, else the first object-reference
    /// property whose name starts with one of `words` (case and separators
    /// ignored). A reference to no object (id 0, as Tiled writes an unset
    /// one) is none; to an object the map does not hold, an error.
    fn reference(
        &self,
        o: &Object,
        key: Option<&str>,
        words: &[&str],
    ) -> Result<Option<&Object>, LevelError> {
        let hit = match key {
            Some(k) => o.props.iter().find(|(n, _)| n.eq_ignore_ascii_case(k)),
            None => o.props.iter().find(|(n, v)| {
                let n = squash(n);
                matches!(v, Prop::Object(_)) && words.iter().any(|w| n.starts_with(w))
            }),
        };
        let Some((name, v)) = hit else {
            return Ok(None);
        };
        match v {
            Prop::Object(0) => Ok(None),
            Prop::Object(id) => match self.ids.get(id) {
                Some(r) => Ok(Some(r)),
                None => Err(self.error(
                    o,
                    &format!("its {name} names object {id}, which the map does not hold"),
                )),
            },
            v => Err(self.error(
                o,
                &format!("its {name} is {}, not a reference to an object", shown(v)),
            )),
        }
    }

    /// Where an object puts a platform `wpx` pixels wide (its top-left
    /// corner): a point is the centre of the platform's box; another
    /// object's box gives the top edge and the horizontal centre.
    fn anchor(&self, o: &Object, wpx: f64) -> (f64, f64) {
        if matches!(o.geom, Geom::Point) {
            return self.centred((o.x, o.y), wpx);
        }
        let (x0, y0, x1, _) = o.bounds();
        ((x0 + x1) / 2.0 - wpx / 2.0, y0)
    }

    /// The top-left corner of a box `wpx` wide and a tile high centred on
    /// `(x, y)`.
    fn centred(&self, (x, y): (f64, f64), wpx: f64) -> (f64, f64) {
        (x - wpx / 2.0, y - self.tile.1 / 2.0)
    }

    /// Python Arcade's moving platform: `change_x`/`change_y` (pixels a
    /// frame) and the bounds its box turns back at, top and bottom in
    /// Arcade's coordinates (up from the map's bottom edge).
    fn arcade(&self, o: &Object) -> Result<Option<Path>, LevelError> {
        let get = |key: &str| -> Result<Option<f64>, LevelError> {
            let Some((name, v)) = o.props.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) else {
                return Ok(None);
            };
            number(v)
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| self.error(o, &format!("its {name} is {}, not a number", shown(v))))
        };
        let cx = get("change_x")?.unwrap_or(0.0);
        let cy = get("change_y")?.unwrap_or(0.0);
        if cx == 0.0 && cy == 0.0 {
            return Ok(None);
        }
        let need = |key: &str| {
            get(key)?.ok_or_else(|| {
                self.error(
                    o,
                    &format!("it moves (change_x, change_y) but has no {key}"),
                )
            })
        };
        let (x0, y0, x1, y1) = o.bounds();
        let (w, h) = (x1 - x0, y1 - y0);
        let (mut from, mut to) = ((x0, y0), (x0, y0));
        if cx != 0.0 {
            let (lo, hi) = (need("boundary_left")?, need("boundary_right")? - w);
            // (Not a number: the check of the path's points names it.)
            if hi < lo {
                return Err(self.error(o, "its boundary_left and boundary_right leave it no room"));
            }
            (from.0, to.0) = if cx > 0.0 { (lo, hi) } else { (hi, lo) };
        }
        if cy != 0.0 {
            let Some((_, rows)) = self.doc.size else {
                return Err(self.error(
                    o,
                    "Arcade's boundary_top and boundary_bottom need a finite map",
                ));
            };
            let bottom = rows as f64 * self.tile.1;
            let (lo, hi) = (
                bottom - need("boundary_top")?,
                bottom - need("boundary_bottom")? - h,
            );
            if hi < lo {
                return Err(self.error(o, "its boundary_top and boundary_bottom leave it no room"));
            }
            // Arcade's y goes up: a positive change_y rises.
            (from.1, to.1) = if cy > 0.0 { (hi, lo) } else { (lo, hi) };
        }
        Ok(Some(Path {
            points: vec![from, to],
            looped: PlatformLoop::BackAndForth,
            at: Some((x0, y0)),
            speed: Some(cx.hypot(cy) * ARCADE_FPS / self.tile.0),
            pause: 0,
        }))
    }
}

/// The tick of a back-and-forth cycle from `a` to `b` nearest to `at` on
/// its way from `a` to `b`, at `speed` tiles/s and 60 ticks a second: the
/// fraction of the first leg `at` lies at (projected on it), of the leg's
/// ticks as `PHYSICS.md` counts them.
fn offset(a: [f64; 2], b: [f64; 2], at: [f64; 2], speed: f64) -> u64 {
    let (a, b) = ([snap(a[0]), snap(a[1])], [snap(b[0]), snap(b[1])]);
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    if len2.is_nan() || len2 <= 0.0 {
        return 0;
    }
    let t = (((at[0] - a[0]) * dx + (at[1] - a[1]) * dy) / len2).clamp(0.0, 1.0);
    let ticks = (len2.sqrt() / (speed * DT)).ceil().max(1.0);
    (t * ticks).round() as u64
}

/// Whether an object has a box of its own (a rectangle, an ellipse, a tile
/// object), as opposed to a point or a path.
fn has_box(o: &Object) -> bool {
    match &o.geom {
        Geom::Rect { .. } | Geom::Ellipse { .. } => true,
        Geom::Polygon(p) => is_tile_box(p),
        Geom::Point | Geom::Polyline(_) => false,
    }
}

/// Whether a polygon is a tile object's box as the loaders write it
/// (anchored at its bottom-left corner), not a drawn polygon.
fn is_tile_box(p: &[(f64, f64)]) -> bool {
    let [(x0, y0), (x1, y1), (x2, y2), (x3, y3)] = p else {
        return false;
    };
    (*x0, *x3, *y2, *y3) == (0.0, 0.0, 0.0, 0.0) && x1 == x2 && y0 == y1 && *y0 <= 0.0
}

/// A property's number: an int, a float or a string holding one.
fn number(v: &Prop) -> Option<f64> {
    match v {
        Prop::Int(i) => Some(*i as f64),
        Prop::Float(f) => Some(*f),
        Prop::Str(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A property's value as an error shows it.
fn shown(v: &Prop) -> String {
    match v {
        Prop::Bool(b) => b.to_string(),
        Prop::Int(i) => i.to_string(),
        Prop::Float(f) => f.to_string(),
        Prop::Str(s) => format!("{:?}", s.chars().take(40).collect::<String>()),
        Prop::Object(id) => format!("object {id}"),
        Prop::Points(p) => format!("{} points", p.len()),
        Prop::Other => "a value of another type".into(),
    }
}

/// A name lowercased without separators.
fn squash(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// How an error names an object: Tiled's by id, name and class, LDtk's by
/// identifier, place in its layer and layer.
fn label(o: &Object, format: &str) -> String {
    if format == "LDtk" {
        return format!("entity {:?} #{} on layer {:?}", o.class, o.id, o.layer);
    }
    let mut s = format!("object {}", o.id);
    if !o.name.is_empty() {
        s += &format!(" {:?}", o.name);
    }
    if !o.class.is_empty() {
        s += &format!(" ({})", o.class);
    }
    s
}
