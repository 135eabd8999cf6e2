//! T-junctions: a vertex lying strictly inside another triangle's edge.
//!
//! Only unmatched edges (edges of one triangle) are reported: where a
//! vertex splits one side of a seam and not the other, the long edge has no
//! partner with the same ends, so it is unmatched. Every vertex is a
//! candidate, not only the ends of unmatched edges: the short edges on the
//! split side may each be shared with a third face (a wall's foot split
//! where the floor meets it), and the vertex between them is a T-junction
//! all the same.
//!
//! The search is [`OnEdges`]: every vertex within the tolerance of an edge
//! it does not end, found with a BVH over the edges' boxes grown by the
//! tolerance, so near-linear in the edges. `coverage` uses the same pairs
//! to tell a sealed seam from a hole.

use super::collect::{Found, find_capped_with};
use super::edges::Edge;
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::bvh::{Bvh, BvhScratch};
use crate::math::{Aabb, DVec3};
use crate::mesh::TriMesh;
use rayon::prelude::*;

/// Candidate vertices per parallel chunk of the search.
const CHUNK: usize = 1024;

/// Most edges one vertex is kept strictly inside of. A T-junction's vertex
/// lies inside one edge, a vertex where several faces were split inside a
/// few; a vertex inside hundreds is a hostile stack of copies, and keeping
/// every pair would take memory quadratic in the mesh.
const MAX_EDGES_THROUGH_VERTEX: usize = 128;

/// Every (vertex, edge) pair where the vertex (a welded id) lies strictly
/// inside the edge: within the tolerance of its segment, farther than the
/// tolerance from both ends; edges no longer than twice the tolerance are
/// not searched. Sorted by vertex then edge.
pub(super) struct OnEdges {
    /// `(vertex, edge)`, the edge an index into the edges.
    pub pairs: Vec<(u32, u32)>,
    /// Vertices inside the boxes of more than [`super::MAX_NEIGHBOURS`]
    /// edges, or strictly inside more than [`MAX_EDGES_THROUGH_VERTEX`],
    /// searched against the first of them only.
    pub cut: usize,
}

impl OnEdges {
    /// Finds the pairs of `edges` (all the mesh's) within `tol`.
    pub fn find(mesh: &TriMesh, edges: &[Edge], tol: f64) -> OnEdges {
        if edges.is_empty() || tol.is_nan() || tol <= 0.0 {
            return OnEdges {
                pairs: Vec::new(),
                cut: 0,
            };
        }
        let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
        // Only edges longer than twice the tolerance can hold a vertex
        // strictly inside (all but a degenerate few): leaving the others
        // out keeps a clump of vertices closer than the tolerance (a
        // missed weld) from searching all its own short edges.
        let long: Vec<u32> = (0..edges.len() as u32)
            .filter(|&e| {
                let Edge { a, b, .. } = edges[e as usize];
                pos(a).distance(pos(b)) > 2.0 * tol
            })
            .collect();
        // Boxes grown by the tolerance plus a margin for their f32 rounding.
        let boxes: Vec<Aabb> = long
            .par_iter()
            .map(|&e| {
                let e = edges[e as usize];
                let b =
                    Aabb::from_points([mesh.positions[e.a as usize], mesh.positions[e.b as usize]]);
                let size = b.extent().max_element().max(b.max.abs().max_element());
                b.expanded(tol as f32 + size * f32::EPSILON * 4.0)
            })
            .collect();
        let bvh = Bvh::build(&boxes);
        // The searched edges ending at each vertex: their boxes hold it
        // whatever the mesh, so they do not count against the limit (the
        // hub of a fan ends thousands).
        let mut valence = vec![0usize; mesh.positions.len()];
        for &e in &long {
            let Edge { a, b, .. } = edges[e as usize];
            valence[a as usize] += 1;
            valence[b as usize] += 1;
        }
        // The pairs anyone reads: a vertex inside an unmatched edge (a
        // T-junction, a seam the coverage test seals), or an end of an
        // unmatched edge inside any edge (one that may cover it). A vertex
        // of a closed surface lying near the edges of a dense part is
        // neither, and keeping its pairs would only cost memory.
        let mut open_end = vec![false; mesh.positions.len()];
        for e in edges.iter().filter(|e| e.unmatched) {
            open_end[e.a as usize] = true;
            open_end[e.b as usize] = true;
        }
        let mut vertices: Vec<u32> = edges.iter().flat_map(|e| [e.a, e.b]).collect();
        vertices.par_sort_unstable();
        vertices.dedup();
        let pairs: Vec<(Vec<(u32, u32)>, usize)> = vertices
            .par_chunks(CHUNK)
            .map(|chunk| {
                let (mut scratch, mut hits) = (BvhScratch::default(), Vec::new());
                let (mut out, mut cut) = (Vec::new(), 0);
                for &v in chunk {
                    let p = mesh.positions[v as usize];
                    hits.clear();
                    let query = Aabb::from_points([p]);
                    if bvh.query_aabb_at_most(
                        &boxes,
                        &query,
                        &mut scratch,
                        &mut hits,
                        super::MAX_NEIGHBOURS + valence[v as usize],
                    ) {
                        cut += 1;
                    }
                    for hit in &mut hits {
                        *hit = long[*hit as usize];
                    }
                    hits.sort_unstable();
                    let mut kept = 0;
                    for &e in &hits {
                        let Edge {
                            a, b, unmatched, ..
                        } = edges[e as usize];
                        if !(unmatched || open_end[v as usize]) {
                            continue;
                        }
                        let (pa, pb, pv) = (pos(a), pos(b), pos(v));
                        if v != a
                            && v != b
                            && pv.distance(pa) > tol
                            && pv.distance(pb) > tol
                            && segment_distance(pa, pb, pv) <= tol
                        {
                            if kept == MAX_EDGES_THROUGH_VERTEX {
                                cut += 1;
                                break;
                            }
                            out.push((v, e));
                            kept += 1;
                        }
                    }
                }
                (out, cut)
            })
            .collect();
        OnEdges {
            cut: pairs.iter().map(|p| p.1).sum(),
            pairs: pairs.into_iter().flat_map(|p| p.0).collect(),
        }
    }

