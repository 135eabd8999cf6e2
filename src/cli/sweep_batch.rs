//! `collidoscope sweep LEVEL --batch MOVES.jsonl`: many moves on one level.
//!
//! Each input line is one move, world space, metres:
//! `{"from": [x, y, z], "velocity": [x, y, z]}`, optionally with `radii`,
//! `gravity` and `mode`, which override the command's settings for that
//! line, and `method`, which must be `ellipsoid` (the other methods run one
//! move at a time). Each output line is the move's `sweep --json` object (one line,
//! with `line`, the input line number, first), or with `--summary` only its
//! final state.

use super::CliError;
use super::batch::{self, check_radii, check_vec3, parse_line};
use super::sweep::{
    ModeChoice, SweepArgs, SweepJson, embedded_iterations, object_flags, tunnel_iterations,
};
use crate::collide::{CollisionWorld, EndReason, SlideMode, SlideSettings, TraceDetail, slide};
use crate::level::Level;
use crate::methods::Method;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Moves read and run per round: enough to keep every core busy, few
/// enough that the results of one round (full traces) stay small.
const CHUNK_MOVES: usize = 4096;

/// One input line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepLine {
    from: Vec<f64>,
    velocity: Vec<f64>,
    radii: Option<Vec<f64>>,
    gravity: Option<Vec<f64>>,
    mode: Option<SlideMode>,
    method: Option<Method>,
}

/// A move ready to run: its checked inputs and settings.
struct SweepMove {
    from: DVec3,
    velocity: DVec3,
    settings: SlideSettings,
}

/// `--summary`: the final state of one move.
#[derive(Serialize)]
struct SummaryJson {
    line: usize,
    mode: SlideMode,
    final_position: DVec3,
    end_reason: EndReason,
    iteration_count: usize,
    embedded_iterations: Vec<u32>,
    tunnel_iterations: Vec<u32>,
}

/// Runs the batch; the exit code (0, or [`batch::EXIT_BAD_LINES`]).
pub(super) fn run(a: &SweepArgs, base: &SlideSettings, path: &Path) -> Result<i32, CliError> {
    if a.mode == Some(ModeChoice::All) {
        return Err(CliError::Usage(
            "--mode all compares one move; a batch runs one mode per line (give each line its \"mode\")"
                .into(),
        ));
    }
    // The moves file is opened before the (long) import, so a missing one
    // is reported at once.
    let mut input = batch::open(path)?;
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &base.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let mut out = std::io::stdout().lock();
    let outcome = batch::run(
        &mut input,
        &path.display().to_string(),
        CHUNK_MOVES,
        &mut out,
        |line, text| {
            let m = read_move(text, base)?;
            run_move(&level, world, &m, line, a.summary)
        },
    )?;
    Ok(outcome.report())
}

/// A batch line's `method`: batches run the ellipsoid slide (`"ellipsoid"`
/// or no method); the other methods run one move at a time.
pub(super) fn ellipsoid_only(method: Option<Method>, runs: &str) -> Result<(), String> {
    match method {
        None | Some(Method::Ellipsoid) => Ok(()),
        Some(m) => Err(format!(
            "method \"{m}\" is not supported here: {runs} runs the ellipsoid slide only \
             (method \"ellipsoid\" or none); run {m} moves one at a time with \
             sweep --method {m} --from X,Y,Z --velocity X,Y,Z"
        )),
    }
}

/// Parses and checks one line against the command's settings `base`.
fn read_move(text: &str, base: &SlideSettings) -> Result<SweepMove, String> {
    let l: SweepLine = parse_line(text)?;
    ellipsoid_only(l.method, "a batch of moves")?;
    let from = check_vec3("from", &l.from)?;
    let velocity = check_vec3("velocity", &l.velocity)?;
    let mut settings = base.clone();
    if let Some(r) = l.radii {
        settings.radii = check_radii(&r)?.to_array();
    }
    if let Some(g) = l.gravity {
        settings.gravity = check_vec3("gravity", &g)?.to_array();
    }
    if let Some(m) = l.mode {
        settings.mode = m;
    }
    settings.validate().map_err(|e| e.to_string())?;
    Ok(SweepMove {
        from,
        velocity,
        settings,
    })
}

/// Runs one move and writes its output object.
fn run_move(
    level: &Level,
    world: CollisionWorld<'_>,
    m: &SweepMove,
    line: usize,
    summary: bool,
) -> Result<String, String> {
    // A reusable solver (one per rayon thread) would plug in here.
    let detail = if summary {
        TraceDetail::Summary
    } else {
        TraceDetail::Full
    };
    let result = slide(world, &m.settings, m.from, m.velocity, detail)
        .ok_or("the solver rejected the move (non-finite input)")?;
    let json = if summary {
        serde_json::to_string(&SummaryJson {
            line,
            mode: result.mode,
            final_position: result.final_position,
            end_reason: result.end_reason,
            iteration_count: result.iterations.len(),
            embedded_iterations: embedded_iterations(&result),
            tunnel_iterations: tunnel_iterations(&result),
        })
    } else {
        serde_json::to_string(&SweepJson::new(
            level,
            m.from,
            m.velocity,
            &m.settings,
            &result,
            Some(line),
        ))
    };
    json.map_err(|e| format!("cannot write the result: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_overrides_the_settings_and_bad_values_are_named() {
        let base = SlideSettings::default();
        let m = read_move(
            r#"{"from":[0,1,0],"velocity":[1,0,0],"radii":[1,2,1],"gravity":[0,-1,0],"mode":"nettle2000"}"#,
            &base,
        )
        .unwrap();
        assert_eq!(m.settings.radii, [1.0, 2.0, 1.0]);
        assert_eq!(m.settings.gravity, [0.0, -1.0, 0.0]);
        assert_eq!(m.settings.mode, SlideMode::Nettle2000);
        let m = read_move(r#"{"velocity":[1,0,0],"from":[0,1,0]}"#, &base).unwrap();
        assert_eq!(m.settings, base);
        let err = |t: &str| read_move(t, &base).err().unwrap();
        assert!(err(r#"{"from":[0,1,0]}"#).starts_with("missing field `velocity`"));
        assert!(
            err(r#"{"from":[0,1,0],"velocity":[1,0,0],"radii":[0.4,0,0.4]}"#)
                .contains("radius 0 must be a finite number from 0.001 to 10000 m")
        );
        assert!(err(r#"{"from":[0,1e300,0],"velocity":[1,0,0]}"#).contains("beyond the supported"));
        assert!(
            err(r#"{"from":[0,1,0],"velocity":[1,0,0],"mode":"quake"}"#)
                .starts_with("unknown variant `quake`")
        );
        assert!(
            err(r#"{"from":[0,1,0],"velocity":[1,0,0],"radii":[0.001,1,1]}"#)
                .contains("skin 0.005 must be smaller than the smallest radius")
        );
    }
}
