//! Scenario tests for the collide-and-slide solver: the cases users hit,
//! on tiny levels built in code, with analytic expectations.

use crate::common::*;
use collidoscope::collide::{
    CandidateOutcome, EndReason, IterationOutcome, Pass, SlideMode, SlideSettings, SlideSolver,
    TraceDetail, slide,
};
use collidoscope::mesh::MeshBuilder;
use glam::{DVec3, Vec3};

const RADII: [f64; 3] = [0.4, 0.9, 0.4];

fn on_floor(x: f64, z: f64) -> DVec3 {
    DVec3::new(x, 0.9 + 0.01, z)
}

#[test]
fn walking_on_a_floor_arrives_and_keeps_its_height() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    let s = SlideSettings {
        gravity: [0.0, -0.05, 0.0],
        ..settings(RADII)
    };
    let r = run(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(1.0, 0.0, 0.5));
    assert_eq!(r.iterations[0].pass, Pass::Velocity);
    assert!(matches!(
        r.iterations[0].outcome,
        IterationOutcome::PassEnded(EndReason::Arrived)
    ));
    let p = r.final_position;
    assert!((p.x - 1.0).abs() < 1e-9 && (p.z - 0.5).abs() < 1e-9, "{p}");
    // Gravity pass lands it on the floor, the skin above it.
    assert!(p.y >= 0.9 && p.y < 0.9 + 0.02, "{p}");
    assert!(espace_clearance(lvl.mesh(), DVec3::from(RADII), p) >= 1.0 - 1e-9);
}

#[test]
fn a_fast_fall_lands_on_the_floor_instead_of_tunnelling() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    let s = settings(RADII);
    for mode in SlideMode::ALL {
        let s = SlideSettings { mode, ..s.clone() };
        let r = run(
            &lvl,
            &s,
            DVec3::new(0.3, 10.0, -0.2),
            DVec3::new(0.0, -500.0, 0.0),
        );
        let p = r.final_position;
        assert!(p.y > 0.89 && p.y < 1.0, "{mode}: {p}");
    }
}

/// A step of height `riser` starting at x = 1, 10 m deep.
fn step_level(riser: f32) -> collidoscope::level::Level {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("step")
        .cuboid(Vec3::new(1.0, 0.0, -5.0), Vec3::new(11.0, riser, 5.0));
    level(&b)
}

#[test]
fn rolling_climbs_risers_lower_than_the_centre_and_only_those() {
    // Analytic: the probe rolls up a step edge that is lower than its centre
    // (riser < ry = 0.9 m): the contact normal then points upwards and the
    // slide lifts it. At or above the centre the normal is horizontal or
    // points down, and no horizontal push lifts the probe.
    let s = settings(RADII);
    for (riser, climbs) in [
        (0.15, true),
        (0.3, true),
        (0.6, true),
        (0.8, true),
        (0.95, false),
        (1.2, false),
    ] {
        let lvl = step_level(riser);
        let path = walk(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(0.25, 0.0, 0.0), 40);
        let end = *path.last().unwrap();
        if climbs {
            assert!(
                end.x > 2.5 && end.y > riser as f64 + 0.89,
                "riser {riser}: {end}"
            );
        } else {
            assert!(
                end.x < 1.0 - 0.39 && end.y < 0.95,
                "riser {riser} must block: {end}"
            );
        }
        for p in &path {
            assert!(
                espace_clearance(lvl.mesh(), DVec3::from(RADII), *p) >= 1.0 - 1e-9,
                "{p}"
            );
        }
    }
}

