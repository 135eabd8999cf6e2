//! Each engine's output: key names with converted values (defaults and
//! tuned settings), the conversion and not-mapped comments, out-of-range
//! warnings, and refusals.

use super::*;
use crate::collide::SlideMode;

fn out(engine: Engine, s: &SlideSettings) -> EngineExport {
    export(engine, s).unwrap_or_else(|e| panic!("{engine}: {e}"))
}

/// The number written right after `key` (the first number following it).
fn value_after(text: &str, key: &str) -> f64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} missing from:\n{text}"));
    let rest = &text[at + key.len()..];
    let b = rest.as_bytes();
    let start = (0..b.len())
        .find(|&i| {
            b[i].is_ascii_digit() || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        })
        .unwrap_or_else(|| panic!("no number after {key:?}"));
    let len = rest[start..]
        .find(|ch: char| !(ch.is_ascii_digit() || "-+.e".contains(ch)))
        .unwrap_or(rest.len() - start);
    rest[start..start + len]
        .parse()
        .unwrap_or_else(|e| panic!("{key:?}: {e} in {:?}", &rest[start..start + len]))
}

fn assert_value(text: &str, key: &str, want: f64) {
    let got = value_after(text, key);
    let tol = 1e-6 * want.abs().max(1e-3);
    assert!(
        (got - want).abs() <= tol,
        "{key} = {got}, want {want}:\n{text}"
    );
}

#[test]
fn defaults_use_each_engines_names_and_units() {
    let s = SlideSettings::default();
    let cases: [(Engine, &[&str]); 6] = [
        (
            Engine::Rapier,
            &[
                "ColliderBuilder::capsule_y(0.5, 0.4)",
                "offset: CharacterLength::Absolute(0.005),",
                "max_height: CharacterLength::Absolute(0.3),",
                "min_width: CharacterLength::Absolute(0.02),",
                "max_slope_climb_angle: 0.7853982,",
                "min_slope_slide_angle: 0.7853982,",
                "snap_to_ground: Some(CharacterLength::Absolute(0.1)),",
                "pub const FRAME_TIME_S: f32 = 0.016666668;",
            ],
        ),
        (
            Engine::Jolt,
            &[
                "JPH::CapsuleShapeSettings(0.5f, 0.4f)",
                "settings->mMaxSlopeAngle = 0.7853982f;",
                "settings->mCharacterPadding = 0.005f;",
                "settings->mMaxCollisionIterations = 5;",
                "JPH::EBackFaceMode::CollideWithBackFaces",
                "update.mStickToFloorStepDown = JPH::Vec3(0.0f, -0.1f, 0.0f);",
                "update.mWalkStairsStepUp = JPH::Vec3(0.0f, 0.3f, 0.0f);",
                "update.mWalkStairsMinStepForward = 0.02f;",
                "kCollidoscopeGravity(0.0f, -9.81f, 0.0f)",
            ],
        ),
        (
            Engine::Physx,
            &[
                "desc.radius = 0.4f;",
                "desc.height = 1.0f;",
                "desc.slopeLimit = 0.70710677f;",
                "desc.stepOffset = 0.3f;",
                "desc.contactOffset = 0.005f;",
                "PxCapsuleClimbingMode::eCONSTRAINED",
                "kCollidoscopeMinMoveM = 0.0001f;",
            ],
        ),
        (
            Engine::Godot,
            &[
                "extends CharacterBody3D",
                "\tfloor_max_angle = 0.7853982",
                "\tfloor_snap_length = 0.1",
                "\tsafe_margin = 0.005",
                "\tmax_slides = 5",
                "\tcapsule.radius = 0.4",
                "\tcapsule.height = 1.8",
                "physics_ticks_per_second = 60 ",
                "const JUMP_VELOCITY := 4.5",
            ],
        ),
        (
            Engine::Unity,
            &[
                "controller.radius = 0.4f;",
                "controller.height = 1.8f;",
                "controller.slopeLimit = 45.0f;",
                "controller.stepOffset = 0.3f;",
                "controller.skinWidth = 0.005f;",
                "controller.minMoveDistance = 0.0001f;",
                "public class CollidoscopeCharacter : MonoBehaviour",
            ],
        ),
        (
            Engine::Unreal,
            &[
                "InitCapsuleSize(40.0f, 90.0f);",
                "Move->MaxStepHeight = 30.0f;",
                "Move->SetWalkableFloorAngle(45.0f);",
                "Move->MaxWalkSpeed = 500.0f;",
                "Move->JumpZVelocity = 450.0f;",
                "Move->GravityScale = 1.0010204f;",
                "TerminalVelocity = 4000.0f",
            ],
        ),
    ];
    for (engine, needles) in cases {
        let e = out(engine, &s);
        assert!(e.warnings.is_empty(), "{engine}: {:?}", e.warnings);
        // 0.9 (1 - 1 / sqrt(1 + (0.4 / 0.9)^2)) and 0.4 (1 - cos 45°).
        let rolls = "the ellipsoid rolls over an edge up to 0.078 m high by itself, \
                     the capsule up to 0.117 m.";
        assert!(e.text.contains(rolls), "{engine}:\n{}", e.text);
        for needle in needles {
            assert!(
                e.text.contains(needle),
                "{engine}: {needle:?} missing:\n{}",
                e.text
            );
        }
    }
}

