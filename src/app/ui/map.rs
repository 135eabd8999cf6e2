//! The Map page of the left panel: the stuck-spot map's options (grid
//! spacing, directions, seconds per walk), Run map with progress and
//! Cancel while it runs, the start points per class in the class colours
//! (the heat map's legend, with counts), the opened spot, and the worst
//! spots (a click opens the walk in the stepper, as a click on a cell of
//! the heat map in the view does).

use super::widgets::NumberStyle;
use super::{CollidoscopeApp, widgets};
use crate::analysis::map::{MAX_DIRECTIONS, MAX_SECONDS, MapClass, MapReport, MapSpot};
use crate::app::command::Command;
use crate::app::fields::Range;
use crate::app::map::class_color;
use eframe::egui::{self, RichText};

/// Height of one row of the spots list, points.
const ROW_H: f32 = 20.0;
/// Most rows in the worst-spots list.
const MAX_ROWS: usize = 2000;

/// A class's words for people.
pub fn class_words(c: MapClass) -> &'static str {
    match c {
        MapClass::Free => "free",
        MapClass::Blocked => "blocked",
        MapClass::CantGetBack => "can't get back",
        MapClass::WalkedOffEdge => "walked off the edge",
        MapClass::Jitter => "jitter",
        MapClass::Stuck => "stuck",
        MapClass::FellThrough => "fell through",
        MapClass::Embedded => "embedded",
    }
}

/// Shows the page (it fills the panel; the list scrolls on its own).
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    options(ui, app);
    run_bar(ui, app);
    let map = &app.state.map;
    if let Some(e) = &map.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let (Some(at), false) = (map.cancelled_at, map.running()) {
        ui.weak(format!(
            "Cancelled at {:.0} %: no map kept. Run map starts again.",
            at * 100.0
        ));
    }
    let Some(report) = map.report.clone() else {
        if !map.running() {
            ui.weak(
                "Walks the character from every floor of the level (a grid of start \
                 points) in every direction, and colours each start point by its worst \
                 walk: where does a player get stuck?",
            );
        }
        return;
    };
    counts(ui, app, &report);
    ui.separator();
    opened(ui, app, &report);
    spots_list(ui, app, &report);
}

fn options(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let before = app.state.map.options;
    let mut o = before;
    let enabled = !app.state.map.running();
    ui.add_enabled_ui(enabled, |ui| {
        egui::Grid::new("map_options")
            .num_columns(2)
            .show(ui, |ui| {
                let key = |field: &str| egui::Id::unique(("map_field", field.to_string()));
                ui.label("spacing")
                    .on_hover_text("Distance between start points, metres");
                widgets::number_field(
                    ui,
                    key("spacing"),
                    &mut o.spacing_m,
                    &Range::closed(0.05, 50.0, " m"),
                    NumberStyle::new(0.05, " m"),
                );
                ui.end_row();
                widgets::refusal_row(ui, "spacing", &[key("spacing")]);
                ui.label("directions")
                    .on_hover_text("Walks from each start point, evenly spaced around");
                widgets::number_field(
                    ui,
                    key("directions"),
                    &mut o.directions,
                    &Range::closed(1.0, f64::from(MAX_DIRECTIONS), "").whole(),
                    NumberStyle::new(0.1, ""),
                );
                ui.end_row();
                widgets::refusal_row(ui, "directions", &[key("directions")]);
                ui.label("seconds")
                    .on_hover_text("How long each walk holds the input");
                widgets::number_field(
                    ui,
                    key("seconds"),
                    &mut o.seconds,
                    &Range::above(0.0, MAX_SECONDS, " s"),
                    NumberStyle::new(0.05, " s"),
                );
                ui.end_row();
                widgets::refusal_row(ui, "seconds", &[key("seconds")]);
            });
    });
    if o != before {
        app.queue.push(Command::SetMapOptions(o));
    }
}

