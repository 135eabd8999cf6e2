//! Overlays of the radial method (seed document 002), world space: the
//! scene's cylinders, a step's push-outs and the poles it went through,
//! and where the swept ellipsoid ends on the same move.

use super::MethodStep;
use super::radial::RadialStep;
use super::radial_compare::RadialComparison;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, OverlayToggles, Shape};
use crate::level::cylinder::Cylinder;
use glam::DVec3;
use std::f64::consts::TAU;

/// Segments around a drawn circle.
const CIRCLE_SEGMENTS: usize = 24;

/// At most this many cylinders are drawn (each is ~30 segments).
pub const MAX_CYLINDERS_DRAWN: usize = 512;

fn prim(kind: OverlayKind, shape: Shape, label: Option<String>) -> DebugPrimitive {
    DebugPrimitive {
        kind,
        shape,
        color: kind.color(),
        label,
    }
}

/// Each cylinder as its bottom and top circles and four vertical lines,
/// labelled `pole i`; the first [`MAX_CYLINDERS_DRAWN`] only.
pub fn cylinder_primitives(
    cylinders: &[Cylinder],
    toggles: &OverlayToggles,
) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    if !toggles.get(OverlayKind::Cylinders) {
        return out;
    }
    for (i, c) in cylinders.iter().take(MAX_CYLINDERS_DRAWN).enumerate() {
        let at = |k: usize, y: f64| {
            let a = k as f64 * TAU / CIRCLE_SEGMENTS as f64;
            c.base_world + DVec3::new(c.radius * a.cos(), y, c.radius * a.sin())
        };
        for y in [0.0, c.height] {
            for k in 0..CIRCLE_SEGMENTS {
                let shape = Shape::Segment {
                    a: at(k, y),
                    b: at(k + 1, y),
                };
                out.push(prim(OverlayKind::Cylinders, shape, None));
            }
        }
        for k in (0..CIRCLE_SEGMENTS).step_by(CIRCLE_SEGMENTS / 4) {
            let shape = Shape::Segment {
                a: at(k, 0.0),
                b: at(k, c.height),
            };
            out.push(prim(OverlayKind::Cylinders, shape, None));
        }
        let top = Shape::Point {
            p: c.base_world + DVec3::Y * c.height,
        };
        out.push(prim(OverlayKind::Cylinders, top, Some(format!("pole {i}"))));
    }
    out
}

/// The steps done so far: the jumps past poles (red, as tunnelling); the
/// current step: each push-out arrow with its depth.
pub(super) fn radial_step_primitives(
    done: &[MethodStep],
    current: &RadialStep,
    push: &mut impl FnMut(OverlayKind, Shape, Option<String>),
) {
    for s in done {
        let Some(d) = s.detail.as_radial() else {
            continue;
        };
        for c in d.passed_through.iter().chain(&d.pushed_through) {
            push(
                OverlayKind::Tunnelling,
                Shape::Segment {
                    a: s.start,
                    b: s.end,
                },
                Some(format!("step {} through pole {c}", s.index)),
            );
        }
    }
    let mut from = current.sample;
    for h in &current.entered {
        push(
            OverlayKind::PushOut,
            Shape::Arrow {
                from,
                to: from + h.push,
            },
            Some(format!("pole {} depth {:.3} m", h.cylinder, h.depth)),
        );
        // Chained tail to head, so the arrows add up to the total push.
        from += h.push;
    }
}

/// The swept ellipsoid's end (a ghost) and the line from the push-out's
/// end, labelled with the comparison's sentence, when the two disagree.
pub fn disagreement_primitives(
    cmp: &RadialComparison,
    radii: DVec3,
    toggles: &OverlayToggles,
) -> Vec<DebugPrimitive> {
    let kind = OverlayKind::RadialDisagreement;
    if !cmp.disagree || !toggles.get(kind) {
        return Vec::new();
    }
    vec![
        prim(
            kind,
            Shape::Ellipsoid {
                center: cmp.ellipsoid_end,
                radii,
            },
            Some("ellipsoid stops here".into()),
        ),
        prim(
            kind,
            Shape::Segment {
                a: cmp.radial_end,
                b: cmp.ellipsoid_end,
            },
            Some(format!("{:.2} m apart", cmp.apart_m)),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cylinders_are_drawn_labelled_and_switch_off() {
        let c = Cylinder::new(DVec3::new(1.0, 0.0, 2.0), 0.5, 3.0).unwrap();
        let on = cylinder_primitives(&[c, c], &OverlayToggles::default());
        assert_eq!(on.len(), 2 * (2 * CIRCLE_SEGMENTS + 4 + 1));
        assert!(on.iter().all(|p| p.kind == OverlayKind::Cylinders));
        assert_eq!(on.last().unwrap().label.as_deref(), Some("pole 1"));
        let mut off = OverlayToggles::default();
        off.set(OverlayKind::Cylinders, false);
        assert!(cylinder_primitives(&[c], &off).is_empty());
    }
}
