//! What a designer sees first, at the default 1280 × 800: nothing in the
//! left panel runs past its edge (where it would be cut off), each page of
//! the panel opens at its own top, every overlay in View > Overlays can be
//! reached, the unfolded legend leaves the Measure switch uncovered, the
//! Open level window opens below the menu bar, and the inspector's
//! numbers fit its width.

use crate::*;
use collidoscope::collide::debug_draw::OverlayKind;
use egui_kittest::kittest::{By, NodeT};

/// The window size a designer sees first.
const DEFAULT_WINDOW: egui::Vec2 = egui::vec2(1280.0, 800.0);

fn first_sight() -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size(DEFAULT_WINDOW)
        .build_eframe(|cc| CollidoscopeApp::new(cc, Startup::default()));
    h.run_steps(3);
    h
}

/// Every widget that starts inside the left panel, above the stepper bar,
/// ends inside it too: one that ends past the edge is cut off there.
fn assert_left_panel_fits(h: &Harness<'static, CollidoscopeApp>, when: &str) {
    let edge = h
        .state()
        .viewport_rect()
        .expect("the view was laid out")
        .min
        .x;
    let top = h.get_by_label("Scene").rect().max.y;
    let bottom = h.get_by_label("Reset").rect().min.y;
    let past = widgets_past(
        h,
        |r| r.min.x < edge - 1.0 && r.min.y > top && r.min.y < bottom - 4.0,
        edge,
    );
    assert!(
        past.is_empty(),
        "{when}: the left panel ends at x = {edge:.0}, but {past:?}"
    );
}

/// [`first_sight`] with a probe placed on the open floor in front of the
/// staircases, selected.
fn first_sight_with_probe() -> Harness<'static, CollidoscopeApp> {
    let mut h = first_sight();
    h.state_mut().push(Command::PlaceProbe {
        point: DVec3::new(-3.0, 0.0, -2.0),
        normal: DVec3::Y,
    });
    h.run_steps(3);
    h
}

/// Runs the window until `busy` is false (background work: an analysis,
/// the checks, the map), failing with `what` after `secs` seconds.
fn wait_while(
    h: &mut Harness<'static, CollidoscopeApp>,
    secs: u64,
    what: &str,
    busy: impl Fn(&Harness<'static, CollidoscopeApp>) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while busy(h) {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
}

/// The widgets (nodes with text: containers span the window) that start
/// where `starts_in` says and end past `edge` (x), in words.
fn widgets_past(
    h: &Harness<'static, CollidoscopeApp>,
    starts_in: impl Fn(egui::Rect) -> bool,
    edge: f32,
) -> Vec<String> {
    let mut past = Vec::new();
    for node in h.query_all(By::new()) {
        let ak = node.accesskit_node();
        let text = ak.label().or_else(|| ak.value()).unwrap_or_default();
        if ak.bounding_box().is_none() || text.is_empty() {
            continue;
        }
        let r = node.rect();
        if starts_in(r) && r.max.x > edge + 0.5 {
            past.push(format!("{text:?} ends at x = {:.0}", r.max.x));
        }
    }
    past
}

#[test]
fn nothing_in_the_scene_page_runs_past_the_panels_edge() {
    let mut h = first_sight_with_probe();
    assert_left_panel_fits(&h, "a probe placed");
    // The mesh report: "coplanar edge" is information, with a big count.
    h.get_by_label("Mesh hygiene").click();
    h.run_steps(2);
    h.get_by_label("Analyse mesh").click();
    wait_while(&mut h, 120, "no hygiene report", |h| {
        h.state().state().hygiene.report.is_none()
    });
    h.run_steps(3);
    h.get_by_label_contains("coplanar edge").scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the mesh analysed");
    // Further down: the probe's settings, then the cylinders' sentences,
    // which wrap to the content's width (past the edge once a row is wide).
    h.get_by_label("self checks").scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the probe's settings shown");
    h.get_by_label_contains("No placed cylinders")
        .scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the cylinders shown");
    // A placed cylinder's row, and the level's object list with switches.
    h.state_mut()
        .push(Command::PlaceCylinder(DVec3::new(-3.0, 0.0, 2.0)));
    h.run_steps(3);
    h.get_by_label("+ Place cylinder").scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "a cylinder placed");
    h.get_by_label_contains("Objects (").click();
    h.run_steps(3);
    h.get_by_label_contains("Objects (").scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the objects listed");
}

