//! Face statements: corners in every form (`v`, `v/vt`, `v//vn`,
//! `v/vt/vn`), absolute and relative indices. Texture indices are checked,
//! not stored: collision uses positions only. Normal indices are checked
//! and kept for the winding check (see `normal`).

use super::normal::NormalRef;
use super::tokens::{Tokens, parse_index, quote};
use super::{LineError, LineResult, Parser, Pending, RefKind, incomplete, note_max};

impl Parser<'_> {
    pub(super) fn face(&mut self, tokens: Tokens) -> LineResult {
        let first = self.out.corners.len();
        for token in tokens {
            let (corner, normal) = self.corner(token)?;
            self.note_corner_normal(normal);
            self.out.corners.push(corner);
        }
        let count = self.out.corners.len() - first;
        if count < 3 {
            let message = format!("face with {count} corners (a face needs at least 3)");
            return Err(incomplete(message));
        }
        if self.out.corners.len() > u32::MAX as usize {
            return Err(String::from("more than 4 294 967 295 face corners").into());
        }
        self.out.face_starts.push(self.out.corners.len() as u32);
        self.out
            .face_lines
            .push(self.line.min(u32::MAX as usize) as u32);
        Ok(())
    }

    /// One `v`, `v/vt`, `v//vn` or `v/vt/vn` corner: returns the 0-based
    /// position index and the normal reference; texture indices are only
    /// checked.
    fn corner(&mut self, token: &[u8]) -> Result<(u32, Option<NormalRef>), LineError> {
        let malformed = || incomplete(format!("malformed face corner {}", quote(token)));
        let mut parts = token.split(|&b| b == b'/');
        let pos = parts
            .next()
            .filter(|p| !p.is_empty())
            .ok_or_else(malformed)?;
        let texcoord = parts.next();
        let normal = parts.next();
        if parts.next().is_some()
            || normal.is_some_and(|n| n.is_empty())
            || (texcoord.is_some_and(|t| t.is_empty()) && normal.is_none())
        {
            return Err(malformed());
        }
        let pos = match parse_ref(pos, "vertex")? {
            Ref::Absolute(pos) => pos,
            Ref::Relative(magnitude) => self.relative(RefKind::Vertex, magnitude)?,
        };
        if let Some(t) = texcoord.filter(|t| !t.is_empty()) {
            match parse_ref(t, "texture")? {
                Ref::Absolute(t) => note_max(&mut self.out.max_texcoord_ref, t + 1, self.line),
                Ref::Relative(magnitude) => _ = self.relative(RefKind::Texture, magnitude)?,
            }
        }
        let normal = match normal {
            None => None,
            Some(n) => Some(match parse_ref(n, "normal")? {
                Ref::Absolute(n) => {
                    note_max(&mut self.out.max_normal_ref, n + 1, self.line);
                    NormalRef::Absolute(n)
                }
                Ref::Relative(magnitude) => {
                    let pending = self.out.pending.len();
                    let n = self.relative(RefKind::Normal, magnitude)?;
                    if self.out.pending.len() > pending {
                        NormalRef::Pending
                    } else {
                        NormalRef::InChunk(n)
                    }
                }
            }),
        };
        let pos = u32::try_from(pos)
            .ok()
            .filter(|&p| p < u32::MAX)
            .ok_or_else(|| LineError::from(format!("vertex index {} is too large", pos + 1)))?;
        Ok((pos, normal))
    }

    /// Resolves the relative index `-magnitude` of a `kind` element against
    /// the chunk's elements above this line. One reaching above the chunk is
    /// an error in the first chunk, and otherwise left [`Pending`] (0 for now).
    /// A vertex index resolved here is listed in `relative`: it counts from
    /// the chunk's first vertex.
    fn relative(&mut self, kind: RefKind, magnitude: u64) -> Result<u64, LineError> {
        let defined = match kind {
            RefKind::Vertex => self.out.positions.len() as u64,
            RefKind::Texture => self.out.texcoords,
            RefKind::Normal => self.out.normals,
        };
        let corner = self.out.corners.len() as u32;
        match resolve_relative(magnitude, defined, kind) {
            Ok(index) => {
                if kind == RefKind::Vertex {
                    self.out.relative.push(corner);
                }
                Ok(index)
            }
            Err(message) if self.exact => Err(message.into()),
            Err(_) => {
                self.out.pending.push(Pending {
                    line: self.line,
                    kind,
                    magnitude,
                    defined,
                    corner,
                });
                Ok(0)
            }
        }
    }
}

/// Turns a 1-based or negative (relative) OBJ index into a 0-based one.
/// `defined` is how many elements precede this line. Positive indices past
/// `defined` are accepted here: the caller checks them against the file.
/// (The parser does this in two steps, [`parse_ref`] then, for a relative
/// index, [`resolve_relative`] or a pending check; this joins them for tests.)
#[cfg(test)]
pub(super) fn resolve(
    token: &[u8],
    defined: u64,
    what: &str,
    keyword: &str,
) -> Result<u64, String> {
    let kind = match keyword {
        "v" => RefKind::Vertex,
        "vt" => RefKind::Texture,
        _ => RefKind::Normal,
    };
    debug_assert_eq!(kind.describe(), (what, keyword));
    match parse_ref(token, what)? {
        Ref::Absolute(index) => Ok(index),
        Ref::Relative(magnitude) => resolve_relative(magnitude, defined, kind),
    }
}

/// An OBJ index: 1-based (stored 0-based here) or relative (`-magnitude`).
enum Ref {
    Absolute(u64),
    Relative(u64),
}

/// Reads an index token; `what` names it in errors.
fn parse_ref(token: &[u8], what: &str) -> Result<Ref, String> {
    let raw = parse_index(token).ok_or_else(|| format!("bad {what} index {}", quote(token)))?;
    match raw {
        0 => Err(format!(
            "{what} index 0 is invalid (OBJ indices start at 1)"
        )),
        1.. => Ok(Ref::Absolute(raw as u64 - 1)),
        _ => Ok(Ref::Relative(raw.unsigned_abs())),
    }
}

/// The 0-based index of the relative index `-magnitude` when `defined`
/// elements of `kind` precede its line, or the error naming it.
pub(super) fn resolve_relative(magnitude: u64, defined: u64, kind: RefKind) -> Result<u64, String> {
    if magnitude <= defined {
        return Ok(defined - magnitude);
    }
    let (what, keyword) = kind.describe();
    Err(format!(
        "relative {what} index -{magnitude} reaches before the first `{keyword}` \
         (only {defined} defined above this line)"
    ))
}
