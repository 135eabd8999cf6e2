//! The editor state, free of egui: the level, probes, selection, camera,
//! overlay toggles and view options. Positions and velocities are world
//! space (Y up, metres).
//!
//! Panels read this and push [`super::command::Command`]s; one handler
//! applies them (rerun's `UICommand` pattern), so everything here can be
//! driven and tested without a window (`tests/gui_state.rs`). The serde
//! derive is the session that eframe persists across restarts: runtime data
//! (the loaded level, the steppers, messages) is skipped and rebuilt.

use crate::app::checks::ChecksState;
use crate::app::file_prompt::FilePrompt;
use crate::app::stepper::Stepper;
use crate::app::walk::WalkState;
use crate::collide::SlideSettings;
use crate::collide::debug_draw::{DEFAULT_MAX_BOXES_PER_KIND, OverlayToggles};
use crate::level::{ImportOptions, Level};
use crate::methods::{Method, MethodSettings};
use crate::render::CameraView;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an information message stays in the status bar: it says what
/// just happened ("Placed Probe 1 at …"), which stops being true as soon as
/// the user moves on. Errors stay until dismissed or replaced.
pub const INFO_MESSAGE_LIFETIME: Duration = Duration::from_secs(8);

/// How many recent files the File menu remembers.
pub const MAX_RECENT_FILES: usize = 8;

/// Probe colours, cycled as probes are added (distinct on a grey mesh).
pub const PROBE_PALETTE: [[f32; 4]; 6] = [
    [0.95, 0.55, 0.10, 1.0],
    [0.20, 0.75, 0.95, 1.0],
    [0.85, 0.25, 0.70, 1.0],
    [0.45, 0.85, 0.25, 1.0],
    [0.95, 0.85, 0.20, 1.0],
    [0.60, 0.45, 0.95, 1.0],
];

/// One ellipsoid probe: where it starts, how it moves, how it collides.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Probe {
    /// Name shown in lists and labels.
    pub name: String,
    /// RGBA colour of its ellipsoid and labels.
    pub color: [f32; 4],
    /// Centre at the start of the move, world space.
    pub position: DVec3,
    /// Requested displacement of one move, world space (metres).
    pub velocity: DVec3,
    /// Radii, gravity, mode, skin, iteration cap, min move, two-sided.
    pub settings: SlideSettings,
    /// The collision method its move runs by.
    #[serde(default)]
    pub method: Method,
    /// Step rate and duration of the methods that step in time.
    #[serde(default)]
    pub method_settings: MethodSettings,
    /// The stepped trace of the move (rebuilt, never persisted).
    #[serde(skip)]
    pub stepper: Stepper,
}

impl Probe {
    /// A probe with default settings at `position`, moving by `velocity`.
    pub fn new(name: String, color: [f32; 4], position: DVec3, velocity: DVec3) -> Probe {
        Probe {
            name,
            color,
            position,
            velocity,
            settings: SlideSettings::default(),
            method: Method::default(),
            method_settings: MethodSettings::default(),
            stepper: Stepper::default(),
        }
    }

    /// Radii as a vector, world metres.
    pub fn radii(&self) -> DVec3 {
        self.settings.radii_vec()
    }

    /// The body the probe is drawn as: the one its character frames sweep
    /// (the engine profile's capsule, see [`crate::character::body_shape`])
    /// while a frame is stepped or in walk mode, else the settings' shape,
    /// the one its plain moves sweep.
    pub fn shown_body(&self) -> crate::geometry::shape::CharacterShape {
        if self.stepper.frame().is_some() {
            crate::character::body_shape(&self.settings)
        } else {
            self.settings.shape
        }
    }

    /// Where the probe is drawn now: the end of the current iteration, or
    /// the start of the move stepped (a character frame starts where the
    /// character was), or its start position.
    pub fn shown_center(&self) -> DVec3 {
        self.stepper
            .current_record()
            .map(|r| r.end)
            .or(self.stepper.current_method_step().map(|s| s.end))
            .or(self.stepper.start_position())
            .unwrap_or(self.position)
    }
}

/// Per-object flags of the loaded level (one entry per `mesh.objects`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectFlags {
    /// Drawn in the viewport.
    pub visible: bool,
    /// Takes part in collisions (`false` for triggers, decals).
    pub colliding: bool,
}

