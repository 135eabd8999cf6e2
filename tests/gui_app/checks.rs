//! The Checks page as a tree, its filter chips, the pins in the 3D view,
//! the section view zoomed to the opened finding, and the left panel's
//! resizing.

use super::{harness, run_checks};
use collidoscope::app::CollidoscopeApp;
use collidoscope::app::checks::GroupKey;
use collidoscope::collide::debug_draw::{OverlayKind, Shape};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

/// Opens the Checks page and runs the checks on the built-in level.
fn checked() -> Harness<'static, CollidoscopeApp> {
    let mut h = harness();
    h.run_steps(2);
    run_checks(&mut h);
    h.run_steps(3);
    h
}

fn click_at(h: &mut Harness<'static, CollidoscopeApp>, p: egui::Pos2) {
    h.hover_at(p);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        });
    }
    h.run_steps(3);
}

#[test]
fn a_staircase_lists_its_risers_under_it_folded_with_its_worst_verdict() {
    let mut h = checked();
    let st = h.state().state();
    let report = st.checks.report().cloned().expect("findings");
    // The built-in level's staircases, as the core numbered them.
    let flight = report
        .findings
        .iter()
        .filter_map(|f| f.feature.flight)
        .next()
        .expect("the built-in level has a staircase");
    let risers: Vec<usize> = (0..report.findings.len())
        .filter(|&i| report.findings[i].feature.flight == Some(flight))
        .collect();
    assert!(risers.len() >= 2, "a staircase has risers: {risers:?}");
    let groups = st.checks.groups();
    let g = groups
        .iter()
        .find(|g| g.key == GroupKey::Staircase(flight))
        .expect("the staircase is a group");
    let mut members = g.members.clone();
    members.sort();
    assert_eq!(members, risers, "its risers, and only them");
    assert!(
        groups
            .iter()
            .filter(|g| g.key != GroupKey::Staircase(flight))
            .all(|g| g.members.iter().all(|i| !risers.contains(i))),
        "no riser of it elsewhere"
    );
    let worst = collidoscope::app::checks::severity;
    assert!(
        risers
            .iter()
            .all(|&i| worst(report.findings[i].verdict) <= worst(g.worst))
    );
    let header = format!("staircase {} · {} risers · ", flight + 1, risers.len());
    let worst_word = format!("{:?}", g.worst).to_lowercase();
    // Folded at first: the header, with its count and worst verdict, and
    // none of its rows.
    let label = h
        .get_by_label_contains(&header)
        .accesskit_node()
        .label()
        .unwrap_or_default();
    assert!(label.contains(&worst_word), "{label}");
    let row = |i: usize| format!("#{} step ", i + 1);
    assert!(h.query_by_label_contains(&row(risers[0])).is_none());
    h.get_by_label_contains(&header).click();
    h.run_steps(3);
    for &i in &risers {
        h.get_by_label_contains(&row(i));
    }
    // A click on a riser opens it (its walk in the stepper, its section).
    h.get_by_label_contains(&row(risers[1])).click();
    h.run_steps(3);
    assert_eq!(
        h.state().state().checks.open.as_ref().map(|o| o.index),
        Some(risers[1])
    );
    // Folding it again hides its rows.
    h.get_by_label_contains(&header).click();
    h.run_steps(3);
    assert!(h.query_by_label_contains(&row(risers[0])).is_none());
}

#[test]
fn the_filter_chips_say_which_are_on() {
    let mut h = checked();
    let toggled = |h: &Harness<'static, CollidoscopeApp>, label: &str| {
        h.get_by_label(label).accesskit_node().toggled()
    };
    use egui::accesskit::Toggled;
    for chip in ["step", "opening", "climbs", "blocked", "untested"] {
        assert_eq!(toggled(&h, chip), Some(Toggled::True), "{chip} is on");
    }
    assert_eq!(toggled(&h, "marginal only"), Some(Toggled::False));
    h.get_by_label("blocked").click();
    h.run_steps(3);
    assert_eq!(toggled(&h, "blocked"), Some(Toggled::False));
    assert!(!h.state().state().checks.filter.verdicts[2], "blocked off");
    let st = h.state().state();
    let report = st.checks.report().expect("findings");
    assert!(
        st.checks.visible().iter().all(
            |&i| report.findings[i].verdict != collidoscope::analysis::checks::Verdict::Blocked
        )
    );
    h.get_by_label("blocked").click();
    h.run_steps(3);
    assert_eq!(toggled(&h, "blocked"), Some(Toggled::True));
}

