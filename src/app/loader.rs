//! Loads a level on a background thread so the window keeps drawing (a
//! 331k-triangle level takes seconds to parse and build); the window polls
//! progress and the result each frame.

use crate::level::{ImportOptions, Level};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A load in progress.
pub struct LoadJob {
    path: PathBuf,
    progress: Arc<AtomicU32>,
    rx: Receiver<Result<Level, String>>,
}

/// What polling a job found.
pub enum LoadPoll {
    /// Still running, with its progress in `[0, 1]`.
    Running(f32),
    /// Finished.
    Done(Result<Arc<Level>, String>),
}

impl LoadJob {
    /// Starts loading `path`; `wake` is called on progress so the window repaints.
    pub fn start(
        path: PathBuf,
        options: ImportOptions,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> LoadJob {
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let (tx, rx) = channel();
        let job_path = path.clone();
        let job_progress = progress.clone();
        std::thread::Builder::new()
            .name("level-loader".into())
            .spawn(move || {
                let report = |f: f32| {
                    job_progress.store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
                    wake();
                };
                let result = Level::load_with_progress(&job_path, &options, &report)
                    .map_err(|e| e.to_string());
                // The window may have gone; nothing to do then.
                let _ = tx.send(result);
                wake();
            })
            .expect("spawning the level loader thread");
        LoadJob { path, progress, rx }
    }

    /// The file being loaded.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Progress so far, or the result.
    pub fn poll(&self) -> LoadPoll {
        match self.rx.try_recv() {
            Ok(result) => LoadPoll::Done(result.map(Arc::new)),
            Err(TryRecvError::Empty) => {
                LoadPoll::Running(f32::from_bits(self.progress.load(Ordering::Relaxed)))
            }
            Err(TryRecvError::Disconnected) => LoadPoll::Done(Err(format!(
                "{}: the loader stopped unexpectedly",
                self.path.display()
            ))),
        }
    }

    /// Blocks until the load ends (tests, command line start-up in benchmarks).
    pub fn wait(self) -> Result<Arc<Level>, String> {
        self.rx
            .recv()
            .map_err(|_| format!("{}: the loader stopped unexpectedly", self.path.display()))?
            .map(Arc::new)
    }
}
