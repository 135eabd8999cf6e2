//! Slopes (sloped surfaces, walkable or not) and low ceilings over walkable
//! floor, grouped into regions and measured, world space.

use super::grid::{Grid, Layer, continuous};
use super::{Feature, FeatureKind, FeatureOptions, blank, median, object_name};
use crate::collide::CollisionWorld;
use glam::DVec3;
use std::collections::HashSet;

/// Gentler surfaces are flat, degrees.
const MIN_SLOPE_DEG: f64 = 5.0;
/// A slope region covers at least this many cells (fewer is noise: a
/// bevel, a chamfer, a rounded edge).
const MIN_SLOPE_CELLS: usize = 4;
/// A slope region rising less than this from its foot to its top is a
/// bump (a worn threshold, a cambered path, a plinth's bevel) that a body
/// walks over as if flat, metres; nothing a designer signs off, and too
/// low for a walk to show it was climbed.
const MIN_SLOPE_RISE_M: f64 = 0.1;
/// Neighbouring cells are one slope when their angles differ by less than
/// this, degrees...
const SAME_SLOPE_DEG: f64 = 5.0;
/// ... and their uphill directions by less than this, degrees.
const SAME_UPHILL_DEG: f64 = 20.0;
/// Ceilings lower than this many character heights are reported...
const CEILING_FACTOR: f64 = 1.5;
/// ... unless lower than this many: nobody stands on the floor under
/// them (the gap under a slab, a vent), so they stop no one there.
const CEILING_LEAST_FACTOR: f64 = 0.5;

/// One layer of one cell, with its sample point.
struct Item {
    cell: usize,
    layer: Layer,
    point: DVec3,
}

/// The layers for which `keep` holds, with their points.
fn items(grid: &Grid, keep: impl Fn(usize, usize, &Layer) -> bool) -> Vec<Item> {
    let mut out = Vec::new();
    for cell in 0..grid.nx * grid.nz {
        let (ix, iz) = grid.cell_of(cell);
        for (k, layer) in grid.layers(cell).iter().enumerate() {
            if keep(cell, k, layer) {
                let point = grid.point(ix, iz, f64::from(layer.y));
                out.push(Item {
                    cell,
                    layer: *layer,
                    point,
                });
            }
        }
    }
    out
}

/// Uphill unit direction of a layer (zero when flat).
fn uphill(layer: &Layer) -> DVec3 {
    (-layer.normal.as_dvec3()).with_y(0.0).normalize_or_zero()
}

/// Smallest and largest of `values`.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    })
}

/// Sloped regions: up-facing surfaces between 5 and 80 degrees.
pub(super) fn slopes(
    world: CollisionWorld<'_>,
    grid: &Grid,
    opts: &FeatureOptions,
) -> Vec<Feature> {
    let items = items(grid, |_, _, l| l.slope_deg() > MIN_SLOPE_DEG);
    let cells: Vec<usize> = items.iter().map(|it| it.cell).collect();
    let cos_same = SAME_UPHILL_DEG.to_radians().cos();
    let groups = super::group::components(grid, &cells, |i, j, _| {
        let (a, b) = (&items[i].layer, &items[j].layer);
        continuous(a, b, grid.cell, opts.min_riser_m)
            && (a.slope_deg() - b.slope_deg()).abs() < SAME_SLOPE_DEG
            && uphill(a).dot(uphill(b)) > cos_same
    });
    groups
        .iter()
        .filter(|g| g.len() >= MIN_SLOPE_CELLS)
        .filter(|g| {
            let (lo, hi) = span(g.iter().map(|&i| items[i].point.y));
            hi - lo >= MIN_SLOPE_RISE_M
        })
        .map(|group| {
            let members: Vec<&Item> = group.iter().map(|&i| &items[i]).collect();
            let up = members
                .iter()
                .map(|m| uphill(&m.layer))
                .sum::<DVec3>()
                .normalize_or_zero();
            let across = DVec3::new(-up.z, 0.0, up.x);
            // The foot: the cells lowest along the uphill direction.
            let (low, _) = span(members.iter().map(|m| m.point.dot(up)));
            let foot: Vec<&&Item> = members
                .iter()
                .filter(|m| m.point.dot(up) < low + 0.75 * grid.cell)
                .collect();
            let position = foot.iter().map(|m| m.point).sum::<DVec3>() / foot.len() as f64;
            let angle = median(members.iter().map(|m| m.layer.slope_deg()).collect());
            let rep = members
                .iter()
                .min_by(|a, b| {
                    let d = |m: &Item| (m.layer.slope_deg() - angle).abs();
                    d(a).total_cmp(&d(b))
                })
                .expect("a group has members");
            let (lo, hi) = span(members.iter().map(|m| m.point.dot(across)));
            let mut f = blank(FeatureKind::Slope, position, up);
            f.slope_deg = Some(angle);
            f.extent_m = hi - lo + grid.cell;
            f.object = object_name(world, rep.layer.tri);
            f.cells = members.len();
            f
        })
        // Like a riser, a slope narrower than half the character is wide
        // is a moulding (a chamfer, a sill's bevel): listed, it would be
        // hundreds of rows on a carved level that no walk can test.
        .filter(|f| f.extent_m >= 0.5 * opts.probe_width_m)
        .collect()
}

