//! File → Export for engine: the selected probe's tuned settings written
//! in an engine's terms, and the dialog asked for only with a probe.

use super::{place, state_with_room};
use collidoscope::app::command::Command;
use collidoscope::app::file_prompt::PromptPurpose;
use collidoscope::app::probes::params_of;
use collidoscope::app::state::{EditorState, Severity};
use collidoscope::export::engines::Engine;
use glam::DVec3;

#[test]
fn the_selected_probes_tuned_settings_are_written_for_each_engine() {
    let dir = std::env::temp_dir().join(format!("collidoscope_gui_engines_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::X);
    let mut p = params_of(&s.probes[i]);
    p.settings.character.max_step_height_m = 0.37;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    for engine in Engine::ALL {
        // The path field opens with the engine's file name; Save writes it.
        assert_eq!(s.apply(Command::ExportForEngineDialog(engine)), None);
        let prompt = s.file_prompt.as_mut().expect("the path field is open");
        assert_eq!(prompt.purpose, PromptPurpose::ExportForEngine(engine));
        assert!(prompt.text.ends_with(engine.default_file_name()));
        let path = dir.join(engine.default_file_name());
        prompt.text = path.display().to_string();
        assert_eq!(s.apply(Command::AcceptFilePrompt), None);
        assert!(s.file_prompt.is_none(), "{engine}: the field closed");
        let msg = s.status.clone().unwrap();
        assert_eq!(msg.severity, Severity::Info, "{engine}: {}", msg.text);
        let text = std::fs::read_to_string(&path).unwrap();
        let step = if engine == Engine::Unreal {
            "37.0"
        } else {
            "0.37"
        };
        assert!(
            text.contains(step),
            "{engine}: the tuned step {step} missing:\n{text}"
        );
    }
    // A file that cannot be written is reported, not a panic.
    let blocked = dir.join("no_such_dir").join("x.cs");
    s.apply(Command::ExportForEngine(Engine::Unity, blocked));
    let msg = s.status.clone().unwrap();
    assert_eq!(msg.severity, Severity::Error);
    assert!(
        msg.text.contains("Could not export for unity"),
        "{}",
        msg.text
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_probe_the_engine_export_asks_for_one() {
    let mut s = EditorState::default();
    assert_eq!(s.apply(Command::ExportForEngineDialog(Engine::Godot)), None);
    assert!(s.status.as_ref().unwrap().text.contains("Select a probe"));
    let path = std::env::temp_dir().join("collidoscope_never_written.gd");
    s.apply(Command::ExportForEngine(Engine::Godot, path.clone()));
    assert!(!path.exists());
}
