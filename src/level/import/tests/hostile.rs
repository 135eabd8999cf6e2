//! Hostile and damaged input: huge names, numbers and faces,
//! files cut short, old Mac line endings, vertex extras. Each test feeds
//! what once crashed, hung or was silently misread.

use super::super::*;
use std::fmt::Write as _;

fn import(text: &[u8]) -> Result<(TriMesh, ImportReport), String> {
    import_obj_bytes(text, Path::new("h.obj"), &ImportOptions::default()).map_err(|e| e.to_string())
}

fn messages(report: &ImportReport) -> Vec<String> {
    report
        .warnings
        .iter()
        .map(|w| format!("{:?}: {}", w.line, w.message))
        .collect()
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

#[test]
fn a_huge_object_name_is_cut_with_a_warning() {
    let name = "n".repeat(70_000);
    let text = format!("{TRIANGLE}o {name}\nf 1 2 3\n");
    let (mesh, report) = import(text.as_bytes()).unwrap();
    let kept = mesh.objects[0].name.chars().count();
    assert!(kept <= MAX_NAME_CHARS + 1, "{kept}");
    assert!(mesh.objects[0].name.ends_with('…'));
    let w = messages(&report);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("Some(4): object name of 70000 characters cut to"),
        "{w:?}"
    );
    assert!(w[0].len() < 200, "{}", w[0].len());
}

/// Every place that quotes the file quotes at most a short prefix.
#[test]
fn huge_tokens_are_quoted_by_a_short_prefix_and_their_length() {
    let digits = "1".repeat(1_000_000);
    let bad = [
        format!("v 1 2 {digits}x\n"),
        format!("{TRIANGLE}f 1 2 {digits}\n"),
        format!("{TRIANGLE}f 1 2 3/{digits}x\n"),
        format!("{TRIANGLE}f 1 2 3/4/5/{digits}\n"),
    ];
    for text in bad {
        let err = import(text.as_bytes()).unwrap_err();
        assert!(err.len() < 200, "{}", &err[..300]);
        assert!(err.contains("…` (") && err.contains(" bytes)"), "{err}");
    }
    let err = import(format!("v 1 2 {digits}\n").as_bytes()).unwrap_err();
    assert_eq!(
        err,
        format!(
            "h.obj:1: coordinate `{}…` (1000000 bytes) overflows: it does not fit in 32-bit floats",
            &digits[..40]
        )
    );
    let keyword = "k".repeat(100_000);
    let (_, report) = import(format!("{TRIANGLE}{keyword} 1\nf 1 2 3\n").as_bytes()).unwrap();
    let w = messages(&report);
    assert!(w[0].len() < 200 && w[0].contains("(100000 bytes)"), "{w:?}");
}

#[test]
fn a_coordinate_beyond_f64_overflows_like_one_beyond_f32() {
    let err = import(b"v 0 0 1e400\n").unwrap_err();
    assert_eq!(
        err,
        "h.obj:1: coordinate `1e400` overflows: it does not fit in 32-bit floats"
    );
    let err = import(b"v 0 0 1e39\n").unwrap_err();
    assert!(err.contains("overflows"), "{err}");
    assert!(import(b"v 0 0 inf\n").unwrap_err().contains("non-finite"));
}

/// A regular polygon of `n` corners around the origin, in the XZ plane.
fn circle(n: usize, f: &str) -> String {
    let mut text = String::with_capacity(n * 40);
    for i in 0..n {
        let a = i as f64 / n as f64 * std::f64::consts::TAU;
        let _ = writeln!(text, "v {} 0 {}", 100.0 * a.cos(), -100.0 * a.sin());
    }
    text.push_str(f);
    for i in 1..=n {
        let _ = write!(text, " {i}");
    }
    text.push('\n');
    text
}

#[test]
fn a_large_convex_face_triangulates_in_linear_time() {
    let n = 200_000;
    let t = std::time::Instant::now();
    let (mesh, report) = import(circle(n, "f").as_bytes()).unwrap();
    // A bound for "not quadratic" (that would take minutes), loose enough
    // for a loaded CI machine: speed itself is measured in benches/load.rs.
    assert!(t.elapsed().as_secs_f64() < 15.0, "{:?}", t.elapsed());
    // Corners within f32 rounding of a straight line are removed, counted.
    assert!(mesh.triangle_count() > 10_000, "{}", mesh.triangle_count());
    assert_eq!(
        mesh.triangle_count()
            + report.collinear_corners_removed
            + report.degenerate_triangles_dropped,
        n - 2
    );
    assert_eq!(report.ngons_triangulated, 1);
    let area: f64 = (0..mesh.triangle_count())
        .map(|t| {
            let [a, b, c] = mesh.triangles[t].map(|i| mesh.positions[i as usize].as_dvec3());
            (b - a).cross(c - a).length() / 2.0
        })
        .sum();
    assert!((area - std::f64::consts::PI * 1e4).abs() < 1.0, "{area}");
    let count = mesh.triangle_count() as u32;
    for t in [0, count / 2, count - 1] {
        assert!(mesh.triangle_normal(t).y > 0.99);
    }
}

