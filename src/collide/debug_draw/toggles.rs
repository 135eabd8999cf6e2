//! The overlay switches: one flag per [`OverlayKind`], saved with the
//! session, with the kind-indexed accessors the legend and menus use.

use super::OverlayKind;
use serde::{Deserialize, Serialize};

/// One on/off switch per [`OverlayKind`], persisted with the session.
/// Fields missing from a saved session (a kind added later) take their default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OverlayToggles {
    /// [`OverlayKind::EllipsoidStart`].
    pub ellipsoid_start: bool,
    /// [`OverlayKind::EllipsoidContact`].
    pub ellipsoid_contact: bool,
    /// [`OverlayKind::EllipsoidGhosts`].
    pub ellipsoid_ghosts: bool,
    /// [`OverlayKind::Path`].
    pub path: bool,
    /// [`OverlayKind::Velocity`].
    pub velocity: bool,
    /// [`OverlayKind::Destination`].
    pub destination: bool,
    /// [`OverlayKind::SlideVector`].
    pub slide_vector: bool,
    /// [`OverlayKind::NewDestination`].
    pub new_destination: bool,
    /// [`OverlayKind::HitPlane`].
    pub hit_plane: bool,
    /// [`OverlayKind::SlidingPlane`].
    pub sliding_plane: bool,
    /// [`OverlayKind::PlaneIntersection`].
    pub plane_intersection: bool,
    /// [`OverlayKind::PolygonIntersection`].
    pub polygon_intersection: bool,
    /// [`OverlayKind::EllipsoidIntersection`].
    pub ellipsoid_intersection: bool,
    /// [`OverlayKind::ContactNormal`].
    pub contact_normal: bool,
    /// [`OverlayKind::QueryAabb`].
    pub query_aabb: bool,
    /// [`OverlayKind::CandidateAabbs`].
    pub candidate_aabbs: bool,
    /// [`OverlayKind::BvhNodesVisited`].
    pub bvh_nodes_visited: bool,
    /// [`OverlayKind::TriangleAabbs`].
    pub triangle_aabbs: bool,
    /// [`OverlayKind::BvhLevel`].
    pub bvh_level: bool,
    /// [`OverlayKind::HighlightTriangle`].
    pub highlight_triangle: bool,
    /// [`OverlayKind::Clearance`].
    pub clearance: bool,
    /// [`OverlayKind::GhostCorner`].
    pub ghost_corner: bool,
    /// [`OverlayKind::MeshHygiene`].
    pub mesh_hygiene: bool,
    /// [`OverlayKind::ModeComparison`].
    pub mode_comparison: bool,
    /// [`OverlayKind::WhatIf`].
    pub what_if: bool,
    /// [`OverlayKind::ReplayPaths`].
    pub replay_paths: bool,
    /// [`OverlayKind::StuckMap`].
    pub stuck_map: bool,
    /// [`OverlayKind::FindingPins`].
    pub finding_pins: bool,
    /// [`OverlayKind::BoundingSpheres`].
    pub bounding_spheres: bool,
    /// [`OverlayKind::BoundingAabbs`].
    pub bounding_aabbs: bool,
    /// [`OverlayKind::BoundingObbs`].
    pub bounding_obbs: bool,
    /// [`OverlayKind::PairPaths`].
    pub pair_paths: bool,
    /// [`OverlayKind::PairContact`].
    pub pair_contact: bool,
    /// [`OverlayKind::PairClosest`].
    pub pair_closest: bool,
    /// [`OverlayKind::BoxCamera`].
    pub box_camera: bool,
    /// [`OverlayKind::BoxEdges`].
    pub box_edges: bool,
    /// [`OverlayKind::BoxPoints`].
    pub box_points: bool,
    /// [`OverlayKind::MethodPath`].
    pub method_path: bool,
    /// [`OverlayKind::MethodSamples`].
    pub method_samples: bool,
    /// [`OverlayKind::MethodContact`].
    pub method_contact: bool,
    /// [`OverlayKind::PushOut`].
    pub push_out: bool,
    /// [`OverlayKind::Tunnelling`].
    pub tunnelling: bool,
    /// [`OverlayKind::Triggers`].
    pub triggers: bool,
    /// [`OverlayKind::Cylinders`].
    pub cylinders: bool,
    /// [`OverlayKind::RadialDisagreement`].
    pub radial_disagreement: bool,
}

