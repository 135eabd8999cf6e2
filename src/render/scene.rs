//! The scene on the GPU and one frame of it, world space: the level
//! (flat-lit, per-object colours, see [`super::level_gpu`]), probes as lit
//! ellipsoids, overlays as instanced shapes, a ground grid and axes.
//!
//! Uploads happen only in the `set_*` calls; [`SceneRenderer::render`] only
//! draws, so a frame costs no allocation proportional to the level.

use super::camera::CameraView;
use super::level_gpu::LevelGpu;
use super::level_image::{self, ImageKey, LevelImage};
use super::materials::GridMaterial;
use super::overlays::{BaseShapes, OverlayMeshes, StrokeSizes, build_instances};
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape, body_at};
use crate::geometry::shape::CharacterShape;
use crate::math::Aabb;
use crate::mesh::TriMesh;
use glam::{DVec3, Vec3};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::{Duration, Instant};
use three_d::{
    Axes, ClearState, Context, CoreError, CpuMesh, DepthTexture2D, Gm, Interpolation, Mesh, Object,
    RenderTarget, ScissorBox, Texture2D, Viewport, Wrapping,
};

/// What the viewport shows besides the level and the overlays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderOptions {
    /// Draw triangle edges over the faces.
    pub wireframe: bool,
    /// Draw the ground grid under the level.
    pub grid: bool,
    /// Draw the world axes at the origin (X red, Y green, Z blue).
    pub axes: bool,
    /// X-ray: draw the overlays after clearing depth, over the level and
    /// the probes (they still hide each other correctly).
    pub overlays_on_top: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            wireframe: false,
            grid: true,
            axes: true,
            overlays_on_top: false,
        }
    }
}

/// Background colour (sRGB), written as-is by the clear.
const BACKGROUND: [f32; 3] = [0.11, 0.12, 0.14];

/// Overlays move their depth this fraction of the way to the eye: enough to
/// beat a coplanar floor at 24-bit depth, too little to show through walls.
const OVERLAY_PULL: f32 = 0.004;

/// A pleasant, distinguishable colour for object `i` (sRGB), for levels
/// whose objects have no colour of their own.
pub fn default_object_color(i: usize) -> [f32; 3] {
    const PALETTE: [[f32; 3]; 8] = [
        [0.72, 0.70, 0.66],
        [0.55, 0.66, 0.78],
        [0.78, 0.62, 0.52],
        [0.60, 0.74, 0.58],
        [0.76, 0.70, 0.50],
        [0.68, 0.58, 0.76],
        [0.52, 0.72, 0.72],
        [0.80, 0.58, 0.62],
    ];
    PALETTE[i % PALETTE.len()]
}

/// Level, probes and overlays on the GPU, drawn with three-d on a GL
/// context it shares (eframe's, or a headless one in tests). Lives in an
/// `Arc<Mutex<..>>` that the paint callback locks.
pub struct SceneRenderer {
    ctx: Context,
    shapes: BaseShapes,
    level: Option<LevelGpu>,
    bounds: Aabb,
    overlays: Vec<OverlayMeshes>,
    probes: Vec<OverlayMeshes>,
    /// Smallest probe semi-axis, sizing overlay strokes when the overlays
    /// carry no ellipsoid of their own.
    probe_radius: Option<f32>,
    grid: Gm<Mesh, GridMaterial>,
    axes: Axes,
    /// The level, grid and axes as last drawn (see [`super::level_image`]).
    level_image: Option<LevelImage>,
    /// What the previous frame showed of them.
    previous_view: Option<ImageKey>,
    /// Bumped whenever what the level image shows changes.
    level_generation: u64,
    last_render: Duration,
    last_level_draw: LevelDraw,
}

/// How a frame drew the level (with the grid and the axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelDraw {
    /// Drawn straight into the frame: the view differs from the previous
    /// frame's (the camera is moving, or the level or the options changed).
    Direct,
    /// The view held for a second frame: drawn into the level image, which
    /// was then copied into the frame.
    ImageDrawn,
    /// The level image was copied: the view is the one it was drawn for.
    ImageCopied,
}

