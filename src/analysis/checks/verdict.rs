//! One finding's verdict: where its walks start, what counts as getting
//! past, what the measurements predict, and the sentence that says why.
//! World space, Y up, metres.

use super::Finding;
use crate::analysis::features::{Feature, FeatureKind};
use crate::character::{
    Walk, WalkSpec, WalkSummary, WalkTrace, perch_radius, radius_along, rolling_height, walk,
};
use crate::collide::{CollisionWorld, EndReason, SlideMode, SlideSettings, TraceDetail, slide};
use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};

/// What a walk at a feature concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A step or slope the character walks up.
    Climbs,
    /// An opening or low ceiling the character walks through or under.
    Passes,
    /// The character cannot, as the measurements say.
    Blocked,
    /// The character does not, although the measurements say it fits.
    Stalls,
}

/// One walk at a finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckWalk {
    /// Angle between the walk and the feature's direction, degrees.
    pub angle_deg: f64,
    /// Where it started, which way, how long (replays it exactly).
    pub spec: WalkSpec,
    /// Whether it got over, up, through or under the feature.
    pub passed: bool,
    /// How it went (where it stalled, against what).
    pub summary: WalkSummary,
    /// How far it dropped before reaching the feature, metres: more than
    /// a step means there is no floor at the feature's level on that side.
    pub drop_before_m: f64,
}

/// A drop before the feature larger than this is no approach at its level.
const APPROACH_DROP_M: f64 = 0.2;

/// How far before the feature the walks start, beyond the ellipsoid's radius.
const RUN_UP_M: f64 = 0.8;
/// Time added to every walk beyond its way at full speed, seconds.
const WALK_MARGIN_S: f64 = 0.3;
/// How far past the feature a walk must get, metres.
const PAST_M: f64 = 0.3;

/// The character's width across a horizontal direction `dir` (twice its
/// ellipsoid's radius across it), metres.
fn width_across(radii: DVec3, dir: DVec3) -> f64 {
    let across = DVec3::new(-dir.z, 0.0, dir.x);
    2.0 / ((across.x / radii.x).powi(2) + (across.z / radii.z).powi(2)).sqrt()
}

/// Walks the character at `feature` straight on and at 45° and judges it.
pub(super) fn judge(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    feature: Feature,
) -> Finding {
    let walks: Vec<CheckWalk> = [0.0, 45.0]
        .into_iter()
        .map(|angle| walk_at(world, settings, &feature, angle))
        .collect();
    let p = prediction(settings, &feature);
    let climb = matches!(feature.kind, FeatureKind::Step | FeatureKind::Slope);
    let (verdict, reason) = match walks.iter().find(|w| !w.passed) {
        None if climb => (
            Verdict::Climbs,
            format!("{}: climbed straight on and at 45°", p.measured),
        ),
        None => (
            Verdict::Passes,
            format!("{}: passed straight on and at 45°", p.measured),
        ),
        Some(failed) if failed.drop_before_m > APPROACH_DROP_M => (
            Verdict::Blocked,
            format!(
                "no floor at its level before it: the walk at {:.0}° drops {:.2} m before reaching it and {} ({})",
                failed.angle_deg,
                failed.drop_before_m,
                failure(world, failed),
                p.measured
            ),
        ),
        Some(failed) if p.fits => (
            Verdict::Stalls,
            format!(
                "{}, so it should fit, yet the walk at {:.0}° {}",
                p.measured,
                failed.angle_deg,
                failure(world, failed)
            ),
        ),
        Some(failed) => (
            Verdict::Blocked,
            format!(
                "{} ({}); the walk at {:.0}° {}",
                p.limit,
                p.measured,
                failed.angle_deg,
                failure(world, failed)
            ),
        ),
    };
    Finding {
        feature,
        verdict,
        reason,
        walks,
    }
}

/// What the measurements say before any walk.
struct Prediction {
    /// Whether the character should get by.
    fits: bool,
    /// The measurement beside the character's limit, neutrally.
    measured: String,
    /// Which limit it breaks, when it does not fit.
    limit: &'static str,
}

