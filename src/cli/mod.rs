//! The `collidoscope` command line (clap 4): `info`, `sweep`, `walk`,
//! `envelope`, `check`, `map`, `repro`, `replay`, `settings export|check`,
//! `pairs`, `boxcam`, and with no subcommand the desktop window.
//!
//! Everything here works in world space (Y up, metres); the solver's trace
//! carries the ellipsoid-space values alongside. Errors end up as one line
//! on stderr starting with `error:`, with exit code 2 for bad usage and 1 for
//! a failure (unreadable level, invalid settings file, ...); nothing here
//! panics on bad input. `sweep --batch` and `walk --batch` report a bad line
//! in its output line and exit with 4 when any was refused; `repro --run`
//! exits with 3 when a bundle no longer reproduces; `replay` exits with 3
//! when a recorded path diverges.

mod args;
mod batch;
mod boxcam;
mod check;
mod envelope;
mod format;
mod gui;
mod hygiene;
mod info;
mod map;
mod pairs;
mod replay;
mod repro;
mod settings;
mod sweep;
mod sweep_batch;
mod sweep_method;
mod sweep_modes;
mod sweep_text;
mod walk;
mod walk_batch;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

/// Exit code of a run that went well.
const EXIT_OK: i32 = 0;
/// Exit code of a failure (file unreadable or invalid, solver refused the input).
const EXIT_FAILURE: i32 = 1;
/// Exit code of a command line that does not parse or holds bad values.
const EXIT_USAGE: i32 = 2;

/// Collide-and-slide debugger: import levels, sweep ellipsoid probes, step the recursion.
#[derive(Debug, Parser)]
#[command(
    name = "collidoscope",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "With no subcommand, opens the window (on LEVEL, or on the built-in level)."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Level to open in the window (.obj or .obj.gz).
    level: Option<PathBuf>,
    #[command(flatten)]
    import: args::ImportArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Import a level and print its mesh, objects, BVH and import report.
    Info(info::InfoArgs),
    /// Run one collide-and-slide move and print the trace (or many: --batch; every mode: --mode all).
    Sweep(Box<sweep::SweepArgs>),
    /// Walk a character frame by frame (speed, gravity, steps, slopes, snap); many: --batch.
    Walk(Box<walk::WalkArgs>),
    /// Measure what a character can do: tallest step, steepest ramp, narrowest opening, ...
    Envelope(envelope::EnvelopeArgs),
    /// Find a level's steps, openings, slopes and low ceilings and walk the character at each.
    Check(Box<check::CheckArgs>),
    /// Map where the character gets stuck: walk it from every walkable floor in N directions.
    Map(Box<map::MapArgs>),
    /// Write a repro bundle for one move (triangles within reach, settings, move, test), or replay one: --run DIR.
    Repro(Box<repro::ReproArgs>),
    /// Re-run a recorded path (CSV or JSON Lines) frame by frame and report where it diverges.
    Replay(Box<replay::ReplayArgs>),
    /// Test probes moving at the same time against each other (swept bounding spheres).
    Pairs(pairs::PairsArgs),
    /// The box camera's four-level test against a level, at a point or along a path.
    Boxcam(Box<boxcam::BoxcamArgs>),
    /// Write or check a settings file (.toml or .json).
    #[command(subcommand, arg_required_else_help = false)]
    Settings(settings::SettingsCommand),
}

/// Why a command failed; `Display` is the one-line message after `error: `.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// A command line that parsed but cannot be run as given.
    #[error("{0}")]
    Usage(String),
    /// The level could not be imported (names the file, and the line when there is one).
    #[error(transparent)]
    Import(#[from] crate::level::ImportError),
    /// A settings file could not be read or written.
    #[error(transparent)]
    SettingsFile(#[from] crate::settings_file::SettingsFileError),
    /// The settings break a rule.
    #[error(transparent)]
    InvalidSettings(#[from] crate::collide::InvalidSettings),
    /// Anything else that went wrong while running.
    #[error("{0}")]
    Failed(String),
}

/// `FILE: why`, for a file not written.
fn write_failed(file: &std::path::Path, e: crate::fileio::WriteError) -> CliError {
    CliError::Failed(format!("{}: {e}", file.display()))
}

/// `FILE: why`, for a file not read.
fn read_failed(file: &std::path::Path, e: crate::fileio::ReadError) -> CliError {
    CliError::Failed(format!("{}: {e}", file.display()))
}

impl CliError {
    fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            _ => EXIT_FAILURE,
        }
    }
}

/// Runs the command line (`args[0]` is the program name); returns the process exit code.
pub fn run(args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return report_clap_error(&e),
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!(
                "error: {}",
                crate::quote::bounded_message(&one_line(&e.to_string()))
            );
            e.exit_code()
        }
    }
}

/// Runs the command; the exit code of a run that did not fail.
fn dispatch(cli: Cli) -> Result<i32, CliError> {
    match cli.command {
        Some(Command::Info(a)) => info::run(&a),
        Some(Command::Sweep(a)) => return sweep::run(&a),
        Some(Command::Walk(a)) => return walk::run(&a),
        Some(Command::Envelope(a)) => envelope::run(&a),
        Some(Command::Check(a)) => {
            let all_pass = check::run(&a)?;
            return Ok(if all_pass {
                EXIT_OK
            } else {
                check::EXIT_FINDINGS_FAIL
            });
        }
        Some(Command::Map(a)) => {
            let clean = map::run(&a)?;
            return Ok(if clean {
                EXIT_OK
            } else {
                map::EXIT_MAP_FINDINGS
            });
        }
        Some(Command::Repro(a)) => return repro::run(&a),
        Some(Command::Replay(a)) => return replay::run(&a),
        Some(Command::Settings(c)) => settings::run(&c),
        Some(Command::Pairs(a)) => pairs::run(&a),
        Some(Command::Boxcam(a)) => boxcam::run(&a),
        None => gui::open(cli.level, cli.import.options()),
    }?;
    Ok(EXIT_OK)
}

