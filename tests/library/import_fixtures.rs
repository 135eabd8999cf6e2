//! OBJ import on the small files in `tests/fixtures/`: every face form, CRLF,
//! negative indices, gzip, concave n-gons, groups, unit conversion, warnings,
//! and one file per kind of error, whose message must name file and line.

use collidoscope::level::import::import_obj_file;
use collidoscope::level::{ImportOptions, ImportReport, UpAxis};
use collidoscope::math::{DVec3, Vec3};
use collidoscope::mesh::TriMesh;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn import_with(name: &str, options: ImportOptions) -> (TriMesh, ImportReport) {
    import_obj_file(&fixture(name), &options, &|_| {})
        .unwrap_or_else(|e| panic!("{name} should import: {e}"))
}

fn import(name: &str) -> (TriMesh, ImportReport) {
    import_with(name, ImportOptions::default())
}

fn error(name: &str) -> String {
    match import_obj_file(&fixture(name), &ImportOptions::default(), &|_| {}) {
        Ok(_) => panic!("{name} should be rejected"),
        Err(e) => e.to_string(),
    }
}

fn total_area(mesh: &TriMesh) -> f64 {
    (0..mesh.triangle_count() as u32)
        .map(|t| {
            let [a, b, c] = mesh.triangle_f64(t);
            (b - a).cross(c - a).length() / 2.0
        })
        .sum()
}

/// Every triangle of a closed unit cube faces away from its centre.
fn assert_outward_unit_cube(mesh: &TriMesh) {
    assert_eq!(mesh.triangle_count(), 12);
    assert!((total_area(mesh) - 6.0).abs() < 1e-9);
    let centre = DVec3::splat(0.5);
    for t in 0..12 {
        let [a, b, c] = mesh.triangle_f64(t);
        let out = (a + b + c) / 3.0 - centre;
        assert!(
            mesh.triangle_normal(t).dot(out) > 0.4,
            "triangle {t} faces inwards"
        );
    }
}

#[test]
fn every_face_form_imports() {
    let (mesh, report) = import("face_forms.obj");
    assert_outward_unit_cube(&mesh);
    assert_eq!(
        (report.vertices, report.faces, report.ngons_triangulated),
        (8, 6, 6)
    );
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn crlf_line_endings_import() {
    let (mesh, report) = import("crlf.obj");
    assert_outward_unit_cube(&mesh);
    assert_eq!(mesh.objects()[0].name, "cube");
    assert!(report.warnings.is_empty());
}

#[test]
fn gzip_is_detected_by_content() {
    let (mesh, _) = import("face_forms.obj.gz");
    assert_outward_unit_cube(&mesh);
    let plain = import("face_forms.obj").0;
    assert_eq!(mesh.triangles(), plain.triangles());
    assert_eq!(mesh.positions(), plain.positions());
}

#[test]
fn negative_indices_resolve_against_the_vertices_above() {
    let (mesh, _) = import("negative_indices.obj");
    assert_eq!(mesh.triangle_count(), 4);
    let used: Vec<u32> = mesh.triangles().iter().flatten().copied().collect();
    assert!(used[..6].iter().all(|&i| i < 4) && used[6..].iter().all(|&i| i >= 4));
    for t in 0..4 {
        assert_eq!(mesh.triangle_normal(t), DVec3::Y);
    }
}

#[test]
fn concave_ngons_keep_their_area_and_winding() {
    let (mesh, report) = import("concave_ngons.obj");
    assert_eq!(report.ngons_triangulated, 3);
    let names: Vec<&str> = mesh.objects().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["arch_wall", "l_floor", "star"]);
    let expected_normal = [DVec3::Z, DVec3::Y, DVec3::Z];
    for (o, normal) in mesh.objects().iter().zip(expected_normal) {
        let range = o.first_triangle..o.first_triangle + o.triangle_count;
        for t in range.clone() {
            assert!(
                mesh.triangle_normal(t).dot(normal) > 0.999,
                "{} {t}",
                o.name
            );
        }
        let area: f64 = range
            .map(|t| {
                let [a, b, c] = mesh.triangle_f64(t);
                (b - a).cross(c - a).length() / 2.0
            })
            .sum();
        let expected = match o.name.as_str() {
            // 4 x 3 wall minus a 2 x 1 doorway and the polygonal arch above it.
            "arch_wall" => 12.0 - 2.0 - 71.0 / 2.0 * (std::f64::consts::PI / 71.0).sin(),
            "l_floor" => 3.0,
            // Ten triangles (centre, tip, inner corner).
            _ => 10.0 * 0.5 * 0.38 * (std::f64::consts::PI / 5.0).sin(),
        };
        assert!(
            (area - expected).abs() < 1e-5,
            "{}: {area} vs {expected}",
            o.name
        );
    }
    assert_eq!(mesh.objects()[0].triangle_count, 76);
}

