//! The left panel: the level (counts, bounds, BVH, warnings, objects), the
//! probe list and the selected probe's editor, with units.

use super::widgets::NumberStyle;
use super::{CollidoscopeApp, Tool, character, checks, hygiene, map, panels, widgets};
use crate::app::command::Command;
use crate::app::fields::{Range, ranges};
use crate::app::probes::params_of;
use crate::app::state::PanelSizes;
use crate::app::walk::walk_frame_words;
use crate::collide::SlideMode;
use eframe::egui;
use std::sync::Arc;

/// The left panel's two pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum LeftTab {
    /// The level, the probes and the selected probe's editor.
    #[default]
    Scene,
    /// The selected probe's character: settings, envelope, walk mode.
    Character,
    /// The level checks: run, filter, open findings.
    Checks,
    /// The stuck-spot map: run, counts per class, open spots.
    Map,
}

/// Shows the left panel.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let window_w = ui.ctx().content_rect().width();
    let width = panels::left_width(&app.state.panels, window_w);
    let shown = egui::Panel::left("left_panel")
        .resizable(false)
        .exact_size(width)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut app.left_tab, LeftTab::Scene, "Scene");
                ui.selectable_value(&mut app.left_tab, LeftTab::Character, "Character")
                    .on_hover_text(
                        "How the selected probe walks: its character settings, what it \
                         can do (the envelope) and walk mode",
                    );
                ui.selectable_value(&mut app.left_tab, LeftTab::Checks, "Checks")
                    .on_hover_text(
                        "Every step, opening, slope and low ceiling of the level, with the \
                         character's verdict",
                    );
                ui.selectable_value(&mut app.left_tab, LeftTab::Map, "Map")
                    .on_hover_text("Where does a player get stuck? The stuck-spot map");
            });
            ui.separator();
            if app.left_tab == LeftTab::Checks {
                // The findings list scrolls on its own (thousands of rows).
                checks::show(ui, app);
                return;
            }
            if app.left_tab == LeftTab::Map {
                // The spots list scrolls on its own.
                map::show(ui, app);
                return;
            }
            // The panel's width is fixed (see `panels`): text wraps to it.
            // One scroll offset per page: the Scene page scrolled to its
            // cylinders must not open the Character page half-way down.
            // The Scene page's also per level: a level that loads opens
            // at its name, not where the last one was scrolled to.
            let level = app
                .state
                .level
                .as_ref()
                .map_or(0, |l| Arc::as_ptr(l) as usize);
            let page = match app.left_tab {
                LeftTab::Scene => format!("left_scroll_scene_{level:x}"),
                tab => format!("left_scroll_{tab:?}"),
            };
            egui::ScrollArea::vertical()
                .id_salt(page)
                .show(ui, |ui| match app.left_tab {
                    LeftTab::Scene => {
                        egui::CollapsingHeader::new("Level")
                            .default_open(true)
                            .show(ui, |ui| level_section(ui, app));
                        egui::CollapsingHeader::new("Broad phases")
                            .default_open(false)
                            .show(ui, |ui| super::broadphase::show(ui, app));
                        egui::CollapsingHeader::new("Mesh hygiene")
                            .default_open(false)
                            .show(ui, |ui| hygiene::show(ui, app));
                        egui::CollapsingHeader::new("Probes")
                            .default_open(true)
                            .show(ui, |ui| probes_section(ui, app));
                        if app.state.selected_probe().is_some() {
                            egui::CollapsingHeader::new("Probe settings")
                                .default_open(true)
                                .show(ui, |ui| probe_editor(ui, app));
                        }
                        egui::CollapsingHeader::new("Cylinders (radial)")
                            .default_open(true)
                            .show(ui, |ui| super::cylinders::show(ui, app));
                    }
                    LeftTab::Character => {
                        character::show(ui, app);
                        ui.separator();
                        egui::CollapsingHeader::new("Walk mode")
                            .default_open(true)
                            .show(ui, |ui| walk_section(ui, app));
                    }
                    LeftTab::Checks | LeftTab::Map => {}
                });
        });
    let r = shown.response.rect;
    if let Some(dx) = panels::edge_drag(ui, "left_panel_edge", r.right(), r.y_range(), false) {
        app.state.panels.left_width = panels::left_width(
            &PanelSizes {
                left_width: width + dx,
                ..app.state.panels
            },
            window_w,
        );
    }
}

