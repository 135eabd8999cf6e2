//! Work on the open level on a background thread (the level checks, the
//! stuck-spot map, a replay): seconds to minutes on a large level, so the
//! window keeps drawing, shows the progress and can cancel.
//!
//! A [`LevelJob`] owns an `Arc<Level>`: a level replaced while the job runs
//! stays alive until it ends, and [`LevelJob::finish`] then drops the
//! result as stale. The work reports progress in `[0, 1]` and stops at its
//! next unit of work once the cancel flag is set; dropping a job sets it.

use crate::collide::CollisionWorld;
use crate::level::Level;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What finished work says: its result, `Ok(None)` when cancelled, or why
/// it could not be done.
pub type JobOutcome<T> = Result<Option<T>, String>;

/// A job on the level, with the context it was started with (the settings
/// or options the result is shown with).
pub struct LevelJob<T, C> {
    /// The level worked on.
    pub level: Arc<Level>,
    /// What the job was started with.
    pub context: C,
    what: &'static str,
    progress: Arc<AtomicU32>,
    cancel: CancelOnDrop,
    rx: Receiver<JobOutcome<T>>,
}

/// The job's cancel flag, set when the job is dropped (cancelled, or its
/// level replaced) so the work stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What [`LevelJob::finish`] found.
pub enum JobStep<T, C> {
    /// No job.
    Idle,
    /// Still running; the progress was updated.
    Running,
    /// Finished, but for a level that has since been replaced: dropped.
    Stale,
    /// Finished for the open level, with the job's context.
    Done(C, JobOutcome<T>),
}

impl<T: Send + 'static, C> LevelJob<T, C> {
    /// Starts `work` on a thread named `thread`, on `level` with only the
    /// objects flagged in `colliding` solid (all of them when the flags do
    /// not match the level). `what` names the work in messages ("the map").
    pub fn start<W>(
        thread: &str,
        what: &'static str,
        level: Arc<Level>,
        colliding: Vec<bool>,
        context: C,
        work: W,
    ) -> Self
    where
        W: FnOnce(&Level, CollisionWorld<'_>, &(dyn Fn(f32) + Sync), &AtomicBool) -> JobOutcome<T>
            + Send
            + 'static,
    {
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        let (job_level, job_progress, job_cancel) =
            (level.clone(), progress.clone(), cancel.clone());
        let spawned = std::thread::Builder::new()
            .name(thread.into())
            .spawn(move || {
                let world = if colliding.len() == job_level.mesh.objects.len() {
                    job_level.world_with(&colliding)
                } else {
                    job_level.world()
                };
                let report = |f: f32| {
                    job_progress.store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
                };
                let outcome = work(&job_level, world, &report, &job_cancel);
                // The window may have gone, or dropped the job: nothing to do then.
                let _ = tx.send(outcome);
            });
        let rx = match spawned {
            Ok(_) => rx,
            Err(e) => {
                let (tx, failed) = channel();
                let _ = tx.send(Err(format!("could not start {what}: {e}")));
                failed
            }
        };
        LevelJob {
            level,
            context,
            what,
            progress,
            cancel: CancelOnDrop(cancel),
            rx,
        }
    }

    /// The progress so far, in `[0, 1]`.
    pub fn progress(&self) -> f32 {
        f32::from_bits(self.progress.load(Ordering::Relaxed))
    }

    /// Asks the work to stop at its next unit.
    pub fn cancel(&self) {
        self.cancel.0.store(true, Ordering::Relaxed);
    }

    /// Polls the job in `slot` (called every window frame): while it runs,
    /// its progress goes to `progress`; once it ends, the slot is emptied
    /// and the outcome returned if `current` is still the level it ran on.
    pub fn finish(
        slot: &mut Option<Self>,
        progress: &mut f32,
        current: Option<&Arc<Level>>,
    ) -> JobStep<T, C> {
        let Some(job) = slot.as_ref() else {
            return JobStep::Idle;
        };
        let outcome = match job.rx.try_recv() {
            Ok(outcome) => outcome,
            Err(TryRecvError::Empty) => {
                *progress = job.progress();
                return JobStep::Running;
            }
            Err(TryRecvError::Disconnected) => Err(format!("{} stopped unexpectedly", job.what)),
        };
        let Some(job) = slot.take() else {
            return JobStep::Idle;
        };
        if !current.is_some_and(|l| Arc::ptr_eq(l, &job.level)) {
            return JobStep::Stale;
        }
        let LevelJob { context, .. } = job;
        JobStep::Done(context, outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::MeshBuilder;
    use glam::Vec3;
    use std::time::{Duration, Instant};

    fn level() -> Arc<Level> {
        let mut b = MeshBuilder::new();
        b.quad(
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, -1.0),
        );
        Arc::new(Level::from_mesh("floor", b.build()))
    }

    /// Polls until the job is no longer running (or 10 s pass).
    fn wait<T: Send + 'static, C>(
        slot: &mut Option<LevelJob<T, C>>,
        current: Option<&Arc<Level>>,
    ) -> JobStep<T, C> {
        let start = Instant::now();
        let mut progress = 0.0;
        loop {
            match LevelJob::finish(slot, &mut progress, current) {
                JobStep::Running if start.elapsed() < Duration::from_secs(10) => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                step => return step,
            }
        }
    }

    #[test]
    fn a_finished_job_gives_its_result_and_context_for_the_open_level() {
        let level = level();
        let mut slot = Some(LevelJob::start(
            "t",
            "the test",
            level.clone(),
            vec![],
            "ctx",
            |l: &Level,
             world: CollisionWorld<'_>,
             report: &(dyn Fn(f32) + Sync),
             _: &AtomicBool| {
                report(0.5);
                Ok(Some((l.mesh.triangle_count(), world.mesh.triangle_count())))
            },
        ));
        match wait(&mut slot, Some(&level)) {
            JobStep::Done(ctx, Ok(Some((a, b)))) => assert_eq!((ctx, a, b), ("ctx", 2, 2)),
            _ => panic!("the job should end with its result"),
        }
        assert!(slot.is_none());
        assert!(matches!(
            LevelJob::<(), ()>::finish(&mut None, &mut 0.0, None),
            JobStep::Idle
        ));
    }

    #[test]
    fn a_result_for_a_replaced_level_is_stale_and_a_dropped_job_is_cancelled() {
        let (old, new) = (level(), level());
        let mut slot = Some(LevelJob::start(
            "t",
            "the test",
            old,
            vec![],
            (),
            |_: &Level, _: CollisionWorld<'_>, _: &(dyn Fn(f32) + Sync), _: &AtomicBool| {
                Ok(Some(1))
            },
        ));
        assert!(matches!(wait(&mut slot, Some(&new)), JobStep::Stale));

        let seen = Arc::new(AtomicBool::new(false));
        let seen_in_job = seen.clone();
        let job = LevelJob::<(), ()>::start(
            "t",
            "the test",
            level(),
            vec![],
            (),
            move |_: &Level,
                  _: CollisionWorld<'_>,
                  _: &(dyn Fn(f32) + Sync),
                  cancel: &AtomicBool| {
                let start = Instant::now();
                while !cancel.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                seen_in_job.store(cancel.load(Ordering::Relaxed), Ordering::Relaxed);
                Ok(None)
            },
        );
        drop(job);
        let start = Instant::now();
        while !seen.load(Ordering::Relaxed) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(seen.load(Ordering::Relaxed), "the work saw the cancel flag");
    }
}
