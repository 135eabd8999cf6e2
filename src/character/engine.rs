//! Engine profiles: whose character controller the walks follow. A
//! profile is the character's shape (the capsule every engine gives a
//! character, unless the settings name another) and that engine's rules
//! for the parts of a frame where engines differ: whether and how high it
//! steps up, which landing it accepts, and how it keeps to the ground
//! walking down. The slide itself, the gravity and the walkable slope are
//! the same in every profile (each engine slides along what it meets and
//! treats a contact steeper than its slope limit as a wall); the settings'
//! numbers are the same too, read as the engine reads the names the
//! settings export writes for it ([`crate::export`]).
//!
//! Sources, per rule, are cited on [`ControllerRules::of`].

use super::CharacterSettings;
use crate::collide::SlideSettings;
use crate::geometry::shape::CharacterShape;
use serde::{Deserialize, Serialize};

/// Whose controller a character follows: `[character] engine = "jolt"` in
/// a settings file, `--engine NAME` on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineProfile {
    /// Collidoscope's own model: the probe's ellipsoid (or the settings'
    /// shape), the step height as the tallest step climbed.
    #[default]
    Collidoscope,
    /// Rapier's `KinematicCharacterController` with `autostep` and
    /// `snap_to_ground`.
    Rapier,
    /// Jolt's `CharacterVirtual::ExtendedUpdate` (`WalkStairs`,
    /// `StickToFloor`).
    Jolt,
    /// PhysX's character controller (`PxController::move`), capsule or box.
    Physx,
    /// Godot 4's `CharacterBody3D::move_and_slide` (no step-up).
    Godot,
    /// Unity's `CharacterController.Move`.
    Unity,
    /// Unreal's `UCharacterMovementComponent` walking mode.
    Unreal,
}

impl EngineProfile {
    /// Every profile, in menu order (Collidoscope's own first).
    pub const ALL: [EngineProfile; 7] = [
        EngineProfile::Collidoscope,
        EngineProfile::Rapier,
        EngineProfile::Jolt,
        EngineProfile::Physx,
        EngineProfile::Godot,
        EngineProfile::Unity,
        EngineProfile::Unreal,
    ];

    /// The name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EngineProfile::Collidoscope => "collidoscope",
            EngineProfile::Rapier => "rapier",
            EngineProfile::Jolt => "jolt",
            EngineProfile::Physx => "physx",
            EngineProfile::Godot => "godot",
            EngineProfile::Unity => "unity",
            EngineProfile::Unreal => "unreal",
        }
    }

    /// The controller it follows, for menus and reports.
    pub fn title(self) -> &'static str {
        match self {
            EngineProfile::Collidoscope => "Collidoscope (its own model)",
            EngineProfile::Rapier => "Rapier KinematicCharacterController",
            EngineProfile::Jolt => "Jolt CharacterVirtual",
            EngineProfile::Physx => "PhysX character controller",
            EngineProfile::Godot => "Godot CharacterBody3D",
            EngineProfile::Unity => "Unity CharacterController",
            EngineProfile::Unreal => "Unreal CharacterMovementComponent",
        }
    }

    /// Whether it is Collidoscope's own model (nothing to write in a file).
    pub fn is_collidoscope(&self) -> bool {
        *self == EngineProfile::Collidoscope
    }
}

impl std::fmt::Display for EngineProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EngineProfile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        EngineProfile::ALL
            .into_iter()
            .find(|e| e.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<_> = EngineProfile::ALL.iter().map(|e| e.name()).collect();
                format!(
                    "unknown engine '{}': one of {}",
                    crate::quote::prefix(s),
                    names.join(", ")
                )
            })
    }
}

/// How far the step-up rises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRise {
    /// The step height less what the body's curve rolls over by itself, so
    /// the step height is the tallest step climbed.
    LessRolling,
    /// The whole step height: the body's curve then rides over a walkable
    /// edge above it, so a round-bottomed body climbs more than the setting.
    Full,
}

