//! Files and settings in the window's state: the in-app path field, recent
//! files with their own import options, inspecting a walk frame without
//! touching the probe's settings, the built-in level, probes carried to
//! another level, the candidate highlight and stale status messages.

use super::*;
use collidoscope::app::state::{CarryChoice, INFO_MESSAGE_LIFETIME};
use collidoscope::export::engines::Engine;
use collidoscope::level::UpAxis;
use std::time::Instant;

fn scratch_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("collidoscope_files_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A level with a file path, as a load of `path` would give.
fn level_at(path: &std::path::Path, floor_y: f32, half: f32) -> Arc<Level> {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-half, floor_y, -half),
        Vec3::new(-half, floor_y, half),
        Vec3::new(half, floor_y, half),
        Vec3::new(half, floor_y, -half),
    );
    let mut level = Level::from_mesh("other", b.build());
    level.path = Some(path.to_path_buf());
    Arc::new(level)
}

#[test]
fn the_path_field_opens_a_file_with_the_options_shown_and_refuses_bad_paths() {
    let dir = scratch_dir("prompt");
    let good = dir.join("level.obj");
    std::fs::write(&good, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n").unwrap();
    let mut s = state_with_room();
    let before = s.level.clone().unwrap();
    s.apply(Command::OpenDialog);
    let mut prompt = s.file_prompt.clone().unwrap();
    prompt.text = dir.join("missing.obj").display().to_string();
    s.apply(Command::SetFilePrompt(Some(prompt.clone())));
    assert_eq!(s.apply(Command::AcceptFilePrompt), None);
    let msg = s.file_prompt.as_ref().unwrap().message.clone().unwrap();
    assert!(msg.contains("missing.obj: no such file"), "{msg}");
    assert!(
        Arc::ptr_eq(s.level.as_ref().unwrap(), &before),
        "the level stays"
    );

    prompt.text = good.display().to_string();
    prompt.options.up = UpAxis::Z;
    prompt.options.scale = 0.5;
    s.apply(Command::SetFilePrompt(Some(prompt.clone())));
    assert_eq!(
        s.apply(Command::AcceptFilePrompt),
        Some(Effect::Load(good.clone(), prompt.options)),
        "the options shown are the options applied"
    );
    assert!(s.file_prompt.is_none(), "an accepted path closes the field");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn recent_files_reopen_with_their_own_import_options() {
    let dir = scratch_dir("recent");
    let (a, b) = (dir.join("a.obj"), dir.join("b.obj"));
    let mut s = state_with_room();
    let tiny = ImportOptions {
        scale: 0.003,
        ..ImportOptions::default()
    };
    s.apply(Command::OpenLevelWith(a.clone(), tiny));
    s.apply(Command::LevelLoaded(level_at(&a, 0.0, 5.0)));
    assert_eq!(s.import_options, tiny);
    s.apply(Command::OpenLevelWith(b.clone(), ImportOptions::default()));
    s.apply(Command::LevelLoaded(level_at(&b, 0.0, 5.0)));
    assert_eq!(s.recent_files[0].path, b);
    assert_eq!(s.recent_files[1].options, tiny);
    // Dropping or naming a known file uses its own options, not the last ones.
    assert_eq!(
        s.apply(Command::OpenLevel(a.clone())),
        Some(Effect::Load(a.clone(), tiny))
    );
    assert_eq!(
        s.apply(Command::OpenLevel(b.clone())),
        Some(Effect::Load(b.clone(), ImportOptions::default()))
    );
    let fresh = dir.join("new.obj");
    assert_eq!(
        s.apply(Command::OpenLevel(fresh.clone())),
        Some(Effect::Load(fresh, ImportOptions::default())),
        "a new file never inherits the scale of the last"
    );
    // The session keeps each entry's options.
    let back: EditorState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    assert_eq!(back.recent_files, s.recent_files);
}

#[test]
fn inspecting_a_walk_frame_never_changes_the_probe_or_its_export() {
    let dir = scratch_dir("inspect");
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(1.0, 0.0, 0.0));
    let mut p = params_of(&s.probes[i]);
    p.settings.gravity = [0.0, -3.0, 0.0];
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    let before = params_of(&s.probes[i]);
    s.apply(Command::SetWalk(true));
    for _ in 0..40 {
        assert!(walk_frame(
            &mut s,
            collidoscope::app::walk::WalkInput {
                wish_dir: DVec3::Z,
                jump: false,
                dt: 1.0 / 60.0,
            }
        ));
    }
    s.apply(Command::SetWalk(false));
    s.apply(Command::OpenWalkFrame(37));
    s.apply(Command::RunToEnd);
    let now = params_of(&s.probes[i]);
    assert_eq!(
        now.settings, before.settings,
        "inspecting leaves the settings"
    );
    assert_eq!(now.velocity, before.velocity, "and the velocity");
    assert_eq!(s.probes[i].stepper.frame().map(|f| f.index), Some(37));
    let file = dir.join("exported.toml");
    s.apply(Command::ExportSettings(file.clone()));
    let written = collidoscope::settings_file::load(&file).unwrap();
    assert_eq!(
        written, before.settings,
        "the export writes the probe's values"
    );
    assert_eq!(written.gravity, [0.0, -3.0, 0.0]);
    // Back to the probe: its own move again.
    s.apply(Command::CloseFrame);
    assert!(s.probes[i].stepper.frame().is_none());
    assert_eq!(s.probes[i].shown_center(), s.probes[i].position);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_in_level_opens_from_the_file_menu_command() {
    let mut s = state_with_room();
    assert_eq!(s.apply(Command::OpenBuiltinLevel), None);
    let level = s.level.clone().unwrap();
    assert_eq!(level.name, collidoscope::app::DEFAULT_LEVEL_NAME);
    assert!(level.path.is_none() && s.level_path.is_none());
    assert!(level.mesh().triangle_count() > 100);
}

#[test]
fn probes_carried_to_another_level_are_named_and_reseated_on_its_floor() {
    let mut s = state_with_room();
    let i = place(&mut s, 1.0, -3.0, DVec3::X);
    let ry = s.probes[i].settings.radii[1];
    // A floor 5 m lower: the probe would float there.
    let low = PathBuf::from("/levels/low.obj");
    s.apply(Command::LevelLoaded(level_at(&low, -5.0, 8.0)));
    let prompt = s
        .carry_prompt
        .clone()
        .expect("asked what to do with the probes");
    assert_eq!(prompt.misfits.len(), 1, "{:?}", prompt.misfits);
    assert!(
        prompt.misfits[0].contains("floats 5.0"),
        "{}",
        prompt.misfits[0]
    );
    s.apply(Command::CarryProbes {
        choice: CarryChoice::Reseat,
        remember: false,
    });
    assert!(s.carry_prompt.is_none());
    let p = &s.probes[i];
    let gap = p.position.y - ry - (-5.0);
    assert!(
        (0.0..0.05).contains(&gap),
        "resting on the new floor: {:?}",
        p.position
    );
    assert!((p.position.x - 1.0).abs() < 1e-6 && (p.position.z + 3.0).abs() < 1e-6);

    // A level far smaller than the probe: it is said to dwarf it.
    let dolls = PathBuf::from("/levels/dollhouse.obj");
    s.apply(Command::LevelLoaded(level_at(&dolls, -5.0, 0.2)));
    let prompt = s.carry_prompt.clone().unwrap();
    assert!(
        prompt.misfits[0].contains("larger than the whole level"),
        "{:?}",
        prompt.misfits
    );
    // Clear, remembered: the next level asks nothing.
    s.apply(Command::CarryProbes {
        choice: CarryChoice::Clear,
        remember: true,
    });
    assert!(s.probes.is_empty() && s.selected.is_none());
    place(&mut s, 0.0, 0.0, DVec3::X);
    s.apply(Command::LevelLoaded(level_at(&low, -5.0, 8.0)));
    assert!(
        s.carry_prompt.is_none() && s.probes.is_empty(),
        "remembered: cleared"
    );
    // Reloading the same file is not a new level: nothing is asked.
    let mut s = state_with_room();
    s.apply(Command::LevelLoaded(level_at(&low, -5.0, 8.0)));
    place(&mut s, 0.0, 0.0, DVec3::X);
    s.apply(Command::LevelLoaded(level_at(&low, -5.0, 8.0)));
    assert!(s.carry_prompt.is_none());
}

#[test]
fn the_candidate_highlight_clears_on_reset_new_moves_and_walk_mode() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(4.0, 0.0, 1.0));
    let reset_and_walk: [Command; 3] = [
        Command::Reset,
        Command::SetWalk(true),
        Command::UpdateProbe(i, Box::new(params_of(&s.probes[i]))),
    ];
    for cmd in reset_and_walk {
        s.apply(Command::Step);
        s.apply(Command::Highlight(Some(7)));
        let name = format!("{cmd:?}");
        s.apply(cmd);
        assert_eq!(s.highlight, None, "{name} clears the highlight");
        s.apply(Command::SetWalk(false));
    }
    s.apply(Command::Highlight(Some(7)));
    s.apply(Command::PlaceProbe {
        point: DVec3::new(1.0, 0.0, 1.0),
        normal: DVec3::Y,
    });
    assert_eq!(s.highlight, None, "a new probe clears it");
}

