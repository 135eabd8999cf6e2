//! Top-down binned SAH construction over per-triangle boxes (world space).
//!
//! Each node bins its triangles' centroids into [`BINS`] slots along the
//! longest axis of their bounds, sweeps the bins to price every split plane
//! with the surface area heuristic (MacDonald & Booth 1990; binning after
//! Wald 2007, single-axis as in Bikker's "How to build a BVH"), and
//! partitions its range in place. A node becomes a leaf when it holds one
//! triangle, or at most `max_leaf` and splitting would not pay. When the
//! centroids cannot be binned (all equal, or not finite) the range is cut in
//! half, so the build always terminates and never panics on odd input.
//!
//! Speed comes from touching each triangle twice per level (bin, partition):
//! the bins also gather centroid bounds, so a child's binning range is known
//! without another pass. The working copy keeps boxes as `Vec3A` (16-byte
//! lanes: growing a box is two SIMD min/max), and centroids are kept doubled
//! (`min + max`), which changes no decision since binning is scale-invariant.

use super::{Bvh, BvhNode};
use crate::math::Aabb;
use glam::Vec3A;

/// Most centroid bins per node; small nodes use one per triangle (binning
/// and sweeping cost per node matters: there are about as many nodes as triangles).
const BINS: usize = 12;
/// Leaves hold at most this many triangles by default (tuned by measurement,
/// see BENCHMARKS.md).
pub(crate) const MAX_LEAF: usize = 4;
/// Cost of visiting a node, relative to testing one triangle's box.
const TRAVERSAL_COST: f32 = 1.0;

/// A box in the working copy.
#[derive(Clone, Copy)]
struct Bounds {
    lo: Vec3A,
    hi: Vec3A,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        lo: Vec3A::INFINITY,
        hi: Vec3A::NEG_INFINITY,
    };

    #[inline]
    fn grow(&mut self, b: &Bounds) {
        self.lo = self.lo.min(b.lo);
        self.hi = self.hi.max(b.hi);
    }

    #[inline]
    fn grow_point(&mut self, p: Vec3A) {
        self.lo = self.lo.min(p);
        self.hi = self.hi.max(p);
    }

    /// Half the surface area: the SAH only compares ratios.
    #[inline]
    fn half_area(&self) -> f32 {
        let e = self.hi - self.lo;
        e.x * e.y + e.y * e.z + e.z * e.x
    }
}

/// The triangles whose centroid fell in one bin: box, centroid box, count.
#[derive(Clone, Copy)]
struct Bin {
    bounds: Bounds,
    centroids: Bounds,
    count: u32,
}

const EMPTY_BIN: Bin = Bin {
    bounds: Bounds::EMPTY,
    centroids: Bounds::EMPTY,
    count: 0,
};

/// A range of triangles with its box and the box of its (doubled) centroids.
#[derive(Clone, Copy)]
struct Range {
    start: usize,
    end: usize,
    bounds: Bounds,
    centroids: Bounds,
}

/// Centroid binning of one node along one axis.
struct Binning {
    /// Bins in use, `2..=BINS`.
    used: usize,
    axis: usize,
    cmin: f32,
    scale: f32,
    bins: [Bin; BINS],
}

impl Binning {
    #[inline]
    fn bin_of(&self, p: &Bounds) -> usize {
        // `as` saturates (NaN -> 0), the clamp catches the top.
        (((p.lo[self.axis] + p.hi[self.axis] - self.cmin) * self.scale) as usize).min(self.used - 1)
    }
}

/// Builds the tree with leaves of at most `max_leaf` (>= 1) triangles; see the module docs.
pub(super) fn build(tri_aabbs: &[Aabb], max_leaf: usize) -> Bvh {
    let max_leaf = max_leaf.max(1);
    let n = tri_aabbs.len();
    if n == 0 {
        return Bvh::default();
    }
    let mut prims: Vec<Bounds> = tri_aabbs.iter().map(working_box).collect();
    let mut tri_indices: Vec<u32> = (0..n as u32).collect();
    let root = range_of(&prims, 0, n);
    // A binary tree with at least one triangle per leaf has at most 2n - 1 nodes.
    let mut nodes = Vec::with_capacity(2 * n - 1);
    nodes.push(leaf_node(&root));
    let mut binning = Binning {
        used: BINS,
        axis: 0,
        cmin: 0.0,
        scale: 0.0,
        bins: [EMPTY_BIN; BINS],
    };
    let mut stack = vec![(0usize, root)];
    while let Some((node, r)) = stack.pop() {
        let (p, t) = (&mut prims[r.start..r.end], &mut tri_indices[r.start..r.end]);
        let Some((left, right)) = split(p, t, &r, max_leaf, &mut binning) else {
            continue; // Already stored as a leaf.
        };
        let first = nodes.len();
        nodes.push(leaf_node(&left));
        nodes.push(leaf_node(&right));
        nodes[node].first = first as u32;
        nodes[node].count = 0;
        // Left on top: the left subtree is laid out first, depth-first.
        stack.push((first + 1, right));
        stack.push((first, left));
    }
    nodes.shrink_to_fit();
    Bvh { nodes, tri_indices }
}

/// A triangle's box for the build. A NaN box overlaps nothing: as EMPTY it
/// cannot poison its ancestors' boxes either.
fn working_box(b: &Aabb) -> Bounds {
    if b.min.is_nan() || b.max.is_nan() {
        return Bounds::EMPTY;
    }
    Bounds {
        lo: b.min.into(),
        hi: b.max.into(),
    }
}

