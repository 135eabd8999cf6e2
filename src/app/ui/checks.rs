//! The Checks page of the left panel: Run checks (the selected probe's
//! settings, or the defaults), progress and Cancel while it runs, the
//! counts per verdict, filters by kind and verdict, the opened finding's
//! reason, and the findings list (virtualised: thousands of rows stay quick).

use super::{CollidoscopeApp, widgets};
use crate::analysis::checks::{Finding, Verdict, measurements};
use crate::app::checks::{FindingGroup, KINDS, ListRow, VERDICTS};
use crate::app::command::Command;
use crate::character::EngineProfile;
use eframe::egui::{self, Color32, RichText, text::LayoutJob};

/// Height of one row of the findings list, points.
const ROW_H: f32 = 20.0;

/// The colour of a verdict: green for climbs and passes, red for blocked,
/// orange for stalls, grey for untested.
pub fn verdict_color(v: Verdict) -> Color32 {
    widgets::opaque(crate::app::checks::verdict_rgba(v))
}

/// The colour that marks a marginal finding.
pub const MARGINAL_COLOR: Color32 = Color32::from_rgb(90, 170, 240);

/// Shows the page (it fills the panel; the list scrolls on its own).
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    run_bar(ui, app);
    compare_choice(ui, app);
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
            // Each count whole: "27" at the end of a line and "stalls" at
            // the start of the next reads as two things.
            ui.add(
                egui::Label::new(
                    RichText::new(format!("{n} {}", v.word())).color(verdict_color(v)),
                )
                .wrap_mode(egui::TextWrapMode::Extend),
            );
        }
        if c.marginal > 0 {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("({} marginal)", c.marginal)).color(MARGINAL_COLOR),
                )
                .wrap_mode(egui::TextWrapMode::Extend),
            )
            .on_hover_text("Verdicts within a centimetre (half a degree) of the character's limit");
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
    if let Some(cmp) = &checks.comparison
        && let Some(engine) = cmp.engines.get(1)
    {
        ui.colored_label(
            DIFFER_COLOR,
            format!(
                "{} of {} findings differ under {}",
                cmp.differences.len(),
                cmp.findings,
                engine.title()
            ),
        )
        .on_hover_text("The same level checked again with that engine's controller rules");
    }
    filters(ui, app);
    ui.separator();
    opened(ui, app);
    findings_list(ui, app);
}

/// The colour of what differs under the compared engine profile.
const DIFFER_COLOR: Color32 = Color32::from_rgb(120, 190, 255);

/// "Compare with": an engine profile the next run also checks the level
/// under (its own profile is the selected probe's, on the Character page).
fn compare_choice(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let current = app.state.checks.compare_with;
    let mut chosen = current;
    ui.horizontal(|ui| {
        ui.label("compare with").on_hover_text(
            "Also check the level as another engine's controller walks it, and list \
             the findings whose verdict differs, with both reasons",
        );
        // As wide as the panel leaves, the name cut short rather than the
        // panel pushed wider (the chips below must still wrap inside it).
        egui::ComboBox::from_id_salt("checks_compare")
            .width((ui.available_width() - 8.0).max(60.0))
            .truncate()
            .selected_text(current.map_or("no other engine", |e| e.title()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut chosen, None, "no other engine");
                for e in EngineProfile::ALL {
                    ui.selectable_value(&mut chosen, Some(e), e.title());
                }
            });
    });
    let own = app
        .state
        .selected_probe()
        .map_or(EngineProfile::default(), |p| p.settings.character.engine);
    if current == Some(own) {
        ui.weak(format!(
            "The checks already follow {} (the selected probe's engine, on the Character \
             page): choose another to compare.",
            own.title()
        ));
    }
    if chosen != current {
        app.queue.push(Command::SetChecksCompare(chosen));
    }
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

/// A filter chip: filled in its colour with dark text when on, an outline
/// with its word struck through when off, so which are on reads at a
/// glance (and through AccessKit, as a toggle).
fn chip(ui: &mut egui::Ui, on: &mut bool, word: &str, color: Color32) -> egui::Response {
    let text = if *on {
        RichText::new(word).color(Color32::from_gray(20)).strong()
    } else {
        RichText::new(word)
            .color(color.gamma_multiply(0.8))
            .strikethrough()
    };
    let button = egui::Button::new(text)
        .selected(*on)
        .fill(if *on { color } else { Color32::TRANSPARENT })
        .stroke(egui::Stroke::new(
            1.0,
            color.gamma_multiply(if *on { 1.0 } else { 0.6 }),
        ))
        .corner_radius(8.0);
    let r = ui.add(button);
    if r.clicked() {
        *on = !*on;
    }
    r
}

/// The colour of a kind's chip (the kinds have no colour of their own).
const KIND_CHIP: Color32 = Color32::from_rgb(170, 175, 190);

