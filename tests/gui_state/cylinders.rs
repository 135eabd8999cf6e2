//! Vertical cylinders in the window: placed by a click, edited, deleted,
//! saved with the session; the radial method pushes out of them, the slide
//! meets their prisms, and the two are compared.

use super::*;
use collidoscope::level::cylinder::{Cylinder, MAX_CYLINDERS};
use collidoscope::methods::{Method, MethodSettings};

/// A probe at (0, _, -3) moving 4 m along +z by `method`, and a pole
/// placed at (0, 0, -1) (0.3 m radius, 3 m high).
fn probe_and_pole(method: Method, step_hz: f64) -> (EditorState, usize) {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(0.0, 0.0, 4.0));
    let mut p = params_of(&s.probes[i]);
    p.method = method;
    p.method_settings = MethodSettings {
        step_hz,
        ..MethodSettings::default()
    };
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    s.apply(Command::PlaceCylinder(DVec3::new(0.0, 0.0, -1.0)));
    assert_eq!(s.cylinders.len(), 1);
    s.apply(Command::RunToEnd);
    (s, i)
}

#[test]
fn the_slide_meets_a_placed_pole_and_the_radial_method_pushes_out_of_it() {
    let (s, i) = probe_and_pole(Method::Ellipsoid, 60.0);
    let end = s.probes[i].shown_center();
    // Stopped at the prism's face: 0.3 m pole + 0.4 m probe + skin.
    assert!((end.z - (-1.0 - 0.7 - 0.005)).abs() < 2e-3, "{end:?}");
    let (s, i) = probe_and_pole(Method::Radial, 60.0);
    let st = &s.probes[i].stepper;
    let trace = st.method_trace().expect("the radial trace");
    assert_eq!(trace.method, Method::Radial);
    assert!(
        (trace.final_position.z + 1.7).abs() < 1e-9,
        "{:?}",
        trace.final_position
    );
    let pushed = trace
        .iterations
        .iter()
        .filter_map(|r| r.detail.as_radial())
        .filter(|d| !d.entered.is_empty())
        .count();
    assert!(pushed > 10, "held in front of the pole, step after step");
    let cmp = st.radial_comparison().expect("compared with the slide");
    assert!(!cmp.disagree, "{}", cmp.sentence());
}

#[test]
fn a_one_step_move_passes_through_the_pole_and_the_window_says_so() {
    let (s, i) = probe_and_pole(Method::Radial, 1.0);
    let st = &s.probes[i].stepper;
    assert_eq!(st.step_count(), 1);
    let d = st
        .current_method_step()
        .unwrap()
        .detail
        .as_radial()
        .unwrap();
    assert_eq!(d.passed_through, vec![0]);
    let cmp = st.radial_comparison().unwrap();
    assert!(cmp.disagree);
    let sentence = cmp.sentence();
    assert!(
        sentence.starts_with("push-out passed through pole 0; the ellipsoid stops at"),
        "{sentence}"
    );
    // Drawn: the pole, the push-out path through it, the ellipsoid's end.
    let toggles = &s.overlays;
    let poles = collidoscope::methods::radial_draw::cylinder_primitives(&s.cylinders, toggles);
    assert!(poles.iter().any(|p| p.label.as_deref() == Some("pole 0")));
    let ghost =
        collidoscope::methods::radial_draw::disagreement_primitives(cmp, DVec3::ONE, toggles);
    assert_eq!(ghost.len(), 2);
}

