//! The inspector (right panel): every number of the current
//! `IterationRecord`, in world and ellipsoid space, and the candidate
//! triangles with their outcomes; clicking a candidate highlights it.

use super::{CollidoscopeApp, panels, widgets};
use crate::app::command::Command;
use crate::app::state::PanelSizes;
use crate::app::stepper::phase_words;
use crate::app::walk::frame_outcome_words;
use crate::app::words::{candidate_words, iteration_outcome_words, pass_words, query_box_words};
use crate::character::Phase;
use crate::collide::{Candidate, CandidateOutcome, IterationRecord, NearestHit};
use crate::geometry::sweep::Feature;
use eframe::egui;
use widgets::{fmt3, opt_pair_row, pair_row};

/// Shows the right panel.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    // A fixed width (the user's, see `panels`): stepping never moves the view.
    let window_w = ui.ctx().content_rect().width();
    let width = panels::inspector_width(&app.state.panels, window_w);
    let shown = egui::Panel::right("inspector")
        .resizable(false)
        .exact_size(width)
        .show(ui, |ui| {
            ui.heading("Inspector");
            super::pairs_panel::show(ui, app);
            let Some(probe) = app.state.selected_probe() else {
                ui.label("Select a probe to inspect its move.");
                return;
            };
            if probe.stepper.method_trace().is_some() {
                super::method_view::inspector(ui, app);
                return;
            }
            let Some(rec) = probe.stepper.current_record().cloned() else {
                ui.label(format!(
                    "{}: at the start of the move. Step (N / Space) to run the first iteration.",
                    probe.name
                ));
                return;
            };
            let phase = probe.stepper.current_phase();
            let frame = probe.stepper.frame().map(|f| f.index);
            let outcome = probe.stepper.frame_record().map(frame_outcome_words);
            // The solver's verdict on itself first, wrapped to the panel:
            // an end inside geometry or a ghost corner is the news.
            self_check_rows(ui, app, &rec);
            trigger_rows(ui, &rec);
            // Wide tables scroll sideways rather than widen the panel.
            egui::ScrollArea::both().show(ui, |ui| {
                if let Some(index) = frame {
                    frame_rows(ui, index, phase, outcome);
                }
                record_table(ui, &rec);
                if let Some(h) = &rec.nearest {
                    let object = object_name(app, h.object);
                    egui::CollapsingHeader::new("Nearest hit")
                        .default_open(true)
                        .show(ui, |ui| nearest_table(ui, h, &object));
                }
                candidates(ui, app, &rec);
            });
        });
    let r = shown.response.rect;
    if let Some(dx) = panels::edge_drag(ui, "inspector_edge", r.left(), r.y_range(), false) {
        app.state.panels.inspector_width = panels::inspector_width(
            &PanelSizes {
                inspector_width: width - dx,
                ..app.state.panels
            },
            window_w,
        );
    }
}

/// The character frame's rows: its index, this iteration's phase and,
/// once every phase has run, the frame's outcome.
fn frame_rows(ui: &mut egui::Ui, index: u32, phase: Option<Phase>, outcome: Option<String>) {
    egui::Grid::new("frame_rows").num_columns(2).show(ui, |ui| {
        ui.label("Walk frame");
        ui.monospace(index.to_string());
        ui.end_row();
        ui.label("Phase");
        ui.strong(phase.map_or("—", phase_words));
        ui.end_row();
    });
    // Below the grid, wrapped: a refused step's reason is a long sentence,
    // and an unwrapped one would widen the panel over the viewport.
    let text = outcome.unwrap_or_else(|| "running (step to the end)".into());
    ui.add(egui::Label::new(format!("Frame outcome: {text}")).wrap());
    ui.separator();
}

