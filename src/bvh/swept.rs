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

use super::query::{Walk, sort_farthest_first};
use super::{Bvh, BvhNode, BvhScratch, LeafBoxes, QueryStats, Slot};
use crate::math::{Aabb, Vec3, prefetch};
use glam::{DVec3, Vec3A, Vec4};

/// Widening of every slab, relative to the largest coordinate involved, so
/// that rounding never drops a box the exact moving box touches (a query may
/// return a few boxes it only grazes). A slab time takes about eight `f32`
/// roundings of at most `2^-24` of that coordinate each: this is 8 times that.
const PAD: f32 = 1.0 / 262_144.0;
/// What [`MovingBox::around`] widens by beyond [`PAD`], relative to the
/// same coordinates: rounding the centre, the half-extents and two sums to
/// `f32` is off by at most `2^-24` of them each, four times that in all.
const COVER: f32 = 1.0 / 2_097_152.0;
/// Nodes the open-space walk can hold pending: a walk keeps at most three
/// per level of the tree plus one, so this covers 21 levels, twice the
/// depth of a balanced tree over four million triangles (about 10).
const OPEN_WALK_PENDING: usize = 64;
/// Largest magnitude of a reciprocal velocity component: an axis the box does
/// not move along gets this instead of infinity, which keeps every slab time
/// free of `0 * inf` (a NaN) and only ever makes the slab longer.
const MAX_INV_DELTA: f32 = 1e30;

/// A box moving along a segment, prepared for slab tests.
///
/// The per-box work is two subtractions, two products and the min/max: the
/// padding is one constant per query, sized for the largest coordinate in the
/// tree (its root box), so it covers the rounding of every slab.
pub(super) struct MovingBox {
    /// Centre plus half-extent plus padding: a box's `lo` minus this is where
    /// its grown slab begins, relative to the start.
    lo_shift: Vec3A,
    /// Centre minus half-extent minus padding (for the slab's far side).
    hi_shift: Vec3A,
    /// `1 / delta`, finite: see [`MAX_INV_DELTA`].
    inv_delta: Vec3A,
    /// Some input was not finite: every box counts as touched at `t = 0`
    /// (slow, never wrong).
    unbounded: bool,
    /// `lo_shift`, `hi_shift` and `inv_delta` per axis, each in all four
    /// lanes: for testing a node's four slots at once.
    lanes: [[Vec4; 3]; 3],
}

impl MovingBox {
    /// The box `start` moving by `delta`, among boxes no coordinate of
    /// which is larger than `largest` in magnitude (the root's
    /// [`BvhNode::largest_coordinate`], kept as `Bvh::root_largest`).
    #[inline(always)]
    pub(super) fn new(start: &Aabb, delta: Vec3, largest: f32) -> Self {
        // `Aabb::center` and `extent`, in SIMD lanes (the same numbers).
        let (lo, hi) = (Vec3A::from(start.min), Vec3A::from(start.max));
        let center = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5;
        let grow = half + (Vec3A::splat(largest) + center.abs() + half) * PAD;
        Self::from_grown(center, grow, delta)
    }

    /// A box that contains `center ± half` (`f64`, exact, `half ≥ 0`)
    /// moving by `delta`, among boxes no coordinate of which is larger
    /// than `largest`: as [`MovingBox::new`] of that box rounded outwards,
    /// widened by [`COVER`] more than [`PAD`] (of the centre's largest
    /// coordinate, not each one's), which covers the rounding of the
    /// centre and the half-extents to `f32` and of the sums below, and
    /// more than `1e-12` of the centre's largest coordinate.
    #[inline(always)]
    pub(super) fn around(center: DVec3, half: DVec3, delta: Vec3, largest: f32) -> Self {
        let (c, h) = (center.as_vec3a(), half.as_vec3a());
        let reach = Vec3A::splat(largest + c.abs().max_element()) + h;
        let grow = h + reach * (PAD + COVER) + Vec3A::splat(f32::MIN_POSITIVE);
        Self::from_grown(c, grow, delta)
    }

