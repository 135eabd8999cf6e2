//! One frame of a character: named phases, each a run of the one
//! [`SlideSolver`], stepped one iteration per `next()`.
//!
//! The phases, world space (Y up, metres):
//! 1. **velocity**: the horizontal walk for this frame, with unwalkable
//!    contacts steeper than the walkable slope slid along as walls
//!    ([`SlideSolver::with_walls`]); the ellipsoid's curve still rolls
//!    over an edge low enough that its contact there is walkable;
//! 2. **step up / step forward / step down**, tried only when the character
//!    stood on ground and a wall stopped it short: up by the step height
//!    less what the curve rolls over by itself ([`Body::rolling_height`]; every
//!    engine profile but Collidoscope's rises by the whole step height, see
//!    [`ControllerRules`]), so the
//!    step height is the tallest step climbed; forward by the frame's walk,
//!    and over an edge the step can climb far enough to come down on it
//!    within the walkable slope (at least the least tread depth, at most
//!    the riser's height past the walk); down again by what it rose. The
//!    stepped end is kept only if it landed on walkable ground and went
//!    farther than the plain walk, as Quake's `PM_StepSlideMove` and
//!    Source's `StepMove` decide, and no farther along the ground than the
//!    walk plus the height of what it landed on ([`MAX_OVERREACH_M`]);
//! 3. **gravity**: the vertical speed integrated from the acceleration
//!    (and a jump), moved as its own slide; it ends at the first walkable
//!    contact on the way down, so a character stands on a slope it can
//!    walk instead of creeping down it;
//! 4. **snap**: a character that stood on ground at the start of the frame,
//!    did not jump and is now in the air is pulled down onto walkable
//!    ground within the snap distance (walking down stairs and ramps);
//!    without ground there, it stays where it was.
//!
//! Step-down, gravity and snap end at the first walkable contact while
//! moving down: the iterations after it (a slide along the floor) are the
//! solver's, but the frame does not take them.

use super::engine::{
    ClimbingMode, ControllerRules, FloorTest, JOLT_STAIRS_MAX_ANGLE_DEG, NonWalkable, StepForward,
    StepLanding, StepRise, frame_settings,
};
use super::physx_easy::PhysxDownPass;
use super::record::{
    CharacterInput, CharacterState, FrameRecord, Phase, PhaseIteration, StepOutcome, StepRejection,
    WallContact, progress,
};
use super::settings::CharacterSettings;
use super::shape::Body;
use super::unreal;
use crate::bvh::BvhScratch;
use crate::collide::{
    CollisionWorld, IterationRecord, NearestHit, SlideSettings, SlideSolver, TraceDetail, WallRule,
};
use glam::DVec3;

/// How much farther than its walk plus the height it climbed a frame's
/// walk and step-up may carry the character along the ground, metres: a
/// rounding allowance, so that the rule holds to the millimetre.
pub const MAX_OVERREACH_M: f64 = 1e-3;

/// How far above the step height a constrained climb's landing may be,
/// metres: a rounding allowance (a riser exactly the step height climbs).
const CLIMB_TOLERANCE_M: f64 = 1e-4;

/// Where the frame is between phases.
#[derive(Clone, Copy, Debug)]
struct StepTry {
    /// End of the plain walk.
    plain_end: DVec3,
    /// End of the rise.
    up_end: DVec3,
    /// How far the rise was meant to go, metres.
    rise_m: f64,
    /// Jolt's second try: where the first step-down met a contact too
    /// steep to stand on, the body's rest if the try ahead finds a floor.
    rest: Option<DVec3>,
    /// How far the first step-forward moved, horizontally, metres.
    forward_m: f64,
    /// The step-forward's direction (unit, horizontal).
    forward_dir: DVec3,
}

