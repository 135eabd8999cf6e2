//! The character in the window's state: walk mode on the character
//! model, reopened frames stepped phase by phase, character settings
//! edits, and the level checks run, filtered, opened and cancelled.

use super::*;

fn walk_input(dir: DVec3) -> WalkInput {
    WalkInput {
        wish_dir: dir,
        jump: false,
        dt: 1.0 / 60.0,
    }
}

#[test]
fn walk_mode_climbs_the_stairs_and_frames_reopen_phase_by_phase() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, 0.0, DVec3::ZERO);
    let mut p = params_of(&s.probes[i]);
    p.settings.radii = [0.3, 0.5, 0.3];
    // Gravity per raw move, which the character must neither use nor lose.
    p.settings.gravity = [0.0, -0.25, 0.0];
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    let settings = s.probes[i].settings.clone();
    let velocity = s.probes[i].velocity;
    s.apply(Command::SetWalk(true));
    assert!(s.walk.active);
    // 1.5 s at 5 m/s: over the four 0.2 m stairs (z 2 to 3.6) and down.
    for _ in 0..90 {
        assert!(walk_frame(&mut s, walk_input(DVec3::Z)));
    }
    assert_eq!(s.walk.frames.len(), 90, "one character frame per 1/60 s");
    let end = s.probes[i].position;
    assert!(end.z > 6.5, "walked forward over the stairs: {end:?}");
    // Standing on the floor the centre is at ry = 0.5; the top step is 0.8 high.
    let top = s
        .walk
        .frames
        .iter()
        .map(|f| f.end().y)
        .fold(f64::MIN, f64::max);
    assert!(top > 0.5 + 0.75, "climbed to the top step: highest {top}");
    assert!((end.y - 0.5).abs() < 0.05, "back on the floor: {end:?}");
    let stepped: Vec<usize> = (0..s.walk.frames.len())
        .filter(|&k| matches!(s.walk.frames[k].step, StepOutcome::Stepped { .. }))
        .collect();
    assert!(!stepped.is_empty(), "the stairs are climbed by step-ups");
    assert_eq!(
        s.probes[i].settings, settings,
        "walking leaves the settings"
    );

    // Reopen a frame that stepped up: the stepper steps it phase by phase
    // and its outcome is the walk's, exactly.
    let k = stepped[0];
    let frame = s.walk.frames[k].clone();
    s.apply(Command::OpenWalkFrame(k));
    assert!(!s.walk.active, "opening a frame stops walking");
    let p = &s.probes[i];
    assert_eq!(p.settings, settings, "reopening leaves the settings");
    assert_eq!(p.velocity, velocity, "reopening leaves the velocity");
    let st = &p.stepper;
    assert!(st.is_complete());
    assert_eq!(st.cursor(), Some(0));
    assert_eq!(st.frame().map(|f| f.index), Some(frame.spec.index));
    assert_eq!(st.records().len(), frame.iterations);
    assert_eq!(st.phases().len(), st.records().len());
    assert_eq!(st.phases()[0], Phase::Velocity);
    for phase in [Phase::StepUp, Phase::StepForward, Phase::StepDown] {
        assert!(
            st.phases().contains(&phase),
            "{phase:?} in {:?}",
            st.phases()
        );
    }
    let rec = st.frame_record().expect("the frame's outcome");
    assert_eq!(rec.after, frame.after, "the replay is exact");
    assert!(matches!(rec.step, StepOutcome::Stepped { .. }));
    assert_eq!(p.shown_center(), st.records()[0].end);

    // Step back to the start, then step again one phase iteration at a time.
    s.apply(Command::StepBack);
    s.apply(Command::StepBack);
    assert_eq!(s.probes[i].stepper.cursor(), None);
    assert_eq!(s.probes[i].shown_center(), frame.start());
    s.apply(Command::Step);
    assert_eq!(s.probes[i].stepper.current_phase(), Some(Phase::Velocity));
    // Reset reruns the same frame, not the probe's raw move.
    s.apply(Command::Reset);
    s.apply(Command::RunToEnd);
    let st = &s.probes[i].stepper;
    assert_eq!(st.frame_record().map(|r| r.after), Some(frame.after));
    assert_eq!(s.probes[i].settings, settings);
}

