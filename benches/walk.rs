//! The tree walk on big levels: fresh random moves, ours against parry3d.
//!
//! `benches/slide.rs` repeats a set of 300 moves, so after the first pass
//! the nodes and triangles they read sit in the caches. A user's moves do
//! not repeat like that. Here each scene draws `POOL` moves from a seed
//! (random points of the level, the probe standing on the ground below
//! them, clear of the geometry, random directions), and each benchmark
//! iteration runs the next `CHUNK` of them, so a move comes back only
//! after `POOL / CHUNK` iterations, by which time the rest of the pool
//! has gone through the caches. On the 1M and 4M cities the pool reads far
//! more than a 32 MiB L3: this is where the layout of the tree shows.
//!
//! Ours: one kept solver (`SlideSolver::reusable`, `start_move`,
//! `run_to_end`), robust mode, summary trace, self checks off. The peer:
//! the loop of `benches/slide.rs`, a unit ball cast with `cast_shapes`
//! against parry's `TriMesh` in the probe's ellipsoid space, up to 5
//! iterations, the same skin. Two move kinds: `long` (0.5-5 m, slightly
//! down) and `frame` (one 60 Hz frame of walking: 0.15 m forward, 3 cm
//! down, from the ground).
//!
//! Scenes: `WALK_SCENES=city_1m,city_4m` runs only those (all by default).
//!
//! Run: `cargo bench --no-default-features --bench walk -- --warm-up-time 1 --measurement-time 3`

use collidoscope::analysis::generate::{ProbeMove, city};
use collidoscope::bvh::{BvhScratch, QueryStats};
use collidoscope::collide::{MoveEnd, SlideSettings, SlideSolver, TraceDetail};
use collidoscope::level::{ImportOptions, Level};
use collidoscope::math::Vec3;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
#[path = "support/parry_slide.rs"]
mod parry_slide;
use parry_slide::ParrySlide;
use std::cell::Cell;
use std::hint::black_box;
use std::path::Path;

/// Moves drawn per scene and kind.
const POOL: usize = 24_000;
/// Moves run by one benchmark iteration, the next ones in the pool each time.
const CHUNK: usize = 1_000;
/// The seed of every scene's moves.
const SEED: u64 = 0xC011_1D05_C0BE;

