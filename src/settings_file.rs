//! Settings files: [`SlideSettings`] read from and written to `.toml` or
//! `.json` files, the format chosen by the file's extension.
//!
//! The solver layer (`collide`) owns the settings type, its defaults and its
//! rules and does no I/O; this module is the file edge above it. Values are
//! checked while deserialising (the rules are on the type's fields), so a
//! bad value is reported with its line and column in the file, like a
//! syntax error. Rules that relate two fields (the skin against the
//! smallest radius) are [`SlideSettings::validate`]'s, which [`parse`] and
//! [`load`] run last: settings read from a file are always valid.
//!
//! ```
//! use collidoscope::collide::SlideSettings;
//! use collidoscope::settings_file::{self, SettingsFormat};
//! use std::path::Path;
//!
//! let text = "format_version = 1\nradii = [0.3, 0.8, 0.3]\nskin = 0.01\n";
//! let s = settings_file::parse(text, SettingsFormat::Toml, Path::new("probe.toml")).unwrap();
//! assert_eq!(s.radii, [0.3, 0.8, 0.3]);
//! assert!(s.validate().is_ok());
//! // Written back in the format the extension names.
//! let json = settings_file::to_text(&s, Path::new("probe.json")).unwrap();
//! assert!(json.starts_with('{'));
//! ```

use crate::collide::SlideSettings;
use std::path::{Path, PathBuf};

mod engine_table;
#[cfg(test)]
mod engine_table_tests;

/// The two file formats settings are read and written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsFormat {
    /// TOML (`.toml`): the format meant for people to edit.
    Toml,
    /// JSON (`.json`): for tools.
    Json,
}

impl SettingsFormat {
    /// The format `path`'s extension names (`.toml` or `.json`, any case).
    pub fn of_path(path: &Path) -> Result<SettingsFormat, SettingsFileError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("json") => Ok(SettingsFormat::Json),
            Some("toml") => Ok(SettingsFormat::Toml),
            _ => Err(SettingsFileError::UnknownFormat {
                path: path.to_path_buf(),
            }),
        }
    }
}

/// Why a settings file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SettingsFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The extension is neither `.toml` nor `.json`.
    #[error("{path}: unknown settings format (use a .toml or .json file)")]
    UnknownFormat {
        /// The file.
        path: PathBuf,
    },
    /// Syntax or value error, with its position.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// Every value parses, but together they break a rule of the settings
    /// (the skin against the smallest radius, for one).
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The rule broken.
        message: String,
    },
}

/// Parses settings text in `format` and checks its rules; `path` only
/// labels errors.
pub fn parse(
    text: &str,
    format: SettingsFormat,
    path: &Path,
) -> Result<SlideSettings, SettingsFileError> {
    let at = |line: usize, message: String| SettingsFileError::Parse {
        path: path.to_path_buf(),
        line,
        column: 1,
        message: crate::quote::bounded_message(&message),
    };
    let table = engine_table::find(text, format).map_err(|(line, m)| at(line, m))?;
    let mut settings = match &table {
        // The engine's capsule or box stands for `radii`, which a file
        // must otherwise give: a stand-in is read first (on a line of its
        // own, taken off the positions of errors) and replaced.
        Some(t) if t.gives_body() && !t.given.iter().any(|g| g == "radii") => {
            let (stand_in, lines) = match format {
                SettingsFormat::Toml => (format!("radii = [1.0, 1.0, 1.0]\n{}", t.rest), 1),
                SettingsFormat::Json => {
                    let open = t.rest.find('{').unwrap_or(0);
                    let (head, tail) = t.rest.split_at(open + 1);
                    (format!("{head}\n\"radii\": [1.0, 1.0, 1.0],\n{tail}"), 2)
                }
            };
            parse_fields(&stand_in, format, path).map_err(|e| match e {
                SettingsFileError::Parse {
                    path,
                    line,
                    column,
                    message,
                } => SettingsFileError::Parse {
                    path,
                    line: line.saturating_sub(lines).max(1),
                    column,
                    message,
                },
                other => other,
            })?
        }
        Some(t) => parse_fields(&t.rest, format, path)?,
        None => parse_fields(text, format, path)?,
    };
    if let Some(t) = table {
        use crate::character::EngineProfile;
        let chosen = settings.character.engine;
        if chosen != EngineProfile::Collidoscope && chosen != t.engine.profile() {
            return Err(at(
                t.line_of(None),
                format!(
                    "the file gives `{}` settings but its character's engine is \"{}\"",
                    t.engine.name(),
                    chosen.name()
                ),
            ));
        }
        crate::export::engines::apply_engine_names(t.engine, &t.values, &t.given, &mut settings)
            .map_err(|e| at(t.line_of(e.name.as_deref()), e.message))?;
    }
    settings
        .validate()
        .map_err(|e| SettingsFileError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    Ok(settings)
}

/// The settings `text` holds, each field checked as it is read.
fn parse_fields(
    text: &str,
    format: SettingsFormat,
    path: &Path,
) -> Result<SlideSettings, SettingsFileError> {
    match format {
        SettingsFormat::Json => serde_json::from_str(text).map_err(|e| SettingsFileError::Parse {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: crate::quote::bounded_message(&strip_position(&e.to_string())),
        }),
        SettingsFormat::Toml => toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_col(text.as_bytes(), s.start))
                .unwrap_or((1, 1));
            SettingsFileError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: crate::quote::bounded_message(e.message()),
            }
        }),
    }
}

/// Largest settings file read: a settings file is a few hundred bytes, and
/// the parsers never see more than this.
pub const MAX_SETTINGS_BYTES: u64 = crate::fileio::MIB;

