//! A character's controller settings: the `[character]` section of a
//! settings file. Every name carries its unit; world space is Y up, metres.
//!
//! The defaults are a realistic player, taken from engines users already
//! tune: walking speed 5 m/s and jump speed 4.5 m/s from Godot's
//! `CharacterBody3D` script template, 60 frames a second (Godot's physics
//! tick), gravity 9.81 m/s², a 0.3 m step (Unity's `CharacterController`
//! `stepOffset`), a 45° walkable slope (Unity's `slopeLimit`, Godot's
//! `floor_max_angle`), a 0.1 m ground snap (Godot's `floor_snap_length`),
//! a 0.02 m least step forward (Jolt's `mWalkStairsMinStepForward`) and a
//! 40 m/s fastest fall (Unreal's default terminal velocity, 4000 cm/s).
//! The two perch settings, which only the `unreal` profile reads, are
//! Unreal's own defaults (`PerchRadiusThreshold` 0 cm,
//! `PerchAdditionalHeight` 40 cm).

use super::{ClimbingMode, EngineProfile, NonWalkable};
use serde::{Deserialize, Deserializer, Serialize};

/// How a character walks, on top of its slide settings. Units in the names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CharacterSettings {
    /// Horizontal walking speed, m/s, ≥ 0.
    #[serde(deserialize_with = "de_walk_speed")]
    pub walk_speed_m_s: f64,
    /// Frames simulated per second, Hz, from [`MIN_FRAME_RATE_HZ`] to
    /// [`MAX_FRAME_RATE_HZ`].
    #[serde(deserialize_with = "de_frame_rate")]
    pub frame_rate_hz: f64,
    /// Gravity acceleration, m/s², pulling down (−Y), ≥ 0.
    #[serde(deserialize_with = "de_gravity")]
    pub gravity_m_s2: f64,
    /// Upward speed a jump gives, m/s, ≥ 0.
    #[serde(deserialize_with = "de_jump_speed")]
    pub jump_speed_m_s: f64,
    /// Tallest step climbed, metres, ≥ 0. The step-up rises by this less
    /// what the ellipsoid's curve rolls over by itself within the walkable
    /// slope (see [`crate::character::rolling_height`]); at or under that
    /// height (zero included) there is no step-up, and the ellipsoid climbs
    /// only what it rolls over, as in Nettle's and Fauerby's papers.
    #[serde(deserialize_with = "de_step_height")]
    pub max_step_height_m: f64,
    /// A step-up moves at least this far forward on top of the riser,
    /// metres, ≥ 0, so that a slow walk still gets onto the tread.
    #[serde(deserialize_with = "de_tread")]
    pub min_tread_depth_m: f64,
    /// Steepest walkable slope, degrees, in [0, 90). Steeper contacts are
    /// walls: walking slides along them without climbing, and standing on
    /// them is falling.
    #[serde(deserialize_with = "de_slope")]
    pub max_slope_deg: f64,
    /// A character that walked off a ledge or down a slope is pulled down
    /// onto walkable ground up to this far, metres, ≥ 0.
    #[serde(deserialize_with = "de_snap")]
    pub snap_distance_m: f64,
    /// Fastest fall, m/s, > 0.
    #[serde(deserialize_with = "de_fall")]
    pub max_fall_speed_m_s: f64,
    /// Whose controller the character follows ([`EngineProfile`]): its
    /// shape and its rules for stepping up and keeping to the ground.
    /// Collidoscope's own model when absent.
    #[serde(skip_serializing_if = "EngineProfile::is_collidoscope")]
    pub engine: EngineProfile,
    /// On ground steeper than `max_slope_deg`: `"prevent_climbing"` stands
    /// on it, `"prevent_climbing_and_force_sliding"` slides down it (both
    /// refuse to walk up it). The profile's own rule when absent (see
    /// [`crate::character::ControllerRules`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_walkable: Option<NonWalkable>,
    /// `"easy"`: a step-up's round body rides over an edge above the step
    /// height; `"constrained"`: no step-up lands higher than the step
    /// height. Matters only for profiles that rise by the whole step height
    /// (physx, unity, jolt, rapier); the profile's own rule when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub climbing_mode: Option<ClimbingMode>,
    /// Unreal's `PerchRadiusThreshold`, metres, ≥ 0: standing on an edge
    /// farther than the body's radius less this from its axis needs a
    /// floor within `max_step_height_m + perch_additional_height_m` under
    /// a body that much narrower, or the character falls off. 0 (Unreal's
    /// default) lets it stand on any edge under its round end. Only the
    /// `unreal` profile reads it (see [`crate::character::unreal`]).
    #[serde(
        deserialize_with = "de_perch_threshold",
        skip_serializing_if = "is_default_perch_threshold"
    )]
    pub perch_radius_threshold_m: f64,
    /// Unreal's `PerchAdditionalHeight`, metres, ≥ 0: how much farther
    /// than the step height the floor under a perch may be, for a walking
    /// character, before it falls off the edge. Only the `unreal` profile
    /// reads it, and only with a `perch_radius_threshold_m` above zero.
    #[serde(
        deserialize_with = "de_perch_height",
        skip_serializing_if = "is_default_perch_height"
    )]
    pub perch_additional_height_m: f64,
}

/// Unreal's default `PerchRadiusThreshold`, 0 cm.
pub const DEFAULT_PERCH_RADIUS_THRESHOLD_M: f64 = 0.0;
/// Unreal's default `PerchAdditionalHeight`, 40 cm.
pub const DEFAULT_PERCH_ADDITIONAL_HEIGHT_M: f64 = 0.4;

fn is_default_perch_threshold(x: &f64) -> bool {
    *x == DEFAULT_PERCH_RADIUS_THRESHOLD_M
}