fn leaf_node(r: &Range) -> BvhNode {
    BvhNode {
        aabb_min: r.bounds.lo.into(),
        first: r.start as u32,
        aabb_max: r.bounds.hi.into(),
        count: (r.end - r.start) as u32,
    }
}

/// `prims[start..end]` with its bounds, computed by a pass over it.
fn range_of(prims: &[Bounds], start: usize, end: usize) -> Range {
    let (mut bounds, mut centroids) = (Bounds::EMPTY, Bounds::EMPTY);
    for p in &prims[start..end] {
        bounds.grow(p);
        centroids.grow_point(p.lo + p.hi);
    }
    Range {
        start,
        end,
        bounds,
        centroids,
    }
}

/// Splits the node `r` (whose triangles are `prims`, in place) into two
/// ranges, or returns `None` to keep it a leaf. `binning` is reused scratch.
fn split(
    prims: &mut [Bounds],
    tri_indices: &mut [u32],
    r: &Range,
    max_leaf: usize,
    binning: &mut Binning,
) -> Option<(Range, Range)> {
    let count = prims.len();
    if count <= 1 {
        return None;
    }
    let plane = if bin(prims, r, binning) {
        best_plane(&binning.bins[..binning.used], r.bounds.half_area())
    } else {
        None
    };
    match plane {
        Some((bin, cost)) if count > max_leaf || cost < count as f32 => {
            partition(prims, tri_indices, r, binning, bin).or_else(|| Some(halve(prims, r)))
        }
        _ if count > max_leaf => Some(halve(prims, r)),
        _ => None,
    }
}

/// Bins the centroids along the longest axis of their box. `false` when it
/// has no usable extent (all centroids equal, or not finite).
fn bin(prims: &[Bounds], r: &Range, b: &mut Binning) -> bool {
    let extent = r.centroids.hi - r.centroids.lo;
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let used = prims.len().clamp(2, BINS);
    // Slightly under used / extent so that the largest centroid lands in the last bin.
    let scale = used as f32 * (1.0 - 1e-5) / extent[axis];
    let cmin = r.centroids.lo[axis];
    if !(extent[axis] > 0.0 && scale.is_finite() && scale > 0.0 && cmin.is_finite()) {
        return false;
    }
    b.used = used;
    b.axis = axis;
    b.cmin = cmin;
    b.scale = scale;
    b.bins[..used].fill(EMPTY_BIN);
    for p in prims {
        let c = p.lo + p.hi;
        let i = (((c[axis] - cmin) * scale) as usize).min(used - 1);
        let bin = &mut b.bins[i];
        bin.bounds.grow(p);
        bin.centroids.grow_point(c);
        bin.count += 1;
    }
    true
}

/// The cheapest SAH plane: `(k, cost)` where bins `..k` go left, cost in
/// units of one triangle test. `None` if every triangle is in one bin.
fn best_plane(bins: &[Bin], node_half_area: f32) -> Option<(usize, f32)> {
    // right_cost[k]: area * count of bins k.. (the right side of plane k).
    let mut right_cost = [0.0f32; BINS];
    let mut right_count = [0u32; BINS];
    let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
    for k in (1..bins.len()).rev() {
        acc.grow(&bins[k].bounds);
        n += bins[k].count;
        right_count[k] = n;
        right_cost[k] = if n > 0 {
            acc.half_area() * n as f32
        } else {
            0.0
        };
    }
    let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
    let mut best: Option<(usize, f32)> = None;
    for k in 1..bins.len() {
        acc.grow(&bins[k - 1].bounds);
        n += bins[k - 1].count;
        if n == 0 || right_count[k] == 0 {
            continue;
        }
        let cost = TRAVERSAL_COST + (acc.half_area() * n as f32 + right_cost[k]) / node_half_area;
        if cost < best.map_or(f32::INFINITY, |b| b.1) {
            best = Some((k, cost));
        }
    }
    best
}

/// Partitions at plane `k`; the children's boxes come from the bins. `None`
/// if a side came out empty, which consistent binning rules out but is cheap to guard.
fn partition(
    prims: &mut [Bounds],
    tri_indices: &mut [u32],
    r: &Range,
    b: &Binning,
    k: usize,
) -> Option<(Range, Range)> {
    let (mut i, mut j) = (0, prims.len());
    while i < j {
        if b.bin_of(&prims[i]) < k {
            i += 1;
        } else {
            j -= 1;
            prims.swap(i, j);
            tri_indices.swap(i, j);
        }
    }
    if i == 0 || i == prims.len() {
        return None;
    }
    let union = |bins: &[Bin], start: usize, end: usize| {
        let (mut bounds, mut centroids) = (Bounds::EMPTY, Bounds::EMPTY);
        for bin in bins {
            bounds.grow(&bin.bounds);
            centroids.grow(&bin.centroids);
        }
        Range {
            start,
            end,
            bounds,
            centroids,
        }
    };
    let mid = r.start + i;
    Some((
        union(&b.bins[..k], r.start, mid),
        union(&b.bins[k..b.used], mid, r.end),
    ))
}

/// Cuts the range in half, whatever the order: the fallback when no plane
/// separates the centroids. Any cut is as good as another then.
fn halve(prims: &[Bounds], r: &Range) -> (Range, Range) {
    let mid = prims.len() / 2;
    let mut left = range_of(prims, 0, mid);
    let mut right = range_of(prims, mid, prims.len());
    left.start += r.start;
    left.end += r.start;
    right.start += r.start;
    right.end += r.start;
    (left, right)
}