/// What the phase now running has seen.
#[derive(Clone, Copy, Debug, Default)]
struct PhaseSeen {
    /// First walkable contact met moving down: (normal, triangle).
    landing: Option<(DVec3, u32)>,
    /// Its contact point.
    landing_point: Option<DVec3>,
    /// First unwalkable contact met.
    wall: Option<WallContact>,
    /// Whether anything was met at all.
    contact: bool,
    /// A contact facing down met moving up.
    ceiling: bool,
}

/// Steps one character frame, one solver iteration per `next()`; then
/// [`FrameSolver::finish`] gives the frame's record.
pub struct FrameSolver<'w> {
    /// The level, for the rules that look at it beyond the slide's
    /// contacts (Unreal's floor and perch tests, PhysX's down-pass
    /// triangle).
    world: CollisionWorld<'w>,
    /// Search buffers for those rules.
    scratch: BvhScratch,
    tris: Vec<u32>,
    slide: SlideSettings,
    ch: CharacterSettings,
    /// The body the walk rules measure (its shape under the profile).
    body: Body,
    /// The profile's rules.
    rules: ControllerRules,
    /// PhysX's down pass under `eEASY` climbing
    /// ([`ControllerRules::climbs_as_physx_easy`]); `None` otherwise.
    physx_down: Option<PhysxDownPass>,
    index: u32,
    before: CharacterState,
    walk: DVec3,
    jumped: bool,
    // The frame so far.
    position: DVec3,
    vertical_speed: f64,
    grounded: bool,
    ground: Option<(DVec3, u32)>,
    step: StepOutcome,
    step_try: Option<StepTry>,
    snapped: bool,
    wall: Option<WallContact>,
    // The phase now running.
    phase: Phase,
    /// The one solver every phase of the frame runs on, each a move of its
    /// own ([`SlideSolver::start_move`]); `None` if it cannot be made.
    solver: Option<SlideSolver<'w>>,
    /// Whether a phase's move is under way on `solver`.
    running: bool,
    seen: PhaseSeen,
    done: bool,
    iterations: Vec<PhaseIteration>,
}

impl<'w> FrameSolver<'w> {
    /// Frame `index` of a character in `state` with `settings` (the slide
    /// settings and their `character` section) and `input`. `None` when the
    /// settings are invalid or the state is not finite. The settings'
    /// per-move `gravity` is not used: the character falls by its own
    /// acceleration, in its own phase.
    pub fn new(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        state: &CharacterState,
        input: CharacterInput,
        index: u32,
        detail: TraceDetail,
    ) -> Option<Self> {
        Self::with_trigger_events(world, settings, state, input, index, detail, true)
    }

    /// [`FrameSolver::new`], with the iterations' trigger events recorded
    /// or not ([`SlideSolver::set_trigger_events`]). Batch work that reads
    /// only where frames end (maps, level checks) turns them off: the
    /// motion is the same, and each iteration saves the trigger search.
    pub fn with_trigger_events(
        world: CollisionWorld<'w>,
        settings: &SlideSettings,
        state: &CharacterState,
        input: CharacterInput,
        index: u32,
        detail: TraceDetail,
        trigger_events: bool,
    ) -> Option<Self> {
        settings.validate().ok()?;
        let ch = settings.character.clone();
        let mut slide = frame_settings(settings);
        slide.gravity = [0.0; 3];
        let solver = SlideSolver::reusable(world, &slide, detail)
            .ok()
            .map(|mut s| {
                if !trigger_events {
                    // Before any move starts, so no trigger search runs.
                    s.set_trigger_events(false);
                }
                s
            });
        let rules = ControllerRules::for_character(&ch);
        let mut frame = FrameSolver {
            world,
            scratch: BvhScratch::default(),
            tris: Vec::new(),
            body: Body::of(settings),
            rules,
            physx_down: rules.climbs_as_physx_easy().then(PhysxDownPass::default),
            slide,
            index,
            before: *state,
            walk: DVec3::ZERO,
            jumped: false,
            position: state.position,
            vertical_speed: 0.0,
            grounded: false,
            ground: None,
            step: StepOutcome::NotTried,
            step_try: None,
            snapped: false,
            wall: None,
            phase: Phase::Velocity,
            solver,
            running: false,
            seen: PhaseSeen::default(),
            done: false,
            iterations: Vec::new(),
            ch,
        };
        frame.restart(state, input, index).then_some(frame)
    }

