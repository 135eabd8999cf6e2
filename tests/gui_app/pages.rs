//! The character panel (envelope, WASD walking, frame phases), the checks
//! page and the stuck-spot map page.

use crate::*;

#[test]
fn the_character_panel_shows_the_envelope_once_measured() {
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    h.get_by_label("Character").click();
    h.run_steps(2);
    h.get_by_label("walk speed (m/s)");
    h.get_by_label("walkable slope (°)");
    // The measure runs on a background thread: keep drawing until it lands.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while h.state().envelope().is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the envelope was not measured in time"
        );
        assert!(h.state().envelope_measuring());
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run_steps(1);
    }
    h.run_steps(2);
    let envelope = h
        .state()
        .envelope()
        .cloned()
        .unwrap()
        .expect("the default settings measure");
    assert!(!h.state().envelope_measuring());
    let step = &envelope.max_step_height_m;
    assert!(step.found && (step.value - 0.3).abs() < 0.02, "{step:?}");
    h.get_by_label(&format!("tallest step, standing: {:.3} m", step.value));
    h.get_by_label(&format!(
        "steepest ramp: {:.1}°",
        envelope.max_slope_deg.value
    ));
    h.get_by_label(&format!(
        "widest gap crossed: {:.3} m",
        envelope.max_gap_crossed_m.value
    ));
    // A limit opens onto the walks that decided it.
    h.get_by_label(&format!("tallest step, standing: {:.3} m", step.value))
        .click();
    h.run_steps(3);
    h.get_by_label_contains("passes at");
    h.get_by_label_contains("Failing walk (envelope: step from standing)");

    // A new step height is measured again; the old numbers go.
    let i = h.state().state().selected.unwrap();
    let mut p = params_of(&h.state().state().probes[i]);
    p.settings.character.max_step_height_m = 0.5;
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
    assert!(h.state().envelope().is_none());
    assert!(h.state().envelope_measuring());
    h.get_by_label_contains("measuring");
}

#[test]
fn walking_with_wasd_runs_character_frames_and_a_frame_opens_phase_by_phase() {
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    let settings = h.state().state().probes[0].settings.clone();
    let start = h.state().state().probes[0].position;
    h.key_press(egui::Key::P);
    h.run_steps(1);
    assert!(h.state().state().walk.active, "P starts walk mode");
    h.key_down(egui::Key::W);
    // The harness steps 1/60 s per frame: one character frame each.
    h.run_steps(30);
    h.key_up(egui::Key::W);
    h.run_steps(1);
    let s = h.state().state();
    assert!(s.walk.frames.len() >= 30, "{} frames", s.walk.frames.len());
    let moved = s.probes[0].position - start;
    assert!(
        (moved.x * moved.x + moved.z * moved.z).sqrt() > 1.0,
        "W walks the probe: {moved:?}"
    );
    assert_eq!(s.probes[0].settings, settings);
    h.key_press(egui::Key::Escape);
    h.run_steps(1);
    assert!(!h.state().state().walk.active, "Esc stops walk mode");

    h.state_mut().push(Command::OpenWalkFrame(20));
    h.run_steps(2);
    let p = &h.state().state().probes[0];
    assert_eq!(p.settings, settings, "reopening leaves the settings");
    assert_eq!(p.stepper.current_phase(), Some(Phase::Velocity));
    h.get_by_label("Phase");
    assert!(h.get_all_by_label("velocity").count() >= 2, "phase and row");
    // Walking on the floor: one velocity iteration, then gravity's.
    h.get_by_label("Step").click();
    h.run_steps(2);
    let p = &h.state().state().probes[0];
    assert_eq!(p.stepper.current_phase(), Some(Phase::Gravity));
    h.get_by_label("gravity");
    // The frame's outcome, in the stepper bar (and the inspector).
    h.get_by_label_contains("walk frame 20: 2 iterations, grounded");
    // Marked as an inspection, with the way back to the probe's own move.
    h.get_by_label("Inspecting walk frame 20");
    h.get_by_label("Back to probe").click();
    h.run_steps(2);
    let p = &h.state().state().probes[0];
    assert!(p.stepper.frame().is_none());
    assert_eq!(p.settings, settings, "going back leaves the settings too");
    assert!(h.query_by_label("Inspecting walk frame 20").is_none());
}

