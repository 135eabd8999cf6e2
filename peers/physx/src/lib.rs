//! PhysX's own character controller (`PxController::move`, PhysX 5 as
//! built from source by Embark's `physx-sys` 0.11), walking the walks
//! Collidoscope's `check` walks, configured as a user pasting
//! Collidoscope's PhysX export (`settings export --for physx`,
//! `src/export/engines/physx.rs`) would have it. Y up, metres; PhysX is
//! `f32` with positions in `f64` (`PxExtendedVec3`).
//!
//! # The scene
//!
//! The level is one static actor (`PxRigidStatic`) with one shape, a
//! cooked `PxTriangleMesh` of the triangles that collide (objects the
//! settings' `[level] non_colliding` patterns name are left out), marked
//! `eDOUBLE_SIDED` as Collidoscope's levels collide on both sides. A
//! `PxControllerManager` on the scene makes one controller: a capsule
//! (`PxCapsuleControllerDesc`: `radius`, `height` between the sphere
//! centres) or a box (`PxBoxControllerDesc`: `halfHeight`,
//! `halfSideExtent`, `halfForwardExtent`), with `upDirection` +Y,
//! `slopeLimit` the cosine of `max_slope_deg`, `stepOffset` =
//! `max_step_height_m`, `contactOffset` = the skin (PhysX's 0.1 m when the
//! skin is 0, as the export writes), and the non-walkable and climbing
//! modes asked for ([`PhysxCharacter::new`]).
//!
//! # A frame, as a PhysX game drives its controller
//!
//! Per frame: the horizontal walk `walk_speed_m_s / frame_rate_hz` along
//! the walk's direction, plus the fall `v dt`, where the vertical speed
//! `v` starts afresh at `-g dt` on ground and otherwise gains `-g dt`, no
//! faster than `max_fall_speed_m_s` (a jump sets it to `jump_speed_m_s`
//! on ground): one `PxController::move(disp, minDist = min_move,
//! elapsedTime = dt)`. The character is on ground when the returned flags
//! hold `eCOLLISION_DOWN`. PhysX's own rules are in
//! `physx/source/physxcharacterkinematic/src/CctCharacterController.cpp`
//! (`SweepTest::moveCharacter`: up pass by `stepOffset`, side pass, down
//! pass by `stepOffset` and the fall; `Controller::move`: the second try in
//! the "walk experiment" when the down pass stood on a non-walkable
//! triangle taller than `stepOffset`).
//!
//! # The wall met
//!
//! `check`'s verdicts need the contact that stopped a walk. PhysX reports
//! it only through a C++ callback (`PxUserControllerHitReport`) the
//! bindings cannot take, so the harness finds it itself: from where
//! PhysX left the character, Collidoscope's solver sweeps the same shape
//! along the frame's walk by the contact offset and 1 cm, and the first
//! contact steeper than the walkable slope is the wall. It only names what
//! PhysX stopped at; where PhysX's character is, is PhysX's own.

use collidoscope::character::{
    CharacterState, FrameRecord, StepOutcome, Walk, WalkSpec, WalkSummary, WallContact,
};
use collidoscope::collide::{CollisionWorld, SlideSettings, SlideSolver, TraceDetail};
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::Level;
use glam::DVec3;
use physx_sys::*;
use std::ptr::{null, null_mut};
use std::sync::OnceLock;

/// PhysX's default `contactOffset`, written by the export when the skin
/// is 0.
pub const PHYSX_DEFAULT_CONTACT_OFFSET_M: f64 = 0.1;

/// `PxControllerNonWalkableMode`: what the controller does on a triangle
/// steeper than `slopeLimit` whose top is more than `stepOffset` above
/// its feet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonWalkableMode {
    /// `ePREVENT_CLIMBING` (PhysX's default): it cannot walk up it, and
    /// stands still on it.
    PreventClimbing,
    /// `ePREVENT_CLIMBING_AND_FORCE_SLIDING`: it cannot walk up it, and
    /// slides down it.
    PreventClimbingAndForceSliding,
}

/// `PxCapsuleClimbingMode` (capsules only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClimbingMode {
    /// `eEASY` (PhysX's default): the capsule's round end rides over what
    /// it slides over, on top of `stepOffset`.
    Easy,
    /// `eCONSTRAINED`: no contact on a steep triangle higher than
    /// `stepOffset` above the feet is climbed.
    Constrained,
}

/// The controller's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ControllerShape {
    /// A capsule: radius and the height between the sphere centres.
    Capsule { radius_m: f64, height_m: f64 },
    /// A box: half sizes along x (side), y (up) and z (forward).
    Box { half_extents_m: [f64; 3] },
}

