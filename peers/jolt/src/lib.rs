//! Jolt Physics' own `CharacterVirtual` (Jolt 5.6.0, through the `oxijolt`
//! crate) walking the walks Collidoscope's `check` walks, configured as a
//! user pasting Collidoscope's Jolt export (`settings export --for jolt`,
//! `src/export/engines/jolt.rs`) would have it, and driven frame by frame
//! as Jolt's own character sample drives it. The agreement tests
//! (`tests/agreement.rs`) judge these walks by `check`'s own rules
//! (`collidoscope::analysis::checks::rejudge`) and compare the verdicts
//! with those of the `jolt` engine profile.
//!
//! # The settings, as the export writes them
//!
//! `CharacterVirtualSettings`: a capsule along Y (`CapsuleShape`, half the
//! straight part and the radius; a sphere when the straight part is zero)
//! of radius the larger horizontal radius and total height twice the
//! vertical radius, centred on the character's position (no shape
//! offset); `mUp` +Y; `mMaxSlopeAngle` = `max_slope_deg`;
//! `mCharacterPadding` = `skin`; `mMaxCollisionIterations` =
//! `max_iterations`; `mBackFaceMode` collides with back faces when
//! `two_sided`. Everything else is Jolt's default (`CharacterVirtual.h`:
//! `mPredictiveContactDistance` 0.1 m, `mCollisionTolerance` 1 mm,
//! `mMaxConstraintIterations` 15, the supporting volume accepting every
//! contact). `ExtendedUpdateSettings`: `mStickToFloorStepDown` = (0,
//! -`snap_distance_m`, 0), `mWalkStairsStepUp` = (0, `max_step_height_m`,
//! 0), `mWalkStairsMinStepForward` = `min_tread_depth_m`, the rest Jolt's
//! defaults (`mWalkStairsStepForwardTest` 0.15 m). The level is one static
//! body of a `MeshShape` of the triangles that collide.
//!
//! # A frame, as a Jolt game drives it
//!
//! As `CharacterVirtualTest::HandleInput` in Jolt's samples
//! (`Samples/Tests/Character/CharacterVirtualTest.cpp`, without its input
//! smoothing): the vertical velocity restarts at zero when the character
//! is `OnGround` and keeps the last update's otherwise; gravity adds `-g
//! dt` (no faster than the export's `kCollidoscopeMaxFallSpeedMS`); the
//! horizontal velocity is the walk's direction times `walk_speed_m_s`.
//! Then `SetLinearVelocity` and one `ExtendedUpdate(dt, gravity, ...)`.
//! A frame counts as on ground when Jolt's ground state is `OnGround`.
//!
//! The position a frame records is Jolt's `GetPosition()`: the capsule's
//! centre less `mCharacterPadding` (Jolt draws and sweeps the shape that
//! far above the position, `CharacterVirtual::GetCenterOfMassTransform`),
//! which is where Collidoscope puts the centre of a body standing on a
//! floor with a skin of the same size.

pub mod agreement;

use collidoscope::bvh::BvhScratch;
use collidoscope::character::{
    CharacterState, FrameRecord, StepOutcome, Walk, WalkSpec, WalkSummary, WallContact,
};
use collidoscope::collide::{CollisionWorld, SlideSettings};
use collidoscope::level::Level;
use glam::DVec3;
use oxijolt::{
    BodySettings, CharacterSettings, ExtendedUpdateSettings, GroundState, PhysicsWorld, Quat,
    QueryFilter, RVec3, Shape, Vec3, WorldSettings,
};

/// The level's colliding triangles, as Jolt takes them (f32, Y up).
#[derive(Clone, Debug)]
pub struct JoltMesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
}

impl JoltMesh {
    /// The triangles of `level` that collide in `world`.
    pub fn new(level: &Level, world: CollisionWorld<'_>) -> Self {
        let mesh = level.mesh();
        let vertices = mesh
            .positions()
            .iter()
            .map(|p| Vec3::new(p.x, p.y, p.z))
            .collect();
        let triangles = mesh
            .triangles()
            .iter()
            .enumerate()
            .filter(|(i, _)| world.triangle_collides(*i as u32))
            .map(|(_, t)| *t)
            .collect();
        JoltMesh {
            vertices,
            triangles,
        }
    }
}

