//! One finding's verdict: where its walks start, what counts as getting
//! past, what the measurements predict, and the sentence that says why.
//! World space, Y up, metres.

use super::Finding;
use crate::analysis::features::{Feature, FeatureKind};
use crate::bvh::BvhScratch;
use crate::character::{
    Body, ControllerRules, FloorTest, StepForward, StepRise, Walk, WalkSpec, WalkSummary,
    WalkTrace, frame_settings, walk,
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
    /// The character does not, although the measurements say it fits: a
    /// walk reached the feature and stopped at it.
    Stalls,
    /// No walk could test it: none started on the floor before it, or
    /// every one fell, stopped or was turned away before reaching it.
    /// Never a failure.
    Untested,
}

impl Verdict {
    /// The verdict's word, as reports and the window print it.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Climbs => "climbs",
            Verdict::Passes => "passes",
            Verdict::Blocked => "blocked",
            Verdict::Stalls => "stalls",
            Verdict::Untested => "untested",
        }
    }

    /// Whether it fails a level check (blocked or stalls).
    pub fn is_failure(self) -> bool {
        matches!(self, Verdict::Blocked | Verdict::Stalls)
    }
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
    /// Why this walk tested nothing, when it did not: it did not start on
    /// the feature's floor, or never reached the feature at its level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untested: Option<String>,
}

/// A drop before the feature larger than this is no approach at its level.
const APPROACH_DROP_M: f64 = 0.2;
/// How far before the feature the walks start, beyond the ellipsoid's
/// radius: the longest run-up first, shorter ones where there is no floor
/// or no room that far back.
const RUN_UPS_M: [f64; 3] = [0.8, 0.4, 0.15];
/// Time added to every walk beyond its way at full speed, seconds.
const WALK_MARGIN_S: f64 = 0.3;
/// How far past the feature a walk must get, metres.
const PAST_M: f64 = 0.3;
/// A start stands on the feature's floor when the floor under it is this
/// close to the feature's floor height, metres; and a walk is at the
/// feature's level when it stands this close to where it started.
const LEVEL_M: f64 = 0.1;
/// A contact faces back along a step's climb, as its riser and the riser's
/// top edge do, when its horizontal normal is within 60° of it (cosine).
const RISER_FACING_COS: f64 = 0.5;
/// A walk climbed a slope only if it stood on ground at least this much
/// higher than where it started, metres (the feature finder lists no
/// slope rising less than twice this).
const SLOPE_RISE_M: f64 = 0.05;
/// A walk reached the feature when it came this close to it, beyond the
/// ellipsoid's radius, metres...
const REACH_M: f64 = 0.15;
/// ... and stopped at it when it ended this close, metres.
const AT_FEATURE_M: f64 = 0.3;
/// A walk is under a ceiling's lowest point when this close to it,
/// horizontally, metres.
const CEILING_UNDER_M: f64 = 0.25;
/// A riser of a staircase may be walked at from a floor this much lower
/// down its own flight, and a door or a low ceiling from this far down
/// the way up to it, metres (a start on the feature's own floor is
/// always tried first).
const START_BELOW_M: f64 = 1.0;
/// Where along a step or slope the starts are tried, as shares of its
/// length from the middle (one more start each side when the first fails).
const OFFSETS: [f64; 3] = [0.0, -0.3, 0.3];

/// The character's width across a horizontal direction `dir` (twice its
/// body's reach across it), metres.
fn width_across(body: &Body, dir: DVec3) -> f64 {
    2.0 * body.radius_along(DVec3::new(-dir.z, 0.0, dir.x))
}

/// Where a walk starts from: a share of the feature's length from its
/// middle, and from which side.
#[derive(Clone, Copy, Debug)]
struct Approach {
    offset: f64,
    reverse: bool,
    /// Across the feature's direction instead of along it (a ceiling
    /// region is walked under from whichever side is open).
    across: bool,
}

/// The approaches tried for `f`, in order: steps and slopes from their
/// lower side, at the middle then off it when the feature is long enough;
/// openings and ceilings from either side.
fn approaches(settings: &SlideSettings, f: &Feature) -> Vec<Approach> {
    let plain = |offset| Approach {
        offset,
        reverse: false,
        across: false,
    };
    match f.kind {
        FeatureKind::Step | FeatureKind::Slope => {
            let long = f.extent_m > 2.0 * width_across(&Body::of(settings), f.direction);
            let n = if long { OFFSETS.len() } else { 1 };
            OFFSETS[..n].iter().map(|&o| plain(o)).collect()
        }
        FeatureKind::Opening => vec![
            plain(0.0),
            Approach {
                reverse: true,
                ..plain(0.0)
            },
        ],
        FeatureKind::Ceiling => [(false, false), (true, false), (false, true), (true, true)]
            .into_iter()
            .map(|(reverse, across)| Approach {
                reverse,
                across,
                ..plain(0.0)
            })
            .collect(),
    }
}

