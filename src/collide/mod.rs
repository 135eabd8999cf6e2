//! Collide and slide: the probe's ellipsoid is swept through the level's
//! triangles, stops at the first contact and slides along the contact plane,
//! recursively (Nettle 2000; Fauerby 2003; Linahan 2012).
//!
//! [`SlideSolver`] is the one implementation. It is an iterator that yields
//! one [`IterationRecord`] per iteration of the recursion; [`slide`] drains
//! it. The GUI's Step is `next()`, the CLI and the tests drain it.

mod clearance;
pub mod debug_draw;
mod fauerby;
mod ghost;
mod nettle;
mod nettle_points;
mod robust;
pub mod settings;
mod solver;
pub mod trace;
mod world;

pub use clearance::{CLEARANCE_REACH_RADII, embedded_verdict};
pub use settings::{InvalidSettings, SlideMode, SlideSettings};
pub use solver::{MAX_MAGNITUDE_M, SlideResult, SlideSolver, TraceDetail, WallRule, slide};
pub use trace::*;
pub use world::CollisionWorld;
