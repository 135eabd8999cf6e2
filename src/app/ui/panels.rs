//! Panel sizes that hold still. egui's own resizable panels store whatever
//! size they were last shown at, so content wider than the panel (a table
//! after the first Step, a probe's editor) widens them for good and a small
//! window narrows them for good. Here the size is the user's choice
//! ([`PanelSizes`]), fitted into the window each frame, and only a drag of
//! the panel's edge changes it.

use crate::app::state::PanelSizes;
use eframe::egui::{self, CursorIcon, Rangef, Sense, Stroke};

/// Smallest side panel, points (narrower, nothing in it reads).
pub const MIN_SIDE_WIDTH: f32 = 160.0;
/// Smallest left panel, points: its page tabs (Scene, Character, Checks,
/// Map) in one row, and a findings row's verdict before its cut middle.
pub const MIN_LEFT_WIDTH: f32 = 230.0;
/// Largest share of the window one side panel may take.
pub const MAX_SIDE_FRACTION: f32 = 0.35;
/// Smallest plots panel, points (the stepper's buttons and a sliver of plot).
pub const MIN_PLOTS_HEIGHT: f32 = 90.0;
/// Largest share of the window the plots may take.
pub const MAX_PLOTS_FRACTION: f32 = 0.5;

/// The size to show: the preference within `[min, max_fraction × window]`
/// (the window wins when it is too small for even `min`), the default
/// when the preference is not a number (a hand-edited session).
pub fn fitted(preferred: f32, default: f32, min: f32, max_fraction: f32, window: f32) -> f32 {
    let preferred = if preferred.is_finite() {
        preferred
    } else {
        default
    };
    let max = (window * max_fraction).max(0.0);
    preferred.max(min).min(max)
}

/// The left panel's width in a window `window_w` wide.
pub fn left_width(p: &PanelSizes, window_w: f32) -> f32 {
    let d = PanelSizes::default().left_width;
    fitted(p.left_width, d, MIN_LEFT_WIDTH, MAX_SIDE_FRACTION, window_w)
}

/// The inspector's width in a window `window_w` wide.
pub fn inspector_width(p: &PanelSizes, window_w: f32) -> f32 {
    let d = PanelSizes::default().inspector_width;
    fitted(
        p.inspector_width,
        d,
        MIN_SIDE_WIDTH,
        MAX_SIDE_FRACTION,
        window_w,
    )
}

/// The plots panel's height in a window `window_h` high.
pub fn plots_height(p: &PanelSizes, window_h: f32) -> f32 {
    let d = PanelSizes::default().plots_height;
    fitted(
        p.plots_height,
        d,
        MIN_PLOTS_HEIGHT,
        MAX_PLOTS_FRACTION,
        window_h,
    )
}

/// A drag handle on a panel's edge: the vertical line at `x` over `span`
/// (or, with `horizontal`, the horizontal line at `y = x`); returns the
/// pointer's movement across the edge this frame while dragged.
pub fn edge_drag(ui: &egui::Ui, id: &str, at: f32, span: Rangef, horizontal: bool) -> Option<f32> {
    let grab = 4.0;
    let rect = if horizontal {
        egui::Rect::from_x_y_ranges(span, Rangef::new(at - grab, at + grab))
    } else {
        egui::Rect::from_x_y_ranges(Rangef::new(at - grab, at + grab), span)
    };
    // On a layer of its own above the panels: half the handle lies over
    // the neighbouring 3D view, whose own drag (orbit) won a press there,
    // so the edge could only be caught in a 4-point strip.
    let response = egui::Area::new(egui::Id::unique(id).with("handle"))
        .order(egui::Order::Middle)
        .fixed_pos(rect.min)
        .constrain(false)
        .show(ui.ctx(), |ui| ui.allocate_rect(rect, Sense::drag()))
        .inner
        .on_hover_cursor(if horizontal {
            CursorIcon::ResizeVertical
        } else {
            CursorIcon::ResizeHorizontal
        });
    if response.hovered() || response.dragged() {
        let stroke = Stroke::new(2.0, ui.visuals().widgets.hovered.fg_stroke.color);
        let painter = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Foreground,
            egui::Id::unique(id).with("line"),
        ));
        if horizontal {
            painter.hline(span, at, stroke);
        } else {
            painter.vline(at, span, stroke);
        }
    }
    response.dragged().then(|| {
        let d = response.drag_delta();
        if horizontal { d.y } else { d.x }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preference_fits_the_window_and_comes_back() {
        let p = PanelSizes::default();
        assert_eq!(left_width(&p, 1280.0), 260.0);
        assert_eq!(inspector_width(&p, 1280.0), 240.0);
        assert!(left_width(&p, 320.0) <= 320.0 * MAX_SIDE_FRACTION);
        assert_eq!(left_width(&p, 1280.0), 260.0, "nothing was forgotten");
        assert!(1280.0 - left_width(&p, 1280.0) - inspector_width(&p, 1280.0) >= 0.6 * 1280.0);
    }

    #[test]
    fn nonsense_in_a_session_file_gives_sane_sizes() {
        let p = PanelSizes {
            left_width: f32::NAN,
            inspector_width: 1e30,
            plots_height: -5.0,
        };
        assert_eq!(left_width(&p, 1280.0), 260.0);
        assert_eq!(inspector_width(&p, 1280.0), 1280.0 * MAX_SIDE_FRACTION);
        assert_eq!(plots_height(&p, 800.0), MIN_PLOTS_HEIGHT);
    }
}
