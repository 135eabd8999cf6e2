//! `collidoscope sweep --method M`: one move by a collision method other
//! than the ellipsoid slide ([`crate::methods`]), printed as text (one line
//! per step) or as JSON with the slide trace's top-level shape. The radial
//! method also lists the scene's cylinders and compares its end with the
//! swept ellipsoid's on the same cylinders.

use super::sweep::{SweepArgs, load_with_cylinders, object_flags};
use super::sweep_text::header;
use super::{CliError, format, print_stdout};
use crate::collide::SlideSettings;
use crate::level::Level;
use crate::level::cylinder::{Cylinder, UnusableCylinderObject, colliding_cylinder_objects};
use crate::methods::discrete::DiscreteStep;
use crate::methods::radial_compare::{DEFAULT_TOLERANCE_M, RadialComparison, compare_radial};
use crate::methods::tunnel::{TunnelRule, tunnel_rule};
use crate::methods::{Method, MethodSettings, MethodStep, MethodTrace, StepDetail, TriggerKind};
use glam::DVec3;
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON output: the inputs, the method's trace (its fields at the top
/// level, as the slide's) and the tunnelling rule of thumb.
#[derive(Serialize)]
struct MethodJson<'a> {
    level: &'a str,
    from: DVec3,
    velocity: DVec3,
    settings: &'a SlideSettings,
    method_settings: &'a MethodSettings,
    #[serde(flatten)]
    trace: &'a MethodTrace,
    /// Discrete mode: the speed above which the level tunnels.
    #[serde(skip_serializing_if = "Option::is_none")]
    tunnel_rule: Option<TunnelRule>,
    /// The scene's cylinders, in the order the radial method numbers them.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    cylinders: &'a [SceneCylinder],
    /// Objects named as cylinders that give none, and why.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    unusable_cylinder_objects: &'a [UnusableCylinderObject],
    /// Radial method: the swept ellipsoid on the same move and cylinders.
    #[serde(skip_serializing_if = "Option::is_none")]
    comparison: Option<&'a RadialComparison>,
}

/// A cylinder of the scene and where it came from.
#[derive(Serialize)]
struct SceneCylinder {
    /// Its number (`pole i` in the output).
    index: u32,
    /// `object` (an OBJ object named by the rule) or `flag` (`--cylinder`).
    source: &'static str,
    /// The object's name, for `object`.
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<String>,
    #[serde(flatten)]
    cylinder: Cylinder,
}

/// The cylinders of the scene (the objects named by the rule, then the
/// `--cylinder` flags) and the named objects that give none.
struct SceneCylinders {
    cylinders: Vec<SceneCylinder>,
    unusable: Vec<UnusableCylinderObject>,
}

fn scene_cylinders(level: &Level, flags: &[Cylinder], colliding: &[bool]) -> SceneCylinders {
    let objects = colliding_cylinder_objects(level.mesh(), colliding);
    let named = objects.cylinders.into_iter().map(|(o, c)| {
        let name = level.mesh().objects()[o as usize].name.clone();
        ("object", Some(name), c)
    });
    let given = flags.iter().map(|&c| ("flag", None, c));
    let cylinders = named
        .chain(given)
        .enumerate()
        .map(|(i, (source, object, cylinder))| SceneCylinder {
            index: i as u32,
            source,
            object,
            cylinder,
        })
        .collect();
    SceneCylinders {
        cylinders,
        unusable: objects.unusable,
    }
}

/// The cylinders, the named objects that give none and the comparison
/// with the ellipsoid, for the text output.
fn radial_report(
    level: &Level,
    scene: &SceneCylinders,
    cmp: Option<&RadialComparison>,
    s: &mut String,
) {
    if scene.cylinders.is_empty() {
        let _ = writeln!(
            s,
            "cylinders   {}",
            no_cylinder_words(level, &scene.unusable)
        );
    }
    for c in &scene.cylinders {
        let from = c.object.as_deref().unwrap_or("--cylinder");
        let _ = writeln!(
            s,
            "pole {:<6} base {} radius {:.3} height {:.3} ({from})",
            c.index,
            format::vec(c.cylinder.base_world),
            c.cylinder.radius,
            c.cylinder.height
        );
    }
    if !scene.cylinders.is_empty() {
        for u in scene.unusable.iter().take(LISTED_UNUSABLE) {
            let _ = writeln!(s, "skipped     {}: {}", short_name(&u.object), u.reason);
        }
        let more = scene.unusable.len().saturating_sub(LISTED_UNUSABLE);
        if more > 0 {
            let _ = writeln!(s, "skipped     and {more} more objects named as cylinders");
        }
    }
    if let Some(cmp) = cmp {
        let _ = writeln!(s, "ellipsoid   {}", cmp.sentence());
    }
}

