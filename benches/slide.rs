//! One collide-and-slide move (at most 5 iterations, same moves, same skin)
//! with Collidoscope's solver (robust mode) against a cast-based slide
//! written with parry3d, in the same run, on the same triangles, on fresh
//! random moves made from a seed.
//!
//! The parry side works in the probe's ellipsoid space (world divided by the
//! radii) so the probe is a ball of radius 1: `cast_shapes` to the first
//! hit against parry's own `TriMesh` (built by `TriMesh::new`: its binned
//! BVH, no flags), move to the time of impact minus the skin, project the
//! remaining motion onto the contact plane, repeat; nothing is checked or
//! recorded after a move.
//!
//! Scenes: generated `field` levels (terrain strewn with crates) of ~100k,
//! ~1M and ~4M triangles, the generated city of ~1M, and, when
//! `../shared/levels` is present, the Sibenik cathedral (75k triangles).
//! `SLIDE_SCENES=field_1m,city_4m` picks scenes (also `city_100k` and
//! `city_4m`, which are not run by default).
//!
//! Move sets, each from the seed (`SLIDE_SEED`, default
//! [`DEFAULT_MOVE_SEED`]) with `analysis::generate::move_sets`, starts on
//! random walkable ground, written to `target/slide-moves/` as JSON Lines:
//! - `walk`: 3,000 moves of 0.1-0.6 m along the ground, 5 cm down;
//! - `long`: 3,000 moves of 0.5-5 m, a tenth of that down;
//! - `frames`: 300 walkers of ten 60 Hz frames (0.15 m, 3 cm down), each
//!   frame starting where our solver ended the one before;
//! - `cold`: 50,000 long moves (another seed), one visited per timed
//!   iteration, so a move comes back only after all the others have passed
//!   through the caches.
//!
//! Timed on each: `ours` (one kept solver, `start_move` + `run_to_end`,
//! self checks off, no record: what parry's loop does), `ours_slide_checked`
//! (`collide::slide(..)` per move with the default settings: self checks
//! on, every iteration's record copied out) and `parry3d`.
//! `SLIDE_DIAG=1` adds the sets and timings that explain the older figures
//! (see BENCHMARKS.md): `long300` (the first 300 long moves, repeated),
//! `curated` (the 300 aimed `city_moves` on city scenes), and `ours_checked`
//! (kept solver, self checks on), `ours_slide` (`slide()`, self checks off)
//! and `parry3d_mesh_first` (the same parry loop with the mesh as the first
//! shape) on every set.
//!
//! Before timing, every move of every set is run by each side: our kept
//! solver must end exactly where `slide()` ends, for the same reason (or
//! the bench stops), and how far the peer ends from ours is printed.
//!
//! `cargo bench --no-default-features --bench slide -- --warm-up-time 1 --measurement-time 3`

