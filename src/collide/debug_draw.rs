//! Renderer-agnostic debug primitives for an iteration record (overlays).
//!
//! CONTRACT (skeleton): filled in by the GUI helper; everything here is world space.