fn record_table(ui: &mut egui::Ui, rec: &IterationRecord) {
    ui.strong(format!(
        "Iteration {} · depth {} · {} pass · {}",
        rec.index + 1,
        rec.depth,
        pass_words(rec.pass),
        rec.mode
    ));
    ui.add(egui::Label::new(format!("Outcome: {}", iteration_outcome_words(rec.outcome))).wrap())
        .on_hover_text(format!("{:?}", rec.outcome));
    widgets::space_switch(ui);
    egui::Grid::new("record")
        .num_columns(1)
        .striped(true)
        .show(ui, |ui| {
            pair_row(ui, "start", rec.start, rec.start_espace);
            pair_row(ui, "velocity", rec.velocity, rec.velocity_espace);
            pair_row(ui, "destination", rec.destination, rec.destination_espace);
            let plane = rec.sliding_plane;
            opt_pair_row(
                ui,
                "slide plane origin",
                plane.map(|p| p.origin),
                plane.map(|p| p.origin_espace),
            );
            opt_pair_row(
                ui,
                "slide plane normal",
                plane.map(|p| p.normal),
                plane.map(|p| p.normal_espace),
            );
            opt_pair_row(
                ui,
                "slide vector",
                rec.slide_vector,
                rec.slide_vector_espace,
            );
            opt_pair_row(
                ui,
                "new destination",
                rec.new_destination,
                rec.new_destination_espace,
            );
            pair_row(ui, "end", rec.end, rec.end_espace);
            if let Some(r) = rec.recovery {
                pair_row(ui, "recovery push", r.push, r.push_espace);
            }
        });
    egui::Grid::new("record_scalars")
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.monospace(v);
                ui.end_row();
            };
            row("|velocity|", format!("{:.5} m", rec.velocity.length()));
            row("moved", format!("{:.5} m", (rec.end - rec.start).length()));
            row(
                "remaining",
                format!("{:.5} m", (rec.destination - rec.end).length()),
            );
            row("candidates", rec.candidate_count.to_string());
        });
    // The long values on lines of their own, wrapped to the panel: beside
    // a label they ran off its edge.
    let mut long_row = |k: &str, v: String| {
        ui.label(k);
        ui.add(egui::Label::new(egui::RichText::new(v).monospace()).wrap());
    };
    if let Some(c) = rec.crease_direction {
        long_row("crease direction", fmt3(c));
    }
    if let Some(r) = rec.recovery {
        long_row(
            "recovery",
            format!("tri {} depth {:.5} (espace)", r.triangle, r.depth_espace),
        );
    }
    long_row("query box", query_box_words(&rec.query_aabb));
    long_row(
        "BVH",
        format!(
            "{} nodes visited, {} triangle boxes tested",
            rec.bvh_stats.nodes_visited, rec.bvh_stats.triangles_tested
        ),
    );
}

fn nearest_table(ui: &mut egui::Ui, h: &NearestHit, object: &str) {
    ui.label(format!(
        "triangle {} of {object} · t = {:.6} · {}",
        h.triangle,
        h.t,
        feature_name(h.feature)
    ))
    .on_hover_text(format!("object {}", h.object));
    egui::Grid::new("nearest")
        .num_columns(1)
        .striped(true)
        .show(ui, |ui| {
            pair_row(ui, "contact point", h.contact_point, h.contact_point_espace);
            pair_row(
                ui,
                "contact centre",
                h.contact_center,
                h.contact_center_espace,
            );
            pair_row(
                ui,
                "contact normal",
                h.contact_normal,
                h.contact_normal_espace,
            );
            pair_row(
                ui,
                "plane hit point",
                h.plane_intersection_point,
                h.plane_intersection_point_espace,
            );
            pair_row(
                ui,
                "polygon hit point",
                h.polygon_intersection_point,
                h.polygon_intersection_point_espace,
            );
            pair_row(
                ui,
                "ellipsoid hit point",
                h.ellipsoid_intersection_point,
                h.ellipsoid_intersection_point_espace,
            );
            // World space only (the trace keeps it in no other).
            ui.vertical(|ui| {
                ui.label("triangle plane (world)");
                ui.monospace(fmt3(h.triangle_plane_origin));
                ui.monospace(format!("n {}", fmt3(h.triangle_plane_normal)));
            });
            ui.end_row();
        });
}

/// The triggers (non-colliding objects) this iteration entered or left,
/// where along its segment.
fn trigger_rows(ui: &mut egui::Ui, rec: &IterationRecord) {
    for e in &rec.trigger_events {
        let verb = match e.kind {
            crate::collide::triggers::TriggerKind::Enter => "entered",
            crate::collide::triggers::TriggerKind::Exit => "left",
        };
        let text = format!(
            "Trigger: {verb} {} at t = {:.3} of the segment, centre {}",
            e.name,
            e.t,
            widgets::fmt3(e.center)
        );
        ui.add(egui::Label::new(text).wrap()).on_hover_text(
            "A non-colliding object: the move passes through it and records the event",
        );
    }
}