/// How far a step-up moves forward at the raised height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepForward {
    /// Collidoscope's: the frame's walk, and over the riser's edge far
    /// enough for the body to stand on it within the walkable slope.
    ReachOverEdge,
    /// Jolt's: from where the plain walk stopped, what is left of the
    /// frame's walk, at least `min_tread_depth_m`
    /// (`mWalkStairsMinStepForward`), square to the riser when the walk
    /// meets it within [`JOLT_STAIRS_MAX_ANGLE_DEG`] of straight on.
    Walk,
    /// Exactly `min_tread_depth_m` and the skin, and nothing may be in the
    /// way (Rapier's `min_width` cast, "not enough room on the stair").
    MinWidth,
    /// Unreal's (`StepUp`'s `Delta`): from where the plain walk stopped,
    /// what is left of the frame's walk, along the walk, and no more.
    Remaining,
}

/// How a contact met moving down is judged as ground to stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorTest {
    /// By the contact's own normal (from the contact point to the body's
    /// centre): a round end resting on an edge stands only while that
    /// normal is within the walkable slope.
    ContactNormal,
    /// Unreal's: by the face normal of the surface met (the one opposing
    /// the move most at an edge), within the body's base, and past the
    /// perch radius only over a floor close enough below
    /// ([`super::unreal`]).
    UnrealFaceNormal,
}

/// What a step-up needs to land.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StepLanding {
    /// A walkable contact on the way down.
    Walkable,
    /// Jolt's: the first contact on the way down; when it is too steep (the
    /// body came down on the riser's edge), a second try this much farther
    /// ahead must come down on walkable ground, and the body then rests
    /// where the first one met the edge.
    FirstContactOrFloorAhead {
        /// How much farther ahead the second try goes, metres.
        test_m: f64,
    },
}

/// How far a character that stood on ground is pulled down onto it when a
/// frame leaves it in the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroundSnap {
    /// By the settings' `snap_distance_m`.
    SnapDistance,
    /// By the step height (the controller keeps a walking character on a
    /// floor within its step height).
    StepHeight,
    /// Not at all.
    Off,
}

/// What a character does on ground steeper than the walkable slope
/// (`[character] non_walkable`; PhysX's `PxControllerNonWalkableMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonWalkable {
    /// It cannot walk up it, and stands where it came down on it (PhysX's
    /// `ePREVENT_CLIMBING`, its default).
    PreventClimbing,
    /// It cannot walk up it, and slides down it: standing on it is falling
    /// (PhysX's `ePREVENT_CLIMBING_AND_FORCE_SLIDING`; Collidoscope's own).
    #[default]
    PreventClimbingAndForceSliding,
}

impl NonWalkable {
    /// The name in files.
    pub fn name(self) -> &'static str {
        match self {
            NonWalkable::PreventClimbing => "prevent_climbing",
            NonWalkable::PreventClimbingAndForceSliding => "prevent_climbing_and_force_sliding",
        }
    }
}

/// How far a step-up may climb past the step height
/// (`[character] climbing_mode`; PhysX's `PxCapsuleClimbingMode`). Only
/// profiles that rise by the whole step height ([`StepRise::Full`]) have a
/// choice: the others already climb no higher than the step height.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClimbingMode {
    /// The body's curve rides over an edge on top of the step height (PhysX's
    /// `eEASY`, its default; under `physx` and `unity` as PhysX's passes do
    /// it, `src/character/physx_easy.rs`).
    #[default]
    Easy,
    /// No step-up lands higher than the step height above the feet (PhysX's
    /// `eCONSTRAINED`).
    Constrained,
}

impl ClimbingMode {
    /// The name in files.
    pub fn name(self) -> &'static str {
        match self {
            ClimbingMode::Easy => "easy",
            ClimbingMode::Constrained => "constrained",
        }
    }
}

