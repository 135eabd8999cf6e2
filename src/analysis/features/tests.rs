//! Feature finding on the built-in level and on small built levels, with
//! the intended answers written down.

use super::*;
use crate::analysis::generate::Solid;
use crate::analysis::generate::parts::{Door, floor, wall};
use crate::analysis::generate::solid::cuboid;
use crate::analysis::generate::{
    CEILINGS, DOORS, LevelBuilder, RAMP_SLOPES, STAIR_RISERS, default_level, write_obj,
};
use crate::level::Level;
use crate::level::{ImportOptions, UpAxis, import::import_obj_bytes};
use crate::mesh::TriMesh;
use glam::{DVec2, DVec3};
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn find(level: &Level) -> Features {
    let cancel = AtomicBool::new(false);
    find_features(level.world(), &FeatureOptions::default(), &|_| {}, &cancel)
        .expect("not cancelled")
}

fn of_kind(found: &Features, kind: FeatureKind) -> Vec<&Feature> {
    found.features.iter().filter(|f| f.kind == kind).collect()
}

fn horizontal_distance(a: DVec3, b: DVec3) -> f64 {
    (a - b).with_y(0.0).length()
}

fn default_found() -> (Level, Features) {
    let level = Level::from_mesh("default", default_level());
    let found = find(&level);
    (level, found)
}

/// A floor from (-3, -3) to (5, 5) with its top at y = 0, plus `parts`.
fn small_level(parts: &[(&str, Solid)]) -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::splat(-3.0), DVec2::splat(5.0), 0.0, 0.3, 1.0),
    );
    for (name, solid) in parts {
        b.add(*name, solid);
    }
    Level::from_mesh("small", b.build())
}

/// A 0.2 m step (a 2 x 2 m block), a door 0.8 x 2.0 m in a 3 m wall, and a
/// slab hanging 1.2 m over the floor.
fn step_door_slab() -> Vec<(&'static str, Solid)> {
    let door = Door {
        offset: 1.1,
        width: 0.8,
        height: 2.0,
    };
    vec![
        ("block", cuboid(DVec3::ZERO, DVec3::new(2.0, 0.2, 2.0))),
        (
            "wall",
            wall(DVec3::new(-3.0, 0.0, 3.5), 3.0, 3.0, 0.2, Some(door)),
        ),
        (
            "slab",
            cuboid(DVec3::new(2.5, 1.2, -2.5), DVec3::new(4.5, 2.0, -0.5)),
        ),
    ]
}

#[test]
fn default_level_every_staircase_riser_is_found_climbing_z() {
    let (_, found) = default_found();
    let steps = of_kind(&found, FeatureKind::Step);
    // Intended: staircase i spans x in [4i, 4i + 2]; riser k is at z = 0.6 k
    // on the floor of height k r; treads 0.6 m, the top one 0.6 + 1.5 m.
    for (i, &r) in STAIR_RISERS.iter().enumerate() {
        for k in 0..3 {
            let foot = DVec3::new(4.0 * i as f64 + 1.0, k as f64 * r, 0.6 * k as f64);
            let tread = if k < 2 { 0.6 } else { 2.1 };
            let hit = steps.iter().find(|f| {
                horizontal_distance(f.position, foot) < 0.15 && (f.position.y - foot.y).abs() < 0.01
            });
            let f = hit.unwrap_or_else(|| panic!("riser {r} #{k} at {foot} not found"));
            let got = f.riser_height_m.unwrap();
            assert!((got - r).abs() < 0.01, "riser {r} #{k}: measured {got}");
            assert!(f.direction.z > 0.99, "riser {r} #{k}: {}", f.direction);
            let depth = f.tread_depth_m.unwrap();
            assert!((depth - tread).abs() < 0.02, "tread {tread}: {depth}");
            assert!(
                (f.extent_m - 2.0).abs() <= 0.11,
                "riser length {}",
                f.extent_m
            );
        }
    }
}

#[test]
fn default_level_every_door_is_an_opening_measured_by_ray() {
    let (_, found) = default_found();
    let openings = of_kind(&found, FeatureKind::Opening);
    assert_eq!(openings.len(), DOORS.len(), "{openings:#?}");
    // Intended: door i is centred on x = 4i + 1.8 in the wall z in [8, 8.2].
    for (i, &(w, h)) in DOORS.iter().enumerate() {
        let middle = DVec3::new(4.0 * i as f64 + 1.8, 0.0, 8.1);
        let f = openings
            .iter()
            .find(|f| horizontal_distance(f.position, middle) < 0.1)
            .unwrap_or_else(|| panic!("door {w} x {h} not found"));
        let (gw, gh) = (f.width_m.unwrap(), f.height_m.unwrap());
        assert!((gw - w).abs() < 0.02, "door {w} x {h}: width {gw}");
        assert!((gh - h).abs() < 0.02, "door {w} x {h}: height {gh}");
        assert!(f.direction.z.abs() > 0.99, "{}", f.direction);
        assert!(f.position.y.abs() < 0.01);
    }
}

