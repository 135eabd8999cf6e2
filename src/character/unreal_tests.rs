//! Scenario tests of the `unreal` profile's floor, perch and step-up
//! rules ([`super::unreal`]) on small generated levels: a ledge, the step
//! course, a steep ramp's crest, beside the other profiles (world space, Y
//! up, metres; the default player's capsule, 0.4 m radius, 1.8 m tall).

use super::*;
use crate::analysis::generate::LevelBuilder;
use crate::analysis::generate::parts::{floor, ramp};
use crate::character::engine_tests::{one_step, one_step_walk_end};
use crate::collide::SlideSettings;
use crate::level::Level;
use glam::{DVec2, DVec3};

/// The ground at y = 0 and a ledge `height` tall over x < 0, its edge
/// along z at x = 0.
fn ledge(height: f64) -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "ground",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(8.0, 5.0), 0.0, 0.5, 2.0),
    );
    b.add(
        "ledge",
        &floor(
            DVec2::new(-5.0, -5.0),
            DVec2::new(0.0, 5.0),
            height,
            height,
            1.0,
        ),
    );
    Level::from_mesh("ledge", b.build())
}

fn settings(engine: EngineProfile) -> SlideSettings {
    let mut s = SlideSettings::default();
    s.character.engine = engine;
    s
}

