//! A character on top of the slide: the probe's ellipsoid with controller
//! settings (speed, frame rate, gravity, jump, step height, walkable slope,
//! ground snap), moved one frame at a time, world space (Y up, metres).
//!
//! A frame is a sequence of named phases (velocity, step up / forward /
//! down, gravity, snap), each a run of the one
//! [`SlideSolver`](crate::collide::SlideSolver), and every iteration
//! carries its phase, so a frame steps, traces and draws like a single
//! move. Like Jolt's `CharacterVirtual::ExtendedUpdate` or Quake's
//! `PM_StepSlideMove`, it composes the slide and never copies it.

mod engine;
mod frame;
mod physx_easy;
mod record;
mod settings;
mod shape;
pub mod unreal;
mod walk;

#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unreal_tests;

pub use engine::{
    ClimbingMode, ControllerRules, EngineProfile, FloorTest, GroundSnap, JOLT_STAIRS_MAX_ANGLE_DEG,
    JOLT_STEP_FORWARD_TEST_M, NonWalkable, StepForward, StepLanding, StepRise, body_shape,
    frame_settings,
};
pub use frame::{FrameSolver, MAX_OVERREACH_M};
pub use record::{
    CharacterInput, CharacterState, FrameRecord, Phase, PhaseIteration, StepOutcome, StepRejection,
    WallContact,
};
pub use settings::{CharacterSettings, MAX_CHARACTER_VALUE, MAX_FRAME_RATE_HZ, MIN_FRAME_RATE_HZ};
pub use shape::{Body, perch_radius, radius_along, rolling_height};
pub use walk::{MAX_WALK_FRAMES, Walk, WalkError, WalkSpec, WalkSummary, WalkTrace, walk};
