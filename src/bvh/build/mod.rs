//! Top-down binned SAH construction over per-triangle boxes (world space).
//!
//! Each node bins its triangles' centroids into [`BINS`] slots along the
//! longest axis of their bounds, sweeps the bins to price every split plane
//! with the surface area heuristic (MacDonald & Booth 1990; binning after
//! Wald 2007, single-axis as in Bikker's "How to build a BVH"), and
//! partitions its range in place. A node becomes a leaf when it holds at
//! most `max_leaf` triangles (a fixed size measured to beat an SAH
//! termination test here: such nodes need no binning at all, and swept-box
//! queries test a leaf's triangle boxes about as fast as a child's box).
//! When the centroids cannot be binned (all equal, or not finite) the range
//! is cut in half, so the build always terminates and never panics on odd
//! input.
//!
//! Speed comes from touching each triangle once per level: the bins also
//! gather centroid bounds, so both children's binning ranges are known
//! before the parent is partitioned, and the partition pass bins each
//! triangle into the child it sends it to. The working copy keeps boxes as
//! `Vec3A` (16-byte lanes: growing a box is two SIMD min/max), and centroids
//! are kept doubled (`min + max`), which changes no decision since binning is
//! scale-invariant.
//!
//! [`build`] runs on the calling thread; `parallel` (build/parallel.rs)
//! builds the same tree, node for node, with large subtrees on rayon's
//! threads, from the same pieces: a [`Builder`] works on a [`Work`], any
//! contiguous run of the working arrays, and lays its subtree out on its own.

use super::binary::{BinaryNode, BinaryTree};
use crate::math::Aabb;
use glam::Vec3A;

pub(super) mod parallel;
mod sah;

use sah::best_plane;

/// Most centroid bins per node; small nodes use one per triangle (binning
/// and sweeping cost per node matters: there are about as many nodes as triangles).
const BINS: usize = 12;
/// Leaves hold at most this many triangles by default (tuned by measurement,
/// see BENCHMARKS.md).
pub(crate) const MAX_LEAF: usize = 8;

/// A box in the working copy.
#[derive(Clone, Copy)]
pub(super) struct Bounds {
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

/// Where a doubled centroid falls: bin `(c[axis] - cmin) * scale`, clamped.
#[derive(Clone, Copy)]
struct BinMap {
    /// Bins in use, `2..=BINS`: small nodes use one per triangle, because
    /// with about as many nodes as triangles the per-node sweep matters.
    used: usize,
    axis: usize,
    cmin: f32,
    scale: f32,
}

impl BinMap {
    /// Bins along the longest axis of `r`'s centroid box. `None` when it has
    /// no usable extent (all centroids equal, or not finite).
    fn new(r: &Range) -> Option<BinMap> {
        let extent = r.centroids.hi - r.centroids.lo;
        let axis = if extent.x >= extent.y && extent.x >= extent.z {
            0
        } else if extent.y >= extent.z {
            1
        } else {
            2
        };
        let used = (r.end - r.start).clamp(2, BINS);
        // Slightly under used / extent so that the largest centroid lands in the last bin.
        let scale = used as f32 * (1.0 - 1e-5) / extent[axis];
        let cmin = r.centroids.lo[axis];
        let ok = extent[axis] > 0.0 && scale.is_finite() && scale > 0.0 && cmin.is_finite();
        ok.then_some(BinMap {
            used,
            axis,
            cmin,
            scale,
        })
    }

    #[inline]
    fn index(&self, c: Vec3A) -> usize {
        self.index_on(c[self.axis])
    }

    /// The bin of a doubled centroid coordinate on this map's axis.
    #[inline]
    fn index_on(&self, x: f32) -> usize {
        // Branch-free: clamp in float (`max` maps NaN to 0), then round to
        // an integer by adding 2^23, whose ulp is 1. Rounding to nearest
        // after the -0.5 is flooring up to ties; binning and partitioning
        // share this function, so they always agree.
        let top = (self.used - 1) as f32;
        let f = ((x - self.cmin) * self.scale - 0.5).max(0.0).min(top);
        ((f + 8_388_608.0).to_bits() - 0x4b00_0000) as usize
    }
}

/// The binning of one node: `map` is `None` when its centroids cannot be binned.
#[derive(Clone, Copy)]
struct Binning {
    map: Option<BinMap>,
    bins: [Bin; BINS],
}

impl Binning {
    /// Prepares empty bins for the range `r`.
    fn reset(&mut self, r: &Range, max_leaf: usize) {
        // Nodes of at most `max_leaf` triangles become leaves without binning.
        self.map = if r.end - r.start > max_leaf {
            BinMap::new(r)
        } else {
            None
        };
        if let Some(m) = self.map {
            self.bins[..m.used].fill(EMPTY_BIN);
        }
    }

