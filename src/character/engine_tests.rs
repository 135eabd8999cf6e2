//! Scenario tests of the engine profiles on small generated levels: what
//! each controller's own rules say it climbs, walks and fits under
//! (world space, Y up, metres; the default probe 0.8 m wide, 1.8 m tall).

use super::*;
use crate::analysis::generate::LevelBuilder;
use crate::analysis::generate::parts::{Stairs, floor, staircase};
use crate::collide::SlideSettings;
use crate::level::Level;
use glam::{DVec2, DVec3};

/// A floor and one block of height `riser` whose face is at x = 2.
pub(super) fn one_step(riser: f64) -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(15.0, 5.0), 0.0, 0.5, 2.0),
    );
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

fn profile(engine: EngineProfile, step_m: f64) -> SlideSettings {
    let mut s = SlideSettings::default();
    s.character.engine = engine;
    s.character.max_step_height_m = step_m;
    s
}

/// Whether a 0.7 s walk (3.5 m, ending on the 3.6 m block) along +x from standing before the step ends on
/// top of it.
fn climbs(engine: EngineProfile, step_m: f64, riser: f64) -> bool {
    let end = one_step_walk_end(&profile(engine, step_m), riser);
    end.x > 2.3 && end.y > riser + 0.8
}

/// Where a 0.7 s walk along +x from standing before [`one_step`] of
/// `riser` ends, with `s`.
pub(super) fn one_step_walk_end(s: &SlideSettings, riser: f64) -> DVec3 {
    let level = one_step(riser);
    let spec = WalkSpec {
        from: DVec3::new(0.0, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 0.7,
        jump: false,
    };
    let w = walk(level.world(), s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    w.summary.final_position
}

/// The tallest riser of 0.01 m steps up to 0.8 m the profile climbs.
fn tallest(engine: EngineProfile, step_m: f64) -> f64 {
    (1..=80)
        .map(|i| i as f64 * 0.01)
        .take_while(|&h| climbs(engine, step_m, h))
        .last()
        .unwrap_or(0.0)
}

#[test]
fn engine_profiles_walk_a_capsule_as_wide_and_tall_as_the_ellipsoid() {
    let s = profile(EngineProfile::Jolt, 0.3);
    assert_eq!(
        body_shape(&s),
        crate::geometry::shape::CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8
        }
    );
    assert_eq!(
        body_shape(&SlideSettings::default()),
        crate::geometry::shape::CharacterShape::Ellipsoid
    );
    let f = frame_settings(&s);
    assert_eq!(f.mode, crate::collide::SlideMode::Robust);
    assert_eq!(f.half_extents(), s.radii_vec());
}

#[test]
fn jolt_climbs_well_above_its_step_setting_with_a_round_capsule() {
    // jrouwe/JoltPhysics#2036: WalkStairs rises by the whole step, then the
    // capsule's round end rides over the riser's edge. A 0.4 m capsule
    // with a 0.30 m step and Jolt's 50° slope limit climbs a riser well
    // above 0.30 m; Collidoscope's own model stops at its step height.
    let mut jolt = profile(EngineProfile::Jolt, 0.3);
    jolt.character.max_slope_deg = 50.0;
    assert!(climbs(EngineProfile::Jolt, 0.3, 0.28));
    let tallest_jolt = {
        let level_climbs = |riser: f64| {
            let level = one_step(riser);
            let spec = WalkSpec {
                from: DVec3::new(0.0, 0.91, 0.0),
                direction: DVec3::X,
                seconds: 0.7,
                jump: false,
            };
            let w = walk(level.world(), &jolt, &spec, WalkTrace::FramesOnly).unwrap();
            w.summary.final_position.y > riser + 0.8
        };
        (30..=80)
            .map(|i| i as f64 * 0.01)
            .take_while(|&h| level_climbs(h))
            .last()
            .unwrap_or(0.0)
    };
    let rolled = 0.4 * (1.0 - 50f64.to_radians().cos());
    assert!(
        tallest_jolt >= 0.3 + rolled - 0.03,
        "Jolt climbed at most {tallest_jolt} m, expected about {:.2}",
        0.3 + rolled
    );
    let own = tallest(EngineProfile::Collidoscope, 0.3);
    assert!((own - 0.3).abs() <= 0.02, "Collidoscope's own climbs {own}");
}

#[test]
fn godot_has_no_step_up_and_climbs_only_what_the_capsule_rolls_over() {
    // CharacterBody3D::move_and_slide has no step-up: a 0.4 m capsule
    // rolls over 0.4 (1 - cos 45°) = 0.117 m within floor_max_angle.
    let t = tallest(EngineProfile::Godot, 0.3);
    let rolled = 0.4 * (1.0 - 45f64.to_radians().cos());
    assert!(
        t < rolled + 0.02 && t > rolled - 0.04,
        "Godot climbed {t}, the capsule rolls over {rolled:.3}"
    );
}

#[test]
fn unity_and_physx_easy_ride_over_edges_below_the_hemisphere_centre() {
    // PhysX's up pass by stepOffset, then in eEASY climbing mode the side
    // pass slides along the riser's edge with the contact normal as it is
    // (`SweepTest::doSweepTest`): the round end rides up an edge below
    // the hemisphere's centre (stepOffset + radius = 0.70 m above the
    // feet), whatever the slope limit, and the down pass stands on the
    // tread behind it. The peer's PhysX climbs 0.45-0.59 m risers so.
    for engine in [EngineProfile::Unity, EngineProfile::Physx] {
        let t = tallest(engine, 0.3);
        assert!(
            (0.6..0.7).contains(&t),
            "{engine} climbed {t} with stepOffset 0.3, radius 0.4"
        );
        assert!(!climbs(engine, 0.3, 0.72), "{engine}");
    }
}

#[test]
fn unreal_and_collidoscope_climb_exactly_the_step_height() {
    // UCharacterMovementComponent::StepUp refuses an impact higher than
    // MaxStepHeight above the capsule's base.
    for engine in [EngineProfile::Unreal, EngineProfile::Collidoscope] {
        let t = tallest(engine, 0.3);
        assert!((t - 0.3).abs() <= 0.02, "{engine} climbed {t}");
    }
}

#[test]
fn rapier_needs_the_whole_step_height_of_headroom() {
    // handle_stairs casts up by the whole max_height and gives up on a hit.
    // A 0.25 m step under a slab 2.05 m above the floor (room to stand,
    // no room to rise 0.3 m more) is not climbed by Rapier; Jolt rises as
    // far as the room allows and climbs it.
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(15.0, 5.0), 0.0, 0.5, 2.0),
    );
    let stairs = Stairs {
        riser: 0.25,
        tread: 0.6,
        count: 1,
        width: 4.0,
        landing: 3.0,
    };
    b.add("step", &staircase(DVec3::new(2.0, 0.0, -2.0), &stairs));
    b.add(
        "slab",
        // Underside 2.06 m up: 0.01 m over the capsule's head on the step.
        &floor(
            DVec2::new(-5.0, -5.0),
            DVec2::new(15.0, 5.0),
            2.26,
            0.2,
            2.0,
        ),
    );
    let level = Level::from_mesh("low slab", b.build());
    let spec = WalkSpec {
        from: DVec3::new(0.0, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 0.7,
        jump: false,
    };
    let end_y = |engine| {
        let mut s = profile(engine, 0.3);
        // A min_width that carries Rapier's capsule onto the tread.
        s.character.min_tread_depth_m = 0.2;
        walk(level.world(), &s, &spec, WalkTrace::FramesOnly)
            .unwrap()
            .summary
            .final_position
            .y
    };
    assert!(
        end_y(EngineProfile::Rapier) < 1.0,
        "Rapier has no room to rise"
    );
    assert!(
        end_y(EngineProfile::Jolt) > 1.1,
        "Jolt rises as far as it can"
    );
}