    /// Makes this the frame `index` of the character in `state` with
    /// `input`, as [`FrameSolver::with_trigger_events`] would with the
    /// same world and settings, keeping what the last frame set up (the
    /// checked settings, the solver and its buffers): for a walk of many
    /// frames. Drops whatever frame was under way. `false`, and nothing to
    /// run, when the state or the input is not finite.
    pub fn restart(&mut self, state: &CharacterState, input: CharacterInput, index: u32) -> bool {
        if !(state.position.is_finite()
            && state.vertical_speed_m_s.is_finite()
            && input.wish_dir.is_finite())
        {
            self.running = false;
            self.done = true;
            return false;
        }
        let ch = &self.ch;
        let dt = ch.frame_time_s();
        let wish = DVec3::new(input.wish_dir.x, 0.0, input.wish_dir.z);
        let wish = if wish.length() > 1.0 {
            wish.normalize()
        } else {
            wish
        };
        let walk = wish * ch.walk_speed_m_s * dt;
        let jumped = input.jump && state.grounded;
        self.index = index;
        self.before = *state;
        self.walk = walk;
        self.jumped = jumped;
        self.position = state.position;
        self.vertical_speed = if jumped {
            ch.jump_speed_m_s
        } else {
            state.vertical_speed_m_s
        };
        self.grounded = state.grounded && !jumped;
        self.ground = None;
        self.step = StepOutcome::NotTried;
        self.step_try = None;
        self.snapped = false;
        self.wall = None;
        self.phase = Phase::Velocity;
        self.running = false;
        self.seen = PhaseSeen::default();
        self.done = false;
        self.iterations.clear();
        if walk.length() >= self.slide.min_move {
            self.start_phase(Phase::Velocity, state.position, walk);
        } else {
            self.start_gravity();
        }
        true
    }

    /// Whether every phase has run.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Runs what is left and returns the frame's record.
    pub fn finish(mut self) -> FrameRecord {
        self.finish_frame()
    }

    /// [`FrameSolver::finish`], keeping the solver for the next frame
    /// ([`FrameSolver::restart`]); the record takes the frame's iterations.
    pub fn finish_frame(&mut self) -> FrameRecord {
        while self.advance() {}
        let after = CharacterState {
            position: self.position,
            vertical_speed_m_s: self.vertical_speed,
            grounded: self.grounded,
            ground_normal: self.ground.map(|g| g.0),
            ground_triangle: self.ground.map(|g| g.1),
        };
        FrameRecord {
            index: self.index,
            before: self.before,
            after,
            walk: self.walk,
            jumped: self.jumped,
            step: self.step,
            snapped: self.snapped,
            wall: self.wall,
            iterations: std::mem::take(&mut self.iterations),
        }
    }

    fn start_phase(&mut self, phase: Phase, from: DVec3, velocity: DVec3) {
        self.phase = phase;
        self.seen = PhaseSeen::default();
        // PhysX's `eEASY` side pass slides along every contact as it is
        // (`SweepTest::doSweepTest`): no walls in its step-forward.
        let as_contacts = phase == Phase::StepForward && self.rules.climbs_as_physx_easy();
        let walls = (matches!(phase, Phase::Velocity | Phase::StepForward) && !as_contacts)
            .then_some(WallRule {
                floor_min_up: self.ch.floor_min_up(),
            });
        self.running = self.solver.as_mut().is_some_and(|s| {
            s.set_walls(walls);
            s.start_move(from, velocity)
        });
        if !self.running {
            // Only a non-finite sum can refuse here: end the frame in place.
            self.done = true;
        }
    }

