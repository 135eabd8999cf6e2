//! The library through its public API, no window: the importer on fixtures
//! and the shared real levels, the level generator, mesh hygiene and the
//! feature finder, the slide on scenarios, random levels and real levels,
//! its self-checks, the fuzzing of the readers, and the sweep against
//! parry3d. One test binary (one link) for all of them.

mod common;

mod check_levels;
// Shared with the character_frames_vs_rapier bench, which uses other parts.
#[allow(dead_code)]
mod rapier_kcc;
mod rapier_peer;

mod fuzz_inputs;
mod generate;
mod generate_default_level;
mod hygiene_levels;
mod import_fixtures;
mod import_levels;
mod level_features;
mod settings_formats;
mod slide_paths_vs_parry;
mod slide_props;
mod slide_real_levels;
mod slide_rounded;
mod slide_scenarios;
mod slide_self_checks;
mod slide_shapes;
mod solid_sweep_vs_parry;
mod sweep_vs_parry;
