//! The agent's shape: a box or a disc.

use super::geom::Point;

/// The number of sides of the regular polygon a disc agent is planned as.
///
/// A disc of radius `r` is planned as the regular 16-gon *circumscribing*
/// it (its sides touch the circle, two of them horizontal and two
/// vertical), so the disc itself never touches an obstacle. Paths are exact
/// shortest paths for that 16-gon: where a path wraps around an obstacle
/// corner it follows the 16-gon's facets instead of a circular arc, which
/// lengthens that stretch by at most `1 / cos(pi / 16) - 1` (about 2%).
pub const DISC_SIDES: usize = 16;

/// A flying or walking agent's footprint, centred on its position.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Agent {
    /// An axis-aligned box `w` wide and `h` high.
    Box {
        /// Width.
        w: f64,
        /// Height.
        h: f64,
    },
    /// A disc of this radius (planned as its circumscribed
    /// [`DISC_SIDES`]-gon).
    Disc {
        /// Radius.
        radius: f64,
    },
}

impl Agent {
    /// A `w` x `h` box.
    #[must_use]
    pub const fn boxed(w: f64, h: f64) -> Self {
        Agent::Box { w, h }
    }

    /// A disc of radius `radius`.
    #[must_use]
    pub const fn disc(radius: f64) -> Self {
        Agent::Disc { radius }
    }

    /// Half the extent along x and along y.
    #[must_use]
    pub fn half_extent(&self) -> (f64, f64) {
        match *self {
            Agent::Box { w, h } => (w / 2.0, h / 2.0),
            Agent::Disc { radius } => (radius, radius),
        }
    }

    /// Checks that the sizes are finite and positive.
    pub(crate) fn validate(&self) -> Result<(), super::FlyError> {
        let ok = |v: f64| v.is_finite() && v > 0.0 && v <= super::MAX_COORD;
        let good = match *self {
            Agent::Box { w, h } => ok(w) && ok(h),
            Agent::Disc { radius } => ok(radius),
        };
        if good {
            Ok(())
        } else {
            Err(super::FlyError::BadAgent(format!("{self:?}")))
        }
    }

    /// The shape as a convex polygon centred on the origin, grown by `pad`
    /// on every side.
    pub(crate) fn shape(&self, pad: f64) -> Vec<Point> {
        match *self {
            Agent::Box { w, h } => {
                let (x, y) = (w / 2.0 + pad, h / 2.0 + pad);
                vec![
                    Point::new(-x, -y),
                    Point::new(x, -y),
                    Point::new(x, y),
                    Point::new(-x, y),
                ]
            }
            Agent::Disc { radius } => disc_polygon(Point::new(0.0, 0.0), radius + pad),
        }
    }
}

/// The regular [`DISC_SIDES`]-gon circumscribing the circle of `radius`
/// around `c`, with axis-aligned sides, positive orientation.
pub(crate) fn disc_polygon(c: Point, radius: f64) -> Vec<Point> {
    let n = DISC_SIDES;
    // Vertices sit between the side midpoints, at the circumradius.
    let rv = radius / (std::f64::consts::PI / n as f64).cos();
    (0..n)
        .map(|i| {
            let a = std::f64::consts::PI * (2 * i + 1) as f64 / n as f64;
            Point::new(c.x + rv * a.cos(), c.y + rv * a.sin())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fly::geom::signed_area2;

    #[test]
    fn disc_polygon_circumscribes_the_circle() {
        let p = disc_polygon(Point::new(0.0, 0.0), 2.0);
        assert!(signed_area2(&p) > 0.0);
        for i in 0..p.len() {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            let mid = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
            assert!(
                (mid.dist(Point::new(0.0, 0.0)) - 2.0).abs() < 1e-12,
                "side midpoints touch the circle"
            );
        }
        let max_x = p.iter().map(|q| q.x).fold(f64::MIN, f64::max);
        assert!((max_x - 2.0).abs() < 1e-12, "vertical sides at +-r");
    }
}
