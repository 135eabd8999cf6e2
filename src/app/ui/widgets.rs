//! Small shared widgets: vector editors with units, colour swatches and
//! number formatting for the inspector.

use eframe::egui;
use glam::DVec3;

/// Converts an RGBA float colour to egui's.
pub fn color32(c: [f32; 4]) -> egui::Color32 {
    egui::Rgba::from_rgba_unmultiplied(c[0], c[1], c[2], c[3]).into()
}

/// A filled square in `color`, for legends.
pub fn swatch(ui: &mut egui::Ui, color: [f32; 4]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, color32(color));
}

/// Three drag values (x, y, z) with a unit suffix; `true` when edited.
pub fn vec3_edit(ui: &mut egui::Ui, v: &mut DVec3, speed: f64, suffix: &str) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        for (axis, c) in ["x", "y", "z"].iter().zip([&mut v.x, &mut v.y, &mut v.z]) {
            changed |= ui
                .add(
                    egui::DragValue::new(c)
                        .speed(speed)
                        .prefix(format!("{axis} "))
                        .suffix(suffix)
                        .max_decimals(4),
                )
                .changed();
        }
    });
    changed
}

/// `(x, y, z)` with 4 decimals.
pub fn fmt3(v: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// A world / ellipsoid-space pair row in an inspector grid.
pub fn pair_row(ui: &mut egui::Ui, label: &str, world: DVec3, espace: DVec3) {
    ui.label(label);
    ui.monospace(fmt3(world));
    ui.monospace(fmt3(espace));
    ui.end_row();
}

/// An optional pair row (shows "—" when absent).
pub fn opt_pair_row(ui: &mut egui::Ui, label: &str, world: Option<DVec3>, espace: Option<DVec3>) {
    match (world, espace) {
        (Some(w), Some(e)) => pair_row(ui, label, w, e),
        _ => {
            ui.label(label);
            ui.label("—");
            ui.label("—");
            ui.end_row();
        }
    }
}
