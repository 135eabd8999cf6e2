//! Scenario tests of the slide's trigger events: exact times on small
//! built levels, and the motion left as it is without the triggers.

use super::*;
use crate::collide::{IterationRecord, SlideSettings, SlideSolver, TraceDetail, slide};
use crate::level::Level;
use crate::mesh::MeshBuilder;
use glam::Vec3;

/// A probe narrower along x than it is tall, so the test is of an
/// ellipsoid, not a sphere.
fn probe() -> SlideSettings {
    SlideSettings {
        radii: [0.5, 1.0, 0.5],
        gravity: [0.0, 0.0, 0.0],
        ..SlideSettings::default()
    }
}

/// A floorless level: a trigger box `zone` across x in `[2, 3]` and, if
/// `wall`, a colliding wall across x in `[8, 9]`.
fn zone_level(wall: bool) -> Level {
    let mut b = MeshBuilder::new();
    b.object("zone")
        .cuboid(Vec3::new(2.0, 0.0, -2.0), Vec3::new(3.0, 3.0, 2.0));
    if wall {
        b.object("wall")
            .cuboid(Vec3::new(8.0, 0.0, -5.0), Vec3::new(9.0, 3.0, 5.0));
    }
    Level::from_mesh("zone", b.build())
}

fn events(iterations: &[IterationRecord]) -> Vec<(u32, TriggerKind, String, f64)> {
    iterations
        .iter()
        .flat_map(|r| {
            r.trigger_events
                .iter()
                .map(move |e| (r.index, e.kind, e.name.clone(), e.t))
        })
        .collect()
}

#[test]
fn passing_through_a_trigger_records_exact_enter_and_exit_times() {
    let level = zone_level(false);
    let flags = [false];
    let start = DVec3::new(0.0, 1.5, 0.0);
    let r = slide(
        level.world_with(&flags),
        &probe(),
        start,
        DVec3::X * 6.0,
        TraceDetail::Full,
    )
    .unwrap();
    assert_eq!(r.iterations.len(), 1, "the trigger did not stop it");
    assert!((r.final_position.x - 6.0).abs() < 1e-12);
    let ev = events(&r.iterations);
    assert_eq!(ev.len(), 2, "{ev:?}");
    // The ellipsoid's surface (0.5 m along x) meets x = 2 with its centre
    // at 1.5, and leaves x = 3 with its centre at 3.5.
    assert_eq!((ev[0].1, ev[0].2.as_str()), (TriggerKind::Enter, "zone"));
    assert!((ev[0].3 - 1.5 / 6.0).abs() < 1e-12, "{ev:?}");
    assert_eq!(ev[1].1, TriggerKind::Exit);
    assert!((ev[1].3 - 3.5 / 6.0).abs() < 1e-12, "{ev:?}");
    let enter = &r.iterations[0].trigger_events[0];
    assert!((enter.center - DVec3::new(1.5, 1.5, 0.0)).length() < 1e-12);
}

#[test]
fn the_ellipsoid_radius_along_the_move_sets_the_time() {
    // Moving down onto the zone's top (y = 3): the 1 m vertical radius
    // touches it when the centre is at y = 4.
    let level = zone_level(false);
    let flags = [false];
    let start = DVec3::new(2.5, 6.0, 0.0);
    let r = slide(
        level.world_with(&flags),
        &probe(),
        start,
        DVec3::NEG_Y * 3.0,
        TraceDetail::Full,
    )
    .unwrap();
    let ev = events(&r.iterations);
    assert_eq!(ev.len(), 1, "ends inside, no exit: {ev:?}");
    assert_eq!(ev[0].1, TriggerKind::Enter);
    assert!((ev[0].3 - 2.0 / 3.0).abs() < 1e-12, "{ev:?}");
}

#[test]
fn a_move_starting_inside_does_not_enter_and_deep_inside_stays_in() {
    // A 10 m room as trigger: deep inside, the probe touches none of its
    // faces but its centre is in the room's box, so it stays in.
    let mut b = MeshBuilder::new();
    b.object("room")
        .cuboid(Vec3::new(-5.0, -5.0, -5.0), Vec3::new(5.0, 5.0, 5.0));
    let level = Level::from_mesh("room", b.build());
    let flags = [false];
    let world = level.world_with(&flags);
    let r = slide(
        world,
        &probe(),
        DVec3::ZERO,
        DVec3::X * 2.0,
        TraceDetail::Full,
    )
    .unwrap();
    assert_eq!(
        events(&r.iterations),
        vec![],
        "it was in the room all along"
    );
    // Out through the +x face: the exit is the last touch of that face,
    // the centre 0.5 m beyond it.
    let r = slide(
        world,
        &probe(),
        DVec3::ZERO,
        DVec3::X * 10.0,
        TraceDetail::Full,
    )
    .unwrap();
    let ev = events(&r.iterations);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].1, TriggerKind::Exit);
    assert!((ev[0].3 - 5.5 / 10.0).abs() < 1e-12, "{ev:?}");
    // Into the room from outside: entered when the surface meets x = 5.
    let r = slide(
        world,
        &probe(),
        DVec3::X * 8.0,
        DVec3::X * -4.0,
        TraceDetail::Full,
    )
    .unwrap();
    let ev = events(&r.iterations);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].1, TriggerKind::Enter);
    assert!((ev[0].3 - 2.5 / 4.0).abs() < 1e-12, "{ev:?}");
}

