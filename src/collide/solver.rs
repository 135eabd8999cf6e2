//! The collide-and-slide state machine: one `next()` is one iteration of the
//! recursion, in any of the three modes.
//!
//! A move has up to two passes: the velocity pass, then (robust and
//! fauerby2003) a separate gravity pass; nettle2000 adds gravity to the
//! velocity instead, as the article does. Each pass recurses at most
//! `max_iterations` times. The per-mode iteration bodies live in
//! [`super::robust`], [`super::fauerby`] and [`super::nettle`]; this file
//! owns the state between iterations, the candidate gathering shared by all
//! modes, and the bookkeeping of passes and end reasons.
//!
//! A solver is made for many moves: it keeps its buffers and its one
//! record between them (see [`SlideSolver`], "Many moves with one solver").

use super::clearance::NearbyTriangles;
use super::context::{ContactPlane, StepContext, StepDecision, empty_record};
use super::triggers::{TriggerTracker, has_triggers};
use crate::bvh::BvhScratch;
use crate::collide::{
    CollisionWorld, EndReason, InvalidSettings, IterationOutcome, IterationRecord, Pass, SlideMode,
    SlideSettings,
};
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::shape::Solid;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Which up-facing contacts a walking pass slides along as vertical walls
/// ([`SlideSolver::with_walls`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallRule {
    /// The least up component (world Y) of a walkable contact normal: the
    /// cosine of the walkable slope limit. Steeper contacts are walls.
    pub floor_min_up: f64,
}

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
    /// Why the move (its last pass) ended.
    pub end_reason: EndReason,
    /// One record per iteration, in order.
    pub iterations: Vec<IterationRecord>,
}

/// The largest coordinate of a position, move or gravity the solver takes,
/// metres (a million kilometres). Squared lengths of larger numbers
/// overflow `f64` (a move of `1e308` has no finite length), and far below
/// that a level's millimetres are lost to rounding; [`SlideSolver::new`]
/// refuses anything larger, so finite input always gives finite output.
pub const MAX_MAGNITUDE_M: f64 = 1e9;

/// How a move ended, without its records ([`SlideSolver::run_to_end`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveEnd {
    /// Where the probe centre ends, world space.
    pub final_position: DVec3,
    /// Why the move (its last pass) ended.
    pub end_reason: EndReason,
    /// Iterations run, both passes.
    pub iterations: u32,
}

