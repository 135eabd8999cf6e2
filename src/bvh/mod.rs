//! Bounding volume hierarchy over per-triangle AABBs, world space, `f32`.
//!
//! The tree is a flat array of 32-byte nodes: node 0 is the root, the two
//! children of an inner node sit next to each other (right = left + 1) and a
//! leaf is a contiguous range of [`Bvh::tri_indices`], which the build
//! reorders. It is built top-down with a binned surface area heuristic
//! (Wald 2007, "On fast construction of SAH-based bounding volume
//! hierarchies"; the layout follows Jacco Bikker's "How to build a BVH"
//! series and the PBRT v3 `BVHAccel`), and answers the two questions the
//! tool asks: which triangles' boxes overlap a box (the solver's swept box,
//! once per slide iteration) and which triangle a ray hits first (mouse
//! picking). Queries never allocate: a [`BvhScratch`] keeps the stack.
//!
//! - `build`: binned SAH construction; `build_parallel`: the same tree,
//!   node for node, with large subtrees built on rayon's threads.
//! - `query`: box and ray traversal.
//! - `validate`: structural checks and [`BvhError`].
//! - `stats`: [`BvhStats`] and node depths.

mod build;
mod query;
mod stats;
mod swept;
mod validate;

#[cfg(test)]
mod tests;

use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use serde::{Deserialize, Serialize};

pub use query::ray_triangle;
pub use validate::BvhError;

/// One node, 32 bytes: its box, and either two children or a leaf range.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct BvhNode {
    /// Bounds of everything below this node.
    pub aabb_min: Vec3,
    /// Leaf: index of the first entry in [`Bvh::tri_indices`]; inner: index of the left child (right = left + 1).
    pub first: u32,
    /// Bounds of everything below this node.
    pub aabb_max: Vec3,
    /// Leaf: number of triangles (> 0); inner: 0.
    pub count: u32,
}

// Two nodes share a 64-byte cache line; the layout is part of the contract.
const _: () = assert!(std::mem::size_of::<BvhNode>() == 32);

impl BvhNode {
    /// `true` for a leaf (it holds triangles rather than children).
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// The node's box.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb {
            min: self.aabb_min,
            max: self.aabb_max,
        }
    }
}

/// Counters a query fills in; the solver copies them into its trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryStats {
    /// Nodes whose box was tested.
    pub nodes_visited: u32,
    /// Triangles whose box (or, for rays, the triangle itself) was tested.
    pub triangles_tested: u32,
}

/// A ray hit against the mesh.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RayHit {
    /// Triangle index in the mesh.
    pub triangle: u32,
    /// Ray parameter of the hit (`origin + t * dir`).
    pub t: f32,
    /// Barycentric coordinates (u, v) of the hit on the triangle.
    pub uv: [f32; 2],
}

/// Whole-tree statistics, for the level panel and `collidoscope info`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BvhStats {
    /// Number of nodes.
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Depth of the deepest leaf (root = 0).
    pub max_depth: usize,
    /// `leaf_size_histogram[k]` = number of leaves holding exactly `k` triangles.
    pub leaf_size_histogram: Vec<usize>,
    /// Bytes used by nodes and the triangle index array.
    pub memory_bytes: usize,
}

/// Flat-array BVH: node 0 is the root; leaves index a reordered triangle list.
///
/// A BVH over no triangles has no nodes, and every query on it finds nothing.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    /// Nodes, root first; children of an inner node are adjacent.
    pub nodes: Vec<BvhNode>,
    /// Triangle indices, reordered so that each leaf is a contiguous range.
    pub tri_indices: Vec<u32>,
    /// The triangles' boxes in `tri_indices` order, so that the boxes of a
    /// leaf are one contiguous read. The solver's search reads these: on a
    /// big level, fetching the mesh's boxes (in triangle order) through
    /// `tri_indices` costs a cache miss per triangle, and it was the largest
    /// single cost of a slide (see BENCHMARKS.md).
    pub leaf_aabbs: Vec<Aabb>,
}

/// Reusable traversal stacks, so queries do not allocate.
#[derive(Clone, Debug, Default)]
pub struct BvhScratch {
    /// Pending node indices.
    pub stack: Vec<u32>,
    /// Pending nodes with the time the moving box enters them (front-to-back sweeps).
    pub ordered: Vec<(u32, f32)>,
}

impl Bvh {
    /// Leaves hold at most this many triangles in [`Bvh::build`].
    pub const DEFAULT_MAX_LEAF: usize = build::MAX_LEAF;

    /// Builds with a binned SAH over `tri_aabbs` (one box per triangle),
    /// large subtrees in parallel on rayon's threads (the current pool). The
    /// tree is the same, node for node, as [`Bvh::build_single_threaded`]'s.
    pub fn build(tri_aabbs: &[Aabb]) -> Bvh {
        Self::build_with_leaf_size(tri_aabbs, build::MAX_LEAF)
    }

    /// A tree assembled by hand (tests, tools): `nodes` and `tri_indices`
    /// as documented on the fields; the leaf-ordered boxes are filled in
    /// from `tri_aabbs`. Check the result with [`Bvh::validate`].
    pub fn from_parts(nodes: Vec<BvhNode>, tri_indices: Vec<u32>, tri_aabbs: &[Aabb]) -> Bvh {
        Bvh {
            nodes,
            tri_indices,
            leaf_aabbs: Vec::new(),
        }
        .with_leaf_aabbs(tri_aabbs, false)
    }