#[test]
fn a_climbable_staircase_is_climbed_with_gravity_on() {
    // Three 0.25 m risers, 0.5 m treads: a gentle push against a small
    // gravity climbs the whole flight (a stair climb, step after step).
    let mut b = MeshBuilder::new();
    floor(&mut b);
    for i in 0..3 {
        let x0 = 1.0 + 0.5 * i as f32;
        let h = 0.25 * (i + 1) as f32;
        b.object(&format!("stair{i}"))
            .cuboid(Vec3::new(x0, 0.0, -2.0), Vec3::new(10.0, h, 2.0));
    }
    let lvl = level(&b);
    let s = SlideSettings {
        gravity: [0.0, -0.02, 0.0],
        ..settings(RADII)
    };
    let path = walk(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(0.1, 0.0, 0.0), 60);
    let end = *path.last().unwrap();
    assert!(
        end.x > 2.2 && end.y > 0.75 + 0.89 && end.y < 0.75 + 0.92,
        "{end}"
    );
}

/// A wall across z = 0 with one door opening of `width` × `height`.
fn door_level(width: f32, height: f32) -> collidoscope::level::Level {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let (t0, t1) = (-0.1, 0.1);
    let half = width / 2.0;
    b.object("jamb_left")
        .cuboid(Vec3::new(-5.0, 0.0, t0), Vec3::new(-half, 3.0, t1));
    b.object("jamb_right")
        .cuboid(Vec3::new(half, 0.0, t0), Vec3::new(5.0, 3.0, t1));
    b.object("lintel")
        .cuboid(Vec3::new(-half, height, t0), Vec3::new(half, 3.0, t1));
    level(&b)
}

#[test]
fn door_frames_let_the_probe_through_only_when_it_fits() {
    // The probe is 0.8 m wide and 1.8 m tall (radii 0.4, 0.9).
    let s = SlideSettings {
        gravity: [0.0, -0.02, 0.0],
        ..settings(RADII)
    };
    for (w, h, fits) in [
        (1.0, 2.0, true),
        (0.9, 1.9, true),
        (0.7, 2.0, false),
        (1.0, 1.6, false),
    ] {
        let lvl = door_level(w, h);
        let path = walk(&lvl, &s, on_floor(0.0, -2.0), DVec3::new(0.0, 0.0, 0.2), 30);
        let end = *path.last().unwrap();
        if fits {
            assert!(end.z > 1.5, "door {w}x{h}: {end}");
        } else {
            // Stopped by the jambs' or the lintel's edges before the opening.
            assert!(end.z < -0.2, "door {w}x{h} must block: {end}");
        }
        for p in &path {
            assert!(espace_clearance(lvl.mesh(), DVec3::from(RADII), *p) >= 1.0 - 1e-9);
        }
    }
}

#[test]
fn an_acute_crease_stops_the_probe_without_jitter() {
    // Two walls meeting at 60 degrees; pushing into the corner must settle.
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let a = 30f32.to_radians();
    let (dl, dr) = (
        Vec3::new(-a.sin(), 0.0, a.cos()),
        Vec3::new(a.sin(), 0.0, a.cos()),
    );
    let up = Vec3::Y * 3.0;
    // Left wall faces +x-ish (into the wedge), right wall faces -x-ish.
    let (o, l, r) = (Vec3::ZERO, dl * 10.0, dr * 10.0);
    b.object("left").quad(o, o + up, l + up, l);
    b.object("right").quad(o, r, r + up, o + up);
    let lvl = level(&b);
    let s = SlideSettings {
        gravity: [0.0, -0.02, 0.0],
        ..settings(RADII)
    };
    let path = walk(
        &lvl,
        &s,
        on_floor(0.0, 5.0),
        DVec3::new(0.05, 0.0, -0.3),
        60,
    );
    let last = &path[40..];
    for w in last.windows(2) {
        assert!(
            (w[1] - w[0]).length() < 1e-6,
            "jitter: {} -> {}",
            w[0],
            w[1]
        );
    }
    for p in &path {
        assert!(
            espace_clearance(lvl.mesh(), DVec3::from(RADII), *p) >= 1.0 - 1e-9,
            "{p}"
        );
    }
}