/// The heads of the pins drawn, with their centres.
fn pin_heads(h: &Harness<'static, CollidoscopeApp>) -> Vec<(glam::DVec3, f64)> {
    h.state()
        .drawn_overlays()
        .iter()
        .filter(|p| p.kind == OverlayKind::FindingPins)
        .filter_map(|p| match p.shape {
            Shape::Ellipsoid { center, radii } => Some((center, radii.x)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_pin_per_listed_finding_and_a_click_on_one_opens_it() {
    let mut h = checked();
    let visible = h.state().state().checks.visible();
    let heads = pin_heads(&h);
    assert_eq!(heads.len(), visible.len(), "one pin per listed finding");
    // Fewer listed, fewer pins.
    h.get_by_label("step").click();
    h.run_steps(3);
    let visible = h.state().state().checks.visible();
    assert_eq!(pin_heads(&h).len(), visible.len());
    assert!(visible.len() < heads.len());
    // Click the pin of a listed finding: it opens (the camera stays).
    let report = h
        .state()
        .state()
        .checks
        .report()
        .cloned()
        .expect("findings");
    let view = h.state().viewport_rect().expect("the view was laid out");
    let camera = h.state().state().camera;
    let target = visible.iter().copied().find_map(|i| {
        let checks = &h.state().state().checks;
        let (c, _) = collidoscope::app::checks::pin_head(checks, &report.findings[i], false);
        let s = camera.world_to_screen(c.as_vec3(), view.min.into(), view.size().into())?;
        let p = egui::pos2(s[0], s[1]);
        view.shrink(20.0).contains(p).then_some((i, p))
    });
    let (i, p) = target.expect("a pin in the view");
    click_at(&mut h, p);
    let st = h.state().state();
    let opened = st
        .checks
        .open
        .as_ref()
        .map(|o| o.index)
        .expect("a pin opened a finding");
    // Another pin may lie in front of it: the one clicked is under the pointer.
    let ray = camera.screen_ray([p.x, p.y], view.min.into(), view.size().into());
    let under = collidoscope::app::checks::pin_under_ray(
        &st.checks,
        ray.0.as_dvec3(),
        ray.1.as_dvec3(),
        f64::INFINITY,
    );
    assert!(opened == i || Some(opened) == under, "{opened} vs {i}");
    assert_eq!(st.camera, camera, "the camera holds still");
    // The opened pin is drawn larger.
    let big = pin_heads(&h)
        .iter()
        .filter(|(_, r)| *r > 1.5 * h.state().state().checks.pin_radius_m)
        .count();
    assert_eq!(big, 1);
}

/// Opens the first step finding (from its row) and lets the section plot
/// frame it.
fn open_a_step(h: &mut Harness<'static, CollidoscopeApp>) -> usize {
    let report = h
        .state()
        .state()
        .checks
        .report()
        .cloned()
        .expect("findings");
    let i = (0..report.findings.len())
        .find(|&i| {
            report.findings[i].feature.riser_height_m.is_some()
                && !report.findings[i].walks.is_empty()
        })
        .expect("a step with a walk");
    h.state_mut()
        .push(collidoscope::app::command::Command::OpenFinding(i));
    h.run_steps(4);
    i
}

fn bounds(h: &Harness<'static, CollidoscopeApp>) -> ([f64; 2], [f64; 2]) {
    h.state()
        .section_view()
        .bounds
        .expect("the section was drawn")
}

fn wheel(h: &mut Harness<'static, CollidoscopeApp>, at: egui::Pos2, modifiers: egui::Modifiers) {
    h.hover_at(at);
    h.run_steps(1);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, 3.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers,
    });
    h.run_steps(10);
}

#[test]
fn the_section_opens_on_the_riser_and_only_a_modified_wheel_moves_it() {
    let mut h = checked();
    let i = open_a_step(&mut h);
    let view = h.state().section_view().clone();
    let bar = view.bar.clone().expect("a riser bar");
    let (min, max) = bounds(&h);
    let riser = bar.top[1] - bar.foot[1];
    assert!(
        riser >= 0.5 * (max[1] - min[1]),
        "the riser ({riser:.3} m) fills at least half of the plot's {:.3} m",
        max[1] - min[1]
    );
    assert!(
        min[0] <= bar.foot[0] && bar.foot[0] <= max[0],
        "the riser is in view"
    );
    assert!(min[1] <= bar.foot[1] && bar.top[1] <= max[1]);
    let f = &h.state().state().checks.report().unwrap().findings[i];
    let r = f.feature.riser_height_m.unwrap();
    assert!(
        view.labels.contains(&format!("riser {r:.3} m")),
        "{:?}",
        view.labels
    );
    if let Some(t) = f.feature.tread_depth_m {
        assert!(view.labels.contains(&format!("tread {t:.3} m")));
    }
    // Plain wheel: nothing moves.
    let rect = view.rect.expect("the plot's rectangle");
    let opened = bounds(&h);
    wheel(&mut h, rect.center(), egui::Modifiers::NONE);
    assert_eq!(bounds(&h), opened, "the plain wheel leaves the plot alone");
    // Ctrl + wheel zooms.
    wheel(&mut h, rect.center(), egui::Modifiers::COMMAND);
    let zoomed = bounds(&h);
    assert!(
        (zoomed.1[1] - zoomed.0[1]) < 0.95 * (opened.1[1] - opened.0[1]),
        "Ctrl + wheel zooms in: {opened:?} → {zoomed:?}"
    );
    // Reset view brings back the view it opened with.
    h.get_by_label("Reset view").click();
    h.run_steps(3);
    let back = bounds(&h);
    // (egui_plot widens the view by a few per cent while its axes' labels
    // settle: the same view within that.)
    for k in 0..2 {
        let tol = 0.05 * (opened.1[k] - opened.0[k]);
        assert!(
            (back.0[k] - opened.0[k]).abs() < tol,
            "{back:?} vs {opened:?}"
        );
        assert!(
            (back.1[k] - opened.1[k]).abs() < tol,
            "{back:?} vs {opened:?}"
        );
    }
    assert!(riser >= 0.5 * (back.1[1] - back.0[1]));
}

#[test]
fn the_left_panel_is_resized_by_its_edge_and_has_a_minimum() {
    let mut h = harness();
    h.run_steps(3);
    let view = h.state().viewport_rect().expect("the view was laid out");
    let edge = view.left();
    let start = h.state().state().panels.left_width;
    let y = view.center().y;
    let drag = |h: &mut Harness<'static, CollidoscopeApp>, from: f32, to: f32| {
        h.hover_at(egui::pos2(from, y));
        h.run_steps(1);
        h.event(egui::Event::PointerButton {
            pos: egui::pos2(from, y),
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Default::default(),
        });
        h.run_steps(1);
        for k in 1..=5 {
            let x = from + (to - from) * k as f32 / 5.0;
            h.hover_at(egui::pos2(x, y));
            h.run_steps(1);
        }
        h.event(egui::Event::PointerButton {
            pos: egui::pos2(to, y),
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: Default::default(),
        });
        h.run_steps(3);
    };
    // Caught on either side of the edge (half the handle lies over the view).
    drag(&mut h, edge + 2.0, edge + 80.0);
    let wider = h.state().state().panels.left_width;
    assert!(wider > start + 40.0, "dragged wider: {start} → {wider}");
    let edge = h.state().viewport_rect().unwrap().left();
    drag(&mut h, edge - 2.0, 20.0);
    let narrowest = h.state().state().panels.left_width;
    assert_eq!(
        narrowest,
        collidoscope::app::MIN_LEFT_WIDTH,
        "stops at its minimum"
    );
    assert!(h.state().viewport_rect().unwrap().left() >= narrowest);
}

#[test]
fn from_far_away_a_pin_too_small_to_see_is_a_dot_and_a_click_on_it_opens_it() {
    let mut h = checked();
    let view = h.state().viewport_rect().expect("the view was laid out");
    // Zoom well out: every pin head is then a fraction of a pixel.
    h.hover_at(view.center());
    for _ in 0..6 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(2);
    }
    h.run_steps(5);
    let camera = h.state().state().camera;
    let report = h
        .state()
        .state()
        .checks
        .report()
        .cloned()
        .expect("findings");
    let visible = h.state().state().checks.visible();
    let on_screen: Vec<usize> = visible
        .iter()
        .copied()
        .filter(|&i| {
            let (c, _) = collidoscope::app::checks::pin_head(
                &h.state().state().checks,
                &report.findings[i],
                false,
            );
            camera
                .world_to_screen(c.as_vec3(), view.min.into(), view.size().into())
                .is_some_and(|s| view.contains(egui::pos2(s[0], s[1])))
        })
        .collect();
    assert!(!on_screen.is_empty(), "the findings are in view");
    let dots = h.state().pin_dots().to_vec();
    let dotted: Vec<usize> = dots.iter().map(|d| d.0).collect();
    assert_eq!(dotted, on_screen, "a dot for every listed pin in view");
    // A click on a dot (the one farthest from the others) opens its finding.
    let apart = |(j, p): &(usize, egui::Pos2)| {
        dots.iter()
            .filter(|(k, _)| k != j)
            .map(|(_, q)| (*q - *p).length())
            .fold(f32::INFINITY, f32::min)
    };
    let (i, p) = dots
        .iter()
        .copied()
        .max_by(|a, b| apart(a).total_cmp(&apart(b)))
        .expect("a dot");
    assert!(apart(&(i, p)) > 0.0, "dots on top of each other");
    click_at(&mut h, p);
    let opened = h.state().state().checks.open.as_ref().map(|o| o.index);
    assert_eq!(opened, Some(i), "the dot's finding opened");
}

