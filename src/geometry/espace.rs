//! Ellipsoid space: world coordinates divided component-wise by the probe's
//! radii, so the probe is a unit sphere there.
//!
//! Points and displacement vectors scale by `1 / radii` (a product with the
//! reciprocal, kept beside the radii). A plane's normal does not: a world
//! normal `n_w` becomes `n_w * radii` (then normalised), and back again
//! `n_e / radii`.

use glam::DVec3;

/// The linear map between world space and the ellipsoid space of one probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EllipsoidSpace {
    /// Probe radii along world x, y, z (metres, all > 0).
    radii: DVec3,
    /// `1 / radii`: the solver maps every candidate triangle into ellipsoid
    /// space, and a product is several times cheaper than a division.
    inv_radii: DVec3,
}

impl EllipsoidSpace {
    /// The space of a probe with these radii; `None` unless all are finite and > 0.
    pub fn new(radii: DVec3) -> Option<Self> {
        let inv_radii = radii.recip();
        (radii.is_finite() && radii.min_element() > 0.0 && inv_radii.is_finite())
            .then_some(EllipsoidSpace { radii, inv_radii })
    }

    /// Probe radii along world x, y, z (metres).
    #[inline]
    pub fn radii(&self) -> DVec3 {
        self.radii
    }

    /// A world point or displacement in ellipsoid space.
    #[inline]
    pub fn espace_from_world(&self, v_world: DVec3) -> DVec3 {
        v_world * self.inv_radii
    }

    /// An ellipsoid-space point or displacement in world space.
    #[inline]
    pub fn world_from_espace(&self, v_espace: DVec3) -> DVec3 {
        v_espace * self.radii
    }

    /// A world-space unit normal in ellipsoid space (unit length).
    #[inline]
    pub fn normal_espace_from_world(&self, n_world: DVec3) -> DVec3 {
        (n_world * self.radii).normalize_or_zero()
    }

    /// An ellipsoid-space unit normal in world space (unit length).
    #[inline]
    pub fn normal_world_from_espace(&self, n_espace: DVec3) -> DVec3 {
        (n_espace / self.radii).normalize_or_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normals_stay_perpendicular_to_planes() {
        let es = EllipsoidSpace::new(DVec3::new(0.5, 1.8, 0.3)).unwrap();
        let n_world = DVec3::new(1.0, 2.0, -0.5).normalize();
        // Two directions inside the world plane.
        let t1 = n_world.any_orthonormal_vector();
        let t2 = n_world.cross(t1);
        let n_e = es.normal_espace_from_world(n_world);
        assert!(n_e.dot(es.espace_from_world(t1)).abs() < 1e-12);
        assert!(n_e.dot(es.espace_from_world(t2)).abs() < 1e-12);
        assert!((es.normal_world_from_espace(n_e) - n_world).length() < 1e-12);
        assert!(EllipsoidSpace::new(DVec3::new(1.0, 0.0, 1.0)).is_none());
        assert!(EllipsoidSpace::new(DVec3::new(1.0, f64::NAN, 1.0)).is_none());
    }
}
