//! Collidoscope: a level editor and collision debugger.
//!
//! The core (everything but `app` and `render`) is GUI-free. It imports OBJ
//! levels, builds a BVH over per-triangle AABBs and runs the swept-ellipsoid
//! collide-and-slide recursion (Nettle 2000, Fauerby 2003) as an iterator
//! that yields one plain-data record per iteration, so that the GUI, the CLI
//! and the tests all step the very same solver.
#![warn(missing_docs)]

pub mod analysis;
pub mod bvh;
pub mod character;
pub mod cli;
pub mod collide;
pub mod geometry;
pub mod level;
pub mod math;
pub mod mesh;
pub mod settings_file;

#[cfg(feature = "gui")]
pub mod app;
#[cfg(feature = "gui")]
pub mod render;