#[test]
fn the_character_page_opens_at_its_top_after_the_scene_page_scrolled() {
    let mut h = first_sight_with_probe();
    // The envelope's rows make the Character page taller than the panel,
    // so a scroll offset carried over from the Scene page would stick.
    wait_while(&mut h, 180, "no envelope", |h| {
        h.state().envelope().is_none()
    });
    h.get_by_label_contains("No placed cylinders")
        .scroll_to_me();
    h.run_steps(3);
    let tabs = h.get_by_label("Character").rect().max.y;
    assert!(
        h.get_by_label("Level").rect().min.y < tabs,
        "the Scene page did not scroll"
    );
    h.get_by_label("Character").click();
    h.run_steps(3);
    let first = h.get_by_label("walk speed (m/s)").rect();
    assert!(
        first.min.y > tabs,
        "the Character page's first setting is at y = {:.0}, above the tabs' {tabs:.0}",
        first.min.y
    );
}

#[test]
fn every_overlay_in_the_view_menu_can_be_reached() {
    let mut h = first_sight();
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Overlays").click();
    h.run_steps(3);
    for kind in OverlayKind::ALL {
        // The checkbox: some names (the cylinders) are also a panel's header.
        let by = || {
            By::new()
                .label(kind.label())
                .role(egui::accesskit::Role::CheckBox)
        };
        h.get(by()).scroll_to_me();
        h.run_steps(2);
        let r = h.get(by()).rect();
        assert!(
            r.max.y <= DEFAULT_WINDOW.y && r.min.y >= 0.0,
            "{}: at y = {:.0}..{:.0}, outside the {}-point window",
            kind.label(),
            r.min.y,
            r.max.y,
            DEFAULT_WINDOW.y
        );
    }
}

#[test]
fn the_unfolded_legend_leaves_the_measure_switch_uncovered() {
    let mut h = first_sight();
    h.get_by_label_contains("Legend ·").click();
    h.run_steps(3);
    h.get_by_label("Click an entry to show or hide it");
    let legend_top = h.get_by_label_contains("Legend ·").rect().min.y;
    let measure = h.get_by_label("Measure").rect();
    assert!(
        legend_top > measure.max.y,
        "the legend's top {legend_top:.0} is over the Measure switch (to {:.0})",
        measure.max.y
    );
    // Measure on: its hint shows under the switch.
    h.get_by_label("Measure").click();
    h.run_steps(3);
    let hint = h.get_by_label_contains("Click the first point").rect();
    let legend_top = h.get_by_label_contains("Legend ·").rect().min.y;
    assert!(
        legend_top > hint.max.y,
        "the legend's top {legend_top:.0} is over the Measure hint (to {:.0})",
        hint.max.y
    );
}

#[test]
fn the_open_level_window_opens_below_the_menu_bar() {
    let mut h = first_sight();
    let menu_bottom = h.get_by_label("File").rect().max.y;
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("Open level…").click();
    h.run_steps(4);
    let title = h.get_by_label("Open level").rect();
    assert!(
        title.min.y > menu_bottom,
        "the window's title at y = {:.0} covers the menu bar (to {menu_bottom:.0})",
        title.min.y
    );
    assert!(h.get_by_label("File").rect().max.y <= title.min.y);
}

