//! What the solver collides with: a mesh, its BVH, and which objects collide.

use crate::bvh::Bvh;
use crate::mesh::TriMesh;

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

    /// `true` when triangle `tri` takes part in collisions.
    #[inline]
    pub fn triangle_collides(&self, tri: u32) -> bool {
        match self.object_colliding {
            None => true,
            Some(flags) => flags.get(self.mesh.object_of(tri)).copied().unwrap_or(true),
        }
    }
}
