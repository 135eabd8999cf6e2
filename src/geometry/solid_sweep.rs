//! Swept solid vs triangle, world metres, `f64`: the first contact of a
//! sphere, a capsule, an upright cylinder or an axis-aligned box moving in
//! a straight line with one triangle; time of impact, contact point,
//! contact normal and the triangle's feature touched, as [`super::sweep`]
//! gives for the ellipsoid.
//!
//! Everything is computed relative to the solid's start centre (no loss of
//! precision far from the origin). The move is `t * vel`, `t` in
//! `[0, max_t]`, `max_t <= 1`.
//!
//! - **Sphere**: the unit-sphere closed form of [`super::sweep`] (Fauerby
//!   2003), scaled by the radius.
//! - **Capsule** (the points within `r` of a vertical core segment): the
//!   swept sphere-swept segment test. The first contact is the earliest
//!   time at which one of these feature pairs is at distance `r` with its
//!   closest points inside both features: an end of the core segment (a
//!   swept sphere, the closed form again: face, edges, vertices), the
//!   segment's side against a triangle vertex (a quadratic: the vertex
//!   reaching distance `r` of the moving axis), and the segment's side
//!   against a triangle edge (the distance between the two lines, linear
//!   in `t` since neither turns, reaching `r`; then both closest-approach
//!   parameters inside their segments). Each candidate is a real contact
//!   (a point of the triangle at distance `r` of the core), and the true
//!   first contact is one of them (its closest points lie on one such
//!   pair; a segment parallel to the face touches it first at an end
//!   too), so the earliest is exact. Closest points of segments and of a
//!   segment and a triangle: Ericson, *Real-Time Collision Detection*,
//!   5.1.9 and 5.1.10.
//! - **Box**: the separating-axis test swept over the move (Ericson 5.5.8,
//!   moving SAT; Gottschalk's box-triangle axes): the 13 axes of a box and
//!   a triangle (the 3 box faces, the triangle's normal, the 9 crosses of
//!   a box axis with a triangle edge; crosses of parallel edges are
//!   skipped, the face axes cover them). On each axis the projections
//!   overlap over an interval of `t`; the box and the triangle touch from
//!   the latest entry to the earliest exit, so the latest entry is the
//!   time of impact and its axis the contact normal.
//!
//! A solid that already overlaps the triangle at `t = 0` is a hit at
//! `t = 0` with `depth` (metres, along `normal`) the push that separates
//! them: exact for the sphere, the capsule (distance of the core from
//! the triangle; the face normal on the centre's side when the core goes
//! through it) and the box (the smallest overlap over the 13 axes, the
//! exact penetration depth of two convex polyhedra). A solid that only
//! touches at `t = 0` is a hit there with depth 0 when it moves towards
//! the triangle.
//!
//! - **Cylinder** (upright, flat caps): the earliest of the real contacts
//!   of each pair of features that can touch first: a triangle vertex
//!   against the round side (the capsule's side test: the two share it)
//!   or against a cap (linear: the cap's plane reaching the vertex, within
//!   the radius); an edge against the side (the capsule's line distance
//!   test) or against a rim circle (the edge's line pierces the moving
//!   cap plane at a point whose offset from the cap's centre is linear in
//!   `t`: a quadratic for it to be on the rim, both roots kept when
//!   inside the edge); a level edge against a cap disk; and the face
//!   against the cylinder's farthest point towards it (a rim point, or a
//!   cap centre or a side point when the face is level or upright; the
//!   rest of such a flat contact meets an edge or a vertex at the same
//!   time). Each is a real contact and the first one is among them, so
//!   the earliest is exact. A start in overlap (a vertex inside, an edge
//!   through, or the plane's cut of the cylinder inside the triangle) is
//!   pushed out along the axis of least overlap among the face normal,
//!   the vertical and the horizontal directions towards each vertex and
//!   across each edge: that push separates them, though it can be longer
//!   than the least one.
//!
//! Degenerate triangles, non-finite input or coordinates beyond `1e60`
//! are `Miss { Degenerate }`: no input yields NaN.

use super::closest::{
    DEGENERATE_SINE, closest_feature_on_triangle, closest_point_on_triangle,
    segment_triangle_closest,
};
use super::shape::Solid;
use super::sweep::{Feature, MissReason, SweepOutcome, sweep_unit_sphere_triangle};
use glam::{DVec2, DVec3};