#[test]
fn information_expires_errors_stay_and_walk_words_go_when_walking_stops() {
    let mut s = state_with_room();
    place(&mut s, 0.0, -3.0, DVec3::X);
    let shown = s.status.clone().unwrap();
    assert!(shown.text.starts_with("Placed"));
    let later = Instant::now() + INFO_MESSAGE_LIFETIME;
    assert!(
        s.expire_status(shown.shown_at).is_some(),
        "fresh news stays"
    );
    s.expire_status(later);
    assert!(s.status.is_none(), "old news goes");
    s.error("Could not open level: x.obj:3: bad");
    s.expire_status(later + INFO_MESSAGE_LIFETIME);
    assert!(
        s.status.is_some(),
        "errors stay until dismissed or replaced"
    );
    s.apply(Command::SetWalk(true));
    assert!(s.status.as_ref().unwrap().text.starts_with("Walk mode"));
    s.apply(Command::SetWalk(false));
    assert!(
        s.status.is_none(),
        "the keys of walk mode are no longer true"
    );
    // A new load replaces an old error rather than sitting beside it.
    s.error("Could not open level: old");
    s.apply(Command::OpenLevel(PathBuf::from("/nowhere/next.obj")));
    assert!(s.status.is_none());
}

#[cfg(unix)]
#[test]
fn exports_never_replace_the_open_level_or_write_through_a_link() {
    let dir = scratch_dir("export_safety");
    // A level whose file an export could name (an odd extension, but the
    // same file).
    let level_file = dir.join("room.json");
    std::fs::write(&level_file, "the level").unwrap();
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(level_at(&level_file, 0.0, 5.0)));
    place(&mut s, 0.0, 0.0, DVec3::X);
    s.apply(Command::ExportSettings(level_file.clone()));
    let msg = s.status.clone().unwrap();
    assert_eq!(msg.severity, Severity::Error);
    assert!(
        msg.text.contains("one of this command's inputs"),
        "{}",
        msg.text
    );
    assert_eq!(std::fs::read_to_string(&level_file).unwrap(), "the level");
    // A dangling link: its target is never created.
    let outside = scratch_dir("export_safety_outside");
    for (name, engine) in [("link.toml", None), ("link.gd", Some(Engine::Godot))] {
        let link = dir.join(name);
        std::os::unix::fs::symlink(outside.join(name), &link).unwrap();
        match engine {
            None => s.apply(Command::ExportSettings(link.clone())),
            Some(e) => s.apply(Command::ExportForEngine(e, link.clone())),
        };
        let msg = s.status.clone().unwrap();
        assert_eq!(msg.severity, Severity::Error, "{name}");
        assert!(msg.text.contains("symbolic link"), "{}", msg.text);
        assert!(!outside.join(name).exists(), "{name}");
    }
    // A file the dialog agreed to replace is replaced, whole.
    let file = dir.join("player.toml");
    std::fs::write(&file, "old").unwrap();
    s.apply(Command::ExportSettings(file.clone()));
    assert!(collidoscope::settings_file::load(&file).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&outside);
}
