//! Numbers inside the physics' range and messages of bounded length,
//! through the real binary: every setting's range holds for flags and
//! files alike, map parts are checked before anything is sized by them, a
//! map too long to wait for is refused with its estimate, and every error
//! that repeats user text repeats at most a short prefix of it.

use crate::support::*;
use std::path::Path;

fn default_level() -> String {
    format!("{}/assets/default_level.obj", env!("CARGO_MANIFEST_DIR"))
}

/// Writes `text` to `name` in `dir`.
fn write_in(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Writes one file into test `test`'s fresh scratch folder.
fn write(test: &str, name: &str, text: &str) -> String {
    write_in(&scratch(test), name, text)
}

/// A settings file of the defaults plus `extra` (TOML lines).
fn settings(test: &str, extra: &str) -> String {
    write(
        test,
        "s.toml",
        &format!("format_version = 1\nradii = [0.4, 0.9, 0.4]\n{extra}\n"),
    )
}

#[test]
fn a_radius_below_a_millimetre_is_refused_with_the_smallest_safe_value() {
    let sweep = |radii: &str| {
        run(&[
            "sweep",
            &default_level(),
            "--from",
            "0,1,0",
            "--velocity",
            "5,0,0",
            "--radii",
            radii,
            "--skin",
            "0",
        ])
    };
    for tiny in [
        "1e-100,1e-100,1e-100",
        "1e-20,1e-20,1e-20",
        "0.4,0.0009,0.4",
    ] {
        assert_fails(&sweep(tiny), 2, "below the smallest safe radius, 0.001 m");
    }
    assert_eq!(sweep("0.001,0.001,0.001").code, 0);
    let file = settings("radius_file", "").replace("s.toml", "r.toml");
    std::fs::write(&file, "format_version = 1\nradii = [1e308, 0.9, 0.4]\n").unwrap();
    assert_fails(
        &run(&["settings", "check", &file]),
        1,
        "radius 1.000e308 must be a finite number from 0.001 to 10000 m",
    );
}

#[test]
fn arrays_of_the_wrong_length_and_a_frame_rate_below_1_hz_are_refused() {
    let four = write(
        "four_radii",
        "four.toml",
        "format_version = 1\nradii = [0.4, 0.9, 0.4, 7]\n",
    );
    assert_fails(
        &run(&["settings", "check", &four]),
        1,
        "four.toml:2:9: expected exactly three numbers [x, y, z], got 4",
    );
    let two = settings("two_gravity", "gravity = [0.0, -1.0]");
    assert_fails(
        &run(&["settings", "check", &two]),
        1,
        "expected exactly three numbers [x, y, z], got 2",
    );
    let slow = settings("slow_frames", "[character]\nframe_rate_hz = 1e-300");
    let r = run(&["settings", "check", &slow]);
    assert_fails(
        &r,
        1,
        "character.frame_rate_hz = 1.000e-300 must be a finite number at least 1 and at most 1000",
    );
    assert!(r.stderr.len() < 200, "{}", r.stderr);
    let many = settings("many_iterations", "max_iterations = 4000000000");
    assert_fails(
        &run(&["settings", "check", &many]),
        1,
        "max_iterations 4000000000 must be from 1 to 1000",
    );
}

#[test]
fn a_path_point_beyond_the_solver_range_is_refused() {
    let path = write("far_path", "path.json", "[[0, 1, 0], [1e30, 1, 0]]");
    assert_fails(
        &run(&["boxcam", &default_level(), "--path", &path]),
        1,
        "point 1 is not [x, y, z] within ±1e9 m",
    );
}

/// A map part of the built-in level, made once per test.
fn map_part(test: &str) -> (String, serde_json::Value) {
    let r = run(&[
        "map",
        &default_level(),
        "--spacing",
        "4",
        "--directions",
        "2",
        "--seconds",
        "0.2",
        "--json",
    ]);
    assert!(r.code == 0 || r.code == 3, "{}", r.stderr);
    let path = write(test, "part.json", &r.stdout);
    (path, serde_json::from_str(&r.stdout).unwrap())
}

#[test]
fn map_parts_are_checked_before_anything_is_allocated() {
    let (good, part) = map_part("map_parts");
    let merged = run(&["map", "--merge", &good]);
    assert!(merged.code == 0 || merged.code == 3, "{}", merged.stderr);
    let dir = Path::new(&good).parent().unwrap().to_path_buf();
    let bad = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = part.clone();
        edit(&mut v);
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        run(&["map", "--merge", p.to_str().unwrap()])
    };
    let huge = bad("huge_grid.json", &|v| {
        v["grid"]["nx"] = 100_000.into();
        v["grid"]["nz"] = 100_000.into();
    });
    assert_fails(&huge, 1, "a grid of 100000 × 100000 columns");
    let max = bad("max_grid.json", &|v| {
        v["grid"]["nx"] = u32::MAX.into();
    });
    assert_fails(&max, 1, "columns in all");
    let shards = bad("max_shards.json", &|v| {
        v["shard"]["count"] = u32::MAX.into();
    });
    assert_fails(&shards, 1, "at most 65536 parts");
    let spot = bad("spot_outside.json", &|v| {
        v["spots"][0]["cell"][0] = 1_000_000.into();
    });
    assert_fails(&spot, 1, "does not fit the map's grid");
    let radii = bad("tiny_radii.json", &|v| {
        v["settings"]["radii"][1] = 1e-30.into();
    });
    assert_fails(&radii, 1, "below the smallest safe radius");
}

