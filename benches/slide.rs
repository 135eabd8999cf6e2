//! One collide-and-slide move (at most 5 iterations, same moves, same skin)
//! with Collidoscope's solver (robust mode) against a cast-based slide
//! written with parry3d, in the same run, on the same triangles.
//!
//! The parry side works in the probe's ellipsoid space (world divided by the
//! radii) so the probe is a ball of radius 1: `cast_shapes` to the first
//! hit against parry's own `TriMesh` (its BVH), move to the time of impact
//! minus the skin, project the remaining motion onto the contact plane,
//! repeat. Scenes: generated cities of ~100k, ~1M and ~4M triangles and,
//! when `../shared/levels` is present, the Sibenik cathedral (75k
//! triangles). Each scene runs three sets: `move` (300 long moves of 0.5-5
//! m into walls, stairs, creases, doors and along corridors), `frames` (the
//! same moves walked as 60 Hz frames of 0.15 m, settling on and sliding
//! along the ground, up to 10 frames each) and `open` (300 moves through
//! open space that hit nothing).
//!
//! Ours runs as a batch would: one solver per set, kept across its moves
//! (`SlideSolver::reusable`, `start_move`, `run_to_end`); the one-shot
//! `slide(..)` call, which makes a solver and copies out every record, is
//! measured beside it. Each scene first checks that both give the same end
//! for every move, and prints the memory each side holds per triangle.
//!
//! Short run: `cargo bench --bench slide -- --warm-up-time 1 --measurement-time 3`

use collidoscope::analysis::generate::{ProbeMove, city, city_moves};
use collidoscope::collide::{MoveEnd, SlideSettings, SlideSolver, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level};
use collidoscope::mesh::TriMesh;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::DVec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{Ray, RayCast, ShapeCastOptions, cast_shapes, distance};
use parry3d::shape::{Ball, TriMesh as ParryTriMesh};
use std::hint::black_box;
use std::path::Path;

/// Moves per scene: one benchmark iteration runs all of them.
const MOVES: usize = 300;

/// The peer: the level in the probe's ellipsoid space as a parry `TriMesh`.
struct ParrySlide {
    mesh_espace: ParryTriMesh,
    radii: DVec3,
    skin_espace: f32,
    min_move_espace: f32,
    max_iterations: u32,
}

fn to_parry(v: DVec3) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
}

impl ParrySlide {
    fn new(mesh: &TriMesh, settings: &SlideSettings) -> ParrySlide {
        let radii = settings.radii_vec();
        let vertices = mesh
            .positions()
            .iter()
            .map(|p| to_parry(p.as_dvec3() / radii))
            .collect();
        let mesh_espace =
            ParryTriMesh::new(vertices, mesh.triangles().to_vec()).expect("non-empty mesh");
        // The same very-close distance as the solver: world skin over the smallest radius.
        let min_radius = radii.min_element();
        ParrySlide {
            mesh_espace,
            radii,
            skin_espace: (settings.skin / min_radius) as f32,
            min_move_espace: (settings.min_move / min_radius) as f32,
            max_iterations: settings.max_iterations,
        }
    }

