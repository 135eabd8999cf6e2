//! One built level for each kind of mess real game levels have, with the
//! findings and verdicts written down before running the checks: risers
//! at 45 and 26.6 degrees to the grid, a flight under a two-sided water
//! sheet, game-size doorways, the fake gap under a ramp, a niche just
//! beyond a low ceiling, a riser with no room to stand before it, and a whole
//! level wound inside out. Default character (radii 0.4, 0.9, 0.4 m; step
//! 0.3 m; 45 degrees).

use super::*;
use crate::analysis::features::FeatureKind;
use crate::analysis::generate::parts::{Door, Stairs, floor, staircase, wall};
use crate::analysis::generate::solid::cuboid;
use crate::analysis::generate::{LevelBuilder, Solid, default_level};
use crate::mesh::TriMesh;
use glam::{DVec2, DVec3};

fn run_with(level: &Level, world: CollisionWorld<'_>, settings: &SlideSettings) -> CheckReport {
    check_level(level, world, settings, &|_| {}, &AtomicBool::new(false))
        .expect("valid settings and a floor")
        .expect("not cancelled")
}

fn run_in(level: &Level, world: CollisionWorld<'_>) -> CheckReport {
    run_with(level, world, &SlideSettings::default())
}

fn run(level: &Level) -> CheckReport {
    run_in(level, level.world())
}

/// A 30 x 30 m floor (top at y = 0) with `parts`.
fn level_of(parts: &[(&str, Solid)]) -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::splat(-15.0), DVec2::splat(15.0), 0.0, 0.3, 3.0),
    );
    for (name, solid) in parts {
        b.add(*name, solid);
    }
    Level::from_mesh("scenario", b.build())
}

const FLIGHT: Stairs = Stairs {
    riser: 0.15,
    tread: 0.35,
    count: 5,
    width: 3.0,
    landing: 1.5,
};

/// Five 0.15 m risers turned `angle_deg` from +x about (0, 0, 0).
fn turned_flight(angle_deg: f64) -> Solid {
    staircase(DVec3::new(0.0, 0.0, -1.5), &FLIGHT).rotated_y(angle_deg.to_radians(), DVec3::ZERO)
}

fn steps(report: &CheckReport) -> Vec<&Finding> {
    report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Step)
        .collect()
}

/// A flight at `angle_deg` to the grid: one finding per riser, measured
/// along the riser's normal, all one staircase, all climbed; the side
/// faces of its blocks are no steps.
fn a_turned_flight_is_one_finding_per_riser(angle_deg: f64) {
    let level = level_of(&[("flight", turned_flight(angle_deg))]);
    let report = run(&level);
    let climb = DVec3::new(
        angle_deg.to_radians().cos(),
        0.0,
        -angle_deg.to_radians().sin(),
    );
    let risers: Vec<&Finding> = steps(&report)
        .into_iter()
        .filter(|f| f.feature.direction.dot(climb) > 0.95)
        .collect();
    let rows: Vec<String> = steps(&report)
        .iter()
        .map(|f| {
            format!(
                "{:?} {:?} {}",
                f.feature.position, f.feature.direction, f.reason
            )
        })
        .collect();
    assert_eq!(risers.len(), 5, "one finding per riser: {rows:#?}");
    let flight = risers[0].feature.flight;
    assert!(flight.is_some(), "the risers are a staircase");
    for f in &risers {
        assert_eq!(f.feature.flight, flight, "one staircase");
        assert!(
            (f.feature.riser_height_m.unwrap() - 0.15).abs() < 0.01,
            "{f:?}"
        );
        // The whole 3 m riser, measured along it.
        assert!((f.feature.extent_m - 3.0).abs() < 0.3, "{:?}", f.feature);
        assert_eq!(f.verdict, Verdict::Climbs, "{}", f.reason);
    }
    // Treads measured along the normal: 0.35 m, the top one 0.35 + 1.5 m.
    let mut treads: Vec<f64> = risers
        .iter()
        .map(|f| f.feature.tread_depth_m.unwrap())
        .collect();
    treads.sort_by(f64::total_cmp);
    for t in &treads[..4] {
        assert!((t - 0.35).abs() < 0.03, "treads {treads:?}");
    }
    assert!((treads[4] - 1.85).abs() < 0.05, "treads {treads:?}");
    // Every other step finding is the landing's side or back (0.75 m high),
    // not the side of a step of the flight.
    for f in steps(&report) {
        if f.feature.direction.dot(climb) <= 0.95 {
            assert!(f.feature.riser_height_m.unwrap() > 0.7, "{f:?}");
        }
    }
}

