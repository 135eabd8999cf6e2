//! Debug primitives to GPU geometry, world space: segments and arrow shafts
//! are instances of a unit cylinder, arrow heads of a cone, points and
//! ellipsoids of a unit sphere, plane patches of a unit square; box edges
//! are one-pixel lines ([`super::lines`]) and hit triangles one small mesh.
//! Everything is split into an opaque and a translucent (colour alpha < 1)
//! batch.
//!
//! The instance lists ([`OverlayInstances`]) are plain data built on the CPU
//! and unit-tested; [`OverlayMeshes`] uploads them once per `set_overlays`.

use super::convert::{srgba, v3};
use super::lines::LineSegments;
use super::materials::OverlayMaterial;
use crate::collide::debug_draw::{DebugPrimitive, Shape};
use crate::geometry::shape::{CharacterShape, Solid};
use glam::{DVec3, Vec3};
use three_d::{
    Context, CpuMesh, Gm, Indices, InstancedMesh, Instances, Mat4, Mesh, Object, Positions, Srgba,
    Vector4,
};

/// Sizes of overlay strokes, world space, chosen per `set_overlays` from the
/// probe size so lines read at the scale the probe is viewed at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrokeSizes {
    /// Radius of segment and arrow shafts.
    pub line: f32,
    /// Radius of point markers.
    pub point: f32,
}

impl StrokeSizes {
    /// Strokes for a probe whose smallest semi-axis is `probe_radius`.
    pub fn for_probe_radius(probe_radius: f32) -> Self {
        let r = probe_radius.max(1e-4);
        StrokeSizes {
            line: r * 0.05,
            point: r * 0.1,
        }
    }

    /// Strokes from the primitives' own ellipsoids, or from `fallback_size`
    /// (a level's size) when there is none.
    pub fn for_primitives(prims: &[DebugPrimitive], fallback_size: f32) -> Self {
        let smallest = prims
            .iter()
            .filter_map(|p| match p.shape {
                Shape::Ellipsoid { radii, .. } => Some(radii.min_element() as f32),
                Shape::Solid { shape, .. } => {
                    Some(shape.half_extents(DVec3::ONE).min_element() as f32)
                }
                _ => None,
            })
            .fold(f32::INFINITY, f32::min);
        if smallest.is_finite() && smallest > 0.0 {
            Self::for_probe_radius(smallest)
        } else {
            Self::for_probe_radius(fallback_size * 0.01)
        }
    }
}

/// Instance transforms and colours of one batch, per base shape.
#[derive(Clone, Debug, Default)]
pub struct OverlayInstances {
    /// Unit cylinder along +X, radius 1, length 1.
    pub cylinders: Vec<(Mat4, Srgba)>,
    /// Box edges, world-space end points: drawn as one-pixel lines (boxes
    /// come by the hundred, see `render/lines.rs`).
    pub edges: Vec<([Vec3; 2], Srgba)>,
    /// Unit cone along +X, base radius 1 at x = 0, tip at x = 1.
    pub cones: Vec<(Mat4, Srgba)>,
    /// Unit sphere.
    pub spheres: Vec<(Mat4, Srgba)>,
    /// Square `[-1, 1]²` in the XY plane, normal +Z.
    pub quads: Vec<(Mat4, Srgba)>,
    /// Filled triangles, world space.
    pub triangles: Vec<([Vec3; 3], Srgba)>,
}

impl OverlayInstances {
    /// Total number of shapes.
    pub fn len(&self) -> usize {
        self.cylinders.len()
            + self.edges.len()
            + self.cones.len()
            + self.spheres.len()
            + self.quads.len()
            + self.triangles.len()
    }

