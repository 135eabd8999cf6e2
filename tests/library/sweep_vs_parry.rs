//! Differential test: our closed-form swept unit sphere vs triangle against
//! parry3d's generic shape cast (GJK-based `cast_shapes`, ball of radius 1 vs
//! `Triangle`), on many seeded random triangles and moves.
//!
//! parry works in `f32`; the inputs are rounded to `f32` first so that both
//! methods see exactly the same geometry. Cases whose answer hinges on a
//! tolerance are skipped and counted: a move that only grazes the triangle
//! (closest approach within `GRAZE` of 1), one that starts or ends touching,
//! and one that starts in overlap (both report `t = 0`, but with different
//! notions of the contact point). Everything else must agree: hit or miss,
//! and the time of impact within `POS_TOL` of travel along the move.

use crate::common::{Rng, f32_exact, parry_vec};
use collidoscope::geometry::closest::closest_point_on_triangle;
use collidoscope::geometry::sweep::{SweepHit, SweepOutcome, sweep_unit_sphere_triangle};
use glam::DVec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{ShapeCastOptions, cast_shapes};
use parry3d::shape::{Ball, Triangle};

/// Closest approach this close to 1 is a grazing case (ellipsoid units).
const GRAZE: f64 = 2e-3;
/// Travel between the two contacts above this is counted (reported, not failed).
const POS_TOL: f64 = 1e-3;
/// parry's `f32` GJK stops within a few thousandths of the true contact:
/// measured here, its distance at its time of impact is `1 +- 4.7e-3`, the
/// worst cases all being vertex contacts (where the ball's curved surface
/// meets a corner and GJK converges slowest), while ours is `1 +- 1e-14`.
/// So the two contacts must agree to this along the contact normal; along the
/// move the gap can be larger by `1 / cos` of the approach angle.
const PARRY_TOL: f64 = 6e-3;
const CASES: usize = 20_000;

/// A unit sphere centred at `center` moving by `vel`, and a triangle.
#[derive(Clone, Copy, Debug)]
struct Case {
    center: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
}

/// One random case: half are aimed at a point near the triangle so that a
/// good share of them hit.
fn random_case(rng: &mut Rng) -> Case {
    let tri = [rng.vec(3.0), rng.vec(3.0), rng.vec(3.0)].map(f32_exact);
    let center = f32_exact(rng.vec(5.0));
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
        (target - center) * rng.range(0.3, 1.5)
    };
    Case {
        center,
        vel: f32_exact(vel),
        tri,
    }
}

fn dist_at(tri: [DVec3; 3], c: DVec3) -> f64 {
    (closest_point_on_triangle(tri, c) - c).length()
}

/// Minimum over `t` in `[0, 1]` of the distance from the centre to the
/// triangle: a convex function of `t`, so a ternary search finds it.
fn closest_approach(tri: [DVec3; 3], center: DVec3, vel: DVec3) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        if dist_at(tri, center + vel * m1) < dist_at(tri, center + vel * m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    dist_at(tri, center + vel * lo)
}

fn parry_cast(center: DVec3, vel: DVec3, tri: [DVec3; 3]) -> Option<f64> {
    let ball = Ball::new(1.0);
    let shape = Triangle::new(parry_vec(tri[0]), parry_vec(tri[1]), parry_vec(tri[2]));
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    let pos1 = Pose::from_translation(parry_vec(center));
    let hit = cast_shapes(
        &pos1,
        parry_vec(vel),
        &ball,
        &Pose::IDENTITY,
        Vector::ZERO,
        &shape,
        options,
    )
    .expect("parry supports ball vs triangle");
    hit.map(|h| f64::from(h.time_of_impact))
}

#[derive(Default, Debug)]
struct Tally {
    both_hit: usize,
    both_miss: usize,
    skipped_graze: usize,
    skipped_overlap: usize,
    disagree_hit_miss: Vec<String>,
    disagree_time: Vec<String>,
    /// Largest `|t_ours - t_parry| * |vel|`: travel between the two contacts.
    max_travel_gap: f64,
    /// Hits whose travel gap exceeds `POS_TOL`.
    travel_gap_over_tol: usize,
    /// Largest gap measured along our contact normal.
    max_normal_gap: f64,
    /// Largest `|distance - 1|` at parry's time of impact.
    max_parry_dist_err: f64,
}