#[test]
fn a_flight_at_45_degrees_is_one_finding_per_riser() {
    a_turned_flight_is_one_finding_per_riser(45.0);
}

#[test]
fn a_flight_at_26_6_degrees_is_one_finding_per_riser() {
    a_turned_flight_is_one_finding_per_riser(0.5f64.atan().to_degrees());
}

/// Two triangles each way over the square from `min` to `max` at `y`:
/// a liquid sheet as a BSP compiler writes it, both sides.
fn sheet(min: DVec2, max: DVec2, y: f64) -> Solid {
    let p = |x: f64, z: f64| DVec3::new(x, y, z);
    Solid {
        positions: vec![
            p(min.x, min.y),
            p(max.x, min.y),
            p(max.x, max.y),
            p(min.x, max.y),
        ],
        triangles: vec![[0, 2, 1], [0, 3, 2], [0, 1, 2], [0, 2, 3]],
    }
}

#[test]
fn a_flight_under_a_non_colliding_water_sheet_is_checked_as_if_it_were_dry() {
    let flight = staircase(DVec3::new(0.0, 0.0, -1.5), &FLIGHT);
    let water = sheet(DVec2::new(-3.0, -3.0), DVec2::new(4.0, 3.0), 0.5);
    let dry = run(&level_of(&[("flight", flight.clone())]));
    let level = level_of(&[("flight", flight), ("*water1", water)]);
    let mut colliding = vec![true; level.mesh.objects.len()];
    let (named, n, _) = crate::collide::objects_named(&level.mesh, &["*water*".into()]);
    assert_eq!(n, 1);
    for (c, w) in colliding.iter_mut().zip(named) {
        *c = !w;
    }
    let wet = run_in(&level, level.world_with(&colliding));
    let key = |r: &CheckReport| -> Vec<(FeatureKind, Verdict, [i64; 3])> {
        r.findings
            .iter()
            .map(|f| {
                let p = f.feature.position * 100.0;
                (
                    f.feature.kind,
                    f.verdict,
                    [p.x, p.y, p.z].map(|v| v.round() as i64),
                )
            })
            .collect()
    };
    assert_eq!(key(&wet), key(&dry), "the water changes nothing");
    assert!(
        wet.findings
            .iter()
            .all(|f| f.feature.object.as_deref() != Some("*water1"))
    );
    // Solid water is a floor half a metre up: the risers under it are
    // walked on from the water's surface, never climbed from their floor.
    let solid = run(&level);
    let climbed_under = solid
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Step && f.feature.position.y < 0.45)
        .filter(|f| f.verdict == Verdict::Climbs)
        .count();
    assert_eq!(climbed_under, 0, "nothing under solid water is climbed");
}

fn doorway(width: f64, height: f64) -> (Level, CheckReport) {
    doorway_with(width, height, &SlideSettings::default())
}

fn doorway_with(width: f64, height: f64, settings: &SlideSettings) -> (Level, CheckReport) {
    let door = Door {
        offset: 3.0,
        width,
        height,
    };
    let level = level_of(&[(
        "wall",
        wall(
            DVec3::new(-5.0, 0.0, 2.0),
            12.0,
            height + 1.5,
            0.2,
            Some(door),
        ),
    )]);
    let report = check_level(
        &level,
        level.world(),
        settings,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("valid settings and a floor")
    .expect("not cancelled");
    (level, report)
}

#[test]
fn game_size_doorways_are_found_measured_and_passed() {
    for (w, h) in [(3.25, 3.25), (4.5, 4.0)] {
        let (_, report) = doorway(w, h);
        let openings: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.feature.kind == FeatureKind::Opening)
            .collect();
        assert_eq!(openings.len(), 1, "{w} x {h}: {openings:#?}");
        let f = openings[0];
        assert!(
            (f.feature.width_m.unwrap() - w).abs() < 0.02,
            "{:?}",
            f.feature
        );
        assert!(
            (f.feature.height_m.unwrap() - h).abs() < 0.02,
            "{:?}",
            f.feature
        );
        assert_eq!(f.verdict, Verdict::Passes, "{}", f.reason);
        // Passed between the jambs, at the floor's level.
        let centre_x = -5.0 + 3.0 + 0.5 * w;
        assert!(
            (f.feature.position.x - centre_x).abs() < 0.2,
            "{:?}",
            f.feature
        );
    }
}