    /// `true` when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn add(&mut self, shape: &Shape, color: Srgba, sizes: &StrokeSizes) {
        let f = |v: DVec3| v.as_vec3();
        match shape {
            Shape::Segment { a, b } => self.segment(f(*a), f(*b), sizes.line, color),
            Shape::Arrow { from, to } => self.arrow(f(*from), f(*to), sizes.line, color),
            Shape::Point { p } => self
                .spheres
                .push((scaled_at(f(*p), Vec3::splat(sizes.point)), color)),
            Shape::Box { aabb } => self.edges.extend(
                box_edges(aabb.min, aabb.max)
                    .into_iter()
                    .filter(|(a, b)| a != b)
                    .map(|(a, b)| ([a, b], color)),
            ),
            Shape::PlaneQuad {
                center,
                normal,
                half_size,
            } => {
                let n = f(*normal).try_normalize().unwrap_or(Vec3::Y);
                let (u, v) = perpendiculars(n);
                let h = *half_size as f32;
                self.quads
                    .push((columns(u * h, v * h, n, f(*center)), color));
            }
            Shape::Ellipsoid { center, radii } => {
                self.spheres.push((scaled_at(f(*center), f(*radii)), color))
            }
            Shape::Triangle { corners } => self.triangles.push((corners.map(f), color)),
            Shape::Solid { center, shape } => self.solid(f(*center), shape, color),
        }
    }

    /// A body other than the ellipsoid, upright at `c`: a sphere; a
    /// capsule as its side and two round ends; a cylinder as its side and
    /// two flat caps; a box as its six faces.
    fn solid(&mut self, c: Vec3, shape: &CharacterShape, color: Srgba) {
        let Some(solid) = shape.solid() else {
            return;
        };
        match solid {
            Solid::Sphere { radius } => self
                .spheres
                .push((scaled_at(c, Vec3::splat(radius as f32)), color)),
            Solid::Capsule {
                radius,
                half_segment,
            } => {
                let (r, h) = (radius as f32, half_segment as f32);
                let (a, b) = (c - Vec3::Y * h, c + Vec3::Y * h);
                if let Some(m) = along(a, b, r) {
                    self.cylinders.push((m, color));
                }
                for end in [a, b] {
                    self.spheres.push((scaled_at(end, Vec3::splat(r)), color));
                }
            }
            Solid::Cylinder {
                radius,
                half_height,
            } => {
                let (r, h) = (radius as f32, half_height as f32);
                let (a, b) = (c - Vec3::Y * h, c + Vec3::Y * h);
                if let Some(m) = along(a, b, r) {
                    self.cylinders.push((m, color));
                }
                const SIDES: usize = 24;
                let rim = |i: usize| {
                    let t = i as f32 / SIDES as f32 * std::f32::consts::TAU;
                    Vec3::new(t.cos() * r, 0.0, t.sin() * r)
                };
                for cap in [a, b] {
                    for i in 0..SIDES {
                        self.triangles
                            .push(([cap, cap + rim(i), cap + rim(i + 1)], color));
                    }
                }
            }
            Solid::Box { half_extents } => {
                let h = half_extents.as_vec3();
                let corner = |x: f32, y: f32, z: f32| c + Vec3::new(x * h.x, y * h.y, z * h.z);
                // Each face as two triangles: for each axis and side, the
                // four corners around it.
                for axis in 0..3 {
                    for side in [-1.0f32, 1.0] {
                        let at = |u: f32, v: f32| {
                            let mut p = [0.0f32; 3];
                            p[axis] = side;
                            p[(axis + 1) % 3] = u;
                            p[(axis + 2) % 3] = v;
                            corner(p[0], p[1], p[2])
                        };
                        let q = [at(-1.0, -1.0), at(1.0, -1.0), at(1.0, 1.0), at(-1.0, 1.0)];
                        self.triangles.push(([q[0], q[1], q[2]], color));
                        self.triangles.push(([q[0], q[2], q[3]], color));
                    }
                }
            }
        }
    }

    fn segment(&mut self, a: Vec3, b: Vec3, radius: f32, color: Srgba) {
        if let Some(m) = along(a, b, radius) {
            self.cylinders.push((m, color));
        }
    }

    fn arrow(&mut self, from: Vec3, to: Vec3, radius: f32, color: Srgba) {
        let len = (to - from).length();
        if len <= f32::EPSILON {
            return;
        }
        let head_len = (radius * 8.0).min(len * 0.4);
        let neck = to - (to - from) / len * head_len;
        self.segment(from, neck, radius, color);
        if let Some(m) = along(neck, to, radius * 3.0) {
            self.cones.push((m, color));
        }
    }
}

/// Splits primitives into the opaque and the translucent batch.
pub fn build_instances(
    prims: &[DebugPrimitive],
    sizes: &StrokeSizes,
) -> (OverlayInstances, OverlayInstances) {
    let mut opaque = OverlayInstances::default();
    let mut translucent = OverlayInstances::default();
    for p in prims {
        let color = srgba(p.color);
        let batch = if color.a < 255 {
            &mut translucent
        } else {
            &mut opaque
        };
        batch.add(&p.shape, color, sizes);
    }
    (opaque, translucent)
}