fn level_section(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(level) = app.state.level.clone() else {
        ui.label("No level. File > Open level…, or drop an .obj file on the window.");
        return;
    };
    ui.strong(&level.name);
    if let Some(p) = &level.path {
        ui.weak(p.display().to_string());
    }
    let r = &level.report;
    let b = level.mesh.bounds();
    egui::Grid::new("level_facts")
        .num_columns(2)
        .show(ui, |ui| {
            // Values wrap: the panel's width is fixed, a long one (the
            // dropped faces) would be cut off at its edge.
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.add(egui::Label::new(egui::RichText::new(v).monospace()).wrap());
                ui.end_row();
            };
            row("triangles", level.mesh.triangle_count().to_string());
            row("vertices", level.mesh.positions.len().to_string());
            row("objects", level.mesh.objects.len().to_string());
            row("faces read", r.faces.to_string());
            // One axis a row: the whole box on one line is wider than the panel.
            for (axis, lo, hi) in [
                ("x", b.min.x, b.max.x),
                ("y", b.min.y, b.max.y),
                ("z", b.min.z, b.max.z),
            ] {
                row(&format!("{axis} extent"), format!("{lo:.2} … {hi:.2} m"));
            }
            row(
                "parse",
                format!("{:.1} ms", level.parse_time.as_secs_f64() * 1e3),
            );
            row(
                "BVH build",
                format!("{:.1} ms", level.build_time.as_secs_f64() * 1e3),
            );
            if let Some(s) = app.sync.bvh_stats() {
                row("BVH nodes", s.nodes.to_string());
                row("BVH leaves", s.leaves.to_string());
                row("BVH depth", s.max_depth.to_string());
                row(
                    "BVH memory",
                    format!("{:.1} KiB", s.memory_bytes as f64 / 1024.0),
                );
            }
            if r.degenerate_triangles_dropped + r.duplicate_triangles_dropped > 0 {
                row(
                    "dropped",
                    format!(
                        "{} degenerate, {} duplicate",
                        r.degenerate_triangles_dropped, r.duplicate_triangles_dropped
                    ),
                );
            }
        });
    if !r.warnings.is_empty() {
        egui::CollapsingHeader::new(format!("Import warnings ({})", r.warnings.len())).show(
            ui,
            |ui| {
                for w in r.warnings.iter().take(200) {
                    let at = w.line.map(|l| format!("line {l}: ")).unwrap_or_default();
                    ui.colored_label(ui.visuals().warn_fg_color, format!("{at}{}", w.message));
                }
            },
        );
    }
    // A click on an object in the view opens the list at it.
    let reveal = std::mem::take(&mut app.reveal_object) && app.state.selected_object.is_some();
    egui::CollapsingHeader::new(format!("Objects ({})", level.mesh.objects.len()))
        .default_open(level.mesh.objects.len() <= 12)
        .open(reveal.then_some(true))
        .show(ui, |ui| objects_table(ui, app, &level, reveal));
}

