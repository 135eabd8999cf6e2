//! The radial method: cumulative push-out of vertical cylinders (trees,
//! poles), after "Simple but Effective Collisions Part 1: Radial Collision
//! Handling" (GameDev.net, 2013; seed document 002).
//!
//! The move is cut into [`MethodSettings::step_count`] fixed steps. Each
//! step jumps the probe to its next sample; then, as the article does once
//! per frame, every cylinder whose circle in the x-z plane (its radius plus
//! the probe's horizontal radius) holds the probe centre and whose vertical
//! extent overlaps the probe's (centre ± its y radius) contributes the push
//! `(R / |d| - 1) · d`, where `d` is the x-z vector from the cylinder's axis
//! to the probe centre and `R` the summed radii: just enough to put the
//! centre back on the circle, along the line from the axis, which is what
//! slides the probe around a pole. The contributions are computed at the
//! same sample and added (the article's cumulative `v_deltaPos`), so a
//! probe between two overlapping poles can be pushed by both at once, and
//! be left inside one of them; the step records it ([`RadialStep::inside_after`]).
//!
//! Only the cylinders take part: the level's triangles are not used (the
//! article's method is for trees and poles; walls need another method).
//! Nothing is swept either: a step longer than a pole's diameter can jump
//! past it, recorded as [`RadialStep::passed_through`], and a step that
//! lands past a pole's axis is pushed out of the far side, recorded as
//! [`RadialStep::pushed_through`].
//!
//! Positions and vectors are world space, metres.

use super::{Method, MethodEnd, MethodSettings, MethodStep, MethodTrace, StepDetail};
use crate::collide::SlideSettings;
use crate::level::cylinder::Cylinder;
use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

/// A step's path must go this deep into a cylinder's circle, metres, to
/// count as passing through it (see [`GRAZE_SHARE`]).
pub const GRAZE_M: f64 = 1e-3;
/// ... or this share of the summed radii, when larger.
pub const GRAZE_SHARE: f64 = 0.01;

/// A cylinder the probe ended a step inside, and its push-out.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CylinderHit {
    /// Index in the scene's cylinder list.
    pub cylinder: u32,
    /// This cylinder's share of the push-out, world space (y is 0).
    pub push: DVec3,
    /// How far inside the summed radii the sample was, metres.
    pub depth: f64,
}

/// One fixed step of the radial method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RadialStep {
    /// Where the step landed before the push-out, world space.
    pub sample: DVec3,
    /// Every cylinder the sample was inside, with its push.
    pub entered: Vec<CylinderHit>,
    /// The sum of the pushes (the article's `v_deltaPos`), world space.
    pub push_total: DVec3,
    /// Cylinders the centre's path crossed although neither the step's
    /// start nor its sample was inside: the step jumped past them.
    pub passed_through: Vec<u32>,
    /// Cylinders whose push points along the step's motion: the sample
    /// landed past the axis, and the push-out finished the crossing,
    /// putting the probe on the far side.
    pub pushed_through: Vec<u32>,
    /// Cylinders the probe is still inside after the push-out (cumulative
    /// pushes of overlapping cylinders can push into a neighbour).
    pub inside_after: Vec<u32>,
}

/// The probe as the radial method sees it: a vertical cylinder itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RadialProbe {
    /// Horizontal radius, metres: the larger of the ellipsoid's x and z radii.
    pub radius: f64,
    /// Half its height, metres: the ellipsoid's y radius.
    pub half_height: f64,
}

impl RadialProbe {
    /// The probe of an ellipsoid with these settings.
    pub fn of(settings: &SlideSettings) -> RadialProbe {
        let r = settings.radii_vec();
        RadialProbe {
            radius: r.x.max(r.z),
            half_height: r.y,
        }
    }

    /// The probe centred at `pos` overlaps `c` in height.
    fn overlaps_vertically(&self, c: &Cylinder, pos: DVec3) -> bool {
        pos.y - self.half_height < c.top_y() && pos.y + self.half_height > c.base_world.y
    }

    /// x-z vector from the axis of `c` to `pos`, and the summed radii.
    fn offset(&self, c: &Cylinder, pos: DVec3) -> (DVec2, f64) {
        let d = DVec2::new(pos.x - c.base_world.x, pos.z - c.base_world.z);
        (d, c.radius + self.radius)
    }

    /// The probe centred at `pos` is inside `c` (by more than rounding:
    /// a probe pushed onto the circle counts as outside).
    pub fn is_inside(&self, c: &Cylinder, pos: DVec3) -> bool {
        let (d, r) = self.offset(c, pos);
        let slack = 1e-9 * (r + DVec2::new(pos.x, pos.z).abs().max_element());
        self.overlaps_vertically(c, pos) && d.length() < r - slack
    }
}