/// Settings far from the defaults, to catch a value written from the
/// wrong field or a default written in place of the tuned value.
fn tuned() -> SlideSettings {
    let mut s = SlideSettings {
        radii: [0.35, 0.8, 0.35],
        skin: 0.012,
        max_iterations: 7,
        min_move: 3e-4,
        two_sided: false,
        ..SlideSettings::default()
    };
    let c = &mut s.character;
    c.walk_speed_m_s = 6.5;
    c.frame_rate_hz = 50.0;
    c.gravity_m_s2 = 12.0;
    c.jump_speed_m_s = 5.2;
    c.max_step_height_m = 0.42;
    c.min_tread_depth_m = 0.05;
    c.max_slope_deg = 37.5;
    c.snap_distance_m = 0.23;
    c.max_fall_speed_m_s = 55.0;
    s
}

#[test]
fn tuned_values_round_trip_through_every_engine() {
    let s = tuned();
    let slope_rad = 37.5_f64.to_radians();
    let cases: [(Engine, &[(&str, f64)]); 6] = [
        (
            Engine::Rapier,
            &[
                ("capsule_y(", 0.45),
                ("capsule_y(0.45, ", 0.35),
                ("offset: CharacterLength::Absolute(", 0.012),
                ("max_height: CharacterLength::Absolute(", 0.42),
                ("min_width: CharacterLength::Absolute(", 0.05),
                ("max_slope_climb_angle: ", slope_rad),
                ("min_slope_slide_angle: ", slope_rad),
                ("snap_to_ground: Some(CharacterLength::Absolute(", 0.23),
                ("WALK_SPEED_M_S: f32 = ", 6.5),
                ("JUMP_SPEED_M_S: f32 = ", 5.2),
                ("GRAVITY_M_S2: f32 = ", 12.0),
                ("MAX_FALL_SPEED_M_S: f32 = ", 55.0),
                ("FRAME_TIME_S: f32 = ", 0.02),
            ],
        ),
        (
            Engine::Jolt,
            &[
                ("CapsuleShapeSettings(", 0.45),
                ("CapsuleShapeSettings(0.45f, ", 0.35),
                ("mMaxSlopeAngle = ", slope_rad),
                ("mCharacterPadding = ", 0.012),
                ("mMaxCollisionIterations = ", 7.0),
                ("mStickToFloorStepDown = JPH::Vec3(0.0f, ", -0.23),
                ("mWalkStairsStepUp = JPH::Vec3(0.0f, ", 0.42),
                ("mWalkStairsMinStepForward = ", 0.05),
                ("kCollidoscopeFrameTimeS = ", 0.02),
                ("kCollidoscopeGravity(0.0f, ", -12.0),
                ("kCollidoscopeWalkSpeedMS = ", 6.5),
            ],
        ),
        (
            Engine::Physx,
            &[
                ("desc.radius = ", 0.35),
                ("desc.height = ", 0.9),
                ("desc.slopeLimit = ", slope_rad.cos()),
                ("desc.stepOffset = ", 0.42),
                ("desc.contactOffset = ", 0.012),
                ("kCollidoscopeMinMoveM = ", 3e-4),
                ("kCollidoscopeFrameTimeS = ", 0.02),
                ("kCollidoscopeJumpSpeedMS = ", 5.2),
            ],
        ),
        (
            Engine::Godot,
            &[
                ("floor_max_angle = ", slope_rad),
                ("floor_snap_length = ", 0.23),
                ("safe_margin = ", 0.012),
                ("max_slides = ", 7.0),
                ("capsule.radius = ", 0.35),
                ("capsule.height = ", 1.6),
                ("physics_ticks_per_second = ", 50.0),
                ("WALK_SPEED_M_S := ", 6.5),
                ("GRAVITY_M_S2 := ", 12.0),
            ],
        ),
        (
            Engine::Unity,
            &[
                ("controller.radius = ", 0.35),
                ("controller.height = ", 1.6),
                ("controller.slopeLimit = ", 37.5),
                ("controller.stepOffset = ", 0.42),
                ("controller.skinWidth = ", 0.012),
                ("controller.minMoveDistance = ", 3e-4),
                ("Fixed Timestep (Time.fixedDeltaTime) = ", 0.02),
                ("MaxFallSpeedMS = ", 55.0),
            ],
        ),
        (
            Engine::Unreal,
            &[
                ("InitCapsuleSize(", 35.0),
                ("InitCapsuleSize(35.0f, ", 80.0),
                ("MaxStepHeight = ", 42.0),
                ("SetWalkableFloorAngle(", 37.5),
                ("MaxWalkSpeed = ", 650.0),
                ("JumpZVelocity = ", 520.0),
                ("GravityScale = ", 1200.0 / 980.0),
                ("TerminalVelocity = ", 5500.0),
            ],
        ),
    ];
    for (engine, values) in cases {
        let e = out(engine, &s);
        for &(key, want) in values {
            assert_value(&e.text, key, want);
        }
    }
    let jolt = out(Engine::Jolt, &s).text;
    assert!(jolt.contains("EBackFaceMode::IgnoreBackFaces"), "{jolt}");
}

