//! Native file dialogs (rfd) on their own thread.
//!
//! rfd's blocking dialogs wait for the desktop portal's answer; run on the
//! UI thread, they froze the window for as long as the dialog was open (no
//! repaint, no input), and for good if the portal never answered. Here each
//! dialog runs on a short-lived thread (rfd's xdg-portal backend has no
//! main-thread requirement) that hands back the command to run and asks
//! egui for a repaint, so the window keeps drawing while the user picks.
//! The dialog only fills the in-app path field (`file_window`), which works
//! where no system dialog can open.

use crate::app::file_prompt::PromptPurpose;
use eframe::egui;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A dialog that closes with nothing sooner than this never showed: rfd's
/// portal backend returns `None` at once when no portal answers (and no
/// zenity is there to fall back on). Nobody picks and cancels that fast.
pub const FAILED_WITHIN: Duration = Duration::from_millis(400);

/// A dialog that is open.
pub struct DialogJob {
    answer: mpsc::Receiver<Option<PathBuf>>,
    opened: Instant,
}

/// What [`DialogJob::poll`] found.
pub enum DialogPoll {
    /// The dialog is still open.
    Open,
    /// It closed: the path picked, or `None` when cancelled (or when it
    /// never opened), and how long it was open.
    Closed(Option<PathBuf>, Duration),
}

impl DialogJob {
    /// Opens the system dialog for `purpose`, starting in `folder`.
    pub fn start(ctx: &egui::Context, purpose: PromptPurpose, folder: PathBuf) -> DialogJob {
        let (tx, answer) = mpsc::channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let path = run(purpose, folder);
            // The window may be gone already: then nobody is listening.
            let _ = tx.send(path);
            ctx.request_repaint();
        });
        DialogJob {
            answer,
            opened: Instant::now(),
        }
    }

    /// Whether the dialog has closed, and with what.
    pub fn poll(&self) -> DialogPoll {
        match self.answer.try_recv() {
            Ok(path) => DialogPoll::Closed(path, self.opened.elapsed()),
            Err(mpsc::TryRecvError::Empty) => DialogPoll::Open,
            // The thread died without an answer: treat it as cancelled.
            Err(mpsc::TryRecvError::Disconnected) => {
                DialogPoll::Closed(None, self.opened.elapsed())
            }
        }
    }
}

/// Shows the dialog and returns the picked path (blocking).
fn run(purpose: PromptPurpose, folder: PathBuf) -> Option<PathBuf> {
    let dialog = rfd::FileDialog::new()
        .set_title(purpose.title())
        .set_directory(folder);
    match purpose {
        PromptPurpose::OpenLevel => dialog.add_filter("OBJ level", &["obj", "gz"]).pick_file(),
        PromptPurpose::ExportSettings => dialog
            .add_filter("Settings", &["toml", "json"])
            .set_file_name("collidoscope_settings.toml")
            .save_file(),
        PromptPurpose::ImportSettings => {
            dialog.add_filter("Settings", &["toml", "json"]).pick_file()
        }
        PromptPurpose::ImportRecording => dialog
            .add_filter("Recording", &["csv", "jsonl", "json"])
            .pick_file(),
        PromptPurpose::ExportForEngine(engine) => dialog
            .add_filter(engine.name(), &[engine.extension()])
            .set_file_name(engine.default_file_name())
            .save_file(),
        PromptPurpose::WriteReproBundle => dialog.pick_folder(),
    }
}
