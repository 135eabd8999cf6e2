//! Openings: door frames and arches, walkable floor under a thin lintel with
//! walls close on both sides, measured by rays, world space.

use super::grid::{Grid, Layer, Rays, continuous, dir_vec};
use super::{Feature, FeatureKind, FeatureOptions, blank, median, object_name};
use crate::collide::CollisionWorld;
use glam::DVec3;
use rayon::prelude::*;
use std::collections::HashSet;

/// Height of the wall rays above the floor, metres (half the clearance
/// when that is lower).
const WALL_RAY_HEIGHT_M: f64 = 1.0;
/// A lintel is at most this deep along the passage, metres.
const MAX_LINTEL_DEPTH_M: f64 = 2.0;
/// Beyond the lintel the ceiling is higher by at least this, metres.
const LINTEL_STEP_M: f64 = 0.3;
/// A lintel is within this of level, degrees: the underside of a ramp or
/// a sloped roof over a gap is no door head (an arch keeps its level
/// middle, where the passage's centre line runs).
const LINTEL_TILT_DEG: f64 = 20.0;

/// A cell under a lintel with walls both sides along axis `across`.
#[derive(Clone, Copy, Debug)]
struct Gap {
    cell: usize,
    layer: usize,
    floor: Layer,
    /// 0: walls along x (the passage runs along z); 1: walls along z.
    across: usize,
    /// Distances to the walls on the - and + side of `across`, metres.
    minus: f64,
    plus: f64,
}

/// Direction index (into `grid::DIRS`) of `+axis` and `-axis`.
fn dirs(axis: usize) -> (usize, usize) {
    if axis == 0 { (0, 1) } else { (2, 3) }
}

/// True when, walking from cell `i` along direction `d`, the ceiling rises
/// by [`LINTEL_STEP_M`] above `lintel_y` within [`MAX_LINTEL_DEPTH_M`] and
/// the floor goes on beyond for half the character's width: there is room
/// to come out of the passage (an alcove whose back wall stands just past
/// its lintel is a dead end under a low ceiling, not a door).
fn lintel_ends(grid: &Grid, opts: &FeatureOptions, i: usize, floor: Layer, d: usize) -> bool {
    let lintel_y = floor.ceiling_y();
    let (mut ix, mut iz) = grid.cell_of(i);
    let mut y = f64::from(floor.y);
    let room = (0.5 * opts.probe_width_m / grid.cell).ceil() as usize;
    let mut risen: Option<usize> = None;
    let most = (MAX_LINTEL_DEPTH_M / grid.cell).ceil() as usize + room;
    for k in 0..most {
        let Some(next) = grid.neighbour(ix, iz, d) else {
            return false;
        };
        (ix, iz) = next;
        let Some(b) = grid
            .layers(grid.index(ix, iz))
            .iter()
            .filter(|b| b.walkable(opts) && (f64::from(b.y) - y).abs() <= opts.max_riser_m)
            .min_by(|a, b| {
                (f64::from(a.y) - y)
                    .abs()
                    .total_cmp(&(f64::from(b.y) - y).abs())
            })
        else {
            return false;
        };
        y = f64::from(b.y);
        match risen {
            Some(at) if k >= at + room => return true,
            Some(_) => {}
            None if b.ceiling_y() > lintel_y + LINTEL_STEP_M => {
                if room == 0 {
                    return true;
                }
                risen = Some(k);
            }
            None if k + 1 >= (MAX_LINTEL_DEPTH_M / grid.cell).ceil() as usize => return false,
            None => {}
        }
    }
    false
}

