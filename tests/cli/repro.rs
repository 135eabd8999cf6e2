//! `collidoscope repro` end to end: a bundle cut out of the built-in level
//! replays (through `repro --run` and through the README's `sweep` command)
//! to the recorded outcome, a tampered one is caught, and bad folders and
//! flags give one-line errors.

use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn default_level() -> String {
    format!("{}/assets/default_level.obj", env!("CARGO_MANIFEST_DIR"))
}

/// Writes a bundle of a move into the built-in level's walls, under gravity.
fn bundle(test: &str) -> PathBuf {
    let dir = scratch(test).join("bundle");
    let r = run(&[
        "repro",
        &default_level(),
        "--from=0,0.95,0",
        "--velocity=3.8,0,4.6",
        "--gravity=0,-0.3,0",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("wrote "), "{}", r.stdout);
    dir
}

fn move_json(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("move.json")).unwrap()).unwrap()
}

#[test]
fn a_bundle_holds_its_files_and_replays_to_the_recorded_outcome() {
    let dir = bundle("replays");
    for f in [
        "level.obj",
        "settings.toml",
        "move.json",
        "README.md",
        "repro_test.rs",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let m = move_json(&dir);
    assert_eq!(m["from"], serde_json::json!([0.0, 0.95, 0.0]));
    assert_eq!(m["mode"], "robust");
    assert!(m["expected"]["iterations"].as_u64().unwrap() > 1);
    let r = run(&["repro", "--run", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("reproduced: end reason "),
        "{}",
        r.stdout
    );
    // The bundle is a cut-out, not the whole level.
    let whole = std::fs::read_to_string(default_level()).unwrap();
    let cut = std::fs::read_to_string(dir.join("level.obj")).unwrap();
    let faces = |t: &str| t.lines().filter(|l| l.starts_with("f ")).count();
    assert!(faces(&cut) > 0 && faces(&cut) < faces(&whole));
}

#[test]
fn the_readmes_sweep_command_gives_the_recorded_final_position() {
    let dir = bundle("readme");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("collidoscope repro --run ."));
    let line = readme
        .lines()
        .find(|l| l.starts_with("collidoscope sweep "))
        .expect("a sweep command");
    let out = Command::new(BIN)
        .args(line.split_whitespace().skip(1))
        .arg("--json")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = move_json(&dir);
    // Same place to 1e-9 m (the cut-out's BVH may order equal hits
    // differently, which moves the last bits).
    let at = |v: &Value| -> Vec<f64> { (0..3).map(|i| v[i].as_f64().unwrap()).collect() };
    let (got, want) = (
        at(&trace["final_position"]),
        at(&m["expected"]["final_position"]),
    );
    let off_m = (0..3)
        .map(|i| (got[i] - want[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(off_m <= 1e-9, "{got:?} vs {want:?}");
    assert_eq!(trace["end_reason"], m["expected"]["end_reason"]);
}

#[test]
fn a_bundle_that_no_longer_reproduces_exits_3_saying_what_differs() {
    let dir = bundle("tampered");
    let mut m = move_json(&dir);
    let n = m["expected"]["iterations"].as_u64().unwrap();
    m["expected"]["iterations"] = (n + 1).into();
    m["expected"]["final_position"][0] = 1e3.into();
    std::fs::write(dir.join("move.json"), m.to_string()).unwrap();
    let r = run(&["repro", "--run", dir.to_str().unwrap()]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("NOT reproduced: final position"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains(&format!("{n} iterations, recorded {}", n + 1))
    );
}

#[test]
fn bad_folders_and_flags_give_one_line_errors() {
    let dir = bundle("errors");
    let out = dir.to_str().unwrap();
    let level = default_level();
    let write = |extra: &[&str]| {
        let mut args = vec!["repro", &level, "--from=0,1,0", "--velocity=1,0,0"];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_fails(
        &write(&["--out", out]),
        1,
        "folder is not empty (use --force",
    );
    assert_eq!(write(&["--out", out, "--force"]).code, 0);
    assert_fails(&write(&[]), 2, "--out");
    assert_fails(&write(&["--out", out, "--margin", "-1"]), 2, "margin '-1'");
    assert_fails(&write(&["--out", out, "--mode", "all"]), 2, "--mode all");
    let missing = dir.join("nope");
    let r = run(&["repro", "--run", missing.to_str().unwrap()]);
    assert_fails(&r, 1, "not a folder");
    std::fs::write(dir.join("move.json"), "{\"from\": [1,").unwrap();
    assert_fails(
        &run(&["repro", "--run", out]),
        1,
        "move.json: not a repro move",
    );
    std::fs::remove_file(dir.join("move.json")).unwrap();
    assert_fails(&run(&["repro", "--run", out]), 1, "move.json");
}

/// `tests/repro_sample.rs` compiles and runs the committed sample bundle's
/// `repro_test.rs`; writing the same bundle again gives the very same files,
/// so that test is the one the tool writes today.
#[test]
fn the_committed_sample_bundle_is_what_repro_writes() {
    let dir = scratch("sample").join("bundle");
    let r = run(&[
        "repro",
        &default_level(),
        "--from=0,0.95,0",
        "--velocity=3.8,0,4.6",
        "--gravity=0,-0.3,0",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/repro_sample");
    for f in [
        "level.obj",
        "settings.toml",
        "move.json",
        "README.md",
        "repro_test.rs",
    ] {
        let want = std::fs::read_to_string(sample.join(f)).unwrap();
        let got = std::fs::read_to_string(dir.join(f)).unwrap();
        assert_eq!(got, want, "{f} differs from the committed sample");
    }
}
