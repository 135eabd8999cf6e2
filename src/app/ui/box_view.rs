//! The inspector rows of a box camera step (seed document 004's four
//! levels): how many triangles each level rejected, and for every triangle
//! that reached level 3 the level that rejected it or its intersection
//! points (world space, metres).

use crate::analysis::boxcam::BoxCamReport;
use eframe::egui;

/// The rows for one step's report.
pub fn box_rows(ui: &mut egui::Ui, r: &BoxCamReport) {
    ui.separator();
    ui.label(format!(
        "Box camera: rejected at level 1 (object box) {}, 2 (triangle box) {}, \
         3 (edge boxes) {}, 4 (segment vs triangle) {}; {} collide.",
        r.rejected[0], r.rejected[1], r.rejected[2], r.rejected[3], r.colliding
    ));
    if r.triangles.is_empty() {
        return;
    }
    egui::Grid::new("box_triangles")
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            ui.strong("Triangle");
            ui.strong("Level / points");
            ui.end_row();
            for t in &r.triangles {
                ui.monospace(t.triangle.to_string());
                let verdict = match t.rejected_at {
                    Some(level) => format!("rejected at level {}", level.number()),
                    None => t
                        .hits
                        .iter()
                        .map(|h| {
                            format!(
                                "edge {}: ({:.2}, {:.2}, {:.2})",
                                h.edge, h.point.x, h.point.y, h.point.z
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("\n"),
                };
                ui.label(verdict);
                ui.end_row();
            }
        });
}
