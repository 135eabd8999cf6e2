//! The camera views and the overlays at real-level scale, through the
//! real window with no display: the front, side, top and perspective views
//! frame what is selected (its box on screen spans at least a third of the
//! view), F frames it without leaving the view, the wheel zooms toward the
//! pointer, and labels never overlap, on the built-in level and on the
//! Sibenik cathedral (`../shared/levels`, skipped with a message when
//! absent). The camera's projection is read from the state: no GL needed.

use crate::*;
use collidoscope::app::views::Subject;
use collidoscope::math::Aabb;
use collidoscope::render::{CameraPreset, CameraView};
use glam::Vec3;

/// The window at its default size, on `level` (the built-in level when `None`).
fn window(level: Option<PathBuf>) -> Harness<'static, CollidoscopeApp> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            CollidoscopeApp::new(
                cc,
                Startup {
                    level,
                    ..Startup::default()
                },
            )
        });
    wait_for_load(&mut h);
    h
}

fn view_rect(h: &Harness<'static, CollidoscopeApp>) -> egui::Rect {
    h.state().viewport_rect().expect("the view was laid out")
}

/// The share of the view's width and height the box's projected corners
/// span, and whether all of them are inside the view.
fn coverage(cam: &CameraView, b: &Aabb, view: egui::Rect) -> (f32, f32, bool) {
    let (min, size) = ([view.min.x, view.min.y], [view.width(), view.height()]);
    let mut r = egui::Rect::NOTHING;
    for c in b.corners() {
        let Some([x, y]) = cam.world_to_screen(c, min, size) else {
            return (0.0, 0.0, false);
        };
        r.extend_with(egui::pos2(x, y));
    }
    let inside = view.expand(0.5).contains_rect(r);
    (r.width() / view.width(), r.height() / view.height(), inside)
}

/// Asserts the state's subject is `want` and fills at least a third of
/// the view (across or up) without leaving it.
fn assert_framed(h: &Harness<'static, CollidoscopeApp>, want: Subject, what: &str) {
    let s = h.state().state();
    let (subject, b) = s.subject().expect("a level is loaded");
    assert_eq!(subject, want, "{what}");
    let (w, hgt, inside) = coverage(&s.camera, &b, view_rect(h));
    assert!(inside, "{what}: the subject leaves the view");
    assert!(
        w.max(hgt) >= 1.0 / 3.0,
        "{what}: the subject spans only {w:.2} x {hgt:.2} of the view"
    );
}

fn preset(h: &mut Harness<'static, CollidoscopeApp>, p: CameraPreset) {
    h.state_mut().push(Command::ViewPreset(p));
    h.run_steps(2);
}

#[test]
fn every_view_frames_the_selected_probe_and_the_level_when_nothing_is() {
    let mut h = window(None);
    for p in CameraPreset::ALL {
        preset(&mut h, p);
        assert_framed(&h, Subject::Level, &format!("{p:?} of the level"));
        assert_eq!(
            h.state().state().camera.orthographic,
            p != CameraPreset::Perspective
        );
    }
    place_stair_probe(&mut h);
    for p in CameraPreset::ALL {
        preset(&mut h, p);
        assert_framed(&h, Subject::Probe(0), &format!("{p:?} of the probe"));
    }
    // Along the walk: across the probe's move (+z), orthographic, level.
    h.state_mut().push(Command::ViewAlongWalk);
    h.run_steps(2);
    let cam = h.state().state().camera;
    assert!(cam.orthographic && cam.forward().y.abs() < 1e-5);
    assert!(
        cam.forward().z.abs() < 1e-5,
        "looks across +z: {:?}",
        cam.forward()
    );
    assert_framed(&h, Subject::Probe(0), "along the walk");
}

#[test]
fn f_frames_the_selection_in_the_view_shown() {
    let mut h = window(None);
    preset(&mut h, CameraPreset::Top);
    place_stair_probe(&mut h);
    let top = h.state().state().camera;
    h.key_press(egui::Key::F);
    h.run_steps(2);
    let cam = h.state().state().camera;
    assert!(cam.orthographic, "F stays in the top view");
    assert!((cam.forward() - top.forward()).length() < 1e-5);
    assert!((cam.up - top.up).length() < 1e-5, "north stays up");
    assert_framed(&h, Subject::Probe(0), "F in the top view");
    h.get_by_label_contains("Framed Probe 1");
    // A level object picked after the probe is what F frames then.
    h.state_mut().push(Command::SelectObject(Some(0)));
    preset(&mut h, CameraPreset::Front);
    h.key_press(egui::Key::F);
    h.run_steps(2);
    assert!(h.state().state().camera.orthographic);
    assert_framed(&h, Subject::Object(0), "F on an object in the front view");
}

