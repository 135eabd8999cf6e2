//! `collidoscope check --baseline PREVIOUS.json` end to end on small
//! generated levels: a level checked, its JSON saved as the baseline, then
//! the same level, the level with a new failure, the level with a failure
//! removed, edited baselines (other verdicts, moved findings, unknown
//! fields) and baselines that cannot be read.

use crate::support::*;
use collidoscope::analysis::generate::parts::{Stairs, floor, staircase};
use collidoscope::analysis::generate::{LevelBuilder, write_obj};
use glam::{DVec2, DVec3};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What stands on the 12 m floor.
#[derive(Clone, Copy)]
struct Parts {
    /// A 0.15 m block the player steps onto (climbs on every side).
    low: bool,
    /// A 0.60 m block it cannot climb (blocked on every side).
    tall: bool,
    /// A second 0.60 m block elsewhere: the edit that adds a failure.
    extra_tall: bool,
}

/// A block `riser` metres tall, 2 m square, its corner at `(x, z)`.
fn block(x: f64, z: f64, riser: f64) -> collidoscope::analysis::generate::Solid {
    let stairs = Stairs {
        riser,
        tread: 2.0,
        count: 1,
        width: 2.0,
        landing: 0.0,
    };
    staircase(DVec3::new(x, 0.0, z), &stairs)
}

fn level_obj(dir: &Path, name: &str, parts: Parts) -> String {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::ZERO, DVec2::splat(12.0), 0.0, 0.5, 2.0),
    );
    if parts.low {
        b.add("low_block", &block(2.0, 2.0, 0.15));
    }
    if parts.tall {
        b.add("tall_block", &block(8.0, 2.0, 0.6));
    }
    if parts.extra_tall {
        b.add("extra_tall_block", &block(5.0, 8.0, 0.6));
    }
    let path: PathBuf = dir.join(name);
    let mut f = std::fs::File::create(&path).unwrap();
    write_obj(&b.build(), &mut f).unwrap();
    path.display().to_string()
}

const BASE: Parts = Parts {
    low: true,
    tall: true,
    extra_tall: false,
};

/// Checks `level` (JSON), saves the output as `baseline.json` in `dir`,
/// and returns its path and the parsed report. The level has blocked
/// steps, so the check alone fails (exit 3).
fn save_baseline(dir: &Path, level: &str) -> (String, Value) {
    let r = run(&["check", level, "--json"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v.get("baseline").is_none(),
        "no baseline without --baseline"
    );
    let path = dir.join("baseline.json");
    std::fs::write(&path, &r.stdout).unwrap();
    (path.display().to_string(), v)
}

/// `check LEVEL --baseline B --json`: the exit code and the parsed output.
fn check_json(level: &str, baseline: &str) -> (i32, Value) {
    let r = run(&["check", level, "--baseline", baseline, "--json"]);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let v = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    (r.code, v)
}

fn list<'a>(v: &'a Value, which: &str) -> &'a Vec<Value> {
    v["baseline"][which]
        .as_array()
        .unwrap_or_else(|| panic!("no baseline.{which} in {}", v["baseline"]))
}

fn blocked_steps(report: &Value) -> usize {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "step" && f["verdict"] == "blocked")
        .count()
}

