//! A long correctness run of the slide, not part of the tests: millions of
//! moves per mode on generated levels (triangle soups, thin rotated slabs
//! and boxes, tiled floors), every iteration checked against a brute-force
//! oracle of its own.
//!
//! ```text
//! cargo run --release --no-default-features --example tunnel_long_run -- 1000000
//! ```
//!
//! The argument is the number of moves per mode (default 100,000); a
//! second one seeds the generator. For each mode it reports the moves and
//! iterations run, the tunnels the oracle found on the way (a centre that
//! went through a triangle, or within the radius of one deeper than at
//! either end of its segment) and how many of them the solver left
//! unflagged, the flagged ones by cause, and robust mode's failures (a
//! tunnel, an end inside geometry, a non-finite position, a broken chain).

use collidoscope::collide::{SlideMode, SlideSettings, SlideSolver, TraceDetail, TunnelCause};
use collidoscope::geometry::closest::closest_point_on_triangle;
use collidoscope::geometry::espace::EllipsoidSpace;
use collidoscope::level::Level;
use collidoscope::mesh::{MeshBuilder, TriMesh};
use glam::{DMat3, DVec3, Vec3};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Moves run on one generated level before the next is made.
const MOVES_PER_LEVEL: usize = 200;
/// How much deeper than the radius, and than both ends, the oracle
/// requires before it calls a path a tunnel (radii): above the solver's
/// own tolerance of 1e-6, so that rounding at the threshold is not counted.
const ORACLE_MARGIN: f64 = 1e-5;

/// SplitMix64: a small, seedable generator, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn vec(&mut self, r: f64) -> DVec3 {
        DVec3::new(self.range(-r, r), self.range(-r, r), self.range(-r, r))
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A generated level: a soup of random triangles, thin slabs and boxes at
/// random angles, or a tiled floor with slabs over it.
fn level(rng: &mut Rng) -> Level {
    let mut b = MeshBuilder::new();
    b.object("level");
    let kind = rng.below(3);
    if kind == 0 {
        for _ in 0..1 + rng.below(12) {
            let a = rng.vec(6.0);
            let (e1, e2) = (rng.vec(3.0), rng.vec(3.0));
            b.triangle(a.as_vec3(), (a + e1).as_vec3(), (a + e2).as_vec3());
        }
    } else {
        if kind == 2 {
            let tile = rng.range(0.2, 1.0) as f32;
            for i in -6..6 {
                for k in -6..6 {
                    let p = |dx: f32, dz: f32| {
                        Vec3::new(i as f32 * tile + dx, -2.0, k as f32 * tile + dz)
                    };
                    b.triangle(p(0.0, 0.0), p(0.0, tile), p(tile, tile));
                    b.triangle(p(0.0, 0.0), p(tile, tile), p(tile, 0.0));
                }
            }
        }
        for _ in 0..1 + rng.below(4) {
            // A thin slab (1-20 cm) or a box, rotated and placed at random.
            let thick = if rng.unit() < 0.7 {
                rng.range(0.0, 0.2)
            } else {
                rng.range(0.2, 2.0)
            };
            let half = DVec3::new(rng.range(0.2, 3.0), thick / 2.0, rng.range(0.2, 3.0));
            let m = DMat3::from_euler(
                glam::EulerRot::XYZ,
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
            );
            let at = rng.vec(4.0);
            let mut one = MeshBuilder::new();
            one.object("box").cuboid((-half).as_vec3(), half.as_vec3());
            let mesh = one.build();
            // Open boxes (one face left out) and one-sided slabs too.
            let skip = if rng.unit() < 0.3 { rng.below(12) } else { 12 };
            for (i, &[p, q, r]) in mesh.triangles().iter().enumerate() {
                if i / 2 == skip / 2 && skip < 12 {
                    continue;
                }
                let w = |v: u32| (m * mesh.positions()[v as usize].as_dvec3() + at).as_vec3();
                b.triangle(w(p), w(q), w(r));
            }
        }
    }
    Level::from_mesh("generated", b.build())
}

