//! The replay: each recorded frame re-run by the character's own
//! [`FrameSolver`] from the recorded state, and its end compared with the
//! next recorded position. World space (Y up, metres).
//!
//! Frame `i` starts at recorded position `i` with the recorded vertical
//! speed (the velocity's y) and the recorded ground flag; a recording that
//! lacks one of them takes it from the re-run of frame `i - 1` (the first
//! frame starts in the air, at rest vertically). The player's wish is the
//! recorded input direction, else the recorded horizontal velocity over
//! the walking speed. The frame lasts the recorded time step (the
//! settings' frame rate is set to its inverse for that frame). Beside it,
//! a free run drives the character from its own state with the same
//! inputs, to show how far the recorded path drifts as a whole.

use super::recording::{RecordedFrame, Recording};
use crate::character::{CharacterInput, CharacterState, FrameSolver};
use crate::collide::{CollisionWorld, SlideSettings, TraceDetail};
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// Frames between progress reports and cancel checks.
const PROGRESS_EVERY: usize = 256;

/// One recorded frame re-run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayFrame {
    /// Index of the frame (recorded frame `index` to `index + 1`).
    pub index: u32,
    /// Line of the recording the frame starts at.
    pub line: usize,
    /// Time at the start, seconds.
    pub t_s: f64,
    /// The frame's time step, seconds.
    pub dt_s: f64,
    /// The state the re-run started from.
    pub start: CharacterState,
    /// What the re-run was asked.
    pub input: CharacterInput,
    /// Recorded position at the end of the frame.
    pub recorded_end: DVec3,
    /// Where the re-run ended.
    pub rerun_end: DVec3,
    /// Whether the re-run ended on ground.
    pub rerun_grounded: bool,
    /// Distance between the re-run's end and the recorded end, metres.
    pub divergence_m: f64,
    /// Its horizontal part, metres.
    pub horizontal_m: f64,
    /// Its vertical part (re-run minus recorded height), metres.
    pub vertical_m: f64,
    /// Where the free run was at the end of this frame.
    pub free_run_end: DVec3,
    /// Distance from the free run to the recorded end, metres.
    pub free_run_divergence_m: f64,
}

/// The replay in numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplaySummary {
    /// Frames re-run (recorded frames less one).
    pub frames: u32,
    /// The tolerance, metres.
    pub tolerance_m: f64,
    /// The first frame whose divergence exceeds the tolerance.
    pub first_divergent_frame: Option<u32>,
    /// Frames whose divergence exceeds the tolerance.
    pub divergent_frames: u32,
    /// The largest divergence, metres.
    pub max_divergence_m: f64,
    /// The frame of the largest divergence.
    pub max_at_frame: Option<u32>,
    /// Mean divergence per frame, metres.
    pub mean_divergence_m: f64,
    /// Distance from the free run's end to the recording's end, metres.
    pub free_run_final_m: f64,
}

impl ReplaySummary {
    /// Whether every frame is within the tolerance.
    pub fn reproduced(&self) -> bool {
        self.first_divergent_frame.is_none()
    }
}

/// A replayed recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The outcome.
    pub summary: ReplaySummary,
    /// Every frame.
    pub frames: Vec<ReplayFrame>,
}

impl Replay {
    /// The recorded path, level space (every frame's start, then the end).
    pub fn recorded_path(&self) -> Vec<DVec3> {
        let mut path: Vec<DVec3> = self.frames.iter().map(|f| f.start.position).collect();
        path.extend(self.frames.last().map(|f| f.recorded_end));
        path
    }

    /// The free run's path, level space.
    pub fn free_run_path(&self) -> Vec<DVec3> {
        let first = self.frames.first().map(|f| f.start.position);
        first
            .into_iter()
            .chain(self.frames.iter().map(|f| f.free_run_end))
            .collect()
    }
}

/// Why a replay cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The settings break a rule.
    #[error("{0}")]
    InvalidSettings(String),
    /// A tolerance that is not a positive finite number.
    #[error("the tolerance {0} m must be a finite number above zero")]
    BadTolerance(f64),
    /// Fewer than two frames: nothing to compare.
    #[error("a recording needs at least two frames to replay; it has {0}")]
    TooShort(usize),
    /// The solver refused a frame's start (a position too large).
    #[error("line {line}: the character's state at this frame cannot be run (too far out)")]
    Refused {
        /// Line of the recording.
        line: usize,
    },
}

