//! Level checks against a baseline: the `check --json` report of an
//! earlier run (same level, maybe edited since), so that a level's CI fails
//! on what got worse rather than on every ledge the player must not climb.
//!
//! Each current finding is matched to a baseline finding of the same kind
//! whose position is within [`MATCH_HORIZONTAL_M`] horizontally and
//! [`MATCH_VERTICAL_M`] vertically (world space, Y up, metres): the
//! nearest pair first, each finding matched at most once. A finding left
//! over is **new**, a baseline finding left over is **gone**, a matched pair
//! whose verdict differs is **changed**, the rest are **unchanged**.
//!
//! Verdicts are compared as names, by severity: `climbs` / `passes` and
//! any name this version does not know are ok, `untested` is worse but no
//! failure, `blocked` and `stalls` are failures. A check against a baseline
//! fails only on a new finding that is a failure, or a matched finding that
//! became one (ok or untested before, blocked or stalls now).
//!
//! The baseline is read bounded ([`MAX_BASELINE_BYTES`]), only from a
//! regular file, and leniently: only each finding's `kind` and `position`
//! are required; unknown fields and verdict names are accepted, so a report
//! written by an older or newer version still loads.

use super::CheckReport;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Largest baseline file read, bytes (a real level's report is about 3 KB
/// per finding, so this holds tens of thousands of findings).
pub const MAX_BASELINE_BYTES: u64 = 256 << 20;
/// Largest horizontal distance between a finding and its baseline match,
/// metres (at least two sampling cells when the cell was coarsened).
pub const MATCH_HORIZONTAL_M: f64 = 0.5;
/// Largest vertical distance between a finding and its baseline match, metres.
pub const MATCH_VERTICAL_M: f64 = 0.3;
/// Longest excerpt of a malformed baseline quoted in an error, characters.
const MAX_QUOTED_CHARS: usize = 40;

/// The parts of an earlier `check --json` report a comparison needs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Baseline {
    /// The level's name, when the report has it.
    #[serde(default)]
    pub level: Option<String>,
    /// The character's settings, as written.
    #[serde(default)]
    pub settings: Option<serde_json::Value>,
    /// The sampling cell, metres.
    #[serde(default)]
    pub cell_m: Option<f64>,
    /// The findings, in the report's order.
    pub findings: Vec<BaselineFinding>,
}

/// One finding of a baseline: what it is, where, and its verdict's name.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct BaselineFinding {
    /// `step`, `opening`, `slope`, `ceiling`, ... as written.
    pub kind: String,
    /// On the floor at the feature, world space, metres.
    pub position: [f64; 3],
    /// The verdict's name as written (empty when missing: counts as ok).
    #[serde(default)]
    pub verdict: String,
    /// The object of its main triangle.
    #[serde(default)]
    pub object: Option<String>,
}

/// How bad a verdict is, for comparing a finding with its baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// `climbs`, `passes`, and names this version does not know.
    Ok,
    /// `untested`: no walk could test the feature; never a failure.
    Untested,
    /// `blocked` or `stalls`.
    Failure,
}

/// The severity of a verdict's name.
pub fn severity(verdict: &str) -> Severity {
    match verdict {
        "blocked" | "stalls" => Severity::Failure,
        "untested" => Severity::Untested,
        _ => Severity::Ok,
    }
}

/// How far apart a finding and its baseline match may be, metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tolerance {
    /// Horizontally (x, z).
    pub horizontal_m: f64,
    /// Vertically (y).
    pub vertical_m: f64,
}

impl Tolerance {
    /// [`MATCH_HORIZONTAL_M`] and [`MATCH_VERTICAL_M`].
    pub const DEFAULT: Tolerance = Tolerance {
        horizontal_m: MATCH_HORIZONTAL_M,
        vertical_m: MATCH_VERTICAL_M,
    };

    /// The default tolerance for reports sampled with cells of `cell_m`
    /// metres (see [`Tolerance::widened_for_cell`]).
    pub fn for_cell(cell_m: f64) -> Tolerance {
        Tolerance::DEFAULT.widened_for_cell(cell_m)
    }

