//! The view's ghosts for Compare modes and what-if, as overlay primitives
//! (world space): each mode's centre path through its iterations and its
//! end ellipsoid in the mode's colour ([`OverlayKind::ModeComparison`]),
//! and the move before and after a settings edit ([`OverlayKind::WhatIf`]).

use crate::analysis::compare_walk::WalkComparison;
use crate::analysis::whatif::{Ending, Outcome};
use crate::app::compare::{CompareState, mode_color};
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use glam::DVec3;

/// The before ghost of a what-if: grey, translucent.
pub const WHATIF_BEFORE_COLOR: [f32; 4] = [0.62, 0.62, 0.68, 0.28];
/// The after ghost of a what-if: pale yellow, translucent.
pub const WHATIF_AFTER_COLOR: [f32; 4] = [1.0, 0.95, 0.55, 0.28];

/// One outcome as a ghost: its path (opaque segments) and its end
/// ellipsoid (translucent) labelled `label`.
fn ghost(
    kind: OverlayKind,
    outcome: &Outcome,
    radii: DVec3,
    color: [f32; 4],
    label: String,
) -> Vec<DebugPrimitive> {
    let line = [color[0], color[1], color[2], 1.0];
    let mut out: Vec<DebugPrimitive> = outcome
        .path_w
        .windows(2)
        .filter(|w| w[0] != w[1])
        .map(|w| DebugPrimitive {
            kind,
            shape: Shape::Segment { a: w[0], b: w[1] },
            color: line,
            label: None,
        })
        .collect();
    out.push(DebugPrimitive {
        kind,
        shape: Shape::Ellipsoid {
            center: outcome.end_w(),
            radii,
        },
        color,
        label: Some(label),
    });
    out
}

/// The ghosts of the comparison and the what-if shown, for a probe with
/// `radii` now; kinds that are off give nothing.
pub fn compare_primitives(
    compare: &CompareState,
    radii: DVec3,
    show_modes: bool,
    show_whatif: bool,
) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    if let (true, Some(m)) = (show_modes, &compare.modes) {
        for run in &m.runs {
            out.extend(ghost(
                OverlayKind::ModeComparison,
                &run.outcome,
                radii,
                mode_color(run.mode),
                format!("{}: {}", run.mode.name(), run.outcome.ending.words()),
            ));
        }
    }
    if let (true, Some(w)) = (show_modes, &compare.walk) {
        out.extend(walk_ghosts(&w.comparison, radii));
    }
    if let (true, Some(w)) = (show_whatif, &compare.whatif) {
        out.extend(ghost(
            OverlayKind::WhatIf,
            &w.before,
            w.before_settings.radii_vec(),
            WHATIF_BEFORE_COLOR,
            format!("before: {}", w.before.ending.words()),
        ));
        out.extend(ghost(
            OverlayKind::WhatIf,
            &w.after,
            radii,
            WHATIF_AFTER_COLOR,
            format!("after: {}", w.after.ending.words()),
        ));
    }
    out
}

/// Each mode's walk: the path through its frame ends and its last end.
fn walk_ghosts(c: &WalkComparison, radii: DVec3) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    for (m, mode) in c.modes.iter().enumerate() {
        let mut path_w = vec![c.start];
        path_w.extend(c.rows.iter().map(|r| r.ends[m].position));
        let outcome = Outcome {
            path_w,
            ending: Ending::Move(crate::collide::EndReason::Arrived),
            embedded: false,
        };
        let label = format!("{} walk end", mode.name());
        out.extend(ghost(
            OverlayKind::ModeComparison,
            &outcome,
            radii,
            mode_color(*mode),
            label,
        ));
    }
    out
}

/// Every point the ghosts are drawn from (the overlay cache's key).
pub fn ghost_points(compare: &CompareState) -> Vec<DVec3> {
    let mut pts = Vec::new();
    if let Some(m) = &compare.modes {
        for r in &m.runs {
            pts.extend(&r.outcome.path_w);
        }
    }
    if let Some(w) = &compare.walk {
        pts.push(w.comparison.start);
        pts.extend(
            w.comparison
                .rows
                .last()
                .iter()
                .flat_map(|r| r.ends.iter().map(|e| e.position)),
        );
        pts.push(glam::DVec3::splat(w.comparison.rows.len() as f64));
    }
    if let Some(w) = &compare.whatif {
        pts.extend(&w.before.path_w);
        pts.extend(&w.after.path_w);
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::EndReason;

    #[test]
    fn a_ghost_is_its_path_and_its_labelled_end() {
        let o = Outcome {
            path_w: vec![DVec3::ZERO, DVec3::X, DVec3::X, DVec3::new(1.0, 0.0, 1.0)],
            ending: Ending::Move(EndReason::Arrived),
            embedded: false,
        };
        let g = ghost(
            OverlayKind::WhatIf,
            &o,
            DVec3::ONE,
            WHATIF_BEFORE_COLOR,
            "before: arrived".into(),
        );
        // The repeated point (an iteration that did not move) draws nothing.
        assert_eq!(g.len(), 3);
        assert!(g.iter().all(|p| p.kind == OverlayKind::WhatIf));
        assert_eq!(g[0].color[3], 1.0);
        let end = g.last().unwrap();
        assert_eq!(end.label.as_deref(), Some("before: arrived"));
        assert_eq!(
            end.shape,
            Shape::Ellipsoid {
                center: DVec3::new(1.0, 0.0, 1.0),
                radii: DVec3::ONE
            }
        );
        let empty = CompareState::default();
        assert!(compare_primitives(&empty, DVec3::ONE, true, true).is_empty());
    }
}
