//! The parallel parse: the file cut into line-aligned chunks, parsed on
//! rayon's threads, then merged into exactly what one pass would give.
//!
//! Why: parsing is about a third of a big level's load, one line at a time
//! on one core. Lines are nearly independent, so chunks of the file can be
//! parsed at the same time; only a little of a line's meaning depends on
//! the lines above it, and that is kept local or deferred while parsing and
//! settled by the merge, in file order:
//!
//! - Line numbers and the counts of `v`, `vt` and `vn` start from zero in
//!   each chunk; the merge adds the totals of the chunks above.
//! - A relative index is resolved within its chunk when the chunk has
//!   enough vertices above it (and offset by the merge), or else left
//!   pending and checked by the merge against the whole file above it.
//! - `o` / `g` statements are recorded with their face position and the
//!   objects and runs are worked out by the merge, as the single pass did
//!   face by face: only the first face after a name statement can start a
//!   run.
//! - Warnings are counted per chunk and appended in file order, keeping the
//!   first of each kind as one pass would have.
//! - Errors: the merge walks the chunks in order, and a chunk's pending
//!   indices before its own error (pending ones always come first within
//!   it), so the first error in file order wins, with its 1-based line.
//!
//! Chunks end only after a newline that ends a statement (not in a line
//! continued by a backslash), so no statement is cut. Files over 4 GiB are
//! parsed in one chunk, where the vertex, corner and line counts that the
//! parser checks against `u32` are the whole file's.

use super::super::report::WarningKind;
use super::super::{Ctx, ImportError, ObjectsBy};
use super::{
    Chunk, NO_NORMAL, NameStatement, Parsed, RefKind, Run, continuation, note_max, object_name,
    parse_chunk, resolve_relative,
};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes per chunk: dozens of chunks in a big level, for work stealing to
/// balance (vertex and face lines do not cost the same per byte), and
/// large enough that the per-chunk cost (a few vectors) does not show.
pub(super) const CHUNK_LEN: usize = 1 << 19;

/// Parses `text` in chunks of about `chunk_len` bytes (at least one line).
pub(super) fn parse(
    text: &[u8],
    ctx: &Ctx,
    progress: &(dyn Fn(f32) + Sync),
    chunk_len: usize,
) -> Result<Parsed, ImportError> {
    let bounds = chunk_bounds(text, chunk_len.max(1));
    let progress = Progress {
        total: text.len(),
        done: AtomicUsize::new(0),
        last: Mutex::new(0.0),
        report: progress,
    };
    // The first chunk with an error: the chunks after it do not matter.
    let failed = AtomicUsize::new(usize::MAX);
    let chunks: Vec<Chunk> = bounds
        .par_windows(2)
        .enumerate()
        .map(|(i, w)| {
            if failed.load(Ordering::Relaxed) < i {
                return Chunk::default();
            }
            let chunk = parse_chunk(&text[w[0]..w[1]], ctx, i == 0, &mut |bytes| {
                progress.add(bytes)
            });
            if chunk.error.is_some() {
                failed.fetch_min(i, Ordering::Relaxed);
            }
            chunk
        })
        .collect();
    merge(chunks, ctx)
}

/// Where chunks start, then `text.len()`: after newlines ending statements,
/// about `chunk_len` apart.
fn chunk_bounds(text: &[u8], chunk_len: usize) -> Vec<usize> {
    let mut bounds = vec![0];
    if text.len() <= u32::MAX as usize {
        let mut at = 0;
        while text.len() - at > chunk_len {
            match next_bound(text, at, at + chunk_len) {
                Some(next) if next < text.len() => {
                    bounds.push(next);
                    at = next;
                }
                _ => break,
            }
        }
    }
    bounds.push(text.len());
    bounds
}

/// The first position after `from` that follows a newline ending a
/// statement; `line_start`, before `from`, starts a line.
fn next_bound(text: &[u8], line_start: usize, from: usize) -> Option<usize> {
    let mut newline = from + text[from..].iter().position(|&b| b == b'\n')?;
    let mut start = text[line_start..newline]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(line_start, |i| line_start + i + 1);
    while continuation(&text[start..newline]).is_some() {
        start = newline + 1;
        newline = start + text[start..].iter().position(|&b| b == b'\n')?;
    }
    Some(newline + 1)
}

/// Progress shared by the chunks: the fraction of bytes read, reported in
/// increasing order only.
struct Progress<'a> {
    total: usize,
    done: AtomicUsize,
    last: Mutex<f32>,
    report: &'a (dyn Fn(f32) + Sync),
}

impl Progress<'_> {
    fn add(&self, bytes: usize) {
        if bytes == 0 {
            return;
        }
        let done = self.done.fetch_add(bytes, Ordering::Relaxed) + bytes;
        let fraction = done as f32 / self.total as f32 * 0.999;
        // Under the lock so that calls cannot overtake each other.
        if let Ok(mut last) = self.last.lock()
            && fraction > *last
        {
            *last = fraction;
            (self.report)(fraction);
        }
    }
}