/// Steps the recursion one iteration per `next()` (or [`SlideSolver::step`]).
///
/// # Many moves with one solver
///
/// A solver keeps everything a move needs between moves: the validated
/// settings, the BVH search's stacks, the candidate lists and the record
/// it fills in place. Code that runs many moves on one level (a batch, a
/// map of the level, a benchmark) makes one solver per thread with
/// [`SlideSolver::reusable`] and, for each move, calls
/// [`SlideSolver::start_move`], then [`SlideSolver::run_to_end`] (the end
/// only, no record copied) or [`SlideSolver::step`] (each iteration's
/// record, lent). Once the first moves have grown its buffers, a move
/// allocates nothing and checks nothing but its own numbers:
///
/// ```
/// use collidoscope::analysis::generate::default_level;
/// use collidoscope::collide::{SlideSettings, SlideSolver, TraceDetail};
/// use collidoscope::level::Level;
/// use glam::DVec3;
///
/// let level = Level::from_mesh("default", default_level());
/// let settings = SlideSettings { self_checks: false, ..SlideSettings::default() };
/// let mut solver = SlideSolver::reusable(level.world(), &settings, TraceDetail::Summary)
///     .expect("valid settings");
/// for x in [0.0, 1.0, 2.0] {
///     let start = DVec3::new(x, 2.0, 0.0);
///     assert!(solver.start_move(start, DVec3::new(0.0, 0.0, 0.5)));
///     let end = solver.run_to_end();
///     assert!(end.final_position.is_finite() && end.iterations >= 1);
/// }
/// // A refused move leaves no move under way.
/// assert!(!solver.start_move(DVec3::splat(f64::NAN), DVec3::X));
/// assert!(solver.step().is_none());
/// ```
///
/// With rayon, `map_init(|| SlideSolver::reusable(..), |solver, m| ..)`
/// gives each thread its own. `SlideSolver::new` and [`slide`] are the
/// same solver made for one move.
pub struct SlideSolver<'w> {
    world: CollisionWorld<'w>,
    /// Validated once, when the solver is made.
    settings: SlideSettings,
    es: EllipsoidSpace,
    /// The probe's shape when it is not the ellipsoid.
    solid: Option<Solid>,
    detail: TraceDetail,
    walls: Option<WallRule>,
    /// `false` until a move is started, and after a refused one.
    has_move: bool,
    position_w: DVec3,
    velocity_w: DVec3,
    pass: Pass,
    gravity_pending_w: Option<DVec3>,
    depth: u32,
    index: u32,
    /// The pass's original velocity, ellipsoid space.
    pass_vel_e: DVec3,
    finished: Option<EndReason>,
    // Storage kept across iterations and moves.
    planes_e: Vec<ContactPlane>,
    scratch: BvhScratch,
    tris: Vec<u32>,
    visited: Vec<u32>,
    /// The current iteration's record, filled in place.
    record: IterationRecord,
    /// Whether `record` is the move's latest iteration's (see
    /// [`SlideSolver::run_to_end`]).
    record_is_latest: bool,
    /// Whether `record`'s self checks are still to run, on its first read
    /// ([`SlideSolver::last_record`]); `tris` still holds its candidates.
    checks_pending: bool,
    /// Bit `k` set: iteration `k` of the latest move
    /// [`SlideSolver::run_to_end`] ran that far met some triangle (or
    /// found no open space), so the next move's iteration `k` most likely
    /// does too (see there). Iterations from 31 on share bit 31.
    expect_contact: u32,
    /// Which triggers the probe is in (`None` on a level without any).
    triggers: Option<Box<TriggerTracker>>,
    /// See [`SlideSolver::set_rounded_search`].
    rounded_search: bool,
    /// The triangle of the latest clearance measured, where the next
    /// measure starts (the self checks' search, see `check_iteration`).
    last_clearance: Option<u32>,
    /// The triangles the clearance's last search of the tree listed, kept
    /// for the next iterations' and moves' clearances near it.
    nearby: NearbyTriangles,
    /// How much farther than it needs the next clearance search reaches
    /// (`clearance::nearby_growth_radii`), set from each iteration's
    /// decision.
    nearby_growth_e: f64,
}

impl<'w> SlideSolver<'w> {
    /// A solver for one move of the probe centred at `start` by `velocity`
    /// (world space). `None` when an input is not finite or beyond
    /// [`MAX_MAGNITUDE_M`], or the settings are invalid: bad numbers are
    /// rejected here, never propagated.
    pub fn new(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        start: DVec3,
        velocity: DVec3,
        detail: TraceDetail,
    ) -> Option<Self> {
        let mut solver = Self::reusable(world, settings, detail).ok()?;
        solver.start_move(start, velocity).then_some(solver)
    }

    /// A solver with `settings` checked once and no move yet: start each
    /// move with [`SlideSolver::start_move`] (see the module doc). Until
    /// then it yields nothing.
    pub fn reusable(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        detail: TraceDetail,
    ) -> Result<Self, InvalidSettings> {
        settings.validate()?;
        // The ellipsoid's own space; for another shape, the space of the
        // box around it, so that the candidate search covers the shape
        // (see `StepContext::solid`).
        let es = EllipsoidSpace::new(settings.half_extents()).ok_or_else(|| {
            InvalidSettings(format!(
                "the {} of half sizes {} is too small to divide by",
                settings.shape.name(),
                settings.half_extents()
            ))
        })?;
        Ok(SlideSolver {
            world,
            settings: settings.clone(),
            es,
            solid: settings.shape.solid(),
            detail,
            walls: None,
            has_move: false,
            position_w: DVec3::ZERO,
            velocity_w: DVec3::ZERO,
            pass: Pass::Velocity,
            gravity_pending_w: None,
            depth: 0,
            index: 0,
            pass_vel_e: DVec3::ZERO,
            finished: None,
            planes_e: Vec::with_capacity(4),
            // Room for a search's pending nodes on any level (two per level
            // of the tree).
            scratch: BvhScratch {
                stack: Vec::new(),
                ordered: Vec::with_capacity(64),
            },
            tris: Vec::new(),
            visited: Vec::new(),
            record: empty_record(settings.mode),
            record_is_latest: false,
            checks_pending: false,
            expect_contact: u32::MAX,
            triggers: has_triggers(&world).then(Box::default),
            rounded_search: true,
            last_clearance: None,
            nearby: NearbyTriangles::new(true),
            nearby_growth_e: 0.0,
        })
    }

