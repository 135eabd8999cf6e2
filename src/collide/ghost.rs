//! Ghost hits: a contact on an edge or a vertex that is no corner of the
//! surface, because the triangles on its other side continue the same plane.
//!
//! A probe sliding over a tiled floor can meet the internal edge between two
//! coplanar tiles before it meets either face; the edge's contact normal then
//! tilts away from the floor's, and the probe is deflected or stopped by a
//! corner that is not there. Users of Jolt, Godot and Rapier report it again
//! and again for dense meshes (Jolt answers it with "active edges", Bullet
//! with its internal-edge utility). The tool does not hide it: it finds the
//! neighbours across the hit feature and, when they are flat within the
//! setting `ghost_edge_angle_deg`, flags the hit with them named.

use super::NearestHit;
use super::world::CollisionWorld;
use crate::bvh::{BvhScratch, QueryStats};
use crate::geometry::sweep::Feature;
use crate::math::{Aabb, Vec3};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A nearest hit on an edge or a vertex whose neighbouring triangles are
/// coplanar with the hit triangle: a "ghost" corner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GhostHit {
    /// The edge or vertex of the hit triangle that was hit.
    pub feature: Feature,
    /// The triangles across the edge, or around the vertex, other than the
    /// hit triangle; all colliding and flat with it.
    pub neighbours: Vec<u32>,
    /// The object of each neighbour, in the same order.
    pub neighbour_objects: Vec<u32>,
    /// The largest fold between the hit triangle and a neighbour, degrees
    /// (0 when exactly coplanar).
    pub max_fold_deg: f64,
    /// Angle between the contact normal and the hit triangle's face normal,
    /// degrees: how far the ghost corner bent the contact off the surface
    /// (near 0 when the edge was met where the face would have been met too).
    pub deflection_deg: f64,
}

/// A contact bent less than this from the hit face's normal, degrees, is
/// the face's own contact (rounding of an exact tie), not a corner's.
pub const MIN_DEFLECTION_DEG: f64 = 1e-3;

/// A hit that may be a ghost corner ([`suspect_feature`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Suspect {
    /// The hit's edge (its two ends) or vertex (twice).
    pub feature: [Vec3; 2],
    /// How far the contact normal is bent off the face's, degrees.
    pub deflection_deg: f64,
}

/// The hit's edge or vertex when the hit may be a ghost corner: met on an
/// edge or a vertex, bent off the face's normal. `None` for a face hit or
/// one met along the face's own normal, which [`detect`] never flags.
pub(super) fn suspect_feature(world: &CollisionWorld<'_>, hit: &NearestHit) -> Option<Suspect> {
    let corners = world.mesh.triangle(hit.triangle);
    let feature = match hit.feature {
        Feature::Face => return None,
        Feature::Edge(i) => [corners[i as usize], corners[(i as usize + 1) % 3]],
        Feature::Vertex(i) => [corners[i as usize]; 2],
    };
    // Met along the face's own normal: the edge or vertex was met where
    // the face is met too (a capsule's round end set down on a tile's
    // edge), so nothing is bent.
    let deflection_deg = deflection_deg(hit);
    if deflection_deg < MIN_DEFLECTION_DEG {
        return None;
    }
    Some(Suspect {
        feature,
        deflection_deg,
    })
}

/// The angle between the hit's contact normal and its face's normal turned
/// to the same side, degrees.
fn deflection_deg(hit: &NearestHit) -> f64 {
    let face_normal = hit.triangle_plane_normal;
    let facing = if face_normal.dot(hit.contact_normal) < 0.0 {
        -face_normal
    } else {
        face_normal
    };
    angle_deg(hit.contact_normal, facing)
}