#[test]
fn cylinders_are_edited_deleted_and_saved_with_the_session() {
    let (mut s, i) = probe_and_pole(Method::Radial, 60.0);
    let mut c = s.cylinders[0];
    c.radius = 0.5;
    s.apply(Command::UpdateCylinder(0, c));
    s.apply(Command::RunToEnd);
    let end = s.probes[i].shown_center();
    assert!(
        (end.z + 1.9).abs() < 1e-9,
        "the wider pole holds it earlier: {end:?}"
    );
    // An invalid edit is refused with the reason; the pole stays.
    let bad = Cylinder { radius: -1.0, ..c };
    s.apply(Command::UpdateCylinder(0, bad));
    assert_eq!(s.cylinders[0].radius, 0.5);
    let msg = &s.status.as_ref().expect("an error").text;
    assert!(msg.contains("radius"), "{msg}");
    // Saved with the session; a session from before cylinders loads empty.
    let text = serde_json::to_string(&s).unwrap();
    let back: EditorState = serde_json::from_str(&text).unwrap();
    assert_eq!(back.cylinders, s.cylinders);
    let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
    old.as_object_mut().unwrap().remove("cylinders");
    let back: EditorState = serde_json::from_value(old).unwrap();
    assert!(back.cylinders.is_empty());
    // Deleted: the slide goes its whole way again.
    s.apply(Command::DeleteCylinder(0));
    assert!(s.cylinders.is_empty());
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Ellipsoid;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    s.apply(Command::RunToEnd);
    let end = s.probes[i].shown_center();
    assert!((end.z - 1.0).abs() < 1e-6, "{end:?}");
}

#[test]
fn objects_named_by_the_rule_are_poles_too_numbered_first() {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(-10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, -10.0),
    );
    b.object("tree_oak")
        .cuboid(Vec3::new(-0.2, 0.0, -1.2), Vec3::new(0.2, 3.0, -0.8));
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(Arc::new(Level::from_mesh(
        "trees",
        b.build(),
    ))));
    let i = place(&mut s, 0.0, -3.0, DVec3::new(0.0, 0.0, 4.0));
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Radial;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    s.apply(Command::RunToEnd);
    // The tree's bounding circle: 0.2 * sqrt(2) m, plus the 0.4 m probe.
    let r = 0.2f64.hypot(0.2) + 0.4;
    let end = s.probes[i].shown_center();
    assert!((end.z - (-1.0 - r)).abs() < 1e-4, "{end:?}");
    // A placed pole is numbered after the tree.
    s.apply(Command::PlaceCylinder(DVec3::new(3.0, 0.0, 0.0)));
    assert_eq!(collidoscope::app::cylinders::named_count(&s), 1);
    assert_eq!(collidoscope::app::cylinders::scene_cylinders(&s).len(), 2);
    let msg = &s.status.as_ref().unwrap().text;
    assert!(msg.starts_with("Placed pole 1"), "{msg}");
    // Switched off in the Objects list, the tree is a trigger: no pole,
    // and it says why; the placed pole is then pole 0.
    s.apply(Command::SetObjectColliding(1, false));
    assert_eq!(collidoscope::app::cylinders::named_count(&s), 0);
    assert_eq!(collidoscope::app::cylinders::scene_cylinders(&s).len(), 1);
    let named = collidoscope::app::cylinders::named_objects(&s);
    assert_eq!(named.unusable.len(), 1);
    assert!(
        named.unusable[0].reason.contains("non-colliding"),
        "{named:?}"
    );
}

#[test]
fn invalid_cylinders_of_a_hand_edited_session_are_dropped_with_a_message() {
    let (s, _) = probe_and_pole(Method::Radial, 60.0);
    let mut v: serde_json::Value = serde_json::to_value(&s).unwrap();
    v["cylinders"][0]["radius"] = serde_json::json!(-2.0);
    let mut back: EditorState = serde_json::from_value(v).unwrap();
    collidoscope::app::cylinders::sanitize(&mut back);
    assert!(back.cylinders.is_empty());
    let msg = &back.status.as_ref().unwrap().text;
    assert!(msg.contains("1 cylinder(s)"), "{msg}");
}

#[test]
fn cylinders_are_drawn_only_when_the_radial_method_is_in_play() {
    use collidoscope::app::cylinders::cylinders_drawn;
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(0.0, 0.0, 4.0));
    assert!(!cylinders_drawn(&s), "a slide probe and no placed pole");
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Radial;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert!(cylinders_drawn(&s), "the selected probe moves by radial");
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Ellipsoid;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert!(!cylinders_drawn(&s));
    s.apply(Command::PlaceCylinder(DVec3::new(0.0, 0.0, -1.0)));
    assert!(cylinders_drawn(&s), "a placed pole");
}

