//! Top-down binned SAH construction over per-triangle boxes (world space).
//!
//! Each node bins its triangles' centroids into [`BINS`] slots on all three
//! axes at once, sweeps the bins to price every split plane with the surface
//! area heuristic (MacDonald & Booth 1990; binning after Wald 2007), and
//! partitions its range in place. A node becomes a leaf when it holds one
//! triangle, or at most [`MAX_LEAF`] and splitting would not pay. When the
//! centroids cannot be binned (all equal, or not finite) the range is cut in
//! half, so the build always terminates and never panics on odd input.
//!
//! The working copy keeps boxes as `Vec3A` (16-byte lanes) so that growing a
//! bin is two SIMD min/max; centroids are kept doubled (`min + max`), which
//! changes no decision since binning is scale-invariant.

use super::{Bvh, BvhNode};
use crate::math::Aabb;
use glam::{UVec3, Vec3A};

/// Number of centroid bins per axis.
const BINS: usize = 12;
/// Leaves hold at most this many triangles (measured: 4 gives the fastest
/// swept-box queries at about 1.1 nodes per triangle, see BENCHMARKS.md).
pub(crate) const MAX_LEAF: usize = 4;
/// Cost of visiting a node, relative to testing one triangle's box.
const TRAVERSAL_COST: f32 = 1.0;

/// A triangle's box in the working copy.
#[derive(Clone, Copy)]
struct Prim {
    lo: Vec3A,
    hi: Vec3A,
}

/// Bounds and count of the triangles whose centroid fell in one bin.
#[derive(Clone, Copy)]
struct Bin {
    lo: Vec3A,
    hi: Vec3A,
    count: u32,
}

const EMPTY_BIN: Bin = Bin {
    lo: Vec3A::INFINITY,
    hi: Vec3A::NEG_INFINITY,
    count: 0,
};

/// A node waiting to be split: its slot, its triangle range and its box.
struct Task {
    node: usize,
    start: usize,
    end: usize,
    lo: Vec3A,
    hi: Vec3A,
}

/// How a node's range was cut: children boxes and the split position.
struct Cut {
    mid: usize,
    left: (Vec3A, Vec3A),
    right: (Vec3A, Vec3A),
}

/// A chosen SAH plane: triangles whose centroid bin on `axis` is below `bin` go left.
struct Plane {
    axis: usize,
    bin: u32,
    cost: f32,
}

/// Centroid binning of one node.
struct Binning {
    cmin: Vec3A,
    scale: Vec3A,
    bins: [[Bin; BINS]; 3],
}

impl Binning {
    #[inline]
    fn bin_of(&self, p: &Prim) -> UVec3 {
        ((p.lo + p.hi - self.cmin) * self.scale)
            .as_uvec3()
            .min(UVec3::splat(BINS as u32 - 1))
    }
}

/// Half the surface area: the SAH only compares ratios.
#[inline]
fn half_area(lo: Vec3A, hi: Vec3A) -> f32 {
    let e = hi - lo;
    e.x * e.y + e.y * e.z + e.z * e.x
}

/// Builds the tree; see the module docs.
pub(super) fn build(tri_aabbs: &[Aabb]) -> Bvh {
    let n = tri_aabbs.len();
    if n == 0 {
        return Bvh::default();
    }
    let mut prims: Vec<Prim> = tri_aabbs
        .iter()
        .map(|b| {
            // A NaN box overlaps nothing; as EMPTY it also cannot poison its ancestors' boxes.
            let b = if b.min.is_nan() || b.max.is_nan() {
                &Aabb::EMPTY
            } else {
                b
            };
            Prim {
                lo: b.min.into(),
                hi: b.max.into(),
            }
        })
        .collect();
    let mut tri_indices: Vec<u32> = (0..n as u32).collect();
    let (lo, hi) = bounds(&prims);
    // A binary tree with at least one triangle per leaf has at most 2n - 1 nodes.
    let mut nodes = Vec::with_capacity(2 * n - 1);
    nodes.push(leaf_node(lo, hi, 0, n));
    let mut binning = Binning {
        cmin: Vec3A::ZERO,
        scale: Vec3A::ZERO,
        bins: [[EMPTY_BIN; BINS]; 3],
    };
    let mut stack = vec![Task {
        node: 0,
        start: 0,
        end: n,
        lo,
        hi,
    }];
    while let Some(t) = stack.pop() {
        let range = t.start..t.end;
        let node_prims = &mut prims[range.clone()];
        let Some(cut) = split(
            node_prims,
            &mut tri_indices[range],
            t.lo,
            t.hi,
            &mut binning,
        ) else {
            nodes[t.node] = leaf_node(t.lo, t.hi, t.start, t.end - t.start);
            continue;
        };
        let left = nodes.len();
        let mid = t.start + cut.mid;
        nodes.push(leaf_node(cut.left.0, cut.left.1, t.start, cut.mid));
        nodes.push(leaf_node(cut.right.0, cut.right.1, mid, t.end - mid));
        nodes[t.node].first = left as u32;
        nodes[t.node].count = 0;
        // Left on top: the left subtree is laid out first, depth-first.
        stack.push(Task {
            node: left + 1,
            start: mid,
            end: t.end,
            lo: cut.right.0,
            hi: cut.right.1,
        });
        stack.push(Task {
            node: left,
            start: t.start,
            end: mid,
            lo: cut.left.0,
            hi: cut.left.1,
        });
    }
    nodes.shrink_to_fit();
    Bvh { nodes, tri_indices }
}