impl SceneRenderer {
    /// Wraps eframe's GL context. See [`SceneRenderer::try_new`].
    ///
    /// # Panics
    /// If the driver cannot create a vertex array object, which eframe's
    /// own glow painter needed before this point.
    pub fn new(gl: Arc<eframe::glow::Context>) -> Self {
        Self::try_new(gl).expect("three-d could not use the GL context")
    }

    /// Wraps a GL context (3.3 core or ES 3.0).
    pub fn try_new(gl: Arc<eframe::glow::Context>) -> Result<Self, CoreError> {
        let ctx = Context::from_gl_context(gl)?;
        let bounds = Aabb::from_corners(Vec3::new(-10.0, 0.0, -10.0), Vec3::new(10.0, 2.0, 10.0));
        Ok(SceneRenderer {
            grid: grid_for(&ctx, &bounds),
            axes: axes_for(&ctx, &bounds),
            shapes: BaseShapes::new(),
            level: None,
            bounds,
            overlays: Vec::new(),
            probes: Vec::new(),
            probe_radius: None,
            level_image: None,
            previous_view: None,
            level_generation: 0,
            last_render: Duration::ZERO,
            last_level_draw: LevelDraw::Direct,
            ctx,
        })
    }

    /// Uploads a level (once per level): one colour per object, sRGB; missing
    /// colours come from `default_object_color`. Every object starts visible.
    pub fn set_level(&mut self, mesh: &TriMesh, object_colors: &[[f32; 3]]) {
        self.bounds = if mesh.bounds().is_empty() {
            Aabb::from_corners(Vec3::splat(-1.0), Vec3::splat(1.0))
        } else {
            mesh.bounds()
        };
        self.grid = grid_for(&self.ctx, &self.bounds);
        self.axes = axes_for(&self.ctx, &self.bounds);
        self.level_generation += 1;
        self.level = (mesh.triangle_count() > 0).then(|| {
            LevelGpu::upload(&self.ctx, mesh, |i| {
                object_colors
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| default_object_color(i))
            })
        });
    }

    /// Shows (`true`) or hides each object; missing flags mean visible.
    /// Re-uploads the level's colours only when a flag changed.
    pub fn set_object_visibility(&mut self, visible: &[bool]) {
        if let Some(level) = &mut self.level
            && level.set_visibility(visible)
        {
            self.level_generation += 1;
        }
    }

    /// Replaces the overlays with `prims` (instanced geometry rebuilt here,
    /// and only here).
    pub fn set_overlays(&mut self, prims: &[DebugPrimitive]) {
        let sizes = match self.probe_radius {
            Some(r)
                if !prims
                    .iter()
                    .any(|p| matches!(p.shape, Shape::Ellipsoid { .. })) =>
            {
                StrokeSizes::for_probe_radius(r)
            }
            _ => StrokeSizes::for_primitives(prims, self.bounds.extent().length()),
        };
        self.overlays = self.upload_batches(prims, &sizes, OVERLAY_PULL);
    }

    /// Replaces the probes: centre, radii (half sizes, world space), the
    /// body's shape (drawn in place of the ellipsoid when it is not one)
    /// and sRGB colour with alpha (below 1: translucent).
    pub fn set_probes(&mut self, probes: &[(DVec3, DVec3, CharacterShape, [f32; 4])]) {
        let prims: Vec<DebugPrimitive> = probes
            .iter()
            .map(|&(center, radii, shape, color)| DebugPrimitive {
                kind: OverlayKind::EllipsoidStart,
                shape: body_at(center, radii, shape),
                color,
                label: None,
            })
            .collect();
        self.probe_radius = probes
            .iter()
            .map(|p| p.1.min_element() as f32)
            .reduce(f32::min);
        let sizes = StrokeSizes::for_primitives(&prims, self.bounds.extent().length());
        self.probes = self.upload_batches(&prims, &sizes, 0.0);
    }

    fn upload_batches(
        &self,
        prims: &[DebugPrimitive],
        sizes: &StrokeSizes,
        pull: f32,
    ) -> Vec<OverlayMeshes> {
        let (opaque, translucent) = build_instances(prims, sizes);
        [(opaque, false), (translucent, true)]
            .into_iter()
            .filter(|(inst, _)| !inst.is_empty())
            .map(|(inst, transparent)| {
                OverlayMeshes::upload(&self.ctx, &self.shapes, &inst, transparent, pull)
            })
            .collect()
    }

    /// Draws a frame into the bound default framebuffer (eframe's), inside
    /// `viewport_px` = `[x, y from the bottom, width, height]` in physical
    /// pixels, touching no pixel outside `scissor_px` (same layout).
    pub fn render(
        &mut self,
        camera: &CameraView,
        viewport_px: [i32; 4],
        scissor_px: [i32; 4],
        opts: &RenderOptions,
    ) {
        let [x, y, w, h] = viewport_px;
        let width = (x + w).max(1) as u32;
        let height = (y + h).max(1) as u32;
        let target = RenderTarget::screen(&self.ctx, width, height);
        // The level image is drawn with as many samples as this framebuffer.
        use eframe::glow::HasContext;
        let samples = unsafe { self.ctx.get_parameter_i32(eframe::glow::SAMPLES) };
        self.render_to(&target, camera, viewport_px, scissor_px, samples, opts);
    }

    /// Draws a `width` × `height` frame off screen and returns its pixels,
    /// sRGBA, rows top-down (screenshots, headless tests, benchmarks).
    pub fn render_image(
        &mut self,
        camera: &CameraView,
        width: u32,
        height: u32,
        opts: &RenderOptions,
    ) -> Vec<[u8; 4]> {
        let color = Texture2D::new_empty::<[u8; 4]>(
            &self.ctx,
            width,
            height,
            Interpolation::Nearest,
            Interpolation::Nearest,
            None,
            Wrapping::ClampToEdge,
            Wrapping::ClampToEdge,
        );
        let depth = DepthTexture2D::new::<f32>(
            &self.ctx,
            width,
            height,
            Wrapping::ClampToEdge,
            Wrapping::ClampToEdge,
        );
        let target = RenderTarget::new(color.as_color_target(None), depth.as_depth_target());
        let full = [0, 0, width as i32, height as i32];
        self.render_to(&target, camera, full, full, 0, opts);
        target.read_color()
    }

    #[allow(clippy::too_many_arguments)]
    fn render_to(
        &mut self,
        target: &RenderTarget,
        camera: &CameraView,
        viewport_px: [i32; 4],
        scissor_px: [i32; 4],
        samples: i32,
        opts: &RenderOptions,
    ) {
        let started = Instant::now();
        let [x, y, w, h] = viewport_px;
        let [sx, sy, sw, sh] = scissor_px;
        if w <= 0 || h <= 0 || sw <= 0 || sh <= 0 {
            return;
        }
        let viewport = Viewport {
            x,
            y,
            width: w as u32,
            height: h as u32,
        };
        let scissor = ScissorBox {
            x: sx,
            y: sy,
            width: sw as u32,
            height: sh as u32,
        };
        let key = ImageKey {
            camera: *camera,
            size: [w as u32, h as u32],
            samples: samples.max(0) as u32,
            wireframe: opts.wireframe,
            grid: opts.grid,
            axes: opts.axes,
            level_generation: self.level_generation,
        };
        let cached = self.level_image.as_ref().map(LevelImage::key) == Some(&key);
        let held = self.previous_view == Some(key);
        self.previous_view = Some(key);
        self.last_level_draw = match (cached, held) {
            (true, _) => LevelDraw::ImageCopied,
            (false, true) => LevelDraw::ImageDrawn,
            // Copying costs a full-screen pass: not worth it for one frame.
            (false, false) => LevelDraw::Direct,
        };
        // egui may leave depth writes off; a depth clear respects the mask.
        use eframe::glow::HasContext;
        unsafe { self.ctx.depth_mask(true) };
        let mut objects: Vec<&dyn Object> = Vec::new();
        if self.last_level_draw == LevelDraw::Direct {
            let [r, g, b] = BACKGROUND;
            target.clear_partially(scissor, ClearState::color_and_depth(r, g, b, 1.0, 1.0));
            objects = still_objects(self.level.as_ref(), &self.axes, &self.grid, opts);
        } else {
            if self.last_level_draw == LevelDraw::ImageDrawn {
                let still = still_objects(self.level.as_ref(), &self.axes, &self.grid, opts);
                let reuse = self.level_image.take();
                let image = LevelImage::draw(&self.ctx, reuse, key, BACKGROUND, still);
                self.level_image = Some(image);
            }
            if let Some(image) = &self.level_image {
                image.copy_to(target, viewport, scissor);
            }
        }
        objects.extend(self.probes.iter().flat_map(|m| m.objects()));
        let cam = level_image::camera(camera, viewport);
        if opts.overlays_on_top {
            target.render_partially(scissor, &cam, objects, &[]);
            // A depth clear inside the view: the overlays then test depth
            // only against each other.
            target.clear_partially(scissor, ClearState::depth(1.0));
            let overlays = self.overlays.iter().flat_map(|m| m.objects());
            target.render_partially(scissor, &cam, overlays, &[]);
        } else {
            objects.extend(self.overlays.iter().flat_map(|m| m.objects()));
            target.render_partially(scissor, &cam, objects, &[]);
        }
        self.last_render = started.elapsed();
    }

    /// How the last frame drew the level (see [`LevelDraw`]). After a
    /// [`LevelDraw::Direct`] frame the window asks for one more: if the
    /// view holds, that one draws the level image the frames after it copy.
    pub fn last_level_draw(&self) -> LevelDraw {
        self.last_level_draw
    }

    /// CPU time the last frame took to issue its GL commands (the driver may
    /// still be drawing: on a software driver its rasterisation comes on top).
    pub fn last_render_time(&self) -> Duration {
        self.last_render
    }
}

