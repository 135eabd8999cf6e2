//! Every bad-input path of the real binary: non-zero exit, one `error:`
//! line naming the file and line where there is one, no panic.

use crate::support::*;

// ---- bad input ----

#[test]
fn missing_level_file_fails_naming_it() {
    let missing = fixture("cli_no_such_level.obj");
    assert_fails(&run(&["info", &missing]), 1, "cli_no_such_level.obj");
    let r = run(&["sweep", &missing, "--from", "0,1,0", "--velocity", "1,0,0"]);
    assert_fails(&r, 1, "cli_no_such_level.obj");
}

#[test]
fn malformed_obj_lines_fail_with_file_and_line() {
    assert_fails(
        &run(&["info", &fixture("cli_malformed.obj")]),
        1,
        "cli_malformed.obj:4",
    );
    assert_fails(
        &run(&["info", &fixture("cli_bad_index.obj")]),
        1,
        "cli_bad_index.obj:5",
    );
}

#[test]
fn bad_vectors_and_radii_are_usage_errors() {
    let level = fixture("cli_box.obj");
    let cases: [(&[&str], &str); 9] = [
        (
            &["--from", "0,1,0", "--velocity", "1,0,0", "--skin", "-1"],
            "skin '-1'",
        ),
        (
            &[
                "--from",
                "0,1,0",
                "--velocity",
                "1,0,0",
                "--max-iterations",
                "0",
            ],
            "max-iterations",
        ),
        (
            &["--from", "0,1,0", "--velocity", "nan,0,0"],
            "not a finite number",
        ),
        (
            &["--from", "0,1,0", "--velocity", "1,0,inf"],
            "not a finite number",
        ),
        (
            &["--from", "0,1", "--velocity", "1,0,0"],
            "three comma-separated",
        ),
        (
            &[
                "--from",
                "0,1,0",
                "--velocity",
                "1,0,0",
                "--radii",
                "0.4,0,0.4",
            ],
            "must be a finite number from 0.001 to 10000 m",
        ),
        (
            &[
                "--from",
                "0,1,0",
                "--velocity",
                "1,0,0",
                "--radii",
                "-1,1,1",
            ],
            "must be a finite number from 0.001 to 10000 m",
        ),
        (
            &["--from", "0,1,0", "--velocity", "1,0,0", "--mode", "quake"],
            "unknown mode 'quake'",
        ),
        (&["--from", "0,1,0"], "--velocity"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["sweep", level.as_str()];
        args.extend_from_slice(extra);
        assert_fails(&run(&args), 2, needle);
    }
    assert_fails(&run(&["info", &level, "--scale", "0"]), 2, "scale");
    assert_fails(&run(&["info", &level, "--up", "x"]), 2, "--up");
    assert_fails(&run(&["info", "--teleport"]), 2, "--teleport");
}

#[test]
fn corrupt_settings_files_fail_with_file_and_line() {
    let dir = scratch("settings_corrupt");
    let zero = dir.join("zero.toml");
    std::fs::write(&zero, "format_version = 1\nradii = [0.4, 0.0, 0.4]\n").unwrap();
    let zero = zero.display().to_string();
    assert_fails(&run(&["settings", "check", &zero]), 1, "zero.toml:2:");
    let garbage = dir.join("garbage.json");
    std::fs::write(
        &garbage,
        "{\n  \"format_version\": 1,\n  \"radii\": [1, 1,\n",
    )
    .unwrap();
    let garbage = garbage.display().to_string();
    assert_fails(&run(&["settings", "check", &garbage]), 1, "garbage.json:");
    let binary = dir.join("binary.toml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let binary = binary.display().to_string();
    assert_fails(&run(&["settings", "check", &binary]), 1, "binary.toml:1:");
    assert_fails(
        &run(&["settings", "check", "s.yaml"]),
        1,
        "unknown settings format",
    );
    assert_fails(
        &run(&["settings", "check", &fixture("none.toml")]),
        1,
        "none.toml",
    );
    // The sweep reports the settings file before it even reads the level.
    let level = fixture("cli_box.obj");
    let r = run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--settings",
        &zero,
    ]);
    assert_fails(&r, 1, "zero.toml:2:");
}

