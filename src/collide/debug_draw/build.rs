//! Builds the overlay primitives of one step of a trace, world space.
//!
//! Everything is read from the records (what the solver computed) and from
//! the level (triangle boxes, BVH node boxes). Indices in a record that do not
//! fit the level (a trace kept across a level reload) are skipped, never a
//! panic.

use super::{
    DebugPrimitive, OverlayKind, OverlayOptions, OverlaySet, OverlayToggles, Shape, body_at,
    depth_color,
};
use crate::bvh::{Bvh, Slot};
use crate::collide::{CandidateOutcome, IterationRecord};
use crate::geometry::shape::CharacterShape;
use crate::geometry::sweep::Feature;
use crate::mesh::TriMesh;
use glam::DVec3;
use std::collections::HashSet;

/// Plane quads are this many times the probe's largest radius across, on
/// each side of their centre: large enough to read as a plane next to the
/// ellipsoid, small enough not to cover the level.
const PLANE_QUAD_SCALE: f64 = 1.5;

/// The kinds drawn as boxes, which [`OverlayOptions::max_boxes_per_kind`] caps.
const BOX_KINDS: [OverlayKind; 4] = [
    OverlayKind::CandidateAabbs,
    OverlayKind::BvhNodesVisited,
    OverlayKind::TriangleAabbs,
    OverlayKind::BvhLevel,
];

/// Everything to draw for a probe's trace at iteration `current` (records
/// `0..=current` are done; a `current` past the end means the last record),
/// given the options. `radii` are the probe's semi-axes (its half sizes),
/// `shape` the body the solver swept (drawn in place of the ellipsoid when
/// it is not one).
#[allow(clippy::too_many_arguments)]
pub fn primitives_for_trace(
    trace: &[IterationRecord],
    current: usize,
    radii: DVec3,
    shape: CharacterShape,
    mesh: &TriMesh,
    bvh: &Bvh,
    options: &OverlayOptions,
) -> OverlaySet {
    let mut out = Prims {
        toggles: &options.toggles,
        list: Vec::new(),
    };
    if out.on(OverlayKind::BvhLevel) {
        bvh_level(&mut out, bvh, options.bvh_level_depth);
    }
    let mut focus = None;
    if let Some(last) = trace.len().checked_sub(1) {
        let current = current.min(last);
        let body = |center| body_at(center, radii, shape);
        history(&mut out, &trace[..=current], &body);
        let rec = &trace[current];
        motion(&mut out, rec, &body);
        triggers(&mut out, rec, &body);
        contact(&mut out, rec, radii, &body, mesh);
        self_checks(&mut out, rec, mesh);
        query(&mut out, rec, mesh, bvh);
        focus = Some(rec.nearest.as_ref().map_or(rec.start, |h| h.contact_center));
    }
    let mut list = out.list;
    let hidden = cap_boxes(&mut list, focus, options.max_boxes_per_kind);
    OverlaySet {
        primitives: list,
        hidden,
    }
}

/// Keeps at most `max` boxes of each box kind: labelled ones (hits) first,
/// then the nearest to `focus` (with no focus, the first in order). The
/// kept boxes stay in their original order. Returns what was left out.
fn cap_boxes(
    list: &mut Vec<DebugPrimitive>,
    focus: Option<DVec3>,
    max: usize,
) -> Vec<(OverlayKind, usize)> {
    let mut hidden = Vec::new();
    let mut drop = vec![false; list.len()];
    for kind in BOX_KINDS {
        let mut ranked: Vec<(bool, f64, usize)> = list
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == kind)
            .map(|(i, p)| {
                let distance = match (&p.shape, focus) {
                    (Shape::Box { aabb }, Some(f)) => {
                        let (lo, hi) = (aabb.min.as_dvec3(), aabb.max.as_dvec3());
                        f.clamp(lo.min(hi), hi.max(lo)).distance(f)
                    }
                    _ => 0.0,
                };
                (p.label.is_none(), distance, i)
            })
            .collect();
        if ranked.len() <= max {
            continue;
        }
        // Unlabelled after labelled, then by distance, then by position in
        // the list (so equal distances keep their order and no focus means "first").
        // `total_cmp`: a NaN box (a corrupt level) sorts last instead of
        // breaking the order.
        ranked.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        for &(_, _, i) in &ranked[max..] {
            drop[i] = true;
        }
        hidden.push((kind, ranked.len() - max));
    }
    if !hidden.is_empty() {
        let mut i = 0;
        list.retain(|_| {
            i += 1;
            !drop[i - 1]
        });
    }
    hidden
}