/// A wall along x (its face at z = 0, facing -z) from x = `wall_start` to
/// 10, and a post whose corner edge stands at x = -0.8, z = -0.6: a probe
/// sliding along the wall towards -x meets the post's edge.
fn wall_and_post_level(wall_start: f32) -> collidoscope::level::Level {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("wall")
        .cuboid(Vec3::new(wall_start, 0.0, 0.0), Vec3::new(10.0, 3.0, 0.2));
    b.object("post")
        .cuboid(Vec3::new(-3.0, 0.0, -3.0), Vec3::new(-0.8, 3.0, -0.6));
    level(&b)
}

#[test]
fn a_probe_rounds_the_end_of_a_wall_instead_of_snagging_on_it() {
    let s = settings(RADII);
    // Obliquely into the wall, then sliding along it towards -x.
    let start = on_floor(2.0, -0.6);
    let vel = DVec3::new(-3.0, 0.0, 0.4);
    // The wall ends at x = 0: when the probe meets the post's edge it has
    // left the wall (its centre is 0.45 m past the end), so the wall's plane
    // must not turn the post into a crease: the slide along the post carries
    // the probe round it, past the line of the wall. (Keeping every plane of
    // the pass, as Quake's clip list does, stops it dead there.)
    let open = wall_and_post_level(0.0);
    let r = run(&open, &s, start, vel);
    let end = r.final_position;
    assert!(end.z > -0.3 && end.x < -0.45, "snagged at {end}: {r:#?}");
    assert!(r.iterations.iter().all(|i| i.crease_direction.is_none()));
    assert!(espace_clearance(open.mesh(), DVec3::from(RADII), end) >= 1.0 - 1e-9);
    // The same move with the wall running on past the post: now the probe is
    // wedged between the wall and the post's edge, a real crease, and stops.
    let closed = wall_and_post_level(-10.0);
    let r = run(&closed, &s, start, vel);
    let end = r.final_position;
    assert!(
        (end.z + 0.405).abs() < 0.01 && (end.x + 0.45).abs() < 0.02,
        "{end}"
    );
    assert!(r.iterations.iter().any(|i| i.crease_direction.is_some()));
    assert!(espace_clearance(closed.mesh(), DVec3::from(RADII), end) >= 1.0 - 1e-9);
}

#[test]
fn thin_walls_stop_fast_moves_from_both_sides() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("thin")
        .cuboid(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(3.0, 3.0, 0.02));
    // A zero-thickness single quad, facing -z only.
    b.object("sheet").quad(
        Vec3::new(-3.0, 0.0, 5.0),
        Vec3::new(-3.0, 3.0, 5.0),
        Vec3::new(3.0, 3.0, 5.0),
        Vec3::new(3.0, 0.0, 5.0),
    );
    let lvl = level(&b);
    let s = settings(RADII);
    let r = run(&lvl, &s, on_floor(0.0, -2.0), DVec3::new(0.0, 0.0, 1000.0));
    assert!(r.final_position.z < -0.39, "{}", r.final_position);
    // From between the walls towards the sheet's back face, both ways.
    let r = run(&lvl, &s, on_floor(0.0, 2.5), DVec3::new(0.0, 0.0, 1000.0));
    assert!(r.final_position.z < 5.0 - 0.39, "{}", r.final_position);
    let r = run(&lvl, &s, on_floor(0.0, 8.0), DVec3::new(0.0, 0.0, -1000.0));
    assert!(r.final_position.z > 5.39, "{}", r.final_position);
}

#[test]
fn an_embedded_start_is_pushed_out_and_reported() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    let s = settings(RADII);
    let r = run(
        &lvl,
        &s,
        DVec3::new(0.0, 0.6, 0.0),
        DVec3::new(0.5, 0.0, 0.0),
    );
    let rec = &r.iterations[0];
    let recovery = rec.recovery.expect("the push out is in the trace");
    assert!(
        recovery.push.y > 0.29 && recovery.depth_espace > 0.3,
        "{recovery:?}"
    );
    assert!(r.final_position.y >= 0.9 && (r.final_position.x - 0.5).abs() < 1e-9);
}