    /// The box `center ± grow` moving by `delta`, its slabs grown already.
    #[inline(always)]
    fn from_grown(center: Vec3A, grow: Vec3A, delta: Vec3) -> Self {
        let delta = Vec3A::from(delta);
        let magnitude = delta.abs().recip().min(Vec3A::splat(MAX_INV_DELTA));
        let inv_delta = Vec3A::select(delta.cmplt(Vec3A::ZERO), -magnitude, magnitude);
        let (lo_shift, hi_shift) = (center + grow, center - grow);
        let splat = |v: Vec3A| [v.x, v.y, v.z].map(Vec4::splat);
        MovingBox {
            lo_shift,
            hi_shift,
            inv_delta,
            unbounded: !all_finite(delta + lo_shift + hi_shift),
            lanes: [splat(lo_shift), splat(hi_shift), splat(inv_delta)],
        }
    }

    /// [`MovingBox::entry`] for the four slots of `node` at once, keeping
    /// only entries at or before `cutoff`: bit `k` of the mask is set when
    /// slot `k` is in use and touched, and its lane holds the entry time.
    #[inline]
    fn slot_entries(&self, node: &BvhNode, cutoff: f32) -> (u32, Vec4) {
        if self.unbounded {
            let in_use = (0..4).filter(|&k| !node.is_empty_slot(k));
            return (in_use.fold(0, |m, k| m | 1 << k), Vec4::ZERO);
        }
        let [lo, hi, inv] = &self.lanes;
        let slab = |a: usize, min: [f32; 4], max: [f32; 4]| {
            let t0 = (Vec4::from(min) - lo[a]) * inv[a];
            let t1 = (Vec4::from(max) - hi[a]) * inv[a];
            (t0.min(t1), t0.max(t1))
        };
        let (nx, fx) = slab(0, node.min_x, node.max_x);
        let (ny, fy) = slab(1, node.min_y, node.max_y);
        let (nz, fz) = slab(2, node.min_z, node.max_z);
        let near = nx.max(ny).max(nz).max(Vec4::ZERO);
        let far = fx.min(fy).min(fz).min(Vec4::splat(cutoff.min(1.0)));
        // Empty slots fail here: see `BvhNode::EMPTY`.
        (near.cmple(far).bitmask(), near)
    }

    /// `true` when the moving box touches `[lo, hi]` for some `t` in `[0, 1]`.
    #[inline]
    fn touches(&self, lo: Vec3, hi: Vec3) -> bool {
        self.entry(lo, hi).is_some()
    }

    /// The first `t` in `[0, 1]` at which the moving box touches `[lo, hi]`
    /// (a hair early, never late), or `None` when it never does.
    #[inline]
    fn entry(&self, lo: Vec3, hi: Vec3) -> Option<f32> {
        if self.unbounded {
            return Some(0.0);
        }
        let t0 = (Vec3A::from(lo) - self.lo_shift) * self.inv_delta;
        let t1 = (Vec3A::from(hi) - self.hi_shift) * self.inv_delta;
        let t_near = t0.min(t1).max_element().max(0.0);
        let t_far = t0.max(t1).min_element().min(1.0);
        (t_near <= t_far).then_some(t_near)
    }
}

/// Whether every coordinate of `v` is finite, in one SIMD comparison (a
/// sum of vectors is finite exactly when each of them is, barring an
/// overflow, which only errs towards the slow, exact path).
#[inline(always)]
fn all_finite(v: Vec3A) -> bool {
    v.abs().cmplt(Vec3A::splat(f32::INFINITY)).all()
}

/// Asks the cache for what searching `slot` will read first (its node's
/// two cache lines, or its leaf's boxes), so the fetch overlaps the search
/// of its siblings. The search is bound by these fetches on large levels:
/// a node's children sit in memory far from it.
#[inline]
fn prefetch_slot(bvh: &Bvh, slot: Slot) {
    match slot {
        Slot::Inner(child) => {
            if let Some(n) = bvh.nodes.get(child as usize) {
                prefetch(&n.min_x);
                prefetch(&n.max_y);
            }
        }
        Slot::Leaf { first, count } => {
            // A leaf's corners and indices (or boxes) span up to six cache
            // lines.
            let (first, last) = (first as usize, first as usize + count as usize - 1);
            match bvh.leaf_boxes(first..last + 1) {
                // The triangles' indices are in the run.
                Some(LeafBoxes::Corners(c)) => prefetch_lines(c),
                Some(LeafBoxes::Boxes(b)) => {
                    prefetch_lines(b);
                    if let Some(t) = bvh.tri_indices.get(first) {
                        prefetch(t);
                    }
                }
                None => {}
            }
        }
        Slot::Empty => {}
    }
}

