//! Parser details: tokens, index resolution, names, conversion to world.

use super::*;
use crate::level::import::{ImportOptions, UpAxis};
use std::path::Path;

fn parse_with(text: &str, options: ImportOptions) -> Result<Parsed, String> {
    let ctx = Ctx {
        path: Path::new("t.obj"),
        options: &options,
    };
    parse(text.as_bytes(), &ctx, &|_| {}).map_err(|e| e.to_string())
}

fn parse_ok(text: &str) -> Parsed {
    parse_with(text, ImportOptions::default()).unwrap()
}

fn parse_err(text: &str) -> String {
    parse_with(text, ImportOptions::default()).unwrap_err()
}

#[test]
fn tokens_split_on_whitespace_and_stop_at_comments() {
    let t: Vec<&[u8]> = Tokens(b"  f\t1/2/3  4//5 # 6 7\r").collect();
    assert_eq!(t, [&b"f"[..], b"1/2/3", b"4//5"]);
    assert_eq!(Tokens(b"   ").count(), 0);
    assert_eq!(Tokens(b"# v 1 2 3").count(), 0);
}

#[test]
fn indices_resolve_absolute_and_relative() {
    assert_eq!(resolve(b"1", 0, "vertex", "v"), Ok(0));
    assert_eq!(resolve(b"+7", 3, "vertex", "v"), Ok(6));
    assert_eq!(resolve(b"-1", 3, "vertex", "v"), Ok(2));
    assert_eq!(resolve(b"-3", 3, "vertex", "v"), Ok(0));
    assert!(
        resolve(b"-4", 3, "vertex", "v")
            .unwrap_err()
            .contains("before the first `v`")
    );
    assert!(
        resolve(b"0", 3, "vertex", "v")
            .unwrap_err()
            .contains("index 0")
    );
    assert!(
        resolve(b"1.5", 3, "vertex", "v")
            .unwrap_err()
            .contains("bad vertex index")
    );
    assert!(resolve(b"99999999999999999999", 3, "vertex", "v").is_err());
    assert!(resolve(b"-", 3, "vertex", "v").is_err());
}

#[test]
fn every_face_form_gives_the_same_positions() {
    let p = parse_ok(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n\
         f 1 2 3\nf 1/1 2/1 3/1\nf 1//1 2//1 3//1\nf 1/1/1 2/1/1 3/1/1\nf -3/-1/-1 -2//-1 -1\n",
    );
    assert_eq!(p.face_count(), 5);
    assert_eq!(p.corners, [0, 1, 2].repeat(5));
    assert_eq!(p.face_lines, [6, 7, 8, 9, 10]);
    assert_eq!(p.face_starts, [0, 3, 6, 9, 12, 15]);
}

#[test]
fn malformed_corners_are_rejected() {
    for corner in ["1/", "1/1/", "/1", "1//", "1/1/1/1", "a", "1/x"] {
        let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1 2 {corner}\n");
        let err = parse_err(&text);
        assert!(err.starts_with("t.obj:6: "), "{corner}: {err}");
    }
}

#[test]
fn names_come_from_o_and_g_and_reopened_groups_merge() {
    let p = parse_ok(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n\
         o  Crate 1 \nf 1 2 3\ng lid\nf 1 2 3\ng\ng  \nf 1 2 3\n\
         o\ng walls\nf 1 2 3\ng floor\nf 1 2 3\ng walls\nf 1 2 3\n",
    );
    assert_eq!(
        p.object_names,
        ["default", "Crate 1", "Crate 1/lid", "walls", "floor"]
    );
    let runs: Vec<(u32, u32)> = p.runs.iter().map(|r| (r.object, r.first_face)).collect();
    assert_eq!(
        runs,
        [(0, 0), (1, 1), (2, 2), (1, 3), (3, 4), (4, 5), (3, 6)]
    );
}

#[test]
fn empty_groups_make_no_runs() {
    let p = parse_ok("g a\ng b\nv 0 0 0\nv 1 0 0\nv 0 1 0\ng c\nf 1 2 3\n");
    assert_eq!(p.object_names, ["c"]);
    assert_eq!(p.runs.len(), 1);
}

#[test]
fn z_up_and_scale_convert_to_y_up_metres() {
    let options = ImportOptions {
        up: UpAxis::Z,
        scale: 0.5,
        ..ImportOptions::default()
    };
    let p = parse_with("v 2 4 6\n", options).unwrap();
    assert_eq!(p.positions, [Vec3::new(1.0, 3.0, -2.0)]);
    let p = parse_ok("v .8e-1 -.7e+02 1e-001 9 9 9\n");
    assert_eq!(p.positions, [Vec3::new(0.08, -70.0, 0.1)]);
}