/// The output list, filtered by the toggles at the point of pushing.
struct Prims<'t> {
    toggles: &'t OverlayToggles,
    list: Vec<DebugPrimitive>,
}

impl Prims<'_> {
    fn push(&mut self, kind: OverlayKind, shape: Shape, label: Option<String>) {
        self.push_colored(kind, shape, kind.color(), label);
    }

    fn push_colored(
        &mut self,
        kind: OverlayKind,
        shape: Shape,
        color: [f32; 4],
        label: Option<String>,
    ) {
        if self.toggles.get(kind) {
            self.list.push(DebugPrimitive {
                kind,
                shape,
                color,
                label,
            });
        }
    }

    fn on(&self, kind: OverlayKind) -> bool {
        self.toggles.get(kind)
    }
}

/// Ghosts of the earlier iterations and the path travelled so far.
fn history(out: &mut Prims, done: &[IterationRecord], body: &dyn Fn(DVec3) -> Shape) {
    let (earlier, _) = done.split_at(done.len() - 1);
    for rec in earlier {
        out.push(
            OverlayKind::EllipsoidGhosts,
            body(rec.start),
            Some(format!("#{}", rec.index)),
        );
    }
    for rec in done {
        // A recovery push happens before the sweep: draw it as part of the path.
        let swept_from = rec.recovery.map_or(rec.start, |r| rec.start + r.push);
        for (a, b) in [(rec.start, swept_from), (swept_from, rec.end)] {
            if a != b {
                out.push(OverlayKind::Path, Shape::Segment { a, b }, None);
            }
        }
    }
}

/// The current iteration's start ellipsoid, velocity, destination, slide.
fn motion(out: &mut Prims, rec: &IterationRecord, body: &dyn Fn(DVec3) -> Shape) {
    out.push(
        OverlayKind::EllipsoidStart,
        body(rec.start),
        Some(format!("#{}", rec.index)),
    );
    if rec.velocity != DVec3::ZERO {
        out.push(
            OverlayKind::Velocity,
            Shape::Arrow {
                from: rec.start,
                to: rec.destination,
            },
            None,
        );
    }
    out.push(
        OverlayKind::Destination,
        Shape::Point { p: rec.destination },
        Some("destination".into()),
    );
    if let Some(new_dest) = rec.new_destination {
        if new_dest != rec.end {
            out.push(
                OverlayKind::SlideVector,
                Shape::Arrow {
                    from: rec.end,
                    to: new_dest,
                },
                None,
            );
        }
        out.push(
            OverlayKind::NewDestination,
            Shape::Point { p: new_dest },
            Some("new destination".into()),
        );
    }
}

/// The triggers entered and left on the iteration's segment: the probe
/// where each event happened, labelled.
fn triggers(out: &mut Prims, rec: &IterationRecord, body: &dyn Fn(DVec3) -> Shape) {
    for e in &rec.trigger_events {
        out.push(
            OverlayKind::Triggers,
            body(e.center),
            Some(format!("{} {} t={:.3}", e.kind.name(), e.name, e.t)),
        );
    }
}

