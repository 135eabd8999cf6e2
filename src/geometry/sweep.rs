//! Swept unit sphere vs triangle, in ellipsoid space (Fauerby 2003, closed form).
//!
//! The probe is the unit sphere centred at `center`, moving by `t * vel` for
//! `t` in `[0, max_t]`; the triangle is in the same (ellipsoid) space. The
//! test follows Kasper Fauerby, "Improved Collision detection and Response"
//! (2003):
//!
//! 1. the interval in which the sphere cuts the triangle's plane (signed
//!    distance of the centre `= +-1`); a miss when it lies outside the move;
//! 2. the face: where the sphere first touches the plane, if that point is
//!    inside the triangle it is the first contact;
//! 3. otherwise the three vertices and the three edges, each a quadratic in
//!    `t` (the centre reaching distance 1 of a point, or of an edge's line
//!    with the contact inside the edge), keeping the smallest root.
//!
//! Departures from the paper, for the debugger's semantics and for numerics:
//! - a sphere that already overlaps the triangle at `t = 0` is a hit at
//!   `t = 0` whose normal points out of the triangle (the paper's vertex and
//!   edge quadratics would return their exit root there);
//! - a sphere that starts cutting the plane can only meet an edge or a
//!   vertex first, so the face test is skipped whenever `|distance| < 1` at
//!   the start, not only in the parallel case;
//! - everything is computed relative to the centre (no loss of precision far
//!   from the origin), each edge quadratic is written as the distance of a
//!   moving point to the origin in the edge's cross-product frame (no
//!   cancelling products), and roots use the `c / q` form (Numerical
//!   Recipes 5.6) so that no root suffers cancellation;
//! - before the vertex and edge quadratics (and the overlap search), a
//!   cheap separating test in the plane rejects triangles the sphere's
//!   slice of the plane never reaches: the outcome is the same, and most
//!   candidates of a real move end there;
//! - a degenerate triangle, non-finite input or coordinates too large for the
//!   closed form to stay finite are `Miss { Degenerate }`: no input yields NaN.

use super::closest::DEGENERATE_SINE;
use super::closest::closest_feature_given_normal;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Which part of the triangle the sphere touches first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "index", rename_all = "snake_case")]
pub enum Feature {
    /// The interior of the face.
    Face,
    /// Edge `i` runs from vertex `i` to vertex `(i + 1) % 3`.
    Edge(u8),
    /// Vertex `i` (0, 1 or 2).
    Vertex(u8),
}

/// Why a triangle was not hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissReason {
    /// Zero-area triangle (or a sliver too thin for its normal to be trusted,
    /// see [`DEGENERATE_SINE`]); also input the closed form cannot take:
    /// non-finite, or beyond `1e60`.
    Degenerate,
    /// The sphere moves away from the front face (or along it while in front), and single-sided culling is on.
    BackFacing,
    /// The sphere never comes within 1 of the triangle's plane during the move.
    PlaneNotReached,
    /// The plane is reached but neither the face, an edge nor a vertex is touched in `[0, max_t]`.
    NoFeatureHit,
}

/// The first contact of the swept sphere with a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepHit {
    /// Fraction of the move at first contact, in `[0, max_t]`.
    pub t: f64,
    /// The touched point on the triangle, ellipsoid space.
    pub point_espace: DVec3,
    /// What was touched.
    pub feature: Feature,
    /// Unit vector from the contact point to the sphere centre at contact, ellipsoid space.
    /// For a sphere that already overlaps the triangle at `t = 0` it is the direction
    /// out of the triangle (the face normal when the closest point is inside the face).
    pub normal_espace: DVec3,
}

/// Result of sweeping the unit sphere against one triangle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum SweepOutcome {
    /// No contact in the move.
    Miss {
        /// Why not.
        reason: MissReason,
    },
    /// First contact.
    Hit(SweepHit),
}

/// Largest sum of the absolute coordinates (relative to the centre) and
/// velocity components, in ellipsoid space, that the closed form accepts:
/// fourth powers of coordinates must stay finite (`1e60^4 = 1e240`).
const COORD_LIMIT: f64 = 1e60;
/// Closest-point distances below this are "the centre lies on the triangle":
/// the overlap normal is then the face normal.
const ON_TRIANGLE: f64 = 1e-12;