    /// This tolerance, horizontally at least two cells of `cell_m` metres.
    pub fn widened_for_cell(self, cell_m: f64) -> Tolerance {
        let cell = if cell_m.is_finite() { cell_m } else { 0.0 };
        Tolerance {
            horizontal_m: self.horizontal_m.max(2.0 * cell),
            vertical_m: self.vertical_m,
        }
    }

    fn admits(&self, a: DVec3, b: DVec3) -> bool {
        let d = a - b;
        d.x.hypot(d.z) <= self.horizontal_m && d.y.abs() <= self.vertical_m
    }
}

/// Candidates kept per finding and round of [`match_findings`]: real
/// reports have at most a few within the tolerance; this bounds the memory a
/// baseline of many findings on one spot can take.
const MAX_CANDIDATES: usize = 16;

/// Matches findings `current` to findings `baseline` (each a kind and a
/// position): pairs of the same kind within `tol`, nearest first (straight
/// line distance; ties by index), each finding in at most one pair. Returns
/// `(current index, baseline index)` pairs, sorted by current index.
///
/// Each finding offers its 16 nearest candidates; one that
/// had more and found all of them taken offers its next nearest free ones
/// in another round, so a crowd of findings on one spot is still matched
/// one to one (nearest first exactly whenever no finding has more).
pub fn match_findings(
    current: &[(&str, DVec3)],
    baseline: &[(&str, DVec3)],
    tol: Tolerance,
) -> Vec<(usize, usize)> {
    // Baseline findings by kind and horizontal cell of the tolerance's size:
    // a match is in the same cell or a neighbour.
    let cell = tol.horizontal_m.max(1e-9);
    let key = |p: DVec3| ((p.x / cell).floor() as i64, (p.z / cell).floor() as i64);
    let mut grid: HashMap<(&str, i64, i64), Vec<usize>> = HashMap::new();
    for (j, &(kind, p)) in baseline.iter().enumerate() {
        let (cx, cz) = key(p);
        grid.entry((kind, cx, cz)).or_default().push(j);
    }
    let by_distance = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let mut used_current = vec![false; current.len()];
    let mut used_baseline = vec![false; baseline.len()];
    let mut matched = Vec::new();
    let mut pending: Vec<usize> = (0..current.len()).collect();
    let mut local: Vec<(f64, usize)> = Vec::new();
    while !pending.is_empty() {
        let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
        let mut crowded = Vec::new();
        for &i in &pending {
            let (kind, p) = current[i];
            let (cx, cz) = key(p);
            local.clear();
            for dx in -1..=1i64 {
                for dz in -1..=1i64 {
                    let k = (kind, cx.saturating_add(dx), cz.saturating_add(dz));
                    for &j in grid.get(&k).into_iter().flatten() {
                        let q = baseline[j].1;
                        if !used_baseline[j] && tol.admits(p, q) {
                            local.push((p.distance(q), j));
                        }
                    }
                }
            }
            // A saturated cell index can list a baseline finding twice.
            local.sort_unstable_by(by_distance);
            local.dedup_by_key(|c| c.1);
            if local.len() > MAX_CANDIDATES {
                local.truncate(MAX_CANDIDATES);
                crowded.push(i);
            }
            pairs.extend(local.iter().map(|&(d, j)| (d, i, j)));
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        for (_, i, j) in pairs {
            if !used_current[i] && !used_baseline[j] {
                used_current[i] = true;
                used_baseline[j] = true;
                matched.push((i, j));
            }
        }
        pending = crowded.into_iter().filter(|&i| !used_current[i]).collect();
    }
    matched.sort_unstable();
    matched
}

/// One finding in a comparison with a baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaselineEntry {
    /// Its index in the current report's `findings` (`None` when gone).
    pub index: Option<usize>,
    /// Its match's index in the baseline's `findings` (`None` when new).
    pub baseline_index: Option<usize>,
    /// `step`, `opening`, `slope`, `ceiling`.
    pub kind: String,
    /// Where it is now (where it was, when gone), world space, metres.
    pub position: [f64; 3],
    /// The object of its main triangle.
    pub object: Option<String>,
    /// The baseline's verdict (`None` when new).
    pub before: Option<String>,
    /// The current verdict (`None` when gone).
    pub after: Option<String>,
    /// Whether it fails the check: new and a failure, or a failure now
    /// that was none in the baseline.
    pub fails: bool,
}

