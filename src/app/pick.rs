//! Hover picking: the ray under the mouse cast through the level's BVH
//! (`Bvh::ray_cast`), world space, and what the hover box shows about the
//! triangle it hits.

use crate::bvh::{BvhScratch, QueryStats};
use crate::level::Level;
use crate::math::Aabb;
use glam::{DVec3, Vec3};

/// What is under the mouse.
#[derive(Clone, Debug, PartialEq)]
pub struct PickInfo {
    /// Triangle index.
    pub triangle: u32,
    /// Owning object index.
    pub object: usize,
    /// Owning object name.
    pub object_name: String,
    /// Hit point, world space.
    pub point: DVec3,
    /// Unit face normal, flipped towards the viewer, world space.
    pub normal: DVec3,
    /// Angle between the normal and world up, degrees (0 = floor, 90 = wall).
    pub slope_deg: f64,
    /// The triangle's AABB.
    pub aabb: Aabb,
    /// Distance along the ray, metres.
    pub distance: f32,
}

/// Casts the ray `origin + t * dir` (world space) into `level`.
pub fn pick(level: &Level, origin: Vec3, dir: Vec3) -> Option<PickInfo> {
    let dir = dir.normalize_or_zero();
    if dir == Vec3::ZERO || !origin.is_finite() {
        return None;
    }
    let mut scratch = BvhScratch::default();
    let mut stats = QueryStats::default();
    let hit = level
        .bvh
        .ray_cast(&level.mesh, origin, dir, f32::MAX, &mut scratch, &mut stats)?;
    let mut normal = level.mesh.triangle_normal(hit.triangle);
    if normal.dot(dir.as_dvec3()) > 0.0 {
        normal = -normal;
    }
    let object = level.mesh.object_of(hit.triangle);
    Some(PickInfo {
        triangle: hit.triangle,
        object,
        object_name: level
            .mesh
            .objects
            .get(object)
            .map(|o| o.name.clone())
            .unwrap_or_default(),
        point: (origin + dir * hit.t).as_dvec3(),
        normal,
        slope_deg: slope_degrees(normal),
        aabb: level.mesh.tri_aabbs[hit.triangle as usize],
        distance: hit.t,
    })
}

/// Angle between `normal` and world up, degrees, for either side of the
/// surface (a floor seen from below is still a floor).
pub fn slope_degrees(normal: DVec3) -> f64 {
    normal
        .normalize_or_zero()
        .y
        .abs()
        .clamp(0.0, 1.0)
        .acos()
        .to_degrees()
}

/// Ray parameter where `origin + t * dir` (world space) first enters the
/// ellipsoid `center`, `radii`: solved as a unit sphere in its ellipsoid
/// space, where the ray stays a ray with the same parameter.
pub fn ray_ellipsoid(origin: DVec3, dir: DVec3, center: DVec3, radii: DVec3) -> Option<f64> {
    if radii.min_element() <= 0.0 {
        return None;
    }
    let o_espace = (origin - center) / radii;
    let d_espace = dir / radii;
    let a = d_espace.length_squared();
    let b = 2.0 * o_espace.dot(d_espace);
    let c = o_espace.length_squared() - 1.0;
    let disc = b * b - 4.0 * a * c;
    if a <= 0.0 || disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    let t0 = (-b - sq) / (2.0 * a);
    let t1 = (-b + sq) / (2.0 * a);
    [t0, t1].into_iter().find(|t| *t >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slopes_of_floor_wall_and_ramp() {
        assert!(slope_degrees(DVec3::Y).abs() < 1e-9);
        assert!((slope_degrees(DVec3::X) - 90.0).abs() < 1e-9);
        assert!((slope_degrees(DVec3::new(0.0, 1.0, 1.0)) - 45.0).abs() < 1e-9);
        assert!(slope_degrees(DVec3::NEG_Y).abs() < 1e-9);
    }

    #[test]
    fn rays_enter_ellipsoids_where_expected() {
        let radii = DVec3::new(0.5, 2.0, 0.5);
        let center = DVec3::new(0.0, 1.0, 0.0);
        let t = ray_ellipsoid(DVec3::new(0.0, 10.0, 0.0), DVec3::NEG_Y, center, radii).unwrap();
        assert!((t - 7.0).abs() < 1e-9, "enters the top at y = 3: {t}");
        let t = ray_ellipsoid(DVec3::new(-5.0, 1.0, 0.0), DVec3::X, center, radii).unwrap();
        assert!((t - 4.5).abs() < 1e-9);
        assert!(ray_ellipsoid(DVec3::new(-5.0, 1.0, 0.6), DVec3::X, center, radii).is_none());
        assert!(ray_ellipsoid(DVec3::new(5.0, 1.0, 0.0), DVec3::X, center, radii).is_none());
    }
}
