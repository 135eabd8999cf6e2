//! Walk mode: the selected probe driven like a player by the core
//! character model, world space (Y up, metres).
//!
//! Each character frame is one [`FrameSolver`] run (velocity, step up /
//! forward / down, gravity, snap) with the probe's own settings and their
//! `character` section, at the character's frame rate: real time is
//! accumulated and whole frames are run, at most
//! [`MAX_FRAMES_PER_UPDATE`] per window frame, so a stalled window drops
//! time rather than running away. Every frame keeps what reopens it exactly
//! in the stepper (the character state before it, the input, its index),
//! never a copy of the settings: reopening a frame leaves the probe as it is.

use crate::app::stepper::FrameSpec;
use crate::character::{
    CharacterInput, CharacterState, FrameRecord, FrameSolver, StepOutcome, WallContact,
};
use crate::collide::{CollisionWorld, SlideSettings, TraceDetail};
use glam::DVec3;
use std::collections::VecDeque;

/// One recorded frame of walking.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkFrame {
    /// What reopens the frame in the stepper (with the probe's settings).
    pub spec: FrameSpec,
    /// The character at the end of the frame.
    pub after: CharacterState,
    /// Whether a jump started this frame.
    pub jumped: bool,
    /// The step-up.
    pub step: StepOutcome,
    /// Whether the snap pulled the character onto ground.
    pub snapped: bool,
    /// The unwalkable contact that stopped the walk, if one did.
    pub wall: Option<WallContact>,
    /// Solver iterations the frame ran (all phases).
    pub iterations: usize,
}

impl WalkFrame {
    /// Where the frame started, world space.
    pub fn start(&self) -> DVec3 {
        self.spec.state.position
    }

    /// Where the frame ended, world space.
    pub fn end(&self) -> DVec3 {
        self.after.position
    }
}

/// The input of one window frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkInput {
    /// Desired horizontal direction, world space (need not be unit; zero = stand).
    pub wish_dir: DVec3,
    /// Jump pressed (kept until the next character frame runs).
    pub jump: bool,
    /// Real time since the last window frame, seconds.
    pub dt: f64,
}

/// Walk mode state of the selected probe.
#[derive(Clone, Debug, Default)]
pub struct WalkState {
    /// Walk mode is on.
    pub active: bool,
    /// The character now (position, vertical speed, ground).
    pub character: Option<CharacterState>,
    /// The most recent frames walked since walk mode was turned on (at most
    /// [`MAX_FRAMES`], oldest dropped first).
    pub frames: VecDeque<WalkFrame>,
    /// Index the next frame gets.
    pub next_index: u32,
    /// Real time not yet simulated, seconds.
    pub pending_s: f64,
    /// A jump pressed and not yet given to a frame.
    pub jump_pending: bool,
}

/// Most character frames run in one window frame; time beyond them is dropped.
pub const MAX_FRAMES_PER_UPDATE: u32 = 8;
/// Most frames kept; older ones are dropped.
pub const MAX_FRAMES: usize = 20_000;

impl WalkState {
    /// Starts (or restarts) a walk from `position`, in the air at rest.
    pub fn begin(&mut self, position: DVec3) {
        *self = WalkState {
            active: true,
            character: Some(CharacterState::at(position)),
            ..WalkState::default()
        };
    }

    /// Whether the character stood on ground after the last frame.
    pub fn grounded(&self) -> bool {
        self.character.is_some_and(|c| c.grounded)
    }

    /// Adds `input.dt` of real time and runs the whole frames it covers
    /// from `pos_world` (the probe's position: the character's unless the
    /// probe was moved). Returns the frames run, or `Err` with the reason
    /// when the settings or the position are refused.
    pub fn update(
        &mut self,
        world: CollisionWorld<'_>,
        settings: &SlideSettings,
        pos_world: DVec3,
        input: WalkInput,
    ) -> Result<u32, String> {
        settings.validate().map_err(|e| e.to_string())?;
        let frame_s = settings.character.frame_time_s();
        self.jump_pending |= input.jump;
        self.pending_s += input.dt.max(0.0);
        // Whole frames, with a hair of slack so that 60 calls of 1/60 s
        // run 60 frames despite rounding.
        let due = ((self.pending_s + 1e-9) / frame_s).floor();
        let run = due.min(f64::from(MAX_FRAMES_PER_UPDATE)) as u32;
        self.pending_s = if due > f64::from(MAX_FRAMES_PER_UPDATE) {
            0.0
        } else {
            (self.pending_s - f64::from(run) * frame_s).max(0.0)
        };
        let mut state = match self.character {
            Some(c) if c.position == pos_world => c,
            _ => CharacterState::at(pos_world),
        };
        for _ in 0..run {
            let frame_input = CharacterInput {
                wish_dir: DVec3::new(input.wish_dir.x, 0.0, input.wish_dir.z),
                jump: std::mem::take(&mut self.jump_pending),
            };
            let frame = self.run_frame(world, settings, &state, frame_input)?;
            state = frame.after;
            self.push(frame);
        }
        self.character = Some(state);
        Ok(run)
    }

