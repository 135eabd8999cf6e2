//! `collidoscope walk LEVEL --batch WALKS.jsonl`: many walks on one level.
//!
//! Each input line is one walk with the names of `walk`'s flags, world
//! space, metres, seconds: `{"from": [x, y, z], "direction": [x, z]}`,
//! optionally `seconds` and `jump` (default: the command's `--seconds` and
//! `--jump`), `radii` and `mode` (default: the command's settings). Each
//! output line is the walk's `walk --json` object (one line, with `line`,
//! the input line number, first), or with `--summary` only its summary.

use super::CliError;
use super::batch::{self, check_numbers, check_radii, check_vec3, parse_line};
use super::sweep::object_flags;
use super::walk::{WalkArgs, WalkJson};
use crate::character::{WalkSpec, WalkSummary, WalkTrace, walk};
use crate::collide::{CollisionWorld, SlideMode, SlideSettings};
use crate::level::Level;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Walks read and run per round: a walk is up to thousands of frames, so
/// fewer than moves, still enough to keep every core busy.
const CHUNK_WALKS: usize = 64;

/// One input line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WalkLine {
    from: Vec<f64>,
    direction: Vec<f64>,
    seconds: Option<f64>,
    jump: Option<bool>,
    radii: Option<Vec<f64>>,
    mode: Option<SlideMode>,
    method: Option<crate::methods::Method>,
}

/// `--summary`: how one walk ended.
#[derive(Serialize)]
struct SummaryJson<'a> {
    line: usize,
    summary: &'a WalkSummary,
}

/// Runs the batch; the exit code (0, or [`batch::EXIT_BAD_LINES`]).
pub(super) fn run(a: &WalkArgs, base: &SlideSettings, path: &Path) -> Result<i32, CliError> {
    let mut input = batch::open(path)?;
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &base.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let trace = match (a.summary, a.full) {
        (true, _) => WalkTrace::FramesOnly,
        (false, true) => WalkTrace::Full,
        (false, false) => WalkTrace::Summary,
    };
    let defaults = (a.seconds, a.jump);
    let mut out = std::io::stdout().lock();
    let outcome = batch::run(
        &mut input,
        &path.display().to_string(),
        CHUNK_WALKS,
        &mut out,
        |line, text| {
            let (spec, settings) = read_walk(text, base, defaults)?;
            run_walk(&level, world, &settings, &spec, trace, line, a.summary)
        },
    )?;
    Ok(outcome.report())
}

/// Parses and checks one line; `defaults` are the command's seconds and jump.
fn read_walk(
    text: &str,
    base: &SlideSettings,
    defaults: (f64, bool),
) -> Result<(WalkSpec, SlideSettings), String> {
    let l: WalkLine = parse_line(text)?;
    super::sweep_batch::ellipsoid_only(l.method, "a walk")?;
    let from = check_vec3("from", &l.from)?;
    let [dx, dz] = check_numbers("direction", &l.direction, ["x", "z"])?;
    let direction = glam::DVec3::new(dx, 0.0, dz);
    if direction == glam::DVec3::ZERO {
        return Err("the direction [0, 0] has no way to walk".into());
    }
    let seconds = l.seconds.unwrap_or(defaults.0);
    if seconds < 0.0 {
        return Err(format!("seconds {seconds} must be zero or more"));
    }
    let mut settings = base.clone();
    if let Some(r) = l.radii {
        settings.radii = check_radii(&r)?.to_array();
    }
    if let Some(m) = l.mode {
        settings.mode = m;
    }
    settings.validate().map_err(|e| e.to_string())?;
    let spec = WalkSpec {
        from,
        direction,
        seconds,
        jump: l.jump.unwrap_or(defaults.1),
    };
    Ok((spec, settings))
}

/// Walks one line and writes its output object.
fn run_walk(
    level: &Level,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    spec: &WalkSpec,
    trace: WalkTrace,
    line: usize,
    summary: bool,
) -> Result<String, String> {
    let w = walk(world, settings, spec, trace).map_err(|e| e.to_string())?;
    let json = if summary {
        serde_json::to_string(&SummaryJson {
            line,
            summary: &w.summary,
        })
    } else {
        serde_json::to_string(&WalkJson {
            line: Some(line),
            level: &level.name,
            settings,
            walk: &w,
        })
    };
    json.map_err(|e| format!("cannot write the result: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_takes_the_flags_names_and_the_commands_defaults() {
        let base = SlideSettings::default();
        let (spec, s) = read_walk(
            r#"{"from":[0,1,0],"direction":[0,2],"radii":[0.3,0.8,0.3]}"#,
            &base,
            (1.5, true),
        )
        .unwrap();
        assert_eq!((spec.seconds, spec.jump), (1.5, true));
        assert_eq!(spec.direction, glam::DVec3::new(0.0, 0.0, 2.0));
        assert_eq!(s.radii, [0.3, 0.8, 0.3]);
        let (spec, _) = read_walk(
            r#"{"from":[0,1,0],"direction":[1,0],"seconds":0.5,"jump":false}"#,
            &base,
            (1.5, true),
        )
        .unwrap();
        assert_eq!((spec.seconds, spec.jump), (0.5, false));
        let err = |t: &str| read_walk(t, &base, (2.0, false)).err().unwrap();
        assert!(err(r#"{"from":[0,1,0],"direction":[0,0]}"#).contains("no way to walk"));
        assert!(err(r#"{"from":[0,1,0],"direction":[0,1],"seconds":-1}"#).contains("zero or more"));
        let e = err(r#"{"from":[0,1,0],"direction":[0,1,0]}"#);
        assert_eq!(e, "direction has 3 numbers; expected 2");
        assert!(
            err(r#"{"from":[0,1,0],"velocity":[0,1]}"#).starts_with("unknown field `velocity`")
        );
    }
}
