//! A plane given by a point on it and a unit normal, `f64`.

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A plane through `origin` with unit `normal`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    /// A point on the plane.
    pub origin: DVec3,
    /// Unit normal; the plane's front side is where it points.
    pub normal: DVec3,
}

impl Plane {
    /// A plane through `origin`; `normal` is normalised here. Returns `None`
    /// for a zero or non-finite normal.
    pub fn new(origin: DVec3, normal: DVec3) -> Option<Self> {
        let normal = normal.try_normalize()?;
        Some(Plane { origin, normal })
    }

    /// The plane through a triangle, normal by the right-hand rule
    /// (counter-clockwise `a, b, c` faces the viewer). `None` when degenerate.
    pub fn from_triangle(a: DVec3, b: DVec3, c: DVec3) -> Option<Self> {
        Plane::new(a, (b - a).cross(c - a))
    }

    /// Signed distance from `p` (positive in front).
    #[inline]
    pub fn signed_distance(&self, p: DVec3) -> f64 {
        (p - self.origin).dot(self.normal)
    }

    /// `p` projected onto the plane along the normal.
    pub fn project_point(&self, p: DVec3) -> DVec3 {
        p - self.normal * self.signed_distance(p)
    }

    /// The ray parameter `t` at which `origin + t * dir` meets the plane, or
    /// `None` when the ray is parallel to it.
    pub fn intersect_ray(&self, origin: DVec3, dir: DVec3) -> Option<f64> {
        let denom = dir.dot(self.normal);
        if denom.abs() < 1e-300 {
            return None;
        }
        Some(-self.signed_distance(origin) / denom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_plane_distance_and_projection() {
        let p = Plane::from_triangle(DVec3::ZERO, DVec3::X, DVec3::Y).unwrap();
        assert_eq!(p.normal, DVec3::Z);
        assert_eq!(p.signed_distance(DVec3::new(3.0, 4.0, -2.0)), -2.0);
        assert_eq!(
            p.project_point(DVec3::new(3.0, 4.0, -2.0)),
            DVec3::new(3.0, 4.0, 0.0)
        );
        assert_eq!(
            p.intersect_ray(DVec3::new(0.0, 0.0, 5.0), DVec3::new(0.0, 0.0, -2.0)),
            Some(2.5)
        );
        assert!(Plane::from_triangle(DVec3::ZERO, DVec3::X, DVec3::X * 2.0).is_none());
    }
}
