//! One pass over OBJ text: vertex positions (converted to world space, Y up,
//! metres, `f32`), faces as lists of 0-based position indices with the line
//! they came from, and the runs of faces that belong to each `o` / `g`
//! object. Everything the collision mesh does not use (texture coordinates,
//! lines, points, materials) is counted, not stored. Normals (`vn`) are
//! kept only to tell whether each face is wound the way its normals say
//! (see `build`): their vectors, and a normal index per corner once a
//! corner has one.
//!
//! The loop allocates per vertex and per face corner only by pushing onto
//! flat vectors; names are allocated once per `o` / `g` statement.
//!
//! Large files are parsed in parallel, line-aligned chunks (`chunks`, in
//! parse/chunks): [`parse_chunk`] parses one chunk on its own, keeping
//! what depends on the lines above it (line numbers, the counts relative
//! indices resolve against, the `o` / `g` in force) local or deferred, and
//! the merge turns the chunks into exactly what one pass would give.

mod chunks;
mod face;
mod normal;
mod tokens;
mod vertex;

use super::report::{WarningKind, Warnings};
use super::{Ctx, ImportError, MAX_NAME_CHARS, ObjectsBy};
use crate::math::Vec3;
#[cfg(test)]
use face::resolve;
use face::resolve_relative;
use tokens::{Tokens, cap_name, quote, rest_of_line};

/// A run of consecutive faces of one object; an object reopened later in
/// the file (`g a` ... `g b` ... `g a`) has several runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    /// Index into [`Parsed::object_names`].
    pub object: u32,
    /// First face of the run; it lasts until the next run's first face.
    pub first_face: u32,
}

/// The parsed file, before triangulation.
#[derive(Debug, Default)]
pub(super) struct Parsed {
    /// Vertex positions, world space (already scaled and turned Y up).
    pub positions: Vec<Vec3>,
    /// The same positions turned Y up but not scaled, when the scale is
    /// not 1 (empty otherwise): faces are triangulated and judged flat in
    /// the file's own coordinates, so that `--scale` changes no decision.
    pub shape_positions: Vec<Vec3>,
    /// 0-based position index of every face corner, faces one after another.
    /// May point past `positions` (checked when building, with the line).
    pub corners: Vec<u32>,
    /// Face `f` has corners `face_starts[f]..face_starts[f + 1]`.
    pub face_starts: Vec<u32>,
    /// 1-based line of each face.
    pub face_lines: Vec<u32>,
    /// `vn` vectors, turned Y up as the positions are (NaN when malformed).
    pub normals: Vec<Vec3>,
    /// 0-based `vn` index of every face corner ([`NO_NORMAL`] for none),
    /// parallel to `corners`; empty when no corner has one. May point past
    /// `normals` (a dangling index, warned about and then ignored).
    pub corner_normals: Vec<u32>,
    /// Runs of faces in file order.
    pub runs: Vec<Run>,
    /// Object names, in order of first appearance.
    pub object_names: Vec<String>,
    /// `l` statements.
    pub lines_ignored: usize,
    /// `p` statements.
    pub points_ignored: usize,
    /// `mtllib` / `usemtl` statements.
    pub material_statements_ignored: usize,
    /// Recoverable problems found so far.
    pub warnings: Warnings,
}

impl Parsed {
    /// Number of faces.
    pub fn face_count(&self) -> usize {
        self.face_lines.len()
    }
}

/// Parses `text`, reporting the fraction of bytes read through `progress`
/// (in parallel chunks when it is large; the result is the same).
pub(super) fn parse(
    text: &[u8],
    ctx: &Ctx,
    progress: &(dyn Fn(f32) + Sync),
) -> Result<Parsed, ImportError> {
    chunks::parse(text, ctx, progress, chunks::CHUNK_LEN)
}

/// Bytes between two calls of a chunk's `report`.
const REPORT_EVERY: usize = 1 << 18;

/// A corner without a normal index, in [`Parsed::corner_normals`].
pub(super) const NO_NORMAL: u32 = u32::MAX;