impl Default for OverlayToggles {
    fn default() -> Self {
        OverlayToggles {
            ellipsoid_start: OverlayKind::EllipsoidStart.on_by_default(),
            ellipsoid_contact: OverlayKind::EllipsoidContact.on_by_default(),
            ellipsoid_ghosts: OverlayKind::EllipsoidGhosts.on_by_default(),
            path: OverlayKind::Path.on_by_default(),
            velocity: OverlayKind::Velocity.on_by_default(),
            destination: OverlayKind::Destination.on_by_default(),
            slide_vector: OverlayKind::SlideVector.on_by_default(),
            new_destination: OverlayKind::NewDestination.on_by_default(),
            hit_plane: OverlayKind::HitPlane.on_by_default(),
            sliding_plane: OverlayKind::SlidingPlane.on_by_default(),
            plane_intersection: OverlayKind::PlaneIntersection.on_by_default(),
            polygon_intersection: OverlayKind::PolygonIntersection.on_by_default(),
            ellipsoid_intersection: OverlayKind::EllipsoidIntersection.on_by_default(),
            contact_normal: OverlayKind::ContactNormal.on_by_default(),
            query_aabb: OverlayKind::QueryAabb.on_by_default(),
            candidate_aabbs: OverlayKind::CandidateAabbs.on_by_default(),
            bvh_nodes_visited: OverlayKind::BvhNodesVisited.on_by_default(),
            triangle_aabbs: OverlayKind::TriangleAabbs.on_by_default(),
            bvh_level: OverlayKind::BvhLevel.on_by_default(),
            highlight_triangle: OverlayKind::HighlightTriangle.on_by_default(),
            clearance: OverlayKind::Clearance.on_by_default(),
            ghost_corner: OverlayKind::GhostCorner.on_by_default(),
            mesh_hygiene: OverlayKind::MeshHygiene.on_by_default(),
            mode_comparison: OverlayKind::ModeComparison.on_by_default(),
            what_if: OverlayKind::WhatIf.on_by_default(),
            replay_paths: OverlayKind::ReplayPaths.on_by_default(),
            stuck_map: OverlayKind::StuckMap.on_by_default(),
            finding_pins: OverlayKind::FindingPins.on_by_default(),
            bounding_spheres: OverlayKind::BoundingSpheres.on_by_default(),
            bounding_aabbs: OverlayKind::BoundingAabbs.on_by_default(),
            bounding_obbs: OverlayKind::BoundingObbs.on_by_default(),
            pair_paths: OverlayKind::PairPaths.on_by_default(),
            pair_contact: OverlayKind::PairContact.on_by_default(),
            pair_closest: OverlayKind::PairClosest.on_by_default(),
            box_camera: OverlayKind::BoxCamera.on_by_default(),
            box_edges: OverlayKind::BoxEdges.on_by_default(),
            box_points: OverlayKind::BoxPoints.on_by_default(),
            method_path: OverlayKind::MethodPath.on_by_default(),
            method_samples: OverlayKind::MethodSamples.on_by_default(),
            method_contact: OverlayKind::MethodContact.on_by_default(),
            push_out: OverlayKind::PushOut.on_by_default(),
            tunnelling: OverlayKind::Tunnelling.on_by_default(),
            triggers: OverlayKind::Triggers.on_by_default(),
            cylinders: OverlayKind::Cylinders.on_by_default(),
            radial_disagreement: OverlayKind::RadialDisagreement.on_by_default(),
        }
    }
}