/// The rules of one profile, as the character frame applies them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControllerRules {
    /// Whether the controller steps up at all.
    pub step_up: bool,
    /// How high the step-up rises.
    pub rise: StepRise,
    /// Where the step-up starts: where the plain walk stopped (Rapier's
    /// autostep, run when the move hits the riser), or where the frame
    /// started (the others redo the frame's walk at the raised height).
    pub rise_from_stop: bool,
    /// Whether the step-up must be free for the whole step height (a
    /// ceiling lower than that cancels it) instead of rising as far as the
    /// room allows.
    pub needs_full_rise: bool,
    /// How far the step-forward goes at the raised height.
    pub forward: StepForward,
    /// What a step-up needs to land.
    pub landing: StepLanding,
    /// Whether a step may carry the body farther than its walk plus the
    /// riser's height (Collidoscope's guard, [`super::MAX_OVERREACH_M`]).
    pub limit_overreach: bool,
    /// How the ground holds a character walking down.
    pub snap: GroundSnap,
    /// What a character does on ground too steep to walk.
    pub non_walkable: NonWalkable,
    /// How far a step-up may climb past the step height.
    pub climbing: ClimbingMode,
    /// How a contact met moving down is judged as ground.
    pub floor: FloorTest,
}

impl ControllerRules {
    /// The rules of `engine`.
    ///
    /// - **Collidoscope**: rises by the step height less what the curve
    ///   rolls over, reaches over the riser's edge to perch, lands walkable,
    ///   snaps by `snap_distance_m` (this crate's [`super::FrameSolver`]).
    /// - **Jolt** (`Jolt/Physics/Character/CharacterVirtual.cpp`,
    ///   `ExtendedUpdate`, `WalkStairs`, `StickToFloor`): after the plain
    ///   move (`Update`), from where it stopped, `WalkStairs` sweeps up by
    ///   the whole `mWalkStairsStepUp`, as far as there is room, moves
    ///   forward by what is left of the frame's walk, at least
    ///   `mWalkStairsMinStepForward`, sweeps down by what it rose and
    ///   takes the first contact; when that contact is too steep it moves
    ///   `mWalkStairsStepForwardTest` (0.15 m by default) forward from the
    ///   raised position and sweeps down again, and accepts the first
    ///   contact if that second one is walkable. `ExtendedUpdate` turns
    ///   both moves square to the steep contact that stopped the walk when
    ///   it is within `mWalkStairsCosAngleForwardContact` (75°) of the
    ///   walk's direction. Checked against Jolt 5.6.0 itself
    ///   (`peers/jolt`).
    ///   `StickToFloor` sweeps down by `mStickToFloorStepDown` when a
    ///   supported character became unsupported without moving up.
    ///   Steep contacts become vertical walls in `DetermineConstraints`,
    ///   walkable ones are slid along: the capsule rides over a walkable
    ///   edge at the top of its rise.
    /// - **Rapier** (`src/control/character_controller.rs`,
    ///   `handle_stairs`, rapier3d 0.36): from where the move hit the
    ///   riser, `autostep` casts the shape up by the whole `max_height` (plus
    ///   the offset) and gives up on any hit; casts it forward by `min_width`
    ///   (plus the offset) at that height and gives up on any hit ("not
    ///   enough room on the stair"); casts down and steps onto what it meets
    ///   unless too steep to climb. The body then rests where it came down:
    ///   a round end resting on the riser's edge steeper than
    ///   `max_slope_climb_angle` slides back off it (`handle_slopes`), so a
    ///   capsule keeps the step only when `min_width` carries it far enough
    ///   over the edge to stand. `snap_to_ground` pulls a grounded
    ///   character down by its length. Checked against rapier3d itself
    ///   (`tests/library/rapier_peer.rs`).
    ///   Jolt steps forward by the frame's walk and at least
    ///   `mWalkStairsMinStepForward`; PhysX and Unity reach over the
    ///   riser's edge until the body stands on it, as their controllers do
    ///   over a few frames of perching on the edge; Unreal steps forward
    ///   by the rest of the walk and stands on the edge by its face.
    /// - **PhysX** (`physx/source/physxcharacterkinematic/src/
    ///   CctCharacterController.cpp`, PhysX 5: `SweepTest::moveCharacter`,
    ///   `Controller::move`; checked against PhysX itself,
    ///   `peers/physx`): each move is an up pass by `stepOffset` (none when
    ///   the move rises), a side pass that slides along every contact, and
    ///   a down pass by the fall and the same `stepOffset` ("Undo our
    ///   artificial up motion"), so it climbs a riser up to `stepOffset`
    ///   and, in `eEASY` climbing mode (the default), the side pass slides
    ///   along every contact as it is, so the capsule's round end rides
    ///   over any edge below its centre, and the down pass stands on the
    ///   triangle PhysX reports (the tread at an edge; a steep triangle
    ///   whose top is within `stepOffset`): `src/character/physx_easy.rs`; in
    ///   `eCONSTRAINED` mode a steep contact higher than `stepOffset` above
    ///   the feet cancels the climb ([`ClimbingMode`]). The down pass
    ///   only takes back the up pass: nothing pulls a character down onto
    ///   a floor below (no ground snap). When the down pass stands on a
    ///   triangle steeper than `slopeLimit`, the move is redone without
    ///   the up pass and with steep contacts made vertical; under the
    ///   default `ePREVENT_CLIMBING` the down pass stops at its first
    ///   contact, so the character stands on the steep slope, under
    ///   `ePREVENT_CLIMBING_AND_FORCE_SLIDING` it slides down it
    ///   ([`NonWalkable`]).
    /// - **Unity** (`CharacterController`, built on PhysX's controller;
    ///   manual "Character Controller component", `stepOffset`,
    ///   `slopeLimit`, `skinWidth` = `contactOffset`): PhysX's rules with
    ///   PhysX's default modes (Unity exposes neither mode, and its
    ///   controller is known not to slide down slopes steeper than
    ///   `slopeLimit`, as `ePREVENT_CLIMBING`); no ground snap.
    /// - **Unreal** (`CharacterMovementComponent.cpp`, `MoveAlongFloor`,
    ///   `StepUp`, `FindFloor`, `ComputeFloorDist`, `IsWalkable`,
    ///   `ComputePerchResult`; Epic's API pages for
    ///   `UCharacterMovementComponent`): `MoveAlongFloor` calls `StepUp`
    ///   where the walk hit the riser, with what is left of the walk; it
    ///   rises by `MaxStepHeight`, as far as there is room, moves forward
    ///   by that rest of the walk, and steps down by `MaxStepHeight` and
    ///   twice `MAX_FLOOR_DIST`; it refuses a landing more than `MaxStepHeight` above the floor it stood on, so
    ///   the step height is the tallest step climbed whatever the
    ///   capsule's curve, and a landing that is no floor. Floors are judged
    ///   by the face normal of what was met, within the capsule's base,
    ///   and beyond the perch radius only over floor close enough below
    ///   ([`FloorTest::UnrealFaceNormal`], [`super::unreal`]): the capsule
    ///   stands on an edge its round end hangs over. The floor found within
    ///   `MaxStepHeight` below keeps a walking character on the ground.
    /// - **Godot** (`scene/3d/physics/character_body_3d.cpp`,
    ///   `move_and_slide`, `apply_floor_snap`; class reference): no step-up
    ///   at all, only the slide, so the capsule climbs only what its round
    ///   end rolls over within `floor_max_angle`; `floor_snap_length` pulls
    ///   it down onto the floor.
    pub fn of(engine: EngineProfile) -> ControllerRules {
        let collidoscope = ControllerRules {
            step_up: true,
            rise: StepRise::LessRolling,
            rise_from_stop: false,
            needs_full_rise: false,
            forward: StepForward::ReachOverEdge,
            landing: StepLanding::Walkable,
            limit_overreach: true,
            snap: GroundSnap::SnapDistance,
            non_walkable: NonWalkable::PreventClimbingAndForceSliding,
            climbing: ClimbingMode::Constrained,
            floor: FloorTest::ContactNormal,
        };
        let engine_step = ControllerRules {
            rise: StepRise::Full,
            limit_overreach: false,
            climbing: ClimbingMode::Easy,
            ..collidoscope
        };
        match engine {
            EngineProfile::Collidoscope => collidoscope,
            EngineProfile::Jolt => ControllerRules {
                rise_from_stop: true,
                forward: StepForward::Walk,
                landing: StepLanding::FirstContactOrFloorAhead {
                    test_m: JOLT_STEP_FORWARD_TEST_M,
                },
                ..engine_step
            },
            EngineProfile::Rapier => ControllerRules {
                rise_from_stop: true,
                needs_full_rise: true,
                forward: StepForward::MinWidth,
                ..engine_step
            },
            EngineProfile::Physx | EngineProfile::Unity => ControllerRules {
                snap: GroundSnap::Off,
                non_walkable: NonWalkable::PreventClimbing,
                ..engine_step
            },
            EngineProfile::Unreal => ControllerRules {
                rise: StepRise::Full,
                rise_from_stop: true,
                forward: StepForward::Remaining,
                limit_overreach: false,
                snap: GroundSnap::StepHeight,
                floor: FloorTest::UnrealFaceNormal,
                ..collidoscope
            },
            EngineProfile::Godot => ControllerRules {
                step_up: false,
                ..collidoscope
            },
        }
    }