use collidoscope::analysis::generate::move_sets::{
    DEFAULT_MOVE_SEED, MoveKind, frame_walks, random_moves, write_moves_jsonl,
};
use collidoscope::analysis::generate::{ProbeMove, city, city_moves, field};
use collidoscope::collide::{MoveEnd, SlideSettings, SlideSolver, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
#[path = "support/parry_slide.rs"]
mod parry_slide;
use parry_slide::ParrySlide;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Moves in the `walk` and `long` sets.
const SET: usize = 3_000;
/// Walkers in the `frames` set, and frames each.
const WALKERS: usize = 300;
const FRAMES: usize = 10;
/// Moves in the `cold` set.
const COLD: usize = 50_000;
/// Moves in the diagnostic sets repeated from a small list.
const SMALL: usize = 300;

/// Runs every move with each side before anything is timed: our kept
/// solver (self checks off) must end where `slide()` with the default
/// settings ends, for the same reason; returns how far apart ours and the
/// peer end and what our solver did per move, as a line to print.
fn agreement(
    level: &Level,
    peer: &ParrySlide,
    settings: &SlideSettings,
    unchecked: &SlideSettings,
    moves: &[ProbeMove],
) -> String {
    let (mut iterations, mut nodes, mut candidates) = (0usize, 0usize, 0usize);
    let (mut apart_1cm, mut apart_10cm) = (0usize, 0usize);
    // Of those 10 cm apart, why ours ended.
    let mut far_reasons = std::collections::BTreeMap::<String, usize>::new();
    // Of those, the moves where the peer ran out of casts with motion left.
    let mut far_peer_out_of_casts = 0usize;
    // Moves where parry's two argument orders end more than 0.1 mm apart.
    let mut peer_orders_apart = 0usize;
    let mut solver = reusable_solver(level, unchecked);
    let mut gaps: Vec<f64> = moves
        .iter()
        .map(|m| {
            let ours = slide(
                level.world(),
                settings,
                m.start_world,
                m.velocity_world,
                TraceDetail::Summary,
            );
            let end = ours.as_ref().map_or(m.start_world, |r| r.final_position);
            let kept = run_move(&mut solver, m);
            assert_eq!(
                kept.map(|e| (e.final_position, e.end_reason)),
                ours.as_ref().map(|r| (r.final_position, r.end_reason)),
                "the kept solver (self checks off) and slide() disagree on {m:?}"
            );
            for rec in ours.iter().flat_map(|r| &r.iterations) {
                iterations += 1;
                nodes += rec.bvh_stats.nodes_visited as usize;
                candidates += rec.candidate_count as usize;
            }
            let (theirs, peer_out_of_casts) =
                peer.slide_with(m.start_world, m.velocity_world, false);
            if diagnostics() {
                let (mesh_first, _) = peer.slide_with(m.start_world, m.velocity_world, true);
                peer_orders_apart += usize::from((mesh_first - theirs).length() > 1e-4);
            }
            let gap = (end - theirs).length();
            apart_1cm += usize::from(gap > 0.01);
            apart_10cm += usize::from(gap > 0.1);
            if gap > 0.1
                && let Some(e) = kept
            {
                *far_reasons
                    .entry(format!("{:?}", e.end_reason))
                    .or_default() += 1;
                far_peer_out_of_casts += usize::from(peer_out_of_casts);
            }
            gap
        })
        .collect();
    gaps.sort_by(f64::total_cmp);
    let per_move = |x: usize| x as f64 / moves.len() as f64;
    format!(
        "ours vs parry ends: median {:.4} m, p90 {:.4} m, {} more than 1 cm and {} more than 10 cm apart (ours ended these {:?}; the peer ran out of its casts on {}){}; ours per move: {:.2} iterations, {:.0} BVH nodes, {:.1} candidate triangles",
        gaps[gaps.len() / 2],
        gaps[gaps.len() * 9 / 10],
        apart_1cm,
        apart_10cm,
        far_reasons,
        far_peer_out_of_casts,
        if diagnostics() {
            format!(" (parry mesh-first vs ball-first: {peer_orders_apart} more than 0.1 mm apart)")
        } else {
            String::new()
        },
        per_move(iterations),
        per_move(nodes),
        per_move(candidates)
    )
}

/// One solver for a whole set of moves, as a batch keeps one per thread.
fn reusable_solver<'w>(level: &'w Level, settings: &SlideSettings) -> SlideSolver<'w> {
    SlideSolver::reusable(level.world(), settings, TraceDetail::Summary).expect("valid settings")
}

/// One move with a kept solver: `None` if it refuses the input.
fn run_move(solver: &mut SlideSolver<'_>, m: &ProbeMove) -> Option<MoveEnd> {
    solver
        .start_move(m.start_world, m.velocity_world)
        .then(|| solver.run_to_end())
}

/// Bytes each side holds per triangle, like for like: ours the mesh
/// (vertices, triangles, the per-triangle boxes, the object ranges) and the
/// BVH; parry its `TriMesh`, by its own `heap_memory_size`.
fn memory_per_triangle(level: &Level, peer: &ParrySlide) -> String {
    let mesh = &level.mesh();
    let ours_mesh = std::mem::size_of_val(mesh.positions())
        + std::mem::size_of_val(mesh.triangles())
        + std::mem::size_of_val(mesh.tri_aabbs())
        + std::mem::size_of_val(mesh.objects())
        + mesh.objects().len() * std::mem::size_of::<u32>();
    let ours_bvh = level.bvh().stats().memory_bytes;
    let tris = mesh.triangle_count() as f64;
    format!(
        "memory per triangle: ours {:.1} B (mesh {:.1} + BVH {:.1}), parry3d {:.1} B",
        (ours_mesh + ours_bvh) as f64 / tris,
        ours_mesh as f64 / tris,
        ours_bvh as f64 / tris,
        peer.mesh_espace.heap_memory_size() as f64 / tris
    )
}

