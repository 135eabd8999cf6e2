//! The stuck-spot map (`crate::analysis::map::map_level`) on a background
//! thread: seconds on the built-in level, minutes on a large one, so the
//! window keeps drawing, shows the progress and can cancel. The core walks
//! the start points on all cores (rayon) and stops between walks once
//! cancelled. The job owns an `Arc<Level>`: a level replaced while it runs
//! stays alive until the run ends, and its result is then dropped.

use crate::analysis::map::{MapOptions, MapReport, map_level};
use crate::collide::SlideSettings;
use crate::level::Level;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What a finished job says: the report, `Ok(None)` when cancelled, or why
/// the map could not be made (invalid options, an empty level).
pub type MapOutcome = Result<Option<MapReport>, String>;

/// A map run in progress.
pub struct MapJob {
    /// The level mapped.
    pub level: Arc<Level>,
    /// The options it maps with.
    pub options: MapOptions,
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    rx: Receiver<MapOutcome>,
}

/// What polling a job found.
pub enum MapPoll {
    /// Still running, with its progress in `[0, 1]`.
    Running(f32),
    /// Finished (boxed: a report is large next to a progress fraction).
    Done(Box<MapOutcome>),
}

impl MapJob {
    /// Starts mapping `level` (with the `colliding` object flags) for the
    /// character of `settings`.
    pub fn start(
        level: Arc<Level>,
        colliding: Vec<bool>,
        settings: SlideSettings,
        options: MapOptions,
    ) -> MapJob {
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let job_level = level.clone();
        let (job_progress, job_cancel) = (progress.clone(), cancel.clone());
        let spawned = std::thread::Builder::new()
            .name("stuck-spot-map".into())
            .spawn(move || {
                let world = if colliding.len() == job_level.mesh.objects.len() {
                    job_level.world_with(&colliding)
                } else {
                    job_level.world()
                };
                let report = |f: f32| {
                    job_progress.store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
                };
                let result = map_level(
                    &job_level.name,
                    world,
                    &settings,
                    &options,
                    &report,
                    &job_cancel,
                )
                .map_err(|e| e.to_string());
                // The window may have gone, or dropped the job: nothing to do then.
                let _ = tx.send(result);
            });
        let rx = match spawned {
            Ok(_) => rx,
            Err(e) => {
                let (tx, failed) = channel();
                let _ = tx.send(Err(format!("could not start the map: {e}")));
                failed
            }
        };
        MapJob {
            level,
            options,
            progress,
            cancel,
            rx,
        }
    }

    /// Progress so far, or the outcome.
    pub fn poll(&self) -> MapPoll {
        match self.rx.try_recv() {
            Ok(result) => MapPoll::Done(Box::new(result)),
            Err(TryRecvError::Empty) => {
                MapPoll::Running(f32::from_bits(self.progress.load(Ordering::Relaxed)))
            }
            Err(TryRecvError::Disconnected) => {
                MapPoll::Done(Box::new(Err("the map stopped unexpectedly".into())))
            }
        }
    }

    /// Asks the walks to stop (each running walk finishes first).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for MapJob {
    /// A dropped job (cancelled, or its level replaced) stops working.
    fn drop(&mut self) {
        self.cancel();
    }
}