#[test]
fn default_level_every_ramp_slope_is_found_uphill_z() {
    let (_, found) = default_found();
    let slopes = of_kind(&found, FeatureKind::Slope);
    assert_eq!(slopes.len(), RAMP_SLOPES.len(), "{slopes:#?}");
    // Intended: ramp i spans x in [4i, 4i + 2], its foot at z = 12.
    for (i, &deg) in RAMP_SLOPES.iter().enumerate() {
        let foot = DVec3::new(4.0 * i as f64 + 1.0, 0.0, 12.0);
        let f = slopes
            .iter()
            .find(|f| horizontal_distance(f.position, foot) < 0.15)
            .unwrap_or_else(|| panic!("ramp {deg} not found"));
        let got = f.slope_deg.unwrap();
        assert!((got - deg).abs() < 1.0, "ramp {deg}: {got}");
        assert!(f.direction.z > 0.99, "{}", f.direction);
    }
}

#[test]
fn default_level_open_floor_gives_no_findings() {
    let (level, found) = default_found();
    // Intended: one ceiling under each low slab, with its clearance.
    let ceilings = of_kind(&found, FeatureKind::Ceiling);
    assert_eq!(ceilings.len(), CEILINGS.len(), "{ceilings:#?}");
    for &h in &CEILINGS {
        let f = ceilings
            .iter()
            .find(|f| (f.height_m.unwrap() - h).abs() < 0.01)
            .unwrap_or_else(|| panic!("ceiling {h} not found"));
        assert_eq!(
            f.object.as_deref(),
            Some(format!("ceiling_{h:.2}").as_str())
        );
    }
    for f in &found.features {
        let name = f.object.as_deref().unwrap_or("");
        let intended = match f.kind {
            FeatureKind::Step => name.starts_with("stairs_") || name.starts_with("ramp_"),
            FeatureKind::Opening => name.starts_with("door_"),
            FeatureKind::Slope => name.starts_with("ramp_"),
            FeatureKind::Ceiling => name.starts_with("ceiling_"),
        };
        assert!(intended, "{f:?}");
        let object = level.mesh.objects.iter().find(|o| o.name == name).unwrap();
        let near = object.aabb.expanded(0.3);
        // A ceiling's position is the floor under it: compare across only.
        let mut at = f.position.as_vec3();
        if f.kind == FeatureKind::Ceiling {
            at.y = near.center().y;
        }
        assert!(near.contains_point(at), "{f:?} off {name}");
    }
    assert!(found.walkable_cells > 100_000);
}

#[test]
fn small_level_step_door_and_low_slab_are_measured() {
    let found = find(&small_level(&step_door_slab()));
    let steps = of_kind(&found, FeatureKind::Step);
    // The block is climbed from all four sides.
    assert_eq!(steps.len(), 4, "{steps:#?}");
    let front = steps.iter().find(|f| f.direction.z > 0.99).unwrap();
    assert!((front.riser_height_m.unwrap() - 0.2).abs() < 0.01);
    assert!((front.tread_depth_m.unwrap() - 2.0).abs() < 0.02);
    assert!(horizontal_distance(front.position, DVec3::new(1.0, 0.0, 0.0)) < 0.1);
    let openings = of_kind(&found, FeatureKind::Opening);
    assert_eq!(openings.len(), 1, "{openings:#?}");
    assert!((openings[0].width_m.unwrap() - 0.8).abs() < 0.02);
    assert!((openings[0].height_m.unwrap() - 2.0).abs() < 0.02);
    let ceilings = of_kind(&found, FeatureKind::Ceiling);
    assert_eq!(ceilings.len(), 1, "{ceilings:#?}");
    let c = ceilings[0];
    assert!((c.height_m.unwrap() - 1.2).abs() < 0.01);
    assert!(c.position.x > 2.5 && c.position.x < 4.5 && c.position.z < -0.5);
    assert_eq!(c.object.as_deref(), Some("slab"));
    assert!(of_kind(&found, FeatureKind::Slope).is_empty());
}

#[test]
fn flat_floor_gives_nothing_but_walkable_cells() {
    let found = find(&small_level(&[]));
    assert!(found.features.is_empty(), "{:#?}", found.features);
    assert!(found.walkable_cells > 6000);
    assert!(!found.coarsened);
}