/// The seed of every set (`SLIDE_SEED`, else [`DEFAULT_MOVE_SEED`]).
fn seed() -> u64 {
    std::env::var("SLIDE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_MOVE_SEED)
}

/// The diagnostic sets and timings are on (`SLIDE_DIAG=1`).
fn diagnostics() -> bool {
    std::env::var("SLIDE_DIAG").is_ok_and(|v| v != "0")
}

/// Whether `SLIDE_SCENES` (comma-separated names; unset: the default
/// scenes) asks for the scene `name`.
fn wanted(name: &str, by_default: bool) -> bool {
    match std::env::var("SLIDE_SCENES") {
        Ok(list) => list.split(',').any(|s| s.trim() == name),
        Err(_) => by_default,
    }
}

/// Where a set's moves are written, so they can be replayed
/// (`collidoscope sweep LEVEL --batch FILE`) or read back.
fn write_set(scene: &str, set: &str, moves: &[ProbeMove]) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/slide-moves");
    let path = dir.join(format!("{scene}_{set}_seed{}.jsonl", seed()));
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
        write_moves_jsonl(moves, &mut out)
    });
    if let Err(e) = written {
        eprintln!("could not write {}: {e}", path.display());
    }
    path
}

/// A set of moves and how it is timed.
struct MoveSet {
    name: &'static str,
    moves: Vec<ProbeMove>,
    /// One move per timed iteration, walking on through the list (the
    /// cold-cache set); otherwise the whole list per iteration.
    walk_through: bool,
}

/// The sets of a scene. The seed of each is the run's seed mixed with the
/// set's number, so sets differ from each other and from scene to scene
/// only by their level.
fn move_sets(
    level: &Level,
    settings: &SlideSettings,
    curated: Option<Vec<ProbeMove>>,
) -> Vec<MoveSet> {
    let radii = settings.radii_vec();
    let s = seed().wrapping_mul(16);
    let long = random_moves(level, radii, MoveKind::Long, SET, s + 2);
    let mut sets = vec![
        MoveSet {
            name: "walk",
            moves: random_moves(level, radii, MoveKind::Walk, SET, s + 1),
            walk_through: false,
        },
        MoveSet {
            name: "long",
            moves: long.clone(),
            walk_through: false,
        },
        MoveSet {
            name: "frames",
            moves: frame_walks(level, settings, WALKERS, FRAMES, s + 3),
            walk_through: false,
        },
        MoveSet {
            name: "cold",
            moves: random_moves(level, radii, MoveKind::Long, COLD, s + 4),
            walk_through: true,
        },
    ];
    if diagnostics() {
        sets.push(MoveSet {
            name: "long300",
            moves: long[..SMALL.min(long.len())].to_vec(),
            walk_through: false,
        });
        if let Some(moves) = curated {
            sets.push(MoveSet {
                name: "curated",
                moves,
                walk_through: false,
            });
        }
    }
    sets
}

/// Times `run` on `set` in `group` under `label`: the whole list per
/// iteration, or (walking through) the next move of the list.
fn time_set<F: FnMut(&ProbeMove)>(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    label: &str,
    set: &MoveSet,
    mut run: F,
) {
    let moves = &set.moves;
    if set.walk_through {
        let mut next = 0usize;
        group.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    run(&moves[next]);
                    next += 1;
                    if next == moves.len() {
                        next = 0;
                    }
                }
                start.elapsed()
            })
        });
    } else {
        group.bench_function(label, |b| {
            b.iter(|| {
                for m in moves {
                    run(m);
                }
            })
        });
    }
}

