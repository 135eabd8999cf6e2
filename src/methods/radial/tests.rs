//! Scenario tests of the radial push-out and its comparison with the
//! swept ellipsoid.

use super::*;
use crate::level::Level;
use crate::level::cylinder::level_with_cylinders;
use crate::mesh::TriMesh;
use crate::methods::radial_compare::{DEFAULT_TOLERANCE_M, compare_radial};
use crate::methods::{MethodError, run_with_cylinders};
use proptest::prelude::*;

fn probe() -> SlideSettings {
    SlideSettings {
        radii: [0.4, 0.4, 0.4],
        gravity: [0.0, 0.0, 0.0],
        ..SlideSettings::default()
    }
}

fn pole(x: f64, z: f64, r: f64) -> Cylinder {
    Cylinder::new(DVec3::new(x, 0.0, z), r, 3.0).unwrap()
}

fn radial(
    cyls: &[Cylinder],
    ms: &MethodSettings,
    start: DVec3,
    vel: DVec3,
) -> Result<MethodTrace, MethodError> {
    let empty = Level::from_mesh("empty", TriMesh::default());
    run_with_cylinders(
        Method::Radial,
        empty.world(),
        cyls,
        &probe(),
        ms,
        start,
        vel,
    )
}

fn steps(t: &MethodTrace) -> Vec<&RadialStep> {
    t.iterations
        .iter()
        .filter_map(|s| s.detail.as_radial())
        .collect()
}

#[test]
fn a_slow_walk_into_a_pole_slides_around_it() {
    let cyls = [pole(0.0, 5.0, 0.5)];
    let start = DVec3::new(0.2, 1.0, 0.0);
    let t = radial(&cyls, &MethodSettings::default(), start, DVec3::Z * 10.0).unwrap();
    assert_eq!(t.end_reason, MethodEnd::ArrivedAfterContacts);
    let entered = steps(&t).iter().filter(|s| !s.entered.is_empty()).count();
    assert!(entered >= 3, "pushed out over several steps: {entered}");
    for s in &t.iterations {
        let d = DVec2::new(s.end.x, s.end.z - 5.0).length();
        assert!(d >= 0.9 - 1e-9, "step {} ends {d} m from the axis", s.index);
        assert!(s.detail.as_radial().unwrap().passed_through.is_empty());
    }
    // Slid around the +x side (it started right of the axis) and went on.
    let end = t.final_position;
    assert!(end.z > 9.0 && end.x > 0.5, "{end}");
    assert_eq!(end.y, 1.0, "push-out is horizontal");
    let first = steps(&t)
        .into_iter()
        .find(|s| !s.entered.is_empty())
        .unwrap();
    let hit = first.entered[0];
    assert_eq!(hit.cylinder, 0);
    assert!(hit.depth > 0.0 && hit.depth < 10.0 / 60.0 + 1e-9);
    assert!((hit.push.length() - hit.depth).abs() < 1e-9);
}

#[test]
fn a_pole_above_or_below_the_probe_is_not_met() {
    let high = Cylinder::new(DVec3::new(0.0, 2.0, 5.0), 0.5, 3.0).unwrap();
    let t = radial(
        &[high],
        &MethodSettings::default(),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::Z * 10.0,
    )
    .unwrap();
    assert_eq!(t.end_reason, MethodEnd::Arrived);
    assert_eq!(t.final_position, DVec3::new(0.0, 1.0, 10.0));
}

