//! Commands: everything a panel, a shortcut or a drop can ask for. Panels
//! only push commands; [`EditorState::apply`] is the one place that changes
//! the editor state. Commands that need the outside world (file dialogs,
//! background loading, settings files) are returned as an [`Effect`] for the
//! window to carry out, so the state stays testable without one.

use crate::app::checks::ChecksFilter;
use crate::app::file_prompt::{FilePrompt, PromptPurpose};
use crate::app::state::{CarryChoice, EditorState, ObjectFlags, ViewOptions};
use crate::app::{probes, prompts};
use crate::collide::SlideSettings;
use crate::collide::debug_draw::OverlayKind;
use crate::export::engines::Engine;
use crate::level::{ImportOptions, Level};
use crate::methods::{Method, MethodSettings};
use crate::render::CameraView;
use glam::DVec3;
use std::path::PathBuf;
use std::sync::Arc;

/// How walk mode's status message starts (cleared when walking stops).
pub const WALK_MESSAGE_START: &str = "Walk mode";

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
    /// The collision method.
    pub method: Method,
    /// Step rate and duration of the methods that step in time.
    pub method_settings: MethodSettings,
}

/// A request from the user interface.
#[derive(Clone, Debug)]
pub enum Command {
    /// File → Open…: show the open-level path field (with its import
    /// options and a Browse… button for the system dialog).
    OpenDialog,
    /// Load this level with the options it was last opened with (the
    /// defaults for a new file): drag and drop, the command line.
    OpenLevel(PathBuf),
    /// Load this level with these import options (the path field, a
    /// recent file).
    OpenLevelWith(PathBuf, ImportOptions),
    /// File → Open built-in level.
    OpenBuiltinLevel,
    /// Probe → Move all probes together: every probe's move at once, each
    /// pair through the swept bounding-sphere test.
    MoveProbesTogether,
    /// Forget the last "Move all probes together" run (its overlays go).
    ClearProbePairs,
    /// The path field as edited (`None` closes it).
    SetFilePrompt(Option<FilePrompt>),
    /// Use the path typed in the path field (checked first).
    AcceptFilePrompt,
    /// The path field's Browse…: show the system file dialog.
    BrowseNative,
    /// The system dialog picked this path: use it.
    NativePicked(PathBuf),
    /// The system dialog could not open: why.
    NativeDialogFailed(String),
    /// What to do with the probes carried to a new level; `remember`
    /// answers the same way for the rest of the session.
    CarryProbes {
        /// Keep, re-seat or clear.
        choice: CarryChoice,
        /// Ask no more this session.
        remember: bool,
    },
    /// Close the character frame open in the selected probe's stepper and
    /// go back to the probe's own move.
    CloseFrame,
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
    /// Frame the subject (the open finding, the selected probe or object,
    /// else the level) in the current view, keeping its direction and
    /// projection (F).
    FrameSelection,
    /// Front, side, top or perspective view framing the subject.
    ViewPreset(crate::render::CameraPreset),
    /// The orthographic elevation across the open finding's walk (or the
    /// selected probe's move): a stair or a door seen side-on.
    ViewAlongWalk,
    /// Select a level object (level panel or a click in the view), frame
    /// the camera on it and highlight it; `None` clears the selection.
    SelectObject(Option<usize>),
    /// Settings → Export…: ask where to write the selected probe's settings.
    ExportSettingsDialog,
    /// Settings → Import…: ask which settings file to read.
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
    /// Test the box camera along the selected probe's recorded walk, one
    /// box per segment, and open the result in its stepper.
    BoxChainOnWalk,
    /// Check the level with the selected probe's settings (the defaults
    /// when none is selected), in the background.
    RunChecks,
    /// Stop the checks running; the level stays and no results are kept.
    CancelChecks,
    /// Which findings the Checks page lists.
    SetChecksFilter(ChecksFilter),
    /// The engine profile the next checks also run under, to list the
    /// verdicts that differ (`None`: the probe's own only).
    SetChecksCompare(Option<crate::character::EngineProfile>),
    /// Open finding `i` of the report: its deciding walk, at the frame
    /// where it stalls, in the selected probe's stepper.
    OpenFinding(usize),
    /// Open finding `i` from its pin in the 3D view: as
    /// [`Command::OpenFinding`], the camera staying where it is.
    OpenFindingPin(usize),
    /// Close the opened finding (the section plot follows the probe again).
    CloseFinding,
    /// Unfold (`true`) or fold a group of the findings list (a view
    /// change, not an edit).
    SetChecksGroupOpen(crate::app::checks::GroupKey, bool),
    /// Unfold or fold every group of the findings list.
    SetAllChecksGroupsOpen(bool),
    /// Compare modes on or off: the selected probe's move in every mode.
    SetCompareModes(bool),
    /// Step the selected probe to iteration `i`, computing the iterations
    /// up to it (the compare table's divergence).
    StepTo(usize),
    /// Dismiss the what-if (the before ghost and what flipped).
    DismissWhatIf,
    /// File → Import recording…: the path field for a recording to replay.
    ImportRecordingDialog,
    /// Stop the replay in progress.
    CancelReplay,
    /// Open replayed frame N in the stepper.
    OpenReplayFrame(u32),
    /// Close the replay (its result and overlays go; the plots come back).
    CloseReplay,
    /// File → Write repro bundle…: ask for the folder to write the
    /// selected probe's move to.
    WriteReproBundleDialog,
    /// Write the selected probe's move as a repro bundle into this folder.
    WriteReproBundle(PathBuf),
    /// File → Open repro bundle…: the Open level field, for a bundle folder.
    OpenReproBundleDialog,
    /// The options of the next stuck-spot map.
    SetMapOptions(crate::analysis::map::MapOptions),
    /// Map the level with the selected probe's settings (the defaults when
    /// none is selected), in the background.
    RunMap,
    /// Stop the map running; the window goes on, no results are kept.
    CancelMap,
    /// Open spot `i` of the map (index into its spots): its worst walk, at
    /// the frame where it went wrong, in the stepper.
    OpenMapSpot(usize),
    /// List only this class's spots (`None`: the worst of every class).
    SetMapListed(Option<crate::analysis::map::MapClass>),
    /// Add a vertical cylinder standing on the surface hit at `point`
    /// (world), with the default radius and height.
    PlaceCylinder(DVec3),
    /// Replace cylinder `i` (radius, height or base edited).
    UpdateCylinder(usize, crate::level::cylinder::Cylinder),
    /// Delete cylinder `i`.
    DeleteCylinder(usize),
    /// Edit → Undo: put the scene back as it was before the last edit.
    Undo,
    /// Edit → Redo: make the last undone edit again.
    Redo,
}