#[test]
fn a_million_corner_convex_face_takes_about_a_second() {
    let n = 1_000_000;
    let positions: Vec<crate::math::Vec3> = (0..n)
        .map(|i| {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            crate::math::Vec3::new(a.cos() as f32 * 1e3, 0.0, -(a.sin() as f32) * 1e3)
        })
        .collect();
    let corners: Vec<u32> = (0..n as u32).collect();
    let t = std::time::Instant::now();
    let mut out = Vec::new();
    let outcome = triangulate::Triangulator::default().triangulate(&corners, &positions, &mut out);
    // Not quadratic (minutes); loose enough for a loaded CI machine.
    assert!(t.elapsed().as_secs_f64() < 15.0, "{:?}", t.elapsed());
    assert_eq!(outcome, triangulate::Outcome::Exact);
    // The f32 corners wobble by more than the circle bends between them:
    // those turning the wrong way are removed (the convex hull is kept).
    assert!(out.len() > 10_000 && out.len() <= n - 2, "{}", out.len());
    let area: f64 = out
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| positions[i as usize].as_dvec3());
            (b - a).cross(c - a).length() / 2.0
        })
        .sum();
    assert!(
        (area / (std::f64::consts::PI * 1e6) - 1.0).abs() < 1e-4,
        "{area}"
    );
}

#[test]
fn a_large_concave_face_is_refused_naming_the_line_and_the_limit() {
    // A star: every other corner pulled in, so half the corners are reflex.
    let n = 40_000;
    let mut text = String::from("# star\n");
    for i in 0..n {
        let a = i as f64 / n as f64 * std::f64::consts::TAU;
        let r = if i % 2 == 0 { 100.0 } else { 99.0 };
        let _ = writeln!(text, "v {} {} 0", r * a.cos(), r * a.sin());
    }
    text.push('f');
    for i in 1..=n {
        let _ = write!(text, " {i}");
    }
    text.push('\n');
    let t = std::time::Instant::now();
    let err = import(text.as_bytes()).unwrap_err();
    // A bound for "not quadratic" (that would take minutes), loose enough
    // for a loaded CI machine: speed itself is measured in benches/load.rs.
    assert!(t.elapsed().as_secs_f64() < 15.0, "{:?}", t.elapsed());
    let line = n + 2;
    assert_eq!(
        err,
        format!(
            "h.obj:{line}: face with {n} corners is not convex; concave faces are \
             triangulated up to {} corners (split it in the modelling tool)",
            triangulate::MAX_CONCAVE_CORNERS
        )
    );
}

#[test]
fn a_last_line_without_a_line_break_is_kept_with_a_warning() {
    let cut = [
        (format!("{TRIANGLE}v 0 0 1\nf 1 2 4"), 5),
        (format!("{TRIANGLE}vt 0 0\nf 1 2 3/1"), 5),
        (format!("{TRIANGLE}f 1 2 3\nv 0 0 1"), 5),
    ];
    for (text, line) in cut {
        let (_, report) = import(text.as_bytes()).unwrap();
        let w = messages(&report);
        assert_eq!(
            w,
            [format!(
                "Some({line}): the file ends without a line break: this last line may be cut short"
            )]
        );
    }
    for whole in [
        format!("{TRIANGLE}f 1 2 3\n"),
        format!("{TRIANGLE}f 1 2 3\n# end"),
    ] {
        let (_, report) = import(whole.as_bytes()).unwrap();
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }
    // Cut inside a corner, where the corner cannot be read: an error that says so.
    let err = import(format!("{TRIANGLE}f 1 2 3/").as_bytes()).unwrap_err();
    assert!(
        err.ends_with("(the file ends in the middle of this line: truncated?)"),
        "{err}"
    );
}

#[test]
fn old_mac_line_endings_are_lines() {
    let (mesh, report) = import(b"v 0 0 0\rv 1 0 0\rv 0 1 0\rv 1 1 0\rf 1 2 3\rf 2 4 3\r").unwrap();
    assert_eq!(mesh.triangle_count(), 2);
    assert_eq!(report.vertices, 4);
    let err = import(b"v 0 0 0\rv 1 0 0\rv 0 1\rf 1 2 3\r").unwrap_err();
    assert_eq!(err, "h.obj:3: `v` needs 3 coordinates, found 2");
}

