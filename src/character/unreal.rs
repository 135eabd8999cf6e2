//! Unreal's floor, perch and step-up landing rules, as the `unreal`
//! profile's frames apply them (world space, Y up, metres).
//!
//! Unreal's `UCharacterMovementComponent` (`CharacterMovementComponent.cpp`)
//! decides whether a capsule stands on what is under it by the surface's
//! own normal, not by the direction from the contact to the capsule's
//! centre:
//!
//! - **Floor by face normal** (`IsWalkable`, `FindFloor`,
//!   `ComputeFloorDist`): a floor hit is walkable when its `ImpactNormal`
//!   is, and a sweep that meets an edge reports as `ImpactNormal` the
//!   normal of the surface there that opposes the sweep most (Epic's API
//!   page for `FHitResult::ImpactNormal`). Swept down onto a ledge's edge,
//!   that is the ledge's top: the capsule stands on the edge however far
//!   its round end hangs over it, where a controller testing the contact's
//!   own normal (PhysX's, Rapier's, Collidoscope's) slides off once that
//!   normal is steeper than the slope limit. [`impact_normal`] finds it.
//! - **Edge tolerance** (`IsWithinEdgeTolerance`,
//!   `SWEEP_EDGE_REJECT_DISTANCE` = 0.15 cm): a contact within that
//!   distance of the capsule's rim, horizontally, is the capsule's side,
//!   not its base, and is no floor.
//! - **Perch** (`ShouldComputePerchResult`, `GetValidPerchRadius`,
//!   `ComputePerchResult`, `PerchRadiusThreshold`,
//!   `PerchAdditionalHeight`): with a `PerchRadiusThreshold` above the
//!   edge tolerance, a contact farther from the axis than the capsule's
//!   radius less the threshold (at least 0.11 cm) holds the character only
//!   if a capsule that much narrower, swept down from it, finds walkable
//!   floor within `MaxStepHeight` (and `PerchAdditionalHeight` more when
//!   walking) of the capsule's base; otherwise the character falls.
//!   Epic's API pages for `PerchRadiusThreshold` ("Don't allow the
//!   character to perch on the edge of a surface if the contact is this
//!   close to the edge of the capsule") and `ComputePerchResult`.
//! - **Step-up landing** (`StepUp`): the step down after the step forward
//!   goes `MaxStepHeight` and twice `MAX_FLOOR_DIST` (2.4 cm) down, and the
//!   step is refused when it finds no floor by the rules above or one more
//!   than `MaxStepHeight` above the floor the character stood on. (Unreal
//!   refuses at a first contact that is no floor; here the step-down slides
//!   on from it, which only ever carries the body down and back, to a
//!   landing the step's progress test refuses in turn.)
//!
//! Unreal walks off ledges by default (`bCanWalkOffLedges` is true): the
//! profile does so too, and does not model turning it off.

use super::shape::Body;
use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::{CollisionWorld, NearestHit, SlideSettings, SlideSolver, TraceDetail};
use crate::geometry::closest::closest_point_on_triangle;
use crate::geometry::shape::{CharacterShape, Solid};
use crate::geometry::sweep::Feature;
use crate::math::Aabb;
use glam::DVec3;

/// Unreal's `SWEEP_EDGE_REJECT_DISTANCE` (0.15 cm), metres: a contact this
/// close to the capsule's rim, horizontally, is on its side.
pub const SWEEP_EDGE_REJECT_DISTANCE_M: f64 = 0.0015;

/// Unreal's `MAX_FLOOR_DIST` (2.4 cm), metres: the most a walking
/// capsule floats above its floor; `StepUp` steps down by `MaxStepHeight`
/// and twice this.
pub const MAX_FLOOR_DIST_M: f64 = 0.024;

/// The least radius `GetValidPerchRadius` gives (0.11 cm), metres.
const MIN_PERCH_RADIUS_M: f64 = 0.0011;

/// How close to the contact point a triangle must come to share the edge
/// or vertex met, metres.
const TOUCHING_M: f64 = 1e-5;

/// Whether `point` is within the base of a body centred at `center` of
/// horizontal radius `radius_m` (`IsWithinEdgeTolerance`): closer to its
/// axis, horizontally, than its radius less the edge tolerance.
pub fn within_edge_tolerance(center: DVec3, point: DVec3, radius_m: f64) -> bool {
    let reduced = (radius_m - SWEEP_EDGE_REJECT_DISTANCE_M).max(SWEEP_EDGE_REJECT_DISTANCE_M);
    (point - center).with_y(0.0).length_squared() < reduced * reduced
}

/// The radius within which a body of radius `radius_m` stands on an edge
/// without the perch test (`GetValidPerchRadius`), metres.
pub fn valid_perch_radius(radius_m: f64, threshold_m: f64) -> f64 {
    (radius_m - threshold_m.max(0.0)).clamp(MIN_PERCH_RADIUS_M.min(radius_m), radius_m)
}

