//! Box and ray queries against the BVH, world space, `f32`.
//!
//! Both walk the tree with an explicit stack kept in [`BvhScratch`], so a
//! query allocates nothing once the scratch and output vectors have grown.
//! At a node the four slots' boxes are tested together (one SIMD compare per
//! axis for the box query). Queries assume a BVH that passes
//! [`Bvh::validate`] for the boxes or mesh given.
//!
//! The ray test is the two-sided watertight test of Woop, Benthin & Wald
//! 2013 (see [`ray_triangle`]); the box test is the slab method with children visited
//! near-first and the far bound widened as in Ize 2013, "Robust BVH Ray
//! Traversal", so rounding never culls a box the ray touches.

use super::{Bvh, BvhNode, BvhScratch, QueryStats, RayHit, Slot};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use glam::{BVec3A, Vec3A, Vec4};

/// Bit `k` set when slot `k`'s box overlaps `query` (touching counts).
/// Empty slots may set their bit: callers check the slot.
#[inline]
fn overlap_mask(node: &BvhNode, query: &Aabb) -> u32 {
    let le = |a: [f32; 4], b: f32| Vec4::from(a).cmple(Vec4::splat(b));
    let ge = |a: [f32; 4], b: f32| Vec4::from(a).cmpge(Vec4::splat(b));
    let lo =
        le(node.min_x, query.max.x) & le(node.min_y, query.max.y) & le(node.min_z, query.max.z);
    let hi =
        ge(node.max_x, query.min.x) & ge(node.max_y, query.min.y) & ge(node.max_z, query.min.z);
    (lo & hi).bitmask()
}

/// See [`Bvh::query_aabb`].
pub(super) fn query_aabb(
    bvh: &Bvh,
    tri_aabbs: &[Aabb],
    query: &Aabb,
    scratch: &mut BvhScratch,
    out: &mut Vec<u32>,
    visited: Option<&mut Vec<u32>>,
    stats: &mut QueryStats,
) {
    Walk::new(scratch, out, visited, stats).collect(
        bvh,
        |node| overlap_mask(node, query),
        |tri| tri_aabbs[tri as usize].overlaps(query),
    );
}

/// See [`Bvh::query_aabb_at_most`].
pub(super) fn query_aabb_at_most(
    bvh: &Bvh,
    tri_aabbs: &[Aabb],
    query: &Aabb,
    scratch: &mut BvhScratch,
    out: &mut Vec<u32>,
    limit: usize,
) -> bool {
    let before = out.len();
    let mut stats = QueryStats::default();
    let mut walk = Walk::new(scratch, out, None, &mut stats);
    walk.limit = limit;
    walk.collect(
        bvh,
        |node| overlap_mask(node, query),
        |tri| tri_aabbs[tri as usize].overlaps(query),
    );
    let cut = out.len() - before > limit;
    out.truncate(before + limit.min(out.len() - before));
    cut
}

/// The outputs of a depth-first walk that collects triangles.
pub(super) struct Walk<'a> {
    scratch: &'a mut BvhScratch,
    out: &'a mut Vec<u32>,
    visited: Option<&'a mut Vec<u32>>,
    stats: &'a mut QueryStats,
    /// The walk stops once it has added more than this many triangles.
    limit: usize,
}

impl<'a> Walk<'a> {
    pub(super) fn new(
        scratch: &'a mut BvhScratch,
        out: &'a mut Vec<u32>,
        visited: Option<&'a mut Vec<u32>>,
        stats: &'a mut QueryStats,
    ) -> Self {
        Walk {
            scratch,
            out,
            visited,
            stats,
            limit: usize::MAX,
        }
    }

