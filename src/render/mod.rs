//! The 3D viewport (feature `gui`): the level, the probes and the debug
//! overlays drawn with three-d on eframe's own OpenGL context, world space.
//!
//! [`CameraView`] is plain maths (also used by the app to place labels);
//! [`SceneRenderer`] owns the GPU data and draws a frame;
//! [`paint_viewport`] is the only code that touches egui's paint callback.

mod camera;
pub(crate) mod convert;
mod level_gpu;
mod level_image;
mod lines;
mod materials;
mod overlays;
mod scene;
mod viewport;

pub use camera::{CameraPreset, CameraView};
pub use overlays::{OverlayInstances, StrokeSizes, box_edges, build_instances};
pub use scene::{LevelDraw, RenderOptions, SceneRenderer};
pub use viewport::paint_viewport;
