//! A walk: a character driven in one direction for a while, frame by frame,
//! world space. What `collidoscope walk` prints, and what the envelope and
//! the level checks run to decide their verdicts.

use super::frame::FrameSolver;
use super::record::{
    CharacterInput, CharacterState, FrameRecord, StepOutcome, StepRejection, WallContact,
};
use crate::collide::{CollisionWorld, SlideSettings, TraceDetail};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Most frames one walk may run (ten minutes at 60 Hz): a walk keeps every
/// frame, so its memory grows with its length.
pub const MAX_WALK_FRAMES: u32 = 36_000;

/// A frame that moves less than this share of its walk makes no progress.
const STALL_SHARE: f64 = 0.1;

/// What to walk: from where, which way, how long. World space, metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WalkSpec {
    /// Ellipsoid centre at the start.
    pub from: DVec3,
    /// Walking direction; only its horizontal part counts (normalised).
    pub direction: DVec3,
    /// How long, seconds.
    pub seconds: f64,
    /// Jump in the first frame that stands on ground.
    #[serde(default)]
    pub jump: bool,
}

/// How much of each frame a walk keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WalkTrace {
    /// Every iteration with every candidate (to step through).
    Full,
    /// Every iteration, counts only.
    Summary,
    /// The frames' outcomes without their iterations (batch analysis).
    FramesOnly,
}

/// Why a walk could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WalkError {
    /// The settings break a rule (the message names the field).
    #[error("{0}")]
    InvalidSettings(String),
    /// A position, direction or duration that is not a usable number.
    #[error("{0}")]
    InvalidInput(String),
    /// More frames than [`MAX_WALK_FRAMES`].
    #[error(
        "{seconds} s at {rate_hz} Hz is {frames} frames; a walk is at most {MAX_WALK_FRAMES} frames"
    )]
    TooLong {
        /// Seconds asked for.
        seconds: f64,
        /// Frame rate.
        rate_hz: f64,
        /// Frames that would take.
        frames: f64,
    },
}

/// How a walk went, in numbers a designer reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WalkSummary {
    /// Frames run.
    pub frames: u32,
    /// Where the ellipsoid centre ended.
    pub final_position: DVec3,
    /// Horizontal distance made along the walking direction, metres.
    pub progress_m: f64,
    /// Height gained (negative: lost), metres.
    pub rise_m: f64,
    /// The highest the ellipsoid centre went, world y, metres.
    pub highest_y: f64,
    /// Standing on ground at the end.
    pub grounded: bool,
    /// Frames in which a step-up was taken.
    pub steps_taken: u32,
    /// The tallest step-up taken, metres.
    pub tallest_step_m: f64,
    /// The last reason a step-up was dropped, if any was.
    pub last_step_rejection: Option<StepRejection>,
    /// The first frame from which the walk made no more progress
    /// (each frame under a tenth of its walk), when it stalled.
    pub stalled_at_frame: Option<u32>,
    /// The unwalkable contact that stopped the walk at the stall.
    pub blocked_by: Option<WallContact>,
    /// Solver iterations whose nearest hit was a ghost corner (an internal
    /// edge of a flat surface): each may have stopped or deflected the walk.
    #[serde(default)]
    pub ghost_hits: u32,
    /// Solver iterations that ended inside geometry (never in robust mode).
    #[serde(default)]
    pub embedded_iterations: u32,
    /// Solver iterations whose centre went through or within the radius of
    /// a triangle on the way (never in robust mode).
    #[serde(default)]
    pub tunnel_iterations: u32,
}

impl WalkSummary {
    /// The summary of a walk of no frames: standing at `from`.
    pub fn at_rest(from: DVec3) -> Self {
        summarise(from, &[])
    }

    /// The summary of a walk from `from` whose frames are `frames`, by the
    /// rules [`walk`] summarises its own (the stall, the wall that stopped
    /// it, the steps): for frames another controller ran (the rapier3d
    /// agreement harness), read by [`crate::analysis::checks::rejudge`].
    /// The solver's counts (ghost hits, embedded and tunnel iterations)
    /// are zero.
    pub fn of_frames(from: DVec3, frames: &[FrameRecord]) -> Self {
        summarise(from, frames)
    }
}

/// A whole walk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Walk {
    /// What was walked.
    pub spec: WalkSpec,
    /// Every frame, in order.
    pub frames: Vec<FrameRecord>,
    /// The outcome.
    pub summary: WalkSummary,
}

