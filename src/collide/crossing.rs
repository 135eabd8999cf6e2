//! The solver checking the path of each iteration: whether the probe's
//! centre, on its way from where the iteration started to where it ended,
//! crossed a triangle or came closer to one than its radius (a tunnel).
//!
//! The clearance ([`super::clearance`]) looks only where an iteration
//! ends, so a centre that goes *through* a thin slab and ends clear on the
//! far side is not seen there. This check looks at the whole segment the
//! centre travelled, exactly, in ellipsoid space (where the probe is the
//! unit sphere): the least distance from the segment to each triangle the
//! move could reach. It flags the iteration when that least distance is
//! under one (the radius) and under the distance at both ends of the
//! segment: deeper on the way than where it started (a start already
//! inside was flagged where it ended) and than where it ended (an end
//! inside is the clearance's `embedded` flag).
//!
//! The paper modes are kept as published and tunnel by design: both cull
//! triangles whose normal runs with the velocity (back faces), and
//! Nettle's construction misses some front faces outright. The flag says
//! which, and for Nettle's misses which step of the method missed. Robust
//! mode must never raise it.

use super::world::CollisionWorld;
use super::{IterationRecord, SlideMode, SlideSettings};
use crate::geometry::closest::{
    DEGENERATE_SINE, closest_point_on_triangle, segment_triangle_closest,
};
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::sweep::{SweepOutcome, sweep_unit_sphere_triangle};
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// How much deeper than the radius, and than both ends of the segment,
/// the path must go to be flagged (radii, ellipsoid space): the
/// clearance's own tolerance ([`super::EMBEDDED_TOLERANCE_RADII`]).
pub const TUNNEL_TOLERANCE_RADII: f64 = super::EMBEDDED_TOLERANCE_RADII;

/// Why the mode let the centre through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TunnelCause {
    /// The centre came at the triangle's back: the paper modes cull it by
    /// design (both skip triangles whose normal runs with the velocity;
    /// fauerby2003's sweep collides with front faces only).
    BackFaceCulled,
    /// nettle2000: the plane intersection point is off the polygon. Nettle
    /// starts it from the plane's inverted normal scaled by the radii,
    /// which is not the ellipsoid's point nearest the plane, so a narrow
    /// or sloped polygon is missed to one side.
    PlaneIntersectionPoint,
    /// nettle2000: the plane intersection point is outside the polygon,
    /// and the polygon test clamps it to the polygon's nearest point,
    /// which is not where the probe first touches the polygon.
    PolygonTest,
    /// nettle2000: the reverse intersection, from the polygon point back
    /// along the velocity to the ellipsoid, misses it.
    EllipsoidToPolygon,
    /// fauerby2003: a front face that its sweep did not stop at.
    FrontFaceMiss,
    /// robust: never expected.
    Robust,
}

impl TunnelCause {
    /// A sentence for the verdict, naming the mode's known flaw.
    pub fn describe(self, mode: SlideMode) -> &'static str {
        match (self, mode) {
            (TunnelCause::BackFaceCulled, SlideMode::Nettle2000) => {
                "it came at the triangle's back, which nettle2000 ignores by design \
                 (Nettle 2000 skips planes facing away from the velocity)"
            }
            (TunnelCause::BackFaceCulled, _) => {
                "it came at the triangle's back, which fauerby2003 culls by design \
                 (Fauerby 2003 collides with front faces only)"
            }
            (TunnelCause::PlaneIntersectionPoint, _) => {
                "a miss of nettle2000's method at the plane intersection point: it starts \
                 from the plane's inverted normal scaled by the radii, not the ellipsoid's \
                 point nearest the plane, and lands off the polygon (Nettle 2000)"
            }
            (TunnelCause::PolygonTest, _) => {
                "a miss of nettle2000's method at the polygon test: the plane intersection \
                 point is clamped to the polygon's nearest point, not where the probe first \
                 touches it, and the reverse intersection from there misses (Nettle 2000)"
            }
            (TunnelCause::EllipsoidToPolygon, _) => {
                "a miss of nettle2000's method at the ellipsoid-to-polygon step: the reverse \
                 intersection from the polygon point back along the velocity misses the \
                 ellipsoid (Nettle 2000)"
            }
            (TunnelCause::FrontFaceMiss, _) => {
                "a miss of fauerby2003's method: its sweep did not stop at a front face the \
                 centre came within the radius of (Fauerby 2003)"
            }
            (TunnelCause::Robust, _) => {
                "robust mode must never do this: please report it with this move's --json trace"
            }
        }
    }
}