/// The nearest hit: contact ellipsoid, planes, Nettle's points, normal, triangle.
fn contact(
    out: &mut Prims,
    rec: &IterationRecord,
    radii: DVec3,
    body: &dyn Fn(DVec3) -> Shape,
    mesh: &TriMesh,
) {
    let half_size = radii.max_element() * PLANE_QUAD_SCALE;
    if let Some(plane) = &rec.sliding_plane {
        out.push(
            OverlayKind::SlidingPlane,
            Shape::PlaneQuad {
                center: plane.origin,
                normal: plane.normal,
                half_size,
            },
            Some("sliding plane".into()),
        );
    }
    let Some(hit) = &rec.nearest else {
        return;
    };
    out.push(
        OverlayKind::EllipsoidContact,
        body(hit.contact_center),
        Some(format!("contact t = {:.3}", hit.t)),
    );
    out.push(
        OverlayKind::HitPlane,
        Shape::PlaneQuad {
            center: hit.contact_point,
            normal: hit.triangle_plane_normal,
            half_size,
        },
        None,
    );
    let points = [
        (
            OverlayKind::PlaneIntersection,
            hit.plane_intersection_point,
            "plane",
        ),
        (
            OverlayKind::PolygonIntersection,
            hit.polygon_intersection_point,
            "polygon",
        ),
        (
            OverlayKind::EllipsoidIntersection,
            hit.ellipsoid_intersection_point,
            "ellipsoid",
        ),
    ];
    for (kind, p, name) in points {
        out.push(kind, Shape::Point { p }, Some(name.into()));
    }
    // The ellipsoid's half-width along the normal: the arrow then reaches
    // about as far as the centre sits from the contact point.
    let reach = (hit.contact_normal * radii).length();
    out.push(
        OverlayKind::ContactNormal,
        Shape::Arrow {
            from: hit.contact_point,
            to: hit.contact_point + hit.contact_normal * reach,
        },
        None,
    );
    if (hit.triangle as usize) < mesh.triangle_count() {
        out.push(
            OverlayKind::HighlightTriangle,
            Shape::Triangle {
                corners: mesh.triangle_f64(hit.triangle),
            },
            Some(format!("triangle {}", hit.triangle)),
        );
    }
}

/// The solver's checks of itself: the clearance segment (red, with the
/// triangle the probe is in, when it ended inside geometry), a tunnel on
/// the way (red: the triangle the centre's path went through or too close
/// to, and the arrow from the centre there to the triangle) and a ghost
/// corner's edge and flat neighbours.
fn self_checks(out: &mut Prims, rec: &IterationRecord, mesh: &TriMesh) {
    let in_mesh = |t: u32| (t as usize) < mesh.triangle_count();
    if let Some(t) = &rec.tunnel
        && in_mesh(t.triangle)
    {
        let red = [1.0, 0.05, 0.05, 1.0];
        let kind = OverlayKind::Clearance;
        out.push_colored(
            kind,
            Shape::Triangle {
                corners: mesh.triangle_f64(t.triangle),
            },
            red,
            None,
        );
        out.push_colored(
            kind,
            Shape::Arrow {
                from: t.center,
                to: t.closest_point,
            },
            red,
            Some(if t.crossed {
                "TUNNEL: through".to_string()
            } else {
                format!("TUNNEL: {:.3} m inside", t.depth_metres)
            }),
        );
    }
    if let Some(c) = &rec.clearance {
        let kind = OverlayKind::Clearance;
        if c.embedded && in_mesh(c.triangle) {
            let red = [1.0, 0.05, 0.05, 1.0];
            out.push_colored(
                kind,
                Shape::Triangle {
                    corners: mesh.triangle_f64(c.triangle),
                },
                red,
                None,
            );
            out.push_colored(
                kind,
                Shape::Arrow {
                    from: c.closest_point,
                    to: c.surface_point,
                },
                red,
                Some(format!("INSIDE {:.3} m", -c.metres)),
            );
        } else {
            out.push(
                kind,
                Shape::Segment {
                    a: c.closest_point,
                    b: c.surface_point,
                },
                Some(format!("clear {:.3} m", c.metres)),
            );
        }
    }
    let (Some(ghost), Some(hit)) = (&rec.ghost_hit, &rec.nearest) else {
        return;
    };
    if !in_mesh(hit.triangle) {
        return;
    }
    let kind = OverlayKind::GhostCorner;
    let corners = mesh.triangle_f64(hit.triangle);
    match ghost.feature {
        Feature::Edge(i) => out.push(
            kind,
            Shape::Segment {
                a: corners[i as usize],
                b: corners[(i as usize + 1) % 3],
            },
            None,
        ),
        Feature::Vertex(i) => out.push(
            kind,
            Shape::Point {
                p: corners[i as usize],
            },
            None,
        ),
        Feature::Face => {}
    }
    // Labelled on the first flat neighbour, away from the contact point
    // where the hit's own labels are.
    for (k, &t) in ghost
        .neighbours
        .iter()
        .filter(|&&t| in_mesh(t))
        .take(16)
        .enumerate()
    {
        let label = (k == 0).then(|| format!("ghost corner: flat with {t}"));
        out.push(
            kind,
            Shape::Triangle {
                corners: mesh.triangle_f64(t),
            },
            label,
        );
    }
}

