//! `collidoscope replay LEVEL RECORDING`: does a recorded path reproduce
//! here? Each recorded frame is re-run by the character from the recorded
//! state and compared with the next recorded position; printed as a
//! summary and a per-frame table, or as JSON. Exit 0 when every frame is
//! within the tolerance, 3 when one is not.
//!
//! World space, Y up, metres (the recording is converted with `--up` and
//! `--scale`; the level with `--level-up` and `--level-scale`).

use super::args::{CharacterArgs, UpArg, parse_scale};
use super::sweep::object_flags;
use super::{CliError, format, print_stdout};
use crate::analysis::replay::{
    ColumnMap, DEFAULT_TOLERANCE_M, RecordingFormat, RecordingOptions, Replay, parse_recording,
    replay,
};
use crate::collide::SlideSettings;
use crate::level::{ImportOptions, Level};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Exit code of a recording that does not reproduce within the tolerance.
pub(super) const EXIT_DIVERGES: i32 = 3;

/// The recording's format as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Arguments of `collidoscope replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The level (.obj or .obj.gz).
    level: PathBuf,
    /// The recorded path (.csv, or .jsonl: one JSON object per line).
    recording: PathBuf,
    /// The recording's format [default: jsonl for .jsonl/.json files, else csv].
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Column (or JSON key) of each field: `t=time,x=pos_x,...`; fields
    /// t x y z vx vy vz ix iy iz jump grounded (default: their own names).
    #[arg(long, value_name = "MAP", value_parser = ColumnMap::parse)]
    columns: Option<ColumnMap>,
    /// The recording's up axis.
    #[arg(long, value_enum, default_value_t = UpArg::Y)]
    up: UpArg,
    /// Metres per unit of the recording's positions and velocities (0.01 for centimetres).
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale, allow_hyphen_values = true)]
    scale: f64,
    /// The level file's up axis.
    #[arg(long, value_enum, default_value_t = UpArg::Y)]
    level_up: UpArg,
    /// Multiplies every coordinate of the level file.
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale, allow_hyphen_values = true)]
    level_scale: f64,
    /// Largest divergence still counted as reproduced, metres.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_TOLERANCE_M, value_parser = parse_tolerance, allow_hyphen_values = true)]
    tolerance: f64,
    #[command(flatten)]
    character: CharacterArgs,
    /// Name of an object that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    non_colliding: Vec<String>,
    /// Print the summary and every frame as JSON.
    #[arg(long)]
    json: bool,
}

fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!(
            "tolerance '{text}' must be a finite number of metres above zero"
        )),
    }
}

/// The JSON output.
#[derive(Serialize)]
struct ReplayJson<'a> {
    level: &'a str,
    recording: String,
    settings: &'a SlideSettings,
    reproduced: bool,
    #[serde(flatten)]
    replay: &'a Replay,
}

/// Runs `replay`; 0 when the recording reproduces, [`EXIT_DIVERGES`] when not.
pub(crate) fn run(a: &ReplayArgs) -> Result<i32, CliError> {
    let settings = a.character.settings()?;
    let format = a.format.map_or_else(
        || format_of(&a.recording),
        |f| match f {
            FormatArg::Csv => RecordingFormat::Csv,
            FormatArg::Jsonl => RecordingFormat::Jsonl,
        },
    );
    let options = RecordingOptions {
        format,
        columns: a.columns.clone().unwrap_or_default(),
        up: a.up.into(),
        scale: a.scale,
    };
    let shown = a.recording.display().to_string();
    let text = read_recording(&a.recording)?;
    let recording =
        parse_recording(&text, &options).map_err(|e| CliError::Failed(format!("{shown}: {e}")))?;
    let import = ImportOptions {
        up: a.level_up.into(),
        scale: a.level_scale,
        ..ImportOptions::default()
    };
    let level = Level::load(&a.level, &import)?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let r = replay(
        world,
        &settings,
        &recording,
        a.tolerance,
        &|_| {},
        &AtomicBool::new(false),
    )
    .map_err(|e| CliError::Failed(format!("{shown}: {e}")))?
    .ok_or_else(|| CliError::Failed("the replay was cancelled".into()))?;
    let out = if a.json {
        let json = ReplayJson {
            level: &level.name,
            recording: shown,
            settings: &settings,
            reproduced: r.summary.reproduced(),
            replay: &r,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&level, &settings, &shown, &r)
    };
    print_stdout(&out)?;
    Ok(if r.summary.reproduced() {
        super::EXIT_OK
    } else {
        EXIT_DIVERGES
    })
}

/// JSON Lines for `.jsonl` / `.json` names, else CSV.
fn format_of(path: &Path) -> RecordingFormat {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("json") => {
            RecordingFormat::Jsonl
        }
        _ => RecordingFormat::Csv,
    }
}

/// The file's text, refusing one too large to be a recording.
fn read_recording(path: &Path) -> Result<String, CliError> {
    crate::fileio::read_text_bounded(
        path,
        crate::analysis::replay::MAX_RECORDING_BYTES,
        "a recording",
    )
    .map_err(|e| super::read_failed(path, e))
}

fn text_report(level: &Level, settings: &SlideSettings, shown: &str, r: &Replay) -> String {
    let mut s = String::new();
    let sum = &r.summary;
    let _ = writeln!(
        s,
        "level       {} ({} triangles)",
        level.name,
        level.mesh.triangle_count()
    );
    let _ = writeln!(s, "{}", format::character_line(settings));
    let _ = writeln!(s, "recording   {shown} ({} frames)", sum.frames + 1);
    let _ = writeln!(
        s,
        "  frame     t (s)   line  divergence (m)  horizontal  vertical  free run (m)"
    );
    for f in &r.frames {
        let mark = if f.divergence_m > sum.tolerance_m {
            "  over"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "  f{:<6} {:>8.3} {:>6}  {:>14.6}  {:>10.6}  {:>8.6}  {:>12.6}{mark}",
            f.index,
            f.t_s,
            f.line,
            f.divergence_m,
            f.horizontal_m,
            f.vertical_m,
            f.free_run_divergence_m
        );
    }
    let _ = writeln!(
        s,
        "divergence  max {:.6} m (frame {}), mean {:.6} m; free run ends {:.6} m away",
        sum.max_divergence_m,
        sum.max_at_frame.map_or("-".into(), |f| f.to_string()),
        sum.mean_divergence_m,
        sum.free_run_final_m
    );
    match sum.first_divergent_frame {
        None => {
            let _ = writeln!(
                s,
                "reproduced  yes: every frame within {} m",
                sum.tolerance_m
            );
        }
        Some(i) => {
            let line = r.frames.get(i as usize).map_or(0, |f| f.line);
            let _ = writeln!(
                s,
                "reproduced  no: {} frames over {} m, the first is frame {i} (line {line})",
                sum.divergent_frames, sum.tolerance_m
            );
        }
    }
    s
}