/// A triangle the centre's path crossed or came within the radius of.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tunnel {
    /// The triangle (the deepest one, when several).
    pub triangle: u32,
    /// Its object.
    pub object: u32,
    /// Whether the centre went through the triangle itself.
    pub crossed: bool,
    /// How far inside the probe the triangle came at the closest point of
    /// the path, radii: one minus the least distance from the centre's
    /// segment to the triangle in ellipsoid space (1 when it crossed).
    pub depth_radii: f64,
    /// The same depth in metres, measured as the clearance measures it.
    pub depth_metres: f64,
    /// Where along the segment (`start` to `end`), as a fraction.
    pub t: f64,
    /// The centre there, world space.
    pub center: DVec3,
    /// The triangle's point nearest to it, world space.
    pub closest_point: DVec3,
    /// Whether the centre came at the triangle's back: the iteration's
    /// move ran along the triangle's normal, or the centre passed behind
    /// its plane.
    pub back_face: bool,
    /// Why the mode let it through.
    pub cause: TunnelCause,
}

impl Tunnel {
    /// What the centre did to the triangle: "went through", or "came 0.123
    /// radii (0.0456 m) inside".
    pub fn how(&self) -> String {
        if self.crossed {
            "went through".to_string()
        } else {
            format!(
                "came {:.3} radii ({:.4} m) inside",
                self.depth_radii, self.depth_metres
            )
        }
    }
}

/// What the path check needs from the solver.
pub(super) struct CrossingQuery<'a, 'w> {
    pub world: &'a CollisionWorld<'w>,
    pub settings: &'a SlideSettings,
    pub es: EllipsoidSpace,
    /// The iteration's candidates: the triangles whose boxes the probe's
    /// moving box touches (robust mode: those it tested, nearest first,
    /// up to its nearest hit; the centre travels no farther than that).
    pub tris: &'a [u32],
}

impl CrossingQuery<'_, '_> {
    /// The deepest tunnel of the iteration `rec` (its `start`, after any
    /// recovery push, to its `end`), or `None`.
    pub fn check(&self, rec: &IterationRecord) -> Option<Tunnel> {
        let es = self.es;
        let mode = self.settings.mode;
        let start_w = rec.start + rec.recovery.map_or(DVec3::ZERO, |r| r.push);
        let end_w = rec.end;
        if start_w == end_w {
            return None;
        }
        let one_sided = mode == SlideMode::Robust && !self.settings.two_sided;
        let p0 = es.espace_from_world(start_w);
        let p1 = es.espace_from_world(end_w);
        let mesh = self.world.mesh;
        // The segment's box, ellipsoid space, and that box grown by the
        // radius: a triangle whose box is outside the grown box is farther
        // than the radius.
        let (seg_lo, seg_hi) = (p0.min(p1), p0.max(p1));
        let (lo, hi) = (seg_lo - 1.0, seg_hi + 1.0);
        // How far the boxes' coordinates are from the origin, for the margin
        // of the box-distance bound below.
        let seg_reach = seg_lo.abs().max(seg_hi.abs()).max_element();
        let mut deepest: Option<(u32, f64, f64, DVec3)> = None;
        for &tri in self.tris.iter() {
            if !self.world.triangle_collides(tri) {
                continue;
            }
            // The triangle's box in ellipsoid space, from the mesh's box
            // (exact around its corners): scaling each axis by a positive
            // factor keeps the order of the corners' coordinates, so this is
            // the box of the corners mapped to ellipsoid space, to the bit,
            // read from one place instead of the triangle's four.
            let aabb = &mesh.tri_aabbs[tri as usize];
            let (tlo, thi) = (
                es.espace_from_world(aabb.min.as_dvec3()),
                es.espace_from_world(aabb.max.as_dvec3()),
            );
            if tlo.cmpgt(hi).any() || thi.cmplt(lo).any() {
                continue;
            }
            // Nearer than this is all that can be flagged now.
            let bound = deepest.map_or(1.0 - TUNNEL_TOLERANCE_RADII, |(_, _, best, _)| best);
            if boxes_stay_beyond((seg_lo, seg_hi), (tlo, thi), bound, seg_reach) {
                continue;
            }
            let tri_e = mesh.triangle_f64(tri).map(|p| es.espace_from_world(p));
            let n_e = (tri_e[1] - tri_e[0]).cross(tri_e[2] - tri_e[0]);
            let (h0, h1) = (n_e.dot(p0 - tri_e[0]), n_e.dot(p1 - tri_e[0]));
            if one_sided && h0 < 0.0 {
                // Behind a one-sided triangle: passable by design.
                continue;
            }
            let reach = (p0 - tri_e[0]).abs().max(p1 - tri_e[0]).max_element();
            if path_stays_beyond(tri_e, n_e, (h0, h1), bound, reach) {
                continue;
            }
            let (q0, q1) = (
                closest_point_on_triangle(tri_e, p0),
                closest_point_on_triangle(tri_e, p1),
            );
            let (at_start, at_end) = ((q0 - p0).length(), (q1 - p1).length());
            if !dips_between_ends(p1 - p0, (p0 - q0, at_start), (p1 - q1, at_end)) {
                continue;
            }
            let (t, dist, point) = segment_triangle_closest(p0, p1, tri_e);
            if dist >= bound {
                continue;
            }
            if dist < at_start - TUNNEL_TOLERANCE_RADII && dist < at_end - TUNNEL_TOLERANCE_RADII {
                deepest = Some((tri, t, dist, point));
            }
        }
        let (tri, t, dist, point_e) = deepest?;
        let center_e = p0 + (p1 - p0) * t;
        let center = es.world_from_espace(center_e);
        let closest_point = es.world_from_espace(point_e);
        // Depth in metres as the clearance measures it: from the triangle's
        // point to the probe's surface facing it.
        let dir_e = (center_e - point_e).try_normalize().unwrap_or_else(|| {
            let t = mesh.triangle_f64(tri).map(|p| es.espace_from_world(p));
            (t[1] - t[0]).cross(t[2] - t[0]).normalize_or(DVec3::Y)
        });
        let depth_metres = (es.world_from_espace(center_e - dir_e) - closest_point).length();
        let normal_w = mesh.triangle_normal(tri);
        // The move runs along the normal (what both paper modes cull), or
        // the centre passes behind the triangle's plane (fauerby2003's
        // sweep collides with front faces only).
        let along_normal = rec.velocity.dot(normal_w) > 0.0;
        let normal_e = es.normal_espace_from_world(normal_w);
        let behind = (center_e - point_e).dot(normal_e) < 0.0;
        let back_face = along_normal || behind;
        let cause = match mode {
            SlideMode::Robust => TunnelCause::Robust,
            SlideMode::Nettle2000 if along_normal => TunnelCause::BackFaceCulled,
            SlideMode::Nettle2000 => nettle_cause(mesh, es, tri, rec.start, rec.velocity),
            SlideMode::Fauerby2003 if back_face => TunnelCause::BackFaceCulled,
            SlideMode::Fauerby2003 => TunnelCause::FrontFaceMiss,
        };
        Some(Tunnel {
            triangle: tri,
            object: mesh.object_of(tri) as u32,
            crossed: dist == 0.0,
            depth_radii: 1.0 - dist,
            depth_metres,
            t,
            center,
            closest_point,
            back_face,
            cause,
        })
    }
}