/// The still part of the scene: the level, the axes and the grid, as asked.
fn still_objects<'a>(
    level: Option<&'a LevelGpu>,
    axes: &'a Axes,
    grid: &'a Gm<Mesh, GridMaterial>,
    opts: &RenderOptions,
) -> Vec<&'a dyn Object> {
    let mut still: Vec<&dyn Object> = Vec::new();
    if let Some(level) = level {
        still.push(level.model(opts.wireframe));
    }
    if opts.axes {
        still.push(axes);
    }
    if opts.grid {
        still.push(grid);
    }
    still
}

/// A grid square just under the level's floor (so the floor, not the grid,
/// shows where there is geometry), spaced in powers of ten to the level size.
fn grid_for(ctx: &Context, bounds: &Aabb) -> Gm<Mesh, GridMaterial> {
    let ext = bounds.extent();
    let size = ext.x.max(ext.z).max(1.0);
    let spacing = 10f32.powf((size / 5.0).log10().floor());
    let half = size * 1.5 + spacing * 5.0;
    let center = bounds.center();
    let y = bounds.min.y - size * 1e-4;
    let mut mesh = Mesh::new(ctx, &CpuMesh::square());
    // The square lies in XY with normal Z: turn it to lie in XZ.
    mesh.set_transformation(three_d::Mat4::from_cols(
        three_d::vec4(half, 0.0, 0.0, 0.0),
        three_d::vec4(0.0, 0.0, half, 0.0),
        three_d::vec4(0.0, 1.0, 0.0, 0.0),
        three_d::vec4(center.x, y, center.z, 1.0),
    ));
    Gm::new(
        mesh,
        GridMaterial {
            spacing,
            fade_distance: half * 1.2,
        },
    )
}

fn axes_for(ctx: &Context, bounds: &Aabb) -> Axes {
    let length = (bounds.extent().length() * 0.08).max(0.2);
    Axes::new(ctx, length * 0.02, length)
}