    /// Adds `p` to its bin, returning the bin (0 when there is no map).
    ///
    /// Straight into the bin. Gathering runs of triangles that share a bin
    /// in registers, as this did before, costs a mispredicted branch at
    /// every change of bin, which a real level's triangle order makes
    /// frequent: the whole build was 15 % slower on Sibenik that way, and
    /// no faster on the generated levels (BENCHMARKS.md, "BVH").
    #[inline]
    fn add(&mut self, p: &Bounds) -> u8 {
        let Some(m) = self.map else {
            return 0;
        };
        let c = p.lo + p.hi;
        let idx = m.index(c);
        let bin = &mut self.bins[idx];
        bin.bounds.grow(p);
        bin.centroids.grow_point(c);
        bin.count += 1;
        idx as u8
    }
}

/// Reusable binnings, one per pending node: a child's bins are filled while
/// its parent is partitioned and read when the child is taken off the stack.
struct Pool {
    slots: Vec<Binning>,
    free: Vec<usize>,
}

impl Pool {
    fn new() -> Self {
        Pool {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    /// A slot holding `binning`.
    fn insert(&mut self, binning: Binning) -> usize {
        let slot = self.take();
        self.slots[slot] = binning;
        slot
    }

    fn take(&mut self) -> usize {
        self.free.pop().unwrap_or_else(|| {
            self.slots.push(Binning {
                map: None,
                bins: [EMPTY_BIN; BINS],
            });
            self.slots.len() - 1
        })
    }
}

/// A node waiting for its split: its slot in the node array, its range and
/// the pool slot holding its binning, if already filled.
struct Task {
    node: usize,
    range: Range,
    binned: Option<usize>,
}

/// Builds the tree on the calling thread, with leaves of at most `max_leaf`
/// (>= 1) triangles; see the module docs.
pub(super) fn build(tri_aabbs: &[Aabb], max_leaf: usize) -> BinaryTree {
    let n = tri_aabbs.len();
    if n == 0 {
        return BinaryTree::default();
    }
    let mut prims: Vec<Bounds> = tri_aabbs.iter().map(working_box).collect();
    let mut tri_indices: Vec<u32> = (0..n as u32).collect();
    let mut bin_idx = vec![0u8; n];
    let work = Work {
        base: 0,
        prims: &mut prims,
        tri_indices: &mut tri_indices,
        bin_idx: &mut bin_idx,
    };
    let root = work.range(0, n);
    let mut b = Builder::new(work, max_leaf);
    b.subtree(root, None);
    let nodes = b.nodes;
    let pairs = prims.iter().zip(&tri_indices);
    let leaf_aabbs = pairs.map(|(p, &t)| given_box(p, t, tri_aabbs)).collect();
    BinaryTree {
        nodes,
        tri_indices,
        leaf_aabbs,
    }
}

/// The working arrays of a contiguous run of triangles, `base..base + len`
/// of the whole build: each triangle's box (`prims`), its index in the mesh
/// (`tri_indices`) and its bin in the binning of the node holding it now
/// (`bin_idx`, so partitioning reads a byte instead of recomputing it).
/// Ranges are absolute; the parallel build hands disjoint runs to threads.
struct Work<'a> {
    base: usize,
    prims: &'a mut [Bounds],
    tri_indices: &'a mut [u32],
    bin_idx: &'a mut [u8],
}

impl<'a> Work<'a> {
    /// Positions of the absolute range `start..end` in these slices.
    fn local(&self, start: usize, end: usize) -> std::ops::Range<usize> {
        start - self.base..end - self.base
    }

