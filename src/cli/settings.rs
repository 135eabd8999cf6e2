//! `collidoscope settings export|check FILE`: writes the default collision
//! settings (world units, metres) or reads and validates a settings file,
//! TOML or JSON by extension.

use super::{CliError, print_stdout};
use crate::collide::SlideSettings;
use crate::settings_file;
use clap::Subcommand;
use std::path::{Path, PathBuf};

/// The `settings` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum SettingsCommand {
    /// Write the default settings to FILE (.toml or .json).
    Export {
        /// Where to write; the extension picks the format.
        file: PathBuf,
        /// Replace FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Read and validate FILE, then print the settings it holds.
    Check {
        /// The settings file (.toml or .json).
        file: PathBuf,
    },
}

pub(crate) fn run(c: &SettingsCommand) -> Result<(), CliError> {
    match c {
        SettingsCommand::Export { file, force } => export(file, *force),
        SettingsCommand::Check { file } => check(file),
    }
}

fn export(file: &Path, force: bool) -> Result<(), CliError> {
    // Checked before writing so that a typo never clobbers a tuned file.
    if !force && file.exists() {
        return Err(CliError::Failed(format!(
            "{}: already exists (use --force to replace it)",
            file.display()
        )));
    }
    settings_file::save(&SlideSettings::default(), file)?;
    print_stdout(&format!(
        "wrote the default settings to {}\n",
        file.display()
    ))
}

fn check(file: &Path) -> Result<(), CliError> {
    let settings = settings_file::load(file)?;
    // Printed in the file's own format, so the output can be pasted back.
    let text = settings_file::to_text(&settings, file)?;
    print_stdout(&format!("{}: ok\n{text}", file.display()))
}
