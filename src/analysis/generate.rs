//! Deterministic level generators, world space (Y up, metres): closed parts
//! (floors, walls with door openings, staircases, ramps, pillars, thin walls,
//! crease corners), the default level shown at start-up, `city` levels
//! tiled from rooms and `field` levels of terrain strewn with crates, up to
//! a target triangle count, for the benchmarks, and random move sets for
//! any level ([`move_sets`]).
//!
//! Nothing here is random: where parts vary, the variation comes from a
//! fixed-seed hash of their position or from a seeded [`Rng`], so a
//! generator called twice returns the same mesh, bit for bit. Every part is a closed, outward-facing
//! solid (counter-clockwise seen from outside) and a named object.

mod city;
mod default_level;
mod field;
pub mod move_sets;
mod obj;
pub mod parts;
pub mod solid;

pub use city::{CELL_SIZE, City, CityCell, MOVE_KINDS, city, city_moves};
pub use default_level::{
    CEILINGS, DEFAULT_LEVEL_OBJ, DOORS, FUNNEL_GAP_AT, FUNNEL_GAP_M, RAMP_SLOPES, STAIR_RISERS,
    default_level,
};
pub use field::{FIELD_CELL, field};
pub use obj::write_obj;
pub use solid::Solid;

use crate::mesh::TriMesh;

/// One slide to try: a start (probe centre) and a displacement, world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbeMove {
    /// Where the probe's centre starts, world space.
    pub start_world: glam::DVec3,
    /// The whole displacement asked for, world space.
    pub velocity_world: glam::DVec3,
}

/// Collects solids as named objects and produces a [`TriMesh`].
///
/// Unlike [`crate::mesh::MeshBuilder`], which gives every quad its own
/// corners, each solid keeps its shared vertices, so the level's closedness
/// can be checked by vertex index and the OBJ stays compact.
#[derive(Clone, Debug, Default)]
pub struct LevelBuilder {
    solid: Solid,
    objects: Vec<(String, u32)>,
}

impl LevelBuilder {
    /// An empty level.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `solid` as the object `name` (skipped when it has no triangles).
    pub fn add(&mut self, name: impl Into<String>, solid: &Solid) -> &mut Self {
        if !solid.triangles.is_empty() {
            self.solid.append(solid);
            self.objects
                .push((name.into(), solid.triangles.len() as u32));
        }
        self
    }

    /// Triangles added so far.
    pub fn triangle_count(&self) -> usize {
        self.solid.triangles.len()
    }

    /// The mesh, positions rounded to `f32`.
    pub fn build(self) -> TriMesh {
        let positions = self.solid.positions.iter().map(|p| p.as_vec3()).collect();
        TriMesh::new(positions, self.solid.triangles, self.objects)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a fixed-seed hash that turns a
/// part's index into reproducible variation.
pub(crate) fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A seeded stream of SplitMix64 numbers: the generators' one source of
/// randomness where a seed, not a position, names the result.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream named by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let x = self.0;
        self.0 = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix64(x)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// A number in `[0, 1)` from `splitmix64(seed)`.
pub(crate) fn unit_hash(seed: u64) -> f64 {
    (splitmix64(seed) >> 11) as f64 / (1u64 << 53) as f64
}