    /// Whether `climbing_mode` changes anything under these rules: only a
    /// step-up that rises by the whole step lets a round body ride over an
    /// edge above it, and Unreal's `StepUp` refuses any landing above
    /// `MaxStepHeight` whatever the mode.
    pub fn offers_climbing_choice(&self) -> bool {
        self.step_up && self.rise == StepRise::Full && self.floor != FloorTest::UnrealFaceNormal
    }

    /// The rules of `settings`' profile, with the settings'
    /// `non_walkable` and `climbing_mode` in place of the profile's own
    /// when they give them.
    pub fn for_settings(settings: &SlideSettings) -> ControllerRules {
        Self::for_character(&settings.character)
    }

    /// [`ControllerRules::for_settings`] from the `[character]` section.
    pub fn for_character(ch: &CharacterSettings) -> ControllerRules {
        let rules = Self::of(ch.engine);
        ControllerRules {
            non_walkable: ch.non_walkable.unwrap_or(rules.non_walkable),
            climbing: ch.climbing_mode.unwrap_or(rules.climbing),
            ..rules
        }
    }

    /// How far a character is pulled down onto the ground (0: not at all).
    pub fn snap_m(&self, ch: &CharacterSettings) -> f64 {
        match self.snap {
            GroundSnap::SnapDistance => ch.snap_distance_m,
            GroundSnap::StepHeight => ch.max_step_height_m,
            GroundSnap::Off => 0.0,
        }
    }
}

