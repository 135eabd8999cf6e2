//! Compare modes and what-if on the editor state: the selected probe's
//! move in every mode with the first divergence (and a click stepping
//! there), and a settings edit shown against the move before it until
//! dismissed.

use super::{place, state_with_room};
use collidoscope::analysis::compare::Aspect;
use collidoscope::analysis::whatif::Flip;
use collidoscope::app::command::Command;
use collidoscope::app::probes::params_of;
use collidoscope::app::state::EditorState;
use collidoscope::collide::SlideMode;
use collidoscope::collide::debug_draw::OverlayKind;
use collidoscope::level::{ImportOptions, Level};
use glam::DVec3;
use std::path::Path;
use std::sync::Arc;

/// The test level's box with a probe resting against its wall and pushing
/// into it (the `sweep --mode all` example in docs/command-line.md).
fn probe_against_the_wall() -> EditorState {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cli_box.obj");
    let level = Level::load(&path, &ImportOptions::default()).unwrap();
    let mut s = EditorState::default();
    s.apply(Command::LevelLoaded(Arc::new(level)));
    s.apply(Command::PlaceProbe {
        point: DVec3::new(0.0, 0.0, 0.0),
        normal: DVec3::Y,
    });
    let i = s.selected.unwrap();
    let mut p = params_of(&s.probes[i]);
    p.position = DVec3::new(2.6, 1.0, 0.0);
    p.velocity = DVec3::X;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    s
}

#[test]
fn against_the_wall_the_modes_diverge_at_the_first_iteration() {
    let mut s = probe_against_the_wall();
    assert!(s.compare.modes.is_none(), "off until asked for");
    s.apply(Command::SetCompareModes(true));
    let m = s.compare.modes.clone().expect("compared");
    let modes: Vec<SlideMode> = m.runs.iter().map(|r| r.mode).collect();
    assert_eq!(modes, SlideMode::ALL.to_vec());
    assert_eq!(m.divergence, Some(0));
    let row = &m.rows[0];
    for aspect in [Aspect::HitTriangle, Aspect::Outcome, Aspect::Embedded] {
        assert!(row.differs.contains(&aspect), "{:?}", row.differs);
    }
    // Robust and Fauerby stay put; Nettle's ends inside the wall after 5.
    assert_eq!(m.runs[0].records.len(), 1);
    assert_eq!(m.runs[2].records.len(), 5);
    assert!(m.runs[2].outcome.embedded && !m.runs[0].outcome.embedded);
    assert_eq!(m.rows.len(), 5);
    // Clicking the divergence steps the probe's own move there.
    s.apply(Command::StepTo(0));
    assert_eq!(s.probes[0].stepper.cursor(), Some(0));
    // Past the probe's own (robust) move: its last iteration, with a word.
    s.apply(Command::StepTo(3));
    assert_eq!(s.probes[0].stepper.cursor(), Some(0));
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .text
            .contains("ends after 1 iterations")
    );
}

#[test]
fn the_comparison_follows_the_probe_and_goes_when_turned_off() {
    let mut s = probe_against_the_wall();
    s.apply(Command::SetCompareModes(true));
    // Away from the wall the modes agree.
    let mut p = params_of(&s.probes[0]);
    p.position = DVec3::new(0.0, 1.0, 0.0);
    s.apply(Command::UpdateProbe(0, Box::new(p)));
    let m = s.compare.modes.clone().unwrap();
    assert_eq!(m.divergence, None);
    assert!(m.runs.iter().all(|r| r.outcome.ending.arrives()));
    s.apply(Command::Select(None));
    assert!(
        s.compare.modes.is_none(),
        "nothing selected, nothing compared"
    );
    s.apply(Command::Select(Some(0)));
    assert!(s.compare.modes.is_some());
    s.apply(Command::SetCompareModes(false));
    assert!(s.compare.modes.is_none());
    assert!(!s.compare.open);
}

