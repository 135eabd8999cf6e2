//! The replay in the bottom panel (in place of the plots, as the mode
//! comparison is): the imported recording's divergence per frame
//! (egui_plot; the tolerance as a line, the first divergent frame marked),
//! the numbers, progress and Cancel while it runs, "Open frame N in
//! stepper", and Close.

use super::CollidoscopeApp;
use crate::analysis::replay::Replay;
use crate::app::command::Command;
use eframe::egui::{self, Color32, RichText};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints, VLine};

/// Per frame (x = frame index): divergence, metres.
pub fn divergence_series(r: &Replay) -> Vec<[f64; 2]> {
    r.frames
        .iter()
        .map(|f| [f64::from(f.index), f.divergence_m])
        .collect()
}

/// Per frame: the free run's distance to the recording, metres.
pub fn free_run_series(r: &Replay) -> Vec<[f64; 2]> {
    r.frames
        .iter()
        .map(|f| [f64::from(f.index), f.free_run_divergence_m])
        .collect()
}

/// The frame the button opens: the first divergent, else the largest.
pub fn frame_to_open(r: &Replay) -> Option<u32> {
    r.summary.first_divergent_frame.or(r.summary.max_at_frame)
}

/// Shows the replay in the bottom panel, in place of the plots, while it
/// runs, has a result or failed: its summary on the left, the divergence
/// plot on the right, and Close to go back to the plots.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(SUMMARY_WIDTH.min(ui.available_width() * 0.5));
            ui.horizontal(|ui| {
                ui.strong("Replay");
                if ui
                    .button("Close")
                    .on_hover_text("Back to the plots (the replay's result is dropped)")
                    .clicked()
                {
                    app.queue.push(Command::CloseReplay);
                }
            });
            summary(ui, app);
        });
        let st = &app.state.replay;
        if st.job.is_none()
            && let Some(view) = &st.view
        {
            let replay = view.replay.clone();
            ui.vertical(|ui| plot(ui, &replay));
        }
    });
}

/// Width of the summary column beside the plot, points.
const SUMMARY_WIDTH: f32 = 420.0;

fn summary(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let st = &app.state.replay;
    if st.job.is_some() {
        ui.label("Re-running the recording …");
        ui.horizontal(|ui| {
            ui.add(egui::ProgressBar::new(st.progress).show_percentage());
            if ui.button("Cancel").clicked() {
                app.queue.push(Command::CancelReplay);
            }
        });
        return;
    }
    if let Some(e) = &st.error {
        ui.add(egui::Label::new(RichText::new(e).color(ui.visuals().error_fg_color)).wrap());
        return;
    }
    let Some(view) = st.view.clone() else {
        return;
    };
    let r = &view.replay;
    let s = &r.summary;
    let name = view.path.file_name().map_or_else(
        || view.path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let [rx, ry, rz] = view.settings.radii;
    ui.add(
        egui::Label::new(format!(
            "{name}: {} frames re-run (radii {rx:.2} × {ry:.2} × {rz:.2} m, {} m/s)",
            s.frames, view.settings.character.walk_speed_m_s
        ))
        .wrap(),
    );
    let (verdict, color) = match s.first_divergent_frame {
        None => (
            format!("Reproduces: every frame within {} m", s.tolerance_m),
            Color32::from_rgb(80, 200, 90),
        ),
        Some(i) => (
            format!(
                "Diverges: {} frame(s) over {} m, the first is frame {i} (line {})",
                s.divergent_frames,
                s.tolerance_m,
                r.frames.get(i as usize).map_or(0, |f| f.line)
            ),
            Color32::from_rgb(230, 70, 60),
        ),
    };
    ui.add(egui::Label::new(RichText::new(verdict).color(color).strong()).wrap());
    ui.add(
        egui::Label::new(format!(
            "Largest {:.4} m (frame {}), mean {:.4} m; free run ends {:.4} m away",
            s.max_divergence_m,
            s.max_at_frame.unwrap_or(0),
            s.mean_divergence_m,
            s.free_run_final_m
        ))
        .wrap(),
    );
    if let Some(k) = frame_to_open(r) {
        let opened = view.opened == Some(k);
        let label = format!("Open frame {k} in stepper");
        if ui
            .add_enabled(!opened, egui::Button::new(label))
            .on_hover_text("Step the character's frame from the recorded state")
            .on_disabled_hover_text("Open in the selected probe's stepper")
            .clicked()
        {
            app.queue.push(Command::OpenReplayFrame(k));
        }
    }
}

fn plot(ui: &mut egui::Ui, r: &Replay) {
    let s = &r.summary;
    Plot::new("replay_divergence")
        .legend(Legend::default().position(egui_plot::Corner::RightTop))
        .x_axis_label("frame")
        .y_axis_label("divergence (m)")
        .allow_scroll(false)
        .include_y(0.0)
        // Headroom over the largest value keeps the legend off the lines.
        .include_y(
            s.tolerance_m
                .max(s.max_divergence_m)
                .max(s.free_run_final_m)
                * 1.9,
        )
        .height(ui.available_height().max(80.0))
        .show(ui, |p| {
            p.line(
                Line::new(
                    "re-run from the recording",
                    PlotPoints::from(divergence_series(r)),
                )
                .color(Color32::from_rgb(255, 140, 25)),
            );
            p.line(
                Line::new("free run", PlotPoints::from(free_run_series(r)))
                    .color(Color32::from_rgb(120, 160, 255)),
            );
            p.hline(HLine::new("tolerance", s.tolerance_m).color(Color32::from_rgb(200, 200, 200)));
            if let Some(i) = s.first_divergent_frame {
                p.vline(
                    VLine::new(format!("first divergent frame {i}"), f64::from(i))
                        .color(Color32::from_rgb(230, 60, 60)),
                );
            }
        });
}
