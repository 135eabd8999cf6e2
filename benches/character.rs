//! The character layer's cost, measured against what it is made of, in the
//! same run:
//!
//! - `frames` walks characters (every walk of the level checks of a real
//!   level: stairs, doors, slopes, ceilings) and `raw_slides` runs exactly
//!   the solver work those frames did: each phase's slide from the same
//!   start with the same move and walls rule, for the same number of
//!   iterations. Their ratio is the character model's overhead (target:
//!   a frame within 1.5x the raw slides it runs).
//! - `envelope` measures the default character's six limits (target: 1 s).
//! - `check` finds and judges every feature of the level (targets: the
//!   75k-triangle Sibenik level in 2 s on 2 cores; `check_librequake_e0m8`,
//!   a 14.5k-triangle game map with its liquids switched off, in 1 s).
//!
//! The level is Sibenik when `../shared/levels` is present, else the
//! built-in level. Short run:
//! `cargo bench --bench character -- --warm-up-time 1 --measurement-time 3`

use collidoscope::analysis::checks::check_level;
use collidoscope::analysis::envelope::envelope;
use collidoscope::analysis::generate::default_level;
use collidoscope::analysis::public_levels::pick;
use collidoscope::character::{Phase, WalkSpec, WalkTrace, walk};
use collidoscope::collide::{SlideSettings, SlideSolver, TraceDetail, WallRule};
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Walks per benchmark iteration.
const WALKS: usize = 200;

/// One phase's slide as a frame ran it.
struct PhaseRun {
    start: DVec3,
    velocity: DVec3,
    walls: bool,
    iterations: usize,
}

fn level() -> (String, Level) {
    let sibenik =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    match Level::load(&sibenik, &ImportOptions::default()) {
        Ok(level) => ("sibenik".into(), level),
        Err(_) => {
            eprintln!("../shared/levels absent: benchmarking on the built-in level");
            (
                "built_in".into(),
                Level::from_mesh("built-in", default_level()),
            )
        }
    }
}

/// The walks of the level's checks (both angles of each finding), up to
/// [`WALKS`], spread over the findings.
fn check_walks(level: &Level, settings: &SlideSettings) -> Vec<WalkSpec> {
    check_level(
        level,
        level.world(),
        settings,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("the level has floor")
    .expect("not cancelled")
    .sample_walks(WALKS)
}

/// Every phase slide the walks' frames ran, with its iteration count.
fn phase_runs(level: &Level, settings: &SlideSettings, walks: &[WalkSpec]) -> Vec<PhaseRun> {
    let mut runs: Vec<PhaseRun> = Vec::new();
    for spec in walks {
        let w = walk(level.world(), settings, spec, WalkTrace::Summary).unwrap();
        for frame in &w.frames {
            let mut last: Option<Phase> = None;
            for it in &frame.iterations {
                // A new run starts where the phase changes or the depth
                // returns to 0 (the step phases run once each).
                if last != Some(it.phase) || it.record.depth == 0 {
                    runs.push(PhaseRun {
                        start: it.record.start,
                        velocity: it.record.velocity,
                        walls: matches!(it.phase, Phase::Velocity | Phase::StepForward),
                        iterations: 0,
                    });
                }
                runs.last_mut().unwrap().iterations += 1;
                last = Some(it.phase);
            }
        }
    }
    runs
}

fn character_benches(c: &mut Criterion) {
    let (name, level) = level();
    let settings = SlideSettings::default();
    let walks = check_walks(&level, &settings);
    let runs = phase_runs(&level, &settings, &walks);
    let frames: usize = walks
        .iter()
        .map(|s| (s.seconds * settings.character.frame_rate_hz).ceil() as usize)
        .sum();
    eprintln!(
        "{name}: {} walks, {frames} frames, {} phase slides, {} iterations",
        walks.len(),
        runs.len(),
        runs.iter().map(|r| r.iterations).sum::<usize>()
    );
    let mut slide_settings = settings.clone();
    slide_settings.gravity = [0.0; 3];
    let rule = WallRule {
        floor_min_up: settings.character.floor_min_up(),
    };

    let mut g = c.benchmark_group(format!("character/{name}"));
    g.throughput(Throughput::Elements(frames as u64));
    g.bench_function("frames", |b| {
        b.iter(|| {
            for spec in &walks {
                let w = walk(level.world(), &settings, spec, WalkTrace::FramesOnly).unwrap();
                black_box(w.summary.final_position);
            }
        })
    });
    g.bench_function("raw_slides", |b| {
        b.iter(|| {
            for r in &runs {
                let solver = SlideSolver::new(
                    level.world(),
                    &slide_settings,
                    r.start,
                    r.velocity,
                    TraceDetail::Summary,
                )
                .unwrap();
                let mut solver = if r.walls {
                    solver.with_walls(rule)
                } else {
                    solver
                };
                for _ in 0..r.iterations {
                    black_box(solver.next());
                }
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("character");
    g.sample_size(10);
    g.bench_function("envelope", |b| {
        b.iter(|| black_box(envelope(&settings).unwrap()))
    });
    g.bench_function(format!("check_{name}"), |b| {
        b.iter(|| {
            black_box(
                check_level(
                    &level,
                    level.world(),
                    &settings,
                    &|_| {},
                    &AtomicBool::new(false),
                )
                .unwrap(),
            )
        })
    });
    // A game map of 14.5k triangles as a Quake player would check it: Z up
    // in inches, materials as objects, liquids non-colliding.
    if let Some((map, colliding)) = game_map() {
        let mut quake = settings.clone();
        quake.level.non_colliding = collidoscope::collide::QUAKE_NON_COLLIDING
            .map(String::from)
            .to_vec();
        g.bench_function("check_librequake_e0m8", |b| {
            b.iter(|| {
                black_box(
                    check_level(
                        &map,
                        map.world_with(&colliding),
                        &quake,
                        &|_| {},
                        &AtomicBool::new(false),
                    )
                    .unwrap(),
                )
            })
        });
    }
    g.finish();
}

/// LibreQuake's e0m8 (14.5k triangles) with its liquids switched off, when
/// `../shared/levels` is present.
fn game_map() -> Option<(Level, Vec<bool>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    let e0m8 = pick(Some("librequake_e0m8")).pop()?;
    let loaded = e0m8.load(&dir).ok()?;
    Some((loaded.level, loaded.colliding))
}

criterion_group!(benches, character_benches);
criterion_main!(benches);
