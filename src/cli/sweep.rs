//! `collidoscope sweep`: one collide-and-slide move of an ellipsoid probe
//! through a level, run by the same solver the window steps, printed as text
//! (one line per iteration) or as the full JSON trace.
//!
//! Inputs are world space (metres); the JSON trace carries every position
//! in world space and, with an `_espace` suffix, in the probe's ellipsoid space.

use super::args::{ImportArgs, parse_radii, parse_shape, parse_vec3};
use super::sweep_text::text_report;
use super::{CliError, print_stdout};
use crate::collide::{
    SlideMode, SlideResult, SlideSettings, TraceDetail, embedded_verdict, slide, tunnel_verdict,
};
use crate::level::Level;
use crate::level::cylinder::{Cylinder, level_with_cylinders};
use crate::methods::{Method, MethodSettings};
use clap::Args;
use glam::DVec3;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `collidoscope sweep`.
#[derive(Debug, Args)]
pub(crate) struct SweepArgs {
    /// The level (.obj, .obj.gz, or a .png heightmap: see --heightmap-spacing, --height-scale).
    pub(super) level: PathBuf,
    /// Probe centre at the start, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "batch", conflicts_with = "batch")]
    pub(super) from: Option<DVec3>,
    /// The requested move, world space, metres.
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true,
          required_unless_present = "batch", conflicts_with = "batch")]
    pub(super) velocity: Option<DVec3>,
    /// Run every move of a JSON Lines file (`-`: stdin) on the level loaded
    /// once: one JSON result per line (see docs/command-line.md, "Batch runs").
    #[arg(long, value_name = "MOVES.jsonl")]
    pub(super) batch: Option<PathBuf>,
    /// Ellipsoid radii along world x, y, z, metres [default: the settings' radii, else 0.4,0.9,0.4].
    #[arg(long, value_name = "RX,RY,RZ", value_parser = parse_radii, allow_hyphen_values = true)]
    radii: Option<DVec3>,
    /// The probe's shape instead of the ellipsoid: sphere:R, capsule:R,H
    /// (total height), cylinder:R,H or box:HX,HY,HZ (half sizes), metres;
    /// robust mode only [default: the settings' shape, else the ellipsoid].
    #[arg(long, value_name = "SHAPE", value_parser = parse_shape)]
    shape: Option<crate::geometry::shape::CharacterShape>,
    /// Gravity as a displacement for this one move, metres (not an acceleration:
    /// `walk` runs a character under gravity in m/s²) [default: the settings' gravity, else none].
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_vec3, allow_hyphen_values = true)]
    pub(super) gravity: Option<DVec3>,
    /// The algorithm: robust, fauerby2003 or nettle2000, or `all` to run
    /// the move in each and show where they diverge [default: the settings' mode, else robust].
    #[arg(long, value_parser = parse_mode)]
    pub(super) mode: Option<ModeChoice>,
    /// The collision method: ellipsoid (the collide-and-slide, default),
    /// discrete (overlap in fixed time steps), box (the box camera) or
    /// radial (push-out of vertical cylinders); see docs/methods.md.
    #[arg(long, value_parser = parse_method)]
    pub(super) method: Option<Method>,
    /// Fixed steps per second of the methods that step in time, Hz [default: 60].
    #[arg(long, value_name = "HZ")]
    step_hz: Option<f64>,
    /// Seconds the move takes (its speed is |velocity| / this) for the
    /// methods that step in time [default: 1].
    #[arg(long, value_name = "SECONDS")]
    move_seconds: Option<f64>,
    /// Very-close distance kept from the geometry, metres [default: the settings' skin, else 0.005].
    #[arg(long, value_parser = parse_skin, allow_hyphen_values = true)]
    skin: Option<f64>,
    /// Maximum iterations of the recursion per pass [default: the settings' value, else 5].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), allow_hyphen_values = true)]
    max_iterations: Option<u32>,
    /// A vertical cylinder (pole, tree): base centre, radius and height,
    /// metres; repeatable. The radial method pushes out of these and of the
    /// objects named `cyl_*`, `pole_*`, `pillar_*` or `tree_*`; the other methods
    /// collide with each as a 16-sided prism.
    #[arg(long, value_name = "X,Y,Z,R,H", value_parser = parse_cylinder, allow_hyphen_values = true)]
    pub(super) cylinder: Vec<Cylinder>,
    /// Name of an object (`o` / `g` in the file) that does not collide; repeatable.
    #[arg(long, value_name = "OBJECT")]
    pub(super) non_colliding: Vec<String>,
    /// Settings file (.toml or .json) to start from; the flags above override it.
    #[arg(long, value_name = "FILE")]
    settings: Option<PathBuf>,
    #[command(flatten)]
    pub(super) import: ImportArgs,
    /// Print the whole trace as JSON.
    #[arg(long)]
    pub(super) json: bool,
    /// Keep counts only: no per-candidate outcomes and no visited BVH
    /// nodes; with --batch, only each move's final state.
    #[arg(long)]
    pub(super) summary: bool,
}

