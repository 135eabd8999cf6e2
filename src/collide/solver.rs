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

use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::{
    Candidate, CandidateOutcome, CollisionWorld, EndReason, IterationOutcome, IterationRecord,
    Pass, SlideMode, SlideSettings,
};
use crate::geometry::espace::EllipsoidSpace;
use crate::math::Aabb;
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

/// What a mode's iteration body decided.
pub(super) struct StepDecision {
    /// Where the probe is after the iteration, world space.
    pub end_w: DVec3,
    /// The velocity of the next iteration, or why the pass ends.
    pub next: Result<DVec3, EndReason>,
}

impl StepDecision {
    /// The pass ends at `end_w` for `reason`.
    pub fn stop(end_w: DVec3, reason: EndReason) -> Self {
        StepDecision {
            end_w,
            next: Err(reason),
        }
    }

    /// The recursion goes on from `end_w` with velocity `next_w`.
    pub fn go(end_w: DVec3, next_w: DVec3) -> Self {
        StepDecision {
            end_w,
            next: Ok(next_w),
        }
    }
}

/// A contact plane met earlier in a pass (robust mode).
#[derive(Clone, Copy, Debug)]
pub(super) struct ContactPlane {
    /// Unit normal, ellipsoid space.
    pub normal_e: DVec3,
    /// The triangle it was met on.
    pub triangle: u32,
}

/// Buffers and read-only inputs an iteration body works with.
pub(super) struct StepContext<'s, 'w> {
    pub world: &'s CollisionWorld<'w>,
    pub settings: &'s SlideSettings,
    pub es: EllipsoidSpace,
    pub detail: TraceDetail,
    pub scratch: &'s mut BvhScratch,
    pub tris: &'s mut Vec<u32>,
    pub visited: &'s mut Vec<u32>,
    /// Robust mode: the contact planes met in this pass.
    pub planes_e: &'s mut Vec<ContactPlane>,
    /// Robust mode: direction of the pass's original velocity, ellipsoid space.
    pub pass_dir_e: DVec3,
    /// See [`SlideSolver::with_walls`].
    pub walls: Option<WallRule>,
}

impl StepContext<'_, '_> {
    /// The skin in ellipsoid space across a plane of unit normal `n_e`
    /// (ellipsoid space): the gap to the parallel plane a world `skin` away.
    ///
    /// A plane stays a plane between the spaces, and the world distance
    /// between two parallel ones is their ellipsoid-space distance divided
    /// by `|n_e / radii|`; so the skin is exact in metres whatever the radii
    /// (a thin probe kept `skin / smallest radius` before: 9 cm at 5 cm).
    pub fn skin_e_across(&self, n_e: DVec3) -> f64 {
        self.settings.skin * (n_e / self.es.radii()).length()
    }

    /// The skin in ellipsoid space along the unit direction `dir_e`: the
    /// ellipsoid-space length whose world length is `skin` (0 for a zero
    /// direction).
    pub fn skin_e_along(&self, dir_e: DVec3) -> f64 {
        let world_per_unit = (dir_e * self.es.radii()).length();
        if world_per_unit > 0.0 {
            self.settings.skin / world_per_unit
        } else {
            0.0
        }
    }

    /// The normal to slide along for a contact of unit normal `n_e`
    /// (ellipsoid space): `n_e` itself, or, under
    /// [`SlideSolver::with_walls`], its horizontal part when the contact
    /// faces up too steeply to walk on. Horizontal in ellipsoid space is
    /// horizontal in world space (the y axis is a principal axis of both),
    /// so the slide keeps no upward part.
    pub fn slide_normal_e(&self, n_e: DVec3) -> DVec3 {
        if self.is_wall(self.es.normal_world_from_espace(n_e).y) {
            DVec3::new(n_e.x, 0.0, n_e.z).try_normalize().unwrap_or(n_e)
        } else {
            n_e
        }
    }

    /// [`StepContext::slide_normal_e`] for a world-space unit normal.
    pub fn slide_normal_w(&self, n_w: DVec3) -> DVec3 {
        if self.is_wall(n_w.y) {
            DVec3::new(n_w.x, 0.0, n_w.z).try_normalize().unwrap_or(n_w)
        } else {
            n_w
        }
    }

    /// Whether a contact whose world normal has up component `up_w` is a
    /// wall under the walls rule: it faces up, but too steeply to walk on.
    fn is_wall(&self, up_w: f64) -> bool {
        self.walls
            .is_some_and(|w| up_w > 0.0 && up_w < w.floor_min_up)
    }