/// Whether a floor contact at `point` under a body centred at `center`
/// needs the perch test (`ShouldComputePerchResult` with its radius
/// check): only with a threshold above the edge tolerance, and only for a
/// contact beyond the valid perch radius.
pub fn needs_perch_test(center: DVec3, point: DVec3, radius_m: f64, threshold_m: f64) -> bool {
    if threshold_m <= SWEEP_EDGE_REJECT_DISTANCE_M {
        return false;
    }
    let perch = valid_perch_radius(radius_m, threshold_m);
    (point - center).with_y(0.0).length_squared() > perch * perch
}

/// Unreal's `ImpactNormal` for `hit`, met moving along `motion`: the face
/// normal, among the colliding triangles touching the contact point, that
/// opposes the motion most, each turned to face the body. A face hit is
/// its own triangle's. Reuses `scratch` and `tris`.
pub fn impact_normal(
    world: &CollisionWorld<'_>,
    hit: &NearestHit,
    motion: DVec3,
    scratch: &mut BvhScratch,
    tris: &mut Vec<u32>,
) -> DVec3 {
    let facing = |n: DVec3| {
        if n.dot(hit.contact_normal) < 0.0 {
            -n
        } else {
            n
        }
    };
    let own = facing(hit.triangle_plane_normal);
    if hit.feature == Feature::Face {
        return own;
    }
    let p = hit.contact_point;
    let query = Aabb::from_f64_covering(p - DVec3::splat(TOUCHING_M), p + DVec3::splat(TOUCHING_M));
    tris.clear();
    world.bvh.query_aabb(
        &world.mesh.tri_aabbs,
        &query,
        scratch,
        tris,
        None,
        &mut QueryStats::default(),
    );
    let against = -motion.normalize_or_zero();
    let mut best = own;
    for &t in tris.iter() {
        if t == hit.triangle || !world.triangle_collides(t) {
            continue;
        }
        let corners = world.mesh.triangle_f64(t);
        if closest_point_on_triangle(corners, p).distance_squared(p) > TOUCHING_M * TOUCHING_M {
            continue;
        }
        let n = world.mesh.triangle_normal(t);
        if !n.is_finite() || n == DVec3::ZERO {
            continue;
        }
        let n = facing(n);
        if n.dot(against) > best.dot(against) {
            best = n;
        }
    }
    best
}

/// Everything the perch test needs to know of the character.
#[derive(Clone, Copy, Debug)]
pub struct PerchQuery {
    /// The character's centre where it met the edge.
    pub center: DVec3,
    /// The contact point on the edge.
    pub point: DVec3,
    /// The character's step height, metres.
    pub max_step_height_m: f64,
    /// `PerchAdditionalHeight`, metres.
    pub perch_additional_height_m: f64,
    /// `PerchRadiusThreshold`, metres.
    pub perch_radius_threshold_m: f64,
    /// Whether the character is walking (Unreal's `IsMovingOnGround`):
    /// only then does the perch add `PerchAdditionalHeight`.
    pub walking: bool,
    /// The least up component of a walkable face normal.
    pub floor_min_up: f64,
}

