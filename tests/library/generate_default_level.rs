//! The default level does what it is designed to show, with the default
//! probe (radii 0.4, 0.9, 0.4 m) and the solver's default (robust) mode:
//! low stairs are climbed by rolling and high ones are not, the probe fits
//! through the wide and tall doors only, and the committed asset (and any
//! generated level written with `write_obj`) imports cleanly.

use collidoscope::analysis::generate::{DEFAULT_LEVEL_OBJ, default_level};
use collidoscope::collide::{SlideSettings, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level, import::import_obj_bytes};
use glam::DVec3;
use std::path::Path;

/// Walks the probe from `start` in `steps` moves of `step` each (world
/// space) and returns where it ends.
fn walk(level: &Level, start: DVec3, step: DVec3, steps: usize) -> DVec3 {
    let settings = SlideSettings::default();
    let mut pos = start;
    for _ in 0..steps {
        let r =
            slide(level.world(), &settings, pos, step, TraceDetail::Summary).expect("valid move");
        assert!(r.final_position.is_finite());
        pos = r.final_position;
    }
    pos
}

fn level() -> Level {
    Level::from_mesh("default", default_level())
}

#[test]
fn low_stairs_are_climbed_and_high_ones_are_not() {
    let level = level();
    for o in level
        .mesh()
        .objects()
        .iter()
        .filter(|o| o.name.starts_with("stairs_riser_"))
    {
        let riser: f64 = o.name["stairs_riser_".len()..].parse().unwrap();
        let x = f64::from(o.aabb.center().x);
        // From 1 m before the first riser to over the landing (z 1.8-3.3),
        // 0.2 m per move, slightly down.
        let end = walk(
            &level,
            DVec3::new(x, 0.95, -1.0),
            DVec3::new(0.0, -0.02, 0.2),
            17,
        );
        let top = 3.0 * riser;
        if riser < 0.9 {
            assert!(
                end.y > top + 0.8,
                "{}: ended at {end} (should be on the landing)",
                o.name
            );
        } else {
            assert!(
                end.z < 0.0 && end.y < 1.0,
                "{}: ended at {end} (should be stopped)",
                o.name
            );
        }
    }
}

#[test]
fn the_probe_fits_through_wide_and_tall_doors_only() {
    let level = level();
    for o in level
        .mesh()
        .objects()
        .iter()
        .filter(|o| o.name.starts_with("door_"))
    {
        // door_w<width>_h<height>
        let (w, h) = o.name["door_w".len()..].split_once("_h").unwrap();
        let (w, h): (f64, f64) = (w.parse().unwrap(), h.parse().unwrap());
        let x = f64::from(o.aabb.center().x);
        let end = walk(
            &level,
            DVec3::new(x, 0.95, 6.5),
            DVec3::new(0.0, -0.02, 0.25),
            16,
        );
        let fits = w > 0.8 && h > 1.8;
        assert_eq!(end.z > 9.0, fits, "{}: ended at {end}", o.name);
    }
}

#[test]
fn committed_default_level_imports_without_warnings() {
    let (mesh, report) = import_obj_bytes(
        DEFAULT_LEVEL_OBJ.as_bytes(),
        Path::new("assets/default_level.obj"),
        &ImportOptions::default(),
    )
    .expect("imports");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(report.degenerate_triangles_dropped, 0);
    assert_eq!(report.duplicate_triangles_dropped, 0);
    let generated = default_level();
    // The same triangles, corner for corner (vertex numbering may differ).
    assert_eq!(mesh.triangle_count(), generated.triangle_count());
    for t in 0..mesh.triangle_count() as u32 {
        assert_eq!(mesh.triangle(t), generated.triangle(t), "triangle {t}");
    }
    let names = |m: &collidoscope::mesh::TriMesh| {
        m.objects()
            .iter()
            .map(|o| o.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&mesh), names(&generated));
}

#[test]
fn a_written_city_imports_back_without_warnings() {
    let generated = collidoscope::analysis::generate::city(3_000).mesh;
    let mut text = Vec::new();
    collidoscope::analysis::generate::write_obj(&generated, &mut text).unwrap();
    let (mesh, report) =
        import_obj_bytes(&text, Path::new("city.obj"), &ImportOptions::default()).expect("imports");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(mesh.triangle_count(), generated.triangle_count());
    assert_eq!(mesh.objects().len(), generated.objects().len());
    for t in (0..mesh.triangle_count() as u32).step_by(7) {
        assert_eq!(mesh.triangle(t), generated.triangle(t), "triangle {t}");
    }
}
