//! Overlay primitives for a hand-made two-iteration trace: a probe drops onto
//! a floor, slides along it, and arrives.

use super::*;
use crate::bvh::{Bvh, BvhNode, QueryStats, Slot};
use crate::collide::{
    Candidate, CandidateOutcome, IterationOutcome, IterationRecord, NearestHit, Pass, SlideMode,
    SlidingPlane,
};
use crate::geometry::shape::CharacterShape;
use crate::geometry::sweep::{Feature, MissReason};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use glam::DVec3;

const RADII: DVec3 = DVec3::new(0.5, 1.0, 0.5);

/// Two floor triangles (0, 1) and a far wall triangle (2).
fn level() -> (TriMesh, Bvh) {
    let positions = vec![
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, 5.0),
        Vec3::new(-5.0, 0.0, 5.0),
        Vec3::new(20.0, 0.0, 0.0),
        Vec3::new(20.0, 3.0, 0.0),
        Vec3::new(20.0, 0.0, 3.0),
    ];
    let mesh = TriMesh::new(
        positions,
        vec![[0, 2, 1], [0, 3, 2], [4, 5, 6]],
        vec![("floor".into(), 2), ("wall".into(), 1)],
    );
    let b = &mesh.tri_aabbs;
    // Root: a leaf (triangle 0) and a node holding one leaf per other triangle.
    let leaf = |first| Slot::Leaf { first, count: 1 };
    let bvh = Bvh::from_parts(
        vec![
            BvhNode::from_slots(&[(b[0], leaf(0)), (b[1].union(&b[2]), Slot::Inner(1))]),
            BvhNode::from_slots(&[(b[1], leaf(1)), (b[2], leaf(2))]),
        ],
        vec![0, 1, 2],
        b,
    );
    (mesh, bvh)
}

fn record(index: u32, start: DVec3, velocity: DVec3, end: DVec3) -> IterationRecord {
    let es = |v: DVec3| v / RADII;
    let destination = start + velocity;
    IterationRecord {
        index,
        depth: index,
        pass: Pass::Velocity,
        mode: SlideMode::Robust,
        start,
        start_espace: es(start),
        velocity,
        velocity_espace: es(velocity),
        destination,
        destination_espace: es(destination),
        recovery: None,
        query_aabb: Aabb::from_f64_outward(
            start.min(destination) - RADII,
            start.max(destination) + RADII,
        ),
        bvh_nodes_visited: vec![0, 1, 4, 5],
        bvh_stats: QueryStats::default(),
        candidates: Vec::new(),
        candidate_count: 0,
        nearest: None,
        ghost_hit: None,
        sliding_plane: None,
        slide_vector: None,
        slide_vector_espace: None,
        new_destination: None,
        new_destination_espace: None,
        crease_direction: None,
        end,
        end_espace: es(end),
        clearance: None,
        tunnel: None,
        trigger_events: Vec::new(),
        outcome: IterationOutcome::Continue,
    }
}

