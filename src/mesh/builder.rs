//! Builds [`TriMesh`]es in code: boxes, quads and triangles grouped into
//! named objects, world space. Used by tests, generators and fixtures.

use super::TriMesh;
use crate::math::Vec3;

/// Accumulates named objects made of triangles; [`MeshBuilder::build`]
/// computes the per-triangle and per-object boxes.
///
/// ```
/// use collidoscope::mesh::MeshBuilder;
/// use glam::Vec3;
///
/// let mut b = MeshBuilder::new();
/// b.object("floor")
///     .quad(Vec3::new(-5.0, 0.0, 5.0), Vec3::new(5.0, 0.0, 5.0), Vec3::new(5.0, 0.0, -5.0), Vec3::new(-5.0, 0.0, -5.0));
/// b.object("box").cuboid(Vec3::ZERO, Vec3::ONE);
/// let mesh = b.build();
/// assert_eq!(mesh.triangle_count(), 2 + 12);
/// assert_eq!(mesh.objects()[1].name, "box");
/// assert_eq!(mesh.object_of(5), 1);
/// assert_eq!(mesh.bounds().max, Vec3::new(5.0, 1.0, 5.0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct MeshBuilder {
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    objects: Vec<(String, u32)>,
}

impl MeshBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a new object; following shapes belong to it.
    pub fn object(&mut self, name: &str) -> &mut Self {
        self.objects.push((name.to_string(), 0));
        self
    }

    fn current(&mut self) -> &mut (String, u32) {
        if self.objects.is_empty() {
            self.objects.push(("default".into(), 0));
        }
        self.objects.last_mut().expect("an object exists")
    }

    /// Adds a triangle, counter-clockwise seen from its front.
    pub fn triangle(&mut self, a: Vec3, b: Vec3, c: Vec3) -> &mut Self {
        let base = self.positions.len() as u32;
        self.positions.extend([a, b, c]);
        self.triangles.push([base, base + 1, base + 2]);
        self.current().1 += 1;
        self
    }

    /// Adds the quad `a b c d` (counter-clockwise from its front) as two triangles.
    pub fn quad(&mut self, a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> &mut Self {
        let base = self.positions.len() as u32;
        self.positions.extend([a, b, c, d]);
        self.triangles.push([base, base + 1, base + 2]);
        self.triangles.push([base, base + 2, base + 3]);
        self.current().1 += 2;
        self
    }

    /// Adds a closed axis-aligned box with outward-facing triangles.
    pub fn cuboid(&mut self, min: Vec3, max: Vec3) -> &mut Self {
        let c = |x: bool, y: bool, z: bool| {
            Vec3::new(
                if x { max.x } else { min.x },
                if y { max.y } else { min.y },
                if z { max.z } else { min.z },
            )
        };
        let (f, t) = (false, true);
        self.quad(c(f, f, f), c(f, f, t), c(f, t, t), c(f, t, f)); // -x
        self.quad(c(t, f, f), c(t, t, f), c(t, t, t), c(t, f, t)); // +x
        self.quad(c(f, f, f), c(t, f, f), c(t, f, t), c(f, f, t)); // -y
        self.quad(c(f, t, f), c(f, t, t), c(t, t, t), c(t, t, f)); // +y
        self.quad(c(f, f, f), c(f, t, f), c(t, t, f), c(t, f, f)); // -z
        self.quad(c(f, f, t), c(t, f, t), c(t, t, t), c(f, t, t)) // +z
    }

    /// The mesh; empty objects are dropped.
    pub fn build(&self) -> TriMesh {
        let objects = self.objects.iter().filter(|o| o.1 > 0).cloned().collect();
        TriMesh::new(self.positions.clone(), self.triangles.clone(), objects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn cuboid_faces_point_outwards() {
        let mesh = MeshBuilder::new()
            .object("box")
            .cuboid(Vec3::ZERO, Vec3::new(2.0, 1.0, 3.0))
            .build();
        assert_eq!(mesh.triangle_count(), 12);
        let center = DVec3::new(1.0, 0.5, 1.5);
        for t in 0..12 {
            let [a, b, c] = mesh.triangle_f64(t);
            let centroid = (a + b + c) / 3.0;
            assert!(
                mesh.triangle_normal(t).dot(centroid - center) > 0.0,
                "triangle {t}"
            );
        }
        assert_eq!(mesh.objects.len(), 1);
        assert_eq!(mesh.bounds().max, Vec3::new(2.0, 1.0, 3.0));
    }
}
