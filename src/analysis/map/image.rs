//! The map as a top-down picture, x to the right and z down: the level
//! seen from above, grey by height (darker is lower, steep surfaces
//! darker still), as a character standing on the column's reachable start
//! floor sees it from the top of its head, with the walls and pillars
//! taller than it drawn by their tops (so an indoor level's roofs and a
//! Quake map's sky brushes do not hide its floors), and on each grid column the class of its worst start
//! point: a square in the class colour for the findings and
//! `cant_get_back`, a small blue dot for `blocked`, nothing for `free`
//! or an unreachable start point.
//! Without the level (a merged map), each column is grey by its highest
//! start floor. Plain RGB pixels: the caller encodes.

use super::{MapClass, MapReport};
use crate::bvh::{BvhScratch, QueryStats};
use crate::character::Body;
use crate::collide::CollisionWorld;
use glam::{DVec3, Vec3};

/// Colour of a column with no start point (no walkable floor).
const EMPTY: [u8; 3] = [25, 25, 30];

/// An RGB image, rows top to bottom, 3 bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapImage {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// `width * height * 3` bytes.
    pub rgb: Vec<u8>,
}

/// Draws `report` (over `world`, the level it was made on, when given) at
/// the most pixels per column (1 to 16) that keeps both sides within
/// `max_side_px` (at least one pixel per column).
pub fn map_image(
    report: &MapReport,
    world: Option<CollisionWorld<'_>>,
    max_side_px: u32,
) -> MapImage {
    let (nx, nz) = (report.grid.nx.max(1), report.grid.nz.max(1));
    let px = (max_side_px / nx.max(nz)).clamp(1, 16);
    let cells = (nx as usize) * (nz as usize);
    // Per column: highest floor and worst class.
    let mut top: Vec<Option<(f64, MapClass)>> = vec![None; cells];
    for s in &report.spots {
        let i = s.cell[1] as usize * nx as usize + s.cell[0] as usize;
        let Some(cell) = top.get_mut(i) else { continue };
        // Unreachable spots are drawn as floor only.
        let class = if s.reachable { s.class } else { MapClass::Free };
        *cell = Some(match *cell {
            None => (s.floor_y, class),
            Some((y, c)) => (y.max(s.floor_y), c.max(class)),
        });
    }
    let (w, h) = (nx * px, nz * px);
    let mut rgb = match world {
        Some(world) => relief(report, world, &view_floors(report), w, h, px),
        None => columns_grey(report, &top, w, h, px),
    };
    let (big, dot) = (px / 4, px * 2 / 5);
    for py in 0..h {
        for pxl in 0..w {
            let (ix, iz) = (pxl / px, py / px);
            let (u, v) = (pxl % px, py % px);
            let within = |m: u32| u >= m && v >= m && u < px - m && v < px - m;
            let colour = match top[iz as usize * nx as usize + ix as usize] {
                Some((_, c)) if c > MapClass::Blocked && within(big) => c.colour(),
                Some((_, MapClass::Blocked)) if px >= 5 && within(dot) => {
                    MapClass::Blocked.colour()
                }
                _ => continue,
            };
            let at = (py as usize * w as usize + pxl as usize) * 3;
            rgb[at..at + 3].copy_from_slice(&colour);
        }
    }
    MapImage {
        width: w,
        height: h,
        rgb,
    }
}

/// Grey by `y` within `[lo, hi]`, darkened by `shade` (0 to 1).
fn grey(y: f64, lo: f64, hi: f64, shade: f64) -> [u8; 3] {
    let t = if hi > lo { (y - lo) / (hi - lo) } else { 0.5 };
    let g = ((70.0 + 160.0 * t.clamp(0.0, 1.0)) * shade).round() as u8;
    [g, g, g]
}

/// Per column: the floor the picture shows, the highest start floor a
/// player reaches there (the highest of any when none is reachable, as on
/// a map's roofs).
fn view_floors(report: &MapReport) -> Vec<Option<f64>> {
    let nx = report.grid.nx.max(1) as usize;
    let cells = nx * report.grid.nz.max(1) as usize;
    let mut best: Vec<Option<(bool, f64)>> = vec![None; cells];
    for s in &report.spots {
        let i = s.cell[1] as usize * nx + s.cell[0] as usize;
        let Some(cell) = best.get_mut(i) else {
            continue;
        };
        let this = (s.reachable, s.floor_y);
        // Reachable first, then higher.
        if cell.is_none_or(|b| this.partial_cmp(&b).is_some_and(|o| o.is_gt())) {
            *cell = Some(this);
        }
    }
    best.into_iter().map(|b| b.map(|(_, y)| y)).collect()
}

