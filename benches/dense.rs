//! Character frames on a dense level: the conference room (331k
//! triangles in the file, 277k kept, at scale 0.003, an 8 m by 5 m room
//! 1.95 m high whose chairs hold thousands of millimetre triangles), and
//! the built-in level for comparison.
//!
//! The walks: straight 1 s walks (60 Hz) of the default character (and of
//! a 0.4 m by 1.8 m capsule) from the floor under a grid of points, four
//! headings each; starts inside a table or a chair (where the ray up from
//! below the level found the underside of one) are left out. Every frame
//! runs every phase with the self checks on (the default settings), as
//! `collidoscope walk` does, without trigger events or iteration records.
//!
//! Target (issue 26): a frame on the conference level in at most 0.2 ms.
//! The conference walks are skipped, with a message, when
//! `../shared/levels` is absent.
//! Run: `cargo bench --no-default-features --bench dense`

use collidoscope::analysis::generate::default_level;
use collidoscope::bvh::{BvhScratch, QueryStats};
use collidoscope::character::{WalkSpec, WalkTrace, walk};
use collidoscope::collide::SlideSettings;
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{DVec3, Vec3};
use std::hint::black_box;
use std::path::Path;

/// Grid points per side for the walk starts.
const GRID: usize = 4;
/// Seconds per walk.
const SECONDS: f64 = 1.0;

/// Walks from the floor under a `GRID` x `GRID` grid over the level (the
/// first surface a ray up from below meets), four headings each, leaving
/// out the starts where the character is inside something.
fn floor_walks(level: &Level, settings: &SlideSettings) -> Vec<WalkSpec> {
    let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    for b in level.mesh().tri_aabbs() {
        lo = lo.min(b.min);
        hi = hi.max(b.max);
    }
    let mut scratch = BvhScratch::default();
    let ry = settings.half_extents().y;
    let headings = [
        DVec3::X,
        DVec3::Z,
        DVec3::new(-1.0, 0.0, 0.3),
        DVec3::new(0.4, 0.0, -1.0),
    ];
    let mut walks = Vec::new();
    let n = GRID + 1;
    for i in 1..n {
        for k in 1..n {
            let x = lo.x + (hi.x - lo.x) * i as f32 / n as f32;
            let z = lo.z + (hi.z - lo.z) * k as f32 / n as f32;
            let origin = Vec3::new(x, lo.y - 1.0, z);
            let Some(hit) = level.bvh().ray_cast(
                level.mesh(),
                origin,
                Vec3::Y,
                hi.y - lo.y + 2.0,
                &mut scratch,
                &mut QueryStats::default(),
            ) else {
                continue;
            };
            let from = DVec3::new(x as f64, (origin.y + hit.t) as f64 + ry + 0.02, z as f64);
            for direction in headings {
                let spec = WalkSpec {
                    from,
                    direction,
                    seconds: SECONDS,
                    jump: false,
                };
                let probe = WalkSpec {
                    seconds: 0.1,
                    ..spec
                };
                let w = walk(level.world(), settings, &probe, WalkTrace::Summary).unwrap();
                if w.summary.embedded_iterations == 0 {
                    walks.push(spec);
                }
            }
        }
    }
    walks
}

fn bench_level(c: &mut Criterion, name: &str, level: &Level) {
    let ellipsoid = SlideSettings::default();
    let capsule = SlideSettings {
        shape: CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        },
        ..SlideSettings::default()
    };
    let mut g = c.benchmark_group(format!("dense/{name}"));
    g.sample_size(10);
    for (shape, settings) in [("ellipsoid", &ellipsoid), ("capsule", &capsule)] {
        let walks = floor_walks(level, settings);
        let frames = walks.len() * (SECONDS * settings.character.frame_rate_hz).ceil() as usize;
        // What the frames test, from one summary run.
        let (mut iterations, mut candidates) = (0u64, 0u64);
        for spec in &walks {
            let w = walk(level.world(), settings, spec, WalkTrace::Summary).unwrap();
            for it in w.frames.iter().flat_map(|f| &f.iterations) {
                iterations += 1;
                candidates += u64::from(it.record.candidate_count);
            }
        }
        eprintln!(
            "{name} {shape}: {} walks, {frames} frames, {:.2} iterations a frame, {:.1} candidates tested an iteration",
            walks.len(),
            iterations as f64 / frames as f64,
            candidates as f64 / iterations.max(1) as f64
        );
        g.throughput(Throughput::Elements(frames as u64));
        g.bench_function(format!("{shape}_frames"), |b| {
            b.iter(|| {
                for spec in &walks {
                    let w = walk(level.world(), settings, spec, WalkTrace::FramesOnly).unwrap();
                    black_box(w.summary.final_position);
                }
            })
        });
    }
    g.finish();
}

fn dense_benches(c: &mut Criterion) {
    let conference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/conference_ward_331k.obj.gz");
    let options = ImportOptions {
        scale: 0.003,
        ..ImportOptions::default()
    };
    match Level::load(&conference, &options) {
        Ok(level) => bench_level(c, "conference", &level),
        Err(_) => eprintln!("../shared/levels absent: skipping the conference level"),
    }
    let built_in = Level::from_mesh("built-in", default_level());
    bench_level(c, "built_in", &built_in);
}

criterion_group!(benches, dense_benches);
criterion_main!(benches);
