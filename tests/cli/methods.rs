//! The other methods through the real binary: `pairs` (swept bounding
//! spheres between probes), `boxcam` (the box camera against the level, also
//! along a recorded walk) and `sweep --method discrete|box`. The radial
//! method is in `radial.rs`.

use crate::support::*;
use serde_json::Value;

#[test]
fn pairs_reports_contact_and_closest_approach_of_every_tested_pair() {
    let dir = scratch("pairs");
    let file = dir.join("probes.json");
    std::fs::write(
        &file,
        r#"[{"name": "A", "from": [0, 1, 0], "velocity": [8.2, 0, 0]},
            {"name": "B", "from": [10, 1, 0], "velocity": [-8.2, 0, 0], "radii": [0.4, 0.9, 0.4]},
            {"name": "Far", "from": [100, 1, 0], "velocity": [0, 0, 1]}]"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let r = run(&["pairs", path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("3 probes, 3 pairs; 1 tested after the sort along x; 1 collide"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("A x B: contact at t = 0.5000, at (5.0000, 1.0000, 0.0000)"),
        "{}",
        r.stdout
    );
    let v = json(&run(&["pairs", path, "--json"]));
    assert_eq!(v["probes"].as_array().unwrap().len(), 3);
    let pair = &v["pairs"][0];
    assert_eq!((pair["a"].as_u64(), pair["b"].as_u64()), (Some(0), Some(1)));
    assert_eq!(pair["outcome"]["outcome"], "hit");
    assert!(near(pair["contact"]["t"].as_f64().unwrap(), 0.5, 1e-12));
    assert!(near(pair["closest"]["gap"].as_f64().unwrap(), -1.8, 1e-9));
    // Bad files: named, one line, exit 1.
    std::fs::write(&file, "[{\"from\": [0, 0], \"velocity\": [1, 0, 0]}]").unwrap();
    assert_fails(&run(&["pairs", path]), 1, "probes.json");
    std::fs::write(
        &file,
        "[{\"from\": [0, 0, 0], \"velocity\": [1, 0, 0], \"radii\": [0, 1, 1]}]",
    )
    .unwrap();
    assert_fails(&run(&["pairs", path]), 1, "every radius must be positive");
}

