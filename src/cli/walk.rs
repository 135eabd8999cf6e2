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
    /// The level (.obj or .obj.gz).
    level: PathBuf,
    /// Ellipsoid centre at the start, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
    from: DVec3,
    /// Horizontal walking direction, world X and Z (need not be unit).
    #[arg(long, value_name = "X,Z", value_parser = parse_direction_xz, allow_hyphen_values = true)]
    direction: DVec3,
    /// How long to walk, seconds.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds, allow_hyphen_values = true)]
    seconds: f64,
    /// Jump in the first frame that stands on ground.
    #[arg(long)]
    jump: bool,
    #[command(flatten)]
    character: CharacterArgs,
    /// Name of an object that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    non_colliding: Vec<String>,
    #[command(flatten)]
    import: ImportArgs,
    /// Print every frame and its iterations as JSON.
    #[arg(long)]
    json: bool,
    /// With --json: every candidate triangle and visited BVH node of every iteration.
    #[arg(long)]
    full: bool,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "seconds '{text}' must be a finite number, zero or more"
        )),
    }
}

/// The JSON output.
#[derive(Serialize)]
struct WalkJson<'a> {
    level: &'a str,
    settings: &'a SlideSettings,
    #[serde(flatten)]
    walk: &'a Walk,
}

pub(crate) fn run(a: &WalkArgs) -> Result<(), CliError> {
    let settings = a.character.settings()?;
    let spec = WalkSpec {
        from: a.from,
        direction: a.direction,
        seconds: a.seconds,
        jump: a.jump,
    };
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
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding)?;
    let trace = match (a.json, a.full) {
        (true, true) => WalkTrace::Full,
        (true, false) => WalkTrace::Summary,
        (false, _) => WalkTrace::FramesOnly,
    };
    let w = walk(level.world_with(&colliding), &settings, &spec, trace)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let text = if a.json {
        let json = WalkJson {
            level: &level.name,
            settings: &settings,
            walk: &w,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&level, &settings, &w)
    };
    print_stdout(&text)
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
        StepOutcome::Stepped { height_m } => {
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