#[test]
fn ground_snap_follows_each_engine() {
    // A 0.2 m ledge walked off: Godot's floor_snap_length (0.1 m here)
    // does not reach it, Unreal's floor search by the step height does;
    // PhysX and Unity (on PhysX) have no snap.
    let rules = |e| ControllerRules::of(e);
    let ch = CharacterSettings::default();
    assert_eq!(rules(EngineProfile::Godot).snap_m(&ch), ch.snap_distance_m);
    // PhysX's down pass only takes back its up pass ("Undo our artificial
    // up motion", `SweepTest::moveCharacter`): no snap.
    assert_eq!(rules(EngineProfile::Physx).snap_m(&ch), 0.0);
    assert_eq!(
        rules(EngineProfile::Unreal).snap_m(&ch),
        ch.max_step_height_m
    );
    assert_eq!(rules(EngineProfile::Unity).snap_m(&ch), 0.0);
}

#[test]
fn engine_names_read_back_and_a_bad_one_lists_them() {
    for e in EngineProfile::ALL {
        assert_eq!(e.name().parse::<EngineProfile>(), Ok(e));
    }
    let err = "havok".parse::<EngineProfile>().unwrap_err();
    assert!(err.contains("'havok'") && err.contains("jolt"), "{err}");
    let mut s = SlideSettings::default();
    s.character.engine = EngineProfile::Jolt;
    let text = toml::to_string(&s).unwrap();
    assert!(text.contains("engine = \"jolt\""), "{text}");
    let back: SlideSettings = toml::from_str(&text).unwrap();
    assert_eq!(back, s);
    let plain = toml::to_string(&SlideSettings::default()).unwrap();
    assert!(!plain.contains("engine"), "no profile, nothing written");
}

