//! Steps: risers between two walkable floors, grouped along the riser,
//! measured (riser height, tread depth, climb direction), world space.

use super::grid::{DIRS, Grid, Layer, Rays, continuous, dir_vec};
use super::{Feature, FeatureKind, FeatureOptions, blank, median, object_name};
use crate::collide::CollisionWorld;
use glam::DVec3;
use rayon::prelude::*;

/// Risers are steeper than the walkable limit by at least this, degrees.
const RISER_MARGIN_DEG: f64 = 5.0;
/// Treads longer than this are reported as unbounded, metres.
const MAX_TREAD_M: f64 = 20.0;

/// A ramp's side is no riser: an edge whose upper floor slopes more than
/// this, degrees, uphill along the riser rather than away from it...
const RAMP_SIDE_SLOPE_DEG: f64 = 5.0;
/// ... by more than this cosine between its uphill and the riser's line.
const RAMP_SIDE_ALONG: f64 = 0.7;
/// Edges of one riser have horizontal normals within this, degrees.
const SAME_RISER_DEG: f64 = 25.0;
/// A stair block's side face ends at risers square to it, within this
/// many cells of its ends.
const SIDE_END_CELLS: f64 = 1.5;

/// One cell edge with a riser: from the lower cell `(ix, iz)` towards `dir`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    ix: usize,
    iz: usize,
    dir: usize,
    lower: Layer,
    upper: Layer,
    /// Distance from the lower sample to the riser along `dir`, metres.
    riser_t: f64,
    /// The riser's triangle.
    riser_tri: u32,
    /// The way up the step: the riser's horizontal normal, turned away
    /// from the lower floor (unit, y = 0).
    climb: DVec3,
}

impl Edge {
    fn height(&self) -> f64 {
        f64::from(self.upper.y - self.lower.y)
    }

    /// The foot of the riser, on the lower floor.
    fn foot(&self, grid: &Grid) -> DVec3 {
        grid.point(self.ix, self.iz, f64::from(self.lower.y)) + dir_vec(self.dir) * self.riser_t
    }
}

/// The horizontal unit normal of riser triangle `tri`, pointing along
/// `axis` (the grid direction the edge was found in); `axis` when the
/// triangle has no horizontal normal.
fn climb_of(world: CollisionWorld<'_>, tri: u32, axis: DVec3) -> DVec3 {
    let n = world
        .mesh
        .triangle_normal(tri)
        .with_y(0.0)
        .normalize_or_zero();
    if n.dot(axis).abs() > 0.05 {
        n * n.dot(axis).signum()
    } else {
        axis
    }
}

/// Uphill unit direction of a layer (zero when flat).
fn uphill(layer: &Layer) -> DVec3 {
    (-layer.normal.as_dvec3()).with_y(0.0).normalize_or_zero()
}

/// The riser edges leaving cell `(ix, iz)`.
fn edges_of(
    world: CollisionWorld<'_>,
    grid: &Grid,
    opts: &FeatureOptions,
    rays: &mut Rays,
    ix: usize,
    iz: usize,
    out: &mut Vec<Edge>,
) {
    let cell = grid.cell;
    for &lower in grid.layers(grid.index(ix, iz)) {
        if !lower.walkable(opts) {
            continue;
        }
        for dir in 0..DIRS.len() {
            let Some((jx, jz)) = grid.neighbour(ix, iz, dir) else {
                continue;
            };
            let next = grid.layers(grid.index(jx, jz));
            let walkable = |b: &&Layer| b.walkable(opts);
            // Floor going on at the same level: no riser here.
            if next
                .iter()
                .filter(walkable)
                .any(|b| continuous(&lower, b, cell, opts.min_riser_m))
            {
                continue;
            }
            let Some(&upper) = next.iter().filter(walkable).find(|b| {
                let rise = f64::from(b.y - lower.y);
                rise >= opts.min_riser_m && rise <= opts.max_riser_m
            }) else {
                continue;
            };
            let rise = f64::from(upper.y - lower.y);
            if f64::from(lower.clearance) <= rise {
                continue;
            }
            // Just under the upper tread: a floating slab's front is there too.
            let y = f64::from(upper.y) - (0.5 * rise).min(0.02);
            let origin = grid.point(ix, iz, y);
            // A hair past the neighbour's sample: a riser through that
            // sample (a 45° riser through a row of cell centres) is between
            // the two, not a knife's edge of the ray's rounding.
            let Some((t, tri)) = rays.cast(origin, dir_vec(dir), cell * (1.0 + 1e-3)) else {
                continue;
            };
            if rays.slope_deg(tri) <= opts.max_slope_deg + RISER_MARGIN_DEG {
                continue;
            }
            let climb = climb_of(world, tri, dir_vec(dir));
            // The side of a ramp: its top rises along the riser, not away.
            let ramp_side = upper.slope_deg() > RAMP_SIDE_SLOPE_DEG
                && uphill(&upper).dot(climb).abs() < RAMP_SIDE_ALONG;
            if ramp_side {
                continue;
            }
            out.push(Edge {
                ix,
                iz,
                dir,
                lower,
                upper,
                riser_t: t,
                riser_tri: tri,
                climb,
            });
        }
    }
}

