//! The documentation stays true: README.md and the pages in docs/. Its
//! settings example, its JSON fields and its sample outputs are checked
//! against this build, and every relative link and #anchor in it leads to a
//! file and a heading that exist.

use crate::support::*;
use serde_json::Value;
use std::process::Command;

// ---- the documentation stays true ----

/// The page of the documentation that holds the command-line samples.
const COMMAND_LINE: &str = "docs/command-line.md";

#[test]
fn the_readme_settings_example_is_a_valid_settings_file() {
    let text = doc("docs/settings.md");
    let block = text
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a ```toml block in docs/settings.md");
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

/// The keys of `all` that the documentation does not name in backquotes.
fn undocumented(all: &std::collections::BTreeSet<String>) -> Vec<String> {
    let text = documentation();
    // `x_espace` is documented by the rule "with the suffix `_espace`" once `x` is.
    let documented = |k: &String| text.contains(&format!("`{}`", k.trim_end_matches("_espace")));
    all.iter().filter(|k| !documented(k)).cloned().collect()
}

/// Every key of the `walk`, `envelope` and `check` JSON is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// Every key of `map --json` is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// Every key of `info --json`, with `--hygiene`, is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// The sample envelope in docs/command-line.md is this build's real output.
#[test]
fn the_readme_envelope_sample_is_real_output() {
    let r = run(&["envelope"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sample = format!("$ collidoscope envelope\n{}```", r.stdout);
    assert!(
        doc(COMMAND_LINE).contains(&sample),
        "update the sample in {COMMAND_LINE} to:\n{sample}"
    );
}

/// Every key of the JSON trace (all nesting levels) is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// The sample sweep in docs/command-line.md is this build's real output.
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
        doc(COMMAND_LINE).contains(&sample),
        "update the sample in {COMMAND_LINE} to:\n{sample}"
    );
}

/// The sample `sweep --mode all` in docs/command-line.md is this build's real output.
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
        doc(COMMAND_LINE).contains(&sample),
        "update the sample in {COMMAND_LINE} to:\n{sample}"
    );
}

/// Every key of `sweep --mode all --json` and of the batch output lines
/// (summaries and errors) is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// The `pairs` and `boxcam` samples in docs/methods.md are this build's real output.
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
            doc("docs/methods.md").contains(&sample),
            "update the sample in docs/methods.md to:\n{sample}"
        );
    }
}

/// Every key of `pairs --json` and `boxcam --json` (a point and a path) is
/// named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

/// Every key of `sweep --method discrete --json` (a contact, a tunnelled
/// step and trigger events) is named in the documentation.
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
        "the documentation (README.md, docs/*.md) does not document {missing:?}"
    );
}

// ---- every link in the documentation leads somewhere ----

/// The lines of `text` outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// A heading's anchor as GitHub makes it: lower case, letters, digits,
/// `-` and `_` kept, spaces turned into `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown page's headings; a repeated one gets `-1`,
/// `-2`, … as on GitHub.
fn anchors(text: &str) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut out = std::collections::BTreeSet::new();
    for line in prose(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of a page's Markdown links and images (`[text](target)`,
/// the text may run over lines), outside code blocks.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text).join("\n");
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').expect("a link's closing parenthesis");
        targets.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    targets
}

/// `target` (a relative link on `page`, without its anchor) as a path
/// from the repository root; `None` when it climbs out of the repository.
fn resolve(page: &str, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some(page.to_string());
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// What is wrong with the relative links of `page` (`text`): files that do
/// not exist and anchors that are no heading of their page. Also collects
/// the Markdown pages it links to in `linked`.
fn broken_links(
    page: &str,
    text: &str,
    linked: &mut std::collections::BTreeSet<String>,
) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for target in link_targets(text) {
        if ["http://", "https://", "mailto:"]
            .iter()
            .any(|scheme| target.starts_with(scheme))
        {
            continue;
        }
        let (file, fragment) = match target.split_once('#') {
            Some((file, fragment)) => (file, Some(fragment)),
            None => (target.as_str(), None),
        };
        let Some(path) = resolve(page, file) else {
            broken.push(format!("{page}: {target} leaves the repository"));
            continue;
        };
        if !root.join(&path).exists() {
            broken.push(format!("{page}: {target}: no file {path}"));
            continue;
        }
        if path.ends_with(".md") {
            linked.insert(path.clone());
        }
        if let Some(fragment) = fragment {
            if !path.ends_with(".md") {
                broken.push(format!("{page}: {target}: an anchor into {path}"));
            } else if !anchors(&doc(&path)).contains(fragment) {
                broken.push(format!(
                    "{page}: {target}: no heading #{fragment} in {path}"
                ));
            }
        }
    }
    broken
}

/// Every relative link and image in README.md and docs/*.md names a file
/// that exists, every #anchor a heading of its page (GitHub's anchors), and
/// every docs/*.md page can be reached from README.md by following links.
#[test]
fn every_link_in_the_documentation_resolves() {
    let pages = doc_pages();
    assert!(pages.len() > 1, "no pages in docs/: {pages:?}");
    let mut broken = Vec::new();
    let mut links = std::collections::BTreeMap::new();
    for page in &pages {
        let mut linked = std::collections::BTreeSet::new();
        broken.extend(broken_links(page, &doc(page), &mut linked));
        links.insert(page.clone(), linked);
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    let mut reached = std::collections::BTreeSet::from(["README.md".to_string()]);
    let mut todo = vec!["README.md".to_string()];
    while let Some(page) = todo.pop() {
        for next in links.get(&page).into_iter().flatten() {
            if links.contains_key(next) && reached.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    let unreached: Vec<&String> = pages.iter().filter(|p| !reached.contains(*p)).collect();
    assert!(
        unreached.is_empty(),
        "not reachable from README.md: {unreached:?}"
    );
}

/// The link checker itself: GitHub's anchors, links over two lines, code
/// blocks skipped, and a missing file or heading found.
#[test]
fn the_link_checker_finds_broken_links() {
    assert_eq!(
        anchor("`sweep --mode all`: where the algorithms part ways"),
        "sweep---mode-all-where-the-algorithms-part-ways"
    );
    assert_eq!(
        anchor("A designer's walk-through: a staircase and a door"),
        "a-designers-walk-through-a-staircase-and-a-door"
    );
    let twice = anchors("# A\n## Notes\n```\n# not a heading\n```\n## Notes\n");
    let expected = ["a", "notes", "notes-1"].map(String::from);
    assert_eq!(twice, std::collections::BTreeSet::from(expected));
    let page = "see [the\nwindow](window.md#the-window), [no](nowhere.md), \
                [gone](settings.md#no-such-heading), ![shot](section.png), \
                [up](../BENCHMARKS.md), [out](../../x.md)\n```\n[code](missing.md)\n```\n";
    let mut linked = std::collections::BTreeSet::new();
    let broken = broken_links("docs/page.md", page, &mut linked);
    assert_eq!(broken.len(), 3, "{broken:#?}");
    assert!(broken[0].contains("no file docs/nowhere.md"), "{broken:#?}");
    assert!(
        broken[1].contains("no heading #no-such-heading"),
        "{broken:#?}"
    );
    assert!(broken[2].contains("leaves the repository"), "{broken:#?}");
    let expected = ["BENCHMARKS.md", "docs/settings.md", "docs/window.md"].map(String::from);
    assert_eq!(linked, std::collections::BTreeSet::from(expected));
}
