//! Nettle's construction points for a contact found by the per-feature
//! sweep, in ellipsoid space, so every mode can show them.
//!
//! Nettle (2000) finds a contact in three steps: the *plane intersection
//! point*, where the probe's surface first meets the triangle's plane (or the
//! centre's projection when the plane already cuts the probe); the *polygon
//! intersection point*, that point clamped into the triangle; and the
//! *ellipsoid intersection point*, the point of the probe's surface that will
//! touch the polygon point, found by casting a ray from the polygon point
//! back along the velocity. In ellipsoid space the probe is a unit sphere,
//! where this construction is exact.

use crate::geometry::closest::closest_point_on_triangle;
use crate::geometry::sweep::SweepHit;
use crate::math::Plane;
use glam::DVec3;

/// Nettle's three points, ellipsoid space.
pub(super) struct NettlePoints {
    pub plane: DVec3,
    pub polygon: DVec3,
    pub ellipsoid: DVec3,
}

pub(super) fn nettle_points_espace(
    start_e: DVec3,
    vel_e: DVec3,
    tri_e: [DVec3; 3],
    hit: &SweepHit,
) -> NettlePoints {
    // The sweep already knows where the probe's surface meets the triangle.
    let ellipsoid = hit.point_espace - vel_e * hit.t;
    let Some(mut plane) = Plane::from_triangle(tri_e[0], tri_e[1], tri_e[2]) else {
        let p = hit.point_espace;
        return NettlePoints {
            plane: p,
            polygon: p,
            ellipsoid,
        };
    };
    let dist = plane.signed_distance(start_e);
    if dist < 0.0 {
        plane.normal = -plane.normal;
    }
    let dist = dist.abs();
    let plane_point = if dist <= 1.0 {
        // Embedded: the centre's projection onto the plane.
        plane.project_point(start_e)
    } else {
        let sphere_point = start_e - plane.normal;
        match plane.intersect_ray(sphere_point, vel_e) {
            Some(t) => sphere_point + vel_e * t,
            None => plane.project_point(sphere_point),
        }
    };
    NettlePoints {
        plane: plane_point,
        polygon: closest_point_on_triangle(tri_e, plane_point),
        ellipsoid,
    }
}