/// One line-aligned piece of the file, parsed on its own: line numbers and
/// the vertex, texture and normal counts start from zero at its first line.
/// The merge adds what the chunks above hold.
#[derive(Debug, Default)]
pub(super) struct Chunk {
    /// Vertex positions, world space.
    pub positions: Vec<Vec3>,
    /// As [`Parsed::shape_positions`].
    pub shape_positions: Vec<Vec3>,
    /// 0-based position index of every face corner: absolute, except those
    /// listed in `relative` and `pending`.
    pub corners: Vec<u32>,
    /// Face `f` has corners `face_starts[f]..face_starts[f + 1]`.
    pub face_starts: Vec<u32>,
    /// Chunk line of each face.
    pub face_lines: Vec<u32>,
    /// Positions in `corners` holding a relative index resolved within the
    /// chunk: an index into this chunk's `positions`.
    pub relative: Vec<u32>,
    /// Relative indices reaching above the chunk's first line, in file order.
    pub pending: Vec<Pending>,
    /// As [`Parsed::normals`], this chunk's.
    pub normal_vectors: Vec<Vec3>,
    /// As [`Parsed::corner_normals`], this chunk's: absolute, except those
    /// listed in `relative_normals` and the normals in `pending`.
    pub corner_normals: Vec<u32>,
    /// Positions in `corner_normals` holding a relative index resolved
    /// within the chunk: an index into this chunk's `normal_vectors`.
    pub relative_normals: Vec<u32>,
    /// `o` / `g` (and, splitting by material, `usemtl`) statements, with
    /// the number of faces above them in the chunk.
    pub names: Vec<(u32, NameStatement)>,
    /// `vt` statements.
    pub texcoords: u64,
    /// `vn` statements.
    pub normals: u64,
    /// Largest absolute 1-based `vt` / `vn` index used, and the first chunk
    /// line using it. (A relative index never points past the last `vt` /
    /// `vn` above it, so it can never be the one a dangling-index warning
    /// names: it is only checked.)
    pub max_texcoord_ref: (u64, usize),
    /// As `max_texcoord_ref`, for normals.
    pub max_normal_ref: (u64, usize),
    /// `l` statements.
    pub lines_ignored: usize,
    /// `p` statements.
    pub points_ignored: usize,
    /// `mtllib` / `usemtl` statements.
    pub material_statements_ignored: usize,
    /// Recoverable problems, with chunk lines.
    pub warnings: Warnings,
    /// Physical lines read.
    pub lines: usize,
    /// The first error: chunk line and message. Nothing after it was read.
    pub error: Option<(usize, String)>,
}

/// An `o`, `g` or `usemtl` statement and the name it gives (`None` when blank).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum NameStatement {
    Object(Option<String>),
    Group(Option<String>),
    Material(Option<String>),
}

/// A relative index `-magnitude` on chunk line `line`, where only `defined`
/// elements of its kind precede it in the chunk: valid or not depending on
/// the chunks above.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    pub line: usize,
    pub kind: RefKind,
    pub magnitude: u64,
    pub defined: u64,
    /// For a vertex or normal index, its corner's position in
    /// [`Chunk::corners`].
    pub corner: u32,
}

/// What an index refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RefKind {
    Vertex,
    Texture,
    Normal,
}

impl RefKind {
    /// The noun and the statement keyword, for messages.
    fn describe(self) -> (&'static str, &'static str) {
        match self {
            RefKind::Vertex => ("vertex", "v"),
            RefKind::Texture => ("texture", "vt"),
            RefKind::Normal => ("normal", "vn"),
        }
    }
}

/// Parses one chunk: `text` starts at the beginning of a statement, and
/// ends at the end of one (after its newline, unless it is the end of the
/// file). `exact` when nothing precedes it (the first chunk): relative
/// indices reaching above it are then errors at once. `report(bytes)` is
/// called as bytes are read, about every [`REPORT_EVERY`], and on
/// returning, for every byte.
pub(super) fn parse_chunk(
    text: &[u8],
    ctx: &Ctx,
    exact: bool,
    report: &mut dyn FnMut(usize),
) -> Chunk {
    let mut parser = Parser::new(ctx, exact, text.len());
    let mut start = 0;
    let mut reported = 0;
    let mut physical_line = 0;
    // A statement continued over lines ending in a backslash, and its first line.
    let mut continued: Vec<u8> = Vec::new();
    let mut continued_from = 0;
    while start < text.len() {
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |i| start + i);
        physical_line += 1;
        let mut line = &text[start..end];
        // Past the end when the file ends without a line break: capped, as
        // the bytes reported must add up to the chunk.
        start = (end + 1).min(text.len());
        if let Some(head) = continuation(line) {
            if continued.is_empty() {
                continued_from = physical_line;
            }
            continued.extend_from_slice(head);
            continued.push(b' ');
            if start < text.len() {
                continue;
            }
            line = &[];
        }
        parser.line = physical_line;
        if !continued.is_empty() {
            continued.extend_from_slice(line);
            line = &continued;
            parser.line = continued_from;
        }
        if let Err(e) = parser.statement(line) {
            let cut_off = e.incomplete && end == text.len() && !text.ends_with(b"\n");
            let hint = if cut_off {
                " (the file ends in the middle of this line: truncated?)"
            } else {
                ""
            };
            parser.out.error = Some((parser.line, format!("{}{hint}", e.message)));
            break;
        }
        continued.clear();
        if start >= reported + REPORT_EVERY {
            report(start - reported);
            reported = start;
        }
    }
    report(text.len() - reported);
    parser.out.lines = physical_line;
    if parser.out.error.is_none() && ends_in_a_statement(text) {
        parser
            .out
            .warnings
            .push(WarningKind::Truncated, Some(parser.line), || {
                "the file ends without a line break: this last line may be cut short".into()
            });
    }
    parser.out
}

/// True when `text` ends in a statement with no line break after it: the
/// way a file cut short (a download, a full disk) ends, in the middle of a
/// number, a corner or a face. The statement is still read when it makes
/// sense; only a line that cannot be read is an error.
fn ends_in_a_statement(text: &[u8]) -> bool {
    if text.ends_with(b"\n") || text.ends_with(b"\r") {
        return false;
    }
    let last = text
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(text, |i| &text[i + 1..]);
    Tokens(last).next().is_some()
}

