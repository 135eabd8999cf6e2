//! The stepper: one probe's move, advanced one solver iteration at a time.
//!
//! Two kinds of move step the same way: a raw move (one [`SlideSolver`],
//! the probe's start and velocity) and a character frame (one
//! [`FrameSolver`]: a character state, an input and a frame index, whose
//! phases are runs of the same slide solver). Step is one `next()` of the
//! core solver (the very code the CLI and the tests run), so the records
//! shown are exactly what the solver computed. Records already computed are
//! kept, so Step back and the timeline only move a cursor. Positions are
//! world space.
//!
//! The solver borrows the level; the stepper keeps it alive next to the
//! level it borrows (an `Arc<Level>` plus the collision flags) with
//! `self_cell`, so a step costs one iteration and not a replay of the move.

use crate::app::box_chain::BoxChainSummary;
use crate::character::{CharacterInput, CharacterState, FrameRecord, FrameSolver, Phase};
use crate::collide::{
    CollisionWorld, EndReason, IterationRecord, SlideSettings, SlideSolver, TraceDetail,
};
use crate::level::Level;
use crate::methods::tunnel::{TunnelRule, tunnel_rule};
use crate::methods::{Method, MethodSettings, MethodStep, MethodTrace};
use glam::DVec3;
use std::sync::Arc;

/// What the live solver borrows: the level and which objects collide.
pub struct SolverOwner {
    level: Arc<Level>,
    colliding: Vec<bool>,
}

impl SolverOwner {
    fn world(&self) -> CollisionWorld<'_> {
        if self.colliding.len() == self.level.mesh.objects.len() {
            self.level.world_with(&self.colliding)
        } else {
            self.level.world()
        }
    }
}

type Solver<'a> = SlideSolver<'a>;
/// `None` once the frame has been finished into its record.
type Frame<'a> = Option<FrameSolver<'a>>;

self_cell::self_cell!(
    /// A running solver together with the level it borrows.
    struct LiveSolver {
        owner: SolverOwner,
        #[covariant]
        dependent: Solver,
    }
);

self_cell::self_cell!(
    /// A running character frame together with the level it borrows.
    struct LiveFrame {
        owner: SolverOwner,
        #[covariant]
        dependent: Frame,
    }
);

enum Live {
    Move(LiveSolver),
    Frame(LiveFrame),
}

/// The inputs of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveSpec {
    /// Probe centre at the start, world space.
    pub start: DVec3,
    /// Requested displacement, world space.
    pub velocity: DVec3,
    /// The settings it runs with.
    pub settings: SlideSettings,
    /// The collision method ([`Method::Ellipsoid`]: the slide solver).
    pub method: Method,
    /// Step rate and duration of the methods that step in time.
    pub method_settings: MethodSettings,
    /// The scene's vertical cylinders, world space (the radial method's
    /// colliders; the level passed in holds their prisms).
    pub cylinders: Vec<crate::level::cylinder::Cylinder>,
}

/// What reopens one character frame exactly (with the probe's settings):
/// the state before it, the input and its index in the walk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSpec {
    /// The character at the start of the frame.
    pub state: CharacterState,
    /// What the player asked for.
    pub input: CharacterInput,
    /// Index of the frame in its walk.
    pub index: u32,
}

/// One probe's stepped move: the records computed so far and a cursor.
#[derive(Default)]
pub struct Stepper {
    records: Vec<IterationRecord>,
    /// The phase of each record (character frames only).
    phases: Vec<Phase>,
    /// Index of the record shown; `None` = before the first iteration.
    cursor: Option<usize>,
    live: Option<Live>,
    finished: Option<EndReason>,
    /// The character frame stepped, if this is one.
    frame: Option<FrameSpec>,
    /// The frame's outcome once every phase has run (its iterations are
    /// the stepper's records).
    frame_record: Option<FrameRecord>,
    start: Option<DVec3>,
    invalid: bool,
    /// A move by another method than the slide: its whole trace (those
    /// methods are cheap), stepped by the cursor.
    method_trace: Option<MethodTrace>,
    /// The discrete mode's rule of thumb for the level and the probe.
    tunnel_rule: Option<TunnelRule>,
    /// The box chain on a recorded walk, when `method_trace` is one.
    box_chain: Option<BoxChainSummary>,
    /// The radial method: the swept ellipsoid on the same move and cylinders.
    radial_comparison: Option<crate::methods::radial_compare::RadialComparison>,
}

