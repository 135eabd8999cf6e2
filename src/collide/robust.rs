//! The `robust` iteration: Fauerby's per-feature sweep with the later fixes.
//!
//! All collision math is in ellipsoid space (the probe is a unit sphere):
//! - contacts that the probe only touches while moving away do not block;
//! - a start embedded deeper than a hair is pushed out first (recovery);
//! - the probe stops short of the contact so that its clearance measured
//!   along the contact normal is the skin (Fauerby's very-close distance is
//!   taken along the velocity, which leaves almost no clearance at grazing
//!   angles: Linahan 2012);
//! - the remaining motion is projected onto the contact plane; if that runs
//!   into a plane met earlier in the pass, it is projected onto the crease of
//!   the two planes, and a third plane stops the pass (Quake III's
//!   `PM_SlideMove` clip-plane list); unlike Quake's list, a plane leaves it
//!   once the probe no longer touches its triangle, so rounding the end of a
//!   wall or a door jamb is not mistaken for a crease.

use super::context::{ContactPlane, StepContext, StepDecision};
use super::nettle_points::{NettlePoints, nettle_points_espace};
use crate::collide::{
    CandidateOutcome, EndReason, IterationRecord, NearestHit, Recovery, SlidingPlane, TraceDetail,
};
use crate::geometry::closest::closest_point_on_triangle;
use crate::geometry::solid_sweep::{SolidHit, sweep_solid_triangle};
use crate::geometry::sweep::{SweepHit, SweepOutcome, sweep_unit_sphere_triangle};
use crate::math::Vec3;
use glam::DVec3;

/// Embedding deeper than this (ellipsoid space) triggers a push out.
const PENETRATION_TOLERANCE: f64 = 1e-7;
/// Push-out rounds before giving up on an embedded start.
const MAX_RECOVERY_ROUNDS: usize = 4;
/// Two contact normals this close (cosine) are the same plane.
const SAME_PLANE_COS: f64 = 0.9999;
/// Rounding allowance (ellipsoid space) when deciding whether the probe
/// still touches an earlier contact's triangle.
const TOUCH_SLACK: f64 = 1e-9;

/// The blocking contact chosen in one iteration.
struct Blocking {
    tri: u32,
    /// The triangle's corners (world), as the search handed them over.
    corners: [Vec3; 3],
    hit: SweepHit,
}

/// Result of testing every candidate once from one start position.
struct Tested {
    nearest: Option<Blocking>,
    /// Deepest embedding at the start: (triangle, depth, unit push direction), ellipsoid space.
    deepest: Option<(u32, f64, DVec3)>,
}

pub(super) fn step(
    ctx: &mut StepContext<'_, '_>,
    rec: &mut IterationRecord,
    start_w: DVec3,
    vel_w: DVec3,
) -> StepDecision {
    let es = ctx.es;
    ctx.reset_record(rec, start_w, vel_w);
    let vel_e = es.espace_from_world(vel_w);
    let start_e = es.espace_from_world(start_w);

    // Open space: nothing the probe could touch on the way, so it arrives,
    // with the record the search below would leave (no candidates).
    if let Some((query, stats)) = ctx.open_move(es.world_from_espace(start_e), vel_w) {
        ctx.record_query(rec, query, stats, 0);
        return StepDecision::stop(open_space_end(ctx, start_e, vel_e), EndReason::Arrived);
    }
    step_searching(ctx, rec, start_w, vel_w)
}

/// Where an iteration from `start_w` by `vel_w` that meets nothing ends,
/// exactly as [`step`] ends it (arrived), or `None` when the probe's
/// moving box reaches some triangle's box. Fills no record: for a run
/// that keeps none ([`super::SlideSolver::run_to_end`]).
#[inline]
pub(super) fn arrival_through_open_space(
    ctx: &mut StepContext<'_, '_>,
    start_w: DVec3,
    vel_w: DVec3,
) -> Option<DVec3> {
    let es = ctx.es;
    // Tested around `start_w` itself: the centre `step` tests around, the
    // round trip through ellipsoid space, is within a few ulps of it, far
    // inside the walk's widening; waiting for the round trip would hold
    // up the whole search.
    if !ctx.reaches_nothing(start_w, vel_w) {
        return None;
    }
    Some(open_space_end(
        ctx,
        es.espace_from_world(start_w),
        es.espace_from_world(vel_w),
    ))
}