impl ControllerShape {
    /// The shape `settings` sweep ([`CharacterShape::Capsule`] or
    /// [`CharacterShape::Box`]); `None` for any other.
    pub fn of(settings: &SlideSettings) -> Option<Self> {
        match settings.shape {
            CharacterShape::Capsule { radius_m, height_m } => Some(ControllerShape::Capsule {
                radius_m,
                height_m: (height_m - 2.0 * radius_m).max(0.001),
            }),
            CharacterShape::Box { half_extents_m } => Some(ControllerShape::Box { half_extents_m }),
            _ => None,
        }
    }
}

fn vec3(v: DVec3) -> PxVec3 {
    PxVec3 {
        x: v.x as f32,
        y: v.y as f32,
        z: v.z as f32,
    }
}

/// PhysX's foundation and physics, made once per process (PhysX allows
/// one foundation) and kept to its end.
fn sdk() -> *mut PxPhysics {
    static SDK: OnceLock<usize> = OnceLock::new();
    let physics = *SDK.get_or_init(|| {
        // SAFETY: made once; PhysX's default allocator and error callback.
        unsafe {
            let foundation = physx_create_foundation();
            assert!(!foundation.is_null(), "PhysX foundation");
            let physics = physx_create_physics(foundation);
            assert!(!physics.is_null(), "PhysX physics");
            physics as usize
        }
    });
    physics as *mut PxPhysics
}

/// A scene of PhysX's SDK with the level in it and a controller manager.
/// Not `Send`: one per thread.
pub struct PhysxLevel {
    dispatcher: *mut PxDefaultCpuDispatcher,
    scene: *mut PxScene,
    material: *mut PxMaterial,
    manager: *mut PxControllerManager,
}

impl PhysxLevel {
    /// The triangles of `level` that collide in `world`, cooked into one
    /// static triangle mesh.
    pub fn new(level: &Level, world: CollisionWorld<'_>) -> Self {
        let mesh = level.mesh();
        let points: Vec<PxVec3> = mesh
            .positions()
            .iter()
            .map(|p| PxVec3 {
                x: p.x,
                y: p.y,
                z: p.z,
            })
            .collect();
        let mut indices: Vec<u32> = Vec::new();
        for (i, t) in mesh.triangles().iter().enumerate() {
            if world.triangle_collides(i as u32) {
                indices.extend_from_slice(t);
            }
        }
        // SAFETY: every pointer below comes from PhysX and lives until
        // `Drop`; the descriptors point into `points` and `indices`,
        // which outlive the cooking call.
        unsafe {
            let physics = sdk();
            let scale = PxPhysics_getTolerancesScale(physics);
            let mut scene_desc = PxSceneDesc_new(scale);
            scene_desc.gravity = PxVec3 {
                x: 0.0,
                y: -9.81,
                z: 0.0,
            };
            let dispatcher = phys_PxDefaultCpuDispatcherCreate(
                1,
                null_mut(),
                PxDefaultCpuDispatcherWaitForWorkMode::WaitForWork,
                0,
            );
            scene_desc.cpuDispatcher = dispatcher.cast();
            scene_desc.filterShader = get_default_simulation_filter_shader();
            let scene = PxPhysics_createScene_mut(physics, &scene_desc);
            assert!(!scene.is_null(), "PhysX scene");
            let material = PxPhysics_createMaterial_mut(physics, 0.5, 0.5, 0.0);

            let mut desc = PxTriangleMeshDesc_new();
            desc.points.count = points.len() as u32;
            desc.points.stride = std::mem::size_of::<PxVec3>() as u32;
            desc.points.data = points.as_ptr().cast();
            desc.triangles.count = (indices.len() / 3) as u32;
            desc.triangles.stride = 3 * std::mem::size_of::<u32>() as u32;
            desc.triangles.data = indices.as_ptr().cast();
            let params = PxCookingParams_new(scale);
            let mut result = PxTriangleMeshCookingResult::Success;
            let cooked = phys_PxCreateTriangleMesh(
                &params,
                &desc,
                PxPhysics_getPhysicsInsertionCallback_mut(physics),
                &mut result,
            );
            assert!(!cooked.is_null(), "PhysX cooked the level ({result:?})");
            let geometry = PxTriangleMeshGeometry_new(
                cooked,
                &PxMeshScale_new(),
                PxMeshGeometryFlags::DoubleSided,
            );
            let identity = PxTransform_new_2(PxIDENTITY::PxIdentity);
            let actor = phys_PxCreateStatic(
                physics,
                &identity,
                (&geometry as *const PxTriangleMeshGeometry).cast(),
                material,
                &identity,
            );
            assert!(!actor.is_null(), "PhysX static actor");
            PxScene_addActor_mut(scene, actor.cast(), null());
            let manager = phys_PxCreateControllerManager(scene, false);
            assert!(!manager.is_null(), "PhysX controller manager");
            let level = PhysxLevel {
                dispatcher,
                scene,
                material,
                manager,
            };
            level.settle();
            level
        }
    }

