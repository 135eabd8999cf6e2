//! `collidoscope settings export FILE --for ENGINE [--settings TUNED]`:
//! every engine, tuned values from a settings file, stdout, no clobbering,
//! bad engine names and bad settings files. `collidoscope settings import
//! --from ENGINE FILE [--out SETTINGS]`: every export reads back as the
//! same character; no clobbering; hostile files get one-line errors.

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

/// The settings in a `.toml` file or TOML text.
fn settings_of(text: &str) -> collidoscope::collide::SlideSettings {
    collidoscope::settings_file::parse(
        text,
        collidoscope::settings_file::SettingsFormat::Toml,
        std::path::Path::new("read.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}:\n{text}"))
}

#[test]
fn every_engine_export_reads_back_as_the_same_character() {
    let dir = scratch("engines_import_each");
    let tuned = tuned_file(&dir);
    for engine in ENGINES {
        let exported = dir.join(format!("character_{engine}"));
        let e = exported.display().to_string();
        let r = run(&[
            "settings",
            "export",
            &e,
            "--for",
            engine,
            "--settings",
            &tuned,
        ]);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        // To a file: the settings file it writes is a valid one.
        let read = dir.join(format!("read_{engine}.toml"));
        let out = read.display().to_string();
        let r = run(&["settings", "import", "--from", engine, &e, "--out", &out]);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        assert!(r.stdout.starts_with("read the "), "{engine}: {}", r.stdout);
        assert!(
            r.stderr.starts_with(&format!(
                "note: not in the {engine} export, Collidoscope's defaults kept: "
            )),
            "{engine}: {}",
            r.stderr
        );
        let back = std::fs::read_to_string(&read).unwrap();
        let s = settings_of(&back);
        let c = &s.character;
        assert_eq!(s.radii, [0.3, 0.85, 0.3], "{engine}");
        assert_eq!(c.max_slope_deg, 30.0, "{engine}");
        let step = if engine == "godot" { 0.3 } else { 0.35 };
        assert_eq!(c.max_step_height_m, step, "{engine}: Godot has no step-up");
        let skin = if engine == "unreal" { 0.005 } else { 0.01 };
        assert_eq!(s.skin, skin, "{engine}: Unreal has no skin");
        assert_eq!(c.frame_rate_hz, 60.0, "{engine}");
        assert_eq!(c.gravity_m_s2, 9.81, "{engine}");
        // Exported again, the settings read back write the same file; but
        // for the not-mapped notes of Godot's step and Unreal's skin, which
        // hold the tuned values the engine has no setting for.
        let again = dir.join(format!("again_{engine}")).display().to_string();
        let r = run(&[
            "settings",
            "export",
            &again,
            "--for",
            engine,
            "--settings",
            &out,
        ]);
        assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
        let lossy = engine == "godot" || engine == "unreal";
        let kept = |path: &str| -> Vec<String> {
            std::fs::read_to_string(path)
                .unwrap()
                .lines()
                .filter(|l| !(lossy && l.starts_with(['#', '/'])))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(kept(&again), kept(&e), "{engine}");
        // Without --out (or with -): the settings as TOML on stdout.
        for args in [vec![], vec!["--out", "-"]] {
            let mut all = vec!["settings", "import", "--from", engine, e.as_str()];
            all.extend(args);
            let r = run(&all);
            assert_eq!(r.code, 0, "{engine}: {}", r.stderr);
            assert_eq!(r.stdout, back, "{engine}");
        }
    }
}

#[test]
fn import_never_clobbers_and_says_what_was_clamped() {
    let dir = scratch("engines_import_force");
    let unity = dir.join("Character.cs");
    let u = unity.display().to_string();
    let tall = dir.join("tall.toml");
    std::fs::write(
        &tall,
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\nmax_step_height_m = 2.5\n",
    )
    .unwrap();
    let tall = tall.display().to_string();
    let r = run(&[
        "settings",
        "export",
        &u,
        "--for",
        "unity",
        "--settings",
        &tall,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = dir.join("mine.toml");
    std::fs::write(&out, "mine").unwrap();
    let o = out.display().to_string();
    assert_fails(
        &run(&["settings", "import", "--from", "unity", &u, "--out", &o]),
        1,
        "--force",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    // Never over its own input, even with --force.
    assert_fails(
        &run(&[
            "settings", "import", "--from", "unity", &u, "--out", &u, "--force",
        ]),
        1,
        "Character.cs",
    );
    // Never through a symbolic link.
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink(&out, &link).unwrap();
    let l = link.display().to_string();
    assert_fails(
        &run(&[
            "settings", "import", "--from", "unity", &u, "--out", &l, "--force",
        ]),
        1,
        "link.toml",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine");
    // Only .toml or .json.
    let txt = dir.join("read.txt").display().to_string();
    assert_fails(
        &run(&["settings", "import", "--from", "unity", &u, "--out", &txt]),
        1,
        "unknown settings format",
    );
    let r = run(&[
        "settings", "import", "--from", "unity", &u, "--out", &o, "--force",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = settings_of(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(
        s.character.max_step_height_m, 1.8,
        "clamped as the file holds it"
    );
    assert!(
        r.stderr.lines().any(|l| l.starts_with("warning: ")
            && l.contains("stepOffset: the tuned 2.5")
            && l.contains("read back as written")),
        "{}",
        r.stderr
    );
    // JSON by extension.
    let json_out = dir.join("read.json");
    let j = json_out.display().to_string();
    let r = run(&["settings", "import", "--from", "unity", &u, "--out", &j]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_out).unwrap()).unwrap();
    assert_eq!(v["character"]["max_step_height_m"], 1.8);
}

#[test]
fn hostile_engine_files_fail_with_one_line() {
    let dir = scratch("engines_import_hostile");
    let file = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    };
    let out = dir.join("never.toml");
    let o = out.display().to_string();
    let import =
        |engine: &str, f: &str| run(&["settings", "import", "--from", engine, f, "--out", &o]);
    assert_fails(
        &import("godot", &file("empty.gd", b"")),
        1,
        "empty.gd: the file is empty",
    );
    assert_fails(
        &import(
            "jolt",
            &file("junk.h", &[0xff, 0xfe, 0x00, 0x9c, 0x80, 0x01]),
        ),
        1,
        "junk.h: is not UTF-8 text",
    );
    assert_fails(
        &import("jolt", &file("nul.h", &[0u8; 4096])),
        1,
        "nul.h: not a Jolt CharacterVirtualSettings export",
    );
    let mut long = b"controller.radius = ".to_vec();
    long.resize(10 << 20, b'9');
    assert_fails(
        &import("unity", &file("long.cs", &long)),
        1,
        "larger than the 1 MiB an engine settings file may have",
    );
    let big = format!("controller.radius = {};\n", "9".repeat(500_000));
    assert_fails(
        &import("unity", &file("big.cs", big.as_bytes())),
        1,
        "(500021 characters)",
    );
    let unity = run(&["settings", "export", "-", "--for", "unity"]).stdout;
    assert_fails(
        &import("jolt", &file("Character.cs", unity.as_bytes())),
        1,
        "Character.cs: not a Jolt CharacterVirtualSettings export: none of its settings \
         (CapsuleShapeSettings, mMaxSlopeAngle, mCharacterPadding) is in the file \
         (it looks like a Unity CharacterController export: try --from unity)",
    );
    let no_slope = unity.replace("controller.slopeLimit = 45.0f;", "");
    assert_fails(
        &import("unity", &file("no_slope.cs", no_slope.as_bytes())),
        1,
        "no_slope.cs: missing controller.slopeLimit",
    );
    let steep = unity.replace(
        "controller.slopeLimit = 45.0f;",
        "controller.slopeLimit = 1e999f;",
    );
    let line = unity
        .lines()
        .position(|l| l.contains("slopeLimit"))
        .unwrap()
        + 1;
    assert_fails(
        &import("unity", &file("steep.cs", steep.as_bytes())),
        1,
        &format!(
            "steep.cs:{line}: controller.slopeLimit is not a finite number: \
             `controller.slopeLimit = 1e999f; // max_s… (57 characters)`"
        ),
    );
    assert_fails(&import("unity", "none.cs"), 1, "none.cs");
    assert_fails(
        &import("unity", &dir.display().to_string()),
        1,
        "not a regular file",
    );
    assert_fails(&import("quake", "none.cs"), 2, "unknown engine 'quake'");
    assert_fails(&run(&["settings", "import", "none.cs"]), 2, "--from");
    assert!(!out.exists(), "nothing written by the failed runs");
}
