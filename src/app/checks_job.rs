//! The level checks (`crate::analysis::checks::check_level`) on a background
//! thread, like the level loader: milliseconds on the built-in level,
//! seconds on a large one, so the window keeps drawing, shows the progress
//! and can cancel. The job owns an `Arc<Level>`, so a level replaced while
//! it runs stays alive until it ends; its result is then dropped.

use crate::analysis::checks::{CheckReport, check_level};
use crate::collide::SlideSettings;
use crate::level::Level;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What a finished job says: the report, `Ok(None)` when cancelled, or why
/// the checks could not run (no walkable floor, invalid settings).
pub type CheckOutcome = Result<Option<CheckReport>, String>;

/// A check run in progress.
pub struct CheckJob {
    /// The level checked.
    pub level: Arc<Level>,
    /// The settings it checks with.
    pub settings: SlideSettings,
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    rx: Receiver<CheckOutcome>,
}

/// What polling a job found.
pub enum CheckPoll {
    /// Still running, with its progress in `[0, 1]`.
    Running(f32),
    /// Finished.
    Done(CheckOutcome),
}

impl CheckJob {
    /// Starts checking `level` (with the `colliding` object flags) for the
    /// character of `settings`.
    pub fn start(level: Arc<Level>, colliding: Vec<bool>, settings: SlideSettings) -> CheckJob {
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (job_level, job_settings) = (level.clone(), settings.clone());
        let (job_progress, job_cancel) = (progress.clone(), cancel.clone());
        let spawned = std::thread::Builder::new()
            .name("level-checks".into())
            .spawn(move || {
                let world = if colliding.len() == job_level.mesh.objects.len() {
                    job_level.world_with(&colliding)
                } else {
                    job_level.world()
                };
                let report = |f: f32| {
                    job_progress.store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
                };
                let result = check_level(&job_level, world, &job_settings, &report, &job_cancel)
                    .map_err(|e| e.to_string());
                // The window may have gone, or dropped the job: nothing to do then.
                let _ = tx.send(result);
            });
        if let Err(e) = spawned {
            let (tx, new_rx) = channel();
            let _ = tx.send(Err(format!("could not start the checks: {e}")));
            return CheckJob {
                level,
                settings,
                progress,
                cancel,
                rx: new_rx,
            };
        }
        CheckJob {
            level,
            settings,
            progress,
            cancel,
            rx,
        }
    }

    /// Progress so far, or the outcome.
    pub fn poll(&self) -> CheckPoll {
        match self.rx.try_recv() {
            Ok(result) => CheckPoll::Done(result),
            Err(TryRecvError::Empty) => {
                CheckPoll::Running(f32::from_bits(self.progress.load(Ordering::Relaxed)))
            }
            Err(TryRecvError::Disconnected) => {
                CheckPoll::Done(Err("the checks stopped unexpectedly".into()))
            }
        }
    }

    /// Asks the thread to stop at its next feature.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for CheckJob {
    /// A dropped job (cancelled, or its level replaced) stops working.
    fn drop(&mut self) {
        self.cancel();
    }
}