#[test]
fn a_fast_move_tunnels_under_push_out_but_not_under_the_ellipsoid() {
    let cyls = [pole(0.0, 5.0, 0.5)];
    // 120 m/s at 60 Hz: 2 m steps, more than the 1.8 m of pole and probe.
    let (start, vel) = (DVec3::new(0.0, 1.0, 0.0), DVec3::Z * 120.0);
    let level = level_with_cylinders(&Level::from_mesh("empty", TriMesh::default()), &cyls);
    let ms = MethodSettings::default();
    let (t, cmp) = compare_radial(
        level.world(),
        &cyls,
        &probe(),
        &ms,
        start,
        vel,
        DEFAULT_TOLERANCE_M,
    )
    .unwrap();
    assert_eq!(t.end_reason, MethodEnd::Arrived, "it never saw the pole");
    assert_eq!(t.final_position, start + vel);
    let jumped: Vec<u32> = steps(&t)
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.passed_through.is_empty())
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(jumped, vec![2], "the step from z 4 to z 6 jumped the pole");
    assert_eq!(cmp.passed_through, vec![0]);
    assert!(cmp.disagree);
    // The ellipsoid stops at the prism's face: 5 - 0.5 - 0.4, less its skin.
    let e = cmp.ellipsoid_end;
    assert!((e.z - 4.1).abs() < 0.01 && e.x.abs() < 1e-6, "{e}");
    let s = cmp.sentence();
    assert!(
        s.contains("passed through pole 0") && s.contains("4.09"),
        "{s}"
    );
    // At 60 m/s (1 m steps) a sample lands on the axis (z 5): pushed back
    // to z 4.1; the next lands past it (z 5.1) and is pushed out the far
    // side. At 30 m/s (0.5 m steps) push-out holds the probe in front.
    let (fast, cmp) = compare_radial(
        level.world(),
        &cyls,
        &probe(),
        &ms,
        start,
        vel / 2.0,
        DEFAULT_TOLERANCE_M,
    )
    .unwrap();
    let through: Vec<&Vec<u32>> = steps(&fast).iter().map(|s| &s.pushed_through).collect();
    assert_eq!(through[5], &vec![0], "{through:?}");
    assert_eq!(cmp.passed_through, vec![0]);
    assert!(cmp.disagree && fast.final_position.z > 59.0);
    let (slow, cmp) = compare_radial(
        level.world(),
        &cyls,
        &probe(),
        &ms,
        start,
        vel / 4.0,
        DEFAULT_TOLERANCE_M,
    )
    .unwrap();
    assert!(cmp.passed_through.is_empty());
    assert!(
        (slow.final_position.z - 4.1).abs() < 1e-9,
        "{}",
        slow.final_position
    );
    assert!(!cmp.disagree, "{}", cmp.sentence());
    assert!(cmp.sentence().contains("agree"));
}

#[test]
fn overlapping_poles_cancel_their_pushes_and_leave_the_probe_inside() {
    // Two poles 0.6 m apart, each 0.5 m: their circles (with the probe's
    // 0.4 m) overlap by 1.2 m. A step landing midway gets equal and
    // opposite pushes; their sum is zero, so the probe stays inside both.
    let cyls = [pole(-0.3, 5.0, 0.5), pole(0.3, 5.0, 0.5)];
    let ms = MethodSettings {
        step_hz: 1.0,
        move_seconds: 1.0,
        ..MethodSettings::default()
    };
    let t = radial(&cyls, &ms, DVec3::new(0.0, 1.0, 4.0), DVec3::Z).unwrap();
    let s = steps(&t)[0];
    assert_eq!(s.entered.len(), 2);
    assert!((s.entered[0].push.x - 0.6).abs() < 1e-12);
    assert!((s.entered[1].push.x + 0.6).abs() < 1e-12);
    assert_eq!(s.push_total, DVec3::ZERO);
    assert_eq!(s.inside_after, vec![0, 1]);
    assert_eq!(t.end_reason, MethodEnd::StuckOverlapping);
    // Walking into the notch between them in small steps: each step gets
    // both pushes, added, which pushes it back twice as far as either
    // alone; it never gets past, and stays outside both.
    let t = radial(
        &cyls,
        &MethodSettings::default(),
        DVec3::new(0.0, 1.0, 2.0),
        DVec3::Z * 6.0,
    )
    .unwrap();
    let both = steps(&t)
        .into_iter()
        .filter(|s| s.entered.len() == 2)
        .collect::<Vec<_>>();
    assert!(!both.is_empty());
    for s in &both {
        let sum: DVec3 = s.entered.iter().map(|h| h.push).sum();
        assert_eq!(s.push_total, sum);
        let deepest = s.entered.iter().map(|h| h.depth).fold(0.0, f64::max);
        assert!(s.push_total.length() > deepest, "over-pushed");
    }
    assert!(t.final_position.z < 5.0, "{}", t.final_position);
}

