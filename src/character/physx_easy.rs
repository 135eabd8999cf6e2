//! PhysX's `eEASY` climbing, as its character controller does it
//! (`physx/source/physxcharacterkinematic/src/CctCharacterController.cpp`,
//! PhysX 5, `SweepTest::moveCharacter` and `SweepTest::doSweepTest`).
//!
//! Each move is an up pass by `stepOffset`, a side pass and a down pass
//! that takes the up pass back. Two rules of those passes decide how high
//! the character climbs, and [`ControllerRules::climbs_as_physx_easy`]
//! rules the frame by them:
//!
//! - **The side pass slides along every contact as it is.** `doSweepTest`
//!   hands the sweep's contact normal to `collisionResponse` unchanged (it
//!   flattens steep ones only in the "walk experiment", the redo after a
//!   non-walkable landing). Raised by `stepOffset`, a capsule that meets a
//!   riser's edge below its hemisphere's centre is pushed up and over it,
//!   however steep the contact, so the capsule rides over risers up to
//!   almost `stepOffset` plus its radius (an edge above the centre pushes
//!   it down instead). In `eCONSTRAINED` mode the same ride is cancelled
//!   afterwards by the contact's height; in `eEASY` mode nothing cancels
//!   it.
//! - **The down pass judges the triangle, not the contact.** Of the
//!   triangles the down sweep meets at the same distance, PhysX's sweep
//!   keeps the one facing most against the motion (`keepTriangle` in
//!   `geomutils/src/GuInternal.h`, within `GU_EPSILON_SAME_DISTANCE`): a
//!   capsule coming down on a riser's edge is reported on the tread, not
//!   on the riser. The move is refused (`STF_HIT_NON_WALKABLE`, the walk
//!   experiment) only when that triangle is steeper than `slopeLimit`
//!   (`testSlope`) **and** its top is more than `stepOffset` above the
//!   feet where the move started (`touchedTriHeight`): a character
//!   stands on an edge whose tread is walkable, and on a steep triangle
//!   whose top is within its step offset.

use super::engine::{ClimbingMode, ControllerRules, StepForward, StepRise};
use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::CollisionWorld;
use crate::math::Aabb;
use glam::DVec3;

/// How near the contact point a triangle must come to count as met at
/// the same distance, metres: PhysX's `GU_EPSILON_SAME_DISTANCE` (1e-3,
/// relative to distances above a metre) is about sweep distances; ours is
/// about the contact point, where triangles that share an edge or a corner
/// meet to within rounding.
const SAME_CONTACT_M: f64 = 1e-4;

impl ControllerRules {
    /// Whether these rules climb as PhysX's `eEASY` mode does (the
    /// `physx` and `unity` profiles unless `climbing_mode = "constrained"`):
    /// their step-forward slides along contacts as they are, and their
    /// step-down and fall stand where PhysX's down pass accepts the
    /// triangle met ([`PhysxDownPass`]).
    pub fn climbs_as_physx_easy(&self) -> bool {
        self.step_up
            && self.rise == StepRise::Full
            && self.forward == StepForward::ReachOverEdge
            && self.climbing == ClimbingMode::Easy
    }
}

/// The triangle PhysX's down pass reports at a contact, and whether it
/// accepts it; keeps its search buffers between frames.
#[derive(Debug, Default)]
pub(super) struct PhysxDownPass {
    scratch: BvhScratch,
    near: Vec<u32>,
}

/// What PhysX's down pass makes of a contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DownPassTriangle {
    /// The triangle reported.
    pub triangle: u32,
    /// Its unit normal, on the side of the body.
    pub normal: DVec3,
    /// Whether the move stands on it (not `STF_HIT_NON_WALKABLE`).
    pub accepted: bool,
}

impl PhysxDownPass {
    /// The triangle PhysX's down pass reports where the body, centred at
    /// `center`, touched `point` while moving down, world space: of the
    /// colliding triangles through `point` (within [`SAME_CONTACT_M`]),
    /// the one whose normal, turned towards the body, points most up
    /// (`keepTriangle`'s most opposing face; the level is double-sided).
    /// It is accepted unless steeper than the walkable slope
    /// (`floor_min_up`, the cosine) with its top more than `step_offset_m`
    /// above `feet_y` (`SweepTest::moveCharacter`'s down-pass test).
    /// `None` when no triangle is that near (a non-finite contact).
    pub fn judge(
        &mut self,
        world: CollisionWorld<'_>,
        point: DVec3,
        center: DVec3,
        feet_y: f64,
        floor_min_up: f64,
        step_offset_m: f64,
    ) -> Option<DownPassTriangle> {
        if !(point.is_finite() && center.is_finite()) {
            return None;
        }
        let query = Aabb::from_points([point.as_vec3()]).expanded(SAME_CONTACT_M as f32);
        self.near.clear();
        world.bvh.query_aabb(
            world.mesh.tri_aabbs(),
            &query,
            &mut self.scratch,
            &mut self.near,
            None,
            &mut QueryStats::default(),
        );
        let mut best: Option<(u32, DVec3)> = None;
        for &tri in &self.near {
            if !world.triangle_collides(tri) {
                continue;
            }
            let corners = world.mesh.triangle_f64(tri);
            let closest = crate::geometry::closest::closest_point_on_triangle(corners, point);
            let normal = world.mesh.triangle_normal(tri);
            if closest.distance(point) > SAME_CONTACT_M || normal == DVec3::ZERO {
                continue;
            }
            let toward_body = if normal.dot(center - point) < 0.0 {
                -normal
            } else {
                normal
            };
            if best.is_none_or(|(_, n)| toward_body.y > n.y) {
                best = Some((tri, toward_body));
            }
        }
        let (triangle, normal) = best?;
        let top_y = world
            .mesh
            .triangle_f64(triangle)
            .iter()
            .map(|v| v.y)
            .fold(f64::NEG_INFINITY, f64::max);
        // `testSlope`: facing up, and less up than the slope limit's cosine.
        let steep = normal.y >= 0.0 && normal.y < floor_min_up;
        let accepted = !(steep && top_y - feet_y > step_offset_m);
        Some(DownPassTriangle {
            triangle,
            normal,
            accepted,
        })
    }
}
