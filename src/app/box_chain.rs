//! The box camera's long-chain test ("Snok", seed document 004: one box per
//! segment) on the path the selected probe recorded in walk mode, world
//! space. The walk's frames make the path (where the first started, then
//! where each ended); the camera box has the probe's radii as half sizes.
//! The result opens in the probe's stepper as a box method trace, one step
//! per segment, so it is stepped, inspected and drawn as the box method's
//! own moves are (which level rejected each triangle, the intersection
//! points); the chain's totals stay beside it ([`BoxChainSummary`]).

use crate::analysis::boxcam::{ChainReport, test_chain_colliding};
use crate::app::state::EditorState;
use crate::methods::box_camera::chain_trace;
use glam::DVec3;

/// The chain's totals, for the inspector and the stepper bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxChainSummary {
    /// Segments tested (the walk's frames that moved).
    pub segments: usize,
    /// Triangles one box around the whole walk would pass to level 3.
    pub whole_box_candidates: usize,
    /// Distinct triangles the per-segment boxes pass to level 3.
    pub segment_candidates: usize,
    /// Distinct triangles the box's edges cross on some segment.
    pub colliding_triangles: usize,
    /// Segments with a crossing.
    pub colliding_segments: usize,
}

impl BoxChainSummary {
    fn of(chain: &ChainReport) -> Self {
        BoxChainSummary {
            segments: chain.segments.len(),
            whole_box_candidates: chain.whole_box_candidates,
            segment_candidates: chain.segment_candidates,
            colliding_triangles: chain.colliding_triangles,
            colliding_segments: chain.colliding_segments,
        }
    }

    /// One sentence of the totals.
    pub fn sentence(&self) -> String {
        format!(
            "Box chain on the walk: {} segments; one box around the whole walk would pass {} \
             triangles to level 3, one box per segment passes {}; {} triangles crossed in {} segments",
            self.segments,
            self.whole_box_candidates,
            self.segment_candidates,
            self.colliding_triangles,
            self.colliding_segments
        )
    }
}

/// The walk's path: where its first frame started, then each frame's end,
/// without the repeats of frames that stood still.
pub fn walk_path(state: &EditorState) -> Vec<DVec3> {
    let frames = &state.walk.frames;
    let mut path: Vec<DVec3> = Vec::with_capacity(frames.len() + 1);
    let points = frames
        .front()
        .map(|f| f.start())
        .into_iter()
        .chain(frames.iter().map(|f| f.end()));
    for p in points {
        if path.last() != Some(&p) {
            path.push(p);
        }
    }
    path
}

/// Runs the chain on the selected probe's recorded walk and opens it in
/// the probe's stepper; says why not in the status line when it cannot.
pub fn run_on_walk(state: &mut EditorState) {
    let (Some(level), Some(sel)) = (state.level.clone(), state.selected) else {
        state.info("Select a probe and record a walk (walk mode) to test the box chain on");
        return;
    };
    let path = walk_path(state);
    if path.len() < 2 {
        state.info("Record a walk that moves first (walk mode, WASD) to test the box chain on it");
        return;
    }
    // Walking would move the probe under the result: stop it, as opening
    // a walk frame does.
    state.walk.active = false;
    let flags = state.colliding_flags();
    let flags = (flags.len() == level.mesh.objects.len()).then_some(flags);
    let Some(p) = state.probes.get_mut(sel) else {
        return;
    };
    match test_chain_colliding(&level.mesh, &path, p.radii(), flags.as_deref()) {
        Ok(chain) => {
            let summary = BoxChainSummary::of(&chain);
            p.stepper.show_box_chain(chain_trace(&chain), summary);
            // Short: the status line shares its row with the frame timings.
            state.info(format!(
                "Box chain on the walk: {} segments, {} triangles crossed in {} (totals in the inspector)",
                summary.segments, summary.colliding_triangles, summary.colliding_segments
            ));
        }
        Err(e) => state.error(format!("Box chain on the walk: {e}")),
    }
}
