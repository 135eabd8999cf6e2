//! Vertical cylinder colliders (trees, poles), world space, metres.
//!
//! A [`Cylinder`] stands on its base centre and rises `height` metres along
//! +y. The radial method ([`crate::methods::radial`], after the GameDev.net
//! article "Simple but Effective Collisions Part 1: Radial Collision
//! Handling", seed document 002) uses the circle in the x-z plane and the
//! vertical extent; the swept ellipsoid sees the same cylinder as a closed
//! prism of [`PRISM_SIDES`] sides ([`level_with_cylinders`]), so the two
//! methods can be compared on the same poles.
//!
//! Cylinders come from the window (placed by clicking), the command line
//! (`--cylinder X,Y,Z,R,H`) or OBJ objects named by the rule of
//! [`is_cylinder_object_name`] ([`named_cylinder_objects`]).

use super::Level;
use crate::collide::MAX_MAGNITUDE_M;
use crate::math::Vec3;
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::f64::consts::TAU;
use std::fmt;

/// Sides of the prism that stands in for a cylinder in the triangle world.
/// The prism's flat faces touch the circle (it circumscribes it), so the
/// ellipsoid never gets closer to the axis than the radial method's circle;
/// its corners stick out by `1 / cos(π / 16) - 1` ≈ 2 % of the radius.
pub const PRISM_SIDES: usize = 16;

/// The most cylinders one scene may hold (the radial method tests every
/// cylinder at every step: the work is steps × cylinders).
pub const MAX_CYLINDERS: usize = 4096;

/// Prefix of the objects made from cylinders in [`level_with_cylinders`].
pub const CYLINDER_OBJECT_PREFIX: &str = "cylinder_";

/// A vertical cylinder, world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cylinder {
    /// Centre of the bottom disc, world space, metres.
    pub base_world: DVec3,
    /// Radius in the x-z plane, metres, > 0.
    pub radius: f64,
    /// Height along +y from the base, metres, > 0.
    pub height: f64,
}

/// Why a cylinder is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CylinderError(pub String);

impl fmt::Display for CylinderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CylinderError {}

impl Cylinder {
    /// A validated cylinder: every number finite, radius and height above
    /// zero, nothing beyond the solver's ±[`MAX_MAGNITUDE_M`] bound.
    pub fn new(base_world: DVec3, radius: f64, height: f64) -> Result<Cylinder, CylinderError> {
        let c = Cylinder {
            base_world,
            radius,
            height,
        };
        c.validate()?;
        Ok(c)
    }

    /// Why this cylinder cannot be used, if it cannot (cylinders read from
    /// a session file are checked again).
    pub fn validate(&self) -> Result<(), CylinderError> {
        let b = self.base_world;
        if !b.is_finite() || b.abs().max_element() > MAX_MAGNITUDE_M {
            return Err(CylinderError(format!(
                "cylinder base ({}, {}, {}) must be finite and within ±{MAX_MAGNITUDE_M} m",
                readable(b.x),
                readable(b.y),
                readable(b.z)
            )));
        }
        for (what, v) in [("radius", self.radius), ("height", self.height)] {
            if !(v.is_finite() && v > 0.0 && v <= MAX_MAGNITUDE_M) {
                return Err(CylinderError(format!(
                    "cylinder {what} {} must be above 0 and at most {MAX_MAGNITUDE_M} m",
                    readable(v)
                )));
            }
        }
        if (b.y + self.height).abs() > MAX_MAGNITUDE_M {
            return Err(CylinderError(format!(
                "cylinder top {} is beyond ±{MAX_MAGNITUDE_M} m",
                readable(b.y + self.height)
            )));
        }
        Ok(())
    }

