//! A recording replayed in the window: File → Import recording… reads the
//! file (CSV or JSON Lines, by its name; up axis and scale from the path
//! field's import options), re-runs it on a background thread with the
//! selected probe's settings (the defaults when none is selected), keeps
//! the result for the replay view in the bottom panel and the view's overlays, and opens a
//! frame in the stepper as a check finding opens. World space. No egui here.

use crate::analysis::replay::{
    DEFAULT_TOLERANCE_M, Recording, RecordingFormat, RecordingOptions, Replay, frame_settings,
    parse_recording, replay,
};
use crate::app::level_job::{JobStep, LevelJob};
use crate::app::state::EditorState;
use crate::app::stepper::FrameSpec;
use crate::collide::SlideSettings;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use crate::level::ImportOptions;
use glam::DVec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::analysis::replay::MAX_RECORDING_BYTES;
/// Colour of the re-run ends in the view (the recorded path takes the
/// kind's own colour).
pub const RERUN_COLOR: [f32; 4] = [1.0, 0.55, 0.1, 1.0];
/// Colour of the first divergent frame's marker.
pub const DIVERGED_COLOR: [f32; 4] = [1.0, 0.15, 0.15, 1.0];

/// What a replay job carries back: the settings it ran with and the
/// recording's file.
pub struct ReplayContext {
    settings: SlideSettings,
    path: PathBuf,
}

/// A replay running on its own thread.
pub type ReplayJob = LevelJob<Replay, ReplayContext>;

/// A finished replay shown in the window.
#[derive(Clone, Debug)]
pub struct ReplayView {
    /// The result.
    pub replay: Arc<Replay>,
    /// The settings it ran with.
    pub settings: SlideSettings,
    /// The recording's file.
    pub path: PathBuf,
    /// The frame opened in the stepper.
    pub opened: Option<u32>,
}

/// The replay of the loaded level.
#[derive(Default)]
pub struct ReplayState {
    /// The run in progress.
    pub job: Option<ReplayJob>,
    /// Its last progress, `[0, 1]`.
    pub progress: f32,
    /// The last result.
    pub view: Option<ReplayView>,
    /// Why the last import or run failed.
    pub error: Option<String>,
}

impl Clone for ReplayState {
    /// A clone keeps the result but not a running job.
    fn clone(&self) -> Self {
        ReplayState {
            job: None,
            progress: self.progress,
            view: self.view.clone(),
            error: self.error.clone(),
        }
    }
}

impl std::fmt::Debug for ReplayState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayState")
            .field("running", &self.job.is_some())
            .field("frames", &self.view.as_ref().map(|v| v.replay.frames.len()))
            .field("error", &self.error)
            .finish()
    }
}

impl ReplayState {
    /// Whether the replay has something to show (in place of the plots).
    pub fn is_open(&self) -> bool {
        self.job.is_some() || self.view.is_some() || self.error.is_some()
    }
}

/// The recording's options: JSON Lines for `.jsonl` / `.json`, else CSV;
/// the up axis and scale of the path field; the default columns.
pub fn options_for(path: &Path, import: &ImportOptions) -> RecordingOptions {
    let jsonl = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("json"));
    RecordingOptions {
        up: import.up,
        scale: import.scale,
        ..RecordingOptions::new(if jsonl {
            RecordingFormat::Jsonl
        } else {
            RecordingFormat::Csv
        })
    }
}

/// Reads and parses the file; the message names the file and the line.
pub fn read_recording(path: &Path, opts: &RecordingOptions) -> Result<Recording, String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let text = crate::fileio::read_text_bounded(path, MAX_RECORDING_BYTES, "a recording")
        .map_err(|e| format!("{name}: {e}"))?;
    parse_recording(&text, opts).map_err(|e| format!("{name}: {e}"))
}

/// The recorded path, the re-run ends (a segment from each frame's start
/// to where the re-run ended) and the first divergent frame, in the view.
pub fn replay_primitives(r: &Replay) -> Vec<DebugPrimitive> {
    let kind = OverlayKind::ReplayPaths;
    let seg = |a: DVec3, b: DVec3, color: [f32; 4], label: Option<String>| DebugPrimitive {
        kind,
        shape: Shape::Segment { a, b },
        color,
        label,
    };
    let path = r.recorded_path();
    let mut out: Vec<DebugPrimitive> = path
        .windows(2)
        .map(|w| seg(w[0], w[1], kind.color(), None))
        .collect();
    out.extend(
        r.frames
            .iter()
            .map(|f| seg(f.start.position, f.rerun_end, RERUN_COLOR, None)),
    );
    if let Some(f) = r
        .summary
        .first_divergent_frame
        .and_then(|i| r.frames.get(i as usize))
    {
        out.push(DebugPrimitive {
            kind,
            shape: Shape::Point { p: f.recorded_end },
            color: DIVERGED_COLOR,
            label: Some(format!("frame {}: {:.3} m off", f.index, f.divergence_m)),
        });
    }
    out
}

