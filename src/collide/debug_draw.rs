//! Renderer-agnostic debug primitives (overlays) for a slide trace, world space.
//!
//! [`primitives_for_trace`] turns the records the solver produced into plain
//! shapes (segments, arrows, points, boxes, plane quads, ellipsoids,
//! triangles), each tagged with the [`OverlayKind`] it illustrates. The
//! renderer maps them to GPU geometry; the GUI draws their labels with the
//! egui painter. Keeping this step free of any GUI crate means what the
//! overlays show is tested without GL, and it is computed only from the
//! trace: there is no second, "visual" copy of the algorithm.
//!
//! The set of overlays follows Nettle's (2000) figures (the three
//! intersection points, the sliding plane, the slide vector and the new
//! destination) plus what the BVH query did (query box, visited nodes,
//! candidate triangle boxes).

mod build;
#[cfg(test)]
mod tests;
mod toggles;

use crate::geometry::shape::CharacterShape;
pub use build::primitives_for_trace;
pub use toggles::OverlayToggles;

use crate::math::Aabb;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// What an overlay primitive illustrates; the legend, the toggles and the
/// renderer's colours all key on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverlayKind {
    /// The probe's ellipsoid where the current iteration starts.
    EllipsoidStart,
    /// The ellipsoid at the moment of contact.
    EllipsoidContact,
    /// Translucent ellipsoids where the earlier iterations started.
    EllipsoidGhosts,
    /// The centre's path, one segment per iteration done.
    Path,
    /// The current iteration's velocity, from the start to the destination.
    Velocity,
    /// Where the current iteration would end without a hit.
    Destination,
    /// The remaining motion projected onto the sliding plane.
    SlideVector,
    /// Where the slide vector leads (the next iteration's destination).
    NewDestination,
    /// The plane of the hit triangle.
    HitPlane,
    /// The plane the rest of the move slides along.
    SlidingPlane,
    /// Nettle's plane intersection point.
    PlaneIntersection,
    /// Nettle's polygon intersection point.
    PolygonIntersection,
    /// Nettle's ellipsoid intersection point.
    EllipsoidIntersection,
    /// The contact normal, from the contact point towards the centre.
    ContactNormal,
    /// The swept box the BVH was queried with.
    QueryAabb,
    /// The boxes of the candidate triangles (their box overlapped the query).
    CandidateAabbs,
    /// The BVH nodes the candidate search entered, coloured by depth.
    BvhNodesVisited,
    /// Boxes of the triangles in visited leaves that were not tested: the
    /// box test rejected them, or (robust mode) they lie beyond the nearest hit.
    TriangleAabbs,
    /// Every BVH node at one depth, to see how the tree splits the level.
    BvhLevel,
    /// The triangle that was hit.
    HighlightTriangle,
    /// The gap from the nearest triangle to the probe where the iteration
    /// ends; when the probe ended inside geometry, the triangle it is in
    /// and the depth vector, in red; when the centre's path went through a
    /// triangle on the way (a tunnel), that triangle and an arrow to it, in
    /// red.
    Clearance,
    /// A ghost corner: the edge or vertex hit, and its flat neighbours.
    GhostCorner,
    /// The mesh's own faults found by the hygiene analysis (open edges,
    /// T-junctions, ...), each kind in its colour.
    MeshHygiene,
    /// Compare modes: each slide mode's path and end, ghosted, in the
    /// mode's colour.
    ModeComparison,
    /// What-if: the move's path and end before the last settings edit
    /// (grey) and after it.
    WhatIf,
    /// An imported recording: the recorded path, the character's re-run
    /// ends and the first frame that diverges.
    ReplayPaths,
    /// The stuck-spot map: one floor quad per start point, in the colour
    /// of its worst walk's class.
    StuckMap,
    /// The level checks: a pin at each finding the Checks page lists, in
    /// its verdict's colour, the opened one larger and white-headed.
    FindingPins,
    /// Each object's bounding sphere (broad phase, seed 003).
    BoundingSpheres,
    /// Each object's axis-aligned bounding box.
    BoundingAabbs,
    /// Each object's oriented bounding box.
    BoundingObbs,
    /// Probes moved together: each probe's straight move.
    PairPaths,
    /// Probes moved together: where two bounding spheres first touch, and
    /// the line between the two centres then.
    PairContact,
    /// Probes moved together: the closest approach of each pair, the
    /// segment between the centres, labelled with the gap.
    PairClosest,
    /// Box camera: the current step's box (swept along the step).
    BoxCamera,
    /// Box camera: the box edges that reached level 4 (their box overlapped
    /// a triangle's box).
    BoxEdges,
    /// Box camera: where an edge crosses a triangle (level 4 passed).
    BoxPoints,
    /// The centre's path of a method other than the slide, one segment per step done.
    MethodPath,
    /// Translucent ellipsoids where the discrete mode's fixed steps landed.
    MethodSamples,
    /// Where a method found the contact: the probe at the time of impact and the contact point.
    MethodContact,
    /// The collision normal and the push that resolves an overlap.
    PushOut,
    /// A step that jumped through a surface without overlapping it, and the surface.
    Tunnelling,
    /// Non-colliding objects the probe entered or left (trigger events).
    Triggers,
    /// The scene's vertical cylinders (poles, trees) the radial method pushes out of.
    Cylinders,
    /// Radial vs ellipsoid: where the swept ellipsoid ends on the same
    /// move, and the line to the push-out's end.
    RadialDisagreement,
}

