//! The tunnelling rule of thumb of Wang's lecture notes ("the speed of the
//! fastest object multiplied by the time step must be less than the size of
//! the smallest collidable object"), computed for a level and a probe.
//!
//! The thinnest wall is estimated from the level: from the centre of each
//! triangle a ray goes into the solid behind it (against its normal) and
//! the nearest back face it meets (a triangle facing the other way) gives
//! the wall's thickness there. A discrete overlap test sees an ellipsoid
//! probe in a wall while its centre is within the probe's extent along the
//! wall normal of either face, so a step skips the wall when it is longer
//! than `thickness + 2 × extent`: the speed limit is that size times the
//! step rate. A surface with nothing behind it (a single sheet) is a wall of
//! zero thickness. World space, metres.

use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::CollisionWorld;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Walls thicker than this are not counted (metres): the rule is about
/// thin ones.
pub const MAX_WALL_M: f64 = 10.0;

/// At most this many triangles are probed (evenly spread over the mesh), so
/// the estimate stays fast on large levels.
pub const MAX_PROBED_TRIANGLES: usize = 50_000;

/// The rule of thumb for one level, probe and step rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunnelRule {
    /// Thickness of the thinnest wall found, metres (0 for a single sheet).
    pub thinnest_wall_m: f64,
    /// The triangle whose ray found it.
    pub triangle: u32,
    /// Unit normal of that wall, world space.
    pub wall_normal: DVec3,
    /// The probe's half extent along that normal, metres.
    pub probe_extent_m: f64,
    /// `thinnest_wall_m + 2 × probe_extent_m`: the longest step that cannot skip it.
    pub crossing_size_m: f64,
    /// The step rate, Hz.
    pub step_hz: f64,
    /// Speeds above this tunnel through that wall, metres per second.
    pub tunnel_speed_m_s: f64,
}

impl TunnelRule {
    /// "tunnels above X m/s at N Hz (wall …)".
    pub fn sentence(&self) -> String {
        format!(
            "tunnels above {:.1} m/s at {:.0} Hz (thinnest wall {:.3} m at triangle {} + probe {:.3} m each side)",
            self.tunnel_speed_m_s,
            self.step_hz,
            self.thinnest_wall_m,
            self.triangle,
            self.probe_extent_m
        )
    }
}

/// The rule for the colliding triangles of `world`, a probe with `radii`
/// and `step_hz` steps per second; `None` for a level with no colliding
/// triangle with a usable normal.
pub fn tunnel_rule(world: &CollisionWorld<'_>, radii: DVec3, step_hz: f64) -> Option<TunnelRule> {
    let count = world.mesh.triangle_count();
    let stride = count.div_ceil(MAX_PROBED_TRIANGLES).max(1);
    let mut scratch = BvhScratch::default();
    let mut stats = QueryStats::default();
    let mut best: Option<TunnelRule> = None;
    for tri in (0..count as u32).step_by(stride) {
        if !world.triangle_collides(tri) {
            continue;
        }
        let normal = world.mesh.triangle_normal(tri);
        if !normal.is_finite() || normal.length_squared() < 0.5 {
            continue;
        }
        let corners = world.mesh.triangle_f64(tri);
        let centre = (corners[0] + corners[1] + corners[2]) / 3.0;
        let Some(thickness) = wall_behind(world, tri, centre, normal, &mut scratch, &mut stats)
        else {
            continue;
        };
        let extent = (radii * normal).length();
        let size = thickness + 2.0 * extent;
        if best.is_none_or(|b| size < b.crossing_size_m) {
            best = Some(TunnelRule {
                thinnest_wall_m: thickness,
                triangle: tri,
                wall_normal: normal,
                probe_extent_m: extent,
                crossing_size_m: size,
                step_hz,
                tunnel_speed_m_s: size * step_hz,
            });
        }
    }
    best
}

/// Thickness of the solid behind triangle `tri` at `centre`: distance to
/// the nearest back face along `-normal`; 0 when the ray meets nothing at
/// all (a sheet); `None` when the back face is farther than [`MAX_WALL_M`]
/// (not a thin wall) or the ray meets something else first (another
/// object's front: not this wall's thickness).
fn wall_behind(
    world: &CollisionWorld<'_>,
    tri: u32,
    centre: DVec3,
    normal: DVec3,
    scratch: &mut BvhScratch,
    stats: &mut QueryStats,
) -> Option<f64> {
    // Start a hair inside, so the ray does not meet its own triangle.
    let lift = 1e-4;
    let origin = centre - normal * lift;
    // The nearest colliding triangle behind (one that does not collide, a
    // decal or a trigger's face, does not hide the wall's back).
    let Some(hit) = world.bvh.ray_cast_where(
        world.mesh,
        origin.as_vec3(),
        (-normal).as_vec3(),
        f32::MAX,
        |t| t != tri && world.triangle_collides(t),
        scratch,
        stats,
    ) else {
        return Some(0.0);
    };
    let facing_back = world.mesh.triangle_normal(hit.triangle).dot(normal) < -0.5;
    let thickness = f64::from(hit.t) + lift;
    (facing_back && thickness <= MAX_WALL_M).then_some(thickness)
}
