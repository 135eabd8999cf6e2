//! The parallel build: the same tree as the single-threaded [`build`](super::build),
//! node for node, with large subtrees built on other threads (rayon).
//!
//! Why: the BVH build is about half of a big level's load, and it splits
//! naturally. Every decision for a node (its binning, its SAH plane, the
//! partition of its range) depends only on the triangles in its range, in
//! the order its ancestors' partitions left them, and on the binning its
//! parent filled; never on a sibling subtree. So the two children of a node
//! can be built at the same time over disjoint runs of the working arrays
//! (`rayon::join`), and each makes exactly the decisions the sequential
//! build makes, with the same code (`Builder::divide` and `Builder::subtree`).
//!
//! How: a range of more than `grain` triangles is divided here and its two
//! children built in parallel; a range of at most `grain` is built
//! sequentially into its own node array (a [`Part`]). The parts are then
//! laid out in the sequential build's order (a node, its two children next
//! to each other, then the left child's descendants, then the right's)
//! with their child indices offset. Leaf ranges need no offset: every thread
//! works on absolute positions of the one shared `tri_indices`. The only
//! extra work is one copy of the nodes (a few ms for a million triangles).

use super::{Binning, Bounds, Builder, Range, Task, Work, given_box, leaf_node, working_box};
use crate::bvh::binary::{BinaryNode, BinaryTree};
use crate::math::Aabb;
use rayon::prelude::*;

/// Ranges of more triangles than this are split across threads by default:
/// large enough that a task's overhead (a few allocations, one copy of its
/// nodes) is negligible, small enough (about 60 tasks per million
/// triangles) for work stealing to even out unbalanced splits.
pub(in crate::bvh) const GRAIN: usize = 1 << 14;

/// Builds the tree of [`super::build`] using rayon's threads: subtrees of
/// more than `grain` triangles are split between threads.
pub(in crate::bvh) fn build(tri_aabbs: &[Aabb], max_leaf: usize, grain: usize) -> BinaryTree {
    let n = tri_aabbs.len();
    if n == 0 {
        return BinaryTree::default();
    }
    let max_leaf = max_leaf.max(1);
    let mut prims: Vec<Bounds> = tri_aabbs.par_iter().map(working_box).collect();
    let mut tri_indices: Vec<u32> = (0..n as u32).into_par_iter().collect();
    let mut bin_idx = vec![0u8; n];
    let work = Work {
        base: 0,
        prims: &mut prims,
        tri_indices: &mut tri_indices,
        bin_idx: &mut bin_idx,
    };
    // One sequential pass, as in the sequential build (as are the root's
    // binning and partition, in `subtree`): a parallel reduction would take
    // the min / max in another order, and the order shows in the result
    // for a -0.0 next to a 0.0 (SIMD min / max keep one operand when they
    // compare equal) and for a NaN centroid (a box from -inf to +inf).
    let root = work.range(0, n);
    let nodes = match subtree(work, root, None, max_leaf, grain) {
        // Small enough for one thread: laid out already.
        Part::Seq(nodes) => nodes,
        part => {
            let mut nodes = Vec::with_capacity(part.len());
            nodes.push(part.root(1));
            part.append_descendants(&mut nodes);
            nodes
        }
    };
    let pairs = prims.par_iter().zip(&tri_indices);
    let leaf_aabbs = pairs.map(|(p, &t)| given_box(p, t, tri_aabbs)).collect();
    BinaryTree {
        nodes,
        tri_indices,
        leaf_aabbs,
    }
}

/// A subtree built on its own.
enum Part {
    /// Built by one thread: its nodes, root first, inner nodes' `first`
    /// indexing this array (so never 0: children come after their parent).
    Seq(Vec<BinaryNode>),
    /// A node divided here, its children built in parallel. `len` counts
    /// the node and all its descendants.
    Split {
        node: BinaryNode,
        len: usize,
        children: Box<[Part; 2]>,
    },
}

impl Part {
    /// Nodes in this subtree, its root included.
    fn len(&self) -> usize {
        match self {
            Part::Seq(nodes) => nodes.len(),
            Part::Split { len, .. } => *len,
        }
    }

    /// The root node, for a final array in which this subtree's descendants
    /// start at `desc_start`.
    fn root(&self, desc_start: usize) -> BinaryNode {
        match self {
            Part::Seq(nodes) => offset(nodes[0], desc_start),
            Part::Split { node, .. } => BinaryNode {
                first: desc_start as u32,
                count: 0,
                ..*node
            },
        }
    }

    /// Appends this subtree's descendants (all its nodes but the root) to
    /// `out`, in the sequential build's order.
    fn append_descendants(&self, out: &mut Vec<BinaryNode>) {
        let desc_start = out.len();
        match self {
            Part::Seq(nodes) => out.extend(nodes[1..].iter().map(|&n| offset(n, desc_start))),
            Part::Split { children, .. } => {
                let [left, right] = &**children;
                // The two children side by side, then the left's
                // descendants, then the right's.
                let left_desc = desc_start + 2;
                let right_desc = left_desc + left.len() - 1;
                out.push(left.root(left_desc));
                out.push(right.root(right_desc));
                left.append_descendants(out);
                right.append_descendants(out);
            }
        }
    }
}

/// A node of a [`Part::Seq`] moved to the final array, where the part's
/// node `i >= 1` lands at `desc_start + i - 1`: inner nodes' child index
/// moves with it; leaves keep their (absolute) triangle range.
fn offset(node: BinaryNode, desc_start: usize) -> BinaryNode {
    if node.is_leaf() {
        node
    } else {
        BinaryNode {
            first: node.first - 1 + desc_start as u32,
            ..node
        }
    }
}

/// Builds the subtree over `range` (binned as `binned` by its parent's
/// partition, if it was), splitting it between threads while it holds more
/// than `grain` triangles.
fn subtree(
    work: Work,
    range: Range,
    binned: Option<Binning>,
    max_leaf: usize,
    grain: usize,
) -> Part {
    let mut b = Builder::new(work, max_leaf);
    let slot = binned.map(|binning| b.pool.insert(binning));
    // `divide` needs more than `max_leaf` triangles.
    if range.end - range.start <= grain.max(max_leaf) {
        b.subtree(range, slot);
        return Part::Seq(b.nodes);
    }
    let [left, right] = b.divide(&range, slot);
    let binning = |t: &Task| t.binned.map(|s| b.pool.slots[s]);
    let (left_binned, right_binned) = (binning(&left), binning(&right));
    let (left_work, right_work) = b.work.split_at(left.range.end);
    let (left, right) = rayon::join(
        || subtree(left_work, left.range, left_binned, max_leaf, grain),
        || subtree(right_work, right.range, right_binned, max_leaf, grain),
    );
    Part::Split {
        node: leaf_node(&range),
        len: 1 + left.len() + right.len(),
        children: Box::new([left, right]),
    }
}

impl<'a> Work<'a> {
    /// Splits into `base..mid` and `mid..` (absolute positions).
    fn split_at(self, mid: usize) -> (Work<'a>, Work<'a>) {
        let k = mid - self.base;
        let (prims_l, prims_r) = self.prims.split_at_mut(k);
        let (tri_l, tri_r) = self.tri_indices.split_at_mut(k);
        let (bin_l, bin_r) = self.bin_idx.split_at_mut(k);
        (
            Work {
                base: self.base,
                prims: prims_l,
                tri_indices: tri_l,
                bin_idx: bin_l,
            },
            Work {
                base: mid,
                prims: prims_r,
                tri_indices: tri_r,
                bin_idx: bin_r,
            },
        )
    }
}