#[test]
fn every_output_states_the_conversion_and_what_does_not_map() {
    let mut s = tuned();
    s.radii = [0.4, 0.9, 0.3];
    s.mode = SlideMode::Nettle2000;
    for engine in Engine::ALL {
        let e = out(engine, &s);
        let t = &e.text;
        for needle in [
            "capsule radius = the larger horizontal radius, max(x, z) = 0.4 m",
            "capsule total height = 2 x the vertical radius y = 1.8 m",
            "Not mapped (no ",
            "unequal horizontal radii x = 0.4 m, z = 0.3 m",
            "mode = nettle2000",
            "ghost_edge_angle_deg",
        ] {
            assert!(t.contains(needle), "{engine}: {needle:?} missing:\n{t}");
        }
        // The radius written is the larger one.
        let key = match engine {
            Engine::Rapier => "capsule_y(0.5, ",
            Engine::Jolt => "CapsuleShapeSettings(0.5f, ",
            Engine::Physx => "desc.radius = ",
            Engine::Godot => "capsule.radius = ",
            Engine::Unity => "controller.radius = ",
            Engine::Unreal => "InitCapsuleSize(",
        };
        let unit = if engine == Engine::Unreal { 100.0 } else { 1.0 };
        assert_value(t, key, 0.4 * unit);
        // Comments use the language's marker: no line starts with the other one.
        let foreign = if engine == Engine::Godot { "//" } else { "#  " };
        assert!(!t.lines().any(|l| l.starts_with(foreign)), "{engine}:\n{t}");
    }
    // Equal radii: no unequal-radii note. Engine-specific gaps are listed.
    let equal = out(Engine::Godot, &tuned()).text;
    assert!(!equal.contains("unequal horizontal radii"), "{equal}");
    assert!(equal.contains("max_step_height_m = 0.42 m"), "{equal}");
    let unity = out(Engine::Unity, &tuned()).text;
    assert!(unity.contains("snap_distance_m = 0.23 m: CharacterController has no ground snap"));
    let unreal = out(Engine::Unreal, &tuned()).text;
    assert!(unreal.contains("skin = 0.012 m: Unreal keeps its own distance"));
}

