use super::*;
use crate::character::StepRejection;
use crate::collide::{SlideSettings, TraceDetail, slide};
use crate::level::Level;
use crate::mesh::MeshBuilder;
use glam::Vec3;

/// A floor at y = 0 and a wall whose face is at x = 3.
fn room() -> Level {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(-10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, -10.0),
    );
    b.object("wall")
        .cuboid(Vec3::new(3.0, 0.0, -5.0), Vec3::new(3.5, 3.0, 5.0));
    Level::from_mesh("room", b.build())
}

fn run(level: &Level, radius: f64) -> Outcome {
    let s = SlideSettings {
        radii: [radius, 0.9, radius],
        ..SlideSettings::default()
    };
    let start = DVec3::new(0.0, 1.0, 0.0);
    let r = slide(
        level.world(),
        &s,
        start,
        DVec3::new(2.0, 0.0, 0.0),
        TraceDetail::Summary,
    )
    .unwrap();
    Outcome::of_move(start, &r)
}

fn frame(rise: f64, grounded: bool, step: StepOutcome, wall: Option<u32>) -> Outcome {
    Outcome {
        path_w: vec![DVec3::ZERO, DVec3::new(0.1, rise, 0.0)],
        ending: Ending::Frame {
            step,
            grounded,
            wall,
        },
        embedded: false,
    }
}

#[test]
fn wider_radii_against_a_wall_now_stop_and_the_end_moves() {
    let level = room();
    let slim = run(&level, 0.4);
    let wide = run(&level, 1.5);
    assert_eq!(slim.ending, Ending::Move(EndReason::Arrived));
    assert!((slim.end_w().x - 2.0).abs() < 1e-9, "{:?}", slim.end_w());
    assert!(!wide.ending.arrives(), "{:?}", wide.ending);
    // The wide probe stops with its side a skin from the wall.
    assert!(wide.end_w().x < 1.5 + 1e-6, "{:?}", wide.end_w());
    let f = flips(&slim, &wide);
    assert_eq!(f[0], Flip::NowStops);
    let moved = match f.last() {
        Some(Flip::EndMoved { distance_m }) => *distance_m,
        other => panic!("no end moved: {other:?}"),
    };
    assert!((moved - slim.end_w().distance(wide.end_w())).abs() < 1e-12);
    let back = flips(&wide, &slim);
    assert_eq!(back[0], Flip::NowArrives);
    let text = sentence(&back);
    assert!(text.starts_with("now arrives; end moved by "), "{text}");
}

#[test]
fn the_same_outcome_flips_nothing() {
    let level = room();
    let a = run(&level, 0.4);
    assert!(flips(&a, &a).is_empty());
    assert!(sentence(&[]).starts_with("nothing flipped"));
}

#[test]
fn a_character_that_now_stands_higher_reaches_the_higher_floor() {
    let refused = StepOutcome::Rejected {
        reason: StepRejection::NoWalkableLanding,
    };
    let stepped = StepOutcome::Stepped {
        height_m: 0.3,
        riser_m: 0.3,
    };
    let before = frame(0.0, true, refused, Some(7));
    let after = frame(0.3, true, stepped, None);
    let f = flips(&before, &after);
    assert_eq!(f[0], Flip::NowArrives);
    assert!(f.contains(&Flip::NowClimbs {
        rise_m: 0.3,
        character: true
    }));
    assert!(sentence(&f).contains("now reaches the higher floor (0.300 m up)"));
    let f = flips(&after, &before);
    assert!(f.contains(&Flip::NoLongerClimbs { character: true }));
    assert!(sentence(&f).contains("no longer reaches the higher floor"));
    // Up in the air (a jump) is not a higher floor.
    let jumping = frame(0.3, false, StepOutcome::NotTried, None);
    assert!(!jumping.climbs());
}

#[test]
fn a_changed_end_reason_and_an_end_inside_geometry_are_named() {
    let mut before = Outcome {
        path_w: vec![DVec3::ZERO, DVec3::X],
        ending: Ending::Move(EndReason::TooShort),
        embedded: false,
    };
    let mut after = before.clone();
    after.ending = Ending::Move(EndReason::IterationCap);
    after.embedded = true;
    let f = flips(&before, &after);
    assert_eq!(
        f,
        vec![
            Flip::Ending {
                before: "stopped, the motion left too short".into(),
                after: "stopped at the iteration limit".into()
            },
            Flip::NowInsideGeometry
        ]
    );
    before.embedded = true;
    after.embedded = false;
    assert!(flips(&before, &after).contains(&Flip::NoLongerInsideGeometry));
    // Climbing on a raw move: the end rises a centimetre or more.
    after.path_w[1].y = CLIMB_TOLERANCE_M;
    assert!(after.climbs());
    assert!(sentence(&flips(&before, &after)).contains("now climbs (0.010 m up)"));
}
