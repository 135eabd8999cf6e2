//! The `fauerby2003` iteration, as in Kasper Fauerby, "Improved Collision
//! detection and Response" (2003), section 5 (`collideWithWorld`).
//!
//! Ellipsoid space throughout. Back faces are culled. The probe stops the
//! very-close distance short of the contact *along the velocity*, the slide
//! plane goes through the contact point with the normal from the contact
//! point to the new centre, and the next velocity runs from the contact
//! point to the destination projected onto that plane. Kept as published,
//! including its known weaknesses (little clearance at grazing angles, no
//! crease handling), so that a programmer can reproduce what a game did.

use super::context::{StepContext, StepDecision};
use super::robust::nearest_record;
use crate::collide::{CandidateOutcome, EndReason, IterationRecord, SlidingPlane};
use crate::geometry::sweep::{SweepHit, SweepOutcome, sweep_unit_sphere_triangle};
use glam::DVec3;

pub(super) fn step(
    ctx: &mut StepContext<'_, '_>,
    rec: &mut IterationRecord,
    start_w: DVec3,
    vel_w: DVec3,
) -> StepDecision {
    let es = ctx.es;
    ctx.reset_record(rec, start_w, vel_w);
    let base_e = es.espace_from_world(start_w);
    let vel_e = es.espace_from_world(vel_w);
    // The paper's very-close distance is taken along the velocity: here the
    // skin, measured along it in metres.
    let very_close = ctx.skin_e_along(vel_e.normalize_or_zero());
    let (query, stats) = ctx.gather(start_w, vel_w);
    ctx.record_query(rec, query, stats, ctx.tris.len());

    let Some((tri, hit)) = nearest_hit(ctx, rec, base_e, vel_e) else {
        let end_w = start_w + vel_w;
        return StepDecision::stop(end_w, EndReason::Arrived);
    };
    rec.nearest = Some(nearest_record(ctx, tri, &hit, base_e, vel_e));

    // Fauerby: only move if we are not already very close, and move the
    // intersection point by the same amount.
    let dest_e = base_e + vel_e;
    let nearest_distance = hit.t * vel_e.length();
    let mut new_base_e = base_e;
    let mut intersection_e = hit.point_espace;
    if nearest_distance >= very_close {
        let v = vel_e.normalize();
        new_base_e = base_e + v * (nearest_distance - very_close);
        intersection_e -= v * very_close;
    }
    let end_w = es.world_from_espace(new_base_e);
    let Some(normal_e) = (new_base_e - intersection_e).try_normalize() else {
        return StepDecision::stop(end_w, EndReason::TooShort);
    };
    let normal_e = ctx.slide_normal_e(normal_e);
    rec.sliding_plane = Some(SlidingPlane {
        origin: es.world_from_espace(intersection_e),
        normal: es.normal_world_from_espace(normal_e),
        origin_espace: intersection_e,
        normal_espace: normal_e,
    });
    let new_dest_e = dest_e - normal_e * (dest_e - intersection_e).dot(normal_e);
    let new_vel_e = new_dest_e - intersection_e;
    ctx.record_slide(rec, new_base_e, new_vel_e);
    if new_vel_e.length() < very_close {
        return StepDecision::stop(end_w, EndReason::TooShort);
    }
    StepDecision::go(end_w, es.world_from_espace(new_vel_e))
}

/// Tests every candidate (back faces culled) and returns the earliest hit.
fn nearest_hit(
    ctx: &StepContext<'_, '_>,
    rec: &mut IterationRecord,
    base_e: DVec3,
    vel_e: DVec3,
) -> Option<(u32, SweepHit)> {
    let mut nearest: Option<(u32, SweepHit)> = None;
    for &tri in ctx.tris.iter() {
        let outcome = if ctx.world.triangle_collides(tri) {
            match sweep_unit_sphere_triangle(base_e, vel_e, ctx.triangle_e(tri), 1.0, true) {
                SweepOutcome::Miss { reason } => CandidateOutcome::Miss { reason },
                SweepOutcome::Hit(hit) => {
                    if nearest.is_none_or(|(_, n)| hit.t < n.t) {
                        nearest = Some((tri, hit));
                    }
                    CandidateOutcome::Hit {
                        t: hit.t,
                        feature: hit.feature,
                        contact_point: ctx.es.world_from_espace(hit.point_espace),
                        contact_point_espace: hit.point_espace,
                    }
                }
            }
        } else {
            CandidateOutcome::NonColliding
        };
        ctx.note_candidate(rec, tri, outcome);
    }
    nearest
}
