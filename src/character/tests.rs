//! Scenario tests of the character frame on small generated levels (world
//! space, Y up, metres; the default probe: radii 0.4, 0.9, 0.4).

use super::*;
use crate::analysis::generate::LevelBuilder;
use crate::analysis::generate::parts::{Stairs, floor, ramp, staircase};
use crate::collide::{SlideSettings, TraceDetail};
use crate::level::Level;
use crate::settings_file::{self, SettingsFormat};
use glam::{DVec2, DVec3};
use std::path::Path;

const RY: f64 = 0.9;

fn flat_floor(b: &mut LevelBuilder) {
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(15.0, 5.0), 0.0, 0.5, 2.0),
    );
}

/// A floor and one block of height `riser` whose face is at x = 2.
fn one_step(riser: f64) -> Level {
    let mut b = LevelBuilder::new();
    flat_floor(&mut b);
    let stairs = Stairs {
        riser,
        tread: 0.6,
        count: 1,
        width: 4.0,
        landing: 3.0,
    };
    b.add("step", &staircase(DVec3::new(2.0, 0.0, -2.0), &stairs));
    Level::from_mesh("one step", b.build())
}

fn walk_x(level: &Level, s: &SlideSettings, from: DVec3, seconds: f64) -> Walk {
    let spec = WalkSpec {
        from,
        direction: DVec3::X,
        seconds,
        jump: false,
    };
    walk(level.world(), s, &spec, WalkTrace::Summary).expect("walk runs")
}

fn standing_at(x: f64) -> DVec3 {
    DVec3::new(x, RY + 0.01, 0.0)
}

