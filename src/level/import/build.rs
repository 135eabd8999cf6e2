//! Parsed faces to the collision mesh, world space: checks every corner
//! index against the file, triangulates n-gons, drops zero-area and
//! duplicate triangles (with warnings), makes each object's triangles
//! contiguous and builds the [`TriMesh`].
//!
//! Duplicates are found by geometry, not by index: corners are identified
//! by their exact `f32` position, so an unwelded mesh's repeated faces are
//! caught too. A triangle is a duplicate only with the same winding; the
//! reversed triangle is the other side of a two-sided wall and is kept.

use super::parse::Parsed;
use super::report::WarningKind;
use super::triangulate::{Outcome, Triangulator, is_degenerate};
use super::{Ctx, ImportError, ImportReport};
use crate::math::Vec3;
use crate::mesh::TriMesh;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Triangulates and filters `parsed`, reporting the fraction of faces done.
pub(super) fn build(
    mut parsed: Parsed,
    ctx: &Ctx,
    progress: &dyn Fn(f32),
) -> Result<(TriMesh, ImportReport), ImportError> {
    const REPORT_EVERY: usize = 1 << 16;
    let face_count = parsed.face_count();
    if face_count == 0 {
        return Err(ctx.invalid(no_faces_message(&parsed)));
    }
    let warnings = std::mem::take(&mut parsed.warnings);
    let mut b = Builder::new(&parsed.positions, face_count, warnings);
    for (r, run) in parsed.runs.iter().enumerate() {
        let end = parsed
            .runs
            .get(r + 1)
            .map_or(face_count, |next| next.first_face as usize);
        for face in run.first_face as usize..end {
            let corners = &parsed.corners
                [parsed.face_starts[face] as usize..parsed.face_starts[face + 1] as usize];
            let line = parsed.face_lines[face] as usize;
            if let Some(&bad) = corners.iter().find(|&&c| c as usize >= b.positions.len()) {
                return Err(ctx.syntax(
                    line,
                    format!(
                        "vertex index {} is out of range (the file has {} vertices)",
                        u64::from(bad) + 1,
                        b.positions.len()
                    ),
                ));
            }
            b.face(corners, line, run.object);
            if face % REPORT_EVERY == REPORT_EVERY - 1 {
                progress(face as f32 / face_count as f32);
            }
        }
    }
    let (triangles, objects, report) = b.finish(&parsed, ctx)?;
    Ok((TriMesh::new(parsed.positions, triangles, objects), report))
}

fn no_faces_message(parsed: &Parsed) -> String {
    let mut ignored = Vec::new();
    if parsed.lines_ignored > 0 {
        ignored.push(format!("{} `l` line elements", parsed.lines_ignored));
    }
    if parsed.points_ignored > 0 {
        ignored.push(format!("{} `p` point elements", parsed.points_ignored));
    }
    let ignored = if ignored.is_empty() {
        String::new()
    } else {
        format!("; ignored {}", ignored.join(" and "))
    };
    format!(
        "no faces: nothing to collide with ({} vertices{ignored})",
        parsed.positions.len()
    )
}

/// Triangles kept so far and what was dropped.
struct Builder<'a> {
    positions: &'a [Vec3],
    /// The same id for corners at the same position (see [`weld_ids`]).
    weld: Vec<u32>,
    /// Every kept triangle (canonical welded key) and the line it came from.
    seen: HashMap<TriKey, u32, BuildHasherDefault<FxHasher>>,
    triangles: Vec<[u32; 3]>,
    /// Object of each kept triangle.
    triangle_object: Vec<u32>,
    triangulator: Triangulator,
    scratch: Vec<[u32; 3]>,
    warnings: super::report::Warnings,
    ngons: usize,
    degenerate: usize,
    duplicate: usize,
}

impl<'a> Builder<'a> {
    fn new(positions: &'a [Vec3], faces: usize, warnings: super::report::Warnings) -> Self {
        Builder {
            positions,
            weld: weld_ids(positions),
            seen: HashMap::with_capacity_and_hasher(faces + faces / 4, Default::default()),
            triangles: Vec::with_capacity(faces + faces / 4),
            triangle_object: Vec::with_capacity(faces + faces / 4),
            triangulator: Triangulator::default(),
            scratch: Vec::new(),
            warnings,
            ngons: 0,
            degenerate: 0,
            duplicate: 0,
        }
    }

    fn face(&mut self, corners: &[u32], line: usize, object: u32) {
        if let &[a, b, c] = corners {
            self.triangle([a, b, c], line, object);
            return;
        }
        self.ngons += 1;
        let mut tris = std::mem::take(&mut self.scratch);
        tris.clear();
        match self
            .triangulator
            .triangulate(corners, self.positions, &mut tris)
        {
            Outcome::Exact => {}
            Outcome::Flat => {
                self.degenerate += corners.len() - 2;
                self.warnings.push(WarningKind::Degenerate, Some(line), || {
                    format!("face with {} corners has zero area; dropped", corners.len())
                });
            }
            Outcome::Forced => {
                self.warnings
                    .push(WarningKind::Triangulation, Some(line), || {
                        format!(
                            "face with {} corners crosses itself; triangulated approximately",
                            corners.len()
                        )
                    });
            }
        }
        for &t in &tris {
            self.triangle(t, line, object);
        }
        self.scratch = tris;
    }

