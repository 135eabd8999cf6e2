//! A recorded character walk replayed in every slide mode: the same start
//! and the same inputs, frame by frame, each mode carrying its own
//! character state on, and the first frame where the modes' characters
//! part ways (ends more than [`DIVERGENCE_TOLERANCE_M`] apart, or one on
//! ground and another not). World space, metres.
//!
//! Frames run through [`FrameSolver`], the character model `walk` and the
//! window's walk mode run; only the mode differs.

use crate::analysis::compare::DIVERGENCE_TOLERANCE_M;
use crate::character::{CharacterInput, CharacterState, FrameSolver};
use crate::collide::{CollisionWorld, SlideMode, SlideSettings, TraceDetail};
use glam::DVec3;

/// At most this many frames are replayed (the last ones recorded): ten
/// seconds at 60 Hz, a few milliseconds per mode.
pub const MAX_COMPARED_FRAMES: usize = 600;

/// One frame of the walk in every mode.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkFrameRow {
    /// The frame's index in its walk.
    pub index: u32,
    /// Each mode's character at the end of the frame, in the order of
    /// [`WalkComparison::modes`].
    pub ends: Vec<CharacterState>,
    /// The largest distance between two modes' ends, metres.
    pub end_spread_m: f64,
    /// One mode's character stands on ground and another's does not.
    pub grounded_differs: bool,
}

impl WalkFrameRow {
    /// Whether the modes differ at this frame.
    pub fn differs(&self) -> bool {
        self.grounded_differs || self.end_spread_m > DIVERGENCE_TOLERANCE_M
    }
}

/// The walk in every mode.
#[derive(Clone, Debug, PartialEq)]
pub struct WalkComparison {
    /// The modes, in [`SlideMode::ALL`] order.
    pub modes: Vec<SlideMode>,
    /// Where the replay starts (the character before the first frame).
    pub start: DVec3,
    /// One row per frame replayed.
    pub rows: Vec<WalkFrameRow>,
    /// Index into `rows` of the first frame where the modes differ.
    pub divergence: Option<usize>,
    /// Frames left out at the start (beyond [`MAX_COMPARED_FRAMES`]).
    pub skipped: usize,
}

/// Replays the walk that starts with the character `start` and takes
/// `frames` (index and input of each, in order; only the last
/// [`MAX_COMPARED_FRAMES`] when given more, `start` then being the state
/// before the first of those) in every mode with `settings`. `None` when
/// the frame solver refuses the settings or the state.
pub fn compare_walk(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    start: &CharacterState,
    frames: &[(u32, CharacterInput)],
    skipped: usize,
) -> Option<WalkComparison> {
    let modes: Vec<SlideMode> = SlideMode::ALL.to_vec();
    let mut states: Vec<CharacterState> = vec![*start; modes.len()];
    let per_mode: Vec<SlideSettings> = modes
        .iter()
        .map(|&mode| SlideSettings {
            mode,
            ..settings.clone()
        })
        .collect();
    let mut rows = Vec::with_capacity(frames.len());
    for &(index, input) in frames {
        for (state, s) in states.iter_mut().zip(&per_mode) {
            let rec =
                FrameSolver::new(world, s, state, input, index, TraceDetail::Summary)?.finish();
            *state = rec.after;
        }
        rows.push(row(index, &states));
    }
    let divergence = rows.iter().position(WalkFrameRow::differs);
    Some(WalkComparison {
        modes,
        start: start.position,
        rows,
        divergence,
        skipped,
    })
}

fn row(index: u32, ends: &[CharacterState]) -> WalkFrameRow {
    let mut end_spread_m: f64 = 0.0;
    for (k, a) in ends.iter().enumerate() {
        for b in &ends[k + 1..] {
            end_spread_m = end_spread_m.max(a.position.distance(b.position));
        }
    }
    WalkFrameRow {
        index,
        ends: ends.to_vec(),
        end_spread_m,
        grounded_differs: ends.windows(2).any(|w| w[0].grounded != w[1].grounded),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::mesh::MeshBuilder;
    use glam::Vec3;

    /// A floor, and a wall whose face is at x = 3.
    fn room() -> Level {
        let mut b = MeshBuilder::new();
        b.object("floor").quad(
            Vec3::new(-10.0, 0.0, -10.0),
            Vec3::new(-10.0, 0.0, 10.0),
            Vec3::new(10.0, 0.0, 10.0),
            Vec3::new(10.0, 0.0, -10.0),
        );
        b.object("wall")
            .cuboid(Vec3::new(3.0, 0.0, -5.0), Vec3::new(3.5, 3.0, 5.0));
        Level::from_mesh("room", b.build())
    }

    fn inputs(n: u32, dir: DVec3) -> Vec<(u32, CharacterInput)> {
        (0..n)
            .map(|i| {
                (
                    i,
                    CharacterInput {
                        wish_dir: dir,
                        jump: false,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn the_replay_has_a_row_per_frame_and_its_divergence_is_its_first_difference() {
        let level = room();
        let s = SlideSettings::default();
        let start = CharacterState::at(DVec3::new(0.0, 0.905, 0.0));
        // Settle, walk to the wall and push into it.
        let frames = inputs(120, DVec3::X);
        let c = compare_walk(level.world(), &s, &start, &frames, 0).unwrap();
        assert_eq!(c.rows.len(), 120);
        assert_eq!(c.modes, SlideMode::ALL.to_vec());
        assert_eq!(c.rows[7].index, 7);
        for r in &c.rows {
            assert_eq!(r.ends.len(), 3);
            assert!(r.end_spread_m.is_finite());
        }
        assert_eq!(c.divergence, c.rows.iter().position(|r| r.differs()));
        // Each mode ends at the wall, none through it.
        for end in &c.rows[119].ends {
            assert!(end.position.x > 2.0 && end.position.x < 3.0, "{end:?}");
        }
    }

    #[test]
    fn with_nothing_in_reach_the_modes_agree_and_bad_input_is_refused() {
        let level = room();
        let s = SlideSettings::default();
        // High above the floor: twenty frames of walking and falling touch
        // nothing, so the modes cannot differ.
        let start = CharacterState::at(DVec3::new(0.0, 8.0, 0.0));
        let c = compare_walk(level.world(), &s, &start, &inputs(20, DVec3::X), 0).unwrap();
        assert_eq!(c.divergence, None, "{:?}", c.rows.last());
        assert!(c.rows[19].ends[0].position.x > 0.5);
        // A refused state gives nothing rather than a panic.
        let bad = CharacterState::at(DVec3::new(f64::NAN, 0.0, 0.0));
        assert!(compare_walk(level.world(), &s, &bad, &inputs(3, DVec3::X), 0).is_none());
    }
}