/// A measured riser before the side faces are sorted out.
struct Riser {
    feature: Feature,
    /// The riser's line on the ground: its middle and unit direction.
    mid: DVec3,
    along: DVec3,
    half_length: f64,
}

/// Finds the steps of the sampled level.
pub(super) fn find(world: CollisionWorld<'_>, grid: &Grid, opts: &FeatureOptions) -> Vec<Feature> {
    let edges: Vec<Edge> = (0..grid.nz)
        .into_par_iter()
        .map_init(
            || Rays::new(world),
            |rays, iz| {
                let mut out = Vec::new();
                for ix in 0..grid.nx {
                    edges_of(world, grid, opts, rays, ix, iz, &mut out);
                }
                out
            },
        )
        .flatten_iter()
        .collect();
    let cells: Vec<usize> = edges.iter().map(|e| grid.index(e.ix, e.iz)).collect();
    let same_riser = SAME_RISER_DEG.to_radians().cos();
    // One riser at any angle to the grid: its edges face the same way and
    // join the same two floors, in cells that touch (diagonally too: the
    // cells along a 45 degree riser touch only at their corners; see
    // `components_near`).
    let groups = super::group::components_near(grid, &cells, |i, j| {
        let (a, b) = (&edges[i], &edges[j]);
        a.climb.dot(b.climb) > same_riser
            && continuous(&a.lower, &b.lower, 1.5 * grid.cell, opts.min_riser_m)
            && continuous(&a.upper, &b.upper, 1.5 * grid.cell, opts.min_riser_m)
    });
    let risers: Vec<Riser> = groups
        .into_par_iter()
        .map_init(
            || Rays::new(world),
            |rays, group| step_feature(world, grid, opts, rays, &group, &edges),
        )
        .collect();
    drop_block_sides(grid, opts, risers)
}

/// Drops the side faces of stair blocks: a riser shorter than the
/// character is wide whose two ends each meet a riser square to it (the
/// fronts of the block and of the next one) is the side of a step of a
/// flight, not a step of its own. Drops risers shorter than half the
/// character's width too.
fn drop_block_sides(grid: &Grid, opts: &FeatureOptions, risers: Vec<Riser>) -> Vec<Feature> {
    let near = SIDE_END_CELLS * grid.cell;
    let touches_square = |r: &Riser, end: DVec3| {
        risers.iter().any(|o| {
            if o.along.dot(r.along).abs() > 0.5 {
                return false;
            }
            let d = end - o.mid;
            let s = d.dot(o.along).clamp(-o.half_length, o.half_length);
            let gap = (d - o.along * s).with_y(0.0).length();
            gap <= near + grid.cell && (d.y).abs() <= opts.max_riser_m
        })
    };
    let keep: Vec<bool> = risers
        .iter()
        .map(|r| {
            // A riser shorter than half the character is wide is a moulding,
            // a plinth's corner, a carving: nobody walks up it.
            if r.feature.extent_m < 0.5 * opts.probe_width_m {
                return false;
            }
            if 2.0 * r.half_length >= opts.probe_width_m {
                return true;
            }
            let ends = [1.0, -1.0].map(|s| r.mid + r.along * s * r.half_length);
            !(touches_square(r, ends[0]) && touches_square(r, ends[1]))
        })
        .collect();
    risers
        .into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r.feature))
        .collect()
}

