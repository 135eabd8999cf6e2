//! OBJ import: reads a Wavefront `.obj` (or gzipped `.obj.gz`) file into a
//! world-space [`TriMesh`] (Y up, metres, `f32`).
//!
//! Faces of every form (`v`, `v/vt`, `v//vn`, `v/vt/vn`) and negative
//! (relative) indices are accepted; n-gons, concave ones included, are
//! triangulated in their own plane (see `triangulate`); `o` / `g` statements
//! become named objects; the up-axis and unit-scale options convert the file
//! into the tool's world. Malformed input is an [`ImportError`] naming the
//! file and the 1-based line; recoverable problems (zero-area or duplicate
//! triangles, ignored statements) are listed in the [`ImportReport`].
//!
//! The parser is our own pass over the bytes (`parse`; large files are cut
//! into line-aligned chunks parsed on rayon's threads and merged into
//! exactly what one pass gives, see `parse/chunks`) rather than
//! the `obj` crate 0.10, which does not serve here: its faces carry no line
//! (every face error and warning needs one), it wraps an invalid relative
//! index such as `-4` after one vertex to 18446744073709551613 instead of
//! failing, reports 0-based lines, ignores zero texture indices, rejects `p`
//! in strict mode, and drops an object's faces when a bare `g` precedes the
//! next `o` (all checked on 0.10.2). It also allocates two strings per line
//! and a vector per face: on a 1M-triangle file, `obj`'s parse alone takes
//! ~1.6x the CPU time of this whole import (numbers in `tests/library/import_levels.rs`).
//! `obj` stays as the reference the tests cross-check this parser against.

mod build;
mod decode;
mod dedupe;
mod parse;
mod report;
mod triangulate;

use crate::mesh::TriMesh;
/// Exact-position welding, shared with the mesh hygiene analysis.
pub(crate) use dedupe::weld_ids;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Which axis is up in the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UpAxis {
    /// Y up (Blender OBJ export, three.js, Godot): kept as is.
    #[default]
    Y,
    /// Z up (Quake, Hammer, Unreal): rotated to Y up.
    Z,
}

/// What makes a new object, besides the file itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectsBy {
    /// `o` and `g` statements (the OBJ convention).
    #[default]
    Group,
    /// `usemtl` only: one object per material, named after it. A level
    /// exported as one object still gets its water, slime or trigger
    /// surfaces as objects that can be switched off.
    Material,
    /// Both: an object per `o` / `g` and material in force, `name:material`.
    GroupAndMaterial,
}

/// How to convert a file into the tool's world (Y up, metres).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ImportOptions {
    /// The file's up axis.
    pub up: UpAxis,
    /// Multiplies every coordinate (e.g. 0.0254 for inches), finite and > 0.
    pub scale: f64,
    /// What starts a new object.
    pub objects_by: ObjectsBy,
    /// Largest text a gzipped file may unpack to, in bytes: a small
    /// compressed file can expand without bound (a "zip bomb"), and the
    /// text is held in memory while it is parsed.
    pub max_unpacked_bytes: u64,
    /// Heightmap images (`.png`): metres between neighbouring pixels in x
    /// and z, finite and > 0.
    pub heightmap_spacing: f64,
    /// Heightmap images (`.png`): the height of a white pixel, metres
    /// (black is 0), finite.
    pub heightmap_height_scale: f64,
}

/// The default [`ImportOptions::max_unpacked_bytes`]: 1 GiB, about 30
/// million triangles of OBJ text (the 331k-triangle conference level
/// unpacks to 12 MB), yet a bound on what a hostile file can claim: gzip
/// expands up to ~1000x, so a 14 MB file may claim 14 GB.
pub const DEFAULT_MAX_UNPACKED_BYTES: u64 = 1 << 30;

/// Object names longer than this (in characters) are cut, with a warning:
/// names are shown in lists and reports, and a 65,536-character name once
/// made `info` panic.
pub const MAX_NAME_CHARS: usize = 200;

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            up: UpAxis::Y,
            scale: 1.0,
            objects_by: ObjectsBy::Group,
            max_unpacked_bytes: DEFAULT_MAX_UNPACKED_BYTES,
            heightmap_spacing: 1.0,
            heightmap_height_scale: 10.0,
        }
    }
}

impl ImportOptions {
    /// A Quake-engine map converted to OBJ (LibreQuake's maps, a BSP
    /// compiler's output): Z up, one unit an inch (0.0254 m), and an object
    /// per group and material, so that liquids and triggers, which such maps
    /// mark only by their texture, can be named (see
    /// [`crate::collide::QUAKE_NON_COLLIDING`]). The command line's
    /// `--up z --scale 0.0254 --objects-by group-and-material`.
    pub fn quake_map() -> Self {
        ImportOptions {
            up: UpAxis::Z,
            scale: 0.0254,
            objects_by: ObjectsBy::GroupAndMaterial,
            ..ImportOptions::default()
        }
    }
}

/// A recoverable problem: the level imports, and the report lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportWarning {
    /// 1-based line in the file, when one line is to blame.
    pub line: Option<usize>,
    /// What happened.
    pub message: String,
}

