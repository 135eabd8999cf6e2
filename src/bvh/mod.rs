//! Bounding volume hierarchy over per-triangle AABBs, world space, `f32`.
//!
//! The tree is a flat array of 4-wide nodes (`BvhNode`, 128 bytes): node
//! 0 is the root, each node holds up to four child boxes, and a leaf is a
//! contiguous range of the tree's triangle index array, which the build reorders. It is
//! built top-down as a binary tree with a binned surface area heuristic
//! (Wald 2007, "On fast construction of SAH-based bounding volume
//! hierarchies"; the layout follows Jacco Bikker's "How to build a BVH"
//! series and the PBRT v3 `BVHAccel`), then collapsed to four children per
//! node, which halves the node reads of a descent. It answers the questions the
//! tool asks: which triangles' boxes overlap a box (the solver's swept box,
//! once per slide iteration) and which triangle a ray hits first (mouse
//! picking). Queries never allocate: a [`BvhScratch`] keeps the stack.
//!
//! - `build`: binned SAH construction of the binary tree (`binary`);
//!   `build::parallel`: the same tree, node for node, with large subtrees
//!   built on rayon's threads; `collapse`: binary to 4-wide.
//! - `node`: the 4-wide node and its slots.
//! - `query`: box and ray traversal.
//! - `validate`: structural checks and [`BvhError`].
//! - `stats`: [`BvhStats`] and node depths.
//! - `huge_pages`: a level's nodes and leaf corners in 2 MiB pages.

mod binary;
mod build;
mod collapse;
mod huge_pages;
mod node;
mod query;
mod stats;
mod swept;
mod validate;
mod vertical;

#[cfg(test)]
mod tests;

use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use serde::{Deserialize, Serialize};

pub(crate) use node::{BvhNode, Slot};
#[cfg(test)]
use query::ray_triangle;
pub use swept::RoundedProbe;
pub use validate::BvhError;
pub use vertical::vertical_line_triangle;

/// Counters a query fills in; the solver copies them into its trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryStats {
    /// Nodes entered (each entry tests the boxes of its four slots at once).
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
    /// Number of (4-wide) nodes.
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Depth of the deepest leaf: the depth of the node holding it (root = 0).
    pub max_depth: usize,
    /// `leaf_size_histogram[k]` = number of leaves holding exactly `k` triangles.
    pub leaf_size_histogram: Vec<usize>,
    /// Bytes used by the nodes, the triangle index array and the
    /// leaf-ordered triangle boxes or corners.
    pub memory_bytes: usize,
}

/// Flat-array 4-wide BVH: node 0 is the root; leaves index a reordered triangle list.
///
/// A BVH over no triangles has no nodes, and every query on it finds nothing.
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    /// Nodes, root first, each followed by its subtree (depth-first).
    pub(crate) nodes: Vec<BvhNode>,
    /// Triangle indices, reordered so that each leaf is a contiguous range.
    pub(crate) tri_indices: Vec<u32>,
    /// The triangles' boxes in `tri_indices` order, so that the boxes of a
    /// leaf are one contiguous read. The solver's search reads these: on a
    /// big level, fetching the mesh's boxes (in triangle order) through
    /// `tri_indices` costs a cache miss per triangle, and it was the largest
    /// single cost of a slide (see BENCHMARKS.md).
    pub(crate) leaf_aabbs: Vec<Aabb>,
    /// The triangles' corners in `tri_indices` order, for a tree built over
    /// a mesh ([`Bvh::build_for_mesh`]); empty otherwise. When present they
    /// replace [`Bvh::leaf_aabbs`] (then empty): a walk takes each
    /// triangle's box from its corners, bit for bit the mesh's box, and
    /// hands the corners to the caller's test, so that a leaf's triangles
    /// are one contiguous read instead of a chain of dependent fetches per
    /// triangle (its index, its three corner indices, its corners), which
    /// on levels larger than the caches cost a miss each (BENCHMARKS.md,
    /// "The tree walk on big levels").
    pub(crate) leaf_tris: Vec<LeafTri>,
    /// The root's [`BvhNode::largest_coordinate`] (0 with no nodes), kept
    /// because every swept search sizes its rounding pad from it: read
    /// from the root per search, it was a few percent of a move through
    /// open space.
    pub(crate) root_largest: f32,
}

