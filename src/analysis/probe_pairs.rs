//! Moving probes against each other: every pair of probes moving at the
//! same time, tested with the swept bounding-sphere test, world space
//! (Y up, metres), time as the fraction `t` in `[0, 1]` of one move.
//!
//! Each probe's ellipsoid is enclosed in its bounding sphere (radius = its
//! largest radius) and moves in a straight line by its velocity over the
//! move; the level plays no part. Each pair goes through
//! [`sweep_sphere_sphere`], the test of the swept bounding-sphere article
//! (seed document 001: relative motion, the quadratic's sign early-outs and
//! the discriminant divided by the squared relative speed), which gives the
//! time of first contact; this module adds where the spheres touch and how
//! close the centres come during the move.
//!
//! Many probes: a sort-and-sweep along x (each swept sphere's x extent over
//! the move) keeps only the pairs whose extents overlap, so that the work is
//! `n log n` plus the pairs that can meet; a test proves it keeps every
//! pair the exhaustive loop finds touching.

use crate::geometry::sphere_sphere::{MovingSphere, SphereSweepOutcome, sweep_sphere_sphere};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Most probes one run takes (the broad phase's sort and the report grow with it).
pub const MAX_PAIR_PROBES: usize = 100_000;
/// Most pairs the broad phase may pass on: beyond it the probes are packed
/// so densely along x that the report would be quadratic; refused.
pub const MAX_TESTED_PAIRS: usize = 2_000_000;

/// One moving probe, world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairProbe {
    /// Name used in reports.
    pub name: String,
    /// Centre at the start of the move.
    pub from: DVec3,
    /// Displacement over the whole move.
    pub velocity: DVec3,
    /// Ellipsoid radii along x, y, z (metres, positive).
    pub radii: DVec3,
}

impl PairProbe {
    /// Radius of the sphere around the ellipsoid: its largest radius.
    pub fn bounding_radius(&self) -> f64 {
        self.radii.max_element()
    }

    /// The bounding sphere moving with the probe.
    pub fn moving_sphere(&self) -> MovingSphere {
        MovingSphere {
            center: self.from,
            vel: self.velocity,
            radius: self.bounding_radius(),
        }
    }

    /// Centre at fraction `t` of the move.
    pub fn center_at(&self, t: f64) -> DVec3 {
        self.from + self.velocity * t
    }
}

/// Where two bounding spheres touch (or overlap most, when they start inside
/// each other), world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairContact {
    /// Fraction of the move at first contact (0 when already overlapping).
    pub t: f64,
    /// Centre of the first probe then.
    pub center_a: DVec3,
    /// Centre of the second probe then.
    pub center_b: DVec3,
    /// The contact point: on the line between the centres, where the two
    /// surfaces meet (the middle of the overlap when they start overlapping).
    pub point: DVec3,
}

/// The closest the two centres come during the move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClosestApproach {
    /// Fraction of the move (0 with no relative motion).
    pub t: f64,
    /// Distance between the centres then, metres.
    pub center_distance: f64,
    /// Distance between the sphere surfaces then (negative: overlap depth).
    pub gap: f64,
    /// Centre of the first probe then.
    pub center_a: DVec3,
    /// Centre of the second probe then.
    pub center_b: DVec3,
}

/// One tested pair (indices into the probe list, `a < b`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    /// Index of the first probe.
    pub a: usize,
    /// Index of the second probe.
    pub b: usize,
    /// Sum of the two bounding radii, metres.
    pub contact_distance: f64,
    /// The sphere test's answer (hit time, or why not).
    pub outcome: SphereSweepOutcome,
    /// Where they touch, when they do.
    pub contact: Option<PairContact>,
    /// The closest approach over the move.
    pub closest: ClosestApproach,
}

impl PairResult {
    /// Whether the bounding spheres touch during the move.
    pub fn collides(&self) -> bool {
        self.contact.is_some()
    }
}

/// All pairs of a set of probes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairsReport {
    /// Number of probes.
    pub probe_count: usize,
    /// Pairs of probes there are (`n (n - 1) / 2`).
    pub pair_count: u64,
    /// Pairs the sort-along-x broad phase passed on to the sphere test.
    pub tested_count: usize,
    /// Pairs whose spheres touch during the move.
    pub colliding_count: usize,
    /// The tested pairs, sorted by `(a, b)`.
    pub pairs: Vec<PairResult>,
}

/// Why a set of probes cannot be tested.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairsError {
    /// A probe with a non-finite value or a radius that is not positive.
    #[error("probe {index} ('{name}'): {why}")]
    BadProbe {
        /// Its index in the list.
        index: usize,
        /// Its name (cut to 40 characters).
        name: String,
        /// What is wrong.
        why: String,
    },
    /// More probes than [`MAX_PAIR_PROBES`].
    #[error("{0} probes; at most {MAX_PAIR_PROBES} are tested at once")]
    TooManyProbes(usize),
    /// The broad phase passed on more than [`MAX_TESTED_PAIRS`] pairs.
    #[error(
        "more than {MAX_TESTED_PAIRS} pairs overlap along x; spread the probes out or test fewer"
    )]
    TooManyPairs,
}

