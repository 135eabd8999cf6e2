//! The Character page of the left panel: the selected probe's character
//! settings (units in the labels; a refused value says which field and
//! why, right there) and its envelope, measured in the background, each
//! limit with the walks that decided it.

use super::widgets::NumberStyle;
use super::{CollidoscopeApp, widgets};
use crate::analysis::envelope::{Envelope, Limit};
use crate::app::command::Command;
use crate::app::envelope_job::EnvelopeStatus;
use crate::app::fields::{Range, ranges};
use crate::app::probes::params_of;
use crate::app::walk::summary_words;
use crate::character::{
    CharacterSettings, ClimbingMode, ControllerRules, EngineProfile, NonWalkable,
};
use eframe::egui;

/// One envelope row: the label, the limit, its unit, its decimals.
pub fn envelope_rows(e: &Envelope) -> [(&'static str, &Limit, &'static str, usize); 6] {
    [
        ("tallest step, standing", &e.max_step_height_m, "m", 3),
        (
            "tallest step, running",
            &e.max_step_height_running_m,
            "m",
            3,
        ),
        ("steepest ramp", &e.max_slope_deg, "°", 1),
        ("narrowest opening", &e.min_opening_width_m, "m", 3),
        ("lowest ceiling", &e.min_opening_height_m, "m", 3),
        ("widest gap crossed", &e.max_gap_crossed_m, "m", 3),
    ]
}

/// `tallest step, standing: 0.302 m` (the header of a limit's row).
pub fn limit_header(name: &str, l: &Limit, unit: &str, decimals: usize) -> String {
    let sep = if unit == "°" { "" } else { " " };
    if l.found {
        format!("{name}: {:.decimals$}{sep}{unit}", l.value)
    } else {
        format!("{name}: fails even at {:.decimals$}{sep}{unit}", l.value)
    }
}

/// Shows the section for the selected probe.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(i) = app.state.selected.filter(|&i| i < app.state.probes.len()) else {
        ui.weak("Select a probe to tune how its character walks (Scene > Probes).");
        return;
    };
    let probe = &app.state.probes[i];
    ui.horizontal(|ui| {
        widgets::swatch(ui, probe.color);
        ui.strong(&probe.name);
    });
    settings_grid(ui, app, i);
    if let Some(msg) = app
        .state
        .settings_error
        .as_ref()
        .filter(|m| m.contains("character."))
    {
        ui.colored_label(ui.visuals().error_fg_color, msg);
    }
    ui.separator();
    envelope_view(ui, app);
}

