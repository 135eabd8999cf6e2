//! Plots (egui_plot): per move, the distance remaining and the time of
//! impact per iteration; the section along the walk (`section`: the level
//! cut, the ellipsoid, the path, the measured height); per level, the
//! triangles-per-leaf histogram of the BVH.

use super::CollidoscopeApp;
use crate::collide::{IterationRecord, Pass};
use eframe::egui::{self, Color32};
use egui_plot::{
    AxisHints, Bar, BarChart, Legend, Line, Plot, PlotPoints, Points, VLine, uniform_grid_spacer,
};

/// Per iteration (1-based x) of `pass`: distance from the end to the
/// destination, metres. The velocity and gravity passes are separate
/// series: the gravity pass starts a new, short move, and one line through
/// both would show a jump that no iteration made.
pub fn remaining_series(records: &[IterationRecord], pass: Pass) -> Vec<[f64; 2]> {
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| r.pass == pass)
        .map(|(i, r)| [(i + 1) as f64, (r.destination - r.end).length()])
        .collect()
}

/// Per iteration (1-based x): time of impact of the nearest hit, 1 when nothing was hit.
pub fn toi_series(records: &[IterationRecord]) -> Vec<[f64; 2]> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| [(i + 1) as f64, r.nearest.map_or(1.0, |h| h.t)])
        .collect()
}

/// A plot's frame with a line saying why it is empty, instead of axes that
/// pan over nothing.
pub(super) fn empty_plot(ui: &mut egui::Ui, w: f32, h: f32, why: &str) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::hover());
    let visuals = ui.visuals();
    ui.painter()
        .rect_filled(rect, 2.0, visuals.extreme_bg_color);
    ui.painter().text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        why,
        egui::FontId::proportional(13.0),
        visuals.weak_text_color(),
    );
}

/// Shows the three plots side by side.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let h = ui.available_height().max(80.0);
    let w = (ui.available_width() / 3.0 - 8.0).max(120.0);
    ui.horizontal(|ui| {
        let records: &[IterationRecord] = app
            .state
            .selected_probe()
            .map(|p| p.stepper.records())
            .unwrap_or(&[]);
        let shown = app
            .state
            .selected_probe()
            .and_then(|p| p.stepper.cursor())
            .map(|c| (c + 1) as f64);
        if records.is_empty() {
            empty_plot(ui, w, h, "Step a probe to plot its iterations");
        } else {
            per_iteration_plot(ui, records, shown, w, h);
        }
        // An opened finding's section takes the histogram's place too: the
        // riser under study is what the designer came to read.
        if app.state.checks.open.is_some() {
            super::section::show(ui, app, 2.0 * w + 8.0, h);
            return;
        }
        super::section::show(ui, app, w, h);
        let hist = app
            .sync
            .bvh_stats()
            .map(|s| s.leaf_size_histogram.clone())
            .unwrap_or_default();
        let tallest = hist.iter().copied().max().unwrap_or(0) as f64;
        if tallest == 0.0 {
            empty_plot(ui, w, h, "No level: no BVH leaves to count");
            return;
        }
        Plot::new("bvh_leaves")
            .width(w)
            .height(h)
            // Leaf sizes are whole numbers: a mark and a label at each one
            // (the labels are short, so they may sit closer than default).
            .custom_x_axes(vec![
                AxisHints::new_x()
                    .label("triangles per leaf")
                    .label_spacing(20.0..=30.0),
            ])
            .x_grid_spacer(uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
            // Room left of the first bar for its label.
            .include_x(0.0)
            // Headroom over the tallest bar.
            .include_y(tallest * 1.15)
            .y_axis_label("leaves")
            .show(ui, |pu| {
                let bars = hist
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| Bar::new(k as f64, *n as f64).width(0.8))
                    .collect();
                pu.bar_chart(BarChart::new("BVH leaves", bars));
            });
    });
}

/// Distance remaining and time of impact per iteration, one series per
/// pass, with a vertical line at the iteration shown.
fn per_iteration_plot(
    ui: &mut egui::Ui,
    records: &[IterationRecord],
    shown: Option<f64>,
    w: f32,
    h: f32,
) {
    Plot::new("per_iteration")
        .legend(Legend::default().position(egui_plot::Corner::RightTop))
        .width(w)
        .height(h)
        .x_axis_label("iteration")
        .include_y(0.0)
        .include_y(1.1)
        .show(ui, |pu| {
            // One colour per series, shared by its line and its points (the
            // legend's dot is then the series' colour).
            let series = [
                (
                    remaining_series(records, Pass::Velocity),
                    "remaining, velocity (m)",
                    Color32::from_rgb(250, 160, 40),
                ),
                (
                    remaining_series(records, Pass::Gravity),
                    "remaining, gravity (m)",
                    Color32::from_rgb(120, 170, 255),
                ),
                (
                    toi_series(records),
                    "time of impact",
                    Color32::from_rgb(120, 220, 120),
                ),
            ];
            for (points, name, color) in series {
                if points.is_empty() {
                    continue;
                }
                pu.line(Line::new(name, PlotPoints::from(points.clone())).color(color));
                pu.points(
                    Points::new(name, PlotPoints::from(points))
                        .radius(3.0)
                        .color(color),
                );
            }
            if let Some(x) = shown {
                pu.vline(VLine::new("", x).color(Color32::from_gray(200)).width(1.0));
            }
        });
}