impl Default for ObjectFlags {
    fn default() -> Self {
        ObjectFlags {
            visible: true,
            colliding: true,
        }
    }
}

/// Overlay label size in a fresh session, points.
pub const DEFAULT_LABEL_SIZE_PT: f32 = 12.0;
/// Smallest and largest label sizes the View menu offers, points.
pub const LABEL_SIZE_RANGE_PT: std::ops::RangeInclusive<f32> = 8.0..=28.0;

/// How the viewport draws the level. Fields missing from a saved session
/// take their default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewOptions {
    /// Draw triangle edges over the mesh.
    pub wireframe: bool,
    /// Draw the ground grid.
    pub grid: bool,
    /// Draw the world axes.
    pub axes: bool,
    /// Which BVH depth the `BvhLevel` overlay shows.
    pub bvh_level_depth: u32,
    /// Show the hover-picking box in the viewport.
    pub hover_info: bool,
    /// Most overlay boxes drawn per kind (hits first, then the nearest).
    pub max_boxes_per_kind: usize,
    /// X-ray: overlays drawn over the level and the probes instead of
    /// hidden by them (a contact normal inside the probe shows).
    pub overlays_on_top: bool,
    /// Size of the overlay labels, points.
    pub label_size_pt: f32,
    /// Walk mode's W walks along the probe's velocity (else away from the
    /// camera).
    pub walk_along_probe: bool,
    /// Label every overlay point (the earlier iterations' numbers,
    /// Nettle's three points, the destinations, ...). Off: only what the
    /// iteration decided (the contact, the chosen triangle, the sliding
    /// plane, a tunnel or a stuck probe) and the probes' names; the rest
    /// show when the pointer is near their point.
    pub all_labels: bool,
}

impl ViewOptions {
    /// The label size to draw with: the setting within
    /// [`LABEL_SIZE_RANGE_PT`], the default when a session file holds
    /// something that is not a number.
    pub fn label_size(&self) -> f32 {
        if self.label_size_pt.is_finite() {
            self.label_size_pt
                .clamp(*LABEL_SIZE_RANGE_PT.start(), *LABEL_SIZE_RANGE_PT.end())
        } else {
            DEFAULT_LABEL_SIZE_PT
        }
    }
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            wireframe: false,
            grid: true,
            axes: true,
            bvh_level_depth: 3,
            hover_info: true,
            max_boxes_per_kind: DEFAULT_MAX_BOXES_PER_KIND,
            overlays_on_top: false,
            label_size_pt: DEFAULT_LABEL_SIZE_PT,
            walk_along_probe: false,
            all_labels: false,
        }
    }
}

/// The sizes the user gave the panels, points, remembered with the
/// session. The window fits them in each frame (a small window narrows
/// them) without forgetting them, so they come back when it grows again;
/// nothing a panel shows ever changes them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PanelSizes {
    /// The left panel (level, probes, character, checks).
    pub left_width: f32,
    /// The inspector on the right.
    pub inspector_width: f32,
    /// The stepper and plots at the bottom.
    pub plots_height: f32,
}

impl Default for PanelSizes {
    fn default() -> Self {
        // At 1280 × 800 these leave the 3D view 61 % of the width.
        PanelSizes {
            left_width: 260.0,
            inspector_width: 240.0,
            plots_height: 230.0,
        }
    }
}

/// How severe a status message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something happened as asked.
    Info,
    /// Something could not be done; what was loaded is kept.
    Error,
}

/// The message in the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusMessage {
    /// Info or error.
    pub severity: Severity,
    /// The text (errors carry file and line).
    pub text: String,
    /// When it was shown (information expires, see [`INFO_MESSAGE_LIFETIME`]).
    pub shown_at: Instant,
}

/// A level opened before, with the import options it was opened with, so
/// reopening it from the recent files applies its own options rather than
/// those of the last file opened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "RecentFileRepr")]
pub struct RecentFile {
    /// The file.
    pub path: PathBuf,
    /// Up axis, unit scale and objects-by it was opened with.
    pub options: ImportOptions,
}

/// A recent file as sessions stored it: a bare path (sessions before
/// per-file options, read with the default options) or path and options.
#[derive(Deserialize)]
#[serde(untagged)]
enum RecentFileRepr {
    Path(PathBuf),
    Entry {
        path: PathBuf,
        #[serde(default)]
        options: ImportOptions,
    },
}

