//! `collidoscope check`: find a level's steps, openings, slopes and low
//! ceilings, measure them, and walk the character at each for a verdict;
//! as text, JSON or a self-contained HTML report. For level CI, the exit
//! code says whether every finding passes.

use super::args::{CharacterArgs, ImportArgs};
use super::sweep::object_flags;
use super::{CliError, format, print_stdout};
use crate::analysis::checks::{CheckReport, Verdict, check_level, html_report, measurements};
use crate::collide::SlideSettings;
use crate::level::Level;
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Exit code of a check that ran and found a blocked or stalled feature.
pub(crate) const EXIT_FINDINGS_FAIL: i32 = 3;

/// Arguments of `collidoscope check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The level (.obj or .obj.gz).
    level: PathBuf,
    #[command(flatten)]
    character: CharacterArgs,
    /// Name of an object that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    non_colliding: Vec<String>,
    #[command(flatten)]
    import: ImportArgs,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Also write a self-contained HTML report with a drawing of every finding.
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    level: &'a str,
    settings: &'a SlideSettings,
    #[serde(flatten)]
    report: &'a CheckReport,
}

/// Runs the checks; `Ok(true)` when every finding climbs or passes.
pub(crate) fn run(a: &CheckArgs) -> Result<bool, CliError> {
    let settings = a.character.settings()?;
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let report = check_level(&level, world, &settings, &|_| {}, &AtomicBool::new(false))
        .map_err(|e| CliError::Failed(e.to_string()))?
        .ok_or_else(|| CliError::Failed("cancelled".into()))?;
    if let Some(path) = &a.html {
        let page = html_report(&level, world, &settings, &report);
        std::fs::write(path, page)
            .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
    }
    let text = if a.json {
        let json = CheckJson {
            level: &level.name,
            settings: &settings,
            report: &report,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&level, &settings, &report)
    };
    print_stdout(&text)?;
    Ok(report.all_pass())
}

fn text_report(level: &Level, settings: &SlideSettings, r: &CheckReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "level       {} ({} triangles)",
        level.name,
        level.mesh.triangle_count()
    );
    let _ = writeln!(s, "{}", format::character_line(settings));
    let _ = writeln!(
        s,
        "findings    {} (found in {:.0} ms with a {:.2} m cell{}, walked in {:.0} ms; {} ghost corner hits)",
        r.findings.len(),
        r.find_ms,
        r.cell_m,
        if r.coarsened { ", coarsened" } else { "" },
        r.walk_ms,
        r.ghost_hits
    );
    if r.inside_out {
        let _ = writeln!(
            s,
            "warning     the level is wound inside out: its faces point away from where a player \
             stands, so the features were found on their other side; fix the winding in the file"
        );
    }
    let row = |s: &mut String, f: &crate::analysis::checks::Finding| {
        let p = f.feature.position;
        let _ = writeln!(
            s,
            "  {:<8} {:<8} ({:.2}, {:.2}, {:.2})  {}  {}{}{}",
            format::snake_name(&f.feature.kind),
            format::snake_name(&f.verdict),
            p.x,
            p.y,
            p.z,
            measurements(f),
            f.reason,
            f.marginal
                .as_deref()
                .map(|m| format!("  (marginal: {m})"))
                .unwrap_or_default(),
            f.feature
                .object
                .as_deref()
                .map(|o| format!("  [{o}]"))
                .unwrap_or_default()
        );
    };
    for f in r.findings.iter().filter(|f| f.verdict != Verdict::Untested) {
        row(&mut s, f);
    }
    if r.counts.untested > 0 {
        let _ = writeln!(
            s,
            "untested    {} (no walk could reach or test them; they do not fail the check)",
            r.counts.untested
        );
        for f in r.findings.iter().filter(|f| f.verdict == Verdict::Untested) {
            row(&mut s, f);
        }
    }
    let n = &r.counts;
    let _ = writeln!(
        s,
        "verdicts    {} climb, {} pass, {} blocked, {} stall, {} untested ({} marginal)",
        n.climbs, n.passes, n.blocked, n.stalls, n.untested, n.marginal
    );
    if r.findings.iter().any(|f| f.verdict == Verdict::Stalls) {
        let _ = writeln!(
            s,
            "            stalls fit by their measurements yet the walk stopped at them: step through them with `walk`"
        );
    }
    s
}
