//! The stuck-spot map on the Sibenik cathedral (75k triangles): 0.5 m
//! spacing, 8 directions, 1 s walks at 60 Hz (target: under 5 s on this
//! 2-core machine), timed as one whole run on all cores; then frames per
//! second per core of the walks it is made of against a character loop
//! written with parry3d, in the same run, on the same start points,
//! directions and frame count (every 64th start point, single-threaded).
//!
//! The parry character works in the probe's ellipsoid space (a ball of
//! radius 1 against parry's own `TriMesh` and its BVH): each frame a
//! cast-and-slide of the walk (at most the solver's iterations), then a
//! cast down by the fall (gravity accumulated while in the air), landing
//! at the skin. It has no step-up, snap or self checks: less work than our
//! frame, which also measures its clearance after every iteration (the map
//! needs it for `embedded`).
//!
//! Beside them, Rapier's `KinematicCharacterController` (rapier3d 0.36.1,
//! `tests/library/rapier_kcc.rs`, included here: the default character as
//! `settings export --for rapier` writes it, a capsule of the ellipsoid's
//! radius and height with step-up, slopes and snap) on the same walks,
//! one `move_shape` a frame: a shipping controller's frames per second
//! per core against ours (`map_walks_sibenik/rapier_kcc`).
//!
//! Skips with a message when `../shared/levels` is absent.
//! Run: `cargo bench --bench map`

#[path = "../tests/library/rapier_kcc.rs"]
#[allow(dead_code)]
mod rapier_kcc;

use collidoscope::analysis::map::{MapOptions, Shard, map_level};
use collidoscope::character::{WalkSpec, WalkTrace, walk};
use collidoscope::collide::SlideSettings;
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
#[path = "support/parry_slide.rs"]
mod parry_slide;
use parry_slide::{ParrySlide, from_parry, to_parry};
use rapier_kcc::{RapierCharacter, RapierLevel};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Every how many start points the per-core comparison walks.
const SUBSET_STEP: usize = 64;

/// The peer: a character moved by parry shape casts, in ellipsoid space.
struct ParryCharacter {
    slide: ParrySlide,
    speed_m_s: f64,
    gravity_m_s2: f64,
    dt_s: f64,
}

impl ParryCharacter {
    fn new(level: &Level, s: &SlideSettings) -> Self {
        let mut slide = ParrySlide::new(level.mesh(), s);
        // A frame's slide goes on while anything is left of its motion.
        slide.min_move_espace = 1e-6;
        ParryCharacter {
            slide,
            speed_m_s: s.character.walk_speed_m_s,
            gravity_m_s2: s.character.gravity_m_s2,
            dt_s: s.character.frame_time_s(),
        }
    }

    /// Walks `frames` frames from `start` along `dir` (world); the end, world.
    fn walk(&self, start: DVec3, dir: DVec3, frames: u32) -> DVec3 {
        let radii = self.slide.radii;
        let mut pos = to_parry(start / radii);
        let step = to_parry(dir * self.speed_m_s * self.dt_s / radii);
        let mut fall_m_s = 0.0;
        for _ in 0..frames {
            pos = self
                .slide
                .slide_espace(pos, step, false, &mut |_| {})
                .end_espace;
            fall_m_s += self.gravity_m_s2 * self.dt_s;
            let down = to_parry(DVec3::new(0.0, -fall_m_s * self.dt_s, 0.0) / radii);
            let end = self.slide.slide_espace(pos, down, false, &mut |_| {});
            pos = end.end_espace;
            if end.hit_any {
                fall_m_s = 0.0;
            }
        }
        from_parry(pos) * radii
    }
}

