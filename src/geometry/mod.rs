//! Exact geometric tests, `f64`.
//!
//! - [`espace`]: the change of space that turns the probe ellipsoid into a
//!   unit sphere (divide by the radii), and how points, vectors and normals
//!   move between the two spaces.
//! - [`sweep`]: the closed-form swept unit sphere vs triangle test of
//!   Fauerby (2003): plane interval, inside test, vertex and edge quadratics.
//! - [`closest`]: closest points on triangles and segments.
//! - [`shape`]: the character's shape (ellipsoid, sphere, capsule,
//!   cylinder, box) as settings, and as the solids the swept tests take.
//! - [`solid_sweep`]: swept sphere, capsule, cylinder and box vs triangle
//!   in world metres (time of impact, contact, normal, feature; exact).
//! - [`sphere_sphere`]: swept sphere vs swept sphere (bounding spheres),
//!   with the coefficient-sign early-outs of the seed document 001.

pub mod closest;
pub mod espace;
pub mod shape;
pub mod solid_sweep;
pub mod sphere_sphere;
pub mod sweep;