impl OverlayKind {
    /// Every kind, in legend order.
    pub const ALL: [OverlayKind; 45] = [
        OverlayKind::EllipsoidStart,
        OverlayKind::EllipsoidContact,
        OverlayKind::EllipsoidGhosts,
        OverlayKind::Path,
        OverlayKind::Velocity,
        OverlayKind::Destination,
        OverlayKind::SlideVector,
        OverlayKind::NewDestination,
        OverlayKind::HitPlane,
        OverlayKind::SlidingPlane,
        OverlayKind::PlaneIntersection,
        OverlayKind::PolygonIntersection,
        OverlayKind::EllipsoidIntersection,
        OverlayKind::ContactNormal,
        OverlayKind::QueryAabb,
        OverlayKind::CandidateAabbs,
        OverlayKind::BvhNodesVisited,
        OverlayKind::TriangleAabbs,
        OverlayKind::BvhLevel,
        OverlayKind::HighlightTriangle,
        OverlayKind::Clearance,
        OverlayKind::GhostCorner,
        OverlayKind::MeshHygiene,
        OverlayKind::ModeComparison,
        OverlayKind::WhatIf,
        OverlayKind::ReplayPaths,
        OverlayKind::StuckMap,
        OverlayKind::FindingPins,
        OverlayKind::BoundingSpheres,
        OverlayKind::BoundingAabbs,
        OverlayKind::BoundingObbs,
        OverlayKind::PairPaths,
        OverlayKind::PairContact,
        OverlayKind::PairClosest,
        OverlayKind::BoxCamera,
        OverlayKind::BoxEdges,
        OverlayKind::BoxPoints,
        OverlayKind::MethodPath,
        OverlayKind::MethodSamples,
        OverlayKind::MethodContact,
        OverlayKind::PushOut,
        OverlayKind::Tunnelling,
        OverlayKind::Triggers,
        OverlayKind::Cylinders,
        OverlayKind::RadialDisagreement,
    ];

