//! "Move all probes together" in the editor: every probe's move at once,
//! each pair through the swept bounding-sphere test
//! ([`crate::analysis::probe_pairs`], seed document 001), and the overlays
//! that show it, world space: both swept paths, the contact points and the
//! closest approaches.

use crate::analysis::probe_pairs::{PairProbe, PairsReport, test_pairs};
use crate::app::state::EditorState;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use std::sync::Arc;

/// The probes as they were moved together and what the pair test found.
#[derive(Clone, Debug, PartialEq)]
pub struct PairsView {
    /// The probes' moves (names, starts, velocities, radii) when run.
    pub probes: Vec<PairProbe>,
    /// The pair test's report.
    pub report: PairsReport,
}

/// Runs every probe's move at once and keeps the pair report in
/// `state.pairs` (replacing an earlier one), with a status message.
pub fn move_all_together(state: &mut EditorState) {
    if state.probes.len() < 2 {
        state.error("Move all probes together: place at least two probes first");
        return;
    }
    let probes: Vec<PairProbe> = state
        .probes
        .iter()
        .map(|p| PairProbe {
            name: p.name.clone(),
            from: p.position,
            velocity: p.velocity,
            radii: p.radii(),
        })
        .collect();
    match test_pairs(&probes) {
        Ok(report) => {
            state.info(format!(
                "Moved {} probes together: {} of {} pairs touch (bounding spheres)",
                report.probe_count, report.colliding_count, report.pair_count
            ));
            state.pairs = Some(Arc::new(PairsView { probes, report }));
        }
        Err(e) => state.error(format!("Move all probes together: {e}")),
    }
}

/// The overlays of a pair run: each probe's straight move, the contact
/// point of each touching pair (with both centres then), and each pair's
/// closest approach as the segment between the centres, labelled with the
/// gap between the spheres when they do not touch.
pub fn pair_primitives(view: &PairsView) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    let paths = OverlayKind::PairPaths;
    for p in &view.probes {
        out.push(DebugPrimitive {
            kind: paths,
            shape: Shape::Arrow {
                from: p.from,
                to: p.from + p.velocity,
            },
            color: paths.color(),
            label: None,
        });
    }
    for pair in &view.report.pairs {
        let names = format!(
            "{} × {}",
            view.probes[pair.a].name, view.probes[pair.b].name
        );
        if let Some(c) = pair.contact {
            let kind = OverlayKind::PairContact;
            out.push(DebugPrimitive {
                kind,
                shape: Shape::Point { p: c.point },
                color: kind.color(),
                label: Some(format!("{names}: contact at t = {:.2}", c.t)),
            });
            out.push(DebugPrimitive {
                kind,
                shape: Shape::Segment {
                    a: c.center_a,
                    b: c.center_b,
                },
                color: kind.color(),
                label: None,
            });
        }
        // A touching pair is labelled at its contact; a missing one at its
        // closest approach (one label per pair keeps the view readable).
        let kind = OverlayKind::PairClosest;
        let closest = pair.closest;
        out.push(DebugPrimitive {
            kind,
            shape: Shape::Segment {
                a: closest.center_a,
                b: closest.center_b,
            },
            color: kind.color(),
            label: pair.contact.is_none().then(|| {
                format!(
                    "{names}: closest {:.2} m apart at t = {:.2}",
                    closest.gap, closest.t
                )
            }),
        });
    }
    out
}
