//! Helpers shared by the solver's scenario and property tests.
#![allow(dead_code)]

use collidoscope::collide::segment_triangle_closest;
use collidoscope::collide::{SlideResult, SlideSettings, TraceDetail, slide};
use collidoscope::geometry::closest::closest_point_on_triangle;
use collidoscope::geometry::espace::EllipsoidSpace;
use collidoscope::geometry::shape::Solid;
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
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)` on each axis.
    pub fn in_box(&mut self, lo: DVec3, hi: DVec3) -> DVec3 {
        DVec3::new(self.unit(), self.unit(), self.unit()) * (hi - lo) + lo
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in the cube of half side `half` about the origin.
    pub fn vec(&mut self, half: f64) -> DVec3 {
        DVec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }
}

/// Rounds to `f32` and back, so a peer working in `f32` (parry3d) and the
/// `f64` code under test see identical inputs.
pub fn f32_exact(v: DVec3) -> DVec3 {
    v.as_vec3().as_dvec3()
}

/// `v` as parry3d's `f32` vector.
pub fn parry_vec(v: DVec3) -> parry3d::math::Vector {
    parry3d::math::Vector::new(v.x as f32, v.y as f32, v.z as f32)
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

/// The signed separation of `solid` centred at `c` from `tri`, metres:
/// positive apart (a lower bound of the distance for the box), negative
/// overlapping.
pub fn solid_separation(solid: &Solid, c: DVec3, tri: [DVec3; 3]) -> f64 {
    match *solid {
        Solid::Sphere { radius } => segment_triangle_closest(c, c, tri).1 - radius,
        Solid::Capsule {
            radius,
            half_segment,
        } => {
            let s = DVec3::Y * half_segment;
            segment_triangle_closest(c - s, c + s, tri).1 - radius
        }
        Solid::Box { half_extents } => {
            let p = tri.map(|v| v - c);
            let mut axes = vec![
                DVec3::X,
                DVec3::Y,
                DVec3::Z,
                (p[1] - p[0]).cross(p[2] - p[0]),
            ];
            for i in 0..3 {
                for a in [DVec3::X, DVec3::Y, DVec3::Z] {
                    axes.push((p[(i + 1) % 3] - p[i]).cross(a));
                }
            }
            axes.iter()
                .filter_map(|a| a.try_normalize())
                .map(|l| {
                    let r = (half_extents * l.abs()).element_sum();
                    let proj = p.map(|v| v.dot(l));
                    let lo = proj.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = proj.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    (lo - r).max(-hi - r)
                })
                .fold(f64::NEG_INFINITY, f64::max)
        }
        Solid::Cylinder {
            radius,
            half_height,
        } => {
            let parry = parry_cylinder_separation(radius, half_height, c, tri);
            if parry > 0.0 {
                return parry;
            }
            // Parry's GJK can report a grazing rim contact as an overlap
            // of a millimetre or more (a tunnel the sweep did not make);
            // an overlap must also hold by a direct search.
            let searched = cylinder_distance_by_search(radius, half_height, c, tri);
            if searched > 1e-6 { searched } else { parry }
        }
    }
}

/// The distance from the upright cylinder (radius `r`, half height `hh`)
/// at `c` to `tri`, 0 when they overlap: the least over the triangle of a
/// point's distance to the cylinder (convex in the point, so nested
/// golden-section searches over the barycentric coordinates find it). A
/// few thousand point distances: only for the cases parry calls an
/// overlap.
pub fn cylinder_distance_by_search(r: f64, hh: f64, c: DVec3, tri: [DVec3; 3]) -> f64 {
    let point_dist = |q: DVec3| {
        let q = q - c;
        let dx = ((q.x * q.x + q.z * q.z).sqrt() - r).max(0.0);
        let dy = (q.y.abs() - hh).max(0.0);
        (dx * dx + dy * dy).sqrt()
    };
    let golden = |f: &dyn Fn(f64) -> f64, hi: f64| {
        let g = 0.618_033_988_749_895;
        let (mut lo, mut hi) = (0.0, hi);
        let top = hi;
        for _ in 0..48 {
            let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if f(m1) < f(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        f(0.5 * (lo + hi)).min(f(0.0)).min(f(top))
    };
    let (a, e1, e2) = (tri[0], tri[1] - tri[0], tri[2] - tri[0]);
    let inner = |u: f64| golden(&|v: f64| point_dist(a + e1 * u + e2 * v), 1.0 - u);
    golden(&inner, 1.0)
}

/// The cylinder's signed separation from parry3d (`query::distance`, and
/// `query::contact`, whose `dist` is negative by the penetration depth,
/// when they overlap), an implementation
/// independent of ours; `f32`, so good to about a tenth of a millimetre
/// here (`CYLINDER_TOL` in `slide_shapes`).
pub fn parry_cylinder_separation(r: f64, hh: f64, c: DVec3, tri: [DVec3; 3]) -> f64 {
    use parry3d::math::{Pose, Vector};
    let v = |p: DVec3| Vector::new(p.x as f32, p.y as f32, p.z as f32);
    let cyl = parry3d::shape::Cylinder::new(hh as f32, r as f32);
    // Relative to the centre, so that f32 loses nothing to the level's coordinates.
    let t = parry3d::shape::Triangle::new(v(tri[0] - c), v(tri[1] - c), v(tri[2] - c));
    // The distance when apart (its contact query with a large prediction
    // misreports far-apart pairs), the contact's depth when overlapping.
    let d = parry3d::query::distance(&Pose::IDENTITY, &cyl, &Pose::IDENTITY, &t)
        .expect("parry supports cylinder vs triangle")
        .distance;
    if d > 0.0 {
        return f64::from(d);
    }
    parry3d::query::contact(&Pose::IDENTITY, &cyl, &Pose::IDENTITY, &t, 0.0)
        .expect("parry supports cylinder vs triangle")
        .map_or(0.0, |k| f64::from(k.dist))
}
