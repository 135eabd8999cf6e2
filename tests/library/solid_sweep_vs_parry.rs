//! Differential test: our exact swept sphere, capsule and box vs triangle
//! (`geometry::solid_sweep`) against parry3d's generic shape cast
//! (`query::cast_shapes` with `ShapeCastOptions::with_max_time_of_impact(1.0)`,
//! target distance 0, of a `Ball`, `Capsule::new_y` or `Cuboid` against a
//! `Triangle`), on seeded random triangles and moves.
//!
//! parry works in `f32` and stops its GJK / conservative-advancement
//! iterations within a tolerance of the surface, so its time of impact is
//! within a few millimetres of the true one at these sizes (shapes of
//! 0.05-1 m, coordinates within 5 m); ours is exact to rounding. The
//! inputs are rounded to `f32` first so that both see the same geometry.
//! Both answers are checked against an independent oracle, the signed
//! separation (capsule: core distance less the radius; box: largest gap
//! over the 13 separating axes; cylinder: parry's own contact distance
//! to sort the cases, and a nested search of the distance to check ours):
//! ours must be touching (`|separation|`
//! below `1e-9` m) at its time, and the two times must agree within
//! `PARRY_TOL` metres of travel along our contact normal.
//!
//! Skipped and counted, as in `sweep_vs_parry`: starts in overlap (both
//! report `t = 0`), and moves whose closest approach or either end is
//! within `GRAZE` of touching (there a tolerance decides hit or miss).

use crate::common::{
    Rng, cylinder_distance_by_search, f32_exact, parry_vec, solid_separation as separation,
};
use collidoscope::geometry::shape::Solid;
use collidoscope::geometry::solid_sweep::{SolidHit, sweep_solid_triangle};
use glam::DVec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, Capsule, Cuboid, Cylinder, Shape, Triangle};

/// Separation this close to 0 (metres) is a grazing case.
const GRAZE: f64 = 2e-3;
/// parry's `f32` contact is within this of ours, metres of travel along
/// our contact normal. Measured over the 30,000 cases below (2026-11-28):
/// at most 6.1e-3 m, and every such gap is parry's own error: its
/// separation at its time of impact is off by the same amount (its `f32`
/// GJK stops a few millimetres from the surface, worst at vertex
/// contacts of small balls), while ours is within 1e-13 m of touching.
/// Print the figures with `cargo test --test library
/// solid_sweep_vs_parry -- --nocapture`.
const PARRY_TOL: f64 = 1e-2;
const CASES: usize = 10_000;

/// Cases per shape: [`CASES`], or `PROPTEST_CASES` for a long run (the
/// README's long-run command sets it to a million).
fn cases() -> usize {
    crate::common::proptest_cases(CASES as u32) as usize
}

/// A random solid, sizes exact in `f32`.
fn random_solid(rng: &mut Rng, kind: usize) -> Solid {
    let mut size = |lo: f64, hi: f64| f64::from(rng.range(lo, hi) as f32);
    match kind {
        0 => Solid::Sphere {
            radius: size(0.05, 1.0),
        },
        1 => Solid::Capsule {
            radius: size(0.05, 0.8),
            half_segment: size(0.0, 1.0),
        },
        2 => Solid::Box {
            half_extents: DVec3::new(size(0.05, 1.0), size(0.05, 1.2), size(0.05, 1.0)),
        },
        _ => Solid::Cylinder {
            radius: size(0.05, 0.8),
            half_height: size(0.05, 1.2),
        },
    }
}

fn parry_shape(solid: &Solid) -> Box<dyn Shape> {
    match *solid {
        Solid::Sphere { radius } => Box::new(Ball::new(radius as f32)),
        Solid::Capsule {
            radius,
            half_segment,
        } => Box::new(Capsule::new_y(half_segment as f32, radius as f32)),
        Solid::Box { half_extents } => Box::new(Cuboid::new(parry_vec(half_extents))),
        Solid::Cylinder {
            radius,
            half_height,
        } => Box::new(Cylinder::new(half_height as f32, radius as f32)),
    }
}

/// Least separation along the move (convex in `t`: golden-section search).
fn closest_approach(solid: &Solid, c: DVec3, vel: DVec3, tri: [DVec3; 3]) -> f64 {
    let f = |t: f64| separation(solid, c + vel * t, tri);
    let g = 0.618_033_988_749_895;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..80 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if f(m1) < f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi))
}

