//! Unit and property tests of the swept unit sphere vs triangle (ellipsoid space).

use super::*;
use crate::geometry::closest::{closest_point_on_segment, closest_point_on_triangle};
use proptest::prelude::*;

/// Floor triangle in z = 0, front face up (+z): edge 0 lies on y = 0, edge 1
/// is the hypotenuse x + y = 4, edge 2 lies on x = 0.
fn floor() -> [DVec3; 3] {
    [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(4.0, 0.0, 0.0),
        DVec3::new(0.0, 4.0, 0.0),
    ]
}

fn v(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z)
}

#[track_caller]
fn hit(outcome: SweepOutcome) -> SweepHit {
    match outcome {
        SweepOutcome::Hit(h) => h,
        SweepOutcome::Miss { reason } => panic!("expected a hit, got a miss: {reason:?}"),
    }
}

#[track_caller]
fn miss_reason(outcome: SweepOutcome) -> MissReason {
    match outcome {
        SweepOutcome::Miss { reason } => reason,
        SweepOutcome::Hit(h) => panic!("expected a miss, got {h:?}"),
    }
}

#[track_caller]
fn assert_close(a: DVec3, b: DVec3, tol: f64) {
    assert!((a - b).length() <= tol, "{a} != {b}");
}

/// Distance from the sphere centre at `t` to the triangle.
fn dist_at(tri: [DVec3; 3], center: DVec3, vel: DVec3, t: f64) -> f64 {
    let c = center + vel * t;
    (closest_point_on_triangle(tri, c) - c).length()
}

/// Approaches `target` along `-dir` from 3 units away over 4 units of motion:
/// the sphere touches it after 2 units, at `t = 0.5`.
fn approach(target: DVec3, dir: DVec3) -> SweepOutcome {
    let dir = dir.normalize();
    sweep_unit_sphere_triangle(target + dir * 3.0, -dir * 4.0, floor(), 1.0, true)
}

#[test]
fn face_hit() {
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 3.0),
        v(0.0, 0.0, -4.0),
        floor(),
        1.0,
        true,
    ));
    assert_eq!(h.feature, Feature::Face);
    assert!((h.t - 0.5).abs() < 1e-15);
    assert_close(h.point_espace, v(1.0, 1.0, 0.0), 1e-15);
    assert_close(h.normal_espace, DVec3::Z, 1e-15);
}

#[test]
fn each_vertex_is_hit() {
    let t = floor();
    let dirs = [v(-1.0, -1.0, 1.0), v(1.0, -1.0, 1.0), v(-1.0, 1.0, 1.0)];
    for (i, dir) in dirs.into_iter().enumerate() {
        let h = hit(approach(t[i], dir));
        assert_eq!(h.feature, Feature::Vertex(i as u8));
        assert!((h.t - 0.5).abs() < 1e-12, "vertex {i}: t = {}", h.t);
        assert_close(h.point_espace, t[i], 1e-12);
        assert_close(h.normal_espace, dir.normalize(), 1e-12);
    }
}

#[test]
fn each_edge_is_hit() {
    let cases = [
        (v(2.0, 0.0, 0.0), v(0.0, -1.0, 1.0)),
        (v(2.0, 2.0, 0.0), v(1.0, 1.0, 1.0)),
        (v(0.0, 2.0, 0.0), v(-1.0, 0.0, 1.0)),
    ];
    for (i, (mid, dir)) in cases.into_iter().enumerate() {
        let h = hit(approach(mid, dir));
        assert_eq!(h.feature, Feature::Edge(i as u8));
        assert!((h.t - 0.5).abs() < 1e-12, "edge {i}: t = {}", h.t);
        assert_close(h.point_espace, mid, 1e-12);
        assert_close(h.normal_espace, dir.normalize(), 1e-12);
    }
}

#[test]
fn grazing_a_vertex_tangentially() {
    // The centre runs at distance exactly 1 from edge 0's line, in the plane:
    // it touches vertex 0 at x = 0 (a double root) and never goes closer.
    let (start, vel) = (v(-5.0, -1.0, 0.0), v(10.0, 0.0, 0.0));
    let h = hit(sweep_unit_sphere_triangle(start, vel, floor(), 1.0, false));
    assert_eq!(h.feature, Feature::Vertex(0));
    assert!((h.t - 0.5).abs() < 1e-12);
    assert_close(h.normal_espace, -DVec3::Y, 1e-12);
    // A hair further out: no contact at all; a hair in: contact just before.
    let out = sweep_unit_sphere_triangle(start - DVec3::Y * 1e-9, vel, floor(), 1.0, false);
    assert_eq!(miss_reason(out), MissReason::NoFeatureHit);
    let inside = hit(sweep_unit_sphere_triangle(
        start + DVec3::Y * 1e-9,
        vel,
        floor(),
        1.0,
        false,
    ));
    let expected = 0.5 - (1.0f64 - (1.0 - 1e-9) * (1.0 - 1e-9)).sqrt() / 10.0;
    assert!(
        (inside.t - expected).abs() < 1e-9,
        "{} vs {expected}",
        inside.t
    );
}

