//! Undo and redo in the window, typed values refused with their range,
//! and the tools that end with their level, as a designer meets them: a
//! value typed into a field and Enter, Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y and
//! the Edit menu.

use crate::*;

/// The default level with a probe placed on its floor, selected.
fn with_probe() -> Harness<'static, CollidoscopeApp> {
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(3);
    h
}

/// Types `text` into the number field showing `value` (the first one
/// when several do) and presses Enter, as a person would.
fn type_into(h: &mut Harness<'static, CollidoscopeApp>, value: f64, text: &str) {
    let field = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == egui::accesskit::Role::SpinButton
            && n.numeric_value().is_some_and(|v| (v - value).abs() < 1e-9)
    };
    // The panel scrolls: bring the field into view first.
    h.get_by(field).scroll_to_me();
    h.run_steps(10);
    h.get_by(field).click();
    h.run_steps(2);
    h.event(egui::Event::Text(text.to_string()));
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
}

fn position(h: &Harness<'static, CollidoscopeApp>) -> DVec3 {
    h.state().state().probes[0].position
}

#[test]
fn a_typed_move_undoes_with_ctrl_z_and_redoes_with_the_keys_and_the_edit_menu() {
    let mut h = with_probe();
    let start = position(&h);
    type_into(&mut h, (start.x * 1e4).round() / 1e4, "7");
    assert_eq!(position(&h).x, 7.0, "the typed value is taken on Enter");
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Undo move Probe 1");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(position(&h), start, "Ctrl+Z");
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(2);
    assert_eq!(position(&h).x, 7.0, "Ctrl+Shift+Z");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run_steps(2);
    assert_eq!(position(&h).x, 7.0, "Ctrl+Y");
    // The Edit menu, both ways.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Undo move Probe 1").click();
    h.run_steps(2);
    assert_eq!(position(&h), start, "Edit > Undo");
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label_contains("Redo move Probe 1").click();
    h.run_steps(2);
    assert_eq!(position(&h).x, 7.0, "Edit > Redo");
}