#[test]
fn groups_become_contiguous_named_objects() {
    let (mesh, report) = import("groups.obj");
    let objects: Vec<(&str, u32)> = mesh
        .objects()
        .iter()
        .map(|o| (o.name.as_str(), o.triangle_count))
        .collect();
    assert_eq!(
        objects,
        [
            ("default", 2),
            ("room/walls", 4),
            ("room/floor", 2),
            ("room", 2),
            ("crate", 2)
        ]
    );
    assert_eq!(mesh.objects()[1].aabb.min, Vec3::new(0.0, 0.0, 0.0));
    assert_eq!(mesh.objects()[2].aabb.min, Vec3::new(0.0, 0.0, 1.0));
    assert_eq!(mesh.object_of(5), 1);
    assert_eq!(
        (
            report.lines_ignored,
            report.points_ignored,
            report.material_statements_ignored
        ),
        (1, 1, 1)
    );
}

#[test]
fn z_up_inches_become_y_up_metres() {
    let options = ImportOptions {
        up: UpAxis::Z,
        scale: 0.0254,
        ..ImportOptions::default()
    };
    let (mesh, _) = import_with("z_up_inches.obj", options);
    let b = mesh.bounds();
    assert!(
        (b.min - Vec3::new(0.0, 0.0, -0.508)).length() < 1e-6,
        "{b:?}"
    );
    assert!(
        (b.max - Vec3::new(0.254, 0.0, 0.0)).length() < 1e-6,
        "{b:?}"
    );
    for t in 0..2 {
        assert!(mesh.triangle_normal(t).dot(DVec3::Y) > 0.999);
    }
}

#[test]
fn recoverable_problems_are_warnings_with_lines() {
    let (mesh, report) = import("warnings.obj");
    assert_eq!(mesh.triangle_count(), 3);
    assert_eq!(report.degenerate_triangles_dropped, 1);
    assert_eq!(report.duplicate_triangles_dropped, 1);
    let lines: Vec<Option<usize>> = report.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [Some(8), Some(9), Some(11)], "{:?}", report.warnings);
    assert!(report.warnings[2].message.contains("`t`"));
}

#[test]
fn every_error_names_the_file_and_line() {
    let cases = [
        ("err_zero_index.obj:5: ", "vertex index 0 is invalid"),
        (
            "err_relative_index.obj:5: ",
            "relative vertex index -4 reaches before the first `v`",
        ),
        (
            "err_out_of_range.obj:5: ",
            "vertex index 9 is out of range (the file has 3 vertices)",
        ),
        (
            "err_texture_index.obj:6: ",
            "relative texture index -2 reaches before the first `vt`",
        ),
        ("err_nan.obj:3: ", "non-finite coordinate `nan`"),
        ("err_inf.obj:2: ", "non-finite coordinate `inf`"),
        (
            "err_overflow.obj:3: ",
            "coordinate 1e39 times unit scale 1 overflows: it does not fit",
        ),
        ("err_bad_number.obj:4: ", "bad number `1,5` in `v`"),
        ("err_malformed_corner.obj:5: ", "malformed face corner `3/`"),
        (
            "err_short_vertex.obj:3: ",
            "`v` needs 3 coordinates, found 2",
        ),
        (
            "err_truncated.obj:5: ",
            "face with 2 corners (a face needs at least 3) (the file ends in the middle of this line: truncated?)",
        ),
        ("err_binary.obj:3: ", "binary data (byte 0x00)"),
        ("err_empty.obj: ", "empty file"),
        ("err_no_faces.obj: ", "no faces: nothing to collide with"),
        (
            "err_truncated_gzip.obj.gz: ",
            "corrupt or truncated gzip data",
        ),
    ];
    for (location, what) in cases {
        let name = location.split(':').next().unwrap();
        let message = error(name);
        let expected = format!("{}{location}{what}", fixture("").display());
        assert!(
            message.starts_with(&expected),
            "\n got: {message}\nwant: {expected}..."
        );
    }
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let message = error("does_not_exist.obj");
    assert!(message.contains("does_not_exist.obj: "), "{message}");
}