/// Work the window must do outside the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Show the system file dialog for this purpose, starting in this folder.
    NativeDialog(PromptPurpose, PathBuf),
    /// Load this level on a background thread.
    Load(PathBuf, ImportOptions),
}

impl EditorState {
    /// Applies one command; returns the outside work it asks for, if any.
    /// Edits are kept for undo ([`crate::app::history`]).
    pub fn apply(&mut self, cmd: Command) -> Option<Effect> {
        let effect = if crate::app::history::is_edit(&cmd) {
            self.apply_edit(cmd)
        } else {
            self.apply_now(cmd)
        };
        // A walk that stopped (Esc, another probe, an error) is one step.
        if !self.walk.active {
            self.checkpoint_walk();
        }
        effect
    }

    /// Applies one command, not kept for undo.
    pub(crate) fn apply_now(&mut self, cmd: Command) -> Option<Effect> {
        match cmd {
            Command::OpenDialog => prompts::open(self, PromptPurpose::OpenLevel),
            Command::OpenLevel(path) | Command::OpenLevelWith(path, _)
                if crate::app::bundle::is_bundle(&path) =>
            {
                self.open_repro_bundle(&path)
            }
            Command::OpenLevel(path) => {
                let options = self.options_for(&path);
                return Some(self.start_loading(path, options));
            }
            Command::OpenLevelWith(path, options) => {
                return Some(self.start_loading(path, options));
            }
            Command::OpenBuiltinLevel => match crate::app::builtin_level() {
                Ok(level) => {
                    self.loading = None;
                    self.set_level(Arc::new(level));
                }
                Err(e) => self.error(e),
            },
            Command::SetFilePrompt(p) => self.file_prompt = p,
            Command::MoveProbesTogether => crate::app::pairs::move_all_together(self),
            Command::ClearProbePairs => self.pairs = None,
            Command::AcceptFilePrompt => return prompts::accept(self),
            Command::BrowseNative => return prompts::browse(self),
            Command::NativePicked(path) => return prompts::picked(self, path),
            Command::NativeDialogFailed(why) => prompts::native_failed(self, &why),
            Command::CarryProbes { choice, remember } => prompts::carry(self, choice, remember),
            Command::CloseFrame => self.close_frame(),
            Command::LevelLoaded(level) => self.set_level(level),
            Command::LevelFailed(msg) => {
                self.loading = None;
                self.error(format!("Could not open level: {msg}"))
            }
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
            Command::PlaceProbe { point, normal } => {
                self.highlight = None;
                probes::place(self, point, normal)
            }
            Command::Select(i) => {
                if i != self.selected {
                    self.highlight = None;
                }
                if i.is_some() {
                    self.object_selected_last = false;
                }
                self.selected = i.filter(|&i| i < self.probes.len())
            }
            Command::Duplicate(i) => probes::duplicate(self, i),
            Command::Delete(i) => probes::delete(self, i),
            Command::UpdateProbe(i, params) => {
                self.highlight = None;
                probes::update(self, i, *params)
            }
            Command::Reset => {
                // The highlighted candidate belongs to an iteration that is gone.
                self.highlight = None;
                self.step_selected(&cmd)
            }
            Command::Step | Command::StepBack | Command::RunToEnd => self.step_selected(&cmd),
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
            Command::ViewPreset(preset) => self.view_preset(preset),
            Command::ViewAlongWalk => self.view_along_walk(),
            Command::SelectObject(i) => self.select_object(i),
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
            Command::ExportSettingsDialog => prompts::open(self, PromptPurpose::ExportSettings),
            Command::ImportSettingsDialog => prompts::open(self, PromptPurpose::ImportSettings),
            Command::ExportSettings(path) => probes::export_settings(self, &path),
            Command::ExportForEngineDialog(engine) => {
                prompts::open(self, PromptPurpose::ExportForEngine(engine))
            }
            Command::ExportForEngine(engine, path) => {
                probes::export_for_engine(self, engine, &path)
            }
            Command::ImportSettings(path) => probes::import_settings(self, &path),
            Command::SetWalk(on) => {
                self.highlight = None;
                self.set_walk(on)
            }
            Command::OpenWalkFrame(i) => {
                self.highlight = None;
                self.open_walk_frame(i)
            }
            Command::BoxChainOnWalk => {
                self.highlight = None;
                crate::app::box_chain::run_on_walk(self)
            }
            Command::RunChecks => self.run_checks(),
            Command::CancelChecks => self.cancel_checks(),
            Command::SetChecksFilter(f) => self.checks.filter = f,
            Command::SetChecksCompare(e) => self.checks.compare_with = e,
            Command::OpenFinding(i) => {
                self.highlight = None;
                self.open_finding(i)
            }
            Command::OpenFindingPin(i) => {
                self.highlight = None;
                self.open_finding_framed(i, false)
            }
            Command::CloseFinding => self.checks.open = None,
            Command::SetChecksGroupOpen(key, true) => {
                self.checks.unfolded.insert(key);
            }
            Command::SetChecksGroupOpen(key, false) => {
                self.checks.unfolded.remove(&key);
            }
            Command::SetAllChecksGroupsOpen(open) => {
                self.checks.unfolded = if open {
                    self.checks.groups().into_iter().map(|g| g.key).collect()
                } else {
                    Default::default()
                };
            }
            Command::SetCompareModes(on) => crate::app::compare::set_open(self, on),
            Command::StepTo(i) => crate::app::compare::step_to(self, i),
            Command::DismissWhatIf => crate::app::whatif::dismiss(self),
            Command::ImportRecordingDialog => prompts::open(self, PromptPurpose::ImportRecording),
            Command::CancelReplay => self.cancel_replay(),
            Command::OpenReplayFrame(i) => self.open_replay_frame(i),
            Command::CloseReplay => self.replay = Default::default(),
            Command::SetMapOptions(o) => self.map.options = o,
            Command::WriteReproBundleDialog => prompts::open(self, PromptPurpose::WriteReproBundle),
            Command::WriteReproBundle(dir) => self.write_repro_bundle(&dir),
            Command::OpenReproBundleDialog => {
                prompts::open(self, PromptPurpose::OpenLevel);
                self.info(
                    "Open repro bundle: type or pick the bundle's folder (it holds move.json)",
                );
            }
            Command::RunMap => self.run_map(),
            Command::CancelMap => self.cancel_map(),
            Command::OpenMapSpot(i) => self.open_map_spot(i),
            Command::SetMapListed(c) => self.map.listed = c,
            Command::PlaceCylinder(p) => crate::app::cylinders::place(self, p),
            Command::UpdateCylinder(i, c) => crate::app::cylinders::update(self, i, c),
            Command::DeleteCylinder(i) => crate::app::cylinders::delete(self, i),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
        }
        // The comparison follows the selected probe's move as it is now.
        crate::app::compare::refresh(self);
        None
    }