#[test]
fn nothing_in_the_other_pages_runs_past_the_panels_edge() {
    let mut h = first_sight_with_probe();
    h.get_by_label("Character").click();
    wait_while(&mut h, 180, "no envelope", |h| {
        h.state().envelope().is_none()
    });
    h.run_steps(3);
    assert_left_panel_fits(&h, "the Character page");
    h.get_by_label_contains("Walk with the selected probe")
        .scroll_to_me();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the Character page's walk mode");

    h.get_by_label("Checks").click();
    h.run_steps(2);
    h.get_by_label("Run checks").click();
    h.run_steps(1);
    wait_while(&mut h, 120, "the checks did not end", |h| {
        h.state().state().checks.running()
    });
    h.run_steps(3);
    assert_left_panel_fits(&h, "the Checks page's folded groups");
    // Unfold the first group (a staircase) and open its first finding.
    let group = h.state().state().checks.groups()[0].clone();
    h.get_by_label_contains(&format!("{} · ", group.key.title()))
        .click();
    h.run_steps(3);
    h.get_by_label_contains(&format!("#{} ", group.members[0] + 1))
        .click();
    h.run_steps(3);
    assert_left_panel_fits(&h, "the Checks page with a finding open");

    h.get_by_label("Map").click();
    h.run_steps(2);
    h.state_mut().push(Command::SetMapOptions(
        collidoscope::analysis::map::MapOptions {
            spacing_m: 2.0,
            directions: 4,
            seconds: 1.0,
            shard: collidoscope::analysis::map::Shard::WHOLE,
            ..collidoscope::analysis::map::MapOptions::default()
        },
    ));
    h.run_steps(1);
    h.get_by_label("Run map").click();
    h.run_steps(1);
    wait_while(&mut h, 120, "the map did not end", |h| {
        h.state().state().map.running()
    });
    h.run_steps(3);
    assert_left_panel_fits(&h, "the Map page with a map");
}

#[test]
fn the_cylinders_section_names_objects_that_give_no_pole() {
    // One usable pole and a flat decal named like a tree.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("first_sight_poles");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("poles.obj");
    std::fs::write(
        &path,
        "o floor\nv -5 0 -5\nv 5 0 -5\nv 5 0 5\nv -5 0 5\nf 1 3 2\nf 1 4 3\n\
         o tree_shadow\nv 1 0.01 1\nv 2 0.01 1\nv 2 0.01 2\nv 1 0.01 2\nf 5 6 7\nf 5 7 8\n\
         o pole_a\nv 3 0 3\nv 3.5 0 3\nv 3.5 2 3\nf 9 10 11\n",
    )
    .unwrap();
    let mut h = first_sight();
    h.get_by_label_contains("No placed cylinders")
        .scroll_to_me();
    h.run_steps(3);
    assert!(h.get_by_label("Level").rect().min.y < h.get_by_label("Scene").rect().max.y);
    h.state_mut().push(Command::OpenLevel(path));
    wait_for_load(&mut h);
    h.run_steps(1);
    assert_eq!(h.state().state().level.as_ref().unwrap().name, "poles.obj");
    // The Scene page was scrolled down on the built-in level; the new
    // level's page opens at its top, its name in sight.
    let tabs = h.get_by_label("Scene").rect().max.y;
    let name = h.get_by_label("poles.obj").rect();
    assert!(
        name.min.y > tabs,
        "the level's name is at y = {:.0}, above the tabs",
        name.min.y
    );
    h.get_by_label_contains("Pole 0: the level's object named");
    h.get_by_label_contains("Not a pole: tree_shadow: it is flat");
    assert!(h.query_by_label_contains("Poles 0 to 0").is_none());
}

#[test]
fn before_any_walk_the_walk_section_does_not_say_in_the_air() {
    let mut h = first_sight_with_probe();
    h.get_by_label("Character").click();
    h.run_steps(3);
    // The probe rests on the floor; no frame has run to say otherwise.
    h.get_by_label("No frames recorded yet");
    assert!(h.query_by_label_contains("in the air").is_none());
}

/// The inspector at its default width shows whole vectors: after a step
/// into the stairs (a hit, so the nearest-hit table too), every value in
/// it ends inside the window, in either space. Side by side, world and
/// ellipsoid space ran past the window's edge and most of each vector was
/// cut off.
#[test]
fn the_inspectors_vectors_fit_its_width() {
    let mut h = first_sight();
    crate::place_stair_probe(&mut h);
    h.get_by_label("Step").click();
    h.run_steps(3);
    let rec = h.state().state().probes[0].stepper.records()[0].clone();
    assert!(rec.nearest.is_some(), "the first step hits the riser");
    for space in ["world (m)", "ellipsoid space"] {
        h.get_by_label(space).click();
        h.run_steps(3);
        let left = h.get_by_label("Inspector").rect().min.x;
        let past = widgets_past(&h, |r| r.min.x >= left - 1.0, DEFAULT_WINDOW.x);
        assert!(past.is_empty(), "{space}: {past:?}");
    }
    // The last space chosen is the one shown.
    h.get_by_label(&crate::fmt3(rec.end_espace));
}
