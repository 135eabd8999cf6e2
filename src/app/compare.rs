//! Compare modes in the window: the selected probe's move (or the walk
//! frame open in its stepper) run in `robust`, `fauerby2003` and
//! `nettle2000` with the probe's other settings, each mode's path and end
//! kept for the view's ghosts, and the iterations side by side with the
//! first divergence ([`crate::analysis::compare`], the one solver in each
//! mode). World space throughout.
//!
//! The comparison is rerun whenever what it depends on changes (the
//! probe, its start, velocity or settings, the frame opened, the level or
//! its collision switches), so it always shows the move the stepper steps.

use crate::analysis::compare::{Divergence, ModeTrace, iteration_table};
use crate::analysis::whatif::Outcome;
use crate::app::state::EditorState;
use crate::app::stepper::FrameSpec;
use crate::character::FrameSolver;
use crate::collide::{
    CollisionWorld, IterationRecord, SlideMode, SlideSettings, TraceDetail, slide,
};
use crate::level::Level;
use glam::DVec3;

/// The colour each mode's ghosts and table rows are drawn in (sRGB, alpha
/// for the translucent end ellipsoid): distinct from each other, from the
/// probe palette's first colours and from the overlays of the trace.
pub fn mode_color(mode: SlideMode) -> [f32; 4] {
    match mode {
        SlideMode::Robust => [0.30, 0.90, 0.55, 0.28],
        SlideMode::Fauerby2003 => [0.35, 0.55, 1.00, 0.28],
        SlideMode::Nettle2000 => [1.00, 0.40, 0.75, 0.28],
    }
}

/// One mode's run of the compared move.
#[derive(Clone, Debug)]
pub struct ModeRun {
    /// The mode.
    pub mode: SlideMode,
    /// Its records (summary detail: hits and self checks, no candidates).
    pub records: Vec<IterationRecord>,
    /// Its path, end and ending.
    pub outcome: Outcome,
}

/// What a comparison was computed from; a different key reruns it.
#[derive(Clone, Debug, PartialEq)]
struct CompareKey {
    level: usize,
    colliding: Vec<bool>,
    probe: usize,
    position: DVec3,
    velocity: DVec3,
    settings: SlideSettings,
    frame: Option<FrameSpec>,
}

/// The selected probe's move in every mode.
#[derive(Clone, Debug)]
pub struct ModesComparison {
    /// The probe compared.
    pub probe: usize,
    /// The walk frame compared, when a character frame is open.
    pub frame: Option<u32>,
    /// One run per mode, in [`SlideMode::ALL`] order.
    pub runs: Vec<ModeRun>,
    /// One row per iteration (see [`iteration_table`]).
    pub rows: Vec<Divergence>,
    /// Index of the first row where the modes differ.
    pub divergence: Option<usize>,
    key: CompareKey,
}

/// Compare modes: on or off, and the comparison shown.
#[derive(Clone, Debug, Default)]
pub struct CompareState {
    /// The user asked for the comparison.
    pub open: bool,
    /// The comparison of the selected probe's move (when open).
    pub modes: Option<ModesComparison>,
    /// Why the move could not be compared, when it could not.
    pub refused: Option<String>,
    /// The outcome before the last settings edit, shown until dismissed.
    pub whatif: Option<crate::app::whatif::WhatIf>,
    /// The recorded walk-mode frames replayed in every mode (when open).
    pub walk: Option<crate::app::compare_walk::WalkModes>,
}

/// The world of `level` with the per-object collision switches.
pub fn world_of<'a>(level: &'a Level, colliding: &'a [bool]) -> CollisionWorld<'a> {
    if colliding.len() == level.mesh.objects.len() {
        level.world_with(colliding)
    } else {
        level.world()
    }
}