#[test]
fn the_gap_under_a_ramp_between_two_walls_is_no_door() {
    // Two walls 3 m apart and a slab rising 20 degrees between them, from
    // the floor up to 2.5 m: under its high end, walls both sides and a
    // sloped "lintel" over walkable floor.
    let rise = 20f64.to_radians().tan();
    let mut slab = cuboid(DVec3::new(0.0, 0.0, 0.0), DVec3::new(6.87, 0.2, 3.0));
    for p in &mut slab.positions {
        p.y += p.x * rise;
    }
    let level = level_of(&[
        (
            "wall_a",
            cuboid(DVec3::new(-1.0, 0.0, -0.2), DVec3::new(8.0, 3.5, 0.0)),
        ),
        (
            "wall_b",
            cuboid(DVec3::new(-1.0, 0.0, 3.0), DVec3::new(8.0, 3.5, 3.2)),
        ),
        ("ramp", slab),
    ]);
    let report = run(&level);
    let openings: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Opening)
        .collect();
    assert!(openings.is_empty(), "{openings:#?}");
}

#[test]
fn a_niche_just_beyond_a_ceiling_is_no_stall() {
    // A 2.1 m ceiling slab over a 2 m deep alcove whose back wall is 0.1 m
    // beyond the slab's far edge.
    let level = level_of(&[
        (
            "slab",
            cuboid(DVec3::new(0.0, 2.1, 0.0), DVec3::new(3.0, 2.4, 2.0)),
        ),
        (
            "back",
            cuboid(DVec3::new(-0.5, 0.0, 2.1), DVec3::new(3.5, 3.0, 2.4)),
        ),
        (
            "side_a",
            cuboid(DVec3::new(-0.5, 0.0, 0.0), DVec3::new(0.0, 3.0, 2.1)),
        ),
        (
            "side_b",
            cuboid(DVec3::new(3.0, 0.0, 0.0), DVec3::new(3.5, 3.0, 2.1)),
        ),
    ]);
    let report = run(&level);
    for f in &report.findings {
        assert_ne!(f.verdict, Verdict::Stalls, "{f:#?}");
    }
    let ceilings: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Ceiling)
        .collect();
    assert!(!ceilings.is_empty());
    assert!(
        ceilings.iter().all(|f| f.verdict == Verdict::Passes),
        "{ceilings:#?}"
    );
}

#[test]
fn a_riser_with_no_room_before_it_is_untested_and_never_fails() {
    // A 0.2 m riser whose lower floor runs under a roof 1.0 m up: nobody
    // 1.8 m tall stands there to walk at it. (A ledge too shallow to stand
    // on is no such case: a round body perches on its edge.)
    let level = level_of(&[
        (
            "roof",
            cuboid(DVec3::new(-3.0, 1.0, -3.0), DVec3::new(0.3, 1.3, 3.0)),
        ),
        (
            "upper",
            cuboid(DVec3::new(0.3, 0.0, -3.0), DVec3::new(5.0, 0.2, 3.0)),
        ),
    ]);
    let report = run(&level);
    let riser = report
        .findings
        .iter()
        .find(|f| {
            f.feature.kind == FeatureKind::Step
                && (f.feature.riser_height_m.unwrap() - 0.2).abs() < 0.02
                && f.feature.direction.x > 0.9
        })
        .expect("the 0.2 m riser");
    assert_eq!(riser.verdict, Verdict::Untested, "{}", riser.reason);
    assert!(
        riser.reason.contains("no room to stand"),
        "{}",
        riser.reason
    );
    assert!(riser.walks.iter().all(|w| w.untested.is_some()));
    assert!(!riser.verdict.is_failure());
    let untested = report
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Untested)
        .count();
    assert_eq!(report.counts.untested, untested);
}

#[test]
fn a_level_wound_inside_out_gives_the_same_findings() {
    let right = default_level();
    let flipped = {
        let tris: Vec<[u32; 3]> = right.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let objects = right
            .objects
            .iter()
            .map(|o| (o.name.clone(), o.triangle_count))
            .collect();
        TriMesh::new(right.positions.clone(), tris, objects)
    };
    let a = run(&Level::from_mesh("right", right));
    let b = run(&Level::from_mesh("inside out", flipped));
    assert!(!a.inside_out);
    assert!(b.inside_out, "the inside-out level is reported");
    assert_eq!(a.findings.len(), b.findings.len());
    assert_eq!(a.counts, b.counts);
    // The same finding for each (their order may differ where positions
    // tie to the last bit: the flipped triangles' normals are computed
    // from other corners).
    for x in &a.findings {
        let twin = b.findings.iter().find(|y| {
            y.feature.kind == x.feature.kind
                && y.verdict == x.verdict
                && (x.feature.position - y.feature.position).length() < 0.05
        });
        assert!(twin.is_some(), "no twin for {:?}", x.feature);
    }
}

