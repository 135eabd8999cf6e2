//! The default level (world space, Y up, metres), built to show the tool off
//! with the default probe (radii 0.4, 0.9, 0.4 m: 0.8 m wide, 1.8 m tall).
//!
//! Rows of parts on one tiled floor, each labelled by its object name:
//! - z = 0: staircases with risers 0.15, 0.30 and 0.50 m (below the probe's
//!   0.9 m vertical radius, so it rolls up them) and 0.95 and 1.20 m (it
//!   cannot);
//! - z = 8: walls with door openings the probe fits through (wider than
//!   0.8 m and taller than 1.8 m) and some it does not;
//! - z = 12: ramps of 10, 20, 30, 45 and 60 degrees; beside them (x = 22)
//!   low ceilings, slabs 1.60 m over the floor (the probe does not fit
//!   under) and 2.10 m (it does);
//! - x = 26, z = 20: a funnel leading into a slot exactly 0.80 m wide, the
//!   probe's width, where it wedges (the stuck spot the map must find);
//! - z = 22 and beyond: crease corners, 2 cm thin walls and pillars.
//!
//! The committed `assets/default_level.obj` is this generator's output,
//! checked by a test so the two cannot drift apart.

use super::LevelBuilder;
use super::parts::{
    Door, Stairs, box_pillar, crease, floor, funnel_gap, prism_pillar, ramp, staircase, thin_wall,
    wall,
};
use super::solid::{Solid, cuboid};
use crate::mesh::TriMesh;
use glam::{DVec2, DVec3};

/// The committed default level, OBJ text (the GUI opens it at start-up).
pub const DEFAULT_LEVEL_OBJ: &str = include_str!("../../../assets/default_level.obj");

/// Riser heights of the staircases, metres.
pub const STAIR_RISERS: [f64; 5] = [0.15, 0.30, 0.50, 0.95, 1.20];
/// Door openings (width, height), metres.
pub const DOORS: [(f64, f64); 6] = [
    (0.60, 2.00),
    (0.90, 2.00),
    (1.20, 2.20),
    (0.90, 1.60),
    (2.00, 2.40),
    (0.85, 1.85),
];
/// Ramp slopes, degrees.
pub const RAMP_SLOPES: [f64; 5] = [10.0, 20.0, 30.0, 45.0, 60.0];
/// Clear heights of the low ceilings, metres.
pub const CEILINGS: [f64; 2] = [1.60, 2.10];
/// Width of the funnel's slot: exactly the default probe's (2 × 0.4 m).
pub const FUNNEL_GAP_M: f64 = 0.80;
/// Where the funnel's slot is: the middle of its front face.
pub const FUNNEL_GAP_AT: DVec3 = DVec3::new(26.0, 0.0, 20.0);
/// The floor's extent, metres (x and z).
const FLOOR_MIN: DVec2 = DVec2::new(-4.0, -4.0);
/// See [`FLOOR_MIN`].
const FLOOR_MAX: DVec2 = DVec2::new(30.0, 34.0);

/// Turns a part built climbing +x (width along +z) to climb +z, its width
/// spanning `[at.x, at.x + width]`.
fn climbing_z(solid: Solid, at: DVec3, width: f64) -> Solid {
    solid.turned(3).translated(at + DVec3::new(width, 0.0, 0.0))
}

