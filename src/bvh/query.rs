//! Box and ray queries against the BVH, world space, `f32`.
//!
//! Both walk the tree with an explicit stack kept in [`BvhScratch`], so a
//! query allocates nothing once the scratch and output vectors have grown.
//! At an inner node both children's boxes are tested together (they share a
//! cache line) and the walk descends straight into a hit child, pushing only
//! the other one. Queries assume a BVH that passes [`Bvh::validate`] for the
//! boxes or mesh given.
//!
//! The ray test is the two-sided Moller-Trumbore algorithm (Moller &
//! Trumbore 1997); the box test is the slab method with children visited
//! near-first and the far bound widened as in Ize 2013, "Robust BVH Ray
//! Traversal", so rounding never culls a box the ray touches.

use super::{Bvh, BvhNode, BvhScratch, QueryStats, RayHit};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use glam::{BVec3A, Vec3A};

#[inline]
fn node_overlaps(node: &BvhNode, query: &Aabb) -> bool {
    node.aabb_min.cmple(query.max).all() && query.min.cmple(node.aabb_max).all()
}

/// See [`Bvh::query_aabb`].
pub(super) fn query_aabb(
    bvh: &Bvh,
    tri_aabbs: &[Aabb],
    query: &Aabb,
    scratch: &mut BvhScratch,
    out: &mut Vec<u32>,
    mut visited: Option<&mut Vec<u32>>,
    stats: &mut QueryStats,
) {
    let nodes = &bvh.nodes;
    let Some(root) = nodes.first() else {
        return;
    };
    stats.nodes_visited += 1;
    if !node_overlaps(root, query) {
        return;
    }
    if let Some(v) = visited.as_deref_mut() {
        v.push(0);
    }
    let stack = &mut scratch.stack;
    stack.clear();
    let mut current = 0u32;
    loop {
        let node = &nodes[current as usize];
        if node.count > 0 {
            let start = node.first as usize;
            let leaf = &bvh.tri_indices[start..start + node.count as usize];
            stats.triangles_tested += node.count;
            for &tri in leaf {
                if tri_aabbs[tri as usize].overlaps(query) {
                    out.push(tri);
                }
            }
        } else {
            let left = node.first;
            stats.nodes_visited += 2;
            let hit_left = node_overlaps(&nodes[left as usize], query);
            let hit_right = node_overlaps(&nodes[left as usize + 1], query);
            if let Some(v) = visited.as_deref_mut() {
                v.extend(
                    [(hit_left, left), (hit_right, left + 1)]
                        .iter()
                        .filter(|h| h.0)
                        .map(|h| h.1),
                );
            }
            match (hit_left, hit_right) {
                (true, true) => {
                    stack.push(left + 1);
                    current = left;
                    continue;
                }
                (true, false) => {
                    current = left;
                    continue;
                }
                (false, true) => {
                    current = left + 1;
                    continue;
                }
                (false, false) => {}
            }
        }
        match stack.pop() {
            Some(next) => current = next,
            None => break,
        }
    }
}

/// A ray prepared for slab tests (`Vec3A`: one SIMD lane per axis).
struct Ray {
    origin: Vec3A,
    inv_dir: Vec3A,
    /// Axes the ray is parallel to, where `(lo - o) * inf` could be NaN.
    parallel: BVec3A,
}

/// `1 + 2 * gamma(3)` with `gamma(n) = n u / (1 - n u)`, `u = 2^-24`: the
/// factor Ize 2013 shows makes the far slab distance conservative in `f32`.
const FAR_SCALE: f32 = 1.0 + 2.0 * (3.0 * 5.960_464_5e-8 / (1.0 - 3.0 * 5.960_464_5e-8));
/// Relative padding of boxes in the ray test: the triangle test rounds too,
/// and may accept a point a few ulps outside its triangle's box.
const BOX_PAD: f32 = 1.0 / 131_072.0;

impl Ray {
    fn new(origin: Vec3, dir: Vec3) -> Self {
        let dir = Vec3A::from(dir);
        Ray {
            origin: origin.into(),
            inv_dir: dir.recip(),
            parallel: dir.cmpeq(Vec3A::ZERO),
        }
    }

