//! Feature finding on the built-in level and on small built levels, with
//! the intended answers written down.

use super::*;
use crate::analysis::generate::parts::{Stairs, floor, staircase};
use crate::analysis::generate::solid::cuboid;
use crate::analysis::generate::{
    DOORS, LevelBuilder, RAMP_SLOPES, STAIR_RISERS, default_level, write_obj,
};
use crate::level::{ImportOptions, UpAxis, import::import_obj_bytes};
use glam::{DVec2, DVec3};
use std::sync::atomic::AtomicBool;

fn find(level: &Level) -> Features {
    let cancel = AtomicBool::new(false);
    find_features(level, &FeatureOptions::default(), &|_| {}, &cancel).expect("not cancelled")
}

fn of_kind(found: &Features, kind: FeatureKind) -> Vec<&Feature> {
    found.features.iter().filter(|f| f.kind == kind).collect()
}

fn horizontal_distance(a: DVec3, b: DVec3) -> f64 {
    (a - b).with_y(0.0).length()
}

#[test]
fn default_level_print() {
    let level = Level::from_mesh("default", default_level());
    let t = std::time::Instant::now();
    let found = find(&level);
    println!(
        "{:?} walkable {} cell {}",
        t.elapsed(),
        found.walkable_cells,
        found.cell_m
    );
    for f in &found.features {
        println!(
            "{:?} pos ({:.2} {:.2} {:.2}) dir ({:.2} {:.2}) r {:?} t {:?} w {:?} h {:?} s {:?} ext {:.2} {:?} n{}",
            f.kind,
            f.position.x,
            f.position.y,
            f.position.z,
            f.direction.x,
            f.direction.z,
            f.riser_height_m,
            f.tread_depth_m,
            f.width_m,
            f.height_m,
            f.slope_deg,
            f.extent_m,
            f.object,
            f.cells
        );
    }
}
