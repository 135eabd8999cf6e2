//! The level panel's mesh hygiene section: run the analysis, the count of
//! each kind with a switch to draw it (in its colour), and the list of one
//! kind's items; clicking an item frames it in the view.

use super::CollidoscopeApp;
use crate::analysis::hygiene::HygieneKind;
use crate::app::hygiene::{MAX_DRAWN_PER_KIND, kind_color, size_words};
use eframe::egui::{self, Color32, RichText};

/// Rows of the item list shown at once (it scrolls).
const LIST_HEIGHT: f32 = 160.0;

/// Shows the section.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let st = &mut app.state;
    if st.level.is_none() {
        ui.label("Open a level to analyse its mesh.");
        return;
    }
    ui.horizontal(|ui| {
        let label = if st.hygiene.report.is_some() {
            "Analyse again"
        } else {
            "Analyse mesh"
        };
        let running = st.hygiene.running();
        if ui
            .add_enabled(!running, egui::Button::new(label))
            .on_hover_text(
                "Open and non-manifold edges, T-junctions, near-miss vertices, slivers, \
                 overlaps, winding: the faults that make players stick or fall",
            )
            .clicked()
        {
            st.run_hygiene();
        }
        if running {
            ui.spinner();
            ui.label("analysing …");
        }
    });
    let Some((report, ms)) = st.hygiene.report.clone() else {
        return;
    };
    ui.label(format!(
        "{} faults · {} welded vertices · {ms:.0} ms",
        report.faults, report.welded_vertices
    ));
    egui::Grid::new("hygiene_kinds")
        .num_columns(2)
        .show(ui, |ui| {
            for kr in &report.kinds {
                let [r, g, b, _] = kind_color(kr.kind).map(|c| (c * 255.0) as u8);
                let mut drawn = st.hygiene.is_drawn(kr.kind);
                let mut name = kr.kind.name().replace('_', " ");
                if !kr.fault && kr.count > 0 {
                    // Marked on the name, not the count: "2489 (info)"
                    // in the second column ran past the panel's edge.
                    name.push_str(" (info)");
                }
                let text = RichText::new(name).color(Color32::from_rgb(r, g, b));
                if ui
                    .checkbox(&mut drawn, text)
                    .on_hover_text(kind_hint(kr.kind))
                    .changed()
                {
                    st.hygiene.set_drawn(kr.kind, drawn);
                }
                let count = if kr.fault || kr.count == 0 {
                    RichText::new(kr.count.to_string()).monospace()
                } else {
                    RichText::new(kr.count.to_string()).monospace().weak()
                };
                // The count itself opens the list: one column less, so the
                // row fits the panel.
                let listed = st.hygiene.listed == Some(kr.kind);
                if kr.count == 0 {
                    ui.label(count);
                } else if ui
                    .selectable_label(listed, count)
                    .on_hover_text("List them")
                    .clicked()
                {
                    st.hygiene.listed = Some(kr.kind);
                }
                ui.end_row();
            }
        });
    let Some(kind) = st.hygiene.listed else {
        return;
    };
    let kr = report.kind(kind);
    if kr.count > MAX_DRAWN_PER_KIND {
        ui.weak(format!(
            "The view draws the first {MAX_DRAWN_PER_KIND} of {}.",
            kr.count
        ));
    }
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .id_salt("hygiene_items")
        .max_height(LIST_HEIGHT)
        .show_rows(ui, 18.0, kr.items.len(), |ui, rows| {
            // Rows have one height (`show_rows`): cut, never wrapped.
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
            for i in rows {
                let item = &kr.items[i];
                let p = item.position;
                let open = st.hygiene.open == Some((kind, i));
                let text = format!(
                    "({:.2}, {:.2}, {:.2})  {}  tri {}",
                    p.x,
                    p.y,
                    p.z,
                    size_words(item),
                    item.triangles
                        .first()
                        .map_or(String::new(), |t| t.to_string())
                );
                let row = egui::Button::selectable(open, RichText::new(text).monospace());
                if ui.add(row).on_hover_text("Frame it in the view").clicked() {
                    clicked = Some(i);
                }
            }
        });
    if kr.truncated {
        ui.weak(format!(
            "Listed: the first {} of {}.",
            kr.items.len(),
            kr.count
        ));
    }
    if let Some(i) = clicked {
        st.open_hygiene_item(kind, i);
    }
}

fn kind_hint(kind: HygieneKind) -> &'static str {
    match kind {
        HygieneKind::OpenEdge => {
            "An edge no neighbour seals: a hole's rim, a crack (or an open terrain's border)"
        }
        HygieneKind::NonManifoldEdge => {
            "An edge shared by more than two triangles: fins, intersecting solids"
        }
        HygieneKind::InconsistentWinding => {
            "Two neighbours run their shared edge the same way: one faces the wrong side"
        }
        HygieneKind::WoundAgainstNormals => {
            "An object whose faces are wound against their own normals: collision sees their backs"
        }
        HygieneKind::InsideOut => {
            "A closed object whose faces point inwards: solid outside, hollow inside"
        }
        HygieneKind::TJunction => {
            "A vertex inside another triangle's edge: a crack a probe can catch on"
        }
        HygieneKind::NearMiss => {
            "Two vertices closer than 1 mm but not welded: a seam with a lip or a gap"
        }
        HygieneKind::Sliver => "A needle triangle: its normal and contacts are mostly rounding",
        HygieneKind::Overlap => "Two coplanar triangles overlapping: doubled or folded geometry",
        HygieneKind::CoplanarEdge => {
            "Information: internal edges between coplanar triangles, where ghost corners happen"
        }
    }
}