/// The end of an iteration that meets nothing: the whole move, taken in
/// ellipsoid space like every other end.
#[inline(always)]
fn open_space_end(ctx: &StepContext<'_, '_>, start_e: DVec3, vel_e: DVec3) -> DVec3 {
    ctx.es.world_from_espace(start_e + vel_e)
}

/// The iteration of a move that may touch something: search, push out of
/// embedded geometry, stop short of the nearest hit and slide. Kept out of
/// line: its working set (kilobytes of locals) is large, and the
/// open-space path above needs none of it.
#[inline(never)]
fn step_searching(
    ctx: &mut StepContext<'_, '_>,
    rec: &mut IterationRecord,
    start_w: DVec3,
    vel_w: DVec3,
) -> StepDecision {
    let es = ctx.es;
    let vel_e = es.espace_from_world(vel_w);
    let mut start_e = es.espace_from_world(start_w);
    // Phase 1: gather and test; push out of embedded geometry and retest.
    let mut tested;
    let mut rounds = 0;
    loop {
        tested = search_candidates(ctx, rec, start_e, vel_w);
        let Some((tri, depth, dir_e)) = tested.deepest else {
            break;
        };
        if rounds == MAX_RECOVERY_ROUNDS {
            rec.end = es.world_from_espace(start_e);
            let end_w = es.world_from_espace(start_e);
            return StepDecision::stop(end_w, EndReason::StuckEmbedded);
        }
        rounds += 1;
        let push_e = dir_e * (depth + ctx.skin_e_across(dir_e));
        start_e += push_e;
        let total_e = start_e - es.espace_from_world(start_w);
        rec.recovery = Some(Recovery {
            triangle: tri,
            depth_espace: rec.recovery.map_or(depth, |r| r.depth_espace.max(depth)),
            push: es.world_from_espace(total_e),
            push_espace: total_e,
        });
    }
    let dest_e = start_e + vel_e;

    // Phase 2: nothing in the way: arrive.
    let Some(Blocking { tri, corners, hit }) = tested.nearest else {
        return StepDecision::stop(es.world_from_espace(dest_e), EndReason::Arrived);
    };

    // Phase 3: stop short of the contact, keeping `skin` along the normal.
    let speed_e = vel_e.length();
    let approach = -(vel_e / speed_e).dot(hit.normal_espace);
    let back_t = if approach > 1e-12 {
        ctx.skin_e_across(hit.normal_espace) / (approach * speed_e)
    } else {
        hit.t
    };
    let t_safe = (hit.t - back_t).max(0.0);
    let end_e = start_e + vel_e * t_safe;
    rec.nearest = Some(nearest_record_of(ctx, tri, corners, &hit, start_e, vel_e));
    rec.sliding_plane = Some(SlidingPlane {
        origin: es.world_from_espace(hit.point_espace),
        normal: es.normal_world_from_espace(hit.normal_espace),
        origin_espace: hit.point_espace,
        normal_espace: hit.normal_espace,
    });

    // Phase 4: slide the rest of the motion along the contact plane(s).
    let end_w = es.world_from_espace(end_e);
    let slide_n_e = ctx.slide_normal_e(hit.normal_espace);
    if slide_n_e != hit.normal_espace {
        rec.sliding_plane = Some(SlidingPlane {
            origin: es.world_from_espace(hit.point_espace),
            normal: es.normal_world_from_espace(slide_n_e),
            origin_espace: hit.point_espace,
            normal_espace: slide_n_e,
        });
    }
    let slide = clip_to_planes(ctx, slide_n_e, tri, end_e, dest_e - end_e);
    let slide_e = match slide {
        Err(reason) => {
            return StepDecision::stop(end_w, reason);
        }
        Ok((slide_e, crease_e)) => {
            rec.crease_direction = crease_e.map(|c| es.world_from_espace(c).normalize_or_zero());
            slide_e
        }
    };
    // A projection in ellipsoid space can come back longer in world space
    // than the motion it came from (the space stretches along the long
    // radius): never let a slide gain length.
    let rem_w = es.world_from_espace(dest_e - end_e).length();
    let mut slide_w = es.world_from_espace(slide_e);
    if slide_w.length() > rem_w {
        slide_w *= rem_w / slide_w.length();
    }
    let slide_e = es.espace_from_world(slide_w);
    ctx.record_slide(rec, end_e, slide_e);
    if slide_w.length() < ctx.settings.min_move {
        return StepDecision::stop(end_w, EndReason::TooShort);
    }
    StepDecision::go(end_w, slide_w)
}

