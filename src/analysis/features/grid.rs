//! Sampling: the surfaces along vertical lines through a grid of cell
//! centres, world space (Y up, metres), and the ray helpers the feature
//! finders share.

use super::FeatureOptions;
use crate::bvh::{BvhScratch, QueryStats, vertical_line_triangle};
use crate::collide::CollisionWorld;
use crate::math::{Aabb, Vec3};
use glam::{DVec2, DVec3};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Surfaces with less free space above them than this are not floors
/// (the ground under a solid resting on it), metres.
pub(super) const MIN_CLEARANCE: f32 = 0.1;
/// Surfaces steeper than this are walls, not floors or slopes, degrees.
pub(super) const WALL_SLOPE_DEG: f64 = 80.0;
/// Heights closer than this are the same height, metres.
const SAME_HEIGHT: f32 = 1e-3;
/// Where in its cell a sample sits (0.5 = the centre). Off-centre so that
/// the round-numbered edges of built levels never fall on a sample.
const PHASE: f64 = 0.4321;
/// The four neighbours: +x, -x, +z, -z.
pub(super) const DIRS: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The horizontal unit vector of direction `d` (an index into [`DIRS`]).
pub(super) fn dir_vec(d: usize) -> DVec3 {
    DVec3::new(DIRS[d].0 as f64, 0.0, DIRS[d].1 as f64)
}

/// An up-facing surface with free space above it, in one cell's column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layer {
    /// Height of the surface at the sample, metres.
    pub y: f32,
    /// Free height above it up to the next surface (infinite if none), metres.
    pub clearance: f32,
    /// The surface's unit normal (up-facing).
    pub normal: Vec3,
    /// Its triangle.
    pub tri: u32,
    /// The triangle above it (`u32::MAX` if none).
    pub ceiling_tri: u32,
}

impl Layer {
    /// Angle from horizontal, degrees.
    pub fn slope_deg(&self) -> f64 {
        f64::from(self.normal.y)
            .clamp(-1.0, 1.0)
            .acos()
            .to_degrees()
    }

    /// Gentle enough to stand on.
    pub fn walkable(&self, opts: &FeatureOptions) -> bool {
        self.slope_deg() <= opts.max_slope_deg + 1e-3
    }

    /// Height of the surface above, metres (infinite if none).
    pub fn ceiling_y(&self) -> f64 {
        f64::from(self.y) + f64::from(self.clearance)
    }

    /// Tangent of the slope (capped at the wall limit).
    fn gradient(&self) -> f64 {
        self.slope_deg().min(WALL_SLOPE_DEG).to_radians().tan()
    }
}

/// True when `a` and `b`, samples `dist` apart horizontally, are one
/// continuous surface: their heights differ by less than `min_riser` more
/// than the steeper one's slope explains.
pub(super) fn continuous(a: &Layer, b: &Layer, dist: f64, min_riser: f64) -> bool {
    let dy = f64::from(b.y - a.y).abs();
    dy < min_riser + dist * a.gradient().max(b.gradient())
}

/// The sampled level: per cell, its layers bottom to top.
pub(super) struct Grid {
    /// x of the samples of column 0, z of those of row 0, metres.
    origin: DVec2,
    /// Cell size, metres.
    pub cell: f64,
    /// Cells along x and z.
    pub nx: usize,
    /// Cells along z.
    pub nz: usize,
    /// True when the asked cell size was coarsened to fit the cap.
    pub coarsened: bool,
    /// True when the level's faces point away from where a player stands
    /// (see [`orientation`]): floors were taken on the other side of every face.
    pub inside_out: bool,
    /// `layers[offsets[i]..offsets[i + 1]]` are cell `i`'s layers.
    offsets: Vec<u32>,
    layers: Vec<Layer>,
}