    /// The pairs of vertex `v`: a run of `pairs`.
    pub fn of_vertex(&self, v: u32) -> &[(u32, u32)] {
        let from = self.pairs.partition_point(|p| p.0 < v);
        let to = from + self.pairs[from..].partition_point(|p| p.0 == v);
        &self.pairs[from..to]
    }
}

/// T-junctions of `mesh`, by vertex, then by edge: the pairs of `on` whose
/// edge is unmatched and whose vertex is farther than the tolerance from
/// both of its ends.
pub(super) fn find(
    mesh: &TriMesh,
    edges: &[Edge],
    on: &OnEdges,
    options: &HygieneOptions,
) -> Found {
    let tol = options.tjunction_m;
    if on.pairs.is_empty() {
        return Found {
            cut: on.cut,
            ..Found::default()
        };
    }
    let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
    // (vertex, triangle) for each end of each unmatched edge: the
    // triangles listed with a T-junction at the vertex.
    let mut ends: Vec<(u32, u32)> = edges
        .iter()
        .filter(|e| e.unmatched)
        .flat_map(|e| [(e.a, e.tri), (e.b, e.tri)])
        .collect();
    ends.par_sort_unstable();
    ends.dedup();
    let mut starts: Vec<usize> = (0..on.pairs.len())
        .filter(|&i| i == 0 || on.pairs[i - 1].0 != on.pairs[i].0)
        .collect();
    starts.push(on.pairs.len());
    let mut found = find_capped_with(
        starts.len() - 1,
        options.max_items_per_kind,
        || (),
        |_, c, sink| {
            let pairs = &on.pairs[starts[c]..starts[c + 1]];
            let v = pairs[0].0;
            let from = ends.partition_point(|e| e.0 < v);
            let to = from + ends[from..].partition_point(|e| e.0 == v);
            let at_vertex = &ends[from..to];
            for &(_, e) in pairs {
                let Edge {
                    a,
                    b,
                    tri,
                    unmatched,
                } = edges[e as usize];
                if !unmatched {
                    continue;
                }
                let (pa, pb, pv) = (pos(a), pos(b), pos(v));
                if pv.distance(pa) > tol && pv.distance(pb) > tol {
                    let off = segment_distance(pa, pb, pv);
                    sink.push(|| {
                        let mut tris = vec![tri];
                        tris.extend(at_vertex.iter().map(|&(_, t)| t).filter(|&t| t != tri));
                        HygieneItem {
                            kind: HygieneKind::TJunction,
                            position: pv,
                            triangles: tris,
                            size: off,
                            object: None,
                        }
                    });
                }
            }
        },
    );
    found.cut += on.cut;
    found
}

/// Distance from `p` to the segment `a`-`b`.
pub(super) fn segment_distance(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