/// Jolt's `ExtendedUpdateSettings::mWalkStairsStepForwardTest` default,
/// metres (`CharacterVirtual.h`).
pub const JOLT_STEP_FORWARD_TEST_M: f64 = 0.15;

/// Jolt's `ExtendedUpdateSettings::mWalkStairsCosAngleForwardContact`
/// default as an angle, degrees (`CharacterVirtual.h`): `ExtendedUpdate`
/// steps up square to a riser met within this angle of the walk's
/// direction, so a character walking at an angle into a staircase climbs
/// it as if straight on.
pub const JOLT_STAIRS_MAX_ANGLE_DEG: f64 = 75.0;

/// The shape the character's body has under `settings`: the settings'
/// shape when they name one; otherwise, for an engine profile, the capsule
/// the settings export writes for that engine (radius the larger
/// horizontal radius, total height twice the vertical one, at least a
/// sphere), and for Collidoscope's own model the ellipsoid.
pub fn body_shape(settings: &SlideSettings) -> CharacterShape {
    if !settings.shape.is_ellipsoid() || settings.character.engine.is_collidoscope() {
        return settings.shape;
    }
    // As the settings export converts it (`crate::export::engines::Capsule`):
    // the larger horizontal radius, never narrower than the ellipsoid.
    let r = settings.radii_vec();
    let radius_m = r.x.max(r.z);
    CharacterShape::Capsule {
        radius_m,
        height_m: (2.0 * r.y).max(2.0 * radius_m),
    }
}

/// `settings` as the character's frames run them: the body's shape
/// ([`body_shape`]) in place of the ellipsoid under an engine profile, in
/// robust mode (the only one that sweeps shapes other than the ellipsoid).
pub fn frame_settings(settings: &SlideSettings) -> SlideSettings {
    let mut s = settings.clone();
    let shape = body_shape(settings);
    if shape != s.shape {
        s.shape = shape;
        s.mode = crate::collide::SlideMode::Robust;
    }
    s
}
