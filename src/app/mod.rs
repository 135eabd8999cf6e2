//! The collision debugger window (eframe + three-d on one glow context).
//!
//! `state` holds the editor state with no egui types; panels in `ui` read
//! it and push `command::Command`s that `EditorState::apply` carries out.
//! Stepping drives the core `SlideSolver` itself (`stepper`): the overlays
//! show exactly what the solver computed. All positions are world space.

pub mod box_chain;
pub mod bundle;
pub mod camera_ctl;
pub mod carry;
pub mod checks;
pub mod command;
mod command_step;
pub mod compare;
pub mod compare_draw;
pub mod compare_walk;
pub mod cylinders;
pub mod envelope_job;
pub mod fields;
pub mod file_prompt;
pub mod history;
pub mod hygiene;
pub mod level_job;
pub mod loader;
pub mod map;
pub mod measure;
pub mod pairs;
pub mod pick;
pub mod probes;
pub mod prompts;
pub mod replay;
pub mod state;
pub mod stepper;
mod ui;
pub mod views;
pub mod walk;
pub mod whatif;
pub mod words;

pub use ui::{CollidoscopeApp, MIN_LEFT_WIDTH, Startup};

use crate::level::{ImportOptions, Level, import};
use std::path::{Path, PathBuf};

/// The level shown when no file is given (`assets/default_level.obj`):
/// stairs of several risers, doors, ramps, creases and thin walls.
pub const DEFAULT_LEVEL_OBJ: &[u8] = include_bytes!("../../assets/default_level.obj");

/// Name of the embedded default level.
pub const DEFAULT_LEVEL_NAME: &str = "default_level.obj";

/// The built-in level, imported from the embedded OBJ (it is tiny: this
/// takes milliseconds). It has no file path: reopening a file is never
/// confused with it.
pub fn builtin_level() -> Result<Level, String> {
    let (mesh, report) = import::import_obj_bytes(
        DEFAULT_LEVEL_OBJ,
        Path::new(DEFAULT_LEVEL_NAME),
        &ImportOptions::default(),
    )
    .map_err(|e| format!("The built-in level failed to import: {e}"))?;
    let mut level = Level::from_mesh(DEFAULT_LEVEL_NAME, mesh);
    level.report = report;
    Ok(level)
}

/// The native window options: a depth buffer and MSAA for three-d, the glow
/// renderer (three-d needs its GL context) and session persistence.
pub fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title("Collidoscope")
            .with_inner_size([1280.0, 800.0])
            .with_drag_and_drop(true),
        depth_buffer: 24,
        multisampling: 4,
        renderer: eframe::Renderer::Glow,
        persist_window: true,
        ..Default::default()
    }
}

/// Opens the window on `level` (or the session's level, or the default
/// level) and runs until it is closed. The error says why the window could
/// not open (no display, no GL).
pub fn run(level: Option<PathBuf>, options: ImportOptions) -> Result<(), String> {
    let startup = Startup {
        level,
        import_options: options,
    };
    eframe::run_native(
        "Collidoscope",
        native_options(),
        Box::new(move |cc| Ok(Box::new(CollidoscopeApp::new(cc, startup)))),
    )
    .map_err(|e| format!("could not open the window: {e}"))
}
