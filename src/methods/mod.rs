//! The other collision methods of the source documents, beside the
//! ellipsoid slide, in one trace format.
//!
//! [`Method`] names each method; [`run`] runs one move of a probe by a
//! method and returns a [`MethodTrace`]: plain data with the slide trace's
//! top-level shape (`method`, `final_position`, `end_reason`, one record
//! per step in `iterations`, each with `index`, `start`, `velocity`, `end`
//! and the method's own details in [`StepDetail`]). The CLI prints it
//! (`sweep --method`), the window steps it record by record and draws it
//! with [`primitives_for_method`] (overlay kinds of [`crate::collide::debug_draw`]).
//!
//! [`Method::Ellipsoid`] is the existing collide-and-slide
//! ([`crate::collide::SlideSolver`], its own richer trace); the others are:
//!
//! - [`Method::Discrete`]: overlap testing in fixed time steps with the time
//!   of impact found by bisection, penetration depth and normal, and the
//!   prologue / collision / epilogue resolution with triggers, as the
//!   lecture notes of Ming-Hwa Wang, "Collision Detection and Resolution"
//!   (COEN 396, Santa Clara University) describe them ([`discrete`]).
//!
//! - [`Method::Box`]: the box camera's four levels (object boxes, triangle
//!   boxes, the box's edge boxes, segment against triangle) on the box swept
//!   along each fixed step, from the "Snok" collision algorithm (Torbjørn
//!   Vik, 2000) ([`box_camera`]).
//!
//! - [`Method::Radial`]: fixed steps, then the cumulative push-out of every
//!   vertical cylinder (tree, pole) the probe ends inside, from "Simple but
//!   Effective Collisions Part 1: Radial Collision Handling" (GameDev.net,
//!   seed document 002) ([`radial`]). It uses the scene's cylinders
//!   ([`crate::level::cylinder`]), not the level's triangles;
//!   [`radial_compare`] runs the swept ellipsoid against the same cylinders'
//!   triangles and says where the two disagree.
//!
//! Positions and vectors are world space (metres) unless named `_espace`
//! (the probe's ellipsoid space, where it is a unit sphere).

pub mod box_camera;
pub mod discrete;
mod draw;
pub mod overlap;
pub mod radial;
pub mod radial_compare;
pub mod radial_draw;
pub mod tunnel;

pub use draw::primitives_for_method;

use crate::collide::{CollisionWorld, MAX_MAGNITUDE_M, SlideSettings};
use crate::level::cylinder::Cylinder;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A collision method a probe can move by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The swept-ellipsoid collide-and-slide (Nettle 2000, Fauerby 2003),
    /// in the probe's slide mode. Its trace is the slide trace.
    #[default]
    Ellipsoid,
    /// Overlap tests in fixed time steps, bisection for the time of
    /// impact, push-out by the penetration depth (Wang, COEN 396).
    Discrete,
    /// The box camera in four levels, detection only (Vik, "Snok").
    Box,
    /// Fixed steps and cumulative push-out of vertical cylinders only (the
    /// level's triangles are not used; seed document 002).
    Radial,
}

impl Method {
    /// Every method, in menu order.
    pub const ALL: [Method; 4] = [
        Method::Ellipsoid,
        Method::Discrete,
        Method::Box,
        Method::Radial,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Method::Ellipsoid => "ellipsoid",
            Method::Discrete => "discrete",
            Method::Box => "box",
            Method::Radial => "radial",
        }
    }

    /// One line for menus and tooltips.
    pub fn description(self) -> &'static str {
        match self {
            Method::Ellipsoid => "swept ellipsoid, collide and slide",
            Method::Discrete => "overlap in fixed time steps, bisection, push-out",
            Method::Box => "box camera, four levels per step, detection only",
            Method::Radial => "push-out of vertical cylinders (poles, trees) only, no triangles",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                format!("unknown method '{s}' (expected {})", names.join(", "))
            })
    }
}

/// The most fixed steps one move may take ([`MethodSettings::step_count`]).
pub const MAX_STEPS: u32 = 10_000;

/// What the methods other than the slide need besides the probe's
/// [`SlideSettings`] (radii, skin). Fields missing from a saved session take
/// their default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MethodSettings {
    /// Fixed steps per second of the discrete mode (a game's tick rate), Hz.
    pub step_hz: f64,
    /// How long the move takes, seconds: the probe's velocity vector is
    /// covered in this time, so its speed is `|velocity| / move_seconds`.
    pub move_seconds: f64,
    /// Bisection halvings for the time of impact of an overlapping step.
    pub bisection_iterations: u32,
}

impl Default for MethodSettings {
    fn default() -> Self {
        MethodSettings {
            step_hz: 60.0,
            move_seconds: 1.0,
            bisection_iterations: 24,
        }
    }
}

impl MethodSettings {
    /// Why the settings cannot run, if they cannot.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.step_hz.is_finite() && self.step_hz > 0.0) {
            return Err(format!("step rate {} Hz must be above zero", self.step_hz));
        }
        if !(self.move_seconds.is_finite() && self.move_seconds > 0.0) {
            return Err(format!(
                "move duration {} s must be above zero",
                self.move_seconds
            ));
        }
        if self.bisection_iterations > 60 {
            return Err(format!(
                "{} bisection iterations is more than f64 can halve (at most 60)",
                self.bisection_iterations
            ));
        }
        let n = (self.move_seconds * self.step_hz).ceil();
        if n > f64::from(MAX_STEPS) {
            use crate::level::cylinder::readable;
            return Err(format!(
                "{} steps ({} s at {} Hz) is more than the limit of {MAX_STEPS}",
                readable(n),
                readable(self.move_seconds),
                readable(self.step_hz)
            ));
        }
        Ok(())
    }

    /// How many fixed steps a move takes (at least one).
    pub fn step_count(&self) -> u32 {
        ((self.move_seconds * self.step_hz).ceil() as u32).clamp(1, MAX_STEPS)
    }
}