/// The twelve edges of the box `min..max`.
pub fn box_edges(min: Vec3, max: Vec3) -> [(Vec3, Vec3); 12] {
    let c = |x: bool, y: bool, z: bool| {
        Vec3::new(
            if x { max.x } else { min.x },
            if y { max.y } else { min.y },
            if z { max.z } else { min.z },
        )
    };
    let (f, t) = (false, true);
    [
        (c(f, f, f), c(t, f, f)),
        (c(f, t, f), c(t, t, f)),
        (c(f, f, t), c(t, f, t)),
        (c(f, t, t), c(t, t, t)),
        (c(f, f, f), c(f, t, f)),
        (c(t, f, f), c(t, t, f)),
        (c(f, f, t), c(f, t, t)),
        (c(t, f, t), c(t, t, t)),
        (c(f, f, f), c(f, f, t)),
        (c(t, f, f), c(t, f, t)),
        (c(f, t, f), c(f, t, t)),
        (c(t, t, f), c(t, t, t)),
    ]
}

/// Maps the unit X axis onto `a..b` with radius `radius` across it.
fn along(a: Vec3, b: Vec3, radius: f32) -> Option<Mat4> {
    let d = b - a;
    let len = d.length();
    if len <= f32::EPSILON || !len.is_finite() {
        return None;
    }
    let x = d / len;
    let (y, z) = perpendiculars(x);
    Some(columns(d, y * radius, z * radius, a))
}

fn scaled_at(center: Vec3, scale: Vec3) -> Mat4 {
    columns(
        Vec3::X * scale.x,
        Vec3::Y * scale.y,
        Vec3::Z * scale.z,
        center,
    )
}

/// Two unit vectors completing `n` (unit) to a right-handed basis.
fn perpendiculars(n: Vec3) -> (Vec3, Vec3) {
    let u = n.any_orthonormal_vector();
    (u, n.cross(u))
}

fn columns(x: Vec3, y: Vec3, z: Vec3, t: Vec3) -> Mat4 {
    let c = |v: Vec3, w: f32| Vector4::new(v.x, v.y, v.z, w);
    Mat4::from_cols(c(x, 0.0), c(y, 0.0), c(z, 0.0), c(t, 1.0))
}

/// One batch on the GPU.
pub(super) struct OverlayMeshes {
    instanced: Vec<Gm<InstancedMesh, OverlayMaterial>>,
    triangles: Option<Gm<Mesh, OverlayMaterial>>,
    edges: Option<Gm<LineSegments, OverlayMaterial>>,
}

/// The base shapes, built once and shared by every upload.
pub(super) struct BaseShapes {
    cylinder: CpuMesh,
    cone: CpuMesh,
    sphere: CpuMesh,
    quad: CpuMesh,
}

impl BaseShapes {
    pub fn new() -> Self {
        BaseShapes {
            cylinder: CpuMesh::cylinder(12),
            cone: CpuMesh::cone(12),
            sphere: CpuMesh::sphere(16),
            quad: CpuMesh::square(),
        }
    }
}

impl OverlayMeshes {
    /// Uploads a batch; `pull` is the overlay depth pull (see [`OverlayMaterial`]).
    pub fn upload(
        ctx: &Context,
        base: &BaseShapes,
        inst: &OverlayInstances,
        transparent: bool,
        pull: f32,
    ) -> Self {
        let material = || OverlayMaterial {
            transparent,
            pull,
            lines: false,
        };
        let lists = [
            (&base.cylinder, &inst.cylinders),
            (&base.cone, &inst.cones),
            (&base.sphere, &inst.spheres),
            (&base.quad, &inst.quads),
        ];
        let instanced = lists
            .into_iter()
            .filter(|(_, list)| !list.is_empty())
            .map(|(mesh, list)| {
                let instances = Instances {
                    transformations: list.iter().map(|(m, _)| *m).collect(),
                    colors: Some(list.iter().map(|(_, c)| *c).collect()),
                    ..Default::default()
                };
                Gm::new(InstancedMesh::new(ctx, &instances, mesh), material())
            })
            .collect();
        let triangles = (!inst.triangles.is_empty())
            .then(|| Gm::new(Mesh::new(ctx, &triangle_mesh(&inst.triangles)), material()));
        let edges = (!inst.edges.is_empty())
            .then(|| LineSegments::new(ctx, &inst.edges).into_model(transparent, pull));
        OverlayMeshes {
            instanced,
            triangles,
            edges,
        }
    }

