//! Where a move's time goes on a big level: counters per move and a
//! warm/cold timing split for the kept solver (self checks off) on the
//! bench's generated `field` levels (or, with `WALK_LEVEL=city`, its
//! `city`), and a loop to run under `perf`.
//!
//! ```text
//! cargo run --release --no-default-features --example walk_profile -- 1000000 long counts
//! cargo run --release --no-default-features --example walk_profile -- 1000000 long time
//! perf record -g -- target/release/examples/walk_profile 1000000 long loop 20
//! ```
//!
//! The moves are those of `benches/slide.rs` (`walk` or `long`, seed 30),
//! or (`air`) the long ones level and 1.5 m higher: mostly open space.
//! `counts` prints, per move: iterations, open-space walks and the ordered
//! searches that follow the ones that fail, and each one's nodes and
//! triangles, as if every iteration tried the walk (`run_to_end` tries
//! it only where it guesses open space). `time` times the 3,000 moves in turn (each move's nodes long
//! gone from the caches at 1M triangles) against the first 300 repeated
//! (warm), so the difference is what the caches cost. `loop` runs the
//! 3,000 for the given seconds. `tree` prints the sizes of the
//! triangles' boxes and the tree's leaf sizes.

use collidoscope::analysis::generate::move_sets::{DEFAULT_MOVE_SEED, MoveKind, random_moves};
use collidoscope::analysis::generate::{ProbeMove, city, field};
use collidoscope::bvh::QueryStats;
use collidoscope::collide::{SlideSettings, SlideSolver, TraceDetail};
use collidoscope::level::Level;
use collidoscope::math::Aabb;
use glam::DVec3;
use std::hint::black_box;
use std::time::Instant;
#[path = "../benches/support/parry_slide.rs"]
mod parry_slide;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let triangles: usize = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let kind = match args.get(2).map(String::as_str) {
        Some("walk") => MoveKind::Walk,
        _ => MoveKind::Long,
    };
    let what = args.get(3).map(String::as_str).unwrap_or("counts");
    let seconds: f64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10.0);

    // `WALK_LEVEL=city`: the generated city instead of the field.
    let city_level = std::env::var("WALK_LEVEL").is_ok_and(|v| v == "city");
    let level = if city_level {
        Level::from_mesh("city", city(triangles).mesh)
    } else {
        Level::from_mesh("field", field(triangles, DEFAULT_MOVE_SEED))
    };
    let settings = SlideSettings {
        self_checks: false,
        ..SlideSettings::default()
    };
    let radii = settings.radii_vec();
    let set = DEFAULT_MOVE_SEED.wrapping_mul(16) + if kind == MoveKind::Walk { 1 } else { 2 };
    let mut moves = random_moves(&level, radii, kind, 3_000, set);
    if args.get(2).map(String::as_str) == Some("air") {
        // The same moves level, 1.5 m higher: mostly through open space.
        for m in &mut moves {
            m.start_world.y += 1.5;
            m.velocity_world.y = 0.0;
        }
    }
    let mut solver =
        SlideSolver::reusable(level.world(), &settings, TraceDetail::Summary).expect("settings");
    let mut run = |m: &ProbeMove| {
        if solver.start_move(m.start_world, m.velocity_world) {
            black_box(solver.run_to_end());
        }
    };
    match what {
        "time" => {
            for round in 0..3 {
                let cold = seconds_a_move(&moves, &mut run);
                let warm = seconds_a_move(moves[..300].iter().cycle().take(3_000), &mut run);
                println!(
                    "round {round}: 3,000 in turn {:.2} µs a move, first 300 repeated {:.2} µs a move",
                    cold * 1e6,
                    warm * 1e6
                );
            }
        }
        "parry" => {
            let peer = parry_slide::ParrySlide::new(level.mesh(), &settings);
            for round in 0..2 {
                let ours = seconds_a_move(&moves, &mut run);
                let theirs = seconds_a_move(&moves, |m| {
                    black_box(peer.slide(m.start_world, m.velocity_world));
                });
                println!(
                    "round {round}: 3,000 in turn: ours {:.2} µs, parry3d {:.2} µs a move, {:.1}x",
                    ours * 1e6,
                    theirs * 1e6,
                    theirs / ours
                );
            }
        }
        "loop" => {
            let t = Instant::now();
            while t.elapsed().as_secs_f64() < seconds {
                for m in &moves {
                    run(m);
                }
            }
        }
        "tree" => tree_shape(&level),
        _ => counts(&level, &settings, &moves),
    }
}

