//! The real eframe App driven through egui_kittest (AccessKit), with no
//! display: place a probe on the default level, click Step, and read the
//! inspector. The 3D view needs GL; these tests run without it (the app
//! shows a placeholder there), `gui_snapshot.rs` adds GL where EGL exists.
#![cfg(feature = "gui")]

use collidoscope::app::command::Command;
use collidoscope::app::probes::params_of;
use collidoscope::app::{CollidoscopeApp, Startup};
use collidoscope::character::Phase;
use collidoscope::collide::{TraceDetail, slide};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::DVec3;
use std::path::PathBuf;

fn harness() -> Harness<'static, CollidoscopeApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(|cc| CollidoscopeApp::new(cc, Startup::default()))
}

fn fmt3(v: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// Places a probe in front of the 0.30 m staircase of the default level,
/// walking into it.
fn place_stair_probe(h: &mut Harness<'static, CollidoscopeApp>) {
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(5.0, 0.0, -1.5),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    let app = h.state();
    let i = app.state().selected.expect("the placed probe is selected");
    let mut p = params_of(&app.state().probes[i]);
    p.velocity = DVec3::new(0.0, 0.0, 3.0);
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
}

#[test]
fn clicking_step_shows_iteration_one_in_the_inspector() {
    let mut h = harness();
    h.run_steps(2);
    let level = h
        .state()
        .state()
        .level
        .clone()
        .expect("the default level is loaded");
    assert_eq!(level.name, "default_level.obj");
    place_stair_probe(&mut h);
    h.get_by_label("Step").click();
    h.run_steps(2);

    let probe = h.state().state().probes[0].clone();
    let records = probe.stepper.records();
    assert_eq!(records.len(), 1, "one click, one solver iteration");
    let expected = slide(
        level.world(),
        &probe.settings,
        probe.position,
        probe.velocity,
        TraceDetail::Full,
    )
    .unwrap();
    assert_eq!(
        records[0], expected.iterations[0],
        "the app runs the core solver"
    );

    let rec = &records[0];
    h.get_by_label_contains("Iteration 1 ");
    for text in [
        fmt3(rec.start),
        fmt3(rec.start_espace),
        fmt3(rec.velocity),
        fmt3(rec.end),
    ] {
        assert!(
            h.query_all_by_label(&text).next().is_some(),
            "the inspector shows {text}"
        );
    }
    let hit = rec
        .nearest
        .expect("the first iteration reaches the first riser");
    let toi = format!("t = {:.6}", hit.t);
    assert!(
        h.query_all_by_label_contains(&toi).count() >= 2,
        "the nearest hit and its candidate row show {toi}"
    );
    h.get_by_label_contains(&format!("Candidates ({})", rec.candidates.len()));
}

#[test]
fn keyboard_steps_back_and_runs_to_the_end() {
    let mut h = harness();
    h.run_steps(2);
    place_stair_probe(&mut h);
    h.key_press(egui::Key::N);
    h.run_steps(1);
    h.key_press(egui::Key::N);
    h.run_steps(1);
    assert_eq!(h.state().state().probes[0].stepper.records().len(), 2);
    h.key_press(egui::Key::B);
    h.run_steps(1);
    assert_eq!(h.state().state().probes[0].stepper.cursor(), Some(0));
    h.get_by_label_contains("Iteration 1 ");
    h.key_press(egui::Key::R);
    h.run_steps(2);
    let st = &h.state().state().probes[0].stepper;
    assert!(st.is_complete(), "Run to end drains the solver");
    assert_eq!(st.cursor(), Some(st.records().len() - 1));
    let climbed = st.records().last().unwrap().end.y - h.state().state().probes[0].position.y;
    assert!(
        climbed > 0.25,
        "the move climbs the 0.30 m stairs: {climbed}"
    );
}

#[test]
fn a_failed_load_is_shown_and_keeps_the_level() {
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.state_mut().push(Command::OpenLevel(PathBuf::from(
        "/nowhere/missing_level.obj",
    )));
    for _ in 0..200 {
        h.run_steps(1);
        if !h.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run_steps(2);
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    h.get_by_label_contains("missing_level.obj");
    h.get_by_label_contains("Could not open level");
}

/// A file dropped on the window, as the windowing layer hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file_and_wait(h: &mut Harness<'static, CollidoscopeApp>, path: PathBuf) {
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path)));
    h.run_steps(1);
    for _ in 0..500 {
        h.run_steps(1);
        if !h.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run_steps(2);
}

