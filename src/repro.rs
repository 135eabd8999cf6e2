//! Repro bundles: one move cut out of a level, small enough to attach to a
//! bug report, that reproduces the move's trace on its own.
//!
//! A bundle is a folder holding `level.obj` (the colliding triangles within
//! reach of the move, world space, Y up, metres), `settings.toml`,
//! `move.json` (the move and what it gave), a `README.md` and a ready
//! `repro_test.rs`. The solver only ever looks at triangles whose boxes the
//! swept ellipsoid reaches, so the cut-out gives the same trace as the whole
//! level; [`replay`] checks that it does.

mod text;

use crate::collide::{EndReason, MoveEnd, SlideMode, SlideSettings, SlideSolver, TraceDetail};
use crate::fileio::{self, WriteRules};
use crate::level::{ImportOptions, Level};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Extra room kept around the move's reach when none is given, metres.
pub const DEFAULT_MARGIN_M: f64 = 1.0;
/// Largest distance between the recorded and the replayed final position
/// that still counts as the same, metres.
pub const POSITION_TOLERANCE_M: f64 = 1e-9;

/// File names inside a bundle.
pub const LEVEL_FILE: &str = "level.obj";
/// The settings, as [`crate::settings_file::save`] writes them.
pub const SETTINGS_FILE: &str = "settings.toml";
/// The move and its recorded outcome.
pub const MOVE_FILE: &str = "move.json";
/// How to replay the bundle, for people.
pub const README_FILE: &str = "README.md";
/// A `#[test]` that replays the bundle through the library.
pub const TEST_FILE: &str = "repro_test.rs";

/// Why a bundle could not be written, read or run.
#[derive(Debug, thiserror::Error)]
pub enum ReproError {
    /// A file or folder could not be created, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The output folder already holds files.
    #[error("{}: folder is not empty (use --force to write into it)", .0.display())]
    NotEmpty(PathBuf),
    /// `move.json` is missing a field or is not JSON.
    #[error("{}: not a repro move: {message}", path.display())]
    BadMove {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// The bundle's settings file could not be read.
    #[error(transparent)]
    Settings(#[from] crate::settings_file::SettingsFileError),
    /// The bundle's level could not be imported.
    #[error(transparent)]
    Import(#[from] crate::level::ImportError),
    /// The solver refused the move (non-finite or out of range).
    #[error("the solver rejected the move (non-finite or out-of-range input)")]
    Rejected,
}

/// How a move ended, as a bundle records it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Where the probe centre ended, world space, metres.
    pub final_position: DVec3,
    /// Why the move ended.
    pub end_reason: EndReason,
    /// Iterations run, both passes.
    pub iterations: u32,
}

impl From<MoveEnd> for Outcome {
    fn from(end: MoveEnd) -> Self {
        Outcome {
            final_position: end.final_position,
            end_reason: end.end_reason,
            iterations: end.iterations,
        }
    }
}

/// `move.json`: the move (world space, metres) and what it gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReproMove {
    /// The level the triangles were cut from (its name, for people).
    pub source_level: String,
    /// Probe centre at the start.
    pub from: DVec3,
    /// The requested move.
    pub velocity: DVec3,
    /// The algorithm (also in the settings file; here for people).
    pub mode: SlideMode,
    /// The margin kept around the move's reach, metres.
    pub margin_m: f64,
    /// What the move gave on the whole level.
    pub expected: Outcome,
}

/// A bundle read back: its level, settings and move.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// The cut-out triangles.
    pub level: Level,
    /// The probe's settings.
    pub settings: SlideSettings,
    /// The move and its recorded outcome.
    pub repro: ReproMove,
}

/// Runs one move to its end; `None` when the solver refuses it.
pub fn run_move(
    level: &Level,
    colliding: Option<&[bool]>,
    settings: &SlideSettings,
    from: DVec3,
    velocity: DVec3,
) -> Option<Outcome> {
    let world = match colliding {
        Some(flags) => level.world_with(flags),
        None => level.world(),
    };
    let mut solver = SlideSolver::new(world, settings, from, velocity, TraceDetail::Summary)?;
    Some(solver.run_to_end().into())
}