/// What the import did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportReport {
    /// Vertex positions read.
    pub vertices: usize,
    /// Faces read (before triangulation).
    pub faces: usize,
    /// Corners of those faces: a face of k corners gives at most k − 2
    /// triangles, and every one of them is accounted for below, so
    /// `corners − 2 · faces = triangles + collinear_corners_removed +
    /// degenerate_triangles_dropped + duplicate_triangles_dropped`.
    #[serde(default)]
    pub corners: usize,
    /// Triangles kept.
    pub triangles: usize,
    /// Faces with more than three corners that were triangulated.
    pub ngons_triangulated: usize,
    /// `l` elements ignored.
    pub lines_ignored: usize,
    /// `p` elements ignored.
    pub points_ignored: usize,
    /// `mtllib` / `usemtl` statements ignored.
    pub material_statements_ignored: usize,
    /// Corners of n-gons that gave no triangle: repeating the corner
    /// before them, in line with their neighbours (each would have made a
    /// zero-area sliver), or forced out of a self-intersecting face.
    #[serde(default)]
    pub collinear_corners_removed: usize,
    /// Zero-area triangles dropped, decided in the file's own coordinates
    /// (before `scale`), so the count does not depend on the unit.
    pub degenerate_triangles_dropped: usize,
    /// Duplicate triangles dropped.
    pub duplicate_triangles_dropped: usize,
    /// Faces with a usable `vn` normal at every corner (the file's
    /// normals; collision does not use them).
    #[serde(default)]
    pub faces_with_normals: usize,
    /// Of those, the faces wound against their normals: the normal of
    /// their corners' order (counter-clockwise seen from the front) points
    /// away from the sum of their `vn` normals.
    #[serde(default)]
    pub faces_against_normals: usize,
    /// Recoverable problems, with lines.
    pub warnings: Vec<ImportWarning>,
    /// How each triangle kept compares with its face's `vn` normals, in
    /// the mesh's triangle order; empty when the file has no normals.
    #[serde(skip)]
    pub triangle_normals: Vec<NormalAgreement>,
}

/// How a triangle's winding compares with the `vn` normals of its face.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NormalAgreement {
    /// No usable normal at some corner, or a face with no area.
    #[default]
    Unknown,
    /// The winding's normal and the normals' sum point the same way.
    Agrees,
    /// They point opposite ways: the face is wound against its normals.
    Against,
}

/// Why a level could not be imported. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Bad content on a given line.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file as a whole is unusable (empty, binary, no faces, bad options).
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Imports an `.obj` or `.obj.gz` file (gzip detected by its magic bytes):
/// a regular file of at most [`ImportOptions::max_unpacked_bytes`], whose
/// text, once unpacked, is also at most that.
///
/// `progress` receives increasing fractions in `[0, 1)` as the file is
/// decompressed, parsed and triangulated; it is called a few hundred times
/// at most, one call at a time, but not always from the calling thread (the
/// parse runs on rayon's threads).
pub fn import_obj_file(
    path: &Path,
    options: &ImportOptions,
    progress: &(dyn Fn(f32) + Sync),
) -> Result<(TriMesh, ImportReport), ImportError> {
    check_options(path, options)?;
    // Plain text is held whole as it is parsed, as gzip's unpacked text is:
    // the same cap bounds both.
    let raw = crate::fileio::read_bounded(path, options.max_unpacked_bytes, "a level file")
        .map_err(|e| ImportError::Io {
            path: path.to_path_buf(),
            source: e.into(),
        })?;
    progress(0.0);
    import_impl(&raw, path, options, progress)
}

/// Imports OBJ text already in memory (plain or gzipped); `path` labels errors.
pub fn import_obj_bytes(
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
) -> Result<(TriMesh, ImportReport), ImportError> {
    check_options(path, options)?;
    import_impl(bytes, path, options, &|_| {})
}

/// Share of the progress bar given to gunzip, when the file is compressed.
const GUNZIP_SHARE: f32 = 0.3;
/// Share of what remains given to parsing; triangulation takes the rest.
const PARSE_SHARE: f32 = 0.75;

fn import_impl(
    raw: &[u8],
    path: &Path,
    options: &ImportOptions,
    progress: &(dyn Fn(f32) + Sync),
) -> Result<(TriMesh, ImportReport), ImportError> {
    let ctx = Ctx { path, options };
    let (text, start) = if decode::is_gzip(raw) {
        let text = decode::gunzip(raw, &ctx, &|f| progress(f * GUNZIP_SHARE))?;
        (std::borrow::Cow::Owned(text), GUNZIP_SHARE)
    } else {
        (std::borrow::Cow::Borrowed(raw), 0.0)
    };
    let text = decode::check_text(&text, &ctx)?;
    let text = decode::mac_line_breaks(text);
    let parse_span = (1.0 - start) * PARSE_SHARE;
    let parsed = parse::parse(&text, &ctx, &|f| progress(start + f * parse_span))?;
    let build_start = start + parse_span;
    let build_span = (1.0 - build_start) * 0.99;
    build::build(parsed, &ctx, &|f| progress(build_start + f * build_span))
}

/// Rejects options that would make every coordinate meaningless.
fn check_options(path: &Path, options: &ImportOptions) -> Result<(), ImportError> {
    if options.scale.is_finite() && options.scale > 0.0 {
        Ok(())
    } else {
        Err(ImportError::Invalid {
            path: path.to_path_buf(),
            message: format!(
                "unit scale must be finite and greater than zero, got {}",
                options.scale
            ),
        })
    }
}

/// What every stage needs to convert and to name errors.
struct Ctx<'a> {
    path: &'a Path,
    options: &'a ImportOptions,
}

impl Ctx<'_> {
    fn syntax(&self, line: usize, message: impl Into<String>) -> ImportError {
        ImportError::Syntax {
            path: self.path.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    fn invalid(&self, message: impl Into<String>) -> ImportError {
        ImportError::Invalid {
            path: self.path.to_path_buf(),
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests;
