//! `city`: large levels for benchmarks (world space, Y up, metres), tiled
//! from 12 m square cells, each a walled room with door openings and
//! corridors around it, a staircase, a ramp, pillars, a crease corner and a
//! thin wall, on a tiled floor. Cells are added until a target triangle
//! count is reached (~1000 triangles per cell).
//!
//! Riser heights, ramp slopes and door sizes vary from cell to cell through
//! a fixed-seed hash of the cell index, so the level is the same every run.
//! [`city_moves`] derives probe moves from the same cell plans: walking
//! into walls, up stairs and ramps, into the crease, through doors and
//! along corridors.

use super::parts::{
    Door, Stairs, box_pillar, crease, floor, prism_pillar, ramp, staircase, thin_wall, wall,
};
use super::solid::Solid;
use super::{LevelBuilder, ProbeMove, unit_hash};
use crate::mesh::TriMesh;
use glam::{DVec2, DVec3};

/// Side of a cell, metres.
pub const CELL_SIZE: f64 = 12.0;
const WALL_HEIGHT: f64 = 3.0;
const WALL_THICKNESS: f64 = 0.2;

/// The plan of one cell: where it is and the parameters that vary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CityCell {
    /// World position of the cell's `(0, 0, 0)` corner (floor top).
    pub origin: DVec3,
    /// The opening in the wall at local z = 1 (along +x from local x = 0.9).
    pub south_door: Door,
    /// Riser height of the cell's staircase, metres.
    pub riser: f64,
    /// Slope of the cell's ramp, degrees.
    pub ramp_slope_deg: f64,
}

/// A generated city: the mesh and the plan of every cell.
#[derive(Clone, Debug)]
pub struct City {
    /// The level, world space.
    pub mesh: TriMesh,
    /// One plan per cell, in build order.
    pub cells: Vec<CityCell>,
}

/// A value in `[lo, hi)` from the cell's seed and a per-parameter salt.
fn vary(cell: u64, salt: u64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * unit_hash(cell.wrapping_mul(0x1_0000_0001).wrapping_add(salt))
}

fn random_door(cell: u64, salt: u64, length: f64) -> Door {
    let width = vary(cell, salt, 0.7, 1.6);
    let height = vary(cell, salt + 1, 1.7, 2.5);
    let offset = vary(cell, salt + 2, 1.0, length - width - 1.0);
    Door {
        offset,
        width,
        height,
    }
}

/// Plans cell `index` at `origin`.
fn plan_cell(index: u64, origin: DVec3) -> CityCell {
    CityCell {
        origin,
        south_door: random_door(index, 10, 10.2),
        riser: vary(index, 20, 0.12, 0.35),
        ramp_slope_deg: vary(index, 30, 12.0, 40.0),
    }
}

/// Adds the cell's parts, named `c<index>_<part>`.
fn build_cell(level: &mut LevelBuilder, index: u64, cell: &CityCell) {
    let at = |x: f64, z: f64| cell.origin + DVec3::new(x, 0.0, z);
    let mut add = |part: &str, solid: Solid| {
        level.add(format!("c{index}_{part}"), &solid);
    };
    let o = DVec2::new(cell.origin.x, cell.origin.z);
    add(
        "floor",
        floor(o, o + DVec2::splat(CELL_SIZE), cell.origin.y, 0.3, 1.0),
    );
    // Walls along x span x in [0.9, 11.1]; walls along z fit between them.
    let along_z = |solid: Solid, x: f64| solid.turned(3).translated(at(x, 1.1));
    let (h, t) = (WALL_HEIGHT, WALL_THICKNESS);
    add(
        "wall_s",
        wall(at(0.9, 0.9), 10.2, h, t, Some(cell.south_door)),
    );
    let north_door = (unit_hash(index ^ 0xA5) < 0.5).then(|| random_door(index, 40, 10.2));
    add("wall_n", wall(at(0.9, 10.9), 10.2, h, t, north_door));
    let west = wall(DVec3::ZERO, 9.8, h, t, Some(random_door(index, 50, 9.8)));
    add("wall_w", along_z(west, 1.1));
    let east_door = (unit_hash(index ^ 0x5A) < 0.5).then(|| random_door(index, 60, 9.8));
    add(
        "wall_e",
        along_z(wall(DVec3::ZERO, 9.8, h, t, east_door), 11.1),
    );
    let stairs = Stairs {
        riser: cell.riser,
        tread: 0.35,
        count: 6,
        width: 1.5,
        landing: 1.0,
    };
    add("stairs", staircase(at(2.0, 7.5), &stairs));
    add(
        "ramp",
        ramp(at(2.0, 2.5), cell.ramp_slope_deg, 0.8, 1.5, 1.0),
    );
    add("pillar_box", box_pillar(at(6.0, 6.0), DVec2::splat(0.3), h));
    add("pillar_8gon", prism_pillar(at(8.5, 6.0), 0.4, 8, h));
    add("crease", crease(at(8.0, 3.0), 60.0, 2.0, 0.2, 2.5));
    add("thin_wall", thin_wall(at(7.0, 8.5), 2.5, 2.5, 0.02));
}

