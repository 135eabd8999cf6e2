use super::*;
use crate::geometry::sphere_sphere::SphereMissReason;
use proptest::prelude::*;

fn probe(name: &str, from: [f64; 3], velocity: [f64; 3], radii: [f64; 3]) -> PairProbe {
    PairProbe {
        name: name.into(),
        from: DVec3::from(from),
        velocity: DVec3::from(velocity),
        radii: DVec3::from(radii),
    }
}

#[test]
fn head_on_pair_touches_halfway_at_the_surfaces() {
    // Bounding radii 0.9 each (the default 0.4 x 0.9 x 0.4 probe): centres
    // 10 m apart leave a gap of 8.2 m; closing at 16.4 m per move they
    // touch at t = 0.5, at the midpoint.
    let probes = [
        probe("A", [0.0, 1.0, 0.0], [8.2, 0.0, 0.0], [0.4, 0.9, 0.4]),
        probe("B", [10.0, 1.0, 0.0], [-8.2, 0.0, 0.0], [0.4, 0.9, 0.4]),
    ];
    let report = test_pairs(&probes).unwrap();
    assert_eq!((report.probe_count, report.pair_count), (2, 1));
    assert_eq!((report.tested_count, report.colliding_count), (1, 1));
    let pair = &report.pairs[0];
    let c = pair.contact.expect("they meet");
    assert!((c.t - 0.5).abs() < 1e-12, "{}", c.t);
    assert!((c.point - DVec3::new(5.0, 1.0, 0.0)).length() < 1e-12);
    assert!((c.center_a.x - 4.1).abs() < 1e-12 && (c.center_b.x - 5.9).abs() < 1e-12);
    // They pass through each other: the centres coincide at t = 10/16.4.
    assert!((pair.closest.t - 10.0 / 16.4).abs() < 1e-12);
    assert!(pair.closest.center_distance < 1e-12);
    assert!((pair.closest.gap + 1.8).abs() < 1e-12);
    assert_eq!(pair.contact_distance, 1.8);
}