impl Clone for Stepper {
    /// A clone keeps the computed records but not the live solver: stepping
    /// past them in the clone needs a [`Stepper::start`] (duplicated probes
    /// are reset anyway).
    fn clone(&self) -> Self {
        Stepper {
            records: self.records.clone(),
            phases: self.phases.clone(),
            cursor: self.cursor,
            live: None,
            finished: self.finished,
            frame: self.frame,
            frame_record: self.frame_record.clone(),
            start: self.start,
            invalid: self.invalid,
            method_trace: self.method_trace.clone(),
            tunnel_rule: self.tunnel_rule,
            box_chain: self.box_chain,
            radial_comparison: self.radial_comparison.clone(),
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
            .field("frame", &self.frame.map(|f| f.index))
            .finish()
    }
}

impl Stepper {
    /// Starts a fresh move (Reset). Returns `false`, and leaves an empty
    /// stepper, when the solver rejects the inputs (non-finite numbers,
    /// invalid settings).
    pub fn start(&mut self, level: Arc<Level>, colliding: Vec<bool>, spec: &MoveSpec) -> bool {
        *self = Stepper {
            start: Some(spec.start),
            ..Stepper::default()
        };
        if spec.method != Method::Ellipsoid {
            return self.start_method(&level, &colliding, spec);
        }
        let owner = SolverOwner { level, colliding };
        let live = LiveSolver::try_new(owner, |o| {
            SlideSolver::new(
                o.world(),
                &spec.settings,
                spec.start,
                spec.velocity,
                TraceDetail::Full,
            )
            .ok_or(())
        });
        self.install(live.map(Live::Move))
    }

    /// Runs a method other than the slide to its end; the cursor then
    /// steps over its records.
    fn start_method(&mut self, level: &Level, colliding: &[bool], spec: &MoveSpec) -> bool {
        let world = if colliding.len() == level.mesh.objects.len() {
            level.world_with(colliding)
        } else {
            level.world()
        };
        if spec.method == Method::Radial {
            return self.start_radial(world, spec);
        }
        match crate::methods::run(
            spec.method,
            world,
            &spec.settings,
            &spec.method_settings,
            spec.start,
            spec.velocity,
        ) {
            Ok(trace) => {
                self.method_trace = Some(trace);
                self.tunnel_rule = (spec.method == Method::Discrete)
                    .then(|| {
                        tunnel_rule(
                            &world,
                            spec.settings.radii_vec(),
                            spec.method_settings.step_hz,
                        )
                    })
                    .flatten();
                true
            }
            Err(_) => {
                self.invalid = true;
                false
            }
        }
    }

    /// Shows a box chain's trace (one step per segment of a recorded walk,
    /// [`crate::app::box_chain`]) in place of the probe's move, before its
    /// first step.
    pub fn show_box_chain(&mut self, trace: MethodTrace, summary: BoxChainSummary) {
        *self = Stepper {
            start: trace.iterations.first().map(|s| s.start),
            method_trace: Some(trace),
            box_chain: Some(summary),
            ..Stepper::default()
        };
    }

    /// The box chain shown, when the stepper holds one.
    pub fn box_chain(&self) -> Option<&BoxChainSummary> {
        self.box_chain.as_ref()
    }

    /// Runs the radial method and the swept ellipsoid beside it.
    fn start_radial(&mut self, world: crate::collide::CollisionWorld<'_>, spec: &MoveSpec) -> bool {
        use crate::methods::radial_compare::{DEFAULT_TOLERANCE_M, compare_radial};
        match compare_radial(
            world,
            &spec.cylinders,
            &spec.settings,
            &spec.method_settings,
            spec.start,
            spec.velocity,
            DEFAULT_TOLERANCE_M,
        ) {
            Ok((trace, cmp)) => {
                self.method_trace = Some(trace);
                self.radial_comparison = Some(cmp);
                true
            }
            Err(_) => {
                self.invalid = true;
                false
            }
        }
    }

    /// The radial method's comparison with the swept ellipsoid.
    pub fn radial_comparison(&self) -> Option<&crate::methods::radial_compare::RadialComparison> {
        self.radial_comparison.as_ref()
    }

    /// Starts stepping one character frame with `settings` (Reset of a
    /// frame). Returns `false`, and leaves an empty stepper, when the frame
    /// solver rejects the inputs.
    pub fn start_frame(
        &mut self,
        level: Arc<Level>,
        colliding: Vec<bool>,
        settings: &SlideSettings,
        spec: &FrameSpec,
    ) -> bool {
        *self = Stepper {
            start: Some(spec.state.position),
            frame: Some(*spec),
            ..Stepper::default()
        };
        let owner = SolverOwner { level, colliding };
        let live = LiveFrame::try_new(owner, |o| {
            FrameSolver::new(
                o.world(),
                settings,
                &spec.state,
                spec.input,
                spec.index,
                TraceDetail::Full,
            )
            .map(Some)
            .ok_or(())
        });
        self.install(live.map(Live::Frame))
    }

