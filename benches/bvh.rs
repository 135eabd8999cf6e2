//! BVH build and query throughput, ours next to parry3d's in the same run.
//!
//! Build: our `TriMesh::new` (per-triangle AABBs) + `Bvh::build` against
//! `parry3d::shape::TriMesh::new` (which computes the same boxes and builds
//! its binned BVH), single-threaded, from the same positions and indices.
//! Our build and boxes use rayon; here they run inside a one-thread rayon
//! pool, so both sides use one core (`Bvh::build` then takes its
//! single-threaded path, which builds the same tree). One extra figure,
//! `ours_build_only_all_threads`, shows the parallel build on every core.
//! Queries: swept-box overlap queries as the solver issues them, and rays
//! as mouse picking does. Meshes: a generated ~100k-triangle level and, when
//! `../shared/levels` is present, the Sibenik cathedral (75k triangles).
//! Memory per triangle is printed once per mesh.

use collidoscope::bvh::{Bvh, BvhScratch, QueryStats};
use collidoscope::math::{Aabb, Vec3};
use collidoscope::mesh::TriMesh;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector as PVec;
use parry3d::query::{Ray as PRay, RayCast};
use parry3d::shape::TriMesh as PTriMesh;
use std::hint::black_box;
use std::io::Read;

type Soup = (Vec<Vec3>, Vec<[u32; 3]>);

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next_f32(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }
}

/// A 200 m square level: a 150 x 150 heightfield (45k triangles) and 4,500
/// crates and pillars (54k triangles), about 99k triangles.
fn generated_level() -> Soup {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut pos, mut tris) = (Vec::new(), Vec::new());
    let n = 150u32;
    let cell = 200.0 / n as f32;
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f32 * cell - 100.0, j as f32 * cell - 100.0);
            pos.push(Vec3::new(
                x,
                (x * 0.05).sin() * 2.0 + (z * 0.07).cos() * 1.5,
                z,
            ));
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            tris.push([a, a + n + 1, a + 1]);
            tris.push([a + 1, a + n + 1, a + n + 2]);
        }
    }
    for _ in 0..4500 {
        let c = Vec3::new(
            rng.range(-98.0, 98.0),
            rng.range(-2.0, 3.0),
            rng.range(-98.0, 98.0),
        );
        let h = Vec3::new(
            rng.range(0.2, 1.5),
            rng.range(0.2, 4.0),
            rng.range(0.2, 1.5),
        );
        let base = pos.len() as u32;
        for k in 0..8 {
            let s = |bit: u32| if k & bit != 0 { 1.0 } else { -1.0 };
            pos.push(c + h * Vec3::new(s(1), s(2), s(4)));
        }
        for [a, b, c, d] in [
            [0, 4, 6, 2],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 2, 3, 1],
            [4, 5, 7, 6],
        ] {
            tris.push([base + a, base + b, base + c]);
            tris.push([base + a, base + c, base + d]);
        }
    }
    (pos, tris)
}

