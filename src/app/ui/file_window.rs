//! The small windows the File menu opens: the path field (a text field
//! with the typed folder's entries listed as completions, the import
//! options a level will open with, Browse… for the system dialog, Open /
//! Cancel) and the question about probes carried to a new level. They edit
//! copies and push commands; the state checks the path.

use super::widgets::NumberStyle;
use super::{CollidoscopeApp, widgets};
use crate::app::command::Command;
use crate::app::fields::Range;
use crate::app::file_prompt::{
    FilePrompt, PromptPurpose, common_completion, completions, options_words,
};
use crate::app::state::CarryChoice;
use crate::level::{ObjectsBy, UpAxis};
use eframe::egui;

/// The completions listed for a typed text (read from disk only when the
/// text changes, not every frame).
#[derive(Default)]
pub struct CompletionCache {
    key: Option<(String, PromptPurpose)>,
    list: Vec<String>,
    /// Whether the path field was shown last frame (a newly opened field
    /// takes the keyboard focus).
    shown: bool,
    /// The caret's place in the field (characters from the start) last
    /// frame, while it has the focus.
    pub caret: Option<usize>,
}

impl CompletionCache {
    fn get(&mut self, text: &str, purpose: PromptPurpose) -> &[String] {
        let key = (text.to_string(), purpose);
        if self.key.as_ref() != Some(&key) {
            self.list = completions(text, purpose);
            self.key = Some(key);
        }
        &self.list
    }
}

/// Shows the path field when one is open.
pub fn show_prompt(ctx: &egui::Context, app: &mut CollidoscopeApp) {
    let Some(mut prompt) = app.state.file_prompt.clone() else {
        app.completions.shown = false;
        return;
    };
    let before = prompt.clone();
    let mut open = true;
    egui::Window::new(prompt.purpose.title())
        .id(egui::Id::unique("file_prompt"))
        .open(&mut open)
        .collapsible(false)
        .default_width(520.0)
        // Below the menu bar (egui's default spot covered File / View),
        // centred over the view.
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(ctx.content_rect().center_top() + egui::vec2(0.0, 40.0))
        .show(ctx, |ui| prompt_body(ui, app, &mut prompt));
    if !open {
        app.queue.push(Command::SetFilePrompt(None));
    } else if prompt != before {
        app.queue.push(Command::SetFilePrompt(Some(prompt)));
    }
}