/// The wheel over the view keeps the point under the pointer where it is,
/// in the perspective view and in an orthographic one, over the level and
/// over empty sky.
#[test]
fn the_wheel_zooms_toward_the_pointer() {
    let mut h = window(None);
    let level = h.state().state().level.clone().unwrap();
    for p in [CameraPreset::Perspective, CameraPreset::Front] {
        preset(&mut h, p);
        let view = view_rect(&h);
        for pointer in [
            view.center() + egui::vec2(view.width() * 0.2, view.height() * 0.15),
            view.left_top() + egui::vec2(30.0, 30.0),
        ] {
            h.hover_at(pointer);
            h.run_steps(2);
            let before = h.state().state().camera;
            let (min, size) = ([view.min.x, view.min.y], [view.width(), view.height()]);
            let (o, d) = before.screen_ray([pointer.x, pointer.y], min, size);
            let hit = collidoscope::app::pick::pick(&level, o, d).map(|p| p.point.as_vec3());
            let world = collidoscope::app::camera_ctl::zoom_focus(&before, hit, (o, d))
                .expect("a point under the pointer");
            h.event(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta: egui::vec2(0.0, 120.0),
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
                modifiers: egui::Modifiers::NONE,
            });
            h.run_steps(20);
            let after = h.state().state().camera;
            let dist = |c: &CameraView| (c.eye - c.target).length();
            assert!(dist(&after) < dist(&before) * 0.95, "{p:?}: zoomed in");
            let [x, y] = after
                .world_to_screen(world, min, size)
                .expect("still in view");
            assert!(
                (x - pointer.x).abs() < 1.5 && (y - pointer.y).abs() < 1.5,
                "{p:?}: the point under {pointer:?} moved to ({x}, {y})"
            );
            assert_eq!(after.orthographic, p != CameraPreset::Perspective);
        }
    }
}

fn assert_disjoint_in_view(h: &Harness<'static, CollidoscopeApp>, what: &str) -> usize {
    let cards = h.state().label_cards().to_vec();
    let view = view_rect(h);
    let covers = h.state().view_covers().to_vec();
    assert!(
        !covers.is_empty(),
        "{what}: the legend at least covers the view"
    );
    for (i, a) in cards.iter().enumerate() {
        assert!(view.contains_rect(*a), "{what}: {a:?} leaves the view");
        for c in &covers {
            assert!(!a.intersects(*c), "{what}: {a:?} is under {c:?}");
        }
        for b in &cards[i + 1..] {
            assert!(
                !a.intersect(*b).is_positive(),
                "{what}: {a:?} overlaps {b:?}"
            );
        }
    }
    cards.len()
}

fn set_view(
    h: &mut Harness<'static, CollidoscopeApp>,
    f: impl FnOnce(&mut collidoscope::app::state::ViewOptions),
) {
    let mut v = h.state().state().view;
    f(&mut v);
    h.state_mut().push(Command::SetView(v));
    h.run_steps(3);
}

/// On the built-in level: by default the contact's decisions are labelled
/// and Nettle's points are not; every point labelled on request; larger
/// labels hide some, and the count plus the cards drawn is the same number
/// of callouts whatever the size.
#[test]
fn labels_show_the_decision_never_overlap_and_count_what_is_hidden() {
    let mut h = window(None);
    place_stair_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(2);
    h.key_press(egui::Key::F);
    h.run_steps(3);
    let rec = h.state().state().probes[0]
        .stepper
        .current_record()
        .cloned()
        .unwrap();
    let hit = rec
        .nearest
        .expect("the first iteration reaches the first riser");
    let texts = |h: &Harness<'static, CollidoscopeApp>| -> Vec<String> {
        h.state()
            .drawn_overlays()
            .iter()
            .filter_map(|p| p.label.clone())
            .collect()
    };
    assert!(texts(&h).contains(&format!("contact t = {:.3}", hit.t)));
    let default_cards = assert_disjoint_in_view(&h, "default labels");
    assert!(
        default_cards >= 2,
        "the contact and the probe's name: {default_cards}"
    );
    set_view(&mut h, |v| {
        v.all_labels = true;
        v.label_size_pt = 8.0;
    });
    let small = assert_disjoint_in_view(&h, "every label, 8 pt");
    assert!(
        small > default_cards,
        "more labels on request: {small} vs {default_cards}"
    );
    let small_hidden = h.state().labels_hidden();
    set_view(&mut h, |v| v.label_size_pt = 28.0);
    let big = assert_disjoint_in_view(&h, "every label, 28 pt");
    let big_hidden = h.state().labels_hidden();
    assert_eq!(
        small + small_hidden,
        big + big_hidden,
        "each callout is either drawn or counted"
    );
    // A narrow window leaves no room for most of them: counted, never piled.
    h.set_size(egui::vec2(760.0, 520.0));
    h.run_steps(4);
    let narrow = assert_disjoint_in_view(&h, "every label, 28 pt, narrow window");
    let narrow_hidden = h.state().labels_hidden();
    assert!(
        narrow_hidden > 0,
        "some labels are hidden in a narrow window ({narrow} drawn)"
    );
}

