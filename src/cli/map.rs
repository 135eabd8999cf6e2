//! `collidoscope map`: the stuck-spot map. Walks the character from every
//! walkable floor of a level in N directions and reports where it gets
//! stuck, jitters, falls through, cannot get back or ends inside geometry;
//! as text, JSON, and a top-down PNG. `--shard I/N` walks one part of the
//! start points (for several CI runners) and `--merge` joins the parts'
//! JSON. For level CI, the exit code says whether anything was found.

use super::args::{CharacterArgs, ImportArgs, parse_vec3};
use super::sweep::object_flags;
use super::{CliError, format, print_stdout, read_failed, write_failed};
use crate::analysis::map::{
    MapClass, MapError, MapOptions, MapReport, Shard, map_image, map_level_from, merge,
};
use crate::collide::{CollisionWorld, SlideSettings};
use crate::fileio::{self, WriteRules};
use crate::level::Level;
use clap::Args;
use glam::DVec3;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Exit code of a map that ran and found a stuck, jittering, fallen
/// through or embedded start point.
pub(crate) const EXIT_MAP_FINDINGS: i32 = 3;
/// Longest side of the PNG, pixels.
const PNG_MAX_SIDE_PX: u32 = 1024;
/// Largest map part read by `--merge`: a part lists every start point it
/// walked, about 200 bytes each in JSON.
pub(crate) const MAX_PART_BYTES: u64 = 256 * crate::fileio::MIB;
/// Worst spots listed in the text.
const WORST_LISTED: usize = 20;

/// Arguments of `collidoscope map`.
#[derive(Debug, Args)]
pub(crate) struct MapArgs {
    /// The level (.obj or .obj.gz).
    #[arg(required_unless_present = "merge")]
    level: Option<PathBuf>,
    /// Distance between start columns, metres.
    #[arg(
        long,
        default_value_t = 1.0,
        value_name = "M",
        allow_hyphen_values = true
    )]
    spacing: f64,
    /// Directions walked from each start point, evenly spaced.
    #[arg(long, default_value_t = 8, value_name = "N")]
    directions: u32,
    /// How long each walk lasts, seconds.
    #[arg(
        long,
        default_value_t = 1.0,
        value_name = "S",
        allow_hyphen_values = true
    )]
    seconds: f64,
    /// Walk only part I of N of the start points (I from 0); merge the parts' JSON with --merge.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// A point a player starts from, world space, metres (as `walk --from`);
    /// repeatable. Start points no walk from the starts nearest these
    /// reaches are `unreachable` and counted in no class. Without it, the
    /// main floor region (the largest set of starts whose walks reach each
    /// other both ways) is where players are.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
    spawn: Vec<DVec3>,
    /// Most frames the map may run (start points × directions × frames per
    /// walk, estimated before the walks start); a larger map is refused
    /// with its estimate.
    #[arg(long, value_name = "N", default_value_t = crate::analysis::map::DEFAULT_MAX_FRAMES)]
    max_frames: u64,
    /// Join the JSON of map parts (made with --shard) instead of mapping a level.
    #[arg(long, num_args = 1.., value_name = "PART.json", conflicts_with_all = ["level", "shard", "spawn"])]
    merge: Vec<PathBuf>,
    #[command(flatten)]
    character: CharacterArgs,
    /// Name of an object that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    non_colliding: Vec<String>,
    #[command(flatten)]
    import: ImportArgs,
    /// Print the map as JSON.
    #[arg(long)]
    json: bool,
    /// Also write a top-down image of the map.
    #[arg(long, value_name = "MAP.png")]
    png: Option<PathBuf>,
    /// Replace the --png file if it exists (never one of the command's inputs).
    #[arg(long, requires = "png")]
    force: bool,
}

