//! The trace: one plain-data record per iteration of the slide recursion.
//!
//! Field naming: a position or vector without suffix is in world space
//! (metres); the same quantity with `_espace` is in the probe's ellipsoid
//! space (world divided by the radii, where the probe is a unit sphere).
//! Times of impact are fractions of the iteration's velocity, in `[0, 1]`.
//! These names are the stable JSON field names of `collidoscope sweep --json`.

pub use super::clearance::Clearance;
pub use super::crossing::{Tunnel, TunnelCause};
pub use super::ghost::GhostHit;
pub use super::triggers::TriggerCrossing;
use crate::bvh::QueryStats;
use crate::collide::SlideMode;
use crate::geometry::sweep::{Feature, MissReason};
use crate::math::Aabb;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Which pass of a move an iteration belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    /// The requested velocity (with gravity added, in `nettle2000`).
    Velocity,
    /// The separate gravity pass (`robust`, `fauerby2003`).
    Gravity,
}

/// What happened to one candidate triangle in one iteration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum CandidateOutcome {
    /// Its object is marked non-colliding.
    NonColliding,
    /// Tested and not hit.
    Miss {
        /// Why.
        reason: MissReason,
    },
    /// Touching at the start while moving away from it or along it
    /// (robust mode): it does not block the move.
    Separating {
        /// Face, edge or vertex touched.
        feature: Feature,
        /// Contact point on the triangle, world space.
        contact_point: DVec3,
    },
    /// Tested and hit (not necessarily the nearest).
    Hit {
        /// Time of impact, fraction of the iteration's velocity.
        t: f64,
        /// Face, edge or vertex touched.
        feature: Feature,
        /// Contact point on the triangle, world space.
        contact_point: DVec3,
        /// Contact point on the triangle, ellipsoid space.
        contact_point_espace: DVec3,
    },
}

/// A triangle whose AABB overlapped the iteration's swept query box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// Triangle index in the level's mesh.
    pub triangle: u32,
    /// Index of the object it belongs to.
    pub object: u32,
    /// The test's result.
    pub outcome: CandidateOutcome,
}

/// The nearest hit of an iteration, with Nettle's construction points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NearestHit {
    /// Triangle index.
    pub triangle: u32,
    /// Object index.
    pub object: u32,
    /// Time of impact, fraction of the iteration's velocity.
    pub t: f64,
    /// Face, edge or vertex touched.
    pub feature: Feature,
    /// Contact point on the triangle, world space.
    pub contact_point: DVec3,
    /// Contact point, ellipsoid space.
    pub contact_point_espace: DVec3,
    /// Probe centre at the moment of contact, world space.
    pub contact_center: DVec3,
    /// Probe centre at contact, ellipsoid space.
    pub contact_center_espace: DVec3,
    /// Unit contact normal (from the contact point towards the centre), world space.
    pub contact_normal: DVec3,
    /// Unit contact normal, ellipsoid space.
    pub contact_normal_espace: DVec3,
    /// A point of the hit triangle's plane (its first vertex), world space.
    pub triangle_plane_origin: DVec3,
    /// Unit normal of the hit triangle's plane, world space.
    pub triangle_plane_normal: DVec3,
    /// Nettle: the point where the probe's surface first meets the triangle's plane, world space.
    pub plane_intersection_point: DVec3,
    /// Nettle's plane intersection point, ellipsoid space.
    pub plane_intersection_point_espace: DVec3,
    /// Nettle: the plane intersection point clamped into the triangle, world space.
    pub polygon_intersection_point: DVec3,
    /// Nettle's polygon intersection point, ellipsoid space.
    pub polygon_intersection_point_espace: DVec3,
    /// Nettle: the point of the probe's surface that touches the polygon
    /// (reverse intersection from the polygon point), world space.
    pub ellipsoid_intersection_point: DVec3,
    /// Nettle's ellipsoid intersection point, ellipsoid space.
    pub ellipsoid_intersection_point_espace: DVec3,
}

/// The plane the rest of the move slides along.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlidingPlane {
    /// A point on the plane, world space.
    pub origin: DVec3,
    /// Unit normal, world space.
    pub normal: DVec3,
    /// A point on the plane, ellipsoid space.
    pub origin_espace: DVec3,
    /// Unit normal, ellipsoid space (the plane is a tangent plane of the unit sphere there).
    pub normal_espace: DVec3,
}

/// A push out of geometry the probe started embedded in (robust mode).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// The triangle it was embedded in most deeply.
    pub triangle: u32,
    /// How deep, ellipsoid space (1 − distance from centre to triangle).
    pub depth_espace: f64,
    /// The displacement applied, world space.
    pub push: DVec3,
    /// The displacement applied, ellipsoid space.
    pub push_espace: DVec3,
}

