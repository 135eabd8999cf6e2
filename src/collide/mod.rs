//! Collide and slide: the probe's ellipsoid is swept through the level's
//! triangles, stops at the first contact and slides along the contact plane,
//! recursively (Nettle 2000; Fauerby 2003; Linahan 2012).
//!
//! [`SlideSolver`] is the one implementation. It is an iterator that yields
//! one [`IterationRecord`] per iteration of the recursion; [`slide`] drains
//! it. The GUI's Step is `next()`, the CLI and the tests drain it. Many
//! moves on one level reuse one solver per thread: see [`SlideSolver`],
//! "Many moves with one solver".
//!
//! Stepping a move one iteration at a time, as the window's stepper does:
//!
//! ```
//! use collidoscope::collide::{IterationOutcome, SlideSettings, SlideSolver, TraceDetail};
//! use collidoscope::level::Level;
//! use collidoscope::mesh::MeshBuilder;
//! use glam::{DVec3, Vec3};
//!
//! // A 1 m cube standing 2 m in front of the probe.
//! let mut b = MeshBuilder::new();
//! b.object("crate").cuboid(Vec3::new(2.0, 0.0, -0.5), Vec3::new(3.0, 1.0, 0.5));
//! let level = Level::from_mesh("crate", b.build());
//! let settings = SlideSettings { radii: [0.5, 0.5, 0.5], ..SlideSettings::default() };
//! let start = DVec3::new(0.0, 0.5, 0.0);
//! let mut solver =
//!     SlideSolver::new(level.world(), &settings, start, DVec3::X * 4.0, TraceDetail::Full)
//!         .expect("finite input, valid settings");
//! // The first iteration hits the cube's face head on.
//! let first = solver.next().expect("one iteration at least");
//! assert!(!first.candidates.is_empty() && first.nearest.is_some());
//! // It stops the skin short of the face at x = 2 m.
//! assert!((first.end.x - (2.0 - 0.5 - settings.skin)).abs() < 1e-3, "{}", first.end);
//! assert!(matches!(first.outcome, IterationOutcome::MoveEnded(_)));
//! assert!(solver.next().is_none(), "a head-on hit leaves nothing to slide");
//! ```

mod clearance;
mod context;
mod crossing;
pub mod debug_draw;
mod fauerby;
mod ghost;
mod nettle;
mod nettle_points;
mod robust;
pub mod settings;
mod solver;
pub mod trace;
pub mod triggers;
mod world;

pub use crate::geometry::closest::segment_triangle_closest;
pub use clearance::{CLEARANCE_REACH_RADII, EMBEDDED_TOLERANCE_RADII, embedded_verdict};
pub use crossing::{TUNNEL_TOLERANCE_RADII, tunnel_verdict};
pub use settings::{
    InvalidSettings, LevelSettings, MAX_ITERATIONS, MAX_NON_COLLIDING_PATTERNS, MAX_PATTERN_CHARS,
    MAX_RADIUS_M, MIN_RADIUS_M, QUAKE_NON_COLLIDING, SlideMode, SlideSettings,
};
pub use solver::{
    MAX_MAGNITUDE_M, MoveEnd, SlideResult, SlideSolver, TraceDetail, WallRule, slide,
};
pub use trace::*;
pub use world::{CollisionWorld, glob_matches, object_matches, objects_named};