    /// Short human-readable name, for the legend and the toggles.
    pub fn label(self) -> &'static str {
        match self {
            OverlayKind::EllipsoidStart => "Ellipsoid at start",
            OverlayKind::EllipsoidContact => "Ellipsoid at contact",
            OverlayKind::EllipsoidGhosts => "Earlier iterations",
            OverlayKind::Path => "Path",
            OverlayKind::Velocity => "Velocity",
            OverlayKind::Destination => "Destination",
            OverlayKind::SlideVector => "Slide vector",
            OverlayKind::NewDestination => "New destination",
            OverlayKind::HitPlane => "Hit triangle plane",
            OverlayKind::SlidingPlane => "Sliding plane",
            OverlayKind::PlaneIntersection => "Plane intersection point",
            OverlayKind::PolygonIntersection => "Polygon intersection point",
            OverlayKind::EllipsoidIntersection => "Ellipsoid intersection point",
            OverlayKind::ContactNormal => "Contact normal",
            OverlayKind::QueryAabb => "Swept query box",
            OverlayKind::CandidateAabbs => "Candidate triangle boxes",
            OverlayKind::BvhNodesVisited => "BVH nodes visited",
            OverlayKind::TriangleAabbs => "Rejected triangle boxes",
            OverlayKind::BvhLevel => "BVH level",
            OverlayKind::HighlightTriangle => "Hit triangle",
            OverlayKind::Clearance => "Clearance (red: inside geometry)",
            OverlayKind::GhostCorner => "Ghost corner",
            OverlayKind::MeshHygiene => "Mesh faults",
            OverlayKind::ModeComparison => "Modes compared",
            OverlayKind::WhatIf => "What-if: before / after",
            OverlayKind::ReplayPaths => "Replay: recorded (white), re-run (orange)",
            OverlayKind::StuckMap => "Stuck-spot map",
            OverlayKind::FindingPins => "Finding pins",
            OverlayKind::BoundingSpheres => "Object bounding spheres",
            OverlayKind::BoundingAabbs => "Object AABBs",
            OverlayKind::BoundingObbs => "Object OBBs",
            OverlayKind::PairPaths => "Probe pairs: moves",
            OverlayKind::PairContact => "Probe pairs: contact point",
            OverlayKind::PairClosest => "Probe pairs: closest approach",
            OverlayKind::BoxCamera => "Box camera: step box",
            OverlayKind::BoxEdges => "Box camera: edges tested (level 4)",
            OverlayKind::BoxPoints => "Box camera: intersection points",
            OverlayKind::MethodPath => "Method path (fixed steps)",
            OverlayKind::MethodSamples => "Step samples",
            OverlayKind::MethodContact => "Time of impact (bisection)",
            OverlayKind::PushOut => "Penetration normal / push-out",
            OverlayKind::Tunnelling => "Tunnelled step",
            OverlayKind::Triggers => "Trigger enter / exit",
            OverlayKind::Cylinders => "Cylinders (radial)",
            OverlayKind::RadialDisagreement => "Radial vs ellipsoid: ellipsoid's end",
        }
    }

    /// sRGB colour with alpha; alpha below 1 means the renderer draws it
    /// translucent. BVH boxes use [`depth_color`] instead, this is
    /// their legend swatch.
    pub fn color(self) -> [f32; 4] {
        match self {
            OverlayKind::EllipsoidStart => [0.25, 0.6, 1.0, 0.35],
            OverlayKind::EllipsoidContact => [1.0, 0.55, 0.1, 0.35],
            OverlayKind::EllipsoidGhosts => [0.7, 0.7, 0.8, 0.18],
            OverlayKind::Path => [1.0, 0.95, 0.3, 1.0],
            OverlayKind::Velocity => [0.2, 0.85, 0.3, 1.0],
            OverlayKind::Destination => [0.1, 0.6, 0.15, 1.0],
            OverlayKind::SlideVector => [0.9, 0.25, 0.9, 1.0],
            OverlayKind::NewDestination => [0.6, 0.1, 0.65, 1.0],
            OverlayKind::HitPlane => [1.0, 0.35, 0.3, 0.3],
            OverlayKind::SlidingPlane => [0.3, 0.5, 1.0, 0.3],
            OverlayKind::PlaneIntersection => [1.0, 0.9, 0.1, 1.0],
            OverlayKind::PolygonIntersection => [1.0, 0.45, 0.0, 1.0],
            OverlayKind::EllipsoidIntersection => [0.0, 0.9, 0.9, 1.0],
            OverlayKind::ContactNormal => [1.0, 0.1, 0.1, 1.0],
            OverlayKind::QueryAabb => [0.92, 0.92, 0.92, 1.0],
            OverlayKind::CandidateAabbs => [1.0, 0.65, 0.2, 1.0],
            OverlayKind::BvhNodesVisited => [0.45, 0.75, 1.0, 1.0],
            OverlayKind::TriangleAabbs => [0.55, 0.55, 0.6, 1.0],
            OverlayKind::BvhLevel => [0.55, 1.0, 0.55, 1.0],
            OverlayKind::HighlightTriangle => [1.0, 0.15, 0.15, 0.8],
            OverlayKind::Clearance => [0.95, 0.95, 0.95, 1.0],
            OverlayKind::GhostCorner => [1.0, 0.5, 0.95, 1.0],
            OverlayKind::MeshHygiene => [1.0, 0.85, 0.1, 1.0],
            OverlayKind::ModeComparison => [0.35, 0.55, 1.0, 0.28],
            OverlayKind::WhatIf => [0.75, 0.75, 0.75, 0.28],
            OverlayKind::ReplayPaths => [0.95, 0.95, 0.95, 1.0],
            OverlayKind::StuckMap => [0.9, 0.2, 0.2, 1.0],
            OverlayKind::FindingPins => [0.9, 0.27, 0.24, 1.0],
            OverlayKind::BoundingSpheres => [0.4, 0.9, 1.0, 0.12],
            OverlayKind::BoundingAabbs => [1.0, 0.6, 0.6, 1.0],
            OverlayKind::BoundingObbs => [0.6, 1.0, 0.4, 1.0],
            OverlayKind::PairPaths => [0.75, 0.6, 1.0, 1.0],
            OverlayKind::PairContact => [1.0, 0.2, 0.55, 1.0],
            OverlayKind::PairClosest => [0.3, 1.0, 0.75, 1.0],
            OverlayKind::BoxCamera => [0.85, 0.85, 0.4, 1.0],
            OverlayKind::BoxEdges => [1.0, 0.5, 0.3, 1.0],
            OverlayKind::BoxPoints => [0.2, 0.9, 1.0, 1.0],
            OverlayKind::MethodPath => [1.0, 0.8, 0.45, 1.0],
            OverlayKind::MethodSamples => [0.8, 0.8, 0.55, 0.15],
            OverlayKind::MethodContact => [1.0, 0.35, 0.75, 0.35],
            OverlayKind::PushOut => [0.95, 0.2, 0.45, 1.0],
            OverlayKind::Tunnelling => [1.0, 0.0, 0.0, 1.0],
            OverlayKind::Triggers => [0.3, 1.0, 0.6, 1.0],
            OverlayKind::Cylinders => [0.55, 0.85, 0.35, 1.0],
            OverlayKind::RadialDisagreement => [0.35, 0.75, 1.0, 0.3],
        }
    }

    /// Whether the window labels this kind by default, when it shows only
    /// what the iteration decided: the contact, the chosen triangle, the
    /// sliding plane, a tunnel or a probe inside geometry, a ghost corner,
    /// trigger events, and every overlay that is not the iteration's own
    /// (compare modes, what-if, findings, pairs, ...). The iteration's
    /// bookkeeping (earlier iterations' numbers, the destinations, Nettle's
    /// three points beside the contact, the candidate boxes) is labelled
    /// only on request or under the pointer: on a real level it is what
    /// buried the view.
    pub fn labelled_by_default(self) -> bool {
        !matches!(
            self,
            OverlayKind::EllipsoidStart
                | OverlayKind::EllipsoidGhosts
                | OverlayKind::Destination
                | OverlayKind::NewDestination
                | OverlayKind::PlaneIntersection
                | OverlayKind::PolygonIntersection
                | OverlayKind::EllipsoidIntersection
                | OverlayKind::CandidateAabbs
                | OverlayKind::HitPlane
                | OverlayKind::QueryAabb
                | OverlayKind::BvhNodesVisited
                | OverlayKind::TriangleAabbs
                | OverlayKind::BvhLevel
        )
    }

    /// Whether the kind is a vector the window also draws at a readable
    /// screen length, with a head, over everything (the contact normal
    /// and the slide vector lie inside the probe at a contact).
    pub fn is_screen_vector(self) -> bool {
        matches!(
            self,
            OverlayKind::ContactNormal | OverlayKind::SlideVector | OverlayKind::Velocity
        )
    }

    /// Whether the kind is on in a fresh session: everything about the
    /// iteration itself; the heavier BVH views are opt-in.
    pub fn on_by_default(self) -> bool {
        !matches!(
            self,
            OverlayKind::BvhNodesVisited
                | OverlayKind::TriangleAabbs
                | OverlayKind::BvhLevel
                | OverlayKind::BoundingSpheres
                | OverlayKind::BoundingAabbs
                | OverlayKind::BoundingObbs
        )
    }
}

