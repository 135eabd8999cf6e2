//! The file prompts on the editor state: opening the path field, checking
//! and using its path, and the system dialog as an optional way to fill it.
//! The path field always works; the system dialog (rfd) is offered beside
//! it and, when it cannot open, the field stays with the reason shown, so
//! a machine with no desktop portal and no zenity still opens files.

use crate::app::command::Effect;
use crate::app::file_prompt::{
    FilePrompt, PromptPurpose, native_dialog_support, start_text, validate,
};
use crate::app::probes;
use crate::app::state::EditorState;
use std::path::PathBuf;

pub use crate::app::carry::{ask_about_carried_probes, carry};

/// Opens the path field for `purpose`, in the loaded level's folder, with
/// the loaded level's import options; says in the status bar which ways of
/// picking a file work here.
pub fn open(state: &mut EditorState, purpose: PromptPurpose) {
    let settings_need_probe = !matches!(
        purpose,
        PromptPurpose::OpenLevel | PromptPurpose::ImportRecording
    );
    if settings_need_probe && state.selected_probe().is_none() {
        state.info(match purpose {
            PromptPurpose::ExportSettings | PromptPurpose::ExportForEngine(_) => {
                probes::NO_PROBE_TO_EXPORT
            }
            PromptPurpose::WriteReproBundle => crate::app::bundle::NO_PROBE_FOR_BUNDLE,
            _ => probes::NO_PROBE_TO_IMPORT,
        });
        return;
    }
    let mut text = start_text(state.level_path.as_deref());
    match purpose {
        PromptPurpose::ExportSettings => text.push_str("collidoscope_settings.toml"),
        PromptPurpose::ExportForEngine(e) => text.push_str(e.default_file_name()),
        PromptPurpose::WriteReproBundle => text.push_str("repro_bundle"),
        _ => {}
    }
    state.file_prompt = Some(FilePrompt::new(purpose, text, state.import_options));
    let ways = match native_dialog_support() {
        Ok(via) => format!("type a path (Tab completes) or Browse… ({via})"),
        // The full reason shows in the window when Browse… is tried.
        Err(_) => "type a path (Tab completes); no system file dialog here \
                   (no desktop portal or zenity)"
            .into(),
    };
    state.info(format!("{}: {ways}", purpose.title()));
}

/// Uses the typed path if it can be used; else the field stays open with
/// the reason under it.
pub fn accept(state: &mut EditorState) -> Option<Effect> {
    let prompt = state.file_prompt.as_mut()?;
    match validate(&prompt.text, prompt.purpose) {
        Err(why) => {
            prompt.message = Some(why);
            None
        }
        Ok(path) => {
            let prompt = state.file_prompt.take()?;
            use_path(state, prompt, path)
        }
    }
}

fn use_path(state: &mut EditorState, prompt: FilePrompt, path: PathBuf) -> Option<Effect> {
    match prompt.purpose {
        PromptPurpose::OpenLevel => {
            return state.apply(crate::app::command::Command::OpenLevelWith(
                path,
                prompt.options,
            ));
        }
        PromptPurpose::ImportSettings => probes::import_settings(state, &path),
        PromptPurpose::ExportSettings => probes::export_settings(state, &path),
        PromptPurpose::ExportForEngine(e) => probes::export_for_engine(state, e, &path),
        PromptPurpose::ImportRecording => state.import_recording(&path, &prompt.options),
        PromptPurpose::WriteReproBundle => state.write_repro_bundle(&path),
    }
    None
}

/// Browse…: the system dialog for the open field's purpose, starting in the
/// folder typed; refused (with why) where it cannot open.
pub fn browse(state: &mut EditorState) -> Option<Effect> {
    let prompt = state.file_prompt.as_mut()?;
    if let Err(why) = native_dialog_support() {
        prompt.message = Some(format!("The system file dialog is unavailable: {why}"));
        return None;
    }
    let typed = crate::app::file_prompt::expand_home(&prompt.text);
    let folder = if typed.is_dir() {
        typed
    } else {
        typed
            .parent()
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .unwrap_or_else(|| PathBuf::from("."))
    };
    Some(Effect::NativeDialog(prompt.purpose, folder))
}

/// The system dialog's pick fills the field and is used at once (checked
/// like a typed path).
pub fn picked(state: &mut EditorState, path: PathBuf) -> Option<Effect> {
    let prompt = state.file_prompt.as_mut()?;
    prompt.text = path.display().to_string();
    accept(state)
}

/// The system dialog could not open: the field stays, saying why.
pub fn native_failed(state: &mut EditorState, why: &str) {
    let text = format!("The system file dialog could not open ({why}); type the path instead");
    if let Some(prompt) = state.file_prompt.as_mut() {
        prompt.message = Some(text.clone());
    }
    state.info(text);
}
