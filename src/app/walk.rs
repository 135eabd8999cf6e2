//! Walk mode: the selected probe driven like a player, world space.
//!
//! Each frame is one `slide` move (summary trace) of the horizontal input
//! velocity, with this frame's fall as the settings' gravity displacement,
//! so robust and fauerby2003 run it as their own pass as a game would. A
//! frame whose gravity pass ended short of its full fall stood on ground.
//! Every frame is recorded so it can be reopened in the stepper with full
//! detail (`MoveSpec` replays it exactly).

use crate::app::stepper::MoveSpec;
use crate::collide::{CollisionWorld, EndReason, SlideSettings, TraceDetail, slide};
use glam::DVec3;

/// Player tuning, world units per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WalkTuning {
    /// Horizontal speed, m/s.
    pub speed: f64,
    /// Upward speed given by a jump, m/s.
    pub jump_speed: f64,
    /// Gravity acceleration, m/s² (positive = down).
    pub gravity: f64,
    /// Fastest fall, m/s.
    pub terminal_speed: f64,
}

impl Default for WalkTuning {
    fn default() -> Self {
        WalkTuning {
            speed: 4.0,
            jump_speed: 5.0,
            gravity: 9.81,
            terminal_speed: 30.0,
        }
    }
}

/// One recorded frame of walking.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkFrame {
    /// The move exactly as it was run (reopen it in the stepper).
    pub spec: MoveSpec,
    /// Where the probe ended, world space.
    pub end: DVec3,
    /// Why the move ended.
    pub end_reason: EndReason,
    /// Iterations the solver used.
    pub iterations: usize,
    /// Whether the probe stood on ground at the end.
    pub grounded: bool,
}

/// The input of one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WalkInput {
    /// Desired horizontal direction, world space (need not be unit; zero = stand).
    pub wish_dir: DVec3,
    /// Jump pressed this frame.
    pub jump: bool,
    /// Frame time, seconds.
    pub dt: f64,
}

/// Walk mode state of the selected probe.
#[derive(Clone, Debug, Default)]
pub struct WalkState {
    /// Walk mode is on.
    pub active: bool,
    /// Tuning.
    pub tuning: WalkTuning,
    /// Current vertical speed, m/s (positive = up).
    pub vertical_speed: f64,
    /// Stood on ground after the last frame.
    pub grounded: bool,
    /// Every frame walked since walk mode was turned on.
    pub frames: Vec<WalkFrame>,
}

/// Longest frame time simulated at once (a stalled window must not teleport the probe).
const MAX_DT: f64 = 0.05;
/// Most frames kept; older ones are dropped.
const MAX_FRAMES: usize = 20_000;

impl WalkState {
    /// Runs one frame from `pos_world` and returns the new position; records the frame.
    /// `None` (nothing recorded) when the solver rejects the input.
    pub fn frame(
        &mut self,
        world: CollisionWorld<'_>,
        settings: &SlideSettings,
        pos_world: DVec3,
        input: WalkInput,
    ) -> Option<DVec3> {
        let dt = input.dt.clamp(0.0, MAX_DT);
        let horizontal = DVec3::new(input.wish_dir.x, 0.0, input.wish_dir.z).normalize_or_zero();
        if input.jump && self.grounded {
            self.vertical_speed = self.tuning.jump_speed;
        }
        self.vertical_speed =
            (self.vertical_speed - self.tuning.gravity * dt).max(-self.tuning.terminal_speed);
        let fall = DVec3::new(0.0, self.vertical_speed * dt, 0.0);
        let mut frame_settings = settings.clone();
        frame_settings.gravity = fall.to_array();
        let velocity = horizontal * self.tuning.speed * dt;
        let spec = MoveSpec {
            start: pos_world,
            velocity,
            settings: frame_settings,
        };
        let result = slide(
            world,
            &spec.settings,
            pos_world,
            velocity,
            TraceDetail::Summary,
        )?;
        let end = result.final_position;
        let grounded = self.landed(&result.iterations, fall);
        if grounded && self.vertical_speed < 0.0 {
            self.vertical_speed = 0.0;
        }
        if !grounded && self.vertical_speed > 0.0 && self.hit_ceiling(&result.iterations) {
            self.vertical_speed = 0.0;
        }
        self.grounded = grounded;
        if self.frames.len() >= MAX_FRAMES {
            self.frames.remove(0);
        }
        self.frames.push(WalkFrame {
            spec,
            end,
            end_reason: result.end_reason,
            iterations: result.iterations.len(),
            grounded,
        });
        Some(end)
    }

    /// Downward fall stopped by a surface facing up: the probe stands.
    fn landed(&self, iterations: &[crate::collide::IterationRecord], fall: DVec3) -> bool {
        fall.y <= 0.0
            && iterations.iter().any(|r| {
                (r.velocity.y < 0.0 || fall.y == 0.0)
                    && r.nearest.is_some_and(|h| h.contact_normal.y > 0.5)
            })
    }

    /// An upward move stopped by a surface facing down.
    fn hit_ceiling(&self, iterations: &[crate::collide::IterationRecord]) -> bool {
        iterations
            .iter()
            .any(|r| r.nearest.is_some_and(|h| h.contact_normal.y < -0.5))
    }
}