#[test]
fn grazing_the_face_plane_is_not_a_contact() {
    // Centre exactly 1 above the plane, moving along it: touching, not cutting.
    let out = sweep_unit_sphere_triangle(v(-3.0, 1.0, 1.0), v(6.0, 0.0, 0.0), floor(), 1.0, false);
    assert_eq!(miss_reason(out), MissReason::PlaneNotReached);
}

#[test]
fn parallel_embedded_meets_an_edge() {
    // Centre 0.5 above the plane beside edge 0, moving along the plane.
    let (start, vel) = (v(1.0, -2.0, 0.5), v(0.0, 4.0, 0.0));
    for cull in [false, true] {
        let out = sweep_unit_sphere_triangle(start, vel, floor(), 1.0, cull);
        if cull {
            assert_eq!(miss_reason(out), MissReason::BackFacing);
            continue;
        }
        let h = hit(out);
        assert_eq!(h.feature, Feature::Edge(0));
        let expected = (2.0 - 0.75f64.sqrt()) / 4.0;
        assert!((h.t - expected).abs() < 1e-12);
        assert_close(h.point_espace, v(1.0, 0.0, 0.0), 1e-12);
        assert!((h.normal_espace.length() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn parallel_not_embedded_never_reaches_the_plane() {
    let out = sweep_unit_sphere_triangle(v(1.0, 1.0, 2.0), v(3.0, 1.0, 0.0), floor(), 1.0, false);
    assert_eq!(miss_reason(out), MissReason::PlaneNotReached);
}

#[test]
fn back_facing_with_and_without_culling() {
    let (below, up) = (v(1.0, 1.0, -3.0), v(0.0, 0.0, 4.0));
    let culled = sweep_unit_sphere_triangle(below, up, floor(), 1.0, true);
    assert_eq!(miss_reason(culled), MissReason::BackFacing);
    let h = hit(sweep_unit_sphere_triangle(below, up, floor(), 1.0, false));
    assert_eq!(h.feature, Feature::Face);
    assert!((h.t - 0.5).abs() < 1e-15);
    assert_close(h.normal_espace, -DVec3::Z, 1e-15);
    assert_close(h.point_espace, v(1.0, 1.0, 0.0), 1e-15);
    // Leaving the front face: culled, or (two-sided) the plane is never reached.
    let (above, away) = (v(1.0, 1.0, 3.0), v(0.0, 0.0, 4.0));
    let culled = sweep_unit_sphere_triangle(above, away, floor(), 1.0, true);
    assert_eq!(miss_reason(culled), MissReason::BackFacing);
    let two_sided = sweep_unit_sphere_triangle(above, away, floor(), 1.0, false);
    assert_eq!(miss_reason(two_sided), MissReason::PlaneNotReached);
}

#[test]
fn degenerate_and_non_finite_input() {
    let collinear = [DVec3::ZERO, DVec3::X, DVec3::X * 3.0];
    let repeated = [DVec3::ZERO, DVec3::ZERO, DVec3::Y];
    let sliver = [DVec3::ZERO, DVec3::X * 4.0, v(2.0, 1e-12, 0.0)];
    let (c, vel) = (v(1.0, 0.0, 3.0), v(0.0, 0.0, -4.0));
    for tri in [collinear, repeated, sliver, [DVec3::ONE; 3]] {
        let out = sweep_unit_sphere_triangle(c, vel, tri, 1.0, false);
        assert_eq!(miss_reason(out), MissReason::Degenerate, "{tri:?}");
    }
    let mut bad = floor();
    bad[1].x = f64::NAN;
    assert_eq!(
        miss_reason(sweep_unit_sphere_triangle(c, vel, bad, 1.0, false)),
        MissReason::Degenerate
    );
    let inf_vel = v(0.0, 0.0, f64::NEG_INFINITY);
    assert_eq!(
        miss_reason(sweep_unit_sphere_triangle(c, inf_vel, floor(), 1.0, false)),
        MissReason::Degenerate
    );
    let nan_c = v(f64::NAN, 0.0, 0.0);
    assert_eq!(
        miss_reason(sweep_unit_sphere_triangle(nan_c, vel, floor(), 1.0, false)),
        MissReason::Degenerate
    );
    // NaN max_t counts as 0: only an overlap could be reported.
    let out = sweep_unit_sphere_triangle(c, vel, floor(), f64::NAN, false);
    assert_eq!(miss_reason(out), MissReason::PlaneNotReached);
}

#[test]
fn zero_velocity_only_reports_an_existing_overlap() {
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 0.5),
        DVec3::ZERO,
        floor(),
        1.0,
        false,
    ));
    assert_eq!((h.t, h.feature), (0.0, Feature::Face));
    assert_close(h.normal_espace, DVec3::Z, 0.0);
    let far = sweep_unit_sphere_triangle(v(1.0, 1.0, 3.0), DVec3::ZERO, floor(), 1.0, false);
    assert_eq!(miss_reason(far), MissReason::PlaneNotReached);
    let beside = sweep_unit_sphere_triangle(v(-3.0, 1.0, 0.5), DVec3::ZERO, floor(), 1.0, false);
    assert_eq!(miss_reason(beside), MissReason::NoFeatureHit);
    // A still sphere does not approach the front face: culled.
    let culled = sweep_unit_sphere_triangle(v(1.0, 1.0, 0.5), DVec3::ZERO, floor(), 1.0, true);
    assert_eq!(miss_reason(culled), MissReason::BackFacing);
}

#[test]
fn already_overlapping_face_edge_vertex() {
    let down = v(0.0, 0.0, -1.0);
    let cases = [
        (v(1.0, 1.0, 0.25), Feature::Face, v(1.0, 1.0, 0.0), DVec3::Z),
        (
            v(1.0, 1.0, -0.25),
            Feature::Face,
            v(1.0, 1.0, 0.0),
            -DVec3::Z,
        ),
        (
            v(2.0, -0.5, 0.3),
            Feature::Edge(0),
            v(2.0, 0.0, 0.0),
            v(0.0, -0.5, 0.3).normalize(),
        ),
        (
            v(2.5, 2.5, 0.0),
            Feature::Edge(1),
            v(2.0, 2.0, 0.0),
            v(1.0, 1.0, 0.0).normalize(),
        ),
        (
            v(-0.3, -0.3, 0.3),
            Feature::Vertex(0),
            DVec3::ZERO,
            v(-1.0, -1.0, 1.0).normalize(),
        ),
    ];
    for (c, feature, point, normal) in cases {
        // The overlap wins over any later contact, whatever the motion.
        for vel in [down, -down, DVec3::X * 5.0] {
            let h = hit(sweep_unit_sphere_triangle(c, vel, floor(), 1.0, false));
            assert_eq!((h.t, h.feature), (0.0, feature), "{c} {vel}");
            assert_close(h.point_espace, point, 1e-12);
            assert_close(h.normal_espace, normal, 1e-12);
        }
    }
    // Centre exactly on the triangle: the normal is the face normal on the
    // side the sphere comes from.
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 0.0),
        down,
        floor(),
        1.0,
        false,
    ));
    assert_close(h.normal_espace, DVec3::Z, 0.0);
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 0.0),
        -down,
        floor(),
        1.0,
        false,
    ));
    assert_close(h.normal_espace, -DVec3::Z, 0.0);
}