#[test]
fn dropping_an_obj_opens_it_and_a_broken_one_says_where() {
    let dir = std::env::temp_dir().join(format!("collidoscope_drop_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("dropped_room.obj");
    std::fs::write(
        &good,
        "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\n",
    )
    .unwrap();
    let bad = dir.join("broken.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n").unwrap();

    let mut h = harness();
    h.run_steps(2);
    drop_file_and_wait(&mut h, good.clone());
    let level = h.state().state().level.clone().expect("a level");
    assert_eq!(level.path.as_deref(), Some(good.as_path()));
    assert_eq!(level.mesh().triangle_count(), 2);

    drop_file_and_wait(&mut h, bad);
    // The dropped room stays; the banner names the file and the line.
    let kept = h.state().state().level.clone().unwrap();
    assert!(std::sync::Arc::ptr_eq(&kept, &level));
    h.get_by_label_contains("broken.obj:4");
    let _ = std::fs::remove_dir_all(&dir);
}

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
    h.get_by_label("Checks").click();
    h.run_steps(2);
    h.get_by_label("Run checks").click();
    h.run_steps(1);
    let t = std::time::Instant::now();
    while h.state().state().checks.running() {
        assert!(
            t.elapsed().as_secs() < 120,
            "the checks did not end in time"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
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
    // The second finding's row: click it.
    let f = &report.findings[1];
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
fn a_long_load_can_be_cancelled_and_the_level_stays() {
    // A 300k-triangle floor: long enough to still be loading when clicked.
    let path = std::env::temp_dir().join(format!("collidoscope_big_{}.obj", std::process::id()));
    let n = 390;
    let mut text = String::from("o big\n");
    for i in 0..=n {
        for k in 0..=n {
            text.push_str(&format!("v {i} 0 {k}\n"));
        }
    }
    let at = |i: usize, k: usize| i * (n + 1) + k + 1;
    for i in 0..n {
        for k in 0..n {
            text.push_str(&format!(
                "f {} {} {} {}\n",
                at(i, k),
                at(i, k + 1),
                at(i + 1, k + 1),
                at(i + 1, k)
            ));
        }
    }
    std::fs::write(&path, text).unwrap();
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.state_mut().push(Command::OpenLevel(path.clone()));
    h.run_steps(1);
    assert!(h.state().is_loading(), "the load is under way");
    h.get_by_label("Cancel loading").click();
    h.run_steps(2);
    assert!(!h.state().is_loading());
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    h.get_by_label_contains("cancelled; the level shown stays");
    let _ = std::fs::remove_file(path);
}

/// Waits for a background load to end.
fn wait_for_load(h: &mut Harness<'static, CollidoscopeApp>) {
    for _ in 0..500 {
        h.run_steps(1);
        if !h.state().is_loading() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run_steps(2);
}

/// The in-app path field works with no desktop portal and no zenity (as
/// here): File → Open level… opens it, a bad path is refused with why and
/// the level stays, a real file loads with the options shown.
#[test]
fn the_path_field_opens_a_real_file_and_a_bad_path_says_why() {
    let dir = std::env::temp_dir().join(format!("collidoscope_field_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("typed_room.obj");
    std::fs::write(
        &good,
        "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\n",
    )
    .unwrap();
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("Open level").click();
    h.run_steps(2);
    h.get_by_label_contains("Open level: type a path");
    // A new window is laid out invisibly on its first frames.
    h.run_steps(4);
    h.get_by_label_contains("Will open with: Y up");
    let bad = dir.join("nothing_here.obj").display().to_string();
    let field = h.get_by_role(egui::accesskit::Role::TextInput);
    field.set_text_value_accesskit(&bad);
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(2);
    h.get_by_label_contains("nothing_here.obj: no such file");
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    // A probe on the built-in level, carried to the typed room.
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(5.0, 0.0, -1.5),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    // The path field is the text input holding the refused path.
    let field = h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(bad.as_str())
    });
    field.set_text_value_accesskit(&good.display().to_string());
    h.run_steps(2);
    h.get_by_label("Open").click();
    wait_for_load(&mut h);
    let level = h.state().state().level.clone().unwrap();
    assert_eq!(level.path.as_deref(), Some(good.as_path()));
    assert!(h.state().state().file_prompt.is_none());
    // Off the room's 4 m floor: named, then re-seated onto it.
    h.run_steps(4);
    h.get_by_label_contains("Probe 1 lies outside the level's box");
    h.get_by_label("Re-seat on the floor").click();
    h.run_steps(2);
    let p = &h.state().state().probes[0];
    assert!(
        (0.0..=4.0).contains(&p.position.x) && (0.0..=4.0).contains(&p.position.z),
        "moved onto the room: {:?}",
        p.position
    );
    let gap = p.position.y - p.settings.radii[1];
    assert!((0.0..0.05).contains(&gap), "resting on its floor: {gap}");

    // And back to the built-in level from the File menu.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open built-in level").click();
    h.run_steps(2);
    let level = h.state().state().level.clone().unwrap();
    assert_eq!(level.name, "default_level.obj");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether `text` holds Rust `Debug` output: a CamelCase word
/// (`NoFeatureHit`), a capitalised word right before `(` (`MoveEnded(`),
/// or `inf` as a word.
fn reads_like_debug(text: &str) -> bool {
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        let chars: Vec<char> = word.chars().collect();
        let camel = chars
            .windows(2)
            .any(|w| w[0].is_lowercase() && w[1].is_uppercase());
        let capital_call = c == '(' && chars.first().is_some_and(|f| f.is_uppercase());
        if camel || capital_call || word == "inf" {
            return true;
        }
        word.clear();
    }
    false
}

#[test]
fn the_inspector_speaks_words_at_every_iteration() {
    use egui_kittest::kittest::NodeT;
    assert!(reads_like_debug("Outcome: MoveEnded(Arrived)"));
    assert!(reads_like_debug("miss: NoFeatureHit"));
    assert!(reads_like_debug("[inf, inf, inf]"));
    assert!(!reads_like_debug("Hover info · Y up (Blender)"));
    let mut h = harness();
    h.run_steps(2);
    place_stair_probe(&mut h);
    h.key_press(egui::Key::R);
    h.run_steps(2);
    let n = h.state().state().probes[0].stepper.records().len();
    assert!(n >= 2, "the stair move runs several iterations");
    for i in 0..n {
        h.state_mut().push(Command::Seek(Some(i)));
        h.run_steps(2);
        h.get_by_label_contains(&format!("Iteration {} ", i + 1));
        h.get_by_label_contains("Outcome: ");
        let labels: Vec<String> = h
            .root()
            .children_recursive()
            .filter_map(|n| n.accesskit_node().label())
            .collect();
        assert!(
            labels
                .iter()
                .any(|l| l.contains("missed:") || l.contains("HIT"))
        );
        for l in &labels {
            assert!(!reads_like_debug(l), "iteration {}: {l}", i + 1);
        }
    }
}

#[test]
fn compare_modes_and_what_if_are_driven_from_their_buttons() {
    let mut h = harness();
    h.run_steps(2);
    // The door probe of the CI smoke test: the modes part ways at its
    // first iteration (another triangle of the jamb).
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(1.55, 0.0, 6.2),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    let i = h.state().state().selected.unwrap();
    let mut p = params_of(&h.state().state().probes[i]);
    p.position = DVec3::new(1.55, 0.905, 6.2);
    p.velocity = DVec3::new(0.0, 0.0, 4.0);
    h.state_mut()
        .push(Command::UpdateProbe(i, Box::new(p.clone())));
    h.run_steps(2);
    h.get_by_label("Compare modes").click();
    h.run_steps(2);
    assert!(h.state().state().compare.open);
    // The divergence line steps the probe there.
    h.get_by_label_contains("diverge at #1").click();
    h.run_steps(2);
    assert_eq!(h.state().state().probes[i].stepper.cursor(), Some(0));
    // A settings edit shows the what-if line until dismissed.
    p.settings.skin = 0.02;
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
    h.get_by_label_contains("What-if: skin 0.005 to 0.02");
    h.get_by_label("Dismiss what-if").click();
    h.run_steps(2);
    assert!(h.state().state().compare.whatif.is_none());
    assert!(h.query_by_label("Dismiss what-if").is_none());
    // Off again: the table goes (the plots come back).
    h.get_by_label("Compare modes").click();
    h.run_steps(2);
    assert!(h.state().state().compare.modes.is_none());
    assert!(h.query_by_label_contains("diverge at").is_none());
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
