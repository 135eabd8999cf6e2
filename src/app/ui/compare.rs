//! The bottom panel's Compare modes table and the what-if line: each
//! mode's ending in its colour, then one row per iteration (pass, hit
//! triangle, how it ended, per mode; what differs and how far apart the
//! ends are), the first divergence highlighted; a click on an iteration
//! steps the probe there. Above it, while a what-if is shown, what the
//! last settings edit flipped and Dismiss.

use super::{CollidoscopeApp, widgets};
use crate::analysis::compare::{Aspect, Divergence, ModeAtIteration};
use crate::app::command::Command;
use crate::app::compare::{ModesComparison, mode_color};
use crate::app::compare_draw::{WHATIF_AFTER_COLOR, WHATIF_BEFORE_COLOR};
use crate::collide::{EndReason, IterationOutcome, Pass};
use eframe::egui;

/// The what-if line (when a what-if is shown): before / after swatches,
/// what changed and flipped, and Dismiss.
pub fn whatif_line(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(w) = &app.state.compare.whatif else {
        return;
    };
    let summary = w.summary();
    ui.horizontal(|ui| {
        if ui
            .button("Dismiss what-if")
            .on_hover_text("Drop the before ghost and this line")
            .clicked()
        {
            app.queue.push(Command::DismissWhatIf);
        }
        widgets::swatch(ui, WHATIF_BEFORE_COLOR);
        ui.label("before");
        widgets::swatch(ui, WHATIF_AFTER_COLOR);
        ui.label("after");
        ui.separator();
        ui.add(
            egui::Label::new(egui::RichText::new(format!("What-if: {summary}")).strong())
                .truncate(),
        )
        .on_hover_text(summary);
    });
}

/// The table of the modes compared (in place of the plots).
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(m) = app.state.compare.modes.clone() else {
        let why = app.state.compare.refused.clone().unwrap_or_else(|| {
            "Select a probe (and load a level) to compare its move in every mode".into()
        });
        ui.weak(why);
        return;
    };
    let walk = app.state.compare.walk.clone();
    heading(ui, app, &m);
    egui::ScrollArea::both()
        .id_salt("compare_table")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if let Some(w) = &walk {
                super::compare_walk::show(ui, app, w);
                ui.separator();
            }
            table(ui, app, &m)
        });
}

/// Width of a mode's colour swatch ([`widgets::swatch`]), points.
const SWATCH_W: f32 = 12.0;

fn heading(ui: &mut egui::Ui, app: &mut CollidoscopeApp, m: &ModesComparison) {
    ui.horizontal_wrapped(|ui| {
        for run in &m.runs {
            // Swatch and name on one line: where both do not fit, start
            // the next line, rather than leave a swatch at the end of one
            // line and its name on the next.
            let name = egui::RichText::new(run.mode.name()).strong();
            let name_w = egui::WidgetText::from(name.clone())
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Extend),
                    f32::INFINITY,
                    egui::TextStyle::Body,
                )
                .size()
                .x;
            let room = ui.available_size_before_wrap().x;
            if room < SWATCH_W + ui.spacing().item_spacing.x + name_w {
                ui.end_row();
            }
            widgets::swatch(ui, mode_color(run.mode));
            ui.label(name);
            ui.label(format!(
                "{} it., {}{}",
                run.records.len(),
                run.outcome.ending.words(),
                if run.outcome.embedded {
                    ", INSIDE geometry"
                } else {
                    ""
                }
            ));
            ui.separator();
        }
        match m.divergence {
            None => {
                ui.label("agree on every iteration");
            }
            Some(d) => {
                let row = &m.rows[d];
                let text = format!("diverge at #{}: {}", d + 1, aspects(row));
                let warn = ui.visuals().warn_fg_color;
                if ui
                    .link(egui::RichText::new(text).color(warn).strong())
                    .on_hover_text("Step the probe to this iteration")
                    .clicked()
                {
                    app.queue.push(Command::StepTo(d));
                }
            }
        }
    });
}

fn table(ui: &mut egui::Ui, app: &mut CollidoscopeApp, m: &ModesComparison) {
    let shown = app.state.selected_probe().and_then(|p| p.stepper.cursor());
    egui::Grid::new("compare_grid")
        .num_columns(m.runs.len() + 3)
        .striped(true)
        .show(ui, |ui| {
            ui.strong("#");
            for run in &m.runs {
                ui.strong(run.mode.name());
            }
            ui.strong("differs");
            ui.strong("ends apart");
            ui.end_row();
            for (i, row) in m.rows.iter().enumerate() {
                let first = m.divergence == Some(i);
                let mut label = egui::RichText::new(format!("#{}", i + 1)).monospace();
                if first {
                    label = label.color(ui.visuals().warn_fg_color).strong();
                }
                if ui
                    .selectable_label(shown == Some(i), label)
                    .on_hover_text("Step the probe to this iteration")
                    .clicked()
                {
                    app.queue.push(Command::StepTo(i));
                }
                for mode in &row.modes {
                    let text = egui::RichText::new(cell_words(mode)).monospace();
                    ui.label(text.color(widgets::opaque(mode_color(mode.mode))))
                        .on_hover_text(format!(
                            "ends at {}{}",
                            widgets::fmt3(mode.end),
                            if mode.embedded {
                                ", inside geometry"
                            } else {
                                ""
                            }
                        ));
                }
                let differs = aspects(row);
                if first {
                    ui.colored_label(ui.visuals().warn_fg_color, differs);
                } else {
                    ui.label(differs);
                }
                ui.monospace(format!("{:.4} m", row.end_spread_m));
                ui.end_row();
            }
        });
}

/// What differs at a row, in words ("agree" when nothing does).
fn aspects(row: &Divergence) -> String {
    if row.differs.is_empty() {
        return "agree".into();
    }
    row.differs
        .iter()
        .map(|a| match a {
            Aspect::IterationCount => "one ended",
            Aspect::Pass => "pass",
            Aspect::HitTriangle => "hit triangle",
            Aspect::Outcome => "outcome",
            Aspect::Embedded => "inside geometry",
            Aspect::Tunnel => "tunnel",
            Aspect::EndPosition => "end position",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One mode at one iteration: "vel · tri 2 · ended too short", or that
/// its move had ended.
fn cell_words(m: &ModeAtIteration) -> String {
    if !m.ran {
        return "(ended)".into();
    }
    let pass = match m.pass {
        Some(Pass::Gravity) => "grav",
        _ => "vel",
    };
    let hit = m
        .hit_triangle
        .map_or_else(|| "no hit".to_string(), |t| format!("tri {t}"));
    let outcome = match m.outcome {
        Some(IterationOutcome::Continue) | None => "continues".to_string(),
        Some(IterationOutcome::PassEnded(r)) => format!("pass ended {}", reason(r)),
        Some(IterationOutcome::MoveEnded(r)) => format!("ended {}", reason(r)),
    };
    let inside = if m.embedded { " · INSIDE" } else { "" };
    format!("{pass} · {hit} · {outcome}{inside}")
}

fn reason(r: EndReason) -> &'static str {
    match r {
        EndReason::Arrived => "arrived",
        EndReason::TooShort => "too short",
        EndReason::IterationCap => "iteration cap",
        EndReason::CreaseStop => "crease",
        EndReason::Blocked => "blocked",
        EndReason::StuckEmbedded => "stuck inside",
    }
}