    /// `start..end` (absolute) with its bounds, computed by a pass over it.
    fn range(&self, start: usize, end: usize) -> Range {
        let (mut bounds, mut centroids) = (Bounds::EMPTY, Bounds::EMPTY);
        for p in &self.prims[self.local(start, end)] {
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
}

struct Builder<'a> {
    work: Work<'a>,
    /// The subtree's nodes, its root first; inner nodes' `first` index this array.
    nodes: Vec<BinaryNode>,
    pool: Pool,
    max_leaf: usize,
}

impl<'a> Builder<'a> {
    fn new(work: Work<'a>, max_leaf: usize) -> Self {
        Builder {
            work,
            nodes: Vec::new(),
            pool: Pool::new(),
            max_leaf: max_leaf.max(1),
        }
    }

    /// Builds the subtree over `root` (binned in pool slot `binned`, if
    /// given) into `nodes`, depth-first: root, its two children, the left
    /// child's descendants, then the right's.
    fn subtree(&mut self, root: Range, binned: Option<usize>) {
        // A binary tree with at least one triangle per leaf has at most 2n - 1 nodes.
        self.nodes.reserve(2 * (root.end - root.start) - 1);
        self.nodes.push(leaf_node(&root));
        let mut stack = vec![Task {
            node: 0,
            range: root,
            binned,
        }];
        while let Some(task) = stack.pop() {
            // Left on top: the left subtree is laid out first, depth-first.
            if let Some([left, right]) = self.split(task) {
                stack.push(right);
                stack.push(left);
            }
        }
    }

    /// Splits `task`'s node (already stored as a leaf) into two children, or
    /// leaves it a leaf (`None`).
    fn split(&mut self, task: Task) -> Option<[Task; 2]> {
        let r = task.range;
        if r.end - r.start <= self.max_leaf {
            if let Some(slot) = task.binned {
                self.pool.free.push(slot);
            }
            return None;
        }
        let [mut left, mut right] = self.divide(&r, task.binned);
        let first = self.nodes.len();
        self.nodes.push(leaf_node(&left.range));
        self.nodes.push(leaf_node(&right.range));
        self.nodes[task.node].first = first as u32;
        self.nodes[task.node].count = 0;
        left.node = first;
        right.node = first + 1;
        Some([left, right])
    }

    /// Divides the range `r` (more than `max_leaf` triangles, binned in pool
    /// slot `binned` if given) at its cheapest SAH plane, or in half when
    /// none separates its centroids. The children's `node` is left at 0.
    fn divide(&mut self, r: &Range, binned: Option<usize>) -> [Task; 2] {
        let slot = match binned {
            Some(slot) => slot,
            None => self.bin(r),
        };
        let binning = &self.pool.slots[slot];
        let plane = binning
            .map
            .and_then(|m| best_plane(&binning.bins[..m.used]));
        let children = match plane {
            Some(k) => self.partition(r, slot, k),
            None => halve(&self.work, r),
        };
        self.pool.free.push(slot);
        children
    }

    /// Bins the range in its own pass (the root, and halves); returns the pool slot.
    fn bin(&mut self, r: &Range) -> usize {
        let slot = self.pool.take();
        let binning = &mut self.pool.slots[slot];
        binning.reset(r, 0);
        let at = self.work.local(r.start, r.end);
        let bin_idx = &mut self.work.bin_idx[at.clone()];
        for (p, b) in self.work.prims[at].iter().zip(bin_idx) {
            *b = binning.add(p);
        }
        slot
    }

