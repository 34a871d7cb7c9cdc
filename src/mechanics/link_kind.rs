//! The kinds of link: [`LinkKind`]. Each link family declares the kinds
//! its links are (their names, letters and colours: `seam::KindSpec`).

/// The kinds of link.
///
/// Each link family declares its kinds as constants of this type in its
/// own module: the link engine's [`LinkKind::RUN`], [`LinkKind::FALL`],
/// [`LinkKind::JUMP`], [`LinkKind::DOUBLE_JUMP`] and
/// [`LinkKind::WALL_JUMP`], and the mechanics' [`LinkKind::DROP`],
/// [`LinkKind::CLIMB`] and [`LinkKind::SPRING_JUMP`]. A kind's number is its place in [`LinkKind::ALL`]
/// and in saved maps.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkKind(u8);

impl LinkKind {
    /// The kind numbered `id`: for the families' declarations, which the
    /// families' table checks cover `0..LinkKind::COUNT` once each.
    pub(crate) const fn with_id(id: u8) -> Self {
        Self(id)
    }

    /// The kind's number, for indexing per-kind tables and in saved maps.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