    /// Collide and slide from `start` by `velocity` (world space); returns the
    /// final probe centre, world space.
    fn slide(&self, start_world: DVec3, velocity_world: DVec3) -> DVec3 {
        let ball = Ball::new(1.0);
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: false,
            compute_impact_geometry_on_penetration: true,
        };
        let mut pos = to_parry(start_world / self.radii);
        let mut vel = to_parry(velocity_world / self.radii);
        for _ in 0..self.max_iterations {
            let len = vel.length();
            if len < self.min_move_espace {
                break;
            }
            let hit = cast_shapes(
                &Pose::from_translation(pos),
                vel,
                &ball,
                &Pose::IDENTITY,
                Vector::ZERO,
                &self.mesh_espace,
                options,
            )
            .ok()
            .flatten();
            let Some(hit) = hit else {
                pos += vel;
                break;
            };
            let dir = vel / len;
            let travel = (hit.time_of_impact * len - self.skin_espace).max(0.0);
            pos += dir * travel;
            // normal1 points from the ball towards the obstacle.
            let n = -hit.normal1;
            let remaining = vel - dir * travel;
            vel = remaining - n * remaining.dot(n);
        }
        DVec3::new(pos.x as f64, pos.y as f64, pos.z as f64) * self.radii
    }

    /// Distance from a probe centred at `pos_world` to the level, in
    /// ellipsoid-space units beyond the unit ball (0 when touching).
    fn clearance(&self, pos_world: DVec3) -> f32 {
        let ball = Ball::new(1.0);
        let pose = Pose::from_translation(to_parry(pos_world / self.radii));
        distance(&pose, &ball, &Pose::IDENTITY, &self.mesh_espace).map_or(0.0, |d| d.distance)
    }

    /// The height of the ground below `above_world` (within `depth` metres),
    /// world space.
    fn ground_below(&self, above_world: DVec3, depth: f64) -> Option<f64> {
        let dir = to_parry(DVec3::new(0.0, -1.0, 0.0) / self.radii);
        let ray = Ray::new(to_parry(above_world / self.radii), dir);
        let t = self.mesh_espace.cast_local_ray(&ray, depth as f32, true)?;
        Some(above_world.y - f64::from(t))
    }
}