/// Sweeps the candidates of the move from `start_e`, nearest first, filling
/// the record's candidate list and query fields, and picks the nearest
/// blocking hit and the deepest embedding. Candidates the probe could only
/// reach after the nearest blocking hit are skipped: they cannot change it,
/// and an embedding is a hit at `t = 0`, which is never skipped.
fn search_candidates(
    ctx: &mut StepContext<'_, '_>,
    rec: &mut IterationRecord,
    start_e: DVec3,
    vel_w: DVec3,
) -> Tested {
    let cull_back = !ctx.settings.two_sided;
    let vel_e = ctx.es.espace_from_world(vel_w);
    rec.candidates.clear();
    let mut out = Tested {
        nearest: None,
        deepest: None,
    };
    let mut count = 0;
    let start_w = ctx.es.world_from_espace(start_e);
    // In full detail every candidate's own first contact is listed, so each
    // is swept over the whole move. A summary lists none: there the sweep
    // stops at the nearest hit so far, which skips most edge and vertex
    // roots of the neighbours of the triangle hit (a floor's tessellation).
    // The nearest hit is the same either way: a contact at or after the
    // cutoff never replaces it, and an embedding is a contact at t = 0.
    let stop_at_nearest = ctx.detail == TraceDetail::Summary;
    // The candidates tested are kept for the path check (`tris`).
    let mut tested = std::mem::take(&mut *ctx.tris);
    tested.clear();
    let (query, stats) = ctx.sweep_candidates(start_w, vel_w, &mut |ctx, tri, corners| {
        count += 1;
        tested.push(tri);
        let outcome = if !ctx.world.triangle_collides(tri) {
            CandidateOutcome::NonColliding
        } else {
            let max_t = match &out.nearest {
                Some(b) if stop_at_nearest => b.hit.t,
                _ => 1.0,
            };
            match &ctx.solid {
                None => {
                    let tri_e = ctx.corners_e(corners);
                    match sweep_unit_sphere_triangle(start_e, vel_e, tri_e, max_t, cull_back) {
                        SweepOutcome::Miss { reason } => CandidateOutcome::Miss { reason },
                        SweepOutcome::Hit(hit) => {
                            let depth_e = if hit.t == 0.0 {
                                1.0 - (start_e - hit.point_espace).length()
                            } else {
                                0.0
                            };
                            classify_hit(ctx, &mut out, (tri, corners), hit, depth_e, vel_e)
                        }
                    }
                }
                Some(solid) => {
                    let tri_w = corners.map(|p| p.as_dvec3());
                    match sweep_solid_triangle(solid, start_w, vel_w, tri_w, max_t, cull_back) {
                        Err(reason) => CandidateOutcome::Miss { reason },
                        Ok(hit) => {
                            let (hit, depth_e) = solid_hit_espace(ctx, &hit);
                            classify_hit(ctx, &mut out, (tri, corners), hit, depth_e, vel_e)
                        }
                    }
                }
            }
        };
        ctx.note_candidate(rec, tri, outcome);
        out.nearest.as_ref().map_or(f64::INFINITY, |b| b.hit.t)
    });
    *ctx.tris = tested;
    ctx.record_query(rec, query, stats, count);
    out
}

