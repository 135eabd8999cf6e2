//! The eframe application: owns the editor state, the scene renderer and
//! the background loader, lays out the panels each frame and applies the
//! commands they push. File dialogs (rfd) are started here, in the
//! handler, never inside a panel, and run on their own thread (`dialogs`).

mod bottom;
mod box_view;
mod broadphase;
mod character;
mod checks;
mod compare;
mod compare_walk;
mod cylinders;
mod dialogs;
mod file_window;
mod hygiene;
mod inspector;
mod keys;
mod labels;
mod left;
mod legend;
mod map;
mod menu;
mod method_view;
mod pairs_panel;
mod panels;
mod plots;
mod radial_view;
mod replay;
pub mod section;
mod sync;
mod viewport;
mod widgets;

pub use panels::MIN_LEFT_WIDTH;

use crate::analysis::envelope::Envelope;
use crate::app::command::{Command, Effect};
use crate::app::envelope_job::{EnvelopeStatus, EnvelopeTracker};
use crate::app::loader::{LoadJob, LoadPoll};
use crate::app::pick::PickInfo;
use crate::app::state::EditorState;
use crate::level::ImportOptions;
use crate::render::SceneRenderer;
use dialogs::{DialogJob, DialogPoll};
use eframe::egui;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Key of the persisted session in eframe's storage.
const SESSION_KEY: &str = "collidoscope_session";

/// What the window opens with.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// A level to open (the command line); `None`: the session's level, else the default level.
    pub level: Option<PathBuf>,
    /// Import options for that level.
    pub import_options: ImportOptions,
}

/// CPU times of the last frame and the last stepper update.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Building the whole egui frame (panels, commands, overlay rebuild).
    pub frame: Duration,
    /// The last stepper command (Step / Run / Reset), solver included.
    pub step: Duration,
    /// The last overlay primitive rebuild.
    pub overlays: Duration,
}

/// Where the mouse pointer acts in the viewport.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Tool {
    /// Click selects a probe, drag orbits.
    #[default]
    Select,
    /// The next click on a surface places a probe.
    PlaceProbe,
    /// Clicks on surfaces measure between two points.
    Measure,
    /// The next click on a surface places a vertical cylinder (pole) there.
    PlaceCylinder,
}

/// The Collidoscope window.
pub struct CollidoscopeApp {
    state: EditorState,
    renderer: Option<Arc<Mutex<SceneRenderer>>>,
    load: Option<LoadJob>,
    load_progress: f32,
    dialog: Option<DialogJob>,
    queue: Vec<Command>,
    hover: Option<PickInfo>,
    tool: Tool,
    fly: bool,
    handle_drag: bool,
    sync: sync::SyncMemo,
    timings: Timings,
    print_timings: bool,
    envelope: EnvelopeTracker,
    envelope_status: EnvelopeStatus,
    left_tab: left::LeftTab,
    /// The section plot's cut for the selected probe's path.
    section_cache: Option<(section::SectionKey, crate::analysis::section::Section)>,
    /// How the section plot is framed (zoomed to a finding, reset).
    section_view: section::SectionView,
    /// The path field's completions for the text typed.
    completions: file_window::CompletionCache,
    /// The carried-probes question's "do the same for every level" box.
    carry_remember: bool,
    /// Screen rectangles of the label cards drawn last frame.
    label_cards: Vec<egui::Rect>,
    /// How many labels had no room last frame (the view says so).
    labels_hidden: usize,
    /// What covered the view last frame (legend, Measure switch, hover
    /// box, error banner): label cards keep off it.
    view_covers: Vec<egui::Rect>,
    /// The vectors drawn over the view last frame at a readable length:
    /// kind, tail, head (screen points).
    screen_vectors: Vec<(
        crate::collide::debug_draw::OverlayKind,
        egui::Pos2,
        egui::Pos2,
    )>,
    /// Findings whose pin was too small to see last frame, drawn as a dot
    /// of a fixed screen size instead: finding index, dot centre.
    pin_dots: Vec<(usize, egui::Pos2)>,
    /// The viewport's rectangle last frame.
    viewport_rect: Option<egui::Rect>,
    /// A click in the view selected an object: the level panel opens its
    /// list at it (once).
    reveal_object: bool,
    /// The measuring tool's points.
    measure: crate::app::measure::Measure,
    /// The legend's swatches last frame (kind, colours, more not shown).
    legend_swatches: Vec<LegendSwatches>,
    /// The widget dragged or focused last frame, and the number of the
    /// gesture it is: the edits of one gesture are one undo step.
    gesture: (Option<egui::Id>, u64),
    /// The level the tools were used on (its address): the Measure tool
    /// ends when another level is shown.
    tools_level: usize,
}