    fn start_gravity(&mut self) {
        let dt = self.ch.frame_time_s();
        let g = self.ch.gravity_m_s2;
        self.vertical_speed = if self.grounded && !self.jumped {
            // Standing: the fall starts afresh each frame.
            -g * dt
        } else {
            self.vertical_speed - g * dt
        }
        .max(-self.ch.max_fall_speed_m_s);
        let fall = DVec3::new(0.0, self.vertical_speed * dt, 0.0);
        self.start_phase(Phase::Gravity, self.position, fall);
    }

    /// Notes what a record of the running phase met; `true` when the phase
    /// ends with it (a walkable landing while moving down).
    fn observe(&mut self, rec: &IterationRecord) -> bool {
        let Some(hit) = rec.nearest else {
            return false;
        };
        self.seen.contact = true;
        let normal = hit.contact_normal;
        let walkable = normal.y >= self.ch.floor_min_up();
        // PhysX's `ePREVENT_CLIMBING`: the fall stops at its first contact
        // facing up, however steep (`SweepTest::moveCharacter`'s down pass
        // runs one iteration unless it force-slides), and the character
        // stands there.
        let stands = walkable
            || (self.phase == Phase::Gravity
                && self.rules.non_walkable == NonWalkable::PreventClimbing
                && normal.y > 0.0);
        // Unreal judges the floor by the face it met (`FindFloor`); the
        // ground's normal is then that face's.
        let unreal_floor = self.rules.floor == FloorTest::UnrealFaceNormal
            && matches!(self.phase, Phase::StepDown | Phase::Gravity | Phase::Snap)
            && rec.velocity.y < 0.0
            && self.seen.landing.is_none();
        let (stands, ground_normal) = if unreal_floor {
            match self.unreal_floor_normal(&hit, rec.velocity) {
                Some(face) => (true, face),
                None => (false, normal),
            }
        } else {
            (stands, normal)
        };
        if rec.velocity.y < 0.0 && self.seen.landing.is_none() {
            let landing = if stands {
                Some((ground_normal, hit.triangle))
            } else {
                self.physx_down_pass_stands(hit.contact_point, hit.contact_center)
            };
            if landing.is_some() {
                self.seen.landing = landing;
                self.seen.landing_point = Some(hit.contact_point);
            }
        }
        if !walkable && self.seen.wall.is_none() {
            self.seen.wall = Some(WallContact {
                triangle: hit.triangle,
                normal,
                point: hit.contact_point,
            });
        }
        if rec.velocity.y > 0.0 && normal.y < 0.0 {
            self.seen.ceiling = true;
        }
        let first_contact = matches!(
            self.rules.landing,
            StepLanding::FirstContactOrFloorAhead { .. }
        ) && self.phase == Phase::StepDown
            && rec.velocity.y < 0.0;
        (self.seen.landing.is_some() || first_contact)
            && matches!(self.phase, Phase::StepDown | Phase::Gravity | Phase::Snap)
    }

    /// Under PhysX's `eEASY` climbing, in the step-down and the fall: the
    /// triangle PhysX's down pass reports at `point` (the body centred at
    /// `center`) and its normal, when the down pass stands on it though
    /// the contact itself is too steep (a riser's edge over a walkable
    /// tread, a steep triangle whose top is within the step offset; see
    /// [`super::physx_easy`]).
    fn physx_down_pass_stands(&mut self, point: DVec3, center: DVec3) -> Option<(DVec3, u32)> {
        if !matches!(self.phase, Phase::StepDown | Phase::Gravity) {
            return None;
        }
        let down = self.physx_down.as_mut()?;
        let feet_y = self.before.position.y - self.body.half_height();
        let found = down.judge(
            self.world,
            point,
            center,
            feet_y,
            self.ch.floor_min_up(),
            self.ch.max_step_height_m,
        )?;
        found.accepted.then_some((found.normal, found.triangle))
    }