#[test]
fn help_and_version_succeed() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    for sub in ["info", "sweep", "settings"] {
        assert!(r.stdout.contains(sub), "{}", r.stdout);
    }
    let r = run(&["sweep", "--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("--velocity <X,Y,Z>"), "{}", r.stdout);
    let r = run(&["--version"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("collidoscope "), "{}", r.stdout);
}

#[cfg(not(feature = "gui"))]
#[test]
fn without_the_gui_feature_no_subcommand_is_a_one_line_error() {
    assert_fails(&run::<&str>(&[]), 2, "no window");
    assert_fails(&run(&[fixture("cli_box.obj")]), 2, "no window");
}

// ---- the character: bad settings, bad walks, a level with no floor ----

#[test]
fn character_settings_out_of_range_fail_naming_the_field_and_line() {
    let dir = scratch("character_settings");
    for (line, field) in [
        ("walk_speed_m_s = -1.0", "walk_speed_m_s"),
        ("frame_rate_hz = 0.0", "frame_rate_hz"),
        ("max_slope_deg = 90.0", "max_slope_deg"),
    ] {
        let path = dir.join("bad.toml");
        let text = format!("format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\n{line}\n");
        std::fs::write(&path, text).unwrap();
        let p = path.display().to_string();
        assert_fails(&run(&["envelope", "--settings", &p]), 1, "bad.toml:4");
        let r = run(&[
            "walk",
            &fixture("cli_box.obj"),
            "--from",
            "0,1,0",
            "--direction",
            "1,0",
            "--settings",
            &p,
        ]);
        assert_fails(&r, 1, field);
        assert_fails(
            &run(&["check", &fixture("cli_box.obj"), "--settings", &p]),
            1,
            field,
        );
    }
}

#[test]
fn bad_walks_are_usage_errors() {
    let level = fixture("cli_box.obj");
    let cases: [(&[&str], &str); 4] = [
        (&["--from", "0,1,0", "--direction", "0,0"], "no way to walk"),
        (
            &["--from", "0,1,0", "--direction", "1,0,0"],
            "two comma-separated",
        ),
        (
            &["--from", "0,1,0", "--direction", "1,0", "--seconds", "-1"],
            "seconds",
        ),
        (
            &["--from", "0,1,0", "--direction", "1,0", "--seconds", "1e9"],
            "at most 36000 frames",
        ),
    ];
    for (args, needle) in cases {
        let mut all = vec!["walk", level.as_str()];
        all.extend_from_slice(args);
        assert_fails(&run(&all), 2, needle);
    }
}

#[test]
fn check_on_a_level_with_no_walkable_floor_says_so() {
    let dir = scratch("no_floor");
    let path = dir.join("wall.obj");
    std::fs::write(&path, "v 0 0 0\nv 4 0 0\nv 4 3 0\nv 0 3 0\nf 1 2 3 4\n").unwrap();
    assert_fails(
        &run(&["check", &path.display().to_string()]),
        1,
        "no walkable floor",
    );
}

#[test]
fn solver_inputs_beyond_what_it_can_compute_are_refused() {
    let level = fixture("cli_box.obj");
    let r = run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1e308,1e308,0",
    ]);
    assert_fails(&r, 2, "x 1e308 is beyond the supported ±1e9 m");
    let r = run(&["sweep", &level, "--from", "1e30,1,0", "--velocity", "1,0,0"]);
    assert_fails(&r, 2, "beyond the supported");
    let r = run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--skin",
        "1e9",
    ]);
    assert_fails(
        &r,
        1,
        "invalid settings: skin 1000000000 must be smaller than the smallest radius",
    );
    let r = run(&["info", &level, "--scale", "1e-45"]);
    assert_fails(&r, 2, "scale 1e-45 is outside the supported 1e-6 to 1e6");
}

#[test]
fn heightmap_levels_load_and_bad_ones_fail_clearly() {
    let dir = scratch("heightmap");
    let good = dir.join("ramp.png");
    let img = image::GrayImage::from_fn(6, 4, |x, _| image::Luma([(x * 40) as u8]));
    img.save(&good).unwrap();
    let good = good.display().to_string();
    let r = run(&[
        "info",
        &good,
        "--heightmap-spacing",
        "2",
        "--height-scale",
        "5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("triangles  30"), "{}", r.stdout);
    let walk = [
        "walk",
        &good,
        "--heightmap-spacing",
        "2",
        "--from",
        "2,3,3",
        "--direction",
        "1,0",
    ];
    assert_eq!(run(&walk).code, 0);
    assert_fails(
        &run(&["info", &good, "--heightmap-spacing", "0"]),
        2,
        "spacing 0",
    );
    let bad = dir.join("bad.png");
    std::fs::write(&bad, b"o not an image\n").unwrap();
    assert_fails(
        &run(&["info", &bad.display().to_string()]),
        1,
        "not an image file",
    );
}
