//! Objects wound the wrong way round as a whole, which the edge table
//! cannot see (every edge is consistently wound, just all of them the
//! other way):
//!
//! - wound against their normals: faces whose winding points away from
//!   their own `vn` normals, as the import found them
//!   ([`NormalAgreement`]); a mirrored export or a flipped winding setting
//!   does this to a whole object or level;
//! - inside out: an object without normals that is closed (every edge run
//!   as often one way as the other) and wound so that its faces point
//!   inwards: its signed volume is negative.
//!
//! One item per object, in object order. Both are a pass over each
//! object's triangles; closedness is a sort of its edges, so near-linear.

use super::collect::Found;
use super::{HygieneItem, HygieneKind, HygieneOptions, ObjectShare};
use crate::level::NormalAgreement;
use crate::math::DVec3;
use crate::mesh::TriMesh;
use rayon::prelude::*;

/// One object wound against its normals.
#[derive(Clone, Debug, PartialEq)]
pub struct AgainstNormals {
    /// Index into the mesh's objects.
    pub object: usize,
    /// Its triangles whose face is wound against its normals, in order.
    pub against: Vec<u32>,
    /// Its triangles whose face has normals at all.
    pub with_normals: usize,
}

/// The objects of `mesh` with triangles wound against their normals
/// (`normals`, one per triangle, or empty when the level has none).
pub fn against_normals(mesh: &TriMesh, normals: &[NormalAgreement]) -> Vec<AgainstNormals> {
    if normals.len() != mesh.triangle_count() {
        return Vec::new();
    }
    mesh.objects
        .iter()
        .enumerate()
        .filter_map(|(object, o)| {
            let range = o.first_triangle..o.first_triangle + o.triangle_count;
            let against: Vec<u32> = range
                .clone()
                .filter(|&t| normals[t as usize] == NormalAgreement::Against)
                .collect();
            let with_normals = range
                .filter(|&t| normals[t as usize] != NormalAgreement::Unknown)
                .count();
            (!against.is_empty()).then_some(AgainstNormals {
                object,
                against,
                with_normals,
            })
        })
        .collect()
}

/// The `wound_against_normals` items: one per object with such faces;
/// `size` is their share of its faces with normals.
pub(super) fn find_against_normals(
    mesh: &TriMesh,
    normals: &[NormalAgreement],
    options: &HygieneOptions,
) -> Found {
    let objects = against_normals(mesh, normals);
    let items: Vec<HygieneItem> = objects
        .iter()
        .take(options.max_items_per_kind)
        .map(|a| {
            let o = &mesh.objects[a.object];
            HygieneItem {
                kind: HygieneKind::WoundAgainstNormals,
                position: centroid(mesh, a.against[0]),
                triangles: a
                    .against
                    .iter()
                    .copied()
                    .take(options.max_items_per_kind)
                    .collect(),
                size: a.against.len() as f64 / a.with_normals as f64,
                object: Some(ObjectShare {
                    name: o.name.clone(),
                    triangles: a.against.len(),
                    of: a.with_normals,
                }),
            }
        })
        .collect();
    Found {
        count: objects.len(),
        items,
        cut: 0,
    }
}

/// The `inside_out` items: closed objects with no normals whose signed
/// volume is negative. `size` is that volume, m³ (negative).
pub(super) fn find_inside_out(
    mesh: &TriMesh,
    welded: &[u32],
    normals: &[NormalAgreement],
    options: &HygieneOptions,
) -> Found {
    let has_normals = |t: u32| {
        normals
            .get(t as usize)
            .is_some_and(|&n| n != NormalAgreement::Unknown)
    };
    let found: Vec<(usize, f64)> = mesh
        .objects
        .par_iter()
        .enumerate()
        .filter_map(|(i, o)| {
            let range = o.first_triangle..o.first_triangle + o.triangle_count;
            if o.triangle_count < 4 || range.clone().any(has_normals) {
                return None;
            }
            let volume = signed_volume(mesh, range.clone());
            (volume < 0.0 && is_closed(mesh, welded, range)).then_some((i, volume))
        })
        .collect();
    let items = found
        .iter()
        .take(options.max_items_per_kind)
        .map(|&(i, volume)| {
            let o = &mesh.objects[i];
            let n = o.triangle_count as usize;
            HygieneItem {
                kind: HygieneKind::InsideOut,
                position: o.aabb.center().as_dvec3(),
                triangles: (o.first_triangle..o.first_triangle + o.triangle_count)
                    .take(options.max_items_per_kind)
                    .collect(),
                size: volume,
                object: Some(ObjectShare {
                    name: o.name.clone(),
                    triangles: n,
                    of: n,
                }),
            }
        })
        .collect();
    Found {
        count: found.len(),
        items,
        cut: 0,
    }
}

fn centroid(mesh: &TriMesh, t: u32) -> DVec3 {
    let [a, b, c] = mesh.triangle(t);
    (a.as_dvec3() + b.as_dvec3() + c.as_dvec3()) / 3.0
}

/// The signed volume of the triangles in `range` (positive when they face
/// outwards of what they enclose), about their first corner for precision.
fn signed_volume(mesh: &TriMesh, range: std::ops::Range<u32>) -> f64 {
    let origin = mesh.triangle(range.start)[0].as_dvec3();
    range
        .map(|t| {
            let [a, b, c] = mesh.triangle(t).map(|p| p.as_dvec3() - origin);
            a.dot(b.cross(c))
        })
        .sum::<f64>()
        / 6.0
}

/// Whether every welded edge of the triangles in `range` is run as often
/// one way as the other: a closed, consistently wound surface (touching
/// solids included), whose signed volume means inside and outside.
fn is_closed(mesh: &TriMesh, welded: &[u32], range: std::ops::Range<u32>) -> bool {
    // (low << 32 | high, +1 when run low to high, -1 otherwise).
    let mut edges: Vec<(u64, i32)> = Vec::with_capacity(range.len() * 3);
    for t in range {
        let w = mesh.triangles[t as usize].map(|v| welded[v as usize]);
        for c in 0..3 {
            let (a, b) = (w[c], w[(c + 1) % 3]);
            if a != b {
                let key = (u64::from(a.min(b)) << 32) | u64::from(a.max(b));
                edges.push((key, if a < b { 1 } else { -1 }));
            }
        }
    }
    edges.par_sort_unstable();
    edges
        .chunk_by(|p, q| p.0 == q.0)
        .all(|run| run.iter().map(|e| e.1).sum::<i32>() == 0)
}