    /// Parses `X,Y,Z,R,H` (the command line's `--cylinder`).
    pub fn parse(text: &str) -> Result<Cylinder, CylinderError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let short: String = text.chars().take(40).collect();
        if parts.len() != 5 {
            return Err(CylinderError(format!(
                "'{short}' is not X,Y,Z,R,H (five numbers: base centre, radius, height)"
            )));
        }
        let mut n = [0.0; 5];
        for (slot, p) in n.iter_mut().zip(&parts) {
            *slot = p.parse::<f64>().map_err(|_| {
                let bad: String = p.chars().take(20).collect();
                CylinderError(format!("'{bad}' in '{short}' is not a number"))
            })?;
        }
        Cylinder::new(DVec3::new(n[0], n[1], n[2]), n[3], n[4])
    }

    /// Top of the cylinder, world y.
    pub fn top_y(&self) -> f64 {
        self.base_world.y + self.height
    }

    /// The prism's corners around the base (`y = base`) and the top, world
    /// space, counter-clockwise seen from above.
    fn prism_corners(&self) -> Vec<(Vec3, Vec3)> {
        let r = self.radius / (std::f64::consts::PI / PRISM_SIDES as f64).cos();
        (0..PRISM_SIDES)
            .map(|i| {
                // Seen from +y, x to z is clockwise; going by -angle turns
                // counter-clockwise so the side faces' normals point out.
                // Half a side off the axes: the faces (not corners) face
                // ±x and ±z, so a move along an axis meets a flat face.
                let a = -(i as f64 + 0.5) * TAU / PRISM_SIDES as f64;
                let (s, c) = a.sin_cos();
                let p = self.base_world + DVec3::new(r * c, 0.0, r * s);
                let lo = p.as_vec3();
                let hi = (p + DVec3::Y * self.height).as_vec3();
                (lo, hi)
            })
            .collect()
    }

    /// Appends the closed prism (sides, top and bottom caps, outward
    /// facing) to `positions` / `triangles`; returns the triangles added.
    fn append_prism(&self, positions: &mut Vec<Vec3>, triangles: &mut Vec<[u32; 3]>) -> u32 {
        let corners = self.prism_corners();
        let base = positions.len() as u32;
        for (lo, hi) in &corners {
            positions.push(*lo);
            positions.push(*hi);
        }
        let bottom = base + 2 * PRISM_SIDES as u32;
        positions.push(self.base_world.as_vec3());
        positions.push((self.base_world + DVec3::Y * self.height).as_vec3());
        let n = PRISM_SIDES as u32;
        let (lo, hi) = (|i: u32| base + 2 * (i % n), |i: u32| base + 2 * (i % n) + 1);
        for i in 0..n {
            triangles.push([lo(i), hi(i + 1), hi(i)]);
            triangles.push([lo(i), lo(i + 1), hi(i + 1)]);
            triangles.push([bottom + 1, hi(i), hi(i + 1)]);
            triangles.push([bottom, lo(i + 1), lo(i)]);
        }
        4 * n
    }
}

/// Objects whose names make cylinders: `cyl_*`, `pole_*`, `pillar_*` or
/// `tree_*` (case-insensitive), or exactly `cyl`, `pole`, `pillar` or `tree`. OBJ objects are
/// named by `o` (or `g`, depending on the import's objects-by option).
pub fn is_cylinder_object_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["cyl", "pole", "pillar", "tree"]
        .iter()
        .any(|p| lower == *p || lower.starts_with(&format!("{p}_")))
}

/// An object named by the cylinder rule that gives no cylinder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnusableCylinderObject {
    /// The object's name (as `object` in the radial method's cylinder list).
    pub object: String,
    /// Its index in the mesh.
    pub object_index: u32,
    /// Why it gives no cylinder, in words.
    pub reason: String,
}

/// The objects named by the cylinder rule, sorted by what they give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NamedCylinderObjects {
    /// The cylinders, with their objects' indices, in object order.
    pub cylinders: Vec<(u32, Cylinder)>,
    /// The named objects that give none, in object order.
    pub unusable: Vec<UnusableCylinderObject>,
}

