//! Mesh hygiene on every real level in `../shared/levels/`: the analysis
//! finishes, its counts are plausible for what each level is, and a table
//! (counts per kind, time) is printed. Skips with a message when
//! `../shared` is absent. Speed is measured by `benches/hygiene.rs`.

use collidoscope::analysis::hygiene::{HygieneKind, HygieneOptions, HygieneReport, analyse};
use collidoscope::level::{ImportOptions, Level};
use std::path::PathBuf;
use std::time::Instant;

fn levels_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("SKIPPED: {} is absent", dir.display());
        None
    }
}

/// The level's report, with a table row printed.
fn analyse_level(dir: &std::path::Path, file: &str, scale: f64) -> HygieneReport {
    let options = ImportOptions {
        scale,
        ..ImportOptions::default()
    };
    let level = Level::load(&dir.join(file), &options).expect("the level imports");
    let start = Instant::now();
    let report = analyse(level.mesh(), &HygieneOptions::default());
    let counts: Vec<String> = HygieneKind::ALL
        .iter()
        .map(|&k| format!("{} {}", k.name(), report.count(k)))
        .collect();
    println!(
        "{file}: {} triangles, {} welded vertices, {} faults in {:.1} ms: {}",
        level.mesh().triangle_count(),
        report.welded_vertices,
        report.faults,
        start.elapsed().as_secs_f64() * 1e3,
        counts.join(", ")
    );
    for kind in &report.kinds {
        assert_eq!(kind.truncated, kind.count > kind.items.len());
        assert!(kind.items.len() <= HygieneOptions::default().max_items_per_kind);
        for item in &kind.items {
            assert_eq!(item.kind, kind.kind);
            assert!(
                item.position.is_finite() && item.size.is_finite(),
                "{item:?}"
            );
            assert!(!item.triangles.is_empty());
            let n = level.mesh().triangle_count() as u32;
            assert!(item.triangles.iter().all(|&t| t < n), "{item:?}");
        }
    }
    report
}

#[test]
fn every_shared_level_is_analysed_with_plausible_counts() {
    let Some(dir) = levels_dir() else { return };
    // A render mesh: open edges where parts meet without sharing vertices.
    let sibenik = analyse_level(&dir, "sibenik_dabrovic_75k.obj.gz", 1.0);
    assert!(sibenik.count(HygieneKind::OpenEdge) > 100);
    assert!(sibenik.count(HygieneKind::CoplanarEdge) > 1000);
    let conference = analyse_level(&dir, "conference_ward_331k.obj.gz", 0.003);
    assert!(conference.count(HygieneKind::OpenEdge) > 0);
    // Three stacked closed blocks: no open, non-manifold or wound-wrong edge.
    let parry = analyse_level(&dir, "parry_stairs.obj", 1.0);
    for kind in [
        HygieneKind::OpenEdge,
        HygieneKind::NonManifoldEdge,
        HygieneKind::InconsistentWinding,
    ] {
        assert_eq!(
            parry.count(kind),
            0,
            "{kind:?}: {:?}",
            parry.kind(kind).items
        );
    }
    for file in [
        "galleria_map.obj",
        "galleria_collision.obj",
        "galleria_stairs.obj",
        "threejs_collision_world.obj",
        "machu_picchu_level.obj",
    ] {
        let report = analyse_level(&dir, file, 1.0);
        assert!(report.welded_vertices > 0);
    }
}
