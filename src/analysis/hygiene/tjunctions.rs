//! T-junctions: a vertex lying strictly inside another triangle's edge.
//!
//! Only open edges are searched, and only vertices at the end of an open
//! edge are candidates. That is both correct and fast: where a vertex splits
//! one side of a seam and not the other, the long edge has no partner with
//! the same ends, so it is open, and so are the short edges meeting at the
//! vertex. An edge shared by two triangles cannot have a T-junction along
//! it (each side's triangles would leave it unmatched), and restricting to
//! the open edges keeps a closed level's search empty. Candidate edges are
//! found with a BVH over their boxes grown by the tolerance, so the search
//! is near-linear in the number of open edges.

use super::collect::{Found, find_capped_with};
use super::edges::{EdgeTable, OpenEdge};
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::math::{Aabb, DVec3};
use crate::mesh::TriMesh;

/// T-junctions of `mesh`, by vertex, then by edge.
pub(super) fn find(mesh: &TriMesh, table: &EdgeTable, options: &HygieneOptions) -> Found {
    let tol = options.tjunction_m;
    let open = table.open_edges();
    if open.is_empty() || tol.is_nan() || tol <= 0.0 {
        return Found::default();
    }
    let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
    // Boxes grown by the tolerance plus a margin for their f32 rounding.
    let boxes: Vec<Aabb> = open
        .iter()
        .map(|e| {
            let b = Aabb::from_points([mesh.positions[e.a as usize], mesh.positions[e.b as usize]]);
            let size = b.extent().max_element().max(b.max.abs().max_element());
            b.expanded(tol as f32 + size * f32::EPSILON * 4.0)
        })
        .collect();
    let bvh = Bvh::build(&boxes);
    // (vertex, triangle) for each end of each open edge: the candidates,
    // and the triangles listed with a T-junction at the vertex.
    let mut ends: Vec<(u32, u32)> = open
        .iter()
        .flat_map(|e| [(e.a, e.tri), (e.b, e.tri)])
        .collect();
    ends.sort_unstable();
    ends.dedup();
    let mut starts: Vec<usize> = (0..ends.len())
        .filter(|&i| i == 0 || ends[i - 1].0 != ends[i].0)
        .collect();
    starts.push(ends.len());
    let scratch = || (BvhScratch::default(), Vec::new(), QueryStats::default());
    find_capped_with(
        starts.len() - 1,
        options.max_items_per_kind,
        scratch,
        |(scratch, hits, stats), c, sink| {
            let at_vertex = &ends[starts[c]..starts[c + 1]];
            let v = at_vertex[0].0;
            let p = mesh.positions[v as usize];
            hits.clear();
            bvh.query_aabb(&boxes, &Aabb::from_points([p]), scratch, hits, None, stats);
            hits.sort_unstable();
            for &e in hits.iter() {
                let OpenEdge { a, b, tri } = open[e as usize];
                if v == a || v == b {
                    continue;
                }
                let (pa, pb, pv) = (pos(a), pos(b), pos(v));
                let off = segment_distance(pa, pb, pv);
                if off <= tol && pv.distance(pa) > tol && pv.distance(pb) > tol {
                    sink.push(|| {
                        let mut tris = vec![tri];
                        tris.extend(at_vertex.iter().map(|&(_, t)| t).filter(|&t| t != tri));
                        HygieneItem {
                            kind: HygieneKind::TJunction,
                            position: pv,
                            triangles: tris,
                            size: off,
                        }
                    });
                }
            }
        },
    )
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