/// Every object named by [`is_cylinder_object_name`], sorted into the
/// vertical cylinders that bound them, with each object's index (centred
/// on the middle of its box in x-z, radius out to its farthest vertex in
/// x-z, from its lowest to its highest vertex), and the named objects that
/// give none with the reason, so a report can say that `pole_a` was found
/// but is flat rather than that the file names no poles.
pub fn named_cylinder_objects(mesh: &TriMesh) -> NamedCylinderObjects {
    named_cylinder_objects_in(mesh, None)
}

/// [`named_cylinder_objects`] in a scene where some objects are switched
/// off for collision (`object_colliding[i]` false: a trigger, a decal):
/// those give no cylinder either, and are listed as unusable with that
/// reason. A trigger pushes nothing out, and the swept ellipsoid the
/// radial method is compared with passes through it too.
pub fn colliding_cylinder_objects(
    mesh: &TriMesh,
    object_colliding: &[bool],
) -> NamedCylinderObjects {
    named_cylinder_objects_in(mesh, Some(object_colliding))
}

fn named_cylinder_objects_in(
    mesh: &TriMesh,
    object_colliding: Option<&[bool]>,
) -> NamedCylinderObjects {
    let mut out = NamedCylinderObjects::default();
    for (index, object) in mesh.objects().iter().enumerate() {
        if !is_cylinder_object_name(&object.name) {
            continue;
        }
        let colliding = object_colliding.is_none_or(|c| c.get(index).copied().unwrap_or(true));
        let cylinder = if colliding {
            object_cylinder(mesh, object)
        } else {
            Err("it is non-colliding (a trigger), so it pushes nothing out".into())
        };
        match cylinder {
            Ok(c) => out.cylinders.push((index as u32, c)),
            Err(reason) => out.unusable.push(UnusableCylinderObject {
                object: object.name.clone(),
                object_index: index as u32,
                reason,
            }),
        }
    }
    out
}

/// The vertical cylinder bounding one object's vertices, or why it has none.
fn object_cylinder(mesh: &TriMesh, object: &crate::mesh::MeshObject) -> Result<Cylinder, String> {
    if object.triangle_count == 0 {
        return Err("it has no triangles".into());
    }
    let (min, max) = (object.aabb.min.as_dvec3(), object.aabb.max.as_dvec3());
    if max.y <= min.y {
        // Checked here, not left to `Cylinder::new`: "height 0 must be
        // above 0" would not say that the object itself is flat.
        return Err(format!(
            "it is flat: every vertex is at y = {:.3}, so it has no height",
            min.y
        ));
    }
    let centre = (min + max) * 0.5;
    let first = object.first_triangle as usize;
    let tris = &mesh.triangles()[first..first + object.triangle_count as usize];
    let radius = tris
        .iter()
        .flatten()
        .map(|&v| {
            let p = mesh.positions()[v as usize].as_dvec3();
            (p.x - centre.x).hypot(p.z - centre.z)
        })
        .fold(0.0, f64::max);
    if radius <= 0.0 {
        return Err(format!(
            "it is a vertical line at x = {:.3}, z = {:.3}: it has no width",
            centre.x, centre.z
        ));
    }
    let base = DVec3::new(centre.x, min.y, centre.z);
    Cylinder::new(base, radius, max.y - min.y).map_err(|e| e.0)
}

