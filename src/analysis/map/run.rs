//! Running a map: find the start floors, settle the character on each,
//! walk it in every direction and classify the walks, on all cores.

use super::class::{self, MapClass, WalkContext};
use super::report::{ClassCounts, MapReport, MapSpot};
use super::starts::{FloorFinder, MapGrid, StartCells, StartFloor};
use super::walker::MapWalk;
use super::{MAX_COLUMNS, MapError, MapOptions};
use crate::bvh::BvhScratch;
use crate::character::MAX_WALK_FRAMES;
use crate::collide::{CollisionWorld, SlideSettings};
use glam::DVec3;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// The character starts this far above the floor and settles for
/// [`SETTLE_S`] standing still: it lands, and rests on a slope.
const START_LIFT_M: f64 = 0.02;
/// Time given to settle on the floor before walking, seconds.
const SETTLE_S: f64 = 0.25;
/// Points on the footprint's outline that must have ground under them.
pub const FOOTPRINT_POINTS: u32 = 8;
/// Spare height in the footing and reach tests, metres.
pub const REACH_SPARE_M: f64 = 0.05;
/// Frames of a walk closer than this to the last one looked at are not
/// looked at for the starts they pass, metres.
const REACH_STRIDE_M: f64 = 0.02;

/// Maps the level `world` for the character of `settings` (see the module
/// documentation). `progress` gets fractions in `[0, 1]`; `Ok(None)` when
/// `cancel` was set.
pub fn map_level(
    level_name: &str,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    opts: &MapOptions,
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<MapReport>, MapError> {
    map_level_from(level_name, world, settings, opts, &[], progress, cancel)
}

/// [`map_level`] with reachability from `spawns` (world space) instead of
/// the main floor region (when not empty): a spawn point is an error when
/// no start point is near it.
pub fn map_level_from(
    level_name: &str,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    opts: &MapOptions,
    spawns: &[DVec3],
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<MapReport>, MapError> {
    // The map reads where frames end, never the trigger events.
    map_level_recording(
        level_name, world, settings, opts, spawns, progress, cancel, false,
    )
}

/// [`map_level`], with the walks' trigger events recorded or not (the
/// tests check that the map is the same either way).
#[allow(clippy::too_many_arguments)]
pub(super) fn map_level_recording(
    level_name: &str,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    opts: &MapOptions,
    spawns: &[DVec3],
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
    trigger_events: bool,
) -> Result<Option<MapReport>, MapError> {
    let t = Instant::now();
    settings
        .validate()
        .map_err(|e| MapError::InvalidSettings(e.to_string()))?;
    opts.validate()?;
    if let Some(p) = spawns.iter().find(|p| !p.is_finite()) {
        return Err(MapError::InvalidOptions(format!(
            "spawn point {p} must be three finite numbers"
        )));
    }
    let frames = (opts.seconds * settings.character.frame_rate_hz).ceil();
    if frames > f64::from(MAX_WALK_FRAMES) {
        return Err(MapError::InvalidOptions(format!(
            "{} s at {} Hz is {frames} frames; a walk is at most {MAX_WALK_FRAMES} frames",
            opts.seconds, settings.character.frame_rate_hz
        )));
    }
    let bounds = world.mesh.bounds();
    if bounds.is_empty() {
        return Err(MapError::EmptyLevel);
    }
    let (lo, hi) = (bounds.min.as_dvec3(), bounds.max.as_dvec3());
    let (grid, columns) = MapGrid::over(lo, hi, opts.spacing_m);
    if columns > MAX_COLUMNS as f64 {
        return Err(MapError::TooManyColumns {
            spacing_m: opts.spacing_m,
            columns,
        });
    }
    let mut settings = settings.clone();
    settings.self_checks = true;
    let Some(floors) = start_floors(world, &settings, &grid, (lo.y, hi.y), cancel) else {
        return Ok(None);
    };
    progress(0.05);
    let start_points = floors.len() as u32;
    // A start settles up to about a radius from its column centre.
    let across_m = settings.radii[0].max(settings.radii[2]) + 0.5 * opts.spacing_m;
    let cells = StartCells::new(
        &floors,
        across_m,
        settings.character.max_step_height_m + REACH_SPARE_M,
    );
    let mine: Vec<(usize, StartFloor)> = floors
        .into_iter()
        .enumerate()
        .filter(|(i, _)| opts.shard.takes(*i))
        .collect();
    let per_walk = frames as u64;
    let planned = (mine.len() as u64)
        .saturating_mul(u64::from(opts.directions))
        .saturating_mul(per_walk);
    if planned > opts.max_frames {
        return Err(MapError::TooManyFrames {
            frames: planned,
            starts: mine.len() as u64,
            directions: opts.directions,
            per_walk,
            max_frames: opts.max_frames,
        });
    }
    let cx = WalkContext {
        bounds_min: lo,
        bounds_max: hi,
        walk_speed_m_s: settings.character.walk_speed_m_s,
        frame_time_s: settings.character.frame_time_s(),
        max_step_height_m: settings.character.max_step_height_m,
        floor_min_up: settings.character.floor_min_up(),
    };
    let done = AtomicUsize::new(0);
    let total = mine.len().max(1);
    let spots: Option<Vec<Start>> = mine
        .par_iter()
        .map(|&(index, floor)| {
            let at = (index, floor);
            let spot = walk_from(
                world,
                &settings,
                (&grid, &cells),
                opts,
                &cx,
                at,
                cancel,
                trigger_events,
            )?;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(0.05 + 0.95 * n as f32 / total as f32);
            Some(spot)
        })
        .collect();
    let Some(spots) = spots else {
        return Ok(None);
    };
    let (mut walks, mut frames, mut unplaceable, mut no_footing) = (0, 0, 0, 0);
    let spots: Vec<MapSpot> = spots
        .into_iter()
        .filter_map(|s| match s {
            Start::Unplaceable => {
                unplaceable += 1;
                None
            }
            Start::NoFooting => {
                no_footing += 1;
                None
            }
            Start::Walked(spot, w, f) => {
                walks += w;
                frames += f;
                Some(*spot)
            }
        })
        .collect();
    let mut report = MapReport {
        level: level_name.to_string(),
        settings,
        grid,
        directions: opts.directions,
        seconds: opts.seconds,
        shard: opts.shard,
        start_points,
        unplaceable,
        no_footing,
        spawns: spawns.to_vec(),
        unreachable: 0,
        counts: ClassCounts::default(),
        spots,
        walks,
        frames,
        elapsed_ms: 0.0,
    };
    report.count_reachable()?;
    report.elapsed_ms = t.elapsed().as_secs_f64() * 1e3;
    Ok(Some(report))
}

/// What became of one start point.
enum Start {
    /// The character did not come to rest on ground there, or overlapped geometry.
    Unplaceable,
    /// Some point of its footprint has no ground under it.
    NoFooting,
    /// Walked: the spot, the walks and the frames run.
    Walked(Box<MapSpot>, u64, u64),
}

/// Every walkable floor of every column, in grid order; `None` if cancelled.
fn start_floors(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    grid: &MapGrid,
    (lo_y, hi_y): (f64, f64),
    cancel: &AtomicBool,
) -> Option<Vec<StartFloor>> {
    let min_up = settings.character.floor_min_up();
    let height_m = 2.0 * settings.radii[1];
    let ys = (lo_y as f32 - 1.0, hi_y as f32 + 1.0);
    let rows: Vec<Vec<StartFloor>> = (0..grid.nz)
        .into_par_iter()
        .map_init(FloorFinder::default, |finder, iz| {
            let mut row = Vec::new();
            if !cancel.load(Ordering::Relaxed) {
                for ix in 0..grid.nx {
                    finder.column(world, grid, (ix, iz), ys, min_up, height_m, &mut row);
                }
            }
            row
        })
        .collect();
    (!cancel.load(Ordering::Relaxed)).then(|| rows.into_iter().flatten().collect())
}

/// Settles the character on `floor` and walks it every way. `None` when
/// cancelled; else what became of the start.
#[allow(clippy::too_many_arguments)]
fn walk_from(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    (grid, cells): (&MapGrid, &StartCells),
    opts: &MapOptions,
    cx: &WalkContext,
    (index, floor): (usize, StartFloor),
    cancel: &AtomicBool,
    trigger_events: bool,
) -> Option<Start> {
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let ry = settings.radii[1];
    let lifted = grid.point(floor.ix, floor.iz, floor.floor_y + ry + START_LIFT_M);
    let frames_of = |s: f64| (s * settings.character.frame_rate_hz).ceil() as u32;
    let Some(settle) = MapWalk::run(
        world,
        settings,
        (lifted, DVec3::ZERO),
        frames_of(SETTLE_S),
        &|_| false,
        trigger_events,
    ) else {
        return Some(Start::Unplaceable);
    };
    if !settle.end().grounded || class::embedded_frame(&settle.frames).is_some() {
        return Some(Start::Unplaceable);
    }
    let start = settle.end().position;
    let mut rays = BvhScratch::default();
    if !has_footing(world, settings, start, &mut rays) {
        return Some(Start::NoFooting);
    }
    let mut reaches: Vec<u32> = Vec::new();
    let mut passed = |w: &MapWalk| {
        // Frames 2 cm or more apart (a walk creeps or stands most of them).
        let mut last: Option<DVec3> = None;
        for f in w.frames.iter().filter(|f| f.after.grounded) {
            let p = f.after.position;
            if last.is_some_and(|l| (p - l).length() < REACH_STRIDE_M) {
                continue;
            }
            last = Some(p);
            cells.at(grid, p - DVec3::Y * ry, &mut reaches);
        }
        if reaches.len() > 4096 {
            reaches.sort_unstable();
            reaches.dedup();
        }
    };
    let (mut walks, mut frames) = (0u64, 0u64);
    let mut classes = Vec::with_capacity(opts.directions as usize);
    let mut worst: Option<(MapClass, u32, DVec3, Option<u32>, DVec3)> = None;
    for k in 0..opts.directions {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let yaw = std::f64::consts::TAU * f64::from(k) / f64::from(opts.directions);
        let dir = DVec3::new(yaw.cos(), 0.0, yaw.sin());
        let Some(w) = MapWalk::run(
            world,
            settings,
            (start, dir),
            frames_of(opts.seconds),
            &|_| false,
            trigger_events,
        ) else {
            return Some(Start::Unplaceable);
        };
        walks += 1;
        frames += w.frames.len() as u64;
        passed(&w);
        let end = w.end().position;
        let under = under_end(world, &w, cx, &mut rays);
        let found = class::classify(&w, cx, under);
        let mut verdict = found.into_iter().max_by_key(|v| v.0);
        if verdict.is_none_or(|v| v.0 < MapClass::CantGetBack) && class::dropped(&w, cx) {
            // As long back as out (twice, at most the longest walk), stopping once up.
            let back_len = (2 * frames_of(opts.seconds)).min(MAX_WALK_FRAMES);
            let up_y = start.y - class::BACK_TOLERANCE_M;
            let up = |f: &crate::character::FrameRecord| f.after.position.y >= up_y;
            let Some(back) =
                MapWalk::run(world, settings, (end, -dir), back_len, &up, trigger_events)
            else {
                return Some(Start::Unplaceable);
            };
            walks += 1;
            frames += back.frames.len() as u64;
            passed(&back);
            if back.highest_y() < up_y {
                verdict = Some((MapClass::CantGetBack, Some(class::drop_frame(&w, cx))));
            }
        }
        let (class, frame) = verdict.unwrap_or((MapClass::Free, None));
        classes.push(class);
        if worst.is_none_or(|w| class > w.0) {
            worst = Some((class, k, dir, frame, end));
        }
    }
    let (class, worst_direction, direction, frame, end) = worst?;
    reaches.sort_unstable();
    reaches.dedup();
    reaches.retain(|&i| i != index as u32);
    reaches.shrink_to_fit();
    let spot = MapSpot {
        index: index as u32,
        cell: [floor.ix, floor.iz],
        floor_y: floor.floor_y,
        start,
        class,
        worst_direction,
        direction,
        frame,
        end,
        walks: classes,
        reachable: true,
        reaches,
    };
    Some(Start::Walked(Box::new(spot), walks, frames))
}

/// Whether a player stands at `centre` (the settled ellipsoid centre):
/// ground under the centre and under [`FOOTPRINT_POINTS`] points on the
/// ellipsoid's horizontal outline, each within the step height (plus what
/// the steepest walkable slope drops over the radius, plus
/// [`REACH_SPARE_M`]) below the feet. A wall top or a cornice narrower than
/// the character fails.
fn has_footing(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    centre: DVec3,
    scratch: &mut BvhScratch,
) -> bool {
    let [rx, ry, rz] = settings.radii;
    let c = &settings.character;
    let slope_drop = rx.max(rz) * c.max_slope_deg.to_radians().tan();
    let reach = ry + c.max_step_height_m.max(slope_drop) + REACH_SPARE_M;
    let ground = |p: DVec3, scratch: &mut BvhScratch| ground_within(world, p, reach, scratch);
    if !ground(centre, scratch) {
        return false;
    }
    (0..FOOTPRINT_POINTS).all(|k| {
        let a = std::f64::consts::TAU * f64::from(k) / f64::from(FOOTPRINT_POINTS);
        let p = centre + DVec3::new(rx * a.cos(), 0.0, rz * a.sin());
        ground(p, scratch)
    })
}

/// Whether a colliding surface lies under `p` within `reach` (non-colliding
/// ones are looked through).
fn ground_within(
    world: CollisionWorld<'_>,
    p: DVec3,
    reach: f64,
    scratch: &mut BvhScratch,
) -> bool {
    reach > 0.0
        && world
            .ray_cast_colliding(p, DVec3::NEG_Y, reach, scratch)
            .is_some()
}

/// What lies under the end of `walk`: ground, or nothing and then whether
/// the level goes on around it ([`class::Under`]). Around: from the end,
/// eight ways along the ground at the walk's height, a downward ray every
/// [`ENCLOSED_STEP_M`] out to [`class::ENCLOSED_REACH_M`]; the void is a
/// hole when every way meets some colliding surface below (the level goes
/// on past it), open when one way meets none.
fn under_end(
    world: CollisionWorld<'_>,
    walk: &MapWalk,
    cx: &WalkContext,
    scratch: &mut BvhScratch,
) -> class::Under {
    let end = walk.end().position;
    if !nothing_below(world, end, cx, scratch) {
        return class::Under::Ground;
    }
    // From above the floor the walk stood on, so a ray meets that floor.
    let top = DVec3::new(end.x, end.y.max(walk.from.y), end.z);
    let steps = (class::ENCLOSED_REACH_M / ENCLOSED_STEP_M).ceil() as u32;
    let open_way = (0..ENCLOSED_WAYS).any(|k| {
        let a = std::f64::consts::TAU * f64::from(k) / f64::from(ENCLOSED_WAYS);
        let way = DVec3::new(a.cos(), 0.0, a.sin());
        (1..=steps).all(|i| {
            let p = top + way * (f64::from(i) * ENCLOSED_STEP_M);
            nothing_below(world, p, cx, scratch)
        })
    });
    if open_way {
        class::Under::OpenSide
    } else {
        class::Under::Hole
    }
}

/// Ways looked along from a void for the level going on ([`under_end`]).
const ENCLOSED_WAYS: u32 = 8;
/// Spacing of the downward rays along each way, metres: narrower than a
/// character, so a floor it could stand on is not stepped over.
const ENCLOSED_STEP_M: f64 = 0.25;

/// Whether no colliding surface lies under `p` (down to below the level).
fn nothing_below(
    world: CollisionWorld<'_>,
    p: DVec3,
    cx: &WalkContext,
    scratch: &mut BvhScratch,
) -> bool {
    // Non-colliding surfaces (triggers, decals) are looked through.
    let reach = p.y - (cx.bounds_min.y - 1.0);
    reach <= 0.0
        || world
            .ray_cast_colliding(p, DVec3::NEG_Y, reach, scratch)
            .is_none()
}
