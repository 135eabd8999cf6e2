//! Collision settings: one serde struct with units and defaults, read and
//! written as TOML or JSON (by file extension), versioned.
//!
//! Validation happens while deserialising, so a bad value is reported with
//! its line and column in the file, like a syntax error.

use crate::character::CharacterSettings;
use glam::DVec3;
use serde::{Deserialize, Deserializer, Serialize};
use std::path::{Path, PathBuf};

/// The settings file format version this build reads and writes.
pub const SETTINGS_FORMAT_VERSION: u32 = 1;

/// Which collide-and-slide algorithm runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlideMode {
    /// Fauerby's per-feature tests with the later fixes: padding along the
    /// contact normal, crease sliding between two planes and a stop at three,
    /// recovery from embedded starts, gravity as its own pass, optional
    /// two-sided triangles.
    #[default]
    Robust,
    /// As Fauerby's 2003 paper: per-feature tests, the very-close distance
    /// taken along the velocity, a recursion limit, gravity as its own pass.
    Fauerby2003,
    /// As Nettle's 2000 article, flaws included: plane / polygon / ellipsoid
    /// intersection points, reverse intersection, an EPSILON along the
    /// velocity, gravity added to the velocity.
    Nettle2000,
}

impl SlideMode {
    /// Every mode, in menu order.
    pub const ALL: [SlideMode; 3] = [
        SlideMode::Robust,
        SlideMode::Fauerby2003,
        SlideMode::Nettle2000,
    ];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SlideMode::Robust => "robust",
            SlideMode::Fauerby2003 => "fauerby2003",
            SlideMode::Nettle2000 => "nettle2000",
        }
    }
}

impl std::fmt::Display for SlideMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SlideMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SlideMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown mode '{s}' (expected robust, fauerby2003 or nettle2000)")
            })
    }
}

/// Everything that tunes one probe's collide and slide. Lengths in metres
/// (world units), world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlideSettings {
    /// File format version; must be [`SETTINGS_FORMAT_VERSION`].
    #[serde(deserialize_with = "de_version")]
    pub format_version: u32,
    /// The algorithm.
    #[serde(default)]
    pub mode: SlideMode,
    /// Ellipsoid radii along world x, y, z, metres, each > 0.
    #[serde(deserialize_with = "de_radii")]
    pub radii: [f64; 3],
    /// Gravity displacement per move, metres. Robust and Fauerby run it as
    /// a second pass; Nettle adds it to the velocity.
    #[serde(default, deserialize_with = "de_finite3")]
    pub gravity: [f64; 3],
    /// Very-close distance kept between the probe and the geometry, metres, ≥ 0.
    #[serde(default = "default_skin", deserialize_with = "de_non_negative")]
    pub skin: f64,
    /// Maximum iterations of the recursion per pass, ≥ 1.
    #[serde(default = "default_max_iterations", deserialize_with = "de_iterations")]
    pub max_iterations: u32,
    /// Remaining moves shorter than this end the pass, metres, ≥ 0.
    #[serde(default = "default_min_move", deserialize_with = "de_non_negative")]
    pub min_move: f64,
    /// Robust mode only: collide with both sides of every triangle (real
    /// levels have inconsistent winding and single-quad thin walls). The
    /// paper modes always cull back faces, as published.
    #[serde(default = "default_true")]
    pub two_sided: bool,
    /// A hit on an edge or vertex whose neighbours fold by at most this
    /// many degrees from the hit triangle is flagged as a ghost corner in
    /// the trace (0 to 45; it changes no motion).
    #[serde(default = "default_ghost_edge_angle_deg")]
    pub ghost_edge_angle_deg: f64,
    /// After every iteration, measure the clearance (flagging an end inside
    /// geometry) and check the nearest hit for a ghost corner. On big levels
    /// this costs about as much again as the slide (see BENCHMARKS.md):
    /// batch runs that only need final positions may turn it off.
    #[serde(default = "default_true")]
    pub self_checks: bool,
    /// How a character with this probe walks (`collidoscope walk`, the
    /// envelope, the level checks, walk mode). Files without the section
    /// get the defaults.
    #[serde(default)]
    pub character: CharacterSettings,
}

