//! Random move sets for any level, from a seed: where a player could stand
//! (starts on walkable ground, clear of the geometry, found by casting rays
//! down from random points of the level's box), and what a player does
//! there: short walks along the ground, long moves, and walks of 60 Hz
//! frames. The same level, settings, count and seed give the same moves,
//! bit for bit, so a benchmark names its moves by a seed, and a set can be
//! written as JSON Lines that `collidoscope sweep LEVEL --batch` reads.
//!
//! Unlike [`super::city_moves`], which aims each move at a feature of a
//! city cell, these know nothing of the level: they land wherever random
//! points fall, as a level's players spread over it.

use super::{ProbeMove, Rng};
use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::{SlideSettings, TraceDetail, slide};
use crate::geometry::closest::closest_point_on_triangle;
use crate::level::Level;
use crate::math::Aabb;
use glam::{DVec3, Vec3};
use std::io::{self, BufRead, Write};

/// The seed the slide benchmark's sets are made from, unless it is told
/// another.
pub const DEFAULT_MOVE_SEED: u64 = 30;

/// Gap left between the probe and the ground under a start, metres.
const START_GAP: f64 = 0.02;
/// A start must be at least this clear of every triangle (ellipsoid space,
/// radii), besides the gap to its ground.
const START_CLEARANCE_RADII: f64 = 0.01;
/// Steepest ground a start stands on (cosine of 45°).
const WALKABLE_COS: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// What a set's moves are like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// 0.1-0.6 m along the ground in a random direction and 5 cm down: the
    /// probe settles on the ground and slides along it, or meets what is
    /// in its way.
    Walk,
    /// 0.5-5 m in a random direction and a tenth of that down: into walls,
    /// over edges, across rooms.
    Long,
}

impl MoveKind {
    /// The displacement of a move of this kind heading `yaw` (radians from
    /// +x towards +z), `u` in `[0, 1)` picking its length.
    fn velocity(self, yaw: f64, u: f64) -> DVec3 {
        let (s, c) = yaw.sin_cos();
        let flat = DVec3::new(c, 0.0, s);
        match self {
            MoveKind::Walk => flat * (0.1 + 0.5 * u) - DVec3::Y * 0.05,
            MoveKind::Long => {
                let len = 0.5 + 4.5 * u;
                flat * len - DVec3::Y * (0.1 * len)
            }
        }
    }
}

/// Finds starts on a level's ground for a probe of the given radii.
pub struct StartFinder<'l> {
    level: &'l Level,
    radii: DVec3,
    scratch: BvhScratch,
    tris: Vec<u32>,
    lo: DVec3,
    hi: DVec3,
}