/// Sweeps the unit sphere centred at `center` along `vel` (the whole move is
/// `t` in `[0, 1]`; only contacts with `t <= max_t` count) against the
/// triangle `tri` (all ellipsoid space). `cull_back` skips triangles whose
/// front face the sphere does not approach. If the sphere already overlaps the
/// triangle at `t = 0` the result is a hit at `t = 0`.
///
/// Details of the contract:
/// - the front face is the one whose normal `(b - a) x (c - a)` points
///   towards the viewer when `a, b, c` run counter-clockwise. With
///   `cull_back` the triangle is culled (`BackFacing`) unless
///   `normal . vel < 0`, so a zero velocity is culled too; without it the
///   triangle is two-sided and the face the centre starts in front of counts;
/// - `max_t` is clamped to `[0, 1]` (NaN counts as 0);
/// - a sphere that touches (distance exactly 1) at `t = 0` is a hit at `t = 0`
///   only if it moves towards the touched feature;
/// - on a face hit `normal_espace` is the face normal on the centre's side.
pub fn sweep_unit_sphere_triangle(
    center: DVec3,
    vel: DVec3,
    tri: [DVec3; 3],
    max_t: f64,
    cull_back: bool,
) -> SweepOutcome {
    let max_t = if max_t > 0.0 { max_t.min(1.0) } else { 0.0 };
    let tri_rel = match Triangle::facing(center, vel, tri, cull_back) {
        Ok(tri_rel) => tri_rel,
        Err(reason) => return miss(reason),
    };
    let outcome = if tri_rel.dist < 1.0 {
        tri_rel.sweep_from_plane(vel, max_t)
    } else {
        tri_rel.sweep_towards_plane(vel, max_t)
    };
    match outcome {
        Ok(hit) => {
            debug_assert!(hit.t.is_finite() && hit.point.is_finite() && hit.normal.is_finite());
            SweepOutcome::Hit(SweepHit {
                t: hit.t,
                point_espace: center + hit.point,
                feature: hit.feature,
                normal_espace: hit.normal,
            })
        }
        Err(reason) => miss(reason),
    }
}

#[inline]
fn miss(reason: MissReason) -> SweepOutcome {
    SweepOutcome::Miss { reason }
}

/// The triangle relative to the sphere's start centre, seen from the side
/// the centre is on.
struct Triangle {
    /// Vertices.
    p: [DVec3; 3],
    /// `(p[1] - p[0]) x (p[2] - p[0])`: the winding's normal, which fixes
    /// the signs of the edge functions.
    n_wind: DVec3,
    /// Unit normal on the side of the centre.
    n: DVec3,
    /// Distance of the centre to the plane (`>= 0`).
    dist: f64,
    /// `n . vel`: negative when the sphere moves towards the plane.
    nv: f64,
    /// Sum of the absolute coordinates of `p` and of the velocity: bounds
    /// every coordinate involved, which sizes rounding margins.
    magnitude: f64,
}

/// A contact relative to the start centre.
struct RelHit {
    t: f64,
    point: DVec3,
    feature: Feature,
    normal: DVec3,
}

impl Triangle {
    /// The triangle relative to `center`, oriented towards the centre; the
    /// early misses (bad input, degenerate, culled) as errors.
    #[inline(always)]
    fn facing(
        center: DVec3,
        vel: DVec3,
        tri: [DVec3; 3],
        cull_back: bool,
    ) -> Result<Self, MissReason> {
        // Relative to the centre, the sphere sits at the origin: every formula
        // below is about the moving point `t * vel` and the triangle `p`.
        let p = [tri[0] - center, tri[1] - center, tri[2] - center];
        // One sum bounds every coordinate and carries any NaN or infinity along.
        let magnitude = (p[0].abs() + p[1].abs() + p[2].abs() + vel.abs()).element_sum();
        if magnitude.is_nan() || magnitude > COORD_LIMIT {
            return Err(MissReason::Degenerate);
        }
        let e0 = p[1] - p[0];
        let e1 = p[2] - p[0];
        let n_raw = e0.cross(e1);
        let n_len2 = n_raw.length_squared();
        // |e0 x e1| = |e0| |e1| sin(angle at p[0]); squared to spare two roots.
        // (Finite: coordinates are at most 1e60, so these are at most ~1e242.)
        if n_len2 <= DEGENERATE_SINE * DEGENERATE_SINE * e0.length_squared() * e1.length_squared() {
            return Err(MissReason::Degenerate);
        }
        let n_front = n_raw / n_len2.sqrt();
        let nv_front = n_front.dot(vel);
        if cull_back && nv_front >= 0.0 {
            return Err(MissReason::BackFacing);
        }
        // Take the normal of the side the centre is on; on the plane itself,
        // of the side the sphere comes from. (With culling only spheres that
        // move against the front normal get here: in front they approach
        // the face, behind it they move away and can only touch it while
        // still within 1 of the plane.)
        let dist_front = -p[0].dot(n_front);
        let flip = dist_front < 0.0 || (dist_front == 0.0 && nv_front > 0.0);
        let (n, dist, nv) = if flip {
            (-n_front, -dist_front, -nv_front)
        } else {
            (n_front, dist_front, nv_front)
        };
        Ok(Triangle {
            p,
            n_wind: n_raw,
            n,
            dist,
            nv,
            magnitude,
        })
    }

