//! Why a build returned no map.

use crate::physics::PhysicsError;

/// Why [`crate::NavMap::build_with`] returned no map.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The physics profile fails [`crate::Physics::validate`].
    #[error(transparent)]
    Physics(#[from] PhysicsError),
    /// [`BuildProgress::cancel`](crate::BuildProgress::cancel) was called during the build.
    #[error("the build was cancelled")]
    Cancelled,
}
