//! The agreement of Jolt's walks with Collidoscope's: each finding of a
//! `check` rejudged with Jolt's walks of the same specs, and the verdicts
//! compared finding by finding
//! (`collidoscope::analysis::checks::agreement`, as the Rapier peer in
//! `tests/library/rapier_peer.rs` does). Jolt's systems are not shared
//! between threads: each worker walks on its own.

use crate::{JoltCharacter, JoltLevel, JoltMesh};
use collidoscope::analysis::checks::agreement::{PeerRow, rows_from_walks, walk_specs};
use collidoscope::analysis::checks::{CheckReport, check_level};
use collidoscope::character::{EngineProfile, body_shape};
use collidoscope::collide::{CollisionWorld, SlideSettings};
use collidoscope::level::Level;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// `settings` with its ellipsoid as the capsule the Jolt export writes
/// (the `jolt` profile's body: radius the larger horizontal radius, total
/// height twice the vertical).
pub fn capsule_settings(mut settings: SlideSettings) -> SlideSettings {
    let mut profile = settings.clone();
    profile.character.engine = EngineProfile::Jolt;
    settings.shape = body_shape(&profile);
    settings
}

/// `settings` under the `jolt` engine profile (`[character] engine =
/// "jolt"`), with the same capsule.
pub fn jolt_profile(settings: SlideSettings) -> SlideSettings {
    let mut settings = capsule_settings(settings);
    settings.character.engine = EngineProfile::Jolt;
    settings
}

/// `check` on `level` with `settings`.
pub fn check(level: &Level, world: CollisionWorld<'_>, settings: &SlideSettings) -> CheckReport {
    check_level(level, world, settings, &|_| {}, &AtomicBool::new(false))
        .expect("a floor to check")
        .expect("not cancelled")
}

/// Jolt physics systems of one level, one per worker thread, made once
/// and reused for every walk (a mesh of 300 000 triangles takes seconds
/// to build).
pub struct JoltPool {
    levels: Vec<Mutex<JoltLevel>>,
}

impl JoltPool {
    /// One system per rayon thread, each holding `mesh`.
    pub fn new(mesh: &JoltMesh) -> Self {
        let n = rayon::current_num_threads().max(1);
        JoltPool {
            levels: (0..n).map(|_| Mutex::new(JoltLevel::new(mesh))).collect(),
        }
    }

    /// Runs `job(level, item)` for each item on the pool's systems, in
    /// parallel; the results in `items`' order.
    pub fn map<T: Sync, R: Send>(
        &self,
        items: &[T],
        job: impl Fn(&mut JoltLevel, &T) -> R + Sync,
    ) -> Vec<R> {
        let next = AtomicUsize::new(0);
        let out: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for level in &self.levels {
                let (next, out, job) = (&next, &out, &job);
                scope.spawn(move || {
                    let mut level = level.lock().expect("a level");
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        let r = job(&mut level, item);
                        *out[i].lock().expect("a slot") = Some(r);
                    }
                });
            }
        });
        out.into_iter()
            .map(|m| m.into_inner().expect("a slot").expect("every item ran"))
            .collect()
    }
}

/// The findings of `report` rejudged with the walks of Jolt's `character`.
pub fn jolt_rows(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
    pool: &JoltPool,
    character: &JoltCharacter,
) -> Vec<PeerRow> {
    let walks = pool.map(&walk_specs(report), |level, specs| {
        specs
            .iter()
            .map(|spec| spec.map(|spec| level.walk(world, character, spec)))
            .collect()
    });
    rows_from_walks(world, settings, report, walks)
}
/// The folder of the public levels (`../shared/levels` beside the
/// repository), if present.
pub fn shared_levels() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    dir.is_dir().then_some(dir)
}
