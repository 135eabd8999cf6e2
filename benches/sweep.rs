//! Swept unit sphere vs triangle: our closed form (Fauerby 2003) against
//! parry3d's generic shape cast (GJK, ball of radius 1 vs `Triangle`), on the
//! same seeded random triangles and moves, in ellipsoid space.
//!
//! Each iteration sweeps all `N` cases, so the time per call is the reported
//! time divided by `N` (criterion also prints it as a throughput).
//! Run: `cargo bench --no-default-features --bench sweep`.

use collidoscope::geometry::sphere_sphere::{
    MovingSphere, SphereSweepOutcome, sweep_sphere_sphere,
};
use collidoscope::geometry::sweep::{SweepOutcome, sweep_unit_sphere_triangle};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, Triangle};
use std::hint::black_box;

const N: usize = 1024;

/// SplitMix64: a tiny, seeded, dependency-free generator.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn vec(&mut self, half: f64) -> DVec3 {
        DVec3::new(
            self.range(-half, half),
            self.range(-half, half),
            self.range(-half, half),
        )
    }
}

/// A unit sphere at `center` moving by `vel`, a triangle; inputs rounded to
/// `f32` so that parry sees exactly the same geometry.
#[derive(Clone, Copy)]
struct Case {
    center: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
}

/// Half of the moves are aimed near the triangle, as a BVH query would hand
/// the sweep mostly nearby triangles.
fn cases() -> Vec<Case> {
    let mut rng = Rng(0xBE7C_0000_5EE9);
    let f32_exact = |v: DVec3| v.as_vec3().as_dvec3();
    (0..N)
        .map(|_| {
            let tri = [rng.vec(3.0), rng.vec(3.0), rng.vec(3.0)].map(f32_exact);
            let center = f32_exact(rng.vec(5.0));
            let vel = if rng.next_u64().is_multiple_of(2) {
                rng.vec(8.0)
            } else {
                let target = (tri[0] + tri[1] + tri[2]) / 3.0 + rng.vec(2.0);
                (target - center) * rng.range(0.3, 1.5)
            };
            Case {
                center,
                vel: f32_exact(vel),
                tri,
            }
        })
        .collect()
}

fn pv(v: DVec3) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
}

fn bench_sweep(c: &mut Criterion) {
    let cases = cases();
    let hits = cases
        .iter()
        .filter(|k| {
            matches!(
                sweep_unit_sphere_triangle(k.center, k.vel, k.tri, 1.0, false),
                SweepOutcome::Hit(_)
            )
        })
        .count();
    println!("{N} cases, {hits} hits (two-sided)");
    let parry_cases: Vec<_> = cases
        .iter()
        .map(|k| {
            (
                Pose::from_translation(pv(k.center)),
                pv(k.vel),
                Triangle::new(pv(k.tri[0]), pv(k.tri[1]), pv(k.tri[2])),
            )
        })
        .collect();

    let mut group = c.benchmark_group("sweep_sphere_triangle");
    group.throughput(Throughput::Elements(N as u64));
    for (name, cull) in [("ours_two_sided", false), ("ours_culled", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n_hits = 0usize;
                for k in &cases {
                    let out =
                        sweep_unit_sphere_triangle(black_box(k.center), k.vel, k.tri, 1.0, cull);
                    n_hits += usize::from(matches!(out, SweepOutcome::Hit(_)));
                }
                n_hits
            })
        });
    }
    let ball = Ball::new(1.0);
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    group.bench_function("parry_cast_shapes", |b| {
        b.iter(|| {
            let mut n_hits = 0usize;
            for (pos, vel, tri) in &parry_cases {
                let hit = cast_shapes(
                    black_box(pos),
                    *vel,
                    &ball,
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    tri,
                    options,
                );
                n_hits += usize::from(matches!(hit, Ok(Some(_))));
            }
            n_hits
        })
    });
    group.bench_function("bounding_sphere_sweep", |b| {
        // The cheap broad test of seed 001 on the same moves: the sphere
        // against the triangle's bounding sphere (centroid, farthest vertex).
        let spheres: Vec<_> = cases
            .iter()
            .map(|k| {
                let centroid = (k.tri[0] + k.tri[1] + k.tri[2]) / 3.0;
                let radius = k
                    .tri
                    .iter()
                    .map(|p| p.distance(centroid))
                    .fold(0.0, f64::max);
                let probe = MovingSphere {
                    center: k.center,
                    vel: k.vel,
                    radius: 1.0,
                };
                (
                    probe,
                    MovingSphere {
                        center: centroid,
                        vel: DVec3::ZERO,
                        radius,
                    },
                )
            })
            .collect();
        b.iter(|| {
            let hit = |(a, s): &&(MovingSphere, MovingSphere)| {
                !matches!(
                    sweep_sphere_sphere(black_box(*a), *s),
                    SphereSweepOutcome::Miss { .. }
                )
            };
            spheres.iter().filter(hit).count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_sweep);
criterion_main!(benches);