    /// Partitions `r` at plane `k` of its binning in `slot`, binning each
    /// triangle into the child it goes to. The children's ranges come from the bins.
    fn partition(&mut self, r: &Range, slot: usize, k: usize) -> [Task; 2] {
        let parent = &self.pool.slots[slot];
        let map = parent.map.expect("a plane implies a binning");
        let (left, right) = (union(&parent.bins[..k]), union(&parent.bins[k..map.used]));
        let mid = r.start + left.2 as usize;
        let left = Range {
            start: r.start,
            end: mid,
            bounds: left.0,
            centroids: left.1,
        };
        let right = Range {
            start: mid,
            end: r.end,
            bounds: right.0,
            centroids: right.1,
        };
        let (ls, rs) = (self.pool.take(), self.pool.take());
        let [lb, rb] = self
            .pool
            .slots
            .get_disjoint_mut([ls, rs])
            .expect("two distinct slots");
        lb.reset(&left, self.max_leaf);
        rb.reset(&right, self.max_leaf);
        let at = self.work.local(r.start, r.end);
        let prims = &mut self.work.prims[at.clone()];
        let tri_indices = &mut self.work.tri_indices[at.clone()];
        let bin_idx = &mut self.work.bin_idx[at];
        let split = Split {
            k: k as u8,
            mid: mid - r.start,
        };
        split.run(prims, tri_indices, bin_idx, lb, rb);
        let task = |range, binned| Task {
            node: 0,
            range,
            binned: Some(binned),
        };
        [task(left, ls), task(right, rs)]
    }
}

/// A parent's partition: triangles in bins `..k` go to `..mid`.
struct Split {
    k: u8,
    mid: usize,
}

impl Split {
    /// Swaps only misplaced triangles, in pairs (as parry's binned build
    /// does); the bins' counts say where the halves meet. Each triangle is
    /// looked at once and binned into its child's binning on the way.
    fn run(
        &self,
        prims: &mut [Bounds],
        tri_indices: &mut [u32],
        bin_idx: &mut [u8],
        left: &mut Binning,
        right: &mut Binning,
    ) {
        let (mut i, mut j) = (0, self.mid);
        loop {
            while i < self.mid && bin_idx[i] < self.k {
                bin_idx[i] = left.add(&prims[i]);
                i += 1;
            }
            if i == self.mid {
                break;
            }
            while j < prims.len() && bin_idx[j] >= self.k {
                bin_idx[j] = right.add(&prims[j]);
                j += 1;
            }
            // Both counts come from the same map, so a misplaced left
            // triangle always has a misplaced right one to trade with.
            debug_assert!(j < prims.len());
            if j == prims.len() {
                break;
            }
            let (to_right, to_left) = (right.add(&prims[i]), left.add(&prims[j]));
            prims.swap(i, j);
            tri_indices.swap(i, j);
            (bin_idx[i], bin_idx[j]) = (to_left, to_right);
            i += 1;
            j += 1;
        }
        for (p, b) in prims[j..].iter().zip(&mut bin_idx[j..]) {
            *b = right.add(p);
        }
    }
}

/// Box, centroid box and count of a run of bins.
fn union(bins: &[Bin]) -> (Bounds, Bounds, u32) {
    let (mut bounds, mut centroids, mut count) = (Bounds::EMPTY, Bounds::EMPTY, 0);
    for bin in bins {
        bounds.grow(&bin.bounds);
        centroids.grow(&bin.centroids);
        count += bin.count;
    }
    (bounds, centroids, count)
}

/// The box given for triangle `tri`, bit for bit, from its working box `p`:
/// a copy of it, except where a NaN made it empty (then it is fetched
/// again). Reading the working boxes, which the build left in leaf order,
/// spares [`Bvh::leaf_aabbs`](super::Bvh::leaf_aabbs) a random fetch per triangle.
#[inline]
pub(super) fn given_box(p: &Bounds, tri: u32, tri_aabbs: &[Aabb]) -> Aabb {
    if p.lo.cmpgt(p.hi).any() {
        // Empty or inverted (as given, or from a NaN).
        return tri_aabbs[tri as usize];
    }
    Aabb {
        min: p.lo.into(),
        max: p.hi.into(),
    }
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

fn leaf_node(r: &Range) -> BinaryNode {
    BinaryNode {
        aabb_min: r.bounds.lo.into(),
        first: r.start as u32,
        aabb_max: r.bounds.hi.into(),
        count: (r.end - r.start) as u32,
    }
}

/// Cuts the range in half, whatever the order: the fallback when no plane
/// separates the centroids. Any cut is as good as another then.
fn halve(work: &Work, r: &Range) -> [Task; 2] {
    let mid = (r.start + r.end) / 2;
    let task = |range| Task {
        node: 0,
        range,
        binned: None,
    };
    [task(work.range(r.start, mid)), task(work.range(mid, r.end))]
}
