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
//!    then a plan-view test that is watertight and blind to winding,
//!    `bvh::vertical_line_triangle`), so every surface along the line is seen, not
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

use crate::collide::CollisionWorld;
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
    /// The character's width, metres: a riser shorter than this that ends
    /// at risers square to it at both ends is a stair block's side face,
    /// not a step.
    pub probe_width_m: f64,
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
            probe_width_m: 0.8,
            max_opening_width_m: 6.0,
            max_opening_height_m: 6.0,
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

impl FeatureKind {
    /// The kind's word, as reports and the window print it.
    pub fn word(self) -> &'static str {
        match self {
            FeatureKind::Step => "step",
            FeatureKind::Opening => "opening",
            FeatureKind::Slope => "slope",
            FeatureKind::Ceiling => "ceiling",
        }
    }
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
    /// Step: the tread ends at a wall or a rise (not at a drop), so a body
    /// must fit between the riser's edge and it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tread_walled: bool,
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
    /// Step: the staircase it belongs to (risers chained tread to tread,
    /// climbing the same way), numbered from 0 in the order of the
    /// findings; `None` for a riser on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flight: Option<u32>,
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
    /// True when the level is wound inside out (its faces point away from
    /// where a player stands, judged from the ground and the sky): the
    /// features were found on the other side of every face.
    #[serde(default)]
    pub inside_out: bool,
}

/// A feature with the measured fields empty.
fn blank(kind: FeatureKind, position: DVec3, direction: DVec3) -> Feature {
    Feature {
        kind,
        position,
        direction,
        riser_height_m: None,
        tread_depth_m: None,
        tread_walled: false,
        width_m: None,
        height_m: None,
        slope_deg: None,
        extent_m: 0.0,
        object: None,
        cells: 0,
        flight: None,
    }
}

/// Name of the object owning triangle `tri`.
fn object_name(world: CollisionWorld<'_>, tri: u32) -> Option<String> {
    let objects = &world.mesh.objects;
    (!objects.is_empty()).then(|| objects[world.mesh.object_of(tri)].name.clone())
}

/// Median of `values` (the upper one for an even count); 0 when empty.
fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Drops a feature that repeats an earlier one of its kind: within 2 cm of
/// it, measured the same to the centimetre (two floors of one height in
/// the same cells, such as a rug's top on a floor, find one door twice).
/// `features` is sorted by kind and position, so repeats are close by.
/// Openings at one spot under two lintels are one, the lower.
fn drop_repeats(features: &mut Vec<Feature>) {
    let same = |a: &Feature, b: &Feature| {
        let near = |x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() < 0.01,
            (None, None) => true,
            _ => false,
        };
        a.kind == b.kind
            && (a.position - b.position).length() < 0.02
            && near(a.riser_height_m, b.riser_height_m)
            && near(a.width_m, b.width_m)
            && near(a.height_m, b.height_m)
            && near(a.slope_deg, b.slope_deg)
    };
    // One doorway under two lintels (an arch and the beam under it) is
    // found once per lintel at the same spot: one opening, the lower.
    let stacked = |a: &Feature, b: &Feature| {
        a.kind == FeatureKind::Opening
            && b.kind == FeatureKind::Opening
            && (a.position - b.position).length() < 0.02
    };
    let mut kept: Vec<Feature> = Vec::with_capacity(features.len());
    for f in features.drain(..) {
        let start = kept.len().saturating_sub(8);
        if kept[start..].iter().any(|k| same(k, &f)) {
            continue;
        }
        if let Some(k) = kept[start..].iter_mut().find(|k| stacked(k, &f)) {
            let lower = |x: &Feature| x.height_m.unwrap_or(f64::INFINITY);
            if lower(&f) < lower(k) {
                *k = f;
            }
            continue;
        }
        kept.push(f);
    }
    *features = kept;
}

/// Risers of one staircase climb the same way within this, degrees.
const FLIGHT_TURN_DEG: f64 = 25.0;

/// Groups the steps into staircases: riser `b` follows riser `a` when it
/// climbs the same way, starts on `a`'s upper floor, one tread of `a`
/// further on (within two cells), and the two overlap side by side.
/// Numbers the flights of two risers or more in the findings' order.
fn number_flights(features: &mut [Feature], cell: f64) {
    let steps: Vec<usize> = (0..features.len())
        .filter(|&i| features[i].kind == FeatureKind::Step)
        .collect();
    let turn = FLIGHT_TURN_DEG.to_radians().cos();
    let follows = |a: &Feature, b: &Feature| {
        let (Some(riser), Some(tread)) = (a.riser_height_m, a.tread_depth_m) else {
            return false;
        };
        let along = DVec3::new(-a.direction.z, 0.0, a.direction.x);
        let d = b.position - a.position;
        a.direction.dot(b.direction) > turn
            && (d.y - riser).abs() <= 0.05 + 0.1 * riser
            && (d.dot(a.direction) - tread).abs() <= 2.0 * cell
            && d.dot(along).abs() <= 0.5 * (a.extent_m + b.extent_m)
    };
    let mut root: Vec<usize> = (0..steps.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for (x, &a) in steps.iter().enumerate() {
        for (y, &b) in steps.iter().enumerate() {
            if x != y && follows(&features[a], &features[b]) {
                let (ra, rb) = (find(&mut root, x), find(&mut root, y));
                root[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut size = vec![0usize; steps.len()];
    for x in 0..steps.len() {
        let r = find(&mut root, x);
        size[r] += 1;
    }
    let mut number: Vec<Option<u32>> = vec![None; steps.len()];
    let mut next = 0;
    for (x, &i) in steps.iter().enumerate() {
        let r = find(&mut root, x);
        if size[r] < 2 {
            continue;
        }
        let n = *number[r].get_or_insert_with(|| {
            next += 1;
            next - 1
        });
        features[i].flight = Some(n);
    }
}

/// Finds the steps, openings, slopes and ceilings of `level` (see the module
/// doc), calling `progress` with fractions in `[0, 1]` (from rayon's
/// threads) and returning `None` as soon as `cancel` is seen set.
pub fn find_features(
    world: CollisionWorld<'_>,
    opts: &FeatureOptions,
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
) -> Option<Features> {
    let grid = grid::Grid::sample(world, opts, progress, cancel)?;
    let cancelled = || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let mut features = steps::find(world, &grid, opts);
    progress(0.85);
    if cancelled() {
        return None;
    }
    let (openings, opening_cells) = openings::find(world, &grid, opts);
    features.extend(openings);
    progress(0.95);
    if cancelled() {
        return None;
    }
    features.extend(surfaces::slopes(world, &grid, opts));
    features.extend(surfaces::ceilings(world, &grid, opts, &opening_cells));
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
    drop_repeats(&mut features);
    number_flights(&mut features, grid.cell);
    progress(1.0);
    Some(Features {
        features,
        walkable_cells: grid.walkable_cells(opts),
        cell_m: grid.cell,
        coarsened: grid.coarsened,
        grid_size: [grid.nx, grid.nz],
        inside_out: grid.inside_out,
    })
}
