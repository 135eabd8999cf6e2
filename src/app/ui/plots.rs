//! Plots (egui_plot): per move, the distance remaining and the time of
//! impact per iteration; the height profile of the path (height against
//! horizontal distance travelled, so stairs show as steps); per level, the
//! triangles-per-leaf histogram of the BVH.

use super::CollidoscopeApp;
use crate::app::state::EditorState;
use crate::collide::IterationRecord;
use eframe::egui;
use egui_plot::{
    AxisHints, Bar, BarChart, Legend, Line, Plot, PlotPoints, Points, uniform_grid_spacer,
};
use glam::DVec3;

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

/// Height against horizontal distance travelled along `path` (world space).
pub fn height_profile(path: &[DVec3]) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(path.len());
    let mut dist = 0.0;
    for (i, p) in path.iter().enumerate() {
        if i > 0 {
            let d = *p - path[i - 1];
            dist += (d.x * d.x + d.z * d.z).sqrt();
        }
        out.push([dist, p.y]);
    }
    out
}

/// The path the plots follow: the walk when one was recorded, else the
/// selected probe's iterations.
pub fn probe_path(state: &EditorState) -> Vec<DVec3> {
    if !state.walk.frames.is_empty() {
        let mut path = vec![state.walk.frames[0].start()];
        path.extend(state.walk.frames.iter().map(|f| f.end()));
        return path;
    }
    let Some(p) = state.selected_probe() else {
        return Vec::new();
    };
    let mut path = vec![p.position];
    path.extend(p.stepper.records().iter().map(|r| r.end));
    path
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
        let profile = height_profile(&probe_path(&app.state));
        Plot::new("height_profile")
            .legend(Legend::default())
            .width(w)
            .height(h)
            .x_axis_label("horizontal distance (m)")
            .y_axis_label("height (m)")
            .data_aspect(1.0)
            .show(ui, |pu| {
                pu.line(Line::new("probe centre height", PlotPoints::from(profile)));
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stairs_make_steps_in_the_height_profile() {
        let path = [
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(0.3, 1.0, 0.4),
            DVec3::new(0.3, 1.2, 0.4),
            DVec3::new(0.6, 1.2, 0.8),
        ];
        let p = height_profile(&path);
        assert_eq!(p[0], [0.0, 1.0]);
        assert!((p[1][0] - 0.5).abs() < 1e-12);
        assert_eq!(
            p[2][0], p[1][0],
            "a vertical step adds no horizontal distance"
        );
        assert!((p[3][0] - 1.0).abs() < 1e-12 && p[3][1] == 1.2);
    }
}