fn prompt_body(ui: &mut egui::Ui, app: &mut CollidoscopeApp, prompt: &mut FilePrompt) {
    let field_id = egui::Id::unique("file_prompt_path");
    let focused = ui.memory(|m| m.has_focus(field_id));
    // Tab completes rather than moving the focus away from the field.
    let tab = focused && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Tab));
    if tab {
        let list = app.completions.get(&prompt.text, prompt.purpose).to_vec();
        match common_completion(&prompt.text, &list) {
            Some(longer) => {
                set_text(app, prompt, longer);
                caret_to_end(ui.ctx(), field_id, &prompt.text);
            }
            // Tab never does nothing silently.
            None if list.is_empty() => {
                prompt.message = Some(format!(
                    "Tab: nothing in this folder starts with what is typed{}",
                    kinds_hint(prompt.purpose)
                ));
            }
            None => {
                prompt.message = Some(format!(
                    "Tab: {} entries match; type more, or click one",
                    list.len()
                ));
            }
        }
    }
    // Enter is read here, while the field has the focus, and taken: the
    // field keeps the focus, so a refused path can be corrected at once
    // (egui's own Enter would end the edit first).
    let enter = focused && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
    ui.label("Path");
    let output = egui::TextEdit::singleline(&mut prompt.text)
        .id(field_id)
        // Tab stays in the field (it completes, above).
        .lock_focus(true)
        .desired_width(f32::INFINITY)
        .hint_text("/path/to/file (Tab completes)")
        .show(ui);
    let field = output.response.response;
    app.completions.caret = output
        .cursor_range
        .map(|r| r.primary.index.0)
        .filter(|_| field.has_focus());
    if !std::mem::replace(&mut app.completions.shown, true) {
        field.request_focus();
        caret_to_end(ui.ctx(), field_id, &prompt.text);
    }
    if field.changed() {
        let text = prompt.text.clone();
        set_text(app, prompt, text);
    }
    let list = app.completions.get(&prompt.text, prompt.purpose).to_vec();
    egui::ScrollArea::vertical()
        .max_height(150.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if list.is_empty() {
                ui.weak("(nothing here matches)");
            }
            for entry in &list {
                let name = entry.rsplit_terminator('/').next().unwrap_or(entry);
                let shown = if entry.ends_with('/') {
                    format!("{name}/")
                } else {
                    name.to_string()
                };
                let r = ui.selectable_label(false, shown);
                if r.clicked() {
                    set_text(app, prompt, entry.clone());
                    // Back to the field, typing on after the entry.
                    ui.memory_mut(|m| m.request_focus(field_id));
                    caret_to_end(ui.ctx(), field_id, &prompt.text);
                }
                if r.double_clicked() && !entry.ends_with('/') {
                    app.queue.push(Command::AcceptFilePrompt);
                }
            }
        });
    if prompt.purpose == PromptPurpose::OpenLevel {
        ui.separator();
        import_options(ui, prompt);
    }
    if prompt.purpose == PromptPurpose::ImportRecording {
        ui.separator();
        recording_options(ui, prompt);
    }
    if let Some(msg) = &prompt.message {
        ui.add(
            egui::Label::new(egui::RichText::new(msg).color(ui.visuals().error_fg_color)).wrap(),
        );
    }
    ui.horizontal(|ui| {
        let accept = if prompt.purpose.writes() {
            "Save"
        } else {
            "Open"
        };
        if ui.button(accept).clicked() || enter {
            app.queue.push(Command::AcceptFilePrompt);
        }
        if ui.button("Cancel").clicked() {
            app.queue.push(Command::SetFilePrompt(None));
        }
        if ui
            .button("Browse…")
            .on_hover_text("The system file dialog (desktop portal or zenity), where there is one")
            .clicked()
        {
            app.queue.push(Command::BrowseNative);
        }
    });
}

/// Puts the path field's caret after the last character of `text` (after
/// a completion, typing goes on at the end, not where the caret was).
fn caret_to_end(ctx: &egui::Context, id: egui::Id, text: &str) {
    let mut state = egui::text_edit::TextEditState::load(ctx, id).unwrap_or_default();
    let end = egui::text::CCursor::new(text.chars().count());
    state
        .cursor
        .set_char_range(Some(egui::text::CCursorRange::one(end)));
    state.store(ctx, id);
}

/// " (.obj or .gz or .png files and folders)": what the list offers.
fn kinds_hint(purpose: PromptPurpose) -> String {
    match purpose.extensions() {
        [] => " (folders)".into(),
        kinds => format!(" (.{} files and folders)", kinds.join(" or .")),
    }
}

/// A new text: the error under the field is stale, and a level opened
/// before brings back its own import options.
fn set_text(app: &CollidoscopeApp, prompt: &mut FilePrompt, text: String) {
    prompt.text = text;
    prompt.message = None;
    let path = crate::app::file_prompt::expand_home(prompt.text.trim());
    if let Some(r) = app.state.recent_files.iter().find(|r| r.path == path) {
        prompt.options = r.options;
    }
}