#[test]
fn walk_mode_crosses_the_default_level_floor_at_the_character_speed() {
    let (mesh, report) = collidoscope::level::import::import_obj_bytes(
        collidoscope::app::DEFAULT_LEVEL_OBJ,
        std::path::Path::new(collidoscope::app::DEFAULT_LEVEL_NAME),
        &ImportOptions::default(),
    )
    .unwrap();
    let mut level = Level::from_mesh("default", mesh);
    level.report = report;
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(Arc::new(level)));
    // The open strip in front of the staircases (z < 0), walking along +x.
    let i = place(&mut s, -3.0, -2.0, DVec3::new(1.0, 0.0, 0.0));
    let settings = s.probes[i].settings.clone();
    let start = s.probes[i].position;
    s.apply(Command::SetWalk(true));
    // One window frame of a stalled window runs at most a few frames.
    assert!(walk_frame(
        &mut s,
        WalkInput {
            dt: 5.0,
            ..walk_input(DVec3::ZERO)
        }
    ));
    assert_eq!(
        s.walk.frames.len(),
        MAX_FRAMES_PER_UPDATE as usize,
        "a stall runs a few frames and drops the rest of its time"
    );
    assert_eq!(s.walk.pending_s, 0.0);
    // 2 s at 60 Hz, half of it as 1/30 s window frames (two frames each).
    for _ in 0..30 {
        assert!(walk_frame(
            &mut s,
            WalkInput {
                dt: 1.0 / 30.0,
                ..walk_input(DVec3::X)
            }
        ));
    }
    for _ in 0..60 {
        assert!(walk_frame(&mut s, walk_input(DVec3::X)));
    }
    assert_eq!(s.walk.frames.len(), 120 + MAX_FRAMES_PER_UPDATE as usize);
    let end = s.probes[i].position;
    let speed = settings.character.walk_speed_m_s;
    assert!(
        (end.x - start.x - 2.0 * speed).abs() < 0.05,
        "2 s at {speed} m/s: from {start:?} to {end:?}"
    );
    assert!(
        (end.y - start.y).abs() < 0.02,
        "stays on the floor: {end:?}"
    );
    assert!((end.z - start.z).abs() < 1e-6);
    assert!(s.walk.frames.iter().skip(2).all(|f| f.after.grounded));
    assert_eq!(s.probes[i].settings, settings);
    // A jump leaves the floor and comes back down.
    assert!(walk_frame(
        &mut s,
        WalkInput {
            jump: true,
            ..walk_input(DVec3::ZERO)
        }
    ));
    assert!(s.walk.frames.back().unwrap().jumped);
    assert!(s.probes[i].position.y > end.y);
    for _ in 0..120 {
        walk_frame(&mut s, walk_input(DVec3::ZERO));
    }
    assert!((s.probes[i].position.y - end.y).abs() < 0.02);
    assert!(s.walk.grounded());
}

#[test]
fn invalid_character_settings_are_refused_with_the_field_named() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let before = s.probes[i].settings.clone();
    for (edit, field) in [
        (
            (|c: &mut CharacterSettings| c.frame_rate_hz = 0.0) as fn(&mut CharacterSettings),
            "frame_rate_hz",
        ),
        (|c| c.max_slope_deg = 90.0, "max_slope_deg"),
        (|c| c.walk_speed_m_s = -1.0, "walk_speed_m_s"),
        (|c| c.max_fall_speed_m_s = f64::NAN, "max_fall_speed_m_s"),
    ] {
        let mut p = params_of(&s.probes[i]);
        edit(&mut p.settings.character);
        s.apply(Command::UpdateProbe(i, Box::new(p)));
        assert_eq!(s.probes[i].settings, before, "{field}: refused");
        let status = s.status.clone().unwrap();
        assert_eq!(status.severity, Severity::Error);
        assert!(status.text.contains(field), "{}", status.text);
        assert!(s.settings_error.as_ref().unwrap().contains(field));
    }
    // A valid edit is taken and clears the message.
    let mut p = params_of(&s.probes[i]);
    p.settings.character.max_step_height_m = 0.45;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert_eq!(s.probes[i].settings.character.max_step_height_m, 0.45);
    assert!(s.settings_error.is_none());
}

fn default_level_state() -> EditorState {
    let (mesh, report) = collidoscope::level::import::import_obj_bytes(
        collidoscope::app::DEFAULT_LEVEL_OBJ,
        std::path::Path::new(collidoscope::app::DEFAULT_LEVEL_NAME),
        &ImportOptions::default(),
    )
    .unwrap();
    let mut level = Level::from_mesh("default", mesh);
    level.report = report;
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(Arc::new(level)));
    s
}