    /// The running phase ended at `end`: decide what comes next.
    fn end_phase(&mut self, end: DVec3) {
        self.running = false;
        match self.phase {
            Phase::Velocity => {
                self.position = end;
                self.wall = self.seen.wall;
                let short = progress(self.before.position, end, self.walk)
                    < self.walk.length() * (1.0 - 1e-3);
                let dir = self.walk.normalize_or_zero();
                let rise = match self.rules.rise {
                    StepRise::LessRolling => {
                        self.ch.max_step_height_m
                            - self.body.rolling_height(dir, self.ch.max_slope_deg)
                    }
                    StepRise::Full => self.ch.max_step_height_m,
                };
                let stepping = self.rules.step_up && self.grounded && rise > 0.0;
                if stepping && self.seen.wall.is_some() && short {
                    self.step_try = Some(StepTry {
                        plain_end: end,
                        up_end: end,
                        rise_m: rise,
                        rest: None,
                        forward_m: 0.0,
                        forward_dir: dir,
                    });
                    let from = if self.rules.rise_from_stop {
                        end
                    } else {
                        self.before.position
                    };
                    let rise = DVec3::new(0.0, rise, 0.0);
                    self.start_phase(Phase::StepUp, from, rise);
                } else {
                    self.start_gravity();
                }
            }
            Phase::StepUp => self.after_step_up(end),
            Phase::StepForward => {
                if self.rules.forward == StepForward::MinWidth && self.seen.contact {
                    // Rapier: something in the way of the tread cast.
                    self.reject_step(StepRejection::NarrowTread);
                    return;
                }
                if let Some(t) = self.step_try.as_mut() {
                    let moved = (end - t.up_end).with_y(0.0).length();
                    if t.rest.is_none() {
                        t.forward_m = moved;
                    } else if moved <= t.forward_m + 1e-4 {
                        // Jolt: the try ahead got no farther than the step.
                        self.reject_step(StepRejection::NoWalkableLanding);
                        return;
                    }
                }
                // Down by the rise and two skins: back to the floor it
                // started on if nothing higher is under it. Unreal's
                // `StepUp` steps down by `MaxStepHeight` and twice
                // `MAX_FLOOR_DIST`, whatever the rise.
                let up_end = self.step_try.map_or(end, |t| t.up_end);
                let rose = up_end.y - self.before.position.y;
                let down = match self.rules.floor {
                    FloorTest::UnrealFaceNormal => {
                        self.ch.max_step_height_m + 2.0 * unreal::MAX_FLOOR_DIST_M
                    }
                    FloorTest::ContactNormal => rose + 2.0 * self.slide.skin,
                };
                let drop = DVec3::new(0.0, -down, 0.0);
                self.start_phase(Phase::StepDown, end, drop);
            }
            Phase::StepDown => self.after_step_down(end),
            Phase::Gravity => {
                self.position = end;
                if self.seen.ceiling && self.vertical_speed > 0.0 {
                    self.vertical_speed = 0.0;
                }
                self.land_or_fly(self.seen.landing);
                let may_snap = self.before.grounded && !self.jumped && self.vertical_speed <= 0.0;
                let snap_m = self.rules.snap_m(&self.ch);
                if !self.grounded && may_snap && snap_m > 0.0 {
                    let snap = DVec3::new(0.0, -snap_m, 0.0);
                    self.start_phase(Phase::Snap, end, snap);
                } else {
                    self.done = true;
                }
            }
            Phase::Snap => {
                if let Some(landing) = self.seen.landing {
                    self.position = end;
                    self.snapped = true;
                    self.land_or_fly(Some(landing));
                }
                self.done = true;
            }
        }
    }