/// A number in [0, 1) from `i` (SplitMix64), for reproducible moves.
fn unit(i: u64) -> f64 {
    let mut x = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((x ^ (x >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// Moves on a real level: starts on the ground (found by a ray down from
/// `probe_height` above the lowest point), clear of the geometry, walking
/// 0.5-3 m in hashed directions with a slight downward component.
fn ground_moves(mesh: &TriMesh, peer: &ParrySlide, count: usize) -> Vec<ProbeMove> {
    let b = mesh.bounds();
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let mut moves = Vec::new();
    for i in 0..(count as u64 * 200) {
        if moves.len() == count {
            break;
        }
        let x = lo.x + (hi.x - lo.x) * unit(3 * i);
        let z = lo.z + (hi.z - lo.z) * unit(3 * i + 1);
        let Some(ground) = peer.ground_below(DVec3::new(x, lo.y + 1.6, z), 3.0) else {
            continue;
        };
        let start = DVec3::new(x, ground + 0.95, z);
        if peer.clearance(start) < 0.03 {
            continue;
        }
        let angle = std::f64::consts::TAU * unit(3 * i + 2);
        let len = 0.5 + 2.5 * unit(i ^ 0xDEAD_BEEF);
        let velocity = DVec3::new(angle.cos(), -0.1, angle.sin()) * len;
        moves.push(ProbeMove {
            start_world: start,
            velocity_world: velocity,
        });
    }
    moves
}

/// Moves through open space: starts anywhere in the level's box (above the
/// lowest metre) whose clearance is more than the whole move, 0.5-3 m in
/// hashed directions: nothing is hit, so what is measured is the search
/// for candidates and the fixed cost of a move.
fn open_moves(mesh: &TriMesh, peer: &ParrySlide, count: usize) -> Vec<ProbeMove> {
    let b = mesh.bounds();
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let smallest_radius = SlideSettings::default()
        .radii
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    let mut moves = Vec::new();
    for i in 0..(count as u64 * 500) {
        if moves.len() == count {
            break;
        }
        let start = DVec3::new(
            lo.x + (hi.x - lo.x) * unit(5 * i),
            lo.y + 1.0 + (hi.y - lo.y - 1.0).max(0.0) * unit(5 * i + 1),
            lo.z + (hi.z - lo.z) * unit(5 * i + 2),
        );
        let angle = std::f64::consts::TAU * unit(5 * i + 3);
        let len = 0.5 + 2.5 * unit(5 * i + 4);
        if f64::from(peer.clearance(start)) <= len / smallest_radius + 0.1 {
            continue;
        }
        moves.push(ProbeMove {
            start_world: start,
            velocity_world: DVec3::new(angle.cos(), 0.0, angle.sin()) * len,
        });
    }
    moves
}

/// How far apart the two solvers end (world metres, median and 90th
/// percentile), and what our solver did per move (mean iterations, BVH
/// nodes visited and candidate triangles), printed with each scene.
fn agreement(
    level: &Level,
    peer: &ParrySlide,
    settings: &SlideSettings,
    moves: &[ProbeMove],
) -> String {
    let (mut iterations, mut nodes, mut boxes, mut candidates) = (0usize, 0usize, 0usize, 0usize);
    let mut solver = reusable_solver(level, settings);
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
            // The reusable solver the benchmark times does the same moves
            // with the same results.
            let reused = run_move(&mut solver, m);
            let one_shot = ours.as_ref().map(|r| (r.final_position, r.end_reason));
            assert_eq!(
                reused.map(|e| (e.final_position, e.end_reason)),
                one_shot,
                "reusable solver and slide() disagree on {m:?}"
            );
            for rec in ours.iter().flat_map(|r| &r.iterations) {
                iterations += 1;
                nodes += rec.bvh_stats.nodes_visited as usize;
                boxes += rec.bvh_stats.triangles_tested as usize;
                candidates += rec.candidate_count as usize;
            }
            (end - peer.slide(m.start_world, m.velocity_world)).length()
        })
        .collect();
    gaps.sort_by(f64::total_cmp);
    let per_move = |x: usize| x as f64 / moves.len() as f64;
    format!(
        "final positions ours vs parry: median {:.4} m, p90 {:.4} m apart; ours per move: {:.2} iterations, {:.0} BVH nodes, {:.1} triangle boxes tested, {:.1} candidate triangles",
        gaps[gaps.len() / 2],
        gaps[gaps.len() * 9 / 10],
        per_move(iterations),
        per_move(nodes),
        per_move(boxes),
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
/// BVH (nodes, the reordered indices and the leaf-ordered second copy of
/// the boxes); parry its `TriMesh` (vertices, indices, its BVH, which keeps
/// each triangle's box in its leaves), by its own `heap_memory_size`.
fn memory_per_triangle(level: &Level, peer: &ParrySlide) -> String {
    let mesh = &level.mesh();
    let ours_mesh = std::mem::size_of_val(mesh.positions())
        + std::mem::size_of_val(mesh.triangles())
        + std::mem::size_of_val(mesh.tri_aabbs())
        + std::mem::size_of_val(mesh.objects())
        + mesh.objects().len() * std::mem::size_of::<u32>();
    let ours_bvh = level.bvh().stats().memory_bytes;
    let tris = mesh.triangle_count() as f64;
    let peer_bytes = peer.mesh_espace.heap_memory_size();
    format!(
        "memory per triangle: ours {:.1} B (mesh {:.1} + BVH {:.1}), parry3d {:.1} B",
        (ours_mesh + ours_bvh) as f64 / tris,
        ours_mesh as f64 / tris,
        ours_bvh as f64 / tris,
        peer_bytes as f64 / tris
    )
}

/// Horizontal length of one frame of walking: 9 m/s at 60 Hz.
const FRAME_STEP: f64 = 0.15;
/// Downward part of each frame, so the probe settles on the ground and then
/// slides along it (a game's gravity, folded into the move).
const FRAME_DROP: f64 = 0.03;
/// At most this many frames per long move.
const FRAMES_PER_MOVE: usize = 10;

/// Each long move replayed as up to ten 60 Hz frames: the starts follow our
/// solver's trajectory (computed once here), so both solvers then get the
/// very same list of (start, velocity), most of them in contact with the
/// ground or a wall, as in a game.
fn frame_moves(level: &Level, settings: &SlideSettings, moves: &[ProbeMove]) -> Vec<ProbeMove> {
    let mut frames = Vec::new();
    for m in moves {
        let horizontal = DVec3::new(m.velocity_world.x, 0.0, m.velocity_world.z);
        let n = ((horizontal.length() / FRAME_STEP).ceil() as usize).min(FRAMES_PER_MOVE);
        let velocity = horizontal.normalize() * FRAME_STEP - DVec3::Y * FRAME_DROP;
        let mut pos = m.start_world;
        for _ in 0..n {
            frames.push(ProbeMove {
                start_world: pos,
                velocity_world: velocity,
            });
            let r = slide(level.world(), settings, pos, velocity, TraceDetail::Summary);
            pos = r.map_or(pos, |r| r.final_position);
        }
    }
    frames
}

fn bench_scene(c: &mut Criterion, name: &str, level: &Level, moves: &[ProbeMove]) {
    let settings = SlideSettings::default();
    let peer = ParrySlide::new(level.mesh(), &settings);
    let frames = frame_moves(level, &settings, moves);
    let open = open_moves(level.mesh(), &peer, MOVES);
    eprintln!("{name}: {}", memory_per_triangle(level, &peer));
    for (kind, moves) in [
        ("move", moves),
        ("frames", &frames[..]),
        ("open", &open[..]),
    ] {
        eprintln!(
            "{name} {kind}: {} triangles, {} moves; {}",
            level.mesh().triangle_count(),
            moves.len(),
            agreement(level, &peer, &settings, moves)
        );
        let mut group = c.benchmark_group(format!("slide_{kind}/{name}"));
        group.throughput(Throughput::Elements(moves.len() as u64));
        // Ours with the default settings (checks on), ours without the
        // solver's checks of itself (clearance, ghost corners: what those
        // cost, and the like-for-like figure against the peer, which checks
        // nothing after a move), both with one kept solver; the same
        // unchecked through one `slide(..)` call per move; and the peer.
        let unchecked = SlideSettings {
            self_checks: false,
            ..settings.clone()
        };
        for (label, s) in [
            ("collidoscope", &settings),
            ("collidoscope_unchecked", &unchecked),
        ] {
            let mut solver = reusable_solver(level, s);
            group.bench_function(label, |b| {
                b.iter(|| {
                    for m in moves {
                        black_box(run_move(&mut solver, m));
                    }
                })
            });
        }
        group.bench_function("collidoscope_unchecked_slide", |b| {
            b.iter(|| {
                for m in moves {
                    let world = level.world();
                    let (start, vel) = (m.start_world, m.velocity_world);
                    black_box(slide(world, &unchecked, start, vel, TraceDetail::Summary));
                }
            })
        });
        group.bench_function("parry3d", |b| {
            b.iter(|| {
                for m in moves {
                    black_box(peer.slide(m.start_world, m.velocity_world));
                }
            })
        });
        group.finish();
    }
}

fn slide_benches(c: &mut Criterion) {
    let cities = [
        ("city_100k", 100_000),
        ("city_1m", 1_000_000),
        ("city_4m", 4_000_000),
    ];
    for (name, target) in cities {
        let generated = city(target);
        let moves = city_moves(&generated, MOVES);
        let level = Level::from_mesh(name, generated.mesh);
        bench_scene(c, name, &level, &moves);
    }
    let sibenik =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    if !sibenik.exists() {
        eprintln!("skipping sibenik: {} not found", sibenik.display());
        return;
    }
    match Level::load(&sibenik, &ImportOptions::default()) {
        Ok(level) => {
            let peer = ParrySlide::new(level.mesh(), &SlideSettings::default());
            let moves = ground_moves(level.mesh(), &peer, MOVES);
            drop(peer);
            bench_scene(c, "sibenik_75k", &level, &moves);
        }
        Err(e) => eprintln!("skipping sibenik: {e}"),
    }
}

criterion_group!(benches, slide_benches);
criterion_main!(benches);