/// Iteration 0 hits the floor half way and slides; iteration 1 arrives.
fn trace() -> Vec<IterationRecord> {
    let contact_center = DVec3::new(1.0, 1.0, 0.0);
    let contact_point = DVec3::new(1.0, 0.0, 0.0);
    let mut r0 = record(
        0,
        DVec3::new(0.0, 1.5, 0.0),
        DVec3::new(2.0, -1.0, 0.0),
        contact_center,
    );
    r0.candidates = vec![
        Candidate {
            triangle: 0,
            object: 0,
            outcome: CandidateOutcome::Hit {
                t: 0.5,
                feature: Feature::Face,
                contact_point,
                contact_point_espace: contact_point / RADII,
            },
        },
        Candidate {
            triangle: 1,
            object: 0,
            outcome: CandidateOutcome::Miss {
                reason: MissReason::NoFeatureHit,
            },
        },
    ];
    r0.candidate_count = 2;
    r0.nearest = Some(NearestHit {
        triangle: 0,
        object: 0,
        t: 0.5,
        feature: Feature::Face,
        contact_point,
        contact_point_espace: contact_point / RADII,
        contact_center,
        contact_center_espace: contact_center / RADII,
        contact_normal: DVec3::Y,
        contact_normal_espace: DVec3::Y,
        triangle_plane_origin: DVec3::new(-5.0, 0.0, -5.0),
        triangle_plane_normal: DVec3::Y,
        plane_intersection_point: DVec3::new(0.0, 0.0, 0.0),
        plane_intersection_point_espace: DVec3::ZERO,
        polygon_intersection_point: DVec3::new(0.1, 0.0, 0.0),
        polygon_intersection_point_espace: DVec3::new(0.2, 0.0, 0.0),
        ellipsoid_intersection_point: DVec3::new(0.0, 0.5, 0.0),
        ellipsoid_intersection_point_espace: DVec3::new(0.0, 0.5, 0.0),
    });
    r0.sliding_plane = Some(SlidingPlane {
        origin: contact_point,
        normal: DVec3::Y,
        origin_espace: contact_point / RADII,
        normal_espace: DVec3::Y,
    });
    r0.slide_vector = Some(DVec3::new(1.0, 0.0, 0.0));
    r0.new_destination = Some(DVec3::new(2.0, 1.0, 0.0));
    r0.ghost_hit = Some(crate::collide::GhostHit {
        feature: Feature::Edge(0),
        neighbours: vec![1],
        neighbour_objects: vec![0],
        max_fold_deg: 0.0,
        deflection_deg: 3.0,
    });
    r0.clearance = Some(crate::collide::Clearance {
        metres: 0.005,
        radii: 0.005,
        triangle: 0,
        object: 0,
        feature: Feature::Face,
        closest_point: contact_point,
        surface_point: contact_point + DVec3::Y * 0.005,
        embedded: false,
    });
    let mut r1 = record(1, contact_center, DVec3::X, DVec3::new(2.0, 1.0, 0.0));
    r1.clearance = Some(crate::collide::Clearance {
        metres: -0.1,
        radii: -0.1,
        triangle: 0,
        object: 0,
        feature: Feature::Face,
        closest_point: DVec3::new(2.0, 0.0, 0.0),
        surface_point: DVec3::new(2.0, -0.1, 0.0),
        embedded: true,
    });
    r1.bvh_nodes_visited = vec![0, 1];
    r1.outcome = IterationOutcome::MoveEnded(crate::collide::EndReason::Arrived);
    vec![r0, r1]
}

fn prims(current: usize, toggles: &OverlayToggles) -> Vec<DebugPrimitive> {
    let (mesh, bvh) = level();
    let options = OverlayOptions::new(toggles.clone(), 1);
    primitives_for_trace(
        &trace(),
        current,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &options,
    )
    .primitives
}

fn only(kind: OverlayKind, current: usize) -> Vec<DebugPrimitive> {
    prims(current, &OverlayToggles::all(false).with(kind, true))
}

#[test]
fn an_end_inside_geometry_is_drawn_red_with_its_triangle_and_depth_vector() {
    let on = only(OverlayKind::Clearance, 1);
    assert_eq!(on.len(), 2, "{on:?}");
    assert!(on.iter().all(|p| p.color[0] == 1.0 && p.color[1] < 0.1));
    assert!(matches!(on[0].shape, Shape::Triangle { .. }));
    assert!(matches!(on[1].shape, Shape::Arrow { .. }));
    assert_eq!(on[1].label.as_deref(), Some("INSIDE 0.100 m"));
    let clear = only(OverlayKind::Clearance, 0);
    assert_eq!(clear[0].label.as_deref(), Some("clear 0.005 m"));
    let ghost = only(OverlayKind::GhostCorner, 0);
    // The edge and its one flat neighbour.
    assert_eq!(ghost.len(), 2, "{ghost:?}");
}

