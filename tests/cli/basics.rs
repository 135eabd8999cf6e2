//! The real `collidoscope` binary on small fixture levels: `info` text and
//! JSON, `sweep` JSON traces (world-space positions) and the settings round
//! trip. Bad input is in `errors.rs`, the documentation's claims in `readme.rs`.

use crate::support::*;
use serde_json::Value;
use std::path::Path;

// ---- info ----

#[test]
fn info_text_lists_counts_objects_bvh_and_report() {
    let r = run(&["info", &fixture("cli_box.obj")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    for needle in [
        "vertices   8",
        "triangles  4",
        "objects    2",
        "floor",
        "wall",
        "bvh ",
        "bytes/triangle",
        "parse ",
        "1 lines (l)",
    ] {
        assert!(out.contains(needle), "{needle:?} missing from:\n{out}");
    }
    assert!(
        out.contains("min (-5.0000, 0.0000, -5.0000) max (5.0000, 3.0000, 5.0000)"),
        "{out}"
    );
}

#[test]
fn info_json_has_objects_bounds_bvh_and_import_report() {
    let v = json(&run(&["info", &fixture("cli_box.obj"), "--json"]));
    assert_eq!(v["vertices"], 8);
    assert_eq!(v["triangles"], 4);
    let objects = v["objects"].as_array().unwrap();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["name"], "floor");
    assert_eq!(objects[0]["triangle_count"], 2);
    assert_eq!(objects[1]["name"], "wall");
    assert_eq!(vec3(&objects[1]["aabb"]["min"]), [3.0, 0.0, -5.0]);
    assert_eq!(vec3(&v["bounds"]["max"]), [5.0, 3.0, 5.0]);
    let bvh = &v["bvh"];
    assert!(bvh["nodes"].as_u64().unwrap() >= 1);
    assert!(bvh["leaves"].as_u64().unwrap() >= 1);
    assert!(bvh["bytes_per_triangle"].as_f64().unwrap() > 0.0);
    let report = &v["import_report"];
    assert_eq!(report["lines_ignored"], 1);
    assert_eq!(report["ngons_triangulated"], 1);
    assert!(report["material_statements_ignored"].as_u64().unwrap() >= 2);
    assert!(v["parse_ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn info_applies_up_axis_and_scale() {
    let v = json(&run(&[
        "info",
        &fixture("cli_box.obj"),
        "--up",
        "z",
        "--scale",
        "2",
        "--json",
    ]));
    // Z up: the file's z (-5..5) becomes the height, scaled by 2.
    let b = &v["bounds"];
    assert!(
        near(vec3(&b["max"])[1] - vec3(&b["min"])[1], 20.0, 1e-4),
        "{b}"
    );
    assert_eq!(v["import_options"]["up"], "z");
}

#[test]
fn info_on_shared_levels_including_gzip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let stairs = dir.join("parry_stairs.obj").display().to_string();
    let v = json(&run(&["info", &stairs, "--json"]));
    assert_eq!(v["vertices"], 24);
    assert_eq!(v["triangles"], 44);
    let sibenik = dir
        .join("sibenik_dabrovic_75k.obj.gz")
        .display()
        .to_string();
    let v = json(&run(&["info", &sibenik, "--json"]));
    assert_eq!(v["vertices"], 40_981);
    let r = &v["import_report"];
    let kept_or_dropped = [
        "triangles",
        "degenerate_triangles_dropped",
        "duplicate_triangles_dropped",
    ]
    .map(|k| r[k].as_u64().unwrap())
    .iter()
    .sum::<u64>();
    assert_eq!(kept_or_dropped, 75_284, "{r}");
    assert!(v["bvh"]["max_depth"].as_u64().unwrap() >= 8);
}

// ---- sweep ----

/// Consecutive iterations chain (each starts where the previous ended) and
/// the last one ends at `final_position`.
fn assert_trace_chains(v: &Value) -> Vec<Value> {
    let its = v["iterations"].as_array().expect("iterations").clone();
    assert!(!its.is_empty());
    for (i, pair) in its.windows(2).enumerate() {
        assert_eq!(
            vec3(&pair[1]["start"]),
            vec3(&pair[0]["end"]),
            "iteration {i}"
        );
    }
    assert_eq!(
        vec3(&its.last().unwrap()["end"]),
        vec3(&v["final_position"])
    );
    for (i, it) in its.iter().enumerate() {
        assert_eq!(it["index"], i as u64);
        for key in [
            "start_espace",
            "velocity",
            "destination",
            "query_aabb",
            "outcome",
        ] {
            assert!(!it[key].is_null(), "iteration {i} lacks {key}: {it}");
        }
    }
    its
}

#[test]
fn sweep_into_the_wall_slides_along_it() {
    let v = sweep_json(&[
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,5",
    ]);
    assert_eq!(v["mode"], "robust");
    let its = assert_trace_chains(&v);
    assert_eq!(vec3(&its[0]["start"]), [0.0, 1.0, 0.0]);
    assert_eq!(vec3(&its[0]["velocity"]), [5.0, 0.0, 5.0]);
    // The wall (object 1) at x = 3 stops the centre one radius (0.4) and the skin short.
    let hit = &its[0]["nearest"];
    assert_eq!(hit["object"], 1, "{hit}");
    assert_eq!(hit["feature"]["kind"], "face", "{hit}");
    let t = hit["t"].as_f64().unwrap();
    assert!(t > 0.5 && t < 0.53, "t = {t}");
    let end0 = vec3(&its[0]["end"]);
    assert!(end0[0] > 2.55 && end0[0] < 2.6, "{end0:?}");
    // The rest of the move slides along the wall, to z = 5.
    let p = vec3(&v["final_position"]);
    assert!(p[0] > 2.55 && p[0] < 2.6, "{p:?}");
    assert!(near(p[1], 1.0, 1e-6) && near(p[2], 5.0, 0.02), "{p:?}");
    assert_eq!(v["end_reason"], "arrived");
    assert_eq!(vec3(&v["from"]), [0.0, 1.0, 0.0]);
    assert_eq!(vec3(&v["settings"]["radii"]), [0.4, 0.9, 0.4]);
}

#[test]
fn sweep_with_negative_gravity_lands_on_the_floor() {
    let v = sweep_json(&[
        "--from",
        "0,2,0",
        "--velocity",
        "-1,0,0",
        "--gravity",
        "0,-5,0",
    ]);
    let its = assert_trace_chains(&v);
    assert!(
        its.iter().any(|it| it["pass"] == "gravity"),
        "no gravity pass"
    );
    let p = vec3(&v["final_position"]);
    // Default radii 0.4, 0.9, 0.4: the centre rests 0.9 (+ skin) above the floor.
    assert!(near(p[0], -1.0, 1e-6), "{p:?}");
    assert!(p[1] > 0.9 && p[1] < 0.92, "{p:?}");
}

#[test]
fn sweep_runs_each_mode_and_flags_override_the_settings_file() {
    let dir = scratch("sweep_modes");
    let file = dir.join("nettle.toml");
    let text = "format_version = 1\nmode = \"nettle2000\"\nradii = [0.5, 0.5, 0.5]\n";
    std::fs::write(&file, text).unwrap();
    let file = file.display().to_string();
    let base = [
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,0",
        "--settings",
        file.as_str(),
    ];
    let v = sweep_json(&base);
    assert_eq!(v["mode"], "nettle2000");
    assert_eq!(vec3(&v["settings"]["radii"]), [0.5, 0.5, 0.5]);
    assert_trace_chains(&v);
    for mode in ["robust", "fauerby2003", "nettle2000"] {
        let mut args = base.to_vec();
        args.extend(["--mode", mode, "--radii", "0.3,0.6,0.3"]);
        let v = sweep_json(&args);
        assert_eq!(v["mode"], mode);
        assert_eq!(vec3(&v["settings"]["radii"]), [0.3, 0.6, 0.3]);
        assert_trace_chains(&v);
        let x = vec3(&v["final_position"])[0];
        assert!(x > 2.5 && x < 2.7 + 1e-9, "{mode}: x = {x}");
    }
}

#[test]
fn sweep_through_a_non_colliding_object() {
    let v = sweep_json(&[
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,0",
        "--non-colliding",
        "wall",
    ]);
    assert_eq!(vec3(&v["final_position"]), [5.0, 1.0, 0.0]);
    assert_eq!(v["end_reason"], "arrived");
    let level = fixture("cli_box.obj");
    let args = [
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,0",
        "--non-colliding",
        "roof",
    ];
    assert_fails(
        &run(&args),
        1,
        "no object named 'roof' (objects: floor, wall)",
    );
}

#[test]
fn sweep_summary_keeps_counts_and_drops_the_lists() {
    let args = ["--from", "0,1,0", "--velocity", "5,0,5"];
    let full = sweep_json(&args);
    let summary = sweep_json(&[&args[..], &["--summary"]].concat());
    assert_eq!(summary["final_position"], full["final_position"]);
    let (f0, s0) = (&full["iterations"][0], &summary["iterations"][0]);
    assert!(!f0["candidates"].as_array().unwrap().is_empty());
    assert!(!f0["bvh_nodes_visited"].as_array().unwrap().is_empty());
    assert!(s0["candidates"].as_array().unwrap().is_empty());
    assert!(s0["bvh_nodes_visited"].as_array().unwrap().is_empty());
    // A summary tests only the candidates within the probe's rounded
    // reach: at most as many as the full trace lists.
    let (sc, fc) = (
        s0["candidate_count"].as_u64(),
        f0["candidate_count"].as_u64(),
    );
    assert!(sc.unwrap() <= fc.unwrap(), "{sc:?} / {fc:?}");
    assert_eq!(s0["nearest"], f0["nearest"]);
}

#[test]
fn sweep_text_prints_one_line_per_iteration() {
    let r = run(&[
        "sweep",
        &fixture("cli_box.obj"),
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let iteration_lines: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("  #")).collect();
    assert!(iteration_lines.len() >= 2, "{}", r.stdout);
    assert!(
        iteration_lines[0].contains("hit triangle") && iteration_lines[0].contains("(wall) face")
    );
    assert!(r.stdout.contains("end reason  arrived"), "{}", r.stdout);
    assert!(r.stdout.contains("final       (2.5"), "{}", r.stdout);
}

// ---- settings ----

#[test]
fn settings_export_then_check_round_trips_in_both_formats() {
    let dir = scratch("settings_round_trip");
    for name in ["s.toml", "s.json"] {
        let path = dir.join(name).display().to_string();
        let r = run(&["settings", "export", &path]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.contains("radii"), "{written}");
        let r = run(&["settings", "check", &path]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout.starts_with(&format!("{path}: ok\n")),
            "{}",
            r.stdout
        );
        // The check prints the settings back in the file's format, unchanged.
        assert_eq!(r.stdout.split_once('\n').unwrap().1, written);
    }
}

#[test]
fn settings_export_does_not_overwrite_without_force() {
    let dir = scratch("settings_force");
    let path = dir.join("tuned.toml");
    std::fs::write(&path, "tuned").unwrap();
    let p = path.display().to_string();
    assert_fails(&run(&["settings", "export", &p]), 1, "--force");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "tuned");
    assert_eq!(run(&["settings", "export", &p, "--force"]).code, 0);
    assert_eq!(run(&["settings", "check", &p]).code, 0);
}

// ---- the character: walk, envelope, check ----

#[test]
fn walk_into_the_wall_stalls_against_it_and_json_tags_every_iteration_with_its_phase() {
    let level = fixture("cli_box.obj");
    let r = run(&[
        "walk",
        &level,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("stalled     from frame"), "{}", r.stdout);
    assert!(r.stdout.contains("(wall, 90.0° from up)"), "{}", r.stdout);
    let v = json(&run(&[
        "walk",
        &level,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "1",
        "--json",
    ]));
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 60);
    let phases: std::collections::BTreeSet<&str> = frames
        .iter()
        .flat_map(|f| f["iterations"].as_array().unwrap())
        .map(|i| i["phase"].as_str().unwrap())
        .collect();
    for p in [
        "velocity",
        "step_up",
        "step_forward",
        "step_down",
        "gravity",
    ] {
        assert!(phases.contains(p), "no {p} in {phases:?}");
    }
    // It stops against the wall at x = 3, a skin short of the radius.
    let end = v["summary"]["final_position"][0].as_f64().unwrap();
    assert!((end - (3.0 - 0.4)).abs() < 0.01, "{end}");
    assert!(v["summary"]["grounded"].as_bool().unwrap());
}

#[test]
fn envelope_json_has_every_limit_with_its_deciding_walks() {
    let v = json(&run(&["envelope", "--json"]));
    for key in [
        "max_step_height_m",
        "max_step_height_running_m",
        "max_slope_deg",
        "min_opening_width_m",
        "min_opening_height_m",
        "max_gap_crossed_m",
    ] {
        let l = &v[key];
        assert!(l["value"].as_f64().is_some(), "{key}: {l}");
        assert!(l["pass_walk"]["frames"].as_u64().unwrap() > 0, "{key}");
    }
    let step = v["max_step_height_m"]["value"].as_f64().unwrap();
    assert!((step - 0.3).abs() < 0.01, "{step}");
    // A taller step height raises the limit.
    let dir = scratch("envelope_settings");
    let path = dir.join("tall.toml");
    let text =
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\nmax_step_height_m = 0.5\n";
    std::fs::write(&path, text).unwrap();
    let v = json(&run(&[
        "envelope",
        "--settings",
        &path.display().to_string(),
        "--json",
    ]));
    let step = v["max_step_height_m"]["value"].as_f64().unwrap();
    assert!((step - 0.5).abs() < 0.01, "{step}");
}

#[test]
fn check_exits_3_when_a_finding_fails_and_writes_the_html_report() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/default_level.obj");
    let level = level.display().to_string();
    let dir = scratch("check_html");
    let html = dir.join("report.html");
    let r = run(&["check", &level, "--html", &html.display().to_string()]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.contains("verdicts    "), "{}", r.stdout);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!doctype html>") && page.contains("<svg"));
    assert_eq!(
        page.matches("<tr id=\"f").count(),
        r.stdout.lines().filter(|l| l.starts_with("  ")).count()
    );
    let r = run(&["check", &level, "--json"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    let door = findings
        .iter()
        .find(|f| f["object"] == "door_w0.60_h2.00" && f["kind"] == "opening")
        .expect("the narrow door");
    assert_eq!(door["verdict"], "blocked");
    assert!((door["width_m"].as_f64().unwrap() - 0.6).abs() < 0.01);
    assert!(
        door["reason"]
            .as_str()
            .unwrap()
            .contains("narrower than the character")
    );
    assert_eq!(door["position"].as_array().unwrap().len(), 3);
}

#[test]
fn check_exits_0_when_every_finding_passes() {
    // The box fixture's floor and wall: nothing to climb, pass or duck under.
    let r = run(&["check", &fixture("cli_box.obj")]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("findings    0"), "{}", r.stdout);
}

#[test]
fn sweep_flags_an_end_inside_geometry_and_a_ghost_corner() {
    // From behind a one-sided wall, which nettle2000 ignores.
    let args = [
        "sweep",
        &fixture("cli_box.obj"),
        "--from",
        "5,1,0",
        "--velocity",
        "-1.8,0,0",
        "--mode",
        "nettle2000",
    ];
    let text = run(&args).stdout;
    assert!(text.contains("EMBEDDED 0.2000 m (0.500 radii)"), "{text}");
    assert!(text.contains("VERDICT     embedded: 1 of 1"), "{text}");
    let v = json(&run(&[&args[..], &["--json"]].concat()));
    assert_eq!(v["embedded_iterations"], serde_json::json!([0]));
    assert!(
        v["verdict"]
            .as_str()
            .unwrap()
            .contains("nettle2000 ignores")
    );
    let c = &v["iterations"][0]["clearance"];
    assert_eq!(c["embedded"], true);
    assert!(near(c["metres"].as_f64().unwrap(), -0.2, 1e-9), "{c}");
    // Set down on the crest of a floor falling away by 0.5°.
    let crest = [
        "sweep",
        &fixture("ghost_crest.obj"),
        "--from",
        "0,1.2,0.5",
        "--velocity",
        "0,-1,0",
    ];
    let text = run(&crest).stdout;
    assert!(text.contains("GHOST corner (flat neighbours"), "{text}");
    let v = json(&run(&[&crest[..], &["--json"]].concat()));
    let ghost = &v["iterations"][0]["ghost_hit"];
    assert_eq!(ghost["neighbours"].as_array().unwrap().len(), 1, "{ghost}");
    assert!(
        near(ghost["max_fold_deg"].as_f64().unwrap(), 0.5, 1e-3),
        "{ghost}"
    );
    assert_eq!(v["verdict"], Value::Null);
}

#[test]
fn sweep_takes_a_shape_and_its_json_names_it() {
    // A 1.8 m capsule dropped on the floor at y = 0 stops with its centre
    // half its height plus the skin up; a 0.3 × 0.9 × 0.3 m half-size box
    // driven into the wall at x = 3 stops its face a skin short of it.
    let capsule = sweep_json(&[
        "--from",
        "0,3,0",
        "--velocity",
        "0,-6,0",
        "--shape",
        "capsule:0.4,1.8",
    ]);
    assert_eq!(capsule["settings"]["shape"]["kind"], "capsule");
    let y = vec3(&capsule["final_position"])[1];
    assert!(near(y, 0.905, 1e-6), "{y}");
    let boxed = sweep_json(&[
        "--from",
        "0,1,0",
        "--velocity",
        "6,0,0",
        "--shape",
        "box:0.3,0.9,0.3",
    ]);
    assert_eq!(boxed["settings"]["shape"]["kind"], "box");
    let x = vec3(&boxed["final_position"])[0];
    assert!(near(x, 3.0 - 0.3 - 0.005, 1e-6), "{x}");
    // The text names the shape instead of the radii.
    let r = run(&[
        "sweep",
        &fixture("cli_box.obj"),
        "--from",
        "0,3,0",
        "--velocity",
        "0,-6,0",
        "--shape",
        "sphere:0.5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("sphere r 0.5 m"), "{}", r.stdout);
}

#[test]
fn a_bad_shape_is_refused_saying_what_it_takes() {
    let box_obj = fixture("cli_box.obj");
    let sweep = |shape: &str| {
        run(&[
            "sweep",
            box_obj.as_str(),
            "--from",
            "0,3,0",
            "--velocity",
            "0,-6,0",
            "--shape",
            shape,
        ])
    };
    assert_fails(&sweep("capsule:0.4"), 2, "capsule takes R,H");
    assert_fails(&sweep("capsule:0.4,0.5"), 2, "twice its radius");
    assert_fails(&sweep("blob"), 2, "unknown shape 'blob'");
    assert_fails(&sweep("sphere:nan"), 2, "not a finite number");
    // Only robust mode slides other shapes.
    let mut args = vec![
        "sweep",
        box_obj.as_str(),
        "--from",
        "0,1,0",
        "--velocity",
        "6,0,0",
        "--shape",
        "box:0.3,0.9,0.3",
        "--mode",
        "nettle2000",
    ];
    let r = run(&args);
    assert_fails(&r, 1, "needs mode robust");
    args[9] = "all";
    assert_fails(&run(&args), 2, "runs only in robust mode");
    args.truncate(8);
    assert_eq!(run(&args).code, 0);
}