/// Builds the default level (a few thousand triangles).
pub fn default_level() -> TriMesh {
    let mut level = LevelBuilder::new();
    level.add("floor", &floor(FLOOR_MIN, FLOOR_MAX, 0.0, 0.5, 2.0));
    for (i, riser) in STAIR_RISERS.iter().enumerate() {
        let stairs = Stairs {
            riser: *riser,
            tread: 0.6,
            count: 3,
            width: 2.0,
            landing: 1.5,
        };
        let at = DVec3::new(4.0 * i as f64, 0.0, 0.0);
        let solid = climbing_z(staircase(DVec3::ZERO, &stairs), at, stairs.width);
        level.add(format!("stairs_riser_{riser:.2}"), &solid);
    }
    for (i, (width, height)) in DOORS.iter().enumerate() {
        let length = 3.6;
        let door = Door {
            offset: (length - width) * 0.5,
            width: *width,
            height: *height,
        };
        let at = DVec3::new(4.0 * i as f64, 0.0, 8.0);
        level.add(
            format!("door_w{width:.2}_h{height:.2}"),
            &wall(at, length, 3.0, 0.2, Some(door)),
        );
    }
    for (i, slope) in RAMP_SLOPES.iter().enumerate() {
        let at = DVec3::new(4.0 * i as f64, 0.0, 12.0);
        let solid = climbing_z(ramp(DVec3::ZERO, *slope, 1.0, 2.0, 1.5), at, 2.0);
        level.add(format!("ramp_{slope:.0}deg"), &solid);
    }
    for (i, height) in CEILINGS.iter().enumerate() {
        let x = 22.0 + 3.5 * i as f64;
        let slab = cuboid(
            DVec3::new(x, *height, 13.0),
            DVec3::new(x + 2.5, height + 0.3, 16.0),
        );
        level.add(format!("ceiling_{height:.2}"), &slab);
    }
    add_corners_and_pillars(&mut level);
    // Last, so that the earlier parts keep their triangle numbers.
    level.add(
        format!("funnel_gap_{FUNNEL_GAP_M:.2}"),
        &funnel_gap(FUNNEL_GAP_AT, FUNNEL_GAP_M, 1.6, 1.2, 0.2, 2.5),
    );
    level.build()
}

/// Row z >= 22: creases, thin walls and pillars.
fn add_corners_and_pillars(level: &mut LevelBuilder) {
    level.add(
        "crease_60deg",
        &crease(DVec3::new(0.0, 0.0, 24.0), 60.0, 3.0, 0.2, 2.5),
    );
    level.add(
        "crease_30deg",
        &crease(DVec3::new(0.0, 0.0, 30.0), 30.0, 3.0, 0.2, 2.5),
    );
    level.add(
        "thin_wall_0.02",
        &thin_wall(DVec3::new(6.0, 0.0, 24.0), 3.0, 2.5, 0.02),
    );
    // Two thin walls meeting at a right angle: a thin-walled corner.
    let mut corner = thin_wall(DVec3::new(6.0, 0.0, 29.0), 3.0, 2.5, 0.02);
    corner.append(
        &thin_wall(DVec3::ZERO, 2.0, 2.5, 0.02)
            .turned(3)
            .translated(DVec3::new(9.02, 0.0, 29.0)),
    );
    level.add("thin_corner_0.02", &corner);
    level.add(
        "pillar_box_0.60",
        &box_pillar(DVec3::new(14.0, 0.0, 24.0), DVec2::splat(0.3), 3.0),
    );
    level.add(
        "pillar_3gon_r0.40",
        &prism_pillar(DVec3::new(17.0, 0.0, 24.0), 0.4, 3, 3.0),
    );
    level.add(
        "pillar_8gon_r0.30",
        &prism_pillar(DVec3::new(20.0, 0.0, 24.0), 0.3, 8, 3.0),
    );
    level.add(
        "pillar_16gon_r0.50",
        &prism_pillar(DVec3::new(23.0, 0.0, 24.0), 0.5, 16, 3.0),
    );
    // A row of close pillars: gaps of 0.70 and 0.40 m (too narrow
    // for the 0.8 m probe) and 1.00 m (wide enough).
    for (k, x) in [14.0, 15.0, 15.7, 17.0].iter().enumerate() {
        level.add(
            format!("pillar_row_{k}"),
            &box_pillar(DVec3::new(*x, 0.0, 29.0), DVec2::splat(0.15), 2.5),
        );
    }
}