#[test]
fn every_profile_walks_the_envelope_courses_as_its_rules_say() {
    // The step course, a ramp, a door and a low ceiling per profile (the
    // envelope's generated courses): the slope limit, the width and the
    // height are the capsule's in every profile; the step is the rule's.
    use crate::analysis::envelope::envelope;
    let rolled = 0.4 * (1.0 - 45f64.to_radians().cos());
    for engine in EngineProfile::ALL {
        let s = profile(engine, 0.3);
        let e = envelope(&s).expect("measures");
        let step = e.max_step_height_m.value;
        // Rapier's autostep keeps a step only when `min_width` and the
        // offset carry the capsule over the edge far enough to stand:
        // sqrt(r² - (r - h)²) - r sin 45° at most 0.025 m, h ≤ 0.145 m.
        let rapier = {
            let over = s.character.min_tread_depth_m + s.skin;
            let r: f64 = 0.4;
            let reach = over + r * 45f64.to_radians().sin();
            let h = r - (r * r - reach * reach).sqrt();
            h.max(rolled)
        };
        let want = match ControllerRules::of(engine) {
            r if !r.step_up => rolled,
            r if r.forward == StepForward::MinWidth => rapier,
            // PhysX's eEASY: up to the hemisphere's centre, less a little.
            r if r.climbs_as_physx_easy() => {
                assert!((0.6..0.7).contains(&step), "{engine}: tallest step {step}");
                step
            }
            // Unreal's StepUp refuses a landing above MaxStepHeight.
            r if r.floor == FloorTest::UnrealFaceNormal => 0.3,
            r if r.rise == StepRise::Full => 0.3 + rolled,
            _ => 0.3,
        };
        assert!(
            (step - want).abs() <= 0.012,
            "{engine}: tallest step {step}, rules say {want:.3}"
        );
        let slope = e.max_slope_deg.value;
        assert!((slope - 45.0).abs() <= 0.5, "{engine}: ramp {slope}°");
        let door = e.min_opening_width_m.value;
        assert!(
            door >= 0.8 && door <= 0.8 + 2.0 * s.skin + 0.01,
            "{engine}: narrowest door {door}"
        );
        let ceiling = e.min_opening_height_m.value;
        assert!(
            ceiling >= 1.8 && ceiling <= 1.8 + 2.0 * s.skin + 0.01,
            "{engine}: lowest ceiling {ceiling}"
        );
    }
}

#[test]
fn jolt_steps_up_square_to_a_riser_met_at_an_angle() {
    // CharacterVirtual::ExtendedUpdate (Jolt 5.6.0) turns WalkStairs'
    // step forward and its 0.15 m test square into the steep contact
    // that stopped the walk when it lies within 75° of the walk, and
    // starts them where the walk stopped. Walking at 45° into a 0.30 m
    // riser with a 0.30 m step, Jolt's own character climbs it
    // (peers/jolt); stepping along the walk instead leaves the capsule's
    // round end on the riser's edge, too steep, and the step is refused.
    let level = one_step(0.3);
    let spec = WalkSpec {
        from: DVec3::new(0.5, 0.91, -1.5),
        direction: DVec3::new(1.0, 0.0, 1.0),
        seconds: 0.7,
        jump: false,
    };
    let s = profile(EngineProfile::Jolt, 0.3);
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    let end = w.summary.final_position;
    assert!(end.x > 2.3 && end.y > 1.1, "Jolt climbs at 45°: ends {end}");
    assert!(w.summary.steps_taken >= 1);
}

