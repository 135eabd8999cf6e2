//! Hostile and damaged level files through the real binary (issue 14):
//! each ends with the exit code and message the table in docs/importing.md
//! gives, never a panic, a hang or a message quoting megabytes of the file.

use crate::support::*;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

/// Writes `bytes` to a scratch file named `name` for test `test`.
fn level(test: &str, name: &str, bytes: &[u8]) -> String {
    let path: PathBuf = scratch(test).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 0 1\n";

#[test]
fn a_65536_character_object_name_is_cut_not_a_panic() {
    let text = format!("{TRIANGLE}o {}\nf 1 2 3\n", "n".repeat(65_536));
    let path = level("long_name", "long_name.obj", text.as_bytes());
    let r = run(&["info", &path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("line 4: object name of 65536 characters cut to 200"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.len() < 5_000, "{}", r.stdout.len());
}

#[test]
fn huge_tokens_are_quoted_by_a_prefix_and_1e400_overflows() {
    let digits = "9".repeat(5_000_000);
    let path = level(
        "huge_number",
        "huge.obj",
        format!("v 1 2 {digits}x\n").as_bytes(),
    );
    let r = run(&["info", &path]);
    assert_fails(&r, 1, "huge.obj:1: bad number `99999");
    assert!(
        r.stderr.contains("…` (5000001 bytes) in `v`"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.len() < 300, "{}", r.stderr.len());
    let path = level("overflow", "overflow.obj", b"v 0 0 1e400\n");
    assert_fails(
        &run(&["info", &path]),
        1,
        "overflow.obj:1: coordinate `1e400` overflows",
    );
}

/// A face of `n` corners on a circle (convex) or a star (concave).
fn round_face(n: usize, star: bool) -> String {
    let mut text = String::new();
    for i in 0..n {
        let a = i as f64 / n as f64 * std::f64::consts::TAU;
        let r = if star && i % 2 == 1 { 9.0 } else { 10.0 };
        let _ = writeln!(text, "v {} 0 {}", r * a.cos(), -r * a.sin());
    }
    text.push('f');
    for i in 1..=n {
        let _ = write!(text, " {i}");
    }
    text.push('\n');
    text
}

#[test]
fn a_huge_convex_face_is_fanned_and_a_large_concave_one_refused() {
    let path = level("round", "round.obj", round_face(300_000, false).as_bytes());
    let t = std::time::Instant::now();
    let r = run(&["info", &path, "--json"]);
    // Not quadratic (hours); loose enough for a loaded CI machine.
    assert!(t.elapsed().as_secs_f64() < 30.0, "{:?}", t.elapsed());
    let v = json(&r);
    assert_eq!(v["import_report"]["ngons_triangulated"], 1);
    let path = level("star", "star.obj", round_face(3_000, true).as_bytes());
    assert_fails(
        &run(&["info", &path]),
        1,
        "star.obj:3001: face with 3000 corners is not convex; concave faces are \
         triangulated up to 2000 corners",
    );
}

#[test]
fn a_file_cut_mid_line_is_read_with_a_warning() {
    let path = level(
        "cut",
        "cut.obj",
        format!("{TRIANGLE}v 1 0 1\nf 1 2 4 3/1").as_bytes(),
    );
    let r = run(&["info", &path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "line 5: the file ends without a line break: this last line may be cut short"
        ),
        "{}",
        r.stdout
    );
    let path = level(
        "cut_corner",
        "cut.obj",
        format!("{TRIANGLE}f 1 2 3/").as_bytes(),
    );
    assert_fails(
        &run(&["info", &path]),
        1,
        "(the file ends in the middle of this line",
    );
}

#[test]
fn old_mac_line_breaks_and_vertex_extras() {
    let path = level("mac", "mac.obj", b"v 0 0 0\rv 1 0 0\rv 0 0 1\rf 1 2 3\r");
    let v = json(&run(&["info", &path, "--json"]));
    assert_eq!(v["triangles"], 1);
    let text = "v 0 0 0 1 0 0\nv 1 0 0 7 8\nv 0 0 1 x\nf 1 2 3\n";
    let path = level("extras", "extras.obj", text.as_bytes());
    let r = run(&["info", &path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("line 2: `v` has 2 values after x y z"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("1 more extra vertex value warnings"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_gzip_bomb_stops_at_the_unpacked_size_limit() {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&vec![b' '; 8 << 20]).unwrap();
    enc.write_all(TRIANGLE.as_bytes()).unwrap();
    enc.write_all(b"f 1 2 3\n").unwrap();
    let path = level("bomb", "bomb.obj.gz", &enc.finish().unwrap());
    assert_fails(
        &run(&["info", &path, "--max-unpacked-mib", "4"]),
        1,
        "bomb.obj.gz: gzip data unpacks to more than 4 MiB, the limit",
    );
    let v = json(&run(&["info", &path, "--json"]));
    assert_eq!(v["triangles"], 1);
}

#[test]
fn objects_by_material_can_be_switched_off() {
    let water = fixture("materials.obj");
    let v = json(&run(&[
        "info",
        &water,
        "--objects-by",
        "material",
        "--json",
    ]));
    let names: Vec<&str> = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["stone", "water", "trigger"]);
    let fall = |extra: &[&str]| {
        let mut args = vec![
            "sweep",
            water.as_str(),
            "--from",
            "0,3,0",
            "--velocity",
            "0,-3,0",
            "--objects-by",
            "material",
            "--json",
        ];
        args.extend_from_slice(extra);
        vec3(&json(&run(&args))["final_position"])[1]
    };
    assert!(near(fall(&[]), 1.4, 0.02), "lands on the water");
    assert!(
        near(fall(&["--non-colliding", "water"]), 0.9, 0.02),
        "falls through the water to the stone"
    );
}

#[test]
fn a_huge_bad_flag_value_is_quoted_by_its_start_only() {
    let garbage = "z".repeat(6000);
    let r = run(&[
        "sweep",
        &fixture("cli_box.obj"),
        "--method",
        "radial",
        "--from",
        "0,1,0",
        "--velocity",
        "1,0,0",
        "--cylinder",
        &garbage,
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.len() < 400,
        "{} bytes: {:.200}",
        r.stderr.len(),
        r.stderr
    );
    assert!(r.stderr.contains("(6000 characters)"), "{}", r.stderr);
}