/// One triangle of a leaf as a tree built over a mesh keeps it: its
/// corners and its index, 40 bytes, so that a walk reads a leaf's
/// triangles, boxes and names in one contiguous run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LeafTri {
    /// The triangle's corners, world space, as the mesh has them.
    pub(crate) corners: [Vec3; 3],
    /// The triangle's index in the mesh (its entry of `tri_indices`).
    pub(crate) tri: u32,
}

/// The leaf-ordered boxes of a run of triangles: copies of the mesh's
/// boxes, or the triangles' corners, from which [`LeafBoxes::get`] makes
/// the same box, bit for bit, as the mesh does ([`Aabb::from_points`]).
#[derive(Clone, Copy)]
pub(crate) enum LeafBoxes<'a> {
    /// [`Bvh::leaf_aabbs`].
    Boxes(&'a [Aabb]),
    /// [`Bvh::leaf_tris`].
    Corners(&'a [LeafTri]),
}

impl LeafBoxes<'_> {
    /// The box of the `k`-th triangle of the run.
    #[inline(always)]
    pub(crate) fn get(&self, k: usize) -> Aabb {
        match self {
            LeafBoxes::Boxes(b) => b[k],
            LeafBoxes::Corners(c) => Aabb::from_points(c[k].corners),
        }
    }

    /// The corners of the `k`-th triangle, when the tree keeps them.
    #[inline(always)]
    pub(crate) fn corners(&self, k: usize) -> Option<&[Vec3; 3]> {
        match self {
            LeafBoxes::Boxes(_) => None,
            LeafBoxes::Corners(c) => Some(&c[k].corners),
        }
    }

    /// The `k`-th triangle of the run, which is `leaf[k]` (the run's
    /// entries of `tri_indices`): read from the run itself when it holds it.
    #[inline(always)]
    pub(crate) fn triangle(&self, k: usize, leaf: &[u32]) -> u32 {
        match self {
            LeafBoxes::Boxes(_) => leaf[k],
            LeafBoxes::Corners(c) => c[k].tri,
        }
    }
}

/// Reusable traversal stacks, so queries do not allocate.
#[derive(Clone, Debug, Default)]
pub struct BvhScratch {
    /// Pending node indices.
    pub(crate) stack: Vec<u32>,
    /// Pending slot ids with the time the moving box enters them (front-to-back sweeps).
    pub(crate) ordered: Vec<(u32, f32)>,
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

    /// A tree assembled by hand (tests): `nodes` and `tri_indices`
    /// as documented on the fields; the leaf-ordered boxes are filled in
    /// from `tri_aabbs`. Check the result with [`Bvh::validate`].
    #[cfg(test)]
    pub(crate) fn from_parts(
        nodes: Vec<BvhNode>,
        tri_indices: Vec<u32>,
        tri_aabbs: &[Aabb],
    ) -> Bvh {
        Bvh {
            root_largest: nodes.first().map_or(0.0, BvhNode::largest_coordinate),
            nodes,
            tri_indices,
            leaf_aabbs: Vec::new(),
            leaf_tris: Vec::new(),
        }
        .with_leaf_aabbs(tri_aabbs)
    }

    /// The 4-wide tree over a built binary one.
    fn from_binary(binary: binary::BinaryTree) -> Bvh {
        let nodes = collapse::collapse(&binary.nodes);
        Bvh {
            root_largest: nodes.first().map_or(0.0, BvhNode::largest_coordinate),
            nodes,
            tri_indices: binary.tri_indices,
            leaf_aabbs: binary.leaf_aabbs,
            leaf_tris: Vec::new(),
        }
    }

