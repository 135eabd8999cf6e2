//! Scenario tests of the methods against small built levels.

use super::tunnel::tunnel_rule;
use super::*;
use crate::collide::{SlideSettings, TraceDetail, slide};
use crate::level::Level;
use crate::mesh::MeshBuilder;
use glam::{DVec3, Vec3};

/// A wall across x from `x0` to `x0 + thickness`, 3 m tall, 10 m wide.
fn wall_level(x0: f32, thickness: f32) -> Level {
    let mut b = MeshBuilder::new();
    b.object("wall").cuboid(
        Vec3::new(x0, 0.0, -5.0),
        Vec3::new(x0 + thickness, 3.0, 5.0),
    );
    Level::from_mesh("wall", b.build())
}

fn probe() -> SlideSettings {
    SlideSettings {
        radii: [0.4, 0.4, 0.4],
        gravity: [0.0, 0.0, 0.0],
        ..SlideSettings::default()
    }
}

fn discrete_steps(trace: &MethodTrace) -> Vec<&discrete::DiscreteStep> {
    trace
        .iterations
        .iter()
        .filter_map(|s| s.detail.as_discrete())
        .collect()
}

#[test]
fn method_names_round_trip_and_unknown_names_are_refused() {
    for m in Method::ALL {
        assert_eq!(m.name().parse::<Method>(), Ok(m));
        assert_eq!(serde_json::to_string(&m).unwrap(), format!("\"{m}\""));
    }
    let err = "bogus".parse::<Method>().unwrap_err();
    assert!(err.contains("bogus") && err.contains("discrete"), "{err}");
}

#[test]
fn bad_settings_and_input_are_refused_with_a_reason() {
    let level = wall_level(2.0, 1.0);
    let ms = MethodSettings {
        step_hz: 0.0,
        ..MethodSettings::default()
    };
    let err = run(
        Method::Discrete,
        level.world(),
        &probe(),
        &ms,
        DVec3::ZERO,
        DVec3::X,
    );
    assert!(err.unwrap_err().0.contains("step rate"));
    let many = MethodSettings {
        move_seconds: 1e6,
        ..MethodSettings::default()
    };
    assert!(many.validate().unwrap_err().contains("limit"));
    let nan = run(
        Method::Discrete,
        level.world(),
        &probe(),
        &MethodSettings::default(),
        DVec3::NAN,
        DVec3::X,
    );
    assert!(nan.is_err());
}

#[test]
fn a_slow_move_into_a_wall_finds_the_time_of_impact_and_pushes_out() {
    let level = wall_level(2.0, 1.0);
    let s = probe();
    let ms = MethodSettings::default();
    let trace = run(
        Method::Discrete,
        level.world(),
        &s,
        &ms,
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::X * 3.0,
    )
    .expect("valid move");
    assert_eq!(trace.iterations.len(), 60);
    let steps = discrete_steps(&trace);
    let (i, hit) = steps
        .iter()
        .enumerate()
        .find_map(|(i, d)| d.contact.map(|c| (i, c)))
        .expect("the wall is hit");
    let rec = &trace.iterations[i];
    // The bisection's time of impact puts the probe's surface on the face.
    let toi_x = rec.start.x + rec.velocity.x * hit.toi;
    assert!((toi_x - 1.6).abs() < 1e-4, "toi at x = {toi_x}");
    assert!((hit.toi_position.x - toi_x).abs() < 1e-12);
    assert_eq!(hit.bisection_iterations, ms.bisection_iterations);
    assert!(!hit.started_overlapping && hit.resolved);
    let pen = hit.penetration;
    assert!(pen.normal.abs_diff_eq(-DVec3::X, 1e-9), "{}", pen.normal);
    assert!(hit.impact.normal.abs_diff_eq(-DVec3::X, 1e-9));
    assert!(
        hit.impact.depth < 1e-6,
        "shallow at the time of impact: {}",
        hit.impact.depth
    );
    // Depth: how far the sample went past the contact position.
    let expected_depth = steps[i].sample.x - 1.6;
    assert!(
        (pen.depth - expected_depth).abs() < 1e-9,
        "{} vs {expected_depth}",
        pen.depth
    );
    assert!((pen.depth_espace - expected_depth / 0.4).abs() < 1e-9);
    // Pushed out to zero depth plus the skin, and never into the wall after.
    assert!((rec.end.x - (1.6 - s.skin)).abs() < 1e-6, "{}", rec.end);
    for r in &trace.iterations {
        assert!(r.end.x <= 1.6 + 1e-9, "step {} ends at {}", r.index, r.end);
    }
    assert_eq!(trace.end_reason, MethodEnd::ArrivedAfterContacts);
    assert!(trace.final_position.x <= 1.6);
}

