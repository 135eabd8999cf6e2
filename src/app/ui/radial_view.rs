//! The inspector's rows for the radial method (seed document 002): the
//! cylinders a step entered with their push-outs, the poles it went
//! through, and the comparison with the swept ellipsoid. World space.

use super::widgets::fmt3;
use crate::methods::radial::RadialStep;
use crate::methods::radial_compare::RadialComparison;
use eframe::egui;

/// The comparison's sentence, in the warning colour when the two disagree.
pub(super) fn comparison_line(ui: &mut egui::Ui, cmp: &RadialComparison) {
    let text = egui::RichText::new(format!("Beside the swept ellipsoid: {}", cmp.sentence()));
    let text = if cmp.disagree {
        text.color(ui.visuals().warn_fg_color)
    } else {
        text
    };
    ui.add(egui::Label::new(text).wrap())
        .on_hover_text("The same move by collide-and-slide against the cylinders' 16-sided prisms (and the level), without gravity");
}

/// One step's push-outs.
pub(super) fn radial_rows(ui: &mut egui::Ui, r: &RadialStep) {
    for c in &r.passed_through {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!("Passed through pole {c}: the step jumped past it, both ends outside"),
        );
    }
    for c in &r.pushed_through {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "Pushed through pole {c}: the sample landed past its axis, pushed out the far side"
            ),
        );
    }
    if r.entered.is_empty() {
        ui.label("Inside no cylinder at the sample.");
    } else {
        egui::Grid::new("radial_hits")
            .num_columns(3)
            .striped(true)
            .show(ui, |ui| {
                ui.label("pole");
                ui.label("depth");
                ui.label("push-out");
                ui.end_row();
                for h in &r.entered {
                    ui.monospace(h.cylinder.to_string());
                    ui.monospace(format!("{:.4} m", h.depth));
                    ui.monospace(fmt3(h.push));
                    ui.end_row();
                }
            });
        ui.label(format!("sample {}", fmt3(r.sample)));
        ui.label(format!("total push (summed) {}", fmt3(r.push_total)));
    }
    if !r.inside_after.is_empty() {
        let list: Vec<String> = r.inside_after.iter().map(u32::to_string).collect();
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "Still inside pole {} after the push-out (the pushes of overlapping poles add up)",
                list.join(", ")
            ),
        );
    }
}
