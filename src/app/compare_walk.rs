//! Compare modes for a walk: the selected probe's recorded walk-mode
//! frames replayed in every mode ([`crate::analysis::compare_walk`]),
//! recomputed when the recorded walk, the settings or the level change,
//! and not while walking (the frames grow every window frame). World
//! space.

use crate::analysis::compare_walk::{MAX_COMPARED_FRAMES, WalkComparison, compare_walk};
use crate::app::compare::world_of;
use crate::app::state::EditorState;
use crate::collide::SlideSettings;

/// What a walk comparison was computed from.
#[derive(Clone, Debug, PartialEq)]
struct WalkKey {
    level: usize,
    colliding: Vec<bool>,
    settings: SlideSettings,
    frames: usize,
    first: Option<u32>,
    last: Option<u32>,
}

/// The recorded walk in every mode.
#[derive(Clone, Debug)]
pub struct WalkModes {
    /// The replay.
    pub comparison: WalkComparison,
    /// Index in the recorded frames (`WalkState::frames`) of the first
    /// row's frame, to open a row's frame in the stepper.
    pub first_recorded: usize,
    key: WalkKey,
}

impl WalkModes {
    /// The recorded frame (index in `WalkState::frames`) of row `row`.
    pub fn recorded_frame(&self, row: usize) -> usize {
        self.first_recorded + row
    }
}

/// Brings the walk comparison up to date (Compare modes open, a probe
/// selected, frames recorded and walk mode stopped), else drops it.
pub fn refresh_walk(state: &mut EditorState) {
    let (true, false, Some(i), Some(level)) = (
        state.compare.open,
        state.walk.active || state.walk.frames.is_empty(),
        state.selected.filter(|&i| i < state.probes.len()),
        state.level.clone(),
    ) else {
        state.compare.walk = None;
        return;
    };
    let frames = &state.walk.frames;
    let key = WalkKey {
        level: std::sync::Arc::as_ptr(&level) as usize,
        colliding: state.colliding_flags(),
        settings: state.probes[i].settings.clone(),
        frames: frames.len(),
        first: frames.front().map(|f| f.spec.index),
        last: frames.back().map(|f| f.spec.index),
    };
    if state.compare.walk.as_ref().is_some_and(|w| w.key == key) {
        return;
    }
    let skipped = frames.len().saturating_sub(MAX_COMPARED_FRAMES);
    let start = frames[skipped].spec.state;
    let inputs: Vec<_> = frames
        .iter()
        .skip(skipped)
        .map(|f| (f.spec.index, f.spec.input))
        .collect();
    let world = world_of(&level, &key.colliding);
    state.compare.walk =
        compare_walk(world, &key.settings, &start, &inputs, skipped).map(|comparison| WalkModes {
            comparison,
            first_recorded: skipped,
            key,
        });
}