    fn after_step_up(&mut self, end: DVec3) {
        let rose = end.y - self.before.position.y;
        let wanted = self.step_try.map_or(0.0, |t| t.rise_m);
        let short = self.rules.needs_full_rise && rose < wanted - 2.0 * self.slide.skin - 1e-6;
        if rose < self.slide.min_move.max(1e-6) || short {
            self.reject_step(StepRejection::NoHeadroom);
            return;
        }
        if let Some(t) = self.step_try.as_mut() {
            t.up_end = end;
        }
        let dir = self.walk.normalize_or_zero();
        let walk = self.walk.length();
        // Coming down, the ellipsoid must meet the riser's edge (the wall
        // contact of the plain walk) within the part of its curve that is
        // walkable, or it lands on the edge too steeply to stand.
        // The edge is met at its nearest point, square to it: walking at
        // an angle to it closes that distance more slowly. Walking along
        // it (a wall beside the walk), there is nothing to reach over; and
        // the reach never goes past the riser by more than the body's own
        // radius, so a glancing contact cannot throw the character ahead.
        //
        // Only an edge the step can climb is reached over: a contact higher
        // above the feet than the step height is a wall's face, not a
        // riser's edge, and reaching past the walk there only slides the
        // character along the wall. And the reach past the walk is at most
        // the riser's height (the contact's height above the feet), the
        // rise that pays for it (see [`MAX_OVERREACH_M`]).
        match self.rules.forward {
            StepForward::ReachOverEdge => {}
            StepForward::Walk => {
                // Jolt (`ExtendedUpdate`): from where the plain walk
                // stopped, what is left of the walk, at least the least
                // tread, square to the riser met within 75° of the walk.
                let plain = self.step_try.map_or(0.0, |t| {
                    progress(self.before.position, t.plain_end, self.walk)
                });
                let reach = (walk - plain.max(0.0)).max(self.ch.min_tread_depth_m);
                let toward = self.jolt_stairs_direction(dir);
                if let Some(t) = self.step_try.as_mut() {
                    t.forward_dir = toward;
                }
                self.start_phase(Phase::StepForward, end, toward * reach);
                return;
            }
            StepForward::MinWidth => {
                // Rapier's cast: the least tread and the offset, from
                // where the walk hit the riser.
                let reach = self.ch.min_tread_depth_m + self.slide.skin;
                self.start_phase(Phase::StepForward, end, dir * reach);
                return;
            }
            StepForward::Remaining => {
                // Unreal's `StepUp`: the rest of the walk (`Delta` times
                // the time left), along the walk.
                let plain = self.step_try.map_or(0.0, |t| {
                    progress(self.before.position, t.plain_end, self.walk)
                });
                let reach = (walk - plain.max(0.0)).max(0.0);
                self.start_phase(Phase::StepForward, end, dir * reach);
                return;
            }
        }
        // Rising by the whole step, the body's curve rides over what it
        // rolls over on top of that.
        let climbable = match (self.rules.rise, self.rules.climbing) {
            (StepRise::Full, ClimbingMode::Easy) => {
                self.ch.max_step_height_m + self.body.rolling_height(dir, self.ch.max_slope_deg)
            }
            _ => self.ch.max_step_height_m,
        };
        let riser = match (self.step_try, self.wall) {
            (Some(t), Some(wall)) => {
                let feet = t.plain_end.y - self.body.half_height();
                let height = wall.point.y - feet;
                (height <= climbable + self.slide.skin).then_some((t, wall, height))
            }
            _ => None,
        };
        let reach = match riser {
            Some((t, wall, height)) => {
                let to_riser = progress(self.before.position, t.plain_end, self.walk);
                let offset = wall.point - t.plain_end;
                let flat = DVec3::new(offset.x, 0.0, offset.z);
                let toward = flat.normalize_or(dir);
                let facing = dir.dot(toward);
                let perch = self.body.perch_radius(toward, 0.9 * self.ch.max_slope_deg);
                let needed = (flat.length() - perch + 2.0 * self.slide.skin) / facing;
                let over_edge = if facing < 0.5 {
                    0.0
                } else {
                    to_riser + needed.clamp(0.0, self.body.radius_along(dir))
                };
                let wanted = over_edge.max(self.ch.min_tread_depth_m);
                walk + (wanted - walk).clamp(0.0, height.max(0.0))
            }
            None => walk,
        };
        let forward = dir * reach;
        self.start_phase(Phase::StepForward, end, forward);
    }

