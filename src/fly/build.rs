//! From a level or a walk area to the free space's boundary: the
//! configuration space of the agent, where it is a point.
//!
//! Every obstacle is grown by the agent's shape (a Minkowski sum), the
//! grown pieces are merged, and what is left of the walkable area is the
//! free space: the set of positions of the agent's centre where the agent
//! touches no obstacle. Polygon booleans are `i_overlay`'s.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::single::SingleFloatOverlay;

use super::area::{Area, Walk};
use super::geom::{Point, minkowski, signed_area2};
use super::{Agent, FlyError, FlyOptions};
use crate::level::{Level, Tile};

/// The clearance added to the agent on every side, as a fraction of the
/// extent of the map: it absorbs the rounding of the polygon booleans
/// (which snap to a grid about 2^-30 of the extent), so a path never
/// touches an obstacle at the agent's true size.
pub(crate) const CLEARANCE: f64 = 1.0 / (1u64 << 28) as f64;

/// The grown obstacles and the box they are cut from.
pub(crate) struct Pieces {
    /// The walkable area's outline (contours, non-zero rule).
    pub walk: Vec<Vec<[f64; 2]>>,
    /// Grown obstacles (convex, positive orientation).
    pub pieces: Vec<Vec<Point>>,
    /// A box holding all the free space.
    pub min: Point,
    pub max: Point,
}

fn ring(ps: &[Point]) -> Vec<[f64; 2]> {
    ps.iter().map(|&p| p.into()).collect()
}

/// Blocked cells merged into rectangles: runs along rows, stacked when a
/// run spans the same columns as one in the row above. `(c0, r0, c1, r1,
/// hazard)`, exclusive ends.
fn blocked_rects(level: &Level) -> Vec<(usize, usize, usize, usize, bool)> {
    let (w, h) = (level.width(), level.height());
    let tiles = level.tiles();
    let mut done = Vec::new();
    // Rectangles still growing, by (c0, c1, hazard).
    let mut open: std::collections::HashMap<(usize, usize, bool), (usize, usize)> =
        std::collections::HashMap::new();
    for r in 0..h {
        let mut runs = Vec::new();
        let mut c = 0;
        while c < w {
            let kind = match tiles[r * w + c] {
                Tile::SOLID => Some(false),
                Tile::HAZARD => Some(true),
                _ => None,
            };
            let Some(hz) = kind else {
                c += 1;
                continue;
            };
            let c0 = c;
            while c < w
                && matches!(
                    (tiles[r * w + c], hz),
                    (Tile::SOLID, false) | (Tile::HAZARD, true)
                )
            {
                c += 1;
            }
            runs.push((c0, c, hz));
        }
        let mut next = std::collections::HashMap::with_capacity(runs.len());
        for key in runs {
            let r0 = open.remove(&key).map_or(r, |(r0, _)| r0);
            next.insert(key, (r0, r + 1));
        }
        for ((c0, c1, hz), (r0, r1)) in open.drain() {
            done.push((c0, r0, c1, r1, hz));
        }
        open = next;
    }
    for ((c0, c1, hz), (r0, r1)) in open {
        done.push((c0, r0, c1, r1, hz));
    }
    done.sort_unstable();
    done
}

/// A rectangle grown by `m`, then by the agent's shape.
fn grow_rect(
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    m: f64,
    shape: &[Point],
    agent: Agent,
) -> Vec<Point> {
    let rect = [
        Point::new(x0 - m, y0 - m),
        Point::new(x1 + m, y0 - m),
        Point::new(x1 + m, y1 + m),
        Point::new(x0 - m, y1 + m),
    ];
    match agent {
        Agent::Box { .. } => {
            let (hx, hy) = (shape[2].x, shape[2].y);
            vec![
                Point::new(rect[0].x - hx, rect[0].y - hy),
                Point::new(rect[1].x + hx, rect[1].y - hy),
                Point::new(rect[2].x + hx, rect[2].y + hy),
                Point::new(rect[3].x - hx, rect[3].y + hy),
            ]
        }
        Agent::Disc { .. } => minkowski(&rect, shape),
    }
}