/// The vectors a contact shows are drawn at a readable length: the
/// contact normal lies inside the probe and is short next to a level.
#[test]
fn the_contact_normal_and_slide_vector_are_drawn_readably() {
    let mut h = window(None);
    place_stair_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(3);
    let vectors = h.state().screen_vectors().to_vec();
    let kinds: Vec<_> = vectors.iter().map(|(k, _, _)| *k).collect();
    use collidoscope::collide::debug_draw::OverlayKind;
    assert!(kinds.contains(&OverlayKind::ContactNormal), "{kinds:?}");
    for (kind, a, b) in &vectors {
        assert!(
            a.distance(*b) >= 43.9,
            "{kind:?} is {} points long",
            a.distance(*b)
        );
    }
}

fn sibenik() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/levels/sibenik_dabrovic_75k.obj.gz");
    if !path.exists() {
        eprintln!("skipped: {} is absent", path.display());
        return None;
    }
    Some(path)
}

/// Sibenik, a 75k-triangle cathedral: the views frame a probe on its
/// nave's floor (not a dot, not a blank), and a stepped move's labels
/// never overlap, by default and with every point labelled.
#[test]
fn on_sibenik_the_views_frame_a_probe_and_labels_never_overlap() {
    let Some(path) = sibenik() else { return };
    let mut h = window(Some(path));
    let level = h.state().state().level.clone().expect("Sibenik loads");
    assert!(level.mesh().triangle_count() > 70_000, "{}", level.name);
    // The floor under the middle of the nave.
    let b = level.mesh().bounds();
    let c = b.center();
    let down = collidoscope::app::pick::pick(&level, Vec3::new(c.x, c.y, c.z), Vec3::NEG_Y)
        .expect("a floor under the middle of the cathedral");
    assert!(down.normal.y > 0.9, "a floor: {:?}", down.normal);
    h.state_mut().push(Command::PlaceProbe {
        point: down.point,
        normal: down.normal,
    });
    h.run_steps(2);
    let i = h.state().state().selected.expect("placed and selected");
    let mut p = params_of(&h.state().state().probes[i]);
    // Along the nave's length, into whatever stands there.
    let along = if b.extent().x > b.extent().z {
        DVec3::new(12.0, 0.0, 0.0)
    } else {
        DVec3::new(0.0, 0.0, 12.0)
    };
    p.velocity = along;
    h.state_mut().push(Command::UpdateProbe(i, Box::new(p)));
    h.run_steps(2);
    for p in CameraPreset::ALL {
        preset(&mut h, p);
        assert_framed(&h, Subject::Probe(i), &format!("Sibenik, {p:?}"));
    }
    preset(&mut h, CameraPreset::Perspective);
    for _ in 0..3 {
        h.state_mut().push(Command::Step);
    }
    h.run_steps(3);
    assert_disjoint_in_view(&h, "Sibenik, default labels");
    set_view(&mut h, |v| v.all_labels = true);
    let drawn = assert_disjoint_in_view(&h, "Sibenik, every label");
    assert!(drawn >= 2, "{drawn} cards");
    // The whole cathedral from the front, nothing selected: not a dot.
    h.state_mut().push(Command::Select(None));
    preset(&mut h, CameraPreset::Front);
    assert_framed(&h, Subject::Level, "Sibenik's front view");
    assert_disjoint_in_view(&h, "Sibenik, whole level");
}

/// A label shown only on request appears when the pointer is over its
/// point: the destination of a stepped iteration.
#[test]
fn hovering_a_point_shows_its_label() {
    let mut h = window(None);
    place_stair_probe(&mut h);
    h.state_mut().push(Command::Step);
    h.run_steps(2);
    h.key_press(egui::Key::F);
    h.run_steps(2);
    let dest = h
        .state()
        .drawn_overlays()
        .iter()
        .find(|p| p.label.as_deref() == Some("destination"))
        .map(|p| p.shape.anchor())
        .expect("the iteration's destination is drawn");
    let view = view_rect(&h);
    let cam = h.state().state().camera;
    let [x, y] = cam
        .world_to_screen(
            dest.as_vec3(),
            [view.min.x, view.min.y],
            [view.width(), view.height()],
        )
        .expect("the destination is in view");
    // Away from it: not labelled.
    h.hover_at(view.left_top() + egui::vec2(5.0, 5.0));
    h.run_steps(2);
    let away = h.state().label_cards().len();
    h.hover_at(egui::pos2(x + 3.0, y + 3.0));
    h.run_steps(2);
    let over = h.state().label_cards().len();
    assert!(
        over > away,
        "hovering the destination labels it: {away} then {over} cards"
    );
}
