//! The welded edge table: every triangle's three edges keyed by their
//! welded end vertices, sorted so that the triangles sharing an edge are
//! one run. A run of one is an unmatched edge (open unless collinear
//! neighbours cover it, see `coverage`), of more than two a non-manifold
//! edge (unless it is where closed solids touch, see [`solids_touch`]); a
//! run of two is inconsistently wound when both triangles run the edge the
//! same way, and a coplanar internal edge when they run it in opposite
//! ways with normals within the coplanar angle.
//!
//! Sorting (rayon's parallel sort of 16-byte entries) rather than a hash
//! map keeps memory at three entries per triangle and the order of every
//! list deterministic: edges come out by their welded vertex ids.

use super::collect::{Found, find_capped};
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::math::DVec3;
use crate::mesh::TriMesh;
use rayon::prelude::*;

/// One use of an edge by a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Use {
    /// `low << 32 | high` of the edge's welded end vertices.
    key: u64,
    /// The triangle using it.
    tri: u32,
    /// Whether the triangle runs the edge from `low` to `high`.
    forward: bool,
}

/// A welded edge of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Edge {
    /// Welded end vertices (indices into the mesh's positions), `a < b`.
    pub a: u32,
    /// See `a`.
    pub b: u32,
    /// The first triangle using it (the only one when unmatched).
    pub tri: u32,
    /// Whether one triangle only uses it.
    pub unmatched: bool,
}

/// Every edge use, grouped by edge.
pub(super) struct EdgeTable {
    uses: Vec<Use>,
    /// Start of each run of `uses` sharing a key, then `uses.len()`.
    runs: Vec<u32>,
}

