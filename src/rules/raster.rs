//! Shapes to cells: object areas rasterized onto the grid, and the
//! collision shapes of a tile read as one kind.
//!
//! # Areas (rectangles, ellipses, polygons)
//!
//! A cell belongs to an area when at least half of the cell's area lies
//! inside the shape (computed exactly for polygons and rectangles; an
//! ellipse is a 32-sided polygon). Rotated shapes are rotated first.
//!
//! # Lines (polylines)
//!
//! A cell belongs to a line when the line passes through it; a line lying
//! exactly on a cell boundary belongs to the cell right of or below it (so
//! a ledge drawn along the top edge of a row marks that row).
//!
//! # Tile collision shapes
//!
//! The shapes Tiled's collision editor stores in a tile, flipped with the
//! tile's flip bits, give the tile one kind:
//!
//! 1. every shape within the top quarter of the tile, together spanning at
//!    least half its width: **one-way** (a thin ledge along the top);
//! 2. else one triangle whose corners are the tile's two bottom corners and
//!    one top corner (each within 2% of the tile's side): a **slope**, rising
//!    to the right when the top corner is the right one (`slope_right`),
//!    else to the left (`slope_left`);
//! 3. else shapes covering at least half the tile's area: **solid** (a full
//!    block; also a triangle hanging from the tile's top, or a slope over
//!    half the tile's height, which platnav does not model);
//! 4. else (a partial shape covering less than half the tile, not along the
//!    top): **no collision**, reported in the load summary.

use super::doc::{Geom, Object};
use super::kind::TileKind;

/// The area of a polygon (shoelace, absolute).
fn area(p: &[(f64, f64)]) -> f64 {
    let n = p.len();
    if n < 3 {
        return 0.0;
    }
    let mut s = 0.0;
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        s += a.0 * b.1 - b.0 * a.1;
    }
    (s / 2.0).abs()
}

