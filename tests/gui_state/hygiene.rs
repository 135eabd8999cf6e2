//! The mesh hygiene analysis in the editor: run in the background, its
//! counts, the kinds drawn, and an item opened from the list.

use super::state_with_room;
use collidoscope::analysis::hygiene::HygieneKind;
use collidoscope::app::hygiene::hygiene_primitives;
use collidoscope::collide::debug_draw::{OverlayKind, Shape};
use std::time::{Duration, Instant};

#[test]
fn the_analysis_finds_the_open_floor_and_an_item_opens_in_the_view() {
    let mut s = state_with_room();
    s.run_hygiene();
    assert!(s.hygiene.running());
    let t = Instant::now();
    while s.poll_hygiene() {
        assert!(t.elapsed() < Duration::from_secs(20), "the analysis hangs");
        std::thread::sleep(Duration::from_millis(5));
    }
    let (report, _) = s.hygiene.report.clone().expect("a report");
    // The floor is one open quad: its four border edges; the boxes are
    // closed. Two stairs' corners at z = 2.8 miss each other by a rounding
    // (2.4 + 0.4 and 2.0 + 0.8 in f32): a real near miss of the fixture.
    assert_eq!(report.count(HygieneKind::OpenEdge), 4, "{report:?}");
    assert_eq!(report.count(HygieneKind::NearMiss), 2, "{report:?}");
    assert_eq!(report.faults, 6, "{report:?}");
    // Faults are drawn and listed at once; information is not.
    assert!(s.hygiene.is_drawn(HygieneKind::OpenEdge));
    assert!(!s.hygiene.is_drawn(HygieneKind::CoplanarEdge));
    assert_eq!(s.hygiene.listed, Some(HygieneKind::OpenEdge));
    let level = s.level.clone().unwrap();
    let prims = hygiene_primitives(&s.hygiene, level.mesh());
    assert_eq!(prims.len(), 6);
    for p in prims
        .iter()
        .filter(|p| !matches!(p.shape, Shape::Point { .. }))
    {
        assert_eq!(p.kind, OverlayKind::MeshHygiene);
        // An open edge of the floor: a segment 20 m long at y = 0.
        let Shape::Segment { a, b } = p.shape else {
            panic!("{p:?}");
        };
        assert!((a.distance(b) - 20.0).abs() < 1e-6 && a.y == 0.0 && b.y == 0.0);
    }
    // Opening an item aims the camera at it and labels it.
    s.open_hygiene_item(HygieneKind::OpenEdge, 2);
    let item = report.kind(HygieneKind::OpenEdge).items[2].clone();
    assert!((s.camera.target.as_dvec3() - item.position).length() < 1e-4);
    let prims = hygiene_primitives(&s.hygiene, level.mesh());
    assert_eq!(prims.len(), 7);
    assert!(
        prims[6]
            .label
            .as_deref()
            .unwrap()
            .starts_with("open edge 20.0000 m")
    );
    // A new level drops it all.
    s.apply(collidoscope::app::command::Command::LevelLoaded(
        super::room(),
    ));
    assert!(s.hygiene.report.is_none() && !s.hygiene.running());
}
