//! Swept sphere vs swept sphere over one move (`t` in `[0, 1]`), `f64`, in
//! any one space shared by both spheres (world space for bounding spheres).
//!
//! The classic bounding-sphere time-of-impact test (seed document 001):
//! work in relative motion (`dp = p2 - p1`, `dv = v2 - v1`), so that contact
//! is `|dp + t dv| = r1 + r2`, a quadratic in `t`. Most pairs are settled by
//! the signs of its coefficients before any root is taken (Vieta: the sum and
//! product of the roots):
//! 1. `pp = |dp|^2 - r^2 < 0`: already overlapping;
//! 2. `pv = dp . dv >= 0`: not approaching, no future contact;
//! 3. still approaching at `t = 1` (`pv + vv <= 0`) and still apart there
//!    (`|dp + dv|^2 - r^2 > 0`): the contact, if any, is after the move.
//!
//! The discriminant `pv^2 - pp vv` multiplies squared lengths by squared
//! lengths; the seed's precision fix divides it by `vv`, giving
//! `-(pp + pv tmin)` with `tmin = -pv / vv` the time of closest approach, so
//! the magnitudes stay those of squared distances (coordinates up to ~1e150
//! do not overflow; larger ones are refused). The contact time uses the `c / q` root form,
//! which has no cancellation since `pv < 0`.
//!
//! Two differences from the article's listings, on purpose: touching exactly
//! at the end of the move counts as contact (the article's check 3 rejects
//! it with `>= 0`), and the final test is `pp + pv tmin <= 0` (the
//! article's last listing prints `> 0` and corrects it to `< 0` below).

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A sphere moving by `vel` over the move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovingSphere {
    /// Centre at `t = 0`.
    pub center: DVec3,
    /// Displacement over the whole move (`t = 1`).
    pub vel: DVec3,
    /// Radius (`>= 0`).
    pub radius: f64,
}

/// Why two moving spheres do not meet during the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SphereMissReason {
    /// A non-finite coordinate, a negative or non-finite radius, or
    /// magnitudes (beyond ~1e150) whose squares overflow.
    InvalidInput,
    /// The centres do not get closer (moving apart, or no relative motion).
    NotApproaching,
    /// They are still approaching and still apart when the move ends.
    AfterTheMove,
    /// At their closest approach they are still apart.
    PassBy,
}

/// Result of sweeping two spheres against each other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum SphereSweepOutcome {
    /// They overlap at `t = 0` already.
    Overlapping,
    /// They first touch at `t` in `[0, 1]`.
    Hit {
        /// Fraction of the move at first contact.
        t: f64,
    },
    /// They do not meet during the move.
    Miss {
        /// Why not.
        reason: SphereMissReason,
    },
}

