//! Small math types shared by every layer: axis-aligned boxes (world space,
//! `f32`, as stored per triangle), planes (`f64`, as used by the solver) and
//! the tolerances the solver relies on.
//!
//! The mesh is stored in `f32` to keep levels compact; the solver and the
//! per-triangle sweep work in `f64` (Linahan 2012 shows the stuck and
//! fall-through failures of 32-bit collide-and-slide).

mod aabb;
mod plane;

pub use aabb::Aabb;
pub use plane::Plane;

pub use glam::{DVec3, Vec3};

/// Lengths below this (in ellipsoid space, where the probe is a unit sphere)
/// are treated as zero when normalising vectors.
pub const EPS_LENGTH: f64 = 1e-12;

/// Converts a world-space `f32` point to `f64`.
#[inline]
pub fn to_f64(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// Returns `true` when all three components are finite.
#[inline]
pub fn is_finite3(v: DVec3) -> bool {
    v.is_finite()
}
