//! Walk areas given as polygons: allowed shapes minus barred ones, in
//! order, so shapes nest to any depth.

use super::FlyError;
use super::geom::{Point, signed_area2};

/// The most vertices an [`Area`] may hold, over all its shapes (2^20).
pub const MAX_AREA_POINTS: usize = 1 << 20;

/// Whether a shape of an [`Area`] adds walkable ground or takes it away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Walk {
    /// The shape is walkable (added to what came before).
    Allow,
    /// The shape is barred (cut out of what came before).
    Bar,
}

/// A walk area made of polygons, applied in order like layers of paint:
/// each [`Walk::Allow`] shape adds its inside to the walkable area, each
/// [`Walk::Bar`] shape removes its inside. A room is an allowed polygon, a
/// pillar in it a barred one listed after it, an island on a lake in the
/// room an allowed one listed after the lake, and so on to any depth.
/// Overlapping shapes are fine: the later one wins where they overlap.
///
/// Each shape is a ring of at least three points in either orientation
/// (closed implicitly; self-intersecting rings count their inside by the
/// non-zero rule).
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Area {
    /// The shapes, first to last.
    pub shapes: Vec<(Walk, Vec<Point>)>,
}

impl Area {
    /// An empty area (nothing walkable).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a walkable shape.
    pub fn allow(&mut self, ring: impl IntoIterator<Item = Point>) -> &mut Self {
        self.shapes.push((Walk::Allow, ring.into_iter().collect()));
        self
    }

    /// Cuts a barred shape out of what came before.
    pub fn bar(&mut self, ring: impl IntoIterator<Item = Point>) -> &mut Self {
        self.shapes.push((Walk::Bar, ring.into_iter().collect()));
        self
    }

    /// The corners of the axis-aligned rectangle `min`-`max`.
    #[must_use]
    pub fn rect(min: Point, max: Point) -> Vec<Point> {
        vec![min, Point::new(max.x, min.y), max, Point::new(min.x, max.y)]
    }

    /// Checks every shape: enough points, finite coordinates within
    /// [`MAX_COORD`](super::MAX_COORD), a non-zero area, and at most
    /// [`MAX_AREA_POINTS`] points in all.
    ///
    /// # Errors
    /// [`FlyError::BadArea`] naming the first bad shape.
    pub fn validate(&self) -> Result<(), FlyError> {
        let total: usize = self.shapes.iter().map(|(_, r)| r.len()).sum();
        if total > MAX_AREA_POINTS {
            return Err(FlyError::BadArea(format!(
                "{total} points in all, more than the limit of {MAX_AREA_POINTS}"
            )));
        }
        if !self.shapes.iter().any(|(w, _)| *w == Walk::Allow) {
            return Err(FlyError::BadArea(
                "no allowed shape: nothing is walkable".into(),
            ));
        }
        for (i, (_, ring)) in self.shapes.iter().enumerate() {
            if ring.len() < 3 {
                return Err(FlyError::BadArea(format!(
                    "shape {i} has {} points (at least 3 needed)",
                    ring.len()
                )));
            }
            if let Some(p) = ring.iter().find(|p| {
                !p.is_finite() || p.x.abs() > super::MAX_COORD || p.y.abs() > super::MAX_COORD
            }) {
                return Err(FlyError::BadArea(format!(
                    "shape {i}: point ({}, {}) is not finite or beyond +-{}",
                    p.x,
                    p.y,
                    super::MAX_COORD
                )));
            }
            if signed_area2(ring) == 0.0 {
                return Err(FlyError::BadArea(format!("shape {i} has no area")));
            }
        }
        Ok(())
    }
}