fn settings_grid(ui: &mut egui::Ui, app: &mut CollidoscopeApp, i: usize) {
    let before = params_of(&app.state.probes[i]);
    let mut p = before.clone();
    ui.horizontal(|ui| {
        ui.label("engine").on_hover_text(
            "Whose character controller the walks, the envelope and the checks follow: \
             its shape (the capsule as wide and tall as the probe, unless the settings \
             name a shape) and its rules for stepping up and keeping to the ground",
        );
        let current = p.settings.character.engine;
        egui::ComboBox::from_id_salt(("character_engine", i))
            .width((ui.available_width() - 8.0).max(60.0))
            .truncate()
            .selected_text(current.title())
            .show_ui(ui, |ui| {
                for e in EngineProfile::ALL {
                    ui.selectable_value(&mut p.settings.character.engine, e, e.title());
                }
            });
    });
    let body = crate::character::frame_settings(&p.settings).shape;
    if !body.is_ellipsoid() {
        ui.weak(format!("body: {body}"));
    }
    let c = &mut p.settings.character;
    egui::Grid::new("character_settings")
        .num_columns(2)
        .show(ui, |ui| {
            let rows: [(&str, &mut f64, f64, &str, Range); 9] = [
                (
                    "walk speed (m/s)",
                    &mut c.walk_speed_m_s,
                    0.05,
                    "Horizontal walking speed",
                    Range {
                        unit: " m/s",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "frame rate (Hz)",
                    &mut c.frame_rate_hz,
                    1.0,
                    "Frames simulated per second, from 1 to 1000",
                    ranges::FRAME_RATE,
                ),
                (
                    "gravity (m/s²)",
                    &mut c.gravity_m_s2,
                    0.05,
                    "Acceleration pulling down",
                    Range {
                        unit: " m/s²",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "jump speed (m/s)",
                    &mut c.jump_speed_m_s,
                    0.05,
                    "Upward speed a jump gives",
                    Range {
                        unit: " m/s",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "step height (m)",
                    &mut c.max_step_height_m,
                    0.005,
                    "Tallest step climbed",
                    Range {
                        unit: " m",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "tread depth (m)",
                    &mut c.min_tread_depth_m,
                    0.005,
                    "A step-up moves at least this far forward",
                    Range {
                        unit: " m",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "walkable slope (°)",
                    &mut c.max_slope_deg,
                    0.5,
                    "Steepest walkable slope, less than 90°; steeper contacts are walls",
                    ranges::SLOPE,
                ),
                (
                    "ground snap (m)",
                    &mut c.snap_distance_m,
                    0.005,
                    "Pulled down onto ground this far when walking down",
                    Range {
                        unit: " m",
                        ..ranges::CHARACTER
                    },
                ),
                (
                    "fastest fall (m/s)",
                    &mut c.max_fall_speed_m_s,
                    0.1,
                    "Terminal speed, more than 0",
                    ranges::FALL_SPEED,
                ),
            ];
            for (label, value, speed, hint, range) in rows {
                let key = egui::Id::unique(("character_field", i, label));
                ui.label(label).on_hover_text(hint);
                let style = NumberStyle {
                    decimals: 4,
                    ..NumberStyle::new(speed, "")
                };
                widgets::number_field(ui, key, value, &range, style);
                ui.end_row();
                widgets::refusal_row(ui, label, &[key]);
            }
        });
    engine_rules(ui, &mut p.settings.character, i);
    if p != before {
        app.queue.push(Command::UpdateProbe(i, Box::new(p)));
    }
}

/// The choices an engine's own controller offers beyond the numbers: what
/// it does on ground too steep to walk, and (for the profiles that step up
/// by the whole step height) whether its round body may ride over an edge
/// above the step. "The profile's own" leaves them out of the settings.
fn engine_rules(ui: &mut egui::Ui, c: &mut CharacterSettings, i: usize) {
    let rules = ControllerRules::of(c.engine);
    egui::Grid::new(("character_engine_rules", i))
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("steep ground").on_hover_text(
                "On ground steeper than the walkable slope, after a fall or a step: \
                 stand where it came down, or slide down it (PhysX's nonWalkableMode). \
                 It never walks up it. (own): the engine profile's own choice",
            );
            let own = format!("{} (own)", steep_words(rules.non_walkable));
            choice(
                ui,
                ("character_non_walkable", i),
                &mut c.non_walkable,
                &own,
                &[
                    NonWalkable::PreventClimbing,
                    NonWalkable::PreventClimbingAndForceSliding,
                ],
                steep_words,
            );
            ui.end_row();
            if rules.offers_climbing_choice() {
                ui.label("step over edges").on_hover_text(
                    "Whether a step-up's round body may ride over an edge above the \
                     step height (easy) or lands no higher than it (constrained; \
                     PhysX's climbingMode). (own): the engine profile's own choice",
                );
                let own = format!("{} (own)", climb_words(rules.climbing));
                choice(
                    ui,
                    ("character_climbing", i),
                    &mut c.climbing_mode,
                    &own,
                    &[ClimbingMode::Easy, ClimbingMode::Constrained],
                    climb_words,
                );
                ui.end_row();
            }
        });
    if c.engine == EngineProfile::Unreal {
        // Its own grid: the long labels would narrow the menus above.
        egui::Grid::new(("character_perch", i))
            .num_columns(2)
            .show(ui, |ui| {
                let rows: [(&str, &mut f64, &str); 2] = [
                    (
                        "perch threshold (m)",
                        &mut c.perch_radius_threshold_m,
                        "Unreal's PerchRadiusThreshold: standing on an edge farther from \
                         the axis than the radius less this needs floor close below, or \
                         the character falls off; 0 stands on any edge under its base",
                    ),
                    (
                        "perch extra height (m)",
                        &mut c.perch_additional_height_m,
                        "Unreal's PerchAdditionalHeight: how much deeper than the step \
                         height the floor under a walking character's perch may be \
                         (with a perch threshold above 0)",
                    ),
                ];
                for (label, value, hint) in rows {
                    let key = egui::Id::unique(("character_field", i, label));
                    ui.label(label).on_hover_text(hint);
                    let range = Range {
                        unit: " m",
                        ..ranges::CHARACTER
                    };
                    let style = NumberStyle {
                        decimals: 4,
                        ..NumberStyle::new(0.005, "")
                    };
                    widgets::number_field(ui, key, value, &range, style);
                    ui.end_row();
                    widgets::refusal_row(ui, label, &[key]);
                }
            });
    }
}

fn steep_words(n: NonWalkable) -> &'static str {
    match n {
        NonWalkable::PreventClimbing => "stands",
        NonWalkable::PreventClimbingAndForceSliding => "slides",
    }
}

fn climb_words(m: ClimbingMode) -> &'static str {
    match m {
        ClimbingMode::Easy => "easy",
        ClimbingMode::Constrained => "constrained",
    }
}

/// A menu of `options` and the profile's own choice (`None`, shown as
/// `own`, e.g. "slides (own)"; the hover text says what each does).
fn choice<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    value: &mut Option<T>,
    own: &str,
    options: &[T],
    words: fn(T) -> &'static str,
) {
    let shown = value.map_or(own.to_string(), |v| words(v).to_string());
    egui::ComboBox::from_id_salt(id)
        .width((ui.available_width() - 8.0).max(60.0))
        .truncate()
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(value, None, own);
            for &o in options {
                ui.selectable_value(value, Some(o), words(o));
            }
        });
}

