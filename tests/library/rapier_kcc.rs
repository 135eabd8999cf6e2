//! Rapier's own `KinematicCharacterController` (rapier3d 0.36.1 from
//! crates.io, built on parry3d 0.31 as this crate's parry tests are) walking
//! the walks `check` walks, configured as a user pasting Collidoscope's
//! Rapier export (`settings export --for rapier`,
//! `src/export/engines/rapier.rs`) would have it. Shared by the agreement
//! tests (`rapier_peer.rs`) and the `character_frames_vs_rapier` and
//! `map` benches (which include this file by `#[path]`). Y up, metres; Rapier is `f32`.
//!
//! # The settings, as the export writes them
//!
//! A capsule along Y (`SharedShape::capsule_y`, half the straight part and
//! the radius; a ball when the straight part is zero) of radius the larger
//! horizontal radius and total height twice the vertical radius, centred
//! on the probe's position; `offset` = `skin` (`CharacterLength::Absolute`;
//! Rapier's default 1 % of the height when the skin is zero, as the export
//! warns); `slide: true`; `autostep: Some(CharacterAutostep { max_height:
//! max_step_height_m, min_width: min_tread_depth_m, include_dynamic_bodies:
//! true })` (none for a zero step); `max_slope_climb_angle` =
//! `min_slope_slide_angle` = `max_slope_deg` in radians; `snap_to_ground:
//! Some(Absolute(snap_distance_m))` (none for zero); `up` +Y and
//! `normal_nudge_factor` 1e-4 (Rapier's defaults). The level is one fixed
//! trimesh collider (`ColliderBuilder::trimesh`, no flags: every triangle
//! as it is, both sides collide) of the triangles that collide (objects
//! the settings' `[level] non_colliding` patterns name are left out).
//!
//! # A frame, as a game loop drives Rapier
//!
//! Per frame: the horizontal walk `walk_speed_m_s / frame_rate_hz` along
//! the walk's direction, plus the fall `v dt`, where the vertical speed `v`
//! starts afresh at `-g dt` on ground and otherwise gains `-g dt`, no
//! faster than `max_fall_speed_m_s` (Collidoscope's frame does the same,
//! `src/character/frame.rs` `start_gravity`); one `move_shape` call with
//! that translation; the returned translation applied; `grounded` is
//! Rapier's. What decides the verdicts, in
//! `rapier3d-0.36.1/src/control/character_controller.rs`:
//!
//! - `move_shape`: up to 20 casts of the whole remaining translation
//!   (walk and fall together, one move, not Collidoscope's separate walk
//!   and gravity phases), each stopped `offset` short of the first hit
//!   (`ShapeCastOptions::target_distance`); after a hit, `handle_stairs`
//!   and otherwise `handle_slopes` reshape the rest.
//! - `compute_hit_info`: a hit is a *wall* when its normal is at least
//!   `max_slope_climb_angle` from up and does not face down, a *non-slip
//!   slope* when within `min_slope_slide_angle`. The angle is the contact
//!   normal's: the capsule's round bottom on a riser's top edge gets a
//!   normal leaning back by where it touches, so an edge low enough on the
//!   cap is no wall and the slide rides over it (as Collidoscope's
//!   ellipsoid rolls over one).
//! - `handle_stairs` (autostep; only for a wall hit, only the horizontal
//!   part of what is left): refuses when a cast *up* by `max_height +
//!   offset` hits anything (`We can't go up`), when a cast *forward* from
//!   that height by `min_width + offset` hits (`not enough room on the
//!   stair`), or when the ground found by a cast *down* from there is
//!   steeper than `max_slope_climb_angle` while climbing; otherwise rises
//!   by `max_height + offset` less that cast's distance, moves forward by
//!   at most `min_width` (no cast: the step is taken as found), and takes
//!   the rise off what is left to move (`*translation_remaining -= step`):
//!   the rest of the move comes down again. With a small `min_width` (the
//!   exported 2 cm) the capsule is then still over the riser's edge, on
//!   its round bottom where the contact leans more than the slope limit,
//!   and that move down slides it back off the edge (`handle_slopes`,
//!   below): Rapier then climbs only what the capsule's curve rolls over by
//!   itself. This is the first cause of disagreement in BENCHMARKS.md. It
//!   runs whether or not the character stands on ground (no grounded
//!   test); the cast down reaching nothing steps by zero height but still
//!   moves forward.
//! - `handle_slopes`: on a wall the slide keeps the horizontal tangent and
//!   drops the part that would climb it (unless the input itself climbs);
//!   on a non-slip slope the part that would slide down is dropped;
//!   otherwise the rest slides freely (a move down against a contact
//!   steeper than `min_slope_slide_angle` slides down it).
//! - `detect_grounded_status_and_apply_friction` /
//!   `is_grounded_at_contact_manifold`: grounded when any contact within
//!   `offset + 0.05` m (`predict_ground`) has a normal less than 89.94° from
//!   up: any surface not vertical, walkable or not, within 5 cm.
//! - `snap_to_ground`: only when grounded at the start of the call and the
//!   move did not rise (`translation.dot(up) <= 0`): a cast down by the
//!   snap distance, applied in full wherever it hits (walkable or not).
//!
//! Not used: depenetration (`check_and_fix_penetrations` runs only for a
//! zero translation, which a walk never asks), kinematic platforms and
//! dynamic bodies (a level has none).