impl<'l> StartFinder<'l> {
    /// A finder for probes of `radii` (metres, all positive) on `level`.
    pub fn new(level: &'l Level, radii: DVec3) -> StartFinder<'l> {
        let b = level.mesh().bounds();
        StartFinder {
            level,
            radii,
            scratch: BvhScratch::default(),
            tris: Vec::new(),
            lo: b.min.as_dvec3(),
            hi: b.max.as_dvec3(),
        }
    }

    /// The nearest hit of a vertical ray from `origin` (`down`, or up), as
    /// the distance and the hit triangle's unit normal.
    fn vertical_hit(&mut self, origin: DVec3, down: bool, reach: f64) -> Option<(f64, DVec3)> {
        let dir = if down { -Vec3::Y } else { Vec3::Y };
        let hit = self.level.bvh().ray_cast(
            self.level.mesh(),
            origin.as_vec3(),
            dir,
            reach as f32,
            &mut self.scratch,
            &mut QueryStats::default(),
        )?;
        Some((
            f64::from(hit.t),
            self.level.mesh().triangle_normal(hit.triangle),
        ))
    }

    /// Whether the probe centred at `centre` is clear of every triangle by
    /// [`START_CLEARANCE_RADII`] (ellipsoid space).
    fn is_clear(&mut self, centre: DVec3) -> bool {
        let reach = self.radii * (1.0 + START_CLEARANCE_RADII) + DVec3::splat(1e-3);
        let query = Aabb {
            min: (centre - reach).as_vec3(),
            max: (centre + reach).as_vec3(),
        };
        self.tris.clear();
        let (bvh, mesh) = (self.level.bvh(), self.level.mesh());
        bvh.query_aabb(
            mesh.tri_aabbs(),
            &query,
            &mut self.scratch,
            &mut self.tris,
            None,
            &mut QueryStats::default(),
        );
        let inv = self.radii.recip();
        let c = centre * inv;
        self.tris.iter().all(|&t| {
            let tri = mesh.triangle_f64(t).map(|v| v * inv);
            (closest_point_on_triangle(tri, c) - c).length() > 1.0 + START_CLEARANCE_RADII
        })
    }

    /// A start below the point `(x, y, z)`: the probe resting
    /// [`START_GAP`] above the first walkable ground a ray down from there
    /// meets, outside every closed solid and clear of every triangle; or
    /// `None` when there is no such ground.
    pub fn start_below(&mut self, x: f64, y: f64, z: f64) -> Option<DVec3> {
        let origin = DVec3::new(x, y, z);
        let (t, n) = self.vertical_hit(origin, true, y - self.lo.y + 1.0)?;
        if n.y < WALKABLE_COS {
            return None;
        }
        // How high the centre of an ellipsoid resting on that plane is
        // above its contact: its support distance along the normal, divided
        // by the normal's vertical part.
        let lift = (self.radii * n).length() / n.y + START_GAP;
        let centre = DVec3::new(x, y - t + lift, z);
        // A ray up from inside a closed solid meets the back of its top.
        if let Some((_, up)) = self.vertical_hit(centre, false, self.hi.y - centre.y + 1.0)
            && up.y > 0.0
        {
            return None;
        }
        self.is_clear(centre).then_some(centre)
    }

    /// A start found from a random point of the level's box (`None` if
    /// that point has no ground under it).
    fn random_start(&mut self, rng: &mut Rng) -> Option<DVec3> {
        let x = rng.range(self.lo.x, self.hi.x);
        let z = rng.range(self.lo.z, self.hi.z);
        let y = rng.range(self.lo.y, self.hi.y + 1.0);
        self.start_below(x, y, z)
    }

    /// `count` starts from `rng` (fewer if the level has too little
    /// ground to find them in `200 * count` tries).
    pub fn starts(&mut self, rng: &mut Rng, count: usize) -> Vec<DVec3> {
        let mut out = Vec::with_capacity(count);
        let mut tries = 0usize;
        while out.len() < count && tries < count.saturating_mul(200).max(1_000) {
            tries += 1;
            if let Some(s) = self.random_start(rng) {
                out.push(s);
            }
        }
        out
    }
}

/// `count` moves of `kind` for a probe of `radii` on `level`, from `seed`:
/// each from its own random start on the ground, in a random direction.
pub fn random_moves(
    level: &Level,
    radii: DVec3,
    kind: MoveKind,
    count: usize,
    seed: u64,
) -> Vec<ProbeMove> {
    let mut rng = Rng::new(seed);
    let mut finder = StartFinder::new(level, radii);
    let starts = finder.starts(&mut rng, count);
    starts
        .into_iter()
        .map(|start| {
            let yaw = rng.range(0.0, std::f64::consts::TAU);
            ProbeMove {
                start_world: start,
                velocity_world: kind.velocity(yaw, rng.unit()),
            }
        })
        .collect()
}

/// Horizontal length of one frame of walking: 9 m/s at 60 Hz.
pub const FRAME_STEP: f64 = 0.15;
/// Downward part of each frame, so that the probe settles on the ground
/// and then slides along it (a game's gravity, folded into the move).
pub const FRAME_DROP: f64 = 0.03;

/// `walkers` walks of `frames` 60 Hz frames each on `level`, from `seed`:
/// each walker starts on the ground and heads one random way, every frame
/// [`FRAME_STEP`] forward and [`FRAME_DROP`] down. A frame starts where
/// the solver (with `settings`) ended the one before, so the list is the
/// frames a game would ask for, most of them in contact with the ground or
/// a wall. Walker by walker, frame by frame.
pub fn frame_walks(
    level: &Level,
    settings: &SlideSettings,
    walkers: usize,
    frames: usize,
    seed: u64,
) -> Vec<ProbeMove> {
    let mut rng = Rng::new(seed);
    let mut finder = StartFinder::new(level, settings.radii_vec());
    let starts = finder.starts(&mut rng, walkers);
    let mut out = Vec::with_capacity(starts.len() * frames);
    for start in starts {
        let (s, c) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
        let velocity = DVec3::new(c, 0.0, s) * FRAME_STEP - DVec3::Y * FRAME_DROP;
        let mut pos = start;
        for _ in 0..frames {
            out.push(ProbeMove {
                start_world: pos,
                velocity_world: velocity,
            });
            let r = slide(level.world(), settings, pos, velocity, TraceDetail::Summary);
            pos = r.map_or(pos, |r| r.final_position);
        }
    }
    out
}

/// Writes `moves` as JSON Lines, one `{"from": [x, y, z], "velocity": [x,
/// y, z]}` a line (world space, metres, shortest round-trip decimals): the
/// input of `collidoscope sweep LEVEL --batch`.
pub fn write_moves_jsonl(moves: &[ProbeMove], out: &mut impl Write) -> io::Result<()> {
    for m in moves {
        let line = serde_json::json!({
            "from": m.start_world.to_array(),
            "velocity": m.velocity_world.to_array(),
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Reads moves written by [`write_moves_jsonl`] (blank lines skipped).
pub fn read_moves_jsonl(input: impl BufRead) -> io::Result<Vec<ProbeMove>> {
    #[derive(serde::Deserialize)]
    struct Line {
        from: [f64; 3],
        velocity: [f64; 3],
    }
    let mut moves = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let l: Line = serde_json::from_str(&line).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("line {}: {e}", i + 1))
        })?;
        moves.push(ProbeMove {
            start_world: DVec3::from_array(l.from),
            velocity_world: DVec3::from_array(l.velocity),
        });
    }
    Ok(moves)
}
