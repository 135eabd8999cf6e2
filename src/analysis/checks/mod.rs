//! Level checks: every step, opening, slope and low ceiling of a level
//! (found and measured by [`crate::analysis::features`]) gets a verdict
//! from the character walking at it, straight on and at 45 degrees.
//!
//! A walk tests a feature only when it started standing on the feature's
//! own floor (found by a ray down at that floor's height, with room to
//! stand: never inside geometry, never over nothing) and reached the
//! feature without falling on the way. Each walk tries up to three starts
//! along a step or slope (its middle, then off it each side), and both
//! sides of an opening or a ceiling, and keeps the first that tests it.
//!
//! - `climbs` (steps, slopes): a walk that tested it stood on the upper
//!   floor, past the riser, at the riser's height (a slope: rose up it);
//!   `passes` (openings, ceilings): went through the opening between its
//!   jambs, or under the ceiling, at the floor's own level. Every walk
//!   that tested it did.
//! - `blocked`: a walk that tested it failed, as the measurements say it
//!   must; the reason names the deciding limit (a riser taller than the
//!   step height, a slope over the limit, an opening narrower or lower
//!   than the character, ...).
//! - `stalls`: a walk that tested it stopped at the feature although the
//!   measurements say it fits: the finding a designer or programmer most
//!   wants to open in the stepper.
//! - `untested`: no walk could test it (no floor at its level before it,
//!   no room to stand, a fall or a stop before it, a stop away from it);
//!   the reason says which. Never a failure.
//!
//! A verdict whose deciding measurement is within a centimetre of the
//! character's limit, or (a step) whose deciding walk goes the other way
//! at another common frame rate (30, 60, 120, 144 Hz), is `marginal` as
//! well. Every finding keeps its walks
//! (where they started, which way, how they went, the frame where they
//! stalled), so each verdict can be replayed exactly. World space, Y up,
//! metres.

pub mod agreement;
pub mod baseline;
mod html;
mod profiles;
mod verdict;

#[cfg(test)]
mod scenarios;
#[cfg(test)]
mod tests;

pub use html::{html_report, measurements};
pub use profiles::{ProfileComparison, ProfileDifference, ProfileVerdict, compare_profiles};
pub use verdict::{CheckWalk, Verdict, rejudge};

use crate::analysis::features::{Feature, FeatureOptions, find_features};
use crate::collide::{CollisionWorld, SlideSettings};
use crate::level::Level;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// One feature with its verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// What was found and measured (`kind`, `position`, `direction`,
    /// `riser_height_m`, `tread_depth_m`, `width_m`, `height_m`,
    /// `slope_deg`, ...).
    #[serde(flatten)]
    pub feature: Feature,
    /// The verdict.
    pub verdict: Verdict,
    /// Why, in a sentence with the numbers.
    pub reason: String,
    /// Set when the verdict hangs on a hair: the deciding measurement is
    /// within a centimetre (half a degree for a slope) of the character's
    /// limit, or (a step) its deciding walk goes the other way at another
    /// common frame rate (30, 60, 120, 144 Hz); says what flips it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marginal: Option<String>,
    /// The walks that decided it: straight on, then at 45 degrees (each
    /// from the first start that tested the feature, or the first start
    /// tried when none did).
    pub walks: Vec<CheckWalk>,
}

/// How many findings got each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictCounts {
    /// Steps and slopes climbed.
    pub climbs: usize,
    /// Openings and ceilings passed.
    pub passes: usize,
    /// Failed, as the measurements say.
    pub blocked: usize,
    /// Failed although the measurements say it fits.
    pub stalls: usize,
    /// No walk could reach or test them (never a failure).
    #[serde(default)]
    pub untested: usize,
    /// Of all of them, how many hang on a hair (see [`Finding::marginal`]).
    #[serde(default)]
    pub marginal: usize,
}

/// A level's checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// The findings, in the feature finder's order (kind, then position).
    pub findings: Vec<Finding>,
    /// Findings per verdict.
    pub counts: VerdictCounts,
    /// Sampling cell used to find the features, metres.
    pub cell_m: f64,
    /// Whether the cell was coarsened to bound the grid.
    pub coarsened: bool,
    /// Whether the level is wound inside out (its faces point away from
    /// where a player stands): the features were found on the other side
    /// of every face. The file should be fixed.
    #[serde(default)]
    pub inside_out: bool,
    /// Time to find and measure the features, milliseconds.
    pub find_ms: f64,
    /// Time to walk every finding, milliseconds.
    pub walk_ms: f64,
    /// Solver iterations of all the walks whose nearest hit was a ghost
    /// corner (an internal edge of a flat surface; see `ghost_hit`).
    #[serde(default)]
    pub ghost_hits: u32,
}

