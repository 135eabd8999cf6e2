//! Batch runs and mode comparisons through the real binary, on the box
//! fixture: `sweep --batch` and `walk --batch` (output order, equivalence
//! with single runs, `--summary`, stdin, bad lines with their numbers, exit
//! codes) and `sweep --mode all` (its shape, and where nettle2000 parts
//! from the others).

use crate::support::*;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const EXIT_BAD_LINES: i32 = 4;

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary with `stdin` piped in.
fn run_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the collidoscope binary runs");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written from a thread so a full stdout pipe cannot deadlock the test.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn json_lines(r: &Run) -> Vec<Value> {
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The `sweep` flags that give one batch line's move.
fn flags_of(line: &Value) -> Vec<String> {
    let mut args = Vec::new();
    for key in ["from", "velocity", "radii", "gravity"] {
        if let Some(v) = line.get(key) {
            let parts: Vec<String> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap().to_string())
                .collect();
            args.push(format!("--{key}={}", parts.join(",")));
        }
    }
    if let Some(m) = line.get("mode") {
        args.push(format!("--mode={}", m.as_str().unwrap()));
    }
    args
}

fn example_moves() -> Vec<(usize, Value)> {
    std::fs::read_to_string(example("cli_box_moves.jsonl"))
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, serde_json::from_str(l).unwrap()))
        .collect()
}

