//! Plots (egui_plot): per move, the distance remaining and the time of
//! impact per iteration; the section along the walk (`section`: the level
//! cut, the ellipsoid, the path, the measured height); per level, the
//! triangles-per-leaf histogram of the BVH.

use super::CollidoscopeApp;
use crate::collide::IterationRecord;
use eframe::egui;
use egui_plot::{
    AxisHints, Bar, BarChart, Legend, Line, Plot, PlotPoints, Points, uniform_grid_spacer,
};

/// Per iteration (1-based x): distance from the end to the destination, metres.
pub fn remaining_series(records: &[IterationRecord]) -> Vec<[f64; 2]> {
    records
        .iter()
        .enumerate()
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
        Plot::new("per_iteration")
            .legend(Legend::default())
            .width(w)
            .height(h)
            .x_axis_label("iteration")
            .show(ui, |pu| {
                let rem = remaining_series(records);
                let toi = toi_series(records);
                pu.line(Line::new("remaining (m)", PlotPoints::from(rem.clone())));
                pu.points(Points::new("remaining (m)", PlotPoints::from(rem)).radius(3.0));
                pu.line(Line::new("time of impact", PlotPoints::from(toi.clone())));
                pu.points(Points::new("time of impact", PlotPoints::from(toi)).radius(3.0));
            });
        super::section::show(ui, app, w, h);
        let hist = app
            .sync
            .bvh_stats()
            .map(|s| s.leaf_size_histogram.clone())
            .unwrap_or_default();
        Plot::new("bvh_leaves")
            .legend(Legend::default())
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