/// Asks the cache for every line of `items` (a leaf's run, a few lines).
#[inline]
fn prefetch_lines<T>(items: &[T]) {
    const LINE: usize = 64;
    let bytes = std::mem::size_of_val(items);
    let base = items.as_ptr().cast::<u8>();
    let mut at = 0;
    while at < bytes {
        // SAFETY: `at < bytes`, inside `items`.
        prefetch(unsafe { &*base.add(at) });
        at += LINE;
    }
    if bytes > 0 {
        // The last line, when the run does not start on a line boundary.
        // SAFETY: `bytes - 1` is the run's last byte.
        prefetch(unsafe { &*base.add(bytes - 1) });
    }
}

/// Widens a cutoff handed back by the caller (`f64`, a fraction of the
/// move) to `f32` without ever lowering it, so rounding cannot prune a box
/// the probe enters at exactly the cutoff.
fn widen_cutoff(t: f64) -> f32 {
    if t.is_nan() {
        return f32::INFINITY;
    }
    let t = t + t.abs() * 1e-6 + 1e-6;
    (t as f32).next_up()
}

/// The squared reach, in the rounding's radii, within which a box counts
/// as reached by a [`RoundedProbe`]: one, and a margin far above the
/// `f32` rounding of the gaps (a few `2^-24` of each).
const ROUNDED_REACH2: f32 = 1.0 + 1e-4;

/// A probe that is rounded: the points within distance 1, in the metric of
/// an axis-aligned ellipsoid of radii `radii`, of the box `center ±
/// core_half` (world, `f64`). The ellipsoid is its own rounding around a
/// point (`core_half` zero); a sphere the same with equal radii; a capsule
/// a ball of its radius around its vertical core segment. See
/// [`Bvh::sweep_front_to_back_rounded`].
///
/// [`Bvh::sweep_front_to_back_rounded`]: super::Bvh::sweep_front_to_back_rounded
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundedProbe {
    /// The probe's centre at the start of the move, world space.
    pub center: DVec3,
    /// Half sizes of the core box (`≥ 0`), world metres.
    pub core_half: DVec3,
    /// Radii of the rounding (`> 0`), world metres.
    pub radii: DVec3,
}

/// A [`RoundedProbe`] moving by `delta`, prepared for `f32` box tests: a
/// lower bound on the rounding-metric distance from a box to the probe's
/// core over the part of the move before the cutoff.
pub(super) struct Rounding {
    /// Core box at the start, grown by the rounding pad.
    core_lo: Vec3A,
    core_hi: Vec3A,
    delta: Vec3A,
    inv_radii: Vec3A,
    /// The box around the core's path up to the current cutoff.
    lo: Vec3A,
    hi: Vec3A,
}

impl Rounding {
    /// `None` when an input is not finite or a radius is not positive
    /// (the plain search then runs).
    pub(super) fn new(probe: &RoundedProbe, delta: Vec3, largest: f32) -> Option<Self> {
        let lo = (probe.center - probe.core_half).as_vec3a();
        let hi = (probe.center + probe.core_half).as_vec3a();
        let delta = Vec3A::from(delta);
        // Every coordinate below is bounded by this: the tree's, the
        // core's and the move's; each `f32` step rounds by at most
        // `2^-24` of it, and `PAD` is 64 times that.
        let reach = largest + lo.abs().max(hi.abs()).max_element() + delta.abs().max_element();
        let pad = Vec3A::splat(reach * PAD + f32::MIN_POSITIVE);
        let inv_radii = probe.radii.as_vec3a().recip();
        let ok = all_finite(lo + hi + delta + pad + inv_radii)
            && probe.radii.cmpgt(DVec3::ZERO).all()
            && probe.core_half.cmpge(DVec3::ZERO).all();
        ok.then_some(Rounding {
            core_lo: lo - pad,
            core_hi: hi + pad,
            delta,
            inv_radii,
            lo: lo - pad + delta.min(Vec3A::ZERO),
            hi: hi + pad + delta.max(Vec3A::ZERO),
        })
    }

    /// Shrinks the core's path to the part before `cutoff` (a fraction of
    /// the move, widened already).
    #[inline]
    fn set_cutoff(&mut self, cutoff: f32) {
        let step = self.delta * cutoff.clamp(0.0, 1.0);
        self.lo = self.core_lo + step.min(Vec3A::ZERO);
        self.hi = self.core_hi + step.max(Vec3A::ZERO);
    }

