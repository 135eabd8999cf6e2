//! Height of any triangle mesh (a TIN) under a point, through the BVH,
//! world space (Y up, metres).

use super::barycentric_xz;
use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::math::Aabb;
use crate::mesh::TriMesh;

/// Weights down to this (negative) value count as inside: a point on an
/// edge shared by two triangles must land in one of them despite rounding.
const INSIDE_EPS: f64 = -1e-9;

/// The surface found above or below a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TinHit {
    /// The triangle holding the point (seen from above).
    pub triangle: u32,
    /// Its height at the point, metres.
    pub height: f64,
    /// Triangles whose boxes the BVH returned for the vertical line.
    pub candidates: usize,
}

/// The highest surface of `mesh` under or over `(x, z)`: the BVH narrows the
/// triangles to those whose box the vertical line crosses, and barycentric
/// weights in the x-z plane pick those holding the point. `None` when no
/// triangle does (or the point is not finite).
pub fn tin_height(mesh: &TriMesh, bvh: &Bvh, x: f64, z: f64) -> Option<TinHit> {
    let bounds = mesh.bounds();
    if !(x.is_finite() && z.is_finite()) || bounds.is_empty() {
        return None;
    }
    let line = Aabb::from_f64_outward(
        glam::DVec3::new(x, bounds.min.y as f64, z),
        glam::DVec3::new(x, bounds.max.y as f64, z),
    );
    let mut candidates = Vec::new();
    let (mut scratch, mut stats) = (BvhScratch::default(), QueryStats::default());
    bvh.query_aabb(
        mesh.tri_aabbs(),
        &line,
        &mut scratch,
        &mut candidates,
        None,
        &mut stats,
    );
    let mut best: Option<TinHit> = None;
    for &t in &candidates {
        let tri = mesh.triangle_f64(t);
        let Some(w) = barycentric_xz(tri, x, z) else {
            continue;
        };
        if w.iter().any(|&wi| wi < INSIDE_EPS) {
            continue;
        }
        let height = w[0] * tri[0].y + w[1] * tri[1].y + w[2] * tri[2].y;
        if best.is_none_or(|b| height > b.height) {
            best = Some(TinHit {
                triangle: t,
                height,
                candidates: 0,
            });
        }
    }
    best.map(|b| TinHit {
        candidates: candidates.len(),
        ..b
    })
}
