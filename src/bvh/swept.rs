//! Swept-box query: the triangles whose AABB a moving box touches, world
//! space, `f32`.
//!
//! The solver's candidates for one iteration are the triangles the probe's
//! box can touch on its way from start to destination. The AABB around the
//! whole move (what [`Bvh::query_aabb`] tests) is far larger than that on a
//! long diagonal move; the swept test keeps only boxes the moving box really
//! passes through. A box of half-extents `h` moving by `delta` touches a box
//! `N` iff the segment its centre follows meets `N` grown by `h` (Minkowski
//! sum), which is a slab test on the segment, `t` in `[0, 1]`.

use super::{Bvh, BvhNode, BvhScratch, QueryStats};
use crate::math::{Aabb, Vec3};
use glam::{BVec3A, Vec3A};

/// Relative widening of every slab, so that rounding never drops a box the
/// exact moving box touches (a query may return a few boxes it only grazes).
const PAD: f32 = 1.0 / 65_536.0;

/// A box moving along a segment, prepared for slab tests.
struct MovingBox {
    center: Vec3A,
    half: Vec3A,
    inv_delta: Vec3A,
    /// Axes the motion is parallel to (no slab entry/exit there).
    parallel: BVec3A,
}

impl MovingBox {
    fn new(start: &Aabb, delta: Vec3) -> Self {
        let delta = Vec3A::from(delta);
        MovingBox {
            center: Vec3A::from(start.center()),
            half: Vec3A::from(start.extent() * 0.5),
            inv_delta: delta.recip(),
            parallel: delta.cmpeq(Vec3A::ZERO),
        }
    }

    /// `true` when the moving box touches `[lo, hi]` for some `t` in `[0, 1]`.
    #[inline]
    fn touches(&self, lo: Vec3, hi: Vec3) -> bool {
        let (lo, hi) = (Vec3A::from(lo), Vec3A::from(hi));
        let pad = (lo.abs().max(hi.abs()) + self.center.abs() + self.half) * PAD;
        let lo = lo - self.half - pad;
        let hi = hi + self.half + pad;
        let outside = self.center.cmplt(lo) | self.center.cmpgt(hi);
        if (self.parallel & outside).any() {
            return false;
        }
        let t0 = (lo - self.center) * self.inv_delta;
        let t1 = (hi - self.center) * self.inv_delta;
        let near = Vec3A::select(self.parallel, Vec3A::NEG_INFINITY, t0.min(t1));
        let far = Vec3A::select(self.parallel, Vec3A::INFINITY, t0.max(t1));
        let t_near = near.max_element().max(0.0);
        let t_far = far.min_element().min(1.0);
        t_near <= t_far
    }

    #[inline]
    fn touches_node(&self, node: &BvhNode) -> bool {
        self.touches(node.aabb_min, node.aabb_max)
    }
}

/// See [`Bvh::query_swept_aabb`] (same arguments, plus the tree).
#[allow(clippy::too_many_arguments)]
pub(super) fn query_swept_aabb(
    bvh: &Bvh,
    tri_aabbs: &[Aabb],
    start: &Aabb,
    delta: Vec3,
    scratch: &mut BvhScratch,
    out: &mut Vec<u32>,
    mut visited: Option<&mut Vec<u32>>,
    stats: &mut QueryStats,
) {
    let Some(root) = bvh.nodes.first() else {
        return;
    };
    let mover = MovingBox::new(start, delta);
    stats.nodes_visited += 1;
    if !mover.touches_node(root) {
        return;
    }
    let stack = &mut scratch.stack;
    stack.clear();
    stack.push(0);
    while let Some(i) = stack.pop() {
        let node = &bvh.nodes[i as usize];
        if let Some(v) = visited.as_deref_mut() {
            v.push(i);
        }
        if node.is_leaf() {
            let first = node.first as usize;
            let leaf = &bvh.tri_indices[first..first + node.count as usize];
            stats.triangles_tested += node.count;
            for &tri in leaf {
                let b = &tri_aabbs[tri as usize];
                if mover.touches(b.min, b.max) {
                    out.push(tri);
                }
            }
            continue;
        }
        for child in [node.first + 1, node.first] {
            stats.nodes_visited += 1;
            if mover.touches_node(&bvh.nodes[child as usize]) {
                stack.push(child);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Exact answer by sampling is unreliable; instead: a triangle box is
    /// touched iff the Minkowski-grown box meets the segment, decided in f64.
    fn touches_exact(start: &Aabb, delta: Vec3, b: &Aabb) -> bool {
        let c = start.center().as_dvec3();
        let h = (start.extent() * 0.5).as_dvec3();
        let d = delta.as_dvec3();
        let lo = b.min.as_dvec3() - h;
        let hi = b.max.as_dvec3() + h;
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for a in 0..3 {
            if d[a] == 0.0 {
                if c[a] < lo[a] || c[a] > hi[a] {
                    return false;
                }
            } else {
                let (mut e, mut x) = ((lo[a] - c[a]) / d[a], (hi[a] - c[a]) / d[a]);
                if e > x {
                    std::mem::swap(&mut e, &mut x);
                }
                t0 = t0.max(e);
                t1 = t1.min(x);
            }
        }
        t0 <= t1
    }

    fn boxes() -> impl Strategy<Value = Vec<Aabb>> {
        let v = || (-50.0f32..50.0, -50.0f32..50.0, -50.0f32..50.0);
        prop::collection::vec((v(), (0.0f32..6.0, 0.0f32..6.0, 0.0f32..6.0)), 1..200).prop_map(
            |bs| {
                bs.into_iter()
                    .map(|((x, y, z), (a, b, c))| {
                        let min = Vec3::new(x, y, z);
                        Aabb::from_corners(min, min + Vec3::new(a, b, c))
                    })
                    .collect()
            },
        )
    }

    proptest! {
        #[test]
        fn swept_query_finds_every_box_the_moving_box_touches(
            tri_aabbs in boxes(),
            c in (-60.0f32..60.0, -60.0f32..60.0, -60.0f32..60.0),
            half in (0.1f32..3.0, 0.1f32..3.0, 0.1f32..3.0),
            d in (-80.0f32..80.0, -80.0f32..80.0, -80.0f32..80.0),
            axis_aligned in 0usize..4,
        ) {
            let mut delta = Vec3::new(d.0, d.1, d.2);
            if axis_aligned < 3 {
                // Motion along one axis: the parallel-slab path.
                delta = Vec3::AXES[axis_aligned] * delta[axis_aligned];
            }
            let c = Vec3::new(c.0, c.1, c.2);
            let h = Vec3::new(half.0, half.1, half.2);
            let start = Aabb::from_corners(c - h, c + h);
            let bvh = Bvh::build(&tri_aabbs);
            let (mut out, mut visited) = (Vec::new(), Vec::new());
            let mut stats = QueryStats::default();
            bvh.query_swept_aabb(&tri_aabbs, &start, delta, &mut BvhScratch::default(), &mut out, Some(&mut visited), &mut stats);
            let got: std::collections::BTreeSet<u32> = out.iter().copied().collect();
            prop_assert_eq!(got.len(), out.len(), "a triangle listed twice");
            for (i, b) in tri_aabbs.iter().enumerate() {
                if touches_exact(&start, delta, b) {
                    prop_assert!(got.contains(&(i as u32)), "missed box {i}");
                }
            }
            // Never more than the whole-move box would give.
            let whole = start.union(&Aabb { min: start.min + delta, max: start.max + delta });
            for &i in &out {
                prop_assert!(tri_aabbs[i as usize].overlaps(&whole.expanded(0.01)));
            }
        }
    }
}