#[test]
fn rapier_keeps_a_step_only_when_min_width_carries_the_capsule_onto_it() {
    // rapier3d's handle_stairs moves the capsule min_width (plus the
    // offset) over the riser's edge; resting there steeper than the slope
    // limit it slides back off. The export's 2 cm climbs a 0.25 m riser
    // only by the capsule's roll (it does not); 0.2 m climbs it.
    let level = one_step(0.25);
    let spec = WalkSpec {
        from: DVec3::new(0.0, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 0.7,
        jump: false,
    };
    let end_y = |min_width: f64| {
        let mut s = profile(EngineProfile::Rapier, 0.3);
        s.character.min_tread_depth_m = min_width;
        walk(level.world(), &s, &spec, WalkTrace::FramesOnly)
            .unwrap()
            .summary
            .final_position
            .y
    };
    assert!(end_y(0.02) < 1.0, "2 cm: slides back off the edge");
    assert!(end_y(0.2) > 1.1, "20 cm: onto the tread");
    // A riser taller than max_height is refused whatever the width.
    let tall = one_step(0.35);
    let mut s = profile(EngineProfile::Rapier, 0.3);
    s.character.min_tread_depth_m = 0.3;
    let w = walk(tall.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    assert!(w.summary.final_position.y < 1.0);
}

/// A floor and a 60° ramp rising 3 m towards +x from x = 0, 4 m wide.
fn steep_ramp() -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(8.0, 5.0), 0.0, 0.5, 2.0),
    );
    b.add(
        "ramp",
        &crate::analysis::generate::parts::ramp(DVec3::new(0.0, 0.0, -2.0), 60.0, 3.0, 4.0, 1.0),
    );
    Level::from_mesh("steep ramp", b.build())
}

