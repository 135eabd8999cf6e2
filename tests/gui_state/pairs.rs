//! "Move all probes together": the pair report kept in the state, its
//! overlays (both moves, the contact point, the closest approach), and the
//! run dropped with the level.

use super::{place, state_with_room};
use collidoscope::app::command::Command;
use collidoscope::app::pairs::pair_primitives;
use collidoscope::app::state::Severity;
use collidoscope::collide::debug_draw::{OverlayKind, Shape};
use glam::DVec3;

#[test]
fn two_probes_crossing_meet_halfway_and_a_third_passes_by() {
    let mut s = state_with_room();
    // Refused with one probe, with a message (the menu entry is disabled too).
    place(&mut s, -4.0, -6.0, DVec3::new(8.0, 0.0, 0.0));
    s.apply(Command::MoveProbesTogether);
    assert!(s.pairs.is_none());
    assert_eq!(s.status.as_ref().unwrap().severity, Severity::Error);
    // Head on along x at z = -6: the bounding spheres (radius 0.9) touch
    // when the centres are 1.8 m apart, 6.2 m of the 8 m gap closed at
    // 16 m per move.
    place(&mut s, 4.0, -6.0, DVec3::new(-8.0, 0.0, 0.0));
    // Crossing their paths at x = 0 from z = -9, 3 m late.
    place(&mut s, 0.0, -9.0, DVec3::new(0.0, 0.0, 2.0));
    s.apply(Command::MoveProbesTogether);
    let view = s.pairs.clone().expect("a pair run");
    let r = &view.report;
    assert_eq!((r.probe_count, r.pair_count, r.colliding_count), (3, 3, 1));
    let ab = r.pairs.iter().find(|p| (p.a, p.b) == (0, 1)).unwrap();
    let c = ab.contact.expect("they meet");
    assert!((c.t - 6.2 / 16.0).abs() < 1e-9, "{}", c.t);
    assert!(c.point.x.abs() < 1e-9 && (c.point.z + 6.0).abs() < 1e-9);
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .text
            .contains("1 of 3 pairs touch")
    );

    let prims = pair_primitives(&view);
    let count = |k: OverlayKind| prims.iter().filter(|p| p.kind == k).count();
    assert_eq!(count(OverlayKind::PairPaths), 3);
    assert_eq!(count(OverlayKind::PairClosest), r.tested_count);
    // One label per pair: at the contact, or at the closest approach.
    let labelled = prims.iter().filter(|p| p.label.is_some()).count();
    assert_eq!(labelled, r.tested_count);
    // The contact point and the centre line at contact.
    assert_eq!(count(OverlayKind::PairContact), 2);
    let contact_point = prims
        .iter()
        .find(|p| p.kind == OverlayKind::PairContact && matches!(p.shape, Shape::Point { .. }))
        .unwrap();
    assert!(
        contact_point
            .label
            .as_ref()
            .unwrap()
            .contains("contact at t = 0.39")
    );
    for p in &prims {
        assert_eq!(p.color, p.kind.color(), "legend and view agree");
    }
    // Every kind has a legend entry and a switch.
    for k in [
        OverlayKind::PairPaths,
        OverlayKind::PairContact,
        OverlayKind::PairClosest,
    ] {
        assert!(OverlayKind::ALL.contains(&k));
        assert!(s.overlays.get(k), "{k:?} on by default");
    }

    s.apply(Command::ClearProbePairs);
    assert!(s.pairs.is_none());
    s.apply(Command::MoveProbesTogether);
    assert!(s.pairs.is_some());
    // A new level drops the run: its probes were placed on the old one.
    s.apply(Command::LevelLoaded(super::room()));
    assert!(s.pairs.is_none());
}
