//! Issue 26 §4: capsule character frames against rapier3d's own
//! `KinematicCharacterController` (rapier3d 0.36.1, configured as the
//! Rapier export writes it: `tests/library/rapier_kcc.rs`, included here)
//! on the same walks, levels and settings, in one run. The walks are the
//! level checks' (both angles of every finding, up to [`WALKS`] spread
//! over them), from the same starts, for the same frames.
//!
//! - `ours`: Collidoscope's frame (`walk`, `FramesOnly`) with the capsule
//!   (`[shape] kind = "capsule"`, radius `radii.x`, height `2 radii.y`);
//! - `ours_rapier_profile`: the same under the `rapier` engine profile
//!   (`[character] engine = "rapier"`);
//! - `rapier`: one `move_shape` per frame against the level as one fixed
//!   trimesh collider, the walk and the fall as a game loop gives them.
//!
//! Throughput is frames: criterion's per-element time is the time per
//! frame. Target: ours at least 5x faster per frame on the built-in level,
//! Sibenik and the conference room (scale 0.003); the shared levels are
//! skipped when `../shared/levels` is absent. Short run:
//! `cargo bench --bench character_frames_vs_rapier -- --warm-up-time 1 --measurement-time 3`

#[path = "../tests/library/rapier_kcc.rs"]
#[allow(dead_code)]
mod rapier_kcc;

use collidoscope::analysis::checks::check_level;
use collidoscope::analysis::generate::default_level;
use collidoscope::character::{EngineProfile, WalkSpec, WalkTrace, walk};
use collidoscope::collide::SlideSettings;
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::{ImportOptions, Level};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapier_kcc::{RapierCharacter, RapierLevel};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Walks per benchmark iteration.
const WALKS: usize = 100;

/// The default character as the capsule the Rapier export writes.
fn capsule_settings() -> SlideSettings {
    let mut settings = SlideSettings::default();
    let [rx, ry, _] = settings.radii;
    settings.shape = CharacterShape::Capsule {
        radius_m: rx,
        height_m: 2.0 * ry,
    };
    settings
}

/// The levels: built-in always; Sibenik and the conference room when the
/// shared levels are present.
fn levels() -> Vec<(String, Level)> {
    let mut out = vec![(
        "built_in".to_string(),
        Level::from_mesh("built-in", default_level()),
    )];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    for (name, file, scale) in [
        ("sibenik", "sibenik_dabrovic_75k.obj.gz", 1.0),
        ("conference", "conference_ward_331k.obj.gz", 0.003),
    ] {
        let options = ImportOptions {
            scale,
            ..ImportOptions::default()
        };
        match Level::load(&dir.join(file), &options) {
            Ok(level) => out.push((name.to_string(), level)),
            Err(_) => eprintln!("{file} absent: skipped"),
        }
    }
    out
}

/// The walks of the level's checks, up to [`WALKS`], spread over them
/// (only walks that ran: a start with no floor walks nothing).
fn check_walks(level: &Level, settings: &SlideSettings) -> Vec<WalkSpec> {
    check_level(
        level,
        level.world(),
        settings,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("the level has floor")
    .expect("not cancelled")
    .sample_walks(WALKS)
}

fn frames_vs_rapier(c: &mut Criterion) {
    let settings = capsule_settings();
    let character = RapierCharacter::new(&settings);
    for (name, level) in levels() {
        let walks = check_walks(&level, &settings);
        let frames: u64 = walks
            .iter()
            .map(|s| u64::from(character.frames_of(s)))
            .sum();
        let peer = RapierLevel::new(&level, level.world());
        eprintln!(
            "{name}: {} triangles, {} walks, {frames} frames",
            level.mesh().triangle_count(),
            walks.len()
        );
        let mut g = c.benchmark_group(format!("character_frames_vs_rapier/{name}"));
        g.throughput(Throughput::Elements(frames));
        g.sample_size(10);
        g.bench_function("ours", |b| {
            b.iter(|| {
                for spec in &walks {
                    let w = walk(level.world(), &settings, spec, WalkTrace::FramesOnly).unwrap();
                    black_box(w.summary.final_position);
                }
            })
        });
        let mut profile = settings.clone();
        profile.character.engine = EngineProfile::Rapier;
        g.bench_function("ours_rapier_profile", |b| {
            b.iter(|| {
                for spec in &walks {
                    let w = walk(level.world(), &profile, spec, WalkTrace::FramesOnly).unwrap();
                    black_box(w.summary.final_position);
                }
            })
        });
        g.bench_function("rapier", |b| {
            b.iter(|| {
                for spec in &walks {
                    black_box(character.walk_end(&peer, spec));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, frames_vs_rapier);
criterion_main!(benches);
