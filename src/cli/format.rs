//! Text formatting shared by the subcommands: vectors and boxes (world
//! space, metres), durations, and the snake_case names the JSON trace uses,
//! so that the text and JSON outputs say the same words.

use crate::geometry::sweep::Feature;
use crate::math::Aabb;
use glam::{DVec3, Vec3};
use serde::Serialize;
use std::time::Duration;

/// `(x, y, z)` with four decimals, the precision a designer reads positions at.
pub(crate) fn vec(v: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// As [`vec`], for the mesh's `f32` values.
pub(crate) fn vec_f32(v: Vec3) -> String {
    vec(v.as_dvec3())
}

/// `min (..) max (..)`, or `empty`.
pub(crate) fn aabb(b: &Aabb) -> String {
    if b.is_empty() {
        "empty".to_string()
    } else {
        format!("min {} max {}", vec_f32(b.min), vec_f32(b.max))
    }
}

/// Milliseconds with three decimals.
pub(crate) fn millis(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// `character   radii (..), mode M, 5 m/s at 60 Hz, ...`: who walks, one
/// line (the `walk`, `envelope` and `check` headers).
pub(crate) fn character_line(settings: &crate::collide::SlideSettings) -> String {
    let c = &settings.character;
    let frame = crate::character::frame_settings(settings);
    let body = if frame.shape.is_ellipsoid() {
        format!("radii {}", vec(settings.radii_vec()))
    } else {
        frame.shape.to_string()
    };
    let engine = if c.engine.is_collidoscope() {
        String::new()
    } else {
        format!(", engine {} ({})", c.engine.name(), c.engine.title())
    };
    format!(
        "character   {body}, mode {}, {} m/s at {} Hz, gravity {} m/s², step {} m, slope {}°, snap {} m{engine}",
        frame.mode,
        c.walk_speed_m_s,
        c.frame_rate_hz,
        c.gravity_m_s2,
        c.max_step_height_m,
        c.max_slope_deg,
        c.snap_distance_m
    )
}

/// `face`, `edge 1`, `vertex 2`.
pub(crate) fn feature(f: Feature) -> String {
    match f {
        Feature::Face => "face".to_string(),
        Feature::Edge(i) => format!("edge {i}"),
        Feature::Vertex(i) => format!("vertex {i}"),
    }
}

/// The name a unit enum variant has in the JSON output (`too_short`, `gravity`, ...).
pub(crate) fn snake_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::{EndReason, Pass};

    #[test]
    fn names_match_the_json_trace() {
        assert_eq!(snake_name(&EndReason::TooShort), "too_short");
        assert_eq!(snake_name(&EndReason::IterationCap), "iteration_cap");
        assert_eq!(snake_name(&Pass::Gravity), "gravity");
        assert_eq!(feature(Feature::Edge(2)), "edge 2");
    }

    #[test]
    fn vectors_boxes_and_times_read_plainly() {
        assert_eq!(vec(DVec3::new(1.0, -0.5, 2.0)), "(1.0000, -0.5000, 2.0000)");
        assert_eq!(aabb(&Aabb::EMPTY), "empty");
        let b = Aabb::from_corners(Vec3::ZERO, Vec3::ONE);
        assert_eq!(
            aabb(&b),
            "min (0.0000, 0.0000, 0.0000) max (1.0000, 1.0000, 1.0000)"
        );
        assert_eq!(millis(Duration::from_micros(1500)), "1.500 ms");
    }
}