/// Why a pass or the whole move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Nothing was hit: the probe reached its destination.
    Arrived,
    /// The remaining move (or slide vector) was shorter than `min_move` / the very-close distance.
    TooShort,
    /// `max_iterations` reached with motion left.
    IterationCap,
    /// Robust mode: a third contact plane boxed the probe in.
    CreaseStop,
    /// Robust mode: the slide direction points into a contact plane already met (a corner), nothing left to slide along.
    Blocked,
    /// Robust mode: the probe started embedded and could not be pushed free.
    StuckEmbedded,
}

/// Whether the recursion goes on after this iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", content = "reason", rename_all = "snake_case")]
pub enum IterationOutcome {
    /// Another iteration of the same pass follows.
    Continue,
    /// The pass ended (the gravity pass may follow).
    PassEnded(EndReason),
    /// The whole move ended.
    MoveEnded(EndReason),
}

/// Everything one iteration of the recursion computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    /// 0-based index within the whole move (both passes).
    pub index: u32,
    /// 0-based index within its pass (the recursion depth).
    pub depth: u32,
    /// The pass.
    pub pass: Pass,
    /// The algorithm that ran.
    pub mode: SlideMode,
    /// Probe centre where the iteration starts, world space.
    pub start: DVec3,
    /// Start, ellipsoid space.
    pub start_espace: DVec3,
    /// Velocity of this iteration (whole remaining move), world space.
    pub velocity: DVec3,
    /// Velocity, ellipsoid space.
    pub velocity_espace: DVec3,
    /// `start + velocity`, world space.
    pub destination: DVec3,
    /// Destination, ellipsoid space.
    pub destination_espace: DVec3,
    /// Push out of embedded geometry applied before sweeping (robust mode).
    pub recovery: Option<Recovery>,
    /// The swept box of the move (probe box at start ∪ at destination), world space.
    pub query_aabb: Aabb,
    /// The BVH boxes the candidate search entered, as slot ids
    /// (`node * 4 + slot` in the 4-wide tree; empty in summary
    /// traces): boxes the probe's moving box touches; in robust mode only
    /// those it reaches before the nearest hit.
    pub bvh_nodes_visited: Vec<u32>,
    /// BVH query counters. In a summary trace, robust mode's search also
    /// skips the boxes out of the probe's rounded reach
    /// ([`crate::bvh::Bvh::sweep_front_to_back_rounded`]): fewer nodes
    /// and triangles than a full trace counts for the same iteration.
    /// They count the work of the search that ended this iteration: an
    /// iteration through open space ended by the open-space walk (a
    /// stepped move) and the same iteration ended by the ordered search
    /// (a move run to its end, which goes straight to it after a contact)
    /// can count different nodes and boxes for the same motion.
    pub bvh_stats: QueryStats,
    /// Every candidate triangle tested and its outcome, in test order
    /// (empty in summary traces). Robust mode searches nearest first and
    /// skips triangles the probe could only reach after the nearest hit.
    pub candidates: Vec<Candidate>,
    /// Number of candidates tested (kept in summary traces too, where
    /// robust mode tests only those within the probe's rounded reach: at
    /// most as many as the full trace lists).
    pub candidate_count: u32,
    /// The nearest hit, if any.
    pub nearest: Option<NearestHit>,
    /// The nearest hit was on an edge or vertex with flat neighbours: a
    /// ghost corner (see [`GhostHit`]).
    #[serde(default)]
    pub ghost_hit: Option<GhostHit>,
    /// The sliding plane, when there was a hit.
    pub sliding_plane: Option<SlidingPlane>,
    /// The remaining motion after the hit, projected onto the sliding plane
    /// (and onto the crease, if any), world space.
    pub slide_vector: Option<DVec3>,
    /// Slide vector, ellipsoid space.
    pub slide_vector_espace: Option<DVec3>,
    /// Where the slide vector leads (`end + slide_vector`), world space.
    pub new_destination: Option<DVec3>,
    /// New destination, ellipsoid space.
    pub new_destination_espace: Option<DVec3>,
    /// Robust mode: the crease direction when two contact planes were combined, world space.
    pub crease_direction: Option<DVec3>,
    /// Probe centre where the iteration ends, world space (the next one starts here).
    pub end: DVec3,
    /// End, ellipsoid space.
    pub end_espace: DVec3,
    /// The gap to the nearest colliding triangle at `end`; `None` when
    /// nothing is within [`CLEARANCE_REACH_RADII`](super::CLEARANCE_REACH_RADII)
    /// radii. Its `embedded` flag says the iteration ended inside geometry.
    #[serde(default)]
    pub clearance: Option<Clearance>,
    /// The centre's path (`start`, after any recovery push, to `end`)
    /// went through a triangle or within the radius of one, deeper than
    /// at either end; `None` in a sound iteration (see [`Tunnel`]).
    #[serde(default)]
    pub tunnel: Option<Tunnel>,
    /// Non-colliding objects (triggers) entered or left on the segment the
    /// iteration travelled (`start` to `end`), in time order; absent from
    /// the JSON when there are none. They never change the motion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trigger_events: Vec<TriggerCrossing>,
    /// Whether the recursion goes on.
    pub outcome: IterationOutcome,
}