fn bench_scene(c: &mut Criterion, name: &str, level: &Level, curated: Option<Vec<ProbeMove>>) {
    let settings = SlideSettings::default();
    let unchecked = SlideSettings {
        self_checks: false,
        ..settings.clone()
    };
    let t = Instant::now();
    let peer = ParrySlide::new(level.mesh(), &settings);
    eprintln!(
        "{name}: {} triangles; parry's TriMesh built in {:.1} s; {}",
        level.mesh().triangle_count(),
        t.elapsed().as_secs_f64(),
        memory_per_triangle(level, &peer)
    );
    let t = Instant::now();
    let sets = move_sets(level, &settings, curated);
    eprintln!(
        "{name}: move sets made in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    for set in &sets {
        let path = write_set(name, set.name, &set.moves);
        eprintln!(
            "{name} {}: {} moves (seed {}, {}); {}",
            set.name,
            set.moves.len(),
            seed(),
            path.display(),
            agreement(level, &peer, &settings, &unchecked, &set.moves)
        );
        let mut group = c.benchmark_group(format!("slide_{}/{name}", set.name));
        let per_iteration = if set.walk_through { 1 } else { set.moves.len() };
        group.throughput(Throughput::Elements(per_iteration as u64));
        if set.walk_through {
            // A sample is many single moves; criterion's default of 100
            // samples would take too long at 4M triangles.
            group.sample_size(30);
        }
        let mut solver = reusable_solver(level, &unchecked);
        time_set(&mut group, "ours", set, |m| {
            black_box(run_move(&mut solver, m));
        });
        if diagnostics() {
            let mut checked = reusable_solver(level, &settings);
            time_set(&mut group, "ours_checked", set, |m| {
                black_box(run_move(&mut checked, m));
            });
            time_set(&mut group, "ours_slide", set, |m| {
                let (start, vel) = (m.start_world, m.velocity_world);
                black_box(slide(
                    level.world(),
                    &unchecked,
                    start,
                    vel,
                    TraceDetail::Summary,
                ));
            });
        }
        time_set(&mut group, "ours_slide_checked", set, |m| {
            let (start, vel) = (m.start_world, m.velocity_world);
            black_box(slide(
                level.world(),
                &settings,
                start,
                vel,
                TraceDetail::Summary,
            ));
        });
        time_set(&mut group, "parry3d", set, |m| {
            black_box(peer.slide(m.start_world, m.velocity_world));
        });
        if diagnostics() {
            time_set(&mut group, "parry3d_mesh_first", set, |m| {
                black_box(peer.slide_with(m.start_world, m.velocity_world, true).0);
            });
        }
        group.finish();
    }
}

fn slide_benches(c: &mut Criterion) {
    eprintln!(
        "move seed {} (SLIDE_SEED), diagnostics {} (SLIDE_DIAG)",
        seed(),
        if diagnostics() { "on" } else { "off" }
    );
    let seed = seed();
    for (name, target, by_default) in [
        ("field_100k", 100_000, true),
        ("field_1m", 1_000_000, true),
        ("field_4m", 4_000_000, true),
    ] {
        if wanted(name, by_default) {
            let t = Instant::now();
            let level = Level::from_mesh(name, field(target, seed));
            eprintln!("{name}: level built in {:.1} s", t.elapsed().as_secs_f64());
            bench_scene(c, name, &level, None);
        }
    }
    for (name, target, by_default) in [
        ("city_100k", 100_000, false),
        ("city_1m", 1_000_000, true),
        ("city_4m", 4_000_000, false),
    ] {
        if wanted(name, by_default) {
            let t = Instant::now();
            let generated = city(target);
            let curated = city_moves(&generated, SMALL);
            let level = Level::from_mesh(name, generated.mesh);
            eprintln!("{name}: level built in {:.1} s", t.elapsed().as_secs_f64());
            bench_scene(c, name, &level, Some(curated));
        }
    }
    if !wanted("sibenik_75k", true) {
        return;
    }
    let sibenik =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    if !sibenik.exists() {
        eprintln!("skipping sibenik_75k: {} not found", sibenik.display());
        return;
    }
    match Level::load(&sibenik, &ImportOptions::default()) {
        Ok(level) => bench_scene(c, "sibenik_75k", &level, None),
        Err(e) => eprintln!("skipping sibenik_75k: {e}"),
    }
}

/// Short runs by default, so that the whole bench takes minutes; the
/// command line (`--warm-up-time`, `--measurement-time`) still decides.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = slide_benches
}
criterion_main!(benches);
