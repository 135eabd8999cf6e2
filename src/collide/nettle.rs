//! The `nettle2000` iteration, as in Paul Nettle, "General Collision
//! Detection for Games Using Ellipsoids" (2000), `collideWithWorld`.
//!
//! World space with the radius vector, exactly as the article's pseudo code,
//! flaws included, so that a programmer can reproduce what a shipped game
//! did: the "ellipsoid intersection point" is the plane's inverted normal
//! scaled component-wise by the radii (not the true support point of the
//! ellipsoid), planes facing away from the velocity are ignored, the probe
//! backs off an EPSILON (here: the skin) along the velocity, and the slide
//! vector starts at the polygon intersection point. Two guards the article
//! lacks keep the numbers finite: a velocity parallel to a plane skips that
//! plane (the article divides by zero there) and the iteration cap bounds
//! the recursion.

use super::context::{StepContext, StepDecision};
use crate::collide::{CandidateOutcome, EndReason, IterationRecord, NearestHit, SlidingPlane};
use crate::geometry::closest::{closest_point_on_segment, closest_point_on_triangle};
use crate::geometry::sweep::{Feature, MissReason};
use glam::DVec3;

/// One polygon's result in Nettle's loop, world space.
#[derive(Clone, Copy)]
struct NettleHit {
    tri: u32,
    /// Distance travelled along the velocity to the contact, metres.
    distance: f64,
    plane_point: DVec3,
    polygon_point: DVec3,
    ellipsoid_point: DVec3,
    feature: Feature,
}

pub(super) fn step(
    ctx: &mut StepContext<'_, '_>,
    rec: &mut IterationRecord,
    source_w: DVec3,
    vel_w: DVec3,
) -> StepDecision {
    ctx.reset_record(rec, source_w, vel_w);
    let distance_to_travel = vel_w.length();
    let dest_w = source_w + vel_w;
    let (query, stats) = ctx.gather(source_w, vel_w);
    ctx.record_query(rec, query, stats, ctx.tris.len());

    let Some(hit) = nearest_collider(ctx, rec, source_w, vel_w) else {
        return StepDecision::stop(dest_w, EndReason::Arrived);
    };
    let v_dir = vel_w / distance_to_travel;
    // "Move to the nearest collision", EPSILON short (may move backwards).
    let new_source_w = source_w + v_dir * (hit.distance - ctx.settings.skin);
    rec.nearest = Some(nearest_record(
        ctx,
        &hit,
        source_w,
        v_dir,
        distance_to_travel,
    ));

    let Some(normal_w) = (hit.polygon_point - new_source_w).try_normalize() else {
        return StepDecision::stop(new_source_w, EndReason::TooShort);
    };
    let es = ctx.es;
    // The plane's normal faces the centre; under steep walls it is levelled.
    let toward_center_w = ctx.slide_normal_w(-normal_w);
    let normal_w = -toward_center_w;
    rec.sliding_plane = Some(SlidingPlane {
        origin: hit.polygon_point,
        normal: toward_center_w,
        origin_espace: es.espace_from_world(hit.polygon_point),
        normal_espace: es.normal_espace_from_world(toward_center_w),
    });
    let time = (hit.polygon_point - dest_w).dot(normal_w);
    let new_dest_w = dest_w + normal_w * time;
    let new_vel_w = new_dest_w - hit.polygon_point;
    ctx.record_slide(
        rec,
        es.espace_from_world(new_source_w),
        es.espace_from_world(new_vel_w),
    );
    if !new_vel_w.is_finite() {
        return StepDecision::stop(new_source_w, EndReason::TooShort);
    }
    StepDecision::go(new_source_w, new_vel_w)
}

/// Nettle's loop over the potential colliders: the earliest reverse intersection.
fn nearest_collider(
    ctx: &StepContext<'_, '_>,
    rec: &mut IterationRecord,
    source_w: DVec3,
    vel_w: DVec3,
) -> Option<NettleHit> {
    let mut nearest: Option<NettleHit> = None;
    for &tri in ctx.tris.iter() {
        let outcome = if !ctx.world.triangle_collides(tri) {
            CandidateOutcome::NonColliding
        } else {
            match collide_polygon(ctx, tri, source_w, vel_w) {
                Err(reason) => CandidateOutcome::Miss { reason },
                Ok(hit) => {
                    if nearest.is_none_or(|n| hit.distance < n.distance) {
                        nearest = Some(hit);
                    }
                    CandidateOutcome::Hit {
                        t: hit.distance / vel_w.length(),
                        feature: hit.feature,
                        contact_point: hit.polygon_point,
                        contact_point_espace: ctx.es.espace_from_world(hit.polygon_point),
                    }
                }
            }
        };
        ctx.note_candidate(rec, tri, outcome);
    }
    nearest
}

/// The body of Nettle's `for (each polygon)` loop.
fn collide_polygon(
    ctx: &StepContext<'_, '_>,
    tri: u32,
    source_w: DVec3,
    vel_w: DVec3,
) -> Result<NettleHit, MissReason> {
    let corners = ctx.world.mesh.triangle_f64(tri);
    let p_normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .try_normalize()
        .ok_or(MissReason::Degenerate)?;
    if vel_w.dot(p_normal) > 0.0 {
        return Err(MissReason::BackFacing);
    }
    let v_dir = vel_w.normalize();
    let plane_point = plane_intersection_point(corners, p_normal, ctx.es.radii(), source_w, v_dir)
        .ok_or(MissReason::PlaneNotReached)?;
    let polygon_point = closest_point_on_triangle(corners, plane_point);
    let t = intersect_ellipsoid(source_w, ctx.es.radii(), polygon_point, -v_dir);
    if !(t >= 0.0 && t <= vel_w.length()) {
        return Err(MissReason::NoFeatureHit);
    }
    Ok(NettleHit {
        tri,
        distance: t,
        plane_point,
        polygon_point,
        ellipsoid_point: polygon_point - v_dir * t,
        feature: perimeter_feature(corners, plane_point, polygon_point),
    })
}

