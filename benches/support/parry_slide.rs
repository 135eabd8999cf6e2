//! The parry3d peer the slide, walk and map benchmarks compare with, and
//! the test that re-sweeps whole slides with it
//! (`tests/library/slide_paths_vs_parry.rs`): collide and slide written
//! the plain way with parry3d's own ball cast against parry's own
//! `TriMesh` (and its BVH), in the probe's ellipsoid space, where the
//! probe is a unit ball. Each iteration casts the ball along what is left
//! of the motion, stops the skin short of the hit *along the motion*,
//! and slides the rest along the contact normal, at most
//! `max_iterations` times; a motion shorter than the least move ends it.
//!
//! One file, included by each user with `#[path]`, so that every figure
//! and every check is against the same loop. Not every user calls every
//! function.
#![allow(dead_code)]

use collidoscope::collide::SlideSettings;
use collidoscope::mesh::TriMesh;
use glam::DVec3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{ShapeCastOptions, cast_shapes, distance};
use parry3d::shape::{Ball, TriMesh as ParryTriMesh};

/// A world-space vector in parry's `f32`.
pub fn to_parry(v: DVec3) -> Vector {
    Vector::new(v.x as f32, v.y as f32, v.z as f32)
}

/// A parry vector as a world-space `f64` one.
pub fn from_parry(v: Vector) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

/// The level in the probe's ellipsoid space as a parry `TriMesh`, and the
/// slide's settings there.
pub struct ParrySlide {
    /// The level, ellipsoid space.
    pub mesh_espace: ParryTriMesh,
    /// The probe's radii, world metres.
    pub radii: DVec3,
    /// The skin kept from a hit, ellipsoid units (world skin over the
    /// smallest radius, as the solver's).
    pub skin_espace: f32,
    /// A motion shorter than this ends the slide, ellipsoid units.
    pub min_move_espace: f32,
    /// Most casts a slide makes.
    pub max_iterations: u32,
}

/// How a slide ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParryEnd {
    /// The final centre, ellipsoid space.
    pub end_espace: Vector,
    /// Whether any cast hit the level.
    pub hit_any: bool,
    /// Whether the slide ran out of casts with motion left (not too short,
    /// not free).
    pub out_of_casts: bool,
}

impl ParrySlide {
    /// The level `mesh` in the ellipsoid space of `settings`' probe.
    pub fn new(mesh: &TriMesh, settings: &SlideSettings) -> ParrySlide {
        let radii = settings.radii_vec();
        let vertices = mesh
            .positions()
            .iter()
            .map(|p| to_parry(p.as_dvec3() / radii))
            .collect();
        let mesh_espace =
            ParryTriMesh::new(vertices, mesh.triangles().to_vec()).expect("a non-empty mesh");
        let min_radius = radii.min_element();
        ParrySlide {
            mesh_espace,
            radii,
            skin_espace: (settings.skin / min_radius) as f32,
            min_move_espace: (settings.min_move / min_radius) as f32,
            max_iterations: settings.max_iterations,
        }
    }

    /// The slide from `pos` by `vel` (ellipsoid space). With `mesh_first`
    /// the mesh is given to `cast_shapes` as the first shape (parry then
    /// does not swap the pair). `visit` sees every cast's end (after the
    /// skin) and the free end.
    pub fn slide_espace(
        &self,
        mut pos: Vector,
        mut vel: Vector,
        mesh_first: bool,
        visit: &mut dyn FnMut(Vector),
    ) -> ParryEnd {
        let ball = Ball::new(1.0);
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: false,
            compute_impact_geometry_on_penetration: true,
        };
        let (mut hit_any, mut out_of_casts) = (false, true);
        for _ in 0..self.max_iterations {
            let len = vel.length();
            if len < self.min_move_espace {
                out_of_casts = false;
                break;
            }
            let at = Pose::from_translation(pos);
            let hit = if mesh_first {
                cast_shapes(
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    &self.mesh_espace,
                    &at,
                    vel,
                    &ball,
                    options,
                )
            } else {
                cast_shapes(
                    &at,
                    vel,
                    &ball,
                    &Pose::IDENTITY,
                    Vector::ZERO,
                    &self.mesh_espace,
                    options,
                )
            };
            let Some(hit) = hit.ok().flatten() else {
                pos += vel;
                visit(pos);
                out_of_casts = false;
                break;
            };
            hit_any = true;
            let dir = vel / len;
            let travel = (hit.time_of_impact * len - self.skin_espace).max(0.0);
            pos += dir * travel;
            visit(pos);
            // normal1 points out of the first shape towards the second:
            // the contact normal, pointing at the ball, is the mesh's
            // normal1 or the opposite of the ball's.
            let n = if mesh_first {
                hit.normal1
            } else {
                -hit.normal1
            };
            let remaining = vel - dir * travel;
            vel = remaining - n * remaining.dot(n);
        }
        ParryEnd {
            end_espace: pos,
            hit_any,
            out_of_casts,
        }
    }

    /// The slide from `start_world` by `velocity_world`: the final centre,
    /// world space.
    pub fn slide(&self, start_world: DVec3, velocity_world: DVec3) -> DVec3 {
        self.slide_with(start_world, velocity_world, false).0
    }

    /// [`Self::slide`] with the pair's order chosen, and whether it ran out
    /// of casts with motion left.
    pub fn slide_with(
        &self,
        start_world: DVec3,
        velocity_world: DVec3,
        mesh_first: bool,
    ) -> (DVec3, bool) {
        let end = self.slide_espace(
            to_parry(start_world / self.radii),
            to_parry(velocity_world / self.radii),
            mesh_first,
            &mut |_| {},
        );
        (from_parry(end.end_espace) * self.radii, end.out_of_casts)
    }

    /// The slide's points, world space: its start, every cast's end and
    /// the free end.
    pub fn slide_points(&self, start_world: DVec3, velocity_world: DVec3) -> Vec<DVec3> {
        let mut points = vec![start_world];
        let radii = self.radii;
        self.slide_espace(
            to_parry(start_world / radii),
            to_parry(velocity_world / radii),
            false,
            &mut |p| points.push(from_parry(p) * radii),
        );
        points
    }

    /// Gap between the probe at `world` and the level, ellipsoid units.
    pub fn clearance(&self, world: DVec3) -> f32 {
        let pose = Pose::from_translation(to_parry(world / self.radii));
        distance(&pose, &Ball::new(1.0), &Pose::IDENTITY, &self.mesh_espace)
            .map_or(0.0, |d| d.distance)
    }

    /// parry's time of impact (0..=1) of a ball of `radius` (ellipsoid
    /// units) swept from `from` to `to` (world space), if it meets the
    /// level; a ball that starts overlapping it meets it at 0.
    pub fn cast(&self, radius: f32, from: DVec3, to: DVec3) -> Option<f32> {
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: true,
        };
        cast_shapes(
            &Pose::from_translation(to_parry(from / self.radii)),
            to_parry((to - from) / self.radii),
            &Ball::new(radius),
            &Pose::IDENTITY,
            Vector::ZERO,
            &self.mesh_espace,
            options,
        )
        .expect("parry casts a ball against a mesh")
        .map(|hit| hit.time_of_impact)
    }
}