#[test]
fn a_fast_move_tunnels_a_thin_wall_in_discrete_mode_but_not_in_the_slide() {
    // 0.1 m wall, 0.4 m probe: a 1 m step (60 m/s at 60 Hz) can jump the
    // 0.9 m the overlap test sees; this start puts the samples either side.
    let level = wall_level(2.0, 0.1);
    let s = probe();
    let (start, velocity) = (DVec3::new(-0.45, 1.0, 0.0), DVec3::X * 60.0);
    let trace = run(
        Method::Discrete,
        level.world(),
        &s,
        &MethodSettings::default(),
        start,
        velocity,
    )
    .expect("valid move");
    assert_eq!(
        trace.end_reason,
        MethodEnd::Arrived,
        "no overlap was ever seen"
    );
    assert!(trace.final_position.x > 50.0, "{}", trace.final_position);
    let tunnelled: Vec<u32> = trace
        .iterations
        .iter()
        .filter(|r| r.detail.as_discrete().unwrap().crossed_triangle.is_some())
        .map(|r| r.index)
        .collect();
    assert_eq!(
        tunnelled,
        vec![2],
        "the step from x=1.55 to 2.55 crosses the wall"
    );
    let slid = slide(level.world(), &s, start, velocity, TraceDetail::Summary).unwrap();
    assert!(
        slid.final_position.x < 1.6,
        "the swept ellipsoid stops: {}",
        slid.final_position
    );
    // The same move slower than the rule's speed is caught.
    let rule = tunnel_rule(&level.world(), s.radii_vec(), 60.0).expect("a wall");
    assert!((rule.thinnest_wall_m - 0.1).abs() < 1e-3, "{rule:?}");
    assert!(
        (rule.tunnel_speed_m_s - 0.9 * 60.0).abs() < 0.1,
        "{}",
        rule.sentence()
    );
    let slow = velocity * (rule.tunnel_speed_m_s * 0.95 / 60.0);
    let caught = run(
        Method::Discrete,
        level.world(),
        &s,
        &MethodSettings::default(),
        start,
        slow,
    )
    .unwrap();
    assert_eq!(caught.end_reason, MethodEnd::ArrivedAfterContacts);
    // Its sample went past the wall's middle: the sample's nearest face is
    // the far one, but the time of impact's normal keeps it on this side.
    let c = caught
        .iterations
        .iter()
        .find_map(|r| r.detail.as_discrete().unwrap().contact)
        .unwrap();
    assert!(
        c.penetration.normal.x > 0.9 && c.impact.normal.x < -0.9,
        "{c:?}"
    );
    assert!(caught.final_position.x < 1.6, "{}", caught.final_position);
}

#[test]
fn the_rule_of_thumb_counts_a_sheet_as_a_wall_of_no_thickness() {
    let mut b = MeshBuilder::new();
    b.object("sheet").quad(
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(0.0, 2.0, 1.0),
        Vec3::new(0.0, 2.0, -1.0),
    );
    let level = Level::from_mesh("sheet", b.build());
    let rule = tunnel_rule(&level.world(), DVec3::new(0.3, 0.9, 0.5), 30.0).unwrap();
    assert_eq!(rule.thinnest_wall_m, 0.0);
    assert!((rule.probe_extent_m - 0.3).abs() < 1e-9);
    assert!((rule.tunnel_speed_m_s - 0.6 * 30.0).abs() < 1e-9);
    assert!(
        rule.sentence()
            .starts_with("tunnels above 18.0 m/s at 30 Hz")
    );
}