#[test]
fn touching_at_start_counts_only_when_approaching() {
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 1.0),
        v(0.0, 0.0, -1.0),
        floor(),
        1.0,
        true,
    ));
    assert_eq!((h.t, h.feature), (0.0, Feature::Face));
    let vertex = v(-1.0, 0.0, 0.0);
    let h = hit(sweep_unit_sphere_triangle(
        vertex,
        v(1.0, 0.0, 0.0),
        floor(),
        1.0,
        false,
    ));
    assert_eq!((h.t, h.feature), (0.0, Feature::Vertex(0)));
    let away = sweep_unit_sphere_triangle(vertex, v(-1.0, 0.0, 0.0), floor(), 1.0, false);
    assert_eq!(miss_reason(away), MissReason::NoFeatureHit);
}

#[test]
fn max_t_cuts_off_later_contacts() {
    let (c, vel) = (v(1.0, 1.0, 3.0), v(0.0, 0.0, -4.0));
    assert_eq!(
        miss_reason(sweep_unit_sphere_triangle(c, vel, floor(), 0.4, true)),
        MissReason::PlaneNotReached
    );
    assert_eq!(
        hit(sweep_unit_sphere_triangle(c, vel, floor(), 0.5, true)).t,
        0.5
    );
    // Plane reached in time, vertex only later.
    let dir = v(-1.0, -1.0, 1.0).normalize();
    let out = sweep_unit_sphere_triangle(dir * 3.0, -dir * 4.0, floor(), 0.45, true);
    assert_eq!(miss_reason(out), MissReason::NoFeatureHit);
    // max_t is clamped to the move.
    let out = sweep_unit_sphere_triangle(c, vel * 0.25, floor(), 5.0, true);
    assert_eq!(miss_reason(out), MissReason::PlaneNotReached);
}