    fn install(&mut self, live: Result<Live, ()>) -> bool {
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

    /// Whether the last start was rejected by the solver.
    pub fn is_invalid(&self) -> bool {
        self.invalid
    }

    /// Whether a move has been started (records or a live solver).
    pub fn is_started(&self) -> bool {
        self.live.is_some() || !self.records.is_empty() || self.method_trace.is_some()
    }

    /// How many records can be shown: the slide's records computed so
    /// far, or every step of another method's trace.
    pub fn step_count(&self) -> usize {
        self.method_trace
            .as_ref()
            .map_or(self.records.len(), |t| t.iterations.len())
    }

    /// The move by another method than the slide, when this is one.
    pub fn method_trace(&self) -> Option<&MethodTrace> {
        self.method_trace.as_ref()
    }

    /// The discrete mode's tunnelling rule of thumb for this level, probe
    /// and step rate.
    pub fn tunnel_rule(&self) -> Option<&TunnelRule> {
        self.tunnel_rule.as_ref()
    }

    /// The method step shown, when this is another method's move.
    pub fn current_method_step(&self) -> Option<&MethodStep> {
        let trace = self.method_trace.as_ref()?;
        self.cursor.and_then(|c| trace.iterations.get(c))
    }

    /// Shows the next iteration: moves the cursor over records already
    /// computed, or runs one solver iteration. `false` at the end.
    pub fn step(&mut self) -> bool {
        let next = self.cursor.map_or(0, |c| c + 1);
        if next < self.step_count() {
            self.cursor = Some(next);
            return true;
        }
        let (rec, phase) = match self.live.as_mut() {
            None => return false,
            Some(Live::Move(live)) => (live.with_dependent_mut(|_, s| s.next()), None),
            Some(Live::Frame(live)) => {
                match live.with_dependent_mut(|_, f| f.as_mut().and_then(|f| f.next())) {
                    Some(it) => (Some(it.record), Some(it.phase)),
                    None => (None, None),
                }
            }
        };
        match rec {
            Some(rec) => {
                self.records.push(rec);
                self.phases.extend(phase);
                self.cursor = Some(self.records.len() - 1);
                true
            }
            None => {
                match self.live.take() {
                    Some(Live::Move(live)) => self.finished = live.borrow_dependent().finished(),
                    Some(Live::Frame(mut live)) => {
                        let mut rec = live.with_dependent_mut(|_, f| f.take().map(|f| f.finish()));
                        if let Some(r) = rec.as_mut() {
                            // The records are already the stepper's.
                            r.iterations = Vec::new();
                        }
                        self.frame_record = rec;
                    }
                    None => {}
                }
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
        if let Some(last) = self.step_count().checked_sub(1) {
            self.cursor = Some(last);
        }
    }

    /// Shows iteration `index` (clamped to those computed), `None` = the start.
    pub fn seek(&mut self, index: Option<usize>) {
        let n = self.step_count();
        self.cursor = index.and_then(|i| (n > 0).then(|| i.min(n - 1)));
    }

    /// Every record computed so far, in order.
    pub fn records(&self) -> &[IterationRecord] {
        &self.records
    }

    /// The phase of every record computed so far (empty for a raw move).
    pub fn phases(&self) -> &[Phase] {
        &self.phases
    }

    /// The index of the record shown.
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// The record shown.
    pub fn current_record(&self) -> Option<&IterationRecord> {
        self.cursor.and_then(|c| self.records.get(c))
    }

    /// The phase of the record shown (character frames only).
    pub fn current_phase(&self) -> Option<Phase> {
        self.cursor.and_then(|c| self.phases.get(c).copied())
    }

    /// The character frame stepped, when this is one.
    pub fn frame(&self) -> Option<&FrameSpec> {
        self.frame.as_ref()
    }

    /// The character frame's outcome, once every phase has run.
    pub fn frame_record(&self) -> Option<&FrameRecord> {
        self.frame_record.as_ref()
    }

    /// Where the move starts, world space (once started).
    pub fn start_position(&self) -> Option<DVec3> {
        self.start
    }

    /// Why the raw move ended, once the solver has said so (a character
    /// frame: see [`Stepper::frame_record`]).
    pub fn finished(&self) -> Option<EndReason> {
        self.finished.or_else(|| match self.live.as_ref()? {
            Live::Move(live) => live.borrow_dependent().finished(),
            Live::Frame(_) => None,
        })
    }

    /// Whether every iteration has been computed.
    pub fn is_complete(&self) -> bool {
        self.finished().is_some()
            || self.method_trace.is_some()
            || self.frame_record.is_some()
            || matches!(&self.live, Some(Live::Frame(f)) if f.borrow_dependent().as_ref().is_some_and(|f| f.is_done()))
    }
}

/// A phase in a designer's words.
pub fn phase_words(phase: Phase) -> &'static str {
    match phase {
        Phase::Velocity => "velocity",
        Phase::StepUp => "step up",
        Phase::StepForward => "step forward",
        Phase::StepDown => "step down",
        Phase::Gravity => "gravity",
        Phase::Snap => "snap",
    }
}