fn default_skin() -> f64 {
    0.005
}
fn default_max_iterations() -> u32 {
    5
}
fn default_min_move() -> f64 {
    1e-4
}
/// The mesh hygiene analysis calls the same angle coplanar.
fn default_ghost_edge_angle_deg() -> f64 {
    crate::math::DEFAULT_COPLANAR_DEG
}
fn default_true() -> bool {
    true
}

impl Default for SlideSettings {
    fn default() -> Self {
        SlideSettings {
            format_version: SETTINGS_FORMAT_VERSION,
            mode: SlideMode::Robust,
            radii: [0.4, 0.9, 0.4],
            gravity: [0.0, 0.0, 0.0],
            skin: default_skin(),
            max_iterations: default_max_iterations(),
            min_move: default_min_move(),
            two_sided: true,
            ghost_edge_angle_deg: default_ghost_edge_angle_deg(),
            self_checks: true,
            character: CharacterSettings::default(),
        }
    }
}

fn de_version<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v != SETTINGS_FORMAT_VERSION {
        return Err(serde::de::Error::custom(format!(
            "format_version {v} is not supported (this build reads version {SETTINGS_FORMAT_VERSION})"
        )));
    }
    Ok(v)
}

fn de_finite3<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    let v = <[f64; 3]>::deserialize(d)?;
    if let Some(x) = v.iter().find(|x| !x.is_finite()) {
        return Err(serde::de::Error::custom(format!(
            "{x} is not a finite number"
        )));
    }
    Ok(v)
}

fn de_radii<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    let v = <[f64; 3]>::deserialize(d)?;
    if let Some(x) = v.iter().find(|x| !(x.is_finite() && **x > 0.0)) {
        return Err(serde::de::Error::custom(format!(
            "radius {x} must be a finite number greater than zero"
        )));
    }
    Ok(v)
}

fn de_non_negative<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let x = f64::deserialize(d)?;
    if !(x.is_finite() && x >= 0.0) {
        return Err(serde::de::Error::custom(format!(
            "{x} must be a finite number, zero or more"
        )));
    }
    Ok(x)
}

fn de_iterations<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if n == 0 {
        return Err(serde::de::Error::custom(
            "max_iterations must be at least 1",
        ));
    }
    Ok(n)
}

/// Why settings could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
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
    /// A value that is wrong in itself (when settings come from code or the CLI).
    #[error("invalid settings: {0}")]
    Invalid(String),
}

impl SlideSettings {
    /// Radii as a vector.
    pub fn radii_vec(&self) -> DVec3 {
        DVec3::from_array(self.radii)
    }

    /// Gravity as a vector.
    pub fn gravity_vec(&self) -> DVec3 {
        DVec3::from_array(self.gravity)
    }

    /// Checks the same rules as the file reader, for settings built in code.
    pub fn validate(&self) -> Result<(), SettingsError> {
        let bad = |m: String| Err(SettingsError::Invalid(m));
        if self.format_version != SETTINGS_FORMAT_VERSION {
            return bad(format!(
                "format_version {} is not supported",
                self.format_version
            ));
        }
        if !self.radii.iter().all(|r| r.is_finite() && *r > 0.0) {
            return bad(format!(
                "radii {:?} must be finite and greater than zero",
                self.radii
            ));
        }
        if !self.gravity.iter().all(|g| g.is_finite()) {
            return bad(format!("gravity {:?} must be finite", self.gravity));
        }
        if !(self.skin.is_finite() && self.skin >= 0.0) {
            return bad(format!(
                "skin {} must be finite and zero or more",
                self.skin
            ));
        }
        let smallest = self.radii.iter().copied().fold(f64::INFINITY, f64::min);
        if self.skin >= smallest {
            return bad(format!(
                "skin {} must be smaller than the smallest radius {smallest}: \
                 the probe would keep farther from everything than its own size",
                self.skin
            ));
        }
        if let Some(g) = self
            .gravity
            .iter()
            .find(|g| g.abs() > super::MAX_MAGNITUDE_M)
        {
            return bad(format!(
                "gravity {g} is beyond the supported ±{:e} m",
                super::MAX_MAGNITUDE_M
            ));
        }
        if !(self.min_move.is_finite() && self.min_move >= 0.0) {
            return bad(format!(
                "min_move {} must be finite and zero or more",
                self.min_move
            ));
        }
        if !(0.0..=45.0).contains(&self.ghost_edge_angle_deg) {
            return bad(format!(
                "ghost_edge_angle_deg {} must be from 0 to 45",
                self.ghost_edge_angle_deg
            ));
        }
        if self.max_iterations == 0 {
            return bad("max_iterations must be at least 1".into());
        }
        self.character.validate().map_err(SettingsError::Invalid)
    }