/// One legend entry's swatches: the overlay, the colours shown, and
/// whether it draws more colours than the entry lists.
pub type LegendSwatches = (crate::collide::debug_draw::OverlayKind, Vec<[f32; 4]>, bool);

impl CollidoscopeApp {
    /// Creates the app: restores the session, creates the renderer on
    /// eframe's glow context (none in GL-less tests) and starts the first load.
    pub fn new(cc: &eframe::CreationContext<'_>, startup: Startup) -> Self {
        let state: EditorState = cc
            .storage
            .and_then(|s| eframe::get_value(s, SESSION_KEY))
            .unwrap_or_default();
        let renderer = cc
            .gl
            .clone()
            .map(|gl| Arc::new(Mutex::new(SceneRenderer::new(gl))));
        let mut app = CollidoscopeApp {
            state: EditorState::default(),
            renderer,
            load: None,
            dialog: None,
            load_progress: 0.0,
            queue: Vec::new(),
            hover: None,
            tool: Tool::Select,
            fly: false,
            handle_drag: false,
            sync: sync::SyncMemo::default(),
            timings: Timings::default(),
            print_timings: std::env::var_os("COLLIDOSCOPE_TIMINGS").is_some(),
            envelope: EnvelopeTracker::default(),
            envelope_status: EnvelopeStatus::Idle,
            left_tab: left::LeftTab::Scene,
            section_cache: None,
            section_view: Default::default(),
            completions: Default::default(),
            carry_remember: false,
            label_cards: Vec::new(),
            labels_hidden: 0,
            view_covers: Vec::new(),
            screen_vectors: Vec::new(),
            pin_dots: Vec::new(),
            viewport_rect: None,
            reveal_object: false,
            measure: Default::default(),
            legend_swatches: Vec::new(),
            gesture: (None, 0),
            tools_level: 0,
        };
        // The session's level (or the command line's) loads in the background
        // straight away; the default level only fills in when there is none.
        let session_level = state.level_path.clone();
        app.state = state;
        crate::app::cylinders::sanitize(&mut app.state);
        let session_options = app.state.import_options;
        let path = match startup.level {
            Some(path) => Some((path, startup.import_options)),
            None => session_level.filter(|path| {
                let exists = path.exists();
                if !exists {
                    app.state.error(format!(
                        "The level of the last session was not found: {} (showing the default level)",
                        path.display()
                    ));
                }
                exists
            }).map(|path| (path, session_options)),
        };
        match path {
            Some((path, options)) => {
                let effect = app.state.apply(Command::OpenLevelWith(path, options));
                if let Some(effect) = effect {
                    app.carry_out(&cc.egui_ctx, effect);
                }
            }
            None => app.load_default_level(),
        }
        app
    }

    /// The editor state (tests inspect it).
    pub fn state(&self) -> &EditorState {
        &self.state
    }

    /// Screen rectangles of the label cards drawn in the last frame (they
    /// never overlap; the layout tests check it).
    pub fn label_cards(&self) -> &[egui::Rect] {
        &self.label_cards
    }

    /// How many labels found no room in the last frame (the view shows
    /// "+N labels hidden").
    pub fn labels_hidden(&self) -> usize {
        self.labels_hidden
    }

    /// What covered the 3D view in the last frame (legend, Measure switch,
    /// hover box, error banner), in screen points: label cards avoid it.
    pub fn view_covers(&self) -> &[egui::Rect] {
        &self.view_covers
    }

    /// The contact normal, slide vector and velocity as drawn over the
    /// view in the last frame: kind, tail and head in screen points.
    pub fn screen_vectors(
        &self,
    ) -> &[(
        crate::collide::debug_draw::OverlayKind,
        egui::Pos2,
        egui::Pos2,
    )] {
        &self.screen_vectors
    }

    /// The findings drawn as dots over the view last frame (their pins
    /// were too small to see from where the camera is): index, centre.
    pub fn pin_dots(&self) -> &[(usize, egui::Pos2)] {
        &self.pin_dots
    }

    /// Where the path field's caret was in the last frame (characters
    /// from the start), while the field has the keyboard focus.
    pub fn path_caret(&self) -> Option<usize> {
        self.completions.caret
    }

    /// The measuring tool's last finished measurement (first point, second).
    pub fn measurement(
        &self,
    ) -> Option<(
        crate::app::measure::MeasurePoint,
        crate::app::measure::MeasurePoint,
    )> {
        self.measure.done
    }

