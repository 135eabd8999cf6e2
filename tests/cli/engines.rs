//! `collidoscope settings export FILE --for ENGINE [--settings TUNED]`:
//! every engine, tuned values from a settings file, stdout, no clobbering,
//! bad engine names and bad settings files.

use crate::support::*;

const ENGINES: [&str; 6] = ["rapier", "jolt", "physx", "godot", "unity", "unreal"];

/// A tuned settings file: a 0.35 m step, a 30 degree slope.
fn tuned_file(dir: &std::path::Path) -> String {
    let path = dir.join("tuned.toml");
    std::fs::write(
        &path,
        "format_version = 1\nradii = [0.3, 0.85, 0.3]\nskin = 0.01\n\
         [character]\nmax_step_height_m = 0.35\nmax_slope_deg = 30.0\n",
    )
    .unwrap();
    path.display().to_string()
}

#[test]
fn every_engine_gets_the_tuned_settings_in_its_own_names() {
    let dir = scratch("engines_each");
    let tuned = tuned_file(&dir);
    let expected = [
        ("rapier", "max_height: CharacterLength::Absolute(0.35),"),
        ("jolt", "mWalkStairsStepUp = JPH::Vec3(0.0f, 0.35f, 0.0f);"),
        ("physx", "desc.stepOffset = 0.35f;"),
        ("godot", "floor_max_angle = 0.5235988"),
        ("unity", "controller.slopeLimit = 30.0f;"),
        ("unreal", "Move->MaxStepHeight = 35.0f;"),
    ];
    for (engine, needle) in expected {
        let path = dir.join(format!("out_{engine}")).display().to_string();
        let r = run(&[
            "settings",
            "export",
            &path,
            "--for",
            engine,
            "--settings",
            &tuned,
        ]);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        assert!(r.stdout.contains("wrote the settings of"), "{}", r.stdout);
        assert!(r.stderr.is_empty(), "{engine}: {}", r.stderr);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(needle),
            "{engine}: {needle:?} missing:\n{text}"
        );
        assert!(text.contains("Not mapped"), "{engine}:\n{text}");
    }
}

#[test]
fn dash_prints_to_stdout_and_warnings_go_to_stderr() {
    let dir = scratch("engines_stdout");
    for engine in ENGINES {
        let r = run(&["settings", "export", "-", "--for", engine]);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        assert!(
            r.stdout
                .contains("capsule radius = the larger horizontal radius")
        );
        assert!(!r.stdout.contains("wrote "), "{}", r.stdout);
    }
    // A 2.5 m step is out of Unity's range: the file says so, and stderr too.
    let tall = dir.join("tall.json");
    std::fs::write(
        &tall,
        r#"{"format_version": 1, "radii": [0.4, 0.9, 0.4], "character": {"max_step_height_m": 2.5}}"#,
    )
    .unwrap();
    let tall = tall.display().to_string();
    let r = run(&[
        "settings",
        "export",
        "-",
        "--for",
        "unity",
        "--settings",
        &tall,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("controller.stepOffset = 1.8f;"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("// WARNING: stepOffset"), "{}", r.stdout);
    assert!(r.stderr.starts_with("warning: stepOffset"), "{}", r.stderr);
    // Without --for, `-` prints the settings file (TOML).
    let r = run(&["settings", "export", "-", "--settings", &tall]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("max_step_height_m = 2.5"), "{}", r.stdout);
}

#[test]
fn existing_files_are_not_clobbered_without_force() {
    let dir = scratch("engines_force");
    let path = dir.join("Character.cs");
    std::fs::write(&path, "mine").unwrap();
    let p = path.display().to_string();
    assert_fails(
        &run(&["settings", "export", &p, "--for", "unity"]),
        1,
        "--force",
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    let r = run(&["settings", "export", &p, "--for", "unity", "--force"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("CharacterController")
    );
}

#[test]
fn bad_engines_and_bad_settings_files_fail_with_one_line() {
    let dir = scratch("engines_bad");
    let out = dir.join("out.txt").display().to_string();
    assert_fails(
        &run(&["settings", "export", &out, "--for", "quake"]),
        2,
        "unknown engine 'quake'",
    );
    assert_fails(&run(&["settings", "export", &out, "--for"]), 2, "--for");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "format_version = 1\nradii = [0.4, -1.0, 0.4]\n").unwrap();
    let bad = bad.display().to_string();
    assert_fails(
        &run(&[
            "settings",
            "export",
            &out,
            "--for",
            "godot",
            "--settings",
            &bad,
        ]),
        1,
        "bad.toml:2:",
    );
    assert_fails(
        &run(&[
            "settings",
            "export",
            &out,
            "--for",
            "jolt",
            "--settings",
            "none.toml",
        ]),
        1,
        "none.toml",
    );
    // Nothing was written by the failed runs.
    assert!(!std::path::Path::new(&out).exists());
    let huge = dir.join("huge.toml");
    std::fs::write(&huge, "format_version = 1\nradii = [1e40, 1e40, 1e40]\n").unwrap();
    let huge = huge.display().to_string();
    assert_fails(
        &run(&[
            "settings",
            "export",
            &out,
            "--for",
            "physx",
            "--settings",
            &huge,
        ]),
        1,
        "radius 1.000e40 must be a finite number from 0.001 to 10000 m",
    );
}

/// The names in the table of docs/settings.md, per engine, are the names
/// the output writes.
#[test]
fn the_readme_table_names_are_the_names_written() {
    let page = doc("docs/settings.md");
    let section = page
        .split("\n## Settings for your engine\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the engine section of docs/settings.md");
    let names: [(&str, &[&str]); 6] = [
        (
            "rapier",
            &[
                "capsule_y",
                "offset",
                "autostep",
                "max_height",
                "min_width",
                "max_slope_climb_angle",
                "min_slope_slide_angle",
                "snap_to_ground",
            ],
        ),
        (
            "jolt",
            &[
                "CapsuleShapeSettings",
                "mShape",
                "mCharacterPadding",
                "mMaxCollisionIterations",
                "mBackFaceMode",
                "mWalkStairsStepUp",
                "mWalkStairsMinStepForward",
                "mMaxSlopeAngle",
                "mStickToFloorStepDown",
                "ExtendedUpdate",
            ],
        ),
        (
            "physx",
            &[
                "radius",
                "height",
                "contactOffset",
                "minDist",
                "stepOffset",
                "climbingMode",
                "slopeLimit",
                "nonWalkableMode",
                "elapsedTime",
            ],
        ),
        (
            "godot",
            &[
                "CapsuleShape3D",
                "safe_margin",
                "max_slides",
                "floor_max_angle",
                "floor_stop_on_slope",
                "floor_snap_length",
                "JUMP_VELOCITY",
                "physics/common/physics_ticks_per_second",
            ],
        ),
        (
            "unity",
            &[
                "radius",
                "height",
                "center",
                "skinWidth",
                "minMoveDistance",
                "stepOffset",
                "slopeLimit",
                "Fixed Timestep",
            ],
        ),
        (
            "unreal",
            &[
                "InitCapsuleSize",
                "MaxStepHeight",
                "SetWalkableFloorAngle",
                "WalkableFloorAngle",
                "MaxWalkSpeed",
                "JumpZVelocity",
                "GravityScale",
                "TerminalVelocity",
            ],
        ),
    ];
    for (engine, keys) in names {
        let r = run(&["settings", "export", "-", "--for", engine]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        for key in keys {
            assert!(r.stdout.contains(key), "{engine}: {key} not written");
            assert!(
                section.contains(key),
                "{engine}: {key} not in the table of docs/settings.md"
            );
        }
    }
}