#[test]
fn the_checks_page_lists_findings_and_a_click_shows_the_reason() {
    let mut h = harness();
    h.run_steps(2);
    run_checks(&mut h);
    h.run_steps(2);
    let report = h
        .state()
        .state()
        .checks
        .report()
        .cloned()
        .expect("the default level has findings");
    let c = report.counts;
    h.get_by_label(&format!("{} climbs", c.climbs));
    h.get_by_label(&format!("{} blocked", c.blocked));
    h.get_by_label_contains(&format!("of {} findings", report.findings.len()));
    // The list opens folded, one line per staircase and object: unfold
    // the second finding's group, then click its row.
    let f = &report.findings[1];
    let group = collidoscope::app::checks::GroupKey::of(f).title();
    h.get_by_label_contains(&format!("{group} · ")).click();
    h.run_steps(2);
    h.get_by_label_contains("#2 ").click();
    h.run_steps(3);
    let st = h.state().state();
    assert_eq!(st.checks.open.as_ref().map(|o| o.index), Some(1));
    assert!(
        h.query_all_by_label(&f.reason).next().is_some(),
        "the reason is shown: {}",
        f.reason
    );
    let probe = h
        .state()
        .state()
        .selected_probe()
        .expect("a probe to step it");
    assert!(
        probe.stepper.frame().is_some(),
        "its walk frame is in the stepper"
    );
}

#[test]
fn the_map_page_runs_a_map_shows_its_counts_and_a_row_opens_a_walk() {
    let mut h = harness();
    h.run_steps(2);
    h.get_by_label("Map").click();
    h.run_steps(2);
    // Coarse and short: the built-in level's stuck slot still shows.
    h.state_mut().push(Command::SetMapOptions(
        collidoscope::analysis::map::MapOptions {
            spacing_m: 1.0,
            directions: 4,
            seconds: 1.0,
            shard: collidoscope::analysis::map::Shard::WHOLE,
            ..collidoscope::analysis::map::MapOptions::default()
        },
    ));
    h.run_steps(1);
    h.get_by_label("Run map").click();
    h.run_steps(1);
    assert!(h.state().state().map.running());
    let t = std::time::Instant::now();
    while h.state().state().map.running() {
        assert!(t.elapsed().as_secs() < 120, "the map did not end in time");
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    h.run_steps(2);
    let report = h.state().state().map.report.clone().expect("a map");
    let c = report.counts;
    assert!(c.stuck > 0, "{c:?}");
    h.get_by_label(&format!("{} stuck", c.stuck));
    h.get_by_label(&format!("{} free", c.free));
    h.get_by_label("Heat map in the view");
    // The first row is the worst spot: click it.
    let worst = h.state().state().map.worst(1)[0];
    let s = &report.spots[worst];
    h.get_by_label_contains(&format!(
        " · ({:.1}, {:.1}, {:.1}) · ",
        s.start.x, s.floor_y, s.start.z
    ))
    .click();
    h.run_steps(3);
    let st = h.state().state();
    assert_eq!(st.map.open.as_ref().map(|o| o.spot), Some(worst));
    let probe = st.selected_probe().expect("a probe to step it");
    assert!(
        probe.stepper.frame().is_some(),
        "its walk frame is in the stepper"
    );
    let open = st.map.open.clone().unwrap();
    h.get_by_label_contains(&format!(
        "frame {} of {} in the stepper",
        open.frame,
        open.walk.frames.len()
    ));
}

#[test]
fn the_character_page_picks_an_engine_profile_undoably_and_the_envelope_follows() {
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    h.get_by_label("Character").click();
    h.run_steps(2);
    // The menu shows the current profile; choosing Jolt sets it.
    h.get_by_value("Collidoscope (its own model)").click();
    h.run_steps(2);
    h.get_by_label("Jolt CharacterVirtual").click();
    h.run_steps(2);
    let i = h.state().state().selected.unwrap();
    assert_eq!(
        h.state().state().probes[i].settings.character.engine,
        collidoscope::character::EngineProfile::Jolt
    );
    h.get_by_label("body: capsule r 0.4 m h 1.8 m");
    // Jolt rises by the whole step, then the capsule's round end rides
    // over the edge: the envelope's tallest step is above the 0.3 m setting.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while h.state().envelope().is_none() {
        assert!(std::time::Instant::now() < deadline, "no envelope in time");
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run_steps(1);
    }
    let e = h.state().envelope().cloned().unwrap().unwrap();
    assert!(
        e.max_step_height_m.value > 0.38,
        "Jolt's capsule climbs {:?}",
        e.max_step_height_m
    );
    // Walking it: its frames sweep the capsule, and a frame opened in the
    // stepper draws the capsule, not the ellipsoid.
    h.key_press(egui::Key::P);
    h.run_steps(1);
    h.key_down(egui::Key::W);
    h.run_steps(10);
    h.key_up(egui::Key::W);
    h.run_steps(1);
    h.key_press(egui::Key::Escape);
    h.run_steps(1);
    h.state_mut().push(Command::OpenWalkFrame(5));
    h.run_steps(3);
    let capsule = collidoscope::geometry::shape::CharacterShape::Capsule {
        radius_m: 0.4,
        height_m: 1.8,
    };
    let drawn = h.state().drawn_overlays();
    let bodies: Vec<_> = drawn
        .iter()
        .filter(|p| p.kind == collidoscope::collide::debug_draw::OverlayKind::EllipsoidStart)
        .collect();
    assert!(!bodies.is_empty(), "the frame's start is drawn");
    assert!(
        bodies.iter().all(|p| matches!(
            p.shape,
            collidoscope::collide::debug_draw::Shape::Solid { shape, .. } if shape == capsule
        )),
        "{bodies:?}"
    );
    h.get_by_label("Back to probe").click();
    h.run_steps(2);
    // Ctrl+Z undoes the walk, then the choice: the own model is back.
    for _ in 0..2 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
        h.run_steps(2);
    }
    let engine = h.state().state().probes[i].settings.character.engine;
    assert!(engine.is_collidoscope(), "{engine}");
}

