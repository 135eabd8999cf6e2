//! The editor state and its commands, with no window and no egui: placing,
//! stepping, editing, object flags, settings files, walk mode, session
//! persistence and failed loads.
#![cfg(feature = "gui")]

use collidoscope::analysis::checks::Verdict;
use collidoscope::analysis::features::FeatureKind;
use collidoscope::app::checks::ChecksFilter;
use collidoscope::app::command::{Command, Effect};
use collidoscope::app::file_prompt::PromptPurpose;
use collidoscope::app::loader::LoadJob;
use collidoscope::app::probes::walk_frame;
use collidoscope::app::probes::{params_of, support_distance};
use collidoscope::app::state::{EditorState, Severity};
use collidoscope::app::walk::{MAX_FRAMES_PER_UPDATE, WalkInput};
use collidoscope::character::{CharacterSettings, Phase, StepOutcome};
use collidoscope::collide::{IterationOutcome, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level};
use collidoscope::mesh::MeshBuilder;
use glam::{DVec3, Vec3};
use std::path::PathBuf;
use std::sync::Arc;

/// Floor at y = 0, a wall at x = 3, four 0.2 m stairs going +z from z = 2,
/// and a thin "trigger" slab standing across the x axis at x = -2.
fn room() -> Arc<Level> {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(-10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, -10.0),
    );
    b.object("wall")
        .cuboid(Vec3::new(3.0, 0.0, -5.0), Vec3::new(3.5, 3.0, 5.0));
    b.object("stairs");
    for i in 0..4 {
        let z0 = 2.0 + 0.4 * i as f32;
        b.cuboid(
            Vec3::new(-1.5, 0.0, z0),
            Vec3::new(1.5, 0.2 * (i + 1) as f32, z0 + 0.4),
        );
    }
    b.object("trigger")
        .cuboid(Vec3::new(-2.1, 0.0, -5.0), Vec3::new(-2.0, 3.0, 5.0));
    Arc::new(Level::from_mesh("room", b.build()))
}

fn state_with_room() -> EditorState {
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(room()));
    s
}

/// Places a probe on the floor at `(x, 0, z)` and gives it `velocity`.
fn place(s: &mut EditorState, x: f64, z: f64, velocity: DVec3) -> usize {
    s.apply(Command::PlaceProbe {
        point: DVec3::new(x, 0.0, z),
        normal: DVec3::Y,
    });
    let i = s.selected.expect("the new probe is selected");
    let mut p = params_of(&s.probes[i]);
    p.velocity = velocity;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    i
}

#[test]
fn a_placed_probe_rests_on_the_floor() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let p = &s.probes[i];
    let ry = p.settings.radii[1];
    let gap = p.position.y - ry;
    assert!(
        gap >= 0.0 && gap <= 3.0 * p.settings.skin,
        "centre {:?}: the ellipsoid's bottom should touch the floor (gap {gap})",
        p.position
    );
    assert_eq!(p.name, "Probe 1");
    // Clicking the underside of the floor still places the probe on top.
    s.apply(Command::PlaceProbe {
        point: DVec3::new(1.0, 0.0, -3.0),
        normal: DVec3::NEG_Y,
    });
    assert!(s.probes[1].position.y > 0.0);
    assert_ne!(
        s.probes[0].color, s.probes[1].color,
        "probes get distinct colours"
    );
}

#[test]
fn support_distance_is_the_radius_along_axes() {
    let r = DVec3::new(0.4, 0.9, 0.3);
    assert!((support_distance(r, DVec3::Y) - 0.9).abs() < 1e-12);
    assert!((support_distance(r, DVec3::X) - 0.4).abs() < 1e-12);
}