fn objects_table(
    ui: &mut egui::Ui,
    app: &mut CollidoscopeApp,
    level: &crate::level::Level,
    reveal: bool,
) {
    // Three columns fit the panel; the triangle count is on the name's hover.
    egui::Grid::new("objects")
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            ui.weak("object");
            ui.weak("shown");
            ui.weak("solid")
                .on_hover_text("Collides: untick for triggers and decals");
            ui.end_row();
            let selected = app.state.selected_object;
            // The first 500, and the selected one wherever it is.
            let rows = level.mesh.objects.iter().enumerate();
            for (i, o) in rows.filter(|(i, _)| *i < 500 || selected == Some(*i)) {
                let flags = app.state.objects.get(i).copied().unwrap_or_default();
                let name = ui
                    .selectable_label(selected == Some(i), &o.name)
                    .on_hover_text(format!(
                        "{} triangles: click to select, frame and highlight it",
                        o.triangle_count
                    ));
                if name.clicked() {
                    let next = if selected == Some(i) { None } else { Some(i) };
                    app.queue.push(Command::SelectObject(next));
                }
                if reveal && selected == Some(i) {
                    name.scroll_to_me(Some(egui::Align::Center));
                }
                let mut visible = flags.visible;
                if ui.checkbox(&mut visible, "").changed() {
                    app.queue.push(Command::SetObjectVisible(i, visible));
                }
                let mut colliding = flags.colliding;
                if ui
                    .checkbox(&mut colliding, "")
                    .on_hover_text("Untick for triggers and decals: the solver ignores them")
                    .changed()
                {
                    app.queue.push(Command::SetObjectColliding(i, colliding));
                }
                ui.end_row();
            }
        });
}

fn probes_section(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    ui.horizontal(|ui| {
        let placing = app.tool == Tool::PlaceProbe;
        if ui
            .selectable_label(placing, "+ Place")
            .on_hover_text("Then click a surface in the view (or double-click a surface any time)")
            .clicked()
        {
            app.tool = if placing {
                Tool::Select
            } else {
                Tool::PlaceProbe
            };
        }
        let sel = app.state.selected;
        if ui
            .add_enabled(sel.is_some(), egui::Button::new("Duplicate"))
            .clicked()
            && let Some(i) = sel
        {
            app.queue.push(Command::Duplicate(i));
        }
        if ui
            .add_enabled(sel.is_some(), egui::Button::new("Delete"))
            .clicked()
            && let Some(i) = sel
        {
            app.queue.push(Command::Delete(i));
        }
    });
    if app.state.probes.is_empty() {
        ui.weak("No probes yet: press + Place and click a floor.");
    }
    for (i, p) in app.state.probes.iter().enumerate() {
        ui.horizontal(|ui| {
            widgets::swatch(ui, p.color);
            let selected = app.state.selected == Some(i);
            let steps = p.stepper.step_count();
            let text = format!("{}  ({steps} it.)", p.name);
            if ui.selectable_label(selected, text).clicked() {
                app.queue
                    .push(Command::Select(if selected { None } else { Some(i) }));
            }
        });
    }
}

/// Width of the probe's name field, points.
const NAME_FIELD_WIDTH: f32 = 110.0;

