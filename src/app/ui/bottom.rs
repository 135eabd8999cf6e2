//! The bottom panel: the stepper of the selected probe (Step, Step back,
//! Run to end, Reset, a timeline over the iterations) and the plots, or in
//! their place the mode comparison or a replay.

use super::{CollidoscopeApp, compare, panels, plots, replay};
use crate::app::command::Command;
use crate::app::state::PanelSizes;
use crate::app::stepper::{Stepper, phase_words};
use crate::app::walk::frame_outcome_words;
use crate::app::words::end_reason_words;
use eframe::egui;

/// Shows the bottom panel.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let window_h = ui.ctx().content_rect().height();
    let height = panels::plots_height(&app.state.panels, window_h);
    let shown = egui::Panel::bottom("stepper_panel")
        .resizable(false)
        .exact_size(height)
        .show(ui, |ui| {
            stepper_bar(ui, app);
            compare::whatif_line(ui, app);
            ui.separator();
            if app.state.compare.open {
                compare::show(ui, app);
            } else if app.state.replay.is_open() {
                replay::show(ui, app);
            } else {
                plots::show(ui, app);
            }
        });
    let r = shown.response.rect;
    if let Some(dy) = panels::edge_drag(ui, "plots_edge", r.top(), r.x_range(), true) {
        app.state.panels.plots_height = panels::plots_height(
            &PanelSizes {
                plots_height: height - dy,
                ..app.state.panels
            },
            window_h,
        );
    }
}

fn stepper_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    ui.horizontal(|ui| {
        let probe = app.state.selected_probe();
        let enabled = probe.is_some() && app.state.level.is_some();
        let q = &mut app.queue;
        ui.add_enabled_ui(enabled, |ui| {
            if ui
                .button("Reset")
                .on_hover_text("Back to the start, recomputed (Home)")
                .clicked()
            {
                q.push(Command::Reset);
            }
            if ui.button("Step back").on_hover_text("B").clicked() {
                q.push(Command::StepBack);
            }
            if ui
                .button("Step")
                .on_hover_text("One solver iteration (N or Space)")
                .clicked()
            {
                q.push(Command::Step);
            }
            if ui.button("Run to end").on_hover_text("R").clicked() {
                q.push(Command::RunToEnd);
            }
            if ui
                .button("Frame")
                .on_hover_text("Point the camera at the probe (F)")
                .clicked()
            {
                q.push(Command::FrameSelection);
            }
            let open = app.state.compare.open;
            if ui
                .selectable_label(open, "Compare modes")
                .on_hover_text(
                    "Run this move in robust, fauerby2003 and nettle2000: ghosts in the view, \
                     the iterations side by side here (instead of the plots)",
                )
                .clicked()
            {
                q.push(Command::SetCompareModes(!open));
            }
        });
        let Some(probe) = probe else {
            ui.weak("Select a probe to step its move.");
            return;
        };
        if probe.stepper.box_chain().is_some() {
            // The chain on the walk is shown, not the probe's own move.
            ui.separator();
            ui.label(
                egui::RichText::new("Inspecting the box chain on the walk")
                    .color(ui.visuals().warn_fg_color)
                    .strong(),
            );
            if ui
                .button("Back to probe")
                .on_hover_text("Close the chain and step the probe's own move")
                .clicked()
            {
                q.push(Command::CloseFrame);
            }
        }
        if let Some(frame) = probe.stepper.frame() {
            // A recorded frame is being inspected, not the probe's own move:
            // say so, and offer the way back.
            ui.separator();
            ui.label(
                egui::RichText::new(format!("Inspecting walk frame {}", frame.index))
                    .color(ui.visuals().warn_fg_color)
                    .strong(),
            )
            .on_hover_text(format!(
                "The frame runs with {}'s settings as they are now; nothing of the probe changes",
                probe.name
            ));
            if ui
                .button("Back to probe")
                .on_hover_text("Close the frame and step the probe's own move")
                .clicked()
            {
                q.push(Command::CloseFrame);
            }
        }
        let st = &probe.stepper;
        let n = st.step_count();
        let mut pos = st.cursor().map_or(0, |c| c + 1);
        ui.separator();
        ui.label(format!("{}:", probe.name));
        if n > 0 {
            let slider = egui::Slider::new(&mut pos, 0..=n)
                .text("iteration")
                .custom_formatter(|v, _| {
                    if v == 0.0 {
                        "start".into()
                    } else {
                        format!("{v:.0}")
                    }
                });
            if ui.add(slider).changed() {
                q.push(Command::Seek(pos.checked_sub(1)));
            }
        }
        let state = match (st.finished(), st.is_invalid()) {
            (_, true) => "rejected by the solver (check the numbers)".to_string(),
            _ if st.frame().is_some() => frame_state(st, n),
            _ if st.method_trace().is_some() => super::method_view::stepper_state(st),
            (Some(reason), _) => {
                format!(
                    "{n} {}, the move ended: {}",
                    iterations_word(n),
                    end_reason_words(reason)
                )
            }
            (None, _) if n == 0 => "not started".to_string(),
            (None, _) => format!("{n} {} so far", iterations_word(n)),
        };
        // Truncated (whole on hover): a refused step's reason is long.
        ui.add(egui::Label::new(egui::RichText::new(&state).weak()).truncate())
            .on_hover_text(state);
    });
}

/// The stepper's state line for a character frame.
fn frame_state(st: &Stepper, n: usize) -> String {
    let index = st.frame().map_or(0, |f| f.index);
    match (st.frame_record(), st.current_phase()) {
        (Some(rec), _) => format!(
            "walk frame {index}: {n} {}, {}",
            iterations_word(n),
            frame_outcome_words(rec)
        ),
        (None, Some(phase)) => format!(
            "walk frame {index}: {n} {} so far, phase {}",
            iterations_word(n),
            phase_words(phase)
        ),
        (None, None) => format!("walk frame {index}: not started"),
    }
}

/// "iteration" or "iterations", for `n`.
fn iterations_word(n: usize) -> &'static str {
    if n == 1 { "iteration" } else { "iterations" }
}