/// The level from above: a ray down through every pixel's centre, from
/// the top of a character standing on the column's reachable start floor
/// (or a neighbouring column's, for a column without one; from above the
/// whole level where none is near).
fn relief(
    report: &MapReport,
    world: CollisionWorld<'_>,
    view_floor: &[Option<f64>],
    w: u32,
    h: u32,
    px: u32,
) -> Vec<u8> {
    let b = world.mesh.bounds();
    let (lo, hi) = (f64::from(b.min.y), f64::from(b.max.y));
    let g = &report.grid;
    let step = g.spacing_m / f64::from(px);
    let (x0, z0) = (
        g.origin_x - 0.5 * g.spacing_m,
        g.origin_z - 0.5 * g.spacing_m,
    );
    let min_up = report.settings.character.floor_min_up();
    let body_height = 2.0 * Body::of(&report.settings).half_height();
    let (nx, nz) = (g.nx.max(1) as i64, g.nz.max(1) as i64);
    let floor_of = |ix: i64, iz: i64| {
        (0..nx)
            .contains(&ix)
            .then_some(())
            .filter(|_| (0..nz).contains(&iz))
            .and_then(|_| view_floor[(iz * nx + ix) as usize])
    };
    // Per column: where its rays start.
    let eye: Vec<f64> = (0..nz)
        .flat_map(|iz| (0..nx).map(move |ix| (ix, iz)))
        .map(|(ix, iz)| {
            let near = floor_of(ix, iz).or_else(|| {
                (-1..=1)
                    .flat_map(|dz| (-1..=1).map(move |dx| (dx, dz)))
                    .filter_map(|(dx, dz)| floor_of(ix + dx, iz + dz))
                    .reduce(f64::max)
            });
            near.map_or(hi + 1.0, |y| (y + body_height).min(hi + 1.0))
        })
        .collect();
    let mut scratch = BvhScratch::default();
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for py in 0..h {
        for pxl in 0..w {
            let x = x0 + (f64::from(pxl) + 0.5) * step;
            let z = z0 + (f64::from(py) + 0.5) * step;
            let from_y = eye[(py / px) as usize * nx as usize + (pxl / px) as usize];
            // Inside a wall or pillar taller than the character (the ray up
            // meets the inside of its top), the picture shows its top as a
            // view from above would; under a roof, the floor.
            let mut ray = |from_y: f64, dir: Vec3, len: f64| {
                world.bvh.ray_cast(
                    world.mesh,
                    DVec3::new(x, from_y, z).as_vec3(),
                    dir,
                    len as f32,
                    &mut scratch,
                    &mut QueryStats::default(),
                )
            };
            let inside_solid = from_y < hi
                && ray(from_y, Vec3::Y, hi + 1.0 - from_y)
                    .is_some_and(|up| world.mesh.triangle_normal(up.triangle).y > 0.0);
            let from_y = if inside_solid { hi + 1.0 } else { from_y };
            let hit = ray(from_y, Vec3::NEG_Y, from_y - lo + 1.0);
            let colour = hit.map_or(EMPTY, |hit| {
                let y = from_y - f64::from(hit.t);
                let steep = world.mesh.triangle_normal(hit.triangle).y.abs() < min_up;
                grey(y, lo, hi, if steep { 0.6 } else { 1.0 })
            });
            rgb.extend_from_slice(&colour);
        }
    }
    rgb
}

/// Without the level: each column grey by its highest start floor.
fn columns_grey(
    report: &MapReport,
    top: &[Option<(f64, MapClass)>],
    w: u32,
    h: u32,
    px: u32,
) -> Vec<u8> {
    let ys = report.spots.iter().map(|s| s.floor_y);
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let nx = report.grid.nx.max(1) as usize;
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for py in 0..h {
        for pxl in 0..w {
            let cell = top[(py / px) as usize * nx + (pxl / px) as usize];
            rgb.extend_from_slice(&cell.map_or(EMPTY, |(y, _)| grey(y, lo, hi, 1.0)));
        }
    }
    rgb
}