/// The opening cell of layer `k` of cell `i`, if it is one.
fn gap_at(
    grid: &Grid,
    opts: &FeatureOptions,
    rays: &mut Rays,
    i: usize,
    k: usize,
    floor: Layer,
) -> Option<Gap> {
    let clearance = f64::from(floor.clearance);
    if !floor.walkable(opts) || clearance > opts.max_opening_height_m {
        return None;
    }
    if floor.ceiling_tri == u32::MAX || rays.slope_deg(floor.ceiling_tri) > LINTEL_TILT_DEG {
        return None;
    }
    let (ix, iz) = grid.cell_of(i);
    let y = f64::from(floor.y) + WALL_RAY_HEIGHT_M.min(0.5 * clearance);
    let origin = grid.point(ix, iz, y);
    let reach = opts.max_opening_width_m;
    let mut walls = [None, None];
    for (axis, wall) in walls.iter_mut().enumerate() {
        let (plus, minus) = dirs(axis);
        let p = rays.cast(origin, dir_vec(plus), reach).map(|h| h.0);
        let m = rays.cast(origin, dir_vec(minus), reach).map(|h| h.0);
        if let (Some(p), Some(m)) = (p, m)
            && p + m <= reach
        {
            *wall = Some((m, p));
        }
    }
    // Walls on both axes: the narrower pair is the jambs.
    let across = match walls {
        [Some(a), Some(b)] => usize::from(b.0 + b.1 < a.0 + a.1),
        [Some(_), None] => 0,
        [None, Some(_)] => 1,
        [None, None] => return None,
    };
    let (minus, plus) = walls[across]?;
    let (fwd, back) = dirs(1 - across);
    (lintel_ends(grid, opts, i, floor, fwd) && lintel_ends(grid, opts, i, floor, back)).then_some(
        Gap {
            cell: i,
            layer: k,
            floor,
            across,
            minus,
            plus,
        },
    )
}

/// Finds the openings; also returns their `(cell, layer)`s, which are not
/// low ceilings.
pub(super) fn find(
    world: CollisionWorld<'_>,
    grid: &Grid,
    opts: &FeatureOptions,
) -> (Vec<Feature>, HashSet<(usize, usize)>) {
    let gaps: Vec<Gap> = (0..grid.nz)
        .into_par_iter()
        .map_init(
            || Rays::new(world),
            |rays, iz| {
                let mut out = Vec::new();
                for ix in 0..grid.nx {
                    let i = grid.index(ix, iz);
                    for (k, &floor) in grid.layers(i).iter().enumerate() {
                        out.extend(gap_at(grid, opts, rays, i, k, floor));
                    }
                }
                out
            },
        )
        .flatten_iter()
        .collect();
    let cells: Vec<usize> = gaps.iter().map(|g| g.cell).collect();
    let groups = super::group::components(grid, &cells, |i, j, _| {
        let (a, b) = (&gaps[i], &gaps[j]);
        a.across == b.across && continuous(&a.floor, &b.floor, grid.cell, opts.min_riser_m)
    });
    let big_enough = |f: &Feature| {
        f.width_m.is_some_and(|w| w >= opts.min_opening_width_m)
            && f.height_m.is_some_and(|h| h >= opts.min_opening_height_m)
    };
    let features = groups
        .iter()
        .map(|group| opening_feature(world, grid, group, &gaps))
        .filter(big_enough)
        .collect();
    (features, gaps.iter().map(|g| (g.cell, g.layer)).collect())
}

/// Measures one opening from its cells.
fn opening_feature(
    world: CollisionWorld<'_>,
    grid: &Grid,
    group: &[usize],
    gaps: &[Gap],
) -> Feature {
    let members: Vec<&Gap> = group.iter().map(|&i| &gaps[i]).collect();
    let across = dir_vec(dirs(members[0].across).0);
    let passage = dir_vec(dirs(1 - members[0].across).0);
    // Each cell's middle of the opening: half-way between its two walls.
    let mids: Vec<DVec3> = members
        .iter()
        .map(|g| {
            let (ix, iz) = grid.cell_of(g.cell);
            grid.point(ix, iz, f64::from(g.floor.y)) + across * 0.5 * (g.plus - g.minus)
        })
        .collect();
    let mut position = mids.iter().copied().sum::<DVec3>() / mids.len() as f64;
    position.y = median(members.iter().map(|g| f64::from(g.floor.y)).collect());
    let along: Vec<f64> = mids.iter().map(|p| p.dot(passage)).collect();
    let lo = along.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = along.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lowest = members
        .iter()
        .min_by(|a, b| a.floor.clearance.total_cmp(&b.floor.clearance))
        .expect("a group has members");
    let mut f = blank(FeatureKind::Opening, position, passage);
    f.width_m = members.iter().map(|g| g.minus + g.plus).reduce(f64::min);
    f.height_m = Some(f64::from(lowest.floor.clearance));
    f.extent_m = hi - lo + grid.cell;
    f.object = (lowest.floor.ceiling_tri != u32::MAX)
        .then(|| object_name(world, lowest.floor.ceiling_tri))
        .flatten();
    f.cells = members.len();
    f
}
