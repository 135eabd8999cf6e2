//! A level made READY from an OBJ file (parse + BVH build): Collidoscope's
//! `Level::load` against the `obj` crate's parser followed by a parry3d
//! `TriMesh` (which builds parry's BVH), in the same run, on the same file.
//!
//! Scenes: a ~1M-triangle generated city written to a temporary directory,
//! and, when `../shared/levels` is present, the 331k-triangle conference
//! room (`.obj.gz`, decompressed inside the timed load by both sides).
//!
//! Short run: `cargo bench --bench load -- --warm-up-time 1 --measurement-time 3`

use collidoscope::analysis::generate::{city, write_obj};
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry3d::math::Vector;
use parry3d::shape::TriMesh as ParryTriMesh;
use std::fs::File;
use std::hint::black_box;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The peer: parse with the `obj` crate, fan-triangulate, build a parry `TriMesh`.
fn parry_load(path: &Path) -> ParryTriMesh {
    let file = BufReader::new(File::open(path).expect("bench file opens"));
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let data = obj::ObjData::load_buf(BufReader::new(reader)).expect("bench file parses");
    let vertices: Vec<Vector> = data
        .position
        .iter()
        .map(|p| Vector::new(p[0], p[1], p[2]))
        .collect();
    let mut indices = Vec::new();
    for poly in data
        .objects
        .iter()
        .flat_map(|o| &o.groups)
        .flat_map(|g| &g.polys)
    {
        let v: Vec<u32> = poly.0.iter().map(|t| t.0 as u32).collect();
        for k in 1..v.len().saturating_sub(1) {
            indices.push([v[0], v[k], v[k + 1]]);
        }
    }
    ParryTriMesh::new(vertices, indices).expect("non-empty mesh")
}

fn bench_file(c: &mut Criterion, name: &str, path: &Path) {
    let options = ImportOptions::default();
    let level = match Level::load(path, &options) {
        Ok(level) => level,
        Err(e) => {
            eprintln!("skipping {name}: {e}");
            return;
        }
    };
    let triangles = level.mesh().triangle_count();
    eprintln!(
        "{name}: {triangles} triangles; one load: parse {:.3} s + BVH build {:.3} s",
        level.parse_time.as_secs_f64(),
        level.build_time.as_secs_f64()
    );
    drop(level);
    let mut group = c.benchmark_group(format!("load/{name}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(triangles as u64));
    group.bench_function("collidoscope", |b| {
        b.iter(|| black_box(Level::load(path, &options).expect("loads")))
    });
    group.bench_function("obj+parry3d", |b| b.iter(|| black_box(parry_load(path))));
    group.finish();
}

/// Writes the generated ~1M-triangle city as OBJ into a fresh temporary directory.
fn write_city(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("temp dir");
    let path = dir.join("city_1m.obj");
    let mut out = BufWriter::new(File::create(&path).expect("temp file"));
    write_obj(&city(1_000_000).mesh, &mut out).expect("writes");
    out.flush().expect("flushes");
    path
}

fn load_benches(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("collidoscope-bench-load-{}", std::process::id()));
    let path = write_city(&dir);
    bench_file(c, "city_1m", &path);
    let _ = std::fs::remove_dir_all(&dir);
    let conference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/conference_ward_331k.obj.gz");
    if conference.exists() {
        bench_file(c, "conference_331k", &conference);
    } else {
        eprintln!(
            "skipping conference_331k: {} not found",
            conference.display()
        );
    }
}

criterion_group!(benches, load_benches);
criterion_main!(benches);
