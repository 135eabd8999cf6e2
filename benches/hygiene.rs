//! Mesh hygiene (`analysis::hygiene::analyse_level`) on the shipped real levels,
//! on all cores.
//! Throughput is in triangles, so criterion's elements/s reads directly as
//! triangles per second; the time per 100k triangles is printed once per
//! level next to the counts. Levels: every level in `../shared/levels` with
//! over 1,000 triangles (skipped with a message when absent) and the
//! built-in level.
//!
//! `cargo bench --no-default-features --bench hygiene`

use collidoscope::analysis::generate::default_level;
use collidoscope::analysis::hygiene::{HygieneOptions, analyse_level};
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// (file, unit scale to metres) of the shared levels measured.
const SHARED: [(&str, f64); 4] = [
    ("galleria_map.obj", 1.0),
    ("threejs_collision_world.obj", 1.0),
    ("sibenik_dabrovic_75k.obj.gz", 1.0),
    ("conference_ward_331k.obj.gz", 0.003),
];

fn levels() -> Vec<Level> {
    let mut out = vec![Level::from_mesh("default_level", default_level())];
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    if !dir.is_dir() {
        eprintln!("SKIPPED the real levels: {} is absent", dir.display());
        return out;
    }
    for (file, scale) in SHARED {
        let options = ImportOptions {
            scale,
            ..ImportOptions::default()
        };
        out.push(Level::load(&dir.join(file), &options).expect("the level imports"));
    }
    out
}

fn hygiene_benches(c: &mut Criterion) {
    let options = HygieneOptions::default();
    let mut g = c.benchmark_group("hygiene");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for level in levels() {
        let triangles = level.mesh().triangle_count();
        let start = Instant::now();
        let report = analyse_level(&level, &options);
        let once = start.elapsed().as_secs_f64();
        eprintln!(
            "{}: {triangles} triangles, {} faults, one run {:.1} ms = {:.1} ms per 100k triangles",
            level.name,
            report.faults,
            once * 1e3,
            once * 1e3 * 100_000.0 / triangles as f64
        );
        g.throughput(Throughput::Elements(triangles as u64));
        g.bench_function(&level.name, |b| {
            b.iter(|| black_box(analyse_level(&level, &options)))
        });
    }
    g.finish();
}

criterion_group!(benches, hygiene_benches);
criterion_main!(benches);
