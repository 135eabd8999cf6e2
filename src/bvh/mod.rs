//! Bounding volume hierarchy over per-triangle AABBs (world space, `f32`).
//!
//! CONTRACT (skeleton): the BVH helper replaces the bodies; signatures are
//! what the solver, the GUI and the CLI code against.

use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use serde::{Deserialize, Serialize};

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

/// A structural problem found by [`Bvh::validate`].
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BvhError {
    /// Placeholder until implemented.
    #[error("invalid BVH: {0}")]
    Invalid(String),
}

/// Flat-array BVH: node 0 is the root; leaves index a reordered triangle list.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    /// Nodes, root first; children of an inner node are adjacent.
    pub nodes: Vec<BvhNode>,
    /// Triangle indices, reordered so that each leaf is a contiguous range.
    pub tri_indices: Vec<u32>,
}

/// Reusable traversal stack, so queries do not allocate.
#[derive(Clone, Debug, Default)]
pub struct BvhScratch {
    /// Pending node indices.
    pub stack: Vec<u32>,
}

impl Bvh {
    /// Builds with a binned SAH over `tri_aabbs` (one box per triangle).
    pub fn build(tri_aabbs: &[Aabb]) -> Bvh {
        let _ = tri_aabbs;
        unimplemented!("bvh build")
    }

    /// Checks every invariant: children inside parents, every triangle in exactly one leaf, leaf boxes contain their triangles' boxes.
    pub fn validate(&self, tri_aabbs: &[Aabb]) -> Result<(), BvhError> {
        let _ = tri_aabbs;
        unimplemented!("bvh validate")
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
        let _ = (tri_aabbs, query, scratch, out, visited, stats);
        unimplemented!("bvh query")
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
        let _ = (mesh, origin, dir, max_t, scratch, stats);
        unimplemented!("bvh ray")
    }

    /// Whole-tree statistics.
    pub fn stats(&self) -> BvhStats {
        unimplemented!("bvh stats")
    }

    /// Depth of every node (root = 0), for colouring by depth.
    pub fn node_depths(&self) -> Vec<u32> {
        unimplemented!("bvh depths")
    }

    /// The box of node `i`.
    pub fn node_aabb(&self, i: u32) -> Aabb {
        let n = &self.nodes[i as usize];
        Aabb { min: n.aabb_min, max: n.aabb_max }
    }
}
