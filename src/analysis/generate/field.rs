//! `field`: large outdoor levels for benchmarks (world space, Y up,
//! metres): rolling terrain, a grid of 1.33 m cells (two triangles each),
//! strewn with crates of random size and heading resting on it, half the
//! triangles in the terrain and half in the crates, as in an open-world
//! level. The level's side grows with the target so that the density (one
//! crate per 10.7 m², terrain slopes up to about 14°) is the same at every size.
//!
//! Unlike [`super::city`], nothing here lines up with the axes or repeats
//! cell by cell: crates overlap each other and cut into the slopes at
//! any heading, so the tree's boxes overlap as they do in a real level.
//! The same target and seed give the same mesh, bit for bit.

use super::Rng;
use crate::mesh::TriMesh;
use glam::{DVec3, Vec3};

/// Side of a terrain cell, metres.
pub const FIELD_CELL: f64 = 200.0 / 150.0;

/// The terrain's height at `(x, z)`: three long waves with phases from the
/// seed, amplitude 2, 1.5 and 0.5 m (slopes up to about 14°).
fn terrain_height(x: f64, z: f64, phase: [f64; 3]) -> f64 {
    2.0 * (x * 0.05 + phase[0]).sin()
        + 1.5 * (z * 0.07 + phase[1]).cos()
        + 0.5 * ((x + z) * 0.13 + phase[2]).sin()
}

/// A field of about `target_triangles` triangles (at least 1,000) from
/// `seed`: two objects, `terrain` and `crates` (each crate a closed,
/// outward-facing box of 12 triangles).
pub fn field(target_triangles: usize, seed: u64) -> TriMesh {
    let mut rng = Rng::new(seed);
    let phase = [
        rng.range(0.0, std::f64::consts::TAU),
        rng.range(0.0, std::f64::consts::TAU),
        rng.range(0.0, std::f64::consts::TAU),
    ];
    // Half the triangles in the terrain: n x n cells, two triangles each.
    let target = target_triangles.max(1_000);
    let n = ((target as f64 / 4.0).sqrt().round() as u32).max(2);
    let side = f64::from(n) * FIELD_CELL;
    let half = side * 0.5;
    let mut positions: Vec<Vec3> = Vec::with_capacity(target);
    let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(target);
    for j in 0..=n {
        for i in 0..=n {
            let x = f64::from(i) * FIELD_CELL - half;
            let z = f64::from(j) * FIELD_CELL - half;
            positions.push(DVec3::new(x, terrain_height(x, z, phase), z).as_vec3());
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            // Counter-clockwise seen from above: the terrain faces up.
            triangles.push([a, a + n + 1, a + 1]);
            triangles.push([a + 1, a + n + 1, a + n + 2]);
        }
    }
    let terrain_count = triangles.len() as u32;
    let crates = (target.saturating_sub(terrain_count as usize) / 12).max(1);
    for _ in 0..crates {
        let x = rng.range(-half + 2.0, half - 2.0);
        let z = rng.range(-half + 2.0, half - 2.0);
        let h = DVec3::new(
            rng.range(0.2, 1.5),
            rng.range(0.2, 2.0),
            rng.range(0.2, 1.5),
        );
        let yaw = rng.range(0.0, std::f64::consts::TAU);
        // Sunk 0.3 m into the ground, so no slope leaves a gap under it.
        let centre = DVec3::new(x, terrain_height(x, z, phase) - 0.3 + h.y, z);
        let (s, c) = yaw.sin_cos();
        let base = positions.len() as u32;
        for k in 0..8u32 {
            let sign = |bit: u32| if k & bit != 0 { 1.0 } else { -1.0 };
            let local = h * DVec3::new(sign(1), sign(2), sign(4));
            let turned = DVec3::new(
                c * local.x + s * local.z,
                local.y,
                -s * local.x + c * local.z,
            );
            positions.push((centre + turned).as_vec3());
        }
        // Faces counter-clockwise seen from outside (a rotation about y
        // keeps the winding of the axis-aligned box).
        for [a, b, c, d] in [
            [0, 4, 6, 2],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 2, 3, 1],
            [4, 5, 7, 6],
        ] {
            triangles.push([base + a, base + b, base + c]);
            triangles.push([base + a, base + c, base + d]);
        }
    }
    let crate_count = triangles.len() as u32 - terrain_count;
    TriMesh::new(
        positions,
        triangles,
        vec![
            ("terrain".to_string(), terrain_count),
            ("crates".to_string(), crate_count),
        ],
    )
}
