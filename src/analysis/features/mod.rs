//! Finds and measures a level's features (steps, openings, slopes and low
//! ceilings) geometrically, from the triangles alone: the first half of
//! "can the player climb these stairs, fit through this door?". A later
//! layer walks a character at each feature for the verdict.
//!
//! Everything is in world space (Y up, metres) and works on any imported
//! level, multi-storey ones included.
//!
//! # Method
//!
//! 1. **Sampling** (`grid`): the level's XZ bounds are covered by a grid of
//!    `cell_m` squares. At each cell centre a vertical line is intersected
//!    with every triangle whose box the line meets (a thin BVH box query,
//!    then Moller-Trumbore), so every surface along the line is seen, not
//!    just the top one. Up-facing surfaces (by winding) that are not walls
//!    (slope <= 80 degrees) and have at least 0.1 m of free space above them
//!    become the cell's *layers*, each with its height, normal, triangle and
//!    clearance (the distance up to the next surface). A floor under a solid
//!    resting on it (a staircase on the ground) has no clearance and is
//!    dropped. The work runs on rayon, row by row, with progress and cancel.
//!    The grid is capped at `max_cells` (at most [`MAX_CELLS`]) cells: a bigger level is sampled
//!    with a coarser cell, and [`Features::cell_m`] says which.
//! 2. **Steps** (`steps`): two neighbouring walkable layers (4-neighbours)
//!    whose heights differ by `min_riser_m..=max_riser_m` and are not the
//!    same surface (the height change is more than the slope explains),
//!    with a riser between them: a horizontal ray from the lower cell, just
//!    below the upper tread's height, must hit a surface steeper than the
//!    walkable limit (+5 degrees) before the neighbour's centre. That keeps
//!    ramps, tables (nothing under their top edge) and open stairs (the
//!    ray is cast just under the tread, where a floating slab's front is)
//!    apart. Edges along one riser are grouped; the riser height is the
//!    median height difference (exact for flat treads: heights come from
//!    ray hits, not from cells), the climb direction is the riser's
//!    horizontal normal, and the tread depth is measured by a ray to the
//!    next riser or by bisection to the edge where the tread ends.
//! 3. **Openings** (`openings`): walkable cells under a lintel (clearance
//!    at most `max_opening_height_m`) with walls on both sides along one
//!    horizontal axis, at most `max_opening_width_m` apart (horizontal rays
//!    at 1 m, or mid-clearance for low openings), and more headroom within
//!    2 m on both sides along the other axis (the lintel is thin: a long low
//!    tunnel is a ceiling instead). Width is the smallest wall-to-wall ray
//!    distance, height the smallest clearance, both measured by rays, so
//!    they do not depend on the cell size. Gaps narrower than
//!    `min_opening_width_m` or lower than `min_opening_height_m` (between a
//!    bench's legs, under a table) are no passage and are not reported.
//! 4. **Slopes and ceilings** (`surfaces`): up-facing layers between 5 and 80
//!    degrees, grouped by continuity and orientation, give slopes (median
//!    angle, uphill direction from the normals); walkable cells with less
//!    than 1.5 x `probe_height_m` of clearance that are not openings give
//!    ceilings (height = smallest clearance).
//!
//! Grouping (`group`) is 4-connected components with a per-kind
//! "same feature" test. Results are sorted by kind, then position.
//!
//! # Limits
//!
//! - Resolution is the cell: a feature narrower than a cell may be missed,
//!   and positions and extents are good to about a cell. Heights, widths,
//!   angles and depths are measured by rays and are not.
//! - Risers and walls are found along the grid axes; a riser at 45 degrees
//!   to the grid is still found (its edges are seen along both axes) and its
//!   direction comes from its normal, but its group may split.
//! - An opening must have a lintel: a gap between two pillars with open sky
//!   above is not reported (it is just floor). Arches are measured at their
//!   lowest cell and narrowest ray.
//! - Up and down are decided by winding: a floor wound the wrong way is
//!   seen as a ceiling.

mod grid;
mod group;
mod openings;
mod steps;
mod surfaces;
#[cfg(test)]
mod tests;

use crate::level::Level;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// The grid is never bigger than this many cells: a bigger level is sampled
/// with a coarser cell (memory stays linear in the grid: 4 bytes per cell
/// and 28 per surface found, about 500 MB at the cap for a one-storey level).
pub const MAX_CELLS: usize = 16 << 20;

/// What to look for and the character's limits, metres and degrees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FeatureOptions {
    /// Sampling grid spacing, metres.
    pub cell_m: f64,
    /// Walkable slope limit, degrees: steeper surfaces are not floors.
    pub max_slope_deg: f64,
    /// Smaller height changes are not steps, metres.
    pub min_riser_m: f64,
    /// Taller height changes are drops or ledges, not steps, metres.
    pub max_riser_m: f64,
    /// The character's full height, metres: ceilings lower than 1.5 times
    /// this over walkable floor are reported.
    pub probe_height_m: f64,
    /// Wider passages are not openings, metres.
    pub max_opening_width_m: f64,
    /// Higher lintels are not openings, metres.
    pub max_opening_height_m: f64,
    /// Narrower gaps are not openings, metres: the space between a
    /// bench's legs is no passage (a door too narrow for the character
    /// still is one).
    pub min_opening_width_m: f64,
    /// Lower gaps are not openings, metres: the space under a table is no
    /// passage (a door too low for the character still is one).
    pub min_opening_height_m: f64,
    /// Largest grid, cells (at most [`MAX_CELLS`]): a bigger level is
    /// sampled with a coarser cell.
    pub max_cells: usize,
}