/// What the chunks above a chunk hold.
#[derive(Clone, Copy, Debug, Default)]
struct Offsets {
    lines: usize,
    vertices: usize,
    texcoords: u64,
    normals: u64,
    faces: usize,
    corners: usize,
}

impl Offsets {
    fn after(self, chunk: &Chunk) -> Offsets {
        Offsets {
            lines: self.lines + chunk.lines,
            vertices: self.vertices + chunk.positions.len(),
            texcoords: self.texcoords + chunk.texcoords,
            normals: self.normals + chunk.normals,
            faces: self.faces + chunk.face_lines.len(),
            corners: self.corners + chunk.corners.len(),
        }
    }

    fn defined(&self, kind: RefKind) -> u64 {
        match kind {
            RefKind::Vertex => self.vertices as u64,
            RefKind::Texture => self.texcoords,
            RefKind::Normal => self.normals,
        }
    }
}

/// The chunks, in file order, as one pass would have parsed them.
fn merge(chunks: Vec<Chunk>, ctx: &Ctx) -> Result<Parsed, ImportError> {
    let mut starts = Vec::with_capacity(chunks.len());
    let mut at = Offsets::default();
    for chunk in &chunks {
        starts.push(at);
        for p in &chunk.pending {
            let defined = at.defined(p.kind) + p.defined;
            if let Err(message) = resolve_relative(p.magnitude, defined, p.kind) {
                return Err(ctx.syntax(at.lines + p.line, message));
            }
        }
        if let Some((line, message)) = &chunk.error {
            return Err(ctx.syntax(at.lines + line, message.clone()));
        }
        at = at.after(chunk);
    }
    let total = at;
    let part = |i: usize| (&chunks[i], starts[i]);
    let positions = concat(
        chunks.iter().map(|c| c.positions.len()),
        total.vertices,
        |i, out| out.copy_from_slice(&chunks[i].positions),
    );
    let shape_positions = concat(
        chunks.iter().map(|c| c.shape_positions.len()),
        chunks.iter().map(|c| c.shape_positions.len()).sum(),
        |i, out| out.copy_from_slice(&chunks[i].shape_positions),
    );
    let corners = concat(
        chunks.iter().map(|c| c.corners.len()),
        total.corners,
        |i, out| {
            let (c, s) = part(i);
            out.copy_from_slice(&c.corners);
            for &at in &c.relative {
                out[at as usize] += s.vertices as u32;
            }
            for p in c.pending.iter().filter(|p| p.kind == RefKind::Vertex) {
                // Checked above: at least `magnitude` vertices precede it.
                out[p.corner as usize] = (s.vertices as u64 + p.defined - p.magnitude) as u32;
            }
        },
    );
    let normals = concat(
        chunks.iter().map(|c| c.normal_vectors.len()),
        chunks.iter().map(|c| c.normal_vectors.len()).sum(),
        |i, out| out.copy_from_slice(&chunks[i].normal_vectors),
    );
    // Normal indices as the vertex ones, when any corner has one.
    let corner_normals = if chunks.iter().all(|c| c.corner_normals.is_empty()) {
        Vec::new()
    } else {
        concat(
            chunks.iter().map(|c| c.corners.len()),
            total.corners,
            |i, out| {
                let (c, s) = part(i);
                out.fill(NO_NORMAL);
                out[..c.corner_normals.len()].copy_from_slice(&c.corner_normals);
                for &at in &c.relative_normals {
                    let n = u64::from(out[at as usize]) + s.normals;
                    out[at as usize] = u32::try_from(n).unwrap_or(NO_NORMAL);
                }
                for p in c.pending.iter().filter(|p| p.kind == RefKind::Normal) {
                    // Checked above: at least `magnitude` normals precede it.
                    let n = s.normals + p.defined - p.magnitude;
                    out[p.corner as usize] = u32::try_from(n).unwrap_or(NO_NORMAL);
                }
            },
        )
    };
    // Every chunk's face starts begin with its own 0; only the first is kept.
    let face_starts = concat(
        chunks
            .iter()
            .enumerate()
            .map(|(i, c)| c.face_starts.len().saturating_sub(usize::from(i > 0))),
        total.faces + 1,
        |i, out| {
            let (c, s) = part(i);
            let skip = c.face_starts.len() - out.len();
            for (o, &f) in out.iter_mut().zip(&c.face_starts[skip..]) {
                *o = f + s.corners as u32;
            }
        },
    );
    let face_lines = concat(
        chunks.iter().map(|c| c.face_lines.len()),
        total.faces,
        |i, out| {
            let (c, s) = part(i);
            for (o, &line) in out.iter_mut().zip(&c.face_lines) {
                *o = (line as usize + s.lines).min(u32::MAX as usize) as u32;
            }
        },
    );
    let mut names = Names {
        by: ctx.options.objects_by,
        ..Names::default()
    };
    let statements = chunks.iter().zip(&starts).flat_map(|(c, s)| {
        c.names
            .iter()
            .map(move |(face, statement)| (s.faces + *face as usize, statement))
    });
    names.replay(statements, total.faces);
    let mut parsed = Parsed {
        positions,
        shape_positions,
        corners,
        face_starts,
        face_lines,
        normals,
        corner_normals,
        runs: names.runs,
        object_names: names.names,
        ..Parsed::default()
    };
    let (mut max_texcoord_ref, mut max_normal_ref) = ((0, 0), (0, 0));
    for (chunk, start) in chunks.into_iter().zip(&starts) {
        parsed.lines_ignored += chunk.lines_ignored;
        parsed.points_ignored += chunk.points_ignored;
        parsed.material_statements_ignored += chunk.material_statements_ignored;
        let (max, line) = chunk.max_texcoord_ref;
        note_max(&mut max_texcoord_ref, max, start.lines + line);
        let (max, line) = chunk.max_normal_ref;
        note_max(&mut max_normal_ref, max, start.lines + line);
        parsed.warnings.append(chunk.warnings, start.lines);
    }
    let dangling = [
        (max_texcoord_ref, total.texcoords, "texture", "vt"),
        (max_normal_ref, total.normals, "normal", "vn"),
    ];
    for ((max, line), defined, what, keyword) in dangling {
        if max > defined {
            parsed
                .warnings
                .push(WarningKind::AttributeIndex, Some(line), || {
                    format!(
                        "{what} index {max} refers past the last `{keyword}` \
                         ({defined} in the file); ignored, collision uses positions only"
                    )
                });
        }
    }
    Ok(parsed)
}

