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

/// Default angle (degrees) under which two triangles' normals count as the
/// same plane: the mesh hygiene analysis's coplanar internal edges and
/// overlaps (`analysis::hygiene`), and the solver's ghost-edge detection,
/// which must agree with them. Here, below both, so either can use it.
pub const DEFAULT_COPLANAR_DEG: f64 = 1.0;

/// A number as a message quotes it: as Rust prints it when that is short,
/// else in scientific notation with four significant digits, so that a
/// value like 1e-300 reads as `1.000e-300`, not as 300 digits. NaN is
/// `NaN`.
pub fn short_number(x: f64) -> String {
    let plain = format!("{x}");
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:.3e}")
    }
}

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