/// The settings of one frame: `settings` with the frame rate of `dt_s`.
pub fn frame_settings(settings: &SlideSettings, dt_s: f64) -> SlideSettings {
    let mut s = settings.clone();
    // The recording's steps are checked to be at least 1 ms: at most 1000 Hz.
    s.character.frame_rate_hz = (1.0 / dt_s).min(crate::character::MAX_FRAME_RATE_HZ);
    s
}

/// The state and input of recorded frame `f`, taking what it lacks from
/// `carried` (the previous re-run's end).
fn start_of(
    f: &RecordedFrame,
    carried: &CharacterState,
    walk_speed_m_s: f64,
) -> (CharacterState, CharacterInput) {
    let state = CharacterState {
        position: f.position,
        vertical_speed_m_s: f.velocity.map_or(carried.vertical_speed_m_s, |v| v.y),
        grounded: f.grounded.unwrap_or(carried.grounded),
        ground_normal: None,
        ground_triangle: None,
    };
    let wish_dir = match (f.input, f.velocity) {
        (Some(i), _) => DVec3::new(i.x, 0.0, i.z),
        (None, Some(v)) if walk_speed_m_s > 0.0 => DVec3::new(v.x, 0.0, v.z) / walk_speed_m_s,
        _ => DVec3::ZERO,
    };
    let input = CharacterInput {
        wish_dir,
        jump: f.jump,
    };
    (state, input)
}

/// Replays `recording` in `world` with `settings`; `Ok(None)` when
/// `cancel` was set. `progress` is told the share done, in `[0, 1]`.
pub fn replay(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    recording: &Recording,
    tolerance_m: f64,
    progress: &dyn Fn(f32),
    cancel: &AtomicBool,
) -> Result<Option<Replay>, ReplayError> {
    settings
        .validate()
        .map_err(|e| ReplayError::InvalidSettings(e.to_string()))?;
    if !(tolerance_m.is_finite() && tolerance_m > 0.0) {
        return Err(ReplayError::BadTolerance(tolerance_m));
    }
    let rec = &recording.frames;
    if rec.len() < 2 {
        return Err(ReplayError::TooShort(rec.len()));
    }
    let speed = settings.character.walk_speed_m_s;
    let mut carried = CharacterState::at(rec[0].position);
    let mut free = start_of(&rec[0], &carried, speed).0;
    let mut frames = Vec::with_capacity(rec.len() - 1);
    for (i, pair) in rec.windows(2).enumerate() {
        if i % PROGRESS_EVERY == 0 {
            if cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
            progress(i as f32 / (rec.len() - 1) as f32);
        }
        let (a, b) = (&pair[0], &pair[1]);
        let dt_s = b.t_s - a.t_s;
        let s = frame_settings(settings, dt_s);
        let (start, input) = start_of(a, &carried, speed);
        let run = |state: &CharacterState| {
            FrameSolver::new(world, &s, state, input, i as u32, TraceDetail::Summary)
                .map(|f| f.finish().after)
                .ok_or(ReplayError::Refused { line: a.line })
        };
        let after = run(&start)?;
        let free_after = run(&free)?;
        let d = after.position - b.position;
        frames.push(ReplayFrame {
            index: i as u32,
            line: a.line,
            t_s: a.t_s,
            dt_s,
            start,
            input,
            recorded_end: b.position,
            rerun_end: after.position,
            rerun_grounded: after.grounded,
            divergence_m: d.length(),
            horizontal_m: DVec3::new(d.x, 0.0, d.z).length(),
            vertical_m: d.y,
            free_run_end: free_after.position,
            free_run_divergence_m: free_after.position.distance(b.position),
        });
        carried = after;
        free = free_after;
    }
    progress(1.0);
    let summary = summarise(&frames, tolerance_m);
    Ok(Some(Replay { summary, frames }))
}

fn summarise(frames: &[ReplayFrame], tolerance_m: f64) -> ReplaySummary {
    let over = |f: &&ReplayFrame| f.divergence_m > tolerance_m;
    let max = frames
        .iter()
        .max_by(|a, b| a.divergence_m.total_cmp(&b.divergence_m));
    ReplaySummary {
        frames: frames.len() as u32,
        tolerance_m,
        first_divergent_frame: frames.iter().find(over).map(|f| f.index),
        divergent_frames: frames.iter().filter(over).count() as u32,
        max_divergence_m: max.map_or(0.0, |f| f.divergence_m),
        max_at_frame: max.map(|f| f.index),
        mean_divergence_m: frames.iter().map(|f| f.divergence_m).sum::<f64>()
            / frames.len().max(1) as f64,
        free_run_final_m: frames.last().map_or(0.0, |f| f.free_run_divergence_m),
    }
}