#[test]
fn wider_radii_show_the_move_now_stopping_until_dismissed() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(2.0, 0.0, 0.0));
    assert!(s.compare.whatif.is_none(), "placing is not a what-if");
    let mut p = params_of(&s.probes[i]);
    p.settings.radii = [1.0, p.settings.radii[1], 1.0];
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    // A second edit (a drag going on) keeps the first "before".
    p.settings.radii = [1.5, p.settings.radii[1], 1.5];
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    let w = s.compare.whatif.clone().expect("a what-if");
    assert_eq!(w.before_settings.radii[0], 0.4);
    assert!(w.before.ending.arrives() && !w.after.ending.arrives());
    assert_eq!(w.flips[0], Flip::NowStops);
    assert!(matches!(w.flips.last(), Some(Flip::EndMoved { .. })));
    let text = w.summary();
    assert!(
        text.starts_with("radii [0.4,0.9,0.4] to [1.5,0.9,1.5]: now stops short; "),
        "{text}"
    );
    assert!(text.contains("end moved by"), "{text}");
    // Both ghosts are drawn, under the what-if's overlay kind.
    let prims = collidoscope::app::compare_draw::compare_primitives(
        &s.compare,
        s.probes[i].radii(),
        true,
        true,
    );
    let labels: Vec<_> = prims.iter().filter_map(|p| p.label.clone()).collect();
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(labels[0].starts_with("before: arrived"));
    assert!(prims.iter().all(|p| p.kind == OverlayKind::WhatIf));
    s.apply(Command::DismissWhatIf);
    assert!(s.compare.whatif.is_none());
}

#[test]
fn a_skin_edit_names_the_skin_and_moving_the_probe_drops_the_what_if() {
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::new(2.8, 0.0, 0.0));
    let mut p = params_of(&s.probes[i]);
    p.settings.skin = 0.05;
    s.apply(Command::UpdateProbe(i, Box::new(p.clone())));
    let w = s.compare.whatif.clone().expect("a what-if");
    assert!(
        w.summary().starts_with("skin 0.005 to 0.05: "),
        "{}",
        w.summary()
    );
    // Stopping 5 cm instead of 5 mm from the wall.
    assert!(w.flips.contains(&Flip::EndMoved {
        distance_m: w.before.end_w().distance(w.after.end_w())
    }));
    assert!(w.before.end_w().distance(w.after.end_w()) > 0.02);
    // Another move is not what the before was.
    p.position.z += 1.0;
    s.apply(Command::UpdateProbe(i, Box::new(p)));
    assert!(s.compare.whatif.is_none());
}

#[test]
fn a_recorded_walk_is_replayed_in_every_mode_and_a_frame_opens_compared() {
    use collidoscope::app::probes::walk_frame;
    use collidoscope::app::walk::WalkInput;
    let mut s = state_with_room();
    let i = place(&mut s, 0.0, -3.0, DVec3::ZERO);
    s.apply(Command::SetCompareModes(true));
    s.apply(Command::SetWalk(true));
    // Two seconds walking +x into the wall at x = 3.
    for _ in 0..120 {
        let input = WalkInput {
            wish_dir: DVec3::X,
            jump: false,
            dt: 1.0 / 60.0,
        };
        assert!(walk_frame(&mut s, input));
    }
    s.apply(Command::Step);
    assert!(s.compare.walk.is_none(), "not while walking");
    s.apply(Command::SetWalk(false));
    let w = s.compare.walk.clone().expect("the walk compared");
    let c = &w.comparison;
    assert_eq!(c.rows.len(), s.walk.frames.len());
    assert_eq!(c.skipped, 0);
    assert_eq!(c.divergence, c.rows.iter().position(|r| r.differs()));
    for (row, frame) in c.rows.iter().zip(&s.walk.frames) {
        assert_eq!(row.index, frame.spec.index);
    }
    // The robust replay is the walk recorded (the probe's own mode).
    let last = s.walk.frames.back().unwrap().after.position;
    assert!(c.rows.last().unwrap().ends[0].position.distance(last) < 1e-9);
    // Opening a row's frame compares that frame's iterations.
    let k = c.divergence.unwrap_or(c.rows.len() - 1);
    s.apply(Command::OpenWalkFrame(w.recorded_frame(k)));
    assert_eq!(
        s.probes[i].stepper.frame().map(|f| f.index),
        Some(c.rows[k].index)
    );
    let m = s.compare.modes.clone().unwrap();
    assert_eq!(m.frame, Some(c.rows[k].index));
    assert!(m.runs.iter().all(|r| !r.records.is_empty()));
}
