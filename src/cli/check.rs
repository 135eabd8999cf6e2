//! `collidoscope check`: find a level's steps, openings, slopes and low
//! ceilings, measure them, and walk the character at each for a verdict;
//! as text, JSON or a self-contained HTML report. For level CI, the exit
//! code says whether every finding passes.

use super::args::{CharacterArgs, ImportArgs};
use super::sweep::object_flags;
use super::{CliError, format, print_stdout, write_failed};
use crate::analysis::checks::baseline::{
    BaselineDiff, BaselineEntry, MAX_BASELINE_BYTES, Tolerance, compare_within, read_baseline,
};
use crate::analysis::checks::{
    CheckReport, ProfileComparison, Verdict, check_level, compare_profiles, html_report,
    measurements,
};
use crate::collide::SlideSettings;
use crate::fileio::{self, WriteRules};
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
    /// Replace the --html file if it exists (never one of the command's inputs).
    #[arg(long, requires = "html")]
    force: bool,
    /// Compare with an earlier run's `check --json` output: fail (exit 3)
    /// only on new or worsened failures.
    #[arg(long, value_name = "PREVIOUS.json")]
    baseline: Option<PathBuf>,
    /// With --baseline: how far a finding may be from its baseline match,
    /// horizontally and vertically, metres.
    #[arg(long, value_name = "H,V", default_value = "0.5,0.3", requires = "baseline",
          value_parser = parse_tolerance, allow_hyphen_values = true)]
    match_within: Tolerance,
}

/// `H,V`: two finite distances, each above zero and at most 100 m.
fn parse_tolerance(text: &str) -> Result<Tolerance, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [h, v] = parts[..] else {
        return Err(format!(
            "expected two comma-separated distances H,V (metres), got {} value{}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" }
        ));
    };
    let mut out = [0.0; 2];
    for (slot, (t, what)) in out.iter_mut().zip([(h, "horizontal"), (v, "vertical")]) {
        let x: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("{what} distance '{}' is not a number", t.trim()))?;
        if !(x > 0.0 && x <= 100.0) {
            return Err(format!(
                "{what} distance {x} must be above 0 and at most 100 m"
            ));
        }
        *slot = x;
    }
    Ok(Tolerance {
        horizontal_m: out[0],
        vertical_m: out[1],
    })
}

#[derive(Serialize)]
struct CheckJson<'a> {
    level: &'a str,
    settings: &'a SlideSettings,
    #[serde(flatten)]
    report: &'a CheckReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineDiff>,
}