fn leaf_node(lo: Vec3A, hi: Vec3A, first: usize, count: usize) -> BvhNode {
    BvhNode {
        aabb_min: lo.into(),
        first: first as u32,
        aabb_max: hi.into(),
        count: count as u32,
    }
}

fn bounds(prims: &[Prim]) -> (Vec3A, Vec3A) {
    prims
        .iter()
        .fold((Vec3A::INFINITY, Vec3A::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.lo), hi.max(p.hi))
        })
}

/// Decides whether the node `prims` (box `lo..hi`) is split, and splits it.
/// `None` keeps it as a leaf.
/// `binning` is scratch space reused from node to node.
fn split(
    prims: &mut [Prim],
    tri_indices: &mut [u32],
    lo: Vec3A,
    hi: Vec3A,
    binning: &mut Binning,
) -> Option<Cut> {
    let count = prims.len();
    if count <= 1 {
        return None;
    }
    let plane = if bin(prims, binning) {
        best_plane(binning, half_area(lo, hi))
    } else {
        None
    };
    let leaf_cost = count as f32;
    match plane {
        Some(p) if count > MAX_LEAF || p.cost < leaf_cost => {
            partition(prims, tri_indices, binning, &p).or_else(|| Some(halve(prims)))
        }
        _ if count > MAX_LEAF => Some(halve(prims)),
        _ => None,
    }
}

/// Bins the doubled centroids on every axis with a usable extent.
/// `false` when no axis has one (all centroids equal or not finite).
fn bin(prims: &[Prim], b: &mut Binning) -> bool {
    let (cmin, cmax) = prims
        .iter()
        .fold((Vec3A::INFINITY, Vec3A::NEG_INFINITY), |(lo, hi), p| {
            let c = p.lo + p.hi;
            (lo.min(c), hi.max(c))
        });
    let extent = cmax - cmin;
    // Slightly under BINS / extent so that the largest centroid lands in the last bin.
    let raw = Vec3A::splat(BINS as f32 * (1.0 - 1e-5)) / extent;
    let usable = extent.cmpgt(Vec3A::ZERO) & raw.is_finite_mask() & cmin.is_finite_mask();
    if !usable.any() {
        return false;
    }
    b.cmin = cmin;
    b.scale = Vec3A::select(usable, raw, Vec3A::ZERO);
    b.bins = [[EMPTY_BIN; BINS]; 3];
    for p in prims {
        let idx = b.bin_of(p);
        for axis in 0..3 {
            let bin = &mut b.bins[axis][idx[axis] as usize];
            bin.lo = bin.lo.min(p.lo);
            bin.hi = bin.hi.max(p.hi);
            bin.count += 1;
        }
    }
    // An axis with zero scale put everything in bin 0 and offers no plane.
    for axis in 0..3 {
        if !usable.test(axis) {
            b.bins[axis][0].count = 0;
        }
    }
    true
}

/// The cheapest SAH plane over all axes, cost in units of one triangle test.
fn best_plane(b: &Binning, node_half_area: f32) -> Option<Plane> {
    let mut best: Option<Plane> = None;
    for (axis, bins) in b.bins.iter().enumerate() {
        // right_cost[i]: area * count of bins i.. (the right side of plane i).
        let mut right_cost = [0.0f32; BINS];
        let mut right_count = [0u32; BINS];
        let (mut lo, mut hi, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0u32);
        for i in (1..BINS).rev() {
            lo = lo.min(bins[i].lo);
            hi = hi.max(bins[i].hi);
            n += bins[i].count;
            right_count[i] = n;
            right_cost[i] = if n > 0 {
                half_area(lo, hi) * n as f32
            } else {
                0.0
            };
        }
        let (mut lo, mut hi, mut n) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY, 0u32);
        for i in 1..BINS {
            lo = lo.min(bins[i - 1].lo);
            hi = hi.max(bins[i - 1].hi);
            n += bins[i - 1].count;
            if n == 0 || right_count[i] == 0 {
                continue;
            }
            let cost =
                TRAVERSAL_COST + (half_area(lo, hi) * n as f32 + right_cost[i]) / node_half_area;
            if cost < best.as_ref().map_or(f32::INFINITY, |p| p.cost) {
                best = Some(Plane {
                    axis,
                    bin: i as u32,
                    cost,
                });
            }
        }
    }
    best
}

/// Partitions by the plane; children boxes come from the bins. `None` if a
/// side came out empty, which consistent binning rules out but is cheap to guard.
fn partition(prims: &mut [Prim], tri_indices: &mut [u32], b: &Binning, p: &Plane) -> Option<Cut> {
    let (mut i, mut j) = (0, prims.len());
    while i < j {
        if b.bin_of(&prims[i])[p.axis] < p.bin {
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
    let union = |bins: &[Bin]| {
        bins.iter()
            .fold((Vec3A::INFINITY, Vec3A::NEG_INFINITY), |(lo, hi), b| {
                (lo.min(b.lo), hi.max(b.hi))
            })
    };
    let bins = &b.bins[p.axis];
    Some(Cut {
        mid: i,
        left: union(&bins[..p.bin as usize]),
        right: union(&bins[p.bin as usize..]),
    })
}

/// Cuts the range in half, whatever the order: the fallback when no plane
/// separates the centroids. Any cut is as good as another then.
fn halve(prims: &[Prim]) -> Cut {
    let mid = prims.len() / 2;
    Cut {
        mid,
        left: bounds(&prims[..mid]),
        right: bounds(&prims[mid..]),
    }
}
