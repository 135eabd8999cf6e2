//! Opening levels: a failed load, a dropped file, a cancelled long load
//! and the in-app path field.

use crate::*;

#[test]
fn a_failed_load_is_shown_and_keeps_the_level() {
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.state_mut().push(Command::OpenLevel(PathBuf::from(
        "/nowhere/missing_level.obj",
    )));
    wait_for_load(&mut h);
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    h.get_by_label_contains("missing_level.obj");
    h.get_by_label_contains("Could not open level");
}

/// A file dropped on the window, as the windowing layer hands it to egui.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file_and_wait(h: &mut Harness<'static, CollidoscopeApp>, path: PathBuf) {
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path)));
    h.run_steps(1);
    wait_for_load(h);
}

#[test]
fn dropping_an_obj_opens_it_and_a_broken_one_says_where() {
    let dir = std::env::temp_dir().join(format!("collidoscope_drop_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("dropped_room.obj");
    std::fs::write(
        &good,
        "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\n",
    )
    .unwrap();
    let bad = dir.join("broken.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n").unwrap();

    let mut h = harness();
    h.run_steps(2);
    drop_file_and_wait(&mut h, good.clone());
    let level = h.state().state().level.clone().expect("a level");
    assert_eq!(level.path.as_deref(), Some(good.as_path()));
    assert_eq!(level.mesh().triangle_count(), 2);

    drop_file_and_wait(&mut h, bad);
    // The dropped room stays; the banner names the file and the line.
    let kept = h.state().state().level.clone().unwrap();
    assert!(std::sync::Arc::ptr_eq(&kept, &level));
    h.get_by_label_contains("broken.obj:4");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_load_can_be_cancelled_and_the_level_stays() {
    // A 300k-triangle floor: long enough to still be loading when clicked.
    let path = std::env::temp_dir().join(format!("collidoscope_big_{}.obj", std::process::id()));
    let n = 390;
    let mut text = String::from("o big\n");
    for i in 0..=n {
        for k in 0..=n {
            text.push_str(&format!("v {i} 0 {k}\n"));
        }
    }
    let at = |i: usize, k: usize| i * (n + 1) + k + 1;
    for i in 0..n {
        for k in 0..n {
            text.push_str(&format!(
                "f {} {} {} {}\n",
                at(i, k),
                at(i, k + 1),
                at(i + 1, k + 1),
                at(i + 1, k)
            ));
        }
    }
    std::fs::write(&path, text).unwrap();
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.state_mut().push(Command::OpenLevel(path.clone()));
    h.run_steps(1);
    assert!(h.state().is_loading(), "the load is under way");
    h.get_by_label("Cancel loading").click();
    h.run_steps(2);
    assert!(!h.state().is_loading());
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    h.get_by_label_contains("cancelled; the level shown stays");
    let _ = std::fs::remove_file(path);
}

/// The in-app path field works with no desktop portal and no zenity (as
/// here): File → Open level… opens it, a bad path is refused with why and
/// the level stays, a real file loads with the options shown.
#[test]
fn the_path_field_opens_a_real_file_and_a_bad_path_says_why() {
    let dir = std::env::temp_dir().join(format!("collidoscope_field_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("typed_room.obj");
    std::fs::write(
        &good,
        "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 3 2\nf 1 4 3\n",
    )
    .unwrap();
    let mut h = harness();
    h.run_steps(2);
    let before = h.state().state().level.clone().unwrap();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("Open level").click();
    h.run_steps(2);
    h.get_by_label_contains("Open level: type a path");
    // A new window is laid out invisibly on its first frames.
    h.run_steps(4);
    h.get_by_label_contains("Will open with: Y up");
    let bad = dir.join("nothing_here.obj").display().to_string();
    let field = h.get_by_role(egui::accesskit::Role::TextInput);
    field.set_text_value_accesskit(&bad);
    h.run_steps(2);
    h.get_by_label("Open").click();
    h.run_steps(2);
    h.get_by_label_contains("nothing_here.obj: no such file");
    assert!(std::sync::Arc::ptr_eq(
        h.state().state().level.as_ref().unwrap(),
        &before
    ));
    // A probe on the built-in level, carried to the typed room.
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(5.0, 0.0, -1.5),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    // The path field is the text input holding the refused path.
    let field = h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(bad.as_str())
    });
    field.set_text_value_accesskit(&good.display().to_string());
    h.run_steps(2);
    h.get_by_label("Open").click();
    wait_for_load(&mut h);
    let level = h.state().state().level.clone().unwrap();
    assert_eq!(level.path.as_deref(), Some(good.as_path()));
    assert!(h.state().state().file_prompt.is_none());
    // Off the room's 4 m floor: named, then re-seated onto it.
    h.run_steps(4);
    h.get_by_label_contains("Probe 1 lies outside the level's box");
    h.get_by_label("Re-seat on the floor").click();
    h.run_steps(2);
    let p = &h.state().state().probes[0];
    assert!(
        (0.0..=4.0).contains(&p.position.x) && (0.0..=4.0).contains(&p.position.z),
        "moved onto the room: {:?}",
        p.position
    );
    let gap = p.position.y - p.settings.radii[1];
    assert!((0.0..0.05).contains(&gap), "resting on its floor: {gap}");

    // And back to the built-in level from the File menu.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open built-in level").click();
    h.run_steps(2);
    let level = h.state().state().level.clone().unwrap();
    assert_eq!(level.name, "default_level.obj");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The path field's text and whether it has the keyboard focus.
fn path_text(h: &Harness<'static, CollidoscopeApp>) -> String {
    h.state()
        .state()
        .file_prompt
        .as_ref()
        .expect("the path field is open")
        .text
        .clone()
}

/// The path field: the text input holding the field's text (the probe's
/// panel has text inputs too).
fn path_field<'h>(h: &'h Harness<'static, CollidoscopeApp>) -> egui_kittest::Node<'h> {
    let text = path_text(h);
    h.get_by(move |n| {
        n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(text.as_str())
    })
}

/// Tab completes and leaves the caret after the completed text, so typing
/// goes on at the end; Enter on a path that cannot be used says why in the
/// window and keeps the field (and its focus) to correct it; Tab with
/// nothing to complete says so; Save takes a new file name.
#[test]
fn tab_puts_the_caret_at_the_end_and_enter_on_a_bad_path_says_why() {
    let dir = std::env::temp_dir().join(format!("collidoscope_tab_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("stairs_only_here.obj"),
        "o floor\nv 0 0 0\nv 4 0 0\nv 4 0 4\nf 1 3 2\n",
    )
    .unwrap();
    let mut h = harness();
    h.run_steps(2);
    h.state_mut().push(Command::OpenDialog);
    // A new window is laid out invisibly on its first frames.
    h.run_steps(6);
    let typed = format!("{}/stairs_o", dir.display());
    path_field(&h).set_text_value_accesskit(&typed);
    h.run_steps(2);
    h.key_press(egui::Key::Tab);
    h.run_steps(3);
    let done = format!("{}/stairs_only_here.obj", dir.display());
    assert_eq!(path_text(&h), done);
    assert_eq!(
        h.state().path_caret(),
        Some(done.chars().count()),
        "the caret is after the completed name"
    );
    // Nothing more to complete: Tab says so rather than doing nothing.
    h.key_press(egui::Key::Tab);
    h.run_steps(2);
    h.get_by_label_contains("Tab: ");

    // Enter on a new (missing) name: the reason, in the window.
    let missing = format!("{}/no_such_level.obj", dir.display());
    path_field(&h).set_text_value_accesskit(&missing);
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    h.get_by_label_contains("no_such_level.obj: no such file");
    assert!(
        h.state().state().file_prompt.is_some(),
        "the field stays open"
    );
    assert!(h.state().path_caret().is_some(), "and keeps the focus");
    // Enter on a folder: why, too.
    path_field(&h).set_text_value_accesskit(&format!("{}/", dir.display()));
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    h.get_by_label_contains("is a folder");
    h.state_mut().push(Command::SetFilePrompt(None));
    h.run_steps(2);

    // Save: a new file name is accepted with Enter and written.
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(5.0, 0.0, -1.5),
        normal: DVec3::Y,
    });
    h.run_steps(2);
    h.state_mut().push(Command::ExportSettingsDialog);
    h.run_steps(6);
    let new_file = dir.join("brand_new_settings.toml");
    path_field(&h).set_text_value_accesskit(&new_file.display().to_string());
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert!(new_file.is_file(), "Enter saved to the new name");
    assert!(
        h.state().state().file_prompt.is_none(),
        "and closed the field"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