impl Default for FeatureOptions {
    fn default() -> Self {
        FeatureOptions {
            cell_m: 0.1,
            max_slope_deg: 45.0,
            min_riser_m: 0.03,
            max_riser_m: 1.5,
            probe_height_m: 1.8,
            max_opening_width_m: 3.0,
            max_opening_height_m: 3.0,
            min_opening_width_m: 0.3,
            min_opening_height_m: 0.9,
            max_cells: MAX_CELLS,
        }
    }
}

/// The kinds of feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureKind {
    /// A riser between two walkable floors.
    Step,
    /// A door frame or arch: walls close on both sides, a lintel above.
    Opening,
    /// A sloped surface (5 to 80 degrees), walkable or not.
    Slope,
    /// Walkable floor under a low ceiling.
    Ceiling,
}

/// One feature found in the level, world space (Y up, metres).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    /// What it is.
    pub kind: FeatureKind,
    /// A point on the walkable floor at the feature: a step's lower floor at
    /// the foot of the riser, mid-way along it; the middle of an opening; the
    /// foot of a slope region, mid-width; the floor under a ceiling's
    /// lowest part.
    pub position: DVec3,
    /// Unit horizontal vector (y = 0), the way to walk to cross it: up the
    /// step or slope; along the passage of an opening (the + axis); along a
    /// ceiling region's longer side (the + axis).
    pub direction: DVec3,
    /// Step: height of the riser (median along it), metres.
    pub riser_height_m: Option<f64>,
    /// Step: depth of the walkable floor on top before the next rise, drop or
    /// wall; `None` when it does not end within 20 m.
    pub tread_depth_m: Option<f64>,
    /// Opening: clear width (smallest wall-to-wall distance), metres.
    pub width_m: Option<f64>,
    /// Opening: clear height; ceiling: smallest clearance over the floor, metres.
    pub height_m: Option<f64>,
    /// Slope: median angle from horizontal, degrees.
    pub slope_deg: Option<f64>,
    /// Size for drawing, metres: a step's riser length, an opening's
    /// thickness along the passage, a slope's width across, a ceiling
    /// region's longer side.
    pub extent_m: f64,
    /// Name of the object of the main triangle (riser, jamb, slope, ceiling).
    pub object: Option<String>,
    /// Grid cells the feature covers (edges for a step).
    pub cells: usize,
}

/// Everything [`find_features`] found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// The features, sorted by kind, then position (x, z, y).
    pub features: Vec<Feature>,
    /// Cells with at least one walkable floor: zero means "this level has no
    /// walkable floor" rather than "nothing to report".
    pub walkable_cells: usize,
    /// Grid spacing used, metres (larger than asked when the grid was capped).
    pub cell_m: f64,
    /// True when `cell_m` was coarsened to keep the grid under `max_cells`.
    pub coarsened: bool,
    /// Grid size, cells along x and z.
    pub grid_size: [usize; 2],
}

/// A feature with the measured fields empty.
fn blank(kind: FeatureKind, position: DVec3, direction: DVec3) -> Feature {
    Feature {
        kind,
        position,
        direction,
        riser_height_m: None,
        tread_depth_m: None,
        width_m: None,
        height_m: None,
        slope_deg: None,
        extent_m: 0.0,
        object: None,
        cells: 0,
    }
}

/// Name of the object owning triangle `tri`.
fn object_name(level: &Level, tri: u32) -> Option<String> {
    let objects = &level.mesh.objects;
    (!objects.is_empty()).then(|| objects[level.mesh.object_of(tri)].name.clone())
}

/// Median of `values` (the upper one for an even count); 0 when empty.
fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Finds the steps, openings, slopes and ceilings of `level` (see the module
/// doc), calling `progress` with fractions in `[0, 1]` (from rayon's
/// threads) and returning `None` as soon as `cancel` is seen set.
pub fn find_features(
    level: &Level,
    opts: &FeatureOptions,
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
) -> Option<Features> {
    let grid = grid::Grid::sample(level, opts, progress, cancel)?;
    let cancelled = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let mut features = steps::find(level, &grid, opts);
    progress(0.85);
    if cancelled() {
        return None;
    }
    let (openings, opening_cells) = openings::find(level, &grid, opts);
    features.extend(openings);
    progress(0.95);
    if cancelled() {
        return None;
    }
    features.extend(surfaces::slopes(level, &grid, opts));
    features.extend(surfaces::ceilings(level, &grid, opts, &opening_cells));
    features.sort_by(|a, b| {
        a.kind.cmp(&b.kind).then_with(|| {
            let key = |f: &Feature| [f.position.x, f.position.z, f.position.y];
            let (ka, kb) = (key(a), key(b));
            (0..3)
                .map(|i| ka[i].total_cmp(&kb[i]))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    });
    progress(1.0);
    Some(Features {
        features,
        walkable_cells: grid.walkable_cells(opts),
        cell_m: grid.cell,
        coarsened: grid.coarsened,
        grid_size: [grid.nx, grid.nz],
    })
}