#[test]
fn each_kind_of_edit_undoes_in_the_window() {
    let mut h = with_probe();
    let dir = std::env::temp_dir().join(format!("collidoscope_undo_app_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("wide.toml");
    std::fs::write(&settings, "format_version = 1\nradii = [0.5, 0.9, 0.5]\n").unwrap();
    let pole =
        collidoscope::level::cylinder::Cylinder::new(DVec3::new(-3.0, 0.0, 2.0), 0.3, 3.0).unwrap();
    let wider = collidoscope::level::cylinder::Cylinder {
        radius: 0.6,
        ..pole
    };
    let kinds: Vec<(Command, &str)> = vec![
        (Command::Duplicate(0), "duplicate Probe 1"),
        (Command::Delete(1), "delete Probe 1 copy"),
        (
            Command::PlaceCylinder(DVec3::new(-3.0, 0.0, 2.0)),
            "place pole",
        ),
        (Command::UpdateCylinder(0, wider), "edit pole"),
        (Command::DeleteCylinder(0), "delete pole"),
        (
            Command::ImportSettings(settings),
            "import settings into Probe 1",
        ),
        (Command::SetObjectColliding(0, false), "non-colliding"),
        (Command::SetWalk(true), "walk Probe 1"),
    ];
    for (cmd, label) in kinds {
        let before = h.state().state().clone();
        let walking = matches!(cmd, Command::SetWalk(true));
        h.state_mut().push(cmd);
        h.run_steps(2);
        if walking {
            // Walk off with W held down for a while, then stop.
            h.key_down(egui::Key::W);
            for _ in 0..20 {
                h.run_steps(1);
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            h.key_up(egui::Key::W);
            h.run_steps(1);
            h.key_press(egui::Key::Escape);
            h.run_steps(2);
        }
        let after = h.state().state().clone();
        let same = |a: &collidoscope::app::state::EditorState,
                    b: &collidoscope::app::state::EditorState| {
            collidoscope::app::history::Doc::of(a)
                .same_scene(&collidoscope::app::history::Doc::of(b))
        };
        assert!(
            !same(&before, &after),
            "{label}: the edit changed the scene"
        );
        h.get_by_label("Edit").click();
        h.run_steps(2);
        h.get_by(|n| {
            n.role() == egui::accesskit::Role::Button
                && n.label()
                    .is_some_and(|l| l.starts_with("Undo") && l.contains(label))
        })
        .click();
        h.run_steps(2);
        assert!(same(&before, h.state().state()), "{label}: undone");
        h.key_press_modifiers(
            egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
            egui::Key::Z,
        );
        h.run_steps(2);
        assert!(same(&after, h.state().state()), "{label}: redone");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_values_are_refused_with_the_range_and_the_old_value_stays() {
    let mut h = with_probe();
    let steps = h.state().state().history.undo_len();
    let velocity = h.state().state().probes[0].velocity;
    type_into(&mut h, velocity.x, "1e308");
    assert_eq!(
        h.state().state().probes[0].velocity,
        velocity,
        "1e308 is not stored"
    );
    h.get_by_label("Refused: needs -1e9 ≤ v ≤ 1e9 m");
    // NaN is called NaN.
    type_into(&mut h, velocity.x, "NaN");
    assert_eq!(h.state().state().probes[0].velocity, velocity);
    h.get_by_label("Refused: NaN is not a number");
    // The character's frame rate: refused, not clamped to 1000.
    h.get_by_label("Character").click();
    h.run_steps(3);
    type_into(&mut h, 60.0, "1e308");
    let rate = h.state().state().probes[0].settings.character.frame_rate_hz;
    assert_eq!(rate, 60.0, "the old frame rate stays");
    h.get_by_label("Refused: needs 1 ≤ v ≤ 1000 Hz");
    // No long banner anywhere.
    let long = h.query_all_by(|n| n.label().is_some_and(|l| l.chars().count() > 200));
    assert_eq!(long.count(), 0, "no message runs on");
    assert_eq!(
        h.state().state().history.undo_len(),
        steps,
        "refusals are no edits"
    );
    // A good value is taken and clears the line.
    type_into(&mut h, 60.0, "30");
    assert_eq!(
        h.state().state().probes[0].settings.character.frame_rate_hz,
        30.0
    );
    assert!(h.query_by_label("Refused: needs 1 ≤ v ≤ 1000 Hz").is_none());
}

#[test]
fn the_measure_tool_ends_when_the_level_changes() {
    let mut h = with_probe();
    h.get_by_label("Measure").click();
    h.run_steps(2);
    assert!(h.state().measuring());
    let view = h.state().viewport_rect().expect("the view was laid out");
    for p in [view.center(), view.center() + egui::vec2(40.0, 20.0)] {
        h.hover_at(p);
        h.run_steps(1);
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Default::default(),
        });
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: Default::default(),
        });
        h.run_steps(2);
    }
    assert!(h.state().measurement().is_some(), "two points measured");
    h.state_mut().push(Command::OpenBuiltinLevel);
    h.run_steps(3);
    assert!(!h.state().measuring(), "the tool is off");
    assert!(h.state().measurement().is_none(), "its reading is gone");
}

#[test]
fn one_drag_of_a_value_is_one_undo_step() {
    let mut h = with_probe();
    let start = h.state().state().probes[0].velocity;
    let steps = h.state().state().history.undo_len();
    let field = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == egui::accesskit::Role::SpinButton
            && n.numeric_value()
                .is_some_and(|v| (v - start.x).abs() < 1e-9)
    };
    h.get_by(field).scroll_to_me();
    h.run_steps(10);
    let at = h.get_by(field).rect().center();
    h.drag_at(at);
    h.run_steps(1);
    for k in 1..=8 {
        h.hover_at(at + egui::vec2(10.0 * k as f32, 0.0));
        h.run_steps(1);
    }
    h.drop_at(at + egui::vec2(80.0, 0.0));
    h.run_steps(2);
    let dragged = h.state().state().probes[0].velocity;
    assert!(
        dragged.x > start.x,
        "the drag changed the value: {dragged:?}"
    );
    assert_eq!(h.state().state().history.undo_len(), steps + 1, "one step");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state().probes[0].velocity, start);
}

#[test]
fn more_decimals_than_shown_are_refused() {
    let mut h = with_probe();
    let velocity = h.state().state().probes[0].velocity;
    type_into(&mut h, velocity.x, "2.123456");
    assert_eq!(h.state().state().probes[0].velocity, velocity);
    h.get_by_label("Refused: at most 4 decimals");
}

#[test]
fn typing_a_name_is_one_undo_step_not_one_per_keystroke() {
    let mut h = with_probe();
    let steps = h.state().state().history.undo_len();
    let name = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some("Probe 1")
    };
    h.get_by(name).scroll_to_me();
    h.run_steps(10);
    h.get_by(name).click();
    h.run_steps(2);
    for c in ["x", "y", "z"] {
        h.event(egui::Event::Text(c.to_string()));
        h.run_steps(2);
    }
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().state().probes[0].name, "Probe 1xyz");
    assert_eq!(h.state().state().history.undo_len(), steps + 1, "one step");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state().probes[0].name, "Probe 1");
}