    /// Entry distance of the ray into `node` if it enters at or before `max_t`.
    #[inline]
    fn slab(&self, node: &BvhNode, max_t: f32) -> Option<f32> {
        let (lo, hi) = (Vec3A::from(node.aabb_min), Vec3A::from(node.aabb_max));
        let pad = lo.abs().max(hi.abs()) * BOX_PAD;
        let (lo, hi) = (lo - pad, hi + pad);
        // Parallel to a slab: inside it or a miss, decided directly.
        let outside = self.origin.cmplt(lo) | self.origin.cmpgt(hi);
        if (self.parallel & outside).any() {
            return None;
        }
        let t0 = (lo - self.origin) * self.inv_dir;
        let t1 = (hi - self.origin) * self.inv_dir;
        let near = Vec3A::select(self.parallel, Vec3A::NEG_INFINITY, t0.min(t1));
        let far = Vec3A::select(self.parallel, Vec3A::INFINITY, t0.max(t1));
        let t_near = near.max_element().max(0.0);
        let t_far = (far.min_element() * FAR_SCALE).min(max_t);
        (t_near <= t_far).then_some(t_near)
    }
}

/// Two-sided Moller-Trumbore: `(t, u, v)` where the ray `origin + t * dir`
/// meets the triangle `[a, b, c]` at `a + u (b - a) + v (c - a)`, with `t` in
/// `[0, max_t]`. Degenerate triangles and rays in the triangle's plane miss.
pub fn ray_triangle(
    origin: Vec3,
    dir: Vec3,
    tri: [Vec3; 3],
    max_t: f32,
) -> Option<(f32, f32, f32)> {
    let [a, b, c] = tri;
    let (e1, e2) = (b - a, c - a);
    let p = dir.cross(e2);
    let det = e1.dot(p);
    let inv_det = 1.0 / det;
    if det == 0.0 || !inv_det.is_finite() {
        return None;
    }
    let s = origin - a;
    let u = s.dot(p) * inv_det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv_det;
    if !(v >= 0.0 && u + v <= 1.0) {
        return None;
    }
    let t = e2.dot(q) * inv_det;
    (t >= 0.0 && t <= max_t).then_some((t, u, v))
}

/// See [`Bvh::ray_cast`].
pub(super) fn ray_cast(
    bvh: &Bvh,
    mesh: &TriMesh,
    origin: Vec3,
    dir: Vec3,
    max_t: f32,
    scratch: &mut BvhScratch,
    stats: &mut QueryStats,
) -> Option<RayHit> {
    let nodes = &bvh.nodes;
    let root = nodes.first()?;
    if !origin.is_finite() || !dir.is_finite() || dir == Vec3::ZERO || max_t.is_nan() || max_t < 0.0
    {
        return None;
    }
    let ray = Ray::new(origin, dir);
    let mut best: Option<RayHit> = None;
    let mut best_t = max_t;
    stats.nodes_visited += 1;
    ray.slab(root, best_t)?;
    let stack = &mut scratch.stack;
    stack.clear();
    let mut current = Some(0u32);
    while let Some(i) = current {
        let node = &nodes[i as usize];
        if node.count > 0 {
            let start = node.first as usize;
            for &tri in &bvh.tri_indices[start..start + node.count as usize] {
                stats.triangles_tested += 1;
                let hit = ray_triangle(origin, dir, mesh.triangle(tri), best_t);
                if let Some((t, u, v)) = hit.filter(|h| best.is_none() || h.0 < best_t) {
                    best_t = t;
                    best = Some(RayHit {
                        triangle: tri,
                        t,
                        uv: [u, v],
                    });
                }
            }
            current = None;
        } else {
            let (l, r) = (node.first, node.first + 1);
            stats.nodes_visited += 2;
            let t_l = ray.slab(&nodes[l as usize], best_t);
            let t_r = ray.slab(&nodes[r as usize], best_t);
            current = match (t_l, t_r) {
                (Some(a), Some(b)) => {
                    let (near, far) = if a <= b { (l, r) } else { (r, l) };
                    stack.push(far);
                    Some(near)
                }
                (Some(_), None) => Some(l),
                (None, Some(_)) => Some(r),
                (None, None) => None,
            };
        }
        // A pushed node was hit before `best_t` shrank: test it again.
        while current.is_none() {
            let Some(next) = stack.pop() else {
                return best;
            };
            stats.nodes_visited += 1;
            if ray.slab(&nodes[next as usize], best_t).is_some() {
                current = Some(next);
            }
        }
    }
    best
}