/// Largest sum of the absolute coordinates (relative to the centre) and
/// velocity components the tests accept, metres (as the sphere test's).
const COORD_LIMIT: f64 = 1e60;

/// The first contact of a swept solid with a triangle (world space, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidHit {
    /// Fraction of the move at first contact, in `[0, max_t]`.
    pub t: f64,
    /// The touched point of the triangle, world space.
    pub point: DVec3,
    /// Unit contact normal, world space, pointing from the triangle
    /// towards the solid (out of the triangle for an overlap at `t = 0`).
    pub normal: DVec3,
    /// The triangle's feature touched.
    pub feature: Feature,
    /// How deep the solid overlaps the triangle at `t = 0`, metres along
    /// `normal` (0 for a contact during the move).
    pub depth: f64,
}

/// A contact relative to the start centre.
#[derive(Clone, Copy, Debug)]
struct RelHit {
    t: f64,
    point: DVec3,
    feature: Feature,
    normal: DVec3,
    depth: f64,
}

/// Sweeps `solid`, centred at `center` and moving by `vel` (the whole move
/// is `t` in `[0, 1]`; only contacts with `t <= max_t` count), against
/// `tri`, all world space, metres. `cull_back` skips triangles whose front
/// face (counter-clockwise winding) the solid does not move against, as
/// [`sweep_unit_sphere_triangle`] does.
pub fn sweep_solid_triangle(
    solid: &Solid,
    center: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
    max_t: f64,
    cull_back: bool,
) -> Result<SolidHit, MissReason> {
    let max_t = if max_t > 0.0 { max_t.min(1.0) } else { 0.0 };
    let p = tri.map(|v| v - center);
    let magnitude = (p[0].abs() + p[1].abs() + p[2].abs() + vel.abs()).element_sum();
    if magnitude.is_nan() || magnitude > COORD_LIMIT {
        return Err(MissReason::Degenerate);
    }
    let (e0, e1) = (p[1] - p[0], p[2] - p[0]);
    let n_raw = e0.cross(e1);
    let n2 = n_raw.length_squared();
    if n2 <= DEGENERATE_SINE * DEGENERATE_SINE * e0.length_squared() * e1.length_squared() {
        return Err(MissReason::Degenerate);
    }
    let n_front = n_raw / n2.sqrt();
    if cull_back && n_front.dot(vel) >= 0.0 {
        return Err(MissReason::BackFacing);
    }
    let hit = match *solid {
        Solid::Sphere { radius } => sweep_sphere(radius, DVec3::ZERO, vel, p, max_t),
        Solid::Capsule {
            radius,
            half_segment,
        } => sweep_capsule(radius, half_segment, vel, p, n_front, max_t),
        Solid::Box { half_extents } => sweep_box(half_extents, vel, p, n_front, max_t),
        Solid::Cylinder {
            radius,
            half_height,
        } => sweep_cylinder(radius, half_height, vel, p, n_front, max_t),
    }?;
    debug_assert!(hit.t.is_finite() && hit.point.is_finite() && hit.normal.is_finite());
    Ok(SolidHit {
        t: hit.t,
        point: center + hit.point,
        normal: hit.normal,
        feature: hit.feature,
        depth: hit.depth,
    })
}

/// The sphere of `radius` centred at `c` (relative), moving by `vel`:
/// Fauerby's closed form in the sphere's own unit space.
fn sweep_sphere(
    radius: f64,
    c: DVec3,
    vel: DVec3,
    p: [DVec3; 3],
    max_t: f64,
) -> Result<RelHit, MissReason> {
    let inv = 1.0 / radius;
    match sweep_unit_sphere_triangle(c * inv, vel * inv, p.map(|v| v * inv), max_t, false) {
        SweepOutcome::Miss { reason } => Err(reason),
        SweepOutcome::Hit(h) => {
            let point = h.point_espace * radius;
            let depth = if h.t == 0.0 {
                (radius - (c - point).length()).max(0.0)
            } else {
                0.0
            };
            Ok(RelHit {
                t: h.t,
                point,
                feature: h.feature,
                normal: h.normal_espace,
                depth,
            })
        }
    }
}