/// Checks one probe: finite values, positive radii, magnitudes whose
/// squares do not overflow.
fn check_probe(index: usize, p: &PairProbe) -> Result<(), PairsError> {
    let bad = |why: &str| PairsError::BadProbe {
        index,
        name: p.name.chars().take(40).collect(),
        why: why.to_string(),
    };
    if !(p.from.is_finite() && p.velocity.is_finite() && p.radii.is_finite()) {
        return Err(bad("a value is not a finite number"));
    }
    if p.radii.min_element() <= 0.0 {
        return Err(bad("every radius must be positive"));
    }
    let limit = 1e12;
    if p.from.abs().max_element() > limit
        || p.velocity.abs().max_element() > limit
        || p.radii.max_element() > limit
    {
        return Err(bad("a coordinate is beyond 1e12 m"));
    }
    Ok(())
}

/// Tests every pair of `probes` whose swept spheres can meet.
pub fn test_pairs(probes: &[PairProbe]) -> Result<PairsReport, PairsError> {
    if probes.len() > MAX_PAIR_PROBES {
        return Err(PairsError::TooManyProbes(probes.len()));
    }
    for (i, p) in probes.iter().enumerate() {
        check_probe(i, p)?;
    }
    let candidates = broad_phase_x(probes)?;
    let pairs: Vec<PairResult> = candidates
        .into_iter()
        .map(|(a, b)| test_pair(probes, a, b))
        .collect();
    let n = probes.len() as u64;
    Ok(PairsReport {
        probe_count: probes.len(),
        pair_count: n * n.saturating_sub(1) / 2,
        tested_count: pairs.len(),
        colliding_count: pairs.iter().filter(|p| p.collides()).count(),
        pairs,
    })
}

/// The x extent a probe's bounding sphere sweeps over the move.
fn x_extent(p: &PairProbe) -> (f64, f64) {
    let r = p.bounding_radius();
    let (x0, x1) = (p.from.x, p.from.x + p.velocity.x);
    (x0.min(x1) - r, x0.max(x1) + r)
}

/// Sort-and-sweep along x: the pairs `(a, b)`, `a < b`, whose swept x
/// extents overlap (touching counts), sorted.
pub fn broad_phase_x(probes: &[PairProbe]) -> Result<Vec<(usize, usize)>, PairsError> {
    let extents: Vec<(f64, f64)> = probes.iter().map(x_extent).collect();
    let mut order: Vec<usize> = (0..probes.len()).collect();
    order.sort_by(|&i, &j| extents[i].0.total_cmp(&extents[j].0));
    let mut out = Vec::new();
    // Active list: probes whose extent may still reach the next start.
    let mut active: Vec<usize> = Vec::new();
    for &i in &order {
        let start = extents[i].0;
        active.retain(|&j| extents[j].1 >= start);
        for &j in &active {
            out.push((i.min(j), i.max(j)));
        }
        if out.len() > MAX_TESTED_PAIRS {
            return Err(PairsError::TooManyPairs);
        }
        active.push(i);
    }
    out.sort_unstable();
    Ok(out)
}

/// The sphere test on one pair, with its contact point and closest approach.
pub fn test_pair(probes: &[PairProbe], a: usize, b: usize) -> PairResult {
    let (pa, pb) = (&probes[a], &probes[b]);
    let (ra, rb) = (pa.bounding_radius(), pb.bounding_radius());
    let outcome = sweep_sphere_sphere(pa.moving_sphere(), pb.moving_sphere());
    let contact_t = match outcome {
        SphereSweepOutcome::Overlapping => Some(0.0),
        SphereSweepOutcome::Hit { t } => Some(t),
        SphereSweepOutcome::Miss { .. } => None,
    };
    let contact = contact_t.map(|t| {
        let (ca, cb) = (pa.center_at(t), pb.center_at(t));
        let d = ca.distance(cb);
        let dir = (cb - ca).normalize_or(DVec3::X);
        // Halfway between the two surfaces along the centre line: the
        // touching point at first contact, the overlap's middle when inside.
        let along = ra + (d - ra - rb) * 0.5;
        PairContact {
            t,
            center_a: ca,
            center_b: cb,
            point: ca + dir * along,
        }
    });
    PairResult {
        a,
        b,
        contact_distance: ra + rb,
        outcome,
        contact,
        closest: closest_approach(pa, pb),
    }
}

/// When over the move the centres of `pa` and `pb` are closest, and how close.
pub fn closest_approach(pa: &PairProbe, pb: &PairProbe) -> ClosestApproach {
    let dp = pb.from - pa.from;
    let dv = pb.velocity - pa.velocity;
    let vv = dv.length_squared();
    // Minimum of |dp + t dv|^2 at t = -dp.dv / vv, kept within the move.
    let t = if vv > 0.0 {
        (-dp.dot(dv) / vv).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ca, cb) = (pa.center_at(t), pb.center_at(t));
    let d = ca.distance(cb);
    ClosestApproach {
        t,
        center_distance: d,
        gap: d - pa.bounding_radius() - pb.bounding_radius(),
        center_a: ca,
        center_b: cb,
    }
}

#[cfg(test)]
#[path = "probe_pairs_tests.rs"]
mod tests;
