//! Swept unit sphere vs triangle, in ellipsoid space (Fauerby 2003, closed form).
//!
//! CONTRACT (skeleton): the geometry helper replaces the bodies.

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Which part of the triangle the sphere touches first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "index", rename_all = "snake_case")]
pub enum Feature {
    /// The interior of the face.
    Face,
    /// Edge `i` runs from vertex `i` to vertex `(i + 1) % 3`.
    Edge(u8),
    /// Vertex `i` (0, 1 or 2).
    Vertex(u8),
}

/// Why a triangle was not hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissReason {
    /// Zero-area triangle.
    Degenerate,
    /// The sphere moves away from the front face (or along it while in front), and single-sided culling is on.
    BackFacing,
    /// The sphere never comes within 1 of the triangle's plane during the move.
    PlaneNotReached,
    /// The plane is reached but neither the face, an edge nor a vertex is touched in `[0, max_t]`.
    NoFeatureHit,
}

/// The first contact of the swept sphere with a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepHit {
    /// Fraction of the move at first contact, in `[0, max_t]`.
    pub t: f64,
    /// The touched point on the triangle, ellipsoid space.
    pub point_espace: DVec3,
    /// What was touched.
    pub feature: Feature,
    /// Unit vector from the contact point to the sphere centre at contact, ellipsoid space.
    /// For a sphere that already overlaps the triangle at `t = 0` it is the direction
    /// out of the triangle (the face normal when the closest point is inside the face).
    pub normal_espace: DVec3,
}

/// Result of sweeping the unit sphere against one triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum SweepOutcome {
    /// No contact in the move.
    Miss {
        /// Why not.
        reason: MissReason,
    },
    /// First contact.
    Hit(SweepHit),
}

/// Sweeps the unit sphere centred at `center` along `vel` (the whole move is
/// `t` in `[0, 1]`; only contacts with `t <= max_t` count) against the
/// triangle `tri` (all ellipsoid space). `cull_back` skips triangles whose
/// front face the sphere does not approach. If the sphere already overlaps the
/// triangle at `t = 0` the result is a hit at `t = 0`.
pub fn sweep_unit_sphere_triangle(
    center: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
    max_t: f64,
    cull_back: bool,
) -> SweepOutcome {
    let _ = (center, vel, tri, max_t, cull_back);
    unimplemented!("sweep")
}