    fn after_step_down(&mut self, end: DVec3) {
        let Some(t) = self.step_try else {
            self.start_gravity();
            return;
        };
        if let (StepLanding::FirstContactOrFloorAhead { test_m }, None, Some(_)) =
            (self.rules.landing, self.seen.landing, self.seen.wall)
        {
            // Jolt: came down on something too steep (the riser's edge).
            match t.rest {
                None => {
                    // Try again farther ahead from the top of the rise.
                    self.step_try = Some(StepTry {
                        rest: Some(end),
                        ..t
                    });
                    let ahead = t.forward_dir * test_m;
                    self.start_phase(Phase::StepForward, t.up_end, ahead);
                }
                Some(_) => self.reject_step(StepRejection::NoWalkableLanding),
            }
            return;
        }
        let Some(landing) = self.seen.landing else {
            self.reject_step(StepRejection::NoWalkableLanding);
            return;
        };
        // Jolt: the try ahead found a floor; the body rests where the
        // first step-down met the edge.
        let end = t.rest.unwrap_or(end);
        let stepped = progress(self.before.position, end, self.walk);
        let plain = progress(self.before.position, t.plain_end, self.walk);
        if stepped <= plain + 1e-6 {
            self.reject_step(StepRejection::NoProgress);
            return;
        }
        // A step moves the character no farther along the ground than its
        // walk plus the height of what it climbed (the ground it landed
        // on, above its feet): anything more came from sliding along a
        // wall at the raised height, not from climbing.
        let feet = self.before.position.y - self.body.half_height();
        let riser = self.seen.landing_point.map_or(0.0, |p| p.y - feet);
        // PhysX's `eCONSTRAINED` climbing: a riser's edge higher than the
        // step height above the feet cancels the climb, however far the
        // round body rode over it (`SweepTest::moveCharacter`, the
        // "constrainedClimbingMode" test after the down pass).
        if self.rules.climbing == ClimbingMode::Constrained
            && self.rules.rise == StepRise::Full
            && riser > self.ch.max_step_height_m + CLIMB_TOLERANCE_M
        {
            self.reject_step(StepRejection::NoWalkableLanding);
            return;
        }
        // Unreal's `StepUp`: a landing more than `MaxStepHeight` above the
        // floor it stood on is refused ("step up height too high").
        if self.rules.floor == FloorTest::UnrealFaceNormal
            && riser > self.ch.max_step_height_m + CLIMB_TOLERANCE_M
        {
            self.reject_step(StepRejection::NoWalkableLanding);
            return;
        }
        let moved = (end - self.before.position).with_y(0.0).length();
        let limit = self.walk.length() + riser.max(0.0) + MAX_OVERREACH_M;
        if self.rules.limit_overreach && moved > limit {
            self.reject_step(StepRejection::BeyondWalk);
            return;
        }
        self.position = end;
        self.step = StepOutcome::Stepped {
            height_m: end.y - self.before.position.y,
            riser_m: riser,
        };
        self.land_or_fly(Some(landing));
        if matches!(
            self.rules.landing,
            StepLanding::FirstContactOrFloorAhead { .. }
        ) {
            // Jolt's `WalkStairs` is the last part of `ExtendedUpdate`: the
            // character stands where it came down, on ground, until the
            // next frame.
            self.vertical_speed = 0.0;
            self.done = true;
            return;
        }
        // On the step: gravity starts afresh, as for anyone standing.
        self.start_gravity();
    }