/// `I/N` with `I < N`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("shard '{text}' must be I/N with 0 <= I < N, e.g. 0/4");
    let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let (index, count) = (
        i.trim().parse::<u32>().map_err(|_| bad())?,
        n.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// Runs the map (or the merge); `Ok(true)` when nothing was found.
pub(crate) fn run(a: &MapArgs) -> Result<bool, CliError> {
    let inputs: Vec<PathBuf> = a
        .level
        .iter()
        .chain(&a.character.settings)
        .chain(&a.merge)
        .cloned()
        .collect();
    let rules = WriteRules::new().force(a.force).inputs(&inputs);
    // Before the work: an image that could not be written fails fast.
    if let Some(png) = &a.png {
        fileio::check_target(png, &rules).map_err(|e| write_failed(png, e))?;
    }
    let (report, triangles) = match &a.level {
        Some(path) => {
            // Bad numbers are refused before a long import.
            let (settings, _) = options(a)?;
            let level = Level::load(path, &a.import.options())?;
            let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
            let world = level.world_with(&colliding);
            let report = map_world(a, &level.name, world)?;
            if let Some(png) = &a.png {
                write_png(&report, Some(world), png, &rules)?;
            }
            (report, Some(level.mesh.triangle_count()))
        }
        None => {
            let report = merge_files(&a.merge)?;
            if let Some(png) = &a.png {
                write_png(&report, None, png, &rules)?;
            }
            (report, None)
        }
    };
    let text = if a.json {
        serde_json::to_string_pretty(&report).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&report, triangles, a.png.is_some())
    };
    print_stdout(&text)?;
    Ok(report.clean())
}

fn map_world(a: &MapArgs, name: &str, world: CollisionWorld<'_>) -> Result<MapReport, CliError> {
    let (settings, opts) = options(a)?;
    let bar = progress_bar();
    let result = map_level_from(
        name,
        world,
        &settings,
        &opts,
        &a.spawn,
        &|done| bar.set_position((f64::from(done) * PROGRESS_STEPS as f64) as u64),
        &AtomicBool::new(false),
    );
    bar.finish_and_clear();
    result
        .map_err(|e| match e {
            // Flags that do not fit this level (a spacing too fine for its size).
            MapError::TooManyColumns { .. }
            | MapError::TooManyFrames { .. }
            | MapError::InvalidOptions(_) => CliError::Usage(e.to_string()),
            _ => CliError::Failed(e.to_string()),
        })?
        .ok_or_else(|| CliError::Failed("cancelled".into()))
}

/// Steps of the progress bar.
const PROGRESS_STEPS: u64 = 1000;