/// Walks a character with `settings` (its `character` section and slide
/// settings) through `world` as `spec` asks.
pub fn walk(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    spec: &WalkSpec,
    trace: WalkTrace,
) -> Result<Walk, WalkError> {
    settings
        .validate()
        .map_err(|e| WalkError::InvalidSettings(e.to_string()))?;
    let ch = &settings.character;
    if !(spec.from.is_finite() && spec.direction.is_finite()) {
        return Err(WalkError::InvalidInput(
            "the start and the direction must be finite numbers".into(),
        ));
    }
    if !(spec.seconds.is_finite() && spec.seconds >= 0.0) {
        return Err(WalkError::InvalidInput(format!(
            "the duration {} s must be a finite number, zero or more",
            spec.seconds
        )));
    }
    let frames = (spec.seconds * ch.frame_rate_hz).ceil();
    if frames > f64::from(MAX_WALK_FRAMES) {
        return Err(WalkError::TooLong {
            seconds: spec.seconds,
            rate_hz: ch.frame_rate_hz,
            frames,
        });
    }
    let dir = DVec3::new(spec.direction.x, 0.0, spec.direction.z).normalize_or_zero();
    let detail = match trace {
        WalkTrace::Full => TraceDetail::Full,
        _ => TraceDetail::Summary,
    };
    let mut state = CharacterState::at(spec.from);
    let mut records = Vec::with_capacity(frames as usize);
    let mut jump_pending = spec.jump;
    let (mut ghost_hits, mut embedded_iterations, mut tunnel_iterations) = (0, 0, 0);
    // One frame solver, restarted each frame (the same frames as a new one
    // each, without setting it up again).
    let mut solver: Option<FrameSolver> = None;
    for index in 0..frames as u32 {
        let input = CharacterInput {
            wish_dir: dir,
            jump: jump_pending && state.grounded,
        };
        // Frames-only walks drop their iterations: nothing could read the events.
        let triggers = trace != WalkTrace::FramesOnly;
        let ready = match solver.as_mut() {
            Some(s) => s.restart(&state, input, index),
            None => {
                solver = FrameSolver::with_trigger_events(
                    world, settings, &state, input, index, detail, triggers,
                );
                solver.is_some()
            }
        };
        let Some(solver) = solver.as_mut().filter(|_| ready) else {
            return Err(WalkError::InvalidInput(format!(
                "frame {index}: the character's position overflowed"
            )));
        };
        let mut frame = solver.finish_frame();
        jump_pending &= !frame.jumped;
        for it in &frame.iterations {
            ghost_hits += u32::from(it.record.ghost_hit.is_some());
            embedded_iterations += u32::from(it.record.clearance.is_some_and(|c| c.embedded));
            tunnel_iterations += u32::from(it.record.tunnel.is_some());
        }
        if trace == WalkTrace::FramesOnly {
            frame.iterations = Vec::new();
        }
        state = frame.after;
        records.push(frame);
    }
    let summary = WalkSummary {
        ghost_hits,
        embedded_iterations,
        tunnel_iterations,
        ..summarise(spec.from, &records)
    };
    Ok(Walk {
        spec: WalkSpec {
            direction: dir,
            ..*spec
        },
        frames: records,
        summary,
    })
}

fn summarise(from: DVec3, frames: &[FrameRecord]) -> WalkSummary {
    let end = frames.last().map_or(from, |f| f.after.position);
    let walking = frames.first().map_or(DVec3::ZERO, |f| f.walk);
    let dir = walking.normalize_or_zero();
    let stalled_at_frame = if walking.length() > 0.0 {
        let moving = |f: &FrameRecord| f.progress_m() >= STALL_SHARE * f.walk.length();
        let last_moving = frames.iter().rposition(moving);
        match last_moving {
            Some(i) if i + 1 == frames.len() => None,
            Some(i) => Some(i as u32 + 1),
            None => (!frames.is_empty()).then_some(0),
        }
    } else {
        None
    };
    let blocked_by =
        stalled_at_frame.and_then(|i| frames[i as usize..].iter().rev().find_map(|f| f.wall));
    let mut steps_taken = 0;
    let mut tallest_step_m: f64 = 0.0;
    let mut last_step_rejection = None;
    for f in frames {
        match f.step {
            StepOutcome::Stepped { height_m, .. } => {
                steps_taken += 1;
                tallest_step_m = tallest_step_m.max(height_m);
            }
            StepOutcome::Rejected { reason } => last_step_rejection = Some(reason),
            StepOutcome::NotTried => {}
        }
    }
    WalkSummary {
        frames: frames.len() as u32,
        final_position: end,
        progress_m: (end - from).dot(dir),
        rise_m: end.y - from.y,
        highest_y: frames
            .iter()
            .map(|f| f.after.position.y)
            .fold(from.y, f64::max),
        grounded: frames.last().is_some_and(|f| f.after.grounded),
        steps_taken,
        tallest_step_m,
        last_step_rejection,
        stalled_at_frame,
        blocked_by,
        ghost_hits: 0,
        embedded_iterations: 0,
        tunnel_iterations: 0,
    }
}