/// First contact of two moving spheres during the move (`t` in `[0, 1]`).
///
/// Touching (distance exactly `r1 + r2`) counts as contact: at `t = 0` when
/// approaching, and at the closest approach of a grazing pass.
pub fn sweep_sphere_sphere(a: MovingSphere, b: MovingSphere) -> SphereSweepOutcome {
    let miss = |reason| SphereSweepOutcome::Miss { reason };
    let finite =
        a.center.is_finite() && a.vel.is_finite() && b.center.is_finite() && b.vel.is_finite();
    let radii_ok = a.radius >= 0.0 && b.radius >= 0.0 && (a.radius + b.radius).is_finite();
    if !(finite && radii_ok) {
        return miss(SphereMissReason::InvalidInput);
    }
    let dp = b.center - a.center;
    let dv = b.vel - a.vel;
    let r = a.radius + b.radius;
    let pp = dp.length_squared() - r * r;
    let pv = dp.dot(dv);
    let vv = dv.length_squared();
    // Squared lengths overflow beyond ~1e154: refuse rather than answer NaN.
    if !(pp.is_finite() && pv.is_finite() && vv.is_finite()) {
        return miss(SphereMissReason::InvalidInput);
    }
    if pp < 0.0 {
        return SphereSweepOutcome::Overlapping;
    }
    if pv >= 0.0 {
        return miss(SphereMissReason::NotApproaching);
    }
    // Distance^2 - r^2 at t = 1, written out to reuse pp, pv, vv.
    // (Strictly apart: touching exactly at t = 1 is a contact.)
    if pv + vv <= 0.0 && vv + 2.0 * pv + pp > 0.0 {
        return miss(SphereMissReason::AfterTheMove);
    }
    let t_closest = -pv / vv;
    // Discriminant / vv, i.e. r^2 minus the squared distance at closest approach.
    let reduced_disc = -(pp + pv * t_closest);
    if reduced_disc < 0.0 {
        return miss(SphereMissReason::PassBy);
    }
    // Smaller root pp / q with q = -pv + sqrt(disc); the root is split so
    // that reduced_disc * vv cannot overflow.
    let q = reduced_disc.sqrt() * vv.sqrt() - pv;
    let t = if pp > 0.0 { pp / q } else { 0.0 };
    debug_assert!((0.0..=1.0 + 1e-12).contains(&t));
    SphereSweepOutcome::Hit { t: t.min(1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sphere(center: [f64; 3], vel: [f64; 3], radius: f64) -> MovingSphere {
        MovingSphere {
            center: DVec3::from(center),
            vel: DVec3::from(vel),
            radius,
        }
    }

    fn hit_t(out: SphereSweepOutcome) -> f64 {
        match out {
            SphereSweepOutcome::Hit { t } => t,
            other => panic!("expected a hit, got {other:?}"),
        }
    }

    fn reason(out: SphereSweepOutcome) -> SphereMissReason {
        match out {
            SphereSweepOutcome::Miss { reason } => reason,
            other => panic!("expected a miss, got {other:?}"),
        }
    }

    #[test]
    fn head_on_contact_time() {
        // Gap between surfaces 6, closing speed 12 per move: t = 0.5.
        let a = sphere([0.0, 0.0, 0.0], [5.0, 0.0, 0.0], 1.0);
        let b = sphere([10.0, 0.0, 0.0], [-7.0, 0.0, 0.0], 3.0);
        assert!((hit_t(sweep_sphere_sphere(a, b)) - 0.5).abs() < 1e-15);
        assert!((hit_t(sweep_sphere_sphere(b, a)) - 0.5).abs() < 1e-15);
    }

    #[test]
    fn oblique_contact_is_at_distance_r() {
        let a = sphere([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
        let b = sphere([-5.0, 1.5, 0.3], [10.0, -1.0, 0.0], 1.0);
        let t = hit_t(sweep_sphere_sphere(a, b));
        let d = (b.center + b.vel * t - a.center).length();
        assert!((d - 2.0).abs() < 1e-12, "{d}");
        let before = (b.center + b.vel * (t - 1e-6) - a.center).length();
        assert!(before > 2.0);
    }

    #[test]
    fn early_outs() {
        let still = sphere([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
        let inside = sphere([1.5, 0.0, 0.0], [9.0, 0.0, 0.0], 1.0);
        assert_eq!(
            sweep_sphere_sphere(still, inside),
            SphereSweepOutcome::Overlapping
        );
        let leaving = sphere([5.0, 0.0, 0.0], [1.0, 0.0, 0.0], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, leaving)),
            SphereMissReason::NotApproaching
        );
        let parked = sphere([5.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, parked)),
            SphereMissReason::NotApproaching
        );
        let slow = sphere([5.0, 0.0, 0.0], [-2.0, 0.0, 0.0], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, slow)),
            SphereMissReason::AfterTheMove
        );
        let wide = sphere([-5.0, 2.5, 0.0], [10.0, 0.0, 0.0], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, wide)),
            SphereMissReason::PassBy
        );
        let bad = sphere([0.0, f64::NAN, 0.0], [0.0; 3], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, bad)),
            SphereMissReason::InvalidInput
        );
        let negative = sphere([9.0, 0.0, 0.0], [0.0; 3], -1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(still, negative)),
            SphereMissReason::InvalidInput
        );
    }

    #[test]
    fn touching_counts() {
        let still = sphere([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
        // Touching at t = 0 and approaching.
        let touching = sphere([2.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 1.0);
        assert_eq!(hit_t(sweep_sphere_sphere(still, touching)), 0.0);
        // A grazing pass touches at the closest approach.
        let graze = sphere([-4.0, 2.0, 0.0], [8.0, 0.0, 0.0], 1.0);
        assert!((hit_t(sweep_sphere_sphere(still, graze)) - 0.5).abs() < 1e-15);
        // Contact exactly at the end of the move.
        let end = sphere([6.0, 0.0, 0.0], [-4.0, 0.0, 0.0], 1.0);
        assert_eq!(hit_t(sweep_sphere_sphere(still, end)), 1.0);
    }

    #[test]
    fn reaching_the_other_side_within_the_move_is_a_hit() {
        // Still approaching at t = 1, but already inside: (3) must not reject it.
        let still = sphere([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0);
        let b = sphere([10.0, 0.0, 0.0], [-9.0, 0.0, 0.0], 1.0);
        assert!((hit_t(sweep_sphere_sphere(still, b)) - 8.0 / 9.0).abs() < 1e-15);
    }

    fn arb_sphere() -> impl Strategy<Value = MovingSphere> {
        let v = || (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64).prop_map(DVec3::from);
        (v(), v(), 0.0..2.0f64).prop_map(|(center, vel, radius)| MovingSphere {
            center,
            vel: vel * 2.0,
            radius,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Against dense sampling of the gap between the surfaces.
        #[test]
        fn agrees_with_sampling(a in arb_sphere(), b in arb_sphere()) {
            let r = a.radius + b.radius;
            let gap = |t: f64| (b.center + b.vel * t - a.center - a.vel * t).length() - r;
            let samples: Vec<f64> = (0..=2000).map(|i| gap(i as f64 / 2000.0)).collect();
            match sweep_sphere_sphere(a, b) {
                SphereSweepOutcome::Overlapping => prop_assert!(gap(0.0) < 0.0),
                SphereSweepOutcome::Hit { t } => {
                    prop_assert!((0.0..=1.0).contains(&t));
                    prop_assert!(gap(t).abs() < 1e-9, "gap {} at {t}", gap(t));
                    let before = (t * 2000.0).floor() as usize;
                    prop_assert!(samples[..before].iter().all(|&g| g > -1e-9));
                }
                SphereSweepOutcome::Miss { .. } => {
                    prop_assert!(samples.iter().all(|&g| g > -1e-9));
                }
            }
        }
    }

    /// The article's listing 2 (raw discriminant) and listing 3 (divided by
    /// `vv`), in the article's `f32`, on its own scale: objects ~100 units
    /// apart moving ~200 units per frame, so `pp`, `pv`, `vv` are ~1e4 and
    /// their products ~1e8, past `f32`'s 24-bit mantissa.
    fn article_listings_f32(dp: [f32; 3], dv: [f32; 3], r: f32) -> (bool, bool) {
        let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let pp = dot(dp, dp) - r * r;
        let pv = dot(dp, dv);
        let vv = dot(dv, dv);
        let raw_hit = pv * pv - pp * vv > 0.0;
        let tmin = -pv / vv;
        let reduced_hit = pp + pv * tmin < 0.0;
        (raw_hit, reduced_hit)
    }

    #[test]
    fn article_precision_case_a_bullet_through_the_head() {
        // Relative start (-100, 2.5, 0), relative move (200, -4, 0), radii
        // summing to 0.5: the relative path passes the origin at
        // 100 / |(200, -4)| = 0.49990 < 0.5, a grazing hit. Exactly,
        // pv^2 - pp vv = 4 > 0 (all inputs are exact binary fractions).
        let (dp, dv, r) = ([-100.0f32, 2.5, 0.0], [200.0f32, -4.0, 0.0], 0.5f32);
        let (raw_hit, reduced_hit) = article_listings_f32(dp, dv, r);
        assert!(
            !raw_hit,
            "f32 raw discriminant rounds to 0: the hit is lost"
        );
        assert!(reduced_hit, "divided by vv, the sign survives");
        // The same numbers in f64 through this module: a hit just before
        // half the move, with the surfaces touching then.
        let a = sphere([0.0; 3], [0.0; 3], 0.25);
        let b = sphere([-100.0, 2.5, 0.0], [200.0, -4.0, 0.0], 0.25);
        let t = hit_t(sweep_sphere_sphere(a, b));
        assert!(t > 0.49 && t < 0.5, "{t}");
        let d = (b.center + b.vel * t).length();
        assert!((d - 0.5).abs() < 1e-9, "{d}");
        // Exact arithmetic agrees: the discriminant from the integers.
        let (pp, pv, vv) = (100.0f64 * 100.0 + 6.25 - 0.25, -20010.0f64, 40016.0f64);
        assert_eq!(pv * pv - pp * vv, 4.0);
    }

    #[test]
    fn overflowing_magnitudes_are_refused() {
        let a = sphere([0.0; 3], [0.0; 3], 1.0);
        let b = sphere([1e200, 0.0, 0.0], [-1e200, 0.0, 0.0], 1.0);
        assert_eq!(
            reason(sweep_sphere_sphere(a, b)),
            SphereMissReason::InvalidInput
        );
    }

    #[test]
    fn precision_fix_survives_huge_magnitudes() {
        // The raw discriminant pv^2 - pp vv would be ~1e480 (infinite in f64);
        // divided by vv it stays ~1e240 and the answers stay exact.
        let s = 1e120;
        let still = sphere([0.0; 3], [0.0; 3], s);
        let head_on = sphere([10.0 * s, 0.0, 0.0], [-16.0 * s, 0.0, 0.0], s);
        assert!((hit_t(sweep_sphere_sphere(still, head_on)) - 0.5).abs() < 1e-12);
        let wide = sphere([-5.0 * s, 2.5 * s, 0.0], [10.0 * s, 0.0, 0.0], s);
        assert_eq!(
            reason(sweep_sphere_sphere(still, wide)),
            SphereMissReason::PassBy
        );
        let near = sphere([-5.0 * s, 1.9 * s, 0.0], [10.0 * s, 0.0, 0.0], s);
        let t = hit_t(sweep_sphere_sphere(still, near));
        let expected = 0.5 - (4.0f64 - 1.9 * 1.9).sqrt() / 10.0;
        assert!((t - expected).abs() < 1e-12, "{t} vs {expected}");
    }
}
