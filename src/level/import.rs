//! OBJ import (crate `obj`): faces of every form, negative indices, `.obj.gz`,
//! concave n-gons triangulated in their own plane, `o` / `g` kept as objects,
//! up-axis and unit-scale conversion to Y-up metres.
//!
//! CONTRACT (skeleton): the import helper replaces the bodies.

use crate::mesh::TriMesh;
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

/// How to convert a file into the tool's world (Y up, metres).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportOptions {
    /// The file's up axis.
    pub up: UpAxis,
    /// Multiplies every coordinate (e.g. 0.0254 for inches), finite and > 0.
    pub scale: f64,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            up: UpAxis::Y,
            scale: 1.0,
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
    /// Zero-area triangles dropped.
    pub degenerate_triangles_dropped: usize,
    /// Duplicate triangles dropped.
    pub duplicate_triangles_dropped: usize,
    /// Recoverable problems, with lines.
    pub warnings: Vec<ImportWarning>,
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

/// Imports an `.obj` or `.obj.gz` file (gzip detected by its magic bytes).
pub fn import_obj_file(
    path: &Path,
    options: &ImportOptions,
    progress: &(dyn Fn(f32) + Sync),
) -> Result<(TriMesh, ImportReport), ImportError> {
    let _ = (path, options, progress);
    unimplemented!("import")
}

/// Imports OBJ text already in memory; `path` labels errors.
pub fn import_obj_bytes(
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
) -> Result<(TriMesh, ImportReport), ImportError> {
    let _ = (bytes, path, options);
    unimplemented!("import")
}