// The trigger events live with the slide's (one definition for both).
pub use crate::collide::triggers::{TriggerEvent, TriggerKind};

/// What a step of a method found, per method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// One detail per step of one move, kept in a Vec: the size difference
// between the variants costs little and boxing would add an allocation per step.
#[allow(clippy::large_enum_variant)]
pub enum StepDetail {
    /// A fixed step of the discrete mode.
    Discrete(discrete::DiscreteStep),
    /// A fixed step of the box camera: the four levels on the step's box.
    Box(crate::analysis::boxcam::BoxCamReport),
    /// A fixed step of the radial method: the cylinders entered and pushed out of.
    Radial(radial::RadialStep),
}

impl StepDetail {
    /// The discrete mode's findings, when this is a discrete step.
    pub fn as_discrete(&self) -> Option<&discrete::DiscreteStep> {
        match self {
            StepDetail::Discrete(d) => Some(d),
            StepDetail::Box(_) | StepDetail::Radial(_) => None,
        }
    }

    /// The box camera's four levels, when this is a box step.
    pub fn as_box(&self) -> Option<&crate::analysis::boxcam::BoxCamReport> {
        match self {
            StepDetail::Box(r) => Some(r),
            StepDetail::Discrete(_) | StepDetail::Radial(_) => None,
        }
    }

    /// The radial method's push-outs, when this is a radial step.
    pub fn as_radial(&self) -> Option<&radial::RadialStep> {
        match self {
            StepDetail::Radial(r) => Some(r),
            StepDetail::Discrete(_) | StepDetail::Box(_) => None,
        }
    }
}

/// One step of a method's move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodStep {
    /// 0-based step index.
    pub index: u32,
    /// Probe centre where the step starts, world space.
    pub start: DVec3,
    /// The displacement the step asked for, world space.
    pub velocity: DVec3,
    /// Probe centre where the step ends (after resolution), world space.
    pub end: DVec3,
    /// The method's own findings.
    pub detail: StepDetail,
}

/// Why a method's move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MethodEnd {
    /// Every step ran without a collision.
    Arrived,
    /// Every step ran; at least one met the geometry (resolved by the
    /// discrete mode, only detected by the box camera).
    ArrivedAfterContacts,
    /// The probe was left overlapping the geometry after resolution.
    StuckOverlapping,
}

/// A finished move by one method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodTrace {
    /// The method that ran.
    pub method: Method,
    /// Where the probe centre ends, world space.
    pub final_position: DVec3,
    /// Why the move ended.
    pub end_reason: MethodEnd,
    /// One record per step, in order.
    pub iterations: Vec<MethodStep>,
}

/// Why a method could not run a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodError(pub String);

impl fmt::Display for MethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MethodError {}

/// Runs one move of the probe centred at `start` by `velocity` (world
/// space) with `method`, in a scene without cylinders (see
/// [`run_with_cylinders`]). [`Method::Ellipsoid`] is not run here (it has its
/// own trace, [`crate::collide::slide`]) and is refused, as are non-finite
/// or huge input and invalid settings.
pub fn run(
    method: Method,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    method_settings: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
) -> Result<MethodTrace, MethodError> {
    run_with_cylinders(
        method,
        world,
        &[],
        settings,
        method_settings,
        start,
        velocity,
    )
}

/// As [`run`], in a scene with vertical `cylinders` (world space): the
/// radial method collides with them alone; the other methods see only
/// `world` (add the cylinders' triangles to it with
/// [`crate::level::cylinder::level_with_cylinders`]). Invalid cylinders or
/// more than [`crate::level::cylinder::MAX_CYLINDERS`] are refused.
pub fn run_with_cylinders(
    method: Method,
    world: CollisionWorld<'_>,
    cylinders: &[Cylinder],
    settings: &SlideSettings,
    method_settings: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
) -> Result<MethodTrace, MethodError> {
    validate_cylinders(cylinders)?;
    settings
        .validate()
        .map_err(|e| MethodError(e.to_string()))?;
    method_settings.validate().map_err(MethodError)?;
    let within = |v: DVec3| v.is_finite() && v.abs().max_element() <= MAX_MAGNITUDE_M;
    if !(within(start) && within(velocity)) {
        return Err(MethodError(format!(
            "start and velocity must be finite and within {MAX_MAGNITUDE_M} m"
        )));
    }
    match method {
        Method::Ellipsoid => Err(MethodError(
            "the ellipsoid slide runs through collide::slide".into(),
        )),
        Method::Discrete => Ok(discrete::run(
            world,
            settings,
            method_settings,
            start,
            velocity,
        )),
        Method::Box => Ok(box_camera::run(
            world,
            settings,
            method_settings,
            start,
            velocity,
        )),
        Method::Radial => Ok(radial::run(
            cylinders,
            settings,
            method_settings,
            start,
            velocity,
        )),
    }
}

/// Why these cylinders cannot be used: the first invalid one (by index) or
/// too many.
pub fn validate_cylinders(cylinders: &[Cylinder]) -> Result<(), MethodError> {
    use crate::level::cylinder::MAX_CYLINDERS;
    if cylinders.len() > MAX_CYLINDERS {
        return Err(MethodError(format!(
            "{} cylinders is more than the limit of {MAX_CYLINDERS}",
            cylinders.len()
        )));
    }
    for (i, c) in cylinders.iter().enumerate() {
        c.validate()
            .map_err(|e| MethodError(format!("cylinder {i}: {e}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