impl CheckReport {
    /// Whether no finding fails (is blocked or stalls); untested ones
    /// do not fail.
    pub fn all_pass(&self) -> bool {
        self.counts.blocked == 0 && self.counts.stalls == 0
    }

    /// Up to `count` of the walks the checks ran (a start with no floor
    /// runs none), spread evenly over the findings in their order: the
    /// walks a benchmark or a peer engine replays as a sample of the level.
    pub fn sample_walks(&self, count: usize) -> Vec<crate::character::WalkSpec> {
        let ran: Vec<_> = self
            .findings
            .iter()
            .flat_map(|f| f.walks.iter().filter(|w| w.summary.frames > 0))
            .map(|w| w.spec)
            .collect();
        let stride = (ran.len() / count.max(1)).max(1);
        ran.into_iter().step_by(stride).take(count).collect()
    }
}

/// Why the checks could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckError {
    /// The settings break a rule (the message names the field).
    #[error("{0}")]
    InvalidSettings(String),
    /// No surface of the level is walkable floor for this character.
    #[error(
        "{level}: no walkable floor (no up-facing surface within {max_slope_deg}° of level with room above it): nothing to check"
    )]
    NoWalkableFloor {
        /// The level's name.
        level: String,
        /// The slope limit used.
        max_slope_deg: f64,
    },
}

/// The feature finder's options for a character with `settings`.
pub fn feature_options(settings: &SlideSettings) -> FeatureOptions {
    let [rx, ry, rz] = settings.radii;
    FeatureOptions {
        max_slope_deg: settings.character.max_slope_deg,
        probe_height_m: 2.0 * ry,
        probe_width_m: 2.0 * rx.min(rz),
        max_opening_width_m: settings.level.max_opening_width_m,
        max_opening_height_m: settings.level.max_opening_height_m,
        // Half the character's size: smaller gaps are no passage for it,
        // while a door it does not quite fit through is still checked.
        min_opening_width_m: rx.min(rz),
        min_opening_height_m: ry,
        ..FeatureOptions::default()
    }
}

/// Finds `level`'s features and walks the character of `settings` at each
/// (through `world`, which says which objects collide). `progress` gets
/// fractions in `[0, 1]`; `Ok(None)` when `cancel` was set.
pub fn check_level(
    level: &Level,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    progress: &(dyn Fn(f32) + Sync),
    cancel: &AtomicBool,
) -> Result<Option<CheckReport>, CheckError> {
    settings
        .validate()
        .map_err(|e| CheckError::InvalidSettings(e.to_string()))?;
    let t = Instant::now();
    let opts = feature_options(settings);
    // Finding is about a tenth of the work on real levels.
    let Some(found) = find_features(world, &opts, &|f| progress(0.1 * f), cancel) else {
        return Ok(None);
    };
    if found.walkable_cells == 0 {
        return Err(CheckError::NoWalkableFloor {
            level: level.name.clone(),
            max_slope_deg: opts.max_slope_deg,
        });
    }
    let find_ms = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let done = AtomicUsize::new(0);
    let total = found.features.len().max(1);
    let findings: Option<Vec<Finding>> = found
        .features
        .into_par_iter()
        .map(|feature| {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let finding = verdict::judge(world, settings, feature);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(0.1 + 0.9 * n as f32 / total as f32);
            Some(finding)
        })
        .collect();
    let Some(findings) = findings else {
        return Ok(None);
    };
    let mut counts = VerdictCounts::default();
    for f in &findings {
        match f.verdict {
            Verdict::Climbs => counts.climbs += 1,
            Verdict::Passes => counts.passes += 1,
            Verdict::Blocked => counts.blocked += 1,
            Verdict::Stalls => counts.stalls += 1,
            Verdict::Untested => counts.untested += 1,
        }
        counts.marginal += usize::from(f.marginal.is_some());
    }
    let ghost_hits = findings
        .iter()
        .flat_map(|f| &f.walks)
        .map(|w| w.summary.ghost_hits)
        .sum();
    Ok(Some(CheckReport {
        ghost_hits,
        findings,
        counts,
        cell_m: found.cell_m,
        coarsened: found.coarsened,
        inside_out: found.inside_out,
        find_ms,
        walk_ms: t.elapsed().as_secs_f64() * 1e3,
    }))
}
