//! Commands: everything a panel, a shortcut or a drop can ask for. Panels
//! only push commands; [`EditorState::apply`] is the one place that changes
//! the editor state. Commands that need the outside world (file dialogs,
//! background loading, settings files) are returned as an [`Effect`] for the
//! window to carry out, so the state stays testable without one.

use crate::app::checks::ChecksFilter;
use crate::app::probes;
use crate::app::state::{EditorState, ObjectFlags, ViewOptions};
use crate::app::stepper::MoveSpec;
use crate::collide::SlideSettings;
use crate::collide::debug_draw::OverlayKind;
use crate::export::engines::Engine;
use crate::level::{ImportOptions, Level};
use crate::render::CameraView;
use glam::DVec3;
use std::path::PathBuf;
use std::sync::Arc;

/// The editable, persisted part of a probe.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeParams {
    /// Name.
    pub name: String,
    /// RGBA colour.
    pub color: [f32; 4],
    /// Start centre, world space.
    pub position: DVec3,
    /// Displacement of one move, world space.
    pub velocity: DVec3,
    /// Collision settings.
    pub settings: SlideSettings,
}

/// A request from the user interface.
#[derive(Clone, Debug)]
pub enum Command {
    /// File → Open…: show the open dialog.
    OpenDialog,
    /// Load this level (recent files, drag and drop, command line).
    OpenLevel(PathBuf),
    /// A background load finished.
    LevelLoaded(Arc<Level>),
    /// A background load failed: the message names file and line.
    LevelFailed(String),
    /// New import options for the next open.
    SetImportOptions(ImportOptions),
    /// Show or hide object `i`.
    SetObjectVisible(usize, bool),
    /// Make object `i` collide or not (triggers).
    SetObjectColliding(usize, bool),
    /// Place a probe resting on the surface hit at `point` with face normal `normal` (world).
    PlaceProbe {
        /// The hit point, world space.
        point: DVec3,
        /// The surface normal there, world space.
        normal: DVec3,
    },
    /// Select a probe (or none).
    Select(Option<usize>),
    /// Duplicate probe `i` (the copy is selected).
    Duplicate(usize),
    /// Delete probe `i`.
    Delete(usize),
    /// Replace probe `i`'s parameters (the move restarts).
    UpdateProbe(usize, Box<ProbeParams>),
    /// Stepper: one solver iteration of the selected probe.
    Step,
    /// Stepper: back one iteration.
    StepBack,
    /// Stepper: run the move to its end.
    RunToEnd,
    /// Stepper: back to the start of the move, recomputed.
    Reset,
    /// Stepper: show iteration `i` (`None` = the start).
    Seek(Option<usize>),
    /// Highlight a candidate triangle (inspector click), or clear it.
    Highlight(Option<u32>),
    /// Turn one overlay on or off.
    SetOverlay(OverlayKind, bool),
    /// Wireframe, grid, axes, BVH depth.
    SetView(ViewOptions),
    /// New camera.
    SetCamera(CameraView),
    /// Frame the selected probe, or the level when none is selected (F).
    FrameSelection,
    /// Settings → Export…: show a save dialog for the selected probe's settings.
    ExportSettingsDialog,
    /// Settings → Import…: show an open dialog.
    ImportSettingsDialog,
    /// Write the selected probe's settings to a `.toml` / `.json` file.
    ExportSettings(PathBuf),
    /// Settings → Export for engine: show a save dialog for the selected
    /// probe's settings in that engine's terms.
    ExportForEngineDialog(Engine),
    /// Write the selected probe's settings in an engine's terms to a file.
    ExportForEngine(Engine, PathBuf),
    /// Read settings from a file into the selected probe.
    ImportSettings(PathBuf),
    /// Walk mode on or off for the selected probe.
    SetWalk(bool),
    /// Open recorded walk frame `i` in the stepper (full detail).
    OpenWalkFrame(usize),
    /// Check the level with the selected probe's settings (the defaults
    /// when none is selected), in the background.
    RunChecks,
    /// Stop the checks running; the level stays and no results are kept.
    CancelChecks,
    /// Which findings the Checks page lists.
    SetChecksFilter(ChecksFilter),
    /// Open finding `i` of the report: its deciding walk, at the frame
    /// where it stalls, in the selected probe's stepper.
    OpenFinding(usize),
    /// Close the opened finding (the section plot follows the probe again).
    CloseFinding,
}

