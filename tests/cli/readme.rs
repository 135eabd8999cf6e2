//! The README stays true: its settings example, its JSON trace fields and
//! its sample sweep output are checked against this build.

use crate::support::*;
use serde_json::Value;
use std::process::Command;

// ---- the README stays true ----

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_readme_settings_example_is_a_valid_settings_file() {
    let text = readme();
    let block = text
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```toml block in README.md");
    let path = scratch("readme_settings").join("example.toml");
    std::fs::write(&path, block).unwrap();
    let r = run(&["settings", "check", &path.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Every key of `v`, at all nesting levels.
fn keys(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                out.insert(k.clone());
                keys(child, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|c| keys(c, out)),
        _ => {}
    }
}

/// The keys of `all` that the README does not name in backquotes.
fn undocumented(all: &std::collections::BTreeSet<String>) -> Vec<String> {
    let text = readme();
    // `x_espace` is documented by the rule "with the suffix `_espace`" once `x` is.
    let documented = |k: &String| text.contains(&format!("`{}`", k.trim_end_matches("_espace")));
    all.iter().filter(|k| !documented(k)).cloned().collect()
}

/// Every key of the `walk`, `envelope` and `check` JSON is named in the README.
#[test]
fn the_readme_documents_every_walk_envelope_and_check_field() {
    let mut all = std::collections::BTreeSet::new();
    let box_obj = fixture("cli_box.obj");
    // A walk into the wall (refused steps, a stall) that jumps.
    let walk = run(&[
        "walk",
        &box_obj,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "1",
        "--jump",
        "--json",
    ]);
    keys(&json(&walk), &mut all);
    keys(&json(&run(&["envelope", "--json"])), &mut all);
    // The built-in level has findings of every kind; some fail (exit 3).
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default_level.obj");
    let check = run(&["check", level, "--json"]);
    assert_eq!(check.code, 3, "{}", check.stderr);
    keys(&serde_json::from_str(&check.stdout).unwrap(), &mut all);
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// Every key of `map --json` is named in the README.
#[test]
fn the_readme_documents_every_map_field() {
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default_level.obj");
    let args = [
        "map",
        level,
        "--spacing",
        "3",
        "--directions",
        "2",
        "--seconds",
        "0.3",
    ];
    let map = run(&[&args[..], &["--json"]].concat());
    assert!(map.code == 0 || map.code == 3, "{}", map.stderr);
    let mut all = std::collections::BTreeSet::new();
    keys(&serde_json::from_str(&map.stdout).unwrap(), &mut all);
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// Every key of `info --json`, with `--hygiene`, is named in the README.
#[test]
fn the_readme_documents_every_info_and_hygiene_field() {
    let mut all = std::collections::BTreeSet::new();
    let box_obj = fixture("cli_box.obj");
    keys(
        &json(&run(&["info", &box_obj, "--json", "--hygiene"])),
        &mut all,
    );
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// The sample envelope in the README is this build's real output.
#[test]
fn the_readme_envelope_sample_is_real_output() {
    let r = run(&["envelope"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sample = format!("$ collidoscope envelope\n{}```", r.stdout);
    assert!(
        readme().contains(&sample),
        "update the sample in README.md to:\n{sample}"
    );
}