fn parry_cast(solid: &Solid, c: DVec3, vel: DVec3, tri: [DVec3; 3]) -> Option<f64> {
    let shape = parry_shape(solid);
    let triangle = Triangle::new(parry_vec(tri[0]), parry_vec(tri[1]), parry_vec(tri[2]));
    cast_shapes(
        &Pose::from_translation(parry_vec(c)),
        parry_vec(vel),
        shape.as_ref(),
        &Pose::IDENTITY,
        Vector::ZERO,
        &triangle,
        ShapeCastOptions::with_max_time_of_impact(1.0),
    )
    .expect("parry supports these shapes against a triangle")
    .map(|h| f64::from(h.time_of_impact))
}

#[derive(Default, Debug)]
struct Tally {
    both_hit: usize,
    both_miss: usize,
    skipped_graze: usize,
    skipped_overlap: usize,
    disagreements: Vec<String>,
    /// Hit-or-miss cases where parry alone is wrong (the least separation
    /// along the move sides with ours): parry's own tolerances and misses,
    /// about one in 100,000 cases on long runs.
    parry_wrong: Vec<String>,
    /// Largest `|t_ours - t_parry| * |vel . normal|`, metres.
    max_normal_gap: f64,
    /// Largest `|t_ours - t_parry| * |vel|`, metres.
    max_travel_gap: f64,
    /// Largest `|separation|` at parry's time of impact, metres (the
    /// cylinder's: the distance, blind to depth).
    max_parry_sep: f64,
    /// Largest `|separation|` at ours, metres.
    max_our_sep: f64,
}

fn compare(
    tally: &mut Tally,
    solid: &Solid,
    c: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
    hit: SolidHit,
    t_parry: f64,
) -> Option<String> {
    tally.both_hit += 1;
    let normal_gap = (hit.t - t_parry).abs() * vel.dot(hit.normal).abs();
    tally.max_normal_gap = tally.max_normal_gap.max(normal_gap);
    tally.max_travel_gap = tally
        .max_travel_gap
        .max((hit.t - t_parry).abs() * vel.length());
    let at = |t: f64| match *solid {
        Solid::Cylinder {
            radius,
            half_height,
        } => cylinder_distance_by_search(radius, half_height, c + vel * t, tri),
        _ => separation(solid, c + vel * t, tri),
    };
    let (ours, theirs) = (at(hit.t), at(t_parry));
    tally.max_parry_sep = tally.max_parry_sep.max(theirs.abs());
    tally.max_our_sep = tally.max_our_sep.max(ours.abs());
    // The cylinder's oracle is a search, good to about 1e-9 m.
    let exact = if matches!(solid, Solid::Cylinder { .. }) {
        1e-8
    } else {
        1e-9
    };
    (ours.abs() > exact || normal_gap > PARRY_TOL).then(|| {
        format!(
            "separation at our t {ours:.2e}, at parry's {theirs:.2e}, normal gap {normal_gap:.2e}"
        )
    })
}

