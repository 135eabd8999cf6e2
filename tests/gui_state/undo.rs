//! Undo and redo of every kind of edit, on the editor state: do it, undo
//! it, redo it, and check the scene each time; a walk is one step, one
//! gesture is one step, and a new level clears the history.

use super::*;
use collidoscope::app::history::MAX_UNDO_STEPS;
use collidoscope::level::cylinder::Cylinder;

/// Undoes and redoes the last edit, checking the scene before, after and
/// that the Edit menu names it.
fn round_trip(
    s: &mut EditorState,
    label: &str,
    check_before: impl Fn(&EditorState),
    check_after: impl Fn(&EditorState),
) {
    assert_eq!(s.undo_label().as_deref(), Some(label));
    check_after(s);
    s.apply(Command::Undo);
    check_before(s);
    assert_eq!(s.redo_label().as_deref(), Some(label));
    s.apply(Command::Redo);
    check_after(s);
    assert_eq!(s.undo_label().as_deref(), Some(label));
}

#[test]
fn placing_a_probe_undoes_and_redoes() {
    let mut s = state_with_room();
    assert_eq!(s.undo_label(), None, "nothing to undo after loading");
    s.apply(Command::PlaceProbe {
        point: DVec3::new(0.0, 0.0, -3.0),
        normal: DVec3::Y,
    });
    let placed = s.probes[0].position;
    round_trip(
        &mut s,
        "place Probe 1",
        |s| {
            assert!(s.probes.is_empty());
            assert_eq!(s.selected, None);
        },
        |s| {
            assert_eq!(s.probes.len(), 1);
            assert_eq!(s.probes[0].position, placed);
            assert_eq!(s.selected, Some(0));
            assert!(s.probes[0].stepper.is_started(), "its move is recomputed");
        },
    );
    // The next probe is named on from the redone one.
    s.apply(Command::PlaceProbe {
        point: DVec3::new(1.0, 0.0, -3.0),
        normal: DVec3::Y,
    });
    assert_eq!(s.probes[1].name, "Probe 2");
}

#[test]
fn moving_and_editing_a_probe_undo_one_field_edit_at_a_time() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let start = s.probes[i].position;
    let mut p = params_of(&s.probes[i]);
    p.position.x += 1.0;
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    round_trip(
        &mut s,
        "move Probe 1",
        |s| assert_eq!(s.probes[0].position, start),
        |s| assert_eq!(s.probes[0].position.x, start.x + 1.0),
    );
    p.settings.character.walk_speed_m_s = 2.0;
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    round_trip(
        &mut s,
        "edit Probe 1's character",
        |s| assert_eq!(s.probes[0].settings.character.walk_speed_m_s, 5.0),
        |s| assert_eq!(s.probes[0].settings.character.walk_speed_m_s, 2.0),
    );
    p.name = "Runner".into();
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    round_trip(
        &mut s,
        "rename Probe 1",
        |s| assert_eq!(s.probes[0].name, "Probe 1"),
        |s| assert_eq!(s.probes[0].name, "Runner"),
    );
    // A refused edit is no step.
    let steps = s.history.undo_len();
    p.settings.skin = 5.0;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert_eq!(s.history.undo_len(), steps);
}

#[test]
fn the_edits_of_one_gesture_are_one_step() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let start = s.probes[i].velocity;
    let steps = s.history.undo_len();
    // A drag: one command per frame.
    s.history.set_gesture(Some(7));
    for k in 1..=10 {
        let mut p = params_of(&s.probes[i]);
        p.velocity.x = 1.0 + 0.1 * f64::from(k);
        s.apply(Command::UpdateProbe(i, Box::new(p)));
    }
    s.history.set_gesture(None);
    assert_eq!(s.history.undo_len(), steps + 1);
    assert_eq!(s.undo_label().as_deref(), Some("change Probe 1's velocity"));
    s.apply(Command::Undo);
    assert_eq!(s.probes[i].velocity, start);
    // Two typed values: two steps.
    for x in [3.0, 4.0] {
        let mut p = params_of(&s.probes[i]);
        p.velocity.x = x;
        s.apply(Command::UpdateProbe(i, Box::new(p)));
    }
    s.apply(Command::Undo);
    assert_eq!(s.probes[i].velocity.x, 3.0);
}

#[test]
fn duplicating_and_deleting_probes_undo() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::X);
    place(&mut s, 1.0, -3.0, DVec3::Z);
    s.apply(Command::Duplicate(0));
    round_trip(
        &mut s,
        "duplicate Probe 1",
        |s| assert_eq!(s.probes.len(), 2),
        |s| {
            assert_eq!(s.probes.len(), 3);
            assert_eq!(s.probes[2].name, "Probe 1 copy");
            assert_eq!(s.selected, Some(2));
        },
    );
    let second = params_of(&s.probes[1]);
    s.apply(Command::Select(Some(1)));
    s.apply(Command::Delete(1));
    round_trip(
        &mut s,
        "delete Probe 2",
        |s| {
            assert_eq!(s.probes.len(), 3);
            assert_eq!(params_of(&s.probes[1]), second, "back in its place");
            assert_eq!(s.selected, Some(1));
        },
        |s| {
            assert_eq!(s.probes.len(), 2);
            assert_eq!(s.probes[1].name, "Probe 1 copy");
        },
    );
}