#[test]
fn each_kind_is_present_when_on_and_absent_when_off() {
    // Drawn from elsewhere than a slide's trace: the mesh's faults (the
    // hygiene analysis), the stuck-spot map (an analysis of the level), the
    // modes compared and the what-if (the window's reruns), the replay's
    // paths (a recording), the bounding volumes (the level's objects), and
    // the other methods' kinds (their own traces, tested in `methods`), the
    // probe pairs' (a pair run, tested in `tests/gui_state/pairs.rs`).
    let not_from_traces = [
        OverlayKind::MeshHygiene,
        OverlayKind::StuckMap,
        OverlayKind::FindingPins,
        OverlayKind::ModeComparison,
        OverlayKind::WhatIf,
        OverlayKind::ReplayPaths,
        OverlayKind::BoundingSpheres,
        OverlayKind::BoundingAabbs,
        OverlayKind::BoundingObbs,
        OverlayKind::MethodPath,
        OverlayKind::MethodSamples,
        OverlayKind::MethodContact,
        OverlayKind::PushOut,
        OverlayKind::Tunnelling,
        OverlayKind::Triggers,
        OverlayKind::Cylinders,
        OverlayKind::RadialDisagreement,
        OverlayKind::PairPaths,
        OverlayKind::PairContact,
        OverlayKind::PairClosest,
        OverlayKind::BoxCamera,
        OverlayKind::BoxEdges,
        OverlayKind::BoxPoints,
    ];
    let from_traces = OverlayKind::ALL
        .into_iter()
        .filter(|k| !not_from_traces.contains(k));
    for kind in from_traces {
        let on: Vec<_> = [0, 1].into_iter().flat_map(|c| only(kind, c)).collect();
        assert!(!on.is_empty(), "{kind:?} draws nothing when on");
        assert!(
            on.iter().all(|p| p.kind == kind),
            "{kind:?} leaks other kinds"
        );
        let all_but = OverlayToggles::all(true).with(kind, false);
        for current in [0, 1] {
            assert!(
                prims(current, &all_but).iter().all(|p| p.kind != kind),
                "{kind:?} drawn while off"
            );
        }
    }
    assert!(prims(0, &OverlayToggles::all(false)).is_empty());
}

#[test]
fn ghosts_mark_earlier_iterations_and_the_path_grows() {
    assert!(only(OverlayKind::EllipsoidGhosts, 0).is_empty());
    let ghosts = only(OverlayKind::EllipsoidGhosts, 1);
    assert_eq!(ghosts.len(), 1);
    assert_eq!(
        ghosts[0].shape,
        Shape::Ellipsoid {
            center: DVec3::new(0.0, 1.5, 0.0),
            radii: RADII
        }
    );
    assert_eq!(ghosts[0].label.as_deref(), Some("#0"));
    assert!(ghosts[0].color[3] < 1.0, "ghosts are translucent");
    assert_eq!(only(OverlayKind::Path, 0).len(), 1);
    let path = only(OverlayKind::Path, 1);
    assert_eq!(path.len(), 2);
    assert_eq!(
        path[1].shape,
        Shape::Segment {
            a: DVec3::new(1.0, 1.0, 0.0),
            b: DVec3::new(2.0, 1.0, 0.0)
        }
    );
    // Past the end means the last record.
    assert_eq!(only(OverlayKind::Path, 99), path);
}

#[test]
fn hit_and_sliding_planes_are_quads_through_the_contact() {
    let hit = only(OverlayKind::HitPlane, 0);
    let slide = only(OverlayKind::SlidingPlane, 0);
    let expect = Shape::PlaneQuad {
        center: DVec3::new(1.0, 0.0, 0.0),
        normal: DVec3::Y,
        half_size: 1.5,
    };
    assert_eq!(hit.len(), 1);
    assert_eq!(hit[0].shape, expect);
    assert_eq!(slide[0].shape, expect);
    assert!(hit[0].color[3] < 1.0 && slide[0].color[3] < 1.0);
    assert!(
        only(OverlayKind::HitPlane, 1).is_empty(),
        "no hit, no plane"
    );
}