/// Polls the checks as the window does each frame until they end.
fn wait_for_checks(s: &mut EditorState) {
    let t = std::time::Instant::now();
    while s.poll_checks() {
        assert!(
            t.elapsed().as_secs() < 120,
            "the checks did not end in time"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn checks_run_in_the_background_and_filter_by_kind_and_verdict() {
    let mut s = default_level_state();
    assert!(s.probes.is_empty());
    s.apply(Command::RunChecks);
    assert!(s.checks.running());
    wait_for_checks(&mut s);
    let report = s.checks.report().expect("the default level has findings");
    let n = report.findings.len();
    assert!(n > 5, "{n} findings");
    let c = report.counts;
    assert_eq!(c.climbs + c.passes + c.blocked + c.stalls + c.untested, n);
    assert!(c.blocked > 0, "the built-in level has a step too tall");
    assert!(c.climbs > 0);
    assert_eq!(s.checks.visible().len(), n, "everything is listed at first");
    // Only the blocked steps.
    let f = ChecksFilter {
        kinds: [true, false, false, false],
        verdicts: [false, false, true, false, false],
        marginal_only: false,
        differing_only: false,
    };
    s.apply(Command::SetChecksFilter(f));
    let shown = s.checks.visible();
    let report = s.checks.report().unwrap();
    assert!(!shown.is_empty());
    let expected = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Step && f.verdict == Verdict::Blocked)
        .count();
    assert_eq!(shown.len(), expected);
    // A new level drops the results.
    s.apply(Command::LevelLoaded(room()));
    assert!(s.checks.report().is_none() && s.checks.open.is_none());
}

#[test]
fn opening_a_finding_opens_its_stalling_frame_without_changing_probe_settings() {
    let mut s = default_level_state();
    let i = place(&mut s, -3.0, -2.0, DVec3::X);
    let mut params = params_of(&s.probes[i]);
    params.settings.character.max_step_height_m = 0.32;
    s.apply(Command::UpdateProbe(i, Box::new(params)));
    let before = params_of(&s.probes[i]);
    s.apply(Command::RunChecks);
    wait_for_checks(&mut s);
    let (report, used) = s.checks.report.clone().unwrap();
    assert_eq!(
        used, before.settings,
        "the checks use the selected probe's settings"
    );
    let k = report
        .findings
        .iter()
        .position(|f| f.verdict == Verdict::Blocked && f.feature.kind == FeatureKind::Step)
        .expect("a blocked step");
    let finding = &report.findings[k];
    let camera = s.camera;
    s.apply(Command::OpenFinding(k));
    let open = s.checks.open.as_ref().expect("the finding is open");
    assert_eq!(open.index, k);
    let failed = finding.walks.iter().find(|w| !w.passed).unwrap();
    assert_eq!(open.walk.summary, failed.summary, "the same walk, replayed");
    let stalled = failed.summary.stalled_at_frame.map(|f| f as usize);
    assert_eq!(
        Some(open.frame),
        stalled.or(Some(open.walk.frames.len() - 1)),
        "opened where it stalls"
    );
    let p = &s.probes[i];
    let frame = p.stepper.frame().expect("a character frame in the stepper");
    assert_eq!(frame.index as usize, open.frame);
    assert_eq!(frame.state, open.walk.frames[open.frame].before);
    assert!(p.stepper.frame_record().is_some(), "the frame has run");
    // Its outcome is the walk's frame.
    assert_eq!(
        p.stepper.frame_record().unwrap().after,
        open.walk.frames[open.frame].after
    );
    assert_eq!(params_of(p), before, "the probe's parameters are untouched");
    assert_ne!(s.camera, camera, "the camera frames the finding");
    assert!(
        !open.section.segments.is_empty(),
        "the section cuts the stairs"
    );
}

#[test]
fn opening_a_finding_with_no_probe_makes_one() {
    let mut s = default_level_state();
    s.apply(Command::RunChecks);
    wait_for_checks(&mut s);
    s.apply(Command::OpenFinding(0));
    assert_eq!(s.probes.len(), 1);
    assert_eq!(s.selected, Some(0));
    let p = &s.probes[0];
    assert_eq!(
        p.settings,
        collidoscope::collide::SlideSettings::default(),
        "the checks ran with the defaults"
    );
    assert!(p.stepper.frame().is_some());
}

#[test]
fn cancelling_the_checks_keeps_the_level_and_leaves_no_results() {
    let mut s = default_level_state();
    let level = s.level.clone().unwrap();
    s.apply(Command::RunChecks);
    s.apply(Command::CancelChecks);
    assert!(!s.checks.running());
    // Whatever the thread was doing, nothing arrives afterwards.
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!s.poll_checks());
    assert!(s.checks.report().is_none());
    assert!(Arc::ptr_eq(s.level.as_ref().unwrap(), &level));
    // And they run again afterwards.
    s.apply(Command::RunChecks);
    wait_for_checks(&mut s);
    assert!(s.checks.report().is_some());
}

#[test]
fn a_level_with_no_walkable_floor_says_so() {
    let mut b = MeshBuilder::new();
    // One wall and nothing to stand on.
    b.object("wall").quad(
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 3.0, 0.0),
        Vec3::new(0.0, 3.0, 4.0),
        Vec3::new(0.0, 0.0, 4.0),
    );
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(Arc::new(Level::from_mesh(
        "wall",
        b.build(),
    ))));
    s.apply(Command::RunChecks);
    wait_for_checks(&mut s);
    assert!(s.checks.report().is_none());
    let e = s.checks.error.clone().expect("an error message");
    assert!(e.contains("no walkable floor"), "{e}");
}
