//! Command-line values: `X,Y,Z` vectors (world space, metres), radii, import
//! scale and up axis, parsed and checked before any file is opened.
//!
//! Each parser returns a one-line message that clap places after
//! "invalid value '...' for '--flag'", so bad numbers are reported as usage
//! errors (exit code 2) and never reach the solver.

use crate::character::EngineProfile;
use crate::collide::{SlideMode, SlideSettings};
use crate::level::{ImportOptions, ObjectsBy, UpAxis};
use clap::{Args, ValueEnum};
use glam::DVec3;
use std::path::PathBuf;

/// The up axis as typed on the command line (`--up y` or `--up z`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum UpArg {
    /// Y up: kept as is.
    #[default]
    Y,
    /// Z up: rotated to Y up.
    Z,
}

impl From<UpArg> for UpAxis {
    fn from(up: UpArg) -> UpAxis {
        match up {
            UpArg::Y => UpAxis::Y,
            UpArg::Z => UpAxis::Z,
        }
    }
}

/// How a level file is converted to the tool's world (Y up, metres).
#[derive(Clone, Debug, Args)]
pub(crate) struct ImportArgs {
    /// The file's up axis.
    #[arg(long, value_enum, default_value_t = UpArg::Y)]
    pub up: UpArg,
    /// Multiplies every coordinate of the file (e.g. 0.0254 for inches).
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale, allow_hyphen_values = true)]
    pub scale: f64,
    /// What makes an object: `o` / `g` statements, `usemtl` materials, or both.
    #[arg(long, value_enum, default_value_t = ObjectsByArg::Group)]
    pub objects_by: ObjectsByArg,
    /// Largest text a `.obj.gz` may unpack to, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = crate::level::import::DEFAULT_MAX_UNPACKED_BYTES >> 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub max_unpacked_mib: u64,
    /// Heightmap levels (`.png`): metres between neighbouring pixels.
    #[arg(long, value_name = "M", default_value_t = 1.0, value_parser = parse_spacing, allow_hyphen_values = true)]
    pub heightmap_spacing: f64,
    /// Heightmap levels (`.png`): the height of a white pixel, metres.
    #[arg(long, value_name = "M", default_value_t = 10.0, value_parser = |t: &str| parse_finite(t, "height scale"), allow_hyphen_values = true)]
    pub height_scale: f64,
}

/// What makes an object, as typed on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum ObjectsByArg {
    /// `o` and `g` statements.
    #[default]
    Group,
    /// `usemtl` materials.
    Material,
    /// Both: `name:material`.
    GroupAndMaterial,
}

impl ImportArgs {
    /// The importer's options.
    pub fn options(&self) -> ImportOptions {
        ImportOptions {
            up: self.up.into(),
            scale: self.scale,
            objects_by: match self.objects_by {
                ObjectsByArg::Group => ObjectsBy::Group,
                ObjectsByArg::Material => ObjectsBy::Material,
                ObjectsByArg::GroupAndMaterial => ObjectsBy::GroupAndMaterial,
            },
            max_unpacked_bytes: self.max_unpacked_mib << 20,
            heightmap_spacing: self.heightmap_spacing,
            heightmap_height_scale: self.height_scale,
        }
    }
}

/// The character a command walks: a settings file and the flags that
/// override it (`walk`, `envelope`, `check`).
#[derive(Clone, Debug, Args)]
pub(crate) struct CharacterArgs {
    /// Settings file (.toml or .json) with the probe and its `[character]` section.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Ellipsoid radii along world x, y, z, metres [default: the settings' radii].
    #[arg(long, value_name = "RX,RY,RZ", value_parser = parse_radii, allow_hyphen_values = true)]
    pub radii: Option<DVec3>,
    /// The slide algorithm [default: the settings' mode, else robust].
    #[arg(long, value_parser = |t: &str| t.parse::<SlideMode>())]
    pub mode: Option<SlideMode>,
    /// The character's shape: sphere:R, capsule:R,H (total height),
    /// cylinder:R,H, box:HX,HY,HZ or ellipsoid [default: the settings'
    /// shape; under --engine, the capsule as wide and tall as the radii].
    #[arg(long, value_name = "SHAPE", value_parser = parse_shape)]
    pub shape: Option<crate::geometry::shape::CharacterShape>,
    /// Whose character controller the walks follow: collidoscope, rapier,
    /// jolt, physx, godot, unity or unreal [default: the settings'
    /// `[character] engine`, else collidoscope]. `check` takes it more
    /// than once and lists the verdicts that differ.
    #[arg(long = "engine", value_name = "NAME", value_parser = |t: &str| t.parse::<EngineProfile>())]
    pub engines: Vec<EngineProfile>,
}