/// Whether the box `[lo, hi]` of a triangle keeps more than `bound` from
/// the box `[seg_lo, seg_hi]` of a segment (ellipsoid space), and so the
/// triangle from the segment: the distance between two boxes is a lower
/// bound on the distance between anything inside them. Spares the
/// triangle's corners and the exact measures for a candidate that only a
/// corner of the grown box reaches (the candidate search lists every
/// triangle whose box the probe's box touches, a box with corners out of
/// the probe's reach). Decided with a margin far above the rounding of
/// the boxes (`reach`: the largest coordinate of the segment's box, which
/// their rounding scales with), so that a triangle skipped here is one the
/// exact measure would have found at `bound` or farther.
#[inline]
pub(super) fn boxes_stay_beyond(
    (seg_lo, seg_hi): (DVec3, DVec3),
    (lo, hi): (DVec3, DVec3),
    bound: f64,
    reach: f64,
) -> bool {
    let gap = (lo - seg_hi).max(seg_lo - hi).max(DVec3::ZERO);
    let limit = bound + 1e-9 * (1.0 + bound) + 1e-12 * reach;
    // `|gap| > limit`, squared (both sides are positive).
    gap.length_squared() > limit * limit
}

/// Whether the segment whose ends lie at `h0` and `h1` along the
/// triangle's unnormalised normal `n_e` (`n_e . (p - tri[0])`) keeps more
/// than `bound` from its plane all the way, and so from the triangle: an
/// exact lower bound on [`segment_triangle_closest`] that spares it for
/// most candidates (the floor a probe slides on, the wall it stops a skin
/// from). The distance to the plane is linear along the segment, so when
/// both ends are on one side it is least at an end. Decided with a margin
/// far above the rounding of either measure (`reach`: the largest
/// coordinate of an end relative to `tri[0]`, which the rounding of the
/// heights scales with), so that a triangle skipped here is one the exact
/// measure would have found at `bound` or farther; a degenerate triangle,
/// whose normal cannot be trusted, is never skipped.
#[inline]
pub(super) fn path_stays_beyond(
    tri_e: [DVec3; 3],
    n_e: DVec3,
    (h0, h1): (f64, f64),
    bound: f64,
    reach: f64,
) -> bool {
    if h0 * h1 <= 0.0 || !bound.is_finite() {
        return false;
    }
    let n2 = n_e.length_squared();
    let (e0, e1) = (tri_e[1] - tri_e[0], tri_e[2] - tri_e[0]);
    let min_n2 = DEGENERATE_SINE * DEGENERATE_SINE * e0.length_squared() * e1.length_squared();
    if n2 <= min_n2 || !n2.is_finite() {
        return false;
    }
    let least = h0.abs().min(h1.abs());
    let limit = bound + 1e-9 * (1.0 + bound) + 1e-12 * reach;
    // `least / |n| > limit`, squared (both sides are positive).
    least * least > limit * limit * n2
}

