//! The Scene tab's "Cylinders (radial)" section: the scene's vertical
//! cylinders (poles, trees) with their base, radius and height editable
//! and a delete button each, and the button that arms placing one.

use super::widgets::{NumberStyle, fmt3};
use super::{CollidoscopeApp, Tool, widgets};
use crate::app::command::Command;
use crate::app::fields::ranges;
use crate::level::cylinder::{Cylinder, UnusableCylinderObject};
use eframe::egui;

/// At most this many rows are listed (the rest are counted).
const MAX_ROWS: usize = 64;

/// The section's content.
pub(super) fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let placing = app.tool == Tool::PlaceCylinder;
    if ui
        .selectable_label(placing, "+ Place cylinder")
        .on_hover_text("Then click a surface in the view: a pole stands there")
        .clicked()
    {
        app.tool = if placing {
            Tool::Select
        } else {
            Tool::PlaceCylinder
        };
    }
    let objects = crate::app::cylinders::named_objects(&app.state);
    let named = objects.cylinders.len();
    if named > 0 {
        let which = if named == 1 {
            "Pole 0: the level's object".to_string()
        } else {
            format!("Poles 0 to {}: the level's objects", named - 1)
        };
        ui.add(
            egui::Label::new(format!(
                "{which} named pole_*, tree_*, pillar_* or cyl_* (their bounding cylinders)."
            ))
            .wrap(),
        );
    }
    unusable_words(ui, &objects.unusable);
    if app.state.cylinders.is_empty() {
        ui.add(
            egui::Label::new(
                "No placed cylinders. The radial method (probe editor, method) pushes probes \
                 out of vertical cylinders only, not the level's triangles.",
            )
            .wrap(),
        );
        return;
    }
    egui::Grid::new("cylinders")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            ui.label("pole");
            ui.label("radius");
            ui.label("height");
            ui.label("");
            ui.end_row();
            for (i, c) in app.state.cylinders.iter().enumerate().take(MAX_ROWS) {
                row(ui, &mut app.queue, i, named + i, *c);
            }
        });
    let n = app.state.cylinders.len();
    if n > MAX_ROWS {
        ui.label(format!("… and {} more", n - MAX_ROWS));
    }
}

/// Placed cylinder `i`, shown as pole `pole`.
fn row(ui: &mut egui::Ui, queue: &mut Vec<Command>, i: usize, pole: usize, c: Cylinder) {
    ui.label(format!("{pole}"))
        .on_hover_text(format!("base centre {}", fmt3(c.base_world)));
    let mut edited = c;
    let key = |field: &str| egui::Id::unique(("cylinder_field", i, field.to_string()));
    let r = widgets::number_field(
        ui,
        key("radius"),
        &mut edited.radius,
        &ranges::CYLINDER_RADIUS,
        NumberStyle::new(0.01, " m"),
    );
    let h = widgets::number_field(
        ui,
        key("height"),
        &mut edited.height,
        &ranges::cylinder_height(c.base_world.y),
        NumberStyle::new(0.05, " m"),
    );
    if (r || h) && edited != c {
        queue.push(Command::UpdateCylinder(i, edited));
    }
    if ui
        .small_button("Delete")
        .on_hover_text("Remove this pole (later poles are renumbered)")
        .clicked()
    {
        queue.push(Command::DeleteCylinder(i));
    }
    ui.end_row();
    if widgets::refusal_line(ui, &format!("pole {pole}"), &[key("radius"), key("height")]) {
        ui.end_row();
    }
}

/// The level's objects named as cylinders that give none, with the reason
/// (a few; the rest counted), so a flat `tree_shadow` is not silently
/// missing from the poles.
fn unusable_words(ui: &mut egui::Ui, unusable: &[UnusableCylinderObject]) {
    const LISTED: usize = 3;
    for u in unusable.iter().take(LISTED) {
        let name: String = u.object.chars().take(40).collect();
        ui.add(
            egui::Label::new(
                egui::RichText::new(format!("Not a pole: {name}: {}.", u.reason))
                    .color(ui.visuals().warn_fg_color),
            )
            .wrap(),
        );
    }
    if unusable.len() > LISTED {
        ui.weak(format!(
            "… and {} more objects named as poles give none.",
            unusable.len() - LISTED
        ));
    }
}