impl From<RecentFileRepr> for RecentFile {
    fn from(r: RecentFileRepr) -> Self {
        match r {
            RecentFileRepr::Path(path) => RecentFile {
                path,
                options: ImportOptions::default(),
            },
            RecentFileRepr::Entry { path, options } => RecentFile { path, options },
        }
    }
}

/// What to do with the probes when another level loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryChoice {
    /// Leave them where they are.
    Keep,
    /// Move each down (or up) onto the floor under its X and Z.
    Reseat,
    /// Delete them.
    Clear,
}

/// The question asked when probes meet a new level: how many, and which
/// of them do not fit it (named, with why).
#[derive(Clone, Debug, PartialEq)]
pub struct CarryPrompt {
    /// The level they were carried to.
    pub level_name: String,
    /// One line per probe that floats, lies outside or dwarfs the level.
    pub misfits: Vec<String>,
}

/// Everything the editor knows, minus egui.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct EditorState {
    /// The file of the loaded level (persisted; reopened at start).
    pub level_path: Option<PathBuf>,
    /// Import options the loaded level was opened with (Reload and the
    /// next session reuse them; other files use their own).
    pub import_options: ImportOptions,
    /// Most recent first, each with its own import options.
    pub recent_files: Vec<RecentFile>,
    /// The probes.
    pub probes: Vec<Probe>,
    /// Index of the selected probe.
    pub selected: Option<usize>,
    /// The viewport camera.
    pub camera: CameraView,
    /// Which overlays are drawn.
    pub overlays: OverlayToggles,
    /// Wireframe, grid, axes.
    pub view: ViewOptions,
    /// The side panels' widths and the plots' height the user chose.
    pub panels: PanelSizes,
    /// Per-object visibility and collision flags of the level.
    pub objects: Vec<ObjectFlags>,
    /// Counter used to name new probes.
    pub next_probe_number: u32,
    /// Vertical cylinders (poles, trees) placed in the window, world space:
    /// the radial method pushes out of them, the slide meets their prisms.
    pub cylinders: Vec<crate::level::cylinder::Cylinder>,
    /// The level with the cylinders' prisms added, and what it was built
    /// from ([`crate::app::cylinders::collision_level`]).
    #[serde(skip)]
    pub cylinder_level: Option<crate::app::cylinders::CylinderLevel>,
    /// The loaded level.
    #[serde(skip)]
    pub level: Option<Arc<Level>>,
    /// The candidate triangle highlighted from the inspector.
    #[serde(skip)]
    pub highlight: Option<u32>,
    /// The level object selected in the level panel or the view.
    #[serde(skip)]
    pub selected_object: Option<usize>,
    /// The status bar message.
    #[serde(skip)]
    pub status: Option<StatusMessage>,
    /// Walk mode.
    #[serde(skip)]
    pub walk: WalkState,
    /// Why the last settings edit was refused (the message names the
    /// field); cleared by the next accepted edit.
    #[serde(skip)]
    pub settings_error: Option<String>,
    /// The level checks: the run in progress, the report, the filters and
    /// the finding opened (dropped when the level changes).
    #[serde(skip)]
    pub checks: ChecksState,
    /// The mesh hygiene analysis (dropped when the level changes).
    #[serde(skip)]
    pub hygiene: crate::app::hygiene::HygieneState,
    /// The imported recording's replay (dropped when the level changes).
    #[serde(skip)]
    pub replay: crate::app::replay::ReplayState,
    /// The stuck-spot map: its options, the run in progress, the report and
    /// the spot opened (dropped when the level changes).
    #[serde(skip)]
    pub map: crate::app::map::MapState,
    /// The last "Move all probes together" run (dropped when the level changes).
    #[serde(skip)]
    pub pairs: Option<Arc<crate::app::pairs::PairsView>>,
    /// The in-app path field, when open.
    #[serde(skip)]
    pub file_prompt: Option<FilePrompt>,
    /// The file being loaded and the options it is loaded with.
    #[serde(skip)]
    pub loading: Option<(PathBuf, ImportOptions)>,
    /// The question about probes carried to a newly loaded level.
    #[serde(skip)]
    pub carry_prompt: Option<CarryPrompt>,
    /// The answer to it, remembered for this session when asked to.
    #[serde(skip)]
    pub carry_choice: Option<CarryChoice>,
    /// Compare modes and the what-if of the selected probe.
    #[serde(skip)]
    pub compare: crate::app::compare::CompareState,
    /// Undo and redo of the edits since the level was loaded.
    #[serde(skip)]
    pub history: crate::app::history::History,
    /// The 3D view's width / height last frame: the camera views frame
    /// their subject for it (0 before the view was first shown).
    #[serde(skip)]
    pub view_aspect: f32,
    /// The level object was selected after the probe: F and the camera
    /// views frame it rather than the probe.
    #[serde(skip)]
    pub object_selected_last: bool,
}

