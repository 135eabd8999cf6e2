//! Where a character frame's time goes on a dense level: straight walks
//! of the default character over the conference room's floor (331k
//! triangles at scale 0.003), timed per frame, with the solver's counters
//! (iterations per frame, candidates tested and BVH nodes entered per
//! iteration) from a summary trace of the same walks.
//!
//! `cargo run --release --no-default-features --example dense_frames -- [LEVEL [SCALE [REPEATS]]]`
//! (default `../shared/levels/conference_ward_331k.obj.gz` at 0.003;
//! `builtin` for the built-in level; a fifth argument `capsule` walks a
//! 0.4 m by 1.8 m capsule instead of the default ellipsoid).

use collidoscope::analysis::generate::default_level;
use collidoscope::bvh::{BvhScratch, QueryStats};
use collidoscope::character::{Phase, WalkSpec, WalkTrace, walk};
use collidoscope::collide::SlideSettings;
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::{ImportOptions, Level};
use glam::{DVec3, Vec3};
use std::path::PathBuf;
use std::time::Instant;

/// Walk starts: the floor under a grid of points, found by rays cast up
/// from below the level (the first surface above is the floor's
/// underside, two-sided rays).
fn floor_starts(level: &Level, settings: &SlideSettings, count: usize) -> Vec<DVec3> {
    let aabbs = level.mesh().tri_aabbs();
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for b in aabbs {
        lo = lo.min(b.min);
        hi = hi.max(b.max);
    }
    let mut scratch = BvhScratch::default();
    let mut out = Vec::new();
    let n = (count as f64).sqrt().ceil() as usize + 1;
    let ry = settings.half_extents().y;
    for i in 1..n {
        for k in 1..n {
            let x = lo.x + (hi.x - lo.x) * i as f32 / n as f32;
            let z = lo.z + (hi.z - lo.z) * k as f32 / n as f32;
            let origin = Vec3::new(x, lo.y - 1.0, z);
            let hit = level.bvh().ray_cast(
                level.mesh(),
                origin,
                Vec3::Y,
                hi.y - lo.y + 2.0,
                &mut scratch,
                &mut QueryStats::default(),
            );
            if let Some(h) = hit {
                let y = origin.y + h.t;
                out.push(DVec3::new(x as f64, y as f64 + ry + 0.02, z as f64));
            }
        }
    }
    eprintln!("level box {lo} .. {hi}");
    out.truncate(count);
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/levels/conference_ward_331k.obj.gz")
    });
    let scale: f64 = args.get(2).map_or(0.003, |s| s.parse().unwrap());
    let repeats: usize = args.get(3).map_or(3, |s| s.parse().unwrap());
    let shape = args.get(4).cloned().unwrap_or_else(|| "ellipsoid".into());
    // `builtin`: the built-in level.
    let level = if path.as_os_str() == "builtin" {
        Level::from_mesh("built-in", default_level())
    } else {
        Level::load(
            &path,
            &ImportOptions {
                scale,
                ..ImportOptions::default()
            },
        )
        .expect("level loads")
    };
    let mut settings = SlideSettings::default();
    if shape == "capsule" {
        settings.shape = CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        };
    }
    eprintln!(
        "{}: {} triangles, shape {shape}",
        path.display(),
        level.mesh().tri_aabbs().len()
    );
    let starts = floor_starts(&level, &settings, 16);
    let dirs = [
        DVec3::X,
        DVec3::Z,
        DVec3::new(-1.0, 0.0, 0.3),
        DVec3::new(0.4, 0.0, -1.0),
    ];
    let all: Vec<WalkSpec> = starts
        .iter()
        .flat_map(|&from| {
            dirs.iter().map(move |&direction| WalkSpec {
                from,
                direction,
                seconds: 2.0,
                jump: false,
            })
        })
        .collect();
    // Starts inside a table or a chair (the ray found its underside) are
    // left out: a walk there never leaves its start.
    let specs: Vec<WalkSpec> = all
        .into_iter()
        .filter(|spec| {
            let w = walk(
                level.world(),
                &settings,
                &WalkSpec {
                    seconds: 0.1,
                    ..*spec
                },
                WalkTrace::Summary,
            )
            .unwrap();
            w.summary.embedded_iterations == 0
        })
        .collect();

    // Counters from summary traces.
    let (mut frames, mut iterations, mut candidates, mut nodes, mut boxes) = (0u64, 0, 0, 0, 0);
    let mut per_phase = std::collections::BTreeMap::<String, (u64, u64)>::new();
    let (mut embedded, mut tunnels) = (0u64, 0u64);
    for spec in &specs {
        let w = walk(level.world(), &settings, spec, WalkTrace::Summary).unwrap();
        if std::env::var("PER_WALK").is_ok() {
            let its: usize = w.frames.iter().map(|f| f.iterations.len()).sum();
            let c: u64 = w
                .frames
                .iter()
                .flat_map(|f| &f.iterations)
                .map(|i| u64::from(i.record.candidate_count))
                .sum();
            println!(
                "walk from {:.2} dir {:.1}: {} its, {:.0} cand/it, progress {:.2} m, embedded {}",
                spec.from,
                spec.direction,
                its,
                c as f64 / its as f64,
                w.summary.progress_m,
                w.summary.embedded_iterations
            );
        }
        embedded += u64::from(w.summary.embedded_iterations);
        tunnels += u64::from(w.summary.tunnel_iterations);
        for f in &w.frames {
            frames += 1;
            for it in &f.iterations {
                iterations += 1;
                candidates += u64::from(it.record.candidate_count);
                nodes += u64::from(it.record.bvh_stats.nodes_visited);
                boxes += u64::from(it.record.bvh_stats.triangles_tested);
                let e = per_phase.entry(format!("{:?}", it.phase)).or_default();
                e.0 += 1;
                e.1 += u64::from(it.record.candidate_count);
            }
        }
    }
    let _ = Phase::Velocity;
    println!(
        "{} walks, {frames} frames, {iterations} iterations ({:.2}/frame); per iteration: {:.1} candidates tested, {:.1} nodes entered, {:.1} triangle boxes tested; embedded {embedded}, tunnels {tunnels}",
        specs.len(),
        iterations as f64 / frames as f64,
        candidates as f64 / iterations as f64,
        nodes as f64 / iterations as f64,
        boxes as f64 / iterations as f64,
    );
    for (p, (n, c)) in &per_phase {
        println!(
            "  {p}: {n} iterations, {:.1} candidates each",
            *c as f64 / *n as f64
        );
    }

    let mut quick = settings.clone();
    quick.self_checks = false;
    for (name, s) in [("self checks on", &settings), ("self checks off", &quick)] {
        let mut best = f64::INFINITY;
        let mut all = Vec::new();
        for _ in 0..repeats {
            let t = Instant::now();
            let mut n = 0u64;
            for spec in &specs {
                let w = walk(level.world(), s, spec, WalkTrace::FramesOnly).unwrap();
                n += u64::from(w.summary.frames);
                std::hint::black_box(w.summary.final_position);
            }
            let ms = t.elapsed().as_secs_f64() * 1e3 / n as f64;
            best = best.min(ms);
            all.push(format!("{ms:.4}"));
        }
        println!("{name}: {best:.4} ms/frame best of [{}]", all.join(", "));
    }
}
