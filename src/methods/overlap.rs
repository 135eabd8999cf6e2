//! Static overlap of the probe's ellipsoid with the level's triangles: the
//! discrete test of Wang's lecture notes ("overlap testing detects whether a
//! collision has already occurred"), with the penetration depth and normal
//! its resolution needs.
//!
//! The test runs in the probe's ellipsoid space, where the probe is a unit
//! sphere: it overlaps a triangle when the triangle's closest point is
//! nearer than 1 to the centre. The depth is `1 − distance` there; the
//! push that ends the overlap is mapped back to world space.

use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::CollisionWorld;
use crate::geometry::closest::closest_point_on_triangle;
use crate::geometry::espace::EllipsoidSpace;
use crate::math::Aabb;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// The deepest overlap of the probe with a colliding triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Penetration {
    /// The triangle overlapped most deeply.
    pub triangle: u32,
    /// Its object.
    pub object: u32,
    /// The triangle's point nearest the probe centre, world space.
    pub closest_point: DVec3,
    /// Penetration depth, ellipsoid space (`1 − distance`, in `(0, 1]`).
    pub depth_espace: f64,
    /// The length of [`Penetration::push`], metres.
    pub depth: f64,
    /// Unit collision normal, from the triangle towards the probe, world space.
    pub normal: DVec3,
    /// Unit collision normal, ellipsoid space.
    pub normal_espace: DVec3,
    /// The displacement that ends this overlap, world space.
    pub push: DVec3,
}

/// What overlaps the probe at one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlapReport {
    /// The deepest colliding overlap, if any.
    pub deepest: Option<Penetration>,
    /// Non-colliding objects (triggers) the probe overlaps (one of their
    /// triangles, or its centre is in their box), ascending.
    pub triggers: Vec<u32>,
}

/// Reusable buffers for overlap queries.
#[derive(Default)]
pub struct OverlapQuery {
    scratch: BvhScratch,
    tris: Vec<u32>,
    stats: QueryStats,
}

impl OverlapQuery {
    /// What the probe with ellipsoid space `es` overlaps when centred at
    /// `center` (world space). `approach` (world space) orients the normal
    /// when the centre lies on a triangle's plane: against the motion.
    pub fn at(
        &mut self,
        world: &CollisionWorld<'_>,
        es: EllipsoidSpace,
        center: DVec3,
        approach: DVec3,
    ) -> OverlapReport {
        let radii = es.radii();
        let query = Aabb::from_f64_outward(center - radii, center + radii);
        self.tris.clear();
        world.bvh.query_aabb(
            world.mesh.tri_aabbs(),
            &query,
            &mut self.scratch,
            &mut self.tris,
            None,
            &mut self.stats,
        );
        let center_e = es.espace_from_world(center);
        let mut report = OverlapReport::default();
        for &tri in &self.tris {
            let corners = world
                .mesh
                .triangle_f64(tri)
                .map(|c| es.espace_from_world(c));
            let closest_e = closest_point_on_triangle(corners, center_e);
            let offset_e = center_e - closest_e;
            let dist_e = offset_e.length();
            if dist_e >= 1.0 {
                continue;
            }
            let object = world.mesh.object_of(tri) as u32;
            if !world.triangle_collides(tri) {
                if !report.triggers.contains(&object) {
                    report.triggers.push(object);
                }
                continue;
            }
            let depth_espace = 1.0 - dist_e;
            if report
                .deepest
                .is_some_and(|d| d.depth_espace >= depth_espace)
            {
                continue;
            }
            let normal_espace = if dist_e > 1e-9 {
                offset_e / dist_e
            } else {
                plane_normal_against(corners, es.espace_from_world(approach))
            };
            let push = es.world_from_espace(normal_espace * depth_espace);
            report.deepest = Some(Penetration {
                triangle: tri,
                object,
                closest_point: es.world_from_espace(closest_e),
                depth_espace,
                depth: push.length(),
                normal: es.normal_world_from_espace(normal_espace),
                normal_espace,
                push,
            });
        }
        // A trigger's volume is its object's box: a probe deep inside a
        // trigger room touches none of its faces but is still in it.
        if let Some(flags) = world.object_colliding {
            for (o, object) in world.mesh.objects().iter().enumerate() {
                let o32 = o as u32;
                if !flags.get(o).copied().unwrap_or(true)
                    && !report.triggers.contains(&o32)
                    && object.aabb.contains_point(center.as_vec3())
                {
                    report.triggers.push(o32);
                }
            }
        }
        report.triggers.sort_unstable();
        report
    }
}

/// The unit normal of the triangle's plane on the side `approach` comes
/// from (ellipsoid space); `+Y` for a degenerate triangle.
fn plane_normal_against(corners: [DVec3; 3], approach: DVec3) -> DVec3 {
    let n = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .normalize_or(DVec3::Y);
    if n.dot(approach) > 0.0 { -n } else { n }
}

impl OverlapQuery {
    /// The first colliding triangle the probe's centre passes through on
    /// the straight segment `from..to` (world space), if any: a step that
    /// ends clear of the geometry after this crossed a surface between two
    /// samples, which is tunnelling.
    pub fn centre_crossing(
        &mut self,
        world: &CollisionWorld<'_>,
        from: DVec3,
        to: DVec3,
    ) -> Option<u32> {
        let dir = (to - from).as_vec3();
        if dir == glam::Vec3::ZERO {
            return None;
        }
        // The first colliding triangle crossed: one that does not collide
        // (a trigger, a liquid) in front of it does not hide it.
        let hit = world.bvh.ray_cast_where(
            world.mesh,
            from.as_vec3(),
            dir,
            1.0,
            |tri| world.triangle_collides(tri),
            &mut self.scratch,
            &mut self.stats,
        )?;
        Some(hit.triangle)
    }
}