/// The solver's checks of itself: the clearance where the iteration ends
/// (red when it ended inside geometry, with the mode's known flaw), a
/// tunnel on the way (the centre's path went through or too close to a
/// triangle, and why the mode let it) and a ghost corner with its
/// neighbours named.
fn self_check_rows(ui: &mut egui::Ui, app: &CollidoscopeApp, rec: &IterationRecord) {
    let Some(level) = app.state.level.as_deref() else {
        return;
    };
    let mesh = &level.mesh;
    let name = |object: u32| {
        mesh.objects
            .get(object as usize)
            .map_or("?", |o| o.name.as_str())
    };
    match &rec.clearance {
        Some(c) if c.embedded => {
            let text = format!(
                "INSIDE GEOMETRY: {:.4} m ({:.3} radii) into triangle {} ({})",
                -c.metres,
                -c.radii,
                c.triangle,
                name(c.object)
            );
            let red = egui::Color32::from_rgb(235, 70, 70);
            ui.add(egui::Label::new(egui::RichText::new(text).color(red).strong()).wrap())
                .on_hover_text(format!("{c:?}"));
            if let Some(verdict) =
                crate::collide::embedded_verdict(mesh, rec.mode, std::slice::from_ref(rec))
            {
                ui.add(egui::Label::new(verdict).wrap());
            }
        }
        Some(c) => {
            let text = format!(
                "Clearance: {:.4} m ({:.3} radii) to triangle {} ({}), its {}",
                c.metres,
                c.radii,
                c.triangle,
                name(c.object),
                feature_name(c.feature)
            );
            ui.add(egui::Label::new(text).wrap())
                .on_hover_text(format!("{c:?}"));
        }
        None => {
            ui.label(format!(
                "Clearance: nothing within {} radii",
                crate::collide::CLEARANCE_REACH_RADII
            ));
        }
    }
    if let Some(t) = &rec.tunnel {
        let how = if t.crossed {
            "went through".to_string()
        } else {
            format!(
                "came {:.3} radii ({:.4} m) inside",
                t.depth_radii, t.depth_metres
            )
        };
        let text = format!(
            "TUNNEL: on the way the centre {how} triangle {} ({}), {:.0} % along the move",
            t.triangle,
            name(t.object),
            t.t * 100.0
        );
        let red = egui::Color32::from_rgb(235, 70, 70);
        ui.add(egui::Label::new(egui::RichText::new(text).color(red).strong()).wrap())
            .on_hover_text(format!("{t:?}"));
        ui.add(egui::Label::new(format!("Why: {}", t.cause.describe(rec.mode))).wrap());
    }
    if let Some(g) = &rec.ghost_hit {
        let neighbours: Vec<String> = g
            .neighbours
            .iter()
            .zip(&g.neighbour_objects)
            .take(6)
            .map(|(t, &o)| format!("{t} ({})", name(o)))
            .collect();
        let text = format!(
            "Ghost corner: the {} hit is flat with triangles {} (fold {:.2}°); it bent the contact by {:.1}°",
            feature_name(g.feature),
            neighbours.join(", "),
            g.max_fold_deg,
            g.deflection_deg
        );
        let pink = egui::Color32::from_rgb(240, 130, 230);
        ui.add(egui::Label::new(egui::RichText::new(text).color(pink)).wrap())
            .on_hover_text(
            "An internal edge of a flat surface stopped or deflected the probe as if it were a corner",
        );
    }
}

/// "face", "edge 1", "vertex 2".
pub fn feature_name(f: Feature) -> String {
    match f {
        Feature::Face => "face".into(),
        Feature::Edge(i) => format!("edge {i}"),
        Feature::Vertex(i) => format!("vertex {i}"),
    }
}

/// One line describing a candidate's outcome.
pub fn outcome_text(o: &CandidateOutcome) -> String {
    let feature = || match o {
        CandidateOutcome::Separating { feature, .. } | CandidateOutcome::Hit { feature, .. } => {
            feature_name(*feature)
        }
        _ => String::new(),
    };
    candidate_words(o, feature)
}

/// The name of object `index` of the loaded level ("object 3" if unknown).
fn object_name(app: &CollidoscopeApp, index: u32) -> String {
    app.state
        .level
        .as_ref()
        .and_then(|l| l.mesh.objects.get(index as usize))
        .map_or_else(|| format!("object {index}"), |o| o.name.clone())
}

fn candidates(ui: &mut egui::Ui, app: &mut CollidoscopeApp, rec: &IterationRecord) {
    let header = format!("Candidates ({})", rec.candidates.len());
    egui::CollapsingHeader::new(header)
        .default_open(true)
        .show(ui, |ui| {
            let nearest = rec.nearest.map(|h| h.triangle);
            // Hits first (stable sort keeps the solver's order otherwise); only
            // the rows in view are laid out, so thousands of candidates stay cheap.
            let mut order: Vec<&Candidate> = rec.candidates.iter().collect();
            order.sort_by_key(|c| !matches!(c.outcome, CandidateOutcome::Hit { .. }));
            let row_height = ui.spacing().interact_size.y;
            egui::ScrollArea::vertical()
                .id_salt("candidates")
                .max_height(320.0)
                .show_rows(ui, row_height, order.len(), |ui, range| {
                    for c in &order[range] {
                        candidate_row(ui, app, c, nearest == Some(c.triangle));
                    }
                });
        });
}

fn candidate_row(ui: &mut egui::Ui, app: &mut CollidoscopeApp, c: &Candidate, is_nearest: bool) {
    let selected = app.state.highlight == Some(c.triangle);
    let mut text = format!(
        "tri {:>6} · {} · {}",
        c.triangle,
        object_name(app, c.object),
        outcome_text(&c.outcome)
    );
    if is_nearest {
        text.push_str("  <- nearest");
    }
    let rich = egui::RichText::new(text).monospace();
    let rich = match c.outcome {
        CandidateOutcome::Hit { .. } => rich.color(ui.visuals().warn_fg_color),
        _ => rich,
    };
    let exact = format!("object {} · {:?}", c.object, c.outcome);
    if ui
        .selectable_label(selected, rich)
        .on_hover_text(exact)
        .clicked()
    {
        app.queue
            .push(Command::Highlight((!selected).then_some(c.triangle)));
    }
}