    /// The probe's box at `center_w` (its radii grown by a hair and
    /// `slack`), world space, rounded outwards to `f32`.
    ///
    /// Not grown by the skin: every mode tests the ellipsoid itself (the
    /// unit sphere in ellipsoid space), so a triangle that only comes within
    /// the skin is never touched, and the solver keeps the probe a skin away
    /// from what it touches. A box grown by the skin made every floor tile
    /// under a sliding probe a candidate; on long moves over a tessellated
    /// floor those were most of the candidates, each a miss.
    fn probe_box(&self, center_w: DVec3, slack: f64) -> Aabb {
        let margin = self.es.radii() + DVec3::splat(1e-9 + slack);
        let pad = center_w.abs().max_element() * 1e-12;
        Aabb::from_f64_covering(center_w - margin - pad, center_w + margin + pad)
    }

    /// The probe's box at `start_w` and the box around the whole move by
    /// `vel_w` (shown as the swept query box), world space.
    fn move_boxes(&self, start_w: DVec3, vel_w: DVec3) -> (Aabb, Aabb) {
        // The move is handed to the BVH in f32: widen the box by more than
        // the rounding of the velocity.
        let slack = vel_w.abs().max_element() * 1e-6;
        let start_box = self.probe_box(start_w, slack);
        let whole_move = start_box.union(&self.probe_box(start_w + vel_w, slack));
        (start_box, whole_move)
    }

    /// Finds the candidates of a move from `start_w` by `vel_w`: the
    /// triangles whose boxes the probe's moving box touches. Fills
    /// `self.tris` (and `self.visited` in full detail) and returns the box
    /// around the whole move (shown as the swept query box) and the counters.
    pub fn gather(&mut self, start_w: DVec3, vel_w: DVec3) -> (Aabb, QueryStats) {
        let (start_box, whole_move) = self.move_boxes(start_w, vel_w);
        let mut stats = QueryStats::default();
        self.tris.clear();
        self.visited.clear();
        let visited = match self.detail {
            TraceDetail::Full => Some(&mut *self.visited),
            TraceDetail::Summary => None,
        };
        self.world.bvh.query_swept_aabb(
            &self.world.mesh.tri_aabbs,
            &start_box,
            vel_w.as_vec3(),
            self.scratch,
            self.tris,
            visited,
            &mut stats,
        );
        (whole_move, stats)
    }

    /// The same candidates as [`StepContext::gather`], searched nearest
    /// first: `visit(ctx, tri)` tests each one and returns the move fraction
    /// of the nearest blocking hit so far (`f64::INFINITY` while there is
    /// none); candidates the probe's box only reaches after that are never
    /// visited (see [`crate::bvh::Bvh::sweep_front_to_back`]). Fills
    /// `self.visited` in full detail; returns the box around the whole move
    /// and the counters.
    pub fn sweep_candidates(
        &mut self,
        start_w: DVec3,
        vel_w: DVec3,
        visit: &mut dyn FnMut(&StepContext<'_, '_>, u32) -> f64,
    ) -> (Aabb, QueryStats) {
        let (start_box, whole_move) = self.move_boxes(start_w, vel_w);
        let mut stats = QueryStats::default();
        // Moved out for the search so that `visit` can read the context.
        let mut scratch = std::mem::take(&mut *self.scratch);
        let mut visited = std::mem::take(&mut *self.visited);
        visited.clear();
        let this = &*self;
        this.world.bvh.sweep_front_to_back(
            &start_box,
            vel_w.as_vec3(),
            &mut scratch,
            (this.detail == TraceDetail::Full).then_some(&mut visited),
            &mut stats,
            &mut |tri| visit(this, tri),
        );
        *self.scratch = scratch;
        *self.visited = visited;
        (whole_move, stats)
    }

    /// Lists candidate `tri` and its outcome in `rec` (full detail only).
    pub fn note_candidate(&self, rec: &mut IterationRecord, tri: u32, outcome: CandidateOutcome) {
        if self.detail == TraceDetail::Full {
            let object = self.world.mesh.object_of(tri) as u32;
            rec.candidates.push(Candidate {
                triangle: tri,
                object,
                outcome,
            });
        }
    }

    /// Triangle `tri` in ellipsoid space.
    pub fn triangle_e(&self, tri: u32) -> [DVec3; 3] {
        self.world
            .mesh
            .triangle_f64(tri)
            .map(|p| self.es.espace_from_world(p))
    }

