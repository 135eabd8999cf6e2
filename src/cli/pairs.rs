//! `collidoscope pairs PROBES.json`: probes moving at the same time, every
//! pair through the swept bounding-sphere test (world space, metres; time
//! as the fraction of the move). The probes file is a JSON array:
//! `[{"name": "A", "from": [x, y, z], "velocity": [x, y, z], "radii": [rx, ry, rz]}]`
//! (`name` and `radii` optional).

use super::{CliError, format, print_stdout};
use crate::analysis::probe_pairs::{PairProbe, PairsReport, test_pairs};
use crate::collide::SlideSettings;
use crate::geometry::sphere_sphere::SphereSweepOutcome;
use clap::Args;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Largest probes file read, bytes.
const MAX_PROBES_FILE_BYTES: u64 = 64 << 20;

/// Arguments of `collidoscope pairs`.
#[derive(Debug, Args)]
pub(crate) struct PairsArgs {
    /// JSON array of probes: {"name", "from", "velocity", "radii"} (world space, metres).
    probes: PathBuf,
    /// Print the probes and every tested pair as JSON.
    #[arg(long)]
    json: bool,
}

/// One probe as written in the file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProbeEntry {
    name: Option<String>,
    from: [f64; 3],
    velocity: [f64; 3],
    radii: Option<[f64; 3]>,
}

#[derive(Serialize)]
struct PairsJson<'a> {
    probes: &'a [PairProbe],
    #[serde(flatten)]
    report: &'a PairsReport,
}

pub(crate) fn run(a: &PairsArgs) -> Result<(), CliError> {
    let probes = read_probes(&a.probes)?;
    let report = test_pairs(&probes)
        .map_err(|e| CliError::Failed(format!("{}: {e}", a.probes.display())))?;
    let text = if a.json {
        let json = PairsJson {
            probes: &probes,
            report: &report,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&probes, &report)
    };
    print_stdout(&text)
}

/// Reads and parses the probes file; errors name the file, line and column.
pub(crate) fn read_probes(path: &Path) -> Result<Vec<PairProbe>, CliError> {
    let fail = |why: String| CliError::Failed(format!("{}: {why}", path.display()));
    let text = crate::fileio::read_text_bounded(path, MAX_PROBES_FILE_BYTES, "a probes file")
        .map_err(|e| fail(e.to_string()))?;
    let entries: Vec<ProbeEntry> = serde_json::from_str(&text).map_err(|e| {
        let message = crate::quote::bounded_message(&e.to_string());
        // serde_json's message ends with the line and column.
        CliError::Failed(format!("{}: {message}", path.display()))
    })?;
    let default_radii = SlideSettings::default().radii;
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| PairProbe {
            name: e.name.unwrap_or_else(|| format!("Probe {}", i + 1)),
            from: DVec3::from(e.from),
            velocity: DVec3::from(e.velocity),
            radii: DVec3::from(e.radii.unwrap_or(default_radii)),
        })
        .collect())
}

fn text_report(probes: &[PairProbe], r: &PairsReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} probes, {} pairs; {} tested after the sort along x; {} collide",
        r.probe_count, r.pair_count, r.tested_count, r.colliding_count
    );
    for p in &r.pairs {
        let (a, b) = (&probes[p.a].name, &probes[p.b].name);
        let verdict = match (p.outcome, p.contact) {
            (SphereSweepOutcome::Overlapping, Some(c)) => {
                format!("overlapping at the start, at {}", format::vec(c.point))
            }
            (SphereSweepOutcome::Hit { t }, Some(c)) => {
                format!("contact at t = {t:.4}, at {}", format::vec(c.point))
            }
            (SphereSweepOutcome::Miss { reason }, _) => {
                format!(
                    "no contact ({})",
                    format::snake_name(&reason).replace('_', " ")
                )
            }
            _ => "no contact".to_string(),
        };
        let c = &p.closest;
        let closest = if c.gap < 0.0 {
            format!("overlapping {:.4} m", -c.gap)
        } else {
            format!("{:.4} m apart", c.gap)
        };
        let _ = writeln!(
            s,
            "{a} x {b}: {verdict}; closest at t = {:.4}: {closest} (centres {:.4} m)",
            c.t, c.center_distance
        );
    }
    s
}