    fn triangle(&mut self, t: [u32; 3], line: usize, object: u32) {
        let [a, b, c] = t.map(|i| self.positions[i as usize].as_dvec3());
        if is_degenerate(a, b, c) {
            self.degenerate += 1;
            self.warnings.push(WarningKind::Degenerate, Some(line), || {
                "zero-area triangle dropped".to_string()
            });
            return;
        }
        let key = TriKey::canonical(t.map(|i| self.weld[i as usize]));
        match self.seen.entry(key) {
            Entry::Occupied(first) => {
                self.duplicate += 1;
                let first = *first.get();
                self.warnings.push(WarningKind::Duplicate, Some(line), || {
                    format!("duplicate of a triangle from line {first}; dropped")
                });
            }
            Entry::Vacant(slot) => {
                slot.insert(line.min(u32::MAX as usize) as u32);
                self.triangles.push(t);
                self.triangle_object.push(object);
            }
        }
    }

    /// Orders triangles by object and fills in the report.
    #[allow(clippy::type_complexity)]
    fn finish(
        self,
        parsed: &Parsed,
        ctx: &Ctx,
    ) -> Result<(Vec<[u32; 3]>, Vec<(String, u32)>, ImportReport), ImportError> {
        if self.triangles.is_empty() {
            return Err(ctx.invalid(format!(
                "no usable triangles: all {} faces have zero area or repeat another",
                parsed.face_count()
            )));
        }
        let (triangles, counts) = group_by_object(
            self.triangles,
            &self.triangle_object,
            parsed.object_names.len(),
        );
        let objects = parsed
            .object_names
            .iter()
            .zip(counts)
            .filter(|(_, count)| *count > 0)
            .map(|(name, count)| (name.clone(), count))
            .collect();
        let report = ImportReport {
            vertices: parsed.positions.len(),
            faces: parsed.face_count(),
            triangles: triangles.len(),
            ngons_triangulated: self.ngons,
            lines_ignored: parsed.lines_ignored,
            points_ignored: parsed.points_ignored,
            material_statements_ignored: parsed.material_statements_ignored,
            degenerate_triangles_dropped: self.degenerate,
            duplicate_triangles_dropped: self.duplicate,
            warnings: self.warnings.finish(),
        };
        Ok((triangles, objects, report))
    }
}

/// Stable counting sort of triangles by object, so that every object is
/// one contiguous range even when the file reopens a group. Returns the
/// triangles and the count per object.
fn group_by_object(
    triangles: Vec<[u32; 3]>,
    triangle_object: &[u32],
    objects: usize,
) -> (Vec<[u32; 3]>, Vec<u32>) {
    let mut counts = vec![0u32; objects];
    for &o in triangle_object {
        counts[o as usize] += 1;
    }
    if triangle_object.is_sorted() {
        return (triangles, counts);
    }
    let mut next = Vec::with_capacity(objects);
    let mut at = 0usize;
    for &c in &counts {
        next.push(at);
        at += c as usize;
    }
    let mut sorted = vec![[0u32; 3]; triangles.len()];
    for (t, &o) in triangles.iter().zip(triangle_object) {
        sorted[next[o as usize]] = *t;
        next[o as usize] += 1;
    }
    (sorted, counts)
}

/// Gives every vertex the index of the first vertex at exactly the same
/// position (`-0.0` and `0.0` are the same place).
fn weld_ids(positions: &[Vec3]) -> Vec<u32> {
    let mut first_at: HashMap<TriKey, u32, BuildHasherDefault<FxHasher>> =
        HashMap::with_capacity_and_hasher(positions.len(), Default::default());
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let bits = (*p + Vec3::ZERO).to_array().map(f32::to_bits);
            *first_at.entry(TriKey(bits)).or_insert(i as u32)
        })
        .collect()
}

/// Three `u32`s hashed as two words: a welded triangle or a position's bits.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TriKey([u32; 3]);

impl TriKey {
    /// The same key for the three rotations of a triangle (same winding).
    fn canonical(t: [u32; 3]) -> Self {
        let [a, b, c] = t;
        TriKey(if a <= b && a <= c {
            [a, b, c]
        } else if b <= c {
            [b, c, a]
        } else {
            [c, a, b]
        })
    }
}

impl Hash for TriKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [a, b, c] = self.0;
        state.write_u64(u64::from(a) | (u64::from(b) << 32));
        state.write_u32(c);
    }
}

/// Multiply-rotate word hasher after rustc-hash's FxHasher, with a
/// MurmurHash3 finaliser so that float bit patterns (whose low bits are
/// often zero) still spread over the table. Not DoS-resistant; it hashes
/// only the importer's own keys.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_share_a_key_and_the_reverse_does_not() {
        let k = TriKey::canonical([7, 3, 5]);
        assert!(k == TriKey::canonical([3, 5, 7]));
        assert!(k == TriKey::canonical([5, 7, 3]));
        assert!(k != TriKey::canonical([7, 5, 3]));
    }

    #[test]
    fn welding_merges_equal_positions_and_signed_zeros() {
        let p = [
            Vec3::new(0.0, 1.0, 2.0),
            Vec3::new(1.0, 1.0, 2.0),
            Vec3::new(-0.0, 1.0, 2.0),
        ];
        assert_eq!(weld_ids(&p), vec![0, 1, 0]);
    }

    #[test]
    fn grouping_is_stable_and_contiguous() {
        let tris = vec![[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]];
        let (sorted, counts) = group_by_object(tris, &[1, 0, 1, 0], 3);
        assert_eq!(sorted, vec![[1, 1, 1], [3, 3, 3], [0, 0, 0], [2, 2, 2]]);
        assert_eq!(counts, vec![2, 2, 0]);
    }
}