fn filters(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let before = app.state.checks.filter;
    let mut f = before;
    ui.horizontal_wrapped(|ui| {
        for (k, on) in KINDS.iter().zip(f.kinds.iter_mut()) {
            chip(ui, on, k.word(), KIND_CHIP).on_hover_text("Show or hide findings of this kind");
        }
    });
    ui.horizontal_wrapped(|ui| {
        for (v, on) in VERDICTS.iter().zip(f.verdicts.iter_mut()) {
            chip(ui, on, v.word(), verdict_color(*v)).on_hover_text(if v == &Verdict::Untested {
                "Features no walk could reach or test (never a failure)"
            } else {
                "Show or hide findings with this verdict"
            });
        }
        chip(ui, &mut f.marginal_only, "marginal only", MARGINAL_COLOR).on_hover_text(
            "Only verdicts within a centimetre (half a degree) of the character's limit",
        );
        if app.state.checks.comparison.is_some() {
            chip(ui, &mut f.differing_only, "differing only", DIFFER_COLOR)
                .on_hover_text("Only the findings whose verdict differs under the compared engine");
        }
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
                f.feature.kind.word(),
                f.verdict.word()
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
    if let Some(d) = checks.difference(open.index)
        && let Some(Some(theirs)) = d.verdicts.get(1)
    {
        ui.colored_label(
            DIFFER_COLOR,
            format!(
                "Under {}: {} — {}",
                theirs.engine.title(),
                theirs.verdict.word(),
                theirs.reason
            ),
        );
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
    let groups = checks.groups();
    let rows = checks.rows(&groups);
    let open = checks.open.as_ref().map(|o| o.index);
    ui.weak(format!(
        "{} of {} findings · {} group{}",
        visible.len(),
        report.findings.len(),
        groups.len(),
        if groups.len() == 1 { "" } else { "s" }
    ));
    ui.horizontal(|ui| {
        if ui
            .small_button("Unfold all")
            .on_hover_text("List every finding under its staircase or object")
            .clicked()
        {
            app.queue.push(Command::SetAllChecksGroupsOpen(true));
        }
        if ui
            .small_button("Fold all")
            .on_hover_text("One line per staircase and object, with its worst verdict")
            .clicked()
        {
            app.queue.push(Command::SetAllChecksGroupsOpen(false));
        }
    });
    let text_color = ui.visuals().text_color();
    let mut area = egui::ScrollArea::vertical()
        .id_salt("findings")
        .auto_shrink([false, false]);
    // Opened from its pin in the view: scroll its row into the middle.
    if app.state.checks.reveal {
        app.state.checks.reveal = false;
        if let Some(k) = rows
            .iter()
            .position(|r| *r == ListRow::Finding(open.unwrap_or(usize::MAX)))
        {
            let row_h = ROW_H + ui.spacing().item_spacing.y;
            let half = ui.available_height() * 0.5;
            area = area.vertical_scroll_offset((k as f32 * row_h - half).max(0.0));
        }
    }
    let report = app.state.checks.report.clone().map(|(r, _)| r);
    let Some(report) = report else {
        return;
    };
    area.show_rows(ui, ROW_H, rows.len(), |ui, range| {
        for row in &rows[range] {
            match *row {
                ListRow::Group(g) => group_row(ui, app, &groups[g]),
                ListRow::Finding(i) => {
                    let f = &report.findings[i];
                    ui.horizontal(|ui| {
                        ui.add_space(18.0);
                        let (job, full) = row_job(ui, i, f, text_color);
                        let row = ui
                            .add(egui::Button::selectable(open == Some(i), job))
                            .on_hover_text(format!("{full}\n{}", f.reason));
                        if row.clicked() {
                            app.queue.push(Command::OpenFinding(i));
                        }
                    });
                }
            }
        }
    });
}

/// A group's header: fold arrow, name, count, worst verdict (in its
/// colour) and how many are marginal; a click folds or unfolds it.
fn group_row(ui: &mut egui::Ui, app: &mut CollidoscopeApp, g: &FindingGroup) {
    let unfolded = app.state.checks.unfolded.contains(&g.key);
    let n = g.members.len();
    let what = match &g.key {
        crate::app::checks::GroupKey::Staircase(_) => {
            format!("{n} riser{}", if n == 1 { "" } else { "s" })
        }
        _ => format!("{n} finding{}", if n == 1 { "" } else { "s" }),
    };
    // The row says the count and the worst verdict in few words (the
    // hover says them in full): "stairs_a · 3 · blocked · 1 marg.".
    // The font the widths are measured in (egui's TextFormat default is
    // larger than a button's text: the cut rows overflowed with it).
    let font = egui::TextFormat {
        color: ui.visuals().strong_text_color(),
        font_id: egui::TextStyle::Button.resolve(ui.style()),
        ..Default::default()
    };
    let tail = if matches!(g.key, crate::app::checks::GroupKey::Staircase(_)) {
        format!(" · {what} · ")
    } else {
        format!(" · {n} · ")
    };
    let worst = g.worst.word();
    let marginal = if g.marginal > 0 {
        format!(" · {} marg.", g.marginal)
    } else {
        String::new()
    };
    // The name is what gets cut (in its middle) when the panel is narrow.
    let fixed = format!("{tail}{worst}{marginal}");
    let room = row_room(ui) - widths(ui, &fixed) - 26.0;
    let title = g.key.title();
    let name = widgets::elide_middle(&title, room, |s| widths(ui, s));
    let mut job = LayoutJob::default();
    job.append(&name, 0.0, font.clone());
    job.append(&tail, 0.0, font.clone());
    job.append(
        worst,
        0.0,
        egui::TextFormat {
            color: verdict_color(g.worst),
            ..font.clone()
        },
    );
    if !marginal.is_empty() {
        job.append(
            &marginal,
            0.0,
            egui::TextFormat {
                color: MARGINAL_COLOR,
                ..font
            },
        );
    }
    let hover = format!(
        "{title}: {what}, the worst {worst}{}. Click to {}.",
        if g.marginal > 0 {
            format!(", {} marginal", g.marginal)
        } else {
            String::new()
        },
        if unfolded { "fold" } else { "unfold" }
    );
    let r = ui
        .horizontal(|ui| {
            // The fold arrow, painted as egui's collapsing headers do (the
            // fonts have no arrow glyph).
            let (rect, icon) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::click());
            let icon = icon.on_hover_text(&hover);
            let openness = if unfolded { 1.0 } else { 0.0 };
            let mut painted = icon.clone();
            painted.rect = rect;
            egui::collapsing_header::paint_default_icon(ui, openness, &painted);
            let text = ui
                .add(egui::Button::new(job).frame(false))
                .on_hover_text(&hover);
            icon.clicked() || text.clicked()
        })
        .inner;
    if r {
        app.queue
            .push(Command::SetChecksGroupOpen(g.key.clone(), !unfolded));
    }
}

/// Points from the cursor to the list's visible right edge (the panel's
/// clip, which is narrower than the scroll area's content when a row is
/// wide).
fn row_room(ui: &egui::Ui) -> f32 {
    (ui.clip_rect().right() - ui.cursor().left())
        .min(ui.available_width())
        .max(0.0)
}

/// Width of `s` in the body font, points.
fn widths(ui: &egui::Ui, s: &str) -> f32 {
    ui.painter()
        .layout_no_wrap(
            s.to_owned(),
            egui::TextStyle::Button.resolve(ui.style()),
            Color32::WHITE,
        )
        .size()
        .x
}

/// A row with the verdict in its colour; when the row is narrow the
/// object's name is cut first, then the measurements at their end (see
/// `widgets::fit_measured_then_object`; the whole text is returned for the
/// hover).
fn row_job(ui: &egui::Ui, i: usize, f: &Finding, text: Color32) -> (LayoutJob, String) {
    let mut job = LayoutJob::default();
    let font = egui::TextFormat {
        color: text,
        font_id: egui::TextStyle::Button.resolve(ui.style()),
        ..Default::default()
    };
    let object = f.feature.object.as_deref().unwrap_or("?");
    let head = format!("#{} {} ", i + 1, f.feature.kind.word());
    let marginal = if f.marginal.is_some() {
        " (marginal)"
    } else {
        ""
    };
    // The row sits under its staircase's header: its number would only
    // push the riser's height out of the row.
    let measured = measurements(f);
    let measured = match f.feature.flight {
        Some(n) => measured
            .strip_prefix(&format!("staircase {}", n + 1))
            .map(|m| m.trim_start_matches(", ").to_owned())
            .unwrap_or(measured),
        None => measured,
    };
    let full = format!(
        "{head}{}{marginal} · {} · {object}",
        f.verdict.word(),
        measurements(f)
    );
    let fixed = format!("{head}{}{marginal}", f.verdict.word());
    let room =
        ui.available_width() - widths(ui, &fixed) - 2.0 * ui.spacing().button_padding.x - 4.0;
    let rest = widgets::fit_measured_then_object(&measured, object, room, |s| widths(ui, s));
    job.append(&head, 0.0, font.clone());
    job.append(
        f.verdict.word(),
        0.0,
        egui::TextFormat {
            color: verdict_color(f.verdict),
            ..font.clone()
        },
    );
    if !marginal.is_empty() {
        job.append(
            marginal,
            0.0,
            egui::TextFormat {
                color: MARGINAL_COLOR,
                ..font.clone()
            },
        );
    }
    job.append(&rest, 0.0, font);
    (job, full)
}
