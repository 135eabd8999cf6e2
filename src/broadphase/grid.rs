//! Uniform grid over the triangles' boxes, world space, `f32`.
//!
//! The lecture notes on collision detection (seed 003, "Dealing with
//! Complexity") size the grid so that there is about one object per cell:
//! at least `N^(1/3)` cells along each axis of a 3D grid for `N` objects.
//! Here the objects are the level's triangles, and the cells are cubes whose
//! side gives about `N` cells over the level's box (only the axes the level
//! spans count: a flat terrain gets a 2D grid, `N^(1/2)` per axis). The
//! notes warn that objects larger than a cell must be found from "further
//! out" cells, or the cells grown: a triangle here is entered in every cell
//! its box touches, and when that would make more than
//! [`MAX_ENTRIES_PER_TRIANGLE`] entries per triangle on average the cell
//! side is doubled, so that memory and build time stay linear.
//!
//! A box query reads the cells the query box covers and keeps each
//! triangle whose box overlaps the query (touching counts): the same set as
//! [`crate::bvh::Bvh::query_aabb`]. A triangle spread over several of those
//! cells is reported only from the first of them (the corner of the overlap
//! of its cell range and the query's), so no set of seen triangles is kept.

use crate::math::{Aabb, Vec3};

/// At most this many cell entries per triangle on average; the cell side
/// doubles until the grid fits.
pub const MAX_ENTRIES_PER_TRIANGLE: usize = 8;
/// At most this many cells (4 bytes each for the cell starts).
pub const MAX_CELLS: usize = 1 << 24;

/// Triangles binned into cubic cells (compressed rows: `cell_start[c]..cell_start[c + 1]`
/// indexes `entries`).
#[derive(Clone, Debug, Default)]
pub struct UniformGrid {
    /// Smallest corner of cell (0, 0, 0), world space.
    origin: Vec3,
    /// Side of a cell, metres (> 0).
    cell_size: f32,
    /// Cells along x, y, z (each >= 1 when the grid has triangles).
    dims: [u32; 3],
    /// Start of each cell's triangles in `entries`, plus one end.
    cell_start: Vec<u32>,
    /// Triangle indices, cell by cell.
    entries: Vec<u32>,
}

/// Counters of one grid query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridQueryStats {
    /// Cells read.
    pub cells_visited: u32,
    /// Entries read (a triangle counts once per cell it is in).
    pub entries_tested: u32,
}

impl UniformGrid {
    /// Bins `tri_aabbs` (one box per triangle; empty or non-finite boxes are left out).
    pub fn build(tri_aabbs: &[Aabb]) -> UniformGrid {
        let mut bounds = Aabb::EMPTY;
        for b in tri_aabbs.iter().filter(|b| usable(b)) {
            bounds.grow(b);
        }
        if bounds.is_empty() {
            return UniformGrid::default();
        }
        let mut grid = UniformGrid {
            origin: bounds.min,
            cell_size: initial_cell_size(&bounds, tri_aabbs.len()),
            ..UniformGrid::default()
        };
        loop {
            grid.dims = dims_for(&bounds, grid.cell_size);
            let cells: usize = grid.dims.iter().map(|&d| d as usize).product();
            let entries = (cells <= MAX_CELLS).then(|| grid.count_entries(tri_aabbs));
            let budget = MAX_ENTRIES_PER_TRIANGLE * tri_aabbs.len().max(1);
            if entries.is_some_and(|e| e <= budget) {
                break;
            }
            grid.cell_size *= 2.0;
        }
        grid.fill(tri_aabbs);
        grid
    }

    /// Entries a build with the current cell size would make.
    fn count_entries(&self, tri_aabbs: &[Aabb]) -> usize {
        let usable_boxes = tri_aabbs.iter().filter(|b| usable(b));
        usable_boxes
            .map(|b| {
                let (lo, hi) = self.cell_range(b);
                (0..3)
                    .map(|a| (hi[a] - lo[a] + 1) as usize)
                    .product::<usize>()
            })
            .sum()
    }

    /// Counting sort of the triangles into their cells.
    fn fill(&mut self, tri_aabbs: &[Aabb]) {
        let cells: usize = self.dims.iter().map(|&d| d as usize).product();
        let mut counts = vec![0u32; cells + 1];
        self.for_each_entry(tri_aabbs, |cell, _| counts[cell + 1] += 1);
        for c in 1..counts.len() {
            counts[c] += counts[c - 1];
        }
        let mut cursor = counts.clone();
        let mut entries = vec![0u32; counts[cells] as usize];
        self.for_each_entry(tri_aabbs, |cell, tri| {
            entries[cursor[cell] as usize] = tri;
            cursor[cell] += 1;
        });
        self.cell_start = counts;
        self.entries = entries;
    }