/// Tiles cells in a square-ish grid until the level has at least
/// `target_triangles` triangles (at least one cell).
pub fn city(target_triangles: usize) -> City {
    let mut level = LevelBuilder::new();
    let mut cells = Vec::new();
    // The first cell measures how many cells are needed, for the grid's width.
    let first = plan_cell(0, DVec3::ZERO);
    build_cell(&mut level, 0, &first);
    cells.push(first);
    let per_cell = level.triangle_count().max(1);
    let columns = (target_triangles.div_ceil(per_cell) as f64)
        .sqrt()
        .ceil()
        .max(1.0) as u64;
    while level.triangle_count() < target_triangles {
        let index = cells.len() as u64;
        let origin =
            DVec3::new((index % columns) as f64, 0.0, (index / columns) as f64) * CELL_SIZE;
        let cell = plan_cell(index, origin);
        build_cell(&mut level, index, &cell);
        cells.push(cell);
    }
    City {
        mesh: level.build(),
        cells,
    }
}

/// Probe moves of kind `kind` (0..9) in `cell`, for the default probe
/// (radii 0.4, 0.9, 0.4 m): starts are clear of the geometry by design.
fn cell_move(cell: &CityCell, kind: usize) -> ProbeMove {
    // Centre 5 cm above where the probe would stand on the floor.
    let y = 0.95;
    let (start, vel) = match kind {
        // Obliquely into the south wall from inside, slightly down.
        0 => ((10.3, 1.6), (-1.5, -0.05, -1.0)),
        // Up the stairs and up the ramp.
        1 => ((1.6, 8.25), (3.0, -0.1, 0.0)),
        2 => ((1.6, 3.25), (3.0, -0.1, 0.0)),
        // Into the 60 degree crease.
        3 => ((9.6, 3.0), (-2.0, -0.05, 0.1)),
        // From the corridor through (or into) the south door.
        4 => {
            let x = 0.9 + cell.south_door.offset + cell.south_door.width * 0.5;
            ((x, 0.3), (0.0, -0.05, 2.5))
        }
        // Along the corridor, across cell boundaries.
        5 => ((0.0, 6.0), (0.0, -0.1, 5.0)),
        // Into the 8-gon pillar, and into the thin wall.
        6 => ((8.5, 4.9), (0.1, 0.0, 2.0)),
        7 => ((8.0, 7.6), (0.3, 0.0, 2.0)),
        // Diagonally into the room's north-east corner.
        _ => ((10.2, 10.2), (1.0, -0.02, 1.0)),
    };
    ProbeMove {
        start_world: cell.origin + DVec3::new(start.0, y, start.1),
        velocity_world: DVec3::new(vel.0, vel.1, vel.2),
    }
}

/// Number of kinds of move per cell.
pub const MOVE_KINDS: usize = 9;

/// `count` deterministic moves spread over the city's cells, cycling
/// through every kind of move.
pub fn city_moves(city: &City, count: usize) -> Vec<ProbeMove> {
    let n = city.cells.len();
    (0..count)
        .map(|i| {
            // A stride coprime with most cell counts spreads moves over the city.
            let cell = &city.cells[(i * 7919 + i / MOVE_KINDS) % n];
            cell_move(cell, i % MOVE_KINDS)
        })
        .collect()
}
