//! The box camera as a method ("Snok", Torbjørn Vik 2000, seed document
//! 004; the four levels are [`crate::analysis::boxcam`]), world space: the
//! probe's box (half sizes = its radii) moves by its velocity in fixed
//! steps, and each step's box swept along its segment (the document's one
//! box per segment of a chain) goes through the four levels. The method
//! detects and does not resolve: the box goes the whole way, and the steps
//! that collide carry the triangles and the intersection points.

use super::{Method, MethodEnd, MethodSettings, MethodStep, MethodTrace, StepDetail};
use crate::analysis::boxcam::{BoxCamera, ChainReport, test_box_colliding};
use crate::collide::{CollisionWorld, SlideSettings};
use glam::DVec3;

/// Runs the box camera over the move from `start` by `velocity`, in
/// `method_settings.step_count()` segments.
pub fn run(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    method_settings: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
) -> MethodTrace {
    let half = settings.radii_vec();
    let n = method_settings.step_count();
    let at = |k: u32| start + velocity * (f64::from(k) / f64::from(n));
    let iterations: Vec<MethodStep> = (0..n)
        .map(|k| {
            let (a, b) = (at(k), at(k + 1));
            let camera = BoxCamera::around(a, half).union(&BoxCamera::around(b, half));
            let report = test_box_colliding(world.mesh, camera, world.object_colliding);
            MethodStep {
                index: k,
                start: a,
                velocity: b - a,
                end: b,
                detail: StepDetail::Box(report),
            }
        })
        .collect();
    let contacts = iterations
        .iter()
        .any(|s| s.detail.as_box().is_some_and(|r| r.colliding > 0));
    MethodTrace {
        method: Method::Box,
        final_position: at(n),
        end_reason: if contacts {
            MethodEnd::ArrivedAfterContacts
        } else {
            MethodEnd::Arrived
        },
        iterations,
    }
}