/// Positions and fan-triangulated faces of a plain `.obj.gz` (only `v` and `f`).
fn load_obj_gz(path: &str) -> Option<Soup> {
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .ok()?;
    let (mut pos, mut tris) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let c: Vec<f32> = it.take(3).filter_map(|s| s.parse().ok()).collect();
                pos.push(Vec3::new(c[0], c[1], c[2]));
            }
            Some("f") => {
                let idx: Vec<u32> = it
                    .filter_map(|s| s.split('/').next()?.parse::<u32>().ok())
                    .map(|i| i - 1)
                    .collect();
                for k in 1..idx.len().saturating_sub(1) {
                    tris.push([idx[0], idx[k], idx[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Some((pos, tris))
}

fn meshes() -> Vec<(&'static str, Soup)> {
    let mut v = vec![("generated_99k", generated_level())];
    match load_obj_gz("../shared/levels/sibenik_dabrovic_75k.obj.gz") {
        Some(s) => v.push(("sibenik_75k", s)),
        None => {
            println!("skipping sibenik: ../shared/levels/sibenik_dabrovic_75k.obj.gz not found")
        }
    }
    v
}

fn to_parry(soup: &Soup) -> (Vec<PVec>, Vec<[u32; 3]>) {
    let pos = soup.0.iter().map(|p| PVec::new(p.x, p.y, p.z)).collect();
    (pos, soup.1.clone())
}

fn ours(soup: &Soup) -> (TriMesh, Bvh) {
    let mesh = TriMesh::single_object("level", soup.0.clone(), soup.1.clone());
    let bvh = Bvh::build(mesh.tri_aabbs());
    (mesh, bvh)
}

fn print_memory(name: &str, soup: &Soup) {
    let n = soup.1.len() as f64;
    let (mesh, _) = ours(soup);
    for leaf in [1, 2, 4, 6, 8] {
        let s = Bvh::build_with_leaf_size(mesh.tri_aabbs(), leaf).stats();
        println!(
            "{name}: ours (max leaf {leaf}): {} nodes, depth {}, {:.1} B/tri (nodes, tri_indices and leaf-ordered boxes), {:.1} B/tri with the mesh's own tri_aabbs",
            s.nodes,
            s.max_depth,
            s.memory_bytes as f64 / n,
            (s.memory_bytes + 24 * mesh.tri_aabbs().len()) as f64 / n
        );
    }
    let (p, i) = to_parry(soup);
    let pm = PTriMesh::new(p, i).expect("non-empty mesh");
    println!(
        "{name}: parry3d Bvh: {:.1} B/tri (heap)",
        pm.bvh().heap_memory_size() as f64 / n
    );
}

/// A rayon pool of one thread: our build and boxes inside it use one core,
/// like parry's (its `parallel` feature is off).
fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread rayon pool")
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (ns):
/// unlike wall time it does not count the time other jobs hold the cores.
/// The kernel updates it at scheduler ticks (a few ms), so callers time
/// batches of calls long enough to make that error small.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Mean thread CPU time of one call of `f`, in ms, over a batch of `calls`.
fn cpu_ms(calls: usize, mut f: impl FnMut()) -> Option<f64> {
    let start = thread_cpu_ns()?;
    for _ in 0..calls {
        f();
    }
    Some((thread_cpu_ns()? - start) as f64 / 1e6 / calls as f64)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Build cost in CPU time, ours and parry's interleaved so both see the same
/// machine: the ratio is what to read on a shared, noisy machine. Runs on
/// the one thread of `pool`, whose CPU time `thread_cpu_ns` then reads.
fn print_build_cpu_time(pool: &rayon::ThreadPool, name: &str, soup: &Soup) {
    pool.install(|| print_build_cpu_time_here(name, soup));
}

fn print_build_cpu_time_here(name: &str, soup: &Soup) {
    let n = soup.1.len() as f64;
    let parry_input = to_parry(soup);
    let (mut ours_ms, mut parry_ms) = (Vec::new(), Vec::new());
    // Five rounds of batches of 12 (about 0.2-0.5 s each), interleaved.
    for _ in 0..5 {
        let o = cpu_ms(12, || {
            let mesh = TriMesh::single_object("level", soup.0.clone(), soup.1.clone());
            black_box(Bvh::build(mesh.tri_aabbs()));
        });
        let p = cpu_ms(12, || {
            let (p, t) = parry_input.clone();
            black_box(PTriMesh::new(p, t).expect("non-empty mesh"));
        });
        let clone = cpu_ms(12, || {
            black_box(soup.clone());
        });
        let (Some(o), Some(p), Some(c)) = (o, p, clone) else {
            println!("{name}: no /proc/thread-self/schedstat, skipping CPU-time figures");
            return;
        };
        ours_ms.push(o - c);
        parry_ms.push(p - c);
    }
    let boxes = TriMesh::single_object("level", soup.0.clone(), soup.1.clone())
        .tri_aabbs()
        .to_vec();
    let build_only: Vec<String> = [2, 4, 6, 8]
        .iter()
        .map(|&leaf| {
            let ms = (0..3).filter_map(|_| {
                cpu_ms(12, || {
                    black_box(Bvh::build_with_leaf_size(&boxes, leaf));
                })
            });
            format!("max leaf {leaf}: {:.1} ms", median(ms.collect()))
        })
        .collect();

    let (o, p) = (median(ours_ms), median(parry_ms));
    println!(
        "{name}: build CPU time (incl. per-triangle AABBs, input clone subtracted): ours {o:.1} ms ({:.2} Mtri/s), parry3d {p:.1} ms ({:.2} Mtri/s), parry/ours = {:.2}; Bvh::build alone, {}",
        n / o / 1e3,
        n / p / 1e3,
        p / o,
        build_only.join(", ")
    );
}

fn bench_build(c: &mut Criterion) {
    let pool = one_thread();
    for (name, soup) in meshes() {
        print_memory(name, &soup);
        print_build_cpu_time(&pool, name, &soup);
        let mut g = c.benchmark_group(format!("bvh_build/{name}"));
        g.sample_size(20);
        g.throughput(Throughput::Elements(soup.1.len() as u64));
        g.bench_function("ours_trimesh_new_and_build", |b| {
            b.iter_batched(
                || soup.clone(),
                |(p, t)| {
                    pool.install(|| {
                        let mesh = TriMesh::single_object("level", p, t);
                        black_box(Bvh::build(mesh.tri_aabbs()))
                    })
                },
                BatchSize::LargeInput,
            )
        });
        let boxes = TriMesh::single_object("level", soup.0.clone(), soup.1.clone())
            .tri_aabbs()
            .to_vec();
        g.bench_function("ours_build_only", |b| {
            b.iter(|| pool.install(|| black_box(Bvh::build(&boxes))))
        });
        g.bench_function("ours_build_only_all_threads", |b| {
            b.iter(|| black_box(Bvh::build(&boxes)))
        });
        let parry_input = to_parry(&soup);
        g.bench_function("parry_trimesh_new", |b| {
            b.iter_batched(
                || parry_input.clone(),
                |(p, t)| black_box(PTriMesh::new(p, t).expect("non-empty mesh")),
                BatchSize::LargeInput,
            )
        });
        g.finish();
    }
}

/// Player-sized swept boxes (0.6-1.8 m, moved up to 1 m) around random triangles.
fn swept_boxes(mesh: &TriMesh, count: usize) -> Vec<Aabb> {
    let mut rng = Rng(42);
    (0..count)
        .map(|_| {
            let tri = (rng.next_f32() * mesh.triangle_count() as f32) as u32;
            let c = mesh.tri_aabbs()[tri as usize].center();
            let half = Vec3::new(0.3, 0.9, 0.3);
            let step = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            Aabb::from_corners(c - half, c + half)
                .union(&Aabb::from_corners(c + step - half, c + step + half))
        })
        .collect()
}

fn bench_query(c: &mut Criterion) {
    for (name, soup) in meshes() {
        let mesh = TriMesh::single_object("level", soup.0.clone(), soup.1.clone());
        let (p, i) = to_parry(&soup);
        let pm = PTriMesh::new(p, i).expect("non-empty mesh");
        let queries = swept_boxes(&mesh, 1000);
        let mut g = c.benchmark_group(format!("bvh_query_aabb/{name}"));
        g.throughput(Throughput::Elements(queries.len() as u64));
        for leaf in [2, 4, 6, 8] {
            let bvh = Bvh::build_with_leaf_size(mesh.tri_aabbs(), leaf);
            let (mut scratch, mut out) = (BvhScratch::default(), Vec::new());
            g.bench_function(format!("ours_leaf{leaf}"), |b| {
                b.iter(|| {
                    let mut stats = QueryStats::default();
                    for q in &queries {
                        out.clear();
                        bvh.query_aabb(
                            mesh.tri_aabbs(),
                            q,
                            &mut scratch,
                            &mut out,
                            None,
                            &mut stats,
                        );
                    }
                    black_box(stats)
                })
            });
        }
        let pq: Vec<PAabb> = queries
            .iter()
            .map(|q| {
                PAabb::new(
                    PVec::new(q.min.x, q.min.y, q.min.z),
                    PVec::new(q.max.x, q.max.y, q.max.z),
                )
            })
            .collect();
        let mut out = Vec::new();
        g.bench_function("parry_intersect_aabb", |b| {
            b.iter(|| {
                for q in &pq {
                    out.clear();
                    out.extend(pm.bvh().intersect_aabb(q));
                }
                black_box(out.len())
            })
        });
        g.finish();
        // Outside the timed closures, so that it holds whatever the filter ran.
        let bvh = Bvh::build(mesh.tri_aabbs());
        let (mut scratch, mut ours, mut theirs) = (BvhScratch::default(), Vec::new(), 0);
        for (q, pq) in queries.iter().zip(&pq) {
            let mut stats = QueryStats::default();
            bvh.query_aabb(
                mesh.tri_aabbs(),
                q,
                &mut scratch,
                &mut ours,
                None,
                &mut stats,
            );
            theirs += pm.bvh().intersect_aabb(pq).count();
        }
        assert_eq!(ours.len(), theirs, "both find the same candidate triangles");
        println!(
            "{name}: {:.1} candidate triangles per swept box",
            theirs as f64 / queries.len() as f64
        );
    }
}

fn bench_ray(c: &mut Criterion) {
    for (name, soup) in meshes() {
        let (mesh, bvh) = ours(&soup);
        let (p, i) = to_parry(&soup);
        let pm = PTriMesh::new(p, i).expect("non-empty mesh");
        let b = mesh.bounds();
        let mut rng = Rng(7);
        let rays: Vec<(Vec3, Vec3)> = (0..1000)
            .map(|_| {
                let mut at = || {
                    Vec3::new(
                        rng.range(b.min.x, b.max.x),
                        rng.range(b.min.y, b.max.y),
                        rng.range(b.min.z, b.max.z),
                    )
                };
                let (o, t) = (at(), at());
                (o, t - o)
            })
            .collect();
        let mut g = c.benchmark_group(format!("bvh_ray/{name}"));
        g.throughput(Throughput::Elements(rays.len() as u64));
        let mut scratch = BvhScratch::default();
        g.bench_function("ours_ray_cast", |bch| {
            bch.iter(|| {
                let mut stats = QueryStats::default();
                rays.iter()
                    .filter_map(|&(o, d)| {
                        bvh.ray_cast(&mesh, o, d, f32::INFINITY, &mut scratch, &mut stats)
                    })
                    .count()
            })
        });
        let prays: Vec<PRay> = rays
            .iter()
            .map(|(o, d)| PRay::new(PVec::new(o.x, o.y, o.z), PVec::new(d.x, d.y, d.z)))
            .collect();
        g.bench_function("parry_cast_local_ray", |bch| {
            bch.iter(|| {
                prays
                    .iter()
                    .filter_map(|r| pm.cast_local_ray(r, f32::MAX, false))
                    .count()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench_build, bench_query, bench_ray);
criterion_main!(benches);
