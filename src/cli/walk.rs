//! `collidoscope walk`: a character walked frame by frame through a level,
//! each frame's phases run by the same solver the window steps. Printed as
//! one line per frame, or as JSON with every frame and its iterations.
//!
//! World space, Y up, metres; speeds in m/s.

use super::args::{CharacterArgs, ImportArgs, parse_direction_xz, parse_vec3};
use super::sweep::object_flags;
use super::{CliError, format, print_stdout};
use crate::character::{FrameRecord, StepOutcome, Walk, WalkSpec, WalkTrace, walk};
use crate::collide::SlideSettings;
use crate::level::Level;
use clap::Args;
use glam::DVec3;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `collidoscope walk`.
#[derive(Debug, Args)]
pub(crate) struct WalkArgs {
    /// The level (.obj, .obj.gz, or a .png heightmap: see --heightmap-spacing, --height-scale).
    pub(super) level: PathBuf,
    /// Ellipsoid centre at the start, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "batch", conflicts_with = "batch")]
    from: Option<DVec3>,
    /// Horizontal walking direction, world X and Z (need not be unit).
    #[arg(long, value_name = "X,Z", value_parser = parse_direction_xz, allow_hyphen_values = true,
          required_unless_present = "batch", conflicts_with = "batch")]
    direction: Option<DVec3>,
    /// How long to walk, seconds (with --batch, for lines that give none).
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    pub(super) seconds: f64,
    /// Jump in the first frame that stands on ground (with --batch, for
    /// lines that do not say).
    #[arg(long)]
    pub(super) jump: bool,
    #[command(flatten)]
    pub(super) character: CharacterArgs,
    /// Name of an object that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    pub(super) non_colliding: Vec<String>,
    /// The collision method: a character walks by the ellipsoid slide
    /// only (`ellipsoid`, the default); other methods are refused.
    #[arg(long, value_parser = super::sweep::parse_method)]
    method: Option<crate::methods::Method>,
    #[command(flatten)]
    pub(super) import: ImportArgs,
    /// Print every frame and its iterations as JSON.
    #[arg(long)]
    json: bool,
    /// With --json or --batch: every candidate triangle and visited BVH node of every iteration.
    #[arg(long)]
    pub(super) full: bool,
    /// Run every walk of a JSON Lines file (`-`: stdin) on the level loaded
    /// once: one JSON result per line (see docs/command-line.md, "Batch runs").
    #[arg(long, value_name = "WALKS.jsonl")]
    pub(super) batch: Option<PathBuf>,
    /// With --batch: only each walk's summary (its final state), no frames.
    #[arg(long, conflicts_with = "full")]
    pub(super) summary: bool,
}

pub(super) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "seconds '{text}' must be a finite number, zero or more"
        )),
    }
}

/// The JSON output.
#[derive(Serialize)]
pub(super) struct WalkJson<'a> {
    /// The input line, in batch runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub level: &'a str,
    pub settings: &'a SlideSettings,
    #[serde(flatten)]
    pub walk: &'a Walk,
}