#[test]
fn the_checks_compare_with_another_engine_and_list_what_differs_with_both_reasons() {
    let mut h = harness();
    h.run_steps(2);
    h.get_by_label("Checks").click();
    h.run_steps(2);
    h.get_by_value("no other engine").click();
    h.run_steps(2);
    h.get_by_label("Godot CharacterBody3D").click();
    h.run_steps(2);
    assert_eq!(
        h.state().state().checks.compare_with,
        Some(collidoscope::character::EngineProfile::Godot)
    );
    run_checks(&mut h);
    h.run_steps(3);
    let cmp = h
        .state()
        .state()
        .checks
        .comparison
        .clone()
        .expect("the run compared the profiles");
    let n = h.state().state().checks.report().unwrap().findings.len();
    // Godot has no step-up: the built-in level's climbed steps differ.
    assert!(!cmp.differences.is_empty());
    h.get_by_label(&format!(
        "{} of {n} findings differ under Godot CharacterBody3D",
        cmp.differences.len()
    ));
    // The chip lists only those.
    h.get_by_label("differing only").click();
    h.run_steps(2);
    let visible = h.state().state().checks.visible();
    let mut differing: Vec<usize> = cmp.differences.iter().map(|d| d.index).collect();
    let mut shown = visible.clone();
    differing.sort_unstable();
    shown.sort_unstable();
    assert_eq!(shown, differing);
    // A differing finding, opened, says what Godot's walk did.
    h.state_mut()
        .push(collidoscope::app::command::Command::OpenFinding(
            differing[0],
        ));
    h.run_steps(3);
    h.get_by_label_contains("Under Godot CharacterBody3D: ");
}