/// Work the window must do outside the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Show the open-level dialog.
    OpenDialog,
    /// Load this level on a background thread.
    Load(PathBuf, ImportOptions),
    /// Show the settings save dialog.
    ExportSettingsDialog,
    /// Show the settings open dialog.
    ImportSettingsDialog,
    /// Show the save dialog for an engine's settings.
    ExportForEngineDialog(Engine),
}

impl EditorState {
    /// Applies one command; returns the outside work it asks for, if any.
    pub fn apply(&mut self, cmd: Command) -> Option<Effect> {
        match cmd {
            Command::OpenDialog => return Some(Effect::OpenDialog),
            Command::OpenLevel(path) => {
                self.info(format!("Loading {} …", path.display()));
                return Some(Effect::Load(path, self.import_options));
            }
            Command::LevelLoaded(level) => self.set_level(level),
            Command::LevelFailed(msg) => self.error(format!("Could not open level: {msg}")),
            Command::SetImportOptions(o) => self.import_options = o,
            Command::SetObjectVisible(i, v) => {
                if let Some(o) = self.objects.get_mut(i) {
                    o.visible = v;
                }
            }
            Command::SetObjectColliding(i, c) => {
                if let Some(o) = self.objects.get_mut(i) {
                    o.colliding = c;
                }
                self.restart_all();
            }
            Command::PlaceProbe { point, normal } => probes::place(self, point, normal),
            Command::Select(i) => self.selected = i.filter(|&i| i < self.probes.len()),
            Command::Duplicate(i) => probes::duplicate(self, i),
            Command::Delete(i) => probes::delete(self, i),
            Command::UpdateProbe(i, params) => probes::update(self, i, *params),
            Command::Step | Command::StepBack | Command::RunToEnd | Command::Reset => {
                self.step_selected(&cmd)
            }
            Command::Seek(i) => {
                if let Some(p) = self.selected.and_then(|s| self.probes.get_mut(s)) {
                    p.stepper.seek(i);
                }
            }
            Command::Highlight(t) => self.highlight = t,
            Command::SetOverlay(kind, on) => self.overlays.set(kind, on),
            Command::SetView(v) => self.view = v,
            Command::SetCamera(c) => self.camera = c,
            Command::FrameSelection => self.frame_selection(),
            // Settings belong to a probe: with none selected, say so rather
            // than open a dialog whose answer would be thrown away.
            Command::ExportSettingsDialog if self.selected_probe().is_none() => {
                self.info(probes::NO_PROBE_TO_EXPORT);
            }
            Command::ExportForEngineDialog(_) if self.selected_probe().is_none() => {
                self.info(probes::NO_PROBE_TO_EXPORT);
            }
            Command::ImportSettingsDialog if self.selected_probe().is_none() => {
                self.info(probes::NO_PROBE_TO_IMPORT);
            }
            Command::ExportSettingsDialog => return Some(Effect::ExportSettingsDialog),
            Command::ImportSettingsDialog => return Some(Effect::ImportSettingsDialog),
            Command::ExportSettings(path) => probes::export_settings(self, &path),
            Command::ExportForEngineDialog(engine) => {
                return Some(Effect::ExportForEngineDialog(engine));
            }
            Command::ExportForEngine(engine, path) => {
                probes::export_for_engine(self, engine, &path)
            }
            Command::ImportSettings(path) => probes::import_settings(self, &path),
            Command::SetWalk(on) => self.set_walk(on),
            Command::OpenWalkFrame(i) => self.open_walk_frame(i),
            Command::RunChecks => self.run_checks(),
            Command::CancelChecks => self.cancel_checks(),
            Command::SetChecksFilter(f) => self.checks.filter = f,
            Command::OpenFinding(i) => self.open_finding(i),
            Command::CloseFinding => self.checks.open = None,
        }
        None
    }

