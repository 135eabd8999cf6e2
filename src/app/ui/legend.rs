//! The overlay legend in the viewport's bottom-right corner. It starts
//! folded to one line ("Legend · 38 of 44 on") so that it hides nothing on
//! a first look; unfolded, it lists every overlay, and a click on an entry
//! turns that overlay on or off. Each entry's swatches are the colours its
//! primitives are drawn in right now (BVH boxes take one colour per depth,
//! mesh faults one per kind), never a separate "legend colour" that could
//! drift from the view.

use super::{CollidoscopeApp, widgets};
use crate::app::command::Command;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, OverlayToggles};
use eframe::egui::{self, Rect, Sense};

/// At most this many swatches per entry (BVH depths can run past it): the
/// stuck-spot map's seven classes all fit.
const MAX_SWATCHES: usize = 7;

/// One line of the legend.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LegendEntry {
    /// The overlay.
    pub kind: OverlayKind,
    /// Whether it is on.
    pub on: bool,
    /// The distinct colours drawn for it, first-drawn first, at most
    /// [`MAX_SWATCHES`]; the kind's own colour when nothing of it is drawn.
    pub colors: Vec<[f32; 4]>,
    /// Whether more colours are drawn than listed.
    pub more_colors: bool,
}

/// The legend's lines, one per overlay kind, from the primitives drawn.
pub(crate) fn legend_entries(
    toggles: &OverlayToggles,
    drawn: &[DebugPrimitive],
) -> Vec<LegendEntry> {
    OverlayKind::ALL
        .into_iter()
        .map(|kind| {
            let mut colors: Vec<[f32; 4]> = Vec::new();
            let mut more_colors = false;
            for p in drawn.iter().filter(|p| p.kind == kind) {
                let rgb = [p.color[0], p.color[1], p.color[2], 1.0];
                if colors.contains(&rgb) {
                    continue;
                }
                if colors.len() == MAX_SWATCHES {
                    more_colors = true;
                    break;
                }
                colors.push(rgb);
            }
            if colors.is_empty() {
                colors.push(kind.color());
            }
            LegendEntry {
                kind,
                on: toggles.get(kind),
                colors,
                more_colors,
            }
        })
        .collect()
}

/// Height of the view the unfolded legend's list leaves free, points: its
/// header, the margins and the Measure switch (with its hint) above it.
const LEGEND_CLEARANCE: f32 = 150.0;

/// Shows the legend over the bottom-right corner of `rect` (framing puts
/// the probe in the middle, so the corner is where it hides the least).
/// Shows the legend; returns the rectangle it covers (labels keep off it).
pub fn show(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect) -> Rect {
    let entries = legend_entries(&app.state.overlays, app.sync.primitives());
    app.legend_swatches = entries
        .iter()
        .map(|e| (e.kind, e.colors.clone(), e.more_colors))
        .collect();
    let on = entries.iter().filter(|e| e.on).count();
    let mut toggled = None;
    let covered = egui::Area::new(egui::Id::unique("overlay_legend"))
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .fixed_pos(rect.right_bottom() + egui::vec2(-8.0, -8.0))
        .order(egui::Order::Foreground)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                egui::CollapsingHeader::new(format!("Legend · {on} of {} on", entries.len()))
                    .id_salt("overlay_legend_header")
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.weak("Click an entry to show or hide it");
                        // Never taller than the view it sits in, and clear
                        // of the Measure switch and its hint at the top
                        // right (the header and this line take ~50 points).
                        let max_h = (rect.height() - LEGEND_CLEARANCE).max(60.0);
                        egui::ScrollArea::vertical()
                            .max_height(max_h)
                            .min_scrolled_height(max_h.min(24.0 * entries.len() as f32))
                            .show(ui, |ui| {
                                for e in &entries {
                                    if entry_row(ui, app, e) {
                                        toggled = Some((e.kind, !e.on));
                                    }
                                }
                            });
                    });
            });
        })
        .response
        .rect;
    if let Some((kind, on)) = toggled {
        app.queue.push(Command::SetOverlay(kind, on));
    }
    covered
}

/// One clickable entry; `true` when clicked.
fn entry_row(ui: &mut egui::Ui, app: &CollidoscopeApp, e: &LegendEntry) -> bool {
    let response = ui
        .horizontal(|ui| {
            for &c in &e.colors {
                swatch(ui, c, e.on);
            }
            if e.more_colors {
                ui.small("…");
            }
            let text = egui::RichText::new(e.kind.label()).small();
            if e.on {
                ui.label(text);
            } else {
                ui.label(text.weak().strikethrough());
            }
        })
        .response;
    let response = ui
        .interact(response.rect, response.id.with("toggle"), Sense::click())
        .on_hover_text(if e.on {
            "Click to hide"
        } else {
            "Click to show"
        });
    let hidden = app.sync.hidden_boxes(e.kind);
    if e.on && hidden > 0 {
        let shown = app.state.view.max_boxes_per_kind;
        ui.small(format!("   nearest {shown} shown, {hidden} more"))
            .on_hover_text("View > Boxes drawn per kind");
    }
    response.clicked()
}

/// A swatch; an overlay that is off shows only its outline.
fn swatch(ui: &mut egui::Ui, color: [f32; 4], on: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
    let c = widgets::opaque(color);
    if on {
        ui.painter().rect_filled(rect, 2.0, c);
    } else {
        ui.painter().rect_stroke(
            rect.shrink(1.0),
            2.0,
            egui::Stroke::new(1.5, c.gamma_multiply(0.7)),
            egui::StrokeKind::Inside,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::debug_draw::{Shape, depth_color};
    use glam::DVec3;

    fn prim(kind: OverlayKind, color: [f32; 4]) -> DebugPrimitive {
        DebugPrimitive {
            kind,
            shape: Shape::Point { p: DVec3::ZERO },
            color,
            label: None,
        }
    }

    #[test]
    fn swatches_are_the_drawn_colours_and_every_kind_is_listed() {
        let toggles = OverlayToggles::default();
        let drawn = vec![
            prim(OverlayKind::BvhLevel, depth_color(3)),
            prim(OverlayKind::BvhLevel, depth_color(3)),
            prim(OverlayKind::HitPlane, OverlayKind::HitPlane.color()),
        ];
        let entries = legend_entries(&toggles, &drawn);
        assert_eq!(entries.len(), OverlayKind::ALL.len());
        let level = entries
            .iter()
            .find(|e| e.kind == OverlayKind::BvhLevel)
            .unwrap();
        assert_eq!(level.colors, vec![depth_color(3)], "one depth drawn, once");
        let plane = entries
            .iter()
            .find(|e| e.kind == OverlayKind::HitPlane)
            .unwrap();
        let c = OverlayKind::HitPlane.color();
        assert_eq!(plane.colors, vec![[c[0], c[1], c[2], 1.0]], "alpha dropped");
        for e in &entries {
            assert_eq!(e.on, toggles.get(e.kind));
        }
    }

    #[test]
    fn many_colours_are_capped_and_marked() {
        let drawn: Vec<_> = (0..10)
            .map(|d| prim(OverlayKind::BvhNodesVisited, depth_color(d)))
            .collect();
        let entries = legend_entries(&OverlayToggles::default(), &drawn);
        let e = entries
            .iter()
            .find(|e| e.kind == OverlayKind::BvhNodesVisited)
            .unwrap();
        assert_eq!(e.colors.len(), MAX_SWATCHES);
        assert!(e.more_colors);
    }
}
