//! Helpers shared by the solver's scenario and property tests.
#![allow(dead_code)]

use collidoscope::collide::{SlideResult, SlideSettings, TraceDetail, slide};
use collidoscope::geometry::closest::closest_point_on_triangle;
use collidoscope::geometry::espace::EllipsoidSpace;
use collidoscope::level::Level;
use collidoscope::mesh::{MeshBuilder, TriMesh};
use glam::{DVec3, Vec3};

/// A level from a builder.
pub fn level(b: &MeshBuilder) -> Level {
    Level::from_mesh("test", b.build())
}

/// A 40 × 40 m floor slab whose top is at y = 0.
pub fn floor(b: &mut MeshBuilder) -> &mut MeshBuilder {
    b.object("floor")
        .cuboid(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0))
}

/// Distance from `center` (world) to the nearest triangle, in the
/// ellipsoid space of `radii`; ≥ 1 means the probe does not overlap the mesh.
pub fn espace_clearance(mesh: &TriMesh, radii: DVec3, center: DVec3) -> f64 {
    let es = EllipsoidSpace::new(radii).unwrap();
    let c = es.espace_from_world(center);
    (0..mesh.triangle_count() as u32)
        .map(|t| {
            let tri = mesh.triangle_f64(t).map(|p| es.espace_from_world(p));
            (closest_point_on_triangle(tri, c) - c).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs one move with full detail and checks the trace's chaining.
pub fn run(level: &Level, settings: &SlideSettings, start: DVec3, vel: DVec3) -> SlideResult {
    let r = slide(level.world(), settings, start, vel, TraceDetail::Full).expect("finite input");
    let mut at = start;
    for rec in &r.iterations {
        assert!(
            (rec.start - at).length() < 1e-9,
            "records must chain: {rec:?}"
        );
        assert!(rec.end.is_finite());
        at = rec.end;
    }
    assert_eq!(at, r.final_position);
    r
}

/// Repeats the same move `n` times (a player holding a key), returning every final position.
pub fn walk(level: &Level, s: &SlideSettings, start: DVec3, vel: DVec3, n: usize) -> Vec<DVec3> {
    let mut p = start;
    (0..n)
        .map(|_| {
            p = run(level, s, p, vel).final_position;
            p
        })
        .collect()
}

/// Default settings with no gravity and the given radii.
pub fn settings(radii: [f64; 3]) -> SlideSettings {
    SlideSettings {
        radii,
        ..SlideSettings::default()
    }
}

/// As [`espace_clearance`], but only over the triangles near `center`
/// (found through the BVH), for big levels; `INFINITY` when none is near.
pub fn espace_clearance_near(level: &Level, radii: DVec3, center: DVec3) -> f64 {
    use collidoscope::bvh::{BvhScratch, QueryStats};
    use collidoscope::math::Aabb;
    let es = EllipsoidSpace::new(radii).unwrap();
    let c = es.espace_from_world(center);
    let query = Aabb::from_f64_outward(center - radii * 1.01, center + radii * 1.01);
    let mut tris = Vec::new();
    level.bvh().query_aabb(
        level.mesh().tri_aabbs(),
        &query,
        &mut BvhScratch::default(),
        &mut tris,
        None,
        &mut QueryStats::default(),
    );
    tris.iter()
        .map(|&t| {
            let tri = level
                .mesh()
                .triangle_f64(t)
                .map(|p| es.espace_from_world(p));
            (closest_point_on_triangle(tri, c) - c).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The shared real levels folder, or `None` (with a message) when absent.
pub fn shared_levels() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

/// A tiny deterministic generator (SplitMix64), so tests need no seed plumbing.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)` on each axis.
    pub fn in_box(&mut self, lo: DVec3, hi: DVec3) -> DVec3 {
        DVec3::new(self.unit(), self.unit(), self.unit()) * (hi - lo) + lo
    }
}

/// Property-test cases: `default`, sized for CI, or `PROPTEST_CASES` from
/// the environment to run them long (`PROPTEST_CASES=100000 cargo test
/// --release --test library slide_props`).
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