use collidoscope::character::{
    CharacterState, FrameRecord, StepOutcome, Walk, WalkSpec, WalkSummary, WallContact,
};
use collidoscope::collide::{CollisionWorld, SlideSettings};
use collidoscope::level::Level;
use glam::DVec3;
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::parry::query::PointQueryWithLocation;
use rapier3d::parry::shape::TriMesh as ParryTriMesh;
use rapier3d::prelude::*;

/// A level as one fixed trimesh collider in Rapier's broad phase.
pub struct RapierLevel {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    /// The level's mesh, for the triangle a wall contact lies on.
    mesh: ParryTriMesh,
    /// Rapier's triangle `i` is the level's triangle `triangle_of[i]`.
    triangle_of: Vec<u32>,
}

impl RapierLevel {
    /// The triangles of `level` that collide in `world`.
    pub fn new(level: &Level, world: CollisionWorld<'_>) -> Self {
        let mesh = level.mesh();
        let vertices: Vec<Vector> = mesh
            .positions()
            .iter()
            .map(|p| Vector::new(p.x, p.y, p.z))
            .collect();
        let mut indices = Vec::new();
        let mut triangle_of = Vec::new();
        for (i, t) in mesh.triangles().iter().enumerate() {
            if world.triangle_collides(i as u32) {
                indices.push(*t);
                triangle_of.push(i as u32);
            }
        }
        let trimesh = ParryTriMesh::new(vertices.clone(), indices.clone()).expect("a mesh");
        let mut colliders = ColliderSet::new();
        let handle = colliders.insert(
            ColliderBuilder::trimesh(vertices, indices)
                .expect("a mesh")
                .build(),
        );
        let mut broad_phase = BroadPhaseBvh::new();
        let aabb = colliders[handle].compute_aabb();
        broad_phase.set_aabb(&IntegrationParameters::default(), handle, aabb);
        RapierLevel {
            bodies: RigidBodySet::new(),
            colliders,
            broad_phase,
            narrow_phase: NarrowPhase::new(),
            mesh: trimesh,
            triangle_of,
        }
    }

    /// The scene queries `move_shape` takes.
    pub fn queries(&self) -> QueryPipeline<'_> {
        self.broad_phase.as_query_pipeline(
            self.narrow_phase.query_dispatcher(),
            &self.bodies,
            &self.colliders,
            QueryFilter::default(),
        )
    }

    /// The level's triangle nearest `p` (a contact point).
    fn triangle_at(&self, p: Vector) -> u32 {
        let (_, (i, _)) = self.mesh.project_local_point_and_get_location(p, false);
        self.triangle_of.get(i as usize).copied().unwrap_or(0)
    }
}

/// The character: Rapier's controller, its capsule and the loop constants.
pub struct RapierCharacter {
    /// The controller as the export writes it.
    pub controller: KinematicCharacterController,
    /// The capsule (or ball) collider shape.
    pub shape: SharedShape,
    dt: f64,
    walk_speed: f64,
    gravity: f64,
    max_fall: f64,
    floor_min_up: f64,
}