#[test]
fn the_same_level_against_its_own_baseline_passes_with_nothing_changed() {
    let dir = scratch("baseline_same");
    let level = level_obj(&dir, "level.obj", BASE);
    let (baseline, before) = save_baseline(&dir, &level);
    assert!(blocked_steps(&before) > 0, "{before}");
    let (code, v) = check_json(&level, &baseline);
    assert_eq!(code, 0, "{}", v["baseline"]);
    let b = &v["baseline"];
    assert_eq!(b["fails"], false);
    assert_eq!(b["new_failures"], 0);
    assert_eq!(b["worsened"], 0);
    for which in ["new", "changed", "gone"] {
        assert!(list(&v, which).is_empty(), "{which}: {b}");
    }
    let unchanged = list(&v, "unchanged");
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(unchanged.len(), findings.len());
    for e in unchanged {
        let i = e["index"].as_u64().unwrap() as usize;
        assert_eq!(e["before"], findings[i]["verdict"]);
        assert_eq!(e["after"], findings[i]["verdict"]);
        assert_eq!(e["kind"], findings[i]["kind"]);
    }
    assert_eq!(b["level"], "level.obj");
    assert_eq!(b["settings_differ"], false);
    assert_eq!(b["tolerance"]["horizontal_m"], 0.5);
    assert_eq!(b["tolerance"]["vertical_m"], 0.3);
    // The report itself is as without a baseline.
    assert_eq!(v["findings"].as_array().unwrap().len(), findings.len());
    assert_eq!(v["counts"], before["counts"]);
    // As text: the report, then one summary line and the verdict.
    let r = run(&["check", &level, "--baseline", &baseline]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("verdicts    "), "{}", r.stdout);
    let summary = format!(
        "baseline    {baseline}: 0 new, 0 changed, 0 gone, {} unchanged",
        findings.len()
    );
    assert!(r.stdout.contains(&summary), "{}", r.stdout);
    assert!(
        r.stdout.contains("no new or worsened failures"),
        "{}",
        r.stdout
    );
    // A report written with --baseline is a baseline too.
    let again = dir.join("again.json");
    let r = run(&["check", &level, "--baseline", &baseline, "--json"]);
    std::fs::write(&again, &r.stdout).unwrap();
    let (code, v) = check_json(&level, &again.display().to_string());
    assert_eq!(code, 0);
    assert_eq!(list(&v, "unchanged").len(), findings.len());
}

#[test]
fn a_new_riser_too_tall_to_climb_fails_and_is_listed() {
    let dir = scratch("baseline_new_riser");
    let level = level_obj(&dir, "level.obj", BASE);
    let (baseline, before) = save_baseline(&dir, &level);
    let edited = Parts {
        extra_tall: true,
        ..BASE
    };
    let edited = level_obj(&dir, "edited.obj", edited);
    let (code, v) = check_json(&edited, &baseline);
    assert_eq!(code, 3, "{}", v["baseline"]);
    let b = &v["baseline"];
    assert_eq!(b["fails"], true);
    let new = list(&v, "new");
    let added = blocked_steps(&v) - blocked_steps(&before);
    assert!(added > 0, "{b}");
    assert_eq!(b["new_failures"], added);
    assert_eq!(new.len(), added, "{b}");
    for e in new {
        assert_eq!(e["kind"], "step");
        assert_eq!(e["after"], "blocked");
        assert_eq!(e["before"], Value::Null);
        assert_eq!(e["baseline_index"], Value::Null);
        assert_eq!(e["fails"], true);
        assert_eq!(e["object"], "extra_tall_block");
        let i = e["index"].as_u64().unwrap() as usize;
        assert_eq!(v["findings"][i]["object"], "extra_tall_block");
        assert_eq!(e["position"], v["findings"][i]["position"]);
    }
    assert!(list(&v, "gone").is_empty() && list(&v, "changed").is_empty());
    // As text: each new failure on its own line, marked, and the count.
    let r = run(&["check", &edited, "--baseline", &baseline]);
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("  new      step     blocked "))
        .collect();
    assert_eq!(lines.len(), added, "{}", r.stdout);
    for l in lines {
        assert!(l.ends_with("[extra_tall_block]  FAILS"), "{l}");
    }
    let count = format!("{added} new or worsened failures ({added} new, 0 worsened)");
    assert!(r.stdout.contains(&count), "{}", r.stdout);
}

