//! The built-in level's parts get the verdicts they were designed for,
//! with the default character (radii 0.4, 0.9, 0.4 m; step 0.3 m; 45°).

use super::*;
use crate::analysis::features::FeatureKind;
use crate::analysis::generate::default_level;

/// What each part of the built-in level is for, written down before
/// running the checks: (object name prefix, kind, verdict).
const INTENDED: &[(&str, FeatureKind, Verdict)] = &[
    // Risers at or under the 0.3 m step height are climbed.
    ("stairs_riser_0.15", FeatureKind::Step, Verdict::Climbs),
    ("stairs_riser_0.30", FeatureKind::Step, Verdict::Climbs),
    ("stairs_riser_0.50", FeatureKind::Step, Verdict::Blocked),
    ("stairs_riser_0.95", FeatureKind::Step, Verdict::Blocked),
    ("stairs_riser_1.20", FeatureKind::Step, Verdict::Blocked),
    // The probe is 0.80 m wide and needs 1.81 m of height.
    ("door_w0.60_h2.00", FeatureKind::Opening, Verdict::Blocked),
    ("door_w0.90_h2.00", FeatureKind::Opening, Verdict::Passes),
    ("door_w1.20_h2.20", FeatureKind::Opening, Verdict::Passes),
    ("door_w0.90_h1.60", FeatureKind::Opening, Verdict::Blocked),
    ("door_w2.00_h2.40", FeatureKind::Opening, Verdict::Passes),
    ("door_w0.85_h1.85", FeatureKind::Opening, Verdict::Passes),
    // Ramps up to the 45° limit are walked up.
    ("ramp_10deg", FeatureKind::Slope, Verdict::Climbs),
    ("ramp_20deg", FeatureKind::Slope, Verdict::Climbs),
    ("ramp_30deg", FeatureKind::Slope, Verdict::Climbs),
    ("ramp_45deg", FeatureKind::Slope, Verdict::Climbs),
    ("ramp_60deg", FeatureKind::Slope, Verdict::Blocked),
    ("ceiling_1.60", FeatureKind::Ceiling, Verdict::Blocked),
    ("ceiling_2.10", FeatureKind::Ceiling, Verdict::Passes),
];

fn run(level: &Level, settings: &SlideSettings) -> CheckReport {
    check_level(
        level,
        level.world(),
        settings,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("valid settings and a floor")
    .expect("not cancelled")
}

#[test]
fn the_built_in_levels_parts_get_the_verdicts_they_were_designed_for() {
    let level = Level::from_mesh("default", default_level());
    let report = run(&level, &SlideSettings::default());
    for (prefix, kind, verdict) in INTENDED {
        // The part's findings along its design direction (+z): a
        // staircase's side risers and landing backs are other findings.
        let mine: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.feature.kind == *kind)
            .filter(|f| f.feature.object.as_deref() == Some(*prefix))
            .filter(|f| *kind == FeatureKind::Ceiling || f.feature.direction.z > 0.9)
            .collect();
        assert!(!mine.is_empty(), "{prefix}: no {kind:?} found");
        for f in &mine {
            assert_eq!(
                f.verdict, *verdict,
                "{prefix}: {} ({:?})",
                f.reason, f.feature.position
            );
            assert!(!f.reason.is_empty() && f.walks.len() == 2);
        }
    }
    assert_eq!(report.counts.stalls, 0, "{:#?}", stalled(&report));
    assert!(!report.all_pass());
}

fn stalled(report: &CheckReport) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.verdict == Verdict::Stalls)
        .map(|f| {
            format!(
                "{:?} {:?}: {}",
                f.feature.object, f.feature.position, f.reason
            )
        })
        .collect()
}

#[test]
fn a_blocked_step_says_the_riser_is_taller_than_the_step_and_keeps_its_walks() {
    let level = Level::from_mesh("default", default_level());
    let report = run(&level, &SlideSettings::default());
    let f = report
        .findings
        .iter()
        .find(|f| {
            f.feature.object.as_deref() == Some("stairs_riser_0.50") && f.feature.direction.z > 0.9
        })
        .expect("the 0.50 m stairs");
    assert!(
        f.reason.contains(
            "the riser is taller than the step height (riser 0.50 m over 2.00 m, step height 0.30 m"
        ),
        "{}",
        f.reason
    );
    let straight = &f.walks[0];
    assert_eq!(straight.angle_deg, 0.0);
    assert!(!straight.passed && straight.summary.stalled_at_frame.is_some());
    // The walk replays to the same end.
    let again = crate::character::walk(
        level.world(),
        &SlideSettings::default(),
        &straight.spec,
        crate::character::WalkTrace::FramesOnly,
    )
    .unwrap();
    assert_eq!(again.summary, straight.summary);
}

#[test]
fn a_level_with_no_walkable_floor_says_so() {
    // One vertical quad: nothing to stand on.
    let p = |x: f32, y: f32| glam::Vec3::new(x, y, 0.0);
    let wall = crate::mesh::TriMesh::single_object(
        "wall",
        vec![p(0.0, 0.0), p(4.0, 0.0), p(4.0, 3.0), p(0.0, 3.0)],
        vec![[0, 1, 2], [0, 2, 3]],
    );
    let level = Level::from_mesh("wall", wall);
    let e = check_level(
        &level,
        level.world(),
        &SlideSettings::default(),
        &|_| {},
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(e, CheckError::NoWalkableFloor { .. }), "{e}");
    assert!(e.to_string().contains("no walkable floor"));
}

#[test]
fn cancelled_checks_return_nothing() {
    let level = Level::from_mesh("default", default_level());
    let out = check_level(
        &level,
        level.world(),
        &SlideSettings::default(),
        &|_| {},
        &AtomicBool::new(true),
    );
    assert_eq!(out, Ok(None));
}

#[test]
fn a_sample_of_the_walks_is_spread_over_the_findings_and_only_walks_that_ran() {
    let level = Level::from_mesh("default", default_level());
    let report = run(&level, &SlideSettings::default());
    let ran: Vec<_> = report
        .findings
        .iter()
        .flat_map(|f| &f.walks)
        .filter(|w| w.summary.frames > 0)
        .map(|w| w.spec)
        .collect();
    assert!(ran.len() > 20, "{} walks ran", ran.len());
    let sample = report.sample_walks(10);
    assert_eq!(sample.len(), 10);
    assert_eq!(sample[0], ran[0], "the sample starts at the first walk");
    let last = ran
        .iter()
        .position(|w| *w == sample[9])
        .expect("a walk that ran");
    assert!(
        last >= ran.len() / 2,
        "the sample reaches the later findings"
    );
    assert_eq!(
        report.sample_walks(ran.len() + 5),
        ran,
        "all of them when asked for more"
    );
    assert!(report.sample_walks(0).is_empty());
}