#[test]
fn nettle_points_normal_and_arrows_sit_where_the_record_says() {
    let point = |kind| match &only(kind, 0)[..] {
        [p] => (p.shape.clone(), p.label.clone().unwrap()),
        other => panic!("{kind:?}: {other:?}"),
    };
    let pt = |x, y, z| Shape::Point {
        p: DVec3::new(x, y, z),
    };
    assert_eq!(
        point(OverlayKind::PlaneIntersection),
        (pt(0.0, 0.0, 0.0), "plane".into())
    );
    assert_eq!(
        point(OverlayKind::PolygonIntersection),
        (pt(0.1, 0.0, 0.0), "polygon".into())
    );
    assert_eq!(
        point(OverlayKind::EllipsoidIntersection),
        (pt(0.0, 0.5, 0.0), "ellipsoid".into())
    );
    assert_eq!(point(OverlayKind::Destination).0, pt(2.0, 0.5, 0.0));
    assert_eq!(point(OverlayKind::NewDestination).0, pt(2.0, 1.0, 0.0));
    // The normal reaches the ellipsoid's half-width along it: radii.y here.
    let normal = &only(OverlayKind::ContactNormal, 0)[0].shape;
    assert_eq!(
        *normal,
        Shape::Arrow {
            from: DVec3::new(1.0, 0.0, 0.0),
            to: DVec3::new(1.0, 1.0, 0.0)
        }
    );
    let velocity = &only(OverlayKind::Velocity, 0)[0].shape;
    assert_eq!(
        *velocity,
        Shape::Arrow {
            from: DVec3::new(0.0, 1.5, 0.0),
            to: DVec3::new(2.0, 0.5, 0.0)
        }
    );
    let slide = &only(OverlayKind::SlideVector, 0)[0].shape;
    assert_eq!(
        *slide,
        Shape::Arrow {
            from: DVec3::new(1.0, 1.0, 0.0),
            to: DVec3::new(2.0, 1.0, 0.0)
        }
    );
    let contact = &only(OverlayKind::EllipsoidContact, 0)[0].shape;
    assert_eq!(
        *contact,
        Shape::Ellipsoid {
            center: DVec3::new(1.0, 1.0, 0.0),
            radii: RADII
        }
    );
}

#[test]
fn query_box_candidates_and_hit_triangle_come_from_the_level() {
    let (mesh, _) = level();
    let query = only(OverlayKind::QueryAabb, 0);
    assert_eq!(
        query[0].shape,
        Shape::Box {
            aabb: trace()[0].query_aabb
        }
    );
    let cands = only(OverlayKind::CandidateAabbs, 0);
    assert_eq!(cands.len(), 2);
    assert_eq!(
        cands[0].shape,
        Shape::Box {
            aabb: mesh.tri_aabbs[0]
        }
    );
    assert_eq!(cands[0].label.as_deref(), Some("hit t = 0.500"));
    assert_eq!(
        cands[1].shape,
        Shape::Box {
            aabb: mesh.tri_aabbs[1]
        }
    );
    assert_eq!(cands[1].label, None);
    let tri = only(OverlayKind::HighlightTriangle, 0);
    assert_eq!(
        tri[0].shape,
        Shape::Triangle {
            corners: mesh.triangle_f64(0)
        }
    );
    // Tri 2 shares a visited leaf with candidate 1 but its box was rejected.
    let rejected = only(OverlayKind::TriangleAabbs, 0);
    assert_eq!(rejected.len(), 1);
    assert_eq!(
        rejected[0].shape,
        Shape::Box {
            aabb: mesh.tri_aabbs[2]
        }
    );
}

#[test]
fn bvh_boxes_are_coloured_by_depth() {
    let (_, bvh) = level();
    let visited = only(OverlayKind::BvhNodesVisited, 0);
    let boxes: Vec<_> = visited.iter().map(|p| p.shape.clone()).collect();
    let slot_boxes = |ids: &[u32]| -> Vec<Shape> {
        ids.iter()
            .map(|&id| Shape::Box {
                aabb: bvh.slot_aabb(id).unwrap(),
            })
            .collect()
    };
    assert_eq!(boxes, slot_boxes(&[0, 1, 4, 5]));
    let colors: Vec<_> = visited.iter().map(|p| p.color).collect();
    let [top, deep] = [0, 1].map(depth_color);
    assert_eq!(colors, vec![top, top, deep, deep]);
    assert_ne!(top, deep);
    let level1 = only(OverlayKind::BvhLevel, 0);
    let boxes: Vec<_> = level1.iter().map(|p| p.shape.clone()).collect();
    assert_eq!(boxes, slot_boxes(&[4, 5]));
    assert!(level1.iter().all(|p| p.color == depth_color(1)));
}