#[test]
fn step_runs_one_solver_iteration_and_matches_slide() {
    let mut s = state_with_room();
    // Towards the wall at x = 3: at least one contact, then a slide.
    let i = place(&mut s, 0.0, -3.0, DVec3::new(4.0, 0.0, 1.0));
    let probe = &s.probes[i];
    let level = s.level.clone().unwrap();
    let expected = slide(
        level.world(),
        &probe.settings,
        probe.position,
        probe.velocity,
        TraceDetail::Full,
    )
    .unwrap();
    assert!(
        expected.iterations.len() >= 2,
        "the move hits the wall and slides"
    );

    s.apply(Command::Step);
    let st = &s.probes[i].stepper;
    assert_eq!(st.records().len(), 1, "one Step is one iteration");
    assert_eq!(st.current_record(), Some(&expected.iterations[0]));
    assert!(
        st.current_record().unwrap().nearest.is_some(),
        "iteration 1 hits the wall"
    );

    s.apply(Command::StepBack);
    assert_eq!(s.probes[i].stepper.cursor(), None, "back to the start");
    assert_eq!(s.probes[i].shown_center(), s.probes[i].position);
    s.apply(Command::Step);
    assert_eq!(
        s.probes[i].stepper.records().len(),
        1,
        "re-stepping reuses the record"
    );

    s.apply(Command::RunToEnd);
    let st = &s.probes[i].stepper;
    assert_eq!(
        st.records(),
        &expected.iterations[..],
        "the stepper shows what slide computes"
    );
    assert_eq!(st.finished(), Some(expected.end_reason));
    assert!(matches!(
        st.records().last().unwrap().outcome,
        IterationOutcome::MoveEnded(_)
    ));
    assert_eq!(s.probes[i].shown_center(), expected.final_position);

    s.apply(Command::Seek(Some(0)));
    assert_eq!(s.probes[i].stepper.cursor(), Some(0));
    s.apply(Command::Reset);
    let st = &s.probes[i].stepper;
    assert_eq!(
        (st.records().len(), st.cursor()),
        (0, None),
        "Reset recomputes from the start"
    );
}

#[test]
fn stepping_needs_a_selection() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::X);
    s.apply(Command::Select(None));
    s.apply(Command::Step);
    assert!(s.probes[0].stepper.records().is_empty());
    assert!(s.status.as_ref().unwrap().text.contains("Select a probe"));
}

#[test]
fn duplicate_and_delete_keep_a_sensible_selection() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::X);
    s.apply(Command::Duplicate(0));
    assert_eq!(s.probes.len(), 2);
    assert_eq!(s.selected, Some(1));
    assert_eq!(s.probes[1].name, "Probe 1 copy");
    assert_eq!(s.probes[1].velocity, s.probes[0].velocity);
    assert!(s.probes[1].position.x > s.probes[0].position.x);
    s.apply(Command::Select(Some(0)));
    s.apply(Command::Delete(0));
    assert_eq!(s.selected, Some(0), "the neighbour is selected");
    assert_eq!(s.probes[0].name, "Probe 1 copy");
    s.apply(Command::Delete(0));
    assert_eq!(s.selected, None);
    s.apply(Command::Delete(5));
    s.apply(Command::Select(Some(3)));
    assert_eq!(s.selected, None, "out-of-range indices are ignored");
}

#[test]
fn invalid_edits_are_refused_and_change_nothing() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let before = params_of(&s.probes[i]);
    let mut bad = before.clone();
    bad.settings.radii[1] = 0.0;
    s.apply(Command::UpdateProbe(i, Box::new(bad)));
    assert_eq!(params_of(&s.probes[i]), before);
    assert_eq!(s.status.as_ref().unwrap().severity, Severity::Error);
    // A non-finite velocity is kept as typed but the solver rejects the move, visibly.
    let mut nan = before.clone();
    nan.velocity.x = f64::NAN;
    s.apply(Command::UpdateProbe(i, Box::new(nan)));
    assert!(s.probes[i].stepper.is_invalid());
    s.apply(Command::Step);
    assert!(s.probes[i].stepper.records().is_empty());
}