#[test]
fn a_character_dropped_near_a_floor_settles_on_it_and_stays_grounded() {
    let mut b = LevelBuilder::new();
    flat_floor(&mut b);
    let level = Level::from_mesh("floor", b.build());
    let s = SlideSettings::default();
    let spec = WalkSpec {
        from: DVec3::new(0.0, RY + 0.3, 0.0),
        direction: DVec3::ZERO,
        seconds: 1.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    let last = w.frames.last().unwrap();
    assert!(last.after.grounded);
    assert!((last.after.position.y - RY).abs() < 0.02, "{last:?}");
    // Once down, every later frame is grounded: no flicker.
    let first_grounded = w.frames.iter().position(|f| f.after.grounded).unwrap();
    assert!(w.frames[first_grounded..].iter().all(|f| f.after.grounded));
    assert_eq!(last.after.ground_normal.map(|n| n.y > 0.99), Some(true));
}

#[test]
fn a_step_lower_than_the_step_height_is_climbed_by_a_step_up() {
    let level = one_step(0.2);
    // One second at 5 m/s ends on the block (x from 2 to 5.6).
    let w = walk_x(&level, &SlideSettings::default(), standing_at(0.0), 1.0);
    let end = w.summary.final_position;
    assert!(end.x > 3.0 && end.x < 5.6, "ended at {end}");
    assert!((end.y - (0.2 + RY)).abs() < 0.02, "ended at {end}");
    assert!(w.summary.steps_taken >= 1);
    // The frame that steps lands on the riser's edge and settles onto the
    // tread in the next frames: its rise is a little under the riser.
    let rise = w.summary.tallest_step_m;
    assert!(rise > 0.1 && rise <= 0.2 + 0.006, "{:?}", w.summary);
    assert_eq!(w.summary.last_step_rejection, None, "{:?}", w.summary);
    assert!(w.summary.grounded && w.summary.stalled_at_frame.is_none());
}

#[test]
fn a_step_taller_than_the_step_height_blocks_and_says_why() {
    let level = one_step(0.4);
    let w = walk_x(&level, &SlideSettings::default(), standing_at(0.0), 2.0);
    let s = &w.summary;
    // The riser's edge meets the ellipsoid's curve 0.4 sqrt(1 - (0.5/0.9)^2)
    // = 0.333 m ahead of its centre.
    assert!((s.final_position.x - (2.0 - 0.333)).abs() < 0.01, "{s:?}");
    assert!(s.final_position.y < RY + 0.01, "rose: {s:?}");
    assert!(s.stalled_at_frame.is_some());
    assert_eq!(
        s.last_step_rejection,
        Some(StepRejection::NoWalkableLanding)
    );
    let wall = s.blocked_by.expect("a wall stopped it");
    assert!(wall.normal.x < -0.7, "{wall:?}");
}

#[test]
fn without_a_step_height_only_what_the_walkable_slope_rolls_over_is_climbed() {
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = 0.0;
    // Rolling over an edge at height h touches the ellipsoid where its
    // normal leans acos((1 - h/ry)...) from up; at 45 degrees and radii
    // (0.4, 0.9) that is under 0.078 m (see the envelope's derivation).
    let low = walk_x(&one_step(0.05), &s, standing_at(0.0), 2.0);
    assert!(low.summary.final_position.x > 3.0, "{:?}", low.summary);
    assert_eq!(low.summary.steps_taken, 0);
    let high = walk_x(&one_step(0.12), &s, standing_at(0.0), 2.0);
    assert!(high.summary.final_position.x < 2.0, "{:?}", high.summary);
}

#[test]
fn a_walkable_ramp_is_walked_up_and_a_steep_one_is_a_wall() {
    for (slope, climbs) in [(30.0, true), (60.0, false)] {
        let mut b = LevelBuilder::new();
        flat_floor(&mut b);
        b.add(
            "ramp",
            &ramp(DVec3::new(2.0, 0.0, -2.0), slope, 1.0, 4.0, 3.0),
        );
        let level = Level::from_mesh("ramp", b.build());
        let w = walk_x(&level, &SlideSettings::default(), standing_at(0.0), 3.0);
        // The walk goes on over the landing and off its far end: the top
        // is the highest point reached.
        let highest = w
            .frames
            .iter()
            .map(|f| f.after.position.y)
            .fold(0.0, f64::max);
        let top = highest > 1.0 + RY - 0.05;
        assert_eq!(top, climbs, "{slope} deg: {:?}", w.summary);
        // Standing on a walkable slope does not creep down it.
        assert!(w.frames.iter().all(|f| f.after.position.is_finite()));
    }
}

#[test]
fn walking_down_a_small_ledge_snaps_and_a_tall_one_falls() {
    // Start on top of a block and walk off its far edge.
    for (riser, stays_grounded) in [(0.08, true), (1.0, false)] {
        let level = one_step(riser);
        let s = SlideSettings::default();
        let from = DVec3::new(4.0, riser + RY + 0.01, 0.0);
        let w = walk_x(&level, &s, from, 1.5);
        let off_edge = w.frames.iter().position(|f| f.after.position.x > 5.6);
        let i = off_edge.expect("walks off the block");
        let airborne = w.frames[i..].iter().any(|f| !f.after.grounded);
        assert_eq!(!airborne, stays_grounded, "riser {riser}");
        assert!(w.frames[i..].iter().any(|f| f.snapped) || !stays_grounded);
        let end = w.summary.final_position;
        assert!((end.y - RY).abs() < 0.02 && w.summary.grounded, "{end}");
    }
}

#[test]
fn a_free_fall_follows_the_gravity_acceleration() {
    let level = Level::from_mesh("empty floor far below", {
        let mut b = LevelBuilder::new();
        b.add(
            "floor",
            &floor(DVec2::splat(-2.0), DVec2::splat(2.0), -1000.0, 1.0, 4.0),
        );
        b.build()
    });
    let s = SlideSettings::default();
    let spec = WalkSpec {
        from: DVec3::ZERO,
        direction: DVec3::ZERO,
        seconds: 1.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    // Semi-implicit Euler over N frames drops g t^2 (1 + 1/N) / 2.
    let n = w.frames.len() as f64;
    let expected = 0.5 * 9.81 * (1.0 + 1.0 / n);
    let dropped = -w.summary.final_position.y;
    assert!((dropped - expected).abs() < 1e-6, "{dropped} vs {expected}");
    let speed = w.frames.last().unwrap().after.vertical_speed_m_s;
    assert!((speed + 9.81).abs() < 1e-9, "{speed}");
}

#[test]
fn a_jump_rises_by_the_ballistic_height_and_lands() {
    let mut b = LevelBuilder::new();
    flat_floor(&mut b);
    let level = Level::from_mesh("floor", b.build());
    let s = SlideSettings::default();
    let spec = WalkSpec {
        from: DVec3::new(0.0, RY + 0.005, 0.0),
        direction: DVec3::ZERO,
        seconds: 2.0,
        jump: true,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    let peak = w
        .frames
        .iter()
        .map(|f| f.after.position.y)
        .fold(f64::MIN, f64::max);
    let v: f64 = 4.5;
    let ballistic = v * v / (2.0 * 9.81);
    assert!(
        (peak - RY - ballistic).abs() < 0.06,
        "peak {peak}, expected {ballistic} above rest"
    );
    assert_eq!(w.frames.iter().filter(|f| f.jumped).count(), 1);
    assert!(w.summary.grounded);
}

#[test]
fn a_stepping_frame_runs_its_phases_in_order_and_next_matches_finish() {
    let level = one_step(0.2);
    let s = SlideSettings::default();
    // Stand against the riser's edge: the ellipsoid's curve meets it
    // 0.251 m ahead of the centre at 0.2 m up (x = 0.4 sqrt(1 - (0.7/0.9)^2)).
    let mut state = CharacterState::at(DVec3::new(2.0 - 0.252, RY + 0.005, 0.0));
    state.grounded = true;
    let input = CharacterInput {
        wish_dir: DVec3::X,
        jump: false,
    };
    let stepped: Vec<PhaseIteration> =
        FrameSolver::new(level.world(), &s, &state, input, 0, TraceDetail::Full)
            .unwrap()
            .collect();
    let frame = FrameSolver::new(level.world(), &s, &state, input, 0, TraceDetail::Full)
        .unwrap()
        .finish();
    assert_eq!(stepped, frame.iterations);
    assert!(
        matches!(frame.step, StepOutcome::Stepped { .. }),
        "{frame:?}"
    );
    let mut phases: Vec<Phase> = frame.iterations.iter().map(|i| i.phase).collect();
    phases.dedup();
    assert_eq!(
        &phases[..4],
        &[
            Phase::Velocity,
            Phase::StepUp,
            Phase::StepForward,
            Phase::StepDown
        ]
    );
    assert!(
        phases[4..]
            .iter()
            .all(|p| matches!(p, Phase::Gravity | Phase::Snap))
    );
    assert!(frame.after.grounded);
}

#[test]
fn settings_files_gain_a_character_section_and_old_files_still_load() {
    let s = SlideSettings::default();
    let text = settings_file::to_text(&s, Path::new("a.toml")).unwrap();
    assert!(
        text.contains("[character]") && text.contains("max_step_height_m"),
        "{text}"
    );
    let back = settings_file::parse(&text, SettingsFormat::Toml, Path::new("a.toml")).unwrap();
    assert_eq!(back, s);
    let old = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n";
    let old = settings_file::parse(old, SettingsFormat::Toml, Path::new("old.toml")).unwrap();
    assert_eq!(old.character, CharacterSettings::default());
}

#[test]
fn character_settings_out_of_range_name_the_field() {
    let base = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\n";
    for (line, field) in [
        ("walk_speed_m_s = -1.0", "walk_speed_m_s"),
        ("frame_rate_hz = 0.0", "frame_rate_hz"),
        ("max_slope_deg = 90.0", "max_slope_deg"),
        ("snap_distance_m = nan", "snap_distance_m"),
        ("gravity_m_s2 = 1e300", "gravity_m_s2"),
    ] {
        let text = format!("{base}{line}\n");
        let e = settings_file::parse(&text, SettingsFormat::Toml, Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.toml:4:") && e.contains(field), "{line}: {e}");
    }
    let mut s = SlideSettings::default();
    s.character.max_fall_speed_m_s = 0.0;
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("max_fall_speed_m_s"), "{e}");
}

#[test]
fn a_walk_too_long_or_with_bad_numbers_is_refused() {
    let level = one_step(0.2);
    let s = SlideSettings::default();
    let mut spec = WalkSpec {
        from: standing_at(0.0),
        direction: DVec3::X,
        seconds: 1e9,
        jump: false,
    };
    let long = walk(level.world(), &s, &spec, WalkTrace::FramesOnly);
    assert!(matches!(long, Err(WalkError::TooLong { .. })));
    spec.seconds = f64::NAN;
    assert!(walk(level.world(), &s, &spec, WalkTrace::FramesOnly).is_err());
    spec.seconds = 1.0;
    spec.from.x = f64::INFINITY;
    assert!(walk(level.world(), &s, &spec, WalkTrace::FramesOnly).is_err());
}

#[test]
fn frames_only_walks_record_no_trigger_events_and_move_the_same() {
    // A trigger zone (non-colliding) across the walk.
    let mut b = LevelBuilder::new();
    flat_floor(&mut b);
    b.add(
        "zone",
        &crate::analysis::generate::solid::cuboid(
            DVec3::new(2.0, 0.0, -2.0),
            DVec3::new(3.0, 2.0, 2.0),
        ),
    );
    let level = Level::from_mesh("zone", b.build());
    let flags = [true, false];
    let spec = WalkSpec {
        from: standing_at(0.0),
        direction: DVec3::X,
        seconds: 1.5,
        jump: false,
    };
    let s = SlideSettings::default();
    let world = level.world_with(&flags);
    let summary = walk(world, &s, &spec, WalkTrace::Summary).unwrap();
    let events: usize = summary
        .frames
        .iter()
        .flat_map(|f| &f.iterations)
        .map(|it| it.record.trigger_events.len())
        .sum();
    assert!(events >= 2, "walked into and out of the zone: {events}");
    let frames_only = walk(world, &s, &spec, WalkTrace::FramesOnly).unwrap();
    assert_eq!(frames_only.summary, summary.summary);
    for (a, b) in frames_only.frames.iter().zip(&summary.frames) {
        assert_eq!((a.before, a.after), (b.before, b.after));
    }
    // One frame solver, events off: the same frame with no events.
    let state = CharacterState::at(standing_at(2.4));
    let input = CharacterInput {
        wish_dir: DVec3::X,
        jump: false,
    };
    let frame = |events: bool| {
        FrameSolver::with_trigger_events(world, &s, &state, input, 0, TraceDetail::Summary, events)
            .unwrap()
            .finish()
    };
    let (on, off) = (frame(true), frame(false));
    assert_eq!(on.after, off.after);
    assert!(
        off.iterations
            .iter()
            .all(|it| it.record.trigger_events.is_empty())
    );
}

/// A 20 × 20 m floor and a wall box 0.2 m thick at x = 2 to 2.2, 3 m tall,
/// from z = -5 to 5.
fn wall_box() -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::splat(-10.0), DVec2::splat(10.0), 0.0, 0.5, 20.0),
    );
    b.add(
        "wall",
        &crate::analysis::generate::solid::cuboid(
            DVec3::new(2.0, 0.0, -5.0),
            DVec3::new(2.2, 3.0, 5.0),
        ),
    );
    Level::from_mesh("wall", b.build())
}

