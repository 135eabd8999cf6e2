//! The Checks page of the left panel: Run checks (the selected probe's
//! settings, or the defaults), progress and Cancel while it runs, the
//! counts per verdict, filters by kind and verdict, the opened finding's
//! reason, and the findings list (virtualised: thousands of rows stay quick).

use super::{CollidoscopeApp, widgets};
use crate::analysis::checks::{Finding, Verdict, measurements};
use crate::analysis::features::FeatureKind;
use crate::app::checks::{KINDS, VERDICTS};
use crate::app::command::Command;
use eframe::egui::{self, Color32, RichText, text::LayoutJob};

/// Height of one row of the findings list, points.
const ROW_H: f32 = 20.0;

/// The colour of a verdict: green for climbs and passes, red for blocked,
/// orange for stalls, grey for untested.
pub fn verdict_color(v: Verdict) -> Color32 {
    match v {
        Verdict::Climbs | Verdict::Passes => Color32::from_rgb(80, 200, 90),
        Verdict::Blocked => Color32::from_rgb(230, 70, 60),
        Verdict::Stalls => Color32::from_rgb(240, 150, 40),
        Verdict::Untested => Color32::from_rgb(150, 150, 160),
    }
}

/// The colour that marks a marginal finding.
pub const MARGINAL_COLOR: Color32 = Color32::from_rgb(90, 170, 240);

/// A verdict's word.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Climbs => "climbs",
        Verdict::Passes => "passes",
        Verdict::Blocked => "blocked",
        Verdict::Stalls => "stalls",
        Verdict::Untested => "untested",
    }
}

/// A kind's word.
pub fn kind_word(k: FeatureKind) -> &'static str {
    match k {
        FeatureKind::Step => "step",
        FeatureKind::Opening => "opening",
        FeatureKind::Slope => "slope",
        FeatureKind::Ceiling => "ceiling",
    }
}

/// Shows the page (it fills the panel; the list scrolls on its own).
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    run_bar(ui, app);
    let checks = &app.state.checks;
    if let Some(e) = &checks.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let Some(report) = checks.report() else {
        if !checks.running() {
            ui.weak(
                "Finds the level's steps, openings, slopes and low ceilings and walks the \
                 character at each, straight on and at 45°.",
            );
        }
        return;
    };
    let c = report.counts;
    ui.horizontal_wrapped(|ui| {
        for (v, n) in [
            (Verdict::Climbs, c.climbs),
            (Verdict::Passes, c.passes),
            (Verdict::Blocked, c.blocked),
            (Verdict::Stalls, c.stalls),
            (Verdict::Untested, c.untested),
        ] {
            ui.label(RichText::new(format!("{n} {}", verdict_word(v))).color(verdict_color(v)));
        }
        if c.marginal > 0 {
            ui.label(RichText::new(format!("({} marginal)", c.marginal)).color(MARGINAL_COLOR))
                .on_hover_text(
                    "Verdicts within a centimetre (half a degree) of the character's limit",
                );
        }
    });
    if report.inside_out {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            "The level is wound inside out: its faces point away from where a player stands. \
             The features were found on their other side; fix the winding in the file.",
        );
    }
    ui.weak(format!(
        "cell {:.2} m{} · found in {:.0} ms, walked in {:.0} ms · {} ghost corner hits",
        report.cell_m,
        if report.coarsened { " (coarsened)" } else { "" },
        report.find_ms,
        report.walk_ms,
        report.ghost_hits
    ))
    .on_hover_text("Walk iterations stopped or bent by an internal edge of a flat surface");
    filters(ui, app);
    ui.separator();
    opened(ui, app);
    findings_list(ui, app);
}

fn run_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let bar = widgets::RunBar {
        running: app.state.checks.running(),
        progress: app.state.checks.progress,
        run: (
            "Run checks",
            "Check the level in the background (Cancel stops it)",
        ),
        commands: (Command::RunChecks, Command::CancelChecks),
    };
    widgets::run_bar(ui, app, bar);
}