    /// The sphere cuts the plane at the start (`dist < 1`): either it
    /// overlaps the triangle now, or an edge or a vertex is the first thing
    /// it can touch (a face contact would need the distance to the plane to
    /// grow back to 1 with the sphere over the face: it would overlap first).
    #[inline]
    fn sweep_from_plane(&self, vel: DVec3, max_t: f64) -> Result<RelHit, MissReason> {
        // Contacts are only possible until the sphere leaves the plane's slab.
        let t_leave = if self.nv > 0.0 {
            (1.0 - self.dist) / self.nv
        } else if self.nv < 0.0 {
            (1.0 + self.dist) / -self.nv
        } else {
            f64::INFINITY
        };
        let t_end = t_leave.min(max_t);
        // Out of reach over the whole interval, the start included: neither
        // an overlap now nor a later contact (and no closest-point search).
        if self.out_of_reach(vel, t_end) {
            return Err(MissReason::NoFeatureHit);
        }
        if let Some(hit) = self.overlap_at_start() {
            return Ok(hit);
        }
        self.boundary_roots(vel, t_end)
            .ok_or(MissReason::NoFeatureHit)
    }

    /// The sphere starts clear of the plane (`dist >= 1`): the face at the
    /// time it reaches the plane, else an edge or a vertex while it crosses.
    #[inline]
    fn sweep_towards_plane(&self, vel: DVec3, max_t: f64) -> Result<RelHit, MissReason> {
        if self.nv >= 0.0 {
            return Err(MissReason::PlaneNotReached);
        }
        let t_enter = (self.dist - 1.0) / -self.nv;
        if t_enter > max_t {
            return Err(MissReason::PlaneNotReached);
        }
        let touch = vel * t_enter - self.n;
        if self.contains(touch) {
            let hit = RelHit {
                t: t_enter,
                point: touch,
                feature: Feature::Face,
                normal: self.n,
            };
            return Ok(hit);
        }
        let t_leave = (self.dist + 1.0) / -self.nv;
        self.boundary_contact(vel, t_leave.min(max_t))
            .ok_or(MissReason::NoFeatureHit)
    }

    /// Whether the point `q` of the plane lies in the closed triangle: three
    /// edge functions, which stay exact on slivers where barycentric
    /// coordinates from dot products (`d00 d11 - d01^2`) cancel.
    #[inline]
    fn contains(&self, q: DVec3) -> bool {
        let inside = |i: usize| {
            let (a, b) = (self.p[i], self.p[(i + 1) % 3]);
            (b - a).cross(q - a).dot(self.n_wind) >= 0.0
        };
        inside(0) && inside(1) && inside(2)
    }

    /// A hit at `t = 0` if the unit sphere at the origin overlaps the triangle.
    #[inline]
    fn overlap_at_start(&self) -> Option<RelHit> {
        let (q, feature) = closest_feature_given_normal(self.p, self.n_wind, DVec3::ZERO);
        let d2 = q.length_squared();
        if d2 >= 1.0 {
            return None;
        }
        let d = d2.sqrt();
        // Out of the triangle towards the centre; the face normal when the
        // closest point is interior, or when the centre lies on the triangle.
        let normal = if feature == Feature::Face || d < ON_TRIANGLE {
            self.n
        } else {
            -q / d
        };
        Some(RelHit {
            t: 0.0,
            point: q,
            feature,
            normal,
        })
    }

