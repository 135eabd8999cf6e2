//! The envelope: what a character with given settings can do, measured by
//! walking it over generated courses and bisecting on the obstacle's size:
//! the tallest step climbed (from standing and at full speed), the
//! steepest ramp walked up, the narrowest opening and the lowest ceiling
//! passed, and the widest gap crossed without jumping. Metres and degrees.
//!
//! Every number comes from real walks of the character model (the one
//! slide solver underneath), and each keeps the two walks that decided it:
//! the last size that passed and the first that did not, so either can be
//! opened and stepped through.
//!
//! Bisection assumes the outcome flips once over the searched range. Where
//! it does not (a course that passes, fails, then passes again), the value
//! is still a size that passes next to one that fails, and the bracket
//! says which.

mod courses;

pub use courses::Course;

use crate::character::{Walk, WalkError, WalkSummary, WalkTrace, walk};
use crate::collide::SlideSettings;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Lengths are bisected to this, metres.
pub const LENGTH_TOLERANCE_M: f64 = 0.001;
/// Slopes are bisected to this, degrees.
pub const ANGLE_TOLERANCE_DEG: f64 = 0.1;

/// One measured limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limit {
    /// The limit: the largest size that passed (steps, ramps, gaps) or
    /// the smallest (openings, ceilings).
    pub value: f64,
    /// The size the bisection found passing (= `value`).
    pub passed_at: f64,
    /// The nearest size found failing; `None` when every size tried passed.
    pub failed_at: Option<f64>,
    /// `false` when even the most favourable size tried failed (then
    /// `value` is that size and no walk passed).
    pub found: bool,
    /// The course of the walk that passed at `passed_at`.
    pub pass_course: Course,
    /// How that walk went.
    pub pass_walk: WalkSummary,
    /// The course of the walk that failed at `failed_at`.
    pub fail_course: Option<Course>,
    /// How that walk went.
    pub fail_walk: Option<WalkSummary>,
    /// Walks run to find it.
    pub walks: u32,
}

/// What a character can do. Field names are the JSON's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Tallest step climbed from standing against it, metres.
    pub max_step_height_m: Limit,
    /// Tallest step climbed at full speed after a run-up, metres.
    pub max_step_height_running_m: Limit,
    /// Steepest ramp walked up, degrees.
    pub max_slope_deg: Limit,
    /// Narrowest opening walked through, metres.
    pub min_opening_width_m: Limit,
    /// Lowest ceiling walked under (the least clear height), metres.
    pub min_opening_height_m: Limit,
    /// Widest gap crossed at full speed without jumping, metres.
    pub max_gap_crossed_m: Limit,
}

/// How a course's size is searched.
struct Search {
    make: fn(f64) -> Course,
    /// Searched range.
    lo: f64,
    hi: f64,
    tolerance: f64,
    /// `true` when small sizes pass (steps, ramps, gaps), `false` when
    /// large ones do (openings, ceilings).
    small_passes: bool,
}

/// Measures the envelope of a character with `settings`.
pub fn envelope(settings: &SlideSettings) -> Result<Envelope, WalkError> {
    settings
        .validate()
        .map_err(|e| WalkError::InvalidSettings(e.to_string()))?;
    let r = settings.radii_vec();
    let step_top = (2.0 * r.y).max(settings.character.max_step_height_m * 1.5) + 0.1;
    let searches = [
        Search {
            make: |h| Course::StepStanding { height_m: h },
            lo: 0.0,
            hi: step_top,
            tolerance: LENGTH_TOLERANCE_M,
            small_passes: true,
        },
        Search {
            make: |h| Course::StepRunning { height_m: h },
            lo: 0.0,
            hi: step_top,
            tolerance: LENGTH_TOLERANCE_M,
            small_passes: true,
        },
        Search {
            make: |a| Course::Ramp { slope_deg: a },
            lo: 2.0,
            hi: 88.0,
            tolerance: ANGLE_TOLERANCE_DEG,
            small_passes: true,
        },
        Search {
            make: |w| Course::OpeningWidth { width_m: w },
            lo: 0.0,
            hi: 4.0 * r.x.max(r.z) + 0.1,
            tolerance: LENGTH_TOLERANCE_M,
            small_passes: false,
        },
        Search {
            make: |h| Course::Ceiling { height_m: h },
            lo: 0.0,
            hi: 4.0 * r.y + 0.1,
            tolerance: LENGTH_TOLERANCE_M,
            small_passes: false,
        },
        Search {
            make: |w| Course::Gap { width_m: w },
            lo: 0.0,
            hi: 6.0,
            tolerance: LENGTH_TOLERANCE_M,
            small_passes: true,
        },
    ];
    let mut limits: Vec<Limit> = searches
        .par_iter()
        .map(|s| measure(settings, s))
        .collect::<Result<_, _>>()?;
    let mut take = || limits.remove(0);
    Ok(Envelope {
        max_step_height_m: take(),
        max_step_height_running_m: take(),
        max_slope_deg: take(),
        min_opening_width_m: take(),
        min_opening_height_m: take(),
        max_gap_crossed_m: take(),
    })
}

/// Walks `course` and says whether it passed.
pub fn try_course(settings: &SlideSettings, course: &Course) -> Result<(bool, Walk), WalkError> {
    let level = course.level();
    let w = walk(
        level.world(),
        settings,
        &course.walk_spec(settings),
        WalkTrace::FramesOnly,
    )?;
    Ok((course.passed(&w, settings), w))
}

/// Bisects one search.
fn measure(settings: &SlideSettings, s: &Search) -> Result<Limit, WalkError> {
    let (mut good, mut bad) = if s.small_passes {
        (s.lo, s.hi)
    } else {
        (s.hi, s.lo)
    };
    let mut walks = 0;
    let mut run = |size: f64| {
        walks += 1;
        let course = (s.make)(size);
        try_course(settings, &course).map(|(ok, w)| (ok, course, w.summary))
    };
    let (ok, course, summary) = run(good)?;
    if !ok {
        return Ok(Limit {
            value: good,
            passed_at: good,
            failed_at: Some(good),
            found: false,
            pass_course: course,
            pass_walk: summary.clone(),
            fail_course: Some(course),
            fail_walk: Some(summary),
            walks,
        });
    }
    let mut pass = (course, summary);
    let mut fail = None;
    let (ok, course, summary) = run(bad)?;
    if ok {
        pass = (course, summary);
        good = bad;
    } else {
        fail = Some((course, summary));
        while (bad - good).abs() > s.tolerance {
            let mid = 0.5 * (good + bad);
            let (ok, course, summary) = run(mid)?;
            if ok {
                good = mid;
                pass = (course, summary);
            } else {
                bad = mid;
                fail = Some((course, summary));
            }
        }
    }
    Ok(Limit {
        value: good,
        passed_at: good,
        failed_at: fail.as_ref().map(|_| bad),
        found: true,
        pass_course: pass.0,
        pass_walk: pass.1,
        fail_course: fail.as_ref().map(|f| f.0),
        fail_walk: fail.map(|f| f.1),
        walks,
    })
}

#[cfg(test)]
mod tests;