#[test]
fn events_fall_on_the_iteration_that_travelled_through_the_trigger() {
    // Diagonal into the wall: the first iteration crosses the zone and
    // stops at the wall; the slide along it meets no trigger.
    let level = zone_level(true);
    let flags = [false, true];
    let r = slide(
        level.world_with(&flags),
        &probe(),
        DVec3::new(0.0, 1.5, 0.0),
        DVec3::new(10.0, 0.0, 4.0),
        TraceDetail::Full,
    )
    .unwrap();
    assert!(r.iterations.len() >= 2, "hit the wall and slid");
    let ev = events(&r.iterations);
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert!(ev.iter().all(|e| e.0 == 0 && e.2 == "zone"), "{ev:?}");
    assert!(
        r.iterations[1..]
            .iter()
            .all(|i| i.trigger_events.is_empty())
    );
    // Exact along the first iteration's segment, which ends at the wall.
    let first = &r.iterations[0];
    let along = first.end - first.start;
    let t_enter = 1.5 / along.x;
    assert!((ev[0].3 - t_enter).abs() < 1e-9, "{ev:?} vs {t_enter}");
}

/// Moves across the zone and into the wall, some missing either.
fn moves() -> impl Iterator<Item = (SlideSettings, DVec3, DVec3)> {
    (0..40).flat_map(|i| {
        let a = f64::from(i) * 0.37;
        let start = DVec3::new(-1.0 + a.sin(), 1.0 + 0.5 * a.cos(), a.cos() * 2.0);
        let vel = DVec3::new(12.0, (a * 1.3).sin() * 2.0, (a * 0.7).cos() * 6.0);
        let falling = SlideSettings {
            gravity: [0.0, -3.0, 0.0],
            ..probe()
        };
        [(probe(), start, vel), (falling, start, vel)]
    })
}

#[test]
fn recording_triggers_does_not_change_the_motion() {
    // The same world, trigger events recorded and not: bit for bit the
    // same iterations apart from the events.
    let level = zone_level(true);
    let flags = [false, true];
    let world = level.world_with(&flags);
    let mut seen_events = 0;
    for (settings, start, vel) in moves() {
        let run = |record: bool| {
            let mut s = SlideSolver::new(world, &settings, start, vel, TraceDetail::Full).unwrap();
            s.set_trigger_events(record);
            let mut out: Vec<IterationRecord> = s.by_ref().collect();
            (s.position(), std::mem::take(&mut out))
        };
        let (end_on, mut on) = run(true);
        let (end_off, off) = run(false);
        assert_eq!(end_on, end_off);
        seen_events += events(&on).len();
        for r in &mut on {
            r.trigger_events.clear();
        }
        assert_eq!(on, off);
    }
    assert!(
        seen_events > 10,
        "many moves crossed the zone: {seen_events}"
    );
}

#[test]
fn a_trigger_moves_the_probe_as_no_object_at_all() {
    // With the zone removed from the level the BVH differs, so candidates
    // are tested in another order: the same motion up to rounding.
    let with = zone_level(true);
    let flags = [false, true];
    let mut b = MeshBuilder::new();
    b.object("wall")
        .cuboid(Vec3::new(8.0, 0.0, -5.0), Vec3::new(9.0, 3.0, 5.0));
    let without = Level::from_mesh("wall", b.build());
    for (settings, start, vel) in moves() {
        let a = slide(
            with.world_with(&flags),
            &settings,
            start,
            vel,
            TraceDetail::Full,
        )
        .unwrap();
        let b = slide(without.world(), &settings, start, vel, TraceDetail::Full).unwrap();
        assert!(a.final_position.distance(b.final_position) < 1e-9);
        assert_eq!(a.end_reason, b.end_reason);
        assert_eq!(a.iterations.len(), b.iterations.len());
        for (x, y) in a.iterations.iter().zip(&b.iterations) {
            assert!(x.end.distance(y.end) < 1e-9);
            assert_eq!(x.outcome, y.outcome);
            assert!(y.trigger_events.is_empty());
        }
    }
}