/// Whether the distance to a triangle along a segment `d` (from the
/// start to the end) may dip deeper than both ends by the tolerance, from
/// the ends alone: `(p - q, |p - q|)` at each, `q` the triangle's point
/// nearest to the end `p`. The distance is convex along the segment, so it
/// can only dip if it falls leaving the start and rises reaching the end;
/// where its slope at the start is no steeper than half the tolerance
/// down, it stays within half the tolerance of the start's all the way
/// (and likewise at the end), and no tunnel can be flagged. The exact
/// least distance ([`segment_triangle_closest`]) is needed only past this.
#[inline]
pub(super) fn dips_between_ends(
    d: DVec3,
    (from_start, at_start): (DVec3, f64),
    (from_end, at_end): (DVec3, f64),
) -> bool {
    let slack = 0.5 * TUNNEL_TOLERANCE_RADII;
    from_start.dot(d) < -slack * at_start && from_end.dot(d) > slack * at_end
}

/// Which step of Nettle's method missed triangle `tri` on the move from
/// `source_w` by `vel_w`: the first of its three points that differs from
/// the exact construction (the per-feature sweep of the unit sphere in
/// ellipsoid space, where Nettle's steps are exact).
fn nettle_cause(
    mesh: &TriMesh,
    es: EllipsoidSpace,
    tri: u32,
    source_w: DVec3,
    vel_w: DVec3,
) -> TunnelCause {
    let corners = mesh.triangle_f64(tri);
    let tri_e = corners.map(|p| es.espace_from_world(p));
    let (start_e, vel_e) = (es.espace_from_world(source_w), es.espace_from_world(vel_w));
    let SweepOutcome::Hit(hit) = sweep_unit_sphere_triangle(start_e, vel_e, tri_e, 1.0, false)
    else {
        return TunnelCause::PolygonTest;
    };
    let exact = super::nettle_points::nettle_points_espace(start_e, vel_e, tri_e, &hit);
    let Some((plane_w, polygon_w)) =
        super::nettle::nettle_plane_and_polygon_points(corners, es.radii(), source_w, vel_w)
    else {
        return TunnelCause::PlaneIntersectionPoint;
    };
    let scale = 1e-6 * (1.0 + es.radii().max_element() + vel_w.length());
    if (plane_w - es.world_from_espace(exact.plane)).length() > scale {
        TunnelCause::PlaneIntersectionPoint
    } else if (polygon_w - es.world_from_espace(hit.point_espace)).length() > scale {
        TunnelCause::PolygonTest
    } else {
        TunnelCause::EllipsoidToPolygon
    }
}

/// One line saying that a move's centre went through or too close to
/// geometry on the way, the deepest such iteration, and why the mode let
/// it through; `None` when no iteration was flagged.
pub fn tunnel_verdict(
    mesh: &TriMesh,
    mode: SlideMode,
    iterations: &[IterationRecord],
) -> Option<String> {
    let flagged: Vec<(&IterationRecord, Tunnel)> = iterations
        .iter()
        .filter_map(|r| r.tunnel.map(|t| (r, t)))
        .collect();
    let (rec, t) = flagged
        .iter()
        .max_by(|a, b| a.1.depth_radii.total_cmp(&b.1.depth_radii))?;
    let name = mesh
        .objects
        .get(t.object as usize)
        .map_or("?", |o| o.name.as_str());
    let how = t.how();
    Some(format!(
        "tunnel: {} of {} iterations' centres went through or within the radius of a triangle \
         on the way; the deepest, #{}, {how} triangle {} ({name}): {}",
        flagged.len(),
        iterations.len(),
        rec.index,
        t.triangle,
        t.cause.describe(mode),
    ))
}