fn is_default_perch_height(x: &f64) -> bool {
    *x == DEFAULT_PERCH_ADDITIONAL_HEIGHT_M
}

impl Default for CharacterSettings {
    fn default() -> Self {
        CharacterSettings {
            walk_speed_m_s: 5.0,
            frame_rate_hz: 60.0,
            gravity_m_s2: 9.81,
            jump_speed_m_s: 4.5,
            max_step_height_m: 0.3,
            min_tread_depth_m: 0.02,
            max_slope_deg: 45.0,
            snap_distance_m: 0.1,
            max_fall_speed_m_s: 40.0,
            engine: EngineProfile::Collidoscope,
            non_walkable: None,
            climbing_mode: None,
            perch_radius_threshold_m: DEFAULT_PERCH_RADIUS_THRESHOLD_M,
            perch_additional_height_m: DEFAULT_PERCH_ADDITIONAL_HEIGHT_M,
        }
    }
}

/// The largest length, speed or acceleration a setting may hold: far beyond
/// any game's, and small enough that a frame's sums stay finite.
pub const MAX_CHARACTER_VALUE: f64 = 1.0e6;

/// Fewest frames a second: one frame a second is already a slide show, and
/// a slower rate would make one frame's walk longer than any level (a
/// recording's frames are at most 1 s apart for the same reason).
pub const MIN_FRAME_RATE_HZ: f64 = 1.0;
/// Most frames a second (a recording's frames are at least 1 ms apart).
pub const MAX_FRAME_RATE_HZ: f64 = 1000.0;

/// A rule one setting breaks, as a one-line message naming the field.
fn check(name: &str, x: f64, min: f64, min_inclusive: bool, max: f64) -> Result<(), String> {
    let above_min = if min_inclusive { x >= min } else { x > min };
    if x.is_finite() && above_min && x <= max {
        return Ok(());
    }
    let low = if min_inclusive {
        "at least"
    } else {
        "more than"
    };
    Err(format!(
        "character.{name} = {} must be a finite number {low} {min} and at most {max}",
        crate::math::short_number(x)
    ))
}

impl CharacterSettings {
    /// The cosine of the walkable slope limit: the least up component
    /// (world Y) of a walkable contact normal.
    pub fn floor_min_up(&self) -> f64 {
        self.max_slope_deg.to_radians().cos()
    }

    /// Seconds per frame.
    pub fn frame_time_s(&self) -> f64 {
        1.0 / self.frame_rate_hz
    }

    /// Checks every field against its range; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        let m = MAX_CHARACTER_VALUE;
        check("walk_speed_m_s", self.walk_speed_m_s, 0.0, true, m)?;
        check(
            "frame_rate_hz",
            self.frame_rate_hz,
            MIN_FRAME_RATE_HZ,
            true,
            MAX_FRAME_RATE_HZ,
        )?;
        check("gravity_m_s2", self.gravity_m_s2, 0.0, true, m)?;
        check("jump_speed_m_s", self.jump_speed_m_s, 0.0, true, m)?;
        check("max_step_height_m", self.max_step_height_m, 0.0, true, m)?;
        check("min_tread_depth_m", self.min_tread_depth_m, 0.0, true, m)?;
        slope_rule(self.max_slope_deg)?;
        check("snap_distance_m", self.snap_distance_m, 0.0, true, m)?;
        check("max_fall_speed_m_s", self.max_fall_speed_m_s, 0.0, false, m)?;
        check(
            "perch_radius_threshold_m",
            self.perch_radius_threshold_m,
            0.0,
            true,
            m,
        )?;
        check(
            "perch_additional_height_m",
            self.perch_additional_height_m,
            0.0,
            true,
            m,
        )
    }
}

/// One deserializer per field, so a bad value's message names its field
/// (serde's `deserialize_with` is not told which field it reads).
macro_rules! field_rule {
    ($fn_name:ident, $field:literal, $min:expr, $inclusive:expr, $max:expr) => {
        fn $fn_name<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            let x = f64::deserialize(d)?;
            check($field, x, $min, $inclusive, $max).map_err(serde::de::Error::custom)?;
            Ok(x)
        }
    };
}

field_rule!(
    de_walk_speed,
    "walk_speed_m_s",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);
field_rule!(
    de_frame_rate,
    "frame_rate_hz",
    MIN_FRAME_RATE_HZ,
    true,
    MAX_FRAME_RATE_HZ
);
field_rule!(de_gravity, "gravity_m_s2", 0.0, true, MAX_CHARACTER_VALUE);
field_rule!(
    de_jump_speed,
    "jump_speed_m_s",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);
field_rule!(
    de_step_height,
    "max_step_height_m",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);
field_rule!(
    de_tread,
    "min_tread_depth_m",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);
field_rule!(de_snap, "snap_distance_m", 0.0, true, MAX_CHARACTER_VALUE);
field_rule!(
    de_fall,
    "max_fall_speed_m_s",
    0.0,
    false,
    MAX_CHARACTER_VALUE
);
field_rule!(
    de_perch_threshold,
    "perch_radius_threshold_m",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);
field_rule!(
    de_perch_height,
    "perch_additional_height_m",
    0.0,
    true,
    MAX_CHARACTER_VALUE
);

fn de_slope<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let x = f64::deserialize(d)?;
    slope_rule(x).map_err(serde::de::Error::custom)?;
    Ok(x)
}

fn slope_rule(x: f64) -> Result<(), String> {
    if x.is_finite() && (0.0..90.0).contains(&x) {
        return Ok(());
    }
    Err(format!(
        "character.max_slope_deg = {} must be at least 0 and less than 90 degrees",
        crate::math::short_number(x)
    ))
}
