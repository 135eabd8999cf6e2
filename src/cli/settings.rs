//! `collidoscope settings export|import|check FILE`: writes settings (the
//! defaults, or a tuned file given with `--settings`) as a settings file
//! or, with `--for ENGINE`, as another engine's character controller
//! settings; reads such an engine file back (`import --from ENGINE`); or
//! reads and validates a settings file, TOML or JSON by extension.

use super::{CliError, print_stdout, read_failed, write_failed};
use crate::collide::SlideSettings;
use crate::export::engines::{self, Engine};
use crate::fileio::{self, WriteRules};
use crate::settings_file;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// The `settings` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum SettingsCommand {
    /// Write settings to FILE: a settings file (.toml or .json), or with
    /// --for the settings of another engine's character controller.
    Export {
        /// Where to write; `-` prints to stdout. Without --for the
        /// extension picks the format (stdout gets TOML).
        file: PathBuf,
        /// The tuned settings to write (.toml or .json); the defaults when absent.
        #[arg(long, value_name = "TUNED")]
        settings: Option<PathBuf>,
        /// Write them in this engine's names and units (rapier, jolt,
        /// physx, godot, unity or unreal).
        #[arg(long = "for", value_name = "ENGINE", value_parser = parse_engine)]
        engine: Option<Engine>,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Read an engine's settings back: FILE as `settings export --for
    /// ENGINE` writes it (hand edits included) becomes a settings file.
    Import {
        /// The engine file (`settings export --for ENGINE` output).
        file: PathBuf,
        /// The engine FILE is written for (rapier, jolt, physx, godot,
        /// unity or unreal).
        #[arg(long = "from", value_name = "ENGINE", value_parser = parse_engine)]
        engine: Engine,
        /// Write the settings here (.toml or .json); without it, or with
        /// `-`, they are printed as TOML.
        #[arg(long, value_name = "SETTINGS")]
        out: Option<PathBuf>,
        /// Replace the --out file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Read and validate FILE, then print the settings it holds.
    Check {
        /// The settings file (.toml or .json).
        file: PathBuf,
    },
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
}

pub(crate) fn run(c: &SettingsCommand) -> Result<(), CliError> {
    match c {
        SettingsCommand::Export {
            file,
            settings,
            engine,
            force,
        } => export(file, settings.as_deref(), *engine, *force),
        SettingsCommand::Import {
            file,
            engine,
            out,
            force,
        } => import(file, *engine, out.as_deref(), *force),
        SettingsCommand::Check { file } => check(file),
    }
}

fn import(file: &Path, engine: Engine, out: Option<&Path>, force: bool) -> Result<(), CliError> {
    let out = out.filter(|o| *o != Path::new("-"));
    let inputs = [file.to_path_buf()];
    let rules = WriteRules::new().force(force).inputs(&inputs);
    // Checked before anything is read, as `export` does.
    if let Some(out) = out {
        settings_file::SettingsFormat::of_path(out)?;
        fileio::check_target(out, &rules).map_err(|e| write_failed(out, e))?;
    }
    let text = fileio::read_text_bounded(
        file,
        engines::MAX_ENGINE_FILE_BYTES,
        "an engine settings file",
    )
    .map_err(|e| read_failed(file, e))?;
    let read = engines::import(engine, &text).map_err(|e| {
        CliError::Failed(match e.line {
            Some(line) => format!("{}:{line}: {}", file.display(), e.message),
            None => format!("{}: {}", file.display(), e.message),
        })
    })?;
    match out {
        None => print_stdout(&settings_file::to_text(
            &read.settings,
            Path::new("stdout.toml"),
        )?)?,
        Some(out) => {
            settings_file::save(&read.settings, out, &rules)?;
            print_stdout(&format!(
                "read the {} settings of {} into {}\n",
                engine.title(),
                file.display(),
                out.display()
            ))?;
        }
    }
    // On stderr, so that the printed TOML stays a settings file.
    for w in &read.warnings {
        eprintln!(
            "warning: {} {w} (the export clamped this value; it is read back as written)",
            file.display()
        );
    }
    if !read.not_read.is_empty() {
        eprintln!(
            "note: not in the {} export, Collidoscope's defaults kept: {}",
            engine.name(),
            read.not_read.join(", ")
        );
    }
    Ok(())
}

fn export(
    file: &Path,
    tuned: Option<&Path>,
    engine: Option<Engine>,
    force: bool,
) -> Result<(), CliError> {
    let to_stdout = file == Path::new("-");
    let inputs: Vec<PathBuf> = tuned.map(Path::to_path_buf).into_iter().collect();
    let rules = WriteRules::new().force(force).inputs(&inputs);
    // Checked before anything is read or written, so that a typo never
    // clobbers a tuned file.
    if !to_stdout {
        fileio::check_target(file, &rules).map_err(|e| write_failed(file, e))?;
    }
    let settings = match tuned {
        Some(path) => settings_file::load(path)?,
        None => SlideSettings::default(),
    };
    let what = match tuned {
        Some(path) => format!("the settings of {}", path.display()),
        None => "the default settings".to_string(),
    };
    let Some(engine) = engine else {
        if to_stdout {
            return print_stdout(&settings_file::to_text(
                &settings,
                Path::new("stdout.toml"),
            )?);
        }
        settings_file::save(&settings, file, &rules)?;
        return print_stdout(&format!("wrote {what} to {}\n", file.display()));
    };
    let out = engines::export(engine, &settings).map_err(|e| CliError::Failed(e.to_string()))?;
    if to_stdout {
        print_stdout(&out.text)?;
    } else {
        fileio::write_bytes(file, out.text.as_bytes(), &rules)
            .map_err(|e| write_failed(file, e))?;
        print_stdout(&format!(
            "wrote {what} for {} to {}\n",
            engine.title(),
            file.display()
        ))?;
    }
    // On stderr, so that `-` output stays exactly the file's text.
    for w in &out.warnings {
        eprintln!("warning: {w}");
    }
    Ok(())
}

fn check(file: &Path) -> Result<(), CliError> {
    let settings = settings_file::load(file)?;
    // Printed in the file's own format, so the output can be pasted back.
    let text = settings_file::to_text(&settings, file)?;
    print_stdout(&format!("{}: ok\n{text}", file.display()))
}