/// The least distance from the segment `p0..p1` to the triangle `t`
/// (ellipsoid space), by golden-section search of the convex distance.
fn least_distance(t: [DVec3; 3], p0: DVec3, p1: DVec3) -> (f64, f64, f64) {
    let f = |s: f64| {
        let p = p0 + (p1 - p0) * s;
        (closest_point_on_triangle(t, p) - p).length()
    };
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.0, 1.0);
    for _ in 0..80 {
        let (c, d) = (b - phi * (b - a), a + phi * (b - a));
        if f(c) < f(d) { b = d } else { a = c }
    }
    (f((a + b) / 2.0), f(0.0), f(1.0))
}

/// The oracle: whether the centre's segment went deeper than the radius
/// and than both its ends by more than `margin`, into any triangle.
fn oracle_tunnel(
    mesh: &TriMesh,
    es: EllipsoidSpace,
    start: DVec3,
    end: DVec3,
    margin: f64,
) -> bool {
    let (p0, p1) = (es.espace_from_world(start), es.espace_from_world(end));
    let reach = es.radii() * 1.01;
    let (lo, hi) = (start.min(end) - reach, start.max(end) + reach);
    (0..mesh.triangle_count() as u32).any(|tri| {
        let w = mesh.triangle_f64(tri);
        let (tlo, thi) = (w[0].min(w[1]).min(w[2]), w[0].max(w[1]).max(w[2]));
        if tlo.cmpgt(hi).any() || thi.cmplt(lo).any() {
            return false;
        }
        let (least, a, b) = least_distance(w.map(|p| es.espace_from_world(p)), p0, p1);
        least < 1.0 - margin && least < a - margin && least < b - margin
    })
}

/// The least distance from `c` to the mesh, ellipsoid space.
fn clearance(mesh: &TriMesh, es: EllipsoidSpace, c: DVec3) -> f64 {
    let c = es.espace_from_world(c);
    (0..mesh.triangle_count() as u32)
        .map(|t| {
            let tri = mesh.triangle_f64(t).map(|p| es.espace_from_world(p));
            (closest_point_on_triangle(tri, c) - c).length()
        })
        .fold(f64::INFINITY, f64::min)
}

#[derive(Default, Clone)]
struct Tally {
    moves: u64,
    iterations: u64,
    oracle_tunnels: u64,
    unflagged: u64,
    flagged: BTreeMap<String, u64>,
    robust_failures: u64,
    /// Flagged, though the oracle (with a margin ten times the flag's)
    /// saw nothing: flags at the threshold.
    flagged_below_margin: u64,
    first_unflagged: Option<String>,
    /// The first move flagged with each cause, to rerun with `sweep`.
    examples: BTreeMap<String, String>,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.moves += o.moves;
        self.iterations += o.iterations;
        self.oracle_tunnels += o.oracle_tunnels;
        self.unflagged += o.unflagged;
        self.robust_failures += o.robust_failures;
        self.flagged_below_margin += o.flagged_below_margin;
        for (k, v) in o.flagged {
            *self.flagged.entry(k).or_default() += v;
        }
        self.first_unflagged = self.first_unflagged.or(o.first_unflagged);
        for (k, v) in o.examples {
            self.examples.entry(k).or_insert(v);
        }
        self
    }
}

fn cause_name(c: TunnelCause) -> String {
    serde_json::to_string(&c)
        .unwrap_or_default()
        .trim_matches('"')
        .to_string()
}