    /// One empty simulation step, so the scene queries see every actor.
    fn settle(&self) {
        // SAFETY: the scene is live; nothing else runs on it.
        unsafe {
            PxScene_simulate_mut(self.scene, 1.0 / 60.0, null_mut(), null_mut(), 0, true);
            let mut error = 0u32;
            PxScene_fetchResults_mut(self.scene, true, &mut error);
        }
    }
}

impl Drop for PhysxLevel {
    fn drop(&mut self) {
        // SAFETY: released once, in the reverse order of creation.
        unsafe {
            PxControllerManager_release_mut(self.manager);
            PxScene_release_mut(self.scene);
            PxDefaultCpuDispatcher_release_mut(self.dispatcher);
        }
    }
}

/// The character: PhysX's controller and the game loop's constants.
pub struct PhysxCharacter<'l> {
    level: &'l PhysxLevel,
    controller: *mut PxController,
    /// The settings the harness sweeps with to name the wall met.
    settings: SlideSettings,
    contact_offset_m: f64,
    min_dist_m: f32,
    dt: f64,
    walk_speed: f64,
    gravity: f64,
    jump_speed: f64,
    max_fall: f64,
    floor_min_up: f64,
}

impl<'l> PhysxCharacter<'l> {
    /// The controller of `settings` (whose shape must be a capsule or a
    /// box), in `level`, with PhysX's `non_walkable` and `climbing` modes.
    pub fn new(
        level: &'l PhysxLevel,
        settings: &SlideSettings,
        non_walkable: NonWalkableMode,
        climbing: ClimbingMode,
    ) -> Self {
        let c = &settings.character;
        let shape = ControllerShape::of(settings).expect("a capsule or a box");
        let contact_offset_m = if settings.skin > 0.0 {
            settings.skin
        } else {
            PHYSX_DEFAULT_CONTACT_OFFSET_M
        };
        let mode = match non_walkable {
            NonWalkableMode::PreventClimbing => PxControllerNonWalkableMode::PreventClimbing,
            NonWalkableMode::PreventClimbingAndForceSliding => {
                PxControllerNonWalkableMode::PreventClimbingAndForceSliding
            }
        };
        // SAFETY: the descriptors are PhysX's own allocations, filled and
        // checked (`isValid`) before use and deleted after.
        let controller = unsafe {
            match shape {
                ControllerShape::Capsule { radius_m, height_m } => {
                    let desc = PxCapsuleControllerDesc_new_alloc();
                    let d = &mut *desc;
                    d.radius = radius_m as f32;
                    d.height = height_m as f32;
                    d.climbingMode = match climbing {
                        ClimbingMode::Easy => PxCapsuleClimbingMode::Easy,
                        ClimbingMode::Constrained => PxCapsuleClimbingMode::Constrained,
                    };
                    d.upDirection = vec3(DVec3::Y);
                    d.slopeLimit = c.floor_min_up() as f32;
                    d.stepOffset = c.max_step_height_m as f32;
                    d.contactOffset = contact_offset_m as f32;
                    d.nonWalkableMode = mode;
                    d.material = level.material;
                    assert!(PxCapsuleControllerDesc_isValid(desc), "a valid capsule");
                    let ctrl = PxControllerManager_createController_mut(
                        level.manager,
                        desc as *const PxControllerDesc,
                    );
                    PxCapsuleControllerDesc_delete(desc);
                    ctrl
                }
                ControllerShape::Box { half_extents_m } => {
                    let desc = PxBoxControllerDesc_new_alloc();
                    let d = &mut *desc;
                    d.halfSideExtent = half_extents_m[0] as f32;
                    d.halfHeight = half_extents_m[1] as f32;
                    d.halfForwardExtent = half_extents_m[2] as f32;
                    d.upDirection = vec3(DVec3::Y);
                    d.slopeLimit = c.floor_min_up() as f32;
                    d.stepOffset = c.max_step_height_m as f32;
                    d.contactOffset = contact_offset_m as f32;
                    d.nonWalkableMode = mode;
                    d.material = level.material;
                    assert!(PxBoxControllerDesc_isValid(desc), "a valid box");
                    let ctrl = PxControllerManager_createController_mut(
                        level.manager,
                        desc as *const PxControllerDesc,
                    );
                    PxBoxControllerDesc_delete(desc);
                    ctrl
                }
            }
        };
        assert!(!controller.is_null(), "PhysX made the controller");
        level.settle();
        PhysxCharacter {
            level,
            controller,
            settings: settings.clone(),
            contact_offset_m,
            min_dist_m: settings.min_move as f32,
            dt: c.frame_time_s(),
            walk_speed: c.walk_speed_m_s,
            gravity: c.gravity_m_s2,
            jump_speed: c.jump_speed_m_s,
            max_fall: c.max_fall_speed_m_s,
            floor_min_up: c.floor_min_up(),
        }
    }