    /// Enters every slot whose bit `slot_mask(node)` sets (empty slots are
    /// skipped whatever their bit), records it in `visited`, and appends to
    /// `out` each triangle of a reached leaf for which `keep` holds.
    pub(super) fn collect(
        self,
        bvh: &Bvh,
        slot_mask: impl Fn(&BvhNode) -> u32,
        keep: impl Fn(u32) -> bool,
    ) {
        let Walk {
            scratch,
            out,
            mut visited,
            stats,
            limit,
        } = self;
        if bvh.nodes.is_empty() {
            return;
        }
        let stop_at = out.len().saturating_add(limit);
        let stack = &mut scratch.stack;
        stack.clear();
        stack.push(0);
        while let Some(i) = stack.pop() {
            let node = &bvh.nodes[i as usize];
            stats.nodes_visited += 1;
            let mask = slot_mask(node);
            // Highest slot pushed first: slots are searched in order.
            for k in (0..4).rev().filter(|k| mask & (1 << k) != 0) {
                let slot = node.slot(k);
                if slot == Slot::Empty {
                    continue;
                }
                if let Some(v) = visited.as_deref_mut() {
                    v.push(i * 4 + k as u32);
                }
                match slot {
                    Slot::Inner(child) => stack.push(child),
                    Slot::Leaf { first, count } => {
                        let start = first as usize;
                        let leaf = &bvh.tri_indices[start..start + count as usize];
                        stats.triangles_tested += count;
                        out.extend(leaf.iter().copied().filter(|&tri| keep(tri)));
                        if out.len() > stop_at {
                            return;
                        }
                    }
                    Slot::Empty => {}
                }
            }
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

    /// Entry distance of the ray into `aabb` if it enters at or before `max_t`.
    #[inline]
    fn slab(&self, aabb: &Aabb, max_t: f32) -> Option<f32> {
        let (lo, hi) = (Vec3A::from(aabb.min), Vec3A::from(aabb.max));
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

/// Two-sided watertight ray/triangle test (Woop, Benthin & Wald 2013,
/// "Watertight Ray/Triangle Intersection", JCGT 2(1)): `(t, u, v)` where the
/// ray `origin + t * dir` meets the triangle `[a, b, c]` at
/// `a + u (b - a) + v (c - a)`, with `t` in `[0, max_t]`. Degenerate
/// triangles and rays in the triangle's plane miss.
///
/// The ray is made the z axis by a permutation and a shear, and the test is
/// three 2D edge functions of the transformed corners, in `f64`. Each
/// corner's transform depends on the corner and the ray only, so two
/// triangles that share an edge compute that edge's function from the same
/// numbers with opposite signs: a ray through the edge hits at least one of
/// them (a ray test that misses both lets grid samples fall through floors
/// on the inch-grid corners of game levels). Turning a triangle over
/// negates and permutes its edge functions exactly, so whether it is hit
/// does not depend on its winding.
pub fn ray_triangle(
    origin: Vec3,
    dir: Vec3,
    tri: [Vec3; 3],
    max_t: f32,
) -> Option<(f32, f32, f32)> {
    let d = dir.as_dvec3();
    let abs = d.abs();
    // The ray's largest component becomes z; x and y follow in a cycle.
    let kz = if abs.x >= abs.y && abs.x >= abs.z {
        0
    } else if abs.y >= abs.z {
        1
    } else {
        2
    };
    let (kx, ky) = ((kz + 1) % 3, (kz + 2) % 3);
    if d[kz] == 0.0 || !d[kz].is_finite() {
        return None;
    }
    let (sx, sy, sz) = (d[kx] / d[kz], d[ky] / d[kz], 1.0 / d[kz]);
    let o = origin.as_dvec3();
    // A corner relative to the origin, sheared so the ray is the z axis.
    let shear = |v: Vec3| {
        let p = v.as_dvec3() - o;
        (p[kx] - sx * p[kz], p[ky] - sy * p[kz], sz * p[kz])
    };
    let (a, b, c) = (shear(tri[0]), shear(tri[1]), shear(tri[2]));
    let e_a = c.0 * b.1 - c.1 * b.0;
    let e_b = a.0 * c.1 - a.1 * c.0;
    let e_c = b.0 * a.1 - b.1 * a.0;
    // Two-sided: all three edge functions of one sign (zeros allowed).
    if (e_a < 0.0 || e_b < 0.0 || e_c < 0.0) && (e_a > 0.0 || e_b > 0.0 || e_c > 0.0) {
        return None;
    }
    let det = e_a + e_b + e_c;
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let t = (e_a * a.2 + e_b * b.2 + e_c * c.2) / det;
    if !(t >= 0.0 && t <= f64::from(max_t)) {
        return None;
    }
    Some((t as f32, (e_b / det) as f32, (e_c / det) as f32))
}

/// See [`Bvh::ray_cast`] and [`Bvh::ray_cast_where`]: the closest hit on a
/// triangle `accept` takes; the others are not there for the ray.
#[allow(clippy::too_many_arguments)]
pub(super) fn ray_cast(
    bvh: &Bvh,
    mesh: &TriMesh,
    origin: Vec3,
    dir: Vec3,
    max_t: f32,
    accept: impl Fn(u32) -> bool,
    scratch: &mut BvhScratch,
    stats: &mut QueryStats,
) -> Option<RayHit> {
    let nodes = &bvh.nodes;
    if nodes.is_empty()
        || !origin.is_finite()
        || !dir.is_finite()
        || dir == Vec3::ZERO
        || max_t.is_nan()
        || max_t < 0.0
    {
        return None;
    }
    let ray = Ray::new(origin, dir);
    let mut best: Option<RayHit> = None;
    let mut best_t = max_t;
    // Slot ids with the distance the ray enters their box, nearest on top.
    let stack = &mut scratch.ordered;
    stack.clear();
    push_hit_slots(&ray, nodes, 0, best_t, stack, stats);
    while let Some((id, t_enter)) = stack.pop() {
        // The best hit may have come nearer since the slot was pushed.
        if t_enter > reach(best_t, max_t) {
            continue;
        }
        match nodes[(id / 4) as usize].slot((id % 4) as usize) {
            Slot::Inner(child) => {
                push_hit_slots(&ray, nodes, child, reach(best_t, max_t), stack, stats)
            }
            Slot::Leaf { first, count } => {
                let start = first as usize;
                for &tri in &bvh.tri_indices[start..start + count as usize] {
                    if !accept(tri) {
                        continue;
                    }
                    stats.triangles_tested += 1;
                    let hit = ray_triangle(origin, dir, mesh.triangle(tri), reach(best_t, max_t));
                    let Some((t, u, v)) = hit else { continue };
                    let better = match &best {
                        None => true,
                        Some(b) if t < b.t - tie(b.t) => true,
                        Some(b) if t <= b.t + tie(b.t) => faces_more(mesh, dir, tri, b.triangle),
                        Some(_) => false,
                    };
                    if better {
                        best_t = t;
                        best = Some(RayHit {
                            triangle: tri,
                            t,
                            uv: [u, v],
                        });
                    }
                }
            }
            Slot::Empty => {}
        }
    }
    best
}

/// Two hits this close along the ray are one: the ray went through an
/// edge or corner two triangles share (the watertight test hits both), and
/// their distances differ only by rounding.
#[inline]
fn tie(t: f32) -> f32 {
    1e-6 * (1.0 + t.abs())
}

/// How far a search for a hit nearer than `best_t`, or tied with it, looks
/// (never past the ray's `max_t`).
#[inline]
fn reach(best_t: f32, max_t: f32) -> f32 {
    (best_t + tie(best_t)).min(max_t)
}

/// Of two triangles a ray hits at one point (their shared edge or corner),
/// whether `tri` faces the ray more squarely than `than` (ties: the lower
/// index). The face a ray meets head-on is the one it sees: at the corner
/// of a step, the riser rather than the block's side, whichever of them
/// the tree offers first, and whichever way they are wound.
fn faces_more(mesh: &TriMesh, dir: Vec3, tri: u32, than: u32) -> bool {
    let d = dir.as_dvec3().normalize_or_zero();
    let square = |t: u32| mesh.triangle_normal(t).dot(d).abs();
    let (a, b) = (square(tri), square(than));
    a > b || (a == b && tri < than)
}

/// Pushes the slots of node `i` the ray enters before `max_t`, farthest
/// first, so the nearest is searched next.
fn push_hit_slots(
    ray: &Ray,
    nodes: &[BvhNode],
    i: u32,
    max_t: f32,
    stack: &mut Vec<(u32, f32)>,
    stats: &mut QueryStats,
) {
    stats.nodes_visited += 1;
    let base = stack.len();
    for (k, aabb, _) in nodes[i as usize].slots() {
        if let Some(t) = ray.slab(&aabb, max_t) {
            stack.push((i * 4 + k as u32, t));
        }
    }
    sort_farthest_first(&mut stack[base..]);
}

/// Sorts a node's pushed slots (at most four) by entry time, latest first,
/// so the nearest is popped next (an insertion sort: a general sort's call
/// and a `memmove` cost more at this size).
#[inline]
pub(super) fn sort_farthest_first(entries: &mut [(u32, f32)]) {
    for i in 1..entries.len() {
        let mut j = i;
        while j > 0 && entries[j - 1].1 < entries[j].1 {
            entries.swap(j - 1, j);
            j -= 1;
        }
    }
}
