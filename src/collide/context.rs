//! What one iteration body works with: the read-only inputs of the move
//! (world, settings, ellipsoid space, detail), the solver's reusable
//! buffers, and the helpers the three modes share (candidate search, skin
//! conversions, filling the record in place).

use super::solver::{TraceDetail, WallRule};
use crate::bvh::{BvhScratch, QueryStats, RoundedProbe};
use crate::collide::{
    Candidate, CandidateOutcome, CollisionWorld, EndReason, IterationOutcome, IterationRecord,
    Pass, SlideMode, SlideSettings,
};
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::shape::Solid;
use crate::math::{Aabb, Vec3};
use glam::DVec3;

/// A record of nothing, for a solver to fill in place
/// ([`StepContext::reset_record`]).
pub(super) fn empty_record(mode: SlideMode) -> IterationRecord {
    IterationRecord {
        index: 0,
        depth: 0,
        pass: Pass::Velocity,
        mode,
        start: DVec3::ZERO,
        start_espace: DVec3::ZERO,
        velocity: DVec3::ZERO,
        velocity_espace: DVec3::ZERO,
        destination: DVec3::ZERO,
        destination_espace: DVec3::ZERO,
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
        end: DVec3::ZERO,
        end_espace: DVec3::ZERO,
        clearance: None,
        tunnel: None,
        trigger_events: Vec::new(),
        outcome: IterationOutcome::Continue,
    }
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
    /// The ellipsoid's space; for another shape, the space of the box
    /// around it (radii = its half sizes). The search boxes are then
    /// exactly the shape's box, a plane stays a plane and the skin stays
    /// exact in metres ([`StepContext::skin_e_across`]), so the robust
    /// iteration's stop, slide and crease logic is the same for every
    /// shape; only the per-triangle test and the push out of an overlap
    /// are the shape's own, in world metres.
    pub es: EllipsoidSpace,
    /// The probe's shape when it is not the ellipsoid (robust mode only).
    pub solid: Option<Solid>,
    pub detail: TraceDetail,
    pub scratch: &'s mut BvhScratch,
    pub tris: &'s mut Vec<u32>,
    pub visited: &'s mut Vec<u32>,
    /// Robust mode: the contact planes met in this pass.
    pub planes_e: &'s mut Vec<ContactPlane>,
    /// Robust mode: the pass's original velocity, ellipsoid space (its
    /// direction is only needed after a hit, so it is normalised there).
    pub pass_vel_e: DVec3,
    /// See [`SlideSolver::with_walls`].
    pub walls: Option<WallRule>,
    /// Whether the candidate search may skip triangles out of the probe's
    /// rounded reach ([`StepContext::rounded_probe`]); on unless a test
    /// turns it off to compare.
    pub rounded_search: bool,
    /// The caller has just found that this iteration's move reaches some
    /// triangle's box ([`StepContext::reaches_nothing`]): the open-space
    /// shortcut is not tried again (its walk would be wasted; where its
    /// box would still find nothing, the ordered search finds nothing
    /// either and leaves the same record).
    pub open_space_ruled_out: bool,
}

impl StepContext<'_, '_> {
    /// The skin in ellipsoid space across a plane of unit normal `n_e`
    /// (ellipsoid space): the gap to the parallel plane a world `skin` away.
    ///
    /// A plane stays a plane between the spaces, and the world distance
    /// between two parallel ones is their ellipsoid-space distance divided
    /// by `|n_e / radii|`; so the skin is exact in metres whatever the radii
    /// (a thin probe kept `skin / smallest radius` before: 9 cm at 5 cm).
    #[inline]
    pub fn skin_e_across(&self, n_e: DVec3) -> f64 {
        self.settings.skin * (n_e / self.es.radii()).length()
    }

    /// The skin in ellipsoid space along the unit direction `dir_e`: the
    /// ellipsoid-space length whose world length is `skin` (0 for a zero
    /// direction).
    #[inline]
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
    #[inline(always)]
    fn probe_box(&self, center_w: DVec3, slack: f64) -> Aabb {
        let margin = self.es.radii() + DVec3::splat(1e-9 + slack);
        let pad = center_w.abs().max_element() * 1e-12;
        Aabb::from_f64_covering(center_w - margin - pad, center_w + margin + pad)
    }