/// For a statement line ending in a backslash (the OBJ line continuation),
/// the line without it. Comments never continue: `# C:\models\` is a path.
fn continuation(line: &[u8]) -> Option<&[u8]> {
    let line = line.trim_ascii_end();
    let head = line.strip_suffix(b"\\")?;
    (line.trim_ascii_start().first() != Some(&b'#')).then_some(head)
}

/// Parser state between lines. Errors inside are plain messages;
/// `parse_chunk` adds the line.
struct Parser<'a> {
    ctx: &'a Ctx<'a>,
    /// Relative indices reaching above the chunk are errors (nothing is above).
    exact: bool,
    out: Chunk,
    line: usize,
}

/// What is wrong with one line.
struct LineError {
    message: String,
    /// The line looks cut short (too few fields, a field cut in half): on
    /// the last line of a file with no final newline, that means truncated.
    incomplete: bool,
}

impl From<String> for LineError {
    fn from(message: String) -> Self {
        LineError {
            message,
            incomplete: false,
        }
    }
}

fn incomplete(message: String) -> LineError {
    LineError {
        message,
        incomplete: true,
    }
}

type LineResult = Result<(), LineError>;

impl<'a> Parser<'a> {
    fn new(ctx: &'a Ctx<'a>, exact: bool, text_len: usize) -> Self {
        let mut out = Chunk::default();
        // Dense triangle files spend ~35 bytes per vertex and per face.
        out.positions.reserve(text_len / 80);
        out.face_lines.reserve(text_len / 60);
        out.face_starts.reserve(text_len / 60 + 1);
        out.corners.reserve(text_len / 20);
        out.face_starts.push(0);
        Parser {
            ctx,
            exact,
            out,
            line: 0,
        }
    }

    fn statement(&mut self, line: &[u8]) -> LineResult {
        let mut tokens = Tokens(line);
        let Some(keyword) = tokens.next() else {
            return Ok(());
        };
        match keyword {
            b"v" => self.vertex(tokens)?,
            b"vt" => self.out.texcoords += 1,
            b"vn" => self.normal(tokens),
            b"f" | b"fo" => self.face(tokens)?,
            b"o" => {
                let name = self.name_text(line);
                self.name(NameStatement::Object(name));
            }
            b"g" => {
                let name = self.name_text(line);
                self.name(NameStatement::Group(name));
            }
            b"usemtl" if self.ctx.options.objects_by != ObjectsBy::Group => {
                let name = self.name_text(line);
                self.name(NameStatement::Material(name));
            }
            b"l" => self.out.lines_ignored += 1,
            b"p" => self.out.points_ignored += 1,
            b"mtllib" | b"usemtl" => self.out.material_statements_ignored += 1,
            // Rendering attributes: nothing to collide with, nothing to say.
            b"s" | b"vp" | b"mg" | b"usemap" | b"maplib" | b"lod" | b"bevel" | b"c_interp"
            | b"d_interp" | b"shadow_obj" | b"trace_obj" | b"ctech" | b"stech" => {}
            other => {
                self.out
                    .warnings
                    .push(WarningKind::IgnoredStatement, Some(self.line), || {
                        format!(
                            "statement {} ignored (not polygonal geometry)",
                            quote(other)
                        )
                    });
            }
        }
        Ok(())
    }

    /// The name an `o`, `g` or `usemtl` line gives, cut to
    /// [`MAX_NAME_CHARS`] characters with a warning when longer.
    fn name_text(&mut self, line: &[u8]) -> Option<String> {
        let (name, cut_from) = cap_name(rest_of_line(line)?);
        if let Some(chars) = cut_from {
            self.out
                .warnings
                .push(WarningKind::LongName, Some(self.line), || {
                    format!("object name of {chars} characters cut to {MAX_NAME_CHARS}")
                });
        }
        Some(name)
    }

    /// Records a name statement; the merge resolves the names.
    fn name(&mut self, statement: NameStatement) {
        let faces = self.out.face_lines.len() as u32;
        self.out.names.push((faces, statement));
    }
}

/// The name an object gets from the `o` and `g` in force (`group`), and
/// the material when objects are split by material.
fn object_name(object: Option<&str>, group: Option<&str>, material: Option<&str>) -> String {
    let group = match (object, group) {
        (Some(o), Some(g)) if o != g => Some(format!("{o}/{g}")),
        (Some(o), _) => Some(o.to_string()),
        (None, Some(g)) => Some(g.to_string()),
        (None, None) => None,
    };
    match (group, material) {
        (Some(g), Some(m)) => format!("{g}:{m}"),
        (Some(name), None) => name,
        (None, Some(m)) => m.to_string(),
        (None, None) => "default".to_string(),
    }
}

fn note_max(max: &mut (u64, usize), index: u64, line: usize) {
    if index > max.0 {
        *max = (index, line);
    }
}

#[cfg(test)]
mod tests;