#[test]
fn a_blocked_feature_removed_passes_and_is_listed_as_gone() {
    let dir = scratch("baseline_gone");
    let level = level_obj(&dir, "level.obj", BASE);
    let (baseline, before) = save_baseline(&dir, &level);
    let edited = level_obj(
        &dir,
        "edited.obj",
        Parts {
            tall: false,
            ..BASE
        },
    );
    let (code, v) = check_json(&edited, &baseline);
    assert_eq!(code, 0, "{}", v["baseline"]);
    let gone = list(&v, "gone");
    assert_eq!(gone.len(), blocked_steps(&before), "{}", v["baseline"]);
    for e in gone {
        assert_eq!(e["object"], "tall_block");
        assert_eq!(e["before"], "blocked");
        assert_eq!(e["after"], Value::Null);
        assert_eq!(e["index"], Value::Null);
        assert_eq!(e["fails"], false);
        let j = e["baseline_index"].as_u64().unwrap() as usize;
        assert_eq!(e["position"], before["findings"][j]["position"]);
    }
    assert!(list(&v, "new").is_empty() && list(&v, "changed").is_empty());
    let r = run(&["check", &edited, "--baseline", &baseline]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let gone_lines = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("  gone     step     blocked ") && l.ends_with("[tall_block]"))
        .count();
    assert_eq!(gone_lines, gone.len(), "{}", r.stdout);
}

