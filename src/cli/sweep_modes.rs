//! `collidoscope sweep --mode all`: one move in every slide mode side by
//! side, and the first iteration where they diverge
//! ([`crate::analysis::compare`]). Text: one row per mode and the
//! divergent iteration of each; JSON: each mode's `sweep --json` object
//! keyed by mode, and the divergence.

use super::sweep::{SweepArgs, SweepJson, embedded_iterations};
use super::sweep_text::{header, iteration_line};
use super::{CliError, format};
use crate::analysis::compare::{
    Aspect, DIVERGENCE_TOLERANCE_M, Divergence, ModeAtIteration, compare_modes,
};
use crate::collide::{CollisionWorld, SlideMode, SlideResult, SlideSettings, TraceDetail};
use crate::level::Level;
use glam::DVec3;
use serde::{Serialize, Serializer};
use std::fmt::Write as _;

/// The JSON output.
#[derive(Serialize)]
struct AllModesJson<'a> {
    level: &'a str,
    from: DVec3,
    velocity: DVec3,
    divergence_tolerance_m: f64,
    /// Each mode's `sweep --json` object, keyed by mode name.
    modes: ByMode<'a>,
    /// `null` when the modes agree on every iteration.
    divergence: Option<DivergenceJson<'a>>,
}

/// A map from mode name to its output, in the menu order of the modes.
struct ByMode<'a>(Vec<(SlideMode, SweepJson<'a>)>);

impl Serialize for ByMode<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(m, j)| (m.name(), j)))
    }
}

#[derive(Serialize)]
struct DivergenceJson<'a> {
    #[serde(flatten)]
    divergence: &'a Divergence,
    /// The same in words.
    description: String,
}

/// Runs the move in every mode and writes the report (text or JSON).
pub(super) fn report(
    level: &Level,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    a: &SweepArgs,
    from: DVec3,
    velocity: DVec3,
    detail: TraceDetail,
) -> Result<String, CliError> {
    let cmp = compare_modes(world, settings, from, velocity, detail).ok_or_else(|| {
        CliError::Failed("the solver rejected the move (non-finite input)".into())
    })?;
    let per_mode: Vec<SlideSettings> = cmp
        .runs
        .iter()
        .map(|(mode, _)| SlideSettings {
            mode: *mode,
            ..settings.clone()
        })
        .collect();
    if a.json {
        let json = AllModesJson {
            level: &level.name,
            from,
            velocity,
            divergence_tolerance_m: DIVERGENCE_TOLERANCE_M,
            modes: ByMode(
                cmp.runs
                    .iter()
                    .zip(&per_mode)
                    .map(|((mode, r), s)| {
                        (*mode, SweepJson::new(level, from, velocity, s, r, None))
                    })
                    .collect(),
            ),
            divergence: cmp.divergence.as_ref().map(|d| DivergenceJson {
                divergence: d,
                description: describe(level, d),
            }),
        };
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))?;
        return Ok(text + "\n");
    }
    let mut s = header(level, settings, from, velocity, None);
    let _ = writeln!(
        s,
        "{:<13} {:>10}  {:<28}  {:<14} inside geometry",
        "mode", "iterations", "final", "end reason"
    );
    for (mode, r) in &cmp.runs {
        let _ = writeln!(s, "{}", mode_row(*mode, r));
    }
    match &cmp.divergence {
        None => {
            let _ = writeln!(
                s,
                "agree       on every iteration (same triangles and outcomes, ends within {DIVERGENCE_TOLERANCE_M} m)"
            );
        }
        Some(d) => {
            let _ = writeln!(s, "diverge     {}", describe(level, d));
            for (m, (_, r)) in d.modes.iter().zip(&cmp.runs) {
                let line = match r.iterations.get(d.iteration as usize) {
                    Some(rec) => iteration_line(level, rec),
                    None => format!("  (ended after {} iterations)", r.iterations.len()),
                };
                let _ = writeln!(s, "  {:<11}{line}", m.mode.name());
            }
        }
    }
    Ok(s)
}

/// `robust          3  (2.5950, 0.9050, 5.0000)  too_short      no`
fn mode_row(mode: SlideMode, r: &SlideResult) -> String {
    let embedded = embedded_iterations(r);
    let inside = if embedded.is_empty() {
        "no".to_string()
    } else {
        let list: Vec<String> = embedded.iter().map(|i| format!("#{i}")).collect();
        format!("YES at {}", list.join(", "))
    };
    format!(
        "{:<13} {:>10}  {:<28}  {:<14} {inside}",
        mode.name(),
        r.iterations.len(),
        format::vec(r.final_position),
        format::snake_name(&r.end_reason)
    )
}

/// `at iteration #0: hit triangle (robust 2 (wall), ... nettle2000 none); ...`
fn describe(level: &Level, d: &Divergence) -> String {
    let mut parts = Vec::new();
    for what in &d.differs {
        let values = |f: &dyn Fn(&ModeAtIteration) -> String| -> String {
            d.modes
                .iter()
                .map(|m| format!("{} {}", m.mode.name(), f(m)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let part = match what {
            Aspect::IterationCount => format!(
                "{} ended before it",
                d.modes
                    .iter()
                    .filter(|m| !m.ran)
                    .map(|m| m.mode.name())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            Aspect::Pass => format!(
                "pass ({})",
                values(&|m| m.pass.map_or("-".into(), |p| format::snake_name(&p)))
            ),
            Aspect::HitTriangle => format!(
                "hit triangle ({})",
                values(&|m| match m.hit_triangle {
                    Some(t) => format!("{t} ({})", object_of(level, t)),
                    None if m.ran => "none".into(),
                    None => "-".into(),
                })
            ),
            Aspect::Outcome => format!(
                "outcome ({})",
                values(&|m| m.outcome.map_or("-".into(), |o| outcome_words(&o)))
            ),
            Aspect::Embedded => format!(
                "ends inside geometry ({})",
                values(&|m| if m.embedded { "yes" } else { "no" }.into())
            ),
            Aspect::Tunnel => format!(
                "went through geometry on the way ({})",
                values(&|m| if m.tunnel { "yes" } else { "no" }.into())
            ),
            Aspect::EndPosition => format!(
                "end positions {:.4} m apart ({})",
                d.end_spread_m,
                values(&|m| format::vec(m.end))
            ),
        };
        parts.push(part);
    }
    format!("at iteration #{}: {}", d.iteration, parts.join("; "))
}

fn outcome_words(o: &crate::collide::IterationOutcome) -> String {
    use crate::collide::IterationOutcome as O;
    match o {
        O::Continue => "continue".into(),
        O::PassEnded(r) => format!("pass ended {}", format::snake_name(r)),
        O::MoveEnded(r) => format!("move ended {}", format::snake_name(r)),
    }
}

fn object_of(level: &Level, triangle: u32) -> &str {
    level
        .mesh
        .objects
        .get(level.mesh.object_of(triangle))
        .map_or("?", |o| o.name.as_str())
}