/// Colour of a BVH box at `depth` (root = 0): hues step around the colour
/// wheel by the golden angle, so a parent and its children never look alike.
pub fn depth_color(depth: u32) -> [f32; 4] {
    let hue = (depth as f32 * 0.381_966).fract();
    let [r, g, b] = hsv_to_rgb(hue, 0.65, 1.0);
    [r, g, b, 1.0]
}

fn hsv_to_rgb(h: f32, s: f32, v: f32) -> [f32; 3] {
    let h6 = h * 6.0;
    let sector = h6.floor() as i32 % 6;
    let f = h6 - h6.floor();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match sector {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

/// Box kinds come by the thousand on dense levels (a long query on a 300k
/// triangle scene has thousands of candidates), more than anyone can read
/// and more than a software renderer draws at interactive rates. By default
/// at most this many boxes of each kind are drawn, the nearest to the probe.
pub const DEFAULT_MAX_BOXES_PER_KIND: usize = 400;

/// How the overlay set is built: which kinds are on, and the limits.
#[derive(Clone, Debug, PartialEq)]
pub struct OverlayOptions {
    /// Which kinds are drawn.
    pub toggles: OverlayToggles,
    /// The depth [`OverlayKind::BvhLevel`] shows (root = 0).
    pub bvh_level_depth: u32,
    /// Most boxes drawn per box kind: labelled boxes (hits) first, then the
    /// nearest to the probe (see [`DEFAULT_MAX_BOXES_PER_KIND`]).
    pub max_boxes_per_kind: usize,
}

impl OverlayOptions {
    /// `toggles` with the default limits and BVH level `bvh_level_depth`.
    pub fn new(toggles: OverlayToggles, bvh_level_depth: u32) -> Self {
        OverlayOptions {
            toggles,
            bvh_level_depth,
            max_boxes_per_kind: DEFAULT_MAX_BOXES_PER_KIND,
        }
    }
}

/// What to draw for one step of a trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlaySet {
    /// The primitives, in drawing order.
    pub primitives: Vec<DebugPrimitive>,
    /// Box kinds cut by [`OverlayOptions::max_boxes_per_kind`], with how
    /// many of their boxes were left out (the legend says so).
    pub hidden: Vec<(OverlayKind, usize)>,
}

impl OverlaySet {
    /// How many boxes of `kind` the cap left out.
    pub fn hidden(&self, kind: OverlayKind) -> usize {
        self.hidden
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| *n)
    }
}