/// Checks the nearest hit, which `suspect` (its [`suspect_feature`]) says
/// was met on an edge or vertex bent off its face's normal, for a ghost
/// corner; a fold of at most `flat_limit_deg` counts as flat. Reuses
/// `scratch` and `tris`. A hit with no suspect feature (a face hit, or
/// one met along the face's own normal: a capsule's round end set down on
/// a tile's edge) is never one, so there is nothing to call this with.
///
/// With `listed`, `tris` already holds every triangle whose box touches
/// the suspect feature (the clearance's search grown to reach it, see
/// `ClearanceQuery::measure_covering`), in the tree's order, and the tree
/// is not searched again: the triangles that share the feature are found
/// among them, in the same order as the search would list them.
pub(super) fn detect(
    world: &CollisionWorld<'_>,
    hit: &NearestHit,
    suspect: Suspect,
    flat_limit_deg: f64,
    scratch: &mut BvhScratch,
    tris: &mut Vec<u32>,
    listed: bool,
) -> Option<GhostHit> {
    let mesh = world.mesh;
    let [a, b] = suspect.feature;
    // Every triangle touching the feature has its box touching the feature's.
    if !listed {
        tris.clear();
        let mut stats = QueryStats::default();
        let query = Aabb::from_corners(a, b);
        world
            .bvh
            .query_aabb(&mesh.tri_aabbs, &query, scratch, tris, None, &mut stats);
    }
    let (neighbours, max_fold_deg) = if a == b {
        flat_fan(world, hit.triangle, a, tris)?
    } else {
        flat_across(world, hit.triangle, a, b, tris)?
    };
    if neighbours.is_empty() || max_fold_deg > flat_limit_deg {
        return None;
    }
    Some(GhostHit {
        feature: hit.feature,
        neighbour_objects: neighbours
            .iter()
            .map(|&t| mesh.object_of(t) as u32)
            .collect(),
        neighbours,
        max_fold_deg,
        deflection_deg: suspect.deflection_deg,
    })
}

/// The one triangle across the edge `a`-`b` of `hit_tri` and the fold
/// between them, degrees. `None` when the edge is open, shared by more
/// than two triangles, or its neighbour does not collide: then the edge is
/// a real boundary of what the probe collides with.
fn flat_across(
    world: &CollisionWorld<'_>,
    hit_tri: u32,
    a: Vec3,
    b: Vec3,
    tris: &[u32],
) -> Option<(Vec<u32>, f64)> {
    let mesh = world.mesh;
    let mut across = None;
    for &t in tris {
        if t == hit_tri {
            continue;
        }
        let c = mesh.triangle(t);
        if c.contains(&a) && c.contains(&b) {
            if across.is_some() {
                return None;
            }
            across = Some(t);
        }
    }
    let t = across?;
    if !world.triangle_collides(t) {
        return None;
    }
    let apex = |tri: u32| {
        let c = mesh.triangle_f64(tri);
        let (a, b) = (a.as_dvec3(), b.as_dvec3());
        c.into_iter().find(|&p| p != a && p != b).unwrap_or(a)
    };
    // Flat when the two apexes, seen square to the edge, point in opposite
    // directions; the angle between one and the other's opposite is the
    // fold, whatever the two triangles' winding.
    let (a64, b64) = (a.as_dvec3(), b.as_dvec3());
    let edge = b64 - a64;
    let square = |p: DVec3| {
        let w = p - a64;
        w - edge * (w.dot(edge) / edge.length_squared())
    };
    let fold = angle_deg(square(apex(hit_tri)), -square(apex(t)));
    Some((vec![t], fold))
}

/// The triangles around the vertex `v` other than `hit_tri` and the largest
/// fold between any of them and `hit_tri`, degrees. `None` unless the fan
/// closes (every edge out of `v` is shared by exactly two of its triangles)
/// and all of it collides: a vertex on an open border is a real corner.
fn flat_fan(
    world: &CollisionWorld<'_>,
    hit_tri: u32,
    v: Vec3,
    tris: &[u32],
) -> Option<(Vec<u32>, f64)> {
    let mesh = world.mesh;
    let fan: Vec<u32> = tris
        .iter()
        .copied()
        .filter(|&t| mesh.triangle(t).contains(&v))
        .collect();
    let mut spokes: Vec<[f32; 3]> = Vec::with_capacity(fan.len() * 2);
    for &t in &fan {
        if !world.triangle_collides(t) {
            return None;
        }
        spokes.extend(
            mesh.triangle(t)
                .into_iter()
                .filter(|&p| p != v)
                .map(|p| p.to_array()),
        );
    }
    spokes.sort_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal));
    let closed = !spokes.is_empty() && spokes.chunk_by(|x, y| x == y).all(|same| same.len() == 2);
    if !closed {
        return None;
    }
    let n = mesh.triangle_normal(hit_tri);
    let neighbours: Vec<u32> = fan.into_iter().filter(|&t| t != hit_tri).collect();
    let fold = neighbours
        .iter()
        .map(|&t| {
            let m = mesh.triangle_normal(t);
            angle_deg(n, if n.dot(m) < 0.0 { -m } else { m })
        })
        .fold(0.0, f64::max);
    Some((neighbours, fold))
}

/// The angle between two vectors, degrees (0 when either is zero).
fn angle_deg(u: DVec3, w: DVec3) -> f64 {
    let cross = u.cross(w).length();
    let dot = u.dot(w);
    if cross == 0.0 && dot == 0.0 {
        return 0.0;
    }
    cross.atan2(dot).to_degrees()
}