    /// A record with the iteration's inputs filled in and no hit yet.
    pub fn blank_record(&self, start_w: DVec3, vel_w: DVec3) -> IterationRecord {
        let es = self.es;
        IterationRecord {
            index: 0,
            depth: 0,
            pass: Pass::Velocity,
            mode: self.settings.mode,
            start: start_w,
            start_espace: es.espace_from_world(start_w),
            velocity: vel_w,
            velocity_espace: es.espace_from_world(vel_w),
            destination: start_w + vel_w,
            destination_espace: es.espace_from_world(start_w + vel_w),
            recovery: None,
            query_aabb: Aabb::EMPTY,
            bvh_nodes_visited: Vec::new(),
            bvh_stats: QueryStats::default(),
            candidates: Vec::new(),
            candidate_count: 0,
            nearest: None,
            ghost_hit: None,
            sliding_plane: None,
            slide_vector: None,
            slide_vector_espace: None,
            new_destination: None,
            new_destination_espace: None,
            crease_direction: None,
            end: start_w,
            end_espace: es.espace_from_world(start_w),
            clearance: None,
            outcome: IterationOutcome::Continue,
        }
    }

    /// Copies the search results into `rec`: the box around the move, the
    /// counters and how many candidates were tested.
    pub fn record_query(
        &self,
        rec: &mut IterationRecord,
        query: Aabb,
        stats: QueryStats,
        candidate_count: usize,
    ) {
        rec.query_aabb = query;
        rec.bvh_stats = stats;
        rec.candidate_count = candidate_count as u32;
        if self.detail == TraceDetail::Full {
            rec.bvh_nodes_visited.clone_from(self.visited);
        }
    }

    /// Sets the slide vector fields of `rec` from an ellipsoid-space slide starting at `end_e`.
    pub fn record_slide(&self, rec: &mut IterationRecord, end_e: DVec3, slide_e: DVec3) {
        let es = self.es;
        rec.slide_vector = Some(es.world_from_espace(slide_e));
        rec.slide_vector_espace = Some(slide_e);
        rec.new_destination = Some(es.world_from_espace(end_e + slide_e));
        rec.new_destination_espace = Some(end_e + slide_e);
    }
}

/// The largest coordinate of a position, move or gravity the solver takes,
/// metres (a million kilometres). Squared lengths of larger numbers
/// overflow `f64` (a move of `1e308` has no finite length), and far below
/// that a level's millimetres are lost to rounding; [`SlideSolver::new`]
/// refuses anything larger, so finite input always gives finite output.
pub const MAX_MAGNITUDE_M: f64 = 1e9;

/// Steps the recursion one iteration per `next()`.
pub struct SlideSolver<'w> {
    world: CollisionWorld<'w>,
    settings: SlideSettings,
    es: EllipsoidSpace,
    detail: TraceDetail,
    position_w: DVec3,
    velocity_w: DVec3,
    pass: Pass,
    gravity_pending_w: Option<DVec3>,
    depth: u32,
    index: u32,
    planes_e: Vec<ContactPlane>,
    pass_dir_e: DVec3,
    scratch: BvhScratch,
    tris: Vec<u32>,
    visited: Vec<u32>,
    finished: Option<EndReason>,
    walls: Option<WallRule>,
}

