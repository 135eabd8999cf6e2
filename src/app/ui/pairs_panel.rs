//! The inspector's "Probes moved together" section: the last run of every
//! probe's move at once, one row per pair the sort along x passed on (time
//! of first contact, closest approach), world space, metres.

use super::CollidoscopeApp;
use crate::app::pairs::PairsView;
use crate::geometry::sphere_sphere::SphereSweepOutcome;
use eframe::egui;

/// The section, when a run exists.
pub fn show(ui: &mut egui::Ui, app: &CollidoscopeApp) {
    let Some(view) = app.state.pairs.as_ref() else {
        return;
    };
    egui::CollapsingHeader::new("Probes moved together")
        .default_open(true)
        .show(ui, |ui| rows(ui, view));
    ui.separator();
}

fn rows(ui: &mut egui::Ui, view: &PairsView) {
    let r = &view.report;
    ui.label(format!(
        "{} probes, {} pairs: {} tested after the sort along x, {} touch (bounding spheres).",
        r.probe_count, r.pair_count, r.tested_count, r.colliding_count
    ));
    // One wrapped line per pair: the panel is narrow and must not widen.
    egui::ScrollArea::vertical()
        .id_salt("pairs_rows")
        .max_height(180.0)
        .show(ui, |ui| {
            for p in &r.pairs {
                let names = format!("{} × {}", view.probes[p.a].name, view.probes[p.b].name);
                let contact = match p.outcome {
                    SphereSweepOutcome::Overlapping => "overlapping at the start".to_string(),
                    SphereSweepOutcome::Hit { t } => format!("contact at t = {t:.3}"),
                    SphereSweepOutcome::Miss { .. } => "no contact".to_string(),
                };
                let c = &p.closest;
                let closest = if c.gap < 0.0 {
                    format!("overlap {:.2} m", -c.gap)
                } else {
                    format!("{:.2} m apart", c.gap)
                };
                ui.label(format!(
                    "{names}: {contact}; closest {closest} at t = {:.2}",
                    c.t
                ));
            }
        });
}