    /// Bit `k` set when the probe may reach slot `k`'s box of `node`
    /// before the cutoff ([`Rounding::reaches`] for the four at once).
    #[inline]
    fn reaches_slots(&self, node: &BvhNode) -> u32 {
        let gap = |a: usize, min: [f32; 4], max: [f32; 4]| {
            let g = (Vec4::from(min) - Vec4::splat(self.hi[a]))
                .max(Vec4::splat(self.lo[a]) - Vec4::from(max))
                .max(Vec4::ZERO)
                * self.inv_radii[a];
            g * g
        };
        let d2 = gap(0, node.min_x, node.max_x)
            + gap(1, node.min_y, node.max_y)
            + gap(2, node.min_z, node.max_z);
        // A NaN compares false: kept.
        !d2.cmpgt(Vec4::splat(ROUNDED_REACH2)).bitmask() & 0xf
    }

    /// Whether the probe may reach the box `[lo, hi]` before the cutoff:
    /// `false` only when the box is farther than the rounding from the
    /// box around the core's path, which is farther than from the path.
    #[inline]
    fn reaches(&self, lo: Vec3, hi: Vec3) -> bool {
        let gap = (Vec3A::from(lo) - self.hi)
            .max(self.lo - Vec3A::from(hi))
            .max(Vec3A::ZERO)
            * self.inv_radii;
        // A NaN (never from finite input) is not beyond: reached.
        gap.length_squared().partial_cmp(&ROUNDED_REACH2) != Some(std::cmp::Ordering::Greater)
    }
}

/// See [`Bvh::query_rounded`] (same arguments, plus the tree).
pub(super) fn query_rounded(
    bvh: &Bvh,
    tri_aabbs: &[Aabb],
    probe: &RoundedProbe,
    scratch: &mut BvhScratch,
    out: &mut Vec<u32>,
    stats: &mut QueryStats,
) {
    if bvh.nodes.is_empty() {
        return;
    }
    let Some(r) = Rounding::new(probe, Vec3::ZERO, bvh.root_largest) else {
        // Not a finite probe: every triangle (slow, never wrong).
        stats.triangles_tested += bvh.tri_indices.len() as u32;
        out.extend_from_slice(&bvh.tri_indices);
        return;
    };
    // The walk of `query::Walk::collect`, in the same order.
    let stack = &mut scratch.stack;
    stack.clear();
    stack.push(0);
    while let Some(i) = stack.pop() {
        let node = &bvh.nodes[i as usize];
        stats.nodes_visited += 1;
        let mask = r.reaches_slots(node);
        for k in (0..4).rev().filter(|k| mask & (1 << k) != 0) {
            match node.slot(k) {
                Slot::Inner(child) => stack.push(child),
                Slot::Leaf { first, count } => {
                    let range = first as usize..first as usize + count as usize;
                    stats.triangles_tested += count;
                    let leaf = &bvh.tri_indices[range.clone()];
                    match bvh.leaf_boxes(range) {
                        Some(boxes) => out.extend((0..leaf.len()).filter_map(|k| {
                            let b = boxes.get(k);
                            r.reaches(b.min, b.max).then(|| boxes.triangle(k, leaf))
                        })),
                        // A tree assembled without its leaf boxes.
                        None => out.extend(leaf.iter().copied().filter(|&tri| {
                            let b = &tri_aabbs[tri as usize];
                            r.reaches(b.min, b.max)
                        })),
                    }
                }
                Slot::Empty => {}
            }
        }
    }
}