#[test]
fn a_floor_a_skin_below_is_no_candidate_of_a_level_move_until_gravity_lands_on_it() {
    // Every mode tests the ellipsoid itself, so a floor that is only the
    // skin below the probe cannot be touched by a level move: it must not
    // even be a candidate (on a tessellated floor those would be most of a
    // long move's work). Landing on it, the gravity pass finds it.
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    for mode in SlideMode::ALL {
        let s = SlideSettings {
            mode,
            gravity: [0.0, 0.0, 0.0],
            ..settings(RADII)
        };
        let start = DVec3::new(0.0, 0.9 + s.skin, 0.0);
        let r = run(&lvl, &s, start, DVec3::new(3.0, 0.0, 1.0));
        let first = &r.iterations[0];
        assert_eq!(first.candidate_count, 0, "{mode}: {:?}", first.candidates);
        assert!((r.final_position - DVec3::new(3.0, start.y, 1.0)).length() < 1e-9);
    }
    let s = SlideSettings {
        gravity: [0.0, -0.05, 0.0],
        ..settings(RADII)
    };
    let r = run(
        &lvl,
        &s,
        DVec3::new(0.0, 0.9 + s.skin, 0.0),
        DVec3::new(3.0, 0.0, 1.0),
    );
    assert_eq!(r.iterations[0].candidate_count, 0);
    let landing = r.iterations.iter().find(|rec| rec.pass == Pass::Gravity);
    let hit = landing
        .and_then(|rec| rec.nearest)
        .expect("the gravity pass lands");
    assert!(hit.contact_normal.y > 0.999, "{hit:?}");
    assert!(r.final_position.y > 0.9 && r.final_position.y < 0.9 + 2.0 * s.skin + 1e-3);
}

#[test]
fn sliding_along_a_wall_keeps_the_tangential_motion() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("wall")
        .cuboid(Vec3::new(-10.0, 0.0, 1.0), Vec3::new(10.0, 3.0, 2.0));
    let lvl = level(&b);
    let s = settings(RADII);
    let r = run(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(2.0, 0.0, 2.0));
    let first = &r.iterations[0];
    let hit = first.nearest.expect("hits the wall");
    assert!((hit.contact_normal - DVec3::new(0.0, 0.0, -1.0)).length() < 1e-9);
    assert!((hit.t - 0.3).abs() < 1e-3, "{}", hit.t);
    let slide = first.slide_vector.unwrap();
    assert!(slide.z.abs() < 1e-9 && slide.x > 1.3, "{slide}");
    let p = r.final_position;
    assert!((p.x - 2.0).abs() < 1e-6 && p.z < 0.6 && p.z > 0.59, "{p}");
    assert!(matches!(
        r.iterations.last().unwrap().outcome,
        IterationOutcome::MoveEnded(EndReason::Arrived)
    ));
}

#[test]
fn triggers_do_not_collide_and_are_listed_as_such() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("trigger")
        .cuboid(Vec3::new(-1.0, 0.0, 1.0), Vec3::new(1.0, 3.0, 1.5));
    let lvl = level(&b);
    let flags = [true, false];
    let s = settings(RADII);
    let r = slide(
        lvl.world_with(&flags),
        &s,
        on_floor(0.0, 0.0),
        DVec3::new(0.0, 0.0, 3.0),
        TraceDetail::Full,
    )
    .unwrap();
    assert!((r.final_position.z - 3.0).abs() < 1e-9);
    let c = &r.iterations[0].candidates;
    assert!(
        c.iter()
            .any(|c| c.object == 1 && c.outcome == CandidateOutcome::NonColliding)
    );
}