/// Compares the measurements with the character. Limits are allowed the
/// skin: the envelope shows the character gets that much beyond them.
fn prediction(settings: &SlideSettings, f: &Feature) -> Prediction {
    let c = &settings.character;
    let r = settings.radii_vec();
    let skin = settings.skin;
    let tall = 2.0 * r.y;
    match f.kind {
        FeatureKind::Step => {
            let riser = f.riser_height_m.unwrap_or(0.0);
            let rolled = rolling_height(r, f.direction, c.max_slope_deg);
            let (reach, what) = if c.max_step_height_m >= rolled {
                (c.max_step_height_m, "step height")
            } else {
                (rolled, "height the ellipsoid rolls over")
            };
            let wide = width_across(r, f.direction);
            let narrow = f.extent_m < wide;
            // To stand on the tread, the body's curve must touch it within
            // the walkable slope: the tread holds the rest of its radius.
            let stand =
                radius_along(r, f.direction) - perch_radius(r, f.direction, c.max_slope_deg);
            let shallow = f.tread_depth_m.is_some_and(|t| t < stand);
            Prediction {
                fits: riser <= reach + skin && !narrow && !shallow,
                measured: format!(
                    "riser {riser:.2} m over {:.2} m, {what} {reach:.2} m, character {wide:.2} m wide",
                    f.extent_m
                ),
                limit: if narrow {
                    "the step is narrower than the character"
                } else if shallow {
                    "the tread is too shallow to stand on"
                } else {
                    "the riser is taller than the character steps"
                },
            }
        }
        FeatureKind::Slope => {
            let slope = f.slope_deg.unwrap_or(0.0);
            let wide = width_across(r, f.direction);
            let narrow = f.extent_m < wide;
            Prediction {
                fits: slope <= c.max_slope_deg + 0.1 && !narrow,
                measured: format!(
                    "slope {slope:.1}° over {:.2} m, walkable up to {:.1}°, character {wide:.2} m wide",
                    f.extent_m, c.max_slope_deg
                ),
                limit: if narrow {
                    "the slope is narrower than the character"
                } else {
                    "the slope is steeper than the character walks"
                },
            }
        }
        FeatureKind::Opening => {
            let w = f.width_m.unwrap_or(0.0);
            let h = f.height_m.unwrap_or(0.0);
            let need_w = width_across(r, f.direction);
            let narrow = w < need_w;
            Prediction {
                fits: !narrow && h + skin >= tall,
                measured: format!("opening {w:.2} × {h:.2} m, character {need_w:.2} × {tall:.2} m"),
                limit: if narrow {
                    "the opening is narrower than the character"
                } else {
                    "the opening is lower than the character"
                },
            }
        }
        FeatureKind::Ceiling => {
            let h = f.height_m.unwrap_or(0.0);
            Prediction {
                fits: h + skin >= tall,
                measured: format!("clearance {h:.2} m, character {tall:.2} m tall"),
                limit: "the ceiling is lower than the character",
            }
        }
    }
}

/// What went wrong in a failed walk, for the reason: where it stalled,
/// against which triangle of which object, and why a step was refused.
fn failure(world: CollisionWorld<'_>, w: &CheckWalk) -> String {
    let s = &w.summary;
    let mut text = match s.stalled_at_frame {
        Some(i) => format!("stalls from frame {i}"),
        None => "does not get past".to_string(),
    };
    if let Some(wall) = s.blocked_by {
        let lean = wall.normal.y.clamp(-1.0, 1.0).acos().to_degrees();
        let object = world
            .mesh
            .objects
            .get(world.mesh.object_of(wall.triangle))
            .map_or("?", |o| o.name.as_str());
        text.push_str(&format!(
            " against triangle {} of {object} ({lean:.0}° from up)",
            wall.triangle
        ));
    }
    if let Some(r) = s.last_step_rejection {
        text.push_str(&format!(" (step refused: {})", r.describe()));
    }
    text
}

