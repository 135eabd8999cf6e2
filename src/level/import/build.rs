//! Parsed faces to the collision mesh, world space: checks every corner
//! index against the file, triangulates n-gons, drops zero-area and
//! duplicate triangles (with warnings), makes each object's triangles
//! contiguous and builds the [`TriMesh`].
//!
//! Duplicates are found by geometry, not by index: corners are identified
//! by their exact `f32` position, so an unwelded mesh's repeated faces are
//! caught too. A triangle is a duplicate only with the same winding; the
//! reversed triangle is the other side of a two-sided wall and is kept.
//!
//! Faces are triangulated and judged flat in the file's own coordinates
//! (`Parsed::shape_positions` when the scale is not 1), so that `--scale`
//! changes no drop; duplicates are judged in the world, where two
//! triangles at the same `f32` place are one.
//!
//! Every face is accounted for: a face of k corners has k − 2 triangles'
//! worth, each of which is kept, dropped as zero-area, dropped as a
//! duplicate, or was a collinear (or repeated) n-gon corner removed, so
//! `corners − 2 · faces = triangles + degenerate + duplicate + collinear`.

use super::dedupe::{duplicate_triangles, weld_ids};
use super::parse::NO_NORMAL;
use super::parse::Parsed;
use super::report::{WarningKind, Warnings};
use super::triangulate::{MAX_CONCAVE_CORNERS, Outcome, Triangulator, is_degenerate};
use super::{Ctx, ImportError, ImportReport, NormalAgreement};
use crate::math::{DVec3, Vec3};
use crate::mesh::TriMesh;

/// Triangulates and filters `parsed`, reporting the fraction of faces done.
pub(super) fn build(
    mut parsed: Parsed,
    ctx: &Ctx,
    progress: &dyn Fn(f32),
) -> Result<(TriMesh, ImportReport), ImportError> {
    if parsed.face_count() == 0 {
        return Err(ctx.invalid(no_faces_message(&parsed)));
    }
    let warnings = std::mem::take(&mut parsed.warnings);
    let shape = if parsed.shape_positions.is_empty() {
        &parsed.positions
    } else {
        &parsed.shape_positions
    };
    let mut builder = Builder::new(shape, &parsed.positions, parsed.face_count(), warnings);
    builder.track_normals = !parsed.corner_normals.is_empty();
    // Faces take about half the time, duplicates and boxes the rest.
    add_faces(&parsed, &mut builder, ctx, &|f| progress(f * 0.5))?;
    let built = builder.finish(&parsed, ctx)?;
    progress(0.75);
    let mesh = TriMesh::new(parsed.positions, built.triangles, built.objects);
    Ok((mesh, built.report))
}

/// Feeds every face to `builder`, run by run, after checking its corners.
fn add_faces(
    parsed: &Parsed,
    builder: &mut Builder,
    ctx: &Ctx,
    progress: &dyn Fn(f32),
) -> Result<(), ImportError> {
    const REPORT_EVERY: usize = 1 << 16;
    let face_count = parsed.face_count();
    let vertex_count = parsed.positions.len();
    for (r, run) in parsed.runs.iter().enumerate() {
        let end = parsed
            .runs
            .get(r + 1)
            .map_or(face_count, |next| next.first_face as usize);
        for face in run.first_face as usize..end {
            let corners = &parsed.corners
                [parsed.face_starts[face] as usize..parsed.face_starts[face + 1] as usize];
            let line = parsed.face_lines[face];
            if let Some(&bad) = corners.iter().find(|&&c| c as usize >= vertex_count) {
                return Err(ctx.syntax(
                    line as usize,
                    format!(
                        "vertex index {} is out of range (the file has {vertex_count} vertices)",
                        u64::from(bad) + 1,
                    ),
                ));
            }
            let agreement = builder.track_normals.then(|| {
                let normals = &parsed.corner_normals
                    [parsed.face_starts[face] as usize..parsed.face_starts[face + 1] as usize];
                agreement(corners, normals, parsed)
            });
            builder.faces_with_normals +=
                usize::from(agreement.is_some_and(|a| a != NormalAgreement::Unknown));
            builder.faces_against_normals +=
                usize::from(agreement == Some(NormalAgreement::Against));
            builder
                .face(corners, line, run.object, agreement.unwrap_or_default())
                .map_err(|message| ctx.syntax(line as usize, message))?;
            if face % REPORT_EVERY == REPORT_EVERY - 1 {
                progress(face as f32 / face_count as f32);
            }
        }
    }
    Ok(())
}

