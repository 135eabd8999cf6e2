//! Steps: risers between two walkable floors, grouped along the riser,
//! measured (riser height, tread depth, climb direction), world space.

use super::grid::{DIRS, Grid, Layer, Rays, continuous, dir_vec};
use super::{Feature, FeatureKind, FeatureOptions, blank, median, object_name};
use crate::level::Level;
use glam::DVec3;
use rayon::prelude::*;

/// Risers are steeper than the walkable limit by at least this, degrees.
const RISER_MARGIN_DEG: f64 = 5.0;
/// Treads longer than this are reported as unbounded, metres.
const MAX_TREAD_M: f64 = 20.0;

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

/// The riser edges leaving cell `(ix, iz)`.
fn edges_of(
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
            let Some((t, tri)) = rays.cast(origin, dir_vec(dir), cell) else {
                continue;
            };
            if rays.slope_deg(tri) > opts.max_slope_deg + RISER_MARGIN_DEG {
                out.push(Edge {
                    ix,
                    iz,
                    dir,
                    lower,
                    upper,
                    riser_t: t,
                    riser_tri: tri,
                });
            }
        }
    }
}

/// Finds the steps of the sampled level.
pub(super) fn find(level: &Level, grid: &Grid, opts: &FeatureOptions) -> Vec<Feature> {
    let edges: Vec<Edge> = (0..grid.nz)
        .into_par_iter()
        .map_init(
            || Rays::new(level),
            |rays, iz| {
                let mut out = Vec::new();
                for ix in 0..grid.nx {
                    edges_of(grid, opts, rays, ix, iz, &mut out);
                }
                out
            },
        )
        .flatten_iter()
        .collect();
    let cells: Vec<usize> = edges.iter().map(|e| grid.index(e.ix, e.iz)).collect();
    let groups = super::group::components(grid, &cells, |i, j, axis| {
        let (a, b) = (&edges[i], &edges[j]);
        // Along the riser: neighbours across the climb direction.
        let across = if DIRS[a.dir].0 != 0 { 1 } else { 0 };
        a.dir == b.dir
            && axis == across
            && continuous(&a.lower, &b.lower, grid.cell, opts.min_riser_m)
            && continuous(&a.upper, &b.upper, grid.cell, opts.min_riser_m)
    });
    groups
        .into_par_iter()
        .map_init(
            || Rays::new(level),
            |rays, group| step_feature(level, grid, opts, rays, &group, &edges),
        )
        .collect()
}

/// Measures one riser from its edges.
fn step_feature(
    level: &Level,
    grid: &Grid,
    opts: &FeatureOptions,
    rays: &mut Rays,
    group: &[usize],
    edges: &[Edge],
) -> Feature {
    let members: Vec<&Edge> = group.iter().map(|&i| &edges[i]).collect();
    let axis = dir_vec(members[0].dir);
    let across = DVec3::new(-axis.z, 0.0, axis.x);
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
    let n = level.mesh.triangle_normal(rep.riser_tri).with_y(0.0);
    let n = n.normalize_or_zero();
    let direction = if n.dot(axis).abs() > 0.1 {
        n * n.dot(axis).signum()
    } else {
        axis
    };
    let along: Vec<f64> = feet.iter().map(|f| f.dot(across)).collect();
    let (lo, hi) = along
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    let mut f = blank(FeatureKind::Step, mid, direction);
    f.riser_height_m = Some(median(members.iter().map(|e| e.height()).collect()));
    f.tread_depth_m = tread_depth(grid, opts, rays, rep);
    f.extent_m = hi - lo + grid.cell;
    f.object = object_name(level, rep.riser_tri);
    f.cells = members.len();
    f
}

/// Depth of walkable floor on top of the riser of `edge`, along its climb
/// axis, up to the next rise (by ray) or the edge where the tread ends (by
/// bisection); `None` if it goes on past the grid or [`MAX_TREAD_M`].
fn tread_depth(grid: &Grid, opts: &FeatureOptions, rays: &mut Rays, edge: &Edge) -> Option<f64> {
    let axis = dir_vec(edge.dir);
    let riser = edge.foot(grid);
    let (mut ix, mut iz) = grid.neighbour(edge.ix, edge.iz, edge.dir)?;
    let mut layer = edge.upper;
    let max_cells = (MAX_TREAD_M / grid.cell).ceil() as usize;
    for _ in 0..max_cells {
        let here = grid.point(ix, iz, f64::from(layer.y));
        let depth_to = |p: DVec3| Some((p - riser).dot(axis).max(0.0));
        let (jx, jz) = grid.neighbour(ix, iz, edge.dir)?;
        let next = grid
            .layers(grid.index(jx, jz))
            .iter()
            .find(|b| b.walkable(opts) && continuous(&layer, b, grid.cell, opts.min_riser_m));
        if let Some(&b) = next {
            (ix, iz, layer) = (jx, jz, b);
            continue;
        }
        // A rise or a wall ahead: the ray meets it.
        let lift = 0.5 * opts.min_riser_m;
        if let Some((t, _)) = rays.cast(here + DVec3::Y * lift, axis, grid.cell) {
            return depth_to(here + axis * t);
        }
        // A drop or a gap: bisect for the tread's end.
        let (mut on, mut off) = (0.0, grid.cell);
        for _ in 0..20 {
            let s = 0.5 * (on + off);
            let top = here + axis * s + DVec3::Y * lift;
            if rays.cast(top, DVec3::NEG_Y, 2.0 * lift).is_some() {
                on = s;
            } else {
                off = s;
            }
        }
        return depth_to(here + axis * on);
    }
    None
}
