//! The menu bar (File, Edit, View, Probe) and the status bar (messages, load
//! progress, hover facts, timings).

use super::{CollidoscopeApp, Tool, widgets};
use crate::app::command::Command;
use crate::app::file_prompt::{FilePrompt, PromptPurpose, options_words};
use crate::app::state::Severity;
use crate::collide::debug_draw::OverlayKind;
use crate::export::engines::Engine;
use crate::render::{CameraPreset, CameraView};
use eframe::egui;

/// The top menu bar.
pub fn menu_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    egui::Panel::top("menu_bar").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| file_menu(ui, app));
            ui.menu_button("Edit", |ui| edit_menu(ui, app));
            ui.menu_button("View", |ui| view_menu(ui, app));
            ui.menu_button("Probe", |ui| probe_menu(ui, app));
        });
    });
}

fn file_menu(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let q = &mut app.queue;
    if ui
        .add(egui::Button::new("Open level…").shortcut_text("Ctrl+O"))
        .clicked()
    {
        q.push(Command::OpenDialog);
    }
    if ui
        .button("Open built-in level")
        .on_hover_text("The level shipped with Collidoscope: stairs, doors, ramps, creases")
        .clicked()
    {
        q.push(Command::OpenBuiltinLevel);
    }
    ui.menu_button("Recent files", |ui| {
        if app.state.recent_files.is_empty() {
            ui.label("(none yet)");
        }
        for recent in &app.state.recent_files {
            let name = recent.path.file_name().map_or_else(
                || recent.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let words = options_words(&recent.options);
            if ui
                .button(format!("{name}  ({words})"))
                .on_hover_text(format!(
                    "{}\nOpens with its own import options: {words}",
                    recent.path.display()
                ))
                .clicked()
            {
                q.push(Command::OpenLevelWith(recent.path.clone(), recent.options));
            }
        }
    });
    if let Some(path) = app.state.level_path.clone()
        && ui
            .button("Reopen with other import options…")
            .on_hover_text(format!(
                "Opened with: {}",
                options_words(&app.state.import_options)
            ))
            .clicked()
    {
        let mut prompt = FilePrompt::new(
            PromptPurpose::OpenLevel,
            path.display().to_string(),
            app.state.import_options,
        );
        prompt.message = None;
        q.push(Command::SetFilePrompt(Some(prompt)));
    }
    if ui
        .add_enabled(
            app.state.level.is_some(),
            egui::Button::new("Import recording…"),
        )
        .on_hover_text("Replay a recorded path (CSV or JSON Lines) on this level, frame by frame")
        .on_disabled_hover_text("Open a level first")
        .clicked()
    {
        q.push(Command::ImportRecordingDialog);
    }
    if ui
        .button("Open repro bundle…")
        .on_hover_text("A bundle folder: its level, settings and move, ready to step")
        .clicked()
    {
        q.push(Command::OpenReproBundleDialog);
    }
    ui.separator();
    let has_probe = app.state.selected_probe().is_some();
    if ui
        .add_enabled(has_probe, egui::Button::new("Write repro bundle…"))
        .on_hover_text("The selected probe's move, its triangles and settings, in a folder")
        .on_disabled_hover_text("A bundle holds a probe's move: select one first")
        .clicked()
    {
        q.push(Command::WriteReproBundleDialog);
    }
    let no_probe = "Settings belong to a probe: select one first";
    if ui
        .add_enabled(has_probe, egui::Button::new("Export settings…"))
        .on_disabled_hover_text(no_probe)
        .clicked()
    {
        q.push(Command::ExportSettingsDialog);
    }
    ui.add_enabled_ui(has_probe, |ui| {
        ui.menu_button("Export for engine", |ui| {
            for engine in Engine::ALL {
                if ui.button(format!("{}…", engine.title())).clicked() {
                    q.push(Command::ExportForEngineDialog(engine));
                }
            }
        })
    })
    .response
    .on_disabled_hover_text(no_probe);
    if ui
        .add_enabled(has_probe, egui::Button::new("Import settings…"))
        .on_disabled_hover_text(no_probe)
        .clicked()
    {
        q.push(Command::ImportSettingsDialog);
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

/// Undo and Redo, each naming the edit it would undo or redo, greyed
/// when there is none.
fn edit_menu(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let undo = app.state.undo_label();
    let redo = app.state.redo_label();
    let text = |verb: &str, what: &Option<String>| match what {
        Some(w) => format!("{verb} {w}"),
        None => verb.to_string(),
    };
    if ui
        .add_enabled(
            undo.is_some(),
            egui::Button::new(text("Undo", &undo)).shortcut_text("Ctrl+Z"),
        )
        .on_disabled_hover_text("Nothing to undo since the level was loaded")
        .clicked()
    {
        app.queue.push(Command::Undo);
    }
    if ui
        .add_enabled(
            redo.is_some(),
            egui::Button::new(text("Redo", &redo)).shortcut_text("Ctrl+Shift+Z"),
        )
        .on_disabled_hover_text("Nothing undone to redo")
        .clicked()
    {
        app.queue.push(Command::Redo);
    }
    ui.separator();
    ui.weak(format!(
        "{} to undo, {} to redo (at most {} kept)",
        app.state.history.undo_len(),
        app.state.history.redo_len(),
        crate::app::history::MAX_UNDO_STEPS
    ));
}

fn view_menu(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let mut view = app.state.view;
    ui.checkbox(&mut view.wireframe, "Wireframe");
    ui.checkbox(&mut view.grid, "Grid");
    ui.checkbox(&mut view.axes, "Axes");
    ui.checkbox(&mut view.hover_info, "Hover info");
    ui.checkbox(&mut view.overlays_on_top, "X-ray: overlays on top")
        .on_hover_text(
            "Draw the overlays over the level and the probes, so a contact normal or \
             slide vector inside the probe or behind a wall still shows.",
        );
    ui.checkbox(&mut view.all_labels, "Label every overlay point")
        .on_hover_text(
            "Off: only what the iteration decided (contact, chosen triangle, sliding plane) \
             and the probes are labelled; hover a point for its label. Labels that do not \
             fit are hidden and counted (\"+3 labels hidden\").",
        );
    ui.horizontal(|ui| {
        ui.label("Label size");
        ui.add(
            egui::DragValue::new(&mut view.label_size_pt)
                .range(crate::app::state::LABEL_SIZE_RANGE_PT)
                .suffix(" pt"),
        );
    });
    ui.checkbox(&mut app.fly, "Fly camera (WASD + drag)");
    ui.horizontal(|ui| {
        ui.label("BVH level shown");
        ui.add(egui::DragValue::new(&mut view.bvh_level_depth).range(0..=64));
    });
    ui.horizontal(|ui| {
        ui.label("Boxes drawn per kind");
        ui.add(egui::DragValue::new(&mut view.max_boxes_per_kind).range(1..=100_000))
            .on_hover_text(
                "Hits first, then the boxes nearest to the probe. Thousands of boxes \
                 slow the view down and hide the level.",
            );
    });
    if view != app.state.view {
        app.queue.push(Command::SetView(view));
    }
    ui.separator();
    camera_presets(ui, app);
    ui.separator();
    // A submenu: its rows below the rest would run off a 800-pixel window.
    // It scrolls too: its 40-odd rows alone are taller than 800 pixels.
    ui.menu_button("Overlays", |ui| {
        let max_h = (ui.ctx().content_rect().height() - 40.0).max(120.0);
        egui::ScrollArea::vertical()
            .id_salt("overlay_menu")
            .max_height(max_h)
            .show(ui, |ui| overlay_toggles(ui, app));
    });
}

/// Front / side / top orthographic views, the perspective view, the
/// elevation along a walk, each framing the subject (the open finding,
/// the selected probe or object, else the whole level), and the view
/// along the selected probe's velocity.
fn camera_presets(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    ui.label("Camera (each frames the selection, else the level; F reframes)");
    let loaded = app.state.level.is_some();
    for preset in CameraPreset::ALL {
        if ui
            .add_enabled(loaded, egui::Button::new(preset.label()))
            .clicked()
        {
            app.queue.push(Command::ViewPreset(preset));
            ui.close();
        }
    }
    let walk = loaded && app.state.walk_direction().is_some();
    if ui
        .add_enabled(
            walk,
            egui::Button::new("Along the walk (orthographic, side-on)"),
        )
        .on_hover_text(
            "Looks across the open finding's walk (or the selected probe's move), \
             the walk left to right: risers and lintels at their true heights",
        )
        .on_disabled_hover_text(crate::app::views::NO_WALK_FOR_ELEVATION)
        .clicked()
    {
        app.queue.push(Command::ViewAlongWalk);
        ui.close();
    }
    let along = app.state.selected_probe().and_then(|p| {
        CameraView::along(
            p.shown_center().as_vec3(),
            p.radii().as_vec3(),
            p.velocity.as_vec3(),
        )
    });
    if ui
        .add_enabled(
            along.is_some(),
            egui::Button::new("Behind the probe, along its velocity"),
        )
        .on_disabled_hover_text("Select a probe that has a velocity")
        .clicked()
        && let Some(view) = along
    {
        app.queue.push(Command::SetCamera(view));
        ui.close();
    }
}

/// One checkbox per overlay, with its legend colour.
pub fn overlay_toggles(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    for kind in OverlayKind::ALL {
        ui.horizontal(|ui| {
            widgets::swatch(ui, kind.color());
            let mut on = app.state.overlays.get(kind);
            if ui.checkbox(&mut on, kind.label()).changed() {
                app.queue.push(Command::SetOverlay(kind, on));
            }
        });
    }
}

fn probe_menu(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    if ui.button("Place probe (click a surface)").clicked() {
        app.tool = Tool::PlaceProbe;
    }
    if ui
        .button("Place cylinder (click a surface)")
        .on_hover_text(
            "A vertical pole for the radial method; edit it in the Scene tab, Cylinders (radial)",
        )
        .clicked()
    {
        app.tool = Tool::PlaceCylinder;
    }
    let sel = app.state.selected;
    if ui
        .add_enabled(
            sel.is_some(),
            egui::Button::new("Duplicate").shortcut_text("Ctrl+D"),
        )
        .clicked()
        && let Some(i) = sel
    {
        app.queue.push(Command::Duplicate(i));
    }
    if ui
        .add_enabled(
            sel.is_some(),
            egui::Button::new("Delete").shortcut_text("Del"),
        )
        .clicked()
        && let Some(i) = sel
    {
        app.queue.push(Command::Delete(i));
    }
    let walking = app.state.walk.active;
    if ui
        .add_enabled(
            sel.is_some(),
            egui::Button::new(if walking { "Stop walking" } else { "Walk mode" })
                .shortcut_text("P"),
        )
        .clicked()
    {
        app.queue.push(Command::SetWalk(!walking));
    }
    ui.separator();
    let two = app.state.probes.len() >= 2;
    if ui
        .add_enabled(two, egui::Button::new("Move all probes together"))
        .on_hover_text("Every probe's move at once; each pair's bounding spheres tested for contact (see the inspector)")
        .on_disabled_hover_text("Needs at least two probes")
        .clicked()
    {
        app.queue.push(Command::MoveProbesTogether);
    }
    if app.state.pairs.is_some() && ui.button("Clear probe pairs").clicked() {
        app.queue.push(Command::ClearProbePairs);
    }
}

/// The status bar at the bottom of the window.
pub fn status_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            if let Some(job) = &app.load {
                ui.add(
                    egui::ProgressBar::new(app.load_progress)
                        .desired_width(220.0)
                        .show_percentage()
                        .animate(true),
                );
                ui.label(format!("Loading {}", job.path().display()));
                if ui
                    .button("Cancel loading")
                    .on_hover_text("Keep the level shown and drop this load")
                    .clicked()
                {
                    app.cancel_load();
                }
                ui.separator();
            }
            if let Some(msg) = app.state.status.clone() {
                let (color, icon) = match msg.severity {
                    Severity::Error => (ui.visuals().error_fg_color, "Error: "),
                    Severity::Info => (ui.visuals().text_color(), ""),
                };
                ui.label(
                    egui::RichText::new(format!("{icon}{}", msg.text))
                        .color(color)
                        .strong(),
                );
                if msg.severity == Severity::Error && ui.small_button("x").clicked() {
                    app.state.status = None;
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let t = app.timings;
                ui.weak(format!(
                    "frame {:.2} ms · step {:.2} ms",
                    t.frame.as_secs_f64() * 1e3,
                    t.step.as_secs_f64() * 1e3
                ));
                if let Some(h) = &app.hover {
                    ui.separator();
                    ui.label(format!(
                        "tri {} · {} · slope {:.1}° · n {}",
                        h.triangle,
                        h.object_name,
                        h.slope_deg,
                        widgets::fmt3(h.normal)
                    ));
                }
            });
        });
    });
}
