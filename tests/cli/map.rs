//! `collidoscope map` end to end on small generated levels: text, JSON
//! shape, PNG, exit codes, shards merged back into the whole, bad flags.

use crate::support::*;
use collidoscope::analysis::generate::parts::{floor, funnel_gap, wall};
use collidoscope::analysis::generate::{LevelBuilder, write_obj};
use glam::{DVec2, DVec3};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// An 8 m walled room, with a funnel into a 0.80 m slot when `funnel`.
fn room_obj(dir: &Path, funnel: bool) -> PathBuf {
    let size = 8.0;
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::ZERO, DVec2::splat(size), 0.0, 0.5, 2.0),
    );
    let mut walls = wall(DVec3::ZERO, size, 2.5, 0.2, None);
    walls.append(&wall(
        DVec3::new(0.0, 0.0, size - 0.2),
        size,
        2.5,
        0.2,
        None,
    ));
    for x in [0.0, size - 0.2] {
        let w = wall(DVec3::ZERO, size - 0.4, 2.5, 0.2, None).turned(3);
        walls.append(&w.translated(DVec3::new(x + 0.2, 0.0, 0.2)));
    }
    b.add("walls", &walls);
    if funnel {
        let at = DVec3::new(5.0, 0.0, 4.0);
        b.add("funnel", &funnel_gap(at, 0.8, 1.4, 1.2, 0.2, 2.5));
    }
    let path = dir.join(if funnel { "funnel.obj" } else { "room.obj" });
    let mut f = std::fs::File::create(&path).unwrap();
    write_obj(&b.build(), &mut f).unwrap();
    path
}

/// 1 m spacing, 4 directions, 0.5 s walks (unless `extra` says otherwise).
fn map_args<'a>(level: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["map", level, "--spacing", "1", "--directions", "4"];
    if !extra.contains(&"--seconds") {
        v.extend(["--seconds", "0.5"]);
    }
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_clean_room_exits_0_and_a_stuck_spot_exits_3_with_where_it_is() {
    let dir = scratch("map_exit_codes");
    let clean = room_obj(&dir, false);
    let r = run(&map_args(clean.to_str().unwrap(), &["--seconds", "0.3"]));
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("classes     "), "{}", r.stdout);
    assert!(r.stdout.contains(" 0 stuck"), "{}", r.stdout);
    let funnel = room_obj(&dir, true);
    let r = run(&map_args(funnel.to_str().unwrap(), &[]));
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("worst spots"), "{}", r.stdout);
    assert!(r.stdout.contains("  stuck "), "{}", r.stdout);
    assert!(r.stdout.contains("collidoscope walk LEVEL"), "{}", r.stdout);
}

#[test]
fn json_has_the_grid_counts_and_every_spot_with_its_worst_walk() {
    let dir = scratch("map_json");
    let funnel = room_obj(&dir, true);
    let r = run(&map_args(funnel.to_str().unwrap(), &["--json"]));
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["level"], "funnel.obj");
    assert_eq!(v["directions"], 4);
    assert_eq!(v["seconds"], 0.5);
    assert_eq!(v["grid"]["spacing_m"], 1.0);
    assert_eq!(v["shard"]["count"], 1);
    assert_eq!(v["settings"]["self_checks"], true);
    assert!(
        v["counts"]["stuck"].as_u64().unwrap() > 0,
        "{}",
        v["counts"]
    );
    let spots = v["spots"].as_array().unwrap();
    assert_eq!(
        spots.len() as u64 + v["unplaceable"].as_u64().unwrap(),
        v["start_points"].as_u64().unwrap()
    );
    let stuck = spots.iter().find(|s| s["class"] == "stuck").unwrap();
    for key in [
        "index",
        "cell",
        "floor_y",
        "start",
        "worst_direction",
        "direction",
        "frame",
        "end",
    ] {
        assert!(!stuck[key].is_null(), "{key} in {stuck}");
    }
    assert_eq!(stuck["walks"].as_array().unwrap().len(), 4);
    assert_eq!(vec3(&stuck["start"]).len(), 3);
}