/// Walks at `f` at `angle_deg` from its direction, through its position.
fn walk_at(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Feature,
    angle_deg: f64,
) -> CheckWalk {
    let r = settings.radii_vec();
    let dir = DQuat::from_rotation_y(angle_deg.to_radians()) * f.direction;
    let dir = DVec3::new(dir.x, 0.0, dir.z).normalize_or(DVec3::X);
    let start = start_before(world, settings, f, dir);
    let run_up = (f.position - start).dot(dir).max(0.0);
    // Past the feature: over a step's tread or a slope, through a door.
    let beyond = match f.kind {
        FeatureKind::Step => f.tread_depth_m.unwrap_or(1.0).clamp(0.2, 1.0) * 0.5,
        FeatureKind::Slope => 1.2,
        FeatureKind::Opening => f.extent_m * 0.5 + radius_along(r, dir) + PAST_M,
        FeatureKind::Ceiling => radius_along(r, dir) + PAST_M,
    };
    // Along the walk, the feature's own direction shortens at an angle.
    let cos = dir.dot(f.direction).max(0.5);
    let speed = settings.character.walk_speed_m_s.max(1e-3);
    // The way at full speed, and time to settle on the floor at the start
    // and for the frames that step up.
    let spec = WalkSpec {
        from: start,
        direction: dir,
        seconds: ((run_up + beyond / cos) / speed + WALK_MARGIN_S).min(10.0),
        jump: false,
    };
    let (passed, summary, drop_before_m) = match walk(world, settings, &spec, WalkTrace::FramesOnly)
    {
        Ok(w) => {
            let lowest = w
                .frames
                .iter()
                .map(|fr| fr.after.position)
                .filter(|p| (*p - f.position).dot(dir) < 0.0)
                .fold(start.y, |low, p| low.min(p.y));
            (got_past(settings, f, &w), w.summary, start.y - lowest)
        }
        // Settings were validated: only a non-finite position ends here.
        Err(_) => (false, WalkSummary::at_rest(start), 0.0),
    };
    CheckWalk {
        angle_deg,
        spec,
        passed,
        summary,
        drop_before_m,
    }
}

/// Where a walk along `dir` at `f` starts: standing on the floor a radius
/// and a run-up before it; or, where that spot is inside something (a
/// niche, the level's edge), as far back as the solver slides the body
/// from just before the feature, so the start is always free and
/// reachable.
fn start_before(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Feature,
    dir: DVec3,
) -> DVec3 {
    let r = settings.radii_vec();
    let lift = DVec3::Y * (r.y + 2.0 * settings.skin);
    let radius = radius_along(r, dir);
    let plain = f.position - dir * (radius + RUN_UP_M) + lift;
    let mut robust = settings.clone();
    robust.mode = SlideMode::Robust;
    robust.gravity = [0.0; 3];
    // A millimetre's move reports a push out of anything the body starts in.
    let free = |p: DVec3| {
        slide(world, &robust, p, -DVec3::Y * 1e-3, TraceDetail::Summary)
            .is_some_and(|res| res.iterations.iter().all(|i| i.recovery.is_none()))
    };
    if free(plain) {
        return plain;
    }
    let near = f.position - dir * (radius + 2.0 * settings.skin) + lift;
    let back = -dir * RUN_UP_M;
    slide(world, &robust, near, back, TraceDetail::Summary)
        .filter(|res| res.end_reason != EndReason::StuckEmbedded)
        .map_or(plain, |res| res.final_position)
}

/// Whether a walk got over, up, through or under the feature.
fn got_past(settings: &SlideSettings, f: &Feature, w: &Walk) -> bool {
    let s = &w.summary;
    let ry = settings.radii[1];
    let floor = f.position.y;
    let along = |p: DVec3| (p - f.position).dot(w.spec.direction);
    let past = along(s.final_position);
    match f.kind {
        FeatureKind::Step => {
            let riser = f.riser_height_m.unwrap_or(0.0);
            past > 0.0 && s.highest_y >= floor + riser + ry - 0.05
        }
        // Up the slope by as much as the way walked on it says, at least
        // half of it (a short slope may end at a wall: still climbed).
        FeatureKind::Slope => {
            let tan = f.slope_deg.unwrap_or(0.0).to_radians().tan();
            let on_slope = past.min(1.2);
            let start_y = w.spec.from.y;
            on_slope >= 0.1 && s.highest_y - start_y >= 0.5 * tan * on_slope
        }
        FeatureKind::Opening => past > f.extent_m * 0.5 + PAST_M,
        // Under it, not over it: reaching the point under the lowest
        // clearance is enough (a niche under a low ceiling is a dead end).
        FeatureKind::Ceiling => {
            let under = f.height_m.unwrap_or(f64::INFINITY);
            let reached = w.frames.iter().any(|fr| {
                let p = fr.after.position;
                DVec3::new(p.x - f.position.x, 0.0, p.z - f.position.z).length() <= 0.25
            });
            (reached || past > 0.0) && s.highest_y < floor + under
        }
    }
}
