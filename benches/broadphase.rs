//! The three broad phases side by side: the BVH, the uniform grid and
//! sweep-and-prune (seed 003), on the same query boxes.
//!
//! Levels: a generated 256 x 256 height-field terrain (130k triangles) and,
//! when `../shared/levels` is present, the Sibenik cathedral (75k) and the
//! conference room (331k); a missing file is skipped with a message.
//! Per level: building each structure, then one frame of 256 probe-sized
//! boxes (0.8 x 1.8 x 0.8 m on a lattice over the level) queried through
//! each. "Moving probes": 2,000 probes on the terrain, each frame moving
//! every box a few centimetres and querying all of them; sweep-and-prune
//! repairs its sorted list with an insertion sort instead of sorting again.
//! Every phase returns the same candidate sets (the library's tests prove
//! it), so the figures compare cost alone.

use collidoscope::broadphase::{GridQueryStats, SweepAndPrune, UniformGrid, probe_boxes};
use collidoscope::bvh::{BvhScratch, QueryStats};
use collidoscope::level::{ImportOptions, Level};
use collidoscope::math::{Aabb, Vec3};
use collidoscope::terrain::HeightField;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

const PROBE: Vec3 = Vec3::new(0.8, 1.8, 0.8);

fn terrain() -> Level {
    let n = 256u32;
    let heights = (0..n * n)
        .map(|k| {
            let (i, j) = ((k % n) as f32, (k / n) as f32);
            (i * 0.05).sin() * 4.0 + (j * 0.08).cos() * 3.0
        })
        .collect();
    let field = HeightField::new(n, n, 1.0, heights).expect("finite heights");
    Level::from_mesh("terrain_130k", field.to_mesh("terrain"))
}

fn levels() -> Vec<Level> {
    let mut v = vec![terrain()];
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    for file in ["sibenik_dabrovic_75k.obj.gz", "conference_ward_331k.obj.gz"] {
        let path = shared.join(file);
        match Level::load(&path, &ImportOptions::default()) {
            Ok(level) => v.push(level),
            Err(e) => println!("skipping {file}: {e}"),
        }
    }
    v
}

fn bvh_frame(level: &Level, boxes: &[Aabb], scratch: &mut BvhScratch, out: &mut Vec<u32>) -> usize {
    let mut stats = QueryStats::default();
    let mut found = 0;
    for q in boxes {
        out.clear();
        level
            .bvh()
            .query_aabb(level.mesh().tri_aabbs(), q, scratch, out, None, &mut stats);
        found += out.len();
    }
    found
}

fn grid_frame(level: &Level, grid: &UniformGrid, boxes: &[Aabb], out: &mut Vec<u32>) -> usize {
    let mut stats = GridQueryStats::default();
    let mut found = 0;
    for q in boxes {
        out.clear();
        grid.query_aabb(level.mesh().tri_aabbs(), q, out, &mut stats);
        found += out.len();
    }
    found
}

fn sap_frame(level: &Level, sap: &mut SweepAndPrune, boxes: &[Aabb], out: &mut Vec<u32>) -> usize {
    sap.update(boxes);
    let mut found = 0;
    for p in 0..boxes.len() {
        out.clear();
        sap.candidates(level.mesh().tri_aabbs(), p, out);
        found += out.len();
    }
    found
}

fn bench_levels(c: &mut Criterion) {
    for level in levels() {
        let mut g = c.benchmark_group(format!("broadphase/{}", level.name));
        g.sample_size(10);
        let tri_aabbs = level.mesh().tri_aabbs();
        g.bench_function("build_grid", |b| {
            b.iter(|| UniformGrid::build(black_box(tri_aabbs)))
        });
        g.bench_function("build_sap", |b| {
            b.iter(|| SweepAndPrune::new(black_box(level.mesh())))
        });
        let boxes = probe_boxes(&level.mesh().bounds(), 256, PROBE);
        let grid = UniformGrid::build(tri_aabbs);
        let mut sap = SweepAndPrune::new(level.mesh());
        let (mut scratch, mut out) = (BvhScratch::default(), Vec::new());
        g.throughput(Throughput::Elements(boxes.len() as u64));
        g.bench_function("query_bvh", |b| {
            b.iter(|| bvh_frame(&level, black_box(&boxes), &mut scratch, &mut out))
        });
        g.bench_function("query_grid", |b| {
            b.iter(|| grid_frame(&level, &grid, black_box(&boxes), &mut out))
        });
        g.bench_function("query_sap", |b| {
            b.iter(|| sap_frame(&level, &mut sap, black_box(&boxes), &mut out))
        });
        g.finish();
    }
}

fn bench_moving(c: &mut Criterion) {
    let level = terrain();
    let start = probe_boxes(&level.mesh().bounds(), 2000, PROBE);
    let grid = UniformGrid::build(level.mesh().tri_aabbs());
    let mut sap = SweepAndPrune::new(level.mesh());
    let (mut scratch, mut out) = (BvhScratch::default(), Vec::new());
    // Frame k moves probe i along its own direction: boxes overtake one
    // another slowly, as walking characters do.
    let frame = |k: u32| -> Vec<Aabb> {
        start
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let angle = i as f32 * 2.399;
                let d = Vec3::new(angle.cos(), 0.0, angle.sin()) * (0.05 * (k % 200) as f32);
                Aabb::from_corners(b.min + d, b.max + d)
            })
            .collect()
    };
    let frames: Vec<Vec<Aabb>> = (0..200).map(frame).collect();
    let mut g = c.benchmark_group("broadphase/moving_2000_probes");
    g.sample_size(10);
    g.throughput(Throughput::Elements(start.len() as u64));
    let mut k = 0usize;
    g.bench_function("bvh", |b| {
        b.iter(|| {
            k = (k + 1) % frames.len();
            bvh_frame(&level, &frames[k], &mut scratch, &mut out)
        })
    });
    g.bench_function("grid", |b| {
        b.iter(|| {
            k = (k + 1) % frames.len();
            grid_frame(&level, &grid, &frames[k], &mut out)
        })
    });
    g.bench_function("sap_insertion_sort", |b| {
        b.iter(|| {
            k = (k + 1) % frames.len();
            sap_frame(&level, &mut sap, &frames[k], &mut out)
        })
    });
    g.finish();
}

criterion_group!(benches, bench_levels, bench_moving);
criterion_main!(benches);