/// Measures one riser from its edges.
fn step_feature(
    world: CollisionWorld<'_>,
    grid: &Grid,
    opts: &FeatureOptions,
    rays: &mut Rays,
    group: &[usize],
    edges: &[Edge],
) -> Riser {
    let members: Vec<&Edge> = group.iter().map(|&i| &edges[i]).collect();
    let climb = members
        .iter()
        .map(|e| e.climb)
        .sum::<DVec3>()
        .normalize_or(members[0].climb);
    let along = DVec3::new(-climb.z, 0.0, climb.x);
    let feet: Vec<DVec3> = members.iter().map(|e| e.foot(grid)).collect();
    let mut mid = feet.iter().copied().sum::<DVec3>() / feet.len() as f64;
    mid.y = median(members.iter().map(|e| f64::from(e.lower.y)).collect());
    // The representative edge: the one nearest the middle.
    let rep = (0..members.len())
        .min_by(|&a, &b| {
            let d = |k: usize| (feet[k] - mid).with_y(0.0).length_squared();
            d(a).total_cmp(&d(b))
        })
        .map_or(members[0], |k| members[k]);
    let on_line: Vec<f64> = feet.iter().map(|f| f.dot(along)).collect();
    let (lo, hi) = on_line
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    // The middle of the riser's line, on the lower floor.
    let centre = mid - along * (mid.dot(along) - 0.5 * (lo + hi));
    let mut f = blank(FeatureKind::Step, centre, climb);
    f.riser_height_m = Some(median(members.iter().map(|e| e.height()).collect()));
    let tread = tread_depth(grid, opts, rays, rep.foot(grid), rep.upper, climb);
    f.tread_depth_m = tread.map(|t| t.0);
    f.tread_walled = tread.is_some_and(|t| t.1);
    f.extent_m = hi - lo + grid.cell;
    f.object = object_name(world, rep.riser_tri);
    f.cells = members.len();
    Riser {
        feature: f,
        mid: centre,
        along,
        half_length: 0.5 * (hi - lo),
    }
}

/// Depth of walkable floor on top of a riser whose foot is at `foot`,
/// along its climb direction `climb` (the riser's normal): up to the next
/// rise or wall (by a ray just above the tread) or the edge where the
/// tread ends (found by rays down, then bisection); `None` if it goes on
/// past [`MAX_TREAD_M`]; with `true` when a wall or rise ends it.
fn tread_depth(
    grid: &Grid,
    opts: &FeatureOptions,
    rays: &mut Rays,
    foot: DVec3,
    upper: Layer,
    climb: DVec3,
) -> Option<(f64, bool)> {
    let lift = 0.5 * opts.min_riser_m;
    // Just past the riser's top edge, a little above the tread.
    let top = foot.with_y(f64::from(upper.y) + lift) + climb * 1e-3;
    let wall = rays.cast(top, climb, MAX_TREAD_M).map(|h| h.0);
    let limit = wall.unwrap_or(MAX_TREAD_M);
    let on_tread = |rays: &mut Rays, s: f64| {
        rays.cast(top + climb * s, DVec3::NEG_Y, 2.0 * lift)
            .is_some()
    };
    let step = grid.cell;
    let mut on = 0.0;
    let mut s = step.min(limit);
    while s < limit {
        if !on_tread(rays, s) {
            // A drop or a gap: bisect for the tread's end.
            let mut off = s;
            for _ in 0..20 {
                let m = 0.5 * (on + off);
                if on_tread(rays, m) {
                    on = m;
                } else {
                    off = m;
                }
            }
            return Some((on + 1e-3, false));
        }
        on = s;
        s += step;
    }
    wall.map(|t| (t + 1e-3, true))
}
