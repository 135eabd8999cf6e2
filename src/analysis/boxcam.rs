//! The box camera against the level, in four levels, world space (Y up,
//! metres), following the "Snok" collision algorithm (Torbjørn Vik, version
//! 2.1, 2000; seed document 004).
//!
//! The camera is an axis-aligned box. Each triangle of the level is settled
//! by the first level that rejects it:
//! 1. the camera box against each object's box (a rejected object rejects
//!    all its triangles);
//! 2. the camera box against the triangle's box;
//! 3. the boxes of the camera box's 12 edges (each edge is axis-parallel,
//!    so its box is the edge itself) against the triangle's box;
//! 4. each surviving edge as a segment against the triangle: the
//!    intersection with the triangle's plane, then inside the triangle by
//!    the weights of two edge vectors in the axis plane the triangle
//!    projects to best. A triangle that survives level 4 collides, with the
//!    intersection points.
//!
//! The levels only ever test the box's edges, as the document does: a
//! triangle lying inside the box, or piercing a face without crossing an
//! edge, is rejected (the scenario tests show it), and an edge lying in the
//! triangle's plane is not an intersection.
//!
//! The document's extension for long chains (a snake's body: one box per
//! segment instead of one box around the whole chain) is [`test_chain`]:
//! a path (e.g. the positions a walk recorded) is cut into segments, each
//! tested with the box swept along it.

use crate::math::Aabb;
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};

#[path = "boxcam_chain.rs"]
mod chain;
pub use chain::{
    ChainError, ChainReport, ChainSegment, MAX_CHAIN_SEGMENTS, test_chain, test_chain_colliding,
};

/// An axis-aligned box, `f64`, world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoxCamera {
    /// Smallest corner.
    pub min: DVec3,
    /// Largest corner.
    pub max: DVec3,
}

/// The corner indices (bit 0: x, bit 1: y, bit 2: z set = max) of the 12
/// edges: four along x, four along y, four along z.
const EDGE_CORNERS: [(u8, u8); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

impl BoxCamera {
    /// The box centred on `center` with half sizes `half_extents`.
    pub fn around(center: DVec3, half_extents: DVec3) -> BoxCamera {
        let h = half_extents.abs();
        BoxCamera {
            min: center - h,
            max: center + h,
        }
    }

    /// The smallest box holding both.
    pub fn union(&self, other: &BoxCamera) -> BoxCamera {
        BoxCamera {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Corner `i` (bit 0: x, bit 1: y, bit 2: z; set = the max side).
    pub fn corner(&self, i: u8) -> DVec3 {
        let pick = |bit: u8, lo: f64, hi: f64| if i & bit != 0 { hi } else { lo };
        DVec3::new(
            pick(1, self.min.x, self.max.x),
            pick(2, self.min.y, self.max.y),
            pick(4, self.min.z, self.max.z),
        )
    }

    /// Edge `e` (0..12) as a segment.
    pub fn edge(&self, e: usize) -> (DVec3, DVec3) {
        let (a, b) = EDGE_CORNERS[e];
        (self.corner(a), self.corner(b))
    }

    /// Whether the two closed boxes share a point.
    pub fn overlaps(&self, min: DVec3, max: DVec3) -> bool {
        self.min.cmple(max).all() && min.cmple(self.max).all()
    }

    /// Whether this box overlaps an `f32` box of the mesh.
    pub fn overlaps_aabb(&self, b: &Aabb) -> bool {
        !b.is_empty() && self.overlaps(b.min.as_dvec3(), b.max.as_dvec3())
    }
}

/// The level that rejected a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectLevel {
    /// 1: its object's box does not overlap the camera box.
    ObjectBox,
    /// 2: its own box does not overlap the camera box.
    TriangleBox,
    /// 3: no edge of the camera box overlaps its box.
    EdgeBoxes,
    /// 4: no surviving edge crosses the triangle.
    SegmentTriangle,
}

impl RejectLevel {
    /// The level's number in the document (1 to 4).
    pub fn number(self) -> u8 {
        match self {
            RejectLevel::ObjectBox => 1,
            RejectLevel::TriangleBox => 2,
            RejectLevel::EdgeBoxes => 3,
            RejectLevel::SegmentTriangle => 4,
        }
    }
}

/// Where one edge of the camera box crosses a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EdgeHit {
    /// The edge (0..12; see [`BoxCamera::edge`]).
    pub edge: u8,
    /// Fraction along the edge.
    pub t: f64,
    /// The intersection point.
    pub point: DVec3,
}

/// A triangle that got past level 2: what levels 3 and 4 made of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriangleVerdict {
    /// Triangle index in the mesh.
    pub triangle: u32,
    /// Its object.
    pub object: usize,
    /// The level that rejected it (`None`: it collides).
    pub rejected_at: Option<RejectLevel>,
    /// Edges whose boxes overlap the triangle's box (those level 4 tests).
    pub surviving_edges: Vec<u8>,
    /// Where those edges cross the triangle.
    pub hits: Vec<EdgeHit>,
}

/// The four-level test of one camera box.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoxCamReport {
    /// The camera box.
    pub camera: BoxCamera,
    /// Objects whose box overlaps the camera box (level 1 passed).
    pub objects_passed: Vec<usize>,
    /// Triangles rejected at levels 1, 2, 3, 4.
    pub rejected: [usize; 4],
    /// Triangles that collide (survived level 4).
    pub colliding: usize,
    /// Every triangle that reached level 3, by index.
    pub triangles: Vec<TriangleVerdict>,
}