#[test]
fn huge_coordinates_keep_precision() {
    for offset in [
        v(1e9, -3e9, 7e8),
        v(1e15, 1e15, -1e15),
        v(-2.5e14, 3e14, 4e14),
    ] {
        let tri = floor().map(|p| p + offset);
        let h = hit(sweep_unit_sphere_triangle(
            v(1.0, 1.0, 3.0) + offset,
            v(0.0, 0.0, -4.0),
            tri,
            1.0,
            true,
        ));
        assert_eq!(h.feature, Feature::Face);
        assert!((h.t - 0.5).abs() < 1e-9, "{offset}: {}", h.t);
        assert_close(h.normal_espace, DVec3::Z, 1e-9);
    }
    // A huge triangle (1e12 across) hit near its middle.
    let big = floor().map(|p| p * 1e12 - v(1e11, 1e11, 0.0));
    let h = hit(sweep_unit_sphere_triangle(
        v(5.0, 5.0, 2.0),
        v(0.0, 0.0, -2.0),
        big,
        1.0,
        true,
    ));
    assert!((h.t - 0.5).abs() < 1e-9 && h.feature == Feature::Face);
    // Far beyond the limit: refused, not NaN.
    let far = floor().map(|p| p + DVec3::X * 1e200);
    let out = sweep_unit_sphere_triangle(DVec3::ZERO, DVec3::X, far, 1.0, false);
    assert_eq!(miss_reason(out), MissReason::Degenerate);
}

#[test]
fn tiny_coordinates_and_velocities() {
    // A micro-triangle (1e-9 across) is hit at its vertex-like scale.
    let tiny = floor().map(|p| p * 1e-9);
    let h = hit(sweep_unit_sphere_triangle(
        v(1e-10, 1e-10, 3.0),
        v(0.0, 0.0, -4.0),
        tiny,
        1.0,
        true,
    ));
    assert!((h.t - 0.5).abs() < 1e-12 && h.feature == Feature::Face);
    // A creeping sphere.
    let h = hit(sweep_unit_sphere_triangle(
        v(1.0, 1.0, 1.0 + 5e-13),
        v(0.0, 0.0, -1e-12),
        floor(),
        1.0,
        true,
    ));
    assert!((h.t - 0.5).abs() < 1e-3, "{}", h.t);
    // Subnormal velocity: a miss, and no NaN.
    let out =
        sweep_unit_sphere_triangle(v(-3.0, 1.0, 0.5), v(1e-310, 0.0, 0.0), floor(), 1.0, false);
    assert_eq!(miss_reason(out), MissReason::NoFeatureHit);
}

#[test]
fn first_root_cases() {
    // (t - 2)(t - 3) = t^2 - 5t + 6
    assert_eq!(first_root(1.0, -2.5, 6.0, 10.0), Some(2.0));
    assert_eq!(first_root(1.0, -2.5, 6.0, 1.9), None);
    assert_eq!(first_root(1.0, 2.5, 6.0, 10.0), None, "receding");
    assert_eq!(first_root(1.0, -1.0, 6.0, 10.0), None, "no real root");
    assert_eq!(
        first_root(1.0, -1.0, -0.5, 10.0),
        Some(0.0),
        "inside, approaching"
    );
    assert_eq!(first_root(0.0, -1.0, 4.0, 10.0), Some(2.0), "linear");
}

fn coord(range: f64) -> impl Strategy<Value = DVec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// A finite value of either sign with a magnitude `10^e`, `e` in
/// `-max_exp..max_exp` (or zero now and then).
fn wild(max_exp: f64) -> impl Strategy<Value = f64> {
    (any::<bool>(), -max_exp..max_exp, 0..20u8).prop_map(|(neg, e, zero)| {
        let m = if zero == 0 { 0.0 } else { 10f64.powf(e) };
        if neg { -m } else { m }
    })
}