#[test]
fn passing_pair_reports_its_closest_approach() {
    // B passes 3 m beside A (bounding radii 1 + 1): no contact, the centres
    // are closest when B is level with A.
    let probes = [
        probe("A", [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
        probe("B", [-4.0, 0.0, 3.0], [8.0, 0.0, 0.0], [0.5, 1.0, 0.5]),
    ];
    let pair = test_pair(&probes, 0, 1);
    assert_eq!(
        pair.outcome,
        SphereSweepOutcome::Miss {
            reason: SphereMissReason::PassBy
        }
    );
    assert!(pair.contact.is_none());
    assert!((pair.closest.t - 0.5).abs() < 1e-15);
    assert!((pair.closest.center_distance - 3.0).abs() < 1e-15);
    assert!((pair.closest.gap - 1.0).abs() < 1e-15);
    assert_eq!(pair.closest.center_b, DVec3::new(0.0, 0.0, 3.0));
}

#[test]
fn overlapping_and_parallel_pairs() {
    // Start inside each other: contact at t = 0, point in the overlap's middle.
    let probes = [
        probe("A", [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
        probe("B", [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
    ];
    let pair = test_pair(&probes, 0, 1);
    assert_eq!(pair.outcome, SphereSweepOutcome::Overlapping);
    let c = pair.contact.unwrap();
    assert_eq!(c.t, 0.0);
    assert!((c.point - DVec3::new(0.5, 0.0, 0.0)).length() < 1e-15);
    // Same velocity: no relative motion, closest at t = 0.
    assert_eq!(pair.closest.t, 0.0);
    assert_eq!(pair.closest.center_distance, 1.0);
    // Coincident centres still give a finite contact point.
    let same = [probes[0].clone(), probes[0].clone()];
    let c = test_pair(&same, 0, 1).contact.unwrap();
    assert!(c.point.is_finite());
}

#[test]
fn bad_probes_are_refused_with_their_index_and_name() {
    let good = probe("A", [0.0; 3], [1.0, 0.0, 0.0], [0.4, 0.9, 0.4]);
    let nan = probe("Nan", [f64::NAN, 0.0, 0.0], [0.0; 3], [0.4, 0.9, 0.4]);
    let err = test_pairs(&[good.clone(), nan]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "probe 1 ('Nan'): a value is not a finite number"
    );
    let flat = probe("Flat", [0.0; 3], [0.0; 3], [0.4, 0.0, 0.4]);
    assert!(matches!(
        test_pairs(&[flat, good.clone()]),
        Err(PairsError::BadProbe { index: 0, .. })
    ));
    let far = probe("Far", [1e13, 0.0, 0.0], [0.0; 3], [0.4, 0.9, 0.4]);
    assert!(test_pairs(&[good, far]).is_err());
    assert_eq!(test_pairs(&[]).unwrap().pair_count, 0);
}

#[test]
fn broad_phase_skips_far_apart_probes() {
    // A row of 1000 parked probes 10 m apart: no x extents overlap.
    let probes: Vec<PairProbe> = (0..1000)
        .map(|i| probe("p", [i as f64 * 10.0, 0.0, 0.0], [0.0; 3], [1.0; 3]))
        .collect();
    let report = test_pairs(&probes).unwrap();
    assert_eq!(report.pair_count, 499_500);
    assert_eq!(report.tested_count, 0);
    // Each moving 9 m towards the next: every neighbour pair is tested and meets.
    let moving: Vec<PairProbe> = (0..1000)
        .map(|i| {
            let v = if i % 2 == 0 { 4.5 } else { -4.5 };
            probe("p", [i as f64 * 10.0, 0.0, 0.0], [v, 0.0, 0.0], [1.0; 3])
        })
        .collect();
    let report = test_pairs(&moving).unwrap();
    assert_eq!(report.colliding_count, 500);
    assert!(report.tested_count < 2000, "{}", report.tested_count);
}

#[test]
fn densely_packed_probes_stop_with_a_clear_limit() {
    let probes: Vec<PairProbe> = (0..2100)
        .map(|i| probe("p", [0.0, i as f64, 0.0], [0.0; 3], [1.0; 3]))
        .collect();
    assert_eq!(test_pairs(&probes).unwrap_err(), PairsError::TooManyPairs);
}

fn arb_probe() -> impl Strategy<Value = PairProbe> {
    let v = |s: f64| (-s..s, -s..s, -s..s).prop_map(DVec3::from);
    (v(20.0), v(10.0), (0.1..2.0f64, 0.1..2.0f64, 0.1..2.0f64)).prop_map(|(from, velocity, r)| {
        PairProbe {
            name: "p".into(),
            from,
            velocity,
            radii: DVec3::from(r),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The broad phase drops no pair the exhaustive loop finds touching,
    /// and every pair it drops is one whose x extents are apart.
    #[test]
    fn broad_phase_keeps_every_meeting_pair(probes in prop::collection::vec(arb_probe(), 0..30)) {
        let kept = broad_phase_x(&probes).unwrap();
        for a in 0..probes.len() {
            for b in a + 1..probes.len() {
                let in_kept = kept.binary_search(&(a, b)).is_ok();
                if test_pair(&probes, a, b).collides() {
                    prop_assert!(in_kept, "pair ({a}, {b}) meets but was dropped");
                }
                let (ea, eb) = (x_extent(&probes[a]), x_extent(&probes[b]));
                let overlap = ea.0 <= eb.1 && eb.0 <= ea.1;
                prop_assert_eq!(in_kept, overlap);
            }
        }
    }

    /// The closest approach is no farther than any sampled moment, and a
    /// pair collides exactly when the closest gap is not positive.
    #[test]
    fn closest_approach_is_the_minimum(a in arb_probe(), b in arb_probe()) {
        let probes = [a, b];
        let pair = test_pair(&probes, 0, 1);
        for i in 0..=200 {
            let t = i as f64 / 200.0;
            let d = probes[0].center_at(t).distance(probes[1].center_at(t));
            prop_assert!(pair.closest.center_distance <= d + 1e-9);
        }
        if pair.closest.gap < -1e-9 {
            prop_assert!(pair.collides());
        }
        if pair.closest.gap > 1e-9 {
            prop_assert!(!pair.collides());
        }
        if let Some(c) = pair.contact {
            prop_assert!(c.point.is_finite() && (0.0..=1.0).contains(&c.t));
        }
    }
}