impl EditorState {
    /// Reads the recording at `path` and starts replaying it on the loaded
    /// level with the selected probe's settings (the defaults when none).
    pub fn import_recording(&mut self, path: &Path, import: &ImportOptions) {
        let Some(level) = self.level.clone() else {
            self.info("Open a level to replay a recording on");
            return;
        };
        let recording = match read_recording(path, &options_for(path, import)) {
            Ok(r) => r,
            Err(e) => {
                self.replay = ReplayState {
                    error: Some(e.clone()),
                    ..ReplayState::default()
                };
                self.error(format!("Import recording: {e}"));
                return;
            }
        };
        let settings = self
            .selected_probe()
            .map(|p| p.settings.clone())
            .unwrap_or_default();
        let frames = recording.frames.len();
        let context = ReplayContext {
            settings: settings.clone(),
            path: path.to_path_buf(),
        };
        let job = ReplayJob::start(
            "replay",
            "the replay",
            level,
            self.colliding_flags(),
            context,
            move |_, world, progress, cancel| {
                replay(
                    world,
                    &settings,
                    &recording,
                    DEFAULT_TOLERANCE_M,
                    progress,
                    cancel,
                )
                .map_err(|e| e.to_string())
            },
        );
        self.replay = ReplayState {
            job: Some(job),
            ..ReplayState::default()
        };
        self.info(format!("Replaying {frames} recorded frames …"));
    }

    /// Stops the replay in progress.
    pub fn cancel_replay(&mut self) {
        if self.replay.job.take().is_some() {
            self.info("Replay cancelled");
        }
    }

    /// Takes a finished replay (called every frame) and frames the camera
    /// on its path; whether one is running.
    pub fn poll_replay(&mut self) -> bool {
        let (context, outcome) = match LevelJob::finish(
            &mut self.replay.job,
            &mut self.replay.progress,
            self.level.as_ref(),
        ) {
            JobStep::Running => return true,
            JobStep::Done(context, outcome) => (context, outcome),
            JobStep::Idle | JobStep::Stale => return false,
        };
        match outcome {
            Ok(Some(r)) => {
                let s = &r.summary;
                self.info(match s.first_divergent_frame {
                    None => format!("Replay: all {} frames reproduce", s.frames),
                    Some(i) => format!(
                        "Replay: {} of {} frames diverge, the first is frame {i}",
                        s.divergent_frames, s.frames
                    ),
                });
                let path = r.recorded_path();
                let lo = path.iter().fold(DVec3::INFINITY, |a, &p| a.min(p));
                let hi = path.iter().fold(DVec3::NEG_INFINITY, |a, &p| a.max(p));
                if lo.is_finite() && hi.is_finite() {
                    let r = DVec3::splat(1.5);
                    let aabb = crate::math::Aabb::from_f64_outward(lo - r, hi + r);
                    self.camera = self.camera.reframed(&aabb);
                }
                self.replay.view = Some(ReplayView {
                    replay: Arc::new(r),
                    settings: context.settings,
                    path: context.path,
                    opened: None,
                });
            }
            Ok(None) => {}
            Err(e) => {
                self.error(format!("Replay: {e}"));
                self.replay.error = Some(e);
            }
        }
        false
    }

    /// Opens replayed frame `index` in the selected probe's stepper (a
    /// probe is made when none is selected), from the recorded state, for
    /// the recorded time step, and frames the camera on it.
    pub fn open_replay_frame(&mut self, index: u32) {
        let (Some(view), Some(level)) = (self.replay.view.clone(), self.level.clone()) else {
            return;
        };
        let Some(f) = view.replay.frames.get(index as usize) else {
            return;
        };
        let spec = FrameSpec {
            state: f.start,
            input: f.input,
            index,
        };
        let settings = frame_settings(&view.settings, f.dt_s);
        self.walk.active = false;
        let flags = self.colliding_flags();
        let sel = self.probe_for_finding(&view.settings, f.start.position);
        let p = &mut self.probes[sel];
        if p.stepper.start_frame(level, flags, &settings, &spec) {
            p.stepper.run_to_end();
            p.stepper.seek(Some(0));
        }
        let r = DVec3::splat(1.5);
        let aabb = crate::math::Aabb::from_f64_outward(
            f.start.position.min(f.recorded_end) - r,
            f.start.position.max(f.recorded_end) + r,
        );
        self.camera = self.camera.reframed(&aabb);
        if let Some(v) = self.replay.view.as_mut() {
            v.opened = Some(index);
        }
        self.info(format!(
            "Replay frame {index} (line {}) opened in the stepper: {:.4} m from the recording",
            f.line, f.divergence_m
        ));
    }
}
