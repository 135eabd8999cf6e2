//! Where the map's walks start: a grid of vertical lines over the level's
//! XZ bounds, and on each line every walkable floor (up-facing, within the
//! slope limit, colliding) with room above it for the character to stand.
//! World space, Y up, metres.

use crate::bvh::{BvhScratch, QueryStats, vertical_line_triangle};
use crate::collide::CollisionWorld;
use crate::math::{Aabb, Vec3};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Room asked above a floor beyond the character's height, metres.
const HEADROOM_SPARE_M: f64 = 0.05;
/// Heights closer than this are one surface (a seam crossed twice), metres.
const SAME_HEIGHT_M: f32 = 1e-3;

/// The grid of start columns: cell `(ix, iz)` is centred at
/// `(origin_x + ix * spacing_m, origin_z + iz * spacing_m)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapGrid {
    /// x of column 0's centre, metres.
    pub origin_x: f64,
    /// z of row 0's centre, metres.
    pub origin_z: f64,
    /// Distance between columns, metres.
    pub spacing_m: f64,
    /// Columns along x.
    pub nx: u32,
    /// Rows along z.
    pub nz: u32,
}

impl MapGrid {
    /// The grid over `[min, max]` (XZ) with `spacing_m`, and its column count
    /// as a float (to refuse huge grids before allocating them).
    pub fn over(min: DVec3, max: DVec3, spacing_m: f64) -> (MapGrid, f64) {
        let cells = |len: f64| (len / spacing_m).ceil().max(1.0);
        let (fx, fz) = (cells(max.x - min.x), cells(max.z - min.z));
        let grid = MapGrid {
            origin_x: min.x + 0.5 * spacing_m,
            origin_z: min.z + 0.5 * spacing_m,
            spacing_m,
            nx: fx.min(f64::from(u32::MAX)) as u32,
            nz: fz.min(f64::from(u32::MAX)) as u32,
        };
        (grid, fx * fz)
    }

    /// The centre of cell `(ix, iz)` at height `y`.
    pub fn point(&self, ix: u32, iz: u32, y: f64) -> DVec3 {
        DVec3::new(
            self.origin_x + f64::from(ix) * self.spacing_m,
            y,
            self.origin_z + f64::from(iz) * self.spacing_m,
        )
    }
}

/// A walkable floor under a grid column, before the character settles on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct StartFloor {
    /// Column.
    pub ix: u32,
    /// Row.
    pub iz: u32,
    /// Height of the floor at the column's centre, metres.
    pub floor_y: f64,
}

/// Finds floors along vertical lines, reusing its buffers.
#[derive(Default)]
pub(super) struct FloorFinder {
    scratch: BvhScratch,
    candidates: Vec<u32>,
    /// (height, up component of the normal) of each surface crossed.
    hits: Vec<(f32, f32)>,
}

impl FloorFinder {
    /// Appends the walkable floors of column `(ix, iz)` to `out`, bottom
    /// to top: up-facing surfaces with normal y at least `min_up` and at
    /// least `height_m` plus a little free above them.
    #[allow(clippy::too_many_arguments)]
    pub fn column(
        &mut self,
        world: CollisionWorld<'_>,
        grid: &MapGrid,
        (ix, iz): (u32, u32),
        (y_lo, y_hi): (f32, f32),
        min_up: f64,
        height_m: f64,
        out: &mut Vec<StartFloor>,
    ) {
        let p = grid.point(ix, iz, 0.0).as_vec3();
        let e = 1e-4;
        let query = Aabb::from_corners(
            Vec3::new(p.x - e, y_lo, p.z - e),
            Vec3::new(p.x + e, y_hi, p.z + e),
        );
        self.candidates.clear();
        self.hits.clear();
        world.bvh.query_aabb(
            &world.mesh.tri_aabbs,
            &query,
            &mut self.scratch,
            &mut self.candidates,
            None,
            &mut QueryStats::default(),
        );
        for &tri in &self.candidates {
            if !world.triangle_collides(tri) {
                continue;
            }
            let corners = world.mesh.triangle(tri);
            // Watertight, and the same whichever way the face is wound.
            let Some(y) = vertical_line_triangle(p.x, p.z, corners) else {
                continue;
            };
            if (y_lo..=y_hi).contains(&y) {
                let up = world.mesh.triangle_normal(tri).y as f32;
                self.hits.push((y, up));
            }
        }
        self.hits.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (i, &(y, up)) in self.hits.iter().enumerate() {
            if f64::from(up) < min_up {
                continue;
            }
            // The next surface above, of any facing, bounds the headroom.
            let above = self.hits[i + 1..].iter().find(|h| h.0 > y + SAME_HEIGHT_M);
            let room = above.map_or(f64::INFINITY, |h| f64::from(h.0 - y));
            let same_as_last = out.last().is_some_and(|l| {
                (l.ix, l.iz) == (ix, iz) && (l.floor_y - f64::from(y)).abs() < 1e-3
            });
            if room >= height_m + HEADROOM_SPARE_M && !same_as_last {
                out.push(StartFloor {
                    ix,
                    iz,
                    floor_y: f64::from(y),
                });
            }
        }
    }
}

/// The start floors by grid cell, to find which starts a walk passes.
pub(super) struct StartCells {
    cells: std::collections::HashMap<(u32, u32), Vec<(u32, f64)>>,
    /// A start is reached within this of its column centre across, metres.
    across_m: f64,
    /// ... and within this of its floor height, metres.
    tolerance_m: f64,
}

impl StartCells {
    /// Indexes `floors` (start index = position in the slice); a walk
    /// reaches a start when its feet come within `across_m` of the start's
    /// column centre and `tolerance_m` of its floor height.
    pub fn new(floors: &[StartFloor], across_m: f64, tolerance_m: f64) -> Self {
        let mut cells: std::collections::HashMap<(u32, u32), Vec<(u32, f64)>> =
            std::collections::HashMap::new();
        for (i, f) in floors.iter().enumerate() {
            cells
                .entry((f.ix, f.iz))
                .or_default()
                .push((i as u32, f.floor_y));
        }
        StartCells {
            cells,
            across_m,
            tolerance_m,
        }
    }

    /// Appends to `out` the starts `feet` (the bottom of the ellipsoid,
    /// world space) is at.
    pub fn at(&self, grid: &MapGrid, feet: DVec3, out: &mut Vec<u32>) {
        let s = grid.spacing_m;
        let (fx, fz) = ((feet.x - grid.origin_x) / s, (feet.z - grid.origin_z) / s);
        let k = self.across_m / s;
        let range = |f: f64, n: u32| {
            let lo = (f - k).ceil().max(0.0);
            let hi = (f + k).floor().min(f64::from(n) - 1.0);
            lo as i64..=hi as i64
        };
        for iz in range(fz, grid.nz) {
            for ix in range(fx, grid.nx) {
                let (dx, dz) = (fx - ix as f64, fz - iz as f64);
                if (dx * dx + dz * dz).sqrt() > k {
                    continue;
                }
                let Some(list) = self.cells.get(&(ix as u32, iz as u32)) else {
                    continue;
                };
                for &(i, y) in list {
                    if (feet.y - y).abs() <= self.tolerance_m {
                        out.push(i);
                    }
                }
            }
        }
    }
}