/// Runs the checks; `Ok(true)` when every finding climbs or passes (with
/// `--baseline`: when no finding is a new or worsened failure).
pub(crate) fn run(a: &CheckArgs) -> Result<bool, CliError> {
    let inputs: Vec<PathBuf> = [
        Some(&a.level),
        a.character.settings.as_ref(),
        a.baseline.as_ref(),
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    let rules = WriteRules::new().force(a.force).inputs(&inputs);
    // Before the work: a report that could not be written fails fast.
    if let Some(path) = &a.html {
        fileio::check_target(path, &rules).map_err(|e| write_failed(path, e))?;
    }
    let per_engine = a.character.settings_per_engine()?;
    if per_engine.len() > 1 {
        return run_comparison(a, &per_engine);
    }
    let settings = a.character.settings()?;
    // Before the level's work: a bad baseline fails fast.
    let baseline = match &a.baseline {
        Some(path) => Some((
            path.display().to_string(),
            read_baseline(path, MAX_BASELINE_BYTES).map_err(|e| CliError::Failed(e.to_string()))?,
        )),
        None => None,
    };
    let level = Level::load(&a.level, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let report = check_level(&level, world, &settings, &|_| {}, &AtomicBool::new(false))
        .map_err(|e| CliError::Failed(e.to_string()))?
        .ok_or_else(|| CliError::Failed("cancelled".into()))?;
    if let Some(path) = &a.html {
        let page = html_report(&level, world, &settings, &report);
        fileio::write_bytes(path, page.as_bytes(), &rules).map_err(|e| write_failed(path, e))?;
    }
    let diff = baseline.map(|(file, b)| {
        let now = serde_json::to_value(&settings).ok();
        compare_within(&report, now.as_ref(), &b, &file, a.match_within)
    });
    let text = if a.json {
        let json = CheckJson {
            level: &level.name,
            settings: &settings,
            report: &report,
            baseline: diff.as_ref(),
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        let mut text = text_report(&level, &settings, &report);
        if let Some(d) = &diff {
            text.push_str(&baseline_text(&level, &report, d));
        }
        text
    };
    print_stdout(&text)?;
    Ok(match &diff {
        Some(d) => !d.fails,
        None => report.all_pass(),
    })
}

#[derive(Serialize)]
struct ComparisonJson<'a> {
    level: &'a str,
    settings: &'a SlideSettings,
    #[serde(flatten)]
    comparison: &'a ProfileComparison,
}

/// `check --engine A --engine B ...`: the level checked once per profile,
/// then the findings whose verdict differs, with every profile's reason.
/// `Ok(true)` when every profile passes every finding.
fn run_comparison(a: &CheckArgs, per_engine: &[SlideSettings]) -> Result<bool, CliError> {
    if a.baseline.is_some() || a.html.is_some() {
        return Err(CliError::Usage(
            "--baseline and --html check one profile: give --engine once with them".into(),
        ));
    }
    let level = Level::load(&a.level, &a.import.options())?;
    let first = &per_engine[0];
    let colliding = object_flags(&level, &a.non_colliding, &first.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let mut reports = Vec::new();
    for s in per_engine {
        let report = check_level(&level, world, s, &|_| {}, &AtomicBool::new(false))
            .map_err(|e| CliError::Failed(e.to_string()))?
            .ok_or_else(|| CliError::Failed("cancelled".into()))?;
        reports.push((s.character.engine, report));
    }
    let pairs: Vec<_> = reports.iter().map(|(e, r)| (*e, r)).collect();
    let comparison = compare_profiles(&pairs);
    let text = if a.json {
        let json = ComparisonJson {
            level: &level.name,
            settings: first,
            comparison: &comparison,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        comparison_text(&level, first, &comparison)
    };
    print_stdout(&text)?;
    Ok(reports.iter().all(|(_, r)| r.all_pass()))
}

/// The comparison as text: each profile's counts, then one block per
/// differing finding with every profile's verdict and reason.
fn comparison_text(level: &Level, settings: &SlideSettings, c: &ProfileComparison) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "level       {} ({} triangles)",
        level.name,
        level.mesh.triangle_count()
    );
    let _ = writeln!(s, "{}", format::character_line(settings));
    for (e, n) in c.engines.iter().zip(&c.counts) {
        let _ = writeln!(
            s,
            "{:<11} {} climb, {} pass, {} blocked, {} stall, {} untested  ({})",
            e.name(),
            n.climbs,
            n.passes,
            n.blocked,
            n.stalls,
            n.untested,
            e.title()
        );
    }
    let _ = writeln!(
        s,
        "differ      {} of {} findings",
        c.differences.len(),
        c.findings
    );
    for d in &c.differences {
        let p = d.position;
        let _ = writeln!(
            s,
            "  {:<8} ({:.2}, {:.2}, {:.2})",
            format::snake_name(&d.kind),
            p.x,
            p.y,
            p.z
        );
        for (e, v) in c.engines.iter().zip(&d.verdicts) {
            match v {
                Some(v) => {
                    let _ = writeln!(
                        s,
                        "    {:<12} {:<8} {}",
                        e.name(),
                        format::snake_name(&v.verdict),
                        v.reason
                    );
                }
                None => {
                    let _ = writeln!(s, "    {:<12} not found by this profile's finder", e.name());
                }
            }
        }
    }
    s
}

/// The comparison with a baseline: a summary line, then the new and
/// changed findings (failures first) and the gone ones, one line each.
fn baseline_text(level: &Level, r: &CheckReport, d: &BaselineDiff) -> String {
    let mut s = String::new();
    let t = &d.tolerance;
    let _ = writeln!(
        s,
        "baseline    {}: {} new, {} changed, {} gone, {} unchanged (matched by kind within {:.2} m across and {:.2} m up or down)",
        shown(&d.file),
        d.new.len(),
        d.changed.len(),
        d.gone.len(),
        d.unchanged.len(),
        t.horizontal_m,
        t.vertical_m
    );
    if let Some(other) = d.level.as_deref().filter(|l| *l != level.name) {
        let _ = writeln!(s, "            the baseline is of level {}", shown(other));
    }
    if d.settings_differ {
        let _ = writeln!(
            s,
            "            the baseline was checked with other character settings"
        );
    }
    let failing = d.new.iter().chain(&d.changed).filter(|e| e.fails);
    let others = d.new.iter().chain(&d.changed).filter(|e| !e.fails);
    for e in failing.chain(others).chain(&d.gone) {
        let _ = writeln!(s, "{}", baseline_line(r, e));
    }
    let failures = d.new_failures + d.worsened;
    if failures == 0 {
        let _ = writeln!(s, "            no new or worsened failures");
    } else {
        let _ = writeln!(
            s,
            "            {} new or worsened failure{} ({} new, {} worsened)",
            failures,
            if failures == 1 { "" } else { "s" },
            d.new_failures,
            d.worsened
        );
    }
    s
}

/// `  new      step     blocked  (x, y, z)  measurements  [object]  FAILS`.
fn baseline_line(r: &CheckReport, e: &BaselineEntry) -> String {
    let status = match (&e.before, &e.after) {
        (None, _) => "new",
        (_, None) => "gone",
        _ => "changed",
    };
    let verdict = match (&e.before, &e.after) {
        (Some(b), Some(a)) => format!("{} → {}", verdict_name(b), verdict_name(a)),
        (Some(v), None) | (None, Some(v)) => verdict_name(v),
        (None, None) => String::new(),
    };
    let [x, y, z] = e.position;
    let mut line = format!(
        "  {status:<8} {:<8} {:<8} ({x:.2}, {y:.2}, {z:.2})",
        shown(&e.kind),
        verdict
    );
    if let Some(f) = e.index.and_then(|i| r.findings.get(i)) {
        let _ = write!(line, "  {}", measurements(f));
    }
    if let Some(o) = &e.object {
        let _ = write!(line, "  [{}]", shown(o));
    }
    if e.fails {
        line.push_str("  FAILS");
    }
    line
}

/// A verdict's name as shown, `?` when the baseline has none.
fn verdict_name(verdict: &str) -> String {
    if verdict.is_empty() {
        "?".into()
    } else {
        shown(verdict)
    }
}

/// Longest text from a baseline file a line repeats, characters.
const MAX_SHOWN_CHARS: usize = 80;

/// Text read from a baseline as a line shows it: control characters (a
/// newline, a terminal escape) as `?`, at most [`MAX_SHOWN_CHARS`].
fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(MAX_SHOWN_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(MAX_SHOWN_CHARS).is_some() {
        out.push('…');
    }
    out
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