/// See [`Bvh::sweep_front_to_back`] (same arguments, plus the tree);
/// with `rounded`, see [`Bvh::sweep_front_to_back_rounded`].
#[allow(clippy::too_many_arguments)]
pub(super) fn sweep_front_to_back(
    bvh: &Bvh,
    start: &Aabb,
    delta: Vec3,
    rounded: Option<&RoundedProbe>,
    scratch: &mut BvhScratch,
    mut visited: Option<&mut Vec<u32>>,
    stats: &mut QueryStats,
    visit: &mut dyn FnMut(u32, Option<&[Vec3; 3]>) -> f64,
) {
    if bvh.nodes.is_empty() {
        return;
    }
    let mover = MovingBox::new(start, delta, bvh.root_largest);
    let mut rounding = rounded.and_then(|p| Rounding::new(p, delta, bvh.root_largest));
    let mut cutoff = f32::INFINITY;
    // Slot ids with the time the moving box enters their box, nearest on top.
    let stack = &mut scratch.ordered;
    stack.clear();
    push_entered_slots(bvh, &mover, rounding.as_ref(), 0, cutoff, stack, stats);
    while let Some((id, t_enter)) = stack.pop() {
        // The cutoff may have dropped since the slot was pushed.
        if t_enter > cutoff {
            continue;
        }
        if let Some(v) = visited.as_deref_mut() {
            v.push(id);
        }
        let (first, count) = match bvh.nodes[(id / 4) as usize].slot((id % 4) as usize) {
            Slot::Inner(child) => {
                push_entered_slots(bvh, &mover, rounding.as_ref(), child, cutoff, stack, stats);
                continue;
            }
            Slot::Leaf { first, count } => (first as usize, count),
            Slot::Empty => continue,
        };
        let range = first..first + count as usize;
        let leaf = &bvh.tri_indices[range.clone()];
        stats.triangles_tested += count;
        // A tree assembled without its leaf boxes (not one from
        // `Bvh::build`) has every triangle tested: slower, never wrong.
        let Some(boxes) = bvh.leaf_boxes(range) else {
            for &tri in leaf {
                let t = widen_cutoff(visit(tri, None));
                if t < cutoff {
                    cutoff = t;
                    if let Some(r) = &mut rounding {
                        r.set_cutoff(cutoff);
                    }
                }
            }
            continue;
        };
        for k in 0..leaf.len() {
            let b = boxes.get(k);
            let reached = mover.entry(b.min, b.max).is_some_and(|t| t <= cutoff)
                && rounding.as_ref().is_none_or(|r| r.reaches(b.min, b.max));
            if reached {
                let t = widen_cutoff(visit(boxes.triangle(k, leaf), boxes.corners(k)));
                if t < cutoff {
                    cutoff = t;
                    if let Some(r) = &mut rounding {
                        r.set_cutoff(cutoff);
                    }
                }
            }
        }
    }
}

/// See [`Bvh::sweep_reaches_nothing`] (the tree and the moving box).
///
/// With no triangle reached, the ordered search's cutoff never drops, so
/// it enters exactly the slots this walk enters: the counters agree.
/// Always inlined into the solver, so that the moving box it was just
/// handed stays in registers (read back from memory, it stalled every
/// search: a fifth of an open-space move). Its pending nodes are kept on
/// the call's own stack, [`OPEN_WALK_PENDING`] at most: a tree that needs
/// more (far deeper than a balanced one) gets "not open", and the caller
/// runs the ordered search, which is never wrong.
#[inline(always)]
pub(super) fn sweep_reaches_nothing(bvh: &Bvh, mover: MovingBox, stats: &mut QueryStats) -> bool {
    if bvh.nodes.is_empty() {
        return true;
    }
    if mover.unbounded {
        return false;
    }
    let mut pending = [0u32; OPEN_WALK_PENDING];
    let mut top = 0usize;
    let mut i = 0u32;
    loop {
        stats.nodes_visited += 1;
        let node = &bvh.nodes[i as usize];
        let (mask, _) = mover.slot_entries(node, f32::INFINITY);
        // The inner slots pushed and every leaf's run asked for first, then
        // the leaves tested: their cache misses overlap instead of each
        // stalling the walk in turn.
        let mut leaves = 0u32;
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let slot = node.slot(k);
            match slot {
                Slot::Inner(child) => {
                    prefetch_slot(bvh, slot);
                    let Some(entry) = pending.get_mut(top) else {
                        return false;
                    };
                    *entry = child;
                    top += 1;
                }
                Slot::Leaf { .. } => {
                    prefetch_slot(bvh, slot);
                    leaves |= 1 << k;
                }
                Slot::Empty => {}
            }
        }
        for k in (0..4).filter(|k| leaves & (1 << k) != 0) {
            if let Slot::Leaf { first, count } = node.slot(k) {
                let range = first as usize..first as usize + count as usize;
                stats.triangles_tested += count;
                // A tree without its leaf boxes has every triangle visited.
                let Some(boxes) = bvh.leaf_boxes(range) else {
                    return false;
                };
                if (0..count as usize).any(|k| {
                    let b = boxes.get(k);
                    mover.touches(b.min, b.max)
                }) {
                    return false;
                }
            }
        }
        if top == 0 {
            return true;
        }
        top -= 1;
        i = pending[top];
    }
}

