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

mod checks;
mod files;
mod first_sight;
mod pages;
mod stepping;
mod undo;
mod views;

fn harness() -> Harness<'static, CollidoscopeApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_eframe(|cc| CollidoscopeApp::new(cc, Startup::default()))
}

/// Waits for a background load (a level being opened) to end.
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

/// Opens the Checks page, runs the checks on the loaded level and waits
/// for them to end (at most two minutes).
fn run_checks(h: &mut Harness<'static, CollidoscopeApp>) {
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