#[test]
fn boxcam_rejects_the_floor_at_level_one_and_finds_the_wall_crossings() {
    let level = fixture("cli_box.obj");
    let r = run(&["boxcam", &level, "--at", "3,1.5,0"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("triangles rejected at level 1: 2, 2: 0, 3: 0, 4: 0; colliding: 2"),
        "{}",
        r.stdout
    );
    let v = json(&run(&["boxcam", &level, "--at", "3,1.5,0", "--json"]));
    assert_eq!(v["objects_passed"], serde_json::json!([1]));
    let points: Vec<[f64; 3]> = v["triangles"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["hits"].as_array().unwrap().clone())
        .map(|h| vec3(&h["point"]))
        .collect();
    assert_eq!(points.len(), 4);
    assert!(points.iter().all(|p| near(p[0], 3.0, 1e-9)), "{points:?}");
    assert_fails(&run(&["boxcam", &level]), 2, "--at");
}

#[test]
fn boxcam_tests_a_recorded_walk_one_box_per_segment() {
    let level = fixture("cli_box.obj");
    let dir = scratch("boxcam_walk");
    let walk = run(&[
        "walk",
        &level,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "1",
        "--json",
    ]);
    assert_eq!(walk.code, 0, "{}", walk.stderr);
    let file = dir.join("walk.json");
    std::fs::write(&file, &walk.stdout).unwrap();
    let v = json(&run(&[
        "boxcam",
        &level,
        "--path",
        file.to_str().unwrap(),
        "--half-extents",
        "0.5,0.8,0.5",
        "--json",
    ]));
    assert_eq!(v["segments"].as_array().unwrap().len(), 60);
    // The walk stalls against the wall at x = 3: the wider box's edges
    // along x cross it on the last segments, and only there.
    assert!(v["colliding_segments"].as_u64().unwrap() >= 1);
    assert_eq!(v["colliding_triangles"], 2);
    let first = &v["segments"][0];
    assert_eq!(first["report"]["colliding"], 0);
    // A plain array of points works too; a bad one is named.
    std::fs::write(&file, "[[0, 1, 0], [2, 1, 0], [4, 1, 0]]").unwrap();
    let v = json(&run(&[
        "boxcam",
        &level,
        "--path",
        file.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["colliding_segments"], 1);
    assert_eq!(v["whole_box_candidates"], 2);
    std::fs::write(&file, "[[0, 1, 0], [2, 1]]").unwrap();
    assert_fails(
        &run(&["boxcam", &level, "--path", file.to_str().unwrap()]),
        1,
        "point 1 is not [x, y, z]",
    );
    // Odd files: a frame whose ends are not objects, JSON nested past the
    // parser's depth limit, and a long walk (read without keeping every
    // other field: 200,000 frames took 491 MB before, 42 MB now) refused
    // by the segment limit.
    std::fs::write(&file, r#"{"frames": [{"before": 5}]}"#).unwrap();
    let out = run(&["boxcam", &level, "--path", file.to_str().unwrap()]);
    assert_fails(&out, 1, "neither an array of [x, y, z] points");
    std::fs::write(&file, "[".repeat(100_000)).unwrap();
    let out = run(&["boxcam", &level, "--path", file.to_str().unwrap()]);
    assert_fails(&out, 1, "recursion limit exceeded");
    let frame =
        r#"{"before": {"position": [0, 1, 0]}, "after": {"position": [0.1, 1, 0]}, "x": [1, 2]}"#;
    let frames = vec![frame; 200_000].join(",");
    std::fs::write(&file, format!(r#"{{"frames": [{frames}]}}"#)).unwrap();
    let out = run(&["boxcam", &level, "--path", file.to_str().unwrap()]);
    assert_fails(&out, 1, "the path has 200000 segments; at most 10000");
}

// ---- sweep --method ----

#[test]
fn sweep_method_discrete_has_the_slide_trace_shape_and_stops_at_the_wall() {
    let v = sweep_json(&[
        "--method",
        "discrete",
        "--radii",
        "0.4,0.4,0.4",
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,0",
    ]);
    assert_eq!(v["method"], "discrete");
    assert_eq!(vec3(&v["from"]), [0.0, 1.0, 0.0]);
    assert_eq!(v["method_settings"]["step_hz"], 60.0);
    let steps = v["iterations"].as_array().unwrap();
    assert_eq!(steps.len(), 60);
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["index"], i);
        assert_eq!(s["detail"]["kind"], "discrete");
        if i > 0 {
            assert_eq!(vec3(&s["start"]), vec3(&steps[i - 1]["end"]), "steps chain");
        }
    }
    let contact = steps
        .iter()
        .find_map(|s| s["detail"]["contact"].as_object())
        .expect("the wall is hit");
    assert_eq!(contact["impact"]["object"], 1);
    assert_eq!(vec3(&contact["impact"]["normal"]), [-1.0, 0.0, 0.0]);
    let p = vec3(&v["final_position"]);
    assert!(p[0] > 2.59 && p[0] < 2.6, "{p:?}");
    assert_eq!(v["end_reason"], "arrived_after_contacts");
    // Floor and wall are sheets: 2 × 0.4 m at 60 Hz.
    assert!(near(
        v["tunnel_rule"]["tunnel_speed_m_s"].as_f64().unwrap(),
        48.0,
        1e-6
    ));
}

#[test]
fn sweep_method_discrete_text_shows_the_tunnelled_step_and_the_rule() {
    let level = fixture("cli_box.obj");
    let r = run(&[
        "sweep",
        &level,
        "--method",
        "discrete",
        "--radii",
        "0.4,0.4,0.4",
        "--from",
        "0.2,1,0",
        "--velocity",
        "100,0,0",
        "--step-hz",
        "60",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    for needle in [
        "method      discrete",
        "tunnels above 48.0 m/s at 60 Hz",
        "this move is faster: it can tunnel",
        "#1 start (1.8667, 1.0000, 0.0000) -> end (3.5333, 1.0000, 0.0000)  TUNNELLED through tri 2 (wall)",
        "end reason  arrived",
    ] {
        assert!(out.contains(needle), "{needle:?} missing from:\n{out}");
    }
    // The slide stops at the same wall.
    let v = sweep_json(&[
        "--radii",
        "0.4,0.4,0.4",
        "--from",
        "0.2,1,0",
        "--velocity",
        "100,0,0",
    ]);
    assert!(vec3(&v["final_position"])[0] < 2.6);
}

#[test]
fn sweep_method_refuses_unknown_methods_batches_and_bad_rates() {
    let level = fixture("cli_box.obj");
    let base = ["sweep", &level, "--from", "0,1,0", "--velocity", "1,0,0"];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        run(&a)
    };
    assert_fails(
        &with(&["--method", "teleport"]),
        2,
        "unknown method 'teleport'",
    );
    assert_fails(
        &with(&["--method", "discrete", "--step-hz", "0"]),
        2,
        "step rate 0 Hz",
    );
    let batch = ["sweep", &level, "--method", "discrete", "--batch", "-"];
    assert_fails(&run(&batch), 2, "not supported with --batch");
}

#[test]
fn sweep_method_box_has_the_trace_shape_and_finds_the_wall() {
    let level = fixture("cli_box.obj");
    let v = json(&run(&[
        "sweep",
        &level,
        "--from",
        "1,1.5,0",
        "--velocity",
        "4,0,0",
        "--method",
        "box",
        "--json",
    ]));
    assert_eq!(v["method"], "box");
    assert_eq!(v["end_reason"], "arrived_after_contacts");
    let steps = v["iterations"].as_array().unwrap();
    assert_eq!(steps.len(), 60);
    let colliding: Vec<&Value> = steps
        .iter()
        .filter(|s| s["detail"]["colliding"].as_u64().unwrap() > 0)
        .collect();
    assert!(!colliding.is_empty());
    for s in &colliding {
        assert_eq!(s["detail"]["kind"], "box");
        for t in s["detail"]["triangles"].as_array().unwrap() {
            for h in t["hits"].as_array().unwrap() {
                assert!(near(vec3(&h["point"])[0], 3.0, 1e-9));
            }
        }
    }
    let r = run(&[
        "sweep",
        &level,
        "--from",
        "1,1.5,0",
        "--velocity",
        "4,0,0",
        "--method",
        "box",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("COLLIDES with 2 triangles"),
        "{}",
        r.stdout
    );
}
