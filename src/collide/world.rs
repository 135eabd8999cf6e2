//! What the solver collides with: a mesh, its BVH, and which objects collide.

use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::mesh::TriMesh;
use glam::DVec3;

/// Borrowed view of a level for the solver.
#[derive(Clone, Copy, Debug)]
pub struct CollisionWorld<'a> {
    /// The triangles, world space.
    pub mesh: &'a TriMesh,
    /// The BVH built over `mesh.tri_aabbs`.
    pub bvh: &'a Bvh,
    /// Per object (index into `mesh.objects`): `false` makes its triangles
    /// non-colliding (triggers, decals). `None`: everything collides.
    pub object_colliding: Option<&'a [bool]>,
}

impl<'a> CollisionWorld<'a> {
    /// Everything in `mesh` collides.
    pub fn new(mesh: &'a TriMesh, bvh: &'a Bvh) -> Self {
        CollisionWorld {
            mesh,
            bvh,
            object_colliding: None,
        }
    }

    /// Distance and triangle of the first colliding surface the ray from
    /// `origin` along the unit `dir` meets within `max_t`, world space:
    /// non-colliding ones (liquids, triggers) are not there for it, so a
    /// colliding one at the same distance (a floor under a closed door's
    /// bottom face, left open by the settings) is met.
    pub fn ray_cast_colliding(
        &self,
        origin: DVec3,
        dir: DVec3,
        max_t: f64,
        scratch: &mut BvhScratch,
    ) -> Option<(f64, u32)> {
        self.bvh
            .ray_cast_where(
                self.mesh,
                origin.as_vec3(),
                dir.as_vec3(),
                max_t as f32,
                |tri| self.triangle_collides(tri),
                scratch,
                &mut QueryStats::default(),
            )
            .map(|hit| (f64::from(hit.t), hit.triangle))
    }

    /// `true` when triangle `tri` takes part in collisions.
    #[inline]
    pub fn triangle_collides(&self, tri: u32) -> bool {
        match self.object_colliding {
            None => true,
            Some(flags) => flags.get(self.mesh.object_of(tri)).copied().unwrap_or(true),
        }
    }
}

/// Whether glob `pattern` matches `text`: `*` stands for any run of
/// characters, `?` for one; letter case is ignored. The usual greedy match
/// with one backtrack point: no recursion, at most the product of the two
/// lengths in steps (patterns are at most 200 characters).
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let t: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Whether a `[level] non_colliding` pattern names the object called
/// `name`: it matches the whole name, or the part before or after its
/// first `:` (an object made per group and material is `group:material`).
pub fn object_matches(pattern: &str, name: &str) -> bool {
    glob_matches(pattern, name)
        || name.split_once(':').is_some_and(|(group, material)| {
            glob_matches(pattern, group) || glob_matches(pattern, material)
        })
}

/// The objects of `mesh` that `patterns` name: one flag per object
/// (`true`: named), with how many objects and triangles that is.
pub fn objects_named(mesh: &TriMesh, patterns: &[String]) -> (Vec<bool>, usize, usize) {
    let named: Vec<bool> = mesh
        .objects
        .iter()
        .map(|o| patterns.iter().any(|p| object_matches(p, &o.name)))
        .collect();
    let objects = named.iter().filter(|&&n| n).count();
    let triangles = mesh
        .objects
        .iter()
        .zip(&named)
        .filter(|(_, n)| **n)
        .map(|(o, _)| o.triangle_count as usize)
        .sum();
    (named, objects, triangles)
}

#[cfg(test)]
mod pattern_tests {
    use super::*;

    #[test]
    fn globs_match_like_a_shell() {
        assert!(glob_matches("*water*", "world:*water0"));
        assert!(glob_matches("*WATER*", "Water"));
        assert!(glob_matches("trigger*", "trigger_once_3"));
        assert!(!glob_matches("trigger*", "a_trigger"));
        assert!(glob_matches("func_door_?", "func_door_7"));
        assert!(!glob_matches("func_door_?", "func_door_17"));
        assert!(glob_matches("*", ""));
        assert!(!glob_matches("", "x"));
        assert!(glob_matches("a*b*c", "aXXbYYc"));
        assert!(!glob_matches("a*b*c", "aXXbYY"));
        // Quake's liquids start with a star, which matches itself too.
        assert!(glob_matches("*lava1", "*lava1"));
    }

    #[test]
    fn a_pattern_names_an_object_by_its_group_or_its_material() {
        assert!(object_matches("func_door*", "func_door_25:door_tex"));
        assert!(object_matches("*slime*", "world:*slime2"));
        assert!(object_matches("world:*slime2", "world:*slime2"));
        assert!(!object_matches("*slime*", "world:t_wall2a"));
    }

    #[test]
    fn a_long_hostile_pattern_matches_quickly() {
        let pattern = "*a".repeat(100);
        let text = "a".repeat(10_000) + "b";
        let t = std::time::Instant::now();
        assert!(!glob_matches(&pattern, &text));
        assert!(t.elapsed().as_secs_f64() < 5.0);
    }
}

#[cfg(test)]
mod ray_tests {
    use super::*;
    use glam::Vec3;

    /// A floor (object 0) and, 0.05 mm above it, the bottom face of a
    /// closed door (object 1, facing down), as Quake's BSP writes a door
    /// standing on the floor (the two meet to within the rounding of their
    /// coordinates, about that much 40 m from the origin); the door is
    /// left out by the settings.
    fn floor_under_a_door() -> TriMesh {
        let positions = vec![
            Vec3::new(-2.0, 0.0, -2.0),
            Vec3::new(-2.0, 0.0, 2.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(-1.0, 5e-5, -1.0),
            Vec3::new(1.0, 5e-5, 0.0),
            Vec3::new(-1.0, 5e-5, 1.0),
        ];
        TriMesh::new(
            positions,
            vec![[0, 1, 2], [3, 4, 5]],
            vec![("floor".into(), 1), ("func_door_1".into(), 1)],
        )
    }

    #[test]
    fn a_surface_left_out_does_not_hide_a_colliding_one_at_the_same_distance() {
        let mesh = floor_under_a_door();
        let bvh = Bvh::build_for_mesh(&mesh);
        let colliding = [true, false];
        let world = CollisionWorld {
            mesh: &mesh,
            bvh: &bvh,
            object_colliding: Some(&colliding),
        };
        let mut scratch = BvhScratch::default();
        let from = DVec3::new(-0.5, 1.0, 0.0);
        let hit = world.ray_cast_colliding(from, DVec3::NEG_Y, 5.0, &mut scratch);
        let (t, tri) = hit.expect("the floor under the door");
        assert_eq!(tri, 0);
        assert!((t - 1.0).abs() < 1e-6, "{t}");
        // With the door colliding, the door's face is met first.
        let all = CollisionWorld::new(&mesh, &bvh);
        let (_, tri) = all
            .ray_cast_colliding(from, DVec3::NEG_Y, 5.0, &mut scratch)
            .expect("the door");
        assert_eq!(tri, 1);
        // Off the door, the floor.
        let beside = DVec3::new(-1.8, 1.0, 0.0);
        let (_, tri) = world
            .ray_cast_colliding(beside, DVec3::NEG_Y, 5.0, &mut scratch)
            .expect("the floor beside the door");
        assert_eq!(tri, 0);
        // Nothing colliding under the ray: nothing.
        let door_only = [false, false];
        let none = CollisionWorld {
            object_colliding: Some(&door_only),
            ..world
        };
        assert!(
            none.ray_cast_colliding(from, DVec3::NEG_Y, 5.0, &mut scratch)
                .is_none()
        );
    }
}