impl JoltMesh {
    /// The same triangles in the reverse order: Jolt builds its tree from
    /// the order given, and where a contact lies on an edge between two
    /// triangles the one it reports can change with it (a diagnostic of
    /// the verdicts that hang on which side of an edge Jolt names).
    pub fn reversed(mut self) -> Self {
        self.triangles.reverse();
        self
    }
}

/// The character's constants: what the export writes and the game loop's
/// numbers.
#[derive(Clone, Debug)]
pub struct JoltCharacter {
    /// Half the capsule's straight part (0: a sphere), metres.
    pub half_cylinder_m: f32,
    /// The capsule's radius, metres.
    pub radius_m: f32,
    /// `mMaxSlopeAngle`, radians.
    pub max_slope_rad: f32,
    /// `mCharacterPadding`, metres.
    pub padding_m: f32,
    /// `mMaxCollisionIterations`.
    pub max_collision_iterations: u32,
    /// `mBackFaceMode == CollideWithBackFaces`.
    pub back_faces: bool,
    /// The `ExtendedUpdate` settings.
    pub update: ExtendedUpdateSettings,
    dt: f64,
    walk_speed: f64,
    gravity: f64,
    max_fall: f64,
    floor_min_up: f64,
}

impl JoltCharacter {
    /// The character of `settings`, as `settings export --for jolt`.
    pub fn new(settings: &SlideSettings) -> Self {
        let c = &settings.character;
        let [rx, ry, rz] = settings.radii;
        let radius = rx.max(rz);
        let update = ExtendedUpdateSettings::default()
            .stick_to_floor_step_down(Vec3::new(0.0, -c.snap_distance_m as f32, 0.0))
            .walk_stairs_step_up(Vec3::new(0.0, c.max_step_height_m as f32, 0.0))
            .walk_stairs_min_step_forward(c.min_tread_depth_m as f32);
        JoltCharacter {
            half_cylinder_m: (ry - radius).max(0.0) as f32,
            radius_m: radius as f32,
            max_slope_rad: c.max_slope_deg.to_radians() as f32,
            padding_m: settings.skin as f32,
            max_collision_iterations: settings.max_iterations,
            back_faces: settings.two_sided,
            update,
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

    fn shape(&self) -> Shape {
        if self.half_cylinder_m > 0.0 {
            Shape::new_capsule(self.half_cylinder_m, self.radius_m).expect("a capsule")
        } else {
            Shape::new_sphere(self.radius_m).expect("a sphere")
        }
    }

    fn settings<'a>(&self, shape: &'a Shape) -> CharacterSettings<'a> {
        CharacterSettings::new(shape)
            .up(Vec3::new(0.0, 1.0, 0.0))
            .max_slope_angle(self.max_slope_rad)
            .character_padding(self.padding_m)
            .max_collision_iterations(self.max_collision_iterations)
            .back_face_collision(self.back_faces)
    }
}

/// One Jolt physics system holding the level as a static mesh body: what
/// a game has. Not shared between threads (each worker makes its own).
pub struct JoltLevel {
    world: PhysicsWorld,
}

impl JoltLevel {
    /// A physics system with `mesh` as one static body.
    pub fn new(mesh: &JoltMesh) -> Self {
        let mut world =
            PhysicsWorld::new(WorldSettings::default().single_threaded()).expect("a Jolt world");
        let (shape, _dropped) =
            Shape::new_mesh(&mesh.vertices, &mesh.triangles).expect("a Jolt mesh");
        world
            .create_body(&shape, &BodySettings::new_static())
            .expect("the level's body");
        JoltLevel { world }
    }