/// The map's progress on stderr, with the time left, when stderr is a
/// terminal (indicatif draws nothing otherwise, so pipes and CI logs stay
/// clean).
fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(PROGRESS_STEPS);
    let style = indicatif::ProgressStyle::with_template(
        "mapping {wide_bar} {percent:>3}%  {elapsed} gone, about {eta} left",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// The character and the map's options, checked.
fn options(a: &MapArgs) -> Result<(SlideSettings, MapOptions), CliError> {
    let settings = a.character.settings()?;
    let opts = MapOptions {
        spacing_m: a.spacing,
        directions: a.directions,
        seconds: a.seconds,
        shard: a.shard.unwrap_or(Shard::WHOLE),
        max_frames: a.max_frames,
    };
    opts.validate()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((settings, opts))
}

fn merge_files(paths: &[PathBuf]) -> Result<MapReport, CliError> {
    let mut parts = Vec::with_capacity(paths.len());
    for p in paths {
        let text = fileio::read_text_bounded(p, MAX_PART_BYTES, "a map part")
            .map_err(|e| read_failed(p, e))?;
        let part: MapReport = serde_json::from_str(&text).map_err(|e| {
            CliError::Failed(format!(
                "{}: not a map JSON from `map --json`: {e}",
                p.display()
            ))
        })?;
        parts.push(part);
    }
    merge(parts).map_err(|e| CliError::Failed(e.to_string()))
}

fn write_png(
    report: &MapReport,
    world: Option<CollisionWorld<'_>>,
    path: &Path,
    rules: &WriteRules<'_>,
) -> Result<(), CliError> {
    use image::ImageEncoder as _;
    let img = map_image(report, world, PNG_MAX_SIDE_PX);
    // Encoded straight into the temporary file; an encoder error (a full
    // disk) fails the write, and the old image stays.
    fileio::write_atomic(path, rules, |w| {
        image::codecs::png::PngEncoder::new(w)
            .write_image(
                &img.rgb,
                img.width,
                img.height,
                image::ExtendedColorType::Rgb8,
            )
            .map_err(|e| match e {
                image::ImageError::IoError(e) => e,
                other => std::io::Error::other(other.to_string()),
            })
    })
    .map_err(|e| write_failed(path, e))
}

fn text_report(r: &MapReport, triangles: Option<usize>, png: bool) -> String {
    let mut s = String::new();
    let tris = triangles.map_or(String::new(), |n| format!(" ({n} triangles)"));
    let _ = writeln!(s, "level       {}{tris}", r.level);
    let _ = writeln!(s, "{}", format::character_line(&r.settings));
    let shard = if r.shard.count > 1 {
        format!(", shard {}/{}", r.shard.index, r.shard.count)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "map         {} m spacing ({} × {} columns), {} start points{shard} ({} where it cannot stand, {} without ground under its whole footprint), {} directions × {} s",
        r.grid.spacing_m,
        r.grid.nx,
        r.grid.nz,
        r.start_points,
        r.unplaceable,
        r.no_footing,
        r.directions,
        r.seconds
    );
    let from = if r.spawns.is_empty() {
        "the main floor region".to_string()
    } else {
        let points: Vec<String> = r.spawns.iter().map(|&p| format::vec(p)).collect();
        format!("spawn {}", points.join(", "))
    };
    let _ = writeln!(
        s,
        "reach       {} of {} walked start points unreachable from {from} (in no class)",
        r.unreachable,
        r.spots.len()
    );
    let _ = writeln!(
        s,
        "ran         {} walks, {} frames in {:.0} ms",
        r.walks, r.frames, r.elapsed_ms
    );
    let counts: Vec<String> = MapClass::ALL
        .iter()
        .map(|&c| format!("{} {}", r.counts.get(c), c.name()))
        .collect();
    let _ = writeln!(s, "classes     {}", counts.join(", "));
    let worst = r.worst_spots(WORST_LISTED);
    if !worst.is_empty() {
        let _ = writeln!(
            s,
            "worst spots (start, walking direction, frame where it went wrong):"
        );
    }
    for spot in worst {
        let d = spot.direction;
        let _ = writeln!(
            s,
            "  {:<15} from {}  direction ({:.3}, {:.3})  frame {}  ended {}",
            spot.class.name(),
            format::vec(spot.start),
            d.x,
            d.z,
            spot.frame.map_or("-".into(), |f| f.to_string()),
            format::vec(spot.end),
        );
    }
    if png {
        let legend: Vec<String> = MapClass::ALL[1..]
            .iter()
            .map(|&c| {
                let [red, g, b] = c.colour();
                format!("{} #{red:02x}{g:02x}{b:02x}", c.name())
            })
            .collect();
        let _ = writeln!(
            s,
            "png legend  the level from above, grey by height (darker is lower, steep darker still); free columns plain, blocked a small dot; {}",
            legend.join(", ")
        );
    }
    if !r.clean() {
        let _ = writeln!(
            s,
            "            replay a spot: collidoscope walk LEVEL --from X,Y,Z --direction DX,DZ --seconds {}{}",
            r.seconds,
            body_flags(&r.settings)
        );
    }
    s
}

/// The `--shape` and `--engine` flags that walk the same body by the same
/// rules as `settings` (empty for the ellipsoid and Collidoscope's model).
pub(crate) fn body_flags(settings: &crate::collide::SlideSettings) -> String {
    use crate::geometry::shape::CharacterShape as S;
    let n = crate::math::short_number;
    let mut out = String::new();
    let shape = match settings.shape {
        S::Ellipsoid => None,
        S::Sphere { radius_m } => Some(format!("sphere:{}", n(radius_m))),
        S::Capsule { radius_m, height_m } => {
            Some(format!("capsule:{},{}", n(radius_m), n(height_m)))
        }
        S::Cylinder { radius_m, height_m } => {
            Some(format!("cylinder:{},{}", n(radius_m), n(height_m)))
        }
        S::Box {
            half_extents_m: [x, y, z],
        } => Some(format!("box:{},{},{}", n(x), n(y), n(z))),
    };
    if let Some(shape) = shape {
        out.push_str(&format!(" --shape {shape}"));
    }
    if !settings.character.engine.is_collidoscope() {
        out.push_str(&format!(" --engine {}", settings.character.engine.name()));
    }
    out
}
