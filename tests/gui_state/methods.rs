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
