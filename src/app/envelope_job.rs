//! The selected probe's envelope (what its character can do), measured on a
//! background thread so the window keeps drawing: a measure takes tens to
//! hundreds of milliseconds (seconds in a debug build).
//!
//! [`EnvelopeTracker::poll`] is called every window frame with the probe's
//! settings. A change waits [`DEBOUNCE`] of quiet (dragging a value does
//! not start a measure per pixel), one measure runs at a time, and a result
//! whose settings are no longer the probe's is discarded and measured
//! again. Only the settings that change a walk count: the per-move gravity
//! of a raw move does not.

use crate::analysis::envelope::{Envelope, envelope};
use crate::collide::SlideSettings;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// Quiet time after the last settings change before a measure starts.
pub const DEBOUNCE: Duration = Duration::from_millis(300);

/// What [`EnvelopeTracker::poll`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvelopeStatus {
    /// No probe selected.
    Idle,
    /// Waiting for the settings to hold still, or measuring.
    Measuring,
    /// The result for the probe's settings is ready.
    Ready,
}

struct Job {
    settings: SlideSettings,
    rx: Receiver<Result<Envelope, String>>,
}

/// The envelope of the selected probe's settings, kept up to date.
#[derive(Default)]
pub struct EnvelopeTracker {
    /// The settings wanted, and when they last changed.
    wanted: Option<(SlideSettings, Instant)>,
    job: Option<Job>,
    result: Option<(SlideSettings, Result<Envelope, String>)>,
}

/// The settings an envelope depends on (a raw move's gravity does not count).
fn key(settings: &SlideSettings) -> SlideSettings {
    SlideSettings {
        gravity: [0.0; 3],
        ..settings.clone()
    }
}

impl EnvelopeTracker {
    /// Follows `settings` (the selected probe's, or `None`); starts a
    /// measure when they have held still for [`DEBOUNCE`] and none runs;
    /// `wake` is called when a measure ends so the window repaints.
    pub fn poll(
        &mut self,
        settings: Option<&SlideSettings>,
        wake: impl Fn() + Send + 'static,
    ) -> EnvelopeStatus {
        self.receive();
        let Some(settings) = settings.map(key) else {
            self.wanted = None;
            return EnvelopeStatus::Idle;
        };
        if self.wanted.as_ref().is_none_or(|(s, _)| *s != settings) {
            self.wanted = Some((settings.clone(), Instant::now()));
        }
        if self.result.as_ref().is_some_and(|(s, _)| *s == settings) {
            return EnvelopeStatus::Ready;
        }
        let quiet = self
            .wanted
            .as_ref()
            .is_some_and(|(_, t)| t.elapsed() >= DEBOUNCE);
        if self.job.is_none() && quiet {
            self.start(settings, wake);
        }
        EnvelopeStatus::Measuring
    }

    /// The last measure for the settings now wanted (the result, or why
    /// the settings could not be measured).
    pub fn current(&self) -> Option<&Result<Envelope, String>> {
        let (wanted, _) = self.wanted.as_ref()?;
        self.result
            .as_ref()
            .filter(|(s, _)| s == wanted)
            .map(|(_, r)| r)
    }

    /// How long until a pending change is due to be measured (to schedule
    /// a repaint), or `None` when nothing waits.
    pub fn due_in(&self) -> Option<Duration> {
        let (wanted, t) = self.wanted.as_ref()?;
        if self.result.as_ref().is_some_and(|(s, _)| s == wanted) || self.job.is_some() {
            return None;
        }
        Some(DEBOUNCE.saturating_sub(t.elapsed()))
    }

    fn start(&mut self, settings: SlideSettings, wake: impl Fn() + Send + 'static) {
        let (tx, rx) = channel();
        let job_settings = settings.clone();
        let spawned = std::thread::Builder::new()
            .name("envelope".into())
            .spawn(move || {
                let result = envelope(&job_settings).map_err(|e| e.to_string());
                // The window may have gone; nothing to do then.
                let _ = tx.send(result);
                wake();
            });
        match spawned {
            Ok(_) => self.job = Some(Job { settings, rx }),
            Err(e) => self.result = Some((settings, Err(format!("could not start: {e}")))),
        }
    }

    /// Takes a finished measure; a stale one is dropped.
    fn receive(&mut self) {
        let Some(job) = &self.job else {
            return;
        };
        let result = match job.rx.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the measure stopped unexpectedly".into()),
        };
        let Some(job) = self.job.take() else {
            return;
        };
        let fresh = self
            .wanted
            .as_ref()
            .is_some_and(|(s, _)| *s == job.settings);
        if fresh {
            self.result = Some((job.settings, result));
        }
    }
}