/// Runs `walk`; the exit code (a batch with refused lines has its own).
pub(crate) fn run(a: &WalkArgs) -> Result<i32, CliError> {
    if let Some(m) = a.method.filter(|&m| m != crate::methods::Method::Ellipsoid) {
        return Err(CliError::Usage(format!(
            "--method {m} is not supported by walk: a character walks by the ellipsoid slide only; \
             run {m} moves with sweep --method {m} --from X,Y,Z --velocity X,Y,Z"
        )));
    }
    let settings = a.character.settings()?;
    // Refuse a walk too long before a long import.
    let frames = (a.seconds * settings.character.frame_rate_hz).ceil();
    if frames > f64::from(crate::character::MAX_WALK_FRAMES) {
        return Err(CliError::Usage(format!(
            "--seconds {} at {} Hz is {frames} frames; a walk is at most {} frames",
            a.seconds,
            settings.character.frame_rate_hz,
            crate::character::MAX_WALK_FRAMES
        )));
    }
    if let Some(path) = &a.batch {
        return super::walk_batch::run(a, &settings, path);
    }
    if a.summary {
        return Err(CliError::Usage(
            "--summary is for --batch runs (a single walk prints its summary at the end)".into(),
        ));
    }
    let (Some(from), Some(direction)) = (a.from, a.direction) else {
        return Err(CliError::Usage(
            "--from and --direction are required (or --batch WALKS.jsonl)".into(),
        ));
    };
    let spec = WalkSpec {
        from,
        direction,
        seconds: a.seconds,
        jump: a.jump,
    };
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let trace = match (a.json, a.full) {
        (true, true) => WalkTrace::Full,
        (true, false) => WalkTrace::Summary,
        (false, _) => WalkTrace::FramesOnly,
    };
    let w = walk(level.world_with(&colliding), &settings, &spec, trace)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let text = if a.json {
        let json = WalkJson {
            line: None,
            level: &level.name,
            settings: &settings,
            walk: &w,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&level, &settings, &w)
    };
    print_stdout(&text)?;
    Ok(super::EXIT_OK)
}

fn text_report(level: &Level, settings: &SlideSettings, w: &Walk) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "level       {} ({} triangles)",
        level.name,
        level.mesh.triangle_count()
    );
    let _ = writeln!(s, "{}", format::character_line(settings));
    let _ = writeln!(s, "from        {}", format::vec(w.spec.from));
    let _ = writeln!(
        s,
        "direction   {}  for {} s",
        format::vec(w.spec.direction),
        w.spec.seconds
    );
    for f in &w.frames {
        let _ = writeln!(s, "{}", frame_line(level, f));
    }
    let sum = &w.summary;
    let _ = writeln!(s, "final       {}", format::vec(sum.final_position));
    let _ = writeln!(
        s,
        "progress    {:.4} m along the direction, rise {:.4} m, {}",
        sum.progress_m,
        sum.rise_m,
        if sum.grounded {
            "on ground"
        } else {
            "in the air"
        }
    );
    let _ = writeln!(
        s,
        "steps       {} taken (tallest {:.4} m){}",
        sum.steps_taken,
        sum.tallest_step_m,
        sum.last_step_rejection
            .map(|r| format!(", last refused: {}", r.describe()))
            .unwrap_or_default()
    );
    match sum.stalled_at_frame {
        Some(i) => {
            let by = sum
                .blocked_by
                .map(|b| format!(" against {}", wall_name(level, b.triangle, b.normal)))
                .unwrap_or_default();
            let _ = writeln!(s, "stalled     from frame {i}{by}");
        }
        None => {
            let _ = writeln!(s, "stalled     no");
        }
    }
    s
}

/// `  f12  (..) -> (..)  ground  stepped 0.2000 m`
fn frame_line(level: &Level, f: &FrameRecord) -> String {
    let mut line = format!(
        "  f{:<4} {} -> {}  {}",
        f.index,
        format::vec(f.before.position),
        format::vec(f.after.position),
        if f.after.grounded { "ground" } else { "air   " }
    );
    if f.jumped {
        line.push_str("  jumped");
    }
    match f.step {
        StepOutcome::Stepped { height_m, .. } => {
            let _ = write!(line, "  stepped up {height_m:.4} m");
        }
        StepOutcome::Rejected { reason } => {
            let _ = write!(line, "  step refused: {}", reason.describe());
        }
        StepOutcome::NotTried => {}
    }
    if f.snapped {
        line.push_str("  snapped");
    }
    if let Some(wall) = f.wall {
        let _ = write!(
            line,
            "  wall {}",
            wall_name(level, wall.triangle, wall.normal)
        );
    }
    line
}

fn wall_name(level: &Level, triangle: u32, normal: DVec3) -> String {
    let object = level.mesh.object_of(triangle);
    let name = level
        .mesh
        .objects
        .get(object)
        .map_or("?", |o| o.name.as_str());
    let slope = normal.y.clamp(-1.0, 1.0).acos().to_degrees();
    format!("triangle {triangle} ({name}, {slope:.1}° from up)")
}