impl CharacterArgs {
    /// The settings file (or the defaults) with the flags applied, checked.
    /// A shape other than the ellipsoid sets the radii to its half sizes,
    /// so that every measure of the body's size agrees with it. More than
    /// one `--engine` is refused here (only `check` compares profiles,
    /// through [`CharacterArgs::settings_per_engine`]).
    pub fn settings(&self) -> Result<SlideSettings, super::CliError> {
        if self.engines.len() > 1 {
            return Err(super::CliError::Usage(
                "--engine is given more than once: only `check` compares engine profiles".into(),
            ));
        }
        let mut s = self.base_settings()?;
        if let Some(&e) = self.engines.first() {
            s.character.engine = e;
        }
        s.validate()?;
        Ok(s)
    }

    /// The settings once per `--engine` given (in order, repeats dropped),
    /// or once as the file says without the flag.
    pub fn settings_per_engine(&self) -> Result<Vec<SlideSettings>, super::CliError> {
        let base = self.base_settings()?;
        let mut engines: Vec<EngineProfile> = Vec::new();
        for &e in &self.engines {
            if !engines.contains(&e) {
                engines.push(e);
            }
        }
        if engines.is_empty() {
            engines.push(base.character.engine);
        }
        engines
            .into_iter()
            .map(|e| {
                let mut s = base.clone();
                s.character.engine = e;
                s.validate()?;
                Ok(s)
            })
            .collect()
    }

    fn base_settings(&self) -> Result<SlideSettings, super::CliError> {
        let mut s = match &self.settings {
            Some(path) => crate::settings_file::load(path)?,
            None => SlideSettings::default(),
        };
        if let Some(r) = self.radii {
            s.radii = r.to_array();
        }
        if let Some(m) = self.mode {
            s.mode = m;
        }
        if let Some(shape) = self.shape {
            s.shape = shape;
        }
        if !s.shape.is_ellipsoid() && s.shape.validate().is_ok() {
            s.radii = s.shape.half_extents(s.radii_vec()).to_array();
        }
        Ok(s)
    }
}

/// One finite number; `what` names it in the message.
fn parse_finite(text: &str, what: &str) -> Result<f64, String> {
    let t = text.trim();
    let x: f64 = t
        .parse()
        .map_err(|_| format!("{what} '{t}' is not a number"))?;
    if !x.is_finite() {
        return Err(format!("{what} '{t}' is not a finite number"));
    }
    Ok(x)
}

/// `X,Y,Z`: exactly three finite numbers separated by commas.
pub(crate) fn parse_vec3(text: &str) -> Result<DVec3, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 3 {
        return Err(format!(
            "expected three comma-separated numbers X,Y,Z, got {} component{}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" }
        ));
    }
    let mut v = [0.0; 3];
    for (slot, (part, axis)) in v.iter_mut().zip(parts.iter().zip(["x", "y", "z"])) {
        *slot = parse_finite(part, axis)?;
        let max = crate::collide::MAX_MAGNITUDE_M;
        if slot.abs() > max {
            return Err(format!(
                "{axis} {slot:e} is beyond the supported ±{max:e} m (larger numbers overflow the solver's arithmetic)"
            ));
        }
    }
    Ok(DVec3::from_array(v))
}

/// `X,Z`: a horizontal direction, two finite numbers, not both zero.
pub(crate) fn parse_direction_xz(text: &str) -> Result<DVec3, String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(format!(
            "expected two comma-separated numbers X,Z (a horizontal direction), got {} component{}",
            parts.len(),
            if parts.len() == 1 { "" } else { "s" }
        ));
    }
    let x = parse_finite(parts[0], "x")?;
    let z = parse_finite(parts[1], "z")?;
    if x == 0.0 && z == 0.0 {
        return Err("the direction 0,0 has no way to walk".into());
    }
    Ok(DVec3::new(x, 0.0, z))
}

/// `RX,RY,RZ`: three radii within the settings' range
/// ([`crate::collide::MIN_RADIUS_M`] to [`crate::collide::MAX_RADIUS_M`]).
pub(crate) fn parse_radii(text: &str) -> Result<DVec3, String> {
    let r = parse_vec3(text)?;
    crate::collide::settings::radii_rule(r.to_array())?;
    Ok(r)
}