#[test]
fn triggers_record_enter_and_exit_and_do_not_stop_the_probe() {
    let mut b = MeshBuilder::new();
    b.object("zone")
        .cuboid(Vec3::new(2.0, 0.0, -2.0), Vec3::new(3.0, 3.0, 2.0));
    let level = Level::from_mesh("zone", b.build());
    let flags = [false];
    let world = level.world_with(&flags);
    let trace = run(
        Method::Discrete,
        world,
        &probe(),
        &MethodSettings::default(),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::X * 6.0,
    )
    .unwrap();
    assert_eq!(
        trace.end_reason,
        MethodEnd::Arrived,
        "the prologue declined it"
    );
    assert!((trace.final_position.x - 6.0).abs() < 1e-9);
    let events: Vec<(u32, TriggerKind, String)> = trace
        .iterations
        .iter()
        .flat_map(|r| {
            let d = r.detail.as_discrete().unwrap();
            d.trigger_events
                .iter()
                .map(move |e| (r.index, e.kind, e.name.clone()))
        })
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    let (enter, exit) = (&events[0], &events[1]);
    assert_eq!((enter.1, enter.2.as_str()), (TriggerKind::Enter, "zone"));
    assert_eq!(exit.1, TriggerKind::Exit);
    // Entered once the probe's surface reaches x = 2, left past x = 3.4.
    let at = |i: u32| trace.iterations[i as usize].end.x;
    assert!(
        at(enter.0) > 1.6 && at(enter.0 - 1) <= 1.6,
        "{}",
        at(enter.0)
    );
    assert!(at(exit.0) >= 3.4 && at(exit.0 - 1) < 3.4, "{}", at(exit.0));
    let inside = trace.iterations[(enter.0 + 1) as usize]
        .detail
        .as_discrete()
        .unwrap();
    assert_eq!(inside.triggers_inside, vec![0]);
}

#[test]
fn a_probe_started_inside_a_wall_is_pushed_out_without_bisection() {
    let level = wall_level(0.0, 2.0);
    let trace = run(
        Method::Discrete,
        level.world(),
        &probe(),
        &MethodSettings::default(),
        DVec3::new(-0.2, 1.0, 0.0),
        DVec3::X * 0.6,
    )
    .unwrap();
    let first = trace.iterations[0].detail.as_discrete().unwrap();
    let c = first.contact.expect("overlapping from the start");
    assert!(c.started_overlapping && c.toi == 0.0 && c.bisection_iterations == 0);
    assert!(
        trace.iterations[0].end.x <= -0.4,
        "{}",
        trace.iterations[0].end
    );
    assert!(trace.final_position.is_finite());
}

#[test]
fn overlays_follow_the_cursor_and_the_toggles() {
    use crate::collide::debug_draw::{OverlayKind, OverlayToggles};
    let level = wall_level(2.0, 0.1);
    let trace = run(
        Method::Discrete,
        level.world(),
        &probe(),
        &MethodSettings::default(),
        DVec3::new(-0.45, 1.0, 0.0),
        DVec3::X * 60.0,
    )
    .unwrap();
    let toggles = OverlayToggles::default();
    let r = DVec3::splat(0.4);
    let at = |c: usize, t: &OverlayToggles| {
        primitives_for_method(&trace.iterations, c, r, &level.mesh, t)
    };
    let count = |p: &[crate::collide::debug_draw::DebugPrimitive], k| {
        p.iter().filter(|p| p.kind == k).count()
    };
    let before = at(1, &toggles);
    assert_eq!(count(&before, OverlayKind::MethodPath), 2);
    assert_eq!(count(&before, OverlayKind::Tunnelling), 0);
    let after = at(2, &toggles);
    assert_eq!(
        count(&after, OverlayKind::Tunnelling),
        2,
        "the step and the wall triangle"
    );
    let off = toggles.clone().with(OverlayKind::Tunnelling, false);
    assert_eq!(count(&at(2, &off), OverlayKind::Tunnelling), 0);
    assert!(at(999, &toggles).is_empty());
}