/// A shape to draw, world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A line segment.
    Segment {
        /// One end.
        a: DVec3,
        /// The other end.
        b: DVec3,
    },
    /// A segment with an arrow head at `to`.
    Arrow {
        /// Tail.
        from: DVec3,
        /// Head.
        to: DVec3,
    },
    /// A marker (small sphere).
    Point {
        /// Where.
        p: DVec3,
    },
    /// The 12 edges of a box.
    Box {
        /// The box.
        aabb: Aabb,
    },
    /// A square patch of a plane, centred on a point of the plane.
    PlaneQuad {
        /// A point of the plane, the quad's centre.
        center: DVec3,
        /// Unit normal of the plane.
        normal: DVec3,
        /// Half the side of the square.
        half_size: f64,
    },
    /// An axis-aligned ellipsoid.
    Ellipsoid {
        /// Centre.
        center: DVec3,
        /// Semi-axes along x, y, z.
        radii: DVec3,
    },
    /// A filled triangle.
    Triangle {
        /// The corners.
        corners: [DVec3; 3],
    },
    /// The probe's body when it is not the ellipsoid: a sphere, capsule,
    /// cylinder or box, upright, centred on `center`.
    Solid {
        /// Centre.
        center: DVec3,
        /// The shape and its sizes (never [`CharacterShape::Ellipsoid`]).
        shape: CharacterShape,
    },
}

/// The probe's body at `center`: the ellipsoid of `radii`, or the solid
/// `shape` names.
pub fn body_at(center: DVec3, radii: DVec3, shape: CharacterShape) -> Shape {
    if shape.is_ellipsoid() {
        Shape::Ellipsoid { center, radii }
    } else {
        Shape::Solid { center, shape }
    }
}

impl Shape {
    /// A point to hang the primitive's label on.
    pub fn anchor(&self) -> DVec3 {
        match self {
            Shape::Segment { a, b } => (*a + *b) * 0.5,
            Shape::Arrow { to, .. } => *to,
            Shape::Point { p } => *p,
            Shape::Box { aabb } => aabb.max.as_dvec3(),
            Shape::PlaneQuad { center, .. } => *center,
            Shape::Ellipsoid { center, radii } => *center + DVec3::new(0.0, radii.y, 0.0),
            Shape::Triangle { corners } => (corners[0] + corners[1] + corners[2]) / 3.0,
            Shape::Solid { center, shape } => {
                *center + DVec3::new(0.0, shape.half_extents(DVec3::ZERO).y, 0.0)
            }
        }
    }
}

/// One overlay primitive: what it shows, its shape, colour and optional label.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DebugPrimitive {
    /// What it illustrates (drives its toggle and legend entry).
    pub kind: OverlayKind,
    /// The shape, world space.
    pub shape: Shape,
    /// sRGB colour and alpha (below 1: translucent).
    pub color: [f32; 4],
    /// Text the GUI draws at [`Shape::anchor`] (iteration numbers, point names).
    pub label: Option<String>,
}