fn run_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let bar = widgets::RunBar {
        running: app.state.map.running(),
        progress: app.state.map.progress,
        run: (
            "Run map",
            "Map the level in the background (Cancel stops it)",
        ),
        commands: (Command::RunMap, Command::CancelMap),
    };
    widgets::run_bar(ui, app, bar);
}

/// The heat map's legend: each class with its swatch and count; a click
/// on one lists only its spots.
fn counts(ui: &mut egui::Ui, app: &mut CollidoscopeApp, r: &MapReport) {
    let on = app
        .state
        .overlays
        .get(crate::collide::debug_draw::OverlayKind::StuckMap);
    let mut show = on;
    ui.checkbox(&mut show, "Heat map in the view");
    if show != on {
        app.queue.push(Command::SetOverlay(
            crate::collide::debug_draw::OverlayKind::StuckMap,
            show,
        ));
    }
    let listed = app.state.map.listed;
    // One class a line: the panel is narrow, and a line never overflows it.
    ui.vertical(|ui| {
        ui.spacing_mut().item_spacing.y = 1.0;
        for class in MapClass::ALL {
            ui.horizontal(|ui| {
                widgets::swatch(ui, class_color(class));
                let text = format!("{} {}", r.counts.get(class), class_words(class));
                let on = listed == Some(class);
                if ui
                    .selectable_label(on, text)
                    .on_hover_text("List only these spots (click again: the worst of all)")
                    .clicked()
                {
                    app.queue
                        .push(Command::SetMapListed((!on).then_some(class)));
                }
            });
        }
    });
    ui.weak(format!(
        "{} start points ({} could not stand, {} without ground under the footprint, {} unreachable) · {} walks · {:.1} s",
        r.spots.len(),
        r.unplaceable,
        r.no_footing,
        r.unreachable,
        r.walks,
        r.elapsed_ms / 1e3
    ));
}

fn opened(ui: &mut egui::Ui, app: &mut CollidoscopeApp, r: &MapReport) {
    let map = &app.state.map;
    let (Some(open), Some(s)) = (&map.open, map.open_spot()) else {
        ui.weak("Click a spot (in the list or on the heat map) to open its worst walk.");
        return;
    };
    ui.label(
        RichText::new(format!("Spot {} · {}", s.index, class_words(s.class)))
            .strong()
            .color(widgets::opaque(class_color(s.class))),
    );
    ui.weak(format!(
        "walking {:.0}° for {} s, frame {} of {} in the stepper",
        yaw_deg(s),
        r.seconds,
        open.frame,
        open.walk.frames.len()
    ));
    ui.separator();
}

fn yaw_deg(s: &MapSpot) -> f64 {
    s.direction.z.atan2(s.direction.x).to_degrees()
}

fn spots_list(ui: &mut egui::Ui, app: &mut CollidoscopeApp, r: &MapReport) {
    let worst = app.state.map.worst(MAX_ROWS);
    let open = app.state.map.open.as_ref().map(|o| o.spot);
    ui.weak(match app.state.map.listed {
        Some(c) => format!("{} {} spots", worst.len(), class_words(c)),
        None => format!("{} worst spots", worst.len()),
    });
    egui::ScrollArea::vertical()
        .id_salt("map_spots")
        .auto_shrink([false, false])
        .show_rows(ui, ROW_H, worst.len(), |ui, range| {
            for &i in &worst[range] {
                let s = &r.spots[i];
                let text = RichText::new(format!(
                    "{} · ({:.1}, {:.1}, {:.1}) · {:.0}°",
                    class_words(s.class),
                    s.start.x,
                    s.floor_y,
                    s.start.z,
                    yaw_deg(s)
                ))
                .color(widgets::opaque(class_color(s.class)));
                if ui
                    .add(egui::Button::selectable(open == Some(i), text).truncate())
                    .clicked()
                {
                    app.queue.push(Command::OpenMapSpot(i));
                }
            }
        });
}
