//! The ellipsoid's shape as the character model needs it, along a
//! horizontal walking direction (world space, metres): its radius, the
//! edge height it rolls over by itself, and the radius within which
//! standing on an edge is walkable.

use crate::collide::SlideSettings;
use crate::geometry::shape::Solid;
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

/// The character's body as the walk rules measure it, world metres: the
/// ellipsoid of the probe's radii, or a solid ([`Solid`]) when the frame
/// runs another shape ([`super::body_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Body {
    /// The ellipsoid of these radii.
    Ellipsoid(DVec3),
    /// A sphere, capsule, cylinder or box, upright.
    Solid(Solid),
}

impl Body {
    /// The body a character with `settings` walks with.
    pub fn of(settings: &SlideSettings) -> Body {
        match super::body_shape(settings).solid() {
            Some(solid) => Body::Solid(solid),
            None => Body::Ellipsoid(settings.radii_vec()),
        }
    }

    /// How far it reaches from its centre along the horizontal unit `dir`,
    /// metres; zero for a zero direction.
    pub fn radius_along(&self, dir: DVec3) -> f64 {
        match self {
            Body::Ellipsoid(radii) => radius_along(*radii, dir),
            Body::Solid(s) => {
                let flat = dir.with_y(0.0).normalize_or_zero();
                s.support(flat).dot(flat).max(0.0)
            }
        }
    }

    /// From its centre down to its lowest point, metres.
    pub fn half_height(&self) -> f64 {
        match self {
            Body::Ellipsoid(radii) => radii.y,
            Body::Solid(s) => s.half_extents().y,
        }
    }

    /// How high an edge it rolls over by itself walking along `dir`, its
    /// contact there walkable within `max_slope_deg`, metres above its
    /// lowest point: the ellipsoid's [`rolling_height`]; `r (1 − cos
    /// slope)` for the round end of a sphere or capsule of radius `r`;
    /// nothing for the flat bottom of a cylinder or a box (an edge above
    /// it meets the vertical side).
    pub fn rolling_height(&self, dir: DVec3, max_slope_deg: f64) -> f64 {
        match self {
            Body::Ellipsoid(radii) => rolling_height(*radii, dir, max_slope_deg),
            Body::Solid(Solid::Sphere { radius } | Solid::Capsule { radius, .. }) => {
                radius * (1.0 - max_slope_deg.to_radians().cos())
            }
            Body::Solid(Solid::Cylinder { .. } | Solid::Box { .. }) => 0.0,
        }
    }

    /// How far from its centre it reaches along `dir` at `h` above its
    /// lowest point, metres: where it touches a riser's top edge that
    /// high (the whole radius from the round end's height up).
    pub fn reach_at_height(&self, dir: DVec3, h: f64) -> f64 {
        let round = |r: f64| {
            let y = r - h.clamp(0.0, r);
            (r * r - y * y).max(0.0).sqrt()
        };
        match self {
            Body::Ellipsoid(radii) => {
                let (a, b) = (radius_along(*radii, dir), radii.y);
                let y = (b - h.clamp(0.0, b)) / b;
                a * (1.0 - y * y).max(0.0).sqrt()
            }
            Body::Solid(Solid::Sphere { radius } | Solid::Capsule { radius, .. }) => round(*radius),
            Body::Solid(Solid::Cylinder { .. } | Solid::Box { .. }) => self.radius_along(dir),
        }
    }

    /// How far from its centre, horizontally along `dir`, an edge under it
    /// may be for standing on it to be walkable within `slope_deg`: the
    /// ellipsoid's [`perch_radius`]; `r sin(slope)` for a round end; the
    /// whole flat bottom of a cylinder or a box.
    pub fn perch_radius(&self, dir: DVec3, slope_deg: f64) -> f64 {
        match self {
            Body::Ellipsoid(radii) => perch_radius(*radii, dir, slope_deg),
            Body::Solid(Solid::Sphere { radius } | Solid::Capsule { radius, .. }) => {
                radius * slope_deg.to_radians().sin()
            }
            Body::Solid(Solid::Cylinder { .. } | Solid::Box { .. }) => self.radius_along(dir),
        }
    }
}

#[cfg(test)]
mod body_tests {
    use super::*;
    use crate::geometry::shape::CharacterShape;

    fn with_shape(shape: CharacterShape) -> SlideSettings {
        SlideSettings {
            shape,
            ..SlideSettings::default()
        }
    }

    #[test]
    fn a_capsule_rolls_over_what_its_round_end_allows() {
        let b = Body::of(&with_shape(CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        }));
        let want = 0.4 * (1.0 - 45f64.to_radians().cos());
        assert!((b.rolling_height(DVec3::X, 45.0) - want).abs() < 1e-12);
        assert!((b.perch_radius(DVec3::Z, 45.0) - 0.4 * 45f64.to_radians().sin()).abs() < 1e-12);
        assert!((b.radius_along(DVec3::new(1.0, 0.0, 1.0).normalize()) - 0.4).abs() < 1e-12);
        assert!((b.half_height() - 0.9).abs() < 1e-12);
        // A riser's edge 0.15 m up meets the round end 0.312 m out.
        let at = b.reach_at_height(DVec3::X, 0.15);
        assert!((at - (0.16f64 - 0.0625).sqrt()).abs() < 1e-12);
        assert_eq!(b.reach_at_height(DVec3::X, 0.9), 0.4);
    }

    #[test]
    fn flat_bottoms_roll_over_nothing_and_stand_on_their_whole_base() {
        let b = Body::of(&with_shape(CharacterShape::Box {
            half_extents_m: [0.3, 0.9, 0.5],
        }));
        assert_eq!(b.rolling_height(DVec3::X, 45.0), 0.0);
        let diag = DVec3::new(1.0, 0.0, 1.0).normalize();
        // The box's corner reaches 0.3 + 0.5 along the diagonal, / sqrt 2.
        assert!((b.radius_along(diag) - 0.8 / 2f64.sqrt()).abs() < 1e-12);
        assert!((b.perch_radius(DVec3::Z, 45.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn the_ellipsoid_body_is_the_old_formulas() {
        let s = SlideSettings::default();
        let b = Body::of(&s);
        let r = s.radii_vec();
        assert_eq!(
            b.rolling_height(DVec3::X, 45.0),
            rolling_height(r, DVec3::X, 45.0)
        );
        assert_eq!(
            b.perch_radius(DVec3::X, 40.0),
            perch_radius(r, DVec3::X, 40.0)
        );
        assert_eq!(b.radius_along(DVec3::Z), radius_along(r, DVec3::Z));
    }
}