/// `--mode`: one algorithm, or all of them side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModeChoice {
    /// Run this mode.
    One(SlideMode),
    /// Run every mode and compare them.
    All,
}

pub(super) fn parse_mode(text: &str) -> Result<ModeChoice, String> {
    if text == "all" {
        return Ok(ModeChoice::All);
    }
    text.parse().map(ModeChoice::One).map_err(|_| {
        format!("unknown mode '{text}' (expected robust, fauerby2003, nettle2000 or all)")
    })
}

pub(super) fn parse_cylinder(text: &str) -> Result<Cylinder, String> {
    Cylinder::parse(text).map_err(|e| e.0)
}

pub(super) fn parse_method(text: &str) -> Result<Method, String> {
    text.parse()
}

pub(super) fn parse_skin(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!(
            "skin '{text}' must be a finite number, zero or more"
        )),
    }
}

/// The JSON output: the solver's [`SlideResult`] (its fields at the top
/// level) plus the inputs that reproduce it.
#[derive(Serialize)]
pub(super) struct SweepJson<'a> {
    /// The input line, in batch runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    level: &'a str,
    from: DVec3,
    velocity: DVec3,
    settings: &'a SlideSettings,
    #[serde(flatten)]
    result: &'a SlideResult,
    /// Indices of the iterations that ended inside geometry.
    embedded_iterations: Vec<u32>,
    /// The one-line verdict when any did (see [`embedded_verdict`]).
    verdict: Option<String>,
    /// Indices of the iterations whose centre went through or within the
    /// radius of a triangle on the way.
    tunnel_iterations: Vec<u32>,
    /// The one-line verdict when any did (see [`tunnel_verdict`]).
    tunnel_verdict: Option<String>,
}

impl<'a> SweepJson<'a> {
    /// The output of one move; `line` is its input line in batch runs.
    pub(super) fn new(
        level: &'a Level,
        from: DVec3,
        velocity: DVec3,
        settings: &'a SlideSettings,
        result: &'a SlideResult,
        line: Option<usize>,
    ) -> Self {
        SweepJson {
            line,
            level: &level.name,
            from,
            velocity,
            settings,
            result,
            embedded_iterations: embedded_iterations(result),
            verdict: embedded_verdict(&level.mesh, settings.mode, &result.iterations),
            tunnel_iterations: tunnel_iterations(result),
            tunnel_verdict: tunnel_verdict(&level.mesh, settings.mode, &result.iterations),
        }
    }
}

/// Indices of the iterations whose centre tunnelled on the way.
pub(super) fn tunnel_iterations(result: &SlideResult) -> Vec<u32> {
    result
        .iterations
        .iter()
        .filter(|r| r.tunnel.is_some())
        .map(|r| r.index)
        .collect()
}

/// Indices of the iterations that ended inside geometry.
pub(super) fn embedded_iterations(result: &SlideResult) -> Vec<u32> {
    result
        .iterations
        .iter()
        .filter(|r| r.clearance.is_some_and(|c| c.embedded))
        .map(|r| r.index)
        .collect()
}

impl SweepArgs {
    /// The method settings: the defaults with the flags applied.
    pub(super) fn method_settings(&self) -> MethodSettings {
        let mut ms = MethodSettings::default();
        if let Some(hz) = self.step_hz {
            ms.step_hz = hz;
        }
        if let Some(t) = self.move_seconds {
            ms.move_seconds = t;
        }
        ms
    }