impl OverlayToggles {
    /// Every kind on (`true`) or off (`false`).
    pub fn all(on: bool) -> Self {
        OverlayToggles {
            ellipsoid_start: on,
            ellipsoid_contact: on,
            ellipsoid_ghosts: on,
            path: on,
            velocity: on,
            destination: on,
            slide_vector: on,
            new_destination: on,
            hit_plane: on,
            sliding_plane: on,
            plane_intersection: on,
            polygon_intersection: on,
            ellipsoid_intersection: on,
            contact_normal: on,
            query_aabb: on,
            candidate_aabbs: on,
            bvh_nodes_visited: on,
            triangle_aabbs: on,
            bvh_level: on,
            highlight_triangle: on,
            clearance: on,
            ghost_corner: on,
            mesh_hygiene: on,
            mode_comparison: on,
            what_if: on,
            replay_paths: on,
            stuck_map: on,
            finding_pins: on,
            bounding_spheres: on,
            bounding_aabbs: on,
            bounding_obbs: on,
            pair_paths: on,
            pair_contact: on,
            pair_closest: on,
            box_camera: on,
            box_edges: on,
            box_points: on,
            method_path: on,
            method_samples: on,
            method_contact: on,
            push_out: on,
            tunnelling: on,
            triggers: on,
            cylinders: on,
            radial_disagreement: on,
        }
    }

    /// The switch of `kind`.
    pub fn flag_mut(&mut self, kind: OverlayKind) -> &mut bool {
        match kind {
            OverlayKind::EllipsoidStart => &mut self.ellipsoid_start,
            OverlayKind::EllipsoidContact => &mut self.ellipsoid_contact,
            OverlayKind::EllipsoidGhosts => &mut self.ellipsoid_ghosts,
            OverlayKind::Path => &mut self.path,
            OverlayKind::Velocity => &mut self.velocity,
            OverlayKind::Destination => &mut self.destination,
            OverlayKind::SlideVector => &mut self.slide_vector,
            OverlayKind::NewDestination => &mut self.new_destination,
            OverlayKind::HitPlane => &mut self.hit_plane,
            OverlayKind::SlidingPlane => &mut self.sliding_plane,
            OverlayKind::PlaneIntersection => &mut self.plane_intersection,
            OverlayKind::PolygonIntersection => &mut self.polygon_intersection,
            OverlayKind::EllipsoidIntersection => &mut self.ellipsoid_intersection,
            OverlayKind::ContactNormal => &mut self.contact_normal,
            OverlayKind::QueryAabb => &mut self.query_aabb,
            OverlayKind::CandidateAabbs => &mut self.candidate_aabbs,
            OverlayKind::BvhNodesVisited => &mut self.bvh_nodes_visited,
            OverlayKind::TriangleAabbs => &mut self.triangle_aabbs,
            OverlayKind::BvhLevel => &mut self.bvh_level,
            OverlayKind::HighlightTriangle => &mut self.highlight_triangle,
            OverlayKind::Clearance => &mut self.clearance,
            OverlayKind::GhostCorner => &mut self.ghost_corner,
            OverlayKind::MeshHygiene => &mut self.mesh_hygiene,
            OverlayKind::ModeComparison => &mut self.mode_comparison,
            OverlayKind::WhatIf => &mut self.what_if,
            OverlayKind::ReplayPaths => &mut self.replay_paths,
            OverlayKind::StuckMap => &mut self.stuck_map,
            OverlayKind::FindingPins => &mut self.finding_pins,
            OverlayKind::BoundingSpheres => &mut self.bounding_spheres,
            OverlayKind::BoundingAabbs => &mut self.bounding_aabbs,
            OverlayKind::BoundingObbs => &mut self.bounding_obbs,
            OverlayKind::PairPaths => &mut self.pair_paths,
            OverlayKind::PairContact => &mut self.pair_contact,
            OverlayKind::PairClosest => &mut self.pair_closest,
            OverlayKind::BoxCamera => &mut self.box_camera,
            OverlayKind::BoxEdges => &mut self.box_edges,
            OverlayKind::BoxPoints => &mut self.box_points,
            OverlayKind::MethodPath => &mut self.method_path,
            OverlayKind::MethodSamples => &mut self.method_samples,
            OverlayKind::MethodContact => &mut self.method_contact,
            OverlayKind::PushOut => &mut self.push_out,
            OverlayKind::Tunnelling => &mut self.tunnelling,
            OverlayKind::Triggers => &mut self.triggers,
            OverlayKind::Cylinders => &mut self.cylinders,
            OverlayKind::RadialDisagreement => &mut self.radial_disagreement,
        }
    }