#[test]
fn non_colliding_objects_let_the_probe_through() {
    let mut s = state_with_room();
    // Towards -x, through the trigger slab at x = -2.
    let i = place(&mut s, 0.0, -3.0, DVec3::new(-4.0, 0.0, 0.0));
    s.apply(Command::RunToEnd);
    let blocked = s.probes[i].shown_center();
    assert!(blocked.x > -2.0, "the slab blocks: {blocked:?}");
    let trigger = 3;
    assert_eq!(
        s.level.as_ref().unwrap().mesh().objects()[trigger].name,
        "trigger"
    );
    s.apply(Command::SetObjectColliding(trigger, false));
    s.apply(Command::RunToEnd);
    let through = s.probes[i].shown_center();
    assert!(
        (through.x - (s.probes[i].position.x - 4.0)).abs() < 1e-9,
        "{through:?}"
    );
    let first = &s.probes[i].stepper.records()[0];
    assert!(
        first.candidates.iter().any(|c| c.object == trigger as u32
            && matches!(
                c.outcome,
                collidoscope::collide::CandidateOutcome::NonColliding
            )),
        "the trigger's triangles are reported as non-colliding candidates"
    );
}

#[test]
fn settings_files_round_trip_and_corrupt_files_change_nothing() {
    let dir = std::env::temp_dir().join(format!("collidoscope_gui_state_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let mut p = params_of(&s.probes[i]);
    p.settings.skin = 0.02;
    p.settings.max_iterations = 9;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    for name in ["s.toml", "s.json"] {
        let path = dir.join(name);
        s.apply(Command::ExportSettings(path.clone()));
        let mut p = params_of(&s.probes[i]);
        p.settings.skin = 0.5;
        s.apply(Command::UpdateProbe(i, Box::new(p)));
        s.apply(Command::ImportSettings(path));
        assert_eq!(s.probes[i].settings.skin, 0.02, "{name}");
        assert_eq!(s.probes[i].settings.max_iterations, 9, "{name}");
    }
    let corrupt = dir.join("bad.toml");
    std::fs::write(&corrupt, "format_version = 1\nradii = [0.4, -1.0, 0.4]\n").unwrap();
    let before = s.probes[i].settings.clone();
    s.apply(Command::ImportSettings(corrupt));
    assert_eq!(s.probes[i].settings, before);
    let msg = s.status.clone().unwrap();
    assert_eq!(msg.severity, Severity::Error);
    assert!(
        msg.text.contains("bad.toml:2:"),
        "file and line: {}",
        msg.text
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn imported_settings_switch_off_the_objects_their_level_patterns_name() {
    let dir =
        std::env::temp_dir().join(format!("collidoscope_gui_patterns_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let wall = s
        .level
        .as_ref()
        .unwrap()
        .mesh()
        .objects()
        .iter()
        .position(|o| o.name == "wall")
        .unwrap();
    assert!(s.objects[wall].colliding);
    let path = dir.join("p.toml");
    std::fs::write(
        &path,
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[level]\nnon_colliding = [\"WA*\"]\n",
    )
    .unwrap();
    s.apply(Command::ImportSettings(path));
    assert!(!s.objects[wall].colliding, "the pattern names the wall");
    assert!(s.objects.iter().filter(|o| !o.colliding).count() == 1);
    let msg = s.status.clone().unwrap();
    assert!(msg.text.contains("1 objects"), "{}", msg.text);
    assert_eq!(
        s.probes[i].settings.level.non_colliding,
        vec!["WA*".to_string()]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn file_prompts_open_in_the_window_and_loads_are_effects() {
    let mut s = EditorState::default();
    assert_eq!(s.apply(Command::OpenDialog), None);
    let prompt = s.file_prompt.clone().expect("the path field opens");
    assert_eq!(prompt.purpose, PromptPurpose::OpenLevel);
    assert!(
        prompt.text.ends_with('/'),
        "starts in a folder: {}",
        prompt.text
    );
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .text
            .starts_with("Open level: type a path"),
        "the status bar says which way is in use"
    );
    let path = PathBuf::from("/nowhere/level.obj");
    assert_eq!(
        s.apply(Command::OpenLevel(path.clone())),
        Some(Effect::Load(path, ImportOptions::default()))
    );
    // Settings prompts need a probe to export from or import into.
    let mut s = EditorState::default();
    assert_eq!(s.apply(Command::ExportSettingsDialog), None);
    assert!(s.status.as_ref().unwrap().text.contains("Select a probe"));
    assert!(s.file_prompt.is_none());
    assert_eq!(s.apply(Command::ImportSettingsDialog), None);
    assert!(s.file_prompt.is_none());
    let mut s = state_with_room();
    place(&mut s, 0.0, 0.0, DVec3::X);
    s.apply(Command::ExportSettingsDialog);
    let p = s.file_prompt.clone().unwrap();
    assert_eq!(p.purpose, PromptPurpose::ExportSettings);
    assert!(p.text.ends_with("collidoscope_settings.toml"));
    s.apply(Command::ImportSettingsDialog);
    assert_eq!(
        s.file_prompt.as_ref().unwrap().purpose,
        PromptPurpose::ImportSettings
    );
}

#[test]
fn a_failed_load_keeps_the_previous_level() {
    let mut s = state_with_room();
    let before = s.level.clone().unwrap();
    let job = LoadJob::start(
        PathBuf::from("/nowhere/missing.obj"),
        ImportOptions::default(),
        || {},
    );
    let err = job.wait().expect_err("a missing file fails");
    assert!(err.contains("/nowhere/missing.obj"), "{err}");
    s.apply(Command::LevelFailed(err));
    assert!(Arc::ptr_eq(s.level.as_ref().unwrap(), &before));
    let msg = s.status.unwrap();
    assert_eq!(msg.severity, Severity::Error);
    assert!(msg.text.contains("missing.obj"));
}

#[test]
fn recent_files_are_unique_most_recent_first_and_bounded() {
    let mut s = EditorState::default();
    for i in 0..12 {
        s.remember_recent(
            PathBuf::from(format!("/l/{i}.obj")),
            ImportOptions::default(),
        );
    }
    s.remember_recent(PathBuf::from("/l/5.obj"), ImportOptions::default());
    assert_eq!(s.recent_files[0].path, PathBuf::from("/l/5.obj"));
    assert_eq!(
        s.recent_files.len(),
        collidoscope::app::state::MAX_RECENT_FILES
    );
    assert_eq!(
        s.recent_files
            .iter()
            .filter(|r| r.path.ends_with("5.obj"))
            .count(),
        1
    );
}

#[test]
fn the_session_round_trips_without_runtime_data() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::new(1.0, 0.0, 2.0));
    s.apply(Command::SetOverlay(
        collidoscope::collide::debug_draw::OverlayKind::BvhNodesVisited,
        true,
    ));
    s.apply(Command::Step);
    let text = serde_json::to_string(&s).unwrap();
    let back: EditorState = serde_json::from_str(&text).unwrap();
    assert_eq!(back.probes.len(), 1);
    assert_eq!(back.probes[0].velocity, DVec3::new(1.0, 0.0, 2.0));
    assert_eq!(back.probes[0].settings, s.probes[0].settings);
    assert_eq!(back.overlays, s.overlays);
    assert_eq!(back.camera, s.camera);
    assert!(back.level.is_none() && back.probes[0].stepper.records().is_empty());
    // Older sessions with missing fields still load.
    // Recent files stored as bare paths take the default import options.
    let old: EditorState = serde_json::from_str("{\"recent_files\": [\"/a.obj\"]}").unwrap();
    assert_eq!(old.recent_files.len(), 1);
    assert_eq!(old.recent_files[0].path, PathBuf::from("/a.obj"));
    assert_eq!(old.recent_files[0].options, ImportOptions::default());
    // A view saved before the box cap existed takes the default cap.
    let old_view = r#"{"view": {"wireframe": true, "grid": true, "axes": false,
        "bvh_level_depth": 4, "hover_info": true}}"#;
    let old: EditorState = serde_json::from_str(old_view).unwrap();
    assert!(old.view.wireframe && !old.view.axes && old.view.bvh_level_depth == 4);
    assert_eq!(
        old.view.max_boxes_per_kind,
        collidoscope::collide::debug_draw::DEFAULT_MAX_BOXES_PER_KIND
    );
}

/// One window frame of walk mode at 60 Hz towards `dir`.
mod character;
mod compare;
mod cylinders;
mod engines;
mod files;
mod finding;
mod hygiene;
mod map;
mod methods;
mod pairs;
mod replay;
mod repro;
mod undo;
