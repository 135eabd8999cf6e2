//! `collidoscope sweep --method radial`: push-out of cylinders from named
//! objects and `--cylinder` flags, the comparison with the swept ellipsoid,
//! the ellipsoid against `--cylinder` prisms, and bad cylinders.

use crate::support::*;

fn poles() -> String {
    fixture("poles.obj")
}

#[test]
fn radial_json_has_the_trace_shape_the_cylinders_and_the_comparison() {
    // 30 m/s at 60 Hz: 0.5 m steps, held in front of pole_a (0.42 m
    // bounding radius + 0.4 m probe), where the ellipsoid stops too.
    let level = poles();
    let v = json(&run(&[
        "sweep",
        &level,
        "--json",
        "--method",
        "radial",
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "0,1,0",
        "--velocity",
        "0,0,30",
    ]));
    for key in [
        "level",
        "from",
        "velocity",
        "settings",
        "method_settings",
        "final_position",
        "end_reason",
        "iterations",
    ] {
        assert!(v.get(key).is_some(), "{key} missing");
    }
    assert_eq!(v["method"], "radial");
    assert_eq!(v["end_reason"], "arrived_after_contacts");
    let cyl = &v["cylinders"][0];
    assert_eq!(cyl["source"], "object");
    assert_eq!(cyl["object"], "pole_a");
    assert!(near(cyl["radius"].as_f64().unwrap(), 0.18f64.sqrt(), 1e-6));
    let end = vec3(&v["final_position"]);
    let stop = 5.0 - 0.18f64.sqrt() - 0.4;
    assert!(near(end[2], stop, 1e-6), "{end:?}");
    let steps = v["iterations"].as_array().unwrap();
    assert_eq!(steps.len(), 60);
    let hit = steps
        .iter()
        .find(|s| !s["detail"]["entered"].as_array().unwrap().is_empty())
        .unwrap();
    assert_eq!(hit["detail"]["kind"], "radial");
    assert_eq!(hit["detail"]["entered"][0]["cylinder"], 0);
    assert!(hit["detail"]["entered"][0]["depth"].as_f64().unwrap() > 0.0);
    // The ellipsoid meets the box itself (0.3 m from the axis), not its
    // bounding circle (0.42 m): they part by 0.12 m, over the 0.1 m tolerance.
    let cmp = &v["comparison"];
    assert_eq!(cmp["disagree"], true, "{cmp}");
    assert!(
        near(
            vec3(&cmp["ellipsoid_end"])[2],
            5.0 - 0.3 - 0.4 - 0.005,
            1e-3
        ),
        "{cmp}"
    );
    assert!(near(cmp["apart_m"].as_f64().unwrap(), 0.119, 1e-3), "{cmp}");
    // A true cylinder from the flag: both stop at it, within the tolerance.
    let v = json(&run(&[
        "sweep",
        &level,
        "--json",
        "--method",
        "radial",
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "3,1,0",
        "--velocity",
        "0,0,30",
        "--cylinder",
        "3,0,5,0.5,3",
    ]));
    assert_eq!(v["cylinders"][1]["source"], "flag");
    assert_eq!(v["comparison"]["disagree"], false, "{}", v["comparison"]);
    assert!(near(vec3(&v["final_position"])[2], 4.1, 1e-9));
}

