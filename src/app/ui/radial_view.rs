//! The inspector's rows for the radial method (seed document 002): the
//! cylinders a step entered with their push-outs, the poles it went
//! through, and the comparison with the swept ellipsoid. World space.

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
        red(
            ui,
            format!("Passed through pole {c}: the step jumped past it, both ends outside"),
        );
    }
    for c in &r.pushed_through {
        red(
            ui,
            format!(
                "Pushed through pole {c}: the sample landed past its axis, pushed out the far side"
            ),
        );
    }
    if r.entered.is_empty() {
        ui.label("Inside no cylinder at the sample.");
    }
    for h in &r.entered {
        let text = format!(
            "Inside pole {} by {:.4} m: pushed {}",
            h.cylinder,
            h.depth,
            short(h.push)
        );
        ui.add(egui::Label::new(text).wrap());
    }
    if r.entered.len() > 1 {
        let text = format!("Pushes summed: {}", short(r.push_total));
        ui.add(egui::Label::new(text).wrap());
    }
    if !r.inside_after.is_empty() {
        let list: Vec<String> = r.inside_after.iter().map(u32::to_string).collect();
        red(
            ui,
            format!(
                "Still inside pole {} after the push-out (the pushes of overlapping poles add up)",
                list.join(", ")
            ),
        );
    }
}

/// A wrapped line in the error colour (the inspector is narrow).
fn red(ui: &mut egui::Ui, text: String) {
    let color = ui.visuals().error_fg_color;
    ui.add(egui::Label::new(egui::RichText::new(text).color(color)).wrap());
}

/// `(x, y, z)` to the millimetre, short enough for the inspector's width.
fn short(v: glam::DVec3) -> String {
    format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z)
}