    /// Installs a freshly loaded level; the previous one is replaced only now,
    /// so a failed load keeps it. Probes are kept and restarted.
    pub fn set_level(&mut self, level: Arc<Level>) {
        let n = level.mesh.objects.len();
        // The session's level again (a restart or a reload): the same file,
        // or the built-in level (no path) when the session was on it, which
        // its saved object switches show.
        let same_file = level.path.is_some() && level.path == self.level_path;
        let builtin_again = level.path.is_none()
            && self.level_path.is_none()
            && self.objects.len() == n
            && self.level.as_ref().is_none_or(|l| l.path.is_none());
        let same_file = same_file || builtin_again;
        // A fresh session (nothing saved: no object switches yet).
        let fresh = self.level.is_none() && self.objects.len() != n;
        // Probes met another level (not a reload, not the session's start).
        let carried = self.level.is_some() && !same_file && !self.probes.is_empty();
        self.selected_object = None;
        if !(same_file && self.objects.len() == n) {
            self.objects = vec![ObjectFlags::default(); n];
        }
        let options = match self.loading.take() {
            Some((path, options)) if level.path.as_ref() == Some(&path) => options,
            _ if same_file => self.import_options,
            _ => ImportOptions::default(),
        };
        self.import_options = options;
        if let Some(path) = &level.path {
            self.remember_recent(path.clone(), options);
        }
        if !same_file || fresh {
            self.camera = CameraView::framing(&level.mesh.bounds());
        }
        self.level_path = level.path.clone();
        let warnings = level.report.warnings.len();
        self.info(format!(
            "Loaded {}: {} triangles, {} object{}{}",
            level.name,
            level.mesh.triangle_count(),
            n,
            if n == 1 { "" } else { "s" },
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
        self.replay = Default::default();
        self.map.clear();
        self.pairs = None;
        // Comparisons and what-ifs were of moves on the level before.
        self.compare = Default::default();
        // Undo never crosses a level change: its objects and probes
        // belong to the level before.
        self.history.clear();
        // A character frame opened on the previous level means nothing here.
        for p in &mut self.probes {
            p.stepper = Default::default();
        }
        self.restart_all();
        if carried {
            prompts::ask_about_carried_probes(self);
        }
    }

    /// Starts loading `path` with `options` (the level shown stays until
    /// it has loaded); the progress bar in the status bar names the file.
    fn start_loading(&mut self, path: PathBuf, options: ImportOptions) -> Effect {
        // The previous message (an old error, "Placed …") is no longer news.
        self.status = None;
        self.loading = Some((path.clone(), options));
        Effect::Load(path, options)
    }
}