    /// Walks `spec` with `character`: every frame's record (positions,
    /// ground, the first unwalkable contact; no iterations, no step
    /// outcome: Jolt does not report its stair walk) and the summary by
    /// `walk`'s own rules. `world` is Collidoscope's view of the same
    /// level, for the triangle a wall contact lies on.
    pub fn walk(
        &mut self,
        world: CollisionWorld<'_>,
        character: &JoltCharacter,
        spec: &WalkSpec,
    ) -> Walk {
        let dir = spec.direction.with_y(0.0).normalize_or_zero();
        let walk = dir * character.walk_speed * character.dt;
        let n = character.frames_of(spec);
        let mut frames = Vec::with_capacity(n as usize);
        self.run(character, spec, |index, before, after, wall| {
            let wall = wall.map(|(normal, point)| WallContact {
                triangle: triangle_at(world, point, normal),
                normal,
                point,
            });
            frames.push(FrameRecord {
                index,
                before,
                after,
                walk,
                jumped: false,
                step: StepOutcome::NotTried,
                snapped: false,
                wall,
                iterations: Vec::new(),
            });
        });
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
    pub fn walk_end(&mut self, character: &JoltCharacter, spec: &WalkSpec) -> DVec3 {
        let mut end = spec.from;
        self.run(character, spec, |_, _, after, _| end = after.position);
        end
    }

    /// Runs `spec`'s frames, calling `each(index, before, after, wall)`
    /// after each, `wall` the first contact of the update steeper than the
    /// walkable slope (normal, point).
    fn run(
        &mut self,
        character: &JoltCharacter,
        spec: &WalkSpec,
        mut each: impl FnMut(u32, CharacterState, CharacterState, Option<(DVec3, DVec3)>),
    ) {
        let shape = character.shape();
        let settings = character.settings(&shape);
        let p = spec.from;
        let id = self
            .world
            .create_character(
                &settings,
                RVec3::new(p.x as _, p.y as _, p.z as _),
                Quat::IDENTITY,
            )
            .expect("a character");
        let filter = QueryFilter::default();
        self.world
            .refresh_character_contacts(id, &filter)
            .expect("contacts");
        let dir = spec.direction.with_y(0.0).normalize_or_zero();
        let horizontal = dir * character.walk_speed;
        let gravity = Vec3::new(0.0, -character.gravity as f32, 0.0);
        let mut state = CharacterState::at(spec.from);
        for index in 0..character.frames_of(spec) {
            let (on_ground, vertical) = {
                let c = self.world.character(id).expect("the character");
                (
                    c.ground_state() == GroundState::OnGround,
                    f64::from(c.linear_velocity().y),
                )
            };
            let v = if on_ground { 0.0 } else { vertical };
            let v = (v - character.gravity * character.dt).max(-character.max_fall);
            let velocity = Vec3::new(horizontal.x as f32, v as f32, horizontal.z as f32);
            self.world
                .character_mut(id)
                .expect("the character")
                .set_linear_velocity(velocity)
                .expect("a finite velocity");
            self.world
                .update_character(id, character.dt as f32, gravity, &character.update, &filter)
                .expect("an update");
            let c = self.world.character(id).expect("the character");
            let at = c.position();
            let grounded = c.ground_state() == GroundState::OnGround;
            let wall = c
                .active_contacts()
                .into_iter()
                .filter(|k| {
                    k.had_collision && f64::from(k.surface_normal.y) < character.floor_min_up
                })
                .map(|k| {
                    let n = k.surface_normal;
                    let q = k.position;
                    (
                        DVec3::new(n.x.into(), n.y.into(), n.z.into()).normalize_or_zero(),
                        DVec3::new(q.x.into(), q.y.into(), q.z.into()),
                    )
                })
                .next();
            let after = CharacterState {
                position: DVec3::new(at.x.into(), at.y.into(), at.z.into()),
                vertical_speed_m_s: f64::from(c.linear_velocity().y),
                grounded,
                ground_normal: None,
                ground_triangle: None,
            };
            each(index, state, after, wall);
            state = after;
        }
        self.world.remove_character(id).expect("removed");
    }
}

/// The level's triangle a contact at `point` with `normal` lies on (a
/// short ray back along the normal), or 0 when none is found.
fn triangle_at(world: CollisionWorld<'_>, point: DVec3, normal: DVec3) -> u32 {
    let mut scratch = BvhScratch::default();
    let n = normal.normalize_or(DVec3::Y);
    world
        .ray_cast_colliding(point + n * 0.01, -n, 0.03, &mut scratch)
        .map_or(0, |(_, t)| t)
}
