//! Collidoscope: a level editor and collision debugger.
//!
//! The core (everything but `app` and `render`) is GUI-free. It imports OBJ
//! levels, builds a BVH over per-triangle AABBs and runs the swept-ellipsoid
//! collide-and-slide recursion (Nettle 2000, Fauerby 2003) as an iterator
//! that yields one plain-data record per iteration, so that the GUI, the CLI
//! and the tests all step the very same solver.
//!
//! # The public API
//!
//! The `collidoscope` command line and window are thin layers over this
//! library, and it is public so that programs (the integration tests, the
//! benchmarks, a game team's own tools) can run the same solver on the same
//! levels: import a level ([`level`]), run a move ([`collide::slide`], or
//! [`collide::SlideSolver`] one iteration at a time) or a character
//! ([`character`]), ask questions of the level ([`analysis`]), read and write
//! settings files ([`settings_file`]); every file is read and written
//! through [`fileio`] (bounded reads, atomic writes). [`mesh`], [`bvh`], [`geometry`] and
//! [`math`] build levels in code and expose the queries under the solver.
//! What carries an invariant (a level's mesh and its BVH, a mesh's triangles
//! and their boxes) is read through accessors and built only by the
//! constructors, so a BVH always matches its mesh.
//!
//! Import a level from OBJ text, build its BVH and slide a probe (an
//! ellipsoid 0.8 m wide and 1.8 m tall, the default) into a wall:
//!
//! ```
//! use collidoscope::collide::{EndReason, SlideSettings, TraceDetail, slide};
//! use collidoscope::level::{ImportOptions, Level, import::import_obj_bytes};
//! use glam::DVec3;
//! use std::path::Path;
//!
//! // A 10 m floor and a wall across it at x = 2 m (Y up, metres).
//! let obj = "o floor
//! v -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5
//! f 1 4 3 2
//! o wall
//! v 2 0 -5\nv 2 3 -5\nv 2 3 5\nv 2 0 5
//! f 5 6 7 8
//! ";
//! let (mesh, report) =
//!     import_obj_bytes(obj.as_bytes(), Path::new("room.obj"), &ImportOptions::default())?;
//! assert_eq!(report.triangles, 4);
//! let level = Level::from_mesh("room", mesh);
//!
//! // Standing on the floor, moving 5 m towards the wall.
//! let settings = SlideSettings::default();
//! let start = DVec3::new(0.0, 0.9 + settings.skin, 0.0);
//! let velocity = DVec3::new(5.0, 0.0, 0.0);
//! let result = slide(level.world(), &settings, start, velocity, TraceDetail::Full)
//!     .expect("finite input");
//! // Stopped by the wall, its radius and the skin short of it.
//! let end_x = 2.0 - settings.radii[0] - settings.skin;
//! assert!((result.final_position.x - end_x).abs() < 1e-3, "{}", result.final_position);
//! assert!(result.iterations.len() >= 1);
//! assert_ne!(result.end_reason, EndReason::StuckEmbedded);
//! # Ok::<(), collidoscope::level::ImportError>(())
//! ```
#![warn(missing_docs)]

pub mod analysis;
pub mod broadphase;
pub mod bvh;
pub mod character;
pub mod cli;
pub mod collide;
pub mod export;
pub mod fileio;
pub mod geometry;
pub mod level;
pub mod math;
pub mod mesh;
pub mod methods;
pub mod quote;
pub mod repro;
pub mod settings_file;
pub mod terrain;

#[cfg(feature = "gui")]
pub mod app;
#[cfg(feature = "gui")]
pub mod render;
