//! Overlapping coplanar triangles: pairs that face the same way, lie in one
//! plane (normals within the coplanar angle, corners within the plane
//! distance) and share more than a sliver of area. A doubled decal or a
//! folded-over triangle is one; the two sides of a two-sided wall, or the
//! faces where two solids rest on each other, face opposite ways and are
//! not. Candidates are the triangles with nearly the same normal (a grid
//! over normals, see [`NormalGroups`]) whose boxes meet the triangle's box
//! grown by the plane distance along its normal; the overlap is one
//! triangle clipped by the other in the first one's plane (Sutherland and
//! Hodgman 1974, "Reentrant polygon clipping": both are convex).

use super::cells::{CellMap, around, cell_of};
use super::collect::{Found, find_capped_with};
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::bvh::{Bvh, BvhScratch};
use crate::math::{Aabb, DVec3, Vec3};
use crate::mesh::TriMesh;
use glam::DVec2;
use rayon::prelude::*;

/// Overlapping pairs of `mesh`, by first triangle, then second.
pub(super) fn find(mesh: &TriMesh, normals: &[DVec3], options: &HygieneOptions) -> Found {
    let plane_tol = options.plane_distance_m.max(0.0);
    let min_cos = options.coplanar_deg.to_radians().cos();
    let groups = NormalGroups::new(mesh, normals, options.coplanar_deg);
    let scratch = || (BvhScratch::default(), Vec::new(), Vec::new());
    find_capped_with(
        mesh.triangle_count(),
        options.max_items_per_kind,
        scratch,
        |(scratch, hits, matches), i, sink| {
            let n = normals[i];
            if n == DVec3::ZERO {
                return;
            }
            let tri_i = mesh.triangle_f64(i as u32);
            // Overlapping interiors put part of `j` within the plane
            // distance of `i`: its box meets `i`'s grown along the normal
            // (and by a micrometre for the boxes' f32 rounding).
            let grow = (n.abs() * plane_tol).as_vec3() + Vec3::splat(1e-6);
            let b = mesh.tri_aabbs[i];
            let query = Aabb {
                min: b.min - grow,
                max: b.max + grow,
            };
            if groups.candidates(n, &query, scratch, hits) {
                sink.cut();
            }
            matches.clear();
            for &j in hits.iter() {
                if j as usize <= i || normals[j as usize].dot(n) < min_cos {
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
                    matches.push((j, area, centroid));
                }
            }
            matches.sort_unstable_by_key(|m: &(u32, f64, DVec3)| m.0);
            for &(j, area, centroid) in matches.iter() {
                sink.push(|| HygieneItem {
                    kind: HygieneKind::Overlap,
                    position: centroid,
                    triangles: vec![i as u32, j],
                    size: area,
                    object: None,
                });
            }
        },
    )
}

/// Triangles grouped by their unit normal on a grid of cells as wide as the
/// chord of the coplanar angle, each group with a BVH over its boxes: two
/// normals within the angle are at most one cell apart on each axis, so a
/// triangle's coplanar candidates are in the 27 cells around its normal's.
/// A box query over the whole level's BVH made the whole analysis of the
/// conference level take 4.6 s instead of 1.0 s (test build): its chairs
/// pack hundreds of millimetre triangles of every orientation into each
/// triangle's box, 203 million candidates of which 11 million are coplanar.
struct NormalGroups {
    cell: f64,
    index: CellMap<usize>,
    groups: Vec<(Vec<u32>, Vec<Aabb>, Bvh)>,
}

