//! Overlays of a method's trace: the same renderer-agnostic primitives as
//! the slide's overlays ([`crate::collide::debug_draw`]), built from the
//! trace alone, world space.

use super::discrete::DiscreteStep;
use super::{MethodStep, TriggerKind};
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, OverlayToggles, Shape};
use crate::mesh::TriMesh;
use glam::DVec3;

/// At most this many step samples are drawn (the latest ones).
const MAX_SAMPLES_DRAWN: usize = 40;

/// The primitives for `steps[..=cursor]`, the step at `cursor` being the
/// current one, for a probe with `radii`; kinds switched off in `toggles`
/// are left out.
pub fn primitives_for_method(
    steps: &[MethodStep],
    cursor: usize,
    radii: DVec3,
    mesh: &TriMesh,
    toggles: &OverlayToggles,
) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    let Some(current) = steps.get(cursor) else {
        return out;
    };
    let done = &steps[..=cursor];
    let mut push = |kind: OverlayKind, shape: Shape, label: Option<String>| {
        if toggles.get(kind) {
            out.push(DebugPrimitive {
                kind,
                shape,
                color: kind.color(),
                label,
            });
        }
    };
    for s in done {
        push(
            OverlayKind::MethodPath,
            Shape::Segment {
                a: s.start,
                b: s.end,
            },
            None,
        );
    }
    push(
        OverlayKind::Velocity,
        Shape::Arrow {
            from: current.start,
            to: current.start + current.velocity,
        },
        Some(format!("step {}", current.index)),
    );
    let first_sample = done.len().saturating_sub(MAX_SAMPLES_DRAWN);
    for sample in done[first_sample..].iter().filter_map(|s| {
        (s.detail.as_discrete().map(|d| d.sample)).or(s.detail.as_radial().map(|r| r.sample))
    }) {
        push(
            OverlayKind::MethodSamples,
            Shape::Ellipsoid {
                center: sample,
                radii,
            },
            None,
        );
    }
    for s in done {
        if let Some(d) = s.detail.as_discrete() {
            tunnel_and_trigger_primitives(s, d, mesh, &mut push);
        }
    }
    if let Some(d) = current.detail.as_discrete() {
        contact_primitives(d, radii, mesh, &mut push);
    }
    if let Some(r) = current.detail.as_box() {
        box_primitives(r, &mut push);
    }
    if let Some(r) = current.detail.as_radial() {
        super::radial_draw::radial_step_primitives(done, r, &mut push);
    }
    out
}

/// The box camera's current step: its box, the edges that reached level 4
/// and the intersection points.
fn box_primitives(
    r: &crate::analysis::boxcam::BoxCamReport,
    push: &mut impl FnMut(OverlayKind, Shape, Option<String>),
) {
    let aabb = crate::math::Aabb::from_f64_covering(r.camera.min, r.camera.max);
    let label = format!(
        "levels 1-4 rejected {}/{}/{}/{}; {} collide",
        r.rejected[0], r.rejected[1], r.rejected[2], r.rejected[3], r.colliding
    );
    push(OverlayKind::BoxCamera, Shape::Box { aabb }, Some(label));
    let mut edges: Vec<u8> = r
        .triangles
        .iter()
        .flat_map(|t| t.surviving_edges.iter().copied())
        .collect();
    edges.sort_unstable();
    edges.dedup();
    for e in edges {
        let (a, b) = r.camera.edge(e as usize);
        push(OverlayKind::BoxEdges, Shape::Segment { a, b }, None);
    }
    for t in &r.triangles {
        for h in &t.hits {
            push(
                OverlayKind::BoxPoints,
                Shape::Point { p: h.point },
                Some(format!("tri {} edge {}", t.triangle, h.edge)),
            );
        }
    }
}

/// The tunnelled surface and the trigger events of one step done.
fn tunnel_and_trigger_primitives(
    s: &MethodStep,
    d: &DiscreteStep,
    mesh: &TriMesh,
    push: &mut impl FnMut(OverlayKind, Shape, Option<String>),
) {
    if let Some(tri) = d
        .crossed_triangle
        .filter(|&t| (t as usize) < mesh.triangle_count())
    {
        push(
            OverlayKind::Tunnelling,
            Shape::Segment {
                a: s.start,
                b: d.sample,
            },
            Some(format!("step {} tunnelled", s.index)),
        );
        push(
            OverlayKind::Tunnelling,
            Shape::Triangle {
                corners: mesh.triangle_f64(tri),
            },
            Some(format!("tri {tri}")),
        );
    }
    for e in &d.trigger_events {
        let verb = match e.kind {
            TriggerKind::Enter => "enter",
            TriggerKind::Exit => "exit",
        };
        push(
            OverlayKind::Triggers,
            Shape::Point { p: s.end },
            Some(format!("{verb} {}", e.name)),
        );
    }
}

/// The current step's contact: time of impact, normal, depth and push.
fn contact_primitives(
    d: &DiscreteStep,
    radii: DVec3,
    mesh: &TriMesh,
    push: &mut impl FnMut(OverlayKind, Shape, Option<String>),
) {
    let Some(c) = &d.contact else {
        return;
    };
    let pen = &c.penetration;
    push(
        OverlayKind::MethodContact,
        Shape::Ellipsoid {
            center: c.toi_position,
            radii,
        },
        Some(format!("toi {:.4} of the step", c.toi)),
    );
    let impact = &c.impact;
    push(
        OverlayKind::MethodContact,
        Shape::Point {
            p: impact.closest_point,
        },
        None,
    );
    push(
        OverlayKind::PushOut,
        Shape::Arrow {
            from: impact.closest_point,
            to: impact.closest_point + impact.normal * radii.max_element(),
        },
        Some("normal".into()),
    );
    push(
        OverlayKind::PushOut,
        Shape::Arrow {
            from: d.sample,
            to: d.sample + pen.push,
        },
        Some(format!("depth {:.3} m", pen.depth)),
    );
    if (impact.triangle as usize) < mesh.triangle_count() {
        push(
            OverlayKind::HighlightTriangle,
            Shape::Triangle {
                corners: mesh.triangle_f64(impact.triangle),
            },
            Some(format!("tri {}", impact.triangle)),
        );
    }
}
