//! The still part of a frame (the level, the grid and the axes) drawn once
//! per view and kept as a colour and a depth texture.
//!
//! Stepping a probe, hovering a triangle or toggling an overlay repaints the
//! window without moving the camera. Drawing a large level again for each of
//! those frames is the whole cost of the frame where the GPU is slow or
//! absent (Mesa's llvmpipe rasterises on the CPU: a 277k-triangle level
//! costs it 15-18 ms of the draw call, see BENCHMARKS.md "GUI frame"). So
//! the level is drawn into textures when the view changes, and every frame
//! copies them (colour, and depth so that overlays are still hidden behind
//! walls) before drawing the probes and overlays on top. The price is GPU
//! memory: a colour and a depth texture of the viewport's size, plus a
//! multisampled pair when the window is multisampled (about 36 MB at
//! 1280 × 720 with 4 samples).

use super::camera::CameraView;
use super::convert::v3;
use three_d::{
    Camera, ClearState, ColorTexture, Context, CopyEffect, DepthTexture, DepthTexture2D,
    Interpolation, Object, RenderTarget, RenderTargetMultisample, ScissorBox, Texture2D, Viewport,
    Wrapping, degrees,
};

/// Everything the still image depends on: when any of it changes, the
/// image is drawn again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ImageKey {
    pub camera: CameraView,
    /// Width and height of the viewport, pixels.
    pub size: [u32; 2],
    /// Samples per pixel of the target the image is copied to (0 or 1: none).
    pub samples: u32,
    pub wireframe: bool,
    pub grid: bool,
    pub axes: bool,
    /// Bumped by every change of the level or of which objects show.
    pub level_generation: u64,
}

/// The level drawn for one [`ImageKey`].
pub(super) struct LevelImage {
    key: ImageKey,
    color: Texture2D,
    depth: DepthTexture2D,
    /// Where a multisampled image is drawn before it is resolved into
    /// `color` and `depth` (kept: it is the largest allocation here).
    msaa: Option<RenderTargetMultisample<[u8; 4], f32>>,
}

impl LevelImage {
    /// Draws `objects` as seen for `key`, over `background` (sRGB), into
    /// `reuse`'s textures when they have the right size (a moving camera
    /// redraws every frame: no allocation then).
    pub fn draw<'a>(
        ctx: &Context,
        reuse: Option<LevelImage>,
        key: ImageKey,
        background: [f32; 3],
        objects: impl IntoIterator<Item = &'a dyn Object>,
    ) -> Self {
        let [w, h] = key.size;
        let at_origin = Viewport {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        let camera = camera(&key.camera, at_origin);
        let [r, g, b] = background;
        let clear = ClearState::color_and_depth(r, g, b, 1.0, 1.0);
        let all = ScissorBox::new_at_origo(w, h);
        let same_size = |old: &LevelImage| old.key.size == key.size;
        let (color, depth, msaa) = match reuse {
            Some(old) if same_size(&old) => {
                let msaa = old.msaa.filter(|_| old.key.samples == key.samples);
                (old.color, old.depth, msaa)
            }
            _ => {
                let (color, depth) = textures(ctx, w, h);
                (color, depth, None)
            }
        };
        let target = RenderTarget::new(color.as_color_target(None), depth.as_depth_target());
        let msaa = if key.samples > 1 {
            // Drawn with as many samples as the window's own framebuffer,
            // then resolved, so that edges keep their anti-aliasing.
            let msaa = msaa.unwrap_or_else(|| {
                RenderTargetMultisample::<[u8; 4], f32>::new(ctx, w, h, key.samples)
            });
            msaa.clear(clear);
            msaa.render_partially(all, &camera, objects, &[]);
            msaa.resolve_to(&target);
            Some(msaa)
        } else {
            target
                .clear(clear)
                .render_partially(all, &camera, objects, &[]);
            None
        };
        drop(target);
        LevelImage {
            key,
            color,
            depth,
            msaa,
        }
    }

    pub fn key(&self) -> &ImageKey {
        &self.key
    }

    /// Writes the image's colour and depth into `target`, inside
    /// `viewport` (which must have the image's size), touching no pixel
    /// outside `scissor`.
    pub fn copy_to(&self, target: &RenderTarget, viewport: Viewport, scissor: ScissorBox) {
        let camera = camera(&self.key.camera, viewport);
        target.apply_screen_effect_partially(
            scissor,
            &CopyEffect::default(),
            &camera,
            &[],
            Some(ColorTexture::Single(&self.color)),
            Some(DepthTexture::Single(&self.depth)),
        );
    }
}

/// An RGBA8 colour and an `f32` depth texture of `w` × `h` pixels.
fn textures(ctx: &Context, w: u32, h: u32) -> (Texture2D, DepthTexture2D) {
    let color = Texture2D::new_empty::<[u8; 4]>(
        ctx,
        w,
        h,
        Interpolation::Nearest,
        Interpolation::Nearest,
        None,
        Wrapping::ClampToEdge,
        Wrapping::ClampToEdge,
    );
    let depth = DepthTexture2D::new::<f32>(ctx, w, h, Wrapping::ClampToEdge, Wrapping::ClampToEdge);
    (color, depth)
}

/// The three-d camera of `view` on `viewport`: the same projection as
/// [`CameraView::view_proj`], which the labels, picking and the tests use.
pub(super) fn camera(view: &CameraView, viewport: Viewport) -> Camera {
    if view.orthographic {
        // three-d multiplies an orthographic camera's height by the
        // distance from the eye to the target ("zoom"): divide it out, or
        // the front, side and top views show the level `distance` times
        // too small (a dot on a 100 m level).
        let distance = (view.target - view.eye).length().max(1e-6);
        return Camera::new_orthographic(
            viewport,
            v3(view.eye),
            v3(view.target),
            v3(view.up),
            2.0 * view.ortho_half_height() / distance,
            view.near,
            view.far,
        );
    }
    Camera::new_perspective(
        viewport,
        v3(view.eye),
        v3(view.target),
        v3(view.up),
        degrees(view.fov_y_deg),
        view.near,
        view.far,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Aabb;
    use crate::render::CameraPreset;
    use glam::Vec3;

    /// The renderer's camera and [`CameraView::view_proj`] put every point
    /// at the same place, perspective and orthographic, near and far.
    #[test]
    fn the_renderers_camera_projects_as_the_camera_view_does() {
        let level = Aabb::from_corners(Vec3::new(-20.0, -1.0, -40.0), Vec3::new(15.0, 30.0, 40.0));
        let probe = Aabb::from_corners(Vec3::new(2.0, 0.0, 3.0), Vec3::new(2.8, 1.8, 7.4));
        let viewport = Viewport {
            x: 0,
            y: 0,
            width: 900,
            height: 560,
        };
        let aspect = 900.0 / 560.0;
        for preset in CameraPreset::ALL {
            for subject in [&probe, &level] {
                let view = CameraView::preset_on(subject, &level, preset, aspect);
                let cam = camera(&view, viewport);
                let theirs: [[f32; 4]; 4] = (cam.projection() * cam.view()).into();
                let theirs = glam::Mat4::from_cols_array_2d(&theirs);
                let ours = view.view_proj(aspect);
                for p in subject.corners() {
                    let a = ours.project_point3(p);
                    let b = theirs.project_point3(p);
                    assert!(
                        (a.truncate() - b.truncate()).length() < 1e-3,
                        "{preset:?}: {p} at {a} here, {b} in the renderer"
                    );
                }
            }
        }
    }
}