fn probe_editor(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(i) = app.state.selected else {
        return;
    };
    let before = params_of(&app.state.probes[i]);
    let mut p = before.clone();
    // The fields' refusals are kept per probe.
    let key = |field: &str| egui::Id::unique(("probe_field", i, field.to_string()));
    egui::Grid::new("probe_editor")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("name");
            // As wide as the number fields, not egui's default 280 points:
            // a wider row widens the panel's content past its edge.
            ui.add(egui::TextEdit::singleline(&mut p.name).desired_width(NAME_FIELD_WIDTH));
            ui.end_row();
            ui.label("colour");
            // Only a colour picked: showing the button converts the colour
            // through egui's and back, a change nobody made.
            let mut color = p.color;
            if ui.color_edit_button_rgba_unmultiplied(&mut color).changed() {
                p.color = color;
            }
            ui.end_row();
            let coordinate = Range::coordinate();
            ui.label("position");
            widgets::vec3_edit(
                ui,
                key("position"),
                &mut p.position,
                0.01,
                " m",
                &coordinate,
            );
            ui.end_row();
            widgets::refusal_row(ui, "position", &widgets::axis_keys(key("position")));
            ui.label("velocity");
            widgets::vec3_edit(
                ui,
                key("velocity"),
                &mut p.velocity,
                0.01,
                " m",
                &coordinate,
            );
            ui.end_row();
            widgets::refusal_row(ui, "velocity", &widgets::axis_keys(key("velocity")));
            let s = &mut p.settings;
            let mut radii = glam::DVec3::from_array(s.radii);
            ui.label("radii");
            let radius = ranges::radius(s.skin);
            widgets::vec3_edit(ui, key("radii"), &mut radii, 0.005, " m", &radius);
            ui.end_row();
            widgets::refusal_row(ui, "radii", &widgets::axis_keys(key("radii")));
            s.radii = radii.to_array();
            let mut gravity = glam::DVec3::from_array(s.gravity);
            ui.label("gravity / move");
            widgets::vec3_edit(ui, key("gravity"), &mut gravity, 0.01, " m", &coordinate);
            ui.end_row();
            widgets::refusal_row(ui, "gravity / move", &widgets::axis_keys(key("gravity")));
            s.gravity = gravity.to_array();
            method_rows(ui, i, &mut p.method, &mut p.method_settings);
            let s = &mut p.settings;
            ui.label("mode");
            egui::ComboBox::from_id_salt("mode")
                .selected_text(s.mode.name())
                .show_ui(ui, |ui| {
                    for m in SlideMode::ALL {
                        ui.selectable_value(&mut s.mode, m, m.name());
                    }
                });
            ui.end_row();
            let smallest = s.radii.iter().copied().fold(f64::INFINITY, f64::min);
            let number_rows: [(&str, &mut f64, Range, NumberStyle); 3] = [
                (
                    "skin",
                    &mut s.skin,
                    ranges::skin(smallest),
                    NumberStyle {
                        decimals: 5,
                        ..NumberStyle::new(0.0005, " m")
                    },
                ),
                (
                    "min move",
                    &mut s.min_move,
                    ranges::MIN_MOVE,
                    NumberStyle {
                        decimals: 6,
                        ..NumberStyle::new(1e-5, " m")
                    },
                ),
                (
                    "ghost corner fold",
                    &mut s.ghost_edge_angle_deg,
                    ranges::GHOST_FOLD,
                    NumberStyle::new(0.05, "°"),
                ),
            ];
            for (label, value, range, style) in number_rows {
                let hint = match label {
                    "ghost corner fold" => {
                        "Edge hits whose neighbours fold less than this are ghost corners"
                    }
                    "min move" => "Remaining moves shorter than this end the pass",
                    _ => {
                        "Very-close distance kept between the probe and the geometry; less \
                         than the smallest radius"
                    }
                };
                ui.label(label).on_hover_text(hint);
                widgets::number_field(ui, key(label), value, &range, style);
                ui.end_row();
                widgets::refusal_row(ui, label, &[key(label)]);
            }
            ui.label("iteration cap");
            widgets::number_field(
                ui,
                key("iteration cap"),
                &mut s.max_iterations,
                &ranges::ITERATIONS,
                NumberStyle::new(0.1, " / pass"),
            );
            ui.end_row();
            widgets::refusal_row(ui, "iteration cap", &[key("iteration cap")]);
            ui.label("two-sided");
            ui.checkbox(&mut s.two_sided, "(robust mode)");
            ui.end_row();
            // Short texts: the second column starts at ~130 points, and a
            // longer checkbox ran past the panel's edge.
            let hint = "Checks the clearance and ghost corners after every iteration";
            ui.label("self checks").on_hover_text(hint);
            ui.checkbox(&mut s.self_checks, "each iteration")
                .on_hover_text(hint);
            ui.end_row();
        });
    if let Some(msg) = app
        .state
        .settings_error
        .as_ref()
        .filter(|m| !m.contains("character."))
    {
        ui.colored_label(ui.visuals().error_fg_color, msg);
    }
    if p != before {
        app.queue.push(Command::UpdateProbe(i, Box::new(p)));
    }
}