/// A solid's hit (world metres) as the robust iteration works with it, in
/// the space of the box around the solid: the contact point and normal
/// mapped over, and the depth of an overlap at the start as the
/// ellipsoid-space gap between the two parallel planes `depth` metres
/// apart (as [`StepContext::skin_e_across`] maps the skin), so that the
/// push out moves the solid exactly `depth` plus the skin in metres.
fn solid_hit_espace(ctx: &StepContext<'_, '_>, hit: &SolidHit) -> (SweepHit, f64) {
    let es = ctx.es;
    let normal_espace = es.normal_espace_from_world(hit.normal);
    let depth_e = hit.depth * (normal_espace / es.radii()).length();
    let hit_e = SweepHit {
        t: hit.t,
        point_espace: es.espace_from_world(hit.point),
        feature: hit.feature,
        normal_espace,
    };
    (hit_e, depth_e)
}

/// Files one candidate's hit: the deepest embedding at the start (`depth_e`,
/// ellipsoid space, for a hit at `t = 0`), and the nearest blocking hit.
fn classify_hit(
    ctx: &StepContext<'_, '_>,
    out: &mut Tested,
    (tri, corners): (u32, [Vec3; 3]),
    hit: SweepHit,
    depth_e: f64,
    vel_e: DVec3,
) -> CandidateOutcome {
    if hit.t == 0.0 {
        let depth = depth_e;
        if depth > PENETRATION_TOLERANCE && out.deepest.is_none_or(|d| depth > d.1) {
            out.deepest = Some((tri, depth, hit.normal_espace));
        }
    }
    let contact_point = ctx.es.world_from_espace(hit.point_espace);
    if vel_e.dot(hit.normal_espace) >= -1e-12 * vel_e.length() {
        // Touching while moving away or along: it does not block.
        return CandidateOutcome::Separating {
            feature: hit.feature,
            contact_point,
        };
    }
    if out.nearest.as_ref().is_none_or(|b| hit.t < b.hit.t) {
        out.nearest = Some(Blocking { tri, corners, hit });
    }
    CandidateOutcome::Hit {
        t: hit.t,
        feature: hit.feature,
        contact_point,
        contact_point_espace: hit.point_espace,
    }
}

/// Projects `rem_e` onto the new contact plane `n_e` (of triangle `tri`,
/// met with the probe centred at `center_e`) and the planes met earlier in
/// the pass that the probe still touches. `Ok((slide, crease))` or why the
/// pass must stop.
///
/// An earlier plane the probe has slid off (the end of a wall, a door jamb
/// it has rounded) no longer constrains it: keeping it would turn the
/// corner into a crease and stop the probe dead at the frame, the snag
/// players report. "Still touches" is within twice the skin of its
/// triangle: sliding along a plane keeps the skin to it, so a real crease
/// keeps both planes.
fn clip_to_planes(
    ctx: &mut StepContext<'_, '_>,
    n_e: DVec3,
    tri: u32,
    center_e: DVec3,
    rem_e: DVec3,
) -> Result<(DVec3, Option<DVec3>), EndReason> {
    let mut slide = rem_e - n_e * rem_e.dot(n_e).min(0.0);
    let mut planes = std::mem::take(&mut *ctx.planes_e);
    planes.retain(|p| p.normal_e.dot(n_e) < SAME_PLANE_COS);
    // Whether the probe still touches an earlier plane only matters when
    // that plane would make a crease or a stop: test it only then.
    if planes.len() >= 2 || planes.iter().any(|p| slide.dot(p.normal_e) < 0.0) {
        planes.retain(|p| still_touches(ctx, p, center_e));
    }
    planes.push(ContactPlane {
        normal_e: n_e,
        triangle: tri,
    });
    let count = planes.len();
    let first = planes[0].normal_e;
    *ctx.planes_e = planes;
    if count >= 3 {
        return Err(EndReason::CreaseStop);
    }
    let mut crease = None;
    if count == 2 && slide.dot(first) < 0.0 {
        let Some(dir) = n_e.cross(first).try_normalize() else {
            return Err(EndReason::Blocked);
        };
        slide = dir * rem_e.dot(dir);
        crease = Some(dir);
    }
    // Quake's rule: never slide back against the pass's original direction
    // (that is how a probe jitters in a sloped corner). A slide shorter than
    // the minimum move is left to end the pass as too short: its direction
    // is rounding noise.
    let real_slide = ctx.es.world_from_espace(slide).length() >= ctx.settings.min_move;
    let pass_dir_e = ctx.pass_vel_e.normalize_or_zero();
    if pass_dir_e != DVec3::ZERO && slide.dot(pass_dir_e) <= 0.0 && real_slide {
        return Err(EndReason::Blocked);
    }
    Ok((slide, crease))
}