fn key(a: u32, b: u32) -> u64 {
    (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
}

fn ends(key: u64) -> (u32, u32) {
    ((key >> 32) as u32, key as u32)
}

impl EdgeTable {
    /// The table of `mesh`'s edges on `welded` vertex ids (the first vertex
    /// at each position). Edges whose ends weld together are left out: their
    /// triangle has no area and shows as a sliver.
    pub fn new(mesh: &TriMesh, welded: &[u32]) -> EdgeTable {
        let mut uses: Vec<Use> = mesh
            .triangles
            .par_iter()
            .enumerate()
            .flat_map_iter(|(t, corners)| {
                let w = corners.map(|v| welded[v as usize]);
                (0..3).filter_map(move |c| {
                    let (a, b) = (w[c], w[(c + 1) % 3]);
                    (a != b).then(|| Use {
                        key: key(a, b),
                        tri: t as u32,
                        forward: a < b,
                    })
                })
            })
            .collect();
        uses.par_sort_unstable();
        let mut runs: Vec<u32> = Vec::with_capacity(uses.len() / 2 + 1);
        for (i, u) in uses.iter().enumerate() {
            if i == 0 || uses[i - 1].key != u.key {
                runs.push(i as u32);
            }
        }
        runs.push(uses.len() as u32);
        EdgeTable { uses, runs }
    }

    fn run(&self, r: usize) -> &[Use] {
        &self.uses[self.runs[r] as usize..self.runs[r + 1] as usize]
    }

    fn run_count(&self) -> usize {
        self.runs.len() - 1
    }

    /// Whether welded vertices `a` and `b` are the ends of an edge.
    pub fn has_edge(&self, a: u32, b: u32) -> bool {
        let k = key(a, b);
        let at = self.uses.partition_point(|u| u.key < k);
        self.uses.get(at).is_some_and(|u| u.key == k)
    }

    /// Every edge, by welded vertex ids, in key order.
    pub fn edges(&self) -> Vec<Edge> {
        (0..self.run_count())
            .map(|r| {
                let run = self.run(r);
                let (a, b) = ends(run[0].key);
                Edge {
                    a,
                    b,
                    tri: run[0].tri,
                    unmatched: run.len() == 1,
                }
            })
            .collect()
    }

    /// `[non-manifold, inconsistent winding, coplanar internal]` (the
    /// unmatched edges, [`Edge::unmatched`], are sorted out by `coverage`).
    pub fn classify(
        &self,
        mesh: &TriMesh,
        welded: &[u32],
        normals: &[DVec3],
        options: &HygieneOptions,
    ) -> [Found; 3] {
        let cap = options.max_items_per_kind;
        let n = self.run_count();
        let item = |kind, key: u64, triangles: Vec<u32>, size: Option<f64>| {
            let (a, b) = ends(key);
            let (pa, pb) = (
                mesh.positions[a as usize].as_dvec3(),
                mesh.positions[b as usize].as_dvec3(),
            );
            HygieneItem {
                kind,
                position: (pa + pb) * 0.5,
                triangles,
                size: size.unwrap_or_else(|| pa.distance(pb)),
                object: None,
            }
        };
        let non_manifold = find_capped(n, cap, |r, sink| {
            let run = self.run(r);
            if run.len() > 2 && !solids_touch(mesh, welded, run) {
                let mut tris: Vec<u32> = run.iter().map(|u| u.tri).collect();
                tris.sort_unstable();
                sink.push(|| item(HygieneKind::NonManifoldEdge, run[0].key, tris, None));
            }
        });
        let winding = find_capped(n, cap, |r, sink| {
            if let [u, v] = self.run(r)
                && u.forward == v.forward
            {
                let tris = vec![u.tri, v.tri];
                sink.push(|| item(HygieneKind::InconsistentWinding, u.key, tris, None));
            }
        });
        let max_deg = options.coplanar_deg;
        let coplanar = find_capped(n, cap, |r, sink| {
            if let [u, v] = self.run(r)
                && u.forward != v.forward
                && let Some(deg) =
                    normal_angle_deg(normals[u.tri as usize], normals[v.tri as usize])
                && deg <= max_deg
            {
                let tris = vec![u.tri, v.tri];
                sink.push(|| item(HygieneKind::CoplanarEdge, u.key, tris, Some(deg)));
            }
        });
        [non_manifold, winding, coplanar]
    }
}

/// The angle between two unit normals, degrees (`atan2`, accurate near 0);
/// `None` when either is zero (a degenerate triangle has no plane).
pub(super) fn normal_angle_deg(n: DVec3, m: DVec3) -> Option<f64> {
    if n == DVec3::ZERO || m == DVec3::ZERO {
        return None;
    }
    Some(n.cross(m).length().atan2(n.dot(m)).to_degrees())
}

/// Faces around an edge closer than this (radians) are ordered as one
/// place; far above the rounding of `f32` corners, far below a real wedge.
const SAME_ANGLE_RAD: f64 = 1e-4;

/// Whether the triangles around an edge used more than twice are closed
/// solids that only touch there (a ramp starting on a floor tile's edge,
/// the two sides of a two-sided wall): sorted by angle around the edge,
/// they run it alternately one way and the other, so each wedge between
/// two neighbours is inside exactly one solid or outside all of them.
/// Interpenetrating solids, fins and odd counts break the alternation. The
/// generated levels are built of such touching solids, and so are most
/// real ones; the topological definition (more than two triangles) would
/// flag all of them. Coincident faces (a ramp's bottom on the floor's top)
/// are ordered as if pushed apart along their normals: the one whose
/// normal points towards larger angles (its solid below) first.
fn solids_touch(mesh: &TriMesh, welded: &[u32], run: &[Use]) -> bool {
    use std::f64::consts::TAU;
    if run.len() % 2 == 1 {
        return false;
    }
    let (a, b) = ends(run[0].key);
    let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
    let (origin, axis) = (pos(a), (pos(b) - pos(a)).normalize_or_zero());
    let (e1, e2) = axis.any_orthonormal_pair();
    // (angle of the third corner, side the normal points to, direction).
    let mut around: Vec<(f64, f64, bool)> = run
        .iter()
        .map(|u| {
            let corners = mesh.triangles[u.tri as usize];
            let third = corners
                .iter()
                .map(|&v| welded[v as usize])
                .find(|&v| v != a && v != b);
            let angle = third.map_or(0.0, |v| {
                let w = pos(v) - origin;
                w.dot(e2).atan2(w.dot(e1))
            });
            let towards_larger = e2 * angle.cos() - e1 * angle.sin();
            (
                angle,
                mesh.triangle_normal(u.tri).dot(towards_larger),
                u.forward,
            )
        })
        .collect();
    around.sort_by(|p, q| p.0.total_cmp(&q.0));
    // Start after a real gap, so no group of coincident faces straddles ±π.
    let k = around.len();
    let gap_before = |i: usize| {
        let prev = if i == 0 {
            around[k - 1].0 - TAU
        } else {
            around[i - 1].0
        };
        around[i].0 - prev > SAME_ANGLE_RAD
    };
    let start = (0..k).find(|&i| gap_before(i)).unwrap_or(0);
    around.rotate_left(start);
    let first = around[0].0;
    for face in &mut around {
        if face.0 < first {
            face.0 += TAU;
        }
    }
    let mut i = 0;
    while i < k {
        let mut j = i + 1;
        while j < k && around[j].0 - around[j - 1].0 <= SAME_ANGLE_RAD {
            j += 1;
        }
        around[i..j].sort_by(|p, q| q.1.total_cmp(&p.1));
        i = j;
    }
    (0..k).all(|i| around[i].2 != around[(i + 1) % k].2)
}