    /// Fills [`Bvh::leaf_aabbs`] from the boxes the tree was built over
    /// (an index out of range gets an empty box; `validate` reports it), on
    /// rayon's threads when `parallel` (a random read per triangle: worth
    /// sharing on big levels).
    fn with_leaf_aabbs(mut self, tri_aabbs: &[Aabb], parallel: bool) -> Bvh {
        use rayon::prelude::*;
        let copy = |&t: &u32| tri_aabbs.get(t as usize).copied().unwrap_or(Aabb::EMPTY);
        self.leaf_aabbs = if parallel {
            self.tri_indices.par_iter().map(copy).collect()
        } else {
            self.tri_indices.iter().map(copy).collect()
        };
        self
    }

    /// [`Bvh::build`] with leaves of at most `max_leaf` triangles (at least 1)
    /// instead of the default 6: for tuning and benchmarks. Smaller leaves mean
    /// more nodes (memory) and fewer triangle tests per query.
    pub fn build_with_leaf_size(tri_aabbs: &[Aabb], max_leaf: usize) -> Bvh {
        if rayon::current_num_threads() == 1 {
            // Nothing to share the work with: skip the parallel build's
            // bookkeeping (one copy of the nodes). The tree is the same.
            return build::build(tri_aabbs, max_leaf).with_leaf_aabbs(tri_aabbs, false);
        }
        build::parallel::build(tri_aabbs, max_leaf, build::parallel::GRAIN)
            .with_leaf_aabbs(tri_aabbs, true)
    }

    /// [`Bvh::build_with_leaf_size`] on the calling thread only, with no
    /// rayon involved: the reference the parallel build is tested against,
    /// and a fair single-core comparison.
    pub fn build_single_threaded(tri_aabbs: &[Aabb], max_leaf: usize) -> Bvh {
        build::build(tri_aabbs, max_leaf).with_leaf_aabbs(tri_aabbs, false)
    }

    /// Checks every invariant: children inside parents, every triangle in exactly one leaf, leaf boxes contain their triangles' boxes.
    pub fn validate(&self, tri_aabbs: &[Aabb]) -> Result<(), BvhError> {
        validate::validate(self, tri_aabbs)
    }

    /// Appends to `out` every triangle whose AABB overlaps `query` (touching counts), each once.
    /// `visited`, when given, receives the index of every node whose box overlapped `query`.
    pub fn query_aabb(
        &self,
        tri_aabbs: &[Aabb],
        query: &Aabb,
        scratch: &mut BvhScratch,
        out: &mut Vec<u32>,
        visited: Option<&mut Vec<u32>>,
        stats: &mut QueryStats,
    ) {
        query::query_aabb(self, tri_aabbs, query, scratch, out, visited, stats)
    }

    /// Appends to `out` every triangle whose AABB the box `start`, moving by
    /// `delta`, touches on its way (each once; a few it only grazes within
    /// rounding may be added). Tighter than [`Bvh::query_aabb`] on the box
    /// around the whole move: the solver's candidate query. `visited`, when
    /// given, receives every node the moving box touched.
    #[allow(clippy::too_many_arguments)]
    pub fn query_swept_aabb(
        &self,
        tri_aabbs: &[Aabb],
        start: &Aabb,
        delta: Vec3,
        scratch: &mut BvhScratch,
        out: &mut Vec<u32>,
        visited: Option<&mut Vec<u32>>,
        stats: &mut QueryStats,
    ) {
        swept::query_swept_aabb(self, tri_aabbs, start, delta, scratch, out, visited, stats);
    }

    /// Visits the triangles whose AABB (from [`Bvh::leaf_aabbs`]) the box
    /// `start`, moving by `delta`, touches, nearer nodes first, and prunes by the caller's nearest hit:
    /// `visit(tri)` tests a triangle and returns the cutoff, the fraction of
    /// the move (`t` in `[0, 1]`) at which the nearest hit found so far
    /// happens (`f64::INFINITY` while there is none). Nodes and triangles
    /// the moving box only enters after the cutoff are skipped: whatever the
    /// box contains cannot touch them sooner. `visited`, when given,
    /// receives every node searched. The solver's candidate search.
    #[allow(clippy::too_many_arguments)]
    pub fn sweep_front_to_back(
        &self,
        start: &Aabb,
        delta: Vec3,
        scratch: &mut BvhScratch,
        visited: Option<&mut Vec<u32>>,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(u32) -> f64,
    ) {
        swept::sweep_front_to_back(self, start, delta, scratch, visited, stats, visit);
    }

    /// Closest hit of the ray `origin + t * dir`, `t` in `[0, max_t]`, two-sided triangles.
    pub fn ray_cast(
        &self,
        mesh: &TriMesh,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
        scratch: &mut BvhScratch,
        stats: &mut QueryStats,
    ) -> Option<RayHit> {
        query::ray_cast(self, mesh, origin, dir, max_t, scratch, stats)
    }

    /// Whole-tree statistics.
    pub fn stats(&self) -> BvhStats {
        stats::stats(self)
    }

    /// Depth of every node (root = 0), for colouring by depth. A node the
    /// root does not reach (only in a BVH that fails [`Bvh::validate`]) gets `u32::MAX`.
    pub fn node_depths(&self) -> Vec<u32> {
        stats::node_depths(self)
    }

    /// The box of node `i`.
    pub fn node_aabb(&self, i: u32) -> Aabb {
        self.nodes[i as usize].aabb()
    }
}