impl Default for EditorState {
    fn default() -> Self {
        EditorState {
            level_path: None,
            import_options: ImportOptions::default(),
            recent_files: Vec::new(),
            probes: Vec::new(),
            selected: None,
            camera: CameraView::framing(&crate::math::Aabb::from_corners(
                glam::Vec3::splat(-5.0),
                glam::Vec3::splat(5.0),
            )),
            overlays: OverlayToggles::default(),
            view: ViewOptions::default(),
            panels: PanelSizes::default(),
            objects: Vec::new(),
            next_probe_number: 1,
            cylinders: Vec::new(),
            cylinder_level: None,
            level: None,
            highlight: None,
            selected_object: None,
            status: None,
            walk: WalkState::default(),
            settings_error: None,
            checks: ChecksState::default(),
            hygiene: Default::default(),
            replay: Default::default(),
            map: Default::default(),
            pairs: None,
            file_prompt: None,
            loading: None,
            carry_prompt: None,
            carry_choice: None,
            compare: Default::default(),
            history: Default::default(),
            view_aspect: 0.0,
            object_selected_last: false,
        }
    }
}

impl EditorState {
    /// The selected probe.
    pub fn selected_probe(&self) -> Option<&Probe> {
        self.selected.and_then(|i| self.probes.get(i))
    }

    /// Per-object collision flags, as `Level::world_with` takes them.
    pub fn colliding_flags(&self) -> Vec<bool> {
        self.objects.iter().map(|o| o.colliding).collect()
    }

    /// Per-object visibility, as the renderer takes it.
    pub fn visible_flags(&self) -> Vec<bool> {
        self.objects.iter().map(|o| o.visible).collect()
    }

    /// Shows an information message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.status = Some(StatusMessage {
            severity: Severity::Info,
            text: text.into(),
            shown_at: Instant::now(),
        });
    }

    /// Shows an error message (what was loaded stays).
    pub fn error(&mut self, text: impl Into<String>) {
        self.status = Some(StatusMessage {
            severity: Severity::Error,
            text: text.into(),
            shown_at: Instant::now(),
        });
    }

    /// Drops an information message older than [`INFO_MESSAGE_LIFETIME`]
    /// at `now`; returns how long the current one has left, if it expires.
    pub fn expire_status(&mut self, now: Instant) -> Option<Duration> {
        let msg = self.status.as_ref()?;
        if msg.severity == Severity::Error {
            return None;
        }
        let age = now.saturating_duration_since(msg.shown_at);
        if age >= INFO_MESSAGE_LIFETIME {
            self.status = None;
            return None;
        }
        Some(INFO_MESSAGE_LIFETIME - age)
    }

    /// Clears the status message if it still says `prefix…` (a message
    /// about a state that just ended, e.g. walk mode's keys).
    pub fn clear_status_starting(&mut self, prefix: &str) {
        if self
            .status
            .as_ref()
            .is_some_and(|m| m.text.starts_with(prefix))
        {
            self.status = None;
        }
    }

    /// Puts `path` first in the recent files with the options it was
    /// opened with, without duplicates.
    pub fn remember_recent(&mut self, path: PathBuf, options: ImportOptions) {
        self.recent_files.retain(|r| r.path != path);
        self.recent_files.insert(0, RecentFile { path, options });
        self.recent_files.truncate(MAX_RECENT_FILES);
    }

    /// The options `path` was last opened with, or the defaults for a file
    /// never opened (never the options of another file).
    pub fn options_for(&self, path: &std::path::Path) -> ImportOptions {
        self.recent_files
            .iter()
            .find(|r| r.path == path)
            .map_or_else(ImportOptions::default, |r| r.options)
    }

    /// The next probe colour.
    pub fn next_color(&self) -> [f32; 4] {
        PROBE_PALETTE[self.probes.len() % PROBE_PALETTE.len()]
    }
}
