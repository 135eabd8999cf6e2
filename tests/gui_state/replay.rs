//! File → Import recording…: the example recordings replayed on the
//! built-in level through the path field, the result's overlays, the first
//! divergent frame opened in the stepper, and refusals that say why.

use collidoscope::app::command::Command;
use collidoscope::app::file_prompt::PromptPurpose;
use collidoscope::app::replay::replay_primitives;
use collidoscope::app::state::{EditorState, Severity};
use collidoscope::collide::debug_draw::OverlayKind;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn on_builtin_level() -> EditorState {
    let mut s = EditorState::default();
    let level = collidoscope::app::builtin_level().expect("the built-in level loads");
    s.apply(Command::LevelLoaded(Arc::new(level)));
    s
}

/// Imports `path` through the path field and waits for the replay.
fn import(s: &mut EditorState, path: &str) {
    s.apply(Command::ImportRecordingDialog);
    let prompt = s.file_prompt.as_mut().expect("the path field is open");
    assert_eq!(prompt.purpose, PromptPurpose::ImportRecording);
    prompt.text = path.to_string();
    assert_eq!(s.apply(Command::AcceptFilePrompt), None);
    assert!(s.file_prompt.is_none(), "the field closed");
    let start = Instant::now();
    while s.poll_replay() {
        assert!(start.elapsed() < Duration::from_secs(60), "the replay ends");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_diverged_recording_opens_its_first_divergent_frame_in_the_stepper() {
    let mut s = on_builtin_level();
    import(&mut s, &example("replay_stairs_diverged.csv"));
    let view = s.replay.view.clone().expect("a result");
    let r = &view.replay;
    assert_eq!(r.summary.first_divergent_frame, Some(59));
    let status = s.status.clone().unwrap();
    assert!(
        status.text.contains("the first is frame 59"),
        "{}",
        status.text
    );
    // The overlays: a recorded segment per frame, a re-run segment per
    // frame, the divergent frame's marker; all of the replay's kind.
    let prims = replay_primitives(r);
    assert_eq!(prims.len(), 2 * r.frames.len() + 1);
    assert!(prims.iter().all(|p| p.kind == OverlayKind::ReplayPaths));
    s.apply(Command::OpenReplayFrame(59));
    let sel = s.selected.expect("a probe holds the frame");
    let stepper = &s.probes[sel].stepper;
    let frame = stepper.frame().expect("a character frame is stepped");
    assert_eq!(frame.index, 59);
    assert_eq!(frame.state, r.frames[59].start);
    let rec = stepper.frame_record().expect("the frame ran to its end");
    assert!((rec.after.position - r.frames[59].rerun_end).length() < 1e-12);
    assert_eq!(s.replay.view.as_ref().unwrap().opened, Some(59));
    // A new level drops the replay.
    let level = s.level.clone().unwrap();
    s.apply(Command::LevelLoaded(level));
    assert!(!s.replay.is_open());
}

#[test]
fn the_recorded_walk_reproduces_and_closing_drops_it() {
    let mut s = on_builtin_level();
    import(&mut s, &example("replay_stairs.csv"));
    let view = s.replay.view.clone().expect("a result");
    assert!(view.replay.summary.reproduced());
    assert_eq!(view.replay.frames.len(), 180);
    s.apply(Command::CloseReplay);
    assert!(!s.replay.is_open());
}

#[test]
fn a_bad_recording_says_which_line_and_a_running_one_cancels() {
    let mut s = on_builtin_level();
    let dir = std::env::temp_dir().join(format!("collidoscope_replay_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "t,x,y,z,ix\n0,0,1,0,1\n0.1,0,zz,0,1\n").unwrap();
    import(&mut s, bad.to_str().unwrap());
    let status = s.status.clone().unwrap();
    assert_eq!(status.severity, Severity::Error);
    assert!(status.text.contains("bad.csv: line 3"), "{}", status.text);
    assert!(s.replay.error.as_ref().unwrap().contains("'zz'"));
    // The path field refuses other kinds of file.
    s.apply(Command::ImportRecordingDialog);
    s.file_prompt.as_mut().unwrap().text = example("generate_moves.py");
    s.apply(Command::AcceptFilePrompt);
    let msg = s.file_prompt.as_ref().unwrap().message.clone().unwrap();
    assert!(msg.contains(".csv or .jsonl"), "{msg}");
    s.apply(Command::SetFilePrompt(None));
    // Cancel while it runs: no result is kept.
    s.apply(Command::ImportRecordingDialog);
    s.file_prompt.as_mut().unwrap().text = example("replay_stairs.csv");
    s.apply(Command::AcceptFilePrompt);
    assert!(s.replay.job.is_some());
    s.apply(Command::CancelReplay);
    assert!(s.replay.job.is_none() && s.replay.view.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_level_there_is_nothing_to_replay_on() {
    let mut s = EditorState::default();
    s.apply(Command::ImportRecordingDialog);
    s.file_prompt.as_mut().unwrap().text = example("replay_stairs.csv");
    s.apply(Command::AcceptFilePrompt);
    assert!(s.replay.job.is_none());
    assert!(s.status.clone().unwrap().text.contains("Open a level"));
}