/// Help and version go to stdout in full; every other clap error becomes
/// one `error:` line (plus clap's "tip", folded into the same line).
fn report_clap_error(e: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // A closed stdout (`| head`) is no reason to fail.
        let _ = e.print();
        return EXIT_OK;
    }
    let text = e.to_string();
    // clap's message is its first paragraph (a headline, then indented
    // items such as missing arguments); tips come in later paragraphs.
    let mut paragraphs = text.split("\n\n").map(|p| p.lines().map(str::trim));
    let mut head = paragraphs
        .next()
        .into_iter()
        .flatten()
        .filter(|l| !l.is_empty());
    let mut message = head
        .next()
        .unwrap_or("error: invalid arguments")
        .to_string();
    let items: Vec<&str> = head.collect();
    if !items.is_empty() {
        message.push(' ');
        message.push_str(&items.join(", "));
    }
    for tip in paragraphs.flatten().filter(|l| l.starts_with("tip:")) {
        message.push_str(" (");
        message.push_str(tip);
        message.push(')');
    }
    if !message.starts_with("error:") {
        message.insert_str(0, "error: ");
    }
    eprintln!("{}", shorten_quoted(&message));
    EXIT_USAGE
}

/// Longest usage error line (characters), whatever it holds.
const MAX_USAGE_CHARS: usize = 600;

/// clap quotes a bad value whole (`invalid value '…' for '--cylinder …'`):
/// a quoted span past [`crate::quote::QUOTE_CHARS`] keeps its start and says how
/// long it was, and the line stops at [`MAX_USAGE_CHARS`], so that 6 KB
/// of garbage on the command line is not echoed back.
fn shorten_quoted(message: &str) -> String {
    let out = crate::quote::shorten_quoted(message, &['\'']);
    match out.char_indices().nth(MAX_USAGE_CHARS) {
        None => out,
        Some((cut, _)) => format!("{}…", &out[..cut]),
    }
}

/// Folds a message that spans lines (an OS or parser message) into one line.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Writes a command's output to stdout. A reader that went away (`| head`)
/// ends the output quietly instead of failing the command.
fn print_stdout(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Failed(format!("cannot write to stdout: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn usage_errors_quote_a_short_prefix_of_a_long_value() {
        let long = "x".repeat(6000);
        let m = shorten_quoted(&format!(
            "error: invalid value '{long}' for '--cylinder <X,Y,Z,R,H>': bad"
        ));
        assert!(m.len() < 200, "{} bytes", m.len());
        assert!(
            m.contains(&format!("'{}… (6000 characters)'", "x".repeat(40))),
            "{m}"
        );
        assert!(m.ends_with("for '--cylinder <X,Y,Z,R,H>': bad"), "{m}");
        // Short values and unbalanced quotes pass unchanged; the line is capped.
        assert_eq!(shorten_quoted("error: 'abc' isn't"), "error: 'abc' isn't");
        let capped = shorten_quoted(&"y ".repeat(2000));
        assert_eq!(capped.chars().count(), MAX_USAGE_CHARS + 1);
    }

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("collidoscope").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn negative_vectors_parse_after_a_space_or_an_equals_sign() {
        let cli = parse(&[
            "sweep",
            "l.obj",
            "--from",
            "-1,-2,-3",
            "--velocity",
            "-1,0,0",
            "--gravity=0,-9.8,0",
        ])
        .unwrap();
        let Some(Command::Sweep(a)) = cli.command else {
            panic!("expected sweep");
        };
        assert_eq!(a.from.unwrap().x, -1.0);
        assert_eq!(a.velocity.unwrap().x, -1.0);
        assert_eq!(a.gravity.unwrap().y, -9.8);
    }

    #[test]
    fn no_subcommand_takes_an_optional_level_and_import_options() {
        let cli = parse(&["level.obj", "--up", "z", "--scale", "0.01"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.level, Some(PathBuf::from("level.obj")));
        assert_eq!(cli.import.options().up, crate::level::UpAxis::Z);
        assert_eq!(cli.import.options().scale, 0.01);
        assert!(parse(&[]).unwrap().level.is_none());
    }

    #[test]
    fn bad_values_are_usage_errors_of_one_line() {
        for args in [
            &["sweep", "l.obj", "--from", "0,0,0", "--velocity", "nan,0,0"][..],
            &["sweep", "l.obj", "--from", "0,0", "--velocity", "1,0,0"][..],
            &[
                "sweep",
                "l.obj",
                "--from",
                "0,0,0",
                "--velocity",
                "1,0,0",
                "--radii",
                "1,0,1",
            ][..],
            &[
                "sweep",
                "l.obj",
                "--from",
                "0,0,0",
                "--velocity",
                "1,0,0",
                "--mode",
                "quake",
            ][..],
            &["info", "l.obj", "--scale", "0"][..],
            &["info", "l.obj", "--up", "x"][..],
            &["frobnicate", "--nope"][..],
        ] {
            let e = parse(args).unwrap_err();
            assert_eq!(report_clap_error(&e), EXIT_USAGE, "{args:?}");
        }
    }

    #[test]
    fn multi_line_messages_are_folded() {
        assert_eq!(one_line("a\n\n  b  \nc"), "a; b; c");
    }
}
