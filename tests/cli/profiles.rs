//! Engine profiles on the command line: `--engine NAME` for the character
//! commands, and `check` with more than one to list what differs.

use crate::support::*;

fn default_level() -> String {
    format!("{}/assets/default_level.obj", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn walk_and_envelope_follow_the_engine_named() {
    // Jolt rises by the whole step and the capsule rides over the edge:
    // its tallest step is the 0.3 m setting plus what a 0.4 m capsule's
    // round end rolls over within 45° (0.117 m).
    let r = run(&["envelope", "--engine", "jolt", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r);
    let step = v["max_step_height_m"]["value"].as_f64().unwrap();
    assert!(step > 0.40 && step < 0.44, "jolt climbs {step}");
    let r = run(&["envelope", "--engine", "godot", "--json"]);
    let step = json(&r)["max_step_height_m"]["value"].as_f64().unwrap();
    assert!(step > 0.09 && step < 0.13, "godot has no step-up: {step}");
    let r = run(&[
        "walk",
        &default_level(),
        "--engine",
        "unity",
        "--from",
        "5,0.91,-1.5",
        "--direction",
        "0,1",
        "--seconds",
        "0.5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("capsule r 0.4 m h 1.8 m, mode robust")
            && r.stdout
                .contains("engine unity (Unity CharacterController)"),
        "{}",
        r.stdout
    );
}

#[test]
fn check_with_two_engines_lists_the_findings_whose_verdict_differs() {
    let r = run(&[
        "check",
        &default_level(),
        "--engine",
        "collidoscope",
        "--engine",
        "godot",
        "--json",
    ]);
    // Exit 3: some profile fails some finding (Godot blocks the steps).
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["engines"], serde_json::json!(["collidoscope", "godot"]));
    let diffs = v["differences"].as_array().unwrap();
    // Godot has no step-up: every step the own model climbs and Godot's
    // capsule cannot roll over differs, with both reasons.
    assert!(!diffs.is_empty());
    for d in diffs {
        let vs = d["verdicts"].as_array().unwrap();
        assert_eq!(vs.len(), 2);
        assert_ne!(vs[0]["verdict"], vs[1]["verdict"], "{d}");
        assert!(vs.iter().all(|x| !x["reason"].as_str().unwrap().is_empty()));
    }
    let steps = diffs.iter().filter(|d| d["kind"] == "step").count();
    assert!(steps >= 6, "the 0.15 and 0.30 m flights differ: {steps}");
    // The text names each profile's counts and each differing finding.
    let r = run(&[
        "check",
        &default_level(),
        "--engine",
        "collidoscope",
        "--engine",
        "godot",
    ]);
    assert!(r.stdout.contains("differ      "), "{}", r.stdout);
    assert!(r.stdout.contains("godot        blocked"), "{}", r.stdout);
}

#[test]
fn engine_flags_are_checked() {
    let r = run(&["envelope", "--engine", "havok"]);
    assert_fails(&r, 2, "unknown engine 'havok'");
    let r = run(&[
        "walk",
        &default_level(),
        "--engine",
        "jolt",
        "--engine",
        "unity",
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "0.1",
    ]);
    assert_fails(&r, 2, "only `check` compares engine profiles");
    let r = run(&[
        "check",
        &default_level(),
        "--engine",
        "jolt",
        "--engine",
        "unity",
        "--html",
        "/tmp/never.html",
    ]);
    assert_fails(&r, 2, "give --engine once");
}

#[test]
fn a_settings_file_names_the_engine() {
    let dir = scratch("profiles_settings_file");
    let file = dir.join("jolt.toml");
    let r = run(&["settings", "export", file.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text.replace("[character]\n", "[character]\nengine = \"jolt\"\n");
    std::fs::write(&file, text).unwrap();
    let r = run(&["envelope", "--settings", file.to_str().unwrap(), "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let step = json(&r)["max_step_height_m"]["value"].as_f64().unwrap();
    assert!(step > 0.40, "the file's engine is used: {step}");
    // A flag overrides the file.
    let r = run(&[
        "envelope",
        "--settings",
        file.to_str().unwrap(),
        "--engine",
        "collidoscope",
        "--json",
    ]);
    let step = json(&r)["max_step_height_m"]["value"].as_f64().unwrap();
    assert!((step - 0.3).abs() < 0.02, "{step}");
    let bad = dir.join("bad.toml");
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("engine = \"jolt\"", "engine = \"havok\"");
    std::fs::write(&bad, text).unwrap();
    let r = run(&["envelope", "--settings", bad.to_str().unwrap()]);
    assert!(r.code != 0 && r.stderr.contains("havok"), "{}", r.stderr);
}

#[test]
fn a_map_under_an_engine_replays_its_spots_with_the_same_engine_and_shape() {
    let r = run(&[
        "map",
        &default_level(),
        "--engine",
        "godot",
        "--shape",
        "capsule:0.35,1.7",
        "--spacing",
        "1.5",
    ]);
    assert!(r.code == 0 || r.code == 3, "{}", r.stderr);
    assert!(
        r.stdout.contains("capsule r 0.35 m h 1.7 m")
            && r.stdout.contains("engine godot (Godot CharacterBody3D)"),
        "{}",
        r.stdout
    );
    // The built-in level has spots where a character gets stuck.
    assert!(
        r.stdout
            .contains("replay a spot: collidoscope walk LEVEL --from X,Y,Z --direction DX,DZ --seconds 1 --shape capsule:0.35,1.7 --engine godot"),
        "{}",
        r.stdout
    );
}
