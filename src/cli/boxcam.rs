//! `collidoscope boxcam LEVEL`: the box camera's four-level test ("Snok",
//! seed document 004) at one position (`--at`), or along a path with one box
//! per segment (`--path`: a JSON array of `[x, y, z]` points, or the output
//! of `walk --json`, whose frame positions make the path). World space,
//! metres.

use super::args::{ImportArgs, parse_radii, parse_vec3};
use super::{CliError, format, print_stdout};
use crate::analysis::boxcam::{BoxCamReport, BoxCamera, ChainReport, test_box, test_chain};
use crate::level::Level;
use clap::Args;
use glam::DVec3;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Largest path file read, bytes (a long `walk --json` trace).
const MAX_PATH_FILE_BYTES: u64 = 256 << 20;

/// Arguments of `collidoscope boxcam`.
#[derive(Debug, Args)]
pub(crate) struct BoxcamArgs {
    /// The level (.obj or .obj.gz).
    level: PathBuf,
    /// Centre of the camera box, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "path", conflicts_with = "path")]
    at: Option<DVec3>,
    /// A path: JSON array of [x, y, z] points, or a `walk --json` output; one box per segment.
    #[arg(long, value_name = "FILE.json")]
    path: Option<PathBuf>,
    /// Half sizes of the box along x, y, z, metres (the default probe's radii).
    #[arg(long, value_name = "HX,HY,HZ", value_parser = parse_radii, allow_hyphen_values = true,
          default_value = "0.4,0.9,0.4")]
    half_extents: DVec3,
    /// Print the full report (every triangle that reached level 3) as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    import: ImportArgs,
}

#[derive(Serialize)]
struct BoxJson<'a> {
    level: &'a str,
    #[serde(flatten)]
    report: &'a BoxCamReport,
}

#[derive(Serialize)]
struct ChainJson<'a> {
    level: &'a str,
    #[serde(flatten)]
    report: &'a ChainReport,
}

pub(crate) fn run(a: &BoxcamArgs) -> Result<(), CliError> {
    // The path file is read before the (long) import.
    let path = a.path.as_deref().map(read_path).transpose()?;
    let level = Level::load(&a.level, &a.import.options())?;
    let text = match (path, a.at) {
        (Some(points), _) => {
            let report = test_chain(level.mesh(), &points, a.half_extents)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            if a.json {
                pretty(&ChainJson {
                    level: &level.name,
                    report: &report,
                })?
            } else {
                chain_text(&report)
            }
        }
        (None, Some(at)) => {
            let report = test_box(level.mesh(), BoxCamera::around(at, a.half_extents));
            if a.json {
                pretty(&BoxJson {
                    level: &level.name,
                    report: &report,
                })?
            } else {
                box_text(&report)
            }
        }
        (None, None) => return Err(CliError::Usage("give --at X,Y,Z or --path FILE".into())),
    };
    print_stdout(&text)
}

/// Pretty JSON with a final newline.
fn pretty<T: Serialize>(value: &T) -> Result<String, CliError> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// One element of a path file: a point `[x, y, z]`, or anything else
/// (reported by its index). Only this element is held while it is read.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum MaybePoint {
    Point([f64; 3]),
    Other(serde::de::IgnoredAny),
}

impl MaybePoint {
    /// The point, when it is three numbers within the solver's range
    /// (±[`crate::collide::MAX_MAGNITUDE_M`]: farther out, a crossing is
    /// found in round-off, not in the level).
    fn point(&self) -> Option<DVec3> {
        match self {
            MaybePoint::Point(a) => {
                let p = DVec3::from(*a);
                (p.is_finite() && p.abs().max_element() <= crate::collide::MAX_MAGNITUDE_M)
                    .then_some(p)
            }
            MaybePoint::Other(_) => None,
        }
    }
}

/// The parts of a `walk --json` output a path needs: every other field is
/// skipped while reading, so a large walk file is not held as a JSON tree.
#[derive(serde::Deserialize)]
struct WalkFile {
    frames: Option<Vec<WalkFrame>>,
    walk: Option<WalkFrames>,
}