impl BoxCamReport {
    /// All intersection points, in triangle order.
    pub fn points(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.triangles
            .iter()
            .flat_map(|t| t.hits.iter().map(|h| h.point))
    }
}

/// Runs the four levels for `camera` against every triangle of `mesh`.
pub fn test_box(mesh: &TriMesh, camera: BoxCamera) -> BoxCamReport {
    test_box_colliding(mesh, camera, None)
}

/// [`test_box`] with per-object collision flags (`None`: all collide); a
/// non-colliding object (a trigger, a decal) counts as rejected at level 1.
pub fn test_box_colliding(
    mesh: &TriMesh,
    camera: BoxCamera,
    object_colliding: Option<&[bool]>,
) -> BoxCamReport {
    let mut rejected = [0usize; 4];
    let mut objects_passed = Vec::new();
    let mut triangles = Vec::new();
    for (o, object) in mesh.objects().iter().enumerate() {
        let collides = object_colliding.is_none_or(|f| f.get(o).copied().unwrap_or(true));
        if !collides || !camera.overlaps_aabb(&object.aabb) {
            rejected[0] += object.triangle_count as usize;
            continue;
        }
        objects_passed.push(o);
        let first = object.first_triangle;
        for tri in first..first + object.triangle_count {
            let tri_box = &mesh.tri_aabbs()[tri as usize];
            if !camera.overlaps_aabb(tri_box) {
                rejected[1] += 1;
                continue;
            }
            let verdict = edges_against_triangle(mesh, &camera, tri, o);
            if let Some(level) = verdict.rejected_at {
                rejected[level.number() as usize - 1] += 1;
            }
            triangles.push(verdict);
        }
    }
    let colliding = triangles.iter().filter(|t| t.rejected_at.is_none()).count();
    BoxCamReport {
        camera,
        objects_passed,
        rejected,
        colliding,
        triangles,
    }
}

/// Levels 3 and 4 for one triangle whose box overlaps the camera box.
fn edges_against_triangle(
    mesh: &TriMesh,
    camera: &BoxCamera,
    tri: u32,
    object: usize,
) -> TriangleVerdict {
    let tri_box = &mesh.tri_aabbs()[tri as usize];
    let (bmin, bmax) = (tri_box.min.as_dvec3(), tri_box.max.as_dvec3());
    let corners = mesh.triangle_f64(tri);
    let mut surviving_edges = Vec::new();
    let mut hits = Vec::new();
    for e in 0..12 {
        let (a, b) = camera.edge(e);
        let edge_box = BoxCamera {
            min: a.min(b),
            max: a.max(b),
        };
        if !edge_box.overlaps(bmin, bmax) {
            continue;
        }
        surviving_edges.push(e as u8);
        if let Some((t, point)) = segment_triangle(a, b, corners) {
            hits.push(EdgeHit {
                edge: e as u8,
                t,
                point,
            });
        }
    }
    let rejected_at = if surviving_edges.is_empty() {
        Some(RejectLevel::EdgeBoxes)
    } else if hits.is_empty() {
        Some(RejectLevel::SegmentTriangle)
    } else {
        None
    };
    TriangleVerdict {
        triangle: tri,
        object,
        rejected_at,
        surviving_edges,
        hits,
    }
}

/// Level 4: where segment `v0 -> v1` crosses triangle `t` (the fraction
/// along the segment and the point), the document's way: the line meets the
/// triangle's plane at `t = n.(t0 - v0) / n.(v1 - v0)`; the point is inside
/// when, projected to the axis plane the normal is most along, its offset
/// from `t0` is `r a + s b` with `r, s >= 0` and `r + s <= 1`.
pub fn segment_triangle(v0: DVec3, v1: DVec3, t: [DVec3; 3]) -> Option<(f64, DVec3)> {
    let (a, b) = (t[1] - t[0], t[2] - t[0]);
    let n = a.cross(b);
    let dir = v1 - v0;
    let denom = n.dot(dir);
    // Parallel (or a degenerate triangle): the document has no intersection.
    if denom.abs() <= 1e-12 * n.length() * dir.length() || denom == 0.0 {
        return None;
    }
    let s_line = n.dot(t[0] - v0) / denom;
    if !(0.0..=1.0).contains(&s_line) {
        return None;
    }
    let point = v0 + dir * s_line;
    let d = point - t[0];
    // Drop the axis the normal is most along: the projection keeps the
    // largest area (the document projects a triangle in a coordinate plane
    // onto that plane for the same reason).
    let na = n.abs();
    let (i, j) = if na.x >= na.y && na.x >= na.z {
        (1, 2)
    } else if na.y >= na.z {
        (2, 0)
    } else {
        (0, 1)
    };
    let det = a[i] * b[j] - a[j] * b[i];
    let r = (d[i] * b[j] - d[j] * b[i]) / det;
    let s = (a[i] * d[j] - a[j] * d[i]) / det;
    let eps = 1e-12;
    let inside = r >= -eps && s >= -eps && r + s <= 1.0 + eps;
    (inside && point.is_finite()).then_some((s_line, point))
}

#[cfg(test)]
#[path = "boxcam_tests.rs"]
mod tests;