/// SplitMix64: the `i`-th number in [0, 1) of the stream `seed`.
fn unit(seed: u64, i: u64) -> f64 {
    let mut x = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((x ^ (x >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// `count` moves from `seed`: a random point of the level's plan, the
/// highest ground below the level's top there (our ray cast), the probe
/// 5 cm above it and at least 3 cm clear of everything (parry's
/// distance), a random heading; `long` moves 0.5-5 m slightly down, or a
/// 60 Hz frame of walking.
fn random_moves(
    level: &Level,
    peer: &ParrySlide,
    seed: u64,
    count: usize,
    long: bool,
) -> Vec<ProbeMove> {
    let b = level.mesh().bounds();
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let mut scratch = BvhScratch::default();
    let mut moves = Vec::with_capacity(count);
    let mut i = 0u64;
    while moves.len() < count && i < count as u64 * 100 {
        let r = |k: u64| unit(seed, 5 * i + k);
        let (x, z) = (lo.x + (hi.x - lo.x) * r(0), lo.z + (hi.z - lo.z) * r(1));
        let angle = std::f64::consts::TAU * r(2);
        let len = 0.5 + 4.5 * r(3);
        i += 1;
        let top = Vec3::new(x as f32, hi.y as f32 + 1.0, z as f32);
        let Some(hit) = level.bvh().ray_cast(
            level.mesh(),
            top,
            -Vec3::Y,
            (hi.y - lo.y) as f32 + 2.0,
            &mut scratch,
            &mut QueryStats::default(),
        ) else {
            continue;
        };
        let start = DVec3::new(x, f64::from(top.y - hit.t) + 0.95, z);
        if peer.clearance(start) < 0.03 {
            continue;
        }
        let heading = DVec3::new(angle.cos(), 0.0, angle.sin());
        let velocity = if long {
            (heading - DVec3::Y * 0.1) * len
        } else {
            heading * 0.15 - DVec3::Y * 0.03
        };
        moves.push(ProbeMove {
            start_world: start,
            velocity_world: velocity,
        });
    }
    moves
}

fn run(solver: &mut SlideSolver<'_>, m: &ProbeMove) -> Option<MoveEnd> {
    solver
        .start_move(m.start_world, m.velocity_world)
        .then(|| solver.run_to_end())
}

/// The next `CHUNK` moves of `pool` after `cursor`, advancing it.
fn next_chunk<'m>(pool: &'m [ProbeMove], cursor: &Cell<usize>) -> &'m [ProbeMove] {
    let at = cursor.get();
    let chunk = &pool[at..(at + CHUNK).min(pool.len())];
    cursor.set(if at + CHUNK >= pool.len() {
        0
    } else {
        at + CHUNK
    });
    chunk
}

fn bench_scene(c: &mut Criterion, name: &str, level: &Level) {
    let settings = SlideSettings {
        self_checks: false,
        ..SlideSettings::default()
    };
    let peer = ParrySlide::new(level.mesh(), &settings);
    let tris = level.mesh().triangle_count() as f64;
    let mesh = level.mesh();
    let ours_mesh = std::mem::size_of_val(mesh.positions())
        + std::mem::size_of_val(mesh.triangles())
        + std::mem::size_of_val(mesh.tri_aabbs());
    let ours_bvh = level.bvh().stats().memory_bytes;
    eprintln!(
        "{name}: {} triangles; memory per triangle: ours {:.1} B (mesh {:.1} + BVH {:.1}), parry3d {:.1} B",
        tris,
        (ours_mesh + ours_bvh) as f64 / tris,
        ours_mesh as f64 / tris,
        ours_bvh as f64 / tris,
        peer.mesh_espace.heap_memory_size() as f64 / tris,
    );
    for (kind, long) in [("long", true), ("frame", false)] {
        let pool = random_moves(level, &peer, SEED ^ u64::from(long), POOL, long);
        assert!(pool.len() >= CHUNK, "{name}: too few starts");
        let mut group = c.benchmark_group(format!("walk_{kind}/{name}"));
        group.throughput(Throughput::Elements(CHUNK as u64));
        let mut solver = SlideSolver::reusable(level.world(), &settings, TraceDetail::Summary)
            .expect("valid settings");
        let cursor = Cell::new(0);
        group.bench_function("collidoscope_unchecked", |b| {
            b.iter_batched(
                || next_chunk(&pool, &cursor),
                |chunk| {
                    for m in chunk {
                        black_box(run(&mut solver, m));
                    }
                },
                BatchSize::PerIteration,
            )
        });
        let cursor = Cell::new(0);
        group.bench_function("parry3d", |b| {
            b.iter_batched(
                || next_chunk(&pool, &cursor),
                |chunk| {
                    for m in chunk {
                        black_box(peer.slide(m.start_world, m.velocity_world));
                    }
                },
                BatchSize::PerIteration,
            )
        });
        group.finish();
    }
}

/// Whether `WALK_SCENES` (a comma-separated list; all scenes when unset)
/// names the scene: building the 4M city takes a while.
fn wanted(name: &str) -> bool {
    std::env::var("WALK_SCENES").map_or(true, |s| s.split(',').any(|w| w.trim() == name))
}

fn walk_benches(c: &mut Criterion) {
    for (name, target) in [
        ("city_100k", 100_000),
        ("city_1m", 1_000_000),
        ("city_4m", 4_000_000),
    ] {
        if !wanted(name) {
            continue;
        }
        let level = Level::from_mesh(name, city(target).mesh);
        bench_scene(c, name, &level);
    }
    let sibenik =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    if !wanted("sibenik_75k") {
        return;
    }
    match Level::load(&sibenik, &ImportOptions::default()) {
        Ok(level) => bench_scene(c, "sibenik_75k", &level),
        Err(e) => eprintln!("skipping sibenik: {e}"),
    }
}

criterion_group!(benches, walk_benches);
criterion_main!(benches);
