//! Overlapping coplanar triangles: pairs that face the same way, lie in one
//! plane (normals within the coplanar angle, corners within the plane
//! distance) and share more than a sliver of area. A doubled decal or a
//! folded-over triangle is one; the two sides of a two-sided wall, or the
//! faces where two solids rest on each other, face opposite ways and are
//! not. Candidates come from the BVH (boxes overlapping the triangle's box
//! grown by the plane distance); the overlap is one triangle clipped by
//! the other in the first one's plane (Sutherland and Hodgman 1974,
//! "Reentrant polygon clipping": both are convex).

use super::collect::{Found, find_capped_with};
use super::edges::normal_angle_deg;
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::math::DVec3;
use crate::mesh::TriMesh;
use glam::DVec2;

/// Overlapping pairs of `mesh`, by first triangle, then second.
pub(super) fn find(
    mesh: &TriMesh,
    bvh: &Bvh,
    normals: &[DVec3],
    options: &HygieneOptions,
) -> Found {
    let plane_tol = options.plane_distance_m.max(0.0);
    let scratch = || (BvhScratch::default(), Vec::new(), QueryStats::default());
    find_capped_with(
        mesh.triangle_count(),
        options.max_items_per_kind,
        scratch,
        |(scratch, hits, stats), i, sink| {
            let n = normals[i];
            if n == DVec3::ZERO {
                return;
            }
            let query = mesh.tri_aabbs[i].expanded(plane_tol as f32);
            hits.clear();
            bvh.query_aabb(&mesh.tri_aabbs, &query, scratch, hits, None, stats);
            hits.sort_unstable();
            let tri_i = mesh.triangle_f64(i as u32);
            for &j in hits.iter().filter(|&&j| j as usize > i) {
                let same_plane = normal_angle_deg(n, normals[j as usize])
                    .is_some_and(|deg| deg <= options.coplanar_deg);
                if !same_plane {
                    continue;
                }
                let tri_j = mesh.triangle_f64(j);
                if tri_j
                    .iter()
                    .any(|&p| (p - tri_i[0]).dot(n).abs() > plane_tol)
                {
                    continue;
                }
                if let Some((area, centroid)) = overlap(tri_i, tri_j, n)
                    && area > options.overlap_min_area_m2
                {
                    sink.push(|| HygieneItem {
                        kind: HygieneKind::Overlap,
                        position: centroid,
                        triangles: vec![i as u32, j],
                        size: area,
                    });
                }
            }
        },
    )
}

/// The area and centroid (world space) of the overlap of `a` and `b`
/// projected onto `a`'s plane (unit normal `n`), or `None` when they do
/// not overlap.
fn overlap(a: [DVec3; 3], b: [DVec3; 3], n: DVec3) -> Option<(f64, DVec3)> {
    let (u, v) = n.any_orthonormal_pair();
    let origin = a[0];
    let flat = |p: DVec3| DVec2::new((p - origin).dot(u), (p - origin).dot(v));
    let mut clip_by = a.map(flat);
    // Counter-clockwise in (u, v) (it is when `u x v = n`), for the clip.
    if cross2(clip_by[1] - clip_by[0], clip_by[2] - clip_by[0]) < 0.0 {
        clip_by.swap(1, 2);
    }
    let mut poly: Vec<DVec2> = b.map(flat).to_vec();
    for k in 0..3 {
        let (p, q) = (clip_by[k], clip_by[(k + 1) % 3]);
        poly = clip(&poly, p, q);
        if poly.len() < 3 {
            return None;
        }
    }
    let (area, centre) = area_centroid(&poly);
    (area > 0.0).then(|| (area, origin + u * centre.x + v * centre.y))
}

fn cross2(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The part of `poly` left of the directed line `p`-`q`.
fn clip(poly: &[DVec2], p: DVec2, q: DVec2) -> Vec<DVec2> {
    let side = |x: DVec2| cross2(q - p, x - p);
    let mut out = Vec::with_capacity(poly.len() + 1);
    for (k, &cur) in poly.iter().enumerate() {
        let prev = poly[(k + poly.len() - 1) % poly.len()];
        let (sc, sp) = (side(cur), side(prev));
        if (sc >= 0.0) != (sp >= 0.0) {
            out.push(prev + (cur - prev) * (sp / (sp - sc)));
        }
        if sc >= 0.0 {
            out.push(cur);
        }
    }
    out
}

/// Absolute area and centroid of a simple polygon (the shoelace formula).
fn area_centroid(poly: &[DVec2]) -> (f64, DVec2) {
    let (mut twice_area, mut c) = (0.0, DVec2::ZERO);
    for (k, &p) in poly.iter().enumerate() {
        let q = poly[(k + 1) % poly.len()];
        let w = cross2(p, q);
        twice_area += w;
        c += (p + q) * w;
    }
    if twice_area == 0.0 {
        return (0.0, DVec2::ZERO);
    }
    ((twice_area * 0.5).abs(), c / (3.0 * twice_area))
}
