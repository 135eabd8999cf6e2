//! The report's counts add up, drops do not depend on the unit scale,
//! objects can follow materials, and gzip stops at its unpacked-size limit.

use super::super::*;
use std::fmt::Write as _;
use std::io::Write as _;

fn import_with(text: &[u8], options: ImportOptions) -> Result<(TriMesh, ImportReport), String> {
    import_obj_bytes(text, Path::new("o.obj"), &options).map_err(|e| e.to_string())
}

/// Every face of k corners is k − 2 triangles' worth, each kept or counted.
pub(super) fn assert_counts_add_up(r: &ImportReport) {
    assert_eq!(
        r.corners - 2 * r.faces,
        r.triangles
            + r.collinear_corners_removed
            + r.degenerate_triangles_dropped
            + r.duplicate_triangles_dropped,
        "{r:?}"
    );
}

#[test]
fn collinear_corners_are_counted_so_every_face_is_accounted_for() {
    // A square with a corner halfway along each side (clipped ear by ear,
    // no sliver needs removing), a face with a repeated and a collinear
    // corner, a flat quad, a duplicate, and a quad whose first corner is
    // in line with its neighbours (removed).
    let text = "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 2 1 0\nv 2 2 0\nv 1 2 0\nv 0 2 0\nv 0 1 0\n\
                f 1 2 3 4 5 6 7 8\nf 1 2 2 3 4\nf 1 2 3 2\nf 2 4 6\nf 2 4 6\nf 2 3 5 1\n";
    let (_, r) = import_with(text.as_bytes(), ImportOptions::default()).unwrap();
    assert_eq!((r.faces, r.corners), (6, 8 + 5 + 4 + 3 + 3 + 4));
    assert_eq!(r.collinear_corners_removed, 1 + 1);
    assert_eq!(r.degenerate_triangles_dropped, 2);
    assert_eq!(r.duplicate_triangles_dropped, 1);
    assert_eq!(r.triangles, 6 + 2 + 1 + 1);
    assert_counts_add_up(&r);
}

#[test]
fn zero_area_drops_do_not_depend_on_the_unit_scale() {
    // Thin triangles on a diagonal far from the origin, around the
    // zero-area threshold: f32 rounding after scaling once flipped some.
    let mut text = String::new();
    for i in 0..400 {
        let x = 1000.0 + 10.0 * f64::from(i);
        let h = 2e-3 * (1.0 + f64::from(i - 200) * 2e-3);
        let _ = write!(
            text,
            "v {x} {x} 0\nv {} {} 0\nv {} {} 0\nf -3 -2 -1\n",
            x + 1000.0,
            x + 1000.0,
            x + 500.0,
            x + 500.0 + h
        );
    }
    let drops = |scale| {
        let options = ImportOptions {
            scale,
            ..ImportOptions::default()
        };
        let (_, r) = import_with(text.as_bytes(), options).unwrap();
        assert_counts_add_up(&r);
        r.degenerate_triangles_dropped
    };
    let at_one = drops(1.0);
    assert!(at_one > 0 && at_one < 400, "{at_one}");
    for scale in [0.0254, 0.003, 0.1, 0.3, 3.7, 39.37, 1000.0] {
        assert_eq!(drops(scale), at_one, "scale {scale}");
    }
}

const MATERIALS: &str = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nv 0 1 0\nv 1 1 0\n\
                         mtllib level.mtl\no level\nusemtl stone\nf 1 2 3\nf 2 4 3\n\
                         usemtl water\nf 1 5 2\ng wall\nf 5 6 2\nusemtl stone\nf 1 3 5\n";

fn names(by: ObjectsBy) -> Vec<(String, u32)> {
    let options = ImportOptions {
        objects_by: by,
        ..ImportOptions::default()
    };
    let (mesh, _) = import_with(MATERIALS.as_bytes(), options).unwrap();
    mesh.objects
        .iter()
        .map(|o| (o.name.clone(), o.triangle_count))
        .collect()
}

#[test]
fn objects_follow_groups_materials_or_both() {
    let owned = |list: &[(&str, u32)]| -> Vec<(String, u32)> {
        list.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    };
    assert_eq!(
        names(ObjectsBy::Group),
        owned(&[("level", 3), ("level/wall", 2)])
    );
    assert_eq!(
        names(ObjectsBy::Material),
        owned(&[("stone", 3), ("water", 2)])
    );
    assert_eq!(
        names(ObjectsBy::GroupAndMaterial),
        owned(&[
            ("level:stone", 2),
            ("level:water", 1),
            ("level/wall:water", 1),
            ("level/wall:stone", 1)
        ])
    );
    let options = ImportOptions {
        objects_by: ObjectsBy::Material,
        ..ImportOptions::default()
    };
    let (_, r) = import_with(MATERIALS.as_bytes(), options).unwrap();
    assert_eq!(r.material_statements_ignored, 1, "only mtllib");
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text).unwrap();
    enc.finish().unwrap()
}

#[test]
fn gzip_stops_at_the_unpacked_size_limit() {
    // 64 MiB of spaces, then a triangle: 64 KiB compressed.
    let mut text = vec![b' '; 64 << 20];
    text.extend_from_slice(b"\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let gz = gzip(&text);
    assert!(gz.len() < 1 << 20, "{}", gz.len());
    let small = ImportOptions {
        max_unpacked_bytes: 1 << 20,
        ..ImportOptions::default()
    };
    let err = import_with(&gz, small).unwrap_err();
    assert_eq!(
        err,
        "o.obj: gzip data unpacks to more than 1 MiB, the limit for compressed levels \
         (max_unpacked_bytes): refused"
    );
    let exact = ImportOptions {
        max_unpacked_bytes: text.len() as u64,
        ..ImportOptions::default()
    };
    let (mesh, _) = import_with(&gz, exact).unwrap();
    assert_eq!(mesh.triangle_count(), 1);
}
