//! Broad phases beside the BVH, world space, `f32`: a uniform grid over the
//! triangles' boxes, sweep-and-prune over the probes' and objects' boxes,
//! and bounding volumes (sphere, AABB, OBB) per object as a first rejection
//! level.
//!
//! All follow the lecture notes of seed 003 ("Dealing with Complexity":
//! bounding volumes, the uniform grid and the plane sweep). The grid and
//! sweep-and-prune return, for a query box, exactly the triangles
//! [`crate::bvh::Bvh::query_aabb`] returns (the tests prove the sets equal
//! on random levels), so the three can be compared on counts and time alone.
//!
//! - `grid`: [`UniformGrid`], cells sized from the level.
//! - `sap`: [`SweepAndPrune`], sorted x bounds repaired by insertion sort.
//! - `volumes`: [`BoundingVolumes`] and the triangles each volume rejects.
//! - `draw`: [`volume_primitives`], the volumes as overlay primitives.
//! - [`BroadPhaseReport`]: build and query figures for the level panel.

mod draw;
mod grid;
mod report;
mod sap;
mod volumes;

#[cfg(test)]
mod tests;

pub use draw::volume_primitives;
pub use grid::{GridQueryStats, MAX_CELLS, MAX_ENTRIES_PER_TRIANGLE, UniformGrid};
pub use report::{BroadPhaseReport, PhaseTiming, probe_boxes};
pub use sap::{SapStats, SweepAndPrune};
pub use volumes::{BoundingVolumes, Obb, ObjectVolumes, Rejections};
