//! Stepping a probe through its move: the Step button and the keyboard,
//! the inspector's wording at every iteration, and compare modes / what-if.

use crate::*;

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
    let shows = |h: &Harness<'static, CollidoscopeApp>, text: &str| {
        h.query_all_by_label(text).next().is_some()
    };
    for text in [fmt3(rec.start), fmt3(rec.velocity), fmt3(rec.end)] {
        assert!(shows(&h, &text), "the inspector shows {text}");
    }
    // One space at a time: ellipsoid space on request.
    assert!(!shows(&h, &fmt3(rec.start_espace)));
    h.get_by_label("ellipsoid space").click();
    h.run_steps(2);
    for text in [fmt3(rec.start_espace), fmt3(rec.end_espace)] {
        assert!(
            shows(&h, &text),
            "the inspector shows {text} in ellipsoid space"
        );
    }
    assert!(!shows(&h, &fmt3(rec.start)));
    h.get_by_label("world (m)").click();
    h.run_steps(2);
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

/// A paper-mode move whose centre goes through a triangle it never hit:
/// the inspector says so at the iteration that did it, and why.
#[test]
fn a_tunnel_in_a_paper_mode_is_shown_in_the_inspector_with_its_cause() {
    let mut h = harness();
    h.run_steps(2);
    let slab = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sloped_slab.obj"
    ));
    h.state_mut().push(Command::OpenLevel(slab));
    wait_for_load(&mut h);
    assert_eq!(
        h.state().state().level.as_ref().unwrap().name,
        "sloped_slab.obj"
    );
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(0.0, 0.0, 0.0),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    let app = h.state();
    let i = app.state().selected.expect("the placed probe is selected");
    let mut p = params_of(&app.state().probes[i]);
    // A thin probe dropped through the slab (the example in docs/stuck.md).
    p.position = DVec3::new(0.0, 3.5, 0.0);
    p.velocity = DVec3::new(0.0, -3.0, 0.0);
    p.settings.radii = [0.05, 0.9, 0.05];
    p.settings.mode = collidoscope::collide::SlideMode::Nettle2000;
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
    h.get_by_label("Step").click();
    h.run_steps(2);
    let records = h.state().state().probes[i].stepper.records().to_vec();
    let tunnel = records[0].tunnel.expect("the first iteration tunnels");
    h.get_by_label_contains(&format!(
        "TUNNEL: on the way the centre went through triangle {}",
        tunnel.triangle
    ));
    h.get_by_label_contains("Why: a miss of nettle2000's method at the plane intersection point");
}