/// Clips a polygon to the rectangle `[x0, x1] x [y0, y1]`
/// (Sutherland-Hodgman; correct in area for concave polygons too).
fn clip(p: &[(f64, f64)], x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<(f64, f64)> {
    let mut out = p.to_vec();
    // (axis: 0 = x, 1 = y; bound; keep values >= bound when `lower`)
    for (axis, bound, lower) in [(0, x0, true), (0, x1, false), (1, y0, true), (1, y1, false)] {
        if out.is_empty() {
            break;
        }
        let get = |q: (f64, f64)| if axis == 0 { q.0 } else { q.1 };
        let inside = |q: (f64, f64)| {
            if lower {
                get(q) >= bound
            } else {
                get(q) <= bound
            }
        };
        let input = std::mem::take(&mut out);
        for i in 0..input.len() {
            let cur = input[i];
            let prev = input[(i + input.len() - 1) % input.len()];
            let cross = |a: (f64, f64), b: (f64, f64)| {
                let t = (bound - get(a)) / (get(b) - get(a));
                (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
            };
            match (inside(prev), inside(cur)) {
                (true, true) => out.push(cur),
                (true, false) => out.push(cross(prev, cur)),
                (false, true) => {
                    out.push(cross(prev, cur));
                    out.push(cur);
                }
                (false, false) => {}
            }
        }
    }
    out
}

/// Work spent rasterizing, bounded per load so that a hostile file with
/// huge or many-sided shapes cannot stall it.
pub(crate) struct Budget {
    pub left: u64,
}

/// The largest rasterization work of one load (cells visited times
/// polygon sides, plus line steps): 2^27.
pub const MAX_RASTER_WORK: u64 = 1 << 27;

impl Budget {
    pub fn new() -> Self {
        Self {
            left: MAX_RASTER_WORK,
        }
    }

    pub fn spend(&mut self, n: u64) -> Result<(), String> {
        if n > self.left {
            return Err(format!(
                "object shapes need more than {MAX_RASTER_WORK} steps to rasterize"
            ));
        }
        self.left -= n;
        Ok(())
    }
}

/// The cells (col, row) at least half inside `poly` (map pixels), for cells
/// of `cw x ch` pixels offset by `(ox, oy)`, within `cols x rows`.
pub(crate) fn area_cells(
    poly: &[(f64, f64)],
    (cw, ch, ox, oy): (f64, f64, f64, f64),
    (cols, rows): (i64, i64),
    budget: &mut Budget,
) -> Result<Vec<(i64, i64)>, String> {
    if poly.len() < 3 || poly.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return Ok(Vec::new());
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in poly {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let c0 = (((x0 - ox) / cw).floor() as i64).max(0);
    let r0 = (((y0 - oy) / ch).floor() as i64).max(0);
    let c1 = (((x1 - ox) / cw).ceil() as i64).min(cols);
    let r1 = (((y1 - oy) / ch).ceil() as i64).min(rows);
    if c1 <= c0 || r1 <= r0 {
        return Ok(Vec::new());
    }
    let cells = (c1 - c0) as u64 * (r1 - r0) as u64;
    budget.spend(cells.saturating_mul(poly.len() as u64 + 4))?;
    let half = cw * ch / 2.0;
    let mut out = Vec::new();
    for r in r0..r1 {
        for c in c0..c1 {
            let (px, py) = (ox + c as f64 * cw, oy + r as f64 * ch);
            if area(&clip(poly, px, py, px + cw, py + ch)) >= half - 1e-9 * half {
                out.push((c, r));
            }
        }
    }
    Ok(out)
}

/// The cells a polyline (map pixels) passes through, within `cols x rows`.
pub(crate) fn line_cells(
    pts: &[(f64, f64)],
    (cw, ch, ox, oy): (f64, f64, f64, f64),
    (cols, rows): (i64, i64),
    budget: &mut Budget,
) -> Result<Vec<(i64, i64)>, String> {
    let mut out = Vec::new();
    if pts.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return Ok(out);
    }
    let push = |x: f64, y: f64, out: &mut Vec<(i64, i64)>| {
        let c = ((x - ox) / cw).floor() as i64;
        let r = ((y - oy) / ch).floor() as i64;
        if c >= 0 && r >= 0 && c < cols && r < rows && out.last() != Some(&(c, r)) {
            out.push((c, r));
        }
    };
    for seg in pts.windows(2) {
        let ((ax, ay), (bx, by)) = (seg[0], seg[1]);
        // Steps of at most a quarter cell; the far end of a segment ending
        // exactly on a boundary is not taken into the next cell.
        let len = ((bx - ax) / cw).abs().max(((by - ay) / ch).abs());
        let steps = (len * 4.0).ceil().min(1e12) as u64 + 1;
        budget.spend(steps)?;
        for i in 0..steps {
            let t = i as f64 / steps as f64;
            push(ax + t * (bx - ax), ay + t * (by - ay), &mut out);
        }
        // The end point, pulled back a hair so that a ledge ending on a
        // column boundary does not spill into the next column.
        let back = |d: f64| {
            if d > 0.0 {
                1e-6
            } else if d < 0.0 {
                -1e-6
            } else {
                0.0
            }
        };
        push(bx - back(bx - ax), by - back(by - ay), &mut out);
    }
    if pts.len() == 1 {
        push(pts[0].0, pts[0].1, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Flips a tile-local point: diagonal (swap axes) first, then horizontal,
/// then vertical, as Tiled applies them. `flip` bits: H=4, V=2, D=1.
fn flip_point((x, y): (f64, f64), flip: u8, w: f64, h: f64) -> (f64, f64) {
    let (mut x, mut y) = if flip & 1 != 0 { (y, x) } else { (x, y) };
    if flip & 4 != 0 {
        x = w - x;
    }
    if flip & 2 != 0 {
        y = h - y;
    }
    (x, y)
}

/// The slope a tile's one collision shape is, if it is one: a triangle
/// (a closing point repeating the first is allowed) on the tile's two
/// bottom corners and one top corner, each within 2% of the tile's side.
fn slope_of(s: &Object, flip: u8, (w, h): (f64, f64), (fw, fh): (f64, f64)) -> Option<TileKind> {
    if matches!(s.geom, Geom::Point | Geom::Polyline(_)) {
        return None;
    }
    let mut pts: Vec<(f64, f64)> = s
        .polygon()?
        .into_iter()
        .map(|p| flip_point(p, flip, w, h))
        .collect();
    let (tx, ty) = (0.02 * fw, 0.02 * fh);
    let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() <= tx && (a.1 - b.1).abs() <= ty;
    if pts.len() == 4 && near(pts[0], pts[3]) {
        pts.pop();
    }
    if pts.len() != 3 {
        return None;
    }
    let has = |corner: (f64, f64)| pts.iter().any(|&p| near(p, corner));
    if !(has((0.0, fh)) && has((fw, fh))) {
        return None;
    }
    if has((fw, 0.0)) {
        Some(TileKind::SLOPE_RIGHT)
    } else if has((0.0, 0.0)) {
        Some(TileKind::SLOPE_LEFT)
    } else {
        None
    }
}

/// The kind a tile's collision shapes give it (see the module docs), or
/// `None` when the shapes give nothing (`partial` is then set when some
/// shape was there but too small).
pub(crate) fn shapes_kind(
    shapes: &[Object],
    flip: u8,
    tile_w: f64,
    tile_h: f64,
    partial: &mut bool,
) -> Option<TileKind> {
    let (w, h) = (tile_w.max(1e-9), tile_h.max(1e-9));
    // After a diagonal flip the tile's sides swap.
    let (fw, fh) = if flip & 1 != 0 { (h, w) } else { (w, h) };
    let mut covered = 0.0;
    let mut thin_top = true;
    let (mut top_x0, mut top_x1) = (f64::MAX, f64::MIN);
    let mut any = false;
    for s in shapes {
        let pts: Vec<(f64, f64)> = match &s.geom {
            Geom::Point => continue,
            Geom::Polyline(p) => s.place(p),
            _ => match s.polygon() {
                Some(p) => p,
                None => continue,
            },
        };
        if pts.iter().any(|(x, y)| !x.is_finite() || !y.is_finite()) {
            continue;
        }
        let pts: Vec<(f64, f64)> = pts.into_iter().map(|p| flip_point(p, flip, w, h)).collect();
        any = true;
        if let Geom::Polyline(_) = s.geom {
        } else {
            covered += area(&clip(&pts, 0.0, 0.0, fw, fh));
        }
        for &(x, y) in &pts {
            if y > fh / 4.0 + 1e-9 {
                thin_top = false;
            }
            top_x0 = top_x0.min(x.clamp(0.0, fw));
            top_x1 = top_x1.max(x.clamp(0.0, fw));
        }
    }
    if !any {
        return None;
    }
    if thin_top && top_x1 - top_x0 >= fw / 2.0 - 1e-9 {
        return Some(TileKind::ONE_WAY);
    }
    if let [s] = shapes
        && let Some(k) = slope_of(s, flip, (w, h), (fw, fh))
    {
        return Some(k);
    }
    if covered >= fw * fh / 2.0 - 1e-9 {
        return Some(TileKind::SOLID);
    }
    *partial = true;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(geom: Geom, x: f64, y: f64) -> Object {
        Object {
            id: 1,
            name: String::new(),
            class: String::new(),
            layer: String::new(),
            x,
            y,
            rotation: 0.0,
            geom,
            props: Vec::new(),
        }
    }

    const GRID: (f64, f64, f64, f64) = (16.0, 16.0, 0.0, 0.0);

    #[test]
    fn rectangle_takes_cells_at_least_half_covered() {
        // x 8..40 covers column 0 by half, 1 fully, 2 by half.
        let o = obj(Geom::Rect { w: 32.0, h: 16.0 }, 8.0, 0.0);
        let cells = area_cells(&o.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0)]);
        // 12 pixels high, column 0 is covered by 8 x 12 of 16 x 16: under half.
        let o = obj(Geom::Rect { w: 32.0, h: 12.0 }, 8.0, 0.0);
        let cells = area_cells(&o.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(1, 0)]);
        // 7 pixels of column 0 (under half) are not enough.
        let o = obj(Geom::Rect { w: 23.0, h: 16.0 }, 9.0, 16.0);
        let cells = area_cells(&o.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(1, 1)]);
    }

    #[test]
    fn triangle_and_ellipse_and_rotation() {
        // A right triangle over 2 x 2 cells: the diagonal cells are half in.
        let tri = obj(
            Geom::Polygon(vec![(0.0, 32.0), (32.0, 32.0), (32.0, 0.0)]),
            0.0,
            0.0,
        );
        let cells =
            area_cells(&tri.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(1, 0), (0, 1), (1, 1)]);
        // A circle over 5 x 5 cells: not the corner cells (about a tenth in),
        // but the middle and the middle of each side.
        let e = obj(Geom::Ellipse { w: 80.0, h: 80.0 }, 0.0, 0.0);
        let cells = area_cells(&e.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        for c in [(2, 2), (2, 0), (0, 2), (4, 2), (2, 4)] {
            assert!(cells.contains(&c), "{c:?} in {cells:?}");
        }
        for c in [(0, 0), (4, 0), (0, 4), (4, 4)] {
            assert!(!cells.contains(&c), "{c:?} in {cells:?}");
        }
        let mut rot = obj(Geom::Rect { w: 32.0, h: 16.0 }, 16.0, 0.0);
        rot.rotation = 90.0;
        // Rotated 90 degrees clockwise about (16, 0): x 0..16, y 0..32.
        let cells =
            area_cells(&rot.polygon().unwrap(), GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(0, 0), (0, 1)]);
    }

    #[test]
    fn polyline_marks_the_row_below_a_boundary() {
        let l = obj(Geom::Polyline(vec![(0.0, 0.0), (48.0, 0.0)]), 0.0, 32.0);
        let pts = l.place(match &l.geom {
            Geom::Polyline(p) => p,
            _ => unreachable!(),
        });
        let cells = line_cells(&pts, GRID, (10, 10), &mut Budget::new()).unwrap();
        assert_eq!(cells, vec![(0, 2), (1, 2), (2, 2)]);
    }

    #[test]
    fn budget_stops_huge_shapes() {
        let mut b = Budget { left: 100 };
        let o = obj(Geom::Rect { w: 1e6, h: 1e6 }, 0.0, 0.0);
        assert!(area_cells(&o.polygon().unwrap(), GRID, (4096, 4096), &mut b).is_err());
    }

    #[test]
    fn tile_shapes_full_thin_top_partial_slope_and_flips() {
        let mut partial = false;
        let full = [obj(Geom::Rect { w: 16.0, h: 16.0 }, 0.0, 0.0)];
        assert_eq!(
            shapes_kind(&full, 0, 16.0, 16.0, &mut partial),
            Some(TileKind::SOLID)
        );
        let top = [obj(Geom::Rect { w: 16.0, h: 3.0 }, 0.0, 0.0)];
        assert_eq!(
            shapes_kind(&top, 0, 16.0, 16.0, &mut partial),
            Some(TileKind::ONE_WAY)
        );
        // Flipped vertically the thin shape lies along the bottom: partial.
        assert_eq!(shapes_kind(&top, 2, 16.0, 16.0, &mut partial), None);
        assert!(partial);
        // Flipped diagonally it is a thin wall on the left: partial.
        partial = false;
        assert_eq!(shapes_kind(&top, 1, 16.0, 16.0, &mut partial), None);
        assert!(partial);
        let slope = [obj(
            Geom::Polygon(vec![(0.0, 16.0), (16.0, 16.0), (16.0, 0.0)]),
            0.0,
            0.0,
        )];
        assert_eq!(
            shapes_kind(&slope, 0, 16.0, 16.0, &mut partial),
            Some(TileKind::SLOPE_RIGHT)
        );
        // Flipped horizontally it rises to the left; flipped vertically it
        // hangs from the top, which platnav models as a solid block.
        assert_eq!(
            shapes_kind(&slope, 4, 16.0, 16.0, &mut partial),
            Some(TileKind::SLOPE_LEFT)
        );
        assert_eq!(
            shapes_kind(&slope, 2, 16.0, 16.0, &mut partial),
            Some(TileKind::SOLID)
        );
        // A slope over half the tile's height: not modelled (partial).
        let half = [obj(
            Geom::Polygon(vec![(0.0, 16.0), (16.0, 16.0), (16.0, 8.0)]),
            0.0,
            0.0,
        )];
        partial = false;
        assert_eq!(shapes_kind(&half, 0, 16.0, 16.0, &mut partial), None);
        assert!(partial);
        let half_bottom = [obj(Geom::Rect { w: 16.0, h: 8.0 }, 0.0, 8.0)];
        assert_eq!(
            shapes_kind(&half_bottom, 0, 16.0, 16.0, &mut partial),
            Some(TileKind::SOLID)
        );
        // The same half block flipped to the top is still half: solid.
        assert_eq!(
            shapes_kind(&half_bottom, 2, 16.0, 16.0, &mut partial),
            Some(TileKind::SOLID)
        );
        partial = false;
        let small = [obj(Geom::Rect { w: 6.0, h: 6.0 }, 5.0, 10.0)];
        assert_eq!(shapes_kind(&small, 0, 16.0, 16.0, &mut partial), None);
        assert!(partial);
        assert_eq!(shapes_kind(&[], 0, 16.0, 16.0, &mut partial), None);
    }
}
