//! The ellipsoid's shape as the character model needs it, along a
//! horizontal walking direction (world space, metres): its radius, the
//! edge height it rolls over by itself, and the radius within which
//! standing on an edge is walkable.

use glam::DVec3;

/// How high an edge the ellipsoid (radii `radii`) rolls over by itself
/// when walking along the horizontal unit `dir` within the slope limit,
/// metres above its lowest point.
///
/// In the vertical plane of the walk the ellipsoid has the horizontal
/// radius `a` and the vertical `b`. An edge at height `h` above its lowest
/// point touches it at `y = h / b - 1` on the unit circle of its ellipsoid
/// space, where the world normal leans from up by
/// `atan((|x| / a) / (|y| / b))`; the contact is walkable, so the slide
/// rolls the ellipsoid up and over, while that lean is within the limit:
/// `h < b (1 - 1 / sqrt(1 + k^2))` with `k = tan(slope) a / b`.
pub fn rolling_height(radii: DVec3, dir: DVec3, max_slope_deg: f64) -> f64 {
    let a = radius_along(radii, dir);
    let b = radii.y;
    let k = max_slope_deg.to_radians().tan() * a / b;
    b * (1.0 - 1.0 / (1.0 + k * k).sqrt())
}

/// How far from the ellipsoid's centre (radii `radii`), horizontally along
/// `dir`, a point under it touches it where its normal leans from up by
/// `slope_deg`: within that radius, standing on an edge is walkable.
/// (The lean at `(x, y)` of the unit circle of its ellipsoid space is
/// `atan((|x| / a) / (|y| / b))`, see [`rolling_height`].)
pub fn perch_radius(radii: DVec3, dir: DVec3, slope_deg: f64) -> f64 {
    let a = radius_along(radii, dir);
    let k = slope_deg.to_radians().tan() * a / radii.y;
    a * k / (1.0 + k * k).sqrt()
}

/// The ellipsoid's radius (radii `radii`) along the horizontal unit
/// `dir`, metres; zero for a zero direction.
pub fn radius_along(radii: DVec3, dir: DVec3) -> f64 {
    let r = 1.0 / ((dir.x / radii.x).powi(2) + (dir.z / radii.z).powi(2)).sqrt();
    if r.is_finite() { r } else { 0.0 }
}