    /// Whether the Measure tool is on.
    pub fn measuring(&self) -> bool {
        self.tool == Tool::Measure
    }

    /// The legend's swatches as last shown, one entry per overlay kind.
    pub fn legend_swatches(&self) -> &[LegendSwatches] {
        &self.legend_swatches
    }

    /// The overlay primitives the view draws now (world space).
    pub fn drawn_overlays(&self) -> &[crate::collide::debug_draw::DebugPrimitive] {
        self.sync.primitives()
    }

    /// How the section plot was framed in the last frame: its bounds, its
    /// rectangle and the measurement it is zoomed to.
    pub fn section_view(&self) -> &section::SectionView {
        &self.section_view
    }

    /// The 3D view's rectangle in the last frame, in screen points.
    pub fn viewport_rect(&self) -> Option<egui::Rect> {
        self.viewport_rect
    }

    /// Queues a command as a panel would (tests drive the app with it).
    pub fn push(&mut self, cmd: Command) {
        self.queue.push(cmd);
    }

    /// The selected probe's envelope, once measured for its current
    /// settings (`Err`: why it could not be measured).
    pub fn envelope(&self) -> Option<&Result<Envelope, String>> {
        self.envelope.current()
    }

    /// Whether the envelope is measuring (or waiting to).
    pub fn envelope_measuring(&self) -> bool {
        self.envelope_status == EnvelopeStatus::Measuring
    }

    /// Keeps the envelope in step with the selected probe's settings.
    fn poll_envelope(&mut self, ctx: &egui::Context) {
        let wake_ctx = ctx.clone();
        let settings = self.state.selected_probe().map(|p| &p.settings);
        self.envelope_status = self
            .envelope
            .poll(settings, move || wake_ctx.request_repaint());
        if let Some(due) = self.envelope.due_in() {
            ctx.request_repaint_after(due);
        }
    }

    /// Whether a level is loading in the background.
    pub fn is_loading(&self) -> bool {
        self.load.is_some()
    }

    /// CPU times of the last frame and stepper update.
    pub fn timings(&self) -> Timings {
        self.timings
    }

    /// Installs the embedded default level (synchronously: it is tiny).
    fn load_default_level(&mut self) {
        match crate::app::builtin_level() {
            Ok(level) => {
                let keep_status = self.state.status.clone();
                self.state.set_level(Arc::new(level));
                if keep_status.is_some() {
                    self.state.status = keep_status;
                }
            }
            Err(e) => self.state.error(e),
        }
    }

    /// Starts the background load (the status bar's progress bar names the
    /// file while it runs).
    fn start_load(&mut self, ctx: &egui::Context, path: PathBuf, options: ImportOptions) {
        let ctx = ctx.clone();
        self.load_progress = 0.0;
        self.load = Some(LoadJob::start(path, options, move || ctx.request_repaint()));
    }

    /// Stops waiting for the level being loaded: the level shown stays and
    /// nothing of the load is kept. The import itself (near-linear, a few
    /// seconds on the largest levels) finishes in the background and its
    /// result is dropped.
    pub fn cancel_load(&mut self) {
        if let Some(job) = self.load.take() {
            self.state.loading = None;
            self.state.info(format!(
                "Loading {} cancelled; the level shown stays",
                job.path().display()
            ));
        }
    }

    fn poll_load(&mut self) {
        let Some(job) = &self.load else {
            return;
        };
        match job.poll() {
            LoadPoll::Running(p) => self.load_progress = p,
            LoadPoll::Done(result) => {
                self.load = None;
                match result {
                    Ok(level) => self.queue.push(Command::LevelLoaded(level)),
                    Err(msg) => {
                        self.queue.push(Command::LevelFailed(msg));
                        if self.state.level.is_none() {
                            // Nothing to keep: show the default level under the error.
                            self.load_default_level();
                        }
                    }
                }
            }
        }
    }

    /// Applies queued commands, carrying out their outside effects.
    fn flush(&mut self, ctx: &egui::Context) {
        while !self.queue.is_empty() {
            for cmd in std::mem::take(&mut self.queue) {
                let stepping = matches!(
                    cmd,
                    Command::Step | Command::StepBack | Command::RunToEnd | Command::Reset
                );
                if matches!(cmd, Command::OpenBuiltinLevel) {
                    // The built-in level replaces whatever was loading.
                    self.load = None;
                }
                let t = Instant::now();
                let effect = self.state.apply(cmd);
                if stepping {
                    self.timings.step = t.elapsed();
                }
                if let Some(effect) = effect {
                    self.carry_out(ctx, effect);
                }
            }
        }
    }