fn filters(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let before = app.state.checks.filter;
    let mut f = before;
    ui.horizontal_wrapped(|ui| {
        for (k, on) in KINDS.iter().zip(f.kinds.iter_mut()) {
            ui.toggle_value(on, kind_word(*k));
        }
    });
    ui.horizontal_wrapped(|ui| {
        for (v, on) in VERDICTS.iter().zip(f.verdicts.iter_mut()) {
            ui.toggle_value(on, RichText::new(verdict_word(*v)).color(verdict_color(*v)))
                .on_hover_text(if v == &Verdict::Untested {
                    "Features no walk could reach or test (never a failure)"
                } else {
                    "Show or hide findings with this verdict"
                });
        }
        ui.toggle_value(
            &mut f.marginal_only,
            RichText::new("marginal only").color(MARGINAL_COLOR),
        )
        .on_hover_text(
            "Only verdicts within a centimetre (half a degree) of the character's limit",
        );
    });
    if f != before {
        app.queue.push(Command::SetChecksFilter(f));
    }
}

/// The opened finding: its reason, wrapped, and the walk that decided it.
fn opened(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let checks = &app.state.checks;
    let (Some(open), Some(f)) = (&checks.open, checks.open_finding()) else {
        ui.weak("Click a finding to open its walk in the stepper.");
        return;
    };
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!(
                "#{} {} {}",
                open.index + 1,
                kind_word(f.feature.kind),
                verdict_word(f.verdict)
            ))
            .strong()
            .color(verdict_color(f.verdict)),
        );
        if ui
            .small_button("Close")
            .on_hover_text("The section plot follows the probe again")
            .clicked()
        {
            app.queue.push(Command::CloseFinding);
        }
    });
    ui.label(&f.reason);
    if let Some(m) = &f.marginal {
        ui.colored_label(MARGINAL_COLOR, format!("Marginal: {m}"));
    }
    ui.weak(format!(
        "walk at {:.0}°, frame {} of {} in the stepper",
        open.angle_deg,
        open.frame,
        open.walk.frames.len()
    ));
    ui.separator();
}

fn findings_list(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let checks = &app.state.checks;
    let Some(report) = checks.report() else {
        return;
    };
    let visible = checks.visible();
    let open = checks.open.as_ref().map(|o| o.index);
    ui.weak(format!(
        "{} of {} findings",
        visible.len(),
        report.findings.len()
    ));
    let text_color = ui.visuals().text_color();
    egui::ScrollArea::vertical()
        .id_salt("findings")
        .auto_shrink([false, false])
        .show_rows(ui, ROW_H, visible.len(), |ui, range| {
            for &i in &visible[range] {
                let f = &report.findings[i];
                let job = row_job(i, f, text_color);
                let row = ui
                    .add(egui::Button::selectable(open == Some(i), job).truncate())
                    .on_hover_text(&f.reason);
                if row.clicked() {
                    app.queue.push(Command::OpenFinding(i));
                }
            }
        });
}

/// A row with the verdict in its colour.
fn row_job(i: usize, f: &Finding, text: Color32) -> LayoutJob {
    let mut job = LayoutJob::default();
    let font = egui::TextFormat {
        color: text,
        ..Default::default()
    };
    let object = f.feature.object.as_deref().unwrap_or("?");
    job.append(
        &format!("#{} {} ", i + 1, kind_word(f.feature.kind)),
        0.0,
        font.clone(),
    );
    job.append(
        verdict_word(f.verdict),
        0.0,
        egui::TextFormat {
            color: verdict_color(f.verdict),
            ..font.clone()
        },
    );
    if f.marginal.is_some() {
        job.append(
            " (marginal)",
            0.0,
            egui::TextFormat {
                color: MARGINAL_COLOR,
                ..font.clone()
            },
        );
    }
    job.append(&format!(" · {} · {object}", measurements(f)), 0.0, font);
    job
}
