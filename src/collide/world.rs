//! What the solver collides with: a mesh, its BVH, and which objects collide.

use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::mesh::TriMesh;
use glam::DVec3;

/// How many non-colliding surfaces one ray passes before it gives up (a
/// stack of decals or liquid sheets deeper than this reads as nothing).
const MAX_PASSED: usize = 32;

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
    /// non-colliding ones (liquids, triggers) are passed through.
    pub fn ray_cast_colliding(
        &self,
        origin: DVec3,
        dir: DVec3,
        max_t: f64,
        scratch: &mut BvhScratch,
    ) -> Option<(f64, u32)> {
        let mut stats = QueryStats::default();
        let mut start = 0.0;
        for _ in 0..MAX_PASSED {
            let hit = self.bvh.ray_cast(
                self.mesh,
                (origin + dir * start).as_vec3(),
                dir.as_vec3(),
                (max_t - start) as f32,
                scratch,
                &mut stats,
            )?;
            let t = start + f64::from(hit.t);
            if self.triangle_collides(hit.triangle) {
                return Some((t, hit.triangle));
            }
            start = t + 1e-4;
            if start >= max_t {
                return None;
            }
        }
        None
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
