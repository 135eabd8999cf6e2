//! Finding your way: selecting level objects, placing probes only on
//! floors, and probes that keep their feet when their radii change.

use super::{place, state_with_room};
use collidoscope::app::command::Command;
use collidoscope::app::probes::params_of;
use collidoscope::app::state::Severity;
use glam::DVec3;

#[test]
fn selecting_an_object_frames_it_and_a_new_level_clears_it() {
    let mut s = state_with_room();
    let before = s.camera;
    s.apply(Command::SelectObject(Some(1)));
    assert_eq!(s.selected_object, Some(1));
    assert_ne!(s.camera, before, "the camera frames the wall");
    let wall = s.level.as_ref().unwrap().mesh().objects()[1].aabb;
    assert!((s.camera.target - wall.center()).length() < 1e-4);
    let status = s.status.clone().unwrap();
    assert!(status.text.contains("wall"), "{}", status.text);
    s.apply(Command::SelectObject(Some(99)));
    assert_eq!(s.selected_object, None, "no such object: nothing selected");
    s.apply(Command::SelectObject(Some(2)));
    let level = s.level.clone().unwrap();
    s.apply(Command::LevelLoaded(level));
    assert_eq!(s.selected_object, None);
}

#[test]
fn probes_go_on_floors_only_and_a_refusal_says_why() {
    let mut s = state_with_room();
    s.apply(Command::PlaceProbe {
        point: DVec3::new(3.0, 1.0, 0.0),
        normal: DVec3::NEG_X,
    });
    assert!(s.probes.is_empty(), "a wall's face takes no probe");
    let status = s.status.clone().unwrap();
    assert_eq!(status.severity, Severity::Error);
    assert!(status.text.contains("not a floor"), "{}", status.text);
    s.apply(Command::PlaceProbe {
        point: DVec3::new(3.0, 1.0, 0.0),
        normal: DVec3::new(-0.99, 0.1, 0.0),
    });
    assert!(s.probes.is_empty(), "nor does an 84° slope");
    let i = place(&mut s, 0.0, 0.0, DVec3::X);
    assert_eq!(s.probes.len(), 1);
    assert!(s.probes[i].position.y > 0.0);
}

#[test]
fn new_radii_keep_the_probe_standing_where_it_stood() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -4.0, DVec3::X);
    let p = &s.probes[i];
    let feet = p.position.y - p.settings.radii[1];
    for ry in [0.5, 1.6] {
        let mut params = params_of(&s.probes[i]);
        params.settings.radii[1] = ry;
        s.apply(Command::UpdateProbe(i, Box::new(params)));
        let p = &s.probes[i];
        assert!(
            (p.position.y - p.settings.radii[1] - feet).abs() < 1e-12,
            "radius {ry}: the lowest point stays at {feet}"
        );
    }
}

#[test]
fn a_session_on_the_built_in_level_keeps_its_camera_and_switches() {
    use collidoscope::app::state::EditorState;
    use collidoscope::level::Level;
    use std::sync::Arc;
    let builtin = || {
        Arc::new(Level::from_mesh(
            "default_level.obj",
            collidoscope::analysis::generate::default_level(),
        ))
    };
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(builtin()));
    s.apply(Command::SetObjectVisible(3, false));
    s.apply(Command::SelectObject(Some(5)));
    let camera = s.camera;
    // What the window saves, and restores at the next start.
    let saved = serde_json::to_string(&s).unwrap();
    let mut restored: EditorState = serde_json::from_str(&saved).unwrap();
    restored.apply(Command::LevelLoaded(builtin()));
    assert_eq!(restored.camera, camera, "the saved camera stays");
    assert!(
        !restored.objects[3].visible,
        "the hidden object stays hidden"
    );
    // A fresh session frames the level.
    let mut fresh = EditorState::default();
    let before = fresh.camera;
    fresh.apply(Command::LevelLoaded(builtin()));
    assert_ne!(fresh.camera, before);
}