#[test]
fn walking_diagonally_along_a_wall_slides_at_the_walk_speed_and_never_steps() {
    let level = wall_box();
    let s = SlideSettings::default();
    let spec = WalkSpec {
        from: DVec3::new(1.0, 0.95, 0.0),
        direction: DVec3::new(1.0, 0.0, 1.0),
        seconds: 1.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::Summary).unwrap();
    let step = 5.0 / 60.0;
    let mut along_wall = 0;
    for f in &w.frames {
        assert!(
            f.ground_moved_m() <= f.ground_allowance_m() + MAX_OVERREACH_M,
            "frame {} moved {} m, allowed {} m: {:?}",
            f.index,
            f.ground_moved_m(),
            f.ground_allowance_m(),
            f.step
        );
        assert!(f.ground_moved_m() <= step + 0.006, "frame {}", f.index);
        assert!(
            !matches!(f.step, StepOutcome::Stepped { .. }),
            "frame {} stepped: {:?}",
            f.index,
            f.step
        );
        if f.wall.is_some() {
            along_wall += 1;
            // Pressed against the wall, sliding along it by the walk's
            // part along the wall (sin 45°).
            let dz = f.after.position.z - f.before.position.z;
            assert!(dz <= step * 0.7072 + 1e-9, "frame {}: {dz}", f.index);
        }
    }
    assert!(along_wall > 40, "{along_wall} frames along the wall");
    // At 5 m/s for 1 s, at most 5 m of progress.
    let p = &w.summary;
    assert!(p.progress_m <= 5.0 * (1.0 + 1e-9), "{p:?}");
    assert_eq!(p.steps_taken, 0);
    assert!((p.final_position.x - 1.595).abs() < 0.005, "{p:?}");
}