    /// `true` when the sphere moving by `t * vel`, `t` in `[0, t_max]`,
    /// cannot touch the triangle's boundary: a cheap separating test that
    /// spares the six quadratics. While the sphere is within 1 of the
    /// plane it cuts it in a disc of radius `sqrt(1 - d^2)` (`d` the
    /// centre's distance to the plane) around the centre's projection, so
    /// every contact lies in the band that discs of the largest such radius
    /// `rho` sweep along the projected path. If that band lies wholly beyond
    /// one of the triangle's edge lines, nothing is touched. Most candidates
    /// that get this far are like that: the tiles around the one a probe
    /// lands on, which it dips only centimetres into. Distances are
    /// compared squared against unnormalised edge normals (no roots), with
    /// a margin so that rounding never rejects a contact the quadratics
    /// would find.
    #[inline]
    fn out_of_reach(&self, vel: DVec3, t_max: f64) -> bool {
        // `dist >= 0`: the plane distance only shrinks to its minimum over
        // the interval, reaching 0 if the centre crosses the plane.
        let nearest_d = (self.dist + (self.nv * t_max).min(0.0)).max(0.0);
        let rho2 = (1.0 - nearest_d * nearest_d).max(0.0);
        let band = rho2.sqrt() + 1e-9 * (1.0 + self.magnitude);
        (0..3).any(|i| {
            let (a, b) = (self.p[i], self.p[(i + 1) % 3]);
            // Points outward from edge `i` in the plane (the triangle runs
            // counter-clockwise about `n_wind`).
            let out = (b - a).cross(self.n_wind);
            // How far beyond the edge line the path stays at its nearest,
            // times |out|: the path runs from the origin to `vel * t_max`.
            let beyond = -a.dot(out) + (vel.dot(out) * t_max).min(0.0);
            beyond > 0.0 && beyond * beyond > band * band * out.length_squared()
        })
    }

    /// The first vertex or edge contact with `t` in `[0, t_max]`.
    #[inline]
    fn boundary_contact(&self, vel: DVec3, t_max: f64) -> Option<RelHit> {
        if self.out_of_reach(vel, t_max) {
            return None;
        }
        self.boundary_roots(vel, t_max)
    }

    /// [`Triangle::boundary_contact`] by the six quadratics alone.
    #[inline]
    fn boundary_roots(&self, vel: DVec3, t_max: f64) -> Option<RelHit> {
        let vv = vel.length_squared();
        let mut best_t = t_max;
        let mut best: Option<(DVec3, Feature)> = None;
        for (i, &p) in self.p.iter().enumerate() {
            // |t vel - p|^2 = 1
            if let Some(t) = first_root(vv, -vel.dot(p), p.length_squared() - 1.0, best_t) {
                best_t = t;
                best = Some((p, Feature::Vertex(i as u8)));
            }
        }
        for i in 0..3 {
            let p = self.p[i];
            let e = self.p[(i + 1) % 3] - p;
            let ee = e.length_squared();
            // Distance from `t vel` to the edge's line is |e x (t vel - p)| / |e|,
            // so the contact solves |t u - w|^2 = |e|^2.
            let u = e.cross(vel);
            let w = e.cross(p);
            if let Some(t) = first_root(
                u.length_squared(),
                -u.dot(w),
                w.length_squared() - ee,
                best_t,
            ) {
                let along = (t * e.dot(vel) - e.dot(p)) / ee;
                // At equal times the vertex found first is the better label.
                let earlier = best.is_none() || t < best_t;
                if earlier && (0.0..=1.0).contains(&along) {
                    best_t = t;
                    best = Some((p + e * along, Feature::Edge(i as u8)));
                }
            }
        }
        let (point, feature) = best?;
        let normal = (vel * best_t - point).normalize_or(self.n);
        Some(RelHit {
            t: best_t,
            point,
            feature,
            normal,
        })
    }
}

/// The first time in `[0, t_max]` at which `a t^2 + 2 half_b t + c` (a squared
/// distance minus the squared radius, `a >= 0`) reaches zero while the
/// distance shrinks, or `None`.
///
/// `c <= 0` with `half_b < 0` means touching at the start and approaching:
/// `t = 0`. A distance that does not shrink at `t = 0` (`half_b >= 0`) never
/// comes back, since the squared distance is convex in `t`.
#[inline]
fn first_root(a: f64, half_b: f64, c: f64, t_max: f64) -> Option<f64> {
    if half_b >= 0.0 || half_b.is_nan() {
        return None;
    }
    if c <= 0.0 {
        return Some(0.0);
    }
    let disc = half_b * half_b - a * c;
    if disc < 0.0 {
        return None;
    }
    // The smaller root as c / q: -half_b > 0, so q has no cancellation.
    let t = c / (disc.sqrt() - half_b);
    (t <= t_max).then_some(t)
}

#[cfg(test)]
mod tests;