/// The BVH query: swept box, candidate boxes, visited nodes, rejected boxes.
fn query(out: &mut Prims, rec: &IterationRecord, mesh: &TriMesh, bvh: &Bvh) {
    if !rec.query_aabb.is_empty() {
        out.push(
            OverlayKind::QueryAabb,
            Shape::Box {
                aabb: rec.query_aabb,
            },
            None,
        );
    }
    for c in &rec.candidates {
        let Some(&aabb) = mesh.tri_aabbs.get(c.triangle as usize) else {
            continue;
        };
        let label = match c.outcome {
            CandidateOutcome::Hit { t, .. } => Some(format!("hit t = {t:.3}")),
            _ => None,
        };
        out.push(OverlayKind::CandidateAabbs, Shape::Box { aabb }, label);
    }
    if out.on(OverlayKind::BvhNodesVisited) {
        let depths = visited_depths(bvh, &rec.bvh_nodes_visited);
        for (slot, depth) in depths {
            let Some(aabb) = bvh.slot_aabb(slot) else {
                continue;
            };
            out.push_colored(
                OverlayKind::BvhNodesVisited,
                Shape::Box { aabb },
                depth_color(depth),
                None,
            );
        }
    }
    if out.on(OverlayKind::TriangleAabbs) {
        rejected_triangle_boxes(out, rec, mesh, bvh);
    }
}

/// Depth of each visited slot (a box of the tree: its slot id) that
/// exists in `bvh`, where a slot's depth is its node's (root = 0). The
/// visited slots form a subtree hanging from the root (a slot is only
/// searched when the slot linking to its node was), so a walk pruned to
/// them finds every depth without touching the rest of the tree.
fn visited_depths(bvh: &Bvh, visited: &[u32]) -> Vec<(u32, u32)> {
    let mut set: HashSet<u32> = visited
        .iter()
        .copied()
        .filter(|&id| bvh.slot_aabb(id).is_some())
        .collect();
    let mut found = Vec::with_capacity(set.len());
    let mut stack = vec![(0u32, 0u32)];
    while let Some((node, depth)) = stack.pop() {
        let Some(n) = bvh.nodes.get(node as usize) else {
            continue;
        };
        for (k, _, slot) in n.slots() {
            let id = node * 4 + k as u32;
            // Removing guards against a malformed tree that links back up.
            if !set.remove(&id) {
                continue;
            }
            found.push((id, depth));
            if let Slot::Inner(child) = slot {
                stack.push((child, depth + 1));
            }
        }
    }
    found.sort_unstable();
    found
}

/// Every box at exactly `depth`: the slots of the nodes that deep (leaves
/// above it are not repeated).
fn bvh_level(out: &mut Prims, bvh: &Bvh, depth: u32) {
    if bvh.nodes.is_empty() {
        return;
    }
    let mut stack = vec![(0u32, 0u32)];
    while let Some((node, d)) = stack.pop() {
        let Some(n) = bvh.nodes.get(node as usize) else {
            continue;
        };
        if d == depth {
            for (_, aabb, _) in n.slots() {
                let color = depth_color(d);
                out.push_colored(OverlayKind::BvhLevel, Shape::Box { aabb }, color, None);
            }
            continue;
        }
        // Reversed, so the first slot's subtree comes out first.
        for k in (0..4).rev() {
            if let Slot::Inner(child) = n.slot(k) {
                stack.push((child, d + 1));
            }
        }
    }
}

/// Boxes of the triangles in visited leaves that are not candidates: the
/// ones the per-triangle box test threw away.
fn rejected_triangle_boxes(out: &mut Prims, rec: &IterationRecord, mesh: &TriMesh, bvh: &Bvh) {
    let candidates: HashSet<u32> = rec.candidates.iter().map(|c| c.triangle).collect();
    for &id in &rec.bvh_nodes_visited {
        let Slot::Leaf { first, count } = bvh.slot(id) else {
            continue;
        };
        let range = first as usize..first as usize + count as usize;
        let Some(leaf_tris) = bvh.tri_indices.get(range) else {
            continue;
        };
        for &tri in leaf_tris {
            if candidates.contains(&tri) {
                continue;
            }
            if let Some(&aabb) = mesh.tri_aabbs.get(tri as usize) {
                out.push(OverlayKind::TriangleAabbs, Shape::Box { aabb }, None);
            }
        }
    }
}
