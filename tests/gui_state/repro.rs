//! Repro bundles in the window: the selected probe's move written from the
//! path field, the bundle opened back (File → Open repro bundle…, the Open
//! level field, or a path given to the app) as a level with its move ready
//! to step, giving what the CLI's `repro --run` gives.

use super::{place, state_with_room};
use collidoscope::app::command::Command;
use collidoscope::app::file_prompt::{FilePrompt, PromptPurpose, validate};
use collidoscope::app::state::Severity;
use collidoscope::level::ImportOptions;
use collidoscope::repro;
use glam::DVec3;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("collidoscope_bundle_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_bundle_written_from_the_window_opens_back_with_the_same_outcome_as_the_cli() {
    let mut s = state_with_room();
    // Into the wall at x = 3, sliding along it.
    let i = place(&mut s, 1.0, -1.0, DVec3::new(3.0, 0.0, 1.0));
    s.apply(Command::RunToEnd);
    let on_level = s.probes[i].stepper.records().last().unwrap().end;
    let dir = scratch("roundtrip");
    // File → Write repro bundle…: the path field, typed, accepted.
    s.apply(Command::WriteReproBundleDialog);
    let prompt = s.file_prompt.clone().expect("the path field opens");
    assert_eq!(prompt.purpose, PromptPurpose::WriteReproBundle);
    s.apply(Command::SetFilePrompt(Some(FilePrompt::new(
        PromptPurpose::WriteReproBundle,
        dir.display().to_string(),
        ImportOptions::default(),
    ))));
    s.apply(Command::AcceptFilePrompt);
    assert!(s.file_prompt.is_none(), "{:?}", s.file_prompt);
    let status = s.status.clone().unwrap();
    assert_eq!(status.severity, Severity::Info, "{}", status.text);
    for f in [repro::LEVEL_FILE, repro::SETTINGS_FILE, repro::MOVE_FILE] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    // The folder now holds files: writing again there is refused up front.
    let again = validate(&dir.display().to_string(), PromptPurpose::WriteReproBundle);
    assert!(again.unwrap_err().contains("holds files"));
    // The CLI replays it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["repro", "--run"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let bundle = repro::load(&dir).unwrap();
    let (cli_outcome, diffs) = repro::replay(&bundle).unwrap();
    assert!(diffs.is_empty(), "{diffs:?}");
    assert!((cli_outcome.final_position - on_level).length() < 1e-9);
    // The Open level field takes the bundle's folder; a plain folder is refused.
    let text = dir.display().to_string();
    assert_eq!(validate(&text, PromptPurpose::OpenLevel).unwrap(), dir);
    let plain = validate(
        &std::env::temp_dir().display().to_string(),
        PromptPurpose::OpenLevel,
    );
    assert!(plain.unwrap_err().contains("is a folder"));
    s.apply(Command::OpenReproBundleDialog);
    let prompt = s.file_prompt.clone().expect("the Open level field");
    assert_eq!(prompt.purpose, PromptPurpose::OpenLevel);
    s.apply(Command::SetFilePrompt(Some(FilePrompt::new(
        PromptPurpose::OpenLevel,
        text,
        ImportOptions::default(),
    ))));
    let effect = s.apply(Command::AcceptFilePrompt);
    assert!(effect.is_none(), "a bundle opens at once: {effect:?}");
    let status = s.status.clone().unwrap();
    assert!(status.text.contains("reproduces"), "{}", status.text);
    // Its triangles are the level, its move the one probe, ready to step.
    let level = s.level.clone().unwrap();
    assert_eq!(level.name, repro::LEVEL_FILE);
    assert_eq!(s.probes.len(), 1);
    assert_eq!(s.selected, Some(0));
    let p = &s.probes[0];
    assert_eq!(p.position, bundle.repro.from);
    assert_eq!(p.velocity, bundle.repro.velocity);
    assert_eq!(p.settings, bundle.settings);
    assert!(p.stepper.records().is_empty(), "at its start, to step");
    s.apply(Command::RunToEnd);
    let end = s.probes[0].stepper.records().last().unwrap().end;
    assert!(
        (end - cli_outcome.final_position).length() < 1e-9,
        "{end:?}"
    );
    // A path given to the app opens it the same way.
    let mut t = state_with_room();
    assert!(t.apply(Command::OpenLevel(dir.clone())).is_none());
    assert_eq!(t.probes.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bundle_needs_a_probe_and_a_broken_bundle_says_why() {
    let mut s = state_with_room();
    s.apply(Command::WriteReproBundleDialog);
    assert!(s.file_prompt.is_none(), "no probe: nothing to write");
    assert!(s.status.clone().unwrap().text.contains("Select a probe"));
    let dir = scratch("broken");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(repro::MOVE_FILE), "{ not json").unwrap();
    let before = s.level.clone().unwrap();
    s.apply(Command::OpenLevel(dir.clone()));
    let status = s.status.clone().unwrap();
    assert_eq!(status.severity, Severity::Error);
    assert!(status.text.contains("move.json"), "{}", status.text);
    assert!(
        std::sync::Arc::ptr_eq(&before, s.level.as_ref().unwrap()),
        "the level shown stays"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