    /// [`Bvh::build`] over `mesh`'s triangle boxes, keeping each
    /// triangle's corners in leaf order instead of its box (see
    /// [`Bvh::leaf_tris`]): the same tree, the same answers from every
    /// query, and the searches of the solver hand each triangle's corners
    /// to its test. 40 bytes a triangle (corners and index) instead of 24.
    /// What a level builds.
    pub fn build_for_mesh(mesh: &TriMesh) -> Bvh {
        let mut bvh = Self::build(&mesh.tri_aabbs).with_leaf_tris(mesh);
        // What every move reads, scattered (the leaf corners are made
        // there already): see `huge_pages`.
        bvh.nodes = huge_pages::in_huge_pages(std::mem::take(&mut bvh.nodes));
        bvh
    }

    /// Replaces the leaf-ordered boxes by the leaf-ordered corners of
    /// `mesh`'s triangles (the mesh the tree was built over).
    fn with_leaf_tris(mut self, mesh: &TriMesh) -> Bvh {
        use rayon::prelude::*;
        let len = self.tri_indices.len();
        let mut leaf_tris = huge_pages::empty_in_huge_pages(len).unwrap_or_default();
        self.tri_indices
            .par_iter()
            .map(|&tri| LeafTri {
                corners: mesh.triangle(tri),
                tri,
            })
            .collect_into_vec(&mut leaf_tris);
        self.leaf_tris = leaf_tris;
        self.leaf_aabbs = Vec::new();
        self
    }