#[test]
fn solid_sweeps_agree_with_parry_shape_casts() {
    let names = ["sphere", "capsule", "box", "cylinder"];
    for (kind, name) in names.iter().enumerate() {
        let mut rng = Rng(0x5EED_0000_0000_0001 + kind as u64);
        let mut tally = Tally::default();
        let cases = cases();
        for case_no in 0..cases {
            let solid = random_solid(&mut rng, kind);
            let tri = [rng.vec(3.0), rng.vec(3.0), rng.vec(3.0)].map(f32_exact);
            if (tri[1] - tri[0]).cross(tri[2] - tri[0]).length() < 1e-3 {
                continue;
            }
            let c = f32_exact(rng.vec(5.0));
            let vel = if rng.next_u64().is_multiple_of(2) {
                rng.vec(8.0)
            } else {
                let (u, w) = (rng.range(0.0, 1.0), rng.range(0.0, 1.0));
                let (u, w) = if u + w > 1.0 {
                    (1.0 - u, 1.0 - w)
                } else {
                    (u, w)
                };
                let target = tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * w + rng.vec(1.5);
                (target - c) * rng.range(0.3, 1.5)
            };
            let vel = f32_exact(vel);
            let start = separation(&solid, c, tri);
            if start < GRAZE {
                let overlap = start < -GRAZE;
                tally.skipped_overlap += usize::from(overlap);
                tally.skipped_graze += usize::from(!overlap);
                continue;
            }
            let end = separation(&solid, c + vel, tri);
            let closest = closest_approach(&solid, c, vel, tri);
            if end.abs() < GRAZE || closest.abs() < GRAZE {
                tally.skipped_graze += 1;
                continue;
            }
            let ours = sweep_solid_triangle(&solid, c, vel, tri, 1.0, false);
            let theirs = parry_cast(&solid, c, vel, tri);
            let what = || {
                format!(
                    "{name} case {case_no}: {solid:?} c={c} vel={vel} tri={tri:?} ours={ours:?} parry={theirs:?}"
                )
            };
            match (ours, theirs) {
                (Err(_), None) => tally.both_miss += 1,
                (Ok(hit), Some(t_parry)) => {
                    if let Some(why) = compare(&mut tally, &solid, c, vel, tri, hit, t_parry) {
                        tally.disagreements.push(format!("{} {why}", what()));
                    }
                }
                (ours, _) => {
                    // One hits and the other misses: the least separation
                    // along the move decides (its sign is exact: the
                    // separations are exact or separating-axis bounds,
                    // convex in `t`, and at least GRAZE from zero here).
                    if ours.is_ok() == (closest < 0.0) {
                        tally
                            .parry_wrong
                            .push(format!("{} closest {closest:.2e} m", what()));
                    } else {
                        tally
                            .disagreements
                            .push(format!("{} closest {closest:.2e} m", what()));
                    }
                }
            }
        }
        println!(
            "{name} vs parry over {cases} cases: both hit {}, both miss {}, skipped grazing {}, \
             skipped overlap {}, disagreements {}; gap between the contacts along the normal: \
             max {:.2e} m (travel {:.2e} m); |separation| at parry's contact max {:.2e} m, at ours {:.2e} m",
            tally.both_hit,
            tally.both_miss,
            tally.skipped_graze,
            tally.skipped_overlap,
            tally.disagreements.len(),
            tally.max_normal_gap,
            tally.max_travel_gap,
            tally.max_parry_sep,
            tally.max_our_sep,
        );
        for line in tally.disagreements.iter().take(10) {
            println!("{line}");
        }
        println!(
            "{name}: {} cases where parry alone is wrong (ours agrees with the least separation along the move)",
            tally.parry_wrong.len()
        );
        for line in tally.parry_wrong.iter().take(3) {
            println!("  {line}");
        }
        assert!(
            tally.both_hit > cases / 10,
            "{name}: too few hits: {tally:?}"
        );
        assert!(
            tally.both_miss > cases / 10,
            "{name}: too few misses: {tally:?}"
        );
        assert!(
            tally.disagreements.is_empty(),
            "{name}: disagreements with parry"
        );
    }
}

/// Starts in overlap: both report a contact at `t = 0`.
#[test]
fn overlapping_starts_agree_with_parry() {
    let mut rng = Rng(0x0005_EED0_F0E1_1AB6);
    let mut compared = 0;
    for case_no in 0..CASES {
        let solid = random_solid(&mut rng, case_no % 4);
        let tri = [rng.vec(1.5), rng.vec(1.5), rng.vec(1.5)].map(f32_exact);
        let c = f32_exact(rng.vec(1.0));
        let vel = f32_exact(rng.vec(3.0));
        if (tri[1] - tri[0]).cross(tri[2] - tri[0]).length() < 1e-3
            || separation(&solid, c, tri) > -GRAZE
        {
            continue;
        }
        compared += 1;
        let hit = sweep_solid_triangle(&solid, c, vel, tri, 1.0, false).unwrap_or_else(|e| {
            panic!("overlap not reported ({e:?}): {solid:?} c={c} tri={tri:?}")
        });
        assert_eq!(hit.t, 0.0);
        assert!(hit.depth > 0.0, "{hit:?}");
        assert_eq!(
            parry_cast(&solid, c, vel, tri),
            Some(0.0),
            "{solid:?} c={c} v={vel} tri={tri:?}"
        );
    }
    assert!(compared > 500, "only {compared} overlapping cases");
}