#[test]
fn every_mode_is_named_in_its_records_and_nettle_adds_gravity_to_the_velocity() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    let g = [0.0, -0.3, 0.0];
    for mode in SlideMode::ALL {
        let s = SlideSettings {
            mode,
            gravity: g,
            ..settings(RADII)
        };
        let r = run(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(1.0, 0.0, 0.0));
        assert!(r.iterations.iter().all(|i| i.mode == mode));
        let passes: Vec<Pass> = r.iterations.iter().map(|i| i.pass).collect();
        match mode {
            SlideMode::Nettle2000 => {
                assert!(passes.iter().all(|p| *p == Pass::Velocity));
                assert_eq!(r.iterations[0].velocity, DVec3::new(1.0, -0.3, 0.0));
            }
            _ => assert_eq!(passes.last(), Some(&Pass::Gravity)),
        }
        let p = r.final_position;
        assert!(p.y > 0.85 && (p.x - 1.0).abs() < 0.05, "{mode}: {p}");
    }
}

#[test]
fn bad_numbers_are_rejected_not_propagated() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let lvl = level(&b);
    let s = settings(RADII);
    let w = lvl.world();
    let full = TraceDetail::Full;
    assert!(SlideSolver::new(w, &s, DVec3::new(f64::NAN, 1.0, 0.0), DVec3::X, full).is_none());
    assert!(
        SlideSolver::new(w, &s, DVec3::ONE, DVec3::new(0.0, f64::INFINITY, 0.0), full).is_none()
    );
    assert!(SlideSolver::new(w, &s, DVec3::splat(1e308), DVec3::splat(1e308), full).is_none());
    let zero = settings([0.4, 0.0, 0.4]);
    assert!(SlideSolver::new(w, &zero, DVec3::ONE, DVec3::X, full).is_none());
    // Beyond the supported magnitude is refused, up to it runs and stays finite.
    let huge = DVec3::new(1e12, 5.0, -1e12);
    assert!(SlideSolver::new(w, &s, huge, DVec3::X, full).is_none());
    let r = run(
        &lvl,
        &s,
        DVec3::new(9e8, 5.0, -9e8),
        DVec3::new(1e8, -1e8, 0.0),
    );
    assert!(r.final_position.is_finite());
}

#[test]
fn stepping_yields_one_record_per_next_and_then_none() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("wall")
        .cuboid(Vec3::new(-10.0, 0.0, 1.0), Vec3::new(10.0, 3.0, 2.0));
    let lvl = level(&b);
    let s = SlideSettings {
        gravity: [0.0, -0.1, 0.0],
        ..settings(RADII)
    };
    let mut solver = SlideSolver::new(
        lvl.world(),
        &s,
        on_floor(0.0, 0.0),
        DVec3::new(2.0, 0.0, 2.0),
        TraceDetail::Full,
    )
    .unwrap();
    let first = solver.next().unwrap();
    assert_eq!(first.index, 0);
    assert_eq!(solver.position(), first.end);
    assert!(solver.finished().is_none());
    let rest: Vec<_> = solver.by_ref().collect();
    assert!(!rest.is_empty());
    assert!(solver.finished().is_some());
    assert!(solver.next().is_none());
    let whole = run(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(2.0, 0.0, 2.0));
    assert_eq!(whole.iterations[0], first);
    assert_eq!(whole.iterations.len(), rest.len() + 1);
}

#[test]
fn a_slide_never_moves_farther_than_the_motion_it_came_from() {
    // Ellipsoid space stretches the tall axis: a projection there could
    // come back longer in world space than what was left of the move.
    let lvl = step_level(0.3);
    let s = settings(RADII);
    let r = run(&lvl, &s, on_floor(0.0, 0.0), DVec3::new(3.0, 0.0, 0.0));
    for rec in &r.iterations {
        if let Some(slide) = rec.slide_vector {
            let remaining = (rec.destination - rec.end).length();
            assert!(
                slide.length() <= remaining + 1e-9,
                "{} > {remaining}",
                slide.length()
            );
        }
    }
    let travelled: f64 = r
        .iterations
        .iter()
        .map(|i| (i.end - i.start).length())
        .sum();
    assert!(travelled <= 3.0 + 1e-9, "{travelled}");
}