impl Grid {
    /// Samples `level` (see the module doc of `features`); `None` if cancelled.
    pub fn sample(
        world: CollisionWorld<'_>,
        opts: &FeatureOptions,
        progress: &(dyn Fn(f32) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Grid> {
        let bounds = world.mesh.bounds();
        let (lo, hi) = if bounds.is_empty() {
            (DVec3::ZERO, DVec3::ZERO)
        } else {
            (bounds.min.as_dvec3(), bounds.max.as_dvec3())
        };
        let mut cell = opts.cell_m.max(1e-3);
        let count = |cell: f64, len: f64| ((len / cell - PHASE).max(0.0).floor() as usize) + 1;
        let mut coarsened = false;
        let cap = opts.max_cells.clamp(1, super::MAX_CELLS);
        while count(cell, hi.x - lo.x) * count(cell, hi.z - lo.z) > cap {
            cell *= 1.05;
            coarsened = true;
        }
        let (nx, nz) = (count(cell, hi.x - lo.x), count(cell, hi.z - lo.z));
        let origin = DVec2::new(lo.x, lo.z) + DVec2::splat(PHASE * cell);
        let (y_lo, y_hi) = (lo.y as f32 - 1.0, hi.y as f32 + 1.0);
        let inside_out = orientation(world, origin, cell, nx, nz, y_lo, y_hi) < 0.0;
        let facing = if inside_out { -1.0 } else { 1.0 };
        let done = AtomicUsize::new(0);
        let every = (nz / 100).max(1);
        let rows: Vec<(Vec<u32>, Vec<Layer>)> = (0..nz)
            .into_par_iter()
            .map_init(Column::default, |col, iz| {
                let mut counts = Vec::with_capacity(nx);
                let mut layers = Vec::new();
                if cancel.load(Ordering::Relaxed) {
                    return (counts, layers);
                }
                let z = origin.y + iz as f64 * cell;
                for ix in 0..nx {
                    let x = origin.x + ix as f64 * cell;
                    let before = layers.len();
                    col.sample(world, facing, x as f32, z as f32, y_lo, y_hi, &mut layers);
                    counts.push((layers.len() - before) as u32);
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(every) {
                    progress(0.7 * n as f32 / nz as f32);
                }
                (counts, layers)
            })
            .collect();
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut offsets = Vec::with_capacity(nx * nz + 1);
        let mut all = Vec::with_capacity(rows.iter().map(|r| r.1.len()).sum());
        offsets.push(0u32);
        for (counts, layers) in rows {
            let mut at = all.len() as u32;
            for c in counts {
                at += c;
                offsets.push(at);
            }
            all.extend(layers);
        }
        Some(Grid {
            origin,
            cell,
            nx,
            nz,
            coarsened,
            inside_out,
            offsets,
            layers: all,
        })
    }

    /// Index of cell `(ix, iz)`.
    pub fn index(&self, ix: usize, iz: usize) -> usize {
        iz * self.nx + ix
    }

    /// Cell `(ix, iz)` of index `i`.
    pub fn cell_of(&self, i: usize) -> (usize, usize) {
        (i % self.nx, i / self.nx)
    }

    /// The layers of cell index `i`, bottom to top.
    pub fn layers(&self, i: usize) -> &[Layer] {
        &self.layers[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The sample point of cell `(ix, iz)`, at height `y`.
    pub fn point(&self, ix: usize, iz: usize, y: f64) -> DVec3 {
        let c = self.origin + DVec2::new(ix as f64, iz as f64) * self.cell;
        DVec3::new(c.x, y, c.y)
    }

    /// The neighbour of cell `(ix, iz)` in direction `d` (an index into [`DIRS`]).
    pub fn neighbour(&self, ix: usize, iz: usize, d: usize) -> Option<(usize, usize)> {
        let (jx, jz) = (ix as i64 + DIRS[d].0, iz as i64 + DIRS[d].1);
        (jx >= 0 && jz >= 0 && (jx as usize) < self.nx && (jz as usize) < self.nz)
            .then_some((jx as usize, jz as usize))
    }

    /// Cells with at least one walkable layer.
    pub fn walkable_cells(&self, opts: &FeatureOptions) -> usize {
        (0..self.nx * self.nz)
            .into_par_iter()
            .filter(|&i| self.layers(i).iter().any(|l| l.walkable(opts)))
            .count()
    }
}

/// Scratch for sampling one vertical line.
#[derive(Default)]
struct Column {
    scratch: BvhScratch,
    candidates: Vec<u32>,
    /// (height, normal, triangle) of each surface crossed.
    hits: Vec<(f32, Vec3, u32)>,
}

impl Column {
    /// The colliding surfaces the vertical line at `(x, z)` crosses, bottom
    /// to top, as (height, normal times `facing`, triangle) in `self.hits`.
    #[allow(clippy::too_many_arguments)]
    fn cross(
        &mut self,
        world: CollisionWorld<'_>,
        facing: f32,
        x: f32,
        z: f32,
        y_lo: f32,
        y_hi: f32,
    ) {
        let e = 1e-4;
        let query =
            Aabb::from_corners(Vec3::new(x - e, y_lo, z - e), Vec3::new(x + e, y_hi, z + e));
        self.candidates.clear();
        self.hits.clear();
        let mut stats = QueryStats::default();
        world.bvh.query_aabb(
            &world.mesh.tri_aabbs,
            &query,
            &mut self.scratch,
            &mut self.candidates,
            None,
            &mut stats,
        );
        for &tri in &self.candidates {
            if !world.triangle_collides(tri) {
                continue;
            }
            let corners = world.mesh.triangle(tri);
            // Watertight, and the same whichever way the face is wound.
            let Some(y) = vertical_line_triangle(x, z, corners) else {
                continue;
            };
            if y < y_lo || y > y_hi {
                continue;
            }
            let normal = world.mesh.triangle_normal(tri).as_vec3() * facing;
            if normal != Vec3::ZERO {
                self.hits.push((y, normal, tri));
            }
        }
        self.hits
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
    }

    /// Appends the layers of the vertical line at `(x, z)` to `out`, bottom to top.
    #[allow(clippy::too_many_arguments)]
    fn sample(
        &mut self,
        world: CollisionWorld<'_>,
        facing: f32,
        x: f32,
        z: f32,
        y_lo: f32,
        y_hi: f32,
        out: &mut Vec<Layer>,
    ) {
        self.cross(world, facing, x, z, y_lo, y_hi);
        let up = WALL_SLOPE_DEG.to_radians().cos() as f32;
        let hits = &self.hits;
        let first = out.len();
        for (i, &(y, normal, tri)) in hits.iter().enumerate() {
            if normal.y <= up {
                continue;
            }
            if out[first..]
                .last()
                .is_some_and(|l| (l.y - y).abs() <= SAME_HEIGHT)
            {
                continue;
            }
            // The nearest surface above: higher, or as high and facing down
            // (a solid resting on this surface).
            let start = hits.partition_point(|h| h.0 < y - SAME_HEIGHT);
            let above = hits[start..]
                .iter()
                .enumerate()
                .find(|(k, h)| start + k != i && (h.0 > y + SAME_HEIGHT || h.1.y < 0.0));
            let (clearance, ceiling_tri) = above.map_or((f32::INFINITY, u32::MAX), |(_, h)| {
                ((h.0 - y).max(0.0), h.2)
            });
            if clearance >= MIN_CLEARANCE {
                out.push(Layer {
                    y,
                    clearance,
                    normal,
                    tri,
                    ceiling_tri,
                });
            }
        }
    }
}

/// Closest-hit rays against the level's colliding triangles, with reusable scratch.
pub(super) struct Rays<'a> {
    world: CollisionWorld<'a>,
    scratch: BvhScratch,
}

impl<'a> Rays<'a> {
    /// Rays against `world`.
    pub fn new(world: CollisionWorld<'a>) -> Self {
        Rays {
            world,
            scratch: BvhScratch::default(),
        }
    }

    /// Distance and triangle of the first colliding surface the ray from
    /// `origin` along the unit `dir` meets within `max_t`: non-colliding
    /// ones (liquids, triggers) are passed through.
    pub fn cast(&mut self, origin: DVec3, dir: DVec3, max_t: f64) -> Option<(f64, u32)> {
        self.world
            .ray_cast_colliding(origin, dir, max_t, &mut self.scratch)
    }

    /// Slope of triangle `tri`, degrees (90 for a degenerate one).
    pub fn slope_deg(&self, tri: u32) -> f64 {
        let n = self.world.mesh.triangle_normal(tri);
        if n == DVec3::ZERO {
            return 90.0;
        }
        n.y.abs().clamp(0.0, 1.0).acos().to_degrees()
    }
}

/// Largest number of columns [`orientation`] samples along each axis.
const ORIENTATION_COLUMNS: usize = 96;

/// Which way the level's faces point, from a sparse set of vertical
/// lines: positive when they point to where a player stands (the usual
/// winding, counter-clockwise seen from the front), negative when the
/// level is wound inside out.
///
/// Along a vertical line, the surfaces a level is made of alternate
/// between the open space a player walks in (a room, the outdoors) and
/// solid (a floor slab, a ceiling, a block). A surface faces the open
/// side; and open space is mostly the larger of the two gaps either side
/// of a surface between two others (a room is taller than the slab under
/// it). Each such surface votes +1 when it faces its larger gap and -1
/// when it faces the smaller. Gaps that run out of the level (above the
/// top surface, below the bottom one) say nothing: a closed interior's
/// sky and an open level's ground both have one. A level with few
/// surfaces between two others (on fewer than one line in twenty: a sheet
/// of terrain, blocks standing on a slab or on nothing) falls back on its
/// top: the highest surface of a line faces the sky in
/// such a level (a bare single box room, floor and ceiling only, is the
/// one shape this misjudges). Only a clear majority (55 % of the votes)
/// turns the level over; anything closer keeps it as it is.
///
/// Measured on every level in `../shared/levels` and the built-in one,
/// each as it is and with every face turned over: all are judged right.
pub(super) fn orientation(
    world: CollisionWorld<'_>,
    origin: DVec2,
    cell: f64,
    nx: usize,
    nz: usize,
    y_lo: f32,
    y_hi: f32,
) -> f64 {
    let step_x = nx.div_ceil(ORIENTATION_COLUMNS).max(1);
    let step_z = nz.div_ceil(ORIENTATION_COLUMNS).max(1);
    let mut col = Column::default();
    let (mut between, mut between_votes) = (0i64, 0i64);
    let (mut sky, mut sky_votes) = (0i64, 0i64);
    let flat = WALL_SLOPE_DEG.to_radians().cos() as f32;
    let mut ys: Vec<(f32, f32)> = Vec::new();
    for iz in (0..nz).step_by(step_z) {
        for ix in (0..nx).step_by(step_x) {
            let x = origin.x + ix as f64 * cell;
            let z = origin.y + iz as f64 * cell;
            col.cross(world, 1.0, x as f32, z as f32, y_lo, y_hi);
            // One entry per height: coincident faces (a two-sided sheet, a
            // solid resting on a floor) cancel out.
            ys.clear();
            for h in col.hits.iter().filter(|h| h.1.y.abs() > flat) {
                let up = h.1.y.signum();
                match ys.last_mut() {
                    Some(last) if (h.0 - last.0).abs() <= SAME_HEIGHT => last.1 += up,
                    _ => ys.push((h.0, up)),
                }
            }
            ys.retain(|e| e.1 != 0.0);
            if let Some(top) = ys.last() {
                sky += if top.1 > 0.0 { 1 } else { -1 };
                sky_votes += 1;
            }
            for w in ys.windows(3) {
                let (below, here, above) = (w[0].0, w[1], w[2].0);
                let (gap_below, gap_above) = (here.0 - below, above - here.0);
                if gap_below == gap_above {
                    continue;
                }
                let faces_larger = (here.1 > 0.0) == (gap_above > gap_below);
                between += if faces_larger { 1 } else { -1 };
                between_votes += 1;
            }
        }
    }
    // Surfaces between two others on at least one line in twenty decide;
    // fewer are a few stray crossings (a ray through an edge), not rooms.
    let (score, votes) = if 20 * between_votes >= sky_votes {
        (between, between_votes)
    } else {
        (sky, sky_votes)
    };
    if votes > 0 && 10 * score < -votes {
        -1.0
    } else {
        1.0
    }
}
