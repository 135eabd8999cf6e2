//! The stuck-spot map in the editor: run in the background, cancelled
//! halfway with the window still working, a level replaced under a run,
//! the heat map's cells, and a spot's worst walk opened in the stepper at
//! the frame where it went wrong.

use collidoscope::analysis::generate::LevelBuilder;
use collidoscope::analysis::generate::parts::{floor, funnel_gap, wall};
use collidoscope::analysis::map::{MapClass, MapOptions, Shard};
use collidoscope::app::command::Command;
use collidoscope::app::map::{class_color, map_primitives, spot_at};
use collidoscope::app::state::EditorState;
use collidoscope::character::{FrameSolver, WalkTrace, walk};
use collidoscope::collide::TraceDetail;
use collidoscope::collide::debug_draw::{OverlayKind, Shape};
use collidoscope::level::Level;
use glam::{DVec2, DVec3};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The slot of the funnel, exactly the default character's width.
const GAP_AT: DVec3 = DVec3::new(6.0, 0.0, 5.0);

/// A walled 10 m room with a funnel whose slot catches the character.
fn funnel_room() -> Arc<Level> {
    let size = 10.0;
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::ZERO, DVec2::splat(size), 0.0, 0.5, 2.0),
    );
    let t = 0.2;
    let mut walls = wall(DVec3::ZERO, size, 2.5, t, None);
    walls.append(&wall(DVec3::new(0.0, 0.0, size - t), size, 2.5, t, None));
    for x in [0.0, size - t] {
        let w = wall(DVec3::ZERO, size - 2.0 * t, 2.5, t, None).turned(3);
        walls.append(&w.translated(DVec3::new(x + t, 0.0, t)));
    }
    b.add("walls", &walls);
    b.add("funnel", &funnel_gap(GAP_AT, 0.8, 1.6, 1.2, 0.2, 2.5));
    Arc::new(Level::from_mesh("funnel room", b.build()))
}

fn options(spacing_m: f64, directions: u32, seconds: f64) -> MapOptions {
    MapOptions {
        spacing_m,
        directions,
        seconds,
        shard: Shard::WHOLE,
        ..MapOptions::default()
    }
}