/// Nettle's plane intersection point for the triangle `corners` (unit
/// normal `p_normal`) and the probe of `radii` centred at `source_w`
/// moving along the unit `v_dir`: the centre's projection when the plane
/// already cuts the probe, else where the point `source - normal * radius`
/// meets the plane along the velocity; `None` when the velocity runs
/// along the plane.
fn plane_intersection_point(
    corners: [DVec3; 3],
    p_normal: DVec3,
    radii: DVec3,
    source_w: DVec3,
    v_dir: DVec3,
) -> Option<DVec3> {
    let p_origin = corners[0];
    let p_dist = (source_w - p_origin).dot(p_normal);
    let radius = (-p_normal * radii).length();
    if p_dist.abs() <= radius {
        return Some(source_w - p_normal * p_dist);
    }
    let ellipsoid_point = source_w - p_normal * radius;
    let denom = v_dir.dot(p_normal);
    if denom.abs() < 1e-12 {
        return None;
    }
    let t = -(ellipsoid_point - p_origin).dot(p_normal) / denom;
    Some(ellipsoid_point + v_dir * t)
}

/// Nettle's plane intersection point and polygon intersection point for
/// the triangle `corners` and the probe of `radii` at `source_w` moving by
/// `vel_w`, whichever way the triangle faces (the path check asks why a
/// front face was missed); `None` for a degenerate triangle, a zero move
/// or one along the plane.
pub(super) fn nettle_plane_and_polygon_points(
    corners: [DVec3; 3],
    radii: DVec3,
    source_w: DVec3,
    vel_w: DVec3,
) -> Option<(DVec3, DVec3)> {
    let p_normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .try_normalize()?;
    let v_dir = vel_w.try_normalize()?;
    let plane = plane_intersection_point(corners, p_normal, radii, source_w, v_dir)?;
    Some((plane, closest_point_on_triangle(corners, plane)))
}

/// Distance along the unit ray `origin + s * dir` to the first crossing of
/// the ellipsoid (`center`, `radii`); −1 when the ray misses it. Like the
/// article's `intersectSphere`, a negative distance means the origin is inside.
fn intersect_ellipsoid(center: DVec3, radii: DVec3, origin: DVec3, dir: DVec3) -> f64 {
    let o = (origin - center) / radii;
    let d = dir / radii;
    let a = d.dot(d);
    let b = o.dot(d);
    let c = o.dot(o) - 1.0;
    let disc = b * b - a * c;
    if disc < 0.0 {
        return -1.0;
    }
    (-b - disc.sqrt()) / a
}

/// Face when the plane point was inside the triangle, else the vertex or
/// edge the clamped point lies on.
fn perimeter_feature(corners: [DVec3; 3], plane_point: DVec3, polygon_point: DVec3) -> Feature {
    let scale = (corners[1] - corners[0])
        .length()
        .max((corners[2] - corners[0]).length());
    let tol = 1e-9 * scale.max(1.0);
    if (plane_point - polygon_point).length() <= tol {
        return Feature::Face;
    }
    if let Some(i) = (0..3).find(|&i| (corners[i] - polygon_point).length() <= tol) {
        return Feature::Vertex(i as u8);
    }
    let edge_dist = |i: usize| {
        let q = closest_point_on_segment(corners[i], corners[(i + 1) % 3], polygon_point);
        (q - polygon_point).length()
    };
    let best = (0..3)
        .min_by(|&a, &b| edge_dist(a).total_cmp(&edge_dist(b)))
        .unwrap_or(0);
    Feature::Edge(best as u8)
}

fn nearest_record(
    ctx: &StepContext<'_, '_>,
    hit: &NettleHit,
    source_w: DVec3,
    v_dir: DVec3,
    distance_to_travel: f64,
) -> NearestHit {
    let es = ctx.es;
    let [a, b, c] = ctx.world.mesh.triangle_f64(hit.tri);
    let center_w = source_w + v_dir * hit.distance;
    let normal_e = (es.espace_from_world(center_w) - es.espace_from_world(hit.polygon_point))
        .normalize_or_zero();
    NearestHit {
        triangle: hit.tri,
        object: ctx.world.mesh.object_of(hit.tri) as u32,
        t: hit.distance / distance_to_travel,
        feature: hit.feature,
        contact_point: hit.polygon_point,
        contact_point_espace: es.espace_from_world(hit.polygon_point),
        contact_center: center_w,
        contact_center_espace: es.espace_from_world(center_w),
        contact_normal: es.normal_world_from_espace(normal_e),
        contact_normal_espace: normal_e,
        triangle_plane_origin: a,
        triangle_plane_normal: (b - a).cross(c - a).normalize_or_zero(),
        plane_intersection_point: hit.plane_point,
        plane_intersection_point_espace: es.espace_from_world(hit.plane_point),
        polygon_intersection_point: hit.polygon_point,
        polygon_intersection_point_espace: es.espace_from_world(hit.polygon_point),
        ellipsoid_intersection_point: hit.ellipsoid_point,
        ellipsoid_intersection_point_espace: es.espace_from_world(hit.ellipsoid_point),
    }
}