#[test]
fn cylinders_undo() {
    let mut s = state_with_room();
    s.apply(Command::PlaceCylinder(DVec3::new(0.0, 0.0, 5.0)));
    round_trip(
        &mut s,
        "place pole 0",
        |s| assert!(s.cylinders.is_empty()),
        |s| assert_eq!(s.cylinders.len(), 1),
    );
    let c = s.cylinders[0];
    let wider = Cylinder { radius: 0.8, ..c };
    s.apply(Command::UpdateCylinder(0, wider));
    round_trip(
        &mut s,
        "edit pole 0",
        |s| assert_eq!(s.cylinders[0], c),
        |s| assert_eq!(s.cylinders[0].radius, 0.8),
    );
    s.apply(Command::DeleteCylinder(0));
    round_trip(
        &mut s,
        "delete pole 0",
        |s| assert_eq!(s.cylinders, vec![wider]),
        |s| assert!(s.cylinders.is_empty()),
    );
}

#[test]
fn object_switches_undo_and_restart_the_moves() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::X);
    s.apply(Command::SetObjectColliding(3, false));
    round_trip(
        &mut s,
        "make trigger non-colliding",
        |s| assert!(s.objects[3].colliding),
        |s| assert!(!s.objects[3].colliding),
    );
    s.apply(Command::SetObjectVisible(1, false));
    round_trip(
        &mut s,
        "hide wall",
        |s| assert!(s.objects[1].visible),
        |s| assert!(!s.objects[1].visible),
    );
}

#[test]
fn a_settings_import_is_one_step_with_its_object_switches() {
    let dir = std::env::temp_dir().join(format!("collidoscope_undo_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let before = s.probes[i].settings.clone();
    let path = dir.join("p.toml");
    std::fs::write(
        &path,
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[level]\nnon_colliding = [\"WA*\"]\n",
    )
    .unwrap();
    s.apply(Command::ImportSettings(path));
    round_trip(
        &mut s,
        "import settings into Probe 1",
        |s| {
            assert_eq!(s.probes[0].settings, before);
            assert!(s.objects.iter().all(|o| o.colliding));
        },
        |s| {
            assert_eq!(s.probes[0].settings.radii, [0.4, 0.9, 0.4]);
            assert!(!s.objects[1].colliding, "the wall is switched off again");
        },
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_whole_walk_is_one_step_even_off_a_ledge() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let start = s.probes[i].position;
    let steps = s.history.undo_len();
    s.apply(Command::SetWalk(true));
    let input = WalkInput {
        wish_dir: DVec3::NEG_Z,
        jump: false,
        dt: 1.0 / 60.0,
    };
    // Off the floor's far edge (z = -10) and falling.
    for _ in 0..300 {
        walk_frame(&mut s, input);
    }
    let fallen = s.probes[i].position;
    assert!(fallen.y < -1.0, "the walk fell off the floor: {fallen:?}");
    assert_eq!(
        s.undo_label().as_deref(),
        Some("walk Probe 1"),
        "named while walking"
    );
    s.apply(Command::SetWalk(false));
    assert_eq!(s.history.undo_len(), steps + 1, "one step for the walk");
    // The camera followed the walker; it follows the undo back.
    let target = s.camera.target;
    s.apply(Command::Undo);
    let back = (start - fallen).as_vec3();
    assert!((s.camera.target - (target + back)).length() < 1e-3);
    s.apply(Command::Redo);
    round_trip(
        &mut s,
        "walk Probe 1",
        |s| assert_eq!(s.probes[0].position, start),
        |s| assert_eq!(s.probes[0].position, fallen),
    );
    // Undo while walking stops the walk and takes it back.
    s.apply(Command::Undo);
    s.apply(Command::SetWalk(true));
    for _ in 0..30 {
        walk_frame(&mut s, input);
    }
    s.apply(Command::Undo);
    assert!(!s.walk.active);
    assert_eq!(s.probes[0].position, start);
}

#[test]
fn a_new_edit_drops_the_redo_steps_and_the_history_is_bounded() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    for k in 0..(MAX_UNDO_STEPS + 10) {
        let mut p = params_of(&s.probes[i]);
        p.velocity.x = k as f64 * 0.01 + 0.5;
        s.apply(Command::UpdateProbe(i, Box::new(p)));
    }
    assert_eq!(s.history.undo_len(), MAX_UNDO_STEPS);
    s.apply(Command::Undo);
    assert!(s.redo_label().is_some());
    let mut p = params_of(&s.probes[i]);
    p.name = "Other".into();
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert_eq!(s.redo_label(), None);
    for _ in 0..(MAX_UNDO_STEPS + 5) {
        s.apply(Command::Undo);
    }
    assert_eq!(s.undo_label(), None);
    assert_eq!(
        s.probes.len(),
        1,
        "the placing was dropped: the oldest step goes first"
    );
}

#[test]
fn a_new_level_clears_the_history_and_ends_comparisons() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    s.apply(Command::SetCompareModes(true));
    let mut p = params_of(&s.probes[i]);
    p.settings.skin = 0.01;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert!(s.compare.open);
    assert!(s.undo_label().is_some());
    s.apply(Command::OpenBuiltinLevel);
    assert_eq!(s.undo_label(), None);
    assert_eq!(s.redo_label(), None);
    assert!(!s.compare.open && s.compare.modes.is_none() && s.compare.whatif.is_none());
    // Undo with nothing to undo says so and changes nothing.
    let probes = s.probes.len();
    s.apply(Command::Undo);
    assert_eq!(s.probes.len(), probes);
}
