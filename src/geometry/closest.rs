//! Closest points on segments and triangles (any space, `f64`).
//!
//! CONTRACT (skeleton): the geometry helper replaces the bodies.

use glam::DVec3;

/// Closest point to `p` on the segment `a..b`.
pub fn closest_point_on_segment(a: DVec3, b: DVec3, p: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Closest point to `p` on the solid triangle `tri` (Ericson, Real-Time Collision Detection 5.1.5).
pub fn closest_point_on_triangle(tri: [DVec3; 3], p: DVec3) -> DVec3 {
    let _ = (tri, p);
    unimplemented!("closest point")
}
