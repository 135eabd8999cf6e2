//! The stepper: one probe's move, advanced one solver iteration at a time.
//!
//! Step is one `next()` of the core [`SlideSolver`] (the very code the CLI
//! and the tests run), so the records shown are exactly what the solver
//! computed. Records already computed are kept, so Step back and the
//! timeline only move a cursor. Positions are world space.
//!
//! The solver borrows the level; the stepper keeps it alive next to the
//! level it borrows (an `Arc<Level>` plus the collision flags) with
//! `self_cell`, so a step costs one iteration and not a replay of the move.

use crate::collide::{EndReason, IterationRecord, SlideSettings, SlideSolver, TraceDetail};
use crate::level::Level;
use glam::DVec3;
use std::sync::Arc;

/// What the live solver borrows: the level and which objects collide.
pub struct SolverOwner {
    level: Arc<Level>,
    colliding: Vec<bool>,
}

type Solver<'a> = SlideSolver<'a>;

self_cell::self_cell!(
    /// A running solver together with the level it borrows.
    struct LiveSolver {
        owner: SolverOwner,
        #[covariant]
        dependent: Solver,
    }
);

/// The inputs of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveSpec {
    /// Probe centre at the start, world space.
    pub start: DVec3,
    /// Requested displacement, world space.
    pub velocity: DVec3,
    /// The settings it runs with.
    pub settings: SlideSettings,
}

/// One probe's stepped move: the records computed so far and a cursor.
#[derive(Default)]
pub struct Stepper {
    records: Vec<IterationRecord>,
    /// Index of the record shown; `None` = before the first iteration.
    cursor: Option<usize>,
    live: Option<LiveSolver>,
    finished: Option<EndReason>,
    invalid: bool,
}

impl Clone for Stepper {
    /// A clone keeps the computed records but not the live solver: stepping
    /// past them in the clone needs a [`Stepper::start`] (duplicated probes
    /// are reset anyway).
    fn clone(&self) -> Self {
        Stepper {
            records: self.records.clone(),
            cursor: self.cursor,
            live: None,
            finished: self.finished,
            invalid: self.invalid,
        }
    }
}

impl std::fmt::Debug for Stepper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stepper")
            .field("records", &self.records.len())
            .field("cursor", &self.cursor)
            .field("live", &self.live.is_some())
            .field("finished", &self.finished)
            .finish()
    }
}

impl Stepper {
    /// Starts a fresh move (Reset). Returns `false`, and leaves an empty
    /// stepper, when the solver rejects the inputs (non-finite numbers,
    /// invalid settings).
    pub fn start(&mut self, level: Arc<Level>, colliding: Vec<bool>, spec: &MoveSpec) -> bool {
        *self = Stepper::default();
        let owner = SolverOwner { level, colliding };
        let live = LiveSolver::try_new(owner, |o| {
            let world = if o.colliding.len() == o.level.mesh.objects.len() {
                o.level.world_with(&o.colliding)
            } else {
                o.level.world()
            };
            SlideSolver::new(
                world,
                &spec.settings,
                spec.start,
                spec.velocity,
                TraceDetail::Full,
            )
            .ok_or(())
        });
        match live {
            Ok(live) => {
                self.live = Some(live);
                true
            }
            Err(()) => {
                self.invalid = true;
                false
            }
        }
    }

    /// Whether the last [`Stepper::start`] was rejected by the solver.
    pub fn is_invalid(&self) -> bool {
        self.invalid
    }

    /// Whether a move has been started (records or a live solver).
    pub fn is_started(&self) -> bool {
        self.live.is_some() || !self.records.is_empty()
    }

    /// Shows the next iteration: moves the cursor over records already
    /// computed, or runs one solver iteration. `false` at the end.
    pub fn step(&mut self) -> bool {
        let next = self.cursor.map_or(0, |c| c + 1);
        if next < self.records.len() {
            self.cursor = Some(next);
            return true;
        }
        let Some(live) = self.live.as_mut() else {
            return false;
        };
        let rec = live.with_dependent_mut(|_, solver| solver.next());
        match rec {
            Some(rec) => {
                self.records.push(rec);
                self.cursor = Some(self.records.len() - 1);
                true
            }
            None => {
                self.finished = live.borrow_dependent().finished();
                self.live = None;
                false
            }
        }
    }

    /// Shows the previous iteration (or the start). `false` at the start.
    pub fn step_back(&mut self) -> bool {
        match self.cursor {
            None => false,
            Some(0) => {
                self.cursor = None;
                true
            }
            Some(c) => {
                self.cursor = Some(c - 1);
                true
            }
        }
    }

    /// Runs the solver to the end of the move and shows the last iteration.
    pub fn run_to_end(&mut self) {
        while self.step() {}
        if let Some(last) = self.records.len().checked_sub(1) {
            self.cursor = Some(last);
        }
    }

    /// Shows iteration `index` (clamped to those computed), `None` = the start.
    pub fn seek(&mut self, index: Option<usize>) {
        self.cursor =
            index.and_then(|i| (!self.records.is_empty()).then(|| i.min(self.records.len() - 1)));
    }

    /// Every record computed so far, in order.
    pub fn records(&self) -> &[IterationRecord] {
        &self.records
    }

    /// The index of the record shown.
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// The record shown.
    pub fn current_record(&self) -> Option<&IterationRecord> {
        self.cursor.and_then(|c| self.records.get(c))
    }

    /// Why the move ended, once the solver has said so.
    pub fn finished(&self) -> Option<EndReason> {
        self.finished.or_else(|| {
            let live = self.live.as_ref()?;
            live.borrow_dependent().finished()
        })
    }

    /// Whether every iteration has been computed.
    pub fn is_complete(&self) -> bool {
        self.finished().is_some()
    }
}