/// `MOVES_PER_LEVEL` moves of `mode` on level number `index`.
fn run_level(mode: SlideMode, seed: u64, index: u64) -> Tally {
    let mut rng = Rng(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407) ^ mode as u64);
    let level = level(&mut rng);
    let mesh = level.mesh();
    let mut t = Tally::default();
    for _ in 0..MOVES_PER_LEVEL {
        let radii = if rng.unit() < 0.2 {
            [0.05, 0.9, 0.05]
        } else {
            [
                rng.range(0.05, 1.2),
                rng.range(0.05, 1.5),
                rng.range(0.05, 1.2),
            ]
        };
        let es = EllipsoidSpace::new(DVec3::from(radii)).unwrap();
        let start = rng.vec(8.0);
        if clearance(mesh, es, start) < 1.0 {
            continue;
        }
        let vel = match rng.below(3) {
            0 => rng.vec(3.0),
            1 => rng.vec(30.0),
            _ => rng.vec(0.3),
        };
        let gravity = if rng.unit() < 0.5 {
            rng.vec(1.0)
        } else {
            DVec3::ZERO
        };
        let s = SlideSettings {
            mode,
            radii,
            gravity: gravity.to_array(),
            ..SlideSettings::default()
        };
        let Some(mut solver) =
            SlideSolver::new(level.world(), &s, start, vel, TraceDetail::Summary)
        else {
            continue;
        };
        t.moves += 1;
        let mut at = start;
        while let Some(rec) = solver.step() {
            t.iterations += 1;
            let from = rec.start + rec.recovery.map_or(DVec3::ZERO, |r| r.push);
            let chained = (rec.start - at).length() <= 1e-9 * (1.0 + at.length());
            at = rec.end;
            let tunnel = oracle_tunnel(mesh, es, from, rec.end, ORACLE_MARGIN);
            if let Some(flag) = rec.tunnel {
                *t.flagged.entry(cause_name(flag.cause)).or_default() += 1;
                t.examples.entry(cause_name(flag.cause)).or_insert_with(|| {
                    format!(
                        "radii {radii:?} from {start:?} by {vel:?} gravity {gravity:?}: iteration {}, {flag:?}",
                        rec.index
                    )
                });
                if !tunnel {
                    t.flagged_below_margin += 1;
                }
            }
            if tunnel {
                t.oracle_tunnels += 1;
                if rec.tunnel.is_none() {
                    t.unflagged += 1;
                    t.first_unflagged.get_or_insert_with(|| {
                        format!("{mode} radii {radii:?} from {start} by {vel} gravity {gravity}: iteration {}", rec.index)
                    });
                }
            }
            if mode == SlideMode::Robust {
                let inside = clearance(mesh, es, rec.end) < 1.0 - 1e-6;
                if tunnel || rec.tunnel.is_some() || inside || !rec.end.is_finite() || !chained {
                    t.robust_failures += 1;
                }
            }
        }
    }
    t
}

fn main() {
    let mut args = std::env::args().skip(1);
    let moves: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(29);
    let levels = moves.div_ceil(MOVES_PER_LEVEL as u64);
    println!(
        "{levels} generated levels x {MOVES_PER_LEVEL} tries per mode (seed {seed}; starts inside geometry are skipped)"
    );
    for mode in SlideMode::ALL {
        let clock = Instant::now();
        let t = (0..levels)
            .into_par_iter()
            .map(|i| run_level(mode, seed, i))
            .reduce(Tally::default, Tally::add);
        let flagged: Vec<String> = t.flagged.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "{:<12} moves {:>9}  iterations {:>9}  tunnels (oracle) {:>6}  unflagged {}  flagged [{}] (of them at the threshold, unseen by the oracle: {})  robust failures {}  ({:.0} s)",
            mode.to_string(),
            t.moves,
            t.iterations,
            t.oracle_tunnels,
            t.unflagged,
            flagged.join(", "),
            t.flagged_below_margin,
            t.robust_failures,
            clock.elapsed().as_secs_f64()
        );
        if let Some(first) = t.first_unflagged {
            println!("  first unflagged: {first}");
        }
        if std::env::var_os("TUNNEL_EXAMPLES").is_some() {
            for (cause, e) in &t.examples {
                println!("  {cause}: {e}");
            }
        }
    }
}