impl RapierCharacter {
    /// The character of `settings`, as `settings export --for rapier`.
    pub fn new(settings: &SlideSettings) -> Self {
        let c = &settings.character;
        let [rx, ry, rz] = settings.radii;
        let radius = rx.max(rz);
        // An ellipsoid wider than tall is a ball of the radius (the export).
        let half_straight = (ry - radius).max(0.0);
        let shape = if half_straight > 0.0 {
            SharedShape::capsule_y(half_straight as f32, radius as f32)
        } else {
            SharedShape::ball(radius as f32)
        };
        let offset = if settings.skin > 0.0 {
            CharacterLength::Absolute(settings.skin as f32)
        } else {
            CharacterLength::Relative(0.01)
        };
        let autostep = (c.max_step_height_m > 0.0).then_some(CharacterAutostep {
            max_height: CharacterLength::Absolute(c.max_step_height_m as f32),
            min_width: CharacterLength::Absolute(c.min_tread_depth_m as f32),
            include_dynamic_bodies: true,
        });
        let slope = c.max_slope_deg.to_radians() as f32;
        let controller = KinematicCharacterController {
            offset,
            slide: true,
            autostep,
            max_slope_climb_angle: slope,
            min_slope_slide_angle: slope,
            snap_to_ground: (c.snap_distance_m > 0.0)
                .then_some(CharacterLength::Absolute(c.snap_distance_m as f32)),
            ..KinematicCharacterController::default()
        };
        RapierCharacter {
            controller,
            shape,
            dt: c.frame_time_s(),
            walk_speed: c.walk_speed_m_s,
            gravity: c.gravity_m_s2,
            max_fall: c.max_fall_speed_m_s,
            floor_min_up: c.floor_min_up(),
        }
    }

    /// How many frames `spec` runs (as `walk` counts them).
    pub fn frames_of(&self, spec: &WalkSpec) -> u32 {
        (spec.seconds / self.dt).ceil() as u32
    }

    /// One frame from `state`, walking `walk` (metres this frame). Returns
    /// the state after it and the first unwalkable contact met.
    pub fn frame(
        &self,
        level: &RapierLevel,
        queries: &QueryPipeline<'_>,
        state: &CharacterState,
        walk: DVec3,
    ) -> (CharacterState, Option<WallContact>) {
        let v = if state.grounded {
            -self.gravity * self.dt
        } else {
            state.vertical_speed_m_s - self.gravity * self.dt
        }
        .max(-self.max_fall);
        let desired = walk + DVec3::Y * (v * self.dt);
        let p = state.position;
        let pose = Pose::from_translation(Vector::new(p.x as f32, p.y as f32, p.z as f32));
        let mut wall: Option<(Vector, Vector)> = None;
        let moved = self.controller.move_shape(
            self.dt as f32,
            queries,
            &*self.shape,
            &pose,
            Vector::new(desired.x as f32, desired.y as f32, desired.z as f32),
            |c| {
                let n = c.hit.normal1;
                if wall.is_none() && f64::from(n.y) < self.floor_min_up {
                    wall = Some((n, c.hit.witness1));
                }
            },
        );
        let end = pose.translation + moved.translation;
        let after = CharacterState {
            position: DVec3::new(end.x.into(), end.y.into(), end.z.into()),
            vertical_speed_m_s: if moved.grounded { 0.0 } else { v },
            grounded: moved.grounded,
            ground_normal: None,
            ground_triangle: None,
        };
        let wall = wall.map(|(n, at)| WallContact {
            triangle: level.triangle_at(at),
            normal: DVec3::new(n.x.into(), n.y.into(), n.z.into()).normalize_or_zero(),
            point: DVec3::new(at.x.into(), at.y.into(), at.z.into()),
        });
        (after, wall)
    }

    /// Walks `spec` through `level`: every frame's record (positions,
    /// grounded, the wall met; no iterations, no step outcome: Rapier does
    /// not report its autostep) and the summary by `walk`'s own rules.
    pub fn walk(&self, level: &RapierLevel, spec: &WalkSpec) -> Walk {
        let queries = level.queries();
        let dir = spec.direction.with_y(0.0).normalize_or_zero();
        let walk = dir * self.walk_speed * self.dt;
        let mut state = CharacterState::at(spec.from);
        let n = self.frames_of(spec);
        let mut frames = Vec::with_capacity(n as usize);
        for index in 0..n {
            let (after, wall) = self.frame(level, &queries, &state, walk);
            frames.push(FrameRecord {
                index,
                before: state,
                after,
                walk,
                jumped: false,
                step: StepOutcome::NotTried,
                snapped: false,
                wall,
                iterations: Vec::new(),
            });
            state = after;
        }
        let summary = WalkSummary::of_frames(spec.from, &frames);
        Walk {
            spec: WalkSpec {
                direction: dir,
                ..*spec
            },
            frames,
            summary,
        }
    }

    /// Only the end of `spec`'s walk (the bench's measure: no records).
    pub fn walk_end(&self, level: &RapierLevel, spec: &WalkSpec) -> DVec3 {
        let queries = level.queries();
        let dir = spec.direction.with_y(0.0).normalize_or_zero();
        let walk = dir * self.walk_speed * self.dt;
        let mut state = CharacterState::at(spec.from);
        for _ in 0..self.frames_of(spec) {
            state = self.frame(level, &queries, &state, walk).0;
        }
        state.position
    }
}