fn walk_section(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let mut view = app.state.view;
    if ui
        .checkbox(
            &mut view.walk_along_probe,
            "W walks along the probe's velocity",
        )
        .on_hover_text("Off: W walks away from the camera, whichever way it looks")
        .changed()
    {
        app.queue.push(Command::SetView(view));
    }
    let walking = app.state.walk.active;
    let label = if walking {
        "Stop walking"
    } else {
        "Walk with the selected probe"
    };
    if ui
        .add_enabled(app.state.selected.is_some(), egui::Button::new(label))
        .clicked()
    {
        app.queue.push(Command::SetWalk(!walking));
    }
    let rate = app
        .state
        .selected_probe()
        .map_or(60.0, |p| p.settings.character.frame_rate_hz);
    ui.weak(format!(
        "WASD relative to the camera, Space jumps, P or Esc stops. The character model \
         at {rate} frames/s (the Character settings); click a frame to step it phase by phase."
    ));
    let can_chain = !app.state.walk.active && app.state.walk.frames.len() > 1;
    if ui
        .add_enabled(can_chain, egui::Button::new("Box chain on this walk"))
        .on_hover_text(
            "The box camera along the recorded walk, one box per segment (Snok's long chains): \
             step the segments, see which level rejected each triangle and where the box's \
             edges cross the level",
        )
        .on_disabled_hover_text("Record a walk first, then stop walking")
        .clicked()
    {
        app.queue.push(Command::BoxChainOnWalk);
    }
    let w = &app.state.walk;
    if w.frames.is_empty() {
        // No frame has run: "in the air" would be said of a probe resting
        // on the floor.
        ui.label("No frames recorded yet");
    } else {
        ui.label(format!(
            "{} frames recorded · {}",
            w.frames.len(),
            if w.grounded() {
                "on ground"
            } else {
                "in the air"
            }
        ));
    }
    egui::ScrollArea::vertical()
        .id_salt("walk_frames")
        .max_height(160.0)
        .show_rows(ui, 18.0, w.frames.len(), |ui, range| {
            // Rows have one height (`show_rows`): cut, never wrapped.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for i in range {
                let f = &w.frames[i];
                let text = format!(
                    "#{}: {} it. · {}",
                    f.spec.index,
                    f.iterations,
                    walk_frame_words(f)
                );
                if ui
                    .selectable_label(false, text)
                    .on_hover_text("Open this frame in the stepper (full detail, phase by phase)")
                    .clicked()
                {
                    app.queue.push(Command::OpenWalkFrame(i));
                }
            }
        });
}

/// The probe editor's method rows: the method and, for the methods that
/// step in time, the step rate and the move's duration (probe `i`'s).
fn method_rows(
    ui: &mut egui::Ui,
    i: usize,
    method: &mut crate::methods::Method,
    ms: &mut crate::methods::MethodSettings,
) {
    use crate::methods::Method;
    ui.label("method")
        .on_hover_text("The collision method this probe's move runs by (docs/methods.md)");
    egui::ComboBox::from_id_salt("method")
        .selected_text(method.name())
        .show_ui(ui, |ui| {
            for m in Method::ALL {
                ui.selectable_value(method, m, m.name())
                    .on_hover_text(m.description());
            }
        });
    ui.end_row();
    if matches!(*method, Method::Discrete | Method::Box | Method::Radial) {
        let key = |field: &str| egui::Id::unique(("probe_field", i, field.to_string()));
        ui.label("step rate");
        let rate = ranges::step_rate(ms.move_seconds);
        widgets::number_field(
            ui,
            key("step rate"),
            &mut ms.step_hz,
            &rate,
            NumberStyle::new(1.0, " Hz"),
        );
        ui.end_row();
        widgets::refusal_row(ui, "step rate", &[key("step rate")]);
        ui.label("move takes")
            .on_hover_text("The velocity is covered in this time: speed = |velocity| / time");
        let takes = ranges::move_seconds(ms.step_hz);
        widgets::number_field(
            ui,
            key("move takes"),
            &mut ms.move_seconds,
            &takes,
            NumberStyle::new(0.01, " s"),
        );
        ui.end_row();
        widgets::refusal_row(ui, "move takes", &[key("move takes")]);
    }
}