#[test]
fn progress_stays_in_the_unit_interval() {
    let seen = std::sync::Mutex::new(Vec::new());
    import_obj_file(
        &fixture("concave_ngons.obj"),
        &ImportOptions::default(),
        &|f| seen.lock().unwrap().push(f),
    )
    .unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|f| (0.0..1.0).contains(f)), "{seen:?}");
}

mod never_panics {
    use collidoscope::level::ImportOptions;
    use collidoscope::level::import::import_obj_bytes;
    use proptest::prelude::*;
    use std::path::Path;

    /// Imports `bytes`; whatever happens, no panic, and a mesh that comes
    /// back is well formed.
    fn check(bytes: &[u8]) {
        let options = ImportOptions::default();
        match import_obj_bytes(bytes, Path::new("fuzz.obj"), &options) {
            Ok((mesh, report)) => {
                assert_eq!(mesh.triangle_count(), report.triangles);
                let n = mesh.positions().len() as u32;
                assert!(mesh.triangles().iter().flatten().all(|&i| i < n));
                assert!(mesh.positions().iter().all(|p| p.is_finite()));
            }
            Err(e) => assert!(e.to_string().starts_with("fuzz.obj")),
        }
    }

    /// Statements and tokens that make up OBJ files, good and bad.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("v 0 0 0\n".to_string()),
            Just("v 1 0 0\n".to_string()),
            Just("v 0 1 0\n".to_string()),
            Just("v 1e38 -1e38 0.5\n".to_string()),
            Just("vt 0 0\n".to_string()),
            Just("vn 0 0 1\n".to_string()),
            Just("g a\n".to_string()),
            Just("o b\n".to_string()),
            Just("g\n".to_string()),
            Just("\r\n".to_string()),
            Just("# comment\n".to_string()),
            Just("f ".to_string()),
            Just("\n".to_string()),
            Just("/".to_string()),
            Just("//".to_string()),
            Just(" ".to_string()),
            (-6i64..8).prop_map(|i| i.to_string()),
            Just("4294967296".to_string()),
            Just("nan".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn on_random_obj_like_text(pieces in prop::collection::vec(piece(), 0..60)) {
            check(pieces.concat().as_bytes());
        }

        #[test]
        fn on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            check(&bytes);
        }

        #[test]
        fn on_a_valid_file_with_one_byte_changed(at in 0usize..400, byte in any::<u8>()) {
            let mut bytes = std::fs::read(super::fixture("groups.obj")).unwrap();
            let at = at % bytes.len();
            bytes[at] = byte;
            check(&bytes);
        }
    }
}

/// Every face of every fixture that imports is accounted for in the report:
/// `corners − 2 · faces` = kept + collinear corners + zero-area + duplicates.
#[test]
fn report_counts_add_up_on_every_fixture() {
    let dir = fixture("");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".obj") || n.ends_with(".obj.gz"))
        .collect();
    names.sort();
    let mut checked = 0;
    for name in &names {
        let Ok((_, r)) = import_obj_file(&fixture(name), &ImportOptions::default(), &|_| {}) else {
            continue;
        };
        let accounted = r.triangles
            + r.collinear_corners_removed
            + r.degenerate_triangles_dropped
            + r.duplicate_triangles_dropped;
        assert_eq!(r.corners - 2 * r.faces, accounted, "{name}: {r:?}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked} fixtures checked");
}
