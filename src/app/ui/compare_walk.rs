//! The walk part of the Compare modes table: the recorded walk-mode
//! frames replayed in every mode, the first frame where the characters
//! part ways (a click opens it in the stepper, where its iterations are
//! compared), and the frames around it with each mode's end.

use super::{CollidoscopeApp, widgets};
use crate::analysis::compare_walk::WalkFrameRow;
use crate::app::command::Command;
use crate::app::compare::mode_color;
use crate::app::compare_walk::WalkModes;
use crate::collide::SlideMode;
use eframe::egui;

/// Frames listed before the divergence (for context) and from it on.
const ROWS_BEFORE: usize = 2;
const ROWS_FROM: usize = 8;

/// The walk section.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp, w: &WalkModes) {
    let c = &w.comparison;
    ui.horizontal_wrapped(|ui| {
        ui.strong("Walk");
        let skipped = if c.skipped > 0 {
            format!(
                " (the last {}; {} earlier left out)",
                c.rows.len(),
                c.skipped
            )
        } else {
            String::new()
        };
        ui.label(format!(
            "{} recorded frames replayed in every mode{skipped}:",
            c.rows.len()
        ));
        match c.divergence {
            None => {
                ui.label("the characters agree on every frame");
            }
            Some(d) => {
                let row = &c.rows[d];
                let text = format!("diverge at frame {}: {}", row.index, differs(row));
                let warn = ui.visuals().warn_fg_color;
                if ui
                    .link(egui::RichText::new(text).color(warn).strong())
                    .on_hover_text("Open this frame in the stepper (its iterations compared below)")
                    .clicked()
                {
                    app.queue.push(Command::OpenWalkFrame(w.recorded_frame(d)));
                }
            }
        }
    });
    let (from, to) = match c.divergence {
        Some(d) => (
            d.saturating_sub(ROWS_BEFORE),
            (d + ROWS_FROM).min(c.rows.len()),
        ),
        None => (c.rows.len().saturating_sub(ROWS_BEFORE + 1), c.rows.len()),
    };
    egui::Grid::new("compare_walk_grid")
        .num_columns(c.modes.len() + 2)
        .striped(true)
        .show(ui, |ui| {
            ui.strong("frame");
            for mode in &c.modes {
                ui.strong(format!("{} end", mode.name()));
            }
            ui.strong("ends apart");
            ui.end_row();
            for (k, row) in c.rows.iter().enumerate().take(to).skip(from) {
                frame_row(ui, app, w, k, row, &c.modes);
            }
        });
}

fn frame_row(
    ui: &mut egui::Ui,
    app: &mut CollidoscopeApp,
    w: &WalkModes,
    k: usize,
    row: &WalkFrameRow,
    modes: &[SlideMode],
) {
    let mut label = egui::RichText::new(format!("{}", row.index)).monospace();
    if w.comparison.divergence == Some(k) {
        label = label.color(ui.visuals().warn_fg_color).strong();
    }
    if ui
        .selectable_label(false, label)
        .on_hover_text("Open this frame in the stepper")
        .clicked()
    {
        app.queue.push(Command::OpenWalkFrame(w.recorded_frame(k)));
    }
    for (end, mode) in row.ends.iter().zip(modes) {
        let text = format!(
            "{} {}",
            widgets::fmt3(end.position),
            if end.grounded { "ground" } else { "air" }
        );
        ui.label(
            egui::RichText::new(text)
                .monospace()
                .color(widgets::opaque(mode_color(*mode))),
        );
    }
    ui.monospace(format!("{:.4} m", row.end_spread_m));
    ui.end_row();
}

/// What differs at a frame, in words.
fn differs(row: &WalkFrameRow) -> String {
    let mut parts = Vec::new();
    if row.grounded_differs {
        parts.push("on ground in one mode, in the air in another".to_string());
    }
    parts.push(format!("ends {:.4} m apart", row.end_spread_m));
    parts.join("; ")
}