    /// Installs a freshly loaded level; the previous one is replaced only now,
    /// so a failed load keeps it. Probes are kept and restarted.
    pub fn set_level(&mut self, level: Arc<Level>) {
        let same_file = level.path.is_some() && level.path == self.level_path;
        let n = level.mesh.objects.len();
        if !(same_file && self.objects.len() == n) {
            self.objects = vec![ObjectFlags::default(); n];
        }
        if let Some(path) = &level.path {
            self.remember_recent(path.clone());
        }
        if !same_file || self.level.is_none() && self.probes.is_empty() {
            self.camera = CameraView::framing(&level.mesh.bounds());
        }
        self.level_path = level.path.clone();
        let warnings = level.report.warnings.len();
        self.info(format!(
            "Loaded {}: {} triangles, {} objects{}",
            level.name,
            level.mesh.triangle_count(),
            n,
            if warnings > 0 {
                format!(", {warnings} import warnings")
            } else {
                String::new()
            }
        ));
        self.level = Some(level);
        self.highlight = None;
        self.walk = Default::default();
        // Findings and their walks belong to the level they were found on.
        self.checks.clear();
        self.hygiene.clear();
        // A character frame opened on the previous level means nothing here.
        for p in &mut self.probes {
            p.stepper = Default::default();
        }
        self.restart_all();
    }

    /// Restarts every probe's move (after a level or collision-flag change).
    pub fn restart_all(&mut self) {
        for i in 0..self.probes.len() {
            self.restart_probe(i);
        }
    }

    /// Restarts probe `i`'s move: the character frame it steps, with the
    /// probe's settings as they are now, or else its raw move from its
    /// parameters.
    pub fn restart_probe(&mut self, i: usize) {
        let Some(level) = self.level.clone() else {
            return;
        };
        let flags = self.colliding_flags();
        let Some(p) = self.probes.get_mut(i) else {
            return;
        };
        let started = match p.stepper.frame().copied() {
            Some(frame) => p.stepper.start_frame(level, flags, &p.settings, &frame),
            None => {
                let spec = MoveSpec {
                    start: p.position,
                    velocity: p.velocity,
                    settings: p.settings.clone(),
                };
                p.stepper.start(level, flags, &spec)
            }
        };
        if !started {
            let name = p.name.clone();
            self.error(format!(
                "{name}: the solver rejected this move (non-finite numbers or invalid settings)"
            ));
        }
    }

    fn step_selected(&mut self, cmd: &Command) {
        let Some(i) = self.selected.filter(|&i| i < self.probes.len()) else {
            self.info("Select a probe to step (click it in the Probes list)");
            return;
        };
        if !self.probes[i].stepper.is_started() || matches!(cmd, Command::Reset) {
            self.restart_probe(i);
        }
        let stepper = &mut self.probes[i].stepper;
        match cmd {
            Command::Step => {
                stepper.step();
            }
            Command::StepBack => {
                stepper.step_back();
            }
            Command::RunToEnd => stepper.run_to_end(),
            _ => {}
        }
    }

    fn frame_selection(&mut self) {
        let aabb = match (self.selected_probe(), &self.level) {
            (Some(p), _) => {
                let c = p.shown_center();
                let r = p.radii() * 4.0;
                crate::math::Aabb::from_f64_outward(c - r, c + r)
            }
            (None, Some(level)) => level.mesh.bounds(),
            (None, None) => return,
        };
        self.camera = self.camera.reframed(&aabb);
    }

    fn set_walk(&mut self, on: bool) {
        let Some(p) = self.selected_probe() else {
            if on {
                self.info("Select a probe to walk with");
            }
            self.walk.active = false;
            return;
        };
        if !on {
            self.walk.active = false;
            return;
        }
        let (position, rate) = (p.position, p.settings.character.frame_rate_hz);
        self.walk.begin(position);
        self.info(format!(
            "Walk mode ({rate} frames/s, the probe's Character settings): WASD to move \
             (relative to the camera), Space to jump, Esc to stop"
        ));
    }

    /// Opens recorded walk frame `i` in the selected probe's stepper as a
    /// character frame, with the probe's settings. The probe's parameters
    /// are left as they are.
    fn open_walk_frame(&mut self, i: usize) {
        let (Some(frame), Some(sel)) = (self.walk.frames.get(i).cloned(), self.selected) else {
            return;
        };
        self.walk.active = false;
        let Some(level) = self.level.clone() else {
            return;
        };
        let flags = self.colliding_flags();
        let Some(p) = self.probes.get_mut(sel) else {
            return;
        };
        if !p
            .stepper
            .start_frame(level, flags, &p.settings, &frame.spec)
        {
            self.error("This walk frame no longer runs with the probe's settings");
            return;
        }
        p.stepper.run_to_end();
        p.stepper.seek(Some(0));
        self.info(format!(
            "Walk frame {} opened in the stepper (full detail, phase by phase)",
            frame.spec.index
        ));
    }
}