/// The box every position of the move stays in, grown by the radii and
/// `margin_m`. Each iteration slides along a plane, which never lengthens
/// what is left of the move, so the centre stays within `|velocity| +
/// |gravity|` of `from` (a cube of that half-size, not just the straight
/// segment's box: a slide can turn sideways).
pub fn reach_box(from: DVec3, velocity: DVec3, settings: &SlideSettings, margin_m: f64) -> Aabb {
    let path_m = velocity.length() + settings.gravity_vec().length();
    let grow = DVec3::splat(path_m + margin_m) + settings.radii_vec() + settings.skin;
    let lo = from - grow;
    let hi = from + grow;
    // Rounded outwards to f32 so the box never shrinks below the f64 one.
    Aabb {
        min: Vec3::new(down(lo.x), down(lo.y), down(lo.z)),
        max: Vec3::new(up(hi.x), up(hi.y), up(hi.z)),
    }
}

fn down(x: f64) -> f32 {
    let f = x as f32;
    if f as f64 > x { f.next_down() } else { f }
}

fn up(x: f64) -> f32 {
    let f = x as f32;
    if (f as f64) < x { f.next_up() } else { f }
}

/// The colliding triangles of `mesh` whose boxes touch `reach`, with their
/// objects' names (objects left with no triangle are dropped), in the
/// original order; positions are copied bit for bit.
pub fn cut_out(mesh: &TriMesh, colliding: Option<&[bool]>, reach: &Aabb) -> TriMesh {
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    let mut objects = Vec::new();
    let mut new_index = vec![u32::MAX; mesh.positions.len()];
    for (o, object) in mesh.objects.iter().enumerate() {
        if colliding.is_some_and(|flags| !flags.get(o).copied().unwrap_or(true)) {
            continue;
        }
        let first = object.first_triangle as usize;
        let mut count = 0u32;
        for t in first..first + object.triangle_count as usize {
            if !overlaps(&mesh.tri_aabbs[t], reach) {
                continue;
            }
            let tri = mesh.triangles[t].map(|i| {
                let slot = &mut new_index[i as usize];
                if *slot == u32::MAX {
                    *slot = positions.len() as u32;
                    positions.push(mesh.positions[i as usize]);
                }
                *slot
            });
            triangles.push(tri);
            count += 1;
        }
        if count > 0 {
            objects.push((object.name.clone(), count));
        }
    }
    TriMesh::new(positions, triangles, objects)
}

fn overlaps(a: &Aabb, b: &Aabb) -> bool {
    a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// What to put in a bundle.
pub struct BundleRequest<'a> {
    /// The whole level.
    pub level: &'a Level,
    /// One flag per object: `false` for objects that do not collide (left out).
    pub colliding: Option<&'a [bool]>,
    /// The probe's settings.
    pub settings: &'a SlideSettings,
    /// Probe centre at the start, world space, metres.
    pub from: DVec3,
    /// The requested move, world space, metres.
    pub velocity: DVec3,
    /// Extra room around the move's reach, metres.
    pub margin_m: f64,
    /// Write into a folder that already holds files (replacing the
    /// bundle's files there).
    pub force: bool,
    /// Files never replaced, even with `force`: the command's inputs (the
    /// level's own file, [`Level::path`], is always one).
    pub inputs: &'a [PathBuf],
}

