//! The figures the level panel shows for the broad phases: build cost,
//! sizes, and the cost of the same box queries through the BVH, the grid
//! and sweep-and-prune, with what the bounding volumes reject. Plain data,
//! world space, times in seconds.

use super::{BoundingVolumes, GridQueryStats, Rejections, SweepAndPrune, UniformGrid};
use crate::bvh::{BvhScratch, QueryStats};
use crate::level::Level;
use crate::math::{Aabb, Vec3};
use std::time::Instant;

/// Build and total query time of one broad phase, seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTiming {
    /// Building the structure (for the BVH: the level's build).
    pub build_s: f64,
    /// All the report's queries together.
    pub queries_s: f64,
    /// Triangle boxes (or grid entries) tested by all the queries.
    pub tested: u64,
}

/// Broad-phase figures of one level for a set of query boxes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BroadPhaseReport {
    /// Triangles in the level.
    pub triangles: usize,
    /// Query boxes (the probes' swept boxes, or a lattice of probe-sized boxes).
    pub queries: usize,
    /// Candidates the queries found, summed (the same for every phase when `agree`).
    pub candidates: u64,
    /// `true` when the BVH, the grid and sweep-and-prune found the same sets.
    pub agree: bool,
    /// The BVH.
    pub bvh: PhaseTiming,
    /// The uniform grid.
    pub grid: PhaseTiming,
    /// Cell side, metres.
    pub grid_cell_size: f32,
    /// Cells along x, y, z.
    pub grid_dims: [u32; 3],
    /// Cells holding a triangle.
    pub grid_occupied: usize,
    /// Cell entries (a triangle once per cell its box touches).
    pub grid_entries: usize,
    /// Most triangles in one cell.
    pub grid_max_per_cell: usize,
    /// Sweep-and-prune; `queries_s` includes one update (repair and sweep).
    pub sap: PhaseTiming,
    /// Bounds in the sorted list.
    pub sap_endpoints: usize,
    /// (probe, object) pairs of the sweep.
    pub sap_pairs: usize,
    /// Swaps the insertion sort made after moving every box by a small step.
    pub sap_repair_swaps: usize,
    /// Time of that repair and sweep, seconds.
    pub sap_repair_s: f64,
    /// Fitting the bounding volumes, seconds.
    pub volumes_build_s: f64,
    /// What the volumes rejected, summed over the queries.
    pub rejections: Rejections,
}

impl BroadPhaseReport {
    /// Builds the grid, sweep-and-prune and the volumes for `level` and runs
    /// every box of `queries` through the three broad phases.
    pub fn measure(level: &Level, queries: &[Aabb]) -> BroadPhaseReport {
        let mesh = level.mesh();
        let tri_aabbs = mesh.tri_aabbs();
        let mut r = BroadPhaseReport {
            triangles: mesh.triangle_count(),
            queries: queries.len(),
            agree: true,
            ..BroadPhaseReport::default()
        };
        r.bvh.build_s = level.build_time.as_secs_f64();
        let bvh_sets = r.run_bvh(level, queries);

        let t = Instant::now();
        let grid = UniformGrid::build(tri_aabbs);
        r.grid.build_s = t.elapsed().as_secs_f64();
        (r.grid_cell_size, r.grid_dims) = (grid.cell_size(), grid.dims());
        (r.grid_occupied, r.grid_entries) = (grid.occupied_cells(), grid.entry_count());
        r.grid_max_per_cell = grid.max_per_cell();
        let t = Instant::now();
        let mut stats = GridQueryStats::default();
        let mut grid_sets = Vec::with_capacity(queries.len());
        for q in queries {
            let mut out = Vec::new();
            grid.query_aabb(tri_aabbs, q, &mut out, &mut stats);
            grid_sets.push(out);
        }
        r.grid.queries_s = t.elapsed().as_secs_f64();
        r.grid.tested = stats.entries_tested as u64;
        r.agree &= same_sets(&bvh_sets, &mut grid_sets);

        let mut sap_sets = r.run_sap(level, queries);
        r.agree &= same_sets(&bvh_sets, &mut sap_sets);

        let t = Instant::now();
        let volumes = BoundingVolumes::build(mesh);
        r.volumes_build_s = t.elapsed().as_secs_f64();
        let mut keep = Vec::new();
        for q in queries {
            let one = volumes.reject(q, &mut keep);
            add_rejections(&mut r.rejections, &one);
        }
        r
    }