#[test]
fn stale_indices_and_empty_traces_do_not_panic() {
    let (mesh, bvh) = level();
    let mut t = trace();
    t[0].candidates[0].triangle = 99;
    t[0].bvh_nodes_visited = vec![0, 42, 2];
    t[0].nearest.as_mut().unwrap().triangle = 77;
    let all = |depth| OverlayOptions::new(OverlayToggles::all(true), depth);
    let p = primitives_for_trace(
        &t,
        0,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &all(5),
    )
    .primitives;
    assert_eq!(
        p.iter()
            .filter(|p| p.kind == OverlayKind::CandidateAabbs)
            .count(),
        1
    );
    assert!(p.iter().all(|p| p.kind != OverlayKind::HighlightTriangle));
    let empty = primitives_for_trace(
        &[],
        3,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &all(1),
    )
    .primitives;
    assert!(empty.iter().all(|p| p.kind == OverlayKind::BvhLevel));
    let none = primitives_for_trace(
        &t,
        0,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &Bvh::default(),
        &all(0),
    );
    assert!(
        none.primitives
            .iter()
            .all(|p| p.kind != OverlayKind::BvhLevel)
    );
}

/// A record with `n` candidates, triangle `i` a floor tile `i` metres from
/// the probe along +x; only the farthest one is a hit.
fn crowded(n: u32) -> (TriMesh, Bvh, Vec<IterationRecord>) {
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for i in 0..n {
        let x = i as f32 * 2.0;
        let k = positions.len() as u32;
        positions.extend([
            Vec3::new(x, 0.0, 0.0),
            Vec3::new(x + 1.0, 0.0, 0.0),
            Vec3::new(x, 0.0, 1.0),
        ]);
        indices.push([k, k + 2, k + 1]);
    }
    let mesh = TriMesh::new(positions, indices, vec![("tiles".into(), n)]);
    let bvh = Bvh::build(&mesh.tri_aabbs);
    let mut rec = record(0, DVec3::new(-1.0, 1.0, 0.5), DVec3::X, DVec3::ZERO);
    rec.candidates = (0..n)
        .map(|triangle| Candidate {
            triangle,
            object: 0,
            outcome: if triangle == n - 1 {
                CandidateOutcome::Hit {
                    t: 0.9,
                    feature: Feature::Face,
                    contact_point: DVec3::ZERO,
                    contact_point_espace: DVec3::ZERO,
                }
            } else {
                CandidateOutcome::Miss {
                    reason: MissReason::NoFeatureHit,
                }
            },
        })
        .collect();
    let slots = 4 * bvh.nodes.len() as u32;
    rec.bvh_nodes_visited = (0..slots)
        .filter(|&id| bvh.slot_aabb(id).is_some())
        .collect();
    (mesh, bvh, vec![rec])
}

#[test]
fn box_kinds_are_capped_to_the_hits_and_the_nearest_boxes() {
    let (mesh, bvh, t) = crowded(50);
    let toggles = OverlayToggles::all(false)
        .with(OverlayKind::CandidateAabbs, true)
        .with(OverlayKind::BvhNodesVisited, true)
        .with(OverlayKind::Velocity, true);
    let mut options = OverlayOptions::new(toggles, 0);
    options.max_boxes_per_kind = 5;
    let set = primitives_for_trace(
        &t,
        0,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &options,
    );
    let boxes: Vec<_> = set
        .primitives
        .iter()
        .filter(|p| p.kind == OverlayKind::CandidateAabbs)
        .collect();
    assert_eq!(boxes.len(), 5);
    assert_eq!(set.hidden(OverlayKind::CandidateAabbs), 45);
    // The hit (the farthest tile) is kept first; then the four nearest tiles.
    let kept: Vec<Aabb> = boxes
        .iter()
        .map(|p| match p.shape {
            Shape::Box { aabb } => aabb,
            _ => panic!("not a box"),
        })
        .collect();
    let expect: Vec<Aabb> = [0, 1, 2, 3, 49].map(|i| mesh.tri_aabbs[i]).to_vec();
    assert_eq!(kept, expect, "kept in their original order");
    assert!(boxes[4].label.is_some());
    let visited = t[0].bvh_nodes_visited.len();
    assert!(visited > 5);
    assert_eq!(set.hidden(OverlayKind::BvhNodesVisited), visited - 5);
    // Kinds that are not boxes are never cut.
    assert_eq!(set.hidden(OverlayKind::Velocity), 0);
    assert!(
        set.primitives
            .iter()
            .any(|p| p.kind == OverlayKind::Velocity)
    );
    // Under the cap nothing is hidden.
    options.max_boxes_per_kind = 1000;
    let all = primitives_for_trace(
        &t,
        0,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &options,
    );
    assert!(all.hidden.is_empty());
    assert_eq!(
        all.primitives
            .iter()
            .filter(|p| p.kind == OverlayKind::CandidateAabbs)
            .count(),
        50
    );
}

