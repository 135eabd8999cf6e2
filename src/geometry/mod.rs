//! Exact geometric tests, `f64`.
//!
//! - [`espace`]: the change of space that turns the probe ellipsoid into a
//!   unit sphere (divide by the radii), and how points, vectors and normals
//!   move between the two spaces.
//! - [`sweep`]: the closed-form swept unit sphere vs triangle test of
//!   Fauerby (2003): plane interval, inside test, vertex and edge quadratics.
//! - [`closest`]: closest points on triangles and segments.
//! - [`sphere_sphere`]: swept sphere vs swept sphere (bounding spheres),
//!   with the coefficient-sign early-outs of the seed document 001.

pub mod closest;
pub mod espace;
pub mod sphere_sphere;
pub mod sweep;