#[test]
fn a_verdict_a_centimetre_from_the_limit_is_marginal() {
    let flight = |riser: f64| {
        staircase(
            DVec3::new(0.0, 0.0, -1.5),
            &Stairs {
                riser,
                tread: 0.6,
                count: 1,
                width: 3.0,
                landing: 1.0,
            },
        )
    };
    for (riser, marginal) in [(0.30, true), (0.2, false), (0.312, true), (0.33, false)] {
        let report = run(&level_of(&[("step", flight(riser))]));
        let f = steps(&report)
            .into_iter()
            .find(|f| f.feature.direction.x > 0.9)
            .expect("the riser");
        assert_eq!(
            f.marginal.is_some(),
            marginal,
            "riser {riser}: {:?}",
            f.marginal
        );
    }
}

#[test]
fn wider_doors_are_openings_when_the_settings_say_so() {
    let openings = |r: &CheckReport| {
        r.findings
            .iter()
            .filter(|f| f.feature.kind == FeatureKind::Opening)
            .count()
    };
    // A 7 m gate is wider than the default 6 m limit: just floor.
    let (_, plain) = doorway(7.0, 4.0);
    assert_eq!(openings(&plain), 0);
    let mut wide = SlideSettings::default();
    wide.level.max_opening_width_m = 8.0;
    let (_, report) = doorway_with(7.0, 4.0, &wide);
    assert_eq!(openings(&report), 1);
    let gate = report
        .findings
        .iter()
        .find(|f| f.feature.kind == FeatureKind::Opening)
        .unwrap();
    assert!((gate.feature.width_m.unwrap() - 7.0).abs() < 0.02);
    assert_eq!(gate.verdict, Verdict::Passes, "{}", gate.reason);
    // Limits out of range are refused, naming the field.
    for bad in [0.0, -1.0, f64::NAN, 1e9] {
        let mut s = SlideSettings::default();
        s.level.max_opening_height_m = bad;
        let e = s.validate().unwrap_err().to_string();
        assert!(e.contains("level.max_opening_height_m"), "{e}");
    }
}

#[test]
fn a_low_ceiling_over_a_cornice_nobody_stands_on_is_not_listed() {
    // A 0.3 m deep cornice 3 m up a wall, with a 1.2 m gap under a
    // moulding above it: walkable, low, and no body fits on it. The same
    // 1.2 m gap over a 3 m deep balcony is a low ceiling.
    let level = level_of(&[
        (
            "wall",
            cuboid(DVec3::new(-4.0, 0.0, -0.5), DVec3::new(4.0, 6.0, 0.0)),
        ),
        (
            "cornice",
            cuboid(DVec3::new(-4.0, 2.8, 0.0), DVec3::new(-1.0, 3.0, 0.3)),
        ),
        (
            "moulding",
            cuboid(DVec3::new(-4.0, 4.2, 0.0), DVec3::new(-1.0, 4.4, 0.3)),
        ),
        (
            "balcony",
            cuboid(DVec3::new(1.0, 2.8, 0.0), DVec3::new(4.0, 3.0, 3.0)),
        ),
        (
            "balcony_roof",
            cuboid(DVec3::new(1.0, 4.2, 0.0), DVec3::new(4.0, 4.4, 3.0)),
        ),
    ]);
    let report = run(&level);
    let ceilings: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Ceiling)
        .collect();
    assert!(
        ceilings.iter().all(|f| f.feature.position.x > 0.0),
        "a ceiling over the cornice: {ceilings:#?}"
    );
    assert!(
        ceilings
            .iter()
            .any(|f| f.feature.position.x > 1.0 && (f.feature.position.y - 3.0).abs() < 0.05),
        "the balcony's low ceiling is missing: {ceilings:#?}"
    );
}