    fn run_frame(
        &mut self,
        world: CollisionWorld<'_>,
        settings: &SlideSettings,
        state: &CharacterState,
        input: CharacterInput,
    ) -> Result<WalkFrame, String> {
        let index = self.next_index;
        let solver = FrameSolver::new(world, settings, state, input, index, TraceDetail::Summary)
            .ok_or_else(|| {
            "walk stopped: the character's position is not a finite number".to_string()
        })?;
        self.next_index = self.next_index.wrapping_add(1);
        let rec = solver.finish();
        Ok(WalkFrame {
            spec: FrameSpec {
                state: *state,
                input,
                index,
            },
            after: rec.after,
            jumped: rec.jumped,
            step: rec.step,
            snapped: rec.snapped,
            wall: rec.wall,
            iterations: rec.iterations.len(),
        })
    }

    fn push(&mut self, frame: WalkFrame) {
        if self.frames.len() >= MAX_FRAMES {
            self.frames.pop_front();
        }
        self.frames.push_back(frame);
    }
}

/// A frame's outcome in a designer's words: on ground or in the air, the
/// step taken or refused and why, the snap, the wall that stopped it.
pub fn outcome_words(
    after: &CharacterState,
    jumped: bool,
    step: StepOutcome,
    snapped: bool,
    wall: Option<&WallContact>,
) -> String {
    let mut parts = vec![
        if after.grounded {
            "grounded"
        } else {
            "in the air"
        }
        .to_string(),
    ];
    if jumped {
        parts.push("jumped".into());
    }
    match step {
        StepOutcome::NotTried => {}
        StepOutcome::Stepped { height_m, .. } => parts.push(format!("stepped up {height_m:.3} m")),
        StepOutcome::Rejected { reason } => {
            parts.push(format!("step refused: {}", reason.describe()))
        }
    }
    if snapped {
        parts.push("snapped to ground".into());
    }
    if let Some(w) = wall {
        parts.push(format!("wall: triangle {}", w.triangle));
    }
    parts.join(" · ")
}

/// [`outcome_words`] of a finished frame record.
pub fn frame_outcome_words(rec: &FrameRecord) -> String {
    outcome_words(
        &rec.after,
        rec.jumped,
        rec.step,
        rec.snapped,
        rec.wall.as_ref(),
    )
}

/// [`outcome_words`] of a recorded walk frame.
pub fn walk_frame_words(f: &WalkFrame) -> String {
    outcome_words(&f.after, f.jumped, f.step, f.snapped, f.wall.as_ref())
}

/// A walk's summary in a designer's words: how far it got, where it
/// stalled and against what, the last step refused and why.
pub fn summary_words(s: &crate::character::WalkSummary) -> String {
    let mut parts = vec![format!(
        "{} frames, {:.3} m forward, rise {:.3} m",
        s.frames, s.progress_m, s.rise_m
    )];
    match s.stalled_at_frame {
        Some(f) => {
            let against = s.blocked_by.map_or(String::new(), |w| {
                format!(
                    " against triangle {} (normal {:.2}, {:.2}, {:.2})",
                    w.triangle, w.normal.x, w.normal.y, w.normal.z
                )
            });
            parts.push(format!("stalled at frame {f}{against}"));
        }
        None => parts.push("did not stall".into()),
    }
    if s.steps_taken > 0 {
        parts.push(format!(
            "{} steps taken (tallest {:.3} m)",
            s.steps_taken, s.tallest_step_m
        ));
    }
    if let Some(r) = s.last_step_rejection {
        parts.push(format!("step refused: {}", r.describe()));
    }
    if !s.grounded {
        parts.push("ended in the air".into());
    }
    parts.join("; ")
}