/// Whether the probe centred at `center_e` still touches the triangle of
/// an earlier contact plane `p`: within twice the skin of it (and a
/// rounding slack). The ellipsoid measures its distance to the triangle;
/// another shape is swept twice the skin towards the plane, against its
/// normal, and touches it if it meets the triangle on the way (or overlaps
/// it already).
fn still_touches(ctx: &StepContext<'_, '_>, p: &ContactPlane, center_e: DVec3) -> bool {
    let reach_e = 2.0 * ctx.skin_e_across(p.normal_e) + TOUCH_SLACK;
    match &ctx.solid {
        None => {
            let closest = closest_point_on_triangle(ctx.triangle_e(p.triangle), center_e);
            closest.distance(center_e) <= 1.0 + reach_e
        }
        Some(solid) => {
            let es = ctx.es;
            let normal_w = es.normal_world_from_espace(p.normal_e);
            let center_w = es.world_from_espace(center_e);
            let reach_w = 2.0 * ctx.settings.skin + TOUCH_SLACK * es.radii().min_element();
            let tri_w = ctx.world.mesh.triangle_f64(p.triangle);
            sweep_solid_triangle(solid, center_w, -normal_w * reach_w, tri_w, 1.0, false).is_ok()
        }
    }
}

/// The trace's view of the chosen hit, with Nettle's construction points.
pub(super) fn nearest_record(
    ctx: &StepContext<'_, '_>,
    tri: u32,
    hit: &SweepHit,
    start_e: DVec3,
    vel_e: DVec3,
) -> NearestHit {
    let corners = ctx.world.mesh.triangle(tri);
    nearest_record_of(ctx, tri, corners, hit, start_e, vel_e)
}

/// [`nearest_record`] of triangle `tri` with its `corners` (world) in hand.
fn nearest_record_of(
    ctx: &StepContext<'_, '_>,
    tri: u32,
    corners: [Vec3; 3],
    hit: &SweepHit,
    start_e: DVec3,
    vel_e: DVec3,
) -> NearestHit {
    let es = ctx.es;
    let tri_e = ctx.corners_e(corners);
    let [a_w, b_w, c_w] = corners.map(|p| p.as_dvec3());
    let center_e = start_e + vel_e * hit.t;
    // Nettle's plane and polygon points are the ellipsoid's construction;
    // for another shape both are its contact point, and the "ellipsoid"
    // point is still the point of its surface at the start that touches.
    let pts = match ctx.solid {
        None => nettle_points_espace(start_e, vel_e, tri_e, hit),
        Some(_) => NettlePoints {
            plane: hit.point_espace,
            polygon: hit.point_espace,
            ellipsoid: hit.point_espace - vel_e * hit.t,
        },
    };
    NearestHit {
        triangle: tri,
        object: ctx.world.mesh.object_of(tri) as u32,
        t: hit.t,
        feature: hit.feature,
        contact_point: es.world_from_espace(hit.point_espace),
        contact_point_espace: hit.point_espace,
        contact_center: es.world_from_espace(center_e),
        contact_center_espace: center_e,
        contact_normal: es.normal_world_from_espace(hit.normal_espace),
        contact_normal_espace: hit.normal_espace,
        triangle_plane_origin: a_w,
        triangle_plane_normal: (b_w - a_w).cross(c_w - a_w).normalize_or_zero(),
        plane_intersection_point: es.world_from_espace(pts.plane),
        plane_intersection_point_espace: pts.plane,
        polygon_intersection_point: es.world_from_espace(pts.polygon),
        polygon_intersection_point_espace: pts.polygon,
        ellipsoid_intersection_point: es.world_from_espace(pts.ellipsoid),
        ellipsoid_intersection_point_espace: pts.ellipsoid,
    }
}