/// This process's CPU time (user + system), seconds, from `/proc` (Linux):
/// on a machine shared with other work, the wall time of a parallel run
/// says little, its CPU time what it costs.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (in parentheses): utime and stime are
    // the 12th and 13th, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn map_bench(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    let Ok(level) = Level::load(&path, &ImportOptions::default()) else {
        eprintln!("../shared/levels absent: skipping the map benchmark");
        return;
    };
    let settings = SlideSettings::default();
    let opts = MapOptions {
        spacing_m: 0.5,
        directions: 8,
        seconds: 1.0,
        shard: Shard::WHOLE,
        ..MapOptions::default()
    };
    let (t, cpu0) = (Instant::now(), cpu_seconds());
    let report = map_level(
        &level.name,
        level.world(),
        &settings,
        &opts,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("valid options")
    .expect("not cancelled");
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu0.zip(cpu_seconds()).map(|(a, b)| b - a);
    let cores = rayon::current_num_threads();
    eprintln!(
        "map sibenik: {} start points ({} unplaceable), {} walks, {} frames in {secs:.2} s on {cores} threads ({} s of CPU: {:.0} frames per CPU second); {:?}",
        report.start_points,
        report.unplaceable,
        report.walks,
        report.frames,
        cpu.map_or("?".into(), |c| format!("{c:.2}")),
        report.frames as f64 / cpu.unwrap_or(secs * cores as f64),
        report.counts
    );
    // The same start points, directions and frame count for both.
    let frames = (opts.seconds * settings.character.frame_rate_hz).ceil() as u32;
    let walks: Vec<(DVec3, DVec3)> = report
        .spots
        .iter()
        .step_by(SUBSET_STEP)
        .flat_map(|s| {
            (0..opts.directions).map(move |k| {
                let yaw = std::f64::consts::TAU * f64::from(k) / f64::from(opts.directions);
                (s.start, DVec3::new(yaw.cos(), 0.0, yaw.sin()))
            })
        })
        .collect();
    let peer = ParryCharacter::new(&level, &settings);
    let mut group = c.benchmark_group("map_walks_sibenik");
    group.sample_size(10);
    group.throughput(Throughput::Elements(walks.len() as u64 * u64::from(frames)));
    group.bench_function("collidoscope", |b| {
        b.iter(|| {
            for &(from, direction) in &walks {
                let spec = WalkSpec {
                    from,
                    direction,
                    seconds: opts.seconds,
                    jump: false,
                };
                let w = walk(level.world(), &settings, &spec, WalkTrace::FramesOnly);
                black_box(w.expect("valid walk").summary.final_position);
            }
        })
    });
    group.bench_function("parry3d", |b| {
        b.iter(|| {
            for &(from, direction) in &walks {
                black_box(peer.walk(from, direction, frames));
            }
        })
    });
    let rapier = RapierCharacter::new(&settings);
    let rapier_level = RapierLevel::new(&level, level.world());
    let specs: Vec<WalkSpec> = walks
        .iter()
        .map(|&(from, direction)| WalkSpec {
            from,
            direction,
            seconds: opts.seconds,
            jump: false,
        })
        .collect();
    assert!(
        specs.iter().all(|s| rapier.frames_of(s) == frames),
        "the same frames for every character"
    );
    // One pass of each over the same walks, timed by this process's CPU
    // time (the walks run on this thread alone): frames per CPU second,
    // the per-core rate, printed beside the map's own figure.
    // Ours is repeated to last about as long as Rapier's one pass (the
    // clock ticks are 10 ms).
    let per_core = |name: &str, passes: u32, run: &dyn Fn()| {
        let (t, cpu0) = (Instant::now(), cpu_seconds());
        for _ in 0..passes {
            run();
        }
        let wall = t.elapsed().as_secs_f64();
        let cpu = cpu0.zip(cpu_seconds()).map_or(wall, |(a, b)| b - a);
        let n = f64::from(passes) * specs.len() as f64 * f64::from(frames);
        eprintln!(
            "map walks, {name}: {passes} x {} walks, {n} frames in {cpu:.2} CPU s ({wall:.2} s wall): {:.0} frames per CPU second",
            specs.len(),
            n / cpu
        );
        n / cpu
    };
    let ours = per_core("collidoscope", 20, &|| {
        for spec in &specs {
            let w = walk(level.world(), &settings, spec, WalkTrace::FramesOnly);
            black_box(w.expect("valid walk").summary.final_position);
        }
    });
    per_core("parry3d loop", 1, &|| {
        for &(from, direction) in &walks {
            black_box(peer.walk(from, direction, frames));
        }
    });
    let theirs = per_core("rapier_kcc", 1, &|| {
        for spec in &specs {
            black_box(rapier.walk_end(&rapier_level, spec));
        }
    });
    eprintln!(
        "map walks: ours / Rapier's, frames per CPU second: {:.1}x",
        ours / theirs
    );
    group.bench_function("rapier_kcc", |b| {
        b.iter(|| {
            for spec in &specs {
                black_box(rapier.walk_end(&rapier_level, spec));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, map_bench);
criterion_main!(benches);