/// A check report compared with a baseline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaselineDiff {
    /// The baseline file, as given.
    pub file: String,
    /// The baseline's level name, when it has one.
    pub level: Option<String>,
    /// Whether the baseline was checked with other character settings.
    pub settings_differ: bool,
    /// How far apart matched findings may be, metres.
    pub tolerance: Tolerance,
    /// New findings that are failures.
    pub new_failures: usize,
    /// Matched findings that became failures.
    pub worsened: usize,
    /// Whether the check fails against the baseline (`new_failures` or
    /// `worsened` above zero).
    pub fails: bool,
    /// Findings with no match in the baseline, failures first.
    pub new: Vec<BaselineEntry>,
    /// Matched findings whose verdict changed, failures first.
    pub changed: Vec<BaselineEntry>,
    /// Baseline findings with no match now.
    pub gone: Vec<BaselineEntry>,
    /// Matched findings with the same verdict.
    pub unchanged: Vec<BaselineEntry>,
}

/// A value's serde name (`"blocked"`, `"step"`), so that verdicts and kinds
/// this module does not list compare by name.
fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// Compares `report` with `baseline` (read from `file`) with the default
/// tolerance; `settings` are the current character's settings as JSON,
/// compared with the baseline's.
pub fn compare(
    report: &CheckReport,
    settings: Option<&serde_json::Value>,
    baseline: &Baseline,
    file: &str,
) -> BaselineDiff {
    compare_within(report, settings, baseline, file, Tolerance::DEFAULT)
}

/// As [`compare`], matching within `tol` (widened to two of either report's
/// sampling cells).
pub fn compare_within(
    report: &CheckReport,
    settings: Option<&serde_json::Value>,
    baseline: &Baseline,
    file: &str,
    tol: Tolerance,
) -> BaselineDiff {
    let tol = tol.widened_for_cell(report.cell_m.max(baseline.cell_m.unwrap_or(0.0)));
    let kinds: Vec<String> = report
        .findings
        .iter()
        .map(|f| serde_name(&f.feature.kind))
        .collect();
    let verdicts: Vec<String> = report
        .findings
        .iter()
        .map(|f| serde_name(&f.verdict))
        .collect();
    let current: Vec<(&str, DVec3)> = report
        .findings
        .iter()
        .zip(&kinds)
        .map(|(f, k)| (k.as_str(), f.feature.position))
        .collect();
    let before: Vec<(&str, DVec3)> = baseline
        .findings
        .iter()
        .map(|b| (b.kind.as_str(), DVec3::from_array(b.position)))
        .collect();
    let matched = match_findings(&current, &before, tol);
    let mut match_of = vec![None; current.len()];
    let mut matched_baseline = vec![false; before.len()];
    for &(i, j) in &matched {
        match_of[i] = Some(j);
        matched_baseline[j] = true;
    }
    let (mut new, mut changed, mut unchanged) = (Vec::new(), Vec::new(), Vec::new());
    for (i, f) in report.findings.iter().enumerate() {
        let after = &verdicts[i];
        let b = match_of[i].map(|j| &baseline.findings[j]);
        let was = b.map_or(Severity::Ok, |b| severity(&b.verdict));
        let fails = severity(after) == Severity::Failure && was != Severity::Failure;
        let entry = BaselineEntry {
            index: Some(i),
            baseline_index: match_of[i],
            kind: kinds[i].clone(),
            position: f.feature.position.to_array(),
            object: f.feature.object.clone(),
            before: b.map(|b| b.verdict.clone()),
            after: Some(after.clone()),
            fails,
        };
        match b {
            None => new.push(entry),
            Some(b) if b.verdict != *after => changed.push(entry),
            Some(_) => unchanged.push(entry),
        }
    }
    let gone: Vec<BaselineEntry> = baseline
        .findings
        .iter()
        .enumerate()
        .filter(|(j, _)| !matched_baseline[*j])
        .map(|(j, b)| BaselineEntry {
            index: None,
            baseline_index: Some(j),
            kind: b.kind.clone(),
            position: b.position,
            object: b.object.clone(),
            before: Some(b.verdict.clone()),
            after: None,
            fails: false,
        })
        .collect();
    // Failures first, each group in report order (stable sort).
    new.sort_by_key(|e| !e.fails);
    changed.sort_by_key(|e| !e.fails);
    let new_failures = new.iter().filter(|e| e.fails).count();
    let worsened = changed.iter().filter(|e| e.fails).count();
    BaselineDiff {
        file: file.to_string(),
        level: baseline.level.clone(),
        settings_differ: match (settings, &baseline.settings) {
            (Some(now), Some(then)) => now != then,
            _ => false,
        },
        tolerance: tol,
        new_failures,
        worsened,
        fails: new_failures + worsened > 0,
        new,
        changed,
        gone,
        unchanged,
    }
}