    /// Settings from the file (or the defaults) with the flags applied on
    /// top (`--mode all` leaves the mode as it is).
    pub(super) fn settings(&self) -> Result<SlideSettings, CliError> {
        let mut s = match &self.settings {
            Some(path) => crate::settings_file::load(path)?,
            None => SlideSettings::default(),
        };
        if let Some(r) = self.radii {
            s.radii = r.to_array();
        }
        if let Some(shape) = self.shape {
            s.shape = shape;
        }
        if !s.shape.is_ellipsoid() && matches!(self.mode, Some(ModeChoice::All)) {
            return Err(CliError::Usage(format!(
                "--mode all compares the ellipsoid's three modes; a {} runs only in robust mode",
                s.shape.name()
            )));
        }
        if let Some(g) = self.gravity {
            s.gravity = g.to_array();
        }
        if let Some(ModeChoice::One(m)) = self.mode {
            s.mode = m;
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

/// Runs `sweep`; the exit code (a batch with refused lines has its own).
pub(crate) fn run(a: &SweepArgs) -> Result<i32, CliError> {
    // Settings first: a bad settings file is reported before a long import.
    let settings = a.settings()?;
    if let Some(m) = a.method.filter(|&m| m != Method::Ellipsoid) {
        if a.batch.is_some() {
            return Err(CliError::Usage(format!(
                "--method {m} is not supported with --batch: a batch runs the ellipsoid slide only; \
                 run {m} moves one at a time with --from and --velocity"
            )));
        }
        if a.mode == Some(ModeChoice::All) {
            return Err(CliError::Usage(format!(
                "--method {m} is not supported with --mode all: it compares the ellipsoid slide's \
                 modes (robust, fauerby2003, nettle2000); drop --mode all to run {m}"
            )));
        }
        let (Some(from), Some(velocity)) = (a.from, a.velocity) else {
            return Err(CliError::Usage(format!(
                "--method {m} runs one move: give --from and --velocity"
            )));
        };
        return super::sweep_method::run(a, m, &settings, from, velocity);
    }
    if let Some(path) = &a.batch {
        if !a.cylinder.is_empty() {
            return Err(CliError::Usage(
                "--cylinder is for one move (--from and --velocity), not --batch".into(),
            ));
        }
        return super::sweep_batch::run(a, &settings, path);
    }
    let (Some(from), Some(velocity)) = (a.from, a.velocity) else {
        return Err(CliError::Usage(
            "--from and --velocity are required (or --batch MOVES.jsonl)".into(),
        ));
    };
    if !(from + velocity + settings.gravity_vec()).is_finite() {
        return Err(CliError::Usage(
            "--from + --velocity + gravity overflows to a non-finite position".into(),
        ));
    }
    let level = load_with_cylinders(a)?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let detail = if a.summary {
        TraceDetail::Summary
    } else {
        TraceDetail::Full
    };
    let world = level.world_with(&colliding);
    if a.mode == Some(ModeChoice::All) {
        let text = super::sweep_modes::report(&level, world, &settings, a, from, velocity, detail)?;
        print_stdout(&text)?;
        return Ok(super::EXIT_OK);
    }
    let result = slide(world, &settings, from, velocity, detail).ok_or_else(|| {
        CliError::Failed("the solver rejected the move (non-finite input)".into())
    })?;
    let text = if a.json {
        let json = SweepJson::new(&level, from, velocity, &settings, &result, None);
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        text_report(&level, &settings, from, velocity, &result)
    };
    print_stdout(&text)?;
    Ok(super::EXIT_OK)
}

/// The level, with each `--cylinder` added as a prism object
/// `cylinder_<i>` when there are any.
pub(super) fn load_with_cylinders(a: &SweepArgs) -> Result<Level, CliError> {
    let level = Level::load(&a.level, &a.import.options())?;
    if a.cylinder.is_empty() {
        return Ok(level);
    }
    crate::methods::validate_cylinders(&a.cylinder).map_err(|e| CliError::Usage(e.0))?;
    Ok(level_with_cylinders(&level, &a.cylinder))
}

/// One flag per object of the level: `false` for the objects named in
/// `names` (`--non-colliding`: an exact name, or a pattern with `*` or
/// `?`, which must name at least one object) and for those the settings'
/// `[level] non_colliding` `patterns` name (which may name none). Says on
/// stderr how many objects and triangles the patterns made non-colliding.
pub(super) fn object_flags(
    level: &Level,
    names: &[String],
    patterns: &[String],
) -> Result<Vec<bool>, CliError> {
    let objects = &level.mesh.objects;
    let mut colliding = vec![true; objects.len()];
    for name in names {
        let glob = name.contains(['*', '?']);
        let mut found = false;
        for (flag, o) in colliding.iter_mut().zip(objects) {
            if &o.name == name || (glob && crate::collide::object_matches(name, &o.name)) {
                *flag = false;
                found = true;
            }
        }
        if !found {
            let known: Vec<&str> = objects.iter().take(12).map(|o| o.name.as_str()).collect();
            let more = if objects.len() > known.len() {
                ", ..."
            } else {
                ""
            };
            let chars = name.chars().count();
            let shown = if chars > 40 {
                format!(
                    "{}… ({chars} characters)",
                    name.chars().take(40).collect::<String>()
                )
            } else {
                name.clone()
            };
            return Err(CliError::Failed(format!(
                "{}: no object named '{shown}' (objects: {}{more})",
                level.name,
                known.join(", ")
            )));
        }
    }
    if !patterns.is_empty() {
        let (named, n_objects, n_triangles) = crate::collide::objects_named(&level.mesh, patterns);
        for (flag, n) in colliding.iter_mut().zip(named) {
            *flag &= !n;
        }
        let hint = if n_objects == 0 && level.report.material_statements_ignored > 0 {
            " (materials are not objects here: load with --objects-by group-and-material to name them)"
        } else {
            ""
        };
        eprintln!(
            "non-colliding  {n_objects} objects, {n_triangles} triangles named by the settings' [level] patterns{hint}"
        );
    }
    Ok(colliding)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture `cli_box.obj` built in code: a floor at y = 0 and a wall at x = 3.
    fn box_level() -> Level {
        let p = |x: f32, y: f32, z: f32| glam::Vec3::new(x, y, z);
        let positions = vec![
            p(-5.0, 0.0, -5.0),
            p(-5.0, 0.0, 5.0),
            p(5.0, 0.0, 5.0),
            p(5.0, 0.0, -5.0),
            p(3.0, 0.0, -5.0),
            p(3.0, 0.0, 5.0),
            p(3.0, 3.0, 5.0),
            p(3.0, 3.0, -5.0),
        ];
        let triangles = vec![[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]];
        let objects = vec![("floor".to_string(), 2), ("wall".to_string(), 2)];
        Level::from_mesh(
            "box",
            crate::mesh::TriMesh::new(positions, triangles, objects),
        )
    }

    fn try_args(extra: &[&str]) -> Result<SweepArgs, clap::Error> {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            sweep: SweepArgs,
        }
        let argv = ["sweep", "box.obj"].iter().chain(extra).copied();
        Wrap::try_parse_from(argv).map(|w| w.sweep)
    }

    fn args(extra: &[&str]) -> SweepArgs {
        try_args(extra).unwrap()
    }

    #[test]
    fn the_text_report_shows_the_hit_the_slide_and_the_end() {
        let level = box_level();
        let a = args(&["--from", "0,1,0", "--velocity", "5,0,5"]);
        let settings = a.settings().unwrap();
        let r = slide(
            level.world(),
            &settings,
            a.from.unwrap(),
            a.velocity.unwrap(),
            TraceDetail::Full,
        )
        .unwrap();
        let text = text_report(&level, &settings, a.from.unwrap(), a.velocity.unwrap(), &r);
        assert!(
            text.starts_with("level       box (4 triangles)\n"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  #")).collect();
        assert_eq!(lines.len(), r.iterations.len(), "{text}");
        assert!(
            lines[0].starts_with("  #0 velocity d0  start (0.0000, 1.0000, 0.0000) -> end (2.59")
        );
        assert!(lines[0].contains("hit triangle ") && lines[0].contains("(wall) face t=0.5"));
        assert!(lines[0].ends_with("continue"), "{text}");
        assert!(
            lines.last().unwrap().contains("move ended: arrived"),
            "{text}"
        );
        assert!(text.contains("final       (2.59"), "{text}");
        assert!(text.contains("end reason  arrived"), "{text}");
    }

    #[test]
    fn a_move_ending_inside_a_wall_is_flagged_on_its_line_and_in_a_verdict() {
        let level = box_level();
        // From behind the wall, which nettle2000 ignores: ends half a radius in.
        let a = args(&[
            "--from",
            "5,1,0",
            "--velocity",
            "-1.8,0,0",
            "--mode",
            "nettle2000",
        ]);
        let settings = a.settings().unwrap();
        let r = slide(
            level.world(),
            &settings,
            a.from.unwrap(),
            a.velocity.unwrap(),
            TraceDetail::Full,
        )
        .unwrap();
        let text = text_report(&level, &settings, a.from.unwrap(), a.velocity.unwrap(), &r);
        assert!(
            text.contains("EMBEDDED 0.2000 m (0.500 radii) in triangle 2 (wall)"),
            "{text}"
        );
        let verdict = text.lines().last().unwrap();
        assert!(
            verdict.starts_with("VERDICT     embedded: 1 of 1"),
            "{text}"
        );
        assert!(verdict.contains("nettle2000 ignores"), "{text}");
        // A sound move says how clear it stayed, and has no verdict.
        let a = args(&["--from", "0,0.92,0", "--velocity", "1,0,0"]);
        let r = slide(
            level.world(),
            &settings,
            a.from.unwrap(),
            a.velocity.unwrap(),
            TraceDetail::Full,
        )
        .unwrap();
        let text = text_report(&level, &settings, a.from.unwrap(), a.velocity.unwrap(), &r);
        assert!(
            text.contains("clearance 0.0200 m  move ended: arrived"),
            "{text}"
        );
        assert!(!text.contains("VERDICT"), "{text}");
    }

    #[test]
    fn a_move_through_a_wall_is_flagged_as_a_tunnel_in_text_and_json() {
        let level = box_level();
        // From behind the wall, right through it: ends clear on the far side.
        let a = args(&[
            "--from",
            "5,1,0",
            "--velocity",
            "-4,0,0",
            "--mode",
            "fauerby2003",
        ]);
        let settings = a.settings().unwrap();
        let (from, velocity) = (a.from.unwrap(), a.velocity.unwrap());
        let r = slide(level.world(), &settings, from, velocity, TraceDetail::Full).unwrap();
        let text = text_report(&level, &settings, from, velocity, &r);
        assert!(
            text.contains("TUNNEL through triangle 2 (wall) at t=0.5000, back face"),
            "{text}"
        );
        let verdict = text.lines().last().unwrap();
        assert!(
            verdict.starts_with("VERDICT     tunnel: 1 of 1")
                && verdict.contains("fauerby2003 culls"),
            "{text}"
        );
        let json =
            serde_json::to_value(SweepJson::new(&level, from, velocity, &settings, &r, None))
                .unwrap();
        assert_eq!(json["tunnel_iterations"], serde_json::json!([0]));
        assert_eq!(json["embedded_iterations"], serde_json::json!([]));
        assert!(
            json["tunnel_verdict"]
                .as_str()
                .unwrap()
                .starts_with("tunnel: ")
        );
        let t = &json["iterations"][0]["tunnel"];
        assert_eq!(t["triangle"], 2);
        assert_eq!(t["crossed"], true);
        assert_eq!(t["cause"], "back_face_culled");
    }

    #[test]
    fn flags_override_the_defaults_and_are_validated_together() {
        let a = args(&["--from", "0,1,0", "--velocity", "1,0,0", "--radii", "1,2,3"]);
        let s = a.settings().unwrap();
        assert_eq!(s.radii, [1.0, 2.0, 3.0]);
        assert_eq!(s.mode, SlideMode::Robust);
        let a = args(&[
            "--from",
            "0,1,0",
            "--velocity",
            "1,0,0",
            "--gravity",
            "0,-1e9,0",
        ]);
        let s = a.settings().unwrap();
        assert_eq!(s.gravity, [0.0, -1e9, 0.0]);
        // Beyond a million kilometres is refused when the flags are read.
        let e = try_args(&["--from", "0,1,0", "--velocity", "1e308,1e308,0"])
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("beyond the supported"), "{e}");
        // A skin as large as the probe is refused with the radii.
        let a = args(&["--from", "0,1,0", "--velocity", "1,0,0", "--skin", "1e9"]);
        let e = a.settings().unwrap_err().to_string();
        assert!(e.contains("smaller than the smallest radius"), "{e}");
    }

    #[test]
    fn non_colliding_objects_are_passed_through() {
        let level = box_level();
        let a = args(&[
            "--from",
            "0,1,0",
            "--velocity",
            "5,0,0",
            "--non-colliding",
            "wall",
        ]);
        let flags = object_flags(&level, &a.non_colliding, &[]).unwrap();
        assert_eq!(flags, [true, false]);
        let r = slide(
            level.world_with(&flags),
            &a.settings().unwrap(),
            a.from.unwrap(),
            a.velocity.unwrap(),
            TraceDetail::Full,
        );
        assert_eq!(r.unwrap().final_position, glam::DVec3::new(5.0, 1.0, 0.0));
        let e = object_flags(&level, &["roof".to_string()], &[])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "box: no object named 'roof' (objects: floor, wall)");
    }

    #[test]
    fn skin_and_mode_parsers_reject_bad_values() {
        assert_eq!(parse_skin("0.01").unwrap(), 0.01);
        assert!(parse_skin("-0.1").is_err());
        assert!(parse_skin("nan").is_err());
        assert_eq!(
            parse_mode("nettle2000").unwrap(),
            ModeChoice::One(SlideMode::Nettle2000)
        );
        assert_eq!(parse_mode("all").unwrap(), ModeChoice::All);
        assert!(parse_mode("quake").unwrap_err().contains("unknown mode"));
    }
}
