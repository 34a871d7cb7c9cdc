//! Points and the few predicates the free space and its search need.

/// A point (or vector) in level units: tiles for levels, pixels for masks,
/// your own units for polygon areas. `x` grows to the right, `y` downward
/// for levels and masks (any orientation works for polygons).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// Horizontal coordinate.
    pub x: f64,
    /// Vertical coordinate.
    pub y: f64,
}

impl Point {
    /// The point `(x, y)`.
    #[must_use]
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The Euclidean distance to `o`.
    ///
    /// A plain square root of the squared differences (not `f64::hypot`,
    /// which guards against overflow at a cost the path search pays on
    /// every node): exact to a unit in the last place for coordinates up
    /// to 1e150, far beyond [`MAX_COORD`](super::MAX_COORD).
    #[must_use]
    #[inline]
    pub fn dist(self, o: Point) -> f64 {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        (dx * dx + dy * dy).sqrt()
    }

    /// True when both coordinates are finite.
    #[must_use]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    pub(crate) fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }

    pub(crate) fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }

    pub(crate) fn scale(self, s: f64) -> Point {
        Point::new(self.x * s, self.y * s)
    }

    pub(crate) fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Self {
        Self { x, y }
    }
}

impl From<Point> for [f64; 2] {
    fn from(p: Point) -> Self {
        [p.x, p.y]
    }
}

/// `(a - o) x (b - o)`: positive when `o, a, b` turn the way a polygon
/// with positive signed area does.
#[inline]
pub(crate) fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Twice the signed area of a ring.
pub(crate) fn signed_area2(ring: &[Point]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a.x * b.y - a.y * b.x
        })
        .sum()
}

/// The convex hull (positive orientation, no collinear points) of `pts`
/// (Andrew's monotone chain).
pub(crate) fn convex_hull(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<Point> = Vec::with_capacity(pts.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// The Minkowski sum of a convex polygon (or segment or point) with a
/// convex shape centred on the origin: the hull of every pairwise sum.
pub(crate) fn minkowski(poly: &[Point], shape: &[Point]) -> Vec<Point> {
    let sums = poly
        .iter()
        .flat_map(|&p| shape.iter().map(move |&s| p.add(s)))
        .collect();
    convex_hull(sums)
}

/// The point of segment `a`-`b` nearest to `p`.
pub(crate) fn closest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let ab = b.sub(a);
    let l2 = ab.dot(ab);
    if l2 == 0.0 {
        return a;
    }
    let t = (p.sub(a).dot(ab) / l2).clamp(0.0, 1.0);
    a.add(ab.scale(t))
}

/// Where the line through `p`, `q` meets the line through `a`, `b`, as a
/// parameter along `a`-`b` (`None` when parallel).
#[inline]
pub(crate) fn line_param(p: Point, q: Point, a: Point, b: Point) -> Option<f64> {
    let d = q.sub(p);
    let e = b.sub(a);
    let den = d.x * e.y - d.y * e.x;
    if den == 0.0 {
        return None;
    }
    let ap = a.sub(p);
    Some((d.y * ap.x - d.x * ap.y) / den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_inner_points_is_its_corners() {
        let pts = vec![
            Point::new(0.0, 0.0),
            Point::new(1.0, 0.0),
            Point::new(1.0, 1.0),
            Point::new(0.0, 1.0),
            Point::new(0.5, 0.5),
            Point::new(0.5, 0.0),
        ];
        let h = convex_hull(pts);
        assert_eq!(h.len(), 4);
        assert!(signed_area2(&h) > 0.0);
    }

    #[test]
    fn line_param_finds_the_crossing() {
        let t = line_param(
            Point::new(0.0, -1.0),
            Point::new(0.0, 1.0),
            Point::new(-1.0, 0.0),
            Point::new(3.0, 0.0),
        )
        .unwrap();
        assert!((t - 0.25).abs() < 1e-12);
    }
}