#[test]
fn extra_vertex_values_warn_once_but_colours_are_silent() {
    let silent = "v 0 0 0 1\nv 1 0 0 1 0 0\nv 0 1 0 1 0.5 0.5 0.5\nf 1 2 3\n";
    let (_, report) = import(silent.as_bytes()).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let extra = "v 0 0 0\nv 1 0 0 1 2\nv 0 1 0 a b c\nv 1 1 0 1 2 3 4 5\nf 1 2 3\n";
    let (_, report) = import(extra.as_bytes()).unwrap();
    let w = messages(&report);
    assert_eq!(
        w,
        [
            "Some(2): `v` has 2 values after x y z (only w, or r g b colours, are read); \
             extras ignored"
                .to_string(),
            "None: 2 more extra vertex value warnings not listed (3 in all)".to_string()
        ]
    );
}

/// The slowest faces ear clipping still takes, at the corner limit: a
/// star (half its corners reflex) and a scribble crossing itself
/// everywhere (every ear forced).
#[test]
fn concave_faces_at_the_limit_take_seconds_not_minutes() {
    let n = triangulate::MAX_CONCAVE_CORNERS;
    let star: Vec<crate::math::Vec3> = (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            let r = if i % 2 == 0 { 100.0 } else { 99.0 };
            crate::math::Vec3::new(r * a.cos(), r * a.sin(), 0.0)
        })
        .collect();
    // A linear congruential scribble: deterministic, crossing itself.
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32 * 100.0
    };
    let scribble: Vec<crate::math::Vec3> = (0..n)
        .map(|_| crate::math::Vec3::new(next(), next(), 0.0))
        .collect();
    let corners: Vec<u32> = (0..n as u32).collect();
    for (name, positions) in [("star", star), ("scribble", scribble)] {
        let t = std::time::Instant::now();
        let mut out = Vec::new();
        let outcome =
            triangulate::Triangulator::default().triangulate(&corners, &positions, &mut out);
        let took = t.elapsed().as_secs_f64();
        println!(
            "{name}: {outcome:?}, {} triangles in {took:.3} s",
            out.len()
        );
        // Well under the minutes a cubic clipper would take at this size;
        // loose enough for a loaded CI machine.
        assert!(took < 15.0, "{name}: {took} s");
    }
}

/// Turning left at every corner is not enough to be fanned: a face going
/// twice around (a 101-pointed pentagram-like star) crosses itself.
#[test]
fn a_face_winding_twice_around_is_not_fanned() {
    let n = 101;
    let positions: Vec<crate::math::Vec3> = (0..n)
        .map(|i| {
            let a = (2 * i) as f32 / n as f32 * std::f32::consts::TAU;
            crate::math::Vec3::new(a.cos(), a.sin(), 0.0)
        })
        .collect();
    let corners: Vec<u32> = (0..n as u32).collect();
    let mut out = Vec::new();
    let outcome = triangulate::Triangulator::default().triangulate(&corners, &positions, &mut out);
    assert_eq!(outcome, triangulate::Outcome::Forced);
}

/// A last line longer than the progress step (256 KiB) with no line break
/// after it once overflowed the count of bytes read.
#[test]
fn a_long_unterminated_last_line_imports_with_a_warning() {
    let text = circle(100_000, "f");
    let (mesh, report) = import(text.trim_end().as_bytes()).unwrap();
    assert!(mesh.triangle_count() > 1000);
    let w = messages(&report);
    assert!(w[0].contains("ends without a line break"), "{w:?}");
}

/// Exporters round: a 300k-corner circle written with 4 decimals wobbles
/// by more than it bends, and is still convex enough to be fanned.
#[test]
fn a_large_round_face_written_with_few_decimals_is_still_fanned() {
    let n = 300_000;
    let mut text = String::with_capacity(n * 30);
    for i in 0..n {
        let a = i as f64 / n as f64 * std::f64::consts::TAU;
        let _ = writeln!(text, "v {:.4} {:.4} 0", 100.0 * a.cos(), 100.0 * a.sin());
    }
    text.push('f');
    for i in 1..=n {
        let _ = write!(text, " {i}");
    }
    let (mesh, _) = import(text.as_bytes()).unwrap();
    let area: f64 = mesh
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| mesh.positions[i as usize].as_dvec3());
            (b - a).cross(c - a).length() / 2.0
        })
        .sum();
    assert!(
        (area / (std::f64::consts::PI * 1e4) - 1.0).abs() < 1e-4,
        "{area}"
    );
}
