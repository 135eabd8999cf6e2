//! Slivers: triangles whose smallest angle is under the threshold and that
//! are thinner than the width limit. Their normals are unreliable (a 1 mm
//! wide sliver's cross product of `f32` corners is mostly rounding) and
//! their long edges sit next to near-duplicate ones, where contacts jitter.
//! The width limit keeps deliberate thin parts out: the built-in level's
//! 2 cm thin walls have 0.38° corners and exact planes. A triangle with
//! two corners at the same place has a 0° angle and no width.

use super::collect::{Found, find_capped};
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::math::DVec3;
use crate::mesh::TriMesh;

/// Slivers of `mesh`, by triangle.
pub(super) fn find(mesh: &TriMesh, options: &HygieneOptions) -> Found {
    let (limit, max_width) = (options.sliver_min_angle_deg, options.sliver_max_width_m);
    find_capped(
        mesh.triangle_count(),
        options.max_items_per_kind,
        |t, sink| {
            let corners = mesh.triangle_f64(t as u32);
            let angle = min_angle_deg(corners);
            if angle < limit && width(corners) < max_width {
                sink.push(|| HygieneItem {
                    kind: HygieneKind::Sliver,
                    position: (corners[0] + corners[1] + corners[2]) / 3.0,
                    triangles: vec![t as u32],
                    size: angle,
                    object: None,
                });
            }
        },
    )
}

/// The smallest interior angle of a triangle, degrees; 0 when two corners
/// coincide or all three are on a line.
pub(super) fn min_angle_deg([a, b, c]: [DVec3; 3]) -> f64 {
    let angle = |at: DVec3, p: DVec3, q: DVec3| {
        let (u, v) = (p - at, q - at);
        if u == DVec3::ZERO || v == DVec3::ZERO {
            return 0.0;
        }
        u.cross(v).length().atan2(u.dot(v)).to_degrees()
    };
    angle(a, b, c).min(angle(b, c, a)).min(angle(c, a, b))
}

/// The smallest altitude of a triangle (twice its area over its longest
/// side), metres; 0 when it has no area.
fn width([a, b, c]: [DVec3; 3]) -> f64 {
    let longest = a.distance(b).max(b.distance(c)).max(c.distance(a));
    if longest == 0.0 {
        return 0.0;
    }
    (b - a).cross(c - a).length() / longest
}