/// Unreal's perch test (`ComputePerchResult`): whether a capsule as tall
/// as `body` and as wide as the valid perch radius, swept down from the
/// character's centre, finds walkable floor (by face normal) within the
/// perch's reach of the capsule's base. The narrower capsule shares the
/// body's lowest point, so it starts inside the body and free of the
/// level. A body without a round base (a box or a cylinder, which
/// Unreal does not have) perches nowhere beyond the valid radius.
pub fn perch_floor_found(
    world: CollisionWorld<'_>,
    frame: &SlideSettings,
    body: &Body,
    q: &PerchQuery,
    scratch: &mut BvhScratch,
    tris: &mut Vec<u32>,
) -> bool {
    let (radius, half_height) = match body {
        Body::Solid(Solid::Capsule {
            radius,
            half_segment,
        }) => (*radius, half_segment + radius),
        Body::Solid(Solid::Sphere { radius }) => (*radius, *radius),
        _ => return false,
    };
    let narrow =
        valid_perch_radius(radius, q.perch_radius_threshold_m).max(crate::collide::MIN_RADIUS_M);
    // `FindFloor`'s reach: the step height, adjusted by `MAX_FLOOR_DIST`
    // up when walking and down when falling, and `PerchAdditionalHeight`
    // more when walking.
    let reach = if q.walking {
        (q.max_step_height_m + MAX_FLOOR_DIST_M).max(MAX_FLOOR_DIST_M) + q.perch_additional_height_m
    } else {
        (q.max_step_height_m - MAX_FLOOR_DIST_M).max(MAX_FLOOR_DIST_M)
    };
    // The floor must be within the reach of the contact's height over
    // the base: `ComputePerchResult`'s `InHitAboveBase` plus `FloorDist`.
    let base = q.center.y - half_height;
    let above_base = (q.point.y - base).max(0.0);
    let drop = reach - above_base;
    if drop <= 0.0 {
        return false;
    }
    let mut settings = frame.clone();
    settings.shape = CharacterShape::Capsule {
        radius_m: narrow,
        height_m: 2.0 * half_height,
    };
    settings.radii = [narrow, half_height, narrow];
    let Ok(mut solver) = SlideSolver::reusable(world, &settings, TraceDetail::Summary) else {
        return false;
    };
    solver.set_trigger_events(false);
    if !solver.start_move(q.center, DVec3::new(0.0, -drop, 0.0)) {
        return false;
    }
    // The first contact on the way down is the floor the perch test finds.
    for record in solver.by_ref() {
        if record.velocity.y >= 0.0 {
            continue;
        }
        if let Some(hit) = record.nearest {
            let n = impact_normal(&world, &hit, record.velocity, scratch, tris);
            return n.y >= q.floor_min_up;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bvh::Bvh;
    use crate::mesh::MeshBuilder;
    use glam::Vec3;

    /// A hit on triangle `tri` at `point`, on an edge, with `normal` as
    /// the contact's normal and `face` as the triangle's.
    fn edge_hit(tri: u32, point: DVec3, normal: DVec3, face: DVec3) -> NearestHit {
        NearestHit {
            triangle: tri,
            object: 0,
            t: 0.5,
            feature: Feature::Edge(0),
            contact_point: point,
            contact_point_espace: point,
            contact_center: point + normal * 0.4,
            contact_center_espace: point,
            contact_normal: normal,
            contact_normal_espace: normal,
            triangle_plane_origin: point,
            triangle_plane_normal: face,
            plane_intersection_point: point,
            plane_intersection_point_espace: point,
            polygon_intersection_point: point,
            polygon_intersection_point_espace: point,
            ellipsoid_intersection_point: point,
            ellipsoid_intersection_point_espace: point,
        }
    }

    #[test]
    fn an_edge_met_on_the_side_face_reports_the_face_opposing_the_move() {
        // A block over x < 0, top at y = 1. A contact on its top edge,
        // reported on a triangle of its side (+x) face: moving down, the
        // ImpactNormal is the top's (up); moving towards -x, the side's.
        let mut b = MeshBuilder::new();
        b.object("block")
            .cuboid(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(0.0, 1.0, 1.0));
        let mesh = b.build();
        let bvh = Bvh::build_for_mesh(&mesh);
        let world = CollisionWorld::new(&mesh, &bvh);
        let point = DVec3::new(0.0, 1.0, 0.3);
        let side = (0..mesh.triangle_count() as u32)
            .find(|&t| {
                mesh.triangle_normal(t).x > 0.99
                    && closest_point_on_triangle(mesh.triangle_f64(t), point).distance(point) < 1e-9
            })
            .expect("a side triangle at the edge");
        let lean = DVec3::new(1.0, 0.3, 0.0).normalize();
        let hit = edge_hit(side, point, lean, DVec3::X);
        let (mut scratch, mut tris) = (BvhScratch::default(), Vec::new());
        let down = impact_normal(&world, &hit, -DVec3::Y, &mut scratch, &mut tris);
        assert!(down.distance(DVec3::Y) < 1e-9, "moving down: {down}");
        let across = impact_normal(&world, &hit, -DVec3::X, &mut scratch, &mut tris);
        assert!(across.distance(DVec3::X) < 1e-9, "moving across: {across}");
    }

    #[test]
    fn the_valid_perch_radius_and_the_edge_tolerance() {
        // GetValidPerchRadius: the radius less the threshold, at least
        // 0.11 cm; IsWithinEdgeTolerance: 0.15 cm inside the rim.
        assert_eq!(valid_perch_radius(0.4, 0.0), 0.4);
        assert!((valid_perch_radius(0.4, 0.15) - 0.25).abs() < 1e-12);
        assert_eq!(valid_perch_radius(0.4, 1.0), MIN_PERCH_RADIUS_M);
        let c = DVec3::new(0.0, 1.0, 0.0);
        assert!(within_edge_tolerance(c, DVec3::new(0.398, 0.3, 0.0), 0.4));
        assert!(!within_edge_tolerance(c, DVec3::new(0.399, 0.3, 0.0), 0.4));
        // No perch test without a threshold above the tolerance.
        assert!(!needs_perch_test(c, DVec3::new(0.39, 0.3, 0.0), 0.4, 0.001));
        assert!(needs_perch_test(c, DVec3::new(0.39, 0.3, 0.0), 0.4, 0.1));
        assert!(!needs_perch_test(c, DVec3::new(0.29, 0.3, 0.0), 0.4, 0.1));
    }
}
