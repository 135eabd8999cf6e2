//! The map's walk: the character's frames as [`crate::character::walk`]
//! runs them (same solver, same frames, so `collidoscope walk` replays any
//! of them exactly), with two shortcuts that change no answer:
//!
//! - a frame that ends in exactly the state it began in, with the input
//!   held, is a fixed point: every later frame would repeat it, so the
//!   walk stops there and stands for its whole length (a character pressed
//!   against a wall is most of a map's frames);
//! - a walk may stop as soon as its question is answered (the walk back of
//!   `cant_get_back` stops once it is back up).
//!
//! World space, Y up, metres.

use crate::character::{CharacterInput, CharacterState, FrameRecord, FrameSolver};
use crate::collide::{CollisionWorld, SlideSettings, TraceDetail};
use glam::DVec3;

/// A frame that moves less than this share of its walk makes no progress
/// (the rule of `WalkSummary::stalled_at_frame`).
const STALL_SHARE: f64 = 0.1;

/// A walk of the map.
pub(super) struct MapWalk {
    /// Where it started (ellipsoid centre).
    pub from: DVec3,
    /// Horizontal unit walking direction (zero: standing).
    pub dir: DVec3,
    /// The frames run; when fewer than `length`, the last one repeats to the end.
    pub frames: Vec<FrameRecord>,
    /// Frames the walk stands for.
    pub length: u32,
    /// Whether it stopped at a fixed point before its length.
    pub fixed_point: bool,
}

impl MapWalk {
    /// Walks `frames` frames from rest at `from` along `dir`, stopping early
    /// at a fixed point or when `done` says so; `trigger_events` says
    /// whether the iterations record them (the map reads none).
    pub fn run(
        world: CollisionWorld<'_>,
        settings: &SlideSettings,
        (from, dir): (DVec3, DVec3),
        length: u32,
        done: &dyn Fn(&FrameRecord) -> bool,
        trigger_events: bool,
    ) -> Option<MapWalk> {
        let mut state = CharacterState::at(from);
        let input = CharacterInput {
            wish_dir: dir,
            jump: false,
        };
        let mut frames = Vec::with_capacity(length as usize);
        let mut fixed_point = false;
        // One frame solver for the walk, restarted each frame: the same
        // frames as a new one each, without checking the settings and
        // setting up the solver again.
        let mut solver: Option<FrameSolver> = None;
        for index in 0..length {
            match solver.as_mut() {
                Some(s) => {
                    if !s.restart(&state, input, index) {
                        return None;
                    }
                }
                None => {
                    solver = Some(FrameSolver::with_trigger_events(
                        world,
                        settings,
                        &state,
                        input,
                        index,
                        TraceDetail::Summary,
                        trigger_events,
                    )?);
                }
            }
            let frame = solver.as_mut()?.finish_frame();
            state = frame.after;
            fixed_point = frame.after == frame.before && index + 1 < length;
            let stop = done(&frame);
            frames.push(frame);
            if fixed_point || stop {
                break;
            }
        }
        Some(MapWalk {
            from,
            dir,
            frames,
            length,
            fixed_point,
        })
    }

    /// The state at the end.
    pub fn end(&self) -> CharacterState {
        self.frames
            .last()
            .map_or(CharacterState::at(self.from), |f| f.after)
    }

    /// The highest the ellipsoid centre went, world y.
    pub fn highest_y(&self) -> f64 {
        self.frames
            .iter()
            .map(|f| f.after.position.y)
            .fold(self.from.y, f64::max)
    }

    /// The first frame from which the walk made no more progress (each
    /// frame under a tenth of its walk), if it stalled (up to where it
    /// stopped, for a walk stopped by its `done`).
    pub fn stalled_at(&self) -> Option<u32> {
        if self.dir == DVec3::ZERO || self.frames.is_empty() {
            return None;
        }
        let moving = |f: &FrameRecord| f.progress_m() >= STALL_SHARE * f.walk.length();
        let ran = if self.fixed_point {
            self.length as usize
        } else {
            self.frames.len()
        };
        match self.frames.iter().rposition(moving) {
            Some(i) if i + 1 == ran => None,
            Some(i) => Some(i as u32 + 1),
            None => Some(0),
        }
    }
}
