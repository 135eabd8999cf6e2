//! The radial push-out (seed document 002) beside the swept ellipsoid on
//! the same cylinders, world space.
//!
//! [`compare_radial`] runs one move both ways: by [`super::radial`] against
//! the cylinders, and by the collide-and-slide ([`crate::collide::slide`])
//! against a world that holds the cylinders as prisms
//! ([`crate::level::cylinder::level_with_cylinders`]). The slide runs
//! without gravity, as the radial method has none. The two disagree when
//! their end points are farther apart than a tolerance; the classic case is
//! a fast move whose fixed step jumps past a pole that the swept ellipsoid
//! stops at.

use super::radial::RadialProbe;
use super::{Method, MethodError, MethodSettings, MethodTrace, run_with_cylinders};
use crate::collide::{CollisionWorld, EndReason, SlideSettings, TraceDetail, slide};
use crate::level::cylinder::Cylinder;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// End points closer than this agree by default, metres: the prism's
/// corners stick out 2 % of a radius past the circle and the ellipsoid's
/// sides curve away from a cylinder's, a few centimetres on a person-sized
/// probe.
pub const DEFAULT_TOLERANCE_M: f64 = 0.1;

/// One move run by push-out and by the swept ellipsoid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RadialComparison {
    /// Where the radial push-out ends, world space.
    pub radial_end: DVec3,
    /// Where the swept ellipsoid ends, world space.
    pub ellipsoid_end: DVec3,
    /// Why the ellipsoid's move ended.
    pub ellipsoid_end_reason: EndReason,
    /// Distance between the two end points, metres.
    pub apart_m: f64,
    /// The tolerance used, metres.
    pub tolerance_m: f64,
    /// The end points are farther apart than the tolerance.
    pub disagree: bool,
    /// Cylinders the push-out went through, in order: a fixed step jumped
    /// past them, or landed past the axis and was pushed out the far side.
    pub passed_through: Vec<u32>,
    /// Cylinders the push-out leaves the probe inside at the end.
    pub inside_at_end: Vec<u32>,
}

impl RadialComparison {
    /// One line for the status bar and the text output.
    pub fn sentence(&self) -> String {
        let e = self.ellipsoid_end;
        let at = format!("({:.3}, {:.3}, {:.3})", e.x, e.y, e.z);
        if !self.disagree {
            return format!(
                "push-out and ellipsoid agree: ends {:.3} m apart (tolerance {} m)",
                self.apart_m, self.tolerance_m
            );
        }
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        let why = if !self.passed_through.is_empty() {
            let s = if self.passed_through.len() > 1 {
                "s"
            } else {
                ""
            };
            format!(
                "push-out passed through pole{s} {}",
                list(&self.passed_through)
            )
        } else if !self.inside_at_end.is_empty() {
            format!("push-out ends inside pole {}", list(&self.inside_at_end))
        } else {
            // The push-out's circles are not the triangles: a bounding
            // circle round a box, or the level's walls it ignores.
            "push-out and ellipsoid part".to_string()
        };
        format!(
            "{why}; the ellipsoid stops at {at}, {:.3} m from the push-out's end",
            self.apart_m
        )
    }
}

/// Runs the move both ways. `world` must hold the cylinders' triangles for
/// the ellipsoid to meet them (and the level's, which the push-out
/// ignores). Invalid input is refused as [`super::run`] refuses it.
pub fn compare_radial(
    world: CollisionWorld<'_>,
    cylinders: &[Cylinder],
    settings: &SlideSettings,
    ms: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
    tolerance_m: f64,
) -> Result<(MethodTrace, RadialComparison), MethodError> {
    if !(tolerance_m.is_finite() && tolerance_m >= 0.0) {
        return Err(MethodError(format!(
            "tolerance {tolerance_m} m must be zero or more"
        )));
    }
    let trace = run_with_cylinders(
        Method::Radial,
        world,
        cylinders,
        settings,
        ms,
        start,
        velocity,
    )?;
    let no_gravity = SlideSettings {
        gravity: [0.0; 3],
        ..settings.clone()
    };
    let slid = slide(world, &no_gravity, start, velocity, TraceDetail::Summary)
        .ok_or_else(|| MethodError("the ellipsoid slide refused the move".into()))?;
    let mut passed: Vec<u32> = Vec::new();
    for d in trace.iterations.iter().filter_map(|s| s.detail.as_radial()) {
        for &c in d.passed_through.iter().chain(&d.pushed_through) {
            if !passed.contains(&c) {
                passed.push(c);
            }
        }
    }
    let probe = RadialProbe::of(settings);
    let inside_at_end = (0..cylinders.len() as u32)
        .filter(|&i| probe.is_inside(&cylinders[i as usize], trace.final_position))
        .collect();
    let apart_m = trace.final_position.distance(slid.final_position);
    let cmp = RadialComparison {
        radial_end: trace.final_position,
        ellipsoid_end: slid.final_position,
        ellipsoid_end_reason: slid.end_reason,
        apart_m,
        tolerance_m,
        disagree: apart_m > tolerance_m,
        passed_through: passed,
        inside_at_end,
    };
    Ok((trace, cmp))
}