    /// Starts a move of the probe centred at `start` by `velocity` (world
    /// space), dropping whatever move was under way. `false`, and no move,
    /// when an input is not finite or beyond [`MAX_MAGNITUDE_M`] (or their
    /// sum with the gravity is not finite).
    #[must_use]
    #[inline]
    pub fn start_move(&mut self, start: DVec3, velocity: DVec3) -> bool {
        let gravity = self.settings.gravity_vec();
        // Each lane compared at once; a NaN compares false.
        let within = |v: DVec3| v.abs().cmple(DVec3::splat(MAX_MAGNITUDE_M)).all();
        // Sums must stay finite too (1e308 + 1e308 is not).
        self.has_move =
            within(start) && within(velocity) && (start + velocity + gravity).is_finite();
        let (velocity_w, gravity_pending_w) = match self.settings.mode {
            SlideMode::Nettle2000 => (velocity + gravity, None),
            _ => (velocity, (gravity != DVec3::ZERO).then_some(gravity)),
        };
        self.position_w = start;
        self.velocity_w = velocity_w;
        self.pass = Pass::Velocity;
        self.gravity_pending_w = gravity_pending_w;
        self.depth = 0;
        self.index = 0;
        self.planes_e.clear();
        self.pass_vel_e = self.es.espace_from_world(velocity_w);
        self.finished = None;
        self.record_is_latest = false;
        if let Some(t) = &mut self.triggers {
            t.reset(&self.world, self.es, start);
        }
        self.has_move
    }

    /// Slides along some up-facing contacts as vertical walls (see
    /// [`WallRule`]): the slide keeps no upward part from them, and the
    /// sliding plane in the trace is that wall.
    ///
    /// A character's walking passes use it, as game controllers do
    /// (Unreal's `SlideAlongSurface` and Godot's `floor_block_on_wall` turn
    /// an unwalkable slope into a wall), so that a riser or a steep ramp is
    /// climbed only by an explicit step-up, never by sliding up it. Without
    /// it (the default), the ellipsoid rolls up whatever its curve meets,
    /// as in Nettle's and Fauerby's papers.
    pub fn with_walls(mut self, rule: WallRule) -> Self {
        self.walls = Some(rule);
        self
    }

    /// [`SlideSolver::with_walls`] on a solver kept across moves (`None`:
    /// no walls rule), for the moves started after it.
    pub fn set_walls(&mut self, rule: Option<WallRule>) {
        self.walls = rule;
    }

    /// Whether iterations record the triggers they enter and leave
    /// ([`IterationRecord::trigger_events`]; on by default on a level with
    /// non-colliding objects). Code that only needs where moves end (maps,
    /// benchmarks) may turn it off; the motion is the same either way.
    pub fn set_trigger_events(&mut self, on: bool) {
        self.triggers = (on && has_triggers(&self.world)).then(|| {
            let mut t = Box::<TriggerTracker>::default();
            t.reset(&self.world, self.es, self.position_w);
            t
        });
    }

    /// Whether a summary trace's candidate search skips the triangles
    /// whose boxes lie out of the probe's rounded reach (on by default;
    /// see [`crate::bvh::Bvh::sweep_front_to_back_rounded`]). The motion
    /// and every record field but the candidate counters are the same
    /// either way (property-tested); off, every triangle whose box the
    /// probe's box touches is tested, as in a full trace.
    #[doc(hidden)]
    pub fn set_rounded_search(&mut self, on: bool) {
        self.rounded_search = on;
    }

    /// Whether the self checks' clearance reuses the triangles an earlier
    /// search of the tree listed near it (on by default; see
    /// `clearance::NearbyTriangles`). Every record is the same either way
    /// (property-tested); off, each iteration's clearance searches the
    /// tree for itself.
    #[doc(hidden)]
    pub fn set_clearance_reuse(&mut self, on: bool) {
        self.nearby.set_reuse(on);
    }

    /// Where the probe is now, world space.
    pub fn position(&self) -> DVec3 {
        self.position_w
    }

    /// Why the move ended, once it has.
    pub fn finished(&self) -> Option<EndReason> {
        self.finished
    }

    /// The settings this solver runs with.
    pub fn settings(&self) -> &SlideSettings {
        &self.settings
    }