/// Why a baseline could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BaselineError {
    /// Missing, unreadable, or not a regular file.
    #[error("{path}: {message}")]
    Unreadable {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Larger than [`MAX_BASELINE_BYTES`].
    #[error(
        "{path}: the baseline is larger than the {} MiB a `check --json` report may have{}",
        max >> 20,
        size.map(|s| format!(" ({s} bytes)")).unwrap_or_default()
    )]
    TooLarge {
        /// The file.
        path: String,
        /// Its size when known.
        size: Option<u64>,
        /// The cap, bytes.
        max: u64,
    },
    /// Not the `check --json` output of an earlier run.
    #[error("{path}: not a `check --json` report: {message}")]
    Malformed {
        /// The file.
        path: String,
        /// What is wrong, where, and at most 40 characters of the text there.
        message: String,
    },
}

/// Reads a baseline from `path`: a regular file of at most `max_bytes`,
/// parsed leniently (see the module's documentation).
pub fn read_baseline(path: &Path, max_bytes: u64) -> Result<Baseline, BaselineError> {
    let shown = path.display().to_string();
    let unreadable = |message: String| BaselineError::Unreadable {
        path: shown.clone(),
        message,
    };
    let too_large = |size| BaselineError::TooLarge {
        path: shown.clone(),
        size,
        max: max_bytes,
    };
    // By file type before opening: opening a FIFO would wait for a writer.
    let bytes = crate::fileio::read_bounded(path, max_bytes, "a `check --json` report").map_err(
        |e| match e {
            crate::fileio::ReadError::TooLarge { size, .. } => too_large(size),
            crate::fileio::ReadError::NotRegular(kind) => unreadable(format!(
                "is {kind}, not a regular file (expected the `check --json` output of an earlier run)"
            )),
            e => unreadable(format!("cannot read the baseline: {e}")),
        },
    )?;
    parse_baseline(&bytes).map_err(|message| BaselineError::Malformed {
        path: shown.clone(),
        message,
    })
}

/// Parses a baseline's text; the error says what is wrong and where, and
/// quotes at most 40 characters of the text there.
pub fn parse_baseline(bytes: &[u8]) -> Result<Baseline, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("the file is empty".into());
    }
    serde_json::from_slice(bytes).map_err(|e| {
        let what = shorten_quoted(strip_position(&e.to_string()));
        if e.line() == 0 {
            return what;
        }
        format!(
            "{what} at line {} column {} near '{}'",
            e.line(),
            e.column(),
            excerpt(bytes, e.line(), e.column(), e.is_data())
        )
    })
}

/// serde_json's message without its ` at line L column C`.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    }
}

/// Quoted spans of a message (`"..."`, as serde_json repeats a bad string
/// value) cut to [`MAX_QUOTED_CHARS`] characters.
fn shorten_quoted(message: &str) -> String {
    let mut out = String::new();
    let mut quoted: Option<usize> = None;
    let mut escaped = false;
    for c in message.chars() {
        match quoted {
            None => {
                out.push(c);
                if c == '"' {
                    quoted = Some(0);
                }
            }
            Some(n) => {
                let closing = c == '"' && !escaped;
                escaped = !escaped && c == '\\';
                if closing {
                    if n > MAX_QUOTED_CHARS {
                        out.push('…');
                    }
                    out.push(c);
                    quoted = None;
                } else {
                    if n < MAX_QUOTED_CHARS {
                        out.push(c);
                    }
                    quoted = Some(n + 1);
                }
            }
        }
    }
    if matches!(quoted, Some(n) if n > MAX_QUOTED_CHARS) {
        out.push('…');
    }
    out
}