    /// Parses settings text; `is_json` picks the format. `path` only labels errors.
    pub fn from_str_as(text: &str, is_json: bool, path: &Path) -> Result<Self, SettingsError> {
        if is_json {
            serde_json::from_str(text).map_err(|e| SettingsError::Parse {
                path: path.to_path_buf(),
                line: e.line(),
                column: e.column(),
                message: strip_position(&e.to_string()),
            })
        } else {
            toml::from_str(text).map_err(|e| {
                let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
                SettingsError::Parse {
                    path: path.to_path_buf(),
                    line,
                    column,
                    message: e.message().to_string(),
                }
            })
        }
    }

    /// Reads a `.toml` or `.json` settings file.
    pub fn load(path: &Path) -> Result<Self, SettingsError> {
        let is_json = settings_format_is_json(path)?;
        let bytes = std::fs::read(path).map_err(|source| SettingsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let (line, column) = line_col_bytes(e.as_bytes(), e.utf8_error().valid_up_to());
            SettingsError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: "the file is not UTF-8 text".into(),
            }
        })?;
        Self::from_str_as(&text, is_json, path)
    }

    /// The settings as file text in the format `path`'s extension names.
    pub fn to_text(&self, path: &Path) -> Result<String, SettingsError> {
        if settings_format_is_json(path)? {
            Ok(serde_json::to_string_pretty(self).expect("settings serialise") + "\n")
        } else {
            Ok(toml::to_string_pretty(self).expect("settings serialise"))
        }
    }

    /// Writes a `.toml` or `.json` settings file.
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let text = self.to_text(path)?;
        std::fs::write(path, text).map_err(|source| SettingsError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

fn settings_format_is_json(path: &Path) -> Result<bool, SettingsError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("json") => Ok(true),
        Some("toml") => Ok(false),
        _ => Err(SettingsError::UnknownFormat {
            path: path.to_path_buf(),
        }),
    }
}

/// serde_json appends " at line L column C"; the error already carries both.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn line_col(text: &str, byte: usize) -> (usize, usize) {
    line_col_bytes(text.as_bytes(), byte)
}

fn line_col_bytes(bytes: &[u8], byte: usize) -> (usize, usize) {
    let before = &bytes[..byte.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, json: bool) -> Result<SlideSettings, SettingsError> {
        SlideSettings::from_str_as(
            text,
            json,
            Path::new(if json { "s.json" } else { "s.toml" }),
        )
    }

    #[test]
    fn defaults_round_trip_through_both_formats() {
        let s = SlideSettings::default();
        for name in ["a.toml", "a.json"] {
            let text = s.to_text(Path::new(name)).unwrap();
            let back = parse(&text, name.ends_with("json")).unwrap();
            assert_eq!(back, s, "{name}:\n{text}");
        }
    }

    #[test]
    fn zero_radius_is_reported_with_its_line() {
        let text = "format_version = 1\nmode = \"robust\"\nradii = [0.4, 0.0, 0.4]\n";
        match parse(text, false) {
            Err(SettingsError::Parse { line, message, .. }) => {
                assert_eq!(line, 3);
                assert!(message.contains("greater than zero"), "{message}");
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn unknown_field_nan_and_bad_version_are_errors() {
        let unknown = "format_version = 1\nradii = [1.0, 1.0, 1.0]\nspeed = 3\n";
        let e = parse(unknown, false).unwrap_err().to_string();
        assert!(e.contains("s.toml:3:") && e.contains("speed"), "{e}");
        let nan = "format_version = 1\nradii = [1.0, 1.0, 1.0]\ngravity = [0.0, nan, 0.0]\n";
        assert!(
            parse(nan, false)
                .unwrap_err()
                .to_string()
                .contains("s.toml:3:")
        );
        let version = "{\n  \"format_version\": 7,\n  \"radii\": [1, 1, 1]\n}";
        let e = parse(version, true).unwrap_err().to_string();
        assert!(
            e.contains("s.json:2:") && e.contains("format_version 7"),
            "{e}"
        );
        let negative = "{\"format_version\": 1, \"radii\": [1, 1, 1], \"skin\": -1}";
        assert!(parse(negative, true).is_err());
    }
}