    /// Jolt's stair direction (`ExtendedUpdate`): square into the wall
    /// the plain walk met, horizontally, when that is within
    /// [`JOLT_STAIRS_MAX_ANGLE_DEG`] of the walk's direction `dir`;
    /// otherwise `dir`.
    fn jolt_stairs_direction(&self, dir: DVec3) -> DVec3 {
        let Some(wall) = self.wall else {
            return dir;
        };
        let into = (-wall.normal).with_y(0.0).normalize_or_zero();
        if into.dot(dir) > JOLT_STAIRS_MAX_ANGLE_DEG.to_radians().cos() {
            into
        } else {
            dir
        }
    }

    /// Unreal's floor test (`FindFloor`) of `hit`, met moving along
    /// `motion`: the face normal it stands on, or `None` when it is no
    /// floor: met on the body's side (`IsWithinEdgeTolerance`), beyond the
    /// perch radius without floor close enough below (`ComputePerchResult`),
    /// or a face too steep (`IsWalkable` on the `ImpactNormal`).
    fn unreal_floor_normal(&mut self, hit: &NearestHit, motion: DVec3) -> Option<DVec3> {
        let center = hit.contact_center;
        let point = hit.contact_point;
        let toward = (point - center).with_y(0.0).normalize_or(DVec3::X);
        let radius = self.body.radius_along(toward);
        if !unreal::within_edge_tolerance(center, point, radius) {
            return None;
        }
        let face =
            unreal::impact_normal(&self.world, hit, motion, &mut self.scratch, &mut self.tris);
        let threshold = self.ch.perch_radius_threshold_m;
        if unreal::needs_perch_test(center, point, radius, threshold) {
            let query = unreal::PerchQuery {
                center,
                point,
                max_step_height_m: self.ch.max_step_height_m,
                perch_additional_height_m: self.ch.perch_additional_height_m,
                perch_radius_threshold_m: threshold,
                walking: self.before.grounded && !self.jumped,
                floor_min_up: self.ch.floor_min_up(),
            };
            let perched = unreal::perch_floor_found(
                self.world,
                &self.slide,
                &self.body,
                &query,
                &mut self.scratch,
                &mut self.tris,
            );
            // A perch stands even on an edge whose face is too steep.
            return perched.then_some(face);
        }
        (face.y >= self.ch.floor_min_up()).then_some(face)
    }

    fn reject_step(&mut self, reason: StepRejection) {
        self.step = StepOutcome::Rejected { reason };
        if let Some(t) = self.step_try {
            self.position = t.plain_end;
        }
        self.start_gravity();
    }

    fn land_or_fly(&mut self, landing: Option<(DVec3, u32)>) {
        self.ground = landing;
        self.grounded = landing.is_some();
        if self.grounded && self.vertical_speed < 0.0 {
            self.vertical_speed = 0.0;
        }
    }
}

impl FrameSolver<'_> {
    /// Runs one solver iteration and appends it to the frame's list;
    /// `false` once every phase has run.
    fn advance(&mut self) -> bool {
        loop {
            if self.done {
                return false;
            }
            let Some(solver) = self.solver.as_mut().filter(|_| self.running) else {
                self.done = true;
                return false;
            };
            let Some(record) = solver.next() else {
                let end = SlideSolver::position(solver);
                self.end_phase(end);
                continue;
            };
            let solver_done = solver.finished().is_some();
            let phase_ends = self.observe(&record) || solver_done;
            let end = record.end;
            self.iterations.push(PhaseIteration {
                frame: self.index,
                phase: self.phase,
                record,
            });
            if phase_ends {
                self.end_phase(end);
            }
            return true;
        }
    }
}

impl Iterator for FrameSolver<'_> {
    type Item = PhaseIteration;

    /// One solver iteration of the frame (a copy; the frame keeps its own
    /// list for [`FrameSolver::finish`]).
    fn next(&mut self) -> Option<PhaseIteration> {
        self.advance()
            .then(|| self.iterations.last().cloned())
            .flatten()
    }
}