#[test]
fn a_restarted_frame_solver_runs_the_same_frames_as_a_new_one_each_frame() {
    // Up a step and off its landing, straight and at an angle, with a
    // jump: every phase, the step-up tried and taken, the clearance's
    // search started from the last frame's triangle.
    let level = one_step(0.25);
    for engine in [EngineProfile::Collidoscope, EngineProfile::Jolt] {
        let mut s = SlideSettings::default();
        s.character.engine = engine;
        for (dir, jump) in [(DVec3::X, false), (DVec3::new(1.0, 0.0, 0.4), true)] {
            let mut state = CharacterState::at(standing_at(0.0));
            let mut kept: Option<FrameSolver> = None;
            for index in 0..150 {
                let input = CharacterInput {
                    wish_dir: dir,
                    jump: jump && index == 40,
                };
                let fresh = FrameSolver::new(
                    level.world(),
                    &s,
                    &state,
                    input,
                    index,
                    TraceDetail::Summary,
                )
                .unwrap()
                .finish();
                if let Some(k) = kept.as_mut() {
                    assert!(k.restart(&state, input, index));
                } else {
                    kept = FrameSolver::new(
                        level.world(),
                        &s,
                        &state,
                        input,
                        index,
                        TraceDetail::Summary,
                    );
                }
                let again = kept.as_mut().unwrap().finish_frame();
                assert_eq!(again, fresh, "{engine:?} frame {index}");
                state = fresh.after;
            }
        }
    }
    // A state that is not finite is refused, as by a new solver.
    let mut solver = FrameSolver::new(
        level.world(),
        &SlideSettings::default(),
        &CharacterState::at(standing_at(0.0)),
        CharacterInput {
            wish_dir: DVec3::X,
            jump: false,
        },
        0,
        TraceDetail::Summary,
    )
    .unwrap();
    let bad = CharacterState::at(DVec3::new(f64::NAN, 0.0, 0.0));
    let input = CharacterInput {
        wish_dir: DVec3::X,
        jump: false,
    };
    assert!(!solver.restart(&bad, input, 1));
    assert!(solver.is_done());
}