impl<'w> SlideSolver<'w> {
    /// A solver for one move of the probe centred at `start` by `velocity`
    /// (world space). `None` when an input is not finite or the settings are
    /// invalid: bad numbers are rejected here, never propagated.
    pub fn new(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        start: DVec3,
        velocity: DVec3,
        detail: TraceDetail,
    ) -> Option<Self> {
        settings.validate().ok()?;
        let es = EllipsoidSpace::new(settings.radii_vec())?;
        let within = |v: DVec3| v.abs().max_element() <= MAX_MAGNITUDE_M;
        if !(within(start) && within(velocity)) {
            return None;
        }
        let gravity = settings.gravity_vec();
        // Sums must stay finite too (1e308 + 1e308 is not).
        if !(start.is_finite() && velocity.is_finite() && (start + velocity + gravity).is_finite())
        {
            return None;
        }
        let (velocity_w, gravity_pending_w) = match settings.mode {
            SlideMode::Nettle2000 => (velocity + gravity, None),
            _ => (velocity, (gravity != DVec3::ZERO).then_some(gravity)),
        };
        Some(SlideSolver {
            world,
            settings: settings.clone(),
            es,
            detail,
            position_w: start,
            velocity_w,
            pass: Pass::Velocity,
            gravity_pending_w,
            depth: 0,
            index: 0,
            planes_e: Vec::with_capacity(4),
            pass_dir_e: es.espace_from_world(velocity_w).normalize_or_zero(),
            // Room for a search's pending nodes on any level (two per level
            // of the tree): one allocation per move instead of several.
            scratch: BvhScratch {
                stack: Vec::new(),
                ordered: Vec::with_capacity(64),
            },
            tris: Vec::new(),
            visited: Vec::new(),
            finished: None,
            walls: None,
        })
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

    /// Where the probe is now, world space.
    pub fn position(&self) -> DVec3 {
        self.position_w
    }

    /// Why the move ended, once it has.
    pub fn finished(&self) -> Option<EndReason> {
        self.finished
    }

    fn run_iteration(&mut self) -> (IterationRecord, StepDecision) {
        let mut ctx = StepContext {
            world: &self.world,
            settings: &self.settings,
            es: self.es,
            detail: self.detail,
            scratch: &mut self.scratch,
            tris: &mut self.tris,
            visited: &mut self.visited,
            planes_e: &mut self.planes_e,
            pass_dir_e: self.pass_dir_e,
            walls: self.walls,
        };
        let (start_w, vel_w) = (self.position_w, self.velocity_w);
        if vel_w.length() < self.settings.min_move {
            let rec = ctx.blank_record(start_w, vel_w);
            let decision = StepDecision {
                end_w: start_w,
                next: Err(EndReason::TooShort),
            };
            return (rec, decision);
        }
        match self.settings.mode {
            SlideMode::Robust => super::robust::step(&mut ctx, start_w, vel_w),
            SlideMode::Fauerby2003 => super::fauerby::step(&mut ctx, start_w, vel_w),
            SlideMode::Nettle2000 => super::nettle::step(&mut ctx, start_w, vel_w),
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
        self.pass_dir_e = self.es.espace_from_world(gravity_w).normalize_or_zero();
        true
    }
}

impl Iterator for SlideSolver<'_> {
    type Item = IterationRecord;

    fn next(&mut self) -> Option<IterationRecord> {
        if self.finished.is_some() {
            return None;
        }
        let (mut rec, decision) = self.run_iteration();
        debug_assert!(
            decision.end_w.is_finite(),
            "solver produced a non-finite position"
        );
        rec.index = self.index;
        rec.depth = self.depth;
        rec.pass = self.pass;
        rec.end = decision.end_w;
        rec.end_espace = self.es.espace_from_world(decision.end_w);
        if self.settings.self_checks {
            self.check_iteration(&mut rec);
        }
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
        rec.outcome = match ended {
            None => IterationOutcome::Continue,
            Some(EndReason::StuckEmbedded) => self.finish(EndReason::StuckEmbedded),
            Some(reason) if self.start_gravity_pass() => IterationOutcome::PassEnded(reason),
            Some(reason) => self.finish(reason),
        };
        Some(rec)
    }
}

impl SlideSolver<'_> {
    /// The solver checking itself after an iteration: the clearance where it
    /// ended (flagging an end inside geometry) and whether its nearest hit
    /// was a ghost corner.
    fn check_iteration(&mut self, rec: &mut IterationRecord) {
        if let Some(hit) = &rec.nearest {
            rec.ghost_hit = super::ghost::detect(
                &self.world,
                hit,
                self.settings.ghost_edge_angle_deg,
                &mut self.scratch,
                &mut self.tris,
            );
        }
        rec.clearance = super::clearance::ClearanceQuery {
            world: &self.world,
            settings: &self.settings,
            es: self.es,
            scratch: &mut self.scratch,
            tris: &mut self.tris,
        }
        .measure(rec.end);
    }

    fn finish(&mut self, reason: EndReason) -> IterationOutcome {
        self.finished = Some(reason);
        IterationOutcome::MoveEnded(reason)
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
    // Records are large: growing the list one by one copies them.
    let passes = 1 + usize::from(solver.gravity_pending_w.is_some());
    let mut iterations = Vec::with_capacity(passes * settings.max_iterations.clamp(1, 16) as usize);
    iterations.extend(solver.by_ref());
    Some(SlideResult {
        mode: settings.mode,
        final_position: solver.position(),
        end_reason: solver.finished().unwrap_or(EndReason::Arrived),
        iterations,
    })
}