/// Every key of the JSON trace (all nesting levels) is named in the README.
#[test]
fn the_readme_documents_every_json_trace_field() {
    let mut all = std::collections::BTreeSet::new();
    // A hit with a slide, and a gravity pass with a landing.
    keys(
        &sweep_json(&["--from", "0,1,0", "--velocity", "5,0,5"]),
        &mut all,
    );
    keys(
        &sweep_json(&[
            "--from",
            "0,2,0",
            "--velocity",
            "1,0,0",
            "--gravity",
            "0,-5,0",
        ]),
        &mut all,
    );
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// The sample sweep in the README is this build's real output.
#[test]
fn the_readme_sweep_sample_is_real_output() {
    let command = "collidoscope sweep tests/fixtures/cli_box.obj --from 0,1,0 --velocity 5,0,5 --gravity 0,-1,0";
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let r = Command::new(BIN)
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(r.status.success());
    let out = String::from_utf8(r.stdout).unwrap();
    let sample = format!("$ {command}\n{out}```");
    assert!(
        readme().contains(&sample),
        "update the sample in README.md to:\n{sample}"
    );
}

/// The sample `sweep --mode all` in the README is this build's real output.
#[test]
fn the_readme_mode_comparison_sample_is_real_output() {
    let command =
        "collidoscope sweep tests/fixtures/cli_box.obj --from 2.6,1,0 --velocity 1,0,0 --mode all";
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let r = Command::new(BIN)
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(r.status.success());
    let out = String::from_utf8(r.stdout).unwrap();
    let sample = format!("$ {command}\n{out}```");
    assert!(
        readme().contains(&sample),
        "update the sample in README.md to:\n{sample}"
    );
}

/// Every key of `sweep --mode all --json` and of the batch output lines
/// (summaries and errors) is named in the README.
#[test]
fn the_readme_documents_every_mode_comparison_and_batch_field() {
    let mut all = std::collections::BTreeSet::new();
    keys(
        &sweep_json(&["--mode", "all", "--from", "2.6,1,0", "--velocity", "1,0,0"]),
        &mut all,
    );
    let box_obj = fixture("cli_box.obj");
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/");
    for (command, file) in [
        ("sweep", "cli_box_moves.jsonl"),
        ("walk", "cli_box_walks.jsonl"),
    ] {
        let r = run(&[
            command,
            &box_obj,
            "--batch",
            &format!("{examples}{file}"),
            "--summary",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        for line in r.stdout.lines() {
            keys(&serde_json::from_str(line).unwrap(), &mut all);
        }
    }
    let bad = scratch("readme_batch").join("bad.jsonl");
    std::fs::write(&bad, "nope\n").unwrap();
    let r = run(&["sweep", &box_obj, "--batch", &bad.display().to_string()]);
    keys(&serde_json::from_str(r.stdout.trim()).unwrap(), &mut all);
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// The README's `pairs` and `boxcam` samples are this build's real output.
#[test]
fn the_readme_pairs_and_boxcam_samples_are_real_output() {
    for command in [
        "collidoscope pairs tests/fixtures/pairs_probes.json",
        "collidoscope boxcam tests/fixtures/cli_box.obj --at 3,1.5,0",
    ] {
        let args: Vec<&str> = command.split(' ').skip(1).collect();
        let r = Command::new(BIN)
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(r.status.success(), "{command}");
        let out = String::from_utf8(r.stdout).unwrap();
        let sample = format!("$ {command}\n{out}```");
        assert!(
            readme().contains(&sample),
            "update the sample in README.md to:\n{sample}"
        );
    }
}

/// Every key of `pairs --json` and `boxcam --json` (a point and a path) is
/// named in the README.
#[test]
fn the_readme_documents_every_pairs_and_boxcam_field() {
    let mut all = std::collections::BTreeSet::new();
    let probes = fixture("pairs_probes.json");
    keys(&json(&run(&["pairs", &probes, "--json"])), &mut all);
    let level = fixture("cli_box.obj");
    keys(
        &json(&run(&["boxcam", &level, "--at", "3,1.5,0", "--json"])),
        &mut all,
    );
    let path = scratch("readme_boxcam").join("path.json");
    std::fs::write(&path, "[[0, 1.5, 0], [2, 1.5, 0], [4, 1.5, 0]]").unwrap();
    keys(
        &json(&run(&[
            "boxcam",
            &level,
            "--path",
            path.to_str().unwrap(),
            "--json",
        ])),
        &mut all,
    );
    for key in ["rejected_at", "hits", "whole_box_candidates", "closest"] {
        assert!(all.contains(key), "{key} missing from the output");
    }
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}

/// Every key of `sweep --method discrete --json` (a contact, a tunnelled
/// step and trigger events) is named in the README.
#[test]
fn the_readme_documents_every_discrete_method_field() {
    let mut all = std::collections::BTreeSet::new();
    for args in [
        [
            "--method",
            "discrete",
            "--from",
            "0,1,0",
            "--velocity",
            "5,0,0",
        ],
        [
            "--method",
            "discrete",
            "--from",
            "0.2,1,0",
            "--velocity",
            "100,0,0",
        ],
    ] {
        keys(&sweep_json(&args), &mut all);
    }
    let mut args = vec![
        "--method",
        "discrete",
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,0",
    ];
    args.extend(["--non-colliding", "wall"]);
    keys(&sweep_json(&args), &mut all);
    assert!(all.contains("trigger_events") && all.contains("crossed_triangle"));
    let missing = undocumented(&all);
    assert!(
        missing.is_empty(),
        "README.md does not document {missing:?}"
    );
}