#[test]
fn a_fast_move_passes_through_a_flag_pole_that_stops_the_ellipsoid() {
    let level = poles();
    // Pole 1 (after pole_a) from the flag, on the path at x = 3.
    let args = [
        "sweep",
        &level,
        "--method",
        "radial",
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "3,1,0",
        "--velocity",
        "0,0,120",
        "--cylinder",
        "3,0,5,0.5,3",
    ];
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "pole 1      base (3.0000, 0.0000, 5.0000) radius 0.500 height 3.000 (--cylinder)"
        ),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("PASSED THROUGH pole 1"), "{}", r.stdout);
    assert!(
        r.stdout.contains(
            "push-out passed through pole 1; the ellipsoid stops at (3.000, 1.000, 4.095)"
        ),
        "{}",
        r.stdout
    );
    // The ellipsoid slide itself meets the flag's prism.
    let v = json(&run(&[
        "sweep",
        &level,
        "--json",
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "3,1,0",
        "--velocity",
        "0,0,120",
        "--cylinder",
        "3,0,5,0.5,3",
    ]));
    assert!(
        near(vec3(&v["final_position"])[2], 4.095, 1e-3),
        "{}",
        v["final_position"]
    );
    // Without the flag it goes on.
    let v = json(&run(&[
        "sweep",
        &level,
        "--json",
        "--radii",
        "0.4,0.9,0.4",
        "--from",
        "3,1,0",
        "--velocity",
        "0,0,5",
    ]));
    assert!(near(vec3(&v["final_position"])[2], 5.0, 1e-6));
}

#[test]
fn bad_cylinders_are_usage_errors() {
    let level = poles();
    for (flag, needle) in [
        ("1,2,3", "X,Y,Z,R,H"),
        ("0,0,0,-1,3", "radius"),
        ("0,0,0,1,0", "height"),
        ("0,0,nan,1,1", "base"),
        ("0,0,0,1,abc", "'abc'"),
    ] {
        let r = run(&[
            "sweep",
            &level,
            "--method",
            "radial",
            "--from",
            "0,1,0",
            "--velocity",
            "0,0,1",
            "--cylinder",
            flag,
        ]);
        assert_fails(&r, 2, needle);
    }
    let r = run(&["sweep", &level, "--batch", "-", "--cylinder", "0,0,0,1,1"]);
    assert_fails(&r, 2, "--batch");
}

/// Every key of `v`, at all nesting levels.
fn keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