    /// Whether `kind` is shown.
    pub fn get(&self, kind: OverlayKind) -> bool {
        match kind {
            OverlayKind::EllipsoidStart => self.ellipsoid_start,
            OverlayKind::EllipsoidContact => self.ellipsoid_contact,
            OverlayKind::EllipsoidGhosts => self.ellipsoid_ghosts,
            OverlayKind::Path => self.path,
            OverlayKind::Velocity => self.velocity,
            OverlayKind::Destination => self.destination,
            OverlayKind::SlideVector => self.slide_vector,
            OverlayKind::NewDestination => self.new_destination,
            OverlayKind::HitPlane => self.hit_plane,
            OverlayKind::SlidingPlane => self.sliding_plane,
            OverlayKind::PlaneIntersection => self.plane_intersection,
            OverlayKind::PolygonIntersection => self.polygon_intersection,
            OverlayKind::EllipsoidIntersection => self.ellipsoid_intersection,
            OverlayKind::ContactNormal => self.contact_normal,
            OverlayKind::QueryAabb => self.query_aabb,
            OverlayKind::CandidateAabbs => self.candidate_aabbs,
            OverlayKind::BvhNodesVisited => self.bvh_nodes_visited,
            OverlayKind::TriangleAabbs => self.triangle_aabbs,
            OverlayKind::BvhLevel => self.bvh_level,
            OverlayKind::HighlightTriangle => self.highlight_triangle,
            OverlayKind::Clearance => self.clearance,
            OverlayKind::GhostCorner => self.ghost_corner,
            OverlayKind::MeshHygiene => self.mesh_hygiene,
            OverlayKind::ModeComparison => self.mode_comparison,
            OverlayKind::WhatIf => self.what_if,
            OverlayKind::ReplayPaths => self.replay_paths,
            OverlayKind::StuckMap => self.stuck_map,
            OverlayKind::FindingPins => self.finding_pins,
            OverlayKind::BoundingSpheres => self.bounding_spheres,
            OverlayKind::BoundingAabbs => self.bounding_aabbs,
            OverlayKind::BoundingObbs => self.bounding_obbs,
            OverlayKind::PairPaths => self.pair_paths,
            OverlayKind::PairContact => self.pair_contact,
            OverlayKind::PairClosest => self.pair_closest,
            OverlayKind::BoxCamera => self.box_camera,
            OverlayKind::BoxEdges => self.box_edges,
            OverlayKind::BoxPoints => self.box_points,
            OverlayKind::MethodPath => self.method_path,
            OverlayKind::MethodSamples => self.method_samples,
            OverlayKind::MethodContact => self.method_contact,
            OverlayKind::PushOut => self.push_out,
            OverlayKind::Tunnelling => self.tunnelling,
            OverlayKind::Triggers => self.triggers,
            OverlayKind::Cylinders => self.cylinders,
            OverlayKind::RadialDisagreement => self.radial_disagreement,
        }
    }

    /// Shows or hides `kind`.
    pub fn set(&mut self, kind: OverlayKind, on: bool) {
        *self.flag_mut(kind) = on;
    }

    /// Builder form of [`OverlayToggles::set`].
    pub fn with(mut self, kind: OverlayKind, on: bool) -> Self {
        self.set(kind, on);
        self
    }
}