    /// The probe's box at `start_w` and the box around the whole move by
    /// `vel_w` (shown as the swept query box), world space.
    #[inline(always)]
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

    /// The move from `start_w` by `vel_w` through open space: when the
    /// probe's moving box touches no triangle's box, the box around the
    /// whole move and the counters [`StepContext::sweep_candidates`] would
    /// give (it would visit nothing); otherwise `None`. Summary traces
    /// only: a full trace lists the boxes searched in the ordered search's
    /// order, which this walk does not follow.
    #[inline]
    pub fn open_move(&mut self, start_w: DVec3, vel_w: DVec3) -> Option<(Aabb, QueryStats)> {
        if self.detail != TraceDetail::Summary || self.open_space_ruled_out {
            return None;
        }
        let (start_box, whole_move) = self.move_boxes(start_w, vel_w);
        let mut stats = QueryStats::default();
        let bvh = &self.world.bvh;
        let nothing = bvh.sweep_reaches_nothing(&start_box, vel_w.as_vec3(), &mut stats);
        nothing.then_some((whole_move, stats))
    }

    /// Whether the move from `start_w` by `vel_w` goes through open space,
    /// with nothing kept for a record (no box around the move, no
    /// counters), in any detail.
    ///
    /// The tree is walked with a box built in fewer dependent steps than
    /// [`StepContext::open_move`]'s (see
    /// [`crate::bvh::Bvh::sweep_reaches_nothing_around`]) that still holds
    /// the probe with the same hair and pad, and, along each axis, more
    /// than the rounding of the move to `f32` along it. A triangle it does
    /// not reach is farther than the hair from the probe's whole path, one
    /// the iteration could not hit, so the move arrives exactly where the
    /// recorded iteration takes it; where it reaches one, the caller runs
    /// the recorded iteration (the proptest
    /// `running_to_the_end_ends_where_stepping_ends` holds them together).
    #[inline]
    pub fn reaches_nothing(&mut self, start_w: DVec3, vel_w: DVec3) -> bool {
        // The pad (a millionth of a millionth of the centre's largest
        // coordinate) is part of the walk's own widening; the slack is per
        // axis, a component's rounding being a fraction of it alone.
        let half = self.es.radii() + DVec3::splat(1e-9) + vel_w.abs() * 1e-6;
        self.world
            .bvh
            .sweep_reaches_nothing_around(start_w, half, vel_w.as_vec3())
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
        visit: &mut dyn FnMut(&StepContext<'_, '_>, u32, [Vec3; 3]) -> f64,
    ) -> (Aabb, QueryStats) {
        let (start_box, whole_move) = self.move_boxes(start_w, vel_w);
        let mut stats = QueryStats::default();
        // Moved out for the search so that `visit` can read the context.
        let mut scratch = std::mem::take(&mut *self.scratch);
        let mut visited = std::mem::take(&mut *self.visited);
        visited.clear();
        let this = &*self;
        let full = this.detail == TraceDetail::Full;
        let bvh = &this.world.bvh;
        let delta = vel_w.as_vec3();
        let visited_out = full.then_some(&mut visited);
        match this.rounded_probe(start_w) {
            Some(probe) => bvh.sweep_front_to_back_rounded(
                &start_box,
                delta,
                &probe,
                &mut scratch,
                visited_out,
                &mut stats,
                &mut |tri, corners| visit(this, tri, this.corners(tri, corners)),
            ),
            None => bvh.sweep_front_to_back(
                &start_box,
                delta,
                &mut scratch,
                visited_out,
                &mut stats,
                &mut |tri, corners| visit(this, tri, this.corners(tri, corners)),
            ),
        }
        *self.scratch = scratch;
        *self.visited = visited;
        (whole_move, stats)
    }

