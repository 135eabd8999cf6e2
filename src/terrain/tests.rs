//! Height-field lookup, the two height formulas, the TIN query through the
//! BVH, PNG import limits, and a character walking on terrain.

use super::*;
use crate::character::{WalkSpec, WalkTrace, walk};
use crate::collide::SlideSettings;
use crate::level::{ImportError, ImportOptions, Level};
use proptest::prelude::*;
use std::path::PathBuf;

/// Rolling hills: `columns x rows` samples of a smooth bump pattern.
fn hills(columns: u32, rows: u32, spacing: f64) -> HeightField {
    let heights = (0..rows)
        .flat_map(|j| (0..columns).map(move |i| (i, j)))
        .map(|(i, j)| (2.0 * (i as f32 * 0.7).sin() * (j as f32 * 0.4).cos()) + 0.1 * i as f32)
        .collect();
    HeightField::new(columns, rows, spacing, heights).unwrap()
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "collidoscope-terrain-{}-{name}",
        std::process::id()
    ))
}

#[test]
fn locate_follows_the_cell_diagonal() {
    let f = hills(4, 3, 2.0);
    // Cell (1, 0) spans x in [2, 4], z in [0, 2].
    let below = f.locate(3.5, 0.5).unwrap();
    assert_eq!(below.cell, [1, 0]);
    assert!(!below.upper_left, "Q_z < Q_x: lower right");
    assert_eq!(below.triangle, 2);
    let above = f.locate(2.5, 1.5).unwrap();
    assert!(above.upper_left, "Q_z > Q_x: upper left");
    assert_eq!(above.triangle, 3);
    // On the diagonal: the lower-right triangle, as in the notes.
    assert!(!f.locate(3.0, 1.0).unwrap().upper_left);
    // The far corner belongs to the last cell; outside is nothing.
    assert_eq!(f.locate(6.0, 4.0).unwrap().cell, [2, 1]);
    assert!(f.locate(-0.1, 1.0).is_none());
    assert!(f.locate(1.0, 4.01).is_none());
    assert!(f.locate(f64::NAN, 1.0).is_none());
    // The triangle is the mesh's triangle.
    let mesh = f.to_mesh("hills");
    let hit = f.locate(2.5, 1.5).unwrap();
    let from_mesh = mesh.triangle_f64(hit.triangle);
    let from_field = f.triangle(&hit);
    for k in 0..3 {
        assert!((from_mesh[k] - from_field[k]).length() < 1e-6);
    }
}

#[test]
fn heights_at_samples_are_the_samples() {
    let f = hills(5, 5, 1.5);
    for j in 0..5 {
        for i in 0..5 {
            let s = f.sample(i, j);
            let h = f.height_by_plane(s.x, s.z).unwrap();
            assert!((h - s.y).abs() < 1e-9, "{i} {j}: {h} vs {}", s.y);
        }
    }
}

