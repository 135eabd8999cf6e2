//! Feature finding on real levels from `../shared/levels/`: the galleria
//! stairs (120 risers of exactly 0.25 m) and the Sibenik cathedral's altar
//! steps. Skipped, with a message, when `../shared` is absent.

use collidoscope::analysis::features::{FeatureKind, FeatureOptions, Features, find_features};
use collidoscope::level::{ImportOptions, Level};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn level(name: &str) -> Option<Level> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/levels")
        .join(name);
    if !path.is_file() {
        println!("SKIPPED: {} is absent", path.display());
        return None;
    }
    Some(Level::load(&path, &ImportOptions::default()).expect("the shared level imports"))
}

fn find(level: &Level) -> Features {
    let t = Instant::now();
    let found = find_features(
        level.world(),
        &FeatureOptions::default(),
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("not cancelled");
    println!(
        "{}: {} features, {} walkable cells of {:?} at {} m, in {:?}",
        level.name,
        found.features.len(),
        found.walkable_cells,
        found.grid_size,
        found.cell_m,
        t.elapsed()
    );
    found
}

#[test]
fn galleria_stairs_risers_measure_a_quarter_metre() {
    let Some(level) = level("galleria_stairs.obj") else {
        return;
    };
    let found = find(&level);
    let steps: Vec<_> = found
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Step)
        .collect();
    println!("{} steps", steps.len());
    for f in &steps {
        println!(
            "step {:.3?} dir {:.2?} riser {:.3?} tread {:.3?} cells {}",
            f.position, f.direction, f.riser_height_m, f.tread_depth_m, f.cells
        );
    }
    // The flights' risers span their whole width (2.6 m, over 20 cells);
    // the short findings are the stringers beside the open treads and the
    // landing edges, of other heights.
    let flights: Vec<_> = steps.iter().filter(|f| f.cells >= 10).collect();
    assert!(flights.len() >= 24, "{} flight risers", flights.len());
    for f in &flights {
        let riser = f.riser_height_m.unwrap();
        assert!((riser - 0.25).abs() < 0.01, "{f:?}");
    }
    // Open treads, 0.375 m deep, between the landings.
    let treads = flights
        .iter()
        .filter(|f| (f.tread_depth_m.unwrap_or(0.0) - 0.375).abs() < 0.01)
        .count();
    assert!(treads >= 20, "{treads} treads of 0.375 m");
    for f in &steps {
        assert!(f.direction.y == 0.0 && (f.direction.length() - 1.0).abs() < 1e-9);
    }
}

/// Sibenik in the test profile takes a few seconds; run it alone with
/// `cargo test --no-default-features --test library level_features::sibenik -- --nocapture`.
#[test]
fn sibenik_altar_steps_are_found() {
    let Some(level) = level("sibenik_dabrovic_75k.obj.gz") else {
        return;
    };
    let found = find(&level);
    assert!(found.walkable_cells > 10_000);
    let risers: Vec<f64> = found
        .features
        .iter()
        .filter(|f| f.kind == FeatureKind::Step && f.cells >= 5)
        .filter_map(|f| f.riser_height_m)
        .collect();
    for kind in [
        FeatureKind::Step,
        FeatureKind::Opening,
        FeatureKind::Slope,
        FeatureKind::Ceiling,
    ] {
        let n = found.features.iter().filter(|f| f.kind == kind).count();
        println!("{kind:?}: {n}");
    }
    let low = risers.iter().filter(|r| (0.13..=0.20).contains(*r)).count();
    let high = risers.iter().filter(|r| (0.35..=0.43).contains(*r)).count();
    println!("risers of 5+ cells: {risers:.3?}");
    assert!(low > 0, "no 0.13-0.20 m riser among {risers:?}");
    assert!(high > 0, "no 0.35-0.43 m riser among {risers:?}");
}

// ---- verdicts on real levels: the stairs their README documents ----