/// Named objects that give no cylinder listed one by one in the text
/// output; the rest are counted.
const LISTED_UNUSABLE: usize = 5;

/// Why the scene has no cylinder: the named objects found and why each
/// gives none, or that none is named (and, when the import dropped
/// triangles, that an object left without any is gone).
fn no_cylinder_words(level: &Level, unusable: &[UnusableCylinderObject]) -> String {
    const GIVE: &str = "give --cylinder X,Y,Z,R,H";
    const RULE: &str = "cyl_*, pole_*, pillar_* or tree_*";
    if !unusable.is_empty() {
        let listed: Vec<String> = unusable
            .iter()
            .take(3)
            .map(|u| format!("{} ({})", short_name(&u.object), u.reason))
            .collect();
        let more = match unusable.len().saturating_sub(3) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        let objects = if unusable.len() == 1 {
            "object"
        } else {
            "objects"
        };
        return format!(
            "none usable: {} {objects} named {RULE} found, none gives a cylinder: {}{more}; {GIVE}",
            unusable.len(),
            listed.join("; ")
        );
    }
    let r = &level.report;
    let dropped = r.degenerate_triangles_dropped + r.duplicate_triangles_dropped;
    if dropped > 0 {
        return format!(
            "none: no object named {RULE} has triangles (the import dropped {} zero-area and {} \
             duplicate triangles, and an object left without any is not kept); {GIVE}",
            r.degenerate_triangles_dropped, r.duplicate_triangles_dropped
        );
    }
    format!("none: {GIVE} or name objects {RULE}")
}

/// An object's name cut to 40 characters for a one-line message.
fn short_name(name: &str) -> String {
    let mut short: String = name.chars().take(40).collect();
    if short.len() < name.len() {
        short.push('…');
    }
    format!("'{short}'")
}