#[test]
fn values_out_of_an_engines_range_are_written_in_range_with_a_warning() {
    // A step taller than the character: Unity wants stepOffset ≤ height,
    // PhysX stepOffset ≤ height + 2 radius (both 1.8 m here).
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = 2.5;
    let unity = out(Engine::Unity, &s);
    assert_value(&unity.text, "controller.stepOffset = ", 1.8);
    assert!(
        unity.text.contains("// WARNING: stepOffset: the tuned 2.5"),
        "{}",
        unity.text
    );
    assert_eq!(unity.warnings.len(), 1, "{:?}", unity.warnings);
    let physx = out(Engine::Physx, &s);
    assert_value(&physx.text, "desc.stepOffset = ", 1.8);
    assert_eq!(physx.warnings.len(), 1);
    // Unreal has no upper bound: the tuned value stays.
    let unreal = out(Engine::Unreal, &s);
    assert_value(&unreal.text, "MaxStepHeight = ", 250.0);
    assert!(unreal.warnings.is_empty());

    // No skin: Rapier's offset and PhysX's contactOffset must be above 0,
    // Godot's safe_margin at least 0.001.
    let s = SlideSettings {
        skin: 0.0,
        ..SlideSettings::default()
    };
    let rapier = out(Engine::Rapier, &s);
    assert!(
        rapier
            .text
            .contains("offset: CharacterLength::Relative(0.01),")
    );
    assert!(rapier.warnings[0].contains("must not be zero"));
    assert_value(&out(Engine::Physx, &s).text, "desc.contactOffset = ", 0.1);
    let godot = out(Engine::Godot, &s);
    assert_value(&godot.text, "safe_margin = ", 0.001);
    assert!(
        godot.text.contains("# WARNING: safe_margin"),
        "{}",
        godot.text
    );

    // A fractional frame rate is not a whole number of Godot physics ticks.
    let mut s = SlideSettings::default();
    s.character.frame_rate_hz = 59.94;
    let godot = out(Engine::Godot, &s);
    assert!(
        godot.text.contains("physics_ticks_per_second = 60 "),
        "{}",
        godot.text
    );
    assert_eq!(godot.warnings.len(), 1);
}

#[test]
fn a_squat_ellipsoid_becomes_the_shortest_capsule_each_engine_takes() {
    let s = SlideSettings {
        radii: [0.5, 0.3, 0.5],
        ..SlideSettings::default()
    };
    for engine in Engine::ALL {
        let e = out(engine, &s);
        assert!(
            e.warnings
                .iter()
                .any(|w| w.contains("wider (1 m) than tall (0.6 m)")),
            "{engine}: {:?}",
            e.warnings
        );
    }
    assert!(
        out(Engine::Rapier, &s)
            .text
            .contains("ColliderBuilder::ball(0.5)")
    );
    assert!(
        out(Engine::Jolt, &s)
            .text
            .contains("CapsuleShapeSettings(0.0f, 0.5f)")
    );
    assert_value(&out(Engine::Physx, &s).text, "desc.height = ", 0.001);
    assert_value(&out(Engine::Godot, &s).text, "capsule.height = ", 1.0);
    assert_value(&out(Engine::Unity, &s).text, "controller.height = ", 1.0);
    assert_value(
        &out(Engine::Unreal, &s).text,
        "InitCapsuleSize(50.0f, ",
        50.0,
    );
}

#[test]
fn zero_step_and_snap_turn_the_features_off() {
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = 0.0;
    s.character.snap_distance_m = 0.0;
    let rapier = out(Engine::Rapier, &s).text;
    assert!(rapier.contains("autostep: None,") && rapier.contains("snap_to_ground: None,"));
    let jolt = out(Engine::Jolt, &s).text;
    assert!(
        jolt.contains("mWalkStairsStepUp = JPH::Vec3(0.0f, 0.0f, 0.0f)"),
        "{jolt}"
    );
    assert!(
        jolt.contains("mStickToFloorStepDown = JPH::Vec3(0.0f, 0.0f, 0.0f)"),
        "{jolt}"
    );
}

#[test]
fn unwritable_and_invalid_settings_are_refused() {
    let s = SlideSettings {
        radii: [1e40, 1e40, 1e40],
        ..SlideSettings::default()
    };
    for engine in Engine::ALL {
        // Refused by the settings' own range, before any conversion.
        let e = export(engine, &s).unwrap_err().to_string();
        assert!(e.contains("from 0.001 to 10000 m"), "{engine}: {e}");
    }
    let mut s = SlideSettings::default();
    s.character.max_slope_deg = 95.0;
    let e = export(Engine::Unity, &s).unwrap_err().to_string();
    assert!(e.contains("max_slope_deg"), "{e}");
    // Every number any engine writes for valid settings is finite.
    for engine in Engine::ALL {
        let t = out(engine, &tuned()).text;
        assert!(!t.contains("inf") && !t.contains("NaN"), "{engine}:\n{t}");
    }
}

#[test]
fn engine_names_parse_and_bad_ones_are_listed() {
    for engine in Engine::ALL {
        assert_eq!(engine.name().parse::<Engine>(), Ok(engine));
        assert_eq!(engine.name().to_uppercase().parse::<Engine>(), Ok(engine));
        assert!(engine.default_file_name().ends_with(engine.extension()));
    }
    let e = "quake".parse::<Engine>().unwrap_err();
    assert!(e.contains("'quake'") && e.contains("rapier, jolt"), "{e}");
}