#[test]
fn a_map_beyond_its_frame_limit_is_refused_with_its_estimate() {
    let r = run(&[
        "map",
        &default_level(),
        "--spacing",
        "1",
        "--max-frames",
        "1000",
    ]);
    assert_fails(&r, 2, "this map would run ");
    assert!(
        r.stderr.contains("more than the limit of 1000") && r.stderr.contains("--max-frames"),
        "{}",
        r.stderr
    );
    let ok = run(&[
        "map",
        &default_level(),
        "--spacing",
        "4",
        "--directions",
        "2",
        "--seconds",
        "0.2",
        "--max-frames",
        "1000000",
    ]);
    assert!(ok.code == 0 || ok.code == 3, "{}", ok.stderr);
}

/// Every error path that repeats user text, fed 100,000 characters of it:
/// the message quotes a prefix, says how long the text was, and stays one
/// short line.
#[test]
fn every_error_quoting_user_text_quotes_a_short_prefix() {
    let long = "q".repeat(100_000);
    let level = default_level();
    let dir = scratch("long_text");
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    let mut case = |name: &str, args: Vec<String>| cases.push((name.to_string(), args));
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    for (name, extra) in [
        ("mode", format!("mode = \"{long}\"")),
        ("key", format!("{long} = 1")),
        ("skin", format!("skin = \"{long}\"")),
        ("pattern", format!("[level]\nnon_colliding = [\"{long}\"]")),
        ("character", format!("[character]\n{long} = 3.0")),
    ] {
        let file = write_in(&dir, &format!("{name}.toml"), &{
            let base = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n";
            if extra.starts_with('[') {
                format!("{base}{extra}\n")
            } else {
                format!("{extra}\n{base}")
            }
        });
        case(
            &format!("settings {name}"),
            s(&["settings", "check", &file]),
        );
    }
    let json = write_in(&dir, "mode.json", &format!("{{\"mode\": \"{long}\"}}"));
    case("settings json", s(&["settings", "check", &json]));
    for flag in ["--radii", "--from", "--velocity", "--mode", "--skin"] {
        let mut args = s(&["sweep", &level]);
        for (name, value) in [("--from", "0,1,0"), ("--velocity", "1,0,0")] {
            if name != flag {
                args.extend(s(&[name, value]));
            }
        }
        args.push(flag.to_string());
        args.push(long.clone());
        case(&format!("sweep {flag}"), args);
    }
    case(
        "non-colliding",
        s(&[
            "sweep",
            &level,
            "--from",
            "0,1,0",
            "--velocity",
            "1,0,0",
            "--non-colliding",
            &long,
        ]),
    );
    case(
        "shard",
        s(&["map", &level, "--shard", &format!("0/{long}")]),
    );
    let batch = write_in(
        &dir,
        "batch.jsonl",
        &format!("{{\"from\": [0, 1, 0], \"velocity\": [1, 0, 0], \"mode\": \"{long}\"}}\n"),
    );
    case("batch", s(&["sweep", &level, "--batch", &batch]));
    let pairs = write_in(&dir, "pairs.json", &format!("[\"{long}\"]"));
    case("pairs", s(&["pairs", &pairs]));
    let path = write_in(&dir, "path.json", &format!("{{\"{long}\": 1}}"));
    case("boxcam path", s(&["boxcam", &level, "--path", &path]));
    let part = write_in(
        &dir,
        "part.json",
        &format!("{{\"level\": 1, \"x\": \"{long}\"}}"),
    );
    case("map part", s(&["map", "--merge", &part]));
    let recording = write_in(&dir, "rec.csv", &format!("t,x,y,z\n0,{long},1,0\n"));
    case("recording", s(&["replay", &level, &recording]));
    let obj = write_in(&dir, "bad.obj", &format!("v 0 0 {long}\n"));
    case("level", s(&["info", &obj]));
    for (name, args) in cases {
        let r = run(&args);
        assert_ne!(r.code, 0, "{name}: accepted");
        assert!(
            !r.stderr.contains("panicked"),
            "{name}: {}",
            &r.stderr[..r.stderr.len().min(500)]
        );
        assert!(
            r.stderr.len() < 1_200,
            "{name}: {} bytes of stderr: {}",
            r.stderr.len(),
            &r.stderr[..r.stderr.len().min(300)]
        );
        // A message that quotes the text says its length (100,000
        // characters, or its line's bytes).
        let says_length = !r.stderr.contains("qqq")
            || r.stderr
                .split(|c: char| !c.is_ascii_digit())
                .any(|n| n.len() >= 5 && n.starts_with("100"));
        assert!(says_length, "{name}: no length in {}", r.stderr);
        assert!(
            !r.stderr.contains(&"q".repeat(41)),
            "{name}: quotes more than 40 characters: {}",
            &r.stderr[..r.stderr.len().min(300)]
        );
    }
}