/// Runs `sweep --method` for a method other than `ellipsoid`.
pub(super) fn run(
    a: &SweepArgs,
    method: Method,
    settings: &SlideSettings,
    from: DVec3,
    velocity: DVec3,
) -> Result<i32, CliError> {
    let ms = a.method_settings();
    ms.validate().map_err(CliError::Usage)?;
    let level = load_with_cylinders(a)?;
    let colliding = object_flags(&level, &a.non_colliding, &settings.level.non_colliding)?;
    let world = level.world_with(&colliding);
    let scene = scene_cylinders(&level, &a.cylinder, &colliding);
    let only: Vec<Cylinder> = scene.cylinders.iter().map(|c| c.cylinder).collect();
    // Too many (named objects and flags together) is the command's fault.
    crate::methods::validate_cylinders(&only).map_err(|e| CliError::Usage(e.0))?;
    let refused = |e: crate::methods::MethodError| {
        CliError::Failed(format!("the method refused the move: {e}"))
    };
    let (trace, comparison) = if method == Method::Radial {
        let (t, c) = compare_radial(
            world,
            &only,
            settings,
            &ms,
            from,
            velocity,
            DEFAULT_TOLERANCE_M,
        )
        .map_err(refused)?;
        (t, Some(c))
    } else {
        let t =
            crate::methods::run_with_cylinders(method, world, &only, settings, &ms, from, velocity)
                .map_err(refused)?;
        (t, None)
    };
    let rule = match method {
        Method::Discrete => tunnel_rule(&world, settings.radii_vec(), ms.step_hz),
        Method::Ellipsoid | Method::Box | Method::Radial => None,
    };
    let text = if a.json {
        let json = MethodJson {
            level: &level.name,
            from,
            velocity,
            settings,
            method_settings: &ms,
            trace: &trace,
            tunnel_rule: rule,
            cylinders: &scene.cylinders,
            unusable_cylinder_objects: &scene.unusable,
            comparison: comparison.as_ref(),
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        let mut text = text_report(&level, settings, &ms, from, velocity, &trace, rule);
        if method == Method::Radial {
            radial_report(&level, &scene, comparison.as_ref(), &mut text);
        }
        text
    };
    print_stdout(&text)?;
    Ok(super::EXIT_OK)
}

fn text_report(
    level: &Level,
    settings: &SlideSettings,
    ms: &MethodSettings,
    from: DVec3,
    velocity: DVec3,
    trace: &MethodTrace,
    rule: Option<TunnelRule>,
) -> String {
    let mut s = header(level, settings, from, velocity, None);
    let _ = writeln!(
        s,
        "method      {} ({}), {} steps at {} Hz over {} s",
        trace.method,
        trace.method.description(),
        trace.iterations.len(),
        ms.step_hz,
        ms.move_seconds
    );
    let speed = velocity.length() / ms.move_seconds;
    if let Some(rule) = rule {
        let verdict = if speed > rule.tunnel_speed_m_s {
            "this move is faster: it can tunnel"
        } else {
            "this move is slower"
        };
        let _ = writeln!(
            s,
            "rule        {}; {verdict} ({speed:.1} m/s)",
            rule.sentence()
        );
    }
    for step in &trace.iterations {
        let _ = writeln!(s, "{}", step_line(level, step));
    }
    let _ = writeln!(s, "final       {}", format::vec(trace.final_position));
    let _ = writeln!(s, "end reason  {}", format::snake_name(&trace.end_reason));
    s
}

/// `  #3 start (..) -> end (..)  contact tri 4 (wall) toi 0.4375 depth 0.120 m ...`
fn step_line(level: &Level, step: &MethodStep) -> String {
    let mut line = format!(
        "  #{} start {} -> end {}",
        step.index,
        format::vec(step.start),
        format::vec(step.end)
    );
    match &step.detail {
        StepDetail::Discrete(d) => discrete_words(level, d, &mut line),
        StepDetail::Box(r) => {
            let _ = write!(
                line,
                "  box levels 1-4 rejected {}/{}/{}/{}",
                r.rejected[0], r.rejected[1], r.rejected[2], r.rejected[3]
            );
            if r.colliding > 0 {
                let first = r.points().next().map(format::vec).unwrap_or_default();
                let _ = write!(
                    line,
                    "  COLLIDES with {} triangles, first at {first}",
                    r.colliding
                );
            }
        }
        StepDetail::Radial(r) => radial_words(r, &mut line),
    }
    line
}

/// `  pushed out of pole 2 (depth 0.120 m) by (..)  PASSED THROUGH pole 3`
fn radial_words(r: &crate::methods::radial::RadialStep, line: &mut String) {
    for h in &r.entered {
        let _ = write!(
            line,
            "  pushed out of pole {} (depth {:.4} m) by {}",
            h.cylinder,
            h.depth,
            format::vec(h.push)
        );
    }
    for c in &r.passed_through {
        let _ = write!(line, "  PASSED THROUGH pole {c}");
    }
    for c in &r.pushed_through {
        let _ = write!(line, "  PUSHED THROUGH to the far side of pole {c}");
    }
    if !r.inside_after.is_empty() {
        let list: Vec<String> = r.inside_after.iter().map(u32::to_string).collect();
        let _ = write!(line, "  STILL INSIDE pole {}", list.join(", "));
    }
}

fn discrete_words(level: &Level, d: &DiscreteStep, line: &mut String) {
    let name = |o: u32| {
        level
            .mesh
            .objects()
            .get(o as usize)
            .map_or("?", |m| m.name.as_str())
    };
    if let Some(c) = &d.contact {
        let _ = write!(
            line,
            "  contact tri {} ({}) toi {:.4} depth {:.4} m normal {}{}",
            c.impact.triangle,
            name(c.impact.object),
            c.toi,
            c.penetration.depth,
            format::vec(c.impact.normal),
            if c.resolved {
                ""
            } else {
                "  STILL OVERLAPPING"
            }
        );
    }
    if let Some(tri) = d.crossed_triangle {
        let object = name(level.mesh.object_of(tri) as u32);
        let _ = write!(line, "  TUNNELLED through tri {tri} ({object})");
    }
    for e in &d.trigger_events {
        let verb = match e.kind {
            TriggerKind::Enter => "enter",
            TriggerKind::Exit => "exit",
        };
        let _ = write!(line, "  trigger {verb} {}", e.name);
    }
}
