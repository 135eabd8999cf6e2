//! A probe moving by another method than the slide: selected in the probe
//! editor, stepped by the same stepper, saved with the session.

use super::*;
use collidoscope::methods::{Method, MethodSettings, StepDetail, TriggerKind};

#[test]
fn a_discrete_probe_steps_its_fixed_steps_and_keeps_its_method_in_the_session() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(4.0, 0.0, 0.0));
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Discrete;
    p.method_settings = MethodSettings {
        step_hz: 10.0,
        ..MethodSettings::default()
    };
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    let st = &s.probes[i].stepper;
    assert_eq!(st.step_count(), 10, "1 s at 10 Hz");
    assert!(st.current_record().is_none() && st.cursor().is_none());
    assert!(st.tunnel_rule().is_some());
    s.apply(Command::Step);
    s.apply(Command::Step);
    let st = &s.probes[i].stepper;
    let step = st.current_method_step().expect("the second step is shown");
    assert_eq!(step.index, 1);
    assert_eq!(s.probes[i].shown_center(), step.end);
    s.apply(Command::StepBack);
    assert_eq!(s.probes[i].stepper.cursor(), Some(0));
    s.apply(Command::RunToEnd);
    let st = &s.probes[i].stepper;
    assert_eq!(st.cursor(), Some(9));
    // The wall at x = 3 stops it (0.4 m radius, skin).
    let end = s.probes[i].shown_center();
    assert!(end.x < 2.6 && end.x > 2.5, "{end:?}");
    assert!(
        st.method_trace()
            .unwrap()
            .iterations
            .iter()
            .any(|r| matches!(
                &r.detail,
                StepDetail::Discrete(d) if d.contact.is_some()
            ))
    );
    // Saved with the session; a session without it takes the slide.
    let text = serde_json::to_string(&s).unwrap();
    let back: EditorState = serde_json::from_str(&text).unwrap();
    assert_eq!(back.probes[0].method, Method::Discrete);
    assert_eq!(back.probes[0].method_settings.step_hz, 10.0);
    // Back to the slide: the stepper runs the solver again.
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Ellipsoid;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    s.apply(Command::Step);
    assert!(s.probes[i].stepper.current_record().is_some());
    assert!(s.probes[i].stepper.method_trace().is_none());
}

#[test]
fn a_discrete_probe_records_trigger_events_and_bad_rates_are_refused() {
    let mut s = state_with_room();
    let i = place(&mut s, -1.0, -3.0, DVec3::new(-4.0, 0.0, 0.0));
    s.apply(Command::SetObjectColliding(3, false));
    let mut p = params_of(&s.probes[i]);
    p.method = Method::Discrete;
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    s.apply(Command::RunToEnd);
    let trace = s.probes[i].stepper.method_trace().unwrap();
    let events: Vec<TriggerKind> = trace
        .iterations
        .iter()
        .filter_map(|r| r.detail.as_discrete())
        .flat_map(|d| d.trigger_events.iter().map(|e| e.kind))
        .collect();
    assert_eq!(events, vec![TriggerKind::Enter, TriggerKind::Exit]);
    assert!((trace.final_position.x - (p.position.x - 4.0)).abs() < 1e-9);
    p.method_settings.step_hz = -1.0;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert_eq!(s.probes[i].method_settings.step_hz, 60.0, "refused");
    assert!(
        s.settings_error
            .as_deref()
            .unwrap_or("")
            .contains("step rate")
    );
}

#[test]
fn the_box_chain_runs_on_a_walk_recorded_on_the_built_in_level() {
    use collidoscope::analysis::boxcam::test_chain_colliding;
    use collidoscope::app::box_chain::walk_path;
    let mut s = EditorState::default();
    s.apply(Command::OpenBuiltinLevel);
    let level = s.level.clone().unwrap();
    // In front of the 0.15 m stairs (x 0 to 2, z 0 to 3.3).
    let i = place(&mut s, 1.0, -1.5, DVec3::ZERO);
    s.apply(Command::BoxChainOnWalk);
    assert!(s.probes[i].stepper.box_chain().is_none(), "no walk yet");
    assert!(s.status.as_ref().unwrap().text.contains("Record a walk"));
    s.apply(Command::SetWalk(true));
    for _ in 0..90 {
        let input = WalkInput {
            wish_dir: DVec3::Z,
            jump: false,
            dt: 1.0 / 60.0,
        };
        assert!(walk_frame(&mut s, input));
    }
    s.apply(Command::BoxChainOnWalk);
    assert!(!s.walk.active, "the chain stops walking");
    let path = walk_path(&s);
    assert_eq!(path[0], s.walk.frames[0].start());
    assert!(path.len() > 60, "{} points", path.len());
    let p = &s.probes[i];
    let chain = *p.stepper.box_chain().expect("the chain is shown");
    assert_eq!(chain.segments, path.len() - 1);
    assert_eq!(p.stepper.step_count(), chain.segments);
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .text
            .starts_with("Box chain on the walk")
    );
    // The same four levels as `boxcam --path` on the walk's points.
    let expected = test_chain_colliding(level.mesh(), &path, p.radii(), None).unwrap();
    let trace = p.stepper.method_trace().unwrap().clone();
    assert_eq!(trace.method, Method::Box);
    let triangles = level.mesh().triangle_count();
    for (step, seg) in trace.iterations.iter().zip(&expected.segments) {
        let r = step.detail.as_box().unwrap();
        assert_eq!(r, &seg.report);
        assert_eq!((step.start, step.end), (seg.from, seg.to));
        // Every triangle is settled by exactly one level, or crossed.
        assert_eq!(r.rejected.iter().sum::<usize>() + r.colliding, triangles);
    }
    // Climbing the stairs, the box's corners cut the steps.
    assert!(
        chain.colliding_segments > 0 && chain.colliding_triangles > 0,
        "{chain:?}"
    );
    // A straight walk: its per-segment boxes pass what one whole box does.
    assert!(
        chain.whole_box_candidates >= chain.segment_candidates,
        "{chain:?}"
    );
    // Stepped like a move: the cursor shows a crossing segment.
    let k = trace
        .iterations
        .iter()
        .position(|s| s.detail.as_box().unwrap().colliding > 0)
        .unwrap();
    s.apply(Command::Seek(Some(k)));
    let p = &s.probes[i];
    assert_eq!(p.stepper.current_method_step().unwrap().index as usize, k);
    assert_eq!(p.shown_center(), trace.iterations[k].end);
    // Back to the probe's own move.
    s.apply(Command::CloseFrame);
    let p = &s.probes[i];
    assert!(p.stepper.box_chain().is_none() && p.stepper.method_trace().is_none());
}