    fn run_bvh(&mut self, level: &Level, queries: &[Aabb]) -> Vec<Vec<u32>> {
        let (mut scratch, mut stats) = (BvhScratch::default(), QueryStats::default());
        let t = Instant::now();
        let mut sets = Vec::with_capacity(queries.len());
        for q in queries {
            let mut out = Vec::new();
            let tris = level.mesh().tri_aabbs();
            level
                .bvh()
                .query_aabb(tris, q, &mut scratch, &mut out, None, &mut stats);
            sets.push(out);
        }
        self.bvh.queries_s = t.elapsed().as_secs_f64();
        self.bvh.tested = stats.triangles_tested as u64;
        self.candidates = sets.iter().map(|s| s.len() as u64).sum();
        for s in &mut sets {
            s.sort_unstable();
        }
        sets
    }

    fn run_sap(&mut self, level: &Level, queries: &[Aabb]) -> Vec<Vec<u32>> {
        let tri_aabbs = level.mesh().tri_aabbs();
        let t = Instant::now();
        let mut sap = SweepAndPrune::new(level.mesh());
        sap.update(queries);
        self.sap.build_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut sets = Vec::with_capacity(queries.len());
        for p in 0..queries.len() {
            let mut out = Vec::new();
            self.sap.tested += sap.candidates(tri_aabbs, p, &mut out) as u64;
            sets.push(out);
        }
        self.sap.queries_s = t.elapsed().as_secs_f64();
        (self.sap_endpoints, self.sap_pairs) = (sap.stats().endpoints, sap.stats().pairs);
        // One frame later: every box a few centimetres on.
        let step = Vec3::new(0.05, 0.0, 0.03);
        let moved: Vec<Aabb> = queries
            .iter()
            .map(|q| Aabb::from_corners(q.min + step, q.max + step))
            .collect();
        let t = Instant::now();
        self.sap_repair_swaps = sap.update(&moved).swaps;
        self.sap_repair_s = t.elapsed().as_secs_f64();
        sets
    }
}

fn add_rejections(total: &mut Rejections, one: &Rejections) {
    total.objects += one.objects;
    total.by_sphere += one.by_sphere;
    total.by_aabb += one.by_aabb;
    total.by_obb += one.by_obb;
    total.by_any += one.by_any;
    total.kept += one.kept;
}

/// `true` when each of `other`'s sets (sorted here) equals `sorted`'s.
fn same_sets(sorted: &[Vec<u32>], other: &mut [Vec<u32>]) -> bool {
    other.iter_mut().for_each(|s| s.sort_unstable());
    sorted == other
}

/// `count` probe-sized boxes (`size`, metres) on a lattice over `bounds`
/// (a level with no probes still gets comparable queries), deterministic.
pub fn probe_boxes(bounds: &Aabb, count: usize, size: Vec3) -> Vec<Aabb> {
    if bounds.is_empty() || count == 0 {
        return Vec::new();
    }
    let side = (count as f64).sqrt().ceil() as usize;
    let extent = bounds.extent();
    let mid_y = bounds.center().y;
    (0..count)
        .map(|i| {
            let (ix, iz) = (i % side, i / side);
            let fx = (ix as f32 + 0.5) / side as f32;
            let fz = (iz as f32 + 0.5) / side as f32;
            let c = Vec3::new(
                bounds.min.x + fx * extent.x,
                mid_y,
                bounds.min.z + fz * extent.z,
            );
            Aabb::from_corners(c - size * 0.5, c + size * 0.5)
        })
        .collect()
}