#[test]
fn each_batch_line_is_the_single_sweep_json_of_its_move_in_input_order() {
    let box_obj = fixture("cli_box.obj");
    let r = run(&[
        "sweep",
        &box_obj,
        "--batch",
        &example("cli_box_moves.jsonl"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let out = json_lines(&r);
    let moves = example_moves();
    assert_eq!(out.len(), moves.len());
    for (mut got, (line, mv)) in out.into_iter().zip(moves) {
        assert_eq!(got["line"], line);
        got.as_object_mut().unwrap().remove("line");
        let mut args = vec!["sweep".to_string(), box_obj.clone(), "--json".into()];
        args.extend(flags_of(&mv));
        let single = json(&run(&args));
        assert_eq!(got, single, "line {line}: {mv}");
    }
}

#[test]
fn summary_lines_are_the_final_state_of_the_full_run() {
    let box_obj = fixture("cli_box.obj");
    let moves = example("cli_box_moves.jsonl");
    let full = json_lines(&run(&["sweep", &box_obj, "--batch", &moves]));
    let r = run(&["sweep", &box_obj, "--batch", &moves, "--summary"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.lines().all(|l| l.starts_with("{\"line\":")),
        "{}",
        r.stdout
    );
    let summary = json_lines(&r);
    assert_eq!(summary.len(), full.len());
    for (s, f) in summary.iter().zip(&full) {
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "embedded_iterations",
                "end_reason",
                "final_position",
                "iteration_count",
                "line",
                "mode",
                "tunnel_iterations"
            ]
        );
        for key in [
            "line",
            "mode",
            "final_position",
            "end_reason",
            "embedded_iterations",
            "tunnel_iterations",
        ] {
            assert_eq!(s[key], f[key], "{key}");
        }
        assert_eq!(
            s["iteration_count"],
            f["iterations"].as_array().unwrap().len()
        );
    }
    // The nettle2000 move resting against the wall ends inside it, every iteration.
    let last = summary.last().unwrap();
    assert_eq!(last["mode"], "nettle2000");
    assert_eq!(
        last["embedded_iterations"],
        serde_json::json!([0, 1, 2, 3, 4])
    );
}

#[test]
fn stdin_gives_the_same_lines_and_thousands_of_moves_keep_their_order() {
    let box_obj = fixture("cli_box.obj");
    // More moves than one parallel round (4096), with comments between.
    let mut text = String::new();
    for i in 0..5000 {
        if i % 1000 == 0 {
            text.push_str("# a comment\n\n");
        }
        let z = -4.0 + 8.0 * f64::from(i) / 5000.0;
        text.push_str(&format!(
            "{{\"from\": [0, 1, {z}], \"velocity\": [{}, 0, 0.5]}}\n",
            1.0 + f64::from(i % 7)
        ));
    }
    let a = run_stdin(
        &["sweep", &box_obj, "--batch", "-", "--summary"],
        text.as_bytes(),
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    let dir = scratch("batch_stdin");
    let path = dir.join("moves.jsonl");
    std::fs::write(&path, &text).unwrap();
    let b = run(&[
        "sweep",
        &box_obj,
        "--batch",
        path.to_str().unwrap(),
        "--summary",
    ]);
    assert_eq!(a.stdout, b.stdout, "stdin and file differ");
    // One thread gives the same bytes as all of them.
    let one = Command::new(BIN)
        .args([
            "sweep",
            &box_obj,
            "--batch",
            path.to_str().unwrap(),
            "--summary",
        ])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&one.stdout),
        a.stdout,
        "one thread differs"
    );
    let out = json_lines(&a);
    assert_eq!(out.len(), 5000);
    let input_lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with('{'))
        .map(|(i, _)| i + 1)
        .collect();
    let output_lines: Vec<usize> = out
        .iter()
        .map(|v| v["line"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(output_lines, input_lines);
    // Moves of 2 m or more along x reach the wall at x = 3 and stop at 2.595.
    for (v, i) in out.iter().zip(0..) {
        let x = vec3(&v["final_position"])[0];
        let expected = if 1 + i % 7 >= 3 {
            2.595
        } else {
            f64::from(1 + i % 7)
        };
        assert!(near(x, expected, 1e-9), "move {i}: x {x}");
    }
}

#[test]
fn bad_lines_are_reported_by_number_and_the_others_still_run() {
    let box_obj = fixture("cli_box.obj");
    let good = r#"{"from": [0, 1, 0], "velocity": [1, 0, 0]}"#;
    let mut text = Vec::new();
    let mut push = |line: &[u8]| {
        text.extend_from_slice(line);
        text.push(b'\n');
    };
    push(good.as_bytes()); // 1
    push(b"not json at all"); // 2
    push(br#"{"from": [0, 1, 0], "velocity": [1, 0, 0], "speed": 3}"#); // 3
    push(br#"{"from": [0, 1, 0], "velocity": [1e400, 0, 0]}"#); // 4
    push(br#"{"from": [0, 1, 0], "velocity": [1e300, 0, 0]}"#); // 5
    push(br#"{"from": [0, 1, 0], "velocity": [1, 0, 0], "radii": [0.4, 0, 0.4]}"#); // 6
    push(br#"{"from": [0, 1, 0], "velocity": [1, 0, 0], "radii": [0.001, 1, 1]}"#); // 7
    let long_mode = "q".repeat(10_000);
    push(
        format!(r#"{{"from": [0, 1, 0], "velocity": [1, 0, 0], "mode": "{long_mode}"}}"#)
            .as_bytes(),
    ); // 8
    push(&[b'{'; 100_000]); // 9: over the 64 KiB limit
    push(b"{\"from\": [0, 1, 0], \"velocity\": [1, 0, 0]\xff}"); // 10
    push(br#"{"from": [0, 1, 0]}"#); // 11
    push(br#"{"from": [0, 1, 0], "velocity": [1, 0]}"#); // 12
    push(good.as_bytes()); // 13
    let r = run_stdin(&["sweep", &box_obj, "--batch", "-"], &text);
    assert_eq!(r.code, EXIT_BAD_LINES, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: 11 of 13 lines refused; the first, line 2: bad JSON"),
        "{}",
        r.stderr
    );
    let out = json_lines(&r);
    assert_eq!(out.len(), 13);
    assert!(
        r.stdout.lines().all(|l| l.starts_with("{\"line\":")),
        "{}",
        r.stdout
    );
    assert_eq!(out[0]["line"], 1);
    assert_eq!(out[0]["end_reason"], "arrived");
    assert_eq!(out[12]["line"], 13);
    assert_eq!(out[12]["end_reason"], "arrived");
    let expect = [
        (
            2,
            "bad JSON: expected ident at column 2, in `not json at all`",
        ),
        (3, "unknown field `speed`"),
        (4, "number out of range"),
        (5, "velocity x 1e300 is beyond the supported ±1e9 m"),
        (6, "radius 0 must be a finite number from 0.001 to 10000 m"),
        (7, "skin 0.005 must be smaller than the smallest radius"),
        (
            8,
            "unknown variant `qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq… (10000 characters)`",
        ),
        (
            9,
            "the line is 100000 bytes, longer than the limit of 65536 bytes",
        ),
        (10, "the line is not UTF-8 text"),
        (11, "missing field `velocity`"),
        (12, "velocity has 2 numbers; expected 3"),
    ];
    for (line, needle) in expect {
        let v = &out[line - 1];
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["error", "line"], "{v}");
        assert_eq!(v["line"], line);
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(needle), "line {line}: {needle:?} not in {e:?}");
        assert!(e.len() < 300, "line {line}: a long message: {e}");
    }
}

#[test]
fn batch_exit_codes() {
    let box_obj = fixture("cli_box.obj");
    let moves = example("cli_box_moves.jsonl");
    // A missing moves file fails before the level is read.
    let r = run(&["sweep", &box_obj, "--batch", "/no/such/moves.jsonl"]);
    assert_fails(&r, 1, "/no/such/moves.jsonl: No such file");
    let r = run(&["sweep", "/no/such/level.obj", "--batch", &moves]);
    assert_fails(&r, 1, "level.obj");
    for args in [
        vec!["sweep", &box_obj, "--batch", &moves, "--from", "0,1,0"],
        vec!["sweep", &box_obj, "--batch", &moves, "--mode", "all"],
        vec!["sweep", &box_obj],
        vec![
            "walk",
            &box_obj,
            "--summary",
            "--from",
            "0,1,0",
            "--direction",
            "1,0",
        ],
        vec!["walk", &box_obj, "--batch", &moves, "--direction", "1,0"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    // An empty batch (only comments) runs nothing and succeeds.
    let r = run_stdin(&["sweep", &box_obj, "--batch", "-"], b"# nothing\n\n");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
}

#[test]
fn walk_batch_lines_are_single_walks_and_summaries() {
    let box_obj = fixture("cli_box.obj");
    let walks = example("cli_box_walks.jsonl");
    let r = run(&["walk", &box_obj, "--batch", &walks]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let full = json_lines(&r);
    assert_eq!(full.len(), 3);
    // The first line, run alone with the same flags.
    let mut first = full[0].clone();
    assert_eq!(first["line"], 3);
    first.as_object_mut().unwrap().remove("line");
    let single = json(&run(&[
        "walk",
        &box_obj,
        "--json",
        "--from",
        "0,0.95,0",
        "--direction",
        "1,0",
        "--seconds",
        "1",
    ]));
    assert_eq!(first, single);
    // It walks into the wall at x = 3 and stalls there.
    assert!(near(
        vec3(&single["summary"]["final_position"])[0],
        2.595,
        1e-9
    ));
    assert_eq!(full[1]["spec"]["jump"], true);
    assert_eq!(full[2]["settings"]["mode"], "fauerby2003");
    let r = run(&["walk", &box_obj, "--batch", &walks, "--summary"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary = json_lines(&r);
    for (s, f) in summary.iter().zip(&full) {
        assert_eq!(s["line"], f["line"]);
        assert_eq!(s["summary"], f["summary"]);
        assert_eq!(s.as_object().unwrap().len(), 2, "{s}");
    }
    // A bad walk among good ones.
    let text = b"{\"from\": [0, 0.95, 0], \"direction\": [0, 0]}\n{\"from\": [0, 0.95, 0], \"direction\": [1, 0], \"seconds\": 1e9}\n{\"from\": [0, 0.95, 0], \"direction\": [1, 0], \"seconds\": 0.1}\n";
    let r = run_stdin(&["walk", &box_obj, "--batch", "-", "--summary"], text);
    assert_eq!(r.code, EXIT_BAD_LINES, "{}", r.stderr);
    let out = json_lines(&r);
    assert!(out[0]["error"].as_str().unwrap().contains("no way to walk"));
    assert!(
        out[1]["error"]
            .as_str()
            .unwrap()
            .contains("a walk is at most 36000 frames")
    );
    assert_eq!(out[2]["summary"]["frames"], 6);
}

// ---- sweep --mode all ----

/// A probe resting against the wall (x = 2.6, its radius from x = 3) and
/// pushing into it: robust and fauerby2003 stay put; nettle2000, which
/// backs off along the velocity from where it already touches, ends inside
/// the wall at once and then at every iteration up to the cap.
const AGAINST_THE_WALL: [&str; 4] = ["--from", "2.6,1,0", "--velocity", "1,0,0"];

#[test]
fn mode_all_json_holds_each_modes_sweep_json_and_the_divergence() {
    let mut args = vec!["--mode", "all"];
    args.extend(AGAINST_THE_WALL);
    let v = sweep_json(&args);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "divergence",
            "divergence_tolerance_m",
            "from",
            "level",
            "modes",
            "velocity"
        ]
    );
    assert_eq!(v["divergence_tolerance_m"], 0.001);
    let modes = ["robust", "fauerby2003", "nettle2000"];
    assert_eq!(v["modes"].as_object().unwrap().len(), 3);
    for mode in modes {
        let mut single_args = vec!["--mode", mode];
        single_args.extend(AGAINST_THE_WALL);
        assert_eq!(v["modes"][mode], sweep_json(&single_args), "{mode}");
    }
    let d = &v["divergence"];
    assert_eq!(d["iteration"], 0);
    let differs: Vec<&str> = d["differs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(
        differs,
        ["hit_triangle", "outcome", "embedded", "end_position"]
    );
    let embedded: Vec<bool> = d["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["embedded"].as_bool().unwrap())
        .collect();
    assert_eq!(embedded, [false, false, true]);
    assert_eq!(d["modes"][2]["mode"], "nettle2000");
    assert!(near(vec3(&d["modes"][0]["end"])[0], 2.6, 1e-9));
    assert!(vec3(&d["modes"][2]["end"])[0] > 2.6 + 0.05, "{d}");
    assert!(d["end_spread_m"].as_f64().unwrap() > 0.05);
    let text = d["description"].as_str().unwrap();
    assert!(text.starts_with("at iteration #0: hit triangle (robust 2 (wall), fauerby2003 2 (wall), nettle2000 3 (wall))"), "{text}");
    assert!(
        text.contains("ends inside geometry (robust no, fauerby2003 no, nettle2000 yes)"),
        "{text}"
    );
    assert_eq!(
        v["modes"]["nettle2000"]["embedded_iterations"],
        serde_json::json!([0, 1, 2, 3, 4])
    );
}

#[test]
fn mode_all_agrees_on_an_open_move_and_sees_gravity_handled_differently() {
    let v = sweep_json(&["--mode", "all", "--from", "0,1,0", "--velocity", "1,0,0"]);
    assert_eq!(v["divergence"], Value::Null);
    // nettle2000 adds gravity to the velocity: its first iteration already
    // heads for the floor while the others meet the wall first.
    let v = sweep_json(&[
        "--mode",
        "all",
        "--from",
        "0,1,0",
        "--velocity",
        "5,0,5",
        "--gravity",
        "0,-1,0",
    ]);
    let d = &v["divergence"];
    assert_eq!(d["iteration"], 0);
    assert_eq!(d["modes"][0]["hit_triangle"], d["modes"][1]["hit_triangle"]);
    assert_ne!(d["modes"][0]["hit_triangle"], d["modes"][2]["hit_triangle"]);
}

#[test]
fn mode_all_text_is_one_row_per_mode_and_the_divergent_iteration() {
    let box_obj = fixture("cli_box.obj");
    let mut args = vec!["sweep", box_obj.as_str(), "--mode", "all"];
    args.extend(AGAINST_THE_WALL);
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    let row = |mode: &str| {
        out.lines()
            .find(|l| l.starts_with(mode) && l.contains("(2."))
            .unwrap_or_else(|| panic!("no row for {mode}:\n{out}"))
    };
    assert!(
        row("robust").contains("too_short") && row("robust").ends_with(" no"),
        "{out}"
    );
    assert!(row("nettle2000").contains("iteration_cap"), "{out}");
    assert!(
        row("nettle2000").ends_with("YES at #0, #1, #2, #3, #4"),
        "{out}"
    );
    assert!(
        out.contains("\ndiverge     at iteration #0: hit triangle"),
        "{out}"
    );
    let nettle = out
        .lines()
        .find(|l| l.starts_with("  nettle2000 "))
        .unwrap();
    assert!(
        nettle.contains("#0 velocity d0") && nettle.contains("EMBEDDED"),
        "{out}"
    );
    let r = run(&[
        "sweep",
        &box_obj,
        "--mode",
        "all",
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
    ]);
    assert!(
        r.stdout.contains("\nagree       on every iteration"),
        "{}",
        r.stdout
    );
}