    /// The probe centred at `start_w` as its search may round it
    /// ([`crate::bvh::RoundedProbe`]): in a summary trace, for the
    /// ellipsoid and the rounded solids, with [`StepContext::rounded_search`]
    /// on. A triangle it skips lies out of the probe's reach before the
    /// nearest hit so far: its test would have missed, or hit later than
    /// that hit, and changed nothing. A full trace lists every candidate
    /// its box touches, with why it missed, so it keeps the plain search.
    #[inline]
    fn rounded_probe(&self, start_w: DVec3) -> Option<RoundedProbe> {
        if self.detail != TraceDetail::Summary || !self.rounded_search {
            return None;
        }
        let (core_half, radii) = match &self.solid {
            None => (DVec3::ZERO, self.es.radii()),
            Some(solid) => solid.rounding()?,
        };
        Some(RoundedProbe {
            center: start_w,
            core_half,
            radii,
        })
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
    #[inline]
    pub fn triangle_e(&self, tri: u32) -> [DVec3; 3] {
        self.corners_e(self.world.mesh.triangle(tri))
    }

    /// `corners` (world, a triangle's) in ellipsoid space, `f64`.
    #[inline]
    pub fn corners_e(&self, corners: [Vec3; 3]) -> [DVec3; 3] {
        corners.map(|p| self.es.espace_from_world(p.as_dvec3()))
    }

    /// The corners of triangle `tri`: those the tree's search handed over
    /// (the tree keeps them in leaf order, one read with the leaf), or the
    /// mesh's.
    #[inline(always)]
    fn corners(&self, tri: u32, from_tree: Option<&[Vec3; 3]>) -> [Vec3; 3] {
        match from_tree {
            Some(c) => *c,
            None => self.world.mesh.triangle(tri),
        }
    }

    /// Makes `rec` the record of an iteration from `start_w` by `vel_w`:
    /// its inputs filled in, no hit yet, ending where it starts.
    ///
    /// In place, and keeping the capacity of its lists: the solver reuses
    /// one record for every iteration of every move (a record is about a
    /// kilobyte, and building a fresh one and moving it out was most of the
    /// fixed cost of a move through open space). Every field is named here,
    /// so a field added to the record cannot be left stale.
    #[inline]
    pub fn reset_record(&self, rec: &mut IterationRecord, start_w: DVec3, vel_w: DVec3) {
        let es = self.es;
        let IterationRecord {
            index,
            depth,
            pass,
            mode,
            start,
            start_espace,
            velocity,
            velocity_espace,
            destination,
            destination_espace,
            recovery,
            query_aabb,
            bvh_nodes_visited,
            bvh_stats,
            candidates,
            candidate_count,
            nearest,
            ghost_hit,
            sliding_plane,
            slide_vector,
            slide_vector_espace,
            new_destination,
            new_destination_espace,
            crease_direction,
            end,
            end_espace,
            clearance,
            tunnel,
            trigger_events,
            outcome,
        } = rec;
        *index = 0;
        *depth = 0;
        *pass = Pass::Velocity;
        *mode = self.settings.mode;
        *start = start_w;
        *start_espace = es.espace_from_world(start_w);
        *velocity = vel_w;
        *velocity_espace = es.espace_from_world(vel_w);
        *destination = start_w + vel_w;
        *destination_espace = es.espace_from_world(start_w + vel_w);
        *recovery = None;
        *query_aabb = Aabb::EMPTY;
        bvh_nodes_visited.clear();
        *bvh_stats = QueryStats::default();
        candidates.clear();
        *candidate_count = 0;
        *nearest = None;
        *ghost_hit = None;
        *sliding_plane = None;
        *slide_vector = None;
        *slide_vector_espace = None;
        *new_destination = None;
        *new_destination_espace = None;
        *crease_direction = None;
        *end = start_w;
        *end_espace = *start_espace;
        *clearance = None;
        *tunnel = None;
        trigger_events.clear();
        *outcome = IterationOutcome::Continue;
    }

    /// Copies the search results into `rec`: the box around the move, the
    /// counters and how many candidates were tested.
    #[inline]
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
