//! Native file dialogs (rfd) on their own thread.
//!
//! rfd's blocking dialogs wait for the desktop portal's answer; run on the
//! UI thread, they froze the window for as long as the dialog was open (no
//! repaint, no input), and for good if the portal never answered. Here each
//! dialog runs on a short-lived thread (rfd's xdg-portal backend has no
//! main-thread requirement) that hands back the command to run and asks
//! egui for a repaint, so the window keeps drawing while the user picks.

use crate::app::command::{Command, Effect};
use eframe::egui;
use std::sync::mpsc;

/// A dialog that is open.
pub struct DialogJob {
    answer: mpsc::Receiver<Option<Command>>,
}

/// What [`DialogJob::poll`] found.
pub enum DialogPoll {
    /// The dialog is still open.
    Open,
    /// It closed: the command to run, or `None` when the user cancelled.
    Closed(Option<Command>),
}

impl DialogJob {
    /// Opens the dialog `effect` asks for (one of the dialog effects;
    /// any other effect yields a dialog that closes with nothing).
    pub fn start(ctx: &egui::Context, effect: Effect) -> DialogJob {
        let (tx, answer) = mpsc::channel();
        let ctx = ctx.clone();
        std::thread::spawn(move || {
            let command = run(effect);
            // The window may be gone already: then nobody is listening.
            let _ = tx.send(command);
            ctx.request_repaint();
        });
        DialogJob { answer }
    }

    /// Whether the dialog has closed, and with what.
    pub fn poll(&self) -> DialogPoll {
        match self.answer.try_recv() {
            Ok(command) => DialogPoll::Closed(command),
            Err(mpsc::TryRecvError::Empty) => DialogPoll::Open,
            // The thread died without an answer: treat it as cancelled.
            Err(mpsc::TryRecvError::Disconnected) => DialogPoll::Closed(None),
        }
    }
}

/// Shows the dialog and turns the picked path into a command (blocking).
fn run(effect: Effect) -> Option<Command> {
    match effect {
        Effect::OpenDialog => rfd::FileDialog::new()
            .set_title("Open level")
            .add_filter("OBJ level", &["obj", "gz"])
            .pick_file()
            .map(Command::OpenLevel),
        Effect::ExportSettingsDialog => rfd::FileDialog::new()
            .set_title("Export settings")
            .add_filter("Settings", &["toml", "json"])
            .set_file_name("collidoscope_settings.toml")
            .save_file()
            .map(Command::ExportSettings),
        Effect::ExportForEngineDialog(engine) => rfd::FileDialog::new()
            .set_title(format!("Export settings for {}", engine.title()))
            .add_filter(engine.name(), &[engine.extension()])
            .set_file_name(engine.default_file_name())
            .save_file()
            .map(|path| Command::ExportForEngine(engine, path)),
        Effect::ImportSettingsDialog => rfd::FileDialog::new()
            .set_title("Import settings")
            .add_filter("Settings", &["toml", "json"])
            .pick_file()
            .map(Command::ImportSettings),
        Effect::Load(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ImportOptions;
    use std::time::{Duration, Instant};

    /// The thread hands its answer back and wakes the window; a job whose
    /// effect shows no dialog closes with nothing to run.
    #[test]
    fn a_closed_dialog_is_reported_once_with_its_command() {
        let ctx = egui::Context::default();
        let job = DialogJob::start(&ctx, Effect::Load("x.obj".into(), ImportOptions::default()));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match job.poll() {
                DialogPoll::Closed(command) => {
                    assert!(command.is_none());
                    break;
                }
                DialogPoll::Open => {
                    assert!(
                        Instant::now() < deadline,
                        "the dialog thread never answered"
                    );
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        }
        // The sender is gone now: later polls say closed, never open again.
        assert!(matches!(job.poll(), DialogPoll::Closed(None)));
    }
}