#[test]
fn hostile_cylinder_edits_and_sessions_are_refused_and_the_move_stays_finite() {
    let (mut s, i) = probe_and_pole(Method::Radial, 60.0);
    let good = s.cylinders[0];
    let huge = 1e308;
    let edits = [
        (
            "radius",
            Cylinder {
                radius: 0.0,
                ..good
            },
        ),
        (
            "radius",
            Cylinder {
                radius: f64::NAN,
                ..good
            },
        ),
        (
            "radius",
            Cylinder {
                radius: huge,
                ..good
            },
        ),
        (
            "height",
            Cylinder {
                height: 0.0,
                ..good
            },
        ),
        (
            "height",
            Cylinder {
                height: f64::INFINITY,
                ..good
            },
        ),
        (
            "height",
            Cylinder {
                height: huge,
                ..good
            },
        ),
        (
            "base",
            Cylinder {
                base_world: glam::DVec3::new(huge, 0.0, 0.0),
                ..good
            },
        ),
    ];
    for (what, bad) in edits {
        s.status = None;
        s.apply(Command::UpdateCylinder(0, bad));
        assert_eq!(s.cylinders[0], good, "{what} edit was taken");
        let msg = &s.status.as_ref().expect("an error").text;
        assert!(msg.contains(what) && msg.len() < 160, "{msg}");
        s.apply(Command::RunToEnd);
        assert!(s.probes[i].shown_center().is_finite());
    }
    // A hand-edited session: too many cylinders are cut to the limit with a
    // message; a list that is not a list fails to load (no panic).
    let mut v: serde_json::Value = serde_json::to_value(&s).unwrap();
    let many = vec![v["cylinders"][0].clone(); MAX_CYLINDERS + 5];
    v["cylinders"] = serde_json::Value::Array(many);
    let mut back: EditorState = serde_json::from_value(v.clone()).unwrap();
    collidoscope::app::cylinders::sanitize(&mut back);
    assert_eq!(back.cylinders.len(), MAX_CYLINDERS);
    assert!(back.status.is_some());
    v["cylinders"] = serde_json::json!("poles");
    assert!(serde_json::from_value::<EditorState>(v).is_err());
}

/// Walk mode runs on the level the stepper does, with the placed poles'
/// prisms: a walk straight at a pole stops at it (or slides round it),
/// never through it, where the same walk with no pole passes that spot.
#[test]
fn walk_mode_meets_a_placed_pole() {
    let pole = DVec3::new(0.0, 0.0, -5.0);
    let walk = |with_pole: bool| -> Vec<DVec3> {
        let mut s = state_with_room();
        let i = place(&mut s, 0.0, -3.0, DVec3::ZERO);
        if with_pole {
            s.apply(Command::PlaceCylinder(pole));
            assert_eq!(s.cylinders.len(), 1);
        }
        s.selected = Some(i);
        s.apply(Command::SetWalk(true));
        let input = WalkInput {
            wish_dir: -DVec3::Z,
            jump: false,
            dt: 1.0 / 60.0,
        };
        (0..60)
            .map(|_| {
                assert!(walk_frame(&mut s, input));
                s.probes[i].position
            })
            .collect()
    };
    // Closest approach allowed: the probe's 0.4 m plus the prism's flat
    // faces (16 sides round the 0.3 m circle), less a rounding hair.
    let nearest = 0.4 + 0.3 * (std::f64::consts::PI / 16.0).cos() - 0.01;
    let gap = |p: &DVec3| DVec3::new(p.x - pole.x, 0.0, p.z - pole.z).length();
    let free = walk(false);
    assert!(
        free.iter().any(|p| gap(p) < nearest),
        "the free walk passes the spot"
    );
    let blocked = walk(true);
    for p in &blocked {
        assert!(gap(p) >= nearest, "walked into the pole: {p:?}");
    }
    assert!(blocked.last().unwrap().z > pole.z, "{:?}", blocked.last());
}