fn envelope_view(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    ui.horizontal(|ui| {
        ui.strong("Envelope");
        if app.envelope_status == EnvelopeStatus::Measuring {
            ui.spinner();
            ui.weak("measuring…");
        }
    })
    .response
    .on_hover_text(
        "What this character can do, measured by walking it over generated courses \
         (the same walks as `collidoscope envelope`)",
    );
    match app.envelope.current() {
        None => {}
        Some(Err(e)) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        Some(Ok(e)) => {
            for (name, limit, unit, decimals) in envelope_rows(e) {
                egui::CollapsingHeader::new(limit_header(name, limit, unit, decimals))
                    .id_salt(name)
                    .show(ui, |ui| limit_detail(ui, limit, unit, decimals));
            }
        }
    }
}

fn limit_detail(ui: &mut egui::Ui, l: &Limit, unit: &str, decimals: usize) {
    let size = |x: f64| format!("{x:.decimals$} {unit}");
    let bracket = match (l.found, l.failed_at) {
        (false, _) => format!("fails even at {}", size(l.value)),
        (true, Some(bad)) => format!("passes at {}, fails at {}", size(l.passed_at), size(bad)),
        (true, None) => format!("every size tried passed (up to {})", size(l.passed_at)),
    };
    ui.label(format!("{bracket} ({} walks)", l.walks));
    if let (Some(course), Some(walk)) = (&l.fail_course, &l.fail_walk) {
        ui.label(egui::RichText::new(format!("Failing walk ({})", course.name())).strong());
        ui.label(summary_words(walk));
    }
    if l.found {
        ui.label(egui::RichText::new(format!("Passing walk ({})", l.pass_course.name())).strong());
        ui.label(summary_words(&l.pass_walk));
    }
}