/// Per move: iterations, open-space walks (and how many fail), ordered
/// searches, and the nodes and triangles of each.
fn counts(
    level: &Level,
    settings: &SlideSettings,
    moves: &[collidoscope::analysis::generate::ProbeMove],
) {
    let radii = settings.radii_vec();
    let mut solver =
        SlideSolver::reusable(level.world(), settings, TraceDetail::Summary).expect("settings");
    let (mut iterations, mut open_walks, mut open_failed) = (0u64, 0u64, 0u64);
    let (mut open_nodes, mut open_tris, mut failed_nodes) = (0u64, 0u64, 0u64);
    let (mut searches, mut search_nodes, mut search_tris, mut candidates) =
        (0u64, 0u64, 0u64, 0u64);
    for m in moves {
        if !solver.start_move(m.start_world, m.velocity_world) {
            continue;
        }
        while let Some(rec) = solver.step() {
            // What the open-space walk finds on the box the solver hands
            // it (within its rounding): `run_to_end` took that walk before
            // every iteration until 2026-11-29, and still does after an
            // iteration that met nothing.
            iterations += 1;
            let (c, v) = (rec.start, rec.velocity);
            let margin = radii + DVec3::splat(1e-9 + v.abs().max_element() * 1e-6);
            let start_box = Aabb::from_f64_covering(c - margin, c + margin);
            let mut stats = QueryStats::default();
            let open = level
                .bvh()
                .sweep_reaches_nothing(&start_box, v.as_vec3(), &mut stats);
            open_walks += 1;
            if open {
                open_nodes += stats.nodes_visited as u64;
                open_tris += stats.triangles_tested as u64;
            } else {
                open_failed += 1;
                failed_nodes += stats.nodes_visited as u64;
                searches += 1;
                search_nodes += rec.bvh_stats.nodes_visited as u64;
                search_tris += rec.bvh_stats.triangles_tested as u64;
                candidates += rec.candidate_count as u64;
            }
        }
    }
    let n = moves.len() as f64;
    let per = |x: u64| x as f64 / n;
    let per_of = |x: u64, of: u64| x as f64 / of.max(1) as f64;
    println!(
        "{} moves: {:.2} iterations a move; open walks {:.2} a move ({:.2} fail); \
         successful open walk {:.1} nodes {:.1} triangle boxes; failed open walk {:.1} nodes (up to the first box met); \
         ordered searches {:.2} a move, each {:.1} nodes, {:.1} triangle boxes, {:.1} triangles tested",
        moves.len(),
        per(iterations),
        per(open_walks),
        per(open_failed),
        per_of(open_nodes, open_walks - open_failed),
        per_of(open_tris, open_walks - open_failed),
        per_of(failed_nodes, open_failed),
        per(searches),
        per_of(search_nodes, searches),
        per_of(search_tris, searches),
        per_of(candidates, searches),
    );
    let bvh = level.bvh().stats();
    println!(
        "tree: {} nodes ({:.1} MB), {} leaves, depth {}, {:.1} B a triangle",
        bvh.nodes,
        bvh.nodes as f64 * 128.0 / 1e6,
        bvh.leaves,
        bvh.max_depth,
        bvh.memory_bytes as f64 / level.mesh().triangle_count() as f64
    );
}

/// Seconds a move, running each of `moves` once, in turn.
fn seconds_a_move<'a>(
    moves: impl IntoIterator<Item = &'a ProbeMove>,
    mut run: impl FnMut(&ProbeMove),
) -> f64 {
    let t = Instant::now();
    let mut n = 0usize;
    for m in moves {
        run(m);
        n += 1;
    }
    t.elapsed().as_secs_f64() / n as f64
}

/// How large the triangles' boxes are (a level of long walls would have
/// boxes that overlap many others), and the tree's leaf sizes.
fn tree_shape(level: &Level) {
    let boxes = level.mesh().tri_aabbs();
    let mut half_area = 0f64;
    let mut longest = Vec::with_capacity(boxes.len());
    for b in boxes.iter() {
        let e = b.max - b.min;
        half_area += (e.x * e.y + e.y * e.z + e.z * e.x) as f64;
        longest.push(e.max_element());
    }
    longest.sort_by(f32::total_cmp);
    let q = |f: f64| longest[((longest.len() - 1) as f64 * f) as usize];
    println!(
        "{} triangles; box half-area mean {:.4} m2; longest side p50 {:.3} p90 {:.3} p99 {:.3} max {:.3} m; over 2 m: {:.2} %",
        boxes.len(),
        half_area / boxes.len() as f64,
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        100.0 * longest.iter().filter(|&&l| l > 2.0).count() as f64 / longest.len() as f64
    );
    let st = level.bvh().stats();
    println!("leaf sizes {:?}", st.leaf_size_histogram);
}