/// Whether a body could stand on layer `floor` of `cell`: the same floor
/// goes on half-way to the body's rim in each of the four grid directions
/// (the footprint the checks' and the map's starts ask for). A cornice, a
/// window sill or a capital is walkable but nobody stands on it, and a
/// "low ceiling" over it stops no one.
fn room_to_stand(grid: &Grid, opts: &FeatureOptions, cell: usize, floor: &Layer) -> bool {
    let k = ((0.25 * opts.probe_width_m / grid.cell).round() as i64).max(1);
    let (ix, iz) = grid.cell_of(cell);
    [(k, 0), (-k, 0), (0, k), (0, -k)]
        .into_iter()
        .all(|(dx, dz)| {
            let (jx, jz) = (ix as i64 + dx, iz as i64 + dz);
            if jx < 0 || jz < 0 || jx as usize >= grid.nx || jz as usize >= grid.nz {
                return false;
            }
            let dist = k as f64 * grid.cell;
            grid.layers(grid.index(jx as usize, jz as usize))
                .iter()
                .any(|b| b.walkable(opts) && continuous(floor, b, dist, opts.min_riser_m))
        })
}

/// Low ceilings: walkable floor a body can stand on with less than 1.5
/// character heights of clearance, outside openings.
pub(super) fn ceilings(
    world: CollisionWorld<'_>,
    grid: &Grid,
    opts: &FeatureOptions,
    openings: &HashSet<(usize, usize)>,
) -> Vec<Feature> {
    let limit = CEILING_FACTOR * opts.probe_height_m;
    let least = CEILING_LEAST_FACTOR * opts.probe_height_m;
    let items = items(grid, |cell, k, l| {
        let clearance = f64::from(l.clearance);
        l.walkable(opts)
            && clearance < limit
            && clearance >= least
            && !openings.contains(&(cell, k))
            && room_to_stand(grid, opts, cell, l)
    });
    let cells: Vec<usize> = items.iter().map(|it| it.cell).collect();
    let groups = super::group::components(grid, &cells, |i, j, _| {
        continuous(
            &items[i].layer,
            &items[j].layer,
            grid.cell,
            opts.min_riser_m,
        )
    });
    groups
        .iter()
        .map(|group| {
            let members: Vec<&Item> = group.iter().map(|&i| &items[i]).collect();
            // The lowest point; among points as low to the millimetre, the
            // one nearest the region's middle (a corner against the walls
            // is no place a body stands; and clearances that tie differ in
            // their last bits with the triangles' corner order).
            let mid = members.iter().map(|m| m.point).sum::<DVec3>() / members.len() as f64;
            let key = |m: &Item| {
                (
                    (f64::from(m.layer.clearance) * 1e3).round(),
                    (m.point - mid).with_y(0.0).length(),
                )
            };
            let lowest = members
                .iter()
                .min_by(|a, b| {
                    let (ka, kb) = (key(a), key(b));
                    ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
                })
                .expect("a group has members");
            let (x0, x1) = span(members.iter().map(|m| m.point.x));
            let (z0, z1) = span(members.iter().map(|m| m.point.z));
            let (direction, extent) = if x1 - x0 >= z1 - z0 {
                (DVec3::X, x1 - x0)
            } else {
                (DVec3::Z, z1 - z0)
            };
            let mut f = blank(FeatureKind::Ceiling, lowest.point, direction);
            f.height_m = Some(f64::from(lowest.layer.clearance));
            f.extent_m = extent + grid.cell;
            f.object = (lowest.layer.ceiling_tri != u32::MAX)
                .then(|| object_name(world, lowest.layer.ceiling_tri))
                .flatten();
            f.cells = members.len();
            f
        })
        .collect()
}