/// Reads a `.toml` or `.json` settings file: a regular file of at most
/// [`MAX_SETTINGS_BYTES`] (see [`crate::fileio::read_bounded`]).
pub fn load(path: &Path) -> Result<SlideSettings, SettingsFileError> {
    let format = SettingsFormat::of_path(path)?;
    let bytes =
        crate::fileio::read_bounded(path, MAX_SETTINGS_BYTES, "a settings file").map_err(|e| {
            SettingsFileError::Io {
                path: path.to_path_buf(),
                source: e.into(),
            }
        })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_col(e.as_bytes(), e.utf8_error().valid_up_to());
        SettingsFileError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: "the file is not UTF-8 text".into(),
        }
    })?;
    parse(&text, format, path)
}

/// The settings as file text in the format `path`'s extension names.
pub fn to_text(settings: &SlideSettings, path: &Path) -> Result<String, SettingsFileError> {
    Ok(match SettingsFormat::of_path(path)? {
        SettingsFormat::Json => {
            serde_json::to_string_pretty(settings).expect("settings serialise") + "\n"
        }
        SettingsFormat::Toml => toml::to_string_pretty(settings).expect("settings serialise"),
    })
}

/// Writes a `.toml` or `.json` settings file, whole or not at all, under
/// `rules` (see [`crate::fileio::write_atomic`]).
pub fn save(
    settings: &SlideSettings,
    path: &Path,
    rules: &crate::fileio::WriteRules<'_>,
) -> Result<(), SettingsFileError> {
    let text = to_text(settings, path)?;
    crate::fileio::write_bytes(path, text.as_bytes(), rules).map_err(|e| SettingsFileError::Io {
        path: path.to_path_buf(),
        source: e.into(),
    })
}

/// serde_json appends " at line L column C"; the error already carries both.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// 1-based line and column of byte offset `byte` in `bytes`.
fn line_col(bytes: &[u8], byte: usize) -> (usize, usize) {
    let before = &bytes[..byte.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_as(text: &str, json: bool) -> Result<SlideSettings, SettingsFileError> {
        let (format, name) = if json {
            (SettingsFormat::Json, "s.json")
        } else {
            (SettingsFormat::Toml, "s.toml")
        };
        parse(text, format, Path::new(name))
    }

    #[test]
    fn a_file_that_loads_is_valid_whatever_it_breaks() {
        // A field out of its range is reported where it stands (a fuzzed
        // file once gave a ghost angle of 100 that loaded, and `settings
        // check` said "ok").
        let text = "format_version = 1\nradii = [0.4, 0.9, 0.4]\nghost_edge_angle_deg = 100\n";
        let e = parse_as(text, false).unwrap_err().to_string();
        assert!(e.starts_with("s.toml:3:"), "{e}");
        assert!(e.contains("from 0 to 45"), "{e}");
        // Two fields that only clash together: the file is named too.
        let text = r#"{"format_version": 1, "radii": [0.4, 0.9, 0.4], "skin": 0.5}"#;
        let e = parse_as(text, true).unwrap_err();
        assert!(matches!(e, SettingsFileError::Invalid { .. }), "{e:?}");
        assert!(e.to_string().starts_with("s.json: "), "{e}");
        assert!(e.to_string().contains("skin"), "{e}");
    }

    #[test]
    fn defaults_round_trip_through_both_formats() {
        let s = SlideSettings::default();
        for name in ["a.toml", "a.json"] {
            let text = to_text(&s, Path::new(name)).unwrap();
            let back = parse_as(&text, name.ends_with("json")).unwrap();
            assert_eq!(back, s, "{name}:\n{text}");
        }
    }

    #[test]
    fn the_extension_picks_the_format() {
        let of = |p: &str| SettingsFormat::of_path(Path::new(p));
        assert_eq!(of("a.TOML").unwrap(), SettingsFormat::Toml);
        assert_eq!(of("dir.d/a.Json").unwrap(), SettingsFormat::Json);
        for bad in ["a.yaml", "a", "toml"] {
            let e = of(bad).unwrap_err().to_string();
            assert!(e.contains("unknown settings format"), "{bad}: {e}");
        }
    }

    #[test]
    fn zero_radius_is_reported_with_its_line() {
        let text = "format_version = 1\nmode = \"robust\"\nradii = [0.4, 0.0, 0.4]\n";
        match parse_as(text, false) {
            Err(SettingsFileError::Parse { line, message, .. }) => {
                assert_eq!(line, 3);
                assert!(message.contains("from 0.001 to 10000 m"), "{message}");
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn unknown_field_nan_and_bad_version_are_errors() {
        let unknown = "format_version = 1\nradii = [1.0, 1.0, 1.0]\nspeed = 3\n";
        let e = parse_as(unknown, false).unwrap_err().to_string();
        assert!(e.contains("s.toml:3:") && e.contains("speed"), "{e}");
        let nan = "format_version = 1\nradii = [1.0, 1.0, 1.0]\ngravity = [0.0, nan, 0.0]\n";
        assert!(
            parse_as(nan, false)
                .unwrap_err()
                .to_string()
                .contains("s.toml:3:")
        );
        let version = "{\n  \"format_version\": 7,\n  \"radii\": [1, 1, 1]\n}";
        let e = parse_as(version, true).unwrap_err().to_string();
        assert!(
            e.contains("s.json:2:") && e.contains("format_version 7"),
            "{e}"
        );
        let negative = "{\"format_version\": 1, \"radii\": [1, 1, 1], \"skin\": -1}";
        assert!(parse_as(negative, true).is_err());
    }

    #[test]
    fn positions_count_lines_and_columns_from_one() {
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_col(b"", 9), (1, 1));
    }
}