#[test]
fn bumps_and_stringers_are_no_slopes_and_a_ramp_is_one() {
    // A 20° ramp 3 m wide is a slope; a 20° wedge rising 5 cm (a worn
    // threshold) and a 33.7° stringer 0.2 m wide beside a flight are not.
    use crate::analysis::generate::parts::ramp;
    let level = level_of(&[
        (
            "ramp",
            ramp(DVec3::new(-8.0, 0.0, -8.0), 20.0, 1.0, 3.0, 1.0),
        ),
        (
            "bump",
            ramp(DVec3::new(-8.0, 0.0, 4.0), 20.0, 0.05, 3.0, 0.5),
        ),
        (
            "stringer",
            ramp(DVec3::new(4.0, 0.0, 4.0), 33.7, 1.5, 0.2, 0.0),
        ),
    ]);
    let report = run(&level);
    let slopes: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Slope)
        .collect();
    assert_eq!(slopes.len(), 1, "{slopes:#?}");
    let ramp = &slopes[0];
    assert!(
        (ramp.feature.slope_deg.unwrap() - 20.0).abs() < 0.5,
        "{ramp:#?}"
    );
    assert!(ramp.feature.position.z < -4.0, "{ramp:#?}");
    assert_eq!(ramp.verdict, Verdict::Climbs, "{ramp:#?}");
}

#[test]
fn a_walk_that_fails_away_from_its_feature_says_where_it_ended() {
    // A 0.2 m riser the default character climbs; one of its walks is
    // moved to end before it, past it, and at it, as walks that failed on
    // something else do.
    let level = level_of(&[(
        "upper",
        cuboid(DVec3::new(0.3, 0.0, -3.0), DVec3::new(5.0, 0.2, 3.0)),
    )]);
    let report = run(&level);
    let riser = report
        .findings
        .iter()
        .find(|f| f.feature.kind == FeatureKind::Step && f.feature.direction.x > 0.9)
        .expect("the 0.2 m riser");
    let settings = SlideSettings::default();
    let radius = settings.radii[0];
    let mut walk = riser.walks[0].clone();
    let at = |d: f64| riser.feature.position + riser.feature.direction * d;
    let told = |walk: &CheckWalk| {
        super::verdict::failed_away(level.world(), &settings, &riser.feature, walk)
    };
    walk.summary.final_position = at(-radius - 1.0);
    walk.summary.stalled_at_frame = Some(4);
    let before = told(&walk);
    assert!(
        before.starts_with("stops 1.00 m before it: it stalls from frame 4"),
        "{before}"
    );
    walk.summary.final_position = at(2.0);
    let past = told(&walk);
    assert!(
        past.starts_with(
            "ends 2.00 m past its line without getting by it at its level: it stalls from frame 4"
        ),
        "{past}"
    );
    walk.summary.final_position = at(0.1);
    let beside = told(&walk);
    assert!(
        beside.starts_with("is stopped at it by something else: it stalls from frame 4"),
        "{beside}"
    );
}

#[test]
fn a_gentle_slope_above_a_steeper_one_is_climbed_from_where_the_walk_started() {
    // A roof's ridge, as on Sibenik's: 22.5° for 0.5 m, then 7.5° for
    // 0.95 m to the ridge, and down the same way, walked by Unity's
    // default capsule (no ground snap). The walk placed at the 7.5°
    // slope's foot height over the 22.5° pitch falls a little and lands
    // already on the gentle slope: the climb it made counts from the
    // floor it started over, not from where it landed.
    use crate::analysis::generate::solid::{Frame, prism};
    use crate::character::EngineProfile;
    use crate::geometry::shape::CharacterShape;
    let (steep, gentle) = (22.5f64.to_radians().tan(), 7.5f64.to_radians().tan());
    let (a, b) = (0.5 * steep, 0.95 * gentle);
    let outline = [
        DVec2::new(0.0, 0.0),
        DVec2::new(2.9, 0.0),
        DVec2::new(2.4, a),
        DVec2::new(1.45, a + b),
        DVec2::new(0.5, a),
    ];
    let ridge = prism(
        &outline,
        &[(0..outline.len()).collect()],
        &Frame::xy(DVec3::new(-1.45, 0.0, -3.0)),
        0.0,
        6.0,
    );
    let level = level_of(&[("ridge", ridge)]);
    let mut settings = SlideSettings {
        radii: [0.5, 1.0, 0.5],
        skin: 0.08,
        min_move: 0.001,
        shape: CharacterShape::Capsule {
            radius_m: 0.5,
            height_m: 2.0,
        },
        ..SlideSettings::default()
    };
    settings.character.engine = EngineProfile::Unity;
    let report = run_with(&level, level.world(), &settings);
    let gentle_slopes: Vec<_> = report
        .findings
        .iter()
        .filter(|f| {
            f.feature.kind == FeatureKind::Slope && (f.feature.slope_deg.unwrap() - 7.5).abs() < 0.5
        })
        .collect();
    assert!(!gentle_slopes.is_empty(), "{:#?}", report.findings);
    for f in gentle_slopes {
        assert_eq!(f.verdict, Verdict::Climbs, "{}", f.reason);
    }
}
