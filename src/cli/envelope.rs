//! `collidoscope envelope`: what a character with given settings can do,
//! measured by walking it over generated courses (metres and degrees).

use super::args::CharacterArgs;
use super::{CliError, format, print_stdout};
use crate::analysis::envelope::{Envelope, Limit, envelope};
use crate::collide::SlideSettings;
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;

/// Arguments of `collidoscope envelope`.
#[derive(Debug, Args)]
pub(crate) struct EnvelopeArgs {
    #[command(flatten)]
    character: CharacterArgs,
    /// Print the envelope and the walks that decided it as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct EnvelopeJson<'a> {
    settings: &'a SlideSettings,
    #[serde(flatten)]
    envelope: &'a Envelope,
}

pub(crate) fn run(a: &EnvelopeArgs) -> Result<(), CliError> {
    let settings = a.character.settings()?;
    let e = envelope(&settings).map_err(|e| CliError::Failed(e.to_string()))?;
    let text = if a.json {
        let json = EnvelopeJson {
            settings: &settings,
            envelope: &e,
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&settings, &e)
    };
    print_stdout(&text)
}

fn text_report(settings: &SlideSettings, e: &Envelope) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", format::character_line(settings));
    let rows: [(&str, &Limit, &str, bool); 6] = [
        ("tallest step, standing", &e.max_step_height_m, "m", true),
        (
            "tallest step, running",
            &e.max_step_height_running_m,
            "m",
            true,
        ),
        ("steepest ramp", &e.max_slope_deg, "°", true),
        ("narrowest opening", &e.min_opening_width_m, "m", false),
        ("lowest ceiling", &e.min_opening_height_m, "m", false),
        ("widest gap crossed", &e.max_gap_crossed_m, "m", true),
    ];
    for (name, limit, unit, larger_fails) in rows {
        let _ = writeln!(s, "{}", limit_line(name, limit, unit, larger_fails));
    }
    s
}

/// `tallest step, standing   0.3050 m  (0.3060 m fails: ...)`
fn limit_line(name: &str, l: &Limit, unit: &str, larger_fails: bool) -> String {
    let mut line = format!("{name:<24} {:>8.4} {unit}", l.value);
    if !l.found {
        let _ = write!(line, "  (fails even at {:.4} {unit})", l.value);
        return line;
    }
    match (l.failed_at, &l.fail_walk) {
        (Some(bad), Some(w)) => {
            let why = w
                .last_step_rejection
                .filter(|_| larger_fails)
                .map(|r| r.describe())
                .unwrap_or(if w.stalled_at_frame.is_some() {
                    "stalled"
                } else {
                    "did not get past"
                });
            let _ = write!(line, "  ({bad:.4} {unit}: {why}; {} walks)", l.walks);
        }
        _ => {
            let _ = write!(line, "  (every size tried passed; {} walks)", l.walks);
        }
    }
    line
}