fn import_options(ui: &mut egui::Ui, prompt: &mut FilePrompt) {
    let o = &mut prompt.options;
    ui.strong("Import options");
    ui.horizontal(|ui| {
        ui.label("Up axis");
        ui.radio_value(&mut o.up, UpAxis::Y, "Y up (Blender, Godot)");
        ui.radio_value(&mut o.up, UpAxis::Z, "Z up (Quake, Unreal)");
    });
    scale_row(ui, &mut o.scale);
    ui.horizontal(|ui| {
        ui.label("Objects by");
        ui.radio_value(&mut o.objects_by, ObjectsBy::Group, "o / g groups");
        ui.radio_value(&mut o.objects_by, ObjectsBy::Material, "materials");
        ui.radio_value(&mut o.objects_by, ObjectsBy::GroupAndMaterial, "both");
    });
    let keys = [
        egui::Id::unique("heightmap_spacing_field"),
        egui::Id::unique("heightmap_white_field"),
    ];
    ui.horizontal(|ui| {
        ui.label("Heightmap (.png)");
        widgets::number_field(
            ui,
            keys[0],
            &mut o.heightmap_spacing,
            &Range::closed(1e-3, 1e4, " m"),
            NumberStyle {
                prefix: "spacing ",
                ..NumberStyle::new(0.01, " m")
            },
        );
        widgets::number_field(
            ui,
            keys[1],
            &mut o.heightmap_height_scale,
            &Range::closed(-1e5, 1e5, " m"),
            NumberStyle {
                prefix: "white at ",
                ..NumberStyle::new(0.1, " m")
            },
        );
    })
    .response
    .on_hover_text(
        "Spacing: metres between neighbouring pixels, in x and z. White at: the height of a \
         white pixel; black is 0 m",
    );
    widgets::refusal_line(ui, "heightmap", &keys);
    ui.weak(format!("Will open with: {}", options_words(o)));
}

/// The recording's up axis and unit scale (its format comes from its name:
/// `.jsonl` / `.json` JSON Lines, else CSV; its columns have their default
/// names, `collidoscope replay --columns` renames them).
fn recording_options(ui: &mut egui::Ui, prompt: &mut FilePrompt) {
    let o = &mut prompt.options;
    ui.strong("Recording options");
    ui.horizontal(|ui| {
        ui.label("Up axis");
        ui.radio_value(&mut o.up, UpAxis::Y, "Y up");
        ui.radio_value(&mut o.up, UpAxis::Z, "Z up");
    });
    scale_row(ui, &mut o.scale);
    ui.add(
        egui::Label::new(
            egui::RichText::new(
                "Columns t, x, y, z and vx, vy, vz or ix, iy, iz (optional jump, grounded); \
                 .csv has a header row, .jsonl one object per line. Replayed with the \
                 selected probe's settings.",
            )
            .weak(),
        )
        .wrap(),
    );
}

/// Asks what to do with probes carried to a new level.
pub fn show_carry_prompt(ctx: &egui::Context, app: &mut CollidoscopeApp) {
    let Some(prompt) = app.state.carry_prompt.clone() else {
        return;
    };
    let n = app.state.probes.len();
    egui::Window::new("Probes on the new level")
        .id(egui::Id::unique("carry_prompt"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
        .show(ctx, |ui| {
            ui.label(format!(
                "{} came from the previous level to {}.",
                crate::app::carry::probes_words(n),
                prompt.level_name
            ));
            for line in &prompt.misfits {
                ui.colored_label(ui.visuals().warn_fg_color, line);
            }
            let mut remember = app.carry_remember;
            ui.checkbox(&mut remember, "Do the same for every level this session");
            app.carry_remember = remember;
            ui.horizontal(|ui| {
                let choices = [
                    (
                        CarryChoice::Reseat,
                        "Re-seat on the floor",
                        "Move each onto the floor under its X and Z",
                    ),
                    (
                        CarryChoice::Keep,
                        "Keep as they are",
                        "Leave them where they were",
                    ),
                    (CarryChoice::Clear, "Clear them", "Delete every probe"),
                ];
                for (choice, label, hover) in choices {
                    if ui.button(label).on_hover_text(hover).clicked() {
                        app.queue.push(Command::CarryProbes { choice, remember });
                    }
                }
            });
        });
}

/// The unit scale of a level or a recording: a number field that refuses
/// values out of its range, the refusal under it.
fn scale_row(ui: &mut egui::Ui, scale: &mut f64) {
    let key = egui::Id::unique("unit_scale_field");
    ui.horizontal(|ui| {
        ui.label("Unit scale");
        widgets::number_field(
            ui,
            key,
            scale,
            &Range::closed(1e-6, 1e6, " m per unit"),
            NumberStyle {
                decimals: 6,
                ..NumberStyle::new(0.001, " m per unit")
            },
        );
    });
    widgets::refusal_line(ui, "unit scale", &[key]);
}