    fn for_each_entry(&self, tri_aabbs: &[Aabb], mut f: impl FnMut(usize, u32)) {
        for (tri, b) in tri_aabbs.iter().enumerate().filter(|(_, b)| usable(b)) {
            let (lo, hi) = self.cell_range(b);
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        f(self.cell_index([x, y, z]), tri as u32);
                    }
                }
            }
        }
    }

    #[inline]
    fn cell_index(&self, c: [u32; 3]) -> usize {
        let [nx, ny, _] = self.dims.map(|d| d as usize);
        c[0] as usize + nx * (c[1] as usize + ny * c[2] as usize)
    }

    /// The cells (inclusive corners) a box covers, clamped to the grid.
    /// Monotonic in the box's corners, so two overlapping boxes share a cell.
    #[inline]
    fn cell_range(&self, b: &Aabb) -> ([u32; 3], [u32; 3]) {
        let cell = |p: Vec3| {
            let f = ((p - self.origin) / self.cell_size).floor();
            let mut c = [0u32; 3];
            for (a, slot) in c.iter_mut().enumerate() {
                // NaN and negative values become 0 (the float-to-int cast saturates).
                let max = (self.dims[a] - 1) as f32;
                *slot = f[a].clamp(0.0, max) as u32;
            }
            c
        };
        (cell(b.min), cell(b.max))
    }

    /// Appends to `out` every triangle whose box overlaps `query` (touching
    /// counts), each once: the set [`crate::bvh::Bvh::query_aabb`] returns.
    pub fn query_aabb(
        &self,
        tri_aabbs: &[Aabb],
        query: &Aabb,
        out: &mut Vec<u32>,
        stats: &mut GridQueryStats,
    ) {
        if self.entries.is_empty() || query.is_empty() || query.min.is_nan() || query.max.is_nan() {
            return;
        }
        let (qlo, qhi) = self.cell_range(query);
        for z in qlo[2]..=qhi[2] {
            for y in qlo[1]..=qhi[1] {
                for x in qlo[0]..=qhi[0] {
                    let c = self.cell_index([x, y, z]);
                    stats.cells_visited += 1;
                    let span = self.cell_start[c] as usize..self.cell_start[c + 1] as usize;
                    stats.entries_tested += span.len() as u32;
                    for &tri in &self.entries[span] {
                        let b = &tri_aabbs[tri as usize];
                        if !b.overlaps(query) {
                            continue;
                        }
                        // Report from the first shared cell only.
                        let (tlo, _) = self.cell_range(b);
                        let first = [0, 1, 2].map(|a| tlo[a].max(qlo[a]));
                        if first == [x, y, z] {
                            out.push(tri);
                        }
                    }
                }
            }
        }
    }

    /// Side of a cell, metres (0 for an empty grid).
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Cells along x, y and z.
    pub fn dims(&self) -> [u32; 3] {
        self.dims
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cell_start.len().saturating_sub(1)
    }

    /// Cells holding at least one triangle.
    pub fn occupied_cells(&self) -> usize {
        self.cell_start.windows(2).filter(|w| w[1] > w[0]).count()
    }

    /// Entries (a triangle counts once per cell its box touches).
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// Most triangles in one cell.
    pub fn max_per_cell(&self) -> usize {
        let spans = self.cell_start.windows(2);
        spans.map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0)
    }

    /// Bytes held by the cell starts and entries.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.cell_start.len() + self.entries.len())
    }
}

/// A box the grid can place: finite and not empty.
fn usable(b: &Aabb) -> bool {
    !b.is_empty() && b.min.is_finite() && b.max.is_finite()
}

/// The cube side that gives about `n` cells over the axes `bounds` spans.
fn initial_cell_size(bounds: &Aabb, n: usize) -> f32 {
    let extent = bounds.extent();
    let largest = extent.max_element();
    if largest <= 0.0 {
        return 1.0;
    }
    // An axis under a millionth of the largest is flat: it gets one cell.
    let spanned: Vec<f64> = extent
        .to_array()
        .iter()
        .filter(|&&e| e > largest * 1e-6)
        .map(|&e| e as f64)
        .collect();
    let k = spanned.len() as f64;
    let volume: f64 = spanned.iter().product();
    let side = (volume / n.max(1) as f64).powf(1.0 / k) as f32;
    // Never so small that rounding decides the cells.
    side.max(largest * 1e-5).max(f32::MIN_POSITIVE)
}

fn dims_for(bounds: &Aabb, cell_size: f32) -> [u32; 3] {
    let e = bounds.extent();
    [e.x, e.y, e.z].map(|x| {
        ((x / cell_size).floor() as u32)
            .saturating_add(1)
            .min(1 << 20)
    })
}
