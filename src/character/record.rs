//! What a character frame takes and gives: its input, the character's
//! state between frames, the phase of each solver iteration, and the
//! frame's record (world space, Y up, metres). Plain data: the JSON of
//! `collidoscope walk` and what the window shows.

use crate::collide::IterationRecord;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// The part of a frame an iteration belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The horizontal walk.
    Velocity,
    /// Step-up: rising by the step height.
    StepUp,
    /// Step-up: the walk repeated at the raised height.
    StepForward,
    /// Step-up: coming down onto the step.
    StepDown,
    /// Falling (or rising after a jump) by the vertical speed.
    Gravity,
    /// Pulled down onto ground after walking off a ledge or down a slope.
    Snap,
}

/// What the player asks for in one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CharacterInput {
    /// Wished walking direction, world space; only its horizontal part
    /// counts, and a length under 1 walks slower (zero stands).
    pub wish_dir: DVec3,
    /// Jump (taken only when standing on ground).
    pub jump: bool,
}

/// A character between frames, world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CharacterState {
    /// Ellipsoid centre, metres.
    pub position: DVec3,
    /// Vertical speed, m/s, up positive.
    pub vertical_speed_m_s: f64,
    /// Standing on walkable ground.
    pub grounded: bool,
    /// Unit normal of the ground stood on (from the ground towards the character).
    pub ground_normal: Option<DVec3>,
    /// Triangle stood on.
    pub ground_triangle: Option<u32>,
}

impl CharacterState {
    /// A character at `position`, in the air and at rest (the first frames
    /// settle it on whatever is below).
    pub fn at(position: DVec3) -> Self {
        CharacterState {
            position,
            vertical_speed_m_s: 0.0,
            grounded: false,
            ground_normal: None,
            ground_triangle: None,
        }
    }
}

/// One solver iteration of a frame, tagged with its frame and phase. In
/// JSON the record's own fields sit beside `frame` and `phase`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseIteration {
    /// Index of the frame in its walk.
    pub frame: u32,
    /// The phase.
    pub phase: Phase,
    /// The solver's record.
    #[serde(flatten)]
    pub record: IterationRecord,
}

/// What the step-up did in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum StepOutcome {
    /// Not tried: nothing stopped the walk, the character was in the air or
    /// jumping, or the step height is zero.
    NotTried,
    /// Taken: the character stands `height_m` higher than it started.
    Stepped {
        /// Rise of the frame, metres.
        height_m: f64,
        /// Height of the ground it landed on (its contact) above the
        /// lowest point of the body at the start of the frame, metres: the
        /// riser's edge when it landed there, the tread's height when it
        /// landed on the tread. What the step climbed.
        #[serde(default)]
        riser_m: f64,
    },
    /// Tried and dropped: the plain walk stands.
    Rejected {
        /// Why.
        reason: StepRejection,
    },
}

/// Why a step-up was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepRejection {
    /// Something right above stopped the rise.
    NoHeadroom,
    /// Coming down found no walkable ground within the step height (the
    /// obstacle is taller than the step, or its top is too steep).
    NoWalkableLanding,
    /// The stepped walk went no farther than the plain one.
    NoProgress,
    /// The stepped walk would carry the character farther along the
    /// ground than its walk plus the height it rose: it slid along a wall
    /// at the raised height instead of climbing anything.
    BeyondWalk,
    /// The tread past the riser is narrower than the least step width
    /// (Rapier's autostep `min_width`).
    NarrowTread,
}

impl StepRejection {
    /// A sentence for the CLI and the window.
    pub fn describe(self) -> &'static str {
        match self {
            StepRejection::NoHeadroom => "no headroom above to step up",
            StepRejection::NoWalkableLanding => {
                "no walkable ground within the step height ahead (taller than the step, or too steep on top)"
            }
            StepRejection::NoProgress => "stepping up went no farther",
            StepRejection::NarrowTread => "the tread ahead is narrower than the least step width",
            StepRejection::BeyondWalk => {
                "stepping up would go farther than the walk and its rise (along a wall, not onto a step)"
            }
        }
    }
}

/// A contact that stopped the walk, world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WallContact {
    /// Triangle hit.
    pub triangle: u32,
    /// Unit contact normal (towards the character).
    pub normal: DVec3,
    /// Contact point.
    pub point: DVec3,
}

/// Everything one frame did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameRecord {
    /// Index of the frame in its walk.
    pub index: u32,
    /// State at the start.
    pub before: CharacterState,
    /// State at the end.
    pub after: CharacterState,
    /// The horizontal walk asked for, metres this frame.
    pub walk: DVec3,
    /// Whether a jump started this frame.
    pub jumped: bool,
    /// The step-up.
    pub step: StepOutcome,
    /// Whether the snap pulled the character onto ground.
    pub snapped: bool,
    /// The first unwalkable contact the walk met, if one stopped it.
    pub wall: Option<WallContact>,
    /// Every solver iteration of the frame, in order (also those of a
    /// dropped step-up or a snap that found no ground).
    pub iterations: Vec<PhaseIteration>,
}

impl FrameRecord {
    /// How far the frame moved along its walk direction, metres (horizontal).
    pub fn progress_m(&self) -> f64 {
        progress(self.before.position, self.after.position, self.walk)
    }

    /// How far the frame moved the character along the ground, metres
    /// (horizontal, in any direction).
    pub fn ground_moved_m(&self) -> f64 {
        (self.after.position - self.before.position)
            .with_y(0.0)
            .length()
    }

    /// The most the frame may move the character along the ground,
    /// metres: its walk, plus the height its step-up climbed (the
    /// `riser_m` of the step), plus the
    /// length of the gravity and snap moves (what they dropped, or slid
    /// down something too steep to stand on). A frame never moves farther
    /// than this by more than [`MAX_OVERREACH_M`](super::MAX_OVERREACH_M).
    /// Reads the frame's iterations: a frames-only walk has none, and
    /// counts its walk and step only.
    pub fn ground_allowance_m(&self) -> f64 {
        let rose = match self.step {
            StepOutcome::Stepped { riser_m, .. } => riser_m.max(0.0),
            _ => 0.0,
        };
        let fell: f64 = self
            .iterations
            .iter()
            .filter(|i| matches!(i.phase, Phase::Gravity | Phase::Snap))
            .map(|i| (i.record.end - i.record.start).length())
            .sum();
        self.walk.length() + rose + fell
    }
}

/// Horizontal progress from `from` to `to` along `walk`'s direction.
pub(super) fn progress(from: DVec3, to: DVec3, walk: DVec3) -> f64 {
    let dir = DVec3::new(walk.x, 0.0, walk.z).normalize_or_zero();
    (to - from).dot(dir)
}