/// The baseline `before` with `edit` applied to its findings, saved as `name`.
fn edited_baseline(dir: &Path, before: &Value, name: &str, edit: impl Fn(&mut Value)) -> String {
    let mut v = before.clone();
    for f in v["findings"].as_array_mut().unwrap() {
        edit(f);
    }
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn only_a_verdict_that_became_a_failure_fails_and_unknown_names_load() {
    let dir = scratch("baseline_verdicts");
    let level = level_obj(&dir, "level.obj", BASE);
    let (_, before) = save_baseline(&dir, &level);
    let tall = |f: &Value| f["object"] == "tall_block";
    let low = |f: &Value| f["object"] == "low_block";
    let n_tall = before["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| tall(f))
        .count();
    // (baseline verdict of the tall block's findings, exit code, worsened)
    for (was, code, worsened) in [
        ("stalls", 0, 0), // a failure either way: changed, not worse
        ("untested", 3, n_tall),
        ("climbs", 3, n_tall),
        ("some_future_verdict", 3, n_tall), // unknown names count as ok
    ] {
        let b = edited_baseline(&dir, &before, &format!("{was}.json"), |f| {
            if tall(f) {
                f["verdict"] = was.into();
            }
            // Fields a newer version may add are ignored.
            f["marginal"] = true.into();
        });
        let (c, v) = check_json(&level, &b);
        assert_eq!(c, code, "{was}: {}", v["baseline"]);
        assert_eq!(v["baseline"]["worsened"], worsened, "{was}");
        let changed = list(&v, "changed");
        assert_eq!(changed.len(), n_tall, "{was}");
        for e in changed {
            assert_eq!(e["before"], was);
            assert_eq!(e["after"], "blocked");
            assert_eq!(e["fails"], worsened > 0);
        }
        let r = run(&["check", &level, "--baseline", &b]);
        let arrow = format!("  changed  step     {was} → blocked ");
        assert_eq!(
            r.stdout.lines().filter(|l| l.starts_with(&arrow)).count(),
            n_tall,
            "{}",
            r.stdout
        );
    }
    // A failure in the baseline that climbs now: better, passes.
    let b = edited_baseline(&dir, &before, "improved.json", |f| {
        if low(f) {
            f["verdict"] = "blocked".into();
        }
    });
    let (c, v) = check_json(&level, &b);
    assert_eq!(c, 0, "{}", v["baseline"]);
    assert!(!list(&v, "changed").is_empty());
    assert!(list(&v, "changed").iter().all(|e| e["after"] == "climbs"));
}

#[test]
fn findings_match_within_half_a_metre_and_not_beyond() {
    let dir = scratch("baseline_tolerance");
    let level = level_obj(&dir, "level.obj", BASE);
    let (_, before) = save_baseline(&dir, &level);
    let n = before["findings"].as_array().unwrap().len();
    let moved = |dx: f64, dy: f64| {
        move |f: &mut Value| {
            let p = &mut f["position"];
            p[0] = (p[0].as_f64().unwrap() + dx).into();
            p[1] = (p[1].as_f64().unwrap() + dy).into();
        }
    };
    // Every baseline finding 0.4 m to the side and 0.25 m up: still them.
    let b = edited_baseline(&dir, &before, "near.json", moved(0.4, 0.25));
    let (c, v) = check_json(&level, &b);
    assert_eq!(c, 0, "{}", v["baseline"]);
    assert_eq!(list(&v, "unchanged").len(), n);
    // 0.7 m to the side, or 0.4 m up: all new, the failures fail, all gone.
    for (name, dx, dy) in [("far.json", 0.7, 0.0), ("above.json", 0.0, 0.4)] {
        let b = edited_baseline(&dir, &before, name, moved(dx, dy));
        let (c, v) = check_json(&level, &b);
        assert_eq!(c, 3, "{name}: {}", v["baseline"]);
        assert_eq!(list(&v, "new").len(), n, "{name}");
        assert_eq!(list(&v, "gone").len(), n, "{name}");
        assert_eq!(v["baseline"]["new_failures"], blocked_steps(&before));
    }
    // Another kind at the same place is no match.
    let b = edited_baseline(&dir, &before, "kind.json", |f| f["kind"] = "slope".into());
    let (c, v) = check_json(&level, &b);
    assert_eq!(c, 3);
    assert_eq!(list(&v, "new").len(), n);
    // --match-within widens (or narrows) the tolerance.
    let far = dir.join("far.json").display().to_string();
    let args = ["check", &level, "--baseline", &far, "--json"];
    let r = run(&[&args[..], &["--match-within", "0.8,0.3"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(list(&v, "unchanged").len(), n);
    assert_eq!(v["baseline"]["tolerance"]["horizontal_m"], 0.8);
    let near = dir.join("near.json").display().to_string();
    let args = ["check", &level, "--baseline", &near];
    let r = run(&[&args[..], &["--match-within", "0.3,0.3"]].concat());
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("within 0.30 m across and 0.30 m up or down"),
        "{}",
        r.stdout
    );
    for (bad, needle) in [
        ("0.5", "expected two comma-separated distances"),
        ("0,0.3", "horizontal distance 0 must be above 0"),
        ("0.5,-1", "vertical distance -1 must be above 0"),
        ("0.5,x", "vertical distance 'x' is not a number"),
        ("nan,0.3", "must be above 0 and at most 100 m"),
    ] {
        let r = run(&[&args[..], &["--match-within", bad]].concat());
        assert_fails(&r, 2, needle);
    }
    // Only with a baseline.
    let r = run(&["check", &level, "--match-within", "1,1"]);
    assert_fails(&r, 2, "--baseline");
}

#[test]
fn a_baseline_that_cannot_be_read_is_a_one_line_error_not_a_failed_check() {
    let dir = scratch("baseline_bad");
    let level = level_obj(&dir, "level.obj", BASE);
    let check = |b: &Path| run(&["check", &level, "--baseline", &b.display().to_string()]);
    // Malformed: where, and at most 40 characters of it.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, format!("{{\"findings\": [{}]}}", "z".repeat(3000))).unwrap();
    let r = check(&bad);
    assert_fails(&r, 1, "bad.json: not a `check --json` report");
    assert!(r.stderr.contains("line 1 column 15"), "{}", r.stderr);
    assert!(r.stderr.contains(&"z".repeat(40)), "{}", r.stderr);
    assert!(!r.stderr.contains(&"z".repeat(41)), "{}", r.stderr);
    // Valid JSON of something else; empty.
    std::fs::write(&bad, "{\"level\": \"x\"}").unwrap();
    assert_fails(&check(&bad), 1, "missing field `findings`");
    std::fs::write(&bad, "").unwrap();
    assert_fails(
        &check(&bad),
        1,
        "bad.json: not a `check --json` report: the file is empty",
    );
    // Huge (sparse: no disk used), refused before reading.
    let huge = dir.join("huge.json");
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len((256 << 20) + 1).unwrap();
    drop(f);
    assert_fails(&check(&huge), 1, "larger than the 256 MiB");
    // A directory, a missing file.
    assert_fails(&check(&dir), 1, "is a directory, not a regular file");
    assert_fails(
        &check(&dir.join("missing.json")),
        1,
        "missing.json: cannot read the baseline",
    );
    // A FIFO is refused by its type, without waiting for a writer.
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_fails(&check(&fifo), 1, "is a FIFO, not a regular file");
        } else {
            eprintln!("skipped the FIFO case: mkfifo failed");
        }
    }
}

/// Every key of the `baseline` object is named in the documentation.
#[test]
fn the_readme_documents_every_baseline_field() {
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
    let dir = scratch("baseline_readme");
    let level = level_obj(&dir, "level.obj", BASE);
    let (_, before) = save_baseline(&dir, &level);
    // One of each: the first finding dropped (new), the last one's verdict
    // changed, one far away (gone), the rest unchanged.
    let mut v = before.clone();
    let findings = v["findings"].as_array_mut().unwrap();
    let mut far = findings.remove(0);
    far["position"][0] = 1000.0.into();
    findings.push(far);
    findings[0]["verdict"] = "untested".into();
    let path = dir.join("edited.json");
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    let (_, out) = check_json(&level, &path.display().to_string());
    for which in ["new", "changed", "gone", "unchanged"] {
        assert!(
            !list(&out, which).is_empty(),
            "{which}: {}",
            out["baseline"]
        );
    }
    let mut all = std::collections::BTreeSet::new();
    keys(&out["baseline"], &mut all);
    let text = documentation();
    let missing: Vec<&String> = all
        .iter()
        .filter(|k| !text.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
    assert!(text.contains("`baseline`") && text.contains("--baseline PREVIOUS.json"));
}

#[test]
fn text_from_the_baseline_is_shown_on_one_line_and_cut() {
    let dir = scratch("baseline_hostile_text");
    let level = level_obj(&dir, "level.obj", BASE);
    let (_, before) = save_baseline(&dir, &level);
    let mut v = before.clone();
    let findings = v["findings"].as_array_mut().unwrap();
    // A gone finding of an unknown kind with a terminal escape, a newline
    // and 5000 characters in its names; the level's name too.
    let mut odd = findings[0].clone();
    odd["kind"] = "\u{1b}[2J\nstep".into();
    odd["object"] = format!("obj\r\n{}", "o".repeat(5000)).into();
    odd["verdict"] = "\u{7}blocked".into();
    findings.push(odd);
    v["level"] = "\u{1b}]0;title\u{7}".into();
    let path = dir.join("odd.json");
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    let r = run(&["check", &level, "--baseline", &path.display().to_string()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains('\u{1b}') && !r.stdout.contains('\u{7}'));
    assert!(!r.stdout.contains('\r'), "{}", r.stdout);
    let gone: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("  gone     "))
        .collect();
    assert_eq!(gone.len(), 1, "{}", r.stdout);
    assert!(gone[0].contains("?[2J?step"), "{}", gone[0]);
    assert!(gone[0].contains("?blocked"), "{}", gone[0]);
    assert!(gone[0].chars().count() < 250, "{}", gone[0]);
    assert!(r.stdout.contains("the baseline is of level ?]0;title?"));
    // The JSON keeps them as written (escaped by JSON itself).
    let (_, out) = check_json(&level, &path.display().to_string());
    assert_eq!(list(&out, "gone")[0]["kind"], "\u{1b}[2J\nstep");
}

/// The sample of a check against a baseline in docs/checks.md is real output: the
/// base level checked into `level.check.json`, then the riser added.
#[test]
fn the_readme_baseline_sample_is_real_output() {
    let dir = scratch("baseline_readme_sample");
    let in_dir = |args: &[&str]| {
        let out = std::process::Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    level_obj(&dir, "level.obj", BASE);
    let (code, json) = in_dir(&["check", "level.obj", "--json"]);
    assert_eq!(code, Some(3));
    std::fs::write(dir.join("level.check.json"), json).unwrap();
    let edited = Parts {
        extra_tall: true,
        ..BASE
    };
    level_obj(&dir, "level.obj", edited);
    let (code, text) = in_dir(&["check", "level.obj", "--baseline", "level.check.json"]);
    assert_eq!(code, Some(3), "{text}");
    let page = doc("docs/checks.md");
    let sample = page
        .split("$ collidoscope check level.obj --baseline level.check.json\n...\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the baseline sample in docs/checks.md");
    assert!(sample.lines().count() >= 7, "{sample}");
    assert!(
        text.ends_with(sample),
        "docs/checks.md:\n{sample}\nreal:\n{text}"
    );
}