/// The earliest root in `[0, max_t]` of `a t^2 + b t + c` when `c > 0`
/// (outside at the start) and the quadratic decreases (`b < 0`): the time
/// a moving point enters a round boundary. The smaller root as `c / q`
/// (Numerical Recipes 5.6), free of cancellation.
fn entry_root(a: f64, b: f64, c: f64, max_t: f64) -> Option<f64> {
    if !(c > 0.0 && a > 0.0 && b < 0.0) {
        return None;
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    let q = -0.5 * (b - disc.sqrt());
    let t = c / q;
    (t <= max_t).then_some(t)
}

/// The earliest of two contacts.
fn earlier(best: &mut Option<RelHit>, hit: RelHit) {
    if best.is_none_or(|b| hit.t < b.t) {
        *best = Some(hit);
    }
}

/// The capsule of radius `r` around the core segment `(0, +-hs, 0)`, moving
/// by `vel`, against the triangle `p` (relative to the start centre) of
/// unit front normal `n_front`. See the module doc.
fn sweep_capsule(
    r: f64,
    hs: f64,
    vel: DVec3,
    p: [DVec3; 3],
    n_front: DVec3,
    max_t: f64,
) -> Result<RelHit, MissReason> {
    let (s0, s1) = (DVec3::new(0.0, -hs, 0.0), DVec3::new(0.0, hs, 0.0));
    if let Some(hit) = capsule_overlap(r, s0, s1, vel, p, n_front) {
        return Ok(hit);
    }
    let mut best = None;
    let mut reason = MissReason::NoFeatureHit;
    // The two ends of the core: swept spheres (face, edges, vertices).
    let ends = [s0, s1];
    for &end in &ends[..if hs > 0.0 { 2 } else { 1 }] {
        match sweep_sphere(r, end, vel, p, max_t) {
            Ok(hit) => earlier(&mut best, hit),
            Err(why) => reason = why,
        }
    }
    if hs > 0.0 {
        let max_t = best.map_or(max_t, |b| b.t);
        for i in 0..3 {
            if let Some(hit) = vertex_on_side(r, hs, vel, p[i], i, max_t) {
                earlier(&mut best, hit);
            }
            if let Some(hit) = edge_on_side(r, hs, vel, p[i], p[(i + 1) % 3], i, max_t) {
                earlier(&mut best, hit);
            }
        }
    }
    best.ok_or(if reason == MissReason::PlaneNotReached {
        MissReason::PlaneNotReached
    } else {
        MissReason::NoFeatureHit
    })
}

/// The capsule (core `s0..s1`, radius `r`) overlapping the triangle at the
/// start: a hit at `t = 0` pushing out along the shortest way, or `None`.
fn capsule_overlap(
    r: f64,
    s0: DVec3,
    s1: DVec3,
    vel: DVec3,
    p: [DVec3; 3],
    n_front: DVec3,
) -> Option<RelHit> {
    let (s, dist, q) = segment_triangle_closest(s0, s1, p);
    if dist >= r {
        return None;
    }
    let core = s0 + (s1 - s0) * s;
    let (_, feature) = closest_feature_on_triangle(p, core);
    let scale = r + (s1 - s0).length();
    if dist > 1e-12 * scale {
        return Some(RelHit {
            t: 0.0,
            point: q,
            feature,
            normal: (core - q) / dist,
            depth: r - dist,
        });
    }
    // The core goes through the triangle: out along the face normal, on the
    // side of the centre (on the plane: the side the capsule comes from).
    let centre_side = -p[0].dot(n_front);
    let side = if centre_side > 0.0 || (centre_side == 0.0 && vel.dot(n_front) <= 0.0) {
        n_front
    } else {
        -n_front
    };
    let deepest = (s0 - p[0]).dot(side).min((s1 - p[0]).dot(side));
    Some(RelHit {
        t: 0.0,
        point: q,
        feature,
        normal: side,
        depth: r + (-deepest).max(0.0),
    })
}

/// When the vertical line through `p` first comes within horizontal
/// distance `r` of the axis moving with `vel` from the origin (within
/// `max_t`): the time a vertex, or a vertical edge, meets the side.
fn side_entry(r: f64, vel: DVec3, p: DVec3, max_t: f64) -> Option<f64> {
    let w0 = DVec2::new(p.x, p.z);
    let dw = DVec2::new(-vel.x, -vel.z);
    entry_root(
        dw.length_squared(),
        2.0 * w0.dot(dw),
        w0.length_squared() - r * r,
        max_t,
    )
}

/// Triangle vertex `v` (index `i`) against the capsule's side: the moving
/// vertical axis reaching horizontal distance `r` of `v`, with `v` level
/// with the core segment then.
fn vertex_on_side(r: f64, hs: f64, vel: DVec3, v: DVec3, i: usize, max_t: f64) -> Option<RelHit> {
    let t = side_entry(r, vel, v, max_t)?;
    if (v.y - t * vel.y).abs() > hs {
        return None;
    }
    let axis = DVec3::new(t * vel.x, v.y, t * vel.z);
    Some(RelHit {
        t,
        point: v,
        feature: Feature::Vertex(i as u8),
        normal: (axis - v).normalize_or(DVec3::new(-vel.x, 0.0, -vel.z).normalize_or(DVec3::X)),
        depth: 0.0,
    })
}

/// Triangle edge `a..b` (index `i`) against the capsule's side: the
/// distance between the edge's line and the moving axis (linear in `t`)
/// reaching `r`, with both closest points inside their segments. A
/// vertical edge keeps a constant horizontal distance to the axis: it
/// touches the side where its height range meets the core's.
fn edge_on_side(
    r: f64,
    hs: f64,
    vel: DVec3,
    a: DVec3,
    b: DVec3,
    i: usize,
    max_t: f64,
) -> Option<RelHit> {
    let e = b - a;
    let m = DVec3::Y.cross(e);
    let feature = Feature::Edge(i as u8);
    if m.length_squared() <= DEGENERATE_SINE * DEGENERATE_SINE * e.length_squared() {
        // Vertical edge: a point of it against the side, as a vertex.
        let t = side_entry(r, vel, a, max_t)?;
        let lo = a.y.min(b.y).max(t * vel.y - hs);
        let hi = a.y.max(b.y).min(t * vel.y + hs);
        if lo > hi || e.y == 0.0 {
            return None;
        }
        let y = 0.5 * (lo + hi);
        let point = a + e * ((y - a.y) / e.y).clamp(0.0, 1.0);
        let axis = DVec3::new(t * vel.x, point.y, t * vel.z);
        return Some(RelHit {
            t,
            point,
            feature,
            normal: (axis - point).normalize_or(DVec3::X),
            depth: 0.0,
        });
    }
    let mh = m.normalize();
    // Signed distance, along mh, from the axis line (through t * vel) to the edge line.
    let (dist0, rate) = (a.dot(mh), vel.dot(mh));
    let t = if dist0 >= r && rate > 0.0 {
        (dist0 - r) / rate
    } else if dist0 <= -r && rate < 0.0 {
        (dist0 + r) / rate
    } else {
        return None;
    };
    if t > max_t {
        return None;
    }
    // Closest points of the lines c + s Y and a + u e (w = c - a).
    let c = vel * t;
    let w = c - a;
    let u = (e.dot(w) - w.y * e.y) / m.length_squared();
    let s = u * e.y - w.y;
    if !(0.0..=1.0).contains(&u) || s.abs() > hs {
        return None;
    }
    let point = a + e * u;
    let axis = c + DVec3::Y * s;
    let fallback = if dist0 > 0.0 { -mh } else { mh };
    Some(RelHit {
        t,
        point,
        feature,
        normal: (axis - point).normalize_or(fallback),
        depth: 0.0,
    })
}

/// The upright cylinder of radius `r` and half height `hh`, moving by
/// `vel`, against the triangle `p` (relative to the start centre) of unit
/// front normal `n_front`. See the module doc.
fn sweep_cylinder(
    r: f64,
    hh: f64,
    vel: DVec3,
    p: [DVec3; 3],
    n_front: DVec3,
    max_t: f64,
) -> Result<RelHit, MissReason> {
    let solid = Solid::Cylinder {
        radius: r,
        half_height: hh,
    };
    if let Some(hit) = cylinder_overlap(r, hh, &solid, p, n_front) {
        return Ok(hit);
    }
    let mut best = None;
    let span = (p[1] - p[0]).length() + (p[2] - p[1]).length() + (p[0] - p[2]).length();
    for i in 0..3 {
        let (a, b) = (p[i], p[(i + 1) % 3]);
        let limit = best.map_or(max_t, |h: RelHit| h.t);
        if let Some(hit) = vertex_on_side(r, hh, vel, a, i, limit) {
            earlier(&mut best, hit);
        }
        if let Some(hit) = vertex_on_cap(r, hh, vel, a, i, best.map_or(max_t, |h| h.t)) {
            earlier(&mut best, hit);
        }
        if let Some(hit) = edge_on_side(r, hh, vel, a, b, i, best.map_or(max_t, |h| h.t)) {
            earlier(&mut best, hit);
        }
        let e = b - a;
        if e.y.abs() > DEGENERATE_SINE * e.length() {
            for cap in [-1.0, 1.0] {
                if let Some(hit) =
                    edge_on_rim(r, hh * cap, vel, a, e, i, best.map_or(max_t, |h| h.t))
                {
                    earlier(&mut best, hit);
                }
            }
        } else if let Some(hit) =
            level_edge_on_cap(r, hh, vel, a, b, i, best.map_or(max_t, |h| h.t))
        {
            earlier(&mut best, hit);
        }
    }
    // The face against the cylinder's farthest point towards it.
    let side = if -p[0].dot(n_front) >= 0.0 {
        n_front
    } else {
        -n_front
    };
    let approach = vel.dot(side);
    if approach < 0.0 {
        let tip = solid.support(-side);
        let gap = (tip - p[0]).dot(side);
        let t = gap / -approach;
        if gap >= 0.0 && t <= best.map_or(max_t, |h| h.t) {
            let at = tip + vel * t;
            let (on, feature) = closest_feature_on_triangle(p, at);
            if feature == Feature::Face && (on - at).length() <= 1e-12 * span {
                earlier(
                    &mut best,
                    RelHit {
                        t,
                        point: on,
                        feature,
                        normal: side,
                        depth: 0.0,
                    },
                );
            }
        }
    }
    best.ok_or(MissReason::NoFeatureHit)
}

/// Triangle vertex `v` against a cap: the cap's plane (`y = +-hh + t vel.y`)
/// reaching it from outside, within the radius of the axis then.
fn vertex_on_cap(r: f64, hh: f64, vel: DVec3, v: DVec3, i: usize, max_t: f64) -> Option<RelHit> {
    let (t, normal) = if v.y <= -hh && vel.y < 0.0 {
        ((v.y + hh) / vel.y, DVec3::Y)
    } else if v.y >= hh && vel.y > 0.0 {
        ((v.y - hh) / vel.y, DVec3::NEG_Y)
    } else {
        return None;
    };
    let off = DVec2::new(v.x - t * vel.x, v.z - t * vel.z);
    (t <= max_t && off.length_squared() <= r * r).then_some(RelHit {
        t,
        point: v,
        feature: Feature::Vertex(i as u8),
        normal,
        depth: 0.0,
    })
}

/// Triangle edge `a + u e` (not level) against the rim circle of the cap
/// at `cap_y` (`+-hh`): where its line pierces the moving cap plane lies on
/// the rim. The offset of that point from the cap's centre is `w0 + t w1`.
fn edge_on_rim(
    r: f64,
    cap_y: f64,
    vel: DVec3,
    a: DVec3,
    e: DVec3,
    i: usize,
    max_t: f64,
) -> Option<RelHit> {
    let (ah, eh, vh) = (
        DVec2::new(a.x, a.z),
        DVec2::new(e.x, e.z),
        DVec2::new(vel.x, vel.z),
    );
    // u(t) = (cap_y + t vel.y - a.y) / e.y
    let (u0, u1) = ((cap_y - a.y) / e.y, vel.y / e.y);
    let w0 = ah + eh * u0;
    let w1 = eh * u1 - vh;
    let (qa, qb, qc) = (
        w1.length_squared(),
        2.0 * w0.dot(w1),
        w0.length_squared() - r * r,
    );
    let roots: [Option<f64>; 2] = if qa == 0.0 {
        [(qc == 0.0).then_some(0.0), None]
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let q = -0.5 * (qb + disc.sqrt().copysign(qb));
        [Some(q / qa), (q != 0.0).then(|| qc / q)]
    };
    let mut best: Option<RelHit> = None;
    for t in roots.into_iter().flatten() {
        let u = u0 + u1 * t;
        if !(0.0..=max_t).contains(&t) || !(0.0..=1.0).contains(&u) {
            continue;
        }
        let point = a + e * u;
        let centre = DVec3::new(t * vel.x, cap_y + t * vel.y, t * vel.z);
        let radial = point - centre;
        let tangent = DVec3::Y.cross(radial);
        let toward =
            DVec3::new(0.0, t * vel.y, 0.0) + DVec3::new(t * vel.x, 0.0, t * vel.z) - point;
        let mut normal = e.cross(tangent).normalize_or(toward.normalize_or(DVec3::Y));
        if normal.dot(toward) < 0.0 {
            normal = -normal;
        }
        earlier(
            &mut best,
            RelHit {
                t,
                point,
                feature: Feature::Edge(i as u8),
                normal,
                depth: 0.0,
            },
        );
    }
    best
}

/// A level triangle edge `a..b` against a cap disk: the cap's plane
/// reaching the edge's height, the edge then within the radius of the axis.
fn level_edge_on_cap(
    r: f64,
    hh: f64,
    vel: DVec3,
    a: DVec3,
    b: DVec3,
    i: usize,
    max_t: f64,
) -> Option<RelHit> {
    let (t, normal, y) = if a.y.max(b.y) <= -hh && vel.y < 0.0 {
        let y = a.y.max(b.y);
        ((y + hh) / vel.y, DVec3::Y, y)
    } else if a.y.min(b.y) >= hh && vel.y > 0.0 {
        let y = a.y.min(b.y);
        ((y - hh) / vel.y, DVec3::NEG_Y, y)
    } else {
        return None;
    };
    if t > max_t {
        return None;
    }
    let centre = DVec3::new(t * vel.x, y, t * vel.z);
    let flat = |v: DVec3| DVec3::new(v.x, y, v.z);
    let point = super::closest::closest_point_on_segment(flat(a), flat(b), centre);
    ((point - centre).length_squared() <= r * r).then(|| {
        let along = (b - a).length_squared();
        let u = if along > 0.0 {
            ((point - a).dot(b - a) / along).clamp(0.0, 1.0)
        } else {
            0.0
        };
        RelHit {
            t,
            point: a + (b - a) * u,
            feature: Feature::Edge(i as u8),
            normal,
            depth: 0.0,
        }
    })
}

/// The cylinder (radius `r`, half height `hh`, at the origin) overlapping
/// the triangle at the start: a vertex strictly inside, an edge through
/// its inside, or its cut by the triangle's plane inside the triangle.
/// Then a hit at `t = 0` with the push of least overlap over a few axes.
fn cylinder_overlap(
    r: f64,
    hh: f64,
    solid: &Solid,
    p: [DVec3; 3],
    n_front: DVec3,
) -> Option<RelHit> {
    let inside = |v: DVec3| v.y.abs() < hh && v.x * v.x + v.z * v.z < r * r;
    let edge_through = |a: DVec3, b: DVec3| {
        let e = b - a;
        // The part of the edge strictly between the caps.
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        if e.y != 0.0 {
            let (u0, u1) = ((-hh - a.y) / e.y, (hh - a.y) / e.y);
            lo = lo.max(u0.min(u1));
            hi = hi.min(u0.max(u1));
        } else if a.y.abs() >= hh {
            return false;
        }
        // And strictly within the radius: |ah + u eh|^2 < r^2.
        let (ah, eh) = (DVec2::new(a.x, a.z), DVec2::new(e.x, e.z));
        let (qa, qb, qc) = (
            eh.length_squared(),
            2.0 * ah.dot(eh),
            ah.length_squared() - r * r,
        );
        if qa == 0.0 {
            return qc < 0.0 && lo < hi;
        }
        let disc = qb * qb - 4.0 * qa * qc;
        if disc <= 0.0 {
            return false;
        }
        let sq = disc.sqrt();
        let (r0, r1) = ((-qb - sq) / (2.0 * qa), (-qb + sq) / (2.0 * qa));
        lo.max(r0) < hi.min(r1)
    };
    let cut_inside = || {
        let below = solid.support(-n_front);
        let above = solid.support(n_front);
        let (d0, d1) = ((below - p[0]).dot(n_front), (above - p[0]).dot(n_front));
        if !(d0 < 0.0 && d1 > 0.0) {
            return false;
        }
        let x = below + (above - below) * (d0 / (d0 - d1));
        let (on, feature) = closest_feature_on_triangle(p, x);
        let span = (p[1] - p[0]).length() + (p[2] - p[0]).length();
        feature == Feature::Face && (on - x).length() <= 1e-12 * span
    };
    let overlapping = p.iter().any(|&v| inside(v))
        || (0..3).any(|i| edge_through(p[i], p[(i + 1) % 3]))
        || cut_inside();
    if !overlapping {
        return None;
    }
    let mut axes = [
        n_front,
        DVec3::Y,
        DVec3::ZERO,
        DVec3::ZERO,
        DVec3::ZERO,
        DVec3::ZERO,
        DVec3::ZERO,
        DVec3::ZERO,
    ];
    for i in 0..3 {
        axes[2 + i] = DVec3::new(p[i].x, 0.0, p[i].z).normalize_or_zero();
        axes[5 + i] = (p[(i + 1) % 3] - p[i]).cross(DVec3::Y).normalize_or_zero();
    }
    let mut push = (f64::INFINITY, n_front);
    for l in axes.into_iter().filter(|l| *l != DVec3::ZERO) {
        let reach = hh * l.y.abs() + r * DVec2::new(l.x, l.z).length();
        let proj = p.map(|v| v.dot(l));
        let (m0, m1) = (
            proj[0].min(proj[1]).min(proj[2]),
            proj[0].max(proj[1]).max(proj[2]),
        );
        if m1 + reach < push.0 {
            push = (m1 + reach, l);
        }
        if reach - m0 < push.0 {
            push = (reach - m0, -l);
        }
    }
    let point = closest_point_on_triangle(p, DVec3::ZERO);
    let (_, feature) = closest_feature_on_triangle(p, point);
    Some(RelHit {
        t: 0.0,
        point,
        feature,
        normal: push.1,
        depth: push.0.max(0.0),
    })
}

/// Which axis of the box-triangle separating-axis test.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Axis {
    /// A face normal of the box (x, y or z).
    BoxFace,
    /// The triangle's normal.
    TriangleNormal,
    /// A box axis crossed with triangle edge `i`.
    Cross(u8),
}