#[test]
fn every_method_overlay_kind_is_drawn_when_on_and_only_then() {
    use crate::collide::debug_draw::{OverlayKind, OverlayToggles};
    // A trigger zone, then a thin wall: tunnelled at 60 m/s, hit at 3 m/s.
    let mut b = MeshBuilder::new();
    b.object("zone")
        .cuboid(Vec3::new(0.5, 0.0, -2.0), Vec3::new(0.8, 3.0, 2.0));
    b.object("wall")
        .cuboid(Vec3::new(2.0, 0.0, -5.0), Vec3::new(2.1, 3.0, 5.0));
    let level = Level::from_mesh("zone and wall", b.build());
    let flags = [false, true];
    let world = level.world_with(&flags);
    let ms = MethodSettings::default();
    let start = DVec3::new(-0.45, 1.0, 0.0);
    let fast = run(
        Method::Discrete,
        world,
        &probe(),
        &ms,
        start,
        DVec3::X * 60.0,
    )
    .unwrap();
    let slow = run(
        Method::Discrete,
        world,
        &probe(),
        &ms,
        start,
        DVec3::X * 3.0,
    )
    .unwrap();
    let r = DVec3::splat(0.4);
    let kinds = [
        OverlayKind::MethodPath,
        OverlayKind::MethodSamples,
        OverlayKind::MethodContact,
        OverlayKind::PushOut,
        OverlayKind::Tunnelling,
        OverlayKind::Triggers,
    ];
    let contact_step = slow
        .iterations
        .iter()
        .position(|s| s.detail.as_discrete().unwrap().contact.is_some())
        .unwrap();
    for kind in kinds {
        let draw = |t: &OverlayToggles| {
            let mut p = primitives_for_method(&fast.iterations, 3, r, &level.mesh, t);
            p.extend(primitives_for_method(
                &slow.iterations,
                contact_step,
                r,
                &level.mesh,
                t,
            ));
            p
        };
        let only = draw(&OverlayToggles::all(false).with(kind, true));
        assert!(!only.is_empty(), "{kind:?} draws nothing");
        assert!(only.iter().all(|p| p.kind == kind), "{kind:?} leaks");
        let without = draw(&OverlayToggles::all(true).with(kind, false));
        assert!(
            without.iter().all(|p| p.kind != kind),
            "{kind:?} drawn while off"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any finite move in a room of thin and thick walls: finite positions,
    /// steps that chain, and a step whose contact is resolved ends clear of
    /// every colliding triangle.
    #[test]
    fn discrete_moves_are_finite_chained_and_resolved_steps_end_clear(
        sx in -3.0f64..3.0, sz in -3.0f64..3.0,
        vx in -80.0f64..80.0, vy in -5.0f64..5.0, vz in -80.0f64..80.0,
        hz in 5.0f64..120.0,
    ) {
        let mut b = MeshBuilder::new();
        b.object("thin").cuboid(Vec3::new(4.0, 0.0, -6.0), Vec3::new(4.05, 3.0, 6.0));
        b.object("thick").cuboid(Vec3::new(-6.0, 0.0, 4.0), Vec3::new(6.0, 3.0, 5.0));
        b.object("floor").cuboid(Vec3::new(-8.0, -0.5, -8.0), Vec3::new(8.0, 0.0, 8.0));
        let level = Level::from_mesh("room", b.build());
        let ms = MethodSettings { step_hz: hz, ..MethodSettings::default() };
        let start = DVec3::new(sx, 1.0, sz);
        let trace = run(Method::Discrete, level.world(), &probe(), &ms, start,
            DVec3::new(vx, vy, vz)).unwrap();
        proptest::prop_assert!(trace.final_position.is_finite());
        let mut query = overlap::OverlapQuery::default();
        let es = crate::geometry::espace::EllipsoidSpace::new(probe().radii_vec()).unwrap();
        let mut at = start;
        for s in &trace.iterations {
            proptest::prop_assert_eq!(s.start, at);
            proptest::prop_assert!(s.end.is_finite());
            let contact = s.detail.as_discrete().unwrap().contact;
            if contact.is_some_and(|c| c.resolved) {
                let left = query.at(&level.world(), es, s.end, s.velocity).deepest;
                proptest::prop_assert!(left.is_none(), "step {} ends in {:?}", s.index, left);
            }
            at = s.end;
        }
    }
}

#[test]
fn a_huge_step_count_is_refused_in_a_short_message() {
    let ms = MethodSettings {
        step_hz: 1e300,
        move_seconds: 1e300,
        ..MethodSettings::default()
    };
    let e = ms.validate().unwrap_err();
    assert!(e.starts_with("inf steps (1e300 s at 1e300 Hz)"), "{e}");
    assert!(e.len() < 100, "{e}");
}