fn check(level: &Level) -> collidoscope::analysis::checks::CheckReport {
    use collidoscope::analysis::checks::check_level;
    use collidoscope::collide::SlideSettings;
    check_level(
        level,
        level.world(),
        &SlideSettings::default(),
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("floor to walk on")
    .expect("not cancelled")
}

/// The steps of a report as (riser, riser length, verdict).
fn steps(
    report: &collidoscope::analysis::checks::CheckReport,
) -> Vec<(f64, f64, collidoscope::analysis::checks::Verdict)> {
    report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Step)
        .map(|f| {
            (
                f.feature.riser_height_m.unwrap(),
                f.feature.extent_m,
                f.verdict,
            )
        })
        .collect()
}

#[test]
fn galleria_flights_of_0_25_m_risers_are_climbed_by_the_default_player() {
    use collidoscope::analysis::checks::Verdict;
    let Some(level) = level("galleria_stairs.obj") else {
        return;
    };
    let flight: Vec<_> = steps(&check(&level))
        .into_iter()
        .filter(|(riser, length, _)| (riser - 0.25).abs() < 0.01 && *length >= 1.0)
        .collect();
    assert!(flight.len() >= 20, "{flight:?}");
    assert!(flight.iter().all(|s| s.2 == Verdict::Climbs), "{flight:?}");
}

#[test]
fn risers_taller_than_the_step_are_never_climbed_on_real_levels() {
    use collidoscope::analysis::checks::Verdict;
    // three.js's level has a flight of 0.595 m risers (for a capsule that
    // does not climb it); Machu Picchu's terraces drop 1.7-2.4 m.
    for name in ["threejs_collision_world.obj", "machu_picchu_level.obj"] {
        let Some(level) = level(name) else {
            return;
        };
        let all = steps(&check(&level));
        let tall: Vec<_> = all.iter().filter(|s| s.0 > 0.31).collect();
        assert!(
            tall.iter().all(|s| s.2 != Verdict::Climbs),
            "{name}: {tall:?}"
        );
        if name.starts_with("threejs") {
            assert!(
                all.iter().any(|s| (s.0 - 0.595).abs() < 0.02 && s.1 >= 1.0),
                "{name}: the 0.595 m flight is found"
            );
        }
    }
}

#[test]
fn galleria_map_staircases_climb_and_its_doors_pass() {
    use collidoscope::analysis::checks::Verdict;
    let Some(level) = level("galleria_map.obj") else {
        return;
    };
    let report = check(&level);
    // Its two staircases: 0.25 m risers across 2.6 m wide flights.
    let flights: Vec<_> = steps(&report)
        .into_iter()
        .filter(|(riser, length, _)| (riser - 0.25).abs() < 0.01 && (2.0..3.0).contains(length))
        .collect();
    assert!(flights.len() >= 40, "{flights:?}");
    assert!(
        flights.iter().all(|s| s.2 == Verdict::Climbs),
        "{flights:?}"
    );
    // Its door openings, all wider and taller than the default player.
    let doors: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Opening)
        .filter(|f| f.feature.width_m.unwrap() >= 0.9 && f.feature.height_m.unwrap() >= 1.85)
        .collect();
    assert!(doors.len() >= 10, "{}", doors.len());
    for d in doors {
        assert_eq!(
            d.verdict,
            Verdict::Passes,
            "{:?}: {}",
            d.feature.position,
            d.reason
        );
    }
}

#[test]
fn sibenik_altar_steps_low_ones_climb_and_high_ones_do_not() {
    use collidoscope::analysis::checks::Verdict;
    let Some(level) = level("sibenik_dabrovic_75k.obj.gz") else {
        return;
    };
    let t = Instant::now();
    let all = steps(&check(&level));
    println!("sibenik checked in {:?}", t.elapsed());
    let wide = |lo: f64, hi: f64| {
        all.iter()
            .filter(move |s| (lo..=hi).contains(&s.0) && s.1 >= 1.0)
            .collect::<Vec<_>>()
    };
    // Its README: altar steps with 0.13-0.20 m and 0.35-0.43 m risers. The
    // low ones the default player climbs (a few have treads too shallow to
    // stand on, against the altar); the high ones it never does.
    let low = wide(0.13, 0.20);
    let climbed = low.iter().filter(|s| s.2 == Verdict::Climbs).count();
    assert!(climbed >= 15, "{low:?}");
    let high = wide(0.35, 0.43);
    assert!(
        !high.is_empty() && high.iter().all(|s| s.2 != Verdict::Climbs),
        "{high:?}"
    );
}
