use super::*;
use crate::analysis::generate::default_level;

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("collidoscope-repro-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Bundles of many moves across the built-in level (stairs, ramps, walls,
/// the funnel) replay to the same end reason, final position (1e-9 m) and
/// iteration count as on the whole level.
#[test]
fn bundles_of_the_built_in_level_reproduce_the_whole_levels_trace() {
    let level = Level::from_mesh("default", default_level());
    let settings = SlideSettings {
        gravity: [0.0, -0.3, 0.0],
        ..SlideSettings::default()
    };
    let dir = scratch("many");
    let (mut blocked, mut smaller) = (0, 0);
    for (i, (x, z)) in [
        (0.0, 0.0),
        (8.0, 6.0),
        (14.0, 14.0),
        (22.0, 20.0),
        (26.0, 28.0),
    ]
    .into_iter()
    .enumerate()
    {
        for k in 0..8 {
            let angle = k as f64 * std::f64::consts::FRAC_PI_4 + 0.1;
            let from = DVec3::new(x, 0.95, z);
            let velocity = DVec3::new(angle.cos(), 0.0, angle.sin()) * 6.0;
            let req = BundleRequest {
                level: &level,
                colliding: None,
                settings: &settings,
                from,
                velocity,
                margin_m: DEFAULT_MARGIN_M,
                force: true,
                inputs: &[],
            };
            let (repro, kept) = write(&dir, &req).unwrap();
            let bundle = load(&dir).unwrap();
            assert_eq!(bundle.repro, repro);
            assert_eq!(bundle.settings, settings);
            let (got, diff) = replay(&bundle).unwrap();
            assert!(diff.is_empty(), "move {i}/{k}: {diff:?}");
            assert_eq!(got.end_reason, repro.expected.end_reason);
            assert!(got.final_position.distance(repro.expected.final_position) <= 1e-9);
            assert_eq!(got.iterations, repro.expected.iterations);
            blocked += usize::from(repro.expected.iterations > 2);
            smaller += usize::from(kept < level.mesh.triangle_count());
        }
    }
    // The moves did meet geometry, and the bundles are cut-outs.
    assert!(blocked >= 10, "{blocked} moves hit something");
    assert!(smaller >= 30, "{smaller} bundles smaller than the level");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cut_out_keeps_only_triangles_within_reach_and_drops_non_colliding_objects() {
    let mut b = crate::mesh::MeshBuilder::new();
    b.object("near")
        .cuboid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 1.0));
    b.object("far")
        .cuboid(Vec3::new(50.0, 0.0, 0.0), Vec3::new(51.0, 1.0, 1.0));
    b.object("ghost")
        .cuboid(Vec3::new(0.0, 2.0, 0.0), Vec3::new(1.0, 3.0, 1.0));
    let mesh = b.build();
    let reach = reach_box(
        DVec3::new(-1.0, 0.5, 0.5),
        DVec3::X,
        &SlideSettings::default(),
        1.0,
    );
    let cut = cut_out(&mesh, Some(&[true, true, false]), &reach);
    let names: Vec<&str> = cut.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["near"]);
    assert_eq!(
        cut.objects[0].triangle_count,
        mesh.objects[0].triangle_count
    );
    // Only the near box's corners are copied, bit for bit.
    assert!(
        cut.positions
            .iter()
            .all(|p| mesh.positions[..24].contains(p))
    );
    assert!(cut.positions.iter().all(|p| p.x <= 1.0 && p.y <= 1.0));
}

#[test]
fn a_non_empty_folder_is_refused_without_force_and_a_bad_move_file_is_named() {
    let level = Level::from_mesh("default", default_level());
    let dir = scratch("refuse");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "x").unwrap();
    let req = BundleRequest {
        level: &level,
        colliding: None,
        settings: &SlideSettings::default(),
        from: DVec3::new(0.0, 1.0, 0.0),
        velocity: DVec3::X,
        margin_m: 1.0,
        force: false,
        inputs: &[],
    };
    let e = write(&dir, &req).unwrap_err();
    assert!(matches!(e, ReproError::NotEmpty(_)), "{e}");
    std::fs::write(dir.join(MOVE_FILE), "{\"from\": [0, 0]}").unwrap();
    let e = load(&dir).unwrap_err().to_string();
    assert!(e.contains("move.json: not a repro move"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