#[test]
fn a_centre_on_the_axis_is_pushed_back_against_its_step() {
    let cyls = [pole(0.0, 1.0, 0.5)];
    let ms = MethodSettings {
        step_hz: 1.0,
        move_seconds: 1.0,
        ..MethodSettings::default()
    };
    let t = radial(&cyls, &ms, DVec3::new(0.0, 1.0, 0.0), DVec3::Z).unwrap();
    assert!((t.final_position - DVec3::new(0.0, 1.0, 0.1)).length() < 1e-12);
    assert_eq!(t.end_reason, MethodEnd::ArrivedAfterContacts);
}

#[test]
fn bad_cylinders_and_too_many_are_refused() {
    let bad = Cylinder {
        base_world: DVec3::ZERO,
        radius: -1.0,
        height: 1.0,
    };
    let e = radial(
        &[pole(0.0, 0.0, 1.0), bad],
        &MethodSettings::default(),
        DVec3::ZERO,
        DVec3::X,
    )
    .unwrap_err();
    assert!(e.0.contains("cylinder 1") && e.0.contains("radius"), "{e}");
    let many = vec![pole(0.0, 0.0, 1.0); crate::level::cylinder::MAX_CYLINDERS + 1];
    let e = radial(&many, &MethodSettings::default(), DVec3::ZERO, DVec3::X).unwrap_err();
    assert!(e.0.contains("limit"), "{e}");
}

/// Up to 16 cylinders, one per 6 m cell of a 4 × 4 grid, each with the
/// probe's radius inside its cell: their circles never overlap.
fn separated_cylinders() -> impl Strategy<Value = (Vec<Cylinder>, f64)> {
    (
        0.05f64..0.6,
        prop::collection::vec(
            (
                0.05f64..2.0,
                -1.0f64..1.0,
                -1.0f64..1.0,
                -2.0f64..2.0,
                0.1f64..4.0,
                any::<bool>(),
            ),
            16,
        ),
    )
        .prop_map(|(probe_r, cells)| {
            let mut out = Vec::new();
            for (i, (r, jx, jz, y, h, used)) in cells.into_iter().enumerate() {
                if !used {
                    continue;
                }
                let room = 3.0 - r - probe_r;
                let cx = (i % 4) as f64 * 6.0 + 3.0 + jx * room;
                let cz = (i / 4) as f64 * 6.0 + 3.0 + jz * room;
                out.push(Cylinder::new(DVec3::new(cx, y, cz), r, h).unwrap());
            }
            (out, probe_r)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn push_out_never_leaves_the_probe_inside_separated_cylinders(
        (cyls, probe_r) in separated_cylinders(),
        start in (-2.0f64..26.0, -1.0f64..3.0, -2.0f64..26.0),
        vel in (-60.0f64..60.0, -2.0f64..2.0, -60.0f64..60.0),
        hz in 1.0f64..120.0,
    ) {
        let settings = SlideSettings { radii: [probe_r, 0.5, probe_r], ..probe() };
        let empty = Level::from_mesh("empty", TriMesh::default());
        let ms = MethodSettings { step_hz: hz, ..MethodSettings::default() };
        let start = DVec3::new(start.0, start.1, start.2);
        let vel = DVec3::new(vel.0, vel.1, vel.2);
        let t = run_with_cylinders(Method::Radial, empty.world(), &cyls, &settings, &ms, start, vel).unwrap();
        let p = RadialProbe::of(&settings);
        for s in &t.iterations {
            prop_assert!(s.end.is_finite());
            let d = s.detail.as_radial().unwrap();
            prop_assert!(d.inside_after.is_empty(), "step {} inside {:?}", s.index, d.inside_after);
            for c in &cyls {
                prop_assert!(!p.is_inside(c, s.end));
            }
        }
        prop_assert!(t.end_reason != MethodEnd::StuckOverlapping);
    }
}

#[test]
fn sliding_round_a_pole_is_not_passing_through_it() {
    // Starting 0.2 m off the axis line, 0.1 m steps: every step after the
    // first push starts on the circle and cuts its curve by a hair.
    let cyls = [pole(0.0, 5.0, 0.5)];
    for x in [0.05, 0.2, 0.5, 0.85] {
        let t = radial(
            &cyls,
            &MethodSettings::default(),
            DVec3::new(x, 1.0, 0.0),
            DVec3::Z * 6.0,
        )
        .unwrap();
        for s in steps(&t) {
            assert!(s.passed_through.is_empty(), "x {x}: {s:?}");
        }
    }
}