#[test]
fn shards_merged_from_the_command_line_give_the_whole_map() {
    let dir = scratch("map_shards");
    let funnel = room_obj(&dir, true);
    let level = funnel.to_str().unwrap();
    let whole = run(&map_args(level, &["--json"]));
    let mut parts = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let r = run(&map_args(level, &["--json", "--shard", &shard]));
        assert!(r.code == 0 || r.code == 3, "{}", r.stderr);
        let path = dir.join(format!("part{i}.json"));
        std::fs::write(&path, &r.stdout).unwrap();
        parts.push(path.to_str().unwrap().to_string());
    }
    let png = dir.join("merged.png");
    let mut args = vec!["map", "--json", "--png", png.to_str().unwrap(), "--merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged = run(&args);
    assert_eq!(merged.code, whole.code, "{}", merged.stderr);
    let (m, w): (Value, Value) = (
        serde_json::from_str(&merged.stdout).unwrap(),
        serde_json::from_str(&whole.stdout).unwrap(),
    );
    for key in [
        "spots",
        "counts",
        "start_points",
        "unplaceable",
        "walks",
        "frames",
        "grid",
    ] {
        assert_eq!(m[key], w[key], "{key}");
    }
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (8 * 16, 8 * 16));
    // A part given twice, or one missing, is refused.
    let r = run(&["map", "--merge", &parts[0], &parts[0], &parts[1]]);
    assert_fails(&r, 1, "given twice");
    let r = run(&["map", "--merge", &parts[0], &parts[1]]);
    assert_fails(&r, 1, "shard 2/3 is missing");
}

#[test]
fn bad_flags_and_files_are_one_line_errors() {
    let dir = scratch("map_errors");
    let room = room_obj(&dir, false);
    let level = room.to_str().unwrap();
    for (args, code, needle) in [
        (vec!["map", level, "--spacing", "0"], 2, "spacing 0 m"),
        (
            vec!["map", level, "--spacing", "0.0001"],
            2,
            "grid columns over the level; the limit is 4000000",
        ),
        (vec!["map", level, "--directions", "0"], 2, "0 directions"),
        (vec!["map", level, "--seconds", "-1"], 2, "s walks"),
        (vec!["map", level, "--shard", "3/3"], 2, "must be I/N"),
        (vec!["map", level, "--shard", "x"], 2, "must be I/N"),
        (vec!["map"], 2, "required"),
        (
            vec!["map", level, "--merge", "a.json"],
            2,
            "cannot be used with",
        ),
        (vec!["map", "no/such/level.obj"], 1, "no/such/level.obj"),
        (vec!["map", "--merge", level], 1, "not a map JSON"),
        (
            vec!["map", "--merge", "no/such/part.json"],
            1,
            "no/such/part.json",
        ),
    ] {
        let r = run(&args);
        assert_fails(&r, code, needle);
    }
}

#[test]
fn spawn_points_are_where_reachability_starts() {
    let dir = scratch("map_spawn");
    let room = room_obj(&dir, false);
    let level = room.to_str().unwrap();
    let r = run(&map_args(
        level,
        &["--seconds", "0.3", "--spawn", "4,0.9,4", "--json"],
    ));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["spawns"][0], serde_json::json!([4.0, 0.9, 4.0]));
    assert_eq!(v["unreachable"], 0);
    let spots = v["spots"].as_array().unwrap();
    assert!(spots.iter().all(|s| s["reachable"] == true));
    let r = run(&map_args(
        level,
        &["--seconds", "0.3", "--spawn", "4,0.9,4"],
    ));
    assert!(
        r.stdout
            .contains("unreachable from spawn (4.0000, 0.9000, 4.0000)"),
        "{}",
        r.stdout
    );
    // A spawn point away from every start, or not a point, is refused.
    let r = run(&map_args(level, &["--spawn", "40,0.9,4"]));
    assert_fails(&r, 2, "spawn point (40.0000, 0.9000, 4.0000)");
    let r = run(&map_args(level, &["--spawn", "4,0.9"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(&["map", "--merge", "a.json", "--spawn", "1,1,1"]);
    assert_fails(&r, 2, "cannot be used with");
}