/// Where a character dropped from just above the ledge's edge, its axis
/// `past_m` beyond the edge, ends after standing still for a second.
fn dropped_on_edge(s: &SlideSettings, height: f64, past_m: f64) -> DVec3 {
    let level = ledge(height);
    let spec = WalkSpec {
        from: DVec3::new(past_m, height + 0.9 + 0.02, 0.0),
        direction: DVec3::ZERO,
        seconds: 1.0,
        jump: false,
    };
    let w = walk(level.world(), s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    w.summary.final_position
}

/// Where a character walking at 1 m/s from 0.7 m before the edge, along
/// +x, for `seconds` (1 s: its axis 0.3 m past the edge), then standing
/// still for a second, ends.
fn walked_to_edge(s: &SlideSettings, height: f64, seconds: f64) -> DVec3 {
    let level = ledge(height);
    let mut s = s.clone();
    s.character.walk_speed_m_s = 1.0;
    let rate = s.character.frame_rate_hz;
    let walking = (seconds * rate).round() as u32;
    let mut state = CharacterState::at(DVec3::new(-0.7, height + 0.9 + 0.01, 0.0));
    for index in 0..walking + rate as u32 {
        let input = CharacterInput {
            wish_dir: if index < walking {
                DVec3::X
            } else {
                DVec3::ZERO
            },
            jump: false,
        };
        let frame = FrameSolver::new(
            level.world(),
            &s,
            &state,
            input,
            index,
            crate::collide::TraceDetail::Summary,
        )
        .expect("frame runs");
        state = frame.finish().after;
    }
    state.position
}

/// Whether the character still stands at the ledge's height.
fn on_ledge(end: DVec3, height: f64) -> bool {
    end.y > height + 0.5
}

#[test]
fn unreal_stands_on_an_edge_its_round_end_hangs_over() {
    // FindFloor judges the floor by the ImpactNormal, the ledge's top:
    // with the axis 0.3 m past the edge the contact's own normal leans
    // asin(0.3 / 0.4) = 49° from up, steeper than 45°, and a controller
    // testing it (Collidoscope's, Rapier's) slides off the edge.
    let unreal = dropped_on_edge(&settings(EngineProfile::Unreal), 1.0, 0.3);
    assert!(on_ledge(unreal, 1.0), "unreal ends at {unreal}");
    // The round end rests on the edge: its lowest point 0.135 m below.
    let rest = 1.0 + 0.9 - (0.4 - (0.16f64 - 0.09).sqrt());
    assert!((unreal.y - rest).abs() < 0.03, "unreal rests at {unreal}");
    for engine in [EngineProfile::Collidoscope, EngineProfile::Rapier] {
        let end = dropped_on_edge(&settings(engine), 1.0, 0.3);
        assert!(!on_ledge(end, 1.0) && end.y < 1.0, "{engine} ends at {end}");
    }
    // Walking off the edge and stopping there, the same.
    let walked = walked_to_edge(&settings(EngineProfile::Unreal), 1.0, 1.0);
    assert!(
        on_ledge(walked, 1.0) && (walked.x - 0.3).abs() < 0.05,
        "unreal walked to {walked}"
    );
    let own = walked_to_edge(&settings(EngineProfile::Collidoscope), 1.0, 1.0);
    assert!(!on_ledge(own, 1.0), "collidoscope walked to {own}");
}

#[test]
fn unreal_falls_once_the_edge_is_at_its_capsules_side() {
    // IsWithinEdgeTolerance: a contact within 0.15 cm of the rim is the
    // capsule's side, no floor. Just inside it stands; just outside it
    // falls; and walking on past the edge it falls (bCanWalkOffLedges).
    let s = settings(EngineProfile::Unreal);
    let inside = dropped_on_edge(&s, 1.0, 0.395);
    assert!(on_ledge(inside, 1.0), "0.395 m past: ends at {inside}");
    let outside = dropped_on_edge(&s, 1.0, 0.3995);
    assert!(outside.y < 1.0, "0.3995 m past: ends at {outside}");
    let walked_on = walked_to_edge(&s, 1.0, 1.6);
    assert!(walked_on.y < 1.0, "walked off to {walked_on}");
}

#[test]
fn a_perch_radius_threshold_drops_the_character_off_a_tall_ledge() {
    // PerchRadiusThreshold 0.2 m: the edge 0.3 m from the axis is beyond
    // the valid perch radius (0.4 - 0.2 m), so ComputePerchResult sweeps a
    // 0.2 m capsule down: a metre of drop is more than MaxStepHeight and
    // PerchAdditionalHeight (0.3 + 0.4 m), so it falls. An edge within
    // 0.2 m of the axis still holds it.
    let mut s = settings(EngineProfile::Unreal);
    s.character.perch_radius_threshold_m = 0.2;
    let dropped = dropped_on_edge(&s, 1.0, 0.3);
    assert!(dropped.y < 1.0, "threshold 0.2: ends at {dropped}");
    let walked = walked_to_edge(&s, 1.0, 1.0);
    assert!(walked.y < 1.0, "threshold 0.2: walked to {walked}");
    let close = dropped_on_edge(&s, 1.0, 0.15);
    assert!(on_ledge(close, 1.0), "edge 0.15 m from the axis: {close}");
}

#[test]
fn perch_additional_height_keeps_a_walking_character_over_a_low_drop() {
    // A 0.5 m ledge: walking, the perch reaches MaxStepHeight,
    // MAX_FLOOR_DIST and PerchAdditionalHeight (0.3 + 0.024 + 0.4 m) below
    // the edge's contact, and finds the ground: the character stays
    // perched. Without the additional height it falls; and a character
    // coming down from the air gets no additional height either.
    let mut s = settings(EngineProfile::Unreal);
    s.character.perch_radius_threshold_m = 0.2;
    let perched = walked_to_edge(&s, 0.5, 1.0);
    assert!(on_ledge(perched, 0.5), "perched walking: {perched}");
    let dropped = dropped_on_edge(&s, 0.5, 0.3);
    assert!(dropped.y < 0.95, "dropped onto the perch: {dropped}");
    s.character.perch_additional_height_m = 0.0;
    let fell = walked_to_edge(&s, 0.5, 1.0);
    assert!(fell.y < 0.95, "no additional height: {fell}");
}

#[test]
fn unreal_climbs_a_step_at_a_crawl_by_perching_on_its_edge() {
    // StepUp moves forward by what is left of the walk only: at 0.3 m/s
    // (5 mm a frame) the capsule comes down with the riser's edge under
    // its round end, too steep by the contact's normal, a floor by the
    // tread's face (IsWalkable on the ImpactNormal) within the edge
    // tolerance; it stands there, and the next frames climb on.
    let level = one_step(0.3);
    let mut s = settings(EngineProfile::Unreal);
    s.character.walk_speed_m_s = 0.3;
    let spec = WalkSpec {
        from: DVec3::new(1.2, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 3.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    let end = w.summary.final_position;
    assert!(end.y > 1.15 && end.x > 2.0, "crawled to {end}");
    assert!(w.summary.steps_taken >= 1);
}

#[test]
fn unreal_refuses_a_step_landing_above_max_step_height() {
    // StepUp rises by the whole MaxStepHeight, so the capsule's round end
    // would ride over a riser a little taller; its "step up height too
    // high" test refuses a landing more than MaxStepHeight above the floor.
    let climbs =
        |riser: f64| one_step_walk_end(&settings(EngineProfile::Unreal), riser).y > riser + 0.8;
    assert!(climbs(0.29));
    assert!(!climbs(0.33));
    assert!(!climbs(0.36));
    // PhysX's climbing mode has no say in Unreal's rule.
    let level = one_step(0.33);
    let mut s = settings(EngineProfile::Unreal);
    s.character.climbing_mode = Some(ClimbingMode::Easy);
    let spec = WalkSpec {
        from: DVec3::new(0.0, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 0.7,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    assert!(
        w.summary.final_position.y < 1.0,
        "climbed with easy climbing"
    );
}

/// The frames of a character walking along +x from `from` for `seconds`.
fn frames(level: &Level, s: &SlideSettings, from: DVec3, seconds: f64) -> Vec<FrameRecord> {
    let mut state = CharacterState::at(from);
    let count = (seconds * s.character.frame_rate_hz).round() as u32;
    let mut out = Vec::new();
    for index in 0..count {
        let input = CharacterInput {
            wish_dir: DVec3::X,
            jump: false,
        };
        let frame = FrameSolver::new(
            level.world(),
            s,
            &state,
            input,
            index,
            crate::collide::TraceDetail::Summary,
        )
        .expect("frame runs")
        .finish();
        state = frame.after;
        out.push(frame);
    }
    out
}

#[test]
fn unreal_steps_down_by_max_step_height_and_two_max_floor_dists() {
    // StepUp's down sweep is MaxStepHeight + 2 MAX_FLOOR_DIST (2.4 cm),
    // whatever the rise.
    let level = one_step(0.2);
    let s = settings(EngineProfile::Unreal);
    let all = frames(&level, &s, DVec3::new(0.0, 0.91, 0.0), 0.7);
    let down = all
        .iter()
        .flat_map(|f| f.iterations.iter())
        .find(|i| i.phase == Phase::StepDown)
        .expect("a step-down");
    let want = 0.3 + 2.0 * unreal::MAX_FLOOR_DIST_M;
    assert!(
        (down.record.velocity.y + want).abs() < 1e-9,
        "stepped down by {}",
        -down.record.velocity.y
    );
}

#[test]
fn unreal_stands_on_the_crest_of_a_steep_ramp_where_others_slide_down() {
    // A 60° ramp's crest is an edge like a ledge's: the capsule with its
    // axis 0.3 m past the top, over the steep face, stands on the crest in
    // Unreal (the landing's face is the flat top); Collidoscope's own
    // slides down the face. A 45° ramp is walked up alike (the envelope).
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(8.0, 5.0), 0.0, 0.5, 2.0),
    );
    // Rises 1.5 m towards +x from x = 0, then a 2 m landing on top.
    b.add(
        "ramp",
        &ramp(DVec3::new(0.0, 0.0, -2.0), 60.0, 1.5, 4.0, 2.0),
    );
    let level = Level::from_mesh("steep ramp", b.build());
    let top_x = 1.5 / 60f64.to_radians().tan();
    let end = |engine| {
        let s = settings(engine);
        let spec = WalkSpec {
            from: DVec3::new(top_x - 0.3, 1.5 + 0.9 + 0.02, 0.0),
            direction: DVec3::ZERO,
            seconds: 1.0,
            jump: false,
        };
        walk(level.world(), &s, &spec, WalkTrace::FramesOnly)
            .expect("walk runs")
            .summary
            .final_position
    };
    let unreal = end(EngineProfile::Unreal);
    assert!(unreal.y > 2.0, "unreal ends at {unreal}");
    let own = end(EngineProfile::Collidoscope);
    assert!(own.y < 2.0, "collidoscope ends at {own}");
}

#[test]
fn perch_settings_read_back_and_refuse_bad_values() {
    let mut s = settings(EngineProfile::Unreal);
    let plain = toml::to_string(&s).unwrap();
    assert!(
        !plain.contains("perch"),
        "defaults are not written: {plain}"
    );
    s.character.perch_radius_threshold_m = 0.15;
    s.character.perch_additional_height_m = 0.25;
    let text = toml::to_string(&s).unwrap();
    let back: SlideSettings = toml::from_str(&text).unwrap();
    assert_eq!(back, s);
    let bad = "[character]\nperch_radius_threshold_m = -1\n";
    let err = toml::from_str::<SlideSettings>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("perch_radius_threshold_m"), "{err}");
    let mut c = CharacterSettings::default();
    assert_eq!(c.perch_radius_threshold_m, 0.0);
    assert_eq!(c.perch_additional_height_m, 0.4);
    c.perch_additional_height_m = f64::NAN;
    assert!(
        c.validate()
            .unwrap_err()
            .contains("perch_additional_height_m")
    );
}
