//! `collidoscope repro`: write a repro bundle for one move (the triangles
//! within reach, the settings, the move and its outcome, a README and a
//! ready `#[test]`), or with `--run DIR` replay a bundle and say whether it
//! still reproduces. The work is in [`crate::repro`].

use super::args::{ImportArgs, parse_radii, parse_vec3};
use super::sweep::{ModeChoice, object_flags, parse_mode, parse_skin};
use super::{CliError, print_stdout};
use crate::collide::SlideSettings;
use crate::level::Level;
use crate::repro::{self, BundleRequest, DEFAULT_MARGIN_M, ReproError};
use clap::Args;
use glam::DVec3;
use std::path::PathBuf;

/// Exit code of `repro --run` when the bundle no longer reproduces.
pub(super) const EXIT_NOT_REPRODUCED: i32 = 3;

/// Arguments of `collidoscope repro`.
#[derive(Debug, Args)]
pub(crate) struct ReproArgs {
    /// The level (.obj or .obj.gz) to cut the move out of.
    #[arg(required_unless_present = "run", conflicts_with = "run")]
    level: Option<PathBuf>,
    /// Replay the bundle in this folder instead: exit 0 when it reproduces, 3 when not.
    #[arg(long, value_name = "DIR")]
    run: Option<PathBuf>,
    /// Probe centre at the start, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "run")]
    from: Option<DVec3>,
    /// The requested move, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "run")]
    velocity: Option<DVec3>,
    /// The folder to write the bundle to (created when missing).
    #[arg(long, value_name = "DIR", required_unless_present = "run")]
    out: Option<PathBuf>,
    /// Write into a folder that already holds files (bundle files are overwritten).
    #[arg(long)]
    force: bool,
    /// Room kept around the move's reach (its whole length plus gravity, and the radii), metres.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MARGIN_M, value_parser = parse_margin,
          allow_hyphen_values = true)]
    margin: f64,
    /// Ellipsoid radii along world x, y, z, metres [default: the settings' radii].
    #[arg(long, value_name = "RX,RY,RZ", value_parser = parse_radii, allow_hyphen_values = true)]
    radii: Option<DVec3>,
    /// Gravity as a displacement for this move, metres [default: the settings' gravity].
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
    gravity: Option<DVec3>,
    /// The algorithm: robust, fauerby2003 or nettle2000 [default: the settings' mode].
    #[arg(long, value_parser = parse_mode)]
    mode: Option<ModeChoice>,
    /// Very-close distance kept from the geometry, metres [default: the settings' skin].
    #[arg(long, value_parser = parse_skin, allow_hyphen_values = true)]
    skin: Option<f64>,
    /// Maximum iterations of the recursion per pass [default: the settings' value].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true)]
    max_iterations: Option<u32>,
    /// Name of an object that does not collide (left out of the bundle); repeatable.
    #[arg(long, value_name = "OBJECT")]
    non_colliding: Vec<String>,
    /// Settings file (.toml or .json) to start from; the flags above override it.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    #[command(flatten)]
    import: ImportArgs,
}

fn parse_margin(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "margin '{text}' must be a finite number of metres, zero or more"
        )),
    }
}

impl ReproArgs {
    fn slide_settings(&self) -> Result<SlideSettings, CliError> {
        let mut s = match &self.settings {
            Some(path) => crate::settings_file::load(path)?,
            None => SlideSettings::default(),
        };
        if let Some(r) = self.radii {
            s.radii = r.to_array();
        }
        if let Some(g) = self.gravity {
            s.gravity = g.to_array();
        }
        match self.mode {
            Some(ModeChoice::One(m)) => s.mode = m,
            Some(ModeChoice::All) => {
                return Err(CliError::Usage(
                    "repro records one mode: --mode all is not allowed".into(),
                ));
            }
            None => {}
        }
        if let Some(skin) = self.skin {
            s.skin = skin;
        }
        if let Some(n) = self.max_iterations {
            s.max_iterations = n;
        }
        s.validate()?;
        Ok(s)
    }
}

impl From<ReproError> for CliError {
    fn from(e: ReproError) -> Self {
        match e {
            ReproError::Settings(e) => CliError::SettingsFile(e),
            ReproError::Import(e) => CliError::Import(e),
            other => CliError::Failed(other.to_string()),
        }
    }
}

/// Runs `repro`; the exit code.
pub(crate) fn run(a: &ReproArgs) -> Result<i32, CliError> {
    if let Some(dir) = &a.run {
        return replay(dir);
    }
    let (Some(level_path), Some(from), Some(velocity), Some(out)) =
        (&a.level, a.from, a.velocity, &a.out)
    else {
        return Err(CliError::Usage(
            "LEVEL, --from, --velocity and --out are required (or --run DIR)".into(),
        ));
    };
    let settings = a.slide_settings()?;
    if !(from + velocity + settings.gravity_vec()).is_finite() {
        return Err(CliError::Usage(
            "--from + --velocity + gravity overflows to a non-finite position".into(),
        ));
    }
    let level = Level::load(level_path, &a.import.options())?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let inputs: Vec<PathBuf> = a.settings.iter().cloned().collect();
    let req = BundleRequest {
        level: &level,
        colliding: Some(&colliding),
        settings: &settings,
        from,
        velocity,
        margin_m: a.margin,
        force: a.force,
        inputs: &inputs,
    };
    let (m, kept) = repro::write(out, &req)?;
    let e = &m.expected;
    print_stdout(&format!(
        "wrote {} ({kept} of {} triangles; end reason {}, final {}, {} iterations)\n",
        out.display(),
        level.mesh.triangle_count(),
        super::format::snake_name(&e.end_reason),
        super::format::vec(e.final_position),
        e.iterations
    ))?;
    Ok(super::EXIT_OK)
}

/// `repro --run DIR`: 0 when the bundle gives its recorded outcome, 3 when not.
fn replay(dir: &std::path::Path) -> Result<i32, CliError> {
    if !dir.is_dir() {
        return Err(CliError::Failed(format!(
            "{}: not a folder (expected a repro bundle)",
            dir.display()
        )));
    }
    let bundle = repro::load(dir)?;
    let (got, differences) = repro::replay(&bundle)?;
    let reason = super::format::snake_name(&got.end_reason);
    let fin = super::format::vec(got.final_position);
    if differences.is_empty() {
        print_stdout(&format!(
            "reproduced: end reason {reason}, final {fin}, {} iterations\n",
            got.iterations
        ))?;
        return Ok(super::EXIT_OK);
    }
    print_stdout(&format!("NOT reproduced: {}\n", differences.join("; ")))?;
    Ok(EXIT_NOT_REPRODUCED)
}