/// The axis-aligned box of half sizes `h` moving by `vel` against the
/// triangle `p` (relative to the start centre). See the module doc.
fn sweep_box(
    h: DVec3,
    vel: DVec3,
    p: [DVec3; 3],
    n_front: DVec3,
    max_t: f64,
) -> Result<RelHit, MissReason> {
    let mut axes = [(DVec3::ZERO, Axis::BoxFace); 13];
    let mut count = 0;
    for a in [DVec3::X, DVec3::Y, DVec3::Z] {
        axes[count] = (a, Axis::BoxFace);
        count += 1;
    }
    axes[count] = (n_front, Axis::TriangleNormal);
    count += 1;
    for i in 0..3 {
        let e = p[(i + 1) % 3] - p[i];
        for a in [DVec3::X, DVec3::Y, DVec3::Z] {
            let l = e.cross(a);
            if l.length_squared() > DEGENERATE_SINE * DEGENERATE_SINE * e.length_squared() {
                axes[count] = (l.normalize(), Axis::Cross(i as u8));
                count += 1;
            }
        }
    }
    let (mut t_enter, mut t_exit) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut enter = (n_front, Axis::TriangleNormal);
    // The shortest push out of an overlap at the start: (depth, direction, axis).
    let mut push = (f64::INFINITY, n_front, Axis::TriangleNormal);
    for &(l, kind) in &axes[..count] {
        let reach = (h * l.abs()).element_sum();
        let proj = [p[0].dot(l), p[1].dot(l), p[2].dot(l)];
        let lo = proj[0].min(proj[1]).min(proj[2]) - reach;
        let hi = proj[0].max(proj[1]).max(proj[2]) + reach;
        // They overlap on this axis while the centre's projection t * s is in [lo, hi].
        if hi < push.0 {
            push = (hi, l, kind);
        }
        if -lo < push.0 {
            push = (-lo, -l, kind);
        }
        let s = vel.dot(l);
        let miss = if kind == Axis::TriangleNormal {
            MissReason::PlaneNotReached
        } else {
            MissReason::NoFeatureHit
        };
        if s == 0.0 {
            if lo > 0.0 || hi < 0.0 {
                return Err(miss);
            }
            continue;
        }
        let (t_in, t_out, normal) = if s > 0.0 {
            (lo / s, hi / s, -l)
        } else {
            (hi / s, lo / s, l)
        };
        if t_in > t_enter {
            t_enter = t_in;
            enter = (normal, kind);
        }
        t_exit = t_exit.min(t_out);
        if t_enter > t_exit || t_exit < 0.0 || t_enter > max_t {
            return Err(miss);
        }
    }
    if t_enter < 0.0 {
        // Overlapping at the start on every axis: out the shortest way.
        let (depth, normal, _) = push;
        let point = box_contact_point(h, p, DVec3::ZERO);
        let (_, feature) = closest_feature_on_triangle(p, point);
        return Ok(RelHit {
            t: 0.0,
            point,
            feature,
            normal,
            depth: depth.max(0.0),
        });
    }
    let t = t_enter;
    let (normal, kind) = enter;
    let feature = match kind {
        Axis::TriangleNormal => Feature::Face,
        Axis::Cross(i) => Feature::Edge(i),
        Axis::BoxFace => nearest_feature_along(p, normal),
    };
    Ok(RelHit {
        t,
        point: box_contact_point(h, p, vel * t),
        feature,
        normal,
        depth: 0.0,
    })
}

