//! Layout promises of the window, checked on the real App with no display
//! (egui_kittest): at the default 1280 × 800 the 3D view keeps most of the
//! window, stepping never moves it, shrinking the window to almost nothing
//! and back restores it, and the labels of a stepped contact never overlap.
#![cfg(feature = "gui")]

use collidoscope::app::command::Command;
use collidoscope::app::probes::params_of;
use collidoscope::app::{CollidoscopeApp, Startup};
use eframe::egui;
use egui_kittest::Harness;
use glam::DVec3;

/// The window size a designer sees first.
const DEFAULT_WINDOW: egui::Vec2 = egui::vec2(1280.0, 800.0);

fn harness() -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size(DEFAULT_WINDOW)
        .build_eframe(|cc| CollidoscopeApp::new(cc, Startup::default()));
    h.run_steps(3);
    h
}

/// A probe in front of the 0.60 m door of the built-in level (the wall at
/// z = 8, its opening from x = 1.5 to 2.1), offset so that it runs into the
/// left jamb: a contact with every label of the stepper.
fn door_probe(h: &mut Harness<'static, CollidoscopeApp>) {
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(1.55, 0.0, 6.2),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    let app = h.state();
    let i = app.state().selected.expect("the placed probe is selected");
    let mut p = params_of(&app.state().probes[i]);
    p.velocity = DVec3::new(0.0, 0.0, 4.0);
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
}

fn viewport(h: &Harness<'static, CollidoscopeApp>) -> egui::Rect {
    h.state()
        .viewport_rect()
        .expect("the viewport was laid out")
}

#[test]
fn the_view_keeps_most_of_the_window_and_stepping_never_moves_it() {
    let mut h = harness();
    door_probe(&mut h);
    let before = viewport(&h);
    assert!(
        before.width() >= 0.6 * DEFAULT_WINDOW.x,
        "the view is {} of {} points wide",
        before.width(),
        DEFAULT_WINDOW.x
    );
    for cmd in [
        Command::Step,
        Command::Step,
        Command::StepBack,
        Command::RunToEnd,
        Command::Reset,
        Command::Step,
    ] {
        let name = format!("{cmd:?}");
        h.state_mut().push(cmd);
        h.run_steps(3);
        assert_eq!(viewport(&h), before, "the view moved after {name}");
    }
    let probe = &h.state().state().probes[0];
    assert!(
        probe.stepper.current_record().is_some(),
        "the inspector shows a record"
    );
}

#[test]
fn shrinking_the_window_and_back_restores_the_panels() {
    let mut h = harness();
    door_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(3);
    let before = viewport(&h);
    h.set_size(egui::vec2(320.0, 240.0));
    h.run_steps(3);
    h.set_size(DEFAULT_WINDOW);
    h.run_steps(3);
    let after = viewport(&h);
    assert_eq!(after, before, "the view and the panels around it came back");
    let plots_height = DEFAULT_WINDOW.y - after.bottom();
    assert!(
        plots_height >= 180.0,
        "the stepper and plots keep {plots_height} points"
    );
}

#[test]
fn labels_of_a_stepped_contact_never_overlap() {
    let mut h = harness();
    door_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(3);
    let rec = h.state().state().probes[0]
        .stepper
        .current_record()
        .cloned()
        .expect("one iteration ran");
    assert!(rec.nearest.is_some(), "the probe hits the door's jamb");
    let cards = h.state().label_cards().to_vec();
    assert!(
        cards.len() >= 3,
        "the contact's labels and the probe's name are drawn: {cards:?}"
    );
    let view = viewport(&h);
    for (i, a) in cards.iter().enumerate() {
        assert!(view.contains_rect(*a), "{a:?} leaves the view {view:?}");
        for b in &cards[i + 1..] {
            assert!(!a.intersect(*b).is_positive(), "{a:?} overlaps {b:?}");
        }
    }
}

#[test]
fn the_legends_swatches_are_the_colours_the_view_draws() {
    let mut h = harness();
    door_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(3);
    let app = h.state();
    let drawn = app.drawn_overlays();
    assert!(drawn.len() > 5, "a stepped contact draws overlays");
    let swatches = app.legend_swatches();
    assert!(!swatches.is_empty(), "the legend was shown");
    for p in drawn {
        let (_, colors, more) = swatches
            .iter()
            .find(|(kind, _, _)| *kind == p.kind)
            .unwrap_or_else(|| panic!("{:?} has no legend entry", p.kind));
        let rgb = [p.color[0], p.color[1], p.color[2], 1.0];
        assert!(
            colors.contains(&rgb) || *more,
            "{:?} is drawn in {rgb:?} but its swatches are {colors:?}",
            p.kind
        );
    }
}