#[test]
fn the_readme_documents_every_radial_json_field() {
    let readme = documentation();
    let level = poles();
    let v = json(&run(&[
        "sweep",
        &level,
        "--json",
        "--method",
        "radial",
        "--from",
        "0,1,0",
        "--velocity",
        "0,0,60",
        "--cylinder",
        "3,0,5,0.5,3",
    ]));
    let mut all = std::collections::BTreeSet::new();
    keys(&v, &mut all);
    let missing: Vec<&String> = all
        .iter()
        .filter(|k| !readme.contains(&format!("`{}`", k.trim_end_matches("_espace"))))
        .collect();
    assert!(
        missing.is_empty(),
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// A floor, and the named objects `extra` (OBJ text after the floor's
/// four vertices), written to a scratch file.
fn level_with(test: &str, extra: &str) -> String {
    let path = scratch(test).join("level.obj");
    let text = format!(
        "o floor\nv -10 0 -10\nv 10 0 -10\nv 10 0 10\nv -10 0 10\nf 1 3 2\nf 1 4 3\n{extra}"
    );
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The text output's `cylinders` line.
fn cylinders_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("cylinders"))
        .unwrap_or_else(|| panic!("no cylinders line: {stdout}"))
}

fn radial_text(level: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "sweep",
        level,
        "--method",
        "radial",
        "--from",
        "0,1,0",
        "--velocity",
        "0,0,3",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn named_objects_that_give_no_cylinder_are_named_with_the_reason() {
    // `tree_shadow` is a decal flat on the floor: named by the rule, but
    // with no height it makes no cylinder. The file does name a tree, so
    // "name objects tree_*" would be wrong advice.
    let flat = "o tree_shadow\nv 2 0.01 2\nv 3 0.01 2\nv 3 0.01 3\nv 2 0.01 3\nf 5 6 7\nf 5 7 8\n";
    let level = level_with("radial_flat_tree", flat);
    let r = radial_text(&level, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = cylinders_line(&r.stdout);
    assert!(line.contains("none usable"), "{line}");
    assert!(line.contains("1 object named"), "{line}");
    assert!(
        line.contains(
            "'tree_shadow' (it is flat: every vertex is at y = 0.010, so it has no height)"
        ),
        "{line}"
    );
    assert!(line.contains("give --cylinder"), "{line}");
    assert!(!line.contains("or name objects"), "{line}");
    // JSON: the same object, its index and reason.
    let v = json(&radial_text(&level, &["--json"]));
    let u = &v["unusable_cylinder_objects"][0];
    assert_eq!(u["object"], "tree_shadow");
    assert_eq!(u["object_index"], 1);
    assert!(u["reason"].as_str().unwrap().contains("flat"), "{u}");
    assert!(v.get("cylinders").is_none(), "{v}");

    // With a usable cylinder beside it, the flat one is listed as skipped.
    let r = radial_text(&level, &["--cylinder", "0,0,2,0.5,3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("pole 0      base"), "{}", r.stdout);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("skipped     'tree_shadow': it is flat")),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("none usable"), "{}", r.stdout);
}

#[test]
fn named_objects_dropped_by_the_import_are_explained() {
    // `pole_a`'s only face has zero area: the import drops it, and an
    // object without triangles is not kept, so no pole_ object is left.
    let level = level_with(
        "radial_dropped_pole",
        "o pole_a\nv 1 0 1\nv 1 1 1\nv 1 2 1\nf 5 6 7\n",
    );
    let r = radial_text(&level, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = cylinders_line(&r.stdout);
    assert!(
        line.contains("the import dropped 1 zero-area and 0 duplicate triangles"),
        "{line}"
    );
    assert!(
        line.contains("an object left without any is not kept"),
        "{line}"
    );
    // A level with nothing named and nothing dropped gets the plain advice.
    let r = radial_text(&level_with("radial_plain", ""), &[]);
    let line = cylinders_line(&r.stdout);
    assert_eq!(
        line,
        "cylinders   none: give --cylinder X,Y,Z,R,H or name objects cyl_*, pole_*, pillar_* or tree_*"
    );
}

#[test]
fn a_named_pole_made_non_colliding_gives_no_cylinder() {
    // `pole_a`, a box 0.4 m wide across the probe's path at z = 2.
    let pole = "o pole_a\n\
        v -0.2 0 1.8\nv 0.2 0 1.8\nv 0.2 0 2.2\nv -0.2 0 2.2\n\
        v -0.2 2 1.8\nv 0.2 2 1.8\nv 0.2 2 2.2\nv -0.2 2 2.2\n\
        f 5 6 7\nf 5 7 8\nf 9 11 10\nf 9 12 11\nf 5 9 10\nf 5 10 6\n\
        f 6 10 11\nf 6 11 7\nf 7 11 12\nf 7 12 8\nf 8 12 9\nf 8 9 5\n";
    let level = level_with("radial_trigger_pole", pole);
    let r = radial_text(&level, &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("pole 0      base"), "{}", r.stdout);
    // Switched off for collision, it is a trigger: it pushes nothing out,
    // and the report says why it is not a pole rather than that the file
    // names none.
    let r = radial_text(&level, &["--non-colliding", "pole_a"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("pole 0      base"), "{}", r.stdout);
    let line = cylinders_line(&r.stdout);
    assert!(line.contains("'pole_a' (it is non-colliding"), "{line}");
    let v = json(&radial_text(
        &level,
        &["--non-colliding", "pole_a", "--json"],
    ));
    let u = &v["unusable_cylinder_objects"][0];
    assert_eq!(u["object"], "pole_a");
    assert!(
        u["reason"].as_str().unwrap().contains("non-colliding"),
        "{u}"
    );
    // The probe walks the whole 3 m: nothing stops it.
    let end_z = v["final_position"][2].as_f64().unwrap();
    assert!((end_z - 3.0).abs() < 1e-9, "{v}");
}