    /// The record of the move's latest iteration, if it has run one and
    /// kept its record ([`SlideSolver::run_to_end`] may not).
    ///
    /// After [`SlideSolver::run_to_end`], the self checks of that record
    /// are run here, on its first read: nothing else reads them, so a
    /// batch that only wants where its moves end never pays for them.
    /// They are the same as stepping gives (property-tested): the record,
    /// the iteration's candidates they read and the motion are left as
    /// the iteration left them.
    pub fn last_record(&mut self) -> Option<&IterationRecord> {
        if !(self.has_move && self.record_is_latest) {
            return None;
        }
        if std::mem::take(&mut self.checks_pending) {
            self.check_iteration();
        }
        Some(&self.record)
    }

    /// Runs one iteration and lends its record, or `None` once the move
    /// has ended (or none was started). What `next()` does, without
    /// copying the record out.
    pub fn step(&mut self) -> Option<&IterationRecord> {
        self.step_recorded(false)
    }

    /// [`SlideSolver::step`]; `open_space_ruled_out` as in [`StepContext`].
    ///
    /// Called from [`SlideSolver::run_to_end`] (`open_space_ruled_out`
    /// set), the record is read only if the iteration is the move's last,
    /// and then through [`SlideSolver::last_record`]: the self checks are
    /// left for that read. Their results are the record's and nothing
    /// else's, and they cost about as much as the iteration itself
    /// (BENCHMARKS.md, "What the self checks cost, by part"). The motion is
    /// the same either way (they only watch it), and so is the last
    /// record: its clearance does not depend on which triangles earlier
    /// measures started from.
    fn step_recorded(&mut self, open_space_ruled_out: bool) -> Option<&IterationRecord> {
        if !self.has_move || self.finished.is_some() {
            return None;
        }
        let decision = self.run_iteration(open_space_ruled_out);
        self.record_is_latest = true;
        debug_assert!(
            decision.end_w.is_finite(),
            "solver produced a non-finite position"
        );
        let rec = &mut self.record;
        rec.index = self.index;
        rec.depth = self.depth;
        rec.pass = self.pass;
        rec.end = decision.end_w;
        rec.end_espace = self.es.espace_from_world(decision.end_w);
        self.checks_pending = false;
        if self.settings.self_checks {
            self.nearby_growth_e = super::clearance::nearby_growth_radii(
                decision.next.ok().map(|v| self.es.espace_from_world(v)),
            );
            if open_space_ruled_out {
                self.checks_pending = true;
            } else {
                self.check_iteration();
            }
        }
        // After the motion is decided: triggers only watch it.
        if let Some(t) = &mut self.triggers {
            let rec = &mut self.record;
            rec.trigger_events = t.crossings(&self.world, self.es, rec.start, rec.end);
        }
        self.record.outcome = self.advance(decision);
        Some(&self.record)
    }

    /// Moves the probe to where the iteration just run decided, and ends
    /// the pass or the move if it said so.
    #[inline]
    fn advance(&mut self, decision: StepDecision) -> IterationOutcome {
        self.position_w = decision.end_w;
        self.index += 1;
        self.depth += 1;
        let ended = match decision.next {
            Ok(_) if self.depth >= self.settings.max_iterations => Some(EndReason::IterationCap),
            Ok(next_w) => {
                self.velocity_w = next_w;
                None
            }
            Err(reason) => Some(reason),
        };
        match ended {
            None => IterationOutcome::Continue,
            Some(EndReason::StuckEmbedded) => self.end_move(EndReason::StuckEmbedded),
            Some(reason) if self.start_gravity_pass() => IterationOutcome::PassEnded(reason),
            Some(reason) => self.end_move(reason),
        }
    }