/// The article's push-out at `pos`: each cylinder holding the probe adds
/// `(R / |d| - 1) · d`. A centre exactly on an axis has no direction of its
/// own; it is pushed back against `away_xz` (the step's motion), or along
/// +x when there was none.
pub fn push_out(
    cylinders: &[Cylinder],
    probe: RadialProbe,
    pos: DVec3,
    away_xz: DVec2,
) -> (DVec3, Vec<CylinderHit>) {
    let mut total = DVec2::ZERO;
    let mut hits = Vec::new();
    for (i, c) in cylinders.iter().enumerate() {
        if !probe.is_inside(c, pos) {
            continue;
        }
        let (d, r) = probe.offset(c, pos);
        let len = d.length();
        let push = if len > 0.0 {
            d * (r / len - 1.0)
        } else {
            -away_xz.try_normalize().unwrap_or(DVec2::NEG_X) * r
        };
        total += push;
        hits.push(CylinderHit {
            cylinder: i as u32,
            push: DVec3::new(push.x, 0.0, push.y),
            depth: r - len,
        });
    }
    (DVec3::new(total.x, 0.0, total.y), hits)
}

/// Cylinders the segment `a → b` crosses in x-z deeper than a graze (with
/// vertical overlap at `b`) while neither end is inside: what a fixed step
/// jumped past.
fn passed_through(cylinders: &[Cylinder], probe: RadialProbe, a: DVec3, b: DVec3) -> Vec<u32> {
    let mut out = Vec::new();
    for (i, c) in cylinders.iter().enumerate() {
        if !probe.overlaps_vertically(c, b) || probe.is_inside(c, a) || probe.is_inside(c, b) {
            continue;
        }
        let (da, r) = probe.offset(c, a);
        let (db, _) = probe.offset(c, b);
        let seg = db - da;
        let len2 = seg.length_squared();
        let t = if len2 > 0.0 {
            (-da.dot(seg) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        // A probe sliding round a pole starts its step on the circle, and
        // its straight step cuts the curve by a hair: only a step whose
        // path goes deeper than a graze jumped past the pole.
        let graze = GRAZE_M.max(GRAZE_SHARE * r);
        if (da + seg * t).length() < r - graze {
            out.push(i as u32);
        }
    }
    out
}

/// Runs the radial method (settings and input validated by [`super::run_with_cylinders`]).
pub(super) fn run(
    cylinders: &[Cylinder],
    settings: &SlideSettings,
    ms: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
) -> MethodTrace {
    let probe = RadialProbe::of(settings);
    let n = ms.step_count();
    let step_vel = velocity / f64::from(n);
    let away = DVec2::new(step_vel.x, step_vel.z);
    let mut pos = start;
    // The pushes so far: samples are placed from the start and this sum
    // rather than by adding step after step, so a move with no push ends
    // exactly at `start + velocity`.
    let mut pushed = DVec3::ZERO;
    let mut steps = Vec::with_capacity(n as usize);
    let mut any_contact = false;
    for index in 0..n {
        let sample = start + velocity * (f64::from(index + 1) / f64::from(n)) + pushed;
        let (push_total, entered) = push_out(cylinders, probe, sample, away);
        pushed += push_total;
        let end = sample + push_total;
        let inside_after: Vec<u32> = (0..cylinders.len() as u32)
            .filter(|&i| probe.is_inside(&cylinders[i as usize], end))
            .collect();
        any_contact |= !entered.is_empty();
        steps.push(MethodStep {
            index,
            start: pos,
            velocity: step_vel,
            end,
            detail: StepDetail::Radial(RadialStep {
                sample,
                pushed_through: entered
                    .iter()
                    .filter(|h| h.push.dot(step_vel) > 0.0)
                    .map(|h| h.cylinder)
                    .collect(),
                passed_through: passed_through(cylinders, probe, pos, sample),
                entered,
                push_total,
                inside_after,
            }),
        });
        pos = end;
    }
    let stuck = steps
        .last()
        .and_then(|s| s.detail.as_radial())
        .is_some_and(|d| !d.inside_after.is_empty());
    MethodTrace {
        method: Method::Radial,
        final_position: pos,
        end_reason: if stuck {
            MethodEnd::StuckOverlapping
        } else if any_contact {
            MethodEnd::ArrivedAfterContacts
        } else {
            MethodEnd::Arrived
        },
        iterations: steps,
    }
}

#[cfg(test)]
mod tests;