#[test]
fn a_level_without_triggers_writes_no_field() {
    let level = zone_level(true);
    let r = slide(
        level.world(),
        &probe(),
        DVec3::new(0.0, 1.5, 0.0),
        DVec3::X,
        TraceDetail::Full,
    )
    .unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("trigger_events"));
    // And a trace without the field still reads.
    let back: crate::collide::SlideResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back, r);
}

#[test]
fn segment_box_overlap_is_the_slab_interval() {
    let aabb = Aabb::from_corners(Vec3::ZERO, Vec3::ONE);
    let (t0, t1) =
        segment_in_box(DVec3::new(-1.0, 0.5, 0.5), DVec3::new(3.0, 0.5, 0.5), &aabb).unwrap();
    assert!((t0 - 0.25).abs() < 1e-12 && (t1 - 0.5).abs() < 1e-12);
    assert!(segment_in_box(DVec3::new(-1.0, 2.0, 0.5), DVec3::new(3.0, 2.0, 0.5), &aabb).is_none());
    assert!(segment_in_box(DVec3::splat(0.5), DVec3::splat(0.5), &aabb) == Some((0.0, 1.0)));
}

#[test]
fn a_walk_through_a_trigger_enters_and_leaves_it_once() {
    // A floor and a zone standing on it: the character walks through in
    // many frames of several phases each, and each change is one event.
    use crate::character::{WalkSpec, WalkTrace, walk};
    let mut b = MeshBuilder::new();
    b.object("floor")
        .cuboid(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(15.0, 0.0, 5.0));
    b.object("zone")
        .cuboid(Vec3::new(2.0, 0.0, -2.0), Vec3::new(3.0, 3.0, 2.0));
    let level = Level::from_mesh("zone on a floor", b.build());
    let flags = [true, false];
    let settings = SlideSettings::default();
    let spec = WalkSpec {
        from: DVec3::new(0.0, settings.radii[1] + 0.01, 0.0),
        direction: DVec3::X,
        seconds: 2.0,
        jump: false,
    };
    let w = walk(
        level.world_with(&flags),
        &settings,
        &spec,
        WalkTrace::Summary,
    )
    .unwrap();
    assert!(
        w.summary.final_position.x > 4.0,
        "walked past the zone: {:?}",
        w.summary
    );
    let ev: Vec<(u32, TriggerKind, String, DVec3)> = w
        .frames
        .iter()
        .flat_map(|f| &f.iterations)
        .flat_map(|it| {
            it.record
                .trigger_events
                .iter()
                .map(move |e| (it.frame, e.kind, e.name.clone(), e.center))
        })
        .collect();
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!((ev[0].1, ev[0].2.as_str()), (TriggerKind::Enter, "zone"));
    assert_eq!(ev[1].1, TriggerKind::Exit);
    assert!(ev[0].0 < ev[1].0, "{ev:?}");
    let rx = settings.radii[0];
    assert!((ev[0].3.x - (2.0 - rx)).abs() < 1e-9, "{ev:?}");
    assert!((ev[1].3.x - (3.0 + rx)).abs() < 1e-9, "{ev:?}");
}

#[test]
fn the_overlay_draws_the_current_iterations_events() {
    use crate::collide::debug_draw::{
        OverlayKind, OverlayOptions, OverlayToggles, Shape, primitives_for_trace,
    };
    let level = zone_level(false);
    let flags = [false];
    let start = DVec3::new(0.0, 1.5, 0.0);
    let r = slide(
        level.world_with(&flags),
        &probe(),
        start,
        DVec3::X * 6.0,
        TraceDetail::Full,
    )
    .unwrap();
    let options = OverlayOptions::new(OverlayToggles::default(), 0);
    let set = primitives_for_trace(
        &r.iterations,
        0,
        probe().radii_vec(),
        probe().shape,
        level.mesh(),
        level.bvh(),
        &options,
    );
    let drawn: Vec<(String, DVec3)> = set
        .primitives
        .iter()
        .filter(|p| p.kind == OverlayKind::Triggers)
        .map(|p| match p.shape {
            Shape::Ellipsoid { center, .. } => (p.label.clone().unwrap_or_default(), center),
            _ => panic!("a trigger event is drawn as the probe: {:?}", p.shape),
        })
        .collect();
    assert_eq!(drawn.len(), 2, "{drawn:?}");
    assert_eq!(drawn[0].0, "enter zone t=0.250");
    assert!((drawn[1].1.x - 3.5).abs() < 1e-12, "{drawn:?}");
    let mut off = options.clone();
    off.toggles.set(OverlayKind::Triggers, false);
    let set = primitives_for_trace(
        &r.iterations,
        0,
        probe().radii_vec(),
        probe().shape,
        level.mesh(),
        level.bvh(),
        &off,
    );
    assert!(
        set.primitives
            .iter()
            .all(|p| p.kind != OverlayKind::Triggers)
    );
}