    /// How many frames `spec` runs (as `walk` counts them).
    pub fn frames_of(&self, spec: &WalkSpec) -> u32 {
        (spec.seconds / self.dt).ceil() as u32
    }

    fn position(&self) -> DVec3 {
        // SAFETY: the controller is live.
        let p = unsafe { *PxController_getPosition(self.controller) };
        DVec3::new(p.x, p.y, p.z)
    }

    /// Puts the controller's centre at `p`, forgetting its cached
    /// geometry and contacts.
    pub fn place(&mut self, p: DVec3) {
        // SAFETY: the controller is live.
        unsafe {
            PxController_setPosition_mut(
                self.controller,
                &PxExtendedVec3 {
                    x: p.x,
                    y: p.y,
                    z: p.z,
                },
            );
            PxController_invalidateCache_mut(self.controller);
        }
    }

    /// One `PxController::move` from the controller's position by
    /// `disp`: the new centre and whether it stood on something
    /// (`eCOLLISION_DOWN`).
    pub fn move_by(&mut self, disp: DVec3) -> (DVec3, bool) {
        // SAFETY: the controller is live; the filters take no callbacks.
        let flags = unsafe {
            let filters = PxControllerFilters_new(null(), null_mut(), null_mut());
            PxController_move_mut(
                self.controller,
                &vec3(disp),
                self.min_dist_m,
                self.dt as f32,
                &filters,
                null(),
            )
        };
        let down = flags.contains(PxControllerCollisionFlags::CollisionDown);
        (self.position(), down)
    }

    /// The first contact steeper than the walkable slope met sweeping
    /// the shape from `at` along `walk` by the contact offset and 1 cm.
    fn wall_ahead(
        &self,
        solver: &mut Option<SlideSolver<'_>>,
        at: DVec3,
        walk: DVec3,
    ) -> Option<WallContact> {
        let dir = walk.normalize_or_zero();
        if dir == DVec3::ZERO {
            return None;
        }
        let solver = solver.as_mut()?;
        if !solver.start_move(at, dir * (self.contact_offset_m + 0.01)) {
            return None;
        }
        let record = solver.next()?;
        let hit = record.nearest?;
        (hit.contact_normal.y < self.floor_min_up).then_some(WallContact {
            triangle: hit.triangle,
            normal: hit.contact_normal,
            point: hit.contact_point,
        })
    }

    /// Walks `spec` through the level: every frame's record (positions,
    /// grounded, the wall met; no iterations, no step outcome: PhysX does
    /// not report its auto-step) and the summary by `walk`'s own rules.
    /// `world` is the level as Collidoscope sees it, to name the wall met.
    pub fn walk(&mut self, world: CollisionWorld<'_>, spec: &WalkSpec) -> Walk {
        let dir = spec.direction.with_y(0.0).normalize_or_zero();
        let walk = dir * self.walk_speed * self.dt;
        let mut probe_settings = collidoscope::character::frame_settings(&self.settings);
        probe_settings.gravity = [0.0; 3];
        let mut probe = SlideSolver::reusable(world, &probe_settings, TraceDetail::Summary).ok();
        self.place(spec.from);
        let mut state = CharacterState::at(spec.from);
        let n = self.frames_of(spec);
        let mut frames = Vec::with_capacity(n as usize);
        let mut jump_pending = spec.jump;
        for index in 0..n {
            let jumped = jump_pending && state.grounded;
            jump_pending &= !jumped;
            let v = if jumped {
                self.jump_speed - self.gravity * self.dt
            } else if state.grounded {
                -self.gravity * self.dt
            } else {
                state.vertical_speed_m_s - self.gravity * self.dt
            }
            .max(-self.max_fall);
            let (end, down) = self.move_by(walk + DVec3::Y * (v * self.dt));
            let grounded = down && v <= 0.0;
            let after = CharacterState {
                position: end,
                vertical_speed_m_s: if grounded { 0.0 } else { v },
                grounded,
                ground_normal: None,
                ground_triangle: None,
            };
            let wall = self.wall_ahead(&mut probe, end, walk);
            frames.push(FrameRecord {
                index,
                before: state,
                after,
                walk,
                jumped,
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
}

impl Drop for PhysxCharacter<'_> {
    fn drop(&mut self) {
        // SAFETY: released once; the manager outlives it (`'l`).
        unsafe { PxController_release_mut(self.controller) };
        let _ = self.level;
    }
}