#[test]
fn vertex_errors_name_the_line() {
    assert_eq!(
        parse_err("v 1 2 3\nv 1 2\n"),
        "t.obj:2: `v` needs 3 coordinates, found 2"
    );
    assert!(parse_err("\n\nv 1 nan 3\n").starts_with("t.obj:3: non-finite coordinate `nan`"));
    assert!(parse_err("v -inf 1 1\n").starts_with("t.obj:1: non-finite"));
    assert!(parse_err("v 1.#IND 1 1\n").starts_with("t.obj:1: bad number `1.#IND`"));
    assert!(parse_err("v 1e39 1 1\n").contains("does not fit in 32-bit floats"));
    let options = ImportOptions {
        up: UpAxis::Z,
        scale: 1e30,
        ..ImportOptions::default()
    };
    let err = parse_with("v 0 0 1e10\n", options).unwrap_err();
    assert_eq!(
        err,
        "t.obj:1: coordinate 1e10 times unit scale 1e30 overflows: it does not fit in 32-bit floats"
    );
}

#[test]
fn truncated_last_line_is_called_out() {
    let err = parse_err("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2");
    assert_eq!(
        err,
        "t.obj:4: face with 2 corners (a face needs at least 3) \
         (the file ends in the middle of this line: truncated?)"
    );
    // A complete last line without a newline is fine.
    assert_eq!(
        parse_ok("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3").face_count(),
        1
    );
}

#[test]
fn unused_statements_are_counted_or_warned() {
    let p = parse_ok(
        "mtllib a.mtl\nusemtl x\nv 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\np 1\np 2\ns off\n\
         t crease 2/1/0 1 2 4.0\ncurv 0 1 1 2\nf 1 2 3\n",
    );
    assert_eq!(p.material_statements_ignored, 2);
    assert_eq!(p.lines_ignored, 1);
    assert_eq!(p.points_ignored, 2);
    assert_eq!(p.warnings.count(WarningKind::IgnoredStatement), 2);
}

#[test]
fn dangling_texture_and_normal_indices_warn_once_each() {
    let p = parse_ok("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//2 3//3\nf 1/5 2/6 3/7\n");
    assert_eq!(p.warnings.count(WarningKind::AttributeIndex), 2);
    let w = p.warnings.finish();
    assert_eq!(w[1].line, Some(5));
    assert!(
        w[1].message
            .starts_with("texture index 7 refers past the last `vt` (0 in")
    );
    assert_eq!(w[0].line, Some(4));
}

#[test]
fn progress_is_reported_below_one() {
    let mut text = String::new();
    for i in 0..100_000 {
        text.push_str(&format!("v {i} 0 0\n"));
    }
    let calls = std::sync::Mutex::new(Vec::new());
    let options = ImportOptions::default();
    let ctx = Ctx {
        path: Path::new("t.obj"),
        options: &options,
    };
    parse(text.as_bytes(), &ctx, &|f| calls.lock().unwrap().push(f)).unwrap();
    let calls = calls.into_inner().unwrap();
    assert!(calls.len() >= 2, "{calls:?}");
    assert!(calls.windows(2).all(|w| w[0] <= w[1]));
    assert!(calls.iter().all(|f| (0.0..1.0).contains(f)));
}

#[test]
fn backslash_continues_a_statement_but_not_a_comment() {
    let p = parse_ok(
        "v 0 0 0\nv 1 0 \\\n 0\nv 0 1 0\nv 1 1 0\r\n# C:\\models\\\nf 1 2 \\\r\n 3 \\\n  4\nf 1 2 3\n",
    );
    assert_eq!(p.positions.len(), 4);
    assert_eq!(p.positions[1], Vec3::X);
    assert_eq!(p.corners, [0, 1, 2, 3, 0, 1, 2]);
    assert_eq!(p.face_lines, [7, 10]);
    let err = parse_err("v 0 0 0\nf 1 \\\n 2 \\\n 0\n");
    assert_eq!(
        err,
        "t.obj:2: vertex index 0 is invalid (OBJ indices start at 1)"
    );
    let err = parse_err("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 \\");
    assert!(err.starts_with("t.obj:4: face with 2 corners"), "{err}");
}