fn wild_vec(max_exp: f64) -> impl Strategy<Value = DVec3> {
    (wild(max_exp), wild(max_exp), wild(max_exp)).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// Checks a sweep of arbitrary finite input: no NaN, `t` in range, unit normal.
fn check_finite(
    tri: [DVec3; 3],
    center: DVec3,
    vel: DVec3,
    max_t: f64,
    cull: bool,
) -> Result<(), TestCaseError> {
    if let SweepOutcome::Hit(h) = sweep_unit_sphere_triangle(center, vel, tri, max_t, cull) {
        prop_assert!(h.t.is_finite() && (0.0..=1.0).contains(&h.t));
        prop_assert!(h.point_espace.is_finite() && h.normal_espace.is_finite());
        prop_assert!((h.normal_espace.length() - 1.0).abs() < 1e-6);
    }
    Ok(())
}

/// Samples the move densely; returns the smallest distance to the triangle.
fn min_distance(tri: [DVec3; 3], c: DVec3, vel: DVec3, t_end: f64) -> f64 {
    const N: usize = 400;
    (0..=N)
        .map(|i| dist_at(tri, c, vel, t_end * i as f64 / N as f64))
        .fold(f64::INFINITY, f64::min)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// At the reported time the sphere touches the triangle, just before it
    /// does not overlap it, the normal is unit and points from the contact to
    /// the centre; with no hit the sphere never overlaps during the move.
    #[test]
    fn contact_invariants(a in coord(3.0), b in coord(3.0), c in coord(3.0),
                          center in coord(4.0), vel in coord(6.0), cull in any::<bool>()) {
        let tri = [a, b, c];
        let tol = 1e-7;
        match sweep_unit_sphere_triangle(center, vel, tri, 1.0, cull) {
            SweepOutcome::Hit(h) => {
                prop_assert!((0.0..=1.0).contains(&h.t));
                prop_assert!((h.normal_espace.length() - 1.0).abs() < 1e-9);
                let c_t = center + vel * h.t;
                // The contact is the triangle's closest point to the centre,
                // on the feature it names.
                prop_assert!((closest_point_on_triangle(tri, c_t) - h.point_espace).length() < 1e-6);
                let on_feature = match h.feature {
                    Feature::Face => 0.0,
                    Feature::Vertex(i) => (tri[i as usize] - h.point_espace).length(),
                    Feature::Edge(i) => {
                        let (a, b) = (tri[i as usize], tri[(i as usize + 1) % 3]);
                        (closest_point_on_segment(a, b, h.point_espace) - h.point_espace).length()
                    }
                };
                prop_assert!(on_feature < 1e-9, "{:?} off by {on_feature}", h.feature);
                if h.t > 0.0 {
                    prop_assert!((dist_at(tri, center, vel, h.t) - 1.0).abs() < tol);
                    prop_assert!(((c_t - h.point_espace).length() - 1.0).abs() < tol);
                    prop_assert!((c_t - h.point_espace).normalize().dot(h.normal_espace) > 1.0 - 1e-9);
                    prop_assert!(min_distance(tri, center, vel, h.t) > 1.0 - tol);
                } else {
                    prop_assert!(dist_at(tri, center, vel, 0.0) <= 1.0 + tol);
                }
            }
            SweepOutcome::Miss { reason } => {
                if reason != MissReason::BackFacing && reason != MissReason::Degenerate {
                    prop_assert!(min_distance(tri, center, vel, 1.0) > 1.0 - tol, "{reason:?}");
                }
            }
        }
    }

    /// Slivers just above the degeneracy threshold: a reported contact is
    /// still on the triangle at distance 1 (no false face hits from a
    /// cancelling inside test).
    #[test]
    fn slivers_stay_exact(a in coord(3.0), b in coord(3.0), along in 0.0..1.0f64,
                          thin_exp in -8.5..-3.0f64, center in coord(4.0), vel in coord(6.0)) {
        let ab = b - a;
        prop_assume!(ab.length() > 0.1);
        let off = ab.any_orthonormal_vector() * ab.length() * 10f64.powf(thin_exp);
        let tri = [a, b, a + ab * along + off];
        if let SweepOutcome::Hit(h) = sweep_unit_sphere_triangle(center, vel, tri, 1.0, false) {
            let c_t = center + vel * h.t;
            prop_assert!((closest_point_on_triangle(tri, h.point_espace) - h.point_espace).length() < 1e-7);
            if h.t > 0.0 {
                prop_assert!(((c_t - h.point_espace).length() - 1.0).abs() < 1e-7);
                prop_assert!((dist_at(tri, center, vel, h.t) - 1.0).abs() < 1e-7);
            }
        }
    }

    /// Two-sided sweeps agree with one-sided ones whenever the sphere
    /// approaches the front face.
    #[test]
    fn culling_only_removes_receding_cases(a in coord(3.0), b in coord(3.0), c in coord(3.0),
                                           center in coord(4.0), vel in coord(6.0)) {
        let tri = [a, b, c];
        let one = sweep_unit_sphere_triangle(center, vel, tri, 1.0, true);
        let two = sweep_unit_sphere_triangle(center, vel, tri, 1.0, false);
        match one {
            SweepOutcome::Miss { reason: MissReason::BackFacing } => {
                prop_assert!((b - a).cross(c - a).dot(vel) >= 0.0);
            }
            _ => prop_assert_eq!(one, two),
        }
    }

    /// No finite input, however large or small, produces NaN.
    #[test]
    fn never_nan(a in wild_vec(300.0), b in wild_vec(300.0), c in wild_vec(300.0),
                 center in wild_vec(300.0), vel in wild_vec(300.0), max_t in wild(300.0),
                 cull in any::<bool>()) {
        check_finite([a, b, c], center, vel, max_t, cull)?;
    }

    /// The same within the accepted range, where every branch is reached.
    #[test]
    fn never_nan_in_range(a in wild_vec(12.0), b in wild_vec(12.0), c in wild_vec(12.0),
                          center in wild_vec(12.0), vel in wild_vec(12.0), cull in any::<bool>()) {
        check_finite([a, b, c], center, vel, 1.0, cull)?;
    }

    /// The cheap separating test in front of the edge and vertex quadratics
    /// (and of the overlap search) never rejects a triangle they touch:
    /// spheres that dip a little into a plane near the triangle's edges and
    /// corners, spheres placed to touch an edge exactly at the end or the
    /// start of the interval (where the test decides by a hair), and
    /// arbitrary ones; over `[0, 1]` and over the shorter intervals the
    /// sweep hands it.
    #[test]
    fn reach_test_never_rejects_a_boundary_contact(
        a in coord(3.0), b in coord(3.0), c in coord(3.0),
        kind in 0..4u8, u in -0.5..1.5f64, w in -0.5..1.5f64,
        height in 0.9..1.1f64, center in coord(4.0), vel in coord(3.0),
        dip in -0.3..0.3f64, t_max in 0.01..1.0f64, edge in 0..3usize,
    ) {
        let tri = [a, b, c];
        let n = (b - a).cross(c - a).normalize_or_zero();
        prop_assume!(n != DVec3::ZERO);
        let (center, vel) = match kind {
            // Above a point of the plane around the triangle, moving mostly
            // along the plane.
            0 => {
                let foot = a + (b - a) * u + (c - a) * w * (1.0 - u.clamp(0.0, 1.0));
                (foot + n * height, vel - n * vel.dot(n) + n * dip)
            }
            // Touching a point of an edge from outside exactly at `t_max`
            // (kind 1), at its lowest, after moving along the edge and down,
            // or right at the start (kind 2): the test's bound is tight there.
            1 | 2 => {
                let (p, q) = (tri[edge], tri[(edge + 1) % 3]);
                let along = (q - p).normalize_or_zero();
                let out = along.cross(n);
                let h = (height - 0.9) * 4.9;
                let touch = p + (q - p) * u.clamp(0.0, 1.0) + out * (1.0 - h * h).sqrt() + n * h;
                let vel = along * vel.x - n * dip.abs();
                let start_t = if kind == 1 { t_max } else { 0.0 };
                (touch - vel * start_t, vel)
            }
            _ => (center, vel),
        };
        let Ok(rel) = Triangle::facing(center, vel, tri, false) else {
            return Ok(());
        };
        for t in [1.0, t_max] {
            if rel.boundary_roots(vel, t).is_some() {
                prop_assert!(!rel.out_of_reach(vel, t), "rejected a contact within t <= {t}");
            }
        }
        if rel.overlap_at_start().is_some() {
            prop_assert!(!rel.out_of_reach(vel, 0.0), "rejected an overlap at the start");
        }
    }
}