/// How a face's winding compares with its corners' `vn` normals: the
/// face's normal (Newell's, world space, the corners' order) against the
/// sum of the normals. Unknown when a corner has no usable normal or
/// either vector is zero.
fn agreement(corners: &[u32], normals: &[u32], parsed: &Parsed) -> NormalAgreement {
    let mut sum = DVec3::ZERO;
    for &n in normals {
        match parsed.normals.get(n as usize) {
            Some(v) if n != NO_NORMAL && v.is_finite() => sum += v.as_dvec3(),
            _ => return NormalAgreement::Unknown,
        }
    }
    let p = |i: usize| parsed.positions[corners[i % corners.len()] as usize].as_dvec3();
    let origin = p(0);
    let mut winding = DVec3::ZERO;
    for i in 1..corners.len() - 1 {
        winding += (p(i) - origin).cross(p(i + 1) - origin);
    }
    let dot = winding.dot(sum);
    if dot > 0.0 {
        NormalAgreement::Agrees
    } else if dot < 0.0 {
        NormalAgreement::Against
    } else {
        NormalAgreement::Unknown
    }
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
    /// Positions faces are triangulated and judged flat in (the file's).
    shape: &'a [Vec3],
    /// World positions, where duplicates are found.
    positions: &'a [Vec3],
    triangles: Vec<[u32; 3]>,
    /// Object of each triangle.
    triangle_object: Vec<u32>,
    /// 1-based line of the face each triangle came from.
    triangle_line: Vec<u32>,
    /// Whether the file has normal indices: `triangle_normals` is filled.
    track_normals: bool,
    /// How each triangle's face compares with its normals.
    triangle_normals: Vec<NormalAgreement>,
    faces_with_normals: usize,
    faces_against_normals: usize,
    triangulator: Triangulator,
    scratch: Vec<[u32; 3]>,
    warnings: Warnings,
    ngons: usize,
    corners: usize,
    collinear: usize,
    degenerate: usize,
    duplicate: usize,
}

impl<'a> Builder<'a> {
    fn new(shape: &'a [Vec3], positions: &'a [Vec3], faces: usize, warnings: Warnings) -> Self {
        let capacity = faces + faces / 4;
        Builder {
            shape,
            positions,
            triangles: Vec::with_capacity(capacity),
            triangle_object: Vec::with_capacity(capacity),
            triangle_line: Vec::with_capacity(capacity),
            track_normals: false,
            triangle_normals: Vec::new(),
            faces_with_normals: 0,
            faces_against_normals: 0,
            triangulator: Triangulator::default(),
            scratch: Vec::new(),
            warnings,
            ngons: 0,
            corners: 0,
            collinear: 0,
            degenerate: 0,
            duplicate: 0,
        }
    }

    /// Adds one face; the error is a face that cannot be triangulated.
    fn face(
        &mut self,
        corners: &[u32],
        line: u32,
        object: u32,
        normals: NormalAgreement,
    ) -> Result<(), String> {
        self.corners += corners.len();
        if let &[a, b, c] = corners {
            self.triangle([a, b, c], line, object, normals);
            return Ok(());
        }
        self.ngons += 1;
        let mut tris = std::mem::take(&mut self.scratch);
        tris.clear();
        let n = corners.len();
        let at = Some(line as usize);
        match self
            .triangulator
            .triangulate(corners, self.shape, &mut tris)
        {
            Outcome::Exact => self.collinear += n - 2 - tris.len(),
            Outcome::Flat => {
                self.degenerate += n - 2;
                self.warnings.push(WarningKind::Degenerate, at, || {
                    format!("face with {n} corners has zero area; dropped")
                });
            }
            Outcome::Forced => {
                self.collinear += n - 2 - tris.len();
                self.warnings.push(WarningKind::Triangulation, at, || {
                    format!("face with {n} corners crosses itself; triangulated approximately")
                });
            }
            Outcome::TooLarge => {
                return Err(format!(
                    "face with {n} corners is not convex; concave faces are triangulated \
                     up to {MAX_CONCAVE_CORNERS} corners (split it in the modelling tool)"
                ));
            }
        }
        for &t in &tris {
            self.triangle(t, line, object, normals);
        }
        self.scratch = tris;
        Ok(())
    }