/// The level with each cylinder added as an object `cylinder_<i>` (a
/// closed prism of [`PRISM_SIDES`] sides), so the swept ellipsoid collides
/// with them. The level's own objects keep their indices; the BVH is
/// rebuilt. Cylinders are assumed valid ([`Cylinder::validate`]).
pub fn level_with_cylinders(level: &Level, cylinders: &[Cylinder]) -> Level {
    let mesh = level.mesh();
    let mut positions = mesh.positions().to_vec();
    let mut triangles = mesh.triangles().to_vec();
    let mut objects: Vec<(String, u32)> = mesh
        .objects()
        .iter()
        .map(|o| (o.name.clone(), o.triangle_count))
        .collect();
    for (i, c) in cylinders.iter().enumerate() {
        let added = c.append_prism(&mut positions, &mut triangles);
        objects.push((format!("{CYLINDER_OBJECT_PREFIX}{i}"), added));
    }
    let mut out = Level::from_mesh(&level.name, TriMesh::new(positions, triangles, objects));
    out.path.clone_from(&level.path);
    out.report = level.report.clone();
    out.height_field.clone_from(&level.height_field);
    out
}

/// A number for an error message: plain for everyday sizes, scientific for
/// huge or tiny ones, so `1e308` is not printed as 309 digits.
pub(crate) fn readable(x: f64) -> String {
    if x.is_finite() && x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn huge_numbers_in_errors_are_short() {
        let e = Cylinder::new(DVec3::new(1e308, 0.0, 0.0), 1.0, 1.0).unwrap_err();
        assert!(e.0.contains("(1e308, 0, 0)"), "{}", e.0);
        let e = Cylinder::new(DVec3::ZERO, 1.0, 1e308).unwrap_err();
        assert!(e.0.starts_with("cylinder height 1e308 must"), "{}", e.0);
        assert!(e.0.len() < 120, "{}", e.0);
    }

    use super::*;

    #[test]
    fn bad_cylinders_are_refused_with_a_reason() {
        let ok = Cylinder::new(DVec3::ZERO, 0.5, 3.0);
        assert!(ok.is_ok());
        for (c, word) in [
            (Cylinder::new(DVec3::ZERO, 0.0, 3.0), "radius"),
            (Cylinder::new(DVec3::ZERO, 0.5, -1.0), "height"),
            (Cylinder::new(DVec3::ZERO, f64::NAN, 1.0), "radius"),
            (
                Cylinder::new(DVec3::new(f64::INFINITY, 0.0, 0.0), 1.0, 1.0),
                "base",
            ),
            (Cylinder::new(DVec3::new(2e9, 0.0, 0.0), 1.0, 1.0), "base"),
            (Cylinder::new(DVec3::new(0.0, 9e8, 0.0), 1.0, 5e8), "top"),
        ] {
            let e = c.unwrap_err().to_string();
            assert!(e.contains(word), "{e}");
        }
    }

    #[test]
    fn parse_reads_five_numbers_and_quotes_bad_text_briefly() {
        let c = Cylinder::parse("1, 0,2,0.5,3").unwrap();
        assert_eq!(c.base_world, DVec3::new(1.0, 0.0, 2.0));
        assert_eq!((c.radius, c.height), (0.5, 3.0));
        assert!(
            Cylinder::parse("1,2,3")
                .unwrap_err()
                .0
                .contains("X,Y,Z,R,H")
        );
        let long = format!("1,2,3,4,{}", "x".repeat(500));
        let e = Cylinder::parse(&long).unwrap_err().0;
        assert!(e.contains("not a number") && e.len() < 120, "{e}");
    }

    #[test]
    fn the_prism_is_closed_faces_out_and_circumscribes_the_circle() {
        let c = Cylinder::new(DVec3::new(3.0, 1.0, -2.0), 0.5, 2.0).unwrap();
        let level = level_with_cylinders(&Level::from_mesh("empty", TriMesh::default()), &[c]);
        let mesh = level.mesh();
        assert_eq!(mesh.triangle_count(), 4 * PRISM_SIDES);
        assert_eq!(mesh.objects()[0].name, "cylinder_0");
        let axis = DVec3::new(3.0, 0.0, -2.0);
        for t in 0..mesh.triangle_count() as u32 {
            let [a, b, cc] = mesh.triangle_f64(t);
            let mid = (a + b + cc) / 3.0;
            let n = mesh.triangle_normal(t);
            let out = mid - DVec3::new(axis.x, 2.0, axis.z);
            assert!(n.dot(out) > 0.0, "triangle {t} faces inwards");
            if n.y.abs() < 1e-6 {
                // Side faces: the face's plane is `radius` from the axis.
                let d = (a - DVec3::new(axis.x, a.y, axis.z)).dot(n);
                assert!((d - 0.5).abs() < 1e-5, "side at {d}");
            }
        }
        let b = mesh.bounds();
        assert!((b.min.y - 1.0).abs() < 1e-6 && (b.max.y - 3.0).abs() < 1e-6);
    }

    #[test]
    fn named_objects_that_give_no_cylinder_are_listed_with_the_reason() {
        let mut b = crate::mesh::MeshBuilder::new();
        // A decal named like a tree: flat on the floor.
        b.object("tree_shadow").quad(
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 0.0),
        );
        b.object("pole_ok")
            .cuboid(Vec3::new(3.0, 0.0, 3.0), Vec3::new(4.0, 2.0, 4.0));
        b.object("rock")
            .cuboid(Vec3::new(6.0, 0.0, 6.0), Vec3::new(7.0, 1.0, 7.0));
        let named = named_cylinder_objects(&b.build());
        assert_eq!(named.cylinders.len(), 1);
        assert_eq!(named.cylinders[0].0, 1);
        assert_eq!(named.unusable.len(), 1, "{:?}", named.unusable);
        let u = &named.unusable[0];
        assert_eq!((u.object_index, u.object.as_str()), (0, "tree_shadow"));
        assert!(
            u.reason.contains("flat") && u.reason.contains("y = 0.000"),
            "{}",
            u.reason
        );
    }

    #[test]
    fn non_colliding_named_objects_give_no_cylinder() {
        let mut b = crate::mesh::MeshBuilder::new();
        b.object("pole_trigger")
            .cuboid(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 1.0));
        b.object("pole_solid")
            .cuboid(Vec3::new(3.0, 0.0, 3.0), Vec3::new(4.0, 2.0, 4.0));
        let mesh = b.build();
        assert_eq!(named_cylinder_objects(&mesh).cylinders.len(), 2);
        let named = colliding_cylinder_objects(&mesh, &[false, true]);
        assert_eq!(named.cylinders.len(), 1);
        assert_eq!(named.cylinders[0].0, 1, "pole_solid stays");
        assert_eq!(named.unusable.len(), 1);
        assert_eq!(named.unusable[0].object, "pole_trigger");
        assert!(named.unusable[0].reason.contains("non-colliding"));
        // Every object colliding: the same as the plain list.
        assert_eq!(
            colliding_cylinder_objects(&mesh, &[true, true]),
            named_cylinder_objects(&mesh)
        );
    }

    #[test]
    fn objects_named_by_the_rule_become_their_bounding_cylinders() {
        assert!(is_cylinder_object_name("pole_3") && is_cylinder_object_name("Tree_Oak"));
        assert!(is_cylinder_object_name("pillar_16gon_r0.50"));
        assert!(is_cylinder_object_name("cyl") && !is_cylinder_object_name("cylinder"));
        assert!(!is_cylinder_object_name("telephone_pole"));
        let mut b = crate::mesh::MeshBuilder::new();
        b.object("floor")
            .cuboid(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
        b.object("pole_a")
            .cuboid(Vec3::new(1.0, 0.0, 1.0), Vec3::new(2.0, 4.0, 3.0));
        let found = named_cylinder_objects(&b.build()).cylinders;
        assert_eq!(found.len(), 1);
        let (object, c) = found[0];
        assert_eq!(object, 1);
        assert_eq!(c.base_world, DVec3::new(1.5, 0.0, 2.0));
        assert!((c.radius - 0.5f64.hypot(1.0)).abs() < 1e-6);
        assert_eq!(c.height, 4.0);
    }
}