    /// Runs the rest of the move and says how it ended, with the same
    /// motion as [`SlideSolver::step`] to the end. A solver with no move
    /// reports where it is, [`EndReason::Arrived`] and no iterations.
    ///
    /// Nothing reads the records of these iterations, so an iteration
    /// through open space (robust mode, nothing within reach of the
    /// probe's moving box) fills none: it arrives as `step` would, with
    /// neither the record nor the self-checks, whose results only a
    /// record carries. In a move through open space, the record and the
    /// ordered search were more than half of the cost (BENCHMARKS.md).
    /// The iterations it searches fill their records but leave the self
    /// checks of the last one, the record it keeps, to
    /// [`SlideSolver::last_record`], and run none for the others. So a
    /// batch of moves (a replayed path, a character's probes) pays for
    /// checks only where it reads a record.
    /// [`SlideSolver::last_record`] is `None` when the last iteration kept
    /// no record.
    ///
    /// The walk that finds open space stops at the first triangle's box
    /// the probe's moving box touches, and most iterations touch one (a
    /// probe on the ground, or sliding along what it just hit): then it
    /// has read a path of the tree for nothing, as many nodes as the
    /// ordered search that follows, which ends an iteration through open
    /// space exactly where the walk would, only at the cost of its record.
    /// So each iteration guesses by the same iteration of the previous
    /// move: the walk is tried only where that one met nothing. Moves of
    /// one kind repeat their pattern: on the ground, the first iteration
    /// meets the floor; on uneven ground (the fields) the second meets it
    /// again, on a flat floor (the city) it slides freely. Guessing by the
    /// move's own previous iteration, as this did before, sent 84 % of the
    /// 1M city's walks into a walk that failed at their first iteration,
    /// their previous move having ended with a free slide, and never tried
    /// it on the free slides (BENCHMARKS.md, "Why the city's ratio is
    /// lower", and "The tree walk at 1M-4M triangles").
    #[inline]
    pub fn run_to_end(&mut self) -> MoveEnd {
        while self.has_move && self.finished.is_none() {
            let bit = 1u32 << self.index.min(31);
            let expect = self.expect_contact & bit != 0;
            let met = if !expect && self.arrive_unrecorded() {
                false
            } else {
                let searched_met = self
                    .step_recorded(true)
                    .is_none_or(|r| r.candidate_count > 0);
                // A walk tried and failed would fail again on a move like this one.
                searched_met || !expect
            };
            self.expect_contact = (self.expect_contact & !bit) | if met { bit } else { 0 };
        }
        MoveEnd {
            final_position: self.position_w,
            end_reason: self.finished.unwrap_or(EndReason::Arrived),
            iterations: if self.has_move { self.index } else { 0 },
        }
    }

    /// Runs the next iteration without a record if it goes through open
    /// space; `false`, with nothing run, if it does not (or is too short,
    /// or the mode has no such shortcut, which leaves nothing to rule out).
    #[inline]
    fn arrive_unrecorded(&mut self) -> bool {
        if self.settings.mode != SlideMode::Robust || self.velocity_too_short() {
            return false;
        }
        let (start_w, vel_w) = (self.position_w, self.velocity_w);
        let (mut ctx, _) = self.context(false);
        let Some(end_w) = super::robust::arrival_through_open_space(&mut ctx, start_w, vel_w)
        else {
            return false;
        };
        // The triggers still follow the probe: a later iteration of the
        // move reports its crossings from where this one left it.
        if let Some(t) = &mut self.triggers {
            t.crossings(&self.world, self.es, start_w, end_w);
        }
        self.record_is_latest = false;
        self.advance(StepDecision::stop(end_w, EndReason::Arrived));
        true
    }

    /// What an iteration body works with, and the record it fills.
    #[inline]
    fn context(
        &mut self,
        open_space_ruled_out: bool,
    ) -> (StepContext<'_, 'w>, &mut IterationRecord) {
        let ctx = StepContext {
            world: &self.world,
            settings: &self.settings,
            es: self.es,
            solid: self.solid,
            detail: self.detail,
            scratch: &mut self.scratch,
            tris: &mut self.tris,
            visited: &mut self.visited,
            planes_e: &mut self.planes_e,
            pass_vel_e: self.pass_vel_e,
            walls: self.walls,
            rounded_search: self.rounded_search,
            open_space_ruled_out,
        };
        (ctx, &mut self.record)
    }

    /// Whether the next iteration's velocity is shorter than `min_move`.
    ///
    /// Tested on the field itself, before any copy of it: read back from a
    /// copy (a 24-byte vector stored in two parts, loaded in two
    /// overlapping ones) it stalled every iteration. Squared, so that no
    /// square root holds up the iteration (they differ only within a
    /// rounding of `min_move` itself).
    #[inline(always)]
    fn velocity_too_short(&self) -> bool {
        let min_move = self.settings.min_move;
        self.velocity_w.length_squared() < min_move * min_move
    }

    fn run_iteration(&mut self, open_space_ruled_out: bool) -> StepDecision {
        // Filled with the iteration's candidates (none through open space).
        self.tris.clear();
        let too_short = self.velocity_too_short();
        let (start_w, vel_w) = (self.position_w, self.velocity_w);
        let mode = self.settings.mode;
        let (mut ctx, rec) = self.context(open_space_ruled_out);
        if too_short {
            ctx.reset_record(rec, start_w, vel_w);
            return StepDecision::stop(start_w, EndReason::TooShort);
        }
        match mode {
            SlideMode::Robust => super::robust::step(&mut ctx, rec, start_w, vel_w),
            SlideMode::Fauerby2003 => super::fauerby::step(&mut ctx, rec, start_w, vel_w),
            SlideMode::Nettle2000 => super::nettle::step(&mut ctx, rec, start_w, vel_w),
        }
    }

