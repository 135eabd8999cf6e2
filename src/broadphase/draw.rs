//! Overlay primitives for the objects' bounding volumes, world space.

use super::BoundingVolumes;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, OverlayToggles, Shape};
use crate::mesh::TriMesh;
use glam::DVec3;

/// Objects are named in the view only up to this many: past it the names
/// would cover the volumes.
const MAX_LABELLED: usize = 12;

/// The spheres, AABBs and OBBs of the first `max_objects` objects (with
/// triangles) for the kinds `toggles` shows, each labelled with its
/// object's name once when there are at most a dozen.
pub fn volume_primitives(
    volumes: &BoundingVolumes,
    mesh: &TriMesh,
    toggles: &OverlayToggles,
    max_objects: usize,
) -> Vec<DebugPrimitive> {
    let mut out = Vec::new();
    let objects = mesh.objects().iter().zip(&volumes.objects);
    let with_volumes = objects.filter_map(|(o, v)| v.as_ref().map(|v| (o, v)));
    let drawn: Vec<_> = with_volumes.take(max_objects).collect();
    let labelled = drawn.len() <= MAX_LABELLED;
    for (o, v) in drawn {
        let mut label = labelled.then(|| o.name.clone());
        let mut push = |kind: OverlayKind, shape: Shape| {
            out.push(DebugPrimitive {
                kind,
                shape,
                color: kind.color(),
                label: label.take(),
            });
        };
        if toggles.get(OverlayKind::BoundingAabbs) {
            push(OverlayKind::BoundingAabbs, Shape::Box { aabb: v.aabb });
        }
        if toggles.get(OverlayKind::BoundingObbs) {
            let c = v.obb.corners();
            // Corner i has bit k set for +axis k: edges join corners one bit apart.
            for i in 0..8usize {
                for bit in [1usize, 2, 4] {
                    if i & bit == 0 {
                        let (a, b) = (c[i], c[i | bit]);
                        push(OverlayKind::BoundingObbs, Shape::Segment { a, b });
                    }
                }
            }
        }
        if toggles.get(OverlayKind::BoundingSpheres) {
            let shape = Shape::Ellipsoid {
                center: v.sphere_center,
                radii: DVec3::splat(v.sphere_radius),
            };
            push(OverlayKind::BoundingSpheres, shape);
        }
    }
    out
}