/// Walks the character at `feature` straight on and at 45° and judges it.
pub(super) fn judge(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    feature: Feature,
) -> Finding {
    let tries = approaches(settings, &feature);
    let walks: Vec<CheckWalk> = [0.0, 45.0]
        .into_iter()
        .map(|angle| {
            // The first approach that tests the feature; the first one
            // tried when none does (its reason says why).
            let mut first = None;
            for &a in &tries {
                let w = walk_at(world, settings, &feature, angle, a);
                if w.untested.is_none() {
                    return w;
                }
                first.get_or_insert(w);
            }
            first.expect("every feature has an approach")
        })
        .collect();
    let p = prediction(settings, &feature);
    let (verdict, reason) = decide(world, settings, &feature, &p, &walks);
    let marginal = p
        .marginal
        .or_else(|| other_frame_rate(world, settings, &feature, verdict, &walks));
    Finding {
        feature,
        verdict,
        reason,
        marginal,
        walks,
    }
}

/// A finding's verdict and reason from its walks (each already judged:
/// `passed`, `untested`), by the prediction `p` of its measurements.
fn decide(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    feature: &Feature,
    p: &Prediction,
    walks: &[CheckWalk],
) -> (Verdict, String) {
    let climb = matches!(feature.kind, FeatureKind::Step | FeatureKind::Slope);
    // A walk that failed away from a feature the character fits (it went
    // round the end of a riser, into the back of a niche) tested nothing:
    // it neither backs the verdict nor stalls it, unless no walk is left.
    let off_feature = |w: &CheckWalk| !w.passed && p.fits && !stopped_at(settings, feature, w);
    let reached: Vec<&CheckWalk> = walks.iter().filter(|w| w.untested.is_none()).collect();
    let tested: Vec<&CheckWalk> = if reached.iter().all(|w| off_feature(w)) {
        reached
    } else {
        reached.into_iter().filter(|w| !off_feature(w)).collect()
    };
    let angles = |ws: &[&CheckWalk]| match ws {
        [one] => format!("at {:.0}°", one.angle_deg),
        _ => "straight on and at 45°".to_string(),
    };
    if tested.is_empty() {
        let why = walks[0].untested.clone().unwrap_or_default();
        (
            Verdict::Untested,
            format!("{}: no walk could test it: {why}", p.measured),
        )
    } else {
        match tested.iter().find(|w| !w.passed) {
            None => {
                let skipped = walks
                    .iter()
                    .find_map(|w| {
                        w.untested.as_ref().map(|u| {
                            format!("; the walk at {:.0}° tested nothing: {u}", w.angle_deg)
                        })
                    })
                    .unwrap_or_default();
                let done = if climb { "climbed" } else { "passed" };
                (
                    if climb {
                        Verdict::Climbs
                    } else {
                        Verdict::Passes
                    },
                    format!("{}: {done} {}{skipped}", p.measured, angles(&tested)),
                )
            }
            Some(failed) if p.fits && !stopped_at(settings, feature, failed) => (
                Verdict::Untested,
                format!(
                    "{}: the walk at {:.0}° {}, so it tested nothing",
                    p.measured,
                    failed.angle_deg,
                    failed_away(world, settings, feature, failed)
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
        }
    }
}

/// Judges walks another controller ran by the rules `check` judges its
/// own by: `peer[i]` is `finding.walks[i]`'s spec (same start, direction
/// and length) walked by that controller, its frames' `after.position` and
/// `after.grounded` and its [`WalkSummary`] (see
/// [`WalkSummary::of_frames`]), or `None` where the check ran no walk (its
/// start had no floor or no room: the walk stays untested as it was).
/// Each walk is read as `check` reads its own (`Judged::of`) and the
/// finding's verdict follows from them as in `judge`; `marginal` keeps
/// only the measurement's note (the frame-rate replay is this crate's
/// controller). The rapier3d agreement harness (issue 26 §3,
/// `tests/library/rapier_peer.rs`) compares verdicts with it.
///
/// A [`CheckWalk`] keeps its spec, not the approach it came from: the aim
/// is found again from the spec. The feature's side walked towards is the
/// one of its four horizontal directions (its direction, the reverse, and
/// across it for a ceiling) nearest the walk turned back by its angle;
/// the point aimed at is the one of the approaches' points along the
/// feature (its middle, and 30 % of its length each side) nearest the
/// walk's line.
pub fn rejudge(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    finding: &Finding,
    peer: &[Option<Walk>],
) -> Finding {
    let f = &finding.feature;
    let walks: Vec<CheckWalk> = finding
        .walks
        .iter()
        .zip(peer)
        .map(|(ours, theirs)| {
            let Some(w) = theirs else {
                return ours.clone();
            };
            let (target, normal) = aim_of(f, ours);
            let judged = Judged::of(world, settings, f, target, normal, w);
            CheckWalk {
                angle_deg: ours.angle_deg,
                spec: ours.spec,
                passed: judged.untested.is_none() && judged.passed,
                summary: w.summary.clone(),
                drop_before_m: judged.drop_before_m,
                untested: judged.untested,
            }
        })
        .collect();
    let p = prediction(settings, f);
    let (verdict, reason) = decide(world, settings, f, &p, &walks);
    Finding {
        feature: f.clone(),
        verdict,
        reason,
        marginal: p.marginal,
        walks,
    }
}

/// The point a check walk aimed at and the feature's side it walked
/// towards (see [`rejudge`]).
fn aim_of(f: &Feature, w: &CheckWalk) -> (DVec3, DVec3) {
    let dir = w.spec.direction.with_y(0.0).normalize_or(DVec3::X);
    let back = DQuat::from_rotation_y(-w.angle_deg.to_radians()) * dir;
    let line = DVec3::new(-f.direction.z, 0.0, f.direction.x);
    let normal = [f.direction, -f.direction, line, -line]
        .into_iter()
        .max_by(|a, b| a.dot(back).total_cmp(&b.dot(back)))
        .unwrap_or(f.direction);
    let off_line = |t: &DVec3| {
        let d = (*t - w.spec.from).with_y(0.0);
        (d - dir * d.dot(dir)).length()
    };
    let target = OFFSETS
        .iter()
        .map(|o| f.position + line * o * f.extent_m)
        .min_by(|a, b| off_line(a).total_cmp(&off_line(b)))
        .unwrap_or(f.position);
    (target, normal)
}

/// The frame rates games commonly run their character at, Hz.
const COMMON_RATES_HZ: [f64; 4] = [30.0, 60.0, 120.0, 144.0];

/// For a step a walk decided (climbed, or refused), what the same walk
/// does at the other common frame rates: a step-up's reach depends on how
/// far one frame walks, so a step climbed at 60 Hz may be refused at 144.
/// `Some` with what flips it, when a rate does.
fn other_frame_rate(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Feature,
    verdict: Verdict,
    walks: &[CheckWalk],
) -> Option<String> {
    if f.kind != FeatureKind::Step
        || !matches!(
            verdict,
            Verdict::Climbs | Verdict::Blocked | Verdict::Stalls
        )
    {
        return None;
    }
    let climbed = verdict == Verdict::Climbs;
    let deciding = walks
        .iter()
        .find(|w| w.untested.is_none() && w.passed == climbed)?;
    let own = settings.character.frame_rate_hz;
    COMMON_RATES_HZ
        .into_iter()
        .filter(|r| (r - own).abs() > 1e-9)
        .find_map(|rate| {
            let mut at = settings.clone();
            at.character.frame_rate_hz = rate;
            let w = walk(world, &at, &deciding.spec, WalkTrace::FramesOnly).ok()?;
            // A riser's line runs through the finding's position.
            let judged = Judged::of(world, &at, f, f.position, f.direction, &w);
            let flips = judged.untested.is_none() && judged.passed != climbed;
            flips.then(|| {
                let (now, then) = if climbed {
                    ("climbs", "is refused")
                } else {
                    ("is refused", "climbs")
                };
                format!(
                    "the walk at {:.0}° {now} at {own:.0} Hz but {then} at {rate:.0} Hz",
                    deciding.angle_deg
                )
            })
        })
}

/// How a walk that failed without stopping at `f` ([`stopped_at`]) went,
/// from where it ended along the feature's direction: "stops 0.84 m before
/// it: it stalls from frame 3 against …" (the body's radius taken off),
/// "ends 2.31 m past its line without getting by it at its level" (it
/// went around, or over something else), or "is stopped at it by
/// something else: …" (a wall beside a flight, not its riser).
pub(super) fn failed_away(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Feature,
    w: &CheckWalk,
) -> String {
    let normal = along_walk(f, w);
    let d = (w.summary.final_position - f.position).dot(normal);
    let radius = Body::of(settings).radius_along(normal);
    if d < -(radius + AT_FEATURE_M) {
        format!(
            "stops {:.2} m before it: it {}",
            -d - radius,
            failure(world, w)
        )
    } else if d > 0.0 && !(f.kind == FeatureKind::Step && d <= radius + AT_FEATURE_M) {
        let details = failure_details(world, w);
        let how = match w.summary.stalled_at_frame {
            Some(i) => format!(": it stalls from frame {i}{details}"),
            None => details,
        };
        format!("ends {d:.2} m past its line without getting by it at its level{how}")
    } else {
        format!(
            "is stopped at it by something else: it {}",
            failure(world, w)
        )
    }
}

/// The feature's direction, turned the way walk `w` goes along it.
fn along_walk(f: &Feature, w: &CheckWalk) -> DVec3 {
    if w.spec.direction.dot(f.direction) >= 0.0 {
        f.direction
    } else {
        -f.direction
    }
}

/// Whether a failed walk ended at the feature (not before it, not beyond
/// it against something else; under a ceiling, against the ceiling).
fn stopped_at(settings: &SlideSettings, f: &Feature, w: &CheckWalk) -> bool {
    // A ceiling stops a walk by its underside (a contact facing down);
    // a walk stopped by a rock or a wall under it stalled on that instead.
    if f.kind == FeatureKind::Ceiling {
        return w.summary.blocked_by.is_some_and(|c| c.normal.y < -0.1);
    }
    let body = Body::of(settings);
    let normal = along_walk(f, w);
    // A step stops a walk by its riser or the riser's top edge, both facing
    // back along the climb; a walk stopped by a wall beside the flight (a
    // 45° walk reaching the end of a riser on a narrow stair) stalled on
    // that wall, not on the step.
    if f.kind == FeatureKind::Step
        && let Some(c) = w.summary.blocked_by
    {
        let facing = c.normal.with_y(0.0).normalize_or_zero();
        if facing.dot(-normal) < RISER_FACING_COS {
            return false;
        }
    }
    let d = (w.summary.final_position - f.position).dot(normal);
    let reach = body.radius_along(normal) + AT_FEATURE_M;
    let beyond = match f.kind {
        FeatureKind::Opening => 0.5 * f.extent_m + reach,
        FeatureKind::Slope => 1.2,
        _ => reach,
    };
    d >= -reach && d <= beyond
}

/// What the measurements say before any walk.
struct Prediction {
    /// Whether the character should get by.
    fits: bool,
    /// What would flip it, when the deciding measurement is within a
    /// centimetre (half a degree for a slope) of the character's limit.
    marginal: Option<String>,
    /// The measurement beside the character's limit, neutrally.
    measured: String,
    /// Which limit it breaks, when it does not fit.
    limit: &'static str,
}

/// The note for a measurement `value` this close to the character's
/// `limit` (within `band`), when it is.
fn near_limit(value: f64, limit: f64, band: f64, what: &str, unit: &str) -> Option<String> {
    let gap = value - limit;
    (gap.abs() <= band).then(|| {
        let side = if gap > 0.0 { "over" } else { "under" };
        format!(
            "{:.3}{unit} {side} the {what} ({limit:.3}{unit}): a change this small flips it",
            gap.abs()
        )
    })
}

/// Compares the measurements with the character. Limits are allowed the
/// skin: the envelope shows the character gets that much beyond them.
/// Where more than one limit is broken, the reason names the deciding one
/// (the height before the width before the tread; the width before the
/// height of an opening).
fn prediction(settings: &SlideSettings, f: &Feature) -> Prediction {
    let c = &settings.character;
    let body = Body::of(settings);
    let skin = settings.skin;
    let tall = 2.0 * body.half_height();
    const CM: f64 = 0.01;
    match f.kind {
        FeatureKind::Step => {
            let riser = f.riser_height_m.unwrap_or(0.0);
            let rolled = body.rolling_height(f.direction, c.max_slope_deg);
            let rules = ControllerRules::of(c.engine);
            // Rapier's autostep moves the body only `min_width` and its
            // offset over the edge: unless that is enough to stand on the
            // edge within the slope, it slides back off (engine.rs).
            let slides_back = rules.forward == StepForward::MinWidth && {
                let over = c.min_tread_depth_m + skin;
                let needed = body.reach_at_height(f.direction, riser)
                    - body.perch_radius(f.direction, c.max_slope_deg);
                over < needed
            };
            let (reach, what) = if !rules.step_up || slides_back {
                (rolled, "height the body rolls over")
            } else if rules.forward == StepForward::MinWidth {
                // Rapier rises by the step and refuses anything in the way.
                (c.max_step_height_m, "step height")
            } else if rules.floor == FloorTest::UnrealFaceNormal {
                // Unreal's `StepUp` refuses a landing above `MaxStepHeight`.
                (c.max_step_height_m, "step height")
            } else if rules.rise == StepRise::Full {
                // The engine rises by the whole step, then the body's
                // curve rides over an edge it can stand on.
                (
                    c.max_step_height_m + rolled,
                    "step height and what the body rolls over",
                )
            } else if c.max_step_height_m >= rolled {
                (c.max_step_height_m, "step height")
            } else {
                (rolled, "height the body rolls over")
            };
            let wide = width_across(&body, f.direction);
            let narrow = f.extent_m < wide;
            // To stand on the tread, the body's curve must touch it within
            // the walkable slope: the tread holds the rest of its radius.
            // (With a wall behind the tread too: the body then stands with
            // its centre a radius from the wall, its curve on the edge.)
            // Unreal stands on an edge anywhere under its base, by the
            // tread's face (`crate::character::unreal`).
            let stand = if rules.floor == FloorTest::UnrealFaceNormal {
                crate::character::unreal::SWEEP_EDGE_REJECT_DISTANCE_M
            } else {
                body.radius_along(f.direction) - body.perch_radius(f.direction, c.max_slope_deg)
            };
            let shallow = f.tread_depth_m.is_some_and(|t| t < stand);
            let tall_riser = riser > reach + skin;
            Prediction {
                fits: !tall_riser && !narrow && !shallow,
                marginal: near_limit(riser, reach + skin, CM, what, " m"),
                measured: format!(
                    "riser {riser:.2} m over {:.2} m, {what} {reach:.2} m, character {wide:.2} m wide",
                    f.extent_m
                ),
                limit: if tall_riser {
                    "the riser is taller than the step height"
                } else if narrow {
                    "the step is narrower than the character"
                } else {
                    "the tread is too shallow to stand on"
                },
            }
        }
        FeatureKind::Slope => {
            let slope = f.slope_deg.unwrap_or(0.0);
            let wide = width_across(&body, f.direction);
            let narrow = f.extent_m < wide;
            let steep = slope > c.max_slope_deg + 0.1;
            Prediction {
                fits: !steep && !narrow,
                marginal: near_limit(slope, c.max_slope_deg, 0.5, "walkable slope", "°"),
                measured: format!(
                    "slope {slope:.1}° over {:.2} m, walkable up to {:.1}°, character {wide:.2} m wide",
                    f.extent_m, c.max_slope_deg
                ),
                limit: if steep {
                    "the slope is steeper than the character walks"
                } else {
                    "the slope is narrower than the character"
                },
            }
        }
        FeatureKind::Opening => {
            let w = f.width_m.unwrap_or(0.0);
            let h = f.height_m.unwrap_or(0.0);
            let need_w = width_across(&body, f.direction);
            let narrow = w < need_w;
            Prediction {
                fits: !narrow && h + skin >= tall,
                marginal: near_limit(w, need_w, CM, "character's width", " m")
                    .or_else(|| near_limit(h + skin, tall, CM, "character's height", " m")),
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
                marginal: near_limit(h + skin, tall, CM, "character's height", " m"),
                measured: format!("clearance {h:.2} m, character {tall:.2} m tall"),
                limit: "the ceiling is lower than the character",
            }
        }
    }
}

/// What went wrong in a failed walk, for the reason: where it stalled,
/// against which triangle of which object, and why a step was refused.
fn failure(world: CollisionWorld<'_>, w: &CheckWalk) -> String {
    let head = match w.summary.stalled_at_frame {
        Some(i) => format!("stalls from frame {i}"),
        None => "does not get past".to_string(),
    };
    head + &failure_details(world, w)
}

/// The wall a walk ended against and the last step it refused, each
/// with a leading space ("" when neither).
fn failure_details(world: CollisionWorld<'_>, w: &CheckWalk) -> String {
    let s = &w.summary;
    let mut text = String::new();
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

/// The first colliding surface straight below `p` within `max`, as its
/// height (non-colliding ones are passed through).
fn floor_below(world: CollisionWorld<'_>, p: DVec3, max: f64) -> Option<f64> {
    let mut scratch = BvhScratch::default();
    world
        .ray_cast_colliding(p, DVec3::NEG_Y, max, &mut scratch)
        .map(|(t, _)| p.y - t)
}

/// The floor a body with horizontal radii `radii` centred over `p` stands
/// on: the highest of the first surfaces straight below its centre and
/// four points half-way out to its rim, within `max` (an open stair's
/// tread is under the body while its centre is over the gap behind it).
fn floor_under(world: CollisionWorld<'_>, p: DVec3, radii: DVec3, max: f64) -> Option<f64> {
    let (hx, hz) = (0.5 * radii.x, 0.5 * radii.z);
    [
        DVec3::ZERO,
        DVec3::new(hx, 0.0, 0.0),
        DVec3::new(-hx, 0.0, 0.0),
        DVec3::new(0.0, 0.0, hz),
        DVec3::new(0.0, 0.0, -hz),
    ]
    .into_iter()
    .filter_map(|d| floor_below(world, p + d, max))
    .reduce(f64::max)
}

/// Walks at `f` at `angle_deg` from its direction (turned round when
/// `approach.reverse`), towards a point `approach.offset` of its length
/// from its middle, and says what the walk tested.
fn walk_at(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Feature,
    angle_deg: f64,
    approach: Approach,
) -> CheckWalk {
    let body = Body::of(settings);
    let along = if approach.across {
        DVec3::new(-f.direction.z, 0.0, f.direction.x)
    } else {
        f.direction
    };
    let normal = if approach.reverse { -along } else { along };
    let line = DVec3::new(-f.direction.z, 0.0, f.direction.x);
    let target = f.position + line * approach.offset * f.extent_m;
    let dir = DQuat::from_rotation_y(angle_deg.to_radians()) * normal;
    let dir = DVec3::new(dir.x, 0.0, dir.z).normalize_or(DVec3::X);
    // A riser of a staircase may be walked at from lower down the same
    // flight (its own tread is often shallower than the character), and a
    // door or a low ceiling from the foot of the steps or ramp up to it:
    // the walk must then still reach it at its own floor's level.
    let below = match f.kind {
        FeatureKind::Step if f.flight.is_some() => START_BELOW_M,
        FeatureKind::Opening | FeatureKind::Ceiling => START_BELOW_M,
        _ => 0.0,
    };
    // A low ceiling's lowest point may lie deep inside it: start from
    // outside the region, where there is room to stand.
    let outside = if f.kind == FeatureKind::Ceiling {
        0.5 * f.extent_m
    } else {
        0.0
    };
    let (start, start_problem) = match start_before(world, settings, target, dir, below, outside) {
        Ok(p) => (p, None),
        Err((p, why)) => (p, Some(why)),
    };
    let run_up = (target - start).dot(dir).max(0.0);
    // Past the feature: over a step's tread or a slope, through a door.
    let beyond = match f.kind {
        FeatureKind::Step => f.tread_depth_m.unwrap_or(1.0).clamp(0.2, 1.0) * 0.5,
        FeatureKind::Slope => 1.2,
        FeatureKind::Opening => f.extent_m * 0.5 + body.radius_along(dir) + PAST_M,
        FeatureKind::Ceiling => body.radius_along(dir) + PAST_M,
    };
    // Along the walk, the feature's own direction shortens at an angle.
    let cos = dir.dot(normal).max(0.5);
    let speed = settings.character.walk_speed_m_s.max(1e-3);
    // The way at full speed, and time to settle on the floor at the start
    // and for the frames that step up.
    let spec = WalkSpec {
        from: start,
        direction: dir,
        seconds: ((run_up + beyond / cos) / speed + WALK_MARGIN_S).min(10.0),
        jump: false,
    };
    let walked = if start_problem.is_none() {
        walk(world, settings, &spec, WalkTrace::FramesOnly).ok()
    } else {
        None
    };
    let Some(w) = walked else {
        return CheckWalk {
            angle_deg,
            spec,
            passed: false,
            summary: WalkSummary::at_rest(start),
            drop_before_m: 0.0,
            untested: Some(start_problem.unwrap_or_else(|| "the walk could not run".into())),
        };
    };
    let judged = Judged::of(world, settings, f, target, normal, &w);
    CheckWalk {
        angle_deg,
        spec,
        passed: judged.untested.is_none() && judged.passed,
        summary: w.summary,
        drop_before_m: judged.drop_before_m,
        untested: judged.untested,
    }
}

/// Where a walk along `dir` towards `target` (on the feature's floor)
/// starts: standing on that floor a radius and a run-up before it, the
/// longest run-up whose spot is free with the floor under it at the
/// feature's height; or, where none is (a niche, the level's edge), as
/// far back as the solver slides the body from just before the feature.
/// The floor may also be up to `below` lower than the feature's (a step
/// lower down its own staircase); the run-ups start `outside` farther
/// back (out from under a ceiling region). `Err` with the spot tried and why no start tests
/// the feature: no floor at its height before it, or no room to stand.
fn start_before(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    target: DVec3,
    dir: DVec3,
    below: f64,
    outside: f64,
) -> Result<DVec3, (DVec3, String)> {
    let r = frame_settings(settings).half_extents();
    let lift = DVec3::Y * (r.y + 2.0 * settings.skin);
    let radius = Body::of(settings).radius_along(dir);
    // The body the walks run (the engine's capsule under a profile).
    let mut robust = frame_settings(settings);
    robust.mode = SlideMode::Robust;
    robust.gravity = [0.0; 3];
    // A millimetre's move reports a push out of anything the body starts in.
    let free = |p: DVec3| {
        slide(world, &robust, p, -DVec3::Y * 1e-3, TraceDetail::Summary)
            .is_some_and(|res| res.iterations.iter().all(|i| i.recovery.is_none()))
    };
    // The floor under the centre within `low` below the feature's floor
    // (or a hair above): `None` over nothing, `Some(None)` at another height.
    let floor_at = |p: DVec3, low: f64| {
        floor_under(world, p, r, r.y + 1.0 + low)
            .map(|y| (y <= target.y + LEVEL_M && y >= target.y - LEVEL_M - low).then_some(y))
    };
    let spot = |run_up: f64| target - dir * (radius + outside + run_up) + lift;
    let mut why = None;
    // On the feature's own floor first; only then lower down its flight.
    let lows: &[f64] = if below > 0.0 { &[0.0, below] } else { &[0.0] };
    for &low in lows {
        for run_up in RUN_UPS_M {
            let p = spot(run_up);
            match floor_at(p, low) {
                Some(Some(_)) if free(p) => return Ok(p),
                Some(Some(_)) => {
                    why.get_or_insert("no room to stand before it (the start is inside something)")
                }
                Some(None) => why.get_or_insert("no floor at its height before it"),
                None => why.get_or_insert("no floor before it (the start is over nothing)"),
            };
        }
        let near = target - dir * (radius + 2.0 * settings.skin) + lift;
        let back = -dir * RUN_UPS_M[0];
        if let Some(res) = slide(world, &robust, near, back, TraceDetail::Summary)
            .filter(|res| res.end_reason != EndReason::StuckEmbedded)
        {
            let p = res.final_position;
            if let Some(Some(_)) = floor_at(p, low)
                && free(p)
            {
                return Ok(p);
            }
        }
    }
    Err((
        spot(RUN_UPS_M[0]),
        why.unwrap_or("no floor at its height before it")
            .to_string(),
    ))
}

/// What one walk showed about a feature.
struct Judged {
    passed: bool,
    drop_before_m: f64,
    untested: Option<String>,
}

impl Judged {
    /// Reads walk `w` at `f` in `world`, approached towards `target` (on
    /// the feature's floor) along the feature's `normal` (its direction,
    /// or the reverse).
    fn of(
        world: CollisionWorld<'_>,
        settings: &SlideSettings,
        f: &Feature,
        target: DVec3,
        normal: DVec3,
        w: &Walk,
    ) -> Self {
        let c = &settings.character;
        let r = frame_settings(settings).half_extents();
        let radius = Body::of(settings).radius_along(normal);
        // Signed distance past the feature's line, along its normal.
        let past = |p: DVec3| (p - target).dot(normal);
        let line = DVec3::new(-normal.z, 0.0, normal.x);
        let aside = |p: DVec3| (p - f.position).dot(line).abs();
        let positions: Vec<(DVec3, bool)> = w
            .frames
            .iter()
            .map(|fr| (fr.after.position, fr.after.grounded))
            .collect();
        // Standing on the feature's floor: the first frame on ground.
        let Some(&(settled, _)) = positions.iter().find(|(_, g)| *g) else {
            return Judged::nothing(0.0, "the walk never stood on ground".into());
        };
        let reached_at = positions
            .iter()
            .position(|&(p, _)| past(p) >= -(radius + REACH_M));
        let before = &positions[..reached_at.unwrap_or(positions.len())];
        let lowest = before.iter().fold(settled.y, |low, (p, _)| low.min(p.y));
        let drop = settled.y - lowest;
        if drop > APPROACH_DROP_M {
            return Judged::nothing(
                drop,
                format!(
                    "the walk fell {drop:.2} m before reaching it (no floor at its level on the way)"
                ),
            );
        }
        // A ceiling is reached when the walk got under its lowest point or
        // was stopped by something facing down (the ceiling's edge), not
        // by a wall on the way.
        let reached_at = if f.kind == FeatureKind::Ceiling {
            let under = positions.iter().position(|&(p, _)| {
                DVec3::new(p.x - target.x, 0.0, p.z - target.z).length() <= CEILING_UNDER_M
                    || past(p) > 0.0
            });
            let by_ceiling = w.summary.blocked_by.is_some_and(|c| c.normal.y < -0.1);
            under.or(reached_at.filter(|_| by_ceiling))
        } else {
            reached_at
        };
        let Some(reached_at) = reached_at else {
            let end = w.summary.final_position;
            return Judged::nothing(
                drop,
                format!(
                    "the walk stopped {:.2} m before it",
                    (-past(end) - radius).max(0.0)
                ),
            );
        };
        // The floor under a frame's body (rays down from its centre and
        // half-way to its rim).
        let reach_down = r.y + 2.0 * c.max_step_height_m + 1.0;
        let floor_of = |p: DVec3| floor_under(world, p, r, reach_down).unwrap_or(f64::NEG_INFINITY);
        if (floor_of(positions[reached_at].0) - target.y).abs() > c.max_step_height_m + LEVEL_M {
            return Judged::nothing(drop, "the walk reached it at another level".into());
        }
        let after = &positions[reached_at..];
        let level = |p: DVec3, rise: f64| (floor_of(p) - target.y - rise).abs() <= LEVEL_M;
        let passed = match f.kind {
            // Standing on the upper floor, at the riser's height, past it.
            // On a staircase, standing one riser higher counts too: the
            // floor under a body is the highest under its footprint, and
            // on treads shallower than the body that is the next tread up.
            FeatureKind::Step => {
                let riser = f.riser_height_m.unwrap_or(0.0);
                let next_up = |p: DVec3| {
                    let h = floor_of(p) - target.y;
                    f.flight.is_some() && h > riser && h <= riser + c.max_step_height_m + LEVEL_M
                };
                after
                    .iter()
                    .any(|&(p, g)| g && past(p) > 0.0 && (level(p, riser) || next_up(p)))
            }
            // Standing on ground up the slope by as much as the way walked
            // on it says, at least half of it (a short slope may end at a
            // wall: still climbed), and never less than `SLOPE_RISE_M`:
            // read from the floor under the body, not from how high the
            // body rode (riding up an edge beside a narrow slope is not
            // climbing it).
            FeatureKind::Slope => {
                let tan = f.slope_deg.unwrap_or(0.0).to_radians().tan();
                let end = w.summary.final_position;
                let on_slope = past(end).min(1.2);
                let rise = (0.5 * tan * on_slope).max(SLOPE_RISE_M);
                // From the floor the walk first stood on, or the one it
                // started over when that is lower by no more than an
                // approach may drop: a walk placed at the slope's foot
                // height over ground that falls away before the foot (a
                // roof's ridge: a steeper pitch below a gentler one)
                // lands a few frames on, already up the slope, and that
                // climb counts too.
                let landed = floor_of(settled);
                let over = w
                    .frames
                    .first()
                    .map_or(landed, |f| floor_of(f.before.position));
                let start = if over < landed && landed - over <= APPROACH_DROP_M {
                    over
                } else {
                    landed
                };
                on_slope >= 0.1 && after.iter().any(|&(p, g)| g && floor_of(p) - start >= rise)
            }
            // Through the door at the floor's level: crossing its middle
            // within its jambs, and out the far side.
            FeatureKind::Opening => {
                let half_w = 0.5 * f.width_m.unwrap_or(0.0) + LEVEL_M;
                let crossing = after.iter().find(|(p, _)| past(*p) >= 0.0);
                let through = crossing.is_some_and(|&(p, _)| {
                    aside(p) <= half_w
                        && (floor_of(p) - target.y).abs() <= c.max_step_height_m + LEVEL_M
                });
                through
                    && after
                        .iter()
                        .any(|&(p, _)| past(p) > 0.5 * f.extent_m + PAST_M)
            }
            // Under its lowest point at the floor's level, not over it and
            // not past it beside that point (a niche under a low ceiling
            // is a dead end: getting there is enough).
            FeatureKind::Ceiling => {
                let under = f.height_m.unwrap_or(f64::INFINITY);
                let below = w.summary.highest_y < f.position.y + under;
                below
                    && after.iter().any(|&(p, _)| {
                        let h = DVec3::new(p.x - f.position.x, 0.0, p.z - f.position.z);
                        h.length() <= CEILING_UNDER_M && level(p, 0.0)
                    })
            }
        };
        Judged {
            passed,
            drop_before_m: drop,
            untested: None,
        }
    }

    fn nothing(drop_before_m: f64, why: String) -> Self {
        Judged {
            passed: false,
            drop_before_m,
            untested: Some(why),
        }
    }
}