/// Runs probe `i`'s move (its open walk frame, else its raw move) with
/// `settings`: the records and the outcome. `None` when the solver refuses
/// the input or there is no level or probe.
pub fn run_probe(
    state: &EditorState,
    i: usize,
    settings: &SlideSettings,
) -> Option<(Vec<IterationRecord>, Outcome)> {
    let level = state.level.as_ref()?;
    let p = state.probes.get(i)?;
    let flags = state.colliding_flags();
    let world = world_of(level, &flags);
    match p.stepper.frame() {
        Some(f) => {
            let rec = FrameSolver::new(
                world,
                settings,
                &f.state,
                f.input,
                f.index,
                TraceDetail::Summary,
            )?
            .finish();
            let outcome = Outcome::of_frame(&rec);
            Some((
                rec.iterations.into_iter().map(|p| p.record).collect(),
                outcome,
            ))
        }
        None => {
            let r = slide(
                world,
                settings,
                p.position,
                p.velocity,
                TraceDetail::Summary,
            )?;
            let outcome = Outcome::of_move(p.position, &r);
            Some((r.iterations, outcome))
        }
    }
}

fn key_of(state: &EditorState, i: usize) -> Option<CompareKey> {
    let level = state.level.as_ref()?;
    let p = state.probes.get(i)?;
    Some(CompareKey {
        level: std::sync::Arc::as_ptr(level) as usize,
        colliding: state.colliding_flags(),
        probe: i,
        position: p.position,
        velocity: p.velocity,
        settings: p.settings.clone(),
        frame: p.stepper.frame().copied(),
    })
}

/// Turns Compare modes on or off.
pub fn set_open(state: &mut EditorState, on: bool) {
    state.compare.open = on;
    if on && state.selected_probe().is_none() {
        state.info("Select a probe to compare its move in every mode");
    }
    refresh(state);
}

/// Brings the comparison and the what-if up to date with the selected
/// probe (after every command): reruns the comparison when its move
/// changed, and drops a what-if whose probe is no longer selected or whose
/// move (start, velocity, frame) is another one.
pub fn refresh(state: &mut EditorState) {
    crate::app::whatif::drop_if_stale(state);
    crate::app::compare_walk::refresh_walk(state);
    let key = state.selected.and_then(|i| key_of(state, i));
    let (true, Some(key)) = (state.compare.open, key) else {
        state.compare.modes = None;
        state.compare.refused = None;
        return;
    };
    if state.compare.modes.as_ref().is_some_and(|m| m.key == key) {
        return;
    }
    let mut runs = Vec::with_capacity(SlideMode::ALL.len());
    for mode in SlideMode::ALL {
        let s = SlideSettings {
            mode,
            ..key.settings.clone()
        };
        let Some((records, outcome)) = run_probe(state, key.probe, &s) else {
            state.compare.modes = None;
            state.compare.refused = Some(
                "The solver refused this move (non-finite numbers or invalid settings)".into(),
            );
            return;
        };
        runs.push(ModeRun {
            mode,
            records,
            outcome,
        });
    }
    let traces: Vec<ModeTrace<'_>> = runs
        .iter()
        .map(|r| ModeTrace {
            mode: r.mode,
            records: &r.records,
            end: r.outcome.end_w(),
        })
        .collect();
    let rows = iteration_table(&traces);
    let divergence = rows.iter().position(|r| !r.differs.is_empty());
    state.compare.refused = None;
    state.compare.modes = Some(ModesComparison {
        probe: key.probe,
        frame: key.frame.map(|f| f.index),
        runs,
        rows,
        divergence,
        key,
    });
}

/// Steps the selected probe's stepper to iteration `index` (computing the
/// iterations up to it), e.g. the divergence clicked in the table.
pub fn step_to(state: &mut EditorState, index: usize) {
    let Some(i) = state.selected.filter(|&i| i < state.probes.len()) else {
        return;
    };
    if !state.probes[i].stepper.is_started() {
        state.restart_probe(i);
    }
    let stepper = &mut state.probes[i].stepper;
    while stepper.records().len() <= index && stepper.step() {}
    stepper.seek(Some(index));
    let shown = stepper.cursor().map_or(0, |c| c + 1);
    if shown != index + 1 {
        let name = state.probes[i].name.clone();
        state.info(format!(
            "{name}'s move in its own mode ends after {shown} iterations; showing the last"
        ));
    }
}