    /// The boxes of the triangles at positions `range` of
    /// [`Bvh::tri_indices`], as the walks test them: from the leaf-ordered
    /// corners or boxes, whichever the tree keeps; `None` for a tree
    /// assembled without either (its walks test every triangle).
    #[inline(always)]
    pub(crate) fn leaf_boxes(&self, range: std::ops::Range<usize>) -> Option<LeafBoxes<'_>> {
        if self.leaf_tris.is_empty() {
            self.leaf_aabbs.get(range).map(LeafBoxes::Boxes)
        } else {
            self.leaf_tris.get(range).map(LeafBoxes::Corners)
        }
    }

    /// Fills [`Bvh::leaf_aabbs`] from the boxes the tree was built over
    /// (an index out of range gets an empty box; `validate` reports it).
    #[cfg(test)]
    fn with_leaf_aabbs(mut self, tri_aabbs: &[Aabb]) -> Bvh {
        let copy = |&t: &u32| tri_aabbs.get(t as usize).copied().unwrap_or(Aabb::EMPTY);
        self.leaf_aabbs = self.tri_indices.iter().map(copy).collect();
        self
    }

    /// [`Bvh::build`] with leaves of at most `max_leaf` triangles (at least 1)
    /// instead of the default 8: for tuning and benchmarks. Smaller leaves mean
    /// more nodes (memory) and fewer triangle tests per query.
    pub fn build_with_leaf_size(tri_aabbs: &[Aabb], max_leaf: usize) -> Bvh {
        if rayon::current_num_threads() == 1 {
            // Nothing to share the work with: skip the parallel build's
            // bookkeeping (one copy of the nodes). The tree is the same.
            return Self::from_binary(build::build(tri_aabbs, max_leaf));
        }
        let binary = build::parallel::build(tri_aabbs, max_leaf, build::parallel::GRAIN);
        Self::from_binary(binary)
    }

    /// [`Bvh::build_with_leaf_size`] on the calling thread only, with no
    /// rayon involved: the reference the parallel build is tested against,
    /// and a fair single-core comparison.
    pub fn build_single_threaded(tri_aabbs: &[Aabb], max_leaf: usize) -> Bvh {
        Self::from_binary(build::build(tri_aabbs, max_leaf))
    }

    /// Checks every invariant: children inside parents, every triangle in exactly one leaf, leaf boxes contain their triangles' boxes.
    pub fn validate(&self, tri_aabbs: &[Aabb]) -> Result<(), BvhError> {
        validate::validate(self, tri_aabbs)
    }

    /// Appends to `out` every triangle whose AABB overlaps `query` (touching counts), each once.
    /// `visited`, when given, receives the slot id (`node * 4 + slot`) of
    /// every box that overlapped `query`.
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

    /// Appends to `out` every triangle whose box may lie within the
    /// rounded probe's reach where it stands (`probe` not moving; see
    /// [`RoundedProbe`]): those whose box overlaps the probe's box and lies
    /// within its rounding of its core, each once, in the order
    /// [`Bvh::query_aabb`] of the probe's box would list them. A triangle
    /// left out has its box farther than the rounding from the core (by
    /// more than a hair); a few just beyond it may be kept. The clearance's
    /// query: on a dense level the box around the probe holds thousands of
    /// small triangles in its corners, out of reach.
    pub fn query_rounded(
        &self,
        tri_aabbs: &[Aabb],
        probe: &RoundedProbe,
        scratch: &mut BvhScratch,
        out: &mut Vec<u32>,
        stats: &mut QueryStats,
    ) {
        swept::query_rounded(self, tri_aabbs, probe, scratch, out, stats);
    }

    /// [`Bvh::query_aabb`] that stops after `limit` triangles: appends at
    /// most `limit` of them (the first the walk meets, in a fixed order)
    /// and returns whether there were more. For searches that must stay
    /// linear on hostile input (a thousand boxes stacked on one spot).
    pub fn query_aabb_at_most(
        &self,
        tri_aabbs: &[Aabb],
        query: &Aabb,
        scratch: &mut BvhScratch,
        out: &mut Vec<u32>,
        limit: usize,
    ) -> bool {
        query::query_aabb_at_most(self, tri_aabbs, query, scratch, out, limit)
    }

    /// Appends to `out` every triangle whose AABB the box `start`, moving by
    /// `delta`, touches on its way (each once; a few it only grazes within
    /// rounding may be added). Tighter than [`Bvh::query_aabb`] on the box
    /// around the whole move: the solver's candidate query. `visited`, when
    /// given, receives the slot id of every box the moving box touched.
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

    /// Visits the triangles whose AABB (the tree's leaf-ordered copy) the box
    /// `start`, moving by `delta`, touches, nearer nodes first, and prunes by the caller's nearest hit:
    /// `visit(tri, corners)` tests a triangle (`corners`: its corners,
    /// when the tree keeps them, [`Bvh::build_for_mesh`]; else `None`) and returns the cutoff, the fraction of
    /// the move (`t` in `[0, 1]`) at which the nearest hit found so far
    /// happens (`f64::INFINITY` while there is none). Nodes and triangles
    /// the moving box only enters after the cutoff are skipped: whatever the
    /// box contains cannot touch them sooner. `visited`, when given,
    /// receives the slot id of every box searched. The solver's candidate search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn sweep_front_to_back(
        &self,
        start: &Aabb,
        delta: Vec3,
        scratch: &mut BvhScratch,
        visited: Option<&mut Vec<u32>>,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(u32, Option<&[Vec3; 3]>) -> f64,
    ) {
        swept::sweep_front_to_back(self, start, delta, None, scratch, visited, stats, visit);
    }

    /// [`Bvh::sweep_front_to_back`] for a rounded probe inside the box
    /// `start`: a triangle is also skipped when its box lies farther than
    /// the probe's rounding from the probe's core over the part of the move
    /// before the cutoff (see [`RoundedProbe`]), which the probe cannot
    /// touch there. On a dense level most of the triangles whose boxes the
    /// probe's box touches lie in the box's corners, out of the probe's
    /// reach: the conference room's chairs put thousands in a character's
    /// box (BENCHMARKS.md, "Character frames on dense levels").
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn sweep_front_to_back_rounded(
        &self,
        start: &Aabb,
        delta: Vec3,
        probe: &RoundedProbe,
        scratch: &mut BvhScratch,
        visited: Option<&mut Vec<u32>>,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(u32, Option<&[Vec3; 3]>) -> f64,
    ) {
        swept::sweep_front_to_back(
            self,
            start,
            delta,
            Some(probe),
            scratch,
            visited,
            stats,
            visit,
        );
    }

    /// `true` when the box `start`, moving by `delta`, touches no
    /// triangle's box (the tree's leaf-ordered copy): then
    /// [`Bvh::sweep_front_to_back`] of the same box and move would visit
    /// no triangle, and `stats` holds exactly the counters it would have
    /// (every node and leaf it would enter). `false` as soon as one box is
    /// touched (`stats` is then partial), when an input is not finite, or
    /// on a tree far deeper than a balanced one (the walk keeps its pending
    /// nodes in a fixed array).
    ///
    /// The solver's shortcut for a move through open space: a plain
    /// depth-first walk with no ordering and no callback, cheaper than the
    /// ordered search it spares (open-space moves became 1.3-1.4x faster
    /// as a whole; BENCHMARKS.md), and a few node tests wasted where it
    /// finds a box and the ordered search follows.
    #[inline(always)]
    pub fn sweep_reaches_nothing(&self, start: &Aabb, delta: Vec3, stats: &mut QueryStats) -> bool {
        let mover = swept::MovingBox::new(start, delta, self.root_largest);
        swept::sweep_reaches_nothing(self, mover, stats)
    }

    /// Whether a box that contains `center ± half` (world space, `f64`,
    /// exact), moving by `delta`, touches no triangle's box: as
    /// [`Bvh::sweep_reaches_nothing`] for that box, with no counters. The
    /// box is made in `f32` straight from the centre and half-extents,
    /// widened by a bound on the rounding and by at least `1e-12` of the
    /// centre's largest coordinate, which is a shorter chain of dependent
    /// steps than rounding each corner (the walk waits on it, and in open
    /// space the walk is most of a move).
    #[inline(always)]
    pub(crate) fn sweep_reaches_nothing_around(
        &self,
        center: glam::DVec3,
        half: glam::DVec3,
        delta: Vec3,
    ) -> bool {
        let mover = swept::MovingBox::around(center, half, delta, self.root_largest);
        swept::sweep_reaches_nothing(self, mover, &mut QueryStats::default())
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
        query::ray_cast(self, mesh, origin, dir, max_t, |_| true, scratch, stats)
    }

    /// Closest hit of the ray on a triangle `accept` takes, as
    /// [`Bvh::ray_cast`]; the others are not there for it, so a triangle
    /// taken that lies at the same distance as one left out (a floor under
    /// a closed door's bottom face, a liquid's two sheets) is still met.
    #[allow(clippy::too_many_arguments)]
    pub fn ray_cast_where(
        &self,
        mesh: &TriMesh,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
        accept: impl Fn(u32) -> bool,
        scratch: &mut BvhScratch,
        stats: &mut QueryStats,
    ) -> Option<RayHit> {
        query::ray_cast(self, mesh, origin, dir, max_t, accept, scratch, stats)
    }

    /// Whole-tree statistics.
    pub fn stats(&self) -> BvhStats {
        stats::stats(self)
    }

    /// Depth of every node (root = 0), for colouring by depth. A node the
    /// root does not reach (only in a BVH that fails [`Bvh::validate`]) gets `u32::MAX`.
    #[cfg(test)]
    pub(crate) fn node_depths(&self) -> Vec<u32> {
        stats::node_depths(self)
    }

    /// The box of node `i`: around its slots.
    #[cfg(test)]
    pub(crate) fn node_aabb(&self, i: u32) -> Aabb {
        self.nodes[i as usize].aabb()
    }

    /// The box of the slot with id `id` (`node * 4 + slot`, as the
    /// queries' visited lists hold them), or `None` if there is no such
    /// slot or it is empty.
    pub(crate) fn slot_aabb(&self, id: u32) -> Option<Aabb> {
        let node = self.nodes.get((id / 4) as usize)?;
        let k = (id % 4) as usize;
        (!node.is_empty_slot(k)).then(|| node.slot_aabb(k))
    }

    /// What the slot with id `id` holds ([`Slot::Empty`] if there is no such slot).
    pub(crate) fn slot(&self, id: u32) -> Slot {
        self.nodes
            .get((id / 4) as usize)
            .map_or(Slot::Empty, |n| n.slot((id % 4) as usize))
    }
}
