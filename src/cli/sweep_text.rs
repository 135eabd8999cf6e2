//! The text output of `collidoscope sweep`: a header naming the level, the
//! probe and the move, then one line per solver iteration (hit, trigger
//! events, clearance, outcome), then the end. Positions are world space,
//! metres.

use super::format;
use crate::collide::{
    CLEARANCE_REACH_RADII, CandidateOutcome, IterationOutcome, IterationRecord, SlideMode,
    SlideResult, SlideSettings, embedded_verdict, tunnel_verdict,
};
use crate::level::Level;
use glam::DVec3;
use std::fmt::Write as _;

/// The text output of one move: the header, one line per iteration, the end.
pub(super) fn text_report(
    level: &Level,
    settings: &SlideSettings,
    from: DVec3,
    velocity: DVec3,
    r: &SlideResult,
) -> String {
    let mut s = header(level, settings, from, velocity, Some(settings.mode));
    let _ = writeln!(s, "iterations  {}", r.iterations.len());
    for rec in &r.iterations {
        let _ = writeln!(s, "{}", iteration_line(level, rec));
    }
    let _ = writeln!(s, "final       {}", format::vec(r.final_position));
    let _ = writeln!(s, "end reason  {}", format::snake_name(&r.end_reason));
    if let Some(verdict) = embedded_verdict(&level.mesh, settings.mode, &r.iterations) {
        let _ = writeln!(s, "VERDICT     {verdict}");
    }
    if let Some(verdict) = tunnel_verdict(&level.mesh, settings.mode, &r.iterations) {
        let _ = writeln!(s, "VERDICT     {verdict}");
    }
    s
}

/// The lines naming the level, the probe (its mode when `mode` is given)
/// and the move.
pub(super) fn header(
    level: &Level,
    settings: &SlideSettings,
    from: DVec3,
    velocity: DVec3,
    mode: Option<SlideMode>,
) -> String {
    let mut s = String::new();
    let source = match &level.path {
        Some(path) => format!("{}, ", path.display()),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "level       {} ({source}{} triangles)",
        level.name,
        level.mesh.triangle_count()
    );
    let mode = mode.map(|m| format!("mode {m}, ")).unwrap_or_default();
    let _ = writeln!(
        s,
        "probe       {mode}{}, skin {}, max_iterations {}, two_sided {}",
        if settings.shape.is_ellipsoid() {
            format!("radii {}", format::vec(settings.radii_vec()))
        } else {
            settings.shape.to_string()
        },
        settings.skin,
        settings.max_iterations,
        settings.two_sided
    );
    let _ = writeln!(s, "from        {}", format::vec(from));
    let _ = writeln!(s, "velocity    {}", format::vec(velocity));
    let _ = writeln!(s, "gravity     {}", format::vec(settings.gravity_vec()));
    s
}

/// `  #0 velocity d0  start (..) -> end (..)  hit triangle 3 (wall) face t=0.5000  continue`
pub(super) fn iteration_line(level: &Level, rec: &IterationRecord) -> String {
    let mut line = format!(
        "  #{} {} d{}  start {} -> end {}",
        rec.index,
        format::snake_name(&rec.pass),
        rec.depth,
        format::vec(rec.start),
        format::vec(rec.end)
    );
    if let Some(rc) = &rec.recovery {
        let _ = write!(
            line,
            "  pushed out of triangle {} by {}",
            rc.triangle,
            format::vec(rc.push)
        );
    }
    match &rec.nearest {
        Some(hit) => {
            let object = object_name(level, hit.object);
            let _ = write!(
                line,
                "  hit triangle {} ({object}) {} t={:.4}",
                hit.triangle,
                format::feature(hit.feature),
                hit.t
            );
            if let Some(ghost) = &rec.ghost_hit {
                let names: Vec<String> = ghost
                    .neighbours
                    .iter()
                    .zip(&ghost.neighbour_objects)
                    .take(4)
                    .map(|(t, &o)| format!("{t} ({})", object_name(level, o)))
                    .collect();
                let _ = write!(
                    line,
                    "  GHOST corner (flat neighbours {}; contact bent {:.1}°)",
                    names.join(", "),
                    ghost.deflection_deg
                );
            }
        }
        None => {
            let separating = rec
                .candidates
                .iter()
                .filter(|c| matches!(c.outcome, CandidateOutcome::Separating { .. }))
                .count();
            let _ = write!(line, "  no hit ({} candidates", rec.candidate_count);
            if separating > 0 {
                let _ = write!(line, ", {separating} separating");
            }
            line.push(')');
        }
    }
    for e in &rec.trigger_events {
        let _ = write!(line, "  trigger {} {} t={:.4}", e.kind.name(), e.name, e.t);
    }
    if let Some(t) = &rec.tunnel {
        let how = if t.crossed {
            "through".to_string()
        } else {
            format!("{:.4} m ({:.3} radii) into", t.depth_metres, t.depth_radii)
        };
        let _ = write!(
            line,
            "  TUNNEL {how} triangle {} ({}) at t={:.4}{}",
            t.triangle,
            object_name(level, t.object),
            t.t,
            if t.back_face { ", back face" } else { "" }
        );
    }
    line.push_str("  ");
    line.push_str(&clearance(level, rec));
    line.push_str("  ");
    line.push_str(&outcome(&rec.outcome));
    line
}

/// `clearance 0.0050 m`, or `EMBEDDED 0.2000 m (0.500 radii) in triangle 3 (wall)`.
fn clearance(level: &Level, rec: &IterationRecord) -> String {
    match &rec.clearance {
        None => format!("clearance > {CLEARANCE_REACH_RADII} radii"),
        Some(c) if c.embedded => format!(
            "EMBEDDED {:.4} m ({:.3} radii) in triangle {} ({})",
            -c.metres,
            -c.radii,
            c.triangle,
            object_name(level, c.object)
        ),
        Some(c) => format!("clearance {:.4} m", c.metres),
    }
}

fn object_name(level: &Level, object: u32) -> &str {
    level
        .mesh
        .objects
        .get(object as usize)
        .map_or("?", |o| o.name.as_str())
}

fn outcome(o: &IterationOutcome) -> String {
    match o {
        IterationOutcome::Continue => "continue".to_string(),
        IterationOutcome::PassEnded(r) => format!("pass ended: {}", format::snake_name(r)),
        IterationOutcome::MoveEnded(r) => format!("move ended: {}", format::snake_name(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::EndReason;

    #[test]
    fn outcomes_read_as_words() {
        assert_eq!(outcome(&IterationOutcome::Continue), "continue");
        assert_eq!(
            outcome(&IterationOutcome::PassEnded(EndReason::Arrived)),
            "pass ended: arrived"
        );
        assert_eq!(
            outcome(&IterationOutcome::MoveEnded(EndReason::CreaseStop)),
            "move ended: crease_stop"
        );
    }
}
