//! End-to-end import of small in-memory files: triangle counts, objects,
//! dropped triangles, errors with file and line.

use super::*;
use crate::math::Vec3;

mod hostile;
mod normals;
mod options;

fn import(text: &str) -> Result<(TriMesh, ImportReport), String> {
    import_obj_bytes(
        text.as_bytes(),
        Path::new("mem.obj"),
        &ImportOptions::default(),
    )
    .map_err(|e| e.to_string())
}

const SQUARE: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n";

#[test]
fn quad_becomes_two_triangles_with_its_winding() {
    let (mesh, report) = import(&format!("{SQUARE}f 1 2 3 4\n")).unwrap();
    assert_eq!(mesh.triangle_count(), 2);
    assert_eq!(report.ngons_triangulated, 1);
    assert_eq!((report.faces, report.triangles, report.vertices), (1, 2, 4));
    for t in 0..2 {
        assert_eq!(mesh.triangle_normal(t), crate::math::DVec3::Z);
    }
    assert_eq!(mesh.objects.len(), 1);
    assert_eq!(mesh.objects[0].name, "default");
    assert_eq!(mesh.objects[0].aabb.max, Vec3::new(1.0, 1.0, 0.0));
}

#[test]
fn degenerate_and_duplicate_triangles_are_dropped_with_lines() {
    let text = format!(
        "{SQUARE}v 2 0 0\nf 1 2 3\nf 2 3 1\nf 1 2 5\nf 1 1 3\nf 3 2 1\nv 0 0 -0\nf 6 2 3\n"
    );
    let (mesh, report) = import(&text).unwrap();
    // Kept: line 6 and its reverse on line 10; line 7 rotates line 6, line 12
    // repeats it through a vertex at the same place; 8 and 9 have no area.
    assert_eq!(mesh.triangle_count(), 2);
    assert_eq!(report.degenerate_triangles_dropped, 2);
    assert_eq!(report.duplicate_triangles_dropped, 2);
    let lines: Vec<Option<usize>> = report.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [Some(7), Some(8), Some(9), Some(12)]);
    assert_eq!(
        report.warnings[0].message,
        "duplicate of a triangle from line 6; dropped"
    );
}

#[test]
fn reopened_groups_become_one_contiguous_object_each() {
    let text =
        format!("{SQUARE}v 0 0 1\ng a\nf 1 2 3\ng b\nf 1 2 5\ng a\nf 1 3 4\no solo\nf 2 3 5\n");
    let (mesh, _) = import(&text).unwrap();
    let objects: Vec<(&str, u32, u32)> = mesh
        .objects
        .iter()
        .map(|o| (o.name.as_str(), o.first_triangle, o.triangle_count))
        .collect();
    assert_eq!(objects, [("a", 0, 2), ("b", 2, 1), ("solo", 3, 1)]);
    assert_eq!(mesh.triangles[1], [0, 2, 3]);
    assert_eq!(mesh.objects[1].aabb.max, Vec3::new(1.0, 0.0, 1.0));
}

#[test]
fn objects_whose_triangles_all_drop_are_omitted() {
    let (mesh, _) = import(&format!("{SQUARE}g flat\nf 1 2 2\ng real\nf 1 2 3\n")).unwrap();
    assert_eq!(mesh.objects.len(), 1);
    assert_eq!(mesh.objects[0].name, "real");
}

#[test]
fn forward_references_work_and_out_of_range_names_the_face() {
    let (mesh, _) = import("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n").unwrap();
    assert_eq!(mesh.triangle_count(), 1);
    let err = import(&format!("{SQUARE}\nf 1 2 5\n")).unwrap_err();
    assert_eq!(
        err,
        "mem.obj:6: vertex index 5 is out of range (the file has 4 vertices)"
    );
}

#[test]
fn files_without_usable_faces_are_errors() {
    assert_eq!(import("").unwrap_err(), "mem.obj: empty file");
    assert_eq!(
        import(&format!("{SQUARE}l 1 2\np 3\n")).unwrap_err(),
        "mem.obj: no faces: nothing to collide with (4 vertices; \
         ignored 1 `l` line elements and 1 `p` point elements)"
    );
    assert_eq!(
        import(&format!("{SQUARE}f 1 2 2\n")).unwrap_err(),
        "mem.obj: no usable triangles: all 1 faces have zero area or repeat another"
    );
    assert_eq!(
        import("v 0 0 0\n\x00\x01\x02").unwrap_err(),
        "mem.obj:2: binary data (byte 0x00): this is not an OBJ text file"
    );
}

#[test]
fn bad_scale_is_rejected_before_reading() {
    for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let options = ImportOptions {
            up: UpAxis::Y,
            scale,
            ..ImportOptions::default()
        };
        let err = import_obj_bytes(b"v 0 0 0", Path::new("s.obj"), &options).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("s.obj: unit scale must be finite"),
            "{err}"
        );
    }
}

#[test]
fn gzip_bytes_are_detected_and_inflated() {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(format!("{SQUARE}f 1 2 3 4\n").as_bytes())
        .unwrap();
    let gz = enc.finish().unwrap();
    let (mesh, _) = import_obj_bytes(&gz, Path::new("x.obj"), &ImportOptions::default()).unwrap();
    assert_eq!(mesh.triangle_count(), 2);
    let err = import_obj_bytes(
        &gz[..gz.len() / 2],
        Path::new("x.obj"),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("x.obj: corrupt or truncated gzip"),
        "{err}"
    );
}

#[test]
fn too_many_warnings_are_counted_not_listed() {
    let mut text = String::from(SQUARE);
    for _ in 0..120 {
        text.push_str("f 1 2 3\n");
    }
    let (_, report) = import(&text).unwrap();
    assert_eq!(report.duplicate_triangles_dropped, 119);
    assert_eq!(report.warnings.len(), report::LISTED_PER_KIND + 1);
    assert_eq!(
        report.warnings.last().unwrap().message,
        "69 more duplicate triangle warnings not listed (119 in all)"
    );
}

#[test]
fn a_utf8_byte_order_mark_is_skipped_and_utf16_is_named() {
    let text = format!("\u{feff}{SQUARE}f 1 2 3\n");
    let (_, report) = import(&text).unwrap();
    assert_eq!(report.vertices, 4);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(b"v\x000\x00".iter().copied())
        .collect();
    let err = import_obj_bytes(&utf16, Path::new("w.obj"), &ImportOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "w.obj: UTF-16 text: save the file as UTF-8 or ASCII"
    );
}