/// A character shape: `ellipsoid` (the settings' radii), `sphere:R`,
/// `capsule:R,H` (total height), `cylinder:R,H` or `box:HX,HY,HZ` (half
/// sizes), metres; the sizes within the settings' range.
pub(crate) fn parse_shape(text: &str) -> Result<crate::geometry::shape::CharacterShape, String> {
    use crate::geometry::shape::CharacterShape as S;
    let (name, sizes) = text.split_once(':').unwrap_or((text, ""));
    let numbers = |n: usize, what: &str| -> Result<Vec<f64>, String> {
        let parts: Vec<&str> = sizes.split(',').collect();
        if parts.len() != n {
            return Err(format!(
                "{name} takes {what}, got '{}'",
                crate::quote::prefix(sizes)
            ));
        }
        parts.iter().map(|p| parse_finite(p, "size")).collect()
    };
    let shape = match name.trim().to_ascii_lowercase().as_str() {
        "ellipsoid" if sizes.is_empty() => S::Ellipsoid,
        "ellipsoid" => {
            return Err("ellipsoid takes no sizes (it is the settings' radii: --radii)".into());
        }
        "sphere" => S::Sphere {
            radius_m: numbers(1, "R (radius)")?[0],
        },
        "capsule" => {
            let v = numbers(2, "R,H (radius and total height)")?;
            S::Capsule {
                radius_m: v[0],
                height_m: v[1],
            }
        }
        "cylinder" => {
            let v = numbers(2, "R,H (radius and height)")?;
            S::Cylinder {
                radius_m: v[0],
                height_m: v[1],
            }
        }
        "box" => {
            let v = numbers(3, "HX,HY,HZ (half sizes)")?;
            S::Box {
                half_extents_m: [v[0], v[1], v[2]],
            }
        }
        _ => {
            return Err(format!(
                "unknown shape '{}' (expected ellipsoid, sphere:R, capsule:R,H, cylinder:R,H or box:HX,HY,HZ)",
                crate::quote::prefix(name)
            ));
        }
    };
    shape.validate()?;
    Ok(shape)
}

/// Scales outside this range (both ways) collapse a level to rounding or
/// overflow `f32` coordinates: 1e-6 turns kilometres into millimetres.
pub(crate) const SCALE_RANGE: (f64, f64) = (1e-6, 1e6);

/// The import scale: finite, greater than zero, within [`SCALE_RANGE`].
/// A heightmap's pixel spacing: finite and above zero.
fn parse_spacing(text: &str) -> Result<f64, String> {
    let s = parse_finite(text, "spacing")?;
    if s > 0.0 {
        Ok(s)
    } else {
        Err(format!("spacing {s} must be greater than zero"))
    }
}

pub(crate) fn parse_scale(text: &str) -> Result<f64, String> {
    let s = parse_finite(text, "scale")?;
    let (lo, hi) = SCALE_RANGE;
    if s > 0.0 && !(lo..=hi).contains(&s) {
        return Err(format!(
            "scale {s:e} is outside the supported {lo:e} to {hi:e}: the level would collapse to rounding or overflow"
        ));
    }
    if s <= 0.0 {
        return Err(format!("scale {s} must be greater than zero"));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_accept_negatives_spaces_and_exponents() {
        assert_eq!(parse_vec3("-1,0,2.5").unwrap(), DVec3::new(-1.0, 0.0, 2.5));
        assert_eq!(
            parse_vec3(" 1e-3 , -.5 ,+4").unwrap(),
            DVec3::new(1e-3, -0.5, 4.0)
        );
    }

    #[test]
    fn vectors_reject_wrong_counts_and_non_finite_numbers() {
        assert!(parse_vec3("1,2").unwrap_err().contains("got 2 components"));
        assert!(parse_vec3("1,2,3,4").unwrap_err().contains("got 4"));
        assert!(parse_vec3("").unwrap_err().contains("got 1 component"));
        assert!(
            parse_vec3("1,,3")
                .unwrap_err()
                .contains("y '' is not a number")
        );
        assert!(parse_vec3("nan,0,0").unwrap_err().contains("not a finite"));
        assert!(parse_vec3("0,inf,0").unwrap_err().contains("not a finite"));
        assert!(
            parse_vec3("0,0,-infinity")
                .unwrap_err()
                .contains("not a finite")
        );
        assert!(parse_vec3("1,x,3").unwrap_err().contains("not a number"));
        assert!(
            parse_vec3("1e400,0,0")
                .unwrap_err()
                .contains("not a finite")
        );
    }

    #[test]
    fn radii_and_scale_must_be_positive() {
        assert_eq!(
            parse_radii("0.4,0.9,0.4").unwrap(),
            DVec3::new(0.4, 0.9, 0.4)
        );
        assert!(parse_radii("0.4,0,0.4").unwrap_err().contains("radius 0 "));
        assert!(parse_radii("-1,1,1").unwrap_err().contains("radius -1 "));
        assert!(
            parse_radii("0.4,1e-20,0.4")
                .unwrap_err()
                .contains("smallest safe radius, 0.001 m")
        );
        assert!(parse_radii("1,1,nan").is_err());
        assert_eq!(parse_scale("0.0254").unwrap(), 0.0254);
        assert!(parse_scale("0").is_err());
        assert!(parse_scale("-2").is_err());
        assert!(parse_scale("inf").is_err());
        assert!(
            parse_scale("1e-45")
                .unwrap_err()
                .contains("outside the supported")
        );
        assert!(parse_scale("1e7").is_err());
        assert!(
            parse_vec3("1e308,1e308,0")
                .unwrap_err()
                .contains("beyond the supported")
        );
        assert!(parse_vec3("1e9,-1e9,0").is_ok());
    }
}