/// Pushes the slots of node `i` the moving box enters at or before
/// `cutoff` (and, with `rounding`, that the rounded probe may reach before
/// it), farthest first, so the nearest is searched next.
fn push_entered_slots(
    bvh: &Bvh,
    mover: &MovingBox,
    rounding: Option<&Rounding>,
    i: u32,
    cutoff: f32,
    stack: &mut Vec<(u32, f32)>,
    stats: &mut QueryStats,
) {
    stats.nodes_visited += 1;
    let node = &bvh.nodes[i as usize];
    let (mut mask, near) = mover.slot_entries(node, cutoff);
    if let Some(r) = rounding {
        mask &= r.reaches_slots(node);
    }
    if mask == 0 {
        return;
    }
    let near = near.to_array();
    let base = stack.len();
    for k in (0..4).filter(|k| mask & (1 << k) != 0) {
        prefetch_slot(bvh, node.slot(k));
        stack.push((i * 4 + k as u32, near[k]));
    }
    sort_farthest_first(&mut stack[base..]);
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
    visited: Option<&mut Vec<u32>>,
    stats: &mut QueryStats,
) {
    if bvh.nodes.is_empty() {
        return;
    }
    let mover = MovingBox::new(start, delta, bvh.root_largest);
    Walk::new(scratch, out, visited, stats).collect(
        bvh,
        |node| mover.slot_entries(node, f32::INFINITY).0,
        |tri| {
            let b = &tri_aabbs[tri as usize];
            mover.touches(b.min, b.max)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use proptest::prelude::*;

    /// Exact answer by sampling is unreliable; instead: a triangle box is
    /// touched iff the Minkowski-grown box meets the segment, decided in f64.
    fn touches_exact(start: &Aabb, delta: Vec3, b: &Aabb) -> bool {
        let c = start.center().as_dvec3();
        let h = (start.extent() * 0.5).as_dvec3();
        touches_exact_around(c, h, delta, b)
    }

    /// [`touches_exact`] for the box `c ± h`.
    fn touches_exact_around(c: DVec3, h: DVec3, delta: Vec3, b: &Aabb) -> bool {
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

    /// A random soup of small triangles.
    fn soup() -> impl Strategy<Value = Vec<[DVec3; 3]>> {
        let p = || (-10.0f64..10.0, -10.0f64..10.0, -10.0f64..10.0);
        let d = || (-2.0f64..2.0, -2.0f64..2.0, -2.0f64..2.0);
        prop::collection::vec((p(), d(), d()), 1..120).prop_map(|ts| {
            ts.into_iter()
                .map(|(a, u, v)| {
                    let a = DVec3::new(a.0, a.1, a.2);
                    [
                        a,
                        a + DVec3::new(u.0, u.1, u.2),
                        a + DVec3::new(v.0, v.1, v.2),
                    ]
                })
                .collect()
        })
    }

    proptest! {
        /// Pruning by the nearest hit so far loses no earlier hit: the
        /// front-to-back sweep, fed the real unit-sphere sweep, finds the
        /// same first time of impact as testing every triangle.
        #[test]
        fn front_to_back_sweep_finds_the_first_hit(
            tris in soup(),
            c in (-12.0f64..12.0, -12.0f64..12.0, -12.0f64..12.0),
            d in (-20.0f64..20.0, -20.0f64..20.0, -20.0f64..20.0),
        ) {
            use crate::geometry::sweep::{SweepOutcome, sweep_unit_sphere_triangle};
            let (c, d) = (DVec3::new(c.0, c.1, c.2), DVec3::new(d.0, d.1, d.2));
            let first_t = |tri: &[DVec3; 3]| match sweep_unit_sphere_triangle(c, d, *tri, 1.0, false) {
                SweepOutcome::Hit(h) => h.t,
                SweepOutcome::Miss { .. } => f64::INFINITY,
            };
            let brute = tris.iter().map(first_t).fold(f64::INFINITY, f64::min);
            let tri_aabbs: Vec<Aabb> = tris
                .iter()
                .map(|t| Aabb::from_f64_outward(t[0].min(t[1]).min(t[2]), t[0].max(t[1]).max(t[2])))
                .collect();
            let bvh = Bvh::build(&tri_aabbs);
            // The unit sphere's box, a hair larger, as the solver pads it.
            let start = Aabb::from_f64_outward(c - 1.001, c + 1.001);
            let mut best = f64::INFINITY;
            let mut tested = 0;
            let mut visited = Vec::new();
            bvh.sweep_front_to_back(&start, d.as_vec3(), &mut BvhScratch::default(), Some(&mut visited), &mut QueryStats::default(), &mut |tri, _| {
                tested += 1;
                best = best.min(first_t(&tris[tri as usize]));
                best
            });
            prop_assert_eq!(best, brute);
            prop_assert!(tested <= tris.len());
            prop_assert!(visited.iter().all(|&id| bvh.slot_aabb(id).is_some()), "entered an empty slot");
        }

        /// The open-space shortcut says "nothing" exactly when the ordered
        /// search visits no triangle, and then with the same counters.
        #[test]
        fn reaches_nothing_agrees_with_the_ordered_search(
            tri_aabbs in boxes(),
            c in (-60.0f32..60.0, -60.0f32..60.0, -60.0f32..60.0),
            half in (0.1f32..3.0, 0.1f32..3.0, 0.1f32..3.0),
            d in (-30.0f32..30.0, -30.0f32..30.0, -30.0f32..30.0),
            leaf in 1usize..9,
        ) {
            let c = Vec3::new(c.0, c.1, c.2);
            let h = Vec3::new(half.0, half.1, half.2);
            let start = Aabb::from_corners(c - h, c + h);
            let delta = Vec3::new(d.0, d.1, d.2);
            let bvh = Bvh::build_with_leaf_size(&tri_aabbs, leaf);
            let mut ordered = QueryStats::default();
            let mut visits = 0;
            bvh.sweep_front_to_back(&start, delta, &mut BvhScratch::default(), None, &mut ordered, &mut |_, _| {
                visits += 1;
                f64::INFINITY
            });
            let mut shortcut = QueryStats::default();
            let nothing = bvh.sweep_reaches_nothing(&start, delta, &mut shortcut);
            prop_assert_eq!(nothing, visits == 0);
            if nothing {
                prop_assert_eq!(shortcut, ordered);
            }
        }

        /// The solver's record-free open-space test never calls a move
        /// open when the exact box (`f64` centre and half-extents) touches
        /// a triangle's box on the way, also when it just touches one,
        /// and far from the origin.
        #[test]
        fn open_space_around_a_centre_misses_no_box(
            tri_aabbs in boxes(),
            c in (-60.0f64..60.0, -60.0f64..60.0, -60.0f64..60.0),
            half in (0.01f64..3.0, 0.01f64..3.0, 0.01f64..3.0),
            d in (-30.0f32..30.0, -30.0f32..30.0, -30.0f32..30.0),
            touching in 0usize..3,
            far in prop_oneof![Just(0.0f32), Just(1e5f32), Just(-3e6f32)],
        ) {
            let tri_aabbs: Vec<Aabb> = tri_aabbs
                .iter()
                .map(|b| Aabb { min: b.min + far, max: b.max + far })
                .collect();
            let h = DVec3::new(half.0, half.1, half.2);
            let mut c = DVec3::new(c.0, c.1, c.2) + far as f64;
            let mut delta = Vec3::new(d.0, d.1, d.2);
            if touching > 0 {
                // Face to face with the first box along x, overlapping it
                // on y and z; standing still or moving away.
                let b = &tri_aabbs[0];
                let mid = b.center().as_dvec3();
                c = DVec3::new(b.max.x as f64 + h.x, mid.y, mid.z);
                delta = if touching == 1 { Vec3::ZERO } else { Vec3::X * d.0.abs() };
            }
            let bvh = Bvh::build(&tri_aabbs);
            let nothing = bvh.sweep_reaches_nothing_around(c, h, delta);
            if nothing {
                for (i, b) in tri_aabbs.iter().enumerate() {
                    prop_assert!(!touches_exact_around(c, h, delta, b), "missed box {i}");
                }
            }
            if touching > 0 {
                prop_assert!(!nothing, "a touching box was missed");
            }
        }

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
            // Only slots in use are entered (empty ones fail the slab test).
            for &id in &visited {
                prop_assert!(bvh.slot_aabb(id).is_some(), "entered empty slot {id}");
            }
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

        /// The walks of a tree that keeps its triangles' corners
        /// ([`Bvh::build_for_mesh`], what a level builds) find exactly the
        /// triangles those of the same tree keeping boxes find: the same
        /// triangles in the same order with the same counters, from the
        /// ordered search (plain and rounded, pruned by the real
        /// unit-sphere sweep), the open-space walk and the rounded query;
        /// and each triangle's corners handed over are the mesh's. Both
        /// test each triangle's box, which `validate` checks is the mesh's,
        /// bit for bit (the boxes walk is held to the exact answer by the
        /// tests above).
        #[test]
        fn walks_over_corners_find_what_walks_over_boxes_find(
            tris in soup(),
            c in (-12.0f64..12.0, -12.0f64..12.0, -12.0f64..12.0),
            d in (-20.0f64..20.0, -20.0f64..20.0, -20.0f64..20.0),
            radii in (0.2f64..1.5, 0.2f64..1.5, 0.2f64..1.5),
            core in 0.0f64..0.8,
            far in prop_oneof![Just(0.0f64), Just(1e5f64)],
        ) {
            use crate::geometry::sweep::{SweepOutcome, sweep_unit_sphere_triangle};
            use crate::mesh::TriMesh;
            let shift = DVec3::splat(far);
            let positions: Vec<Vec3> = tris.iter().flatten().map(|p| (*p + shift).as_vec3()).collect();
            let triangles = (0..tris.len() as u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
            let mesh = TriMesh::single_object("soup", positions, triangles);
            let boxes = Bvh::build(&mesh.tri_aabbs);
            let corners = Bvh::build_for_mesh(&mesh);
            prop_assert_eq!(corners.validate(&mesh.tri_aabbs), Ok(()));
            prop_assert!(corners.leaf_aabbs.is_empty() && !corners.leaf_tris.is_empty());
            let (c, d) = (DVec3::new(c.0, c.1, c.2) + shift, DVec3::new(d.0, d.1, d.2));
            let radii = DVec3::new(radii.0, radii.1, radii.2);
            // The unit sphere's first contact in the probe's ellipsoid space.
            let first_t = |tri: [Vec3; 3]| {
                let tri = tri.map(|p| p.as_dvec3() / radii);
                match sweep_unit_sphere_triangle(c / radii, d / radii, tri, 1.0, false) {
                    SweepOutcome::Hit(h) => h.t,
                    SweepOutcome::Miss { .. } => f64::INFINITY,
                }
            };
            let probe = RoundedProbe {
                center: c,
                core_half: DVec3::new(0.0, core, 0.0),
                radii,
            };
            let start = Aabb::from_f64_outward(c - probe.core_half - radii * 1.001, c + probe.core_half + radii * 1.001);
            let delta = d.as_vec3();
            // Every triangle visited, its corners, and the counters.
            let sweep = |bvh: &Bvh, rounded: bool| {
                let (mut seen, mut stats, mut best) = (Vec::new(), QueryStats::default(), f64::INFINITY);
                let mut visit = |tri: u32, given: Option<&[Vec3; 3]>| {
                    let corners = given.copied().unwrap_or_else(|| mesh.triangle(tri));
                    seen.push((tri, given.is_some(), corners == mesh.triangle(tri)));
                    best = best.min(first_t(corners));
                    best
                };
                let mut scratch = BvhScratch::default();
                if rounded {
                    bvh.sweep_front_to_back_rounded(&start, delta, &probe, &mut scratch, None, &mut stats, &mut visit);
                } else {
                    bvh.sweep_front_to_back(&start, delta, &mut scratch, None, &mut stats, &mut visit);
                }
                (seen, stats)
            };
            for rounded in [false, true] {
                let (old, old_stats) = sweep(&boxes, rounded);
                let (new, new_stats) = sweep(&corners, rounded);
                prop_assert!(old.iter().all(|&(_, given, _)| !given));
                prop_assert!(new.iter().all(|&(_, given, same)| given && same), "corners not the mesh's");
                let ids = |v: &[(u32, bool, bool)]| v.iter().map(|e| e.0).collect::<Vec<_>>();
                prop_assert_eq!(ids(&old), ids(&new), "rounded {}", rounded);
                prop_assert_eq!(old_stats, new_stats);
            }
            let (mut old_open, mut new_open) = (QueryStats::default(), QueryStats::default());
            prop_assert_eq!(
                boxes.sweep_reaches_nothing(&start, delta, &mut old_open),
                corners.sweep_reaches_nothing(&start, delta, &mut new_open)
            );
            prop_assert_eq!(old_open, new_open);
            prop_assert_eq!(
                boxes.sweep_reaches_nothing_around(c, radii, delta),
                corners.sweep_reaches_nothing_around(c, radii, delta)
            );
            let query = |bvh: &Bvh| {
                let (mut out, mut stats) = (Vec::new(), QueryStats::default());
                bvh.query_rounded(&mesh.tri_aabbs, &probe, &mut BvhScratch::default(), &mut out, &mut stats);
                (out, stats)
            };
            prop_assert_eq!(query(&boxes), query(&corners));
        }
    }
}