/// At most [`MAX_QUOTED_CHARS`] characters of `bytes` at `line` and byte
/// `column` (1-based, as serde_json counts): from there on for bad syntax
/// (serde_json points at the bad character), up to there for a value of
/// the wrong type (it points past the value); control characters shown as
/// `?` so the error stays one line.
fn excerpt(bytes: &[u8], line: usize, column: usize, ending_here: bool) -> String {
    let Some(text) = bytes.split(|&b| b == b'\n').nth(line.saturating_sub(1)) else {
        return String::new();
    };
    let at = column.saturating_sub(1).min(text.len());
    let (start, end) = if ending_here {
        let end = (at + 1).min(text.len());
        (end.saturating_sub(MAX_QUOTED_CHARS), end)
    } else {
        (at, (at + 4 * MAX_QUOTED_CHARS).min(text.len()))
    };
    let lossy = String::from_utf8_lossy(&text[start..end]);
    let chars: Vec<char> = lossy.chars().collect();
    // Cutting at a byte can leave a broken character at either end.
    let from = usize::from(start > 0 && chars.first() == Some(&char::REPLACEMENT_CHARACTER));
    let mut out = String::from(if ending_here && start > 0 { "…" } else { "" });
    out += &chars[from..]
        .iter()
        .take(MAX_QUOTED_CHARS)
        .map(|&c| if c.is_control() { '?' } else { c })
        .collect::<String>();
    if chars.len() - from > MAX_QUOTED_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Verdict;
    use super::*;
    use crate::analysis::features::FeatureKind;

    const TOL: Tolerance = Tolerance {
        horizontal_m: MATCH_HORIZONTAL_M,
        vertical_m: MATCH_VERTICAL_M,
    };

    fn at(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3::new(x, y, z)
    }

    #[test]
    fn the_nearest_pair_is_matched_first_and_each_finding_once() {
        // Two baseline steps 0.3 m apart (a staircase's treads); the
        // current ones moved 0.1 m. Nearest first pairs each with its own,
        // not both with the first baseline step.
        let base = [("step", at(0.0, 0.0, 0.0)), ("step", at(0.0, 0.15, 0.3))];
        let now = [("step", at(0.0, 0.15, 0.35)), ("step", at(0.0, 0.0, 0.1))];
        assert_eq!(match_findings(&now, &base, TOL), vec![(0, 1), (1, 0)]);
        // Three current findings near one baseline finding: one match.
        let now = [
            ("step", at(0.2, 0.0, 0.0)),
            ("step", at(0.05, 0.0, 0.0)),
            ("step", at(-0.1, 0.0, 0.0)),
        ];
        assert_eq!(
            match_findings(&now, &base[..1], TOL),
            vec![(1, 0)],
            "the nearest, once"
        );
        // Nearest first even when a farther candidate comes first in order.
        let base = [
            ("opening", at(1.0, 0.0, 0.0)),
            ("opening", at(0.0, 0.0, 0.0)),
        ];
        let now = [("opening", at(0.45, 0.0, 0.0))];
        assert_eq!(match_findings(&now, &base, TOL), vec![(0, 1)]);
    }

    #[test]
    fn a_crowd_on_one_spot_is_matched_one_to_one() {
        // More findings on one spot than candidates kept per round.
        let base: Vec<(&str, DVec3)> = (0..1000).map(|_| ("step", at(1.0, 0.0, 1.0))).collect();
        let now: Vec<(&str, DVec3)> = (0..100).map(|_| ("step", at(1.0, 0.0, 1.0))).collect();
        let m = match_findings(&now, &base, TOL);
        assert_eq!(m.len(), 100);
        let mut b: Vec<usize> = m.iter().map(|p| p.1).collect();
        b.sort_unstable();
        b.dedup();
        assert_eq!(b.len(), 100, "one to one");
        // The other way round: every baseline finding is taken once.
        let m = match_findings(&base, &now, TOL);
        assert_eq!(m.len(), 100);
        // A crowd of near ones and a far one: the nearest are taken first.
        let mut base: Vec<(&str, DVec3)> = (0..40)
            .map(|k| ("step", at(1.0 + 0.001 * k as f64, 0.0, 1.0)))
            .collect();
        base.push(("step", at(1.45, 0.0, 1.0)));
        let now: Vec<(&str, DVec3)> = (0..41).map(|_| ("step", at(1.0, 0.0, 1.0))).collect();
        let m = match_findings(&now, &base, TOL);
        assert_eq!(m.len(), 41);
        assert_eq!(m.iter().filter(|p| p.1 == 40).count(), 1);
        assert_eq!(m.last(), Some(&(40, 40)), "the farthest pair last: {m:?}");
    }

    #[test]
    fn only_the_same_kind_within_the_tolerance_matches() {
        let base = [("step", at(5.0, 1.0, 5.0))];
        // Another kind at the same place.
        assert!(match_findings(&[("slope", at(5.0, 1.0, 5.0))], &base, TOL).is_empty());
        // Horizontally: 0.5 m in any direction is in, beyond is out.
        for (dx, dz, ok) in [
            (0.5, 0.0, true),
            (0.0, -0.5, true),
            (0.35, 0.35, true),
            (0.51, 0.0, false),
            (0.36, 0.36, false),
            (-0.6, 0.0, false),
        ] {
            let now = [("step", at(5.0 + dx, 1.0, 5.0 + dz))];
            assert_eq!(
                match_findings(&now, &base, TOL).len(),
                usize::from(ok),
                "{dx}, {dz}"
            );
        }
        // Vertically: 0.3 m (a storey above is another finding).
        for (dy, ok) in [(0.29, true), (-0.29, true), (0.31, false), (3.0, false)] {
            let now = [("step", at(5.0, 1.0 + dy, 5.0))];
            assert_eq!(
                match_findings(&now, &base, TOL).len(),
                usize::from(ok),
                "{dy}"
            );
        }
        // Across a grid cell boundary (the lookup's cells are 0.5 m).
        let base = [("step", at(0.49, 0.0, -0.01))];
        let now = [("step", at(0.51, 0.0, 0.01))];
        assert_eq!(match_findings(&now, &base, TOL), vec![(0, 0)]);
        // Far-away positions do not overflow the lookup.
        let base = [("step", at(1e300, 0.0, -1e300))];
        let now = [
            ("step", at(1e300, 0.0, -1e300)),
            ("step", at(0.0, 0.0, 0.0)),
        ];
        assert_eq!(match_findings(&now, &base, TOL), vec![(0, 0)]);
    }

    #[test]
    fn a_coarse_cell_widens_the_horizontal_tolerance() {
        assert_eq!(Tolerance::for_cell(0.1), TOL);
        assert_eq!(Tolerance::for_cell(0.4).horizontal_m, 0.8);
        assert_eq!(Tolerance::for_cell(0.4).vertical_m, MATCH_VERTICAL_M);
        assert_eq!(Tolerance::for_cell(f64::NAN), TOL);
        let wide = Tolerance {
            horizontal_m: 1.5,
            vertical_m: 0.6,
        };
        assert_eq!(wide.widened_for_cell(0.4), wide);
        assert_eq!(wide.widened_for_cell(1.0).horizontal_m, 2.0);
    }

    #[test]
    fn severity_orders_ok_untested_and_failures_and_unknown_names_are_ok() {
        assert_eq!(severity("climbs"), Severity::Ok);
        assert_eq!(severity("passes"), Severity::Ok);
        assert_eq!(severity("untested"), Severity::Untested);
        assert_eq!(severity("blocked"), Severity::Failure);
        assert_eq!(severity("stalls"), Severity::Failure);
        assert_eq!(severity("wobbles"), Severity::Ok);
        assert_eq!(severity(""), Severity::Ok);
        assert!(Severity::Ok < Severity::Untested && Severity::Untested < Severity::Failure);
    }

    #[test]
    fn a_baseline_loads_leniently() {
        let text = r#"{"level": "l.obj", "future": [1, 2], "findings": [
            {"kind": "step", "position": [1, 0, 2], "verdict": "wobbles", "marginal": true},
            {"kind": "ramp", "position": [0, 0, 0]}]}"#;
        let b = parse_baseline(text.as_bytes()).unwrap();
        assert_eq!(b.level.as_deref(), Some("l.obj"));
        assert_eq!(b.findings.len(), 2);
        assert_eq!(b.findings[0].verdict, "wobbles");
        assert_eq!(b.findings[1].verdict, "");
        assert_eq!(b.findings[1].kind, "ramp");
    }

    #[test]
    fn a_malformed_baseline_says_where_and_quotes_at_most_40_characters() {
        let e = parse_baseline(b"").unwrap_err();
        assert!(e.contains("empty"), "{e}");
        let garbage = format!("{{\"findings\": [{}]}}", "x".repeat(5000));
        let e = parse_baseline(garbage.as_bytes()).unwrap_err();
        assert!(e.contains("line 1 column 15"), "{e}");
        assert!(e.contains(&format!("'{}…'", "x".repeat(40))), "{e}");
        assert!(!e.contains(&"x".repeat(41)), "{e}");
        // serde repeats a bad string value: cut too.
        let long = format!("{{\"findings\": \"{}\"}}", "y".repeat(5000));
        let e = parse_baseline(long.as_bytes()).unwrap_err();
        assert!(e.contains("invalid type"), "{e}");
        assert!(!e.contains(&"y".repeat(41)), "{e}");
        assert!(e.len() < 300, "{} bytes: {e}", e.len());
        // Not a report, and control characters or broken UTF-8.
        let e = parse_baseline(b"[1, 2]").unwrap_err();
        assert!(e.contains("invalid type"), "{e}");
        let e = parse_baseline(b"{\"findings\": [\x01\n\xff\xfe]}").unwrap_err();
        assert!(!e.contains('\n') && !e.contains('\x01'), "{e}");
        let e = parse_baseline(b"{}").unwrap_err();
        assert!(e.contains("missing field `findings`"), "{e}");
    }

    /// A report of findings `(kind, position, verdict)`, each a copy of a
    /// real finding (a 0.6 m block's riser) with those three set.
    fn report(findings: &[(FeatureKind, DVec3, Verdict)]) -> CheckReport {
        use crate::analysis::generate::LevelBuilder;
        use crate::analysis::generate::parts::{Stairs, floor, staircase};
        use crate::collide::SlideSettings;
        use crate::level::Level;
        use glam::DVec2;
        let mut b = LevelBuilder::new();
        b.add(
            "floor",
            &floor(DVec2::ZERO, DVec2::splat(6.0), 0.0, 0.5, 2.0),
        );
        let stairs = Stairs {
            riser: 0.6,
            tread: 2.0,
            count: 1,
            width: 2.0,
            landing: 0.0,
        };
        b.add("block", &staircase(DVec3::new(2.0, 0.0, 2.0), &stairs));
        let level = Level::from_mesh("block", b.build());
        let mut r = super::super::check_level(
            &level,
            level.world(),
            &SlideSettings::default(),
            &|_| {},
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap()
        .unwrap();
        let template = r.findings[0].clone();
        r.findings = findings
            .iter()
            .map(|&(kind, position, verdict)| {
                let mut f = template.clone();
                f.feature.kind = kind;
                f.feature.position = position;
                f.verdict = verdict;
                f
            })
            .collect();
        r
    }

    fn baseline(findings: &[(&str, DVec3, &str)]) -> Baseline {
        Baseline {
            level: Some("block".into()),
            settings: None,
            cell_m: Some(0.1),
            findings: findings
                .iter()
                .map(|&(kind, p, verdict)| BaselineFinding {
                    kind: kind.into(),
                    position: p.to_array(),
                    verdict: verdict.into(),
                    object: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_comparison_lists_new_changed_gone_and_unchanged_failures_first() {
        use FeatureKind::{Ceiling, Opening, Step};
        use Verdict::{Blocked, Climbs, Passes, Stalls};
        let now = report(&[
            (Step, at(0.0, 0.0, 0.0), Climbs),     // 0: unchanged
            (Step, at(3.0, 0.0, 0.0), Climbs),     // 1: new, ok
            (Step, at(6.0, 0.0, 0.0), Blocked),    // 2: new failure
            (Opening, at(0.0, 0.0, 5.0), Blocked), // 3: was passes: worse
            (Opening, at(2.0, 0.0, 5.0), Stalls),  // 4: was blocked: changed
            (Ceiling, at(4.0, 0.0, 5.0), Blocked), // 5: was untested: worse
        ]);
        let before = baseline(&[
            ("ceiling", at(4.1, 0.1, 5.0), "untested"),
            ("opening", at(2.0, 0.0, 5.2), "blocked"),
            ("opening", at(0.0, 0.0, 4.8), "passes"),
            ("step", at(0.1, 0.0, 0.0), "climbs"),
            ("step", at(9.0, 0.0, 0.0), "blocked"), // gone
        ]);
        let d = compare(&now, None, &before, "b.json");
        let idx = |v: &[BaselineEntry]| -> Vec<(Option<usize>, Option<usize>)> {
            v.iter().map(|e| (e.index, e.baseline_index)).collect()
        };
        assert_eq!(idx(&d.new), vec![(Some(2), None), (Some(1), None)]);
        assert_eq!(
            idx(&d.changed),
            vec![(Some(3), Some(2)), (Some(5), Some(0)), (Some(4), Some(1))]
        );
        assert_eq!(idx(&d.gone), vec![(None, Some(4))]);
        assert_eq!(idx(&d.unchanged), vec![(Some(0), Some(3))]);
        assert_eq!((d.new_failures, d.worsened, d.fails), (1, 2, true));
        let changed: Vec<(&str, &str, bool)> = d
            .changed
            .iter()
            .map(|e| {
                let (b, a) = (e.before.as_deref(), e.after.as_deref());
                (b.unwrap(), a.unwrap(), e.fails)
            })
            .collect();
        assert_eq!(
            changed,
            vec![
                ("passes", "blocked", true),
                ("untested", "blocked", true),
                ("blocked", "stalls", false)
            ]
        );
        assert_eq!(d.gone[0].before.as_deref(), Some("blocked"));
        assert!(!d.gone[0].fails && d.gone[0].after.is_none());
        assert_eq!(d.gone[0].position, [9.0, 0.0, 0.0]);
        // Only the failures that are new or worse fail.
        let now = report(&[
            (Step, at(0.0, 0.0, 0.0), Blocked),
            (Opening, at(0.0, 0.0, 5.0), Passes),
        ]);
        let before = baseline(&[
            ("step", at(0.0, 0.0, 0.0), "stalls"),
            ("opening", at(0.0, 0.0, 5.0), "blocked"),
        ]);
        let d = compare(&now, None, &before, "b.json");
        assert!(!d.fails && d.changed.len() == 2);
        assert!(d.changed.iter().all(|e| !e.fails));
        // `untested` never fails: new, or from ok.
        let now = report(&[
            (Step, at(0.0, 0.0, 0.0), Verdict::Untested),
            (Step, at(5.0, 0.0, 0.0), Verdict::Untested),
        ]);
        let d = compare(
            &now,
            None,
            &baseline(&[("step", at(0.0, 0.0, 0.0), "climbs")]),
            "b",
        );
        assert_eq!((d.new.len(), d.changed.len(), d.fails), (1, 1, false));
        assert_eq!(d.changed[0].after.as_deref(), Some("untested"));
        // Settings compared when both are there.
        let s = serde_json::json!({"radii": [0.4, 0.9, 0.4]});
        let mut before = before;
        assert!(!compare(&now, Some(&s), &before, "b").settings_differ);
        before.settings = Some(serde_json::json!({"radii": [0.5, 0.9, 0.5]}));
        assert!(compare(&now, Some(&s), &before, "b").settings_differ);
        assert!(!compare(&now, None, &before, "b").settings_differ);
    }

    #[test]
    fn shortened_quotes_keep_escapes_and_mark_the_cut() {
        assert_eq!(shorten_quoted(r#"a "b\"c" d"#), r#"a "b\"c" d"#);
        let long = format!("x \"{}\" y", "z".repeat(50));
        assert_eq!(
            shorten_quoted(&long),
            format!("x \"{}…\" y", "z".repeat(40))
        );
        assert_eq!(strip_position("bad at line 3 column 4"), "bad");
    }
}