/// A chain tested one box per segment ([`crate::analysis::boxcam::test_chain`],
/// e.g. on the path a walk recorded) as a box method trace: one step per
/// segment, so the window steps, inspects and draws it as it does the
/// method's own moves.
pub fn chain_trace(chain: &ChainReport) -> MethodTrace {
    let iterations: Vec<MethodStep> = chain
        .segments
        .iter()
        .map(|s| MethodStep {
            index: s.index as u32,
            start: s.from,
            velocity: s.to - s.from,
            end: s.to,
            detail: StepDetail::Box(s.report.clone()),
        })
        .collect();
    MethodTrace {
        method: Method::Box,
        final_position: iterations.last().map_or(DVec3::ZERO, |s| s.end),
        end_reason: if chain.colliding_segments > 0 {
            MethodEnd::ArrivedAfterContacts
        } else {
            MethodEnd::Arrived
        },
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::mesh::MeshBuilder;
    use glam::Vec3;

    /// A wall 1 m thick from x = 2 to 3, 3 m tall, 10 m wide.
    fn wall() -> Level {
        let mut b = MeshBuilder::new();
        b.object("wall")
            .cuboid(Vec3::new(2.0, 0.0, -5.0), Vec3::new(3.0, 3.0, 5.0));
        Level::from_mesh("wall", b.build())
    }

    fn cube_probe() -> SlideSettings {
        SlideSettings {
            radii: [0.4, 0.4, 0.4],
            gravity: [0.0, 0.0, 0.0],
            ..SlideSettings::default()
        }
    }

    /// Four steps of 1 m: 4 Hz over 1 s.
    fn four_steps() -> MethodSettings {
        MethodSettings {
            step_hz: 4.0,
            move_seconds: 1.0,
            ..MethodSettings::default()
        }
    }

    #[test]
    fn the_box_crosses_the_wall_faces_on_the_steps_that_reach_them() {
        let level = wall();
        let trace = super::super::run(
            Method::Box,
            level.world(),
            &cube_probe(),
            &four_steps(),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(4.0, 0.0, 0.0),
        )
        .unwrap();
        assert_eq!(trace.method, Method::Box);
        assert_eq!(trace.iterations.len(), 4);
        assert_eq!(trace.end_reason, MethodEnd::ArrivedAfterContacts);
        assert_eq!(trace.final_position, DVec3::new(4.0, 1.0, 0.0));
        let reports: Vec<_> = trace
            .iterations
            .iter()
            .map(|s| s.detail.as_box().unwrap())
            .collect();
        // Step 0's box (x -0.4 to 1.4) stops short of the wall: level 1.
        assert_eq!(reports[0].colliding, 0);
        assert_eq!(reports[0].rejected[0], 12);
        // Step 1 (x 0.6 to 2.4) reaches the face at x = 2; step 2 (1.6 to
        // 3.4) both faces; step 3 (2.6 to 4.4) the face at x = 3. The edges
        // along x cross them; nothing else of the wall is in reach.
        let xs = |k: usize| -> Vec<f64> { reports[k].points().map(|p| p.x).collect() };
        assert!(!xs(1).is_empty() && xs(1).iter().all(|&x| (x - 2.0).abs() < 1e-9));
        assert!(xs(2).iter().any(|&x| (x - 2.0).abs() < 1e-9));
        assert!(xs(2).iter().any(|&x| (x - 3.0).abs() < 1e-9));
        assert!(!xs(3).is_empty() && xs(3).iter().all(|&x| (x - 3.0).abs() < 1e-9));
        for (k, s) in trace.iterations.iter().enumerate() {
            assert_eq!(s.index as usize, k);
            assert_eq!(s.start + s.velocity, s.end);
        }
    }

    #[test]
    fn the_overlays_show_the_box_its_tested_edges_and_the_points() {
        use crate::collide::debug_draw::{OverlayKind, OverlayToggles};
        let level = wall();
        let trace = super::super::run(
            Method::Box,
            level.world(),
            &cube_probe(),
            &four_steps(),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(4.0, 0.0, 0.0),
        )
        .unwrap();
        let radii = cube_probe().radii_vec();
        let kinds = [
            OverlayKind::BoxCamera,
            OverlayKind::BoxEdges,
            OverlayKind::BoxPoints,
        ];
        let on = OverlayToggles::all(true);
        let prims =
            crate::methods::primitives_for_method(&trace.iterations, 1, radii, level.mesh(), &on);
        for k in kinds {
            assert!(prims.iter().any(|p| p.kind == k), "{k:?} missing");
        }
        // Step 1: the four edges along x reach the wall's face.
        let edges = prims
            .iter()
            .filter(|p| p.kind == OverlayKind::BoxEdges)
            .count();
        assert_eq!(edges, 4);
        for k in kinds {
            let off = OverlayToggles::all(true).with(k, false);
            let prims = crate::methods::primitives_for_method(
                &trace.iterations,
                1,
                radii,
                level.mesh(),
                &off,
            );
            assert!(prims.iter().all(|p| p.kind != k), "{k:?} drawn while off");
        }
    }

    #[test]
    fn a_non_colliding_wall_is_rejected_at_level_one() {
        let level = wall();
        let flags = [false];
        let trace = super::super::run(
            Method::Box,
            level.world_with(&flags),
            &cube_probe(),
            &four_steps(),
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(4.0, 0.0, 0.0),
        )
        .unwrap();
        assert_eq!(trace.end_reason, MethodEnd::Arrived);
        for s in &trace.iterations {
            let r = s.detail.as_box().unwrap();
            assert_eq!((r.rejected[0], r.colliding), (12, 0));
        }
    }

    #[test]
    fn a_chain_becomes_one_step_per_segment_with_the_flags_applied() {
        use crate::analysis::boxcam::test_chain_colliding;
        // A bent path: along x to the wall's face, then along z beside it.
        let level = wall();
        let path = [
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(1.8, 1.0, 0.0),
            DVec3::new(1.8, 1.0, 3.0),
            DVec3::new(1.0, 1.0, 3.0),
        ];
        let half = cube_probe().radii_vec();
        let chain = test_chain_colliding(level.mesh(), &path, half, None).unwrap();
        let trace = chain_trace(&chain);
        assert_eq!(trace.method, Method::Box);
        assert_eq!(trace.iterations.len(), 3);
        assert_eq!(trace.final_position, path[3]);
        assert_eq!(trace.end_reason, MethodEnd::ArrivedAfterContacts);
        for (k, s) in trace.iterations.iter().enumerate() {
            assert_eq!((s.start, s.end), (path[k], path[k + 1]));
            assert_eq!(s.detail.as_box(), Some(&chain.segments[k].report));
        }
        // Segments 0 and 1 reach the face at x = 2, segment 2 (x 0.6 to 2.2
        // at z = 3) too; the points all lie on it.
        let colliding: Vec<usize> = trace
            .iterations
            .iter()
            .map(|s| s.detail.as_box().unwrap().colliding)
            .collect();
        assert!(colliding.iter().all(|&c| c > 0), "{colliding:?}");
        assert!(trace.iterations.iter().all(|s| {
            s.detail
                .as_box()
                .unwrap()
                .points()
                .all(|p| (p.x - 2.0).abs() < 1e-9)
        }));
        // The wall made non-colliding: rejected at level 1, no contact.
        let flags = [false];
        let chain = test_chain_colliding(level.mesh(), &path, half, Some(&flags)).unwrap();
        let trace = chain_trace(&chain);
        assert_eq!(trace.end_reason, MethodEnd::Arrived);
        assert_eq!(chain.colliding_triangles, 0);
    }
}