#[test]
fn the_character_page_sets_an_engines_own_rules_undoably() {
    use collidoscope::character::{ClimbingMode, EngineProfile, NonWalkable};
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    h.get_by_label("Character").click();
    h.run_steps(2);
    // Collidoscope's own model slides down steep ground and steps by what
    // its body does not roll over: no climbing choice.
    h.get_by_value("slides (own)");
    assert!(h.query_by_value("easy (own)").is_none());
    h.get_by_value("Collidoscope (its own model)").click();
    h.run_steps(2);
    h.get_by_label("PhysX character controller").click();
    h.run_steps(2);
    // PhysX's defaults are the profile's own; both can be changed.
    h.get_by_value("stands (own)").click();
    h.run_steps(2);
    h.get_by_label("slides").click();
    h.run_steps(2);
    h.get_by_value("easy (own)").click();
    h.run_steps(2);
    h.get_by_label("constrained").click();
    h.run_steps(2);
    let i = h.state().state().selected.unwrap();
    let c = h.state().state().probes[i].settings.character.clone();
    assert_eq!(c.engine, EngineProfile::Physx);
    assert_eq!(
        c.non_walkable,
        Some(NonWalkable::PreventClimbingAndForceSliding)
    );
    assert_eq!(c.climbing_mode, Some(ClimbingMode::Constrained));
    // Each choice is one undo step.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    let c = h.state().state().probes[i].settings.character.clone();
    assert_eq!(c.climbing_mode, None);
    assert_eq!(
        c.non_walkable,
        Some(NonWalkable::PreventClimbingAndForceSliding)
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    let c = h.state().state().probes[i].settings.character.clone();
    assert_eq!((c.non_walkable, c.climbing_mode), (None, None));
    assert_eq!(c.engine, EngineProfile::Physx);
    // Unreal's perch settings show only under Unreal.
    assert!(h.query_by_label("perch threshold (m)").is_none());
    h.get_by_label("step over edges");
    h.get_by_value("PhysX character controller").click();
    h.run_steps(2);
    h.get_by_label("Unreal CharacterMovementComponent").click();
    h.run_steps(2);
    h.get_by_label("perch threshold (m)");
    h.get_by_label("perch extra height (m)");
    // Unreal refuses any landing above the step height: no climbing choice.
    assert!(h.query_by_label("step over edges").is_none());
}
