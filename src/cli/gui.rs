//! `collidoscope [LEVEL]` with no subcommand: the desktop window, when the
//! build has the `gui` feature.

use super::CliError;
use crate::level::ImportOptions;
use std::path::PathBuf;

/// Opens the window on `level` (world: Y up, metres after `options`), or on
/// the built-in level when `None`. Returns when the window closes.
#[cfg(feature = "gui")]
pub(crate) fn open(level: Option<PathBuf>, options: ImportOptions) -> Result<(), CliError> {
    if let Some(path) = &level {
        // A mistyped path is reported on the terminal, not after a window opens.
        std::fs::metadata(path)
            .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))?;
    }
    crate::app::run(level, options).map_err(CliError::Failed)
}

/// Without the `gui` feature there is no window to open.
#[cfg(not(feature = "gui"))]
pub(crate) fn open(level: Option<PathBuf>, options: ImportOptions) -> Result<(), CliError> {
    let _ = (level, options);
    Err(CliError::Usage(
        "this build of collidoscope has no window (built without the `gui` feature); \
         use a subcommand: info, sweep or settings (see --help)"
            .into(),
    ))
}
