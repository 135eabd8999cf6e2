//! The collide-and-slide state machine (being written: signatures are final).

use crate::bvh::BvhScratch;
use crate::collide::{CollisionWorld, EndReason, IterationRecord, SlideMode, SlideSettings};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// How much each record keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceDetail {
    /// Every candidate and visited BVH node (GUI, `--json`).
    #[default]
    Full,
    /// Counts only (benchmarks, walk mode).
    Summary,
}

/// A finished move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlideResult {
    /// The algorithm that ran.
    pub mode: SlideMode,
    /// Where the probe centre ends, world space.
    pub final_position: DVec3,
    /// Why the move ended.
    pub end_reason: EndReason,
    /// One record per iteration, in order.
    pub iterations: Vec<IterationRecord>,
}

/// Steps the recursion one iteration per `next()`.
pub struct SlideSolver<'w> {
    world: CollisionWorld<'w>,
    settings: SlideSettings,
    detail: TraceDetail,
    position: DVec3,
    scratch: BvhScratch,
    finished: Option<EndReason>,
}

impl<'w> SlideSolver<'w> {
    /// A solver for one move of the probe centred at `start` by `velocity`
    /// (world space). `None` when an input is not finite or the settings are invalid.
    pub fn new(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        start: DVec3,
        velocity: DVec3,
        detail: TraceDetail,
    ) -> Option<Self> {
        let _ = (world, settings, start, velocity, detail);
        unimplemented!("solver")
    }

    /// Where the probe is now, world space.
    pub fn position(&self) -> DVec3 {
        self.position
    }

    /// Why the move ended, once it has.
    pub fn finished(&self) -> Option<EndReason> {
        self.finished
    }
}

impl Iterator for SlideSolver<'_> {
    type Item = IterationRecord;
    fn next(&mut self) -> Option<IterationRecord> {
        let _ = (&self.world, &self.settings, self.detail, &mut self.scratch);
        unimplemented!("solver")
    }
}

/// Runs a whole move. `None` for non-finite input or invalid settings.
pub fn slide(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    start: DVec3,
    velocity: DVec3,
    detail: TraceDetail,
) -> Option<SlideResult> {
    let mut solver = SlideSolver::new(world, settings, start, velocity, detail)?;
    let iterations: Vec<IterationRecord> = solver.by_ref().collect();
    Some(SlideResult {
        mode: settings.mode,
        final_position: solver.position(),
        end_reason: solver.finished().unwrap_or(EndReason::Arrived),
        iterations,
    })
}
