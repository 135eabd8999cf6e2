//! What runs by which method: batches and walks run the ellipsoid slide
//! only and say so in one line; the slide's trigger events on the command
//! line.

use crate::support::{assert_fails, fixture, json, near, run, scratch, vec3};
use serde_json::Value;

const EXIT_USAGE: i32 = 2;
const EXIT_BAD_LINES: i32 = 4;

#[test]
fn sweep_batch_with_another_method_is_refused_in_one_line() {
    let level = fixture("cli_box.obj");
    for m in ["discrete", "box"] {
        let r = run(&["sweep", &level, "--method", m, "--batch", "-"]);
        assert_fails(&r, EXIT_USAGE, "not supported with --batch");
        assert!(
            r.stderr.contains("a batch runs the ellipsoid slide only"),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn sweep_mode_all_with_another_method_is_refused_in_one_line() {
    let level = fixture("cli_box.obj");
    let r = run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--mode",
        "all",
        "--method",
        "box",
    ]);
    assert_fails(
        &r,
        EXIT_USAGE,
        "--method box is not supported with --mode all",
    );
    assert!(
        r.stderr.contains("robust, fauerby2003, nettle2000"),
        "{}",
        r.stderr
    );
    // The slide itself compares its modes as before.
    let ok = run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--mode",
        "all",
        "--method",
        "ellipsoid",
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
}

#[test]
fn walk_with_another_method_is_refused_single_or_batch() {
    let level = fixture("cli_box.obj");
    let r = run(&[
        "walk",
        &level,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--method",
        "discrete",
    ]);
    assert_fails(&r, EXIT_USAGE, "--method discrete is not supported by walk");
    let r = run(&["walk", &level, "--batch", "-", "--method", "box"]);
    assert_fails(&r, EXIT_USAGE, "the ellipsoid slide only");
    let ok = run(&[
        "walk",
        &level,
        "--from",
        "0,1,0",
        "--direction",
        "1,0",
        "--seconds",
        "0.1",
        "--method",
        "ellipsoid",
    ]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
}

#[test]
fn a_batch_line_naming_another_method_is_refused_with_its_number() {
    let level = fixture("cli_box.obj");
    let dir = scratch("refusals_batch_method");
    let moves = dir.join("moves.jsonl");
    std::fs::write(
        &moves,
        concat!(
            "{\"from\": [0, 1, 0], \"velocity\": [1, 0, 0], \"method\": \"ellipsoid\"}\n",
            "{\"from\": [0, 1, 0], \"velocity\": [1, 0, 0], \"method\": \"box\"}\n",
        ),
    )
    .unwrap();
    let r = run(&[
        "sweep",
        &level,
        "--batch",
        moves.to_str().unwrap(),
        "--summary",
    ]);
    assert_eq!(r.code, EXIT_BAD_LINES, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("line 2: method \"box\" is not supported here"),
        "{}",
        r.stderr
    );
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["end_reason"], "arrived");
    let walks = dir.join("walks.jsonl");
    std::fs::write(
        &walks,
        "{\"from\": [0, 1, 0], \"direction\": [1, 0], \"method\": \"discrete\"}\n",
    )
    .unwrap();
    let r = run(&[
        "walk",
        &level,
        "--batch",
        walks.to_str().unwrap(),
        "--summary",
    ]);
    assert_eq!(r.code, EXIT_BAD_LINES, "{}", r.stderr);
    assert!(
        r.stderr.contains("a walk runs the ellipsoid slide only"),
        "{}",
        r.stderr
    );
}

#[test]
fn sweep_reports_the_triggers_the_slide_passes_through() {
    // The wall (x = 3) made a trigger: the 0.4 m probe enters it when its
    // centre is at x = 2.6 and leaves at 3.4, on a 6 m move.
    let level = fixture("cli_box.obj");
    let args = [
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "6,0,0",
        "--radii",
        "0.4,0.4,0.4",
        "--gravity",
        "0,0,0",
        "--non-colliding",
        "wall",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&run(&with_json));
    let events = v["iterations"][0]["trigger_events"].as_array().unwrap();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(
        (&events[0]["kind"], &events[0]["name"]),
        (&Value::from("enter"), &Value::from("wall"))
    );
    assert!(near(events[0]["t"].as_f64().unwrap(), 2.6 / 6.0, 1e-9));
    assert!(near(vec3(&events[1]["center"])[0], 3.4, 1e-9));
    assert_eq!(events[1]["kind"], "exit");
    let text = run(&args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("trigger enter wall t=0.4333"),
        "{}",
        text.stdout
    );
    // Without triggers the field is absent.
    let plain = json(&run(&[
        "sweep",
        &level,
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--json",
    ]));
    assert!(plain["iterations"][0].get("trigger_events").is_none());
}