/// A vector of `len` elements made of consecutive pieces `sizes` long
/// (adding up to `len`), piece `i` written by `fill(i, piece)`, in parallel.
fn concat<T: Default + Clone + Send>(
    sizes: impl Iterator<Item = usize>,
    len: usize,
    fill: impl Fn(usize, &mut [T]) + Sync,
) -> Vec<T> {
    // Zeroed memory for integers: the pages are touched in parallel below.
    let mut out = vec![T::default(); len];
    let mut pieces = Vec::new();
    let mut rest = out.as_mut_slice();
    for size in sizes {
        let (piece, tail) = rest.split_at_mut(size);
        pieces.push(piece);
        rest = tail;
    }
    pieces
        .into_par_iter()
        .enumerate()
        .for_each(|(i, piece)| fill(i, piece));
    out
}

/// Object names and runs, worked out from the `o` / `g` (and `usemtl`)
/// statements as one pass over the faces would.
#[derive(Default)]
struct Names {
    by: ObjectsBy,
    object: Option<String>,
    group: Option<String>,
    /// The material in force (`usemtl` statements are only recorded when
    /// objects are split by material).
    material: Option<String>,
    changed: bool,
    current: Option<u32>,
    ids: HashMap<String, u32>,
    names: Vec<String>,
    runs: Vec<Run>,
}

impl Names {
    /// Applies `statements` (the number of faces above each, and the
    /// statement) in file order to a file of `faces` faces.
    fn replay<'s>(
        &mut self,
        statements: impl Iterator<Item = (usize, &'s NameStatement)>,
        faces: usize,
    ) {
        self.changed = true;
        // Only the first face of the file and the first face after a name
        // statement can start a run: between them the names do not change.
        let mut next_face = 0;
        for (face, statement) in statements {
            if face > next_face {
                self.enter(next_face);
                next_face = face;
            }
            match statement {
                NameStatement::Object(name) => {
                    self.object = name.clone();
                    self.group = None;
                }
                NameStatement::Group(name) => self.group = name.clone(),
                NameStatement::Material(name) => self.material = name.clone(),
            }
            self.changed = true;
        }
        if next_face < faces {
            self.enter(next_face);
        }
    }

    /// Face `face` is read: starts a new run when the object changed since
    /// the last face. Names are resolved here, not at `o` / `g`, so that
    /// empty groups cost nothing.
    fn enter(&mut self, face: usize) {
        if !self.changed && self.current.is_some() {
            return;
        }
        self.changed = false;
        let name = match self.by {
            ObjectsBy::Group => object_name(self.object.as_deref(), self.group.as_deref(), None),
            ObjectsBy::Material => object_name(None, None, self.material.as_deref()),
            ObjectsBy::GroupAndMaterial => object_name(
                self.object.as_deref(),
                self.group.as_deref(),
                self.material.as_deref(),
            ),
        };
        let next_id = self.names.len() as u32;
        let id = *self.ids.entry(name).or_insert_with_key(|name| {
            self.names.push(name.clone());
            next_id
        });
        if self.current != Some(id) {
            self.current = Some(id);
            self.runs.push(Run {
                object: id,
                first_face: face as u32,
            });
        }
    }
}

#[cfg(test)]
mod tests;
