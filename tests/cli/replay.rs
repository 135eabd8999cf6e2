//! `collidoscope replay` end to end: the example recording (a real walk on
//! the built-in level) reproduces, its copy with a moved segment diverges
//! at the segment, and bad files, lines and flags give one-line errors with
//! the documented exit codes.

use crate::support::*;

fn default_level() -> String {
    format!("{}/assets/default_level.obj", env!("CARGO_MANIFEST_DIR"))
}

/// The JSON of a run that exited with `code`.
fn json_exit(r: &Run, code: i32) -> serde_json::Value {
    assert_eq!(r.code, code, "stderr: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_example_recording_reproduces() {
    let r = run(&["replay", &default_level(), &example("replay_stairs.csv")]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("reproduced  yes"), "{}", r.stdout);
    let j = run(&[
        "replay",
        &default_level(),
        &example("replay_stairs.csv"),
        "--json",
    ]);
    assert_eq!(j.code, 0, "{}", j.stderr);
    let v = json(&j);
    assert_eq!(v["reproduced"], true);
    let frames = v["frames"].as_array().unwrap();
    assert!(frames.len() > 50);
    assert_eq!(
        v["summary"]["frames"].as_u64().unwrap() as usize,
        frames.len()
    );
    // Written with nine decimals: the re-run lands within rounding.
    assert!(v["summary"]["max_divergence_m"].as_f64().unwrap() < 1e-6);
}

#[test]
fn the_diverged_example_is_caught_at_its_moved_segment() {
    let r = run(&[
        "replay",
        &default_level(),
        &example("replay_stairs_diverged.csv"),
        "--json",
    ]);
    let v = json_exit(&r, 3);
    assert_eq!(v["reproduced"], false);
    // The segment moves from recorded frame 60: frame 59 ends there.
    assert_eq!(v["summary"]["first_divergent_frame"], 59);
    let f = &v["frames"][59];
    assert!(
        (f["horizontal_m"].as_f64().unwrap() - 0.25).abs() < 1e-6,
        "{f}"
    );
    let t = run(&[
        "replay",
        &default_level(),
        &example("replay_stairs_diverged.csv"),
        "--tolerance",
        "0.5",
    ]);
    assert_eq!(t.code, 0, "a looser tolerance passes: {}", t.stdout);
    let text = run(&[
        "replay",
        &default_level(),
        &example("replay_stairs_diverged.csv"),
    ]);
    assert_eq!(text.code, 3);
    assert!(
        text.stdout.contains("the first is frame 59"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("  over"), "{}", text.stdout);
}

#[test]
fn z_up_centimetre_jsonl_with_renamed_columns_reads() {
    let dir = scratch("replay_zup");
    let file = dir.join("rec.jsonl");
    // Standing on the built-in level's floor (y = 0 there), z up, centimetres.
    let mut text = String::new();
    for i in 0..30 {
        text.push_str(&format!(
            "{{\"time\": {}, \"px\": {}, \"py\": 0, \"pz\": 90, \"move_x\": 0, \"move_y\": 0}}\n",
            i as f64 / 60.0,
            0.0
        ));
    }
    std::fs::write(&file, text).unwrap();
    let r = run(&[
        "replay",
        &default_level(),
        file.to_str().unwrap(),
        "--up=z",
        "--scale=0.01",
        "--columns=t=time,x=px,y=py,z=pz,ix=move_x,iy=move_y",
        "--json",
    ]);
    let v = json_exit(&r, if r.code == 3 { 3 } else { 0 });
    assert_eq!(v["frames"].as_array().unwrap().len(), 29);
    let start = &v["frames"][0]["start"]["position"];
    assert!((start[1].as_f64().unwrap() - 0.9).abs() < 1e-12, "{start}");
}

#[test]
fn bad_files_lines_and_flags_fail_in_one_line() {
    let dir = scratch("replay_bad");
    let level = default_level();
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        "t,x,y,z,ix\n0,0,1,0,1\n0.1,0,oops-this-is-not-a-number,0,1\n",
    )
    .unwrap();
    let r = run(&["replay", &level, bad.to_str().unwrap()]);
    assert_fails(
        &r,
        1,
        "bad.csv: line 3: y: 'oops-this-is-not-a-number' is not a number",
    );
    let missing = dir.join("missing.csv");
    assert_fails(
        &run(&["replay", &level, missing.to_str().unwrap()]),
        1,
        "missing.csv",
    );
    let one = dir.join("one.csv");
    std::fs::write(&one, "t,x,y,z,ix\n0,0,1,0,1\n").unwrap();
    assert_fails(
        &run(&["replay", &level, one.to_str().unwrap()]),
        1,
        "at least two frames",
    );
    let ok = example("replay_stairs.csv");
    assert_fails(
        &run(&["replay", &level, &ok, "--tolerance=0"]),
        2,
        "tolerance",
    );
    assert_fails(
        &run(&["replay", &level, &ok, "--columns=q=time"]),
        2,
        "not a field",
    );
    assert_fails(&run(&["replay", &level, &ok, "--format=xml"]), 2, "xml");
    let as_json = run(&["replay", &level, &ok, "--format=jsonl"]);
    assert_fails(&as_json, 1, "line 1: not a JSON object");
}

#[test]
fn every_key_of_the_json_is_named_in_the_readme() {
    let readme = documentation();
    let r = run(&[
        "replay",
        &default_level(),
        &example("replay_stairs.csv"),
        "--json",
    ]);
    let v = json_exit(&r, 0);
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.extend(v["summary"].as_object().unwrap().keys());
    keys.extend(v["frames"][0].as_object().unwrap().keys());
    let missing: Vec<_> = keys
        .into_iter()
        .filter(|k| !readme.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "the documentation (README.md, docs/*.md) does not name {missing:?}"
    );
}