#[test]
fn mesh_faces_up() {
    let mesh = hills(6, 4, 1.0).to_mesh("hills");
    assert_eq!(mesh.triangle_count(), 2 * 5 * 3);
    for t in 0..mesh.triangle_count() as u32 {
        assert!(mesh.triangle_normal(t).y > 0.0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn plane_and_barycentric_heights_agree_and_match_the_tin(
        u in 0.0f64..=1.0, v in 0.0f64..=1.0, spacing in 0.1f64..50.0,
    ) {
        let f = hills(9, 7, spacing);
        let (x, z) = (u * 8.0 * spacing, v * 6.0 * spacing);
        let plane = f.height_by_plane(x, z).unwrap();
        let bary = f.height_by_barycentric(x, z).unwrap();
        prop_assert!((plane - bary).abs() <= 1e-9 * (1.0 + plane.abs()), "{} vs {}", plane, bary);
        // Any mesh answers the same through the BVH (f32 corners: a little slack).
        let level = Level::from_mesh("hills", f.to_mesh("hills"));
        let tin = tin_height(level.mesh(), level.bvh(), x, z).unwrap();
        prop_assert!((tin.height - bary).abs() <= 1e-4 * (1.0 + bary.abs()), "{} vs {}", tin.height, bary);
        prop_assert!(tin.candidates >= 1);
    }
}

#[test]
fn tin_takes_the_highest_surface_and_misses_outside() {
    use crate::math::Vec3;
    // Two stacked squares (floor at 0, shelf at 3) over x, z in [0, 2].
    let square =
        |y: f32| [(0.0, 0.0), (0.0, 2.0), (2.0, 2.0), (2.0, 0.0)].map(|(x, z)| Vec3::new(x, y, z));
    let positions: Vec<Vec3> = square(0.0).into_iter().chain(square(3.0)).collect();
    let triangles = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
    let level = Level::from_mesh(
        "stack",
        crate::mesh::TriMesh::single_object("s", positions, triangles),
    );
    let hit = tin_height(level.mesh(), level.bvh(), 1.0, 0.5).unwrap();
    assert_eq!(hit.height, 3.0);
    assert!(hit.triangle >= 2);
    assert!(tin_height(level.mesh(), level.bvh(), 5.0, 0.5).is_none());
    assert!(tin_height(level.mesh(), level.bvh(), f64::INFINITY, 0.5).is_none());
}

fn write_png(name: &str, img: image::DynamicImage) -> PathBuf {
    let path = temp_path(name);
    img.save_with_format(&path, image::ImageFormat::Png)
        .unwrap();
    path
}

#[test]
fn png_heightmap_loads_as_a_level_with_spacing_and_scale() {
    let img = image::GrayImage::from_fn(8, 5, |x, y| image::Luma([(x * 30 + y * 5) as u8]));
    let path = write_png("ramp.png", image::DynamicImage::ImageLuma8(img));
    let options = ImportOptions {
        heightmap_spacing: 2.0,
        heightmap_height_scale: 25.5,
        ..ImportOptions::default()
    };
    let level = Level::load(&path, &options).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(level.mesh().triangle_count(), 2 * 7 * 4);
    assert_eq!(level.report.triangles, 56);
    let r = &level.report;
    assert_eq!(
        r.corners - 2 * r.faces,
        r.triangles,
        "the report's corner identity"
    );
    let field = level
        .height_field()
        .expect("a heightmap level keeps its field");
    assert_eq!(field.size(), [8, 5]);
    // Pixel (3, 2) = 100 of 255: 10 m, at x = 6, z = 4.
    let s = field.sample(3, 2);
    assert_eq!((s.x, s.z), (6.0, 4.0));
    assert!((s.y - 10.0).abs() < 1e-4, "{}", s.y);
    let b = level.mesh().bounds();
    assert_eq!((b.max.x, b.max.z), (14.0, 8.0));
    assert!(level.report.warnings.is_empty());
}

#[test]
fn bad_heightmaps_fail_with_clear_errors() {
    let message = |path: &std::path::Path, options: &ImportOptions| match Level::load(path, options)
    {
        Err(ImportError::Invalid { message, .. }) => message,
        other => panic!("expected an invalid-file error, got {other:?}"),
    };
    let corrupt = temp_path("corrupt.png");
    std::fs::write(&corrupt, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR garbage").unwrap();
    assert!(message(&corrupt, &ImportOptions::default()).contains("corrupt PNG"));
    std::fs::write(&corrupt, b"v 0 0 0\n").unwrap();
    assert!(message(&corrupt, &ImportOptions::default()).contains("not an image"));
    std::fs::remove_file(&corrupt).ok();

    // A header claiming 100000 x 100000 pixels: refused before decoding.
    let img = image::GrayImage::new(2, 2);
    let huge = write_png("huge.png", image::DynamicImage::ImageLuma8(img));
    let mut bytes = std::fs::read(&huge).unwrap();
    // IHDR width and height sit at bytes 16..24 (the CRC no longer
    // matches; the size check comes first).
    bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bytes[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    std::fs::write(&huge, &bytes).unwrap();
    let m = message(&huge, &ImportOptions::default());
    assert!(m.contains("too large") || m.contains("corrupt PNG"), "{m}");
    std::fs::remove_file(&huge).ok();

    let line = write_png(
        "line.png",
        image::DynamicImage::ImageLuma8(image::GrayImage::new(9, 1)),
    );
    assert!(message(&line, &ImportOptions::default()).contains("no cell"));
    let bad_spacing = ImportOptions {
        heightmap_spacing: 0.0,
        ..ImportOptions::default()
    };
    assert!(message(&line, &bad_spacing).contains("spacing"));
    let bad_scale = ImportOptions {
        heightmap_height_scale: f64::NAN,
        ..ImportOptions::default()
    };
    assert!(message(&line, &bad_scale).contains("height scale"));
    std::fs::remove_file(&line).ok();

    let colour = image::RgbImage::from_pixel(3, 3, image::Rgb([200, 10, 10]));
    let path = write_png("colour.png", image::DynamicImage::ImageRgb8(colour));
    let level = Level::load(&path, &ImportOptions::default()).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(level.report.warnings.len(), 1);
    assert!(matches!(
        Level::load(&temp_path("missing.png"), &ImportOptions::default()),
        Err(ImportError::Io { .. })
    ));
}

#[test]
fn a_character_walks_over_the_hills_and_stays_on_them() {
    let f = hills(24, 12, 2.0);
    let level = Level::from_mesh("hills", f.to_mesh("hills"));
    let s = SlideSettings::default();
    let ry = s.radii[1];
    let (x0, z0) = (4.0, 11.0);
    let ground = f.height_by_plane(x0, z0).unwrap();
    let spec = WalkSpec {
        from: glam::DVec3::new(x0, ground + ry + 0.2, z0),
        direction: glam::DVec3::X,
        seconds: 4.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    assert!(w.summary.progress_m > 3.0, "{:?}", w.summary);
    for frame in &w.frames {
        let p = frame.after.position;
        let Some(h) = f.height_by_barycentric(p.x, p.z) else {
            continue;
        };
        // The ellipsoid's bottom never sinks into the terrain.
        assert!(p.y - ry > h - 0.05, "centre {p} over ground {h}");
    }
}