    /// Moves on to the gravity pass, if one is pending.
    fn start_gravity_pass(&mut self) -> bool {
        let Some(gravity_w) = self.gravity_pending_w.take() else {
            return false;
        };
        self.pass = Pass::Gravity;
        self.velocity_w = gravity_w;
        self.depth = 0;
        self.planes_e.clear();
        self.pass_vel_e = self.es.espace_from_world(gravity_w);
        true
    }

    /// The solver checking itself after an iteration: the path its centre
    /// travelled (flagging a tunnel), the clearance where it ended
    /// (flagging an end inside geometry) and whether its nearest hit was a
    /// ghost corner.
    fn check_iteration(&mut self) {
        // First, while `tris` still holds the iteration's candidates.
        self.record.tunnel = super::crossing::CrossingQuery {
            world: &self.world,
            settings: &self.settings,
            es: self.es,
            tris: &self.tris,
        }
        .check(&self.record);
        let rec = &mut self.record;
        // The search starts from the triangles likely nearest: the one the
        // iteration stopped a skin from, and the last clearance's (the
        // floor under a walking character); any start gives the same
        // answer (see `ClearanceQuery::measure_covering`). Its triangles
        // come from the last search of the tree when that one's ball
        // covers this end's (see `NearbyTriangles`). It also lists the
        // triangles around the hit's edge or vertex for the ghost-corner
        // check below, which then needs no search of its own.
        let hit = rec.nearest.as_ref().map(|h| h.triangle);
        let mut seeds = [0u32; super::clearance::MAX_SEEDS];
        let mut n = 0;
        for tri in [hit, self.last_clearance].into_iter().flatten() {
            if !seeds[..n].contains(&tri) {
                seeds[n] = tri;
                n += 1;
            }
        }
        let suspect = rec
            .nearest
            .as_ref()
            .and_then(|h| super::ghost::suspect_feature(&self.world, h));
        let (clearance, listed) = super::clearance::ClearanceQuery {
            world: &self.world,
            settings: &self.settings,
            es: self.es,
            scratch: &mut self.scratch,
            nearby: &mut self.nearby,
            growth_e: self.nearby_growth_e,
            tris: &mut self.tris,
        }
        .measure_covering(rec.end, &seeds[..n], suspect.map(|s| s.feature));
        rec.clearance = clearance;
        rec.ghost_hit = match (&rec.nearest, suspect) {
            (Some(hit), Some(suspect)) => super::ghost::detect(
                &self.world,
                hit,
                suspect,
                self.settings.ghost_edge_angle_deg,
                &mut self.scratch,
                &mut self.tris,
                listed,
            ),
            _ => None,
        };
        self.last_clearance = rec.clearance.map(|c| c.triangle);
    }

    fn end_move(&mut self, reason: EndReason) -> IterationOutcome {
        self.finished = Some(reason);
        IterationOutcome::MoveEnded(reason)
    }
}

#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod first_contact_tests;
#[cfg(test)]
mod reuse_tests;

impl Iterator for SlideSolver<'_> {
    type Item = IterationRecord;

    /// [`SlideSolver::step`], the record copied out.
    fn next(&mut self) -> Option<IterationRecord> {
        self.step().cloned()
    }
}

/// Runs a whole move. `None` for non-finite input or invalid settings.
/// Each call checks the settings and allocates the solver's buffers: for
/// many moves, keep one solver (see the module doc).
pub fn slide(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    start: DVec3,
    velocity: DVec3,
    detail: TraceDetail,
) -> Option<SlideResult> {
    let mut solver = SlideSolver::new(world, settings, start, velocity, detail)?;
    // Records are large: growing the list one by one copies them.
    let passes = 1 + usize::from(solver.gravity_pending_w.is_some());
    let mut iterations = Vec::with_capacity(passes * settings.max_iterations.clamp(1, 16) as usize);
    while let Some(rec) = solver.step() {
        iterations.push(rec.clone());
    }
    Some(SlideResult {
        mode: settings.mode,
        final_position: solver.position(),
        end_reason: solver.finished().unwrap_or(EndReason::Arrived),
        iterations,
    })
}
