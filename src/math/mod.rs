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

/// Default angle (degrees) under which two triangles' normals count as the
/// same plane: the mesh hygiene analysis's coplanar internal edges and
/// overlaps (`analysis::hygiene`), and the solver's ghost-edge detection,
/// which must agree with them. Here, below both, so either can use it.
pub const DEFAULT_COPLANAR_DEG: f64 = 1.0;

/// Asks the CPU to start loading the cache line holding `item`, without
/// waiting for it: for data a search will read soon but not yet (a no-op on
/// targets other than x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // A prefetch reads nothing and cannot fault; the address is valid anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

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