#[test]
fn level_of_walls_only_has_no_walkable_floor() {
    let wall = TriMesh::single_object(
        "wall",
        vec![
            glam::Vec3::ZERO,
            glam::Vec3::X,
            glam::Vec3::new(1.0, 2.0, 0.0),
            glam::Vec3::new(0.0, 2.0, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    );
    let found = find(&Level::from_mesh("wall", wall));
    assert_eq!(found.walkable_cells, 0);
    assert!(found.features.is_empty());
}

#[test]
fn cancel_returns_none() {
    let level = small_level(&step_door_slab());
    let cancel = AtomicBool::new(true);
    assert!(find_features(level.world(), &FeatureOptions::default(), &|_| {}, &cancel).is_none());
}

#[test]
fn huge_grid_is_coarsened_and_says_so() {
    let opts = FeatureOptions {
        cell_m: 0.01,
        max_cells: 10_000,
        ..FeatureOptions::default()
    };
    let level = small_level(&[]);
    let cancel = AtomicBool::new(false);
    let found = find_features(level.world(), &opts, &|_| {}, &cancel).unwrap();
    assert!(found.coarsened);
    assert!(found.grid_size[0] * found.grid_size[1] <= 10_000);
    assert!(found.cell_m > 0.08, "{}", found.cell_m);
}

#[test]
fn z_up_inches_file_gives_the_same_metres() {
    let level = small_level(&step_door_slab());
    let mut obj = Vec::new();
    write_obj(&level.mesh, &mut obj).unwrap();
    // World (x, y, z) is file (x, -z, y) with Z up; inches.
    let inch = 0.0254;
    let text: String = String::from_utf8(obj)
        .unwrap()
        .lines()
        .map(|line| match line.strip_prefix("v ") {
            Some(v) => {
                let c: Vec<f64> = v.split_whitespace().map(|t| t.parse().unwrap()).collect();
                format!("v {} {} {}\n", c[0] / inch, -c[2] / inch, c[1] / inch)
            }
            None => format!("{line}\n"),
        })
        .collect();
    let options = ImportOptions {
        up: UpAxis::Z,
        scale: inch,
        ..ImportOptions::default()
    };
    let (mesh, _) = import_obj_bytes(text.as_bytes(), Path::new("z_up.obj"), &options).unwrap();
    let inches = find(&Level::from_mesh("z_up", mesh));
    let metres = find(&level);
    assert_eq!(inches.features.len(), metres.features.len());
    let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < 0.01,
        (a, b) => a.is_none() && b.is_none(),
    };
    for m in &metres.features {
        let i = inches
            .features
            .iter()
            .find(|i| i.kind == m.kind && (i.position - m.position).length() < 0.05)
            .unwrap_or_else(|| panic!("{m:?} not found in the Z-up file"));
        assert!(close(i.riser_height_m, m.riser_height_m), "{i:?} vs {m:?}");
        assert!(close(i.tread_depth_m, m.tread_depth_m), "{i:?} vs {m:?}");
        assert!(close(i.width_m, m.width_m), "{i:?} vs {m:?}");
        assert!(close(i.height_m, m.height_m), "{i:?} vs {m:?}");
        assert!(i.direction.dot(m.direction) > 0.999);
    }
}

#[test]
fn a_gap_under_a_low_bench_is_no_opening_but_a_small_door_is() {
    // A 1.5 m wall with a 0.25 m high slot at its foot (the space under a
    // bench), and a wall with a 0.5 x 1.0 m hatch.
    let slot = Door {
        offset: 0.5,
        width: 2.0,
        height: 0.25,
    };
    let hatch = Door {
        offset: 1.0,
        width: 0.5,
        height: 1.0,
    };
    let level = small_level(&[
        (
            "bench",
            wall(DVec3::new(-3.0, 0.0, 0.0), 3.0, 1.5, 0.4, Some(slot)),
        ),
        (
            "hatch",
            wall(DVec3::new(1.0, 0.0, 0.0), 3.0, 3.0, 0.2, Some(hatch)),
        ),
    ]);
    let found = find(&level);
    let openings = of_kind(&found, FeatureKind::Opening);
    assert_eq!(openings.len(), 1, "{openings:#?}");
    assert_eq!(openings[0].object.as_deref(), Some("hatch"));
    assert!((openings[0].width_m.unwrap() - 0.5).abs() < 0.02);
}

#[test]
fn one_doorway_under_two_lintels_is_one_opening_the_lower() {
    let door = |height: f64| {
        let mut f = blank(FeatureKind::Opening, DVec3::new(1.0, 0.0, 2.0), DVec3::X);
        f.width_m = Some(1.1);
        f.height_m = Some(height);
        f
    };
    let mut beside = door(2.0);
    beside.position.z += 1.0;
    let mut features = vec![door(4.4), door(3.8), beside];
    drop_repeats(&mut features);
    let heights: Vec<f64> = features.iter().filter_map(|f| f.height_m).collect();
    assert_eq!(heights, vec![3.8, 2.0]);
}
