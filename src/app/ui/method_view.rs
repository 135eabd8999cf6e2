//! The inspector and stepper line for a probe moving by another method
//! than the slide ([`crate::methods`]): the step's numbers, world space.

use super::CollidoscopeApp;
use super::widgets::fmt3;
use crate::app::command::Command;
use crate::app::stepper::Stepper;
use crate::methods::discrete::DiscreteStep;
use crate::methods::{MethodEnd, MethodStep, TriggerKind};
use eframe::egui;

/// The stepper bar's state line: where the cursor is and how the move ended.
pub(super) fn stepper_state(st: &Stepper) -> String {
    let Some(trace) = st.method_trace() else {
        return String::new();
    };
    let n = trace.iterations.len();
    let at = st
        .cursor()
        .map_or("start".to_string(), |c| format!("step {}", c + 1));
    format!(
        "{} method: {at} of {n}, the move {}",
        trace.method,
        end_words(trace.method, trace.end_reason)
    )
}

fn end_words(method: crate::methods::Method, end: MethodEnd) -> &'static str {
    match (method, end) {
        (_, MethodEnd::Arrived) => "arrived without a contact",
        // The box camera detects and never resolves.
        (crate::methods::Method::Box, MethodEnd::ArrivedAfterContacts) => {
            "arrived; the box met the geometry on its way (detected, not resolved)"
        }
        (_, MethodEnd::ArrivedAfterContacts) => "arrived after resolving contacts",
        (crate::methods::Method::Radial, MethodEnd::StuckOverlapping) => {
            "ended inside a cylinder (the pushes of overlapping poles cancelled)"
        }
        (_, MethodEnd::StuckOverlapping) => "ended overlapping the geometry",
    }
}

/// The inspector's content for a method's move.
pub(super) fn inspector(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(probe) = app.state.selected_probe() else {
        return;
    };
    let st = &probe.stepper;
    let Some(trace) = st.method_trace() else {
        return;
    };
    ui.label(format!(
        "Method: {} ({})",
        trace.method,
        trace.method.description()
    ));
    if let Some(chain) = st.box_chain() {
        ui.add(egui::Label::new(format!("{}.", chain.sentence())).wrap());
    }
    if let Some(rule) = st.tunnel_rule() {
        let speed = probe.velocity.length() / probe.method_settings.move_seconds;
        let text = egui::RichText::new(format!(
            "Rule of thumb: {}. This move: {speed:.1} m/s.",
            rule.sentence()
        ));
        let text = if speed > rule.tunnel_speed_m_s {
            text.color(ui.visuals().warn_fg_color)
        } else {
            text
        };
        ui.add(egui::Label::new(text).wrap());
    }
    if let Some(cmp) = st.radial_comparison() {
        super::radial_view::comparison_line(ui, cmp);
    }
    let Some(step) = st.current_method_step().cloned() else {
        ui.label(format!(
            "{}: at the start of the move. Step (N / Space) to show the first of {} steps.",
            probe.name,
            trace.iterations.len()
        ));
        return;
    };
    if let Some(r) = step.detail.as_radial() {
        // Outside the scroll area, where lines wrap to the panel's width.
        super::radial_view::radial_rows(ui, r);
    }
    egui::ScrollArea::both().show(ui, |ui| {
        step_table(ui, &step);
        if let Some(d) = step.detail.as_discrete() {
            discrete_rows(ui, app, d);
        }
        if let Some(r) = step.detail.as_box() {
            super::box_view::box_rows(ui, r);
        }
    });
}

fn step_table(ui: &mut egui::Ui, step: &MethodStep) {
    egui::Grid::new("method_step")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Step");
            ui.monospace(step.index.to_string());
            ui.end_row();
            ui.label("start");
            ui.monospace(fmt3(step.start));
            ui.end_row();
            ui.label("velocity");
            ui.monospace(fmt3(step.velocity));
            ui.end_row();
            ui.label("end");
            ui.monospace(fmt3(step.end));
            ui.end_row();
        });
}

fn discrete_rows(ui: &mut egui::Ui, app: &mut CollidoscopeApp, d: &DiscreteStep) {
    let name = |o: u32| {
        app.state
            .level
            .as_ref()
            .and_then(|l| l.mesh.objects.get(o as usize))
            .map_or_else(|| format!("object {o}"), |m| m.name.clone())
    };
    if let Some(tri) = d.crossed_triangle {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!("Tunnelled: the centre passed through triangle {tri} between two samples"),
        );
    }
    let mut highlight = None;
    match &d.contact {
        None => {
            ui.label("No overlap at the sample.");
        }
        Some(c) => {
            egui::Grid::new("discrete_contact")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("sample");
                    ui.monospace(fmt3(d.sample));
                    ui.end_row();
                    ui.label("time of impact");
                    ui.monospace(format!(
                        "{:.5} ({} halvings)",
                        c.toi, c.bisection_iterations
                    ));
                    ui.end_row();
                    ui.label("at impact");
                    ui.monospace(fmt3(c.toi_position));
                    ui.end_row();
                    ui.label("triangle");
                    if ui
                        .link(format!("{} ({})", c.impact.triangle, name(c.impact.object)))
                        .clicked()
                    {
                        highlight = Some(c.impact.triangle);
                    }
                    ui.end_row();
                    ui.label("normal");
                    ui.monospace(fmt3(c.impact.normal));
                    ui.end_row();
                    ui.label("depth");
                    ui.monospace(format!(
                        "{:.4} m ({:.4} radii)",
                        c.penetration.depth, c.penetration.depth_espace
                    ));
                    ui.end_row();
                    ui.label("resolved");
                    ui.monospace(if c.resolved {
                        "yes"
                    } else {
                        "NO: still overlapping"
                    });
                    ui.end_row();
                });
        }
    }
    for e in &d.trigger_events {
        let verb = match e.kind {
            TriggerKind::Enter => "entered",
            TriggerKind::Exit => "left",
        };
        ui.label(format!(
            "Trigger: {verb} {} (prologue declined the collision)",
            e.name
        ));
    }
    if !d.triggers_inside.is_empty() {
        let names: Vec<String> = d.triggers_inside.iter().map(|&o| name(o)).collect();
        ui.label(format!("Inside triggers: {}", names.join(", ")));
    }
    if let Some(tri) = highlight {
        app.queue.push(Command::Highlight(Some(tri)));
    }
}
