//! The collision mesh: world-space triangles (`f32`), each with its AABB and
//! the named object (`o` / `g` group) it came from.
//!
//! Per-triangle AABBs are part of the mesh rather than of the BVH because the
//! tool shows them and the seeds' multi-level box test uses them directly.

mod builder;

use crate::math::{Aabb, DVec3, Vec3};
pub use builder::MeshBuilder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A named group of triangles (`o` or `g` in the OBJ file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshObject {
    /// The name in the file (`"default"` for faces before any `o` / `g`).
    pub name: String,
    /// The triangles of this object: `first..first + count` in [`TriMesh::triangles`].
    pub first_triangle: u32,
    /// Number of triangles.
    pub triangle_count: u32,
    /// Bounding box of the object's triangles (empty when it has none).
    pub aabb: Aabb,
}

/// World-space triangle soup with per-triangle AABBs and object ranges.
///
/// Triangles of one object are contiguous, so `object_of` is a short search.
#[derive(Clone, Debug, Default)]
pub struct TriMesh {
    /// Vertex positions, world space.
    pub(crate) positions: Vec<Vec3>,
    /// Vertex indices into `positions`, counter-clockwise seen from the front.
    pub(crate) triangles: Vec<[u32; 3]>,
    /// One box per triangle, same order as `triangles`.
    pub(crate) tri_aabbs: Vec<Aabb>,
    /// Objects in file order; their triangle ranges tile `triangles`.
    /// [`TriMesh::new`] indexes them for [`TriMesh::object_of`]: build a new
    /// mesh rather than edit this list.
    pub(crate) objects: Vec<MeshObject>,
    /// `first_triangle + triangle_count` of each object, in order: what
    /// [`TriMesh::object_of`] searches. A level can have thousands of
    /// objects (the generated 1M-triangle city: 11,605), and the solver asks
    /// once per contact: searching 4-byte entries touches a fraction of the
    /// cache lines that the 56-byte [`MeshObject`]s would.
    object_ends: Vec<u32>,
}

impl TriMesh {
    /// Builds a mesh from positions and triangles grouped by object, computing
    /// the per-triangle and per-object boxes. `objects` gives `(name, count)`
    /// in order; the counts must add up to `triangles.len()`.
    pub fn new(
        positions: Vec<Vec3>,
        triangles: Vec<[u32; 3]>,
        objects: Vec<(String, u32)>,
    ) -> TriMesh {
        debug_assert_eq!(
            objects.iter().map(|o| o.1 as usize).sum::<usize>(),
            triangles.len()
        );
        // In parallel: on a big level these two passes are a few percent of
        // the load (the boxes alone are 24 bytes per triangle to write).
        let tri_aabbs: Vec<Aabb> = triangles
            .par_iter()
            .map(|t| Aabb::from_points(t.iter().map(|&i| positions[i as usize])))
            .collect();
        let mut first = 0u32;
        let ranges: Vec<(String, u32, u32)> = objects
            .into_iter()
            .map(|(name, count)| {
                first += count;
                (name, first - count, count)
            })
            .collect();
        let objects = ranges
            .into_par_iter()
            .map(|(name, first, count)| {
                let mut aabb = Aabb::EMPTY;
                for b in &tri_aabbs[first as usize..(first + count) as usize] {
                    aabb.grow(b);
                }
                MeshObject {
                    name,
                    first_triangle: first,
                    triangle_count: count,
                    aabb,
                }
            })
            .collect::<Vec<MeshObject>>();
        let object_ends = objects
            .iter()
            .map(|o| o.first_triangle + o.triangle_count)
            .collect();
        TriMesh {
            positions,
            triangles,
            tri_aabbs,
            objects,
            object_ends,
        }
    }

    /// A single-object mesh, handy for tests and generated levels.
    pub fn single_object(name: &str, positions: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> TriMesh {
        let n = triangles.len() as u32;
        TriMesh::new(positions, triangles, vec![(name.to_string(), n)])
    }

    /// Vertex positions, world space.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Vertex indices into [`TriMesh::positions`], counter-clockwise seen
    /// from the front.
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// One box per triangle, in [`TriMesh::triangles`] order.
    pub fn tri_aabbs(&self) -> &[Aabb] {
        &self.tri_aabbs
    }

    /// Objects in file order; their triangle ranges tile the triangles.
    pub fn objects(&self) -> &[MeshObject] {
        &self.objects
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The three corners of triangle `tri`, world space, `f32`.
    #[inline]
    pub fn triangle(&self, tri: u32) -> [Vec3; 3] {
        let [a, b, c] = self.triangles[tri as usize];
        [
            self.positions[a as usize],
            self.positions[b as usize],
            self.positions[c as usize],
        ]
    }

    /// The three corners of triangle `tri`, world space, `f64`.
    #[inline]
    pub fn triangle_f64(&self, tri: u32) -> [DVec3; 3] {
        self.triangle(tri).map(|v| v.as_dvec3())
    }

    /// Unit face normal of `tri` (right-hand rule), or zero when degenerate.
    pub fn triangle_normal(&self, tri: u32) -> DVec3 {
        let [a, b, c] = self.triangle_f64(tri);
        (b - a).cross(c - a).normalize_or_zero()
    }

    /// Index into `objects` of the object that owns triangle `tri`.
    pub fn object_of(&self, tri: u32) -> usize {
        self.object_ends
            .partition_point(|&end| end <= tri)
            .min(self.object_ends.len().saturating_sub(1))
    }

    /// Bounding box of the whole mesh.
    pub fn bounds(&self) -> Aabb {
        let mut b = Aabb::EMPTY;
        for o in &self.objects {
            b.grow(&o.aabb);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_and_objects_follow_the_triangles() {
        let positions = vec![
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::new(5.0, 5.0, 5.0),
            Vec3::new(6.0, 5.0, 5.0),
            Vec3::new(5.0, 6.0, 7.0),
        ];
        let mesh = TriMesh::new(
            positions,
            vec![[0, 1, 2], [3, 4, 5]],
            vec![("floor".into(), 1), ("crate".into(), 1)],
        );
        assert_eq!(mesh.tri_aabbs[1].max, Vec3::new(6.0, 6.0, 7.0));
        assert_eq!(mesh.object_of(0), 0);
        assert_eq!(mesh.object_of(1), 1);
        assert_eq!(mesh.objects[1].aabb.min, Vec3::new(5.0, 5.0, 5.0));
        assert_eq!(mesh.bounds().max, Vec3::new(6.0, 6.0, 7.0));
        assert_eq!(mesh.triangle_normal(0), DVec3::Z);
    }
}