fn compare_hits(tally: &mut Tally, case: &Case, hit: SweepHit, t_parry: f64) -> Option<String> {
    let Case { center, vel, tri } = *case;
    tally.both_hit += 1;
    let travel_gap = (hit.t - t_parry).abs() * vel.length();
    let normal_gap = (hit.t - t_parry).abs() * vel.dot(hit.normal_espace).abs();
    let dist_ours = dist_at(tri, center + vel * hit.t);
    let dist_parry = dist_at(tri, center + vel * t_parry);
    tally.max_travel_gap = tally.max_travel_gap.max(travel_gap);
    tally.travel_gap_over_tol += usize::from(travel_gap > POS_TOL);
    tally.max_normal_gap = tally.max_normal_gap.max(normal_gap);
    tally.max_parry_dist_err = tally.max_parry_dist_err.max((dist_parry - 1.0).abs());
    let exact = (dist_ours - 1.0).abs() < 1e-9;
    (!exact || normal_gap > PARRY_TOL).then(|| {
        format!("dist at our t {dist_ours}, at parry's {dist_parry}, normal gap {normal_gap:.2e}")
    })
}

#[test]
fn hit_miss_and_time_agree_with_parry() {
    let mut rng = Rng(0x00C0_111D_05C0_9E00);
    let mut tally = Tally::default();
    for case_no in 0..CASES {
        let case = random_case(&mut rng);
        let Case { center, vel, tri } = case;
        if (tri[1] - tri[0]).cross(tri[2] - tri[0]).length() < 1e-3 {
            continue; // near-degenerate: the two methods legitimately differ
        }
        let start = dist_at(tri, center);
        if start < 1.0 - GRAZE {
            tally.skipped_overlap += 1;
            continue;
        }
        let end = dist_at(tri, center + vel);
        let closest = closest_approach(tri, center, vel);
        let near = |d: f64| (d - 1.0).abs() < GRAZE;
        if near(start) || near(end) || near(closest) {
            tally.skipped_graze += 1;
            continue;
        }
        let ours = sweep_unit_sphere_triangle(center, vel, tri, 1.0, false);
        let theirs = parry_cast(center, vel, tri);
        let what = || format!("case {case_no}: {case:?} ours={ours:?} parry={theirs:?}");
        match (ours, theirs) {
            (SweepOutcome::Miss { .. }, None) => tally.both_miss += 1,
            (SweepOutcome::Hit(hit), Some(t_parry)) => {
                if let Some(why) = compare_hits(&mut tally, &case, hit, t_parry) {
                    tally.disagree_time.push(format!("{} {why}", what()));
                }
            }
            _ => tally.disagree_hit_miss.push(what()),
        }
    }
    println!(
        "sweep vs parry over {CASES} cases: both hit {}, both miss {}, skipped grazing {}, \
         skipped overlap {}, hit/miss disagreements {}, time disagreements {}; \
         travel between the contacts: max {:.2e}, over {POS_TOL:.0e} in {} hits; \
         along the normal: max {:.2e}; parry's |distance - 1| at its contact: max {:.2e}",
        tally.both_hit,
        tally.both_miss,
        tally.skipped_graze,
        tally.skipped_overlap,
        tally.disagree_hit_miss.len(),
        tally.disagree_time.len(),
        tally.max_travel_gap,
        tally.travel_gap_over_tol,
        tally.max_normal_gap,
        tally.max_parry_dist_err,
    );
    for line in tally
        .disagree_hit_miss
        .iter()
        .chain(&tally.disagree_time)
        .take(10)
    {
        println!("{line}");
    }
    assert!(
        tally.both_hit > CASES / 10,
        "too few hits to compare: {tally:?}"
    );
    assert!(
        tally.both_miss > CASES / 10,
        "too few misses to compare: {tally:?}"
    );
    assert!(
        tally.skipped_graze < CASES / 20,
        "too many skipped: {tally:?}"
    );
    assert!(tally.disagree_hit_miss.is_empty(), "hit/miss disagreements");
    assert!(tally.disagree_time.is_empty(), "time disagreements");
    // Most contacts agree to POS_TOL of travel even though parry is f32 GJK.
    assert!(tally.travel_gap_over_tol < tally.both_hit / 10, "{tally:?}");
}

/// Overlapping starts: both methods report a contact at `t = 0`.
#[test]
fn overlapping_starts_agree_with_parry() {
    let mut rng = Rng(0x0005_EED0_F0E1_1AB5);
    let mut compared = 0;
    for _ in 0..CASES / 4 {
        let Case { center, vel, tri } = random_case(&mut rng);
        if (tri[1] - tri[0]).cross(tri[2] - tri[0]).length() < 1e-3 || dist_at(tri, center) > 0.99 {
            continue;
        }
        compared += 1;
        let SweepOutcome::Hit(h) = sweep_unit_sphere_triangle(center, vel, tri, 1.0, false) else {
            panic!("overlap not reported: c={center} tri={tri:?}");
        };
        assert_eq!(h.t, 0.0);
        assert_eq!(
            parry_cast(center, vel, tri),
            Some(0.0),
            "c={center} v={vel} tri={tri:?}"
        );
    }
    assert!(compared > 100, "only {compared} overlapping cases");
}