/// Where a character set down on the 60° ramp's face (0.9 m up it) and
/// left standing for 1.5 s ends, with `non_walkable`.
fn left_on_steep_ramp(engine: EngineProfile, non_walkable: Option<NonWalkable>) -> DVec3 {
    let level = steep_ramp();
    let mut s = profile(engine, 0.3);
    s.character.non_walkable = non_walkable;
    // 0.9 m along x is 1.56 m up the face; start a little above it.
    let surface_y = 0.9 * 60f64.to_radians().tan();
    let spec = WalkSpec {
        from: DVec3::new(0.9, surface_y + 1.0, 0.0),
        direction: DVec3::ZERO,
        seconds: 1.5,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    w.summary.final_position
}

#[test]
fn force_sliding_slides_down_a_steep_slope_and_prevent_climbing_stands_on_it() {
    // PhysX `Controller::move`: on a triangle steeper than slopeLimit the
    // move is redone; with ePREVENT_CLIMBING_AND_FORCE_SLIDING only its
    // fall, sliding (the down pass runs MAX_ITER iterations), with
    // ePREVENT_CLIMBING the down pass stops at its first contact.
    let slid = left_on_steep_ramp(
        EngineProfile::Physx,
        Some(NonWalkable::PreventClimbingAndForceSliding),
    );
    assert!(slid.x < 0.5 && slid.y < 1.0, "force sliding ends at {slid}");
    let stood = left_on_steep_ramp(EngineProfile::Physx, Some(NonWalkable::PreventClimbing));
    assert!(
        (stood.x - 0.9).abs() < 0.5 && stood.y > 1.5,
        "prevent climbing ends at {stood}"
    );
    // The profiles' own: PhysX's and Unity's default stands; Collidoscope's
    // own slides.
    for engine in [EngineProfile::Physx, EngineProfile::Unity] {
        assert_eq!(
            ControllerRules::of(engine).non_walkable,
            NonWalkable::PreventClimbing
        );
        assert!(left_on_steep_ramp(engine, None).y > 1.5, "{engine}");
    }
    assert!(left_on_steep_ramp(EngineProfile::Collidoscope, None).y < 1.0);
}

#[test]
fn prevent_climbing_still_refuses_to_walk_up_a_steep_slope() {
    // Standing on the steep face does not let the character walk up it.
    let level = steep_ramp();
    let mut s = profile(EngineProfile::Physx, 0.3);
    s.character.non_walkable = Some(NonWalkable::PreventClimbing);
    let spec = WalkSpec {
        from: DVec3::new(-1.0, 0.91, 0.0),
        direction: DVec3::X,
        seconds: 2.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    let end = w.summary.final_position;
    assert!(
        end.y < 0.91 + 0.3 + 0.2 && end.x < 0.5,
        "walked up to {end}"
    );
}

#[test]
fn constrained_climbing_climbs_no_edge_above_the_step_offset() {
    // PhysX `SweepTest::moveCharacter`: in eCONSTRAINED mode a steep
    // contact higher than stepOffset above the feet cancels the climb; in
    // eEASY the capsule's round end rides over it.
    let climbs_with = |mode: ClimbingMode, riser: f64| {
        let mut s = profile(EngineProfile::Physx, 0.3);
        s.character.climbing_mode = Some(mode);
        one_step_walk_end(&s, riser).y > riser + 0.8
    };
    assert!(climbs_with(ClimbingMode::Easy, 0.36));
    assert!(!climbs_with(ClimbingMode::Constrained, 0.36));
    // Radius 0.4: the 0.50 m edge is below the hemisphere's centre after
    // the 0.30 m rise, so eEASY rides over it; the 0.75 m one is above it.
    assert!(climbs_with(ClimbingMode::Easy, 0.5));
    assert!(!climbs_with(ClimbingMode::Constrained, 0.5));
    assert!(!climbs_with(ClimbingMode::Easy, 0.75));
    assert!(!climbs_with(ClimbingMode::Constrained, 0.75));
    assert!(climbs_with(ClimbingMode::Constrained, 0.28));
    assert_eq!(
        ControllerRules::of(EngineProfile::Physx).climbing,
        ClimbingMode::Easy
    );
}

/// Where a `physx` character with force sliding and `climbing`, set down
/// above a 60° wedge 0.28 m tall (its steep face rising along +x from
/// x = 0 to 0.162, a vertical back) and left standing for 1 s, ends.
fn left_on_low_steep_wedge(climbing: ClimbingMode) -> DVec3 {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(8.0, 5.0), 0.0, 0.5, 2.0),
    );
    b.add(
        "wedge",
        &crate::analysis::generate::parts::ramp(DVec3::new(0.0, 0.0, -2.0), 60.0, 0.28, 4.0, 0.0),
    );
    let level = Level::from_mesh("low steep wedge", b.build());
    let mut s = profile(EngineProfile::Physx, 0.3);
    s.character.non_walkable = Some(NonWalkable::PreventClimbingAndForceSliding);
    s.character.climbing_mode = Some(climbing);
    let spec = WalkSpec {
        // The sphere's centre 0.21 m before the face's foot: it comes
        // down on the face (x 0.14, y 0.24, the feet 0.04 m up), before
        // the floor and below the top edge.
        from: DVec3::new(-0.21, 1.5, 0.0),
        direction: DVec3::ZERO,
        seconds: 1.0,
        jump: false,
    };
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).expect("walk runs");
    w.summary.final_position
}

#[test]
fn easy_climbing_stands_on_a_steep_triangle_whose_top_is_within_the_step_offset() {
    // PhysX `SweepTest::moveCharacter`'s down pass refuses a triangle
    // steeper than slopeLimit only when its top is more than stepOffset
    // above the feet: on a low 60° face the character stands even
    // with force sliding (0.28 m tall here). (Only the eEASY profiles follow the down pass's
    // triangle; the constrained one slides off as before.)
    let stood = left_on_low_steep_wedge(ClimbingMode::Easy);
    let slid = left_on_low_steep_wedge(ClimbingMode::Constrained);
    assert!(slid.y < 0.9 + 0.01, "constrained ends at {slid}");
    assert!(
        stood.y > slid.y + 0.02,
        "easy ends at {stood}, slid to {slid}"
    );
}
