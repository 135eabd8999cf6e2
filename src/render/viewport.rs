//! The viewport's egui paint callback: the only code that touches
//! `egui_glow::CallbackFn`. It converts egui's pixel rectangles to the
//! renderer's (GL, y from the bottom) and draws through the shared
//! [`SceneRenderer`].

use super::camera::CameraView;
use super::scene::{LevelDraw, RenderOptions, SceneRenderer};
use eframe::egui::{PaintCallback, Rect, Ui};
use eframe::egui_glow::{self, glow::HasContext};
use std::sync::{Arc, Mutex};

/// Adds the paint callback that draws the scene into `rect` of `ui`.
pub fn paint_viewport(
    ui: &Ui,
    rect: Rect,
    renderer: Arc<Mutex<SceneRenderer>>,
    camera: CameraView,
    opts: RenderOptions,
) {
    let ctx = ui.ctx().clone();
    let callback = egui_glow::CallbackFn::new(move |info, painter| {
        let vp = info.viewport_in_pixels();
        let clip = info.clip_rect_in_pixels();
        let viewport = [vp.left_px, vp.from_bottom_px, vp.width_px, vp.height_px];
        // The clip rect alone is the whole panel: clearing it would wipe the
        // panel's other widgets.
        let scissor = scissor_px(
            viewport,
            [
                clip.left_px,
                clip.from_bottom_px,
                clip.width_px,
                clip.height_px,
            ],
        );
        if scissor[2] <= 0 || scissor[3] <= 0 {
            return;
        }
        unsafe { painter.gl().depth_mask(true) };
        // A panic elsewhere while holding the lock leaves the data intact.
        let mut renderer = renderer.lock().unwrap_or_else(|e| e.into_inner());
        renderer.render(&camera, viewport, scissor, &opts);
        if renderer.last_level_draw() == LevelDraw::Direct {
            // One more frame: if the view holds, it keeps an image of the
            // level that the frames after it (steps, hovering) only copy.
            ctx.request_repaint();
        }
    });
    ui.painter().add(PaintCallback {
        rect,
        callback: Arc::new(callback),
    });
}

/// The intersection of two pixel rectangles `[x, y, width, height]`
/// (width / height clamped at 0 when they do not overlap).
pub fn scissor_px(a: [i32; 4], b: [i32; 4]) -> [i32; 4] {
    let x0 = a[0].max(b[0]);
    let y0 = a[1].max(b[1]);
    let x1 = (a[0] + a[2]).min(b[0] + b[2]);
    let y1 = (a[1] + a[3]).min(b[1] + b[3]);
    [x0, y0, (x1 - x0).max(0), (y1 - y0).max(0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scissor_is_the_viewport_clipped_to_the_clip_rect() {
        let viewport = [200, 50, 800, 600];
        let panel_clip = [0, 0, 1280, 800];
        assert_eq!(scissor_px(viewport, panel_clip), viewport);
        assert_eq!(
            scissor_px(viewport, [100, 100, 400, 1000]),
            [200, 100, 300, 550]
        );
        assert_eq!(scissor_px(viewport, [0, 0, 100, 100])[2], 0);
    }
}