/// The grown obstacles of a level: solid cells, and hazard cells grown by
/// `hazard_margin` first; the level's outside is an obstacle too.
pub(crate) fn level_pieces(
    level: &Level,
    agent: Agent,
    opts: &FlyOptions,
) -> Result<Pieces, FlyError> {
    agent.validate()?;
    if !(opts.hazard_margin.is_finite() && opts.hazard_margin >= 0.0) {
        return Err(FlyError::BadOptions(format!(
            "hazard_margin {} must be finite and at least 0",
            opts.hazard_margin
        )));
    }
    let (w, h) = (level.width() as f64, level.height() as f64);
    let pad = CLEARANCE * w.max(h).max(1.0);
    let shape = agent.shape(pad);
    let (hx, hy) = {
        let (x, y) = agent.half_extent();
        (x + pad, y + pad)
    };
    let (min, max) = (Point::new(hx, hy), Point::new(w - hx, h - hy));
    if min.x >= max.x || min.y >= max.y {
        return Err(FlyError::NoFreeSpace);
    }
    let pieces = blocked_rects(level)
        .into_iter()
        .map(|(c0, r0, c1, r1, hz)| {
            let m = if hz { opts.hazard_margin } else { 0.0 };
            grow_rect(c0 as f64, r0 as f64, c1 as f64, r1 as f64, m, &shape, agent)
        })
        .collect();
    Ok(Pieces {
        walk: vec![ring(&super::area::Area::rect(min, max))],
        pieces,
        min,
        max,
    })
}

/// The grown obstacles of a walk area: every edge of the walkable
/// outline, swept by the agent's shape.
pub(crate) fn area_pieces(area: &Area, agent: Agent) -> Result<Pieces, FlyError> {
    agent.validate()?;
    area.validate()?;
    let mut walk: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut i = 0;
    let shapes = &area.shapes;
    while i < shapes.len() {
        let kind = shapes[i].0;
        let mut batch = Vec::new();
        while i < shapes.len() && shapes[i].0 == kind {
            let mut r = shapes[i].1.clone();
            if signed_area2(&r) < 0.0 {
                r.reverse();
            }
            batch.push(ring(&r));
            i += 1;
        }
        let rule = match kind {
            Walk::Allow => OverlayRule::Union,
            Walk::Bar => OverlayRule::Difference,
        };
        if walk.is_empty() && kind == Walk::Bar {
            continue;
        }
        let out = walk.overlay(&batch, rule, FillRule::NonZero);
        walk = out.into_iter().flatten().collect();
    }
    if walk.is_empty() {
        return Err(FlyError::NoFreeSpace);
    }
    let (mut min, mut max) = (
        Point::new(f64::MAX, f64::MAX),
        Point::new(f64::MIN, f64::MIN),
    );
    for p in walk.iter().flatten() {
        min = Point::new(min.x.min(p[0]), min.y.min(p[1]));
        max = Point::new(max.x.max(p[0]), max.y.max(p[1]));
    }
    let pad = CLEARANCE * (max.x - min.x).max(max.y - min.y).max(1.0);
    let shape = agent.shape(pad);
    let mut pieces = Vec::new();
    for c in &walk {
        for k in 0..c.len() {
            let (a, b) = (Point::from(c[k]), Point::from(c[(k + 1) % c.len()]));
            pieces.push(minkowski(&[a, b], &shape));
        }
    }
    Ok(Pieces {
        walk,
        pieces,
        min,
        max,
    })
}

/// The free space's boundary: the walkable outline minus the grown
/// obstacles, as contours (even-odd).
pub(crate) fn free_contours(p: &Pieces) -> Vec<Vec<Point>> {
    let clip: Vec<Vec<[f64; 2]>> = p.pieces.iter().map(|q| ring(q)).collect();
    let out = p
        .walk
        .overlay(&clip, OverlayRule::Difference, FillRule::NonZero);
    out.into_iter()
        .flatten()
        .map(|c| c.into_iter().map(Point::from).collect())
        .collect()
}