/// The triangle's feature farthest along `dir` (towards the box): one
/// vertex, an edge (two vertices level within rounding) or the face.
fn nearest_feature_along(p: [DVec3; 3], dir: DVec3) -> Feature {
    let proj = p.map(|v| v.dot(dir));
    let top = proj[0].max(proj[1]).max(proj[2]);
    let span = (p[0] - p[1]).length() + (p[1] - p[2]).length();
    let level = proj.map(|x| top - x <= 1e-9 * span);
    match level {
        [true, true, true] => Feature::Face,
        [true, true, false] => Feature::Edge(0),
        [false, true, true] => Feature::Edge(1),
        [true, false, true] => Feature::Edge(2),
        [false, true, false] => Feature::Vertex(1),
        [false, false, true] => Feature::Vertex(2),
        _ => Feature::Vertex(0),
    }
}

/// A point of the triangle `p` where the box of half sizes `h` centred at
/// `c` touches it: the centre of the part of the triangle inside the box
/// grown by a rounding margin (Sutherland-Hodgman clipping against its six
/// faces), or the triangle's point nearest the centre if rounding leaves
/// nothing.
fn box_contact_point(h: DVec3, p: [DVec3; 3], c: DVec3) -> DVec3 {
    let rel = p.map(|v| v - c);
    let margin = 1e-9 * (h.max_element() + rel.iter().map(|v| v.abs().max_element()).sum::<f64>());
    let mut poly = [DVec3::ZERO; 12];
    let mut n = 3;
    poly[..3].copy_from_slice(&rel);
    let mut out = [DVec3::ZERO; 12];
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let limit = h[axis] + margin;
            // Inside: sign * x[axis] <= limit.
            let inside = |v: DVec3| sign * v[axis] <= limit;
            let mut m = 0;
            for k in 0..n {
                let (a, b) = (poly[k], poly[(k + 1) % n]);
                let (ia, ib) = (inside(a), inside(b));
                if ia && m < out.len() {
                    out[m] = a;
                    m += 1;
                }
                if ia != ib && m < out.len() {
                    let (da, db) = (sign * a[axis] - limit, sign * b[axis] - limit);
                    out[m] = a + (b - a) * (da / (da - db));
                    m += 1;
                }
            }
            n = m;
            poly[..n].copy_from_slice(&out[..n]);
            if n == 0 {
                return closest_point_on_triangle(p, c);
            }
        }
    }
    let centre = poly[..n].iter().copied().sum::<DVec3>() / n as f64;
    // Back onto the triangle's plane and into it: clipping rounds.
    closest_point_on_triangle(p, centre + c)
}

#[cfg(test)]
#[path = "solid_sweep/tests.rs"]
mod tests;
