//! What-if in the window: when a setting of the selected probe changes
//! (skin, radii, step height, slope, gravity, mode, ...), the move's
//! outcome from before the edit is kept as a "before" ghost, the move
//! reruns with the new settings, and both are shown with what flipped
//! ([`crate::analysis::whatif`]) until dismissed. Several edits in a row
//! keep the first "before", so dragging a value compares against where the
//! drag started. World space throughout.

use crate::analysis::whatif::{Flip, Outcome, flips, sentence};
use crate::app::command::ProbeParams;
use crate::app::compare::run_probe;
use crate::app::state::EditorState;
use crate::app::stepper::FrameSpec;
use crate::collide::SlideSettings;
use glam::DVec3;

/// At most this many changed settings are named in the what-if line.
const MAX_NAMED_CHANGES: usize = 4;

/// The move before and after a settings edit.
#[derive(Clone, Debug)]
pub struct WhatIf {
    /// The probe edited.
    pub probe: usize,
    /// The settings before the (first) edit.
    pub before_settings: SlideSettings,
    /// The move's outcome with them.
    pub before: Outcome,
    /// Its outcome with the probe's settings now.
    pub after: Outcome,
    /// The settings that differ, "name old to new".
    pub changed: Vec<String>,
    /// What flipped from before to after.
    pub flips: Vec<Flip>,
    /// The move it is about: start, velocity and the frame open.
    the_move: (DVec3, DVec3, Option<FrameSpec>),
}

impl WhatIf {
    /// "skin 0.005 to 0.05: now arrives; end moved by 0.412 m".
    pub fn summary(&self) -> String {
        let mut names: Vec<&str> = self
            .changed
            .iter()
            .take(MAX_NAMED_CHANGES)
            .map(String::as_str)
            .collect();
        let more = self.changed.len().saturating_sub(MAX_NAMED_CHANGES);
        let more_words = format!("{more} more");
        if more > 0 {
            names.push(&more_words);
        }
        let what = if names.is_empty() {
            "settings as before".to_string()
        } else {
            names.join(", ")
        };
        format!("{what}: {}", sentence(&self.flips))
    }
}

fn move_of(state: &EditorState, i: usize) -> Option<(DVec3, DVec3, Option<FrameSpec>)> {
    let p = state.probes.get(i)?;
    Some((p.position, p.velocity, p.stepper.frame().copied()))
}

/// What to keep before probe `i` takes `params`: the settings and outcome
/// before the edit (the first edit's, while a what-if of the same move is
/// shown). `None` when nothing but settings would not change (a move, a
/// rename) or the move cannot run.
pub fn before_edit(
    state: &EditorState,
    i: usize,
    params: &ProbeParams,
) -> Option<(SlideSettings, Outcome)> {
    let p = state.probes.get(i)?;
    if p.settings == params.settings
        || p.position != params.position
        || p.velocity != params.velocity
    {
        return None;
    }
    if let Some(w) = &state.compare.whatif
        && w.probe == i
        && Some(w.the_move) == move_of(state, i)
    {
        return Some((w.before_settings.clone(), w.before.clone()));
    }
    let (_, outcome) = run_probe(state, i, &p.settings)?;
    Some((p.settings.clone(), outcome))
}

/// After probe `i`'s edit: reruns its move with the new settings and shows
/// it against `before` (see [`before_edit`]).
pub fn after_edit(state: &mut EditorState, i: usize, before: Option<(SlideSettings, Outcome)>) {
    let Some((before_settings, before)) = before else {
        return;
    };
    let Some(p) = state.probes.get(i) else {
        return;
    };
    let now = p.settings.clone();
    let Some((_, after)) = run_probe(state, i, &now) else {
        state.compare.whatif = None;
        return;
    };
    let Some(the_move) = move_of(state, i) else {
        return;
    };
    // A radii edit that went back to the raw move (the probe was lifted)
    // is another move: nothing to compare with.
    if before.is_frame() != after.is_frame() {
        state.compare.whatif = None;
        return;
    }
    state.compare.whatif = Some(WhatIf {
        probe: i,
        changed: changed_settings(&before_settings, &now),
        flips: flips(&before, &after),
        before_settings,
        before,
        after,
        the_move,
    });
}

/// Dismiss what-if: the before ghost and the line go.
pub fn dismiss(state: &mut EditorState) {
    state.compare.whatif = None;
}

/// Drops the what-if when its probe is no longer selected or its move is
/// another one (moved, new velocity, another frame).
pub fn drop_if_stale(state: &mut EditorState) {
    let Some(w) = &state.compare.whatif else {
        return;
    };
    if state.selected != Some(w.probe) || move_of(state, w.probe) != Some(w.the_move) {
        state.compare.whatif = None;
    }
}

/// The settings that differ between `a` and `b`, each as "name old to
/// new" (nested ones dotted: "character.max_step_height_m 0.3 to 0.35"),
/// in the settings file's terms; "to" since the window's font has no arrow.
pub fn changed_settings(a: &SlideSettings, b: &SlideSettings) -> Vec<String> {
    let (Ok(a), Ok(b)) = (serde_json::to_value(a), serde_json::to_value(b)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    diff("", &a, &b, &mut out);
    out
}

fn diff(prefix: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match y.get(k) {
                    Some(vb) => diff(&name, va, vb, out),
                    None => out.push(format!("{name} {} to (none)", short(va))),
                }
            }
        }
        _ if a != b => out.push(format!("{prefix} {} to {}", short(a), short(b))),
        _ => {}
    }
}

/// A value as the line shows it: numbers as written, arrays bracketed.
fn short(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