impl NormalGroups {
    fn new(mesh: &TriMesh, normals: &[DVec3], coplanar_deg: f64) -> NormalGroups {
        let chord = 2.0 * (coplanar_deg.clamp(0.0, 180.0).to_radians() * 0.5).sin();
        let cell = chord.max(1e-9);
        let mut keyed: Vec<([i64; 3], u32)> = (0..normals.len())
            .filter(|&t| normals[t] != DVec3::ZERO)
            .map(|t| (cell_of(normals[t], cell), t as u32))
            .collect();
        keyed.par_sort_unstable();
        let mut runs = Vec::new();
        let mut start = 0;
        for i in 1..=keyed.len() {
            if i == keyed.len() || keyed[i].0 != keyed[start].0 {
                runs.push((keyed[start].0, start, i));
                start = i;
            }
        }
        let groups: Vec<(Vec<u32>, Vec<Aabb>, Bvh)> = runs
            .par_iter()
            .map(|&(_, s, e)| {
                let tris: Vec<u32> = keyed[s..e].iter().map(|k| k.1).collect();
                let boxes: Vec<Aabb> = tris.iter().map(|&t| mesh.tri_aabbs[t as usize]).collect();
                let bvh = Bvh::build_single_threaded(&boxes, 8);
                (tris, boxes, bvh)
            })
            .collect();
        let index = runs.iter().enumerate().map(|(g, r)| (r.0, g)).collect();
        NormalGroups {
            cell,
            index,
            groups,
        }
    }

    /// Fills `out` with the triangles near normal `n` whose boxes meet
    /// `query`, at most [`super::MAX_OVERLAP_CANDIDATES`]; `true` when there were
    /// more.
    fn candidates(
        &self,
        n: DVec3,
        query: &Aabb,
        scratch: &mut BvhScratch,
        out: &mut Vec<u32>,
    ) -> bool {
        out.clear();
        for c in around(cell_of(n, self.cell)) {
            let Some(&g) = self.index.get(&c) else {
                continue;
            };
            let (tris, boxes, bvh) = &self.groups[g];
            let before = out.len();
            let room = super::MAX_OVERLAP_CANDIDATES - before;
            let cut = bvh.query_aabb_at_most(boxes, query, scratch, out, room);
            for k in &mut out[before..] {
                *k = tris[*k as usize];
            }
            if cut || out.len() == super::MAX_OVERLAP_CANDIDATES {
                return cut;
            }
        }
        false
    }
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
    let mut poly = Polygon::default();
    for p in b {
        poly.push(flat(p));
    }
    for k in 0..3 {
        poly = poly.clip(clip_by[k], clip_by[(k + 1) % 3]);
        if poly.len < 3 {
            return None;
        }
    }
    let (area, centre) = poly.area_centroid();
    (area > 0.0).then(|| (area, origin + u * centre.x + v * centre.y))
}

fn cross2(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// A convex polygon of at most 9 corners, on the stack: a triangle clipped
/// by three half-planes has at most 6, and this runs millions of times.
#[derive(Clone, Copy, Default)]
struct Polygon {
    corners: [DVec2; 9],
    len: usize,
}

impl Polygon {
    fn push(&mut self, p: DVec2) {
        if self.len < self.corners.len() {
            self.corners[self.len] = p;
            self.len += 1;
        }
    }

    /// The part left of the directed line `p`-`q` (Sutherland-Hodgman).
    fn clip(&self, p: DVec2, q: DVec2) -> Polygon {
        let side = |x: DVec2| cross2(q - p, x - p);
        let mut out = Polygon::default();
        let corners = &self.corners[..self.len];
        for (k, &cur) in corners.iter().enumerate() {
            let prev = corners[(k + self.len - 1) % self.len];
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

    /// Absolute area and centroid (the shoelace formula).
    fn area_centroid(&self) -> (f64, DVec2) {
        let corners = &self.corners[..self.len];
        let (mut twice_area, mut c) = (0.0, DVec2::ZERO);
        for (k, &p) in corners.iter().enumerate() {
            let q = corners[(k + 1) % self.len];
            let w = cross2(p, q);
            twice_area += w;
            c += (p + q) * w;
        }
        if twice_area == 0.0 {
            return (0.0, DVec2::ZERO);
        }
        ((twice_area * 0.5).abs(), c / (3.0 * twice_area))
    }
}