fn finish(s: &mut EditorState) {
    let t = Instant::now();
    while s.poll_map() {
        assert!(t.elapsed() < Duration::from_secs(120), "the map hangs");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn mapped() -> EditorState {
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(funnel_room()));
    s.apply(Command::SetMapOptions(options(1.0, 4, 1.0)));
    s.apply(Command::RunMap);
    assert!(s.map.running());
    finish(&mut s);
    s
}

#[test]
fn a_map_runs_in_the_background_and_draws_one_cell_per_start_point() {
    let s = mapped();
    let r = s.map.report.clone().expect("a map");
    assert!(s.map.error.is_none() && s.map.cancelled_at.is_none());
    assert!(r.counts.stuck > 0, "the funnel's slot: {:?}", r.counts);
    let total: usize = MapClass::ALL.iter().map(|&c| r.counts.get(c)).sum();
    assert_eq!(total, r.spots.len());
    let status = s.status.clone().unwrap().text;
    assert!(
        status.contains(&format!("{} stuck", r.counts.stuck)),
        "{status}"
    );
    // One floor quad per start point, in its class's colour, on its floor.
    let prims = map_primitives(&s.map);
    assert_eq!(prims.len(), r.spots.len());
    for (p, spot) in prims.iter().zip(&r.spots) {
        assert_eq!(p.kind, OverlayKind::StuckMap);
        assert_eq!(p.color, class_color(spot.class));
        let Shape::PlaneQuad { center, normal, .. } = p.shape else {
            panic!("{p:?}");
        };
        assert_eq!(normal, DVec3::Y);
        assert!(center.y > spot.floor_y && center.y < spot.floor_y + 0.1);
        // A click on the cell finds the spot again.
        let i = spot_at(&r, center - DVec3::Y * 0.03).unwrap();
        assert_eq!(r.spots[i].index, spot.index);
    }
    assert!(
        spot_at(&r, DVec3::new(5.0, 3.0, 5.0)).is_none(),
        "no floor there"
    );
    // The worst spots come first.
    let worst = s.map.worst(10);
    assert!(!worst.is_empty());
    assert!(r.spots[worst[0]].class >= r.spots[*worst.last().unwrap()].class);
}

#[test]
fn a_spot_opens_its_worst_walk_at_the_frame_where_it_went_wrong() {
    let mut s = mapped();
    let r = s.map.report.clone().unwrap();
    let i = (0..r.spots.len())
        .find(|&i| r.spots[i].class == MapClass::Stuck)
        .expect("a stuck spot");
    let spot = r.spots[i].clone();
    let wrong = spot.frame.expect("a stuck walk has its frame") as usize;
    s.apply(Command::OpenMapSpot(i));
    let open = s.map.open.clone().expect("opened");
    assert_eq!(open.spot, i);
    assert_eq!(open.frame, wrong);
    // A probe with the map's character shows that frame, from the state
    // the real walk from the spot's start along its direction had there.
    let probe = s.selected_probe().expect("a probe is selected");
    assert_eq!(probe.settings.radii, r.settings.radii);
    let frame = probe.stepper.frame().expect("a character frame");
    assert_eq!(frame.index as usize, wrong);
    assert_eq!(frame.input.wish_dir, spot.direction);
    let level = s.level.clone().unwrap();
    let spec = collidoscope::app::map::spot_walk_spec(&r, &spot);
    let w = walk(level.world(), &r.settings, &spec, WalkTrace::FramesOnly).unwrap();
    assert_eq!(frame.state, w.frames[wrong].before);
    assert!(
        !probe.stepper.records().is_empty(),
        "its iterations are there to step"
    );
    // Stuck: from that frame on the walk no longer gets anywhere, and it
    // ends at the slot.
    let last = w.frames.last().unwrap().after.position;
    assert!(last.distance(w.frames[wrong].before.position) < 0.1);
    assert!((last - DVec3::new(GAP_AT.x, last.y, GAP_AT.z)).length() < 0.15);
    // The opened frame is the stepper's own solve of that frame.
    let solved = FrameSolver::new(
        level.world(),
        &probe.settings,
        &frame.state,
        frame.input,
        frame.index,
        TraceDetail::Summary,
    )
    .unwrap()
    .finish();
    assert_eq!(solved.after, w.frames[wrong].after);
    // The view marks it; a new level drops the map.
    assert_eq!(map_primitives(&s.map).len(), r.spots.len() + 1);
    s.apply(Command::LevelLoaded(funnel_room()));
    assert!(s.map.report.is_none() && s.map.open.is_none());
}

#[test]
fn a_map_cancelled_halfway_leaves_the_window_working() {
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(funnel_room()));
    // Dense and long: many seconds of work, cancelled part way.
    s.apply(Command::SetMapOptions(options(0.25, 32, 4.0)));
    s.apply(Command::RunMap);
    let t = Instant::now();
    while s.poll_map() && s.map.progress < 0.1 {
        assert!(t.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(s.map.running(), "still running when cancelled");
    s.apply(Command::CancelMap);
    assert!(!s.map.running());
    assert!(s.map.report.is_none());
    let at = s.map.cancelled_at.expect("says it was cancelled");
    assert!((0.1..1.0).contains(&at), "{at}");
    assert!(s.status.clone().unwrap().text.contains("cancelled"));
    assert!(!s.poll_map(), "nothing left to poll");
    // The window goes on: a probe is placed and steps.
    s.apply(Command::PlaceProbe {
        point: DVec3::new(2.0, 0.0, 2.0),
        normal: DVec3::Y,
    });
    assert_eq!(s.probes.len(), 1);
    s.apply(Command::Step);
    assert!(!s.probes[0].stepper.records().is_empty());
    // And a new map runs to its end.
    s.apply(Command::SetMapOptions(options(1.0, 4, 0.5)));
    s.apply(Command::RunMap);
    finish(&mut s);
    assert!(s.map.report.is_some() && s.map.cancelled_at.is_none());
}

#[test]
fn a_map_of_a_level_since_replaced_is_dropped_and_bad_options_say_why() {
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(funnel_room()));
    s.apply(Command::SetMapOptions(options(1.0, 4, 0.5)));
    s.apply(Command::RunMap);
    s.apply(Command::LevelLoaded(funnel_room()));
    assert!(!s.map.running(), "a new level stops the run");
    finish(&mut s);
    assert!(s.map.report.is_none());
    s.apply(Command::SetMapOptions(options(1.0, 0, 0.5)));
    s.apply(Command::RunMap);
    assert!(!s.map.running());
    let e = s.map.error.clone().expect("why");
    assert!(e.contains("directions"), "{e}");
}