#[derive(serde::Deserialize)]
struct WalkFrames {
    frames: Vec<WalkFrame>,
}

#[derive(serde::Deserialize)]
struct WalkFrame {
    before: Option<FrameEnd>,
    after: Option<FrameEnd>,
}

#[derive(serde::Deserialize)]
struct FrameEnd {
    position: Option<MaybePoint>,
}

fn frame_point(end: &Option<FrameEnd>) -> Option<DVec3> {
    end.as_ref()?.position.as_ref()?.point()
}

/// Reads a path: an array of points, or a `walk --json` object (the first
/// frame's start, then every frame's end).
fn read_path(path: &Path) -> Result<Vec<DVec3>, CliError> {
    let fail = |why: String| CliError::Failed(format!("{}: {why}", path.display()));
    let text = crate::fileio::read_text_bounded(path, MAX_PATH_FILE_BYTES, "a path file")
        .map_err(|e| fail(e.to_string()))?;
    let bad_json = |e: serde_json::Error| fail(crate::quote::bounded_message(&e.to_string()));
    if text.trim_start().starts_with('[') {
        let items: Vec<MaybePoint> = serde_json::from_str(&text).map_err(bad_json)?;
        return items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.point().ok_or_else(|| {
                    fail(format!(
                        "point {i} is not [x, y, z] within ±{:e} m",
                        crate::collide::MAX_MAGNITUDE_M
                    ))
                })
            })
            .collect();
    }
    let not_a_path =
        || fail("neither an array of [x, y, z] points nor a `walk --json` output".into());
    let file: WalkFile = match serde_json::from_str(&text) {
        Ok(f) => f,
        Err(e) if e.is_syntax() || e.is_eof() => return Err(bad_json(e)),
        Err(_) => return Err(not_a_path()),
    };
    let frames = file
        .frames
        .or(file.walk.map(|w| w.frames))
        .ok_or_else(not_a_path)?;
    let mut points = Vec::with_capacity(frames.len() + 1);
    if let Some(first) = frames.first() {
        points.push(
            frame_point(&first.before).ok_or_else(|| fail("frame 0 has no position".into()))?,
        );
    }
    for (i, f) in frames.iter().enumerate() {
        points
            .push(frame_point(&f.after).ok_or_else(|| fail(format!("frame {i} has no position")))?);
    }
    Ok(points)
}

fn box_text(r: &BoxCamReport) -> String {
    let mut s = String::new();
    let b = &r.camera;
    let _ = writeln!(
        s,
        "box min {} max {}",
        format::vec(b.min),
        format::vec(b.max)
    );
    let _ = writeln!(
        s,
        "objects passing level 1: {}; triangles rejected at level 1: {}, 2: {}, 3: {}, 4: {}; colliding: {}",
        r.objects_passed.len(),
        r.rejected[0],
        r.rejected[1],
        r.rejected[2],
        r.rejected[3],
        r.colliding
    );
    for t in r.triangles.iter().filter(|t| t.rejected_at.is_none()) {
        let points: Vec<String> = t.hits.iter().map(|h| format::vec(h.point)).collect();
        let _ = writeln!(
            s,
            "triangle {} (object {}): edges {:?} cross it at {}",
            t.triangle,
            t.object,
            t.hits.iter().map(|h| h.edge).collect::<Vec<_>>(),
            points.join(", ")
        );
    }
    s
}

fn chain_text(c: &ChainReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} segments; one box around the path passes {} triangles to level 3, the per-segment boxes {}",
        c.segments.len(),
        c.whole_box_candidates,
        c.segment_candidates
    );
    let _ = writeln!(
        s,
        "colliding: {} triangles, on {} segments",
        c.colliding_triangles, c.colliding_segments
    );
    for seg in c.segments.iter().filter(|g| g.report.colliding > 0) {
        let first = seg
            .report
            .points()
            .next()
            .map(format::vec)
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "segment {} {} -> {}: {} triangles, first point {}",
            seg.index,
            format::vec(seg.from),
            format::vec(seg.to),
            seg.report.colliding,
            first
        );
    }
    s
}