    /// The objects to render.
    pub fn objects(&self) -> impl Iterator<Item = &dyn Object> {
        self.instanced
            .iter()
            .map(|g| g as &dyn Object)
            .chain(self.triangles.iter().map(|g| g as &dyn Object))
            .chain(self.edges.iter().map(|g| g as &dyn Object))
    }
}

/// Unindexed triangles with their face normal and colour on every corner.
fn triangle_mesh(tris: &[([Vec3; 3], Srgba)]) -> CpuMesh {
    let mut positions = Vec::with_capacity(tris.len() * 3);
    let mut normals = Vec::with_capacity(tris.len() * 3);
    let mut colors = Vec::with_capacity(tris.len() * 3);
    for (corners, color) in tris {
        let n = (corners[1] - corners[0])
            .cross(corners[2] - corners[0])
            .try_normalize()
            .unwrap_or(Vec3::Y);
        for c in corners {
            positions.push(v3(*c));
            normals.push(v3(n));
            colors.push(*color);
        }
    }
    CpuMesh {
        positions: Positions::F32(positions),
        indices: Indices::None,
        normals: Some(normals),
        colors: Some(colors),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::debug_draw::OverlayKind;
    use crate::math::Aabb;
    use three_d::{InnerSpace, Transform};

    fn prim(shape: Shape, alpha: f32) -> DebugPrimitive {
        DebugPrimitive {
            kind: OverlayKind::Path,
            shape,
            color: [1.0, 0.5, 0.0, alpha],
            label: None,
        }
    }

    fn apply(m: &Mat4, p: Vec3) -> Vec3 {
        let q = m.transform_point(three_d::Point3::new(p.x, p.y, p.z));
        Vec3::new(q.x, q.y, q.z)
    }

    #[test]
    fn segments_map_the_unit_cylinder_onto_their_ends() {
        let sizes = StrokeSizes::for_probe_radius(1.0);
        let a = DVec3::new(1.0, 2.0, 3.0);
        let b = DVec3::new(-2.0, 0.0, 5.0);
        let (o, t) = build_instances(&[prim(Shape::Segment { a, b }, 1.0)], &sizes);
        assert!(t.is_empty());
        let m = o.cylinders[0].0;
        assert!((apply(&m, Vec3::ZERO) - a.as_vec3()).length() < 1e-5);
        assert!((apply(&m, Vec3::X) - b.as_vec3()).length() < 1e-5);
        // The rim sits `line` away from the axis.
        let rim = apply(&m, Vec3::Y) - a.as_vec3();
        assert!((rim.length() - sizes.line).abs() < 1e-5);
        assert!(rim.dot((b - a).as_vec3()).abs() < 1e-4);
    }

    #[test]
    fn arrows_boxes_points_and_translucency() {
        let sizes = StrokeSizes::for_probe_radius(0.5);
        let prims = [
            prim(
                Shape::Arrow {
                    from: DVec3::ZERO,
                    to: DVec3::new(0.0, 0.0, 2.0),
                },
                1.0,
            ),
            prim(
                Shape::Box {
                    aabb: Aabb::from_corners(Vec3::ZERO, Vec3::ONE),
                },
                1.0,
            ),
            prim(Shape::Point { p: DVec3::ONE }, 1.0),
            prim(
                Shape::Ellipsoid {
                    center: DVec3::ZERO,
                    radii: DVec3::new(0.5, 1.0, 0.5),
                },
                0.3,
            ),
        ];
        let (o, t) = build_instances(&prims, &sizes);
        assert_eq!(o.cylinders.len(), 1);
        assert_eq!(o.edges.len(), 12);
        assert!(o.edges.iter().all(|(e, _)| (e[1] - e[0]).length() == 1.0));
        // A flat box (a floor triangle's) has no zero-length uprights.
        let flat = Aabb::from_corners(Vec3::ZERO, Vec3::new(1.0, 0.0, 1.0));
        let (f, _) = build_instances(&[prim(Shape::Box { aabb: flat }, 1.0)], &sizes);
        assert_eq!(f.edges.len(), 8);
        assert_eq!(o.cones.len(), 1);
        assert!((apply(&o.cones[0].0, Vec3::X) - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-5);
        assert_eq!(o.spheres.len(), 1);
        assert_eq!(t.spheres.len(), 1);
        let top = apply(&t.spheres[0].0, Vec3::Y);
        assert!(
            (top - Vec3::Y).length() < 1e-5,
            "sphere scaled by the radii"
        );
    }

    #[test]
    fn bodies_other_than_the_ellipsoid_are_drawn_in_their_own_shape() {
        let sizes = StrokeSizes::for_probe_radius(0.4);
        let at = DVec3::new(1.0, 2.0, 3.0);
        let body = |shape| prim(Shape::Solid { center: at, shape }, 0.3);
        let capsule = CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        };
        let (_, t) = build_instances(&[body(capsule)], &sizes);
        assert_eq!((t.cylinders.len(), t.spheres.len()), (1, 2));
        // The round ends' centres are 0.5 m above and below the centre.
        let ends: Vec<Vec3> = t
            .spheres
            .iter()
            .map(|(m, _)| apply(m, Vec3::ZERO))
            .collect();
        assert!(
            ends.iter()
                .any(|e| (*e - Vec3::new(1.0, 2.5, 3.0)).length() < 1e-5)
        );
        assert!(
            ends.iter()
                .any(|e| (*e - Vec3::new(1.0, 1.5, 3.0)).length() < 1e-5)
        );
        let (_, t) = build_instances(
            &[body(CharacterShape::Box {
                half_extents_m: [0.3, 0.9, 0.5],
            })],
            &sizes,
        );
        assert_eq!(t.triangles.len(), 12);
        let top = t
            .triangles
            .iter()
            .flat_map(|(c, _)| c.iter())
            .map(|p| p.y)
            .fold(f32::MIN, f32::max);
        assert!((top - 2.9).abs() < 1e-5);
        let (_, t) = build_instances(
            &[body(CharacterShape::Cylinder {
                radius_m: 0.4,
                height_m: 1.8,
            })],
            &sizes,
        );
        assert_eq!(t.cylinders.len(), 1);
        assert_eq!(t.triangles.len(), 48, "two flat caps");
        let (_, t) = build_instances(&[body(CharacterShape::Sphere { radius_m: 0.5 })], &sizes);
        assert_eq!(t.spheres.len(), 1);
    }

    #[test]
    fn plane_quads_face_their_normal() {
        let n = DVec3::new(0.0, 1.0, 1.0).normalize();
        let (_, t) = build_instances(
            &[prim(
                Shape::PlaneQuad {
                    center: DVec3::new(1.0, 1.0, 1.0),
                    normal: n,
                    half_size: 2.0,
                },
                0.3,
            )],
            &StrokeSizes::for_probe_radius(1.0),
        );
        let m = t.quads[0].0;
        let z = m.z.truncate();
        assert!((z.normalize().dot(v3(n.as_vec3())) - 1.0).abs() < 1e-5);
        assert!((m.x.truncate().magnitude() - 2.0).abs() < 1e-5);
        assert!(m.x.truncate().dot(z).abs() < 1e-5);
    }

    #[test]
    fn degenerate_shapes_are_skipped_and_strokes_follow_the_probe() {
        let p = DVec3::ONE;
        let (o, _) = build_instances(
            &[
                prim(Shape::Segment { a: p, b: p }, 1.0),
                prim(Shape::Arrow { from: p, to: p }, 1.0),
            ],
            &StrokeSizes::for_probe_radius(1.0),
        );
        assert!(o.is_empty());
        let with_probe = [prim(
            Shape::Ellipsoid {
                center: p,
                radii: DVec3::new(0.4, 0.9, 0.4),
            },
            0.3,
        )];
        let s = StrokeSizes::for_primitives(&with_probe, 100.0);
        assert_eq!(s, StrokeSizes::for_probe_radius(0.4));
        assert_eq!(
            StrokeSizes::for_primitives(&[], 100.0),
            StrokeSizes::for_probe_radius(1.0)
        );
    }
}
