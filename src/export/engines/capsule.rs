//! The ellipsoid-to-capsule conversion every engine's output shares.
//!
//! An ellipsoid with radii (x, y, z) and a Y-up capsule of radius r and
//! total height t match in width and height only when r = max(x, z) and
//! t = 2y. The larger horizontal radius is taken, not the smaller or a
//! mean, so the capsule is never narrower than the ellipsoid: a doorway
//! the capsule passes is one the tuned probe passed too. The height is
//! kept so that ceilings clear the same. A capsule cannot be shorter than
//! it is wide (t ≥ 2r); an ellipsoid wider than tall is [`Capsule::is_squat`].

/// A Y-up capsule standing in for the probe's ellipsoid, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    /// Radius of the round ends and the straight part: max(x, z).
    pub radius_m: f64,
    /// Total height from bottom to top as the ellipsoid: 2 × y.
    pub total_height_m: f64,
    /// The ellipsoid's x and z radii differ (the capsule is round, so
    /// it is wider than the ellipsoid along one axis).
    pub horizontal_radii_differ: bool,
}

impl Capsule {
    /// The capsule for an ellipsoid with radii x, y, z (world axes, metres).
    pub fn from_radii([x, y, z]: [f64; 3]) -> Capsule {
        Capsule {
            radius_m: x.max(z),
            total_height_m: 2.0 * y,
            horizontal_radii_differ: x != z,
        }
    }

    /// Length of the straight part between the two hemisphere centres:
    /// total height − 2 × radius. Negative for a squat ellipsoid.
    pub fn cylinder_m(&self) -> f64 {
        self.total_height_m - 2.0 * self.radius_m
    }

    /// The ellipsoid is wider than tall: no capsule of this radius is as
    /// short, the nearest is a sphere of the radius.
    pub fn is_squat(&self) -> bool {
        self.cylinder_m() < 0.0
    }

    /// The straight part an engine can take: never negative (a squat
    /// ellipsoid becomes a sphere of the radius).
    pub fn cylinder_or_zero_m(&self) -> f64 {
        self.cylinder_m().max(0.0)
    }

    /// The total height an engine can take: at least the diameter.
    pub fn height_at_least_diameter_m(&self) -> f64 {
        self.total_height_m.max(2.0 * self.radius_m)
    }
}