    fn triangle(&mut self, t: [u32; 3], line: u32, object: u32, normals: NormalAgreement) {
        let [a, b, c] = t.map(|i| self.shape[i as usize].as_dvec3());
        if is_degenerate(a, b, c) {
            self.degenerate += 1;
            self.warnings
                .push(WarningKind::Degenerate, Some(line as usize), || {
                    "zero-area triangle dropped".to_string()
                });
            return;
        }
        self.triangles.push(t);
        self.triangle_object.push(object);
        self.triangle_line.push(line);
        if self.track_normals {
            self.triangle_normals.push(normals);
        }
    }

    /// Drops triangles that repeat an earlier one, with a warning each.
    fn drop_duplicates(&mut self) {
        let weld = weld_ids(self.positions);
        let repeats = duplicate_triangles(&self.triangles, &weld);
        if repeats.is_empty() {
            return;
        }
        self.duplicate = repeats.len();
        let mut keep = vec![true; self.triangles.len()];
        for &(dup, first) in &repeats {
            keep[dup as usize] = false;
            let first_line = self.triangle_line[first as usize];
            let line = self.triangle_line[dup as usize] as usize;
            self.warnings.push(WarningKind::Duplicate, Some(line), || {
                format!("duplicate of a triangle from line {first_line}; dropped")
            });
        }
        let mut i = 0;
        self.triangles.retain(|_| (keep[i], i += 1).0);
        i = 0;
        self.triangle_object.retain(|_| (keep[i], i += 1).0);
        if self.track_normals {
            i = 0;
            self.triangle_normals.retain(|_| (keep[i], i += 1).0);
        }
    }

    /// Orders triangles by object and fills in the report.
    fn finish(mut self, parsed: &Parsed, ctx: &Ctx) -> Result<Built, ImportError> {
        self.drop_duplicates();
        if self.triangles.is_empty() {
            return Err(ctx.invalid(format!(
                "no usable triangles: all {} faces have zero area or repeat another",
                parsed.face_count()
            )));
        }
        let objects = parsed.object_names.len();
        let (triangles, counts) = group_by_object(self.triangles, &self.triangle_object, objects);
        let (triangle_normals, _) =
            group_by_object(self.triangle_normals, &self.triangle_object, objects);
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
            corners: self.corners,
            triangles: triangles.len(),
            ngons_triangulated: self.ngons,
            lines_ignored: parsed.lines_ignored,
            points_ignored: parsed.points_ignored,
            material_statements_ignored: parsed.material_statements_ignored,
            collinear_corners_removed: self.collinear,
            degenerate_triangles_dropped: self.degenerate,
            duplicate_triangles_dropped: self.duplicate,
            faces_with_normals: self.faces_with_normals,
            faces_against_normals: self.faces_against_normals,
            warnings: self.warnings.finish(),
            triangle_normals,
        };
        Ok(Built {
            triangles,
            objects,
            report,
        })
    }
}

/// Triangles grouped by object, the `(name, count)` list for
/// [`TriMesh::new`], and the report.
struct Built {
    triangles: Vec<[u32; 3]>,
    objects: Vec<(String, u32)>,
    report: ImportReport,
}

/// Stable counting sort of triangles (or what goes with each, when as
/// many) by object, so that every object is one contiguous range even
/// when the file reopens a group. Returns them and the count per object;
/// an empty list stays empty.
fn group_by_object<T: Copy + Default>(
    triangles: Vec<T>,
    triangle_object: &[u32],
    objects: usize,
) -> (Vec<T>, Vec<u32>) {
    let mut counts = vec![0u32; objects];
    for &o in triangle_object {
        counts[o as usize] += 1;
    }
    if triangle_object.is_sorted() || triangles.is_empty() {
        return (triangles, counts);
    }
    let mut next = Vec::with_capacity(objects);
    let mut at = 0usize;
    for &c in &counts {
        next.push(at);
        at += c as usize;
    }
    let mut sorted = vec![T::default(); triangles.len()];
    for (t, &o) in triangles.iter().zip(triangle_object) {
        sorted[next[o as usize]] = *t;
        next[o as usize] += 1;
    }
    (sorted, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouping_is_stable_and_contiguous() {
        let tris = vec![[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 3, 3]];
        let (sorted, counts) = group_by_object(tris, &[1, 0, 1, 0], 3);
        assert_eq!(sorted, vec![[1, 1, 1], [3, 3, 3], [0, 0, 0], [2, 2, 2]]);
        assert_eq!(counts, vec![2, 2, 0]);
    }
}