/// Runs the move on the whole level and writes the bundle into `dir`
/// (created when missing); returns the move as recorded and the number of
/// triangles kept.
pub fn write(dir: &Path, req: &BundleRequest<'_>) -> Result<(ReproMove, usize), ReproError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReproError::Io { path, source }
    };
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(io(dir))?;
        if !req.force && entries.next().is_some() {
            return Err(ReproError::NotEmpty(dir.to_path_buf()));
        }
    }
    let expected = run_move(
        req.level,
        req.colliding,
        req.settings,
        req.from,
        req.velocity,
    )
    .ok_or(ReproError::Rejected)?;
    let reach = reach_box(req.from, req.velocity, req.settings, req.margin_m);
    let mesh = cut_out(&req.level.mesh, req.colliding, &reach);
    let repro = ReproMove {
        source_level: req.level.name.clone(),
        from: req.from,
        velocity: req.velocity,
        mode: req.settings.mode,
        margin_m: req.margin_m,
        expected,
    };
    let mut inputs = req.inputs.to_vec();
    inputs.extend(req.level.path.clone());
    let rules = WriteRules::new().force(req.force).inputs(&inputs);
    let names = [LEVEL_FILE, SETTINGS_FILE, MOVE_FILE, README_FILE, TEST_FILE];
    // Every target checked before the first is written: a bundle file that
    // is a link or an input stops the bundle, not half of it.
    for name in names {
        let path = dir.join(name);
        fileio::check_target(&path, &rules).map_err(|e| io(&path)(e.into()))?;
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut obj = Vec::new();
    crate::analysis::generate::write_obj(&mesh, &mut obj).map_err(io(dir))?;
    let json = serde_json::to_string_pretty(&repro).expect("a move serialises") + "\n";
    let files = [
        (LEVEL_FILE, obj),
        (
            SETTINGS_FILE,
            crate::settings_file::to_text(req.settings, Path::new(SETTINGS_FILE))?.into_bytes(),
        ),
        (MOVE_FILE, json.into_bytes()),
        (
            README_FILE,
            text::readme(&repro, mesh.triangle_count()).into_bytes(),
        ),
        (TEST_FILE, text::rust_test(&repro).into_bytes()),
    ];
    // All written before any is put in place: a bundle that cannot be
    // written whole leaves the old one as it was.
    let mut staged = Vec::with_capacity(files.len());
    for (name, contents) in files {
        let path = dir.join(name);
        let file = fileio::stage(&path, &rules, |w| w.write_all(&contents))
            .map_err(|e| io(&path)(e.into()))?;
        staged.push((path, file));
    }
    for (path, file) in staged {
        file.commit().map_err(|e| io(&path)(e.into()))?;
    }
    Ok((repro, mesh.triangle_count()))
}

/// Largest `move.json` read (one move is a few hundred bytes).
pub const MAX_MOVE_BYTES: u64 = fileio::MIB;

/// Reads a bundle written by [`write()`]. Its three files must be regular
/// files in the folder itself (no symbolic links, FIFOs or devices), each
/// read within its cap: `move.json` [`MAX_MOVE_BYTES`], the settings
/// [`crate::settings_file::MAX_SETTINGS_BYTES`], the level
/// [`crate::level::import::DEFAULT_MAX_UNPACKED_BYTES`].
pub fn load(dir: &Path) -> Result<Bundle, ReproError> {
    let plain = |name: &str| {
        let path = dir.join(name);
        fileio::plain_file(&path).map_err(|e| ReproError::Io {
            path: path.clone(),
            source: e.into(),
        })?;
        Ok::<_, ReproError>(path)
    };
    let path = plain(MOVE_FILE)?;
    let text = fileio::read_text_bounded(&path, MAX_MOVE_BYTES, "a repro move").map_err(|e| {
        ReproError::Io {
            path: path.clone(),
            source: e.into(),
        }
    })?;
    let repro: ReproMove = serde_json::from_str(&text).map_err(|e| ReproError::BadMove {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let settings = crate::settings_file::load(&plain(SETTINGS_FILE)?)?;
    let level = Level::load(&plain(LEVEL_FILE)?, &ImportOptions::default())?;
    Ok(Bundle {
        level,
        settings,
        repro,
    })
}

/// Runs a bundle's move on its own triangles; the outcome and, when it is
/// not the recorded one, what differs (one phrase per difference).
pub fn replay(bundle: &Bundle) -> Result<(Outcome, Vec<String>), ReproError> {
    let r = &bundle.repro;
    let got = run_move(&bundle.level, None, &bundle.settings, r.from, r.velocity)
        .ok_or(ReproError::Rejected)?;
    Ok((got, differences(&r.expected, &got)))
}

/// What differs between a recorded and a replayed outcome.
pub fn differences(expected: &Outcome, got: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    if got.end_reason != expected.end_reason {
        out.push(format!(
            "end reason {:?}, recorded {:?}",
            got.end_reason, expected.end_reason
        ));
    }
    let off_m = got.final_position.distance(expected.final_position);
    if off_m.is_nan() || off_m > POSITION_TOLERANCE_M {
        out.push(format!(
            "final position {:?} is {off_m:e} m from the recorded {:?}",
            got.final_position.to_array(),
            expected.final_position.to_array()
        ));
    }
    if got.iterations != expected.iterations {
        out.push(format!(
            "{} iterations, recorded {}",
            got.iterations, expected.iterations
        ));
    }
    out
}

#[cfg(test)]
mod tests;
