//! Questions answered from a level and a character, built on the one
//! solver: the character's envelope (what it can do, measured on generated
//! courses), the level's features (steps, openings, slopes, low ceilings,
//! found and measured from its triangles), the level checks that walk the
//! character at each feature for a verdict, sections along a walk, the
//! level generators the courses and the tests use, and the mesh hygiene
//! analysis (open edges, T-junctions, near misses, slivers, overlaps, ...),
//! and one move compared across the slide modes.

pub mod boxcam;
pub mod checks;
pub mod compare;
pub mod compare_walk;
pub mod envelope;
pub mod features;
pub mod generate;
pub mod hygiene;
pub mod map;
pub mod probe_pairs;
pub mod public_levels;
pub mod replay;
pub mod section;
pub mod whatif;