#[test]
fn toggles_persist_and_default_missing_fields() {
    let t = OverlayToggles::default().with(OverlayKind::Path, false);
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(serde_json::from_str::<OverlayToggles>(&json).unwrap(), t);
    let partial: OverlayToggles = serde_json::from_str(r#"{"path": false}"#).unwrap();
    assert!(!partial.get(OverlayKind::Path));
    assert!(partial.get(OverlayKind::Velocity));
    assert!(!partial.get(OverlayKind::BvhLevel));
    for kind in OverlayKind::ALL {
        assert!(!kind.label().is_empty());
        let c = kind.color();
        assert!(c.iter().all(|v| (0.0..=1.0).contains(v)));
    }
}

#[test]
fn a_tunnel_on_the_way_is_drawn_red_with_its_triangle_and_an_arrow_to_it() {
    let (mesh, bvh) = level();
    let mut trace = trace();
    // Iteration 0's centre went through the wall triangle on its way.
    trace[0].tunnel = Some(crate::collide::Tunnel {
        triangle: 2,
        object: 1,
        crossed: true,
        depth_radii: 1.0,
        depth_metres: 0.5,
        t: 0.5,
        center: DVec3::new(20.0, 1.0, 1.0),
        closest_point: DVec3::new(20.0, 1.0, 1.0),
        back_face: true,
        cause: crate::collide::TunnelCause::BackFaceCulled,
    });
    let options = OverlayOptions::new(
        OverlayToggles::all(false).with(OverlayKind::Clearance, true),
        1,
    );
    let on = primitives_for_trace(
        &trace,
        0,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &options,
    )
    .primitives;
    let red: Vec<&DebugPrimitive> = on
        .iter()
        .filter(|p| p.color == [1.0, 0.05, 0.05, 1.0])
        .collect();
    assert_eq!(red.len(), 2, "{on:?}");
    assert!(matches!(red[0].shape, Shape::Triangle { corners } if corners == mesh.triangle_f64(2)));
    assert_eq!(red[1].label.as_deref(), Some("TUNNEL: through"));
    // Off with its kind, and absent from a sound iteration.
    let off = OverlayOptions::new(OverlayToggles::all(false), 1);
    assert!(
        primitives_for_trace(
            &trace,
            0,
            RADII,
            CharacterShape::Ellipsoid,
            &mesh,
            &bvh,
            &off
        )
        .primitives
        .is_empty()
    );
    let sound = primitives_for_trace(
        &trace,
        1,
        RADII,
        CharacterShape::Ellipsoid,
        &mesh,
        &bvh,
        &options,
    )
    .primitives;
    assert!(
        sound
            .iter()
            .all(|p| p.label.as_deref() != Some("TUNNEL: through"))
    );
}

#[test]
fn a_body_other_than_the_ellipsoid_is_drawn_as_itself() {
    let (mesh, bvh) = level();
    let all = |depth| OverlayOptions::new(OverlayToggles::all(true), depth);
    let capsule = CharacterShape::Capsule {
        radius_m: 0.4,
        height_m: 1.8,
    };
    let p = primitives_for_trace(&trace(), 1, RADII, capsule, &mesh, &bvh, &all(5)).primitives;
    let bodies: Vec<&DebugPrimitive> = p
        .iter()
        .filter(|q| {
            matches!(
                q.kind,
                OverlayKind::EllipsoidStart
                    | OverlayKind::EllipsoidGhosts
                    | OverlayKind::EllipsoidContact
            )
        })
        .collect();
    assert!(!bodies.is_empty());
    for b in bodies {
        assert!(
            matches!(b.shape, Shape::Solid { shape, .. } if shape == capsule),
            "{b:?}"
        );
    }
}