    fn carry_out(&mut self, ctx: &egui::Context, effect: Effect) {
        match effect {
            Effect::Load(path, options) => self.start_load(ctx, path, options),
            Effect::NativeDialog(purpose, folder) => {
                if self.dialog.is_some() {
                    self.state.info("The system file dialog is already open");
                } else {
                    self.state
                        .info("The system file dialog is open (or type the path here)");
                    self.dialog = Some(DialogJob::start(ctx, purpose, folder));
                }
            }
        }
    }

    /// Uses the path a system dialog picked; a dialog that closed with
    /// nothing at once never opened (no portal answered), so the path
    /// field says so rather than nothing happening.
    fn poll_dialog(&mut self) {
        let Some(job) = &self.dialog else {
            return;
        };
        if let DialogPoll::Closed(path, elapsed) = job.poll() {
            self.dialog = None;
            match path {
                Some(path) => self.queue.push(Command::NativePicked(path)),
                None if elapsed < dialogs::FAILED_WITHIN => {
                    self.queue.push(Command::NativeDialogFailed(
                        "it closed at once: no desktop portal answered; rfd's reason is on stderr \
                         (RUST_LOG)"
                            .into(),
                    ))
                }
                None => {}
            }
        }
    }

    /// Tells the undo history which gesture goes on: a drag (of a value,
    /// of the velocity handle) or a focused text field. Each new one gets
    /// a new number.
    fn track_gesture(&mut self, ctx: &egui::Context) {
        let widget = ctx.dragged_id().or_else(|| ctx.memory(|m| m.focused()));
        if widget != self.gesture.0 {
            self.gesture = (widget, self.gesture.1 + 1);
        }
        self.state
            .history
            .set_gesture(widget.map(|_| self.gesture.1));
    }

    /// Ends the tools that belong to the level shown (the Measure tool and
    /// its reading) when another level is shown.
    fn end_stale_tools(&mut self) {
        let level = self
            .state
            .level
            .as_ref()
            .map_or(0, |l| Arc::as_ptr(l) as usize);
        if level == self.tools_level {
            return;
        }
        self.tools_level = level;
        self.measure = Default::default();
        if self.tool == Tool::Measure {
            self.tool = Tool::Select;
        }
    }

    fn handle_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.queue.push(Command::OpenLevel(path));
        }
    }
}

impl eframe::App for CollidoscopeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        self.poll_load();
        self.poll_dialog();
        self.handle_dropped_files(&ctx);
        self.track_gesture(&ctx);
        self.flush(&ctx);
        keys::handle(&ctx, self);
        self.flush(&ctx);
        self.end_stale_tools();
        self.poll_envelope(&ctx);
        let checking = self.state.poll_checks()
            | self.state.poll_hygiene()
            | self.state.poll_replay()
            | self.state.poll_map();
        if let Some(left) = self.state.expire_status(Instant::now()) {
            ctx.request_repaint_after(left);
        }
        menu::menu_bar(ui, self);
        menu::status_bar(ui, self);
        bottom::show(ui, self);
        left::show(ui, self);
        inspector::show(ui, self);
        viewport::show(ui, self);
        file_window::show_prompt(&ctx, self);
        file_window::show_carry_prompt(&ctx, self);
        self.track_gesture(&ctx);
        self.flush(&ctx);
        self.end_stale_tools();
        if self.load.is_some() || checking || self.state.walk.active || self.fly {
            ctx.request_repaint();
        }
        self.timings.frame = start.elapsed();
        if self.print_timings {
            // The scene's draw runs after this, in the paint callback: the
            // renderer still holds the previous frame's figures.
            let (draw, level) = self.renderer.as_ref().map_or((0.0, None), |r| {
                let r = r.lock().unwrap_or_else(|e| e.into_inner());
                (
                    r.last_render_time().as_secs_f64(),
                    Some(r.last_level_draw()),
                )
            });
            eprintln!(
                "frame_cpu_ms={:.3} step_ms={:.3} overlays_ms={:.3} previous_draw_ms={:.3} previous_level={level:?}",
                self.timings.frame.as_secs_f64() * 1e3,
                self.timings.step.as_secs_f64() * 1e3,
                self.timings.overlays.as_secs_f64() * 1e3,
                draw * 1e3
            );
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SESSION_KEY, &self.state);
    }
}
