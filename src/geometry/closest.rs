//! Closest points on segments and triangles, `f64`, in whatever space the
//! caller's points are in (the solver uses ellipsoid space).
//!
//! The triangle query also reports which feature holds the closest point,
//! which the swept-sphere test needs to label an overlap at `t = 0`. It
//! decides between the face and the boundary with three edge functions (the
//! sign of `(e_i x (p - v_i)) . n`, as in a rasteriser's inside test) rather
//! than with Ericson's Voronoi-region walk (*Real-Time Collision Detection*,
//! 5.1.5): the walk's region tests subtract products of dot products, which
//! cancel on slivers (long thin triangles, common at T-junctions in real
//! levels); on a 3-unit sliver with a sine of `8e-7` it put a point of the
//! triangle `9e-7` away from itself. An edge function only loses precision
//! within rounding distance of its own edge, where the face and the edge
//! answers coincide. Outside the face, the closest point is on an edge whose
//! outer half-plane holds the point (at most two of them).

use super::sweep::Feature;
use glam::DVec3;

/// Below this sine of the angle at vertex 0 a triangle is treated as
/// degenerate (collinear or repeated vertices): its normal cannot be trusted,
/// since the normal's relative error grows as `f64::EPSILON / sine`.
pub const DEGENERATE_SINE: f64 = 1e-9;

/// Closest point to `p` on the segment `a..b`.
pub fn closest_point_on_segment(a: DVec3, b: DVec3, p: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Closest point to `p` on the solid triangle `tri`.
///
/// A degenerate triangle (see [`DEGENERATE_SINE`]) is treated as the union of
/// its three edges.
pub fn closest_point_on_triangle(tri: [DVec3; 3], p: DVec3) -> DVec3 {
    closest_feature_on_triangle(tri, p).0
}

/// Closest point to `p` on the solid triangle `tri` and the feature it lies
/// on: `Vertex(i)`, `Edge(i)` (from vertex `i` to vertex `(i + 1) % 3`) or
/// `Face` (the open interior).
///
/// A point exactly over an edge is reported on the edge, one exactly at an
/// edge's end on the vertex. A degenerate triangle (see [`DEGENERATE_SINE`])
/// is treated as the union of its three edges.
pub fn closest_feature_on_triangle(tri: [DVec3; 3], p: DVec3) -> (DVec3, Feature) {
    closest_feature_given_cross(tri, (tri[1] - tri[0]).cross(tri[2] - tri[0]), p)
}

/// [`closest_feature_on_triangle`] when the caller has already computed
/// `n = (tri[1] - tri[0]) x (tri[2] - tri[0])` (for its own plane test):
/// the same answer to the bit, without computing it again.
#[inline]
pub(crate) fn closest_feature_given_cross(tri: [DVec3; 3], n: DVec3, p: DVec3) -> (DVec3, Feature) {
    let e0 = tri[1] - tri[0];
    let e1 = tri[2] - tri[0];
    let n2 = n.length_squared();
    let min_n2 = DEGENERATE_SINE * DEGENERATE_SINE * e0.length_squared() * e1.length_squared();
    if n2 <= min_n2 || n2.is_nan() {
        return closest_on_edges(tri, p, [true; 3]);
    }
    closest_feature_given_normal(tri, n, p)
}

/// [`closest_feature_on_triangle`] for a non-degenerate triangle whose normal
/// `n` (any length, `(v1 - v0) x (v2 - v0)` or a multiple of it with the same
/// orientation) is known.
#[inline]
pub(crate) fn closest_feature_given_normal(
    tri: [DVec3; 3],
    n: DVec3,
    p: DVec3,
) -> (DVec3, Feature) {
    // Positive when p lies on the inner side of edge i. Components of
    // p - v_i along n drop out (their cross with e_i is normal to n), so
    // there is no need to project p onto the plane first.
    let outside = |i: usize| {
        let (a, b) = (tri[i], tri[(i + 1) % 3]);
        (b - a).cross(p - a).dot(n) <= 0.0
    };
    let out = [outside(0), outside(1), outside(2)];
    if out == [false; 3] {
        let q = p - n * ((p - tri[0]).dot(n) / n.length_squared());
        return (q, Feature::Face);
    }
    closest_on_edges(tri, p, out)
}

/// Closest point to `p` on the edges of `tri` flagged in `edges`, with the
/// feature it lies on (an end of an edge is its vertex).
fn closest_on_edges(tri: [DVec3; 3], p: DVec3, edges: [bool; 3]) -> (DVec3, Feature) {
    let mut best = (tri[0], Feature::Vertex(0));
    let mut best_d2 = f64::INFINITY;
    for i in (0..3).filter(|&i| edges[i]) {
        let (a, b) = (tri[i], tri[(i + 1) % 3]);
        let ab = b - a;
        let len2 = ab.length_squared();
        let t = if len2 > 0.0 {
            (p - a).dot(ab) / len2
        } else {
            0.0
        };
        let (q, feature) = if t <= 0.0 {
            (a, Feature::Vertex(i as u8))
        } else if t >= 1.0 {
            (b, Feature::Vertex(((i + 1) % 3) as u8))
        } else {
            (a + ab * t, Feature::Edge(i as u8))
        };
        let d2 = (q - p).length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = (q, feature);
        }
    }
    best
}

/// The least distance from the segment `p0..p1` to the solid triangle
/// `tri` (any space): `(fraction along the segment, distance, point of the
/// triangle)`. Exact: zero where the segment goes through the triangle,
/// otherwise reached at an end of the segment or against an edge.
pub fn segment_triangle_closest(p0: DVec3, p1: DVec3, tri: [DVec3; 3]) -> (f64, f64, DVec3) {
    let d = p1 - p0;
    let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
    let (h0, h1) = (n.dot(p0 - tri[0]), n.dot(p1 - tri[0]));
    if h0 * h1 <= 0.0 && h0 != h1 {
        let t = h0 / (h0 - h1);
        let x = p0 + d * t;
        let on = closest_point_on_triangle(tri, x);
        let scale = d.length() + (tri[1] - tri[0]).length() + (tri[2] - tri[0]).length();
        if (on - x).length() <= 1e-12 * scale.max(1.0) {
            return (t, 0.0, on);
        }
    }
    let mut best = {
        let q = closest_point_on_triangle(tri, p0);
        (0.0, (q - p0).length(), q)
    };
    let q = closest_point_on_triangle(tri, p1);
    let dist = (q - p1).length();
    if dist < best.1 {
        best = (1.0, dist, q);
    }
    for i in 0..3 {
        let (s, q) = segment_segment_closest(p0, p1, tri[i], tri[(i + 1) % 3]);
        let dist = (p0 + d * s - q).length();
        if dist < best.1 {
            best = (s, dist, q);
        }
    }
    best
}

/// Closest points of the segments `p0..p1` and `q0..q1`: the fraction
/// along the first and the point of the second (Ericson, *Real-Time
/// Collision Detection*, 5.1.9).
fn segment_segment_closest(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> (f64, DVec3) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    if a <= f64::MIN_POSITIVE {
        return (0.0, closest_point_on_segment(q0, q1, p0));
    }
    let c = d1.dot(r);
    let (s, t) = if e <= f64::MIN_POSITIVE {
        ((-c / a).clamp(0.0, 1.0), 0.0)
    } else {
        let b = d1.dot(d2);
        let denom = a * e - b * b;
        let mut s = if denom > 0.0 {
            ((b * f - c * e) / denom).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let mut t = (b * s + f) / e;
        if t < 0.0 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else if t > 1.0 {
            t = 1.0;
            s = ((b - c) / a).clamp(0.0, 1.0);
        }
        (s, t)
    };
    // The point of the first segment nearest the second's point, so that
    // rounding in `s` never reports a distance larger than the true one.
    let q = q0 + d2 * t;
    let s = if a > 0.0 {
        ((q - p0).dot(d1) / a).clamp(0.0, 1.0)
    } else {
        s
    };
    (s, q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tri() -> [DVec3; 3] {
        [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(4.0, 0.0, 0.0),
            DVec3::new(0.0, 4.0, 0.0),
        ]
    }

    #[test]
    fn every_region_is_classified() {
        let t = tri();
        let cases = [
            (
                DVec3::new(1.0, 1.0, 3.0),
                DVec3::new(1.0, 1.0, 0.0),
                Feature::Face,
            ),
            (DVec3::new(-1.0, -1.0, 2.0), t[0], Feature::Vertex(0)),
            (DVec3::new(6.0, -1.0, -2.0), t[1], Feature::Vertex(1)),
            (DVec3::new(-1.0, 6.0, 0.5), t[2], Feature::Vertex(2)),
            (
                DVec3::new(2.0, -3.0, 1.0),
                DVec3::new(2.0, 0.0, 0.0),
                Feature::Edge(0),
            ),
            (
                DVec3::new(3.0, 3.0, -1.0),
                DVec3::new(2.0, 2.0, 0.0),
                Feature::Edge(1),
            ),
            (
                DVec3::new(-2.0, 1.5, 0.0),
                DVec3::new(0.0, 1.5, 0.0),
                Feature::Edge(2),
            ),
        ];
        for (p, want, feature) in cases {
            let (q, f) = closest_feature_on_triangle(t, p);
            assert!((q - want).length() < 1e-12, "{p}: got {q}, want {want}");
            assert_eq!(f, feature, "{p}");
            assert_eq!(closest_point_on_triangle(t, p), q);
        }
    }

    #[test]
    fn degenerate_triangles_give_finite_points() {
        let p = DVec3::new(0.3, 2.0, -1.0);
        let collinear = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        let (q, _) = closest_feature_on_triangle(collinear, p);
        assert!((q - DVec3::new(0.3, 0.0, 0.0)).length() < 1e-12);
        let point = [DVec3::ONE; 3];
        assert_eq!(closest_point_on_triangle(point, p), DVec3::ONE);
        let two_equal = [DVec3::ZERO, DVec3::ZERO, DVec3::Y];
        let q = closest_point_on_triangle(two_equal, p);
        assert!((q - DVec3::new(0.0, 1.0, 0.0)).length() < 1e-12, "{q}");
        assert_eq!(
            closest_point_on_segment(DVec3::ONE, DVec3::ONE, p),
            DVec3::ONE
        );
    }

    fn coord() -> impl Strategy<Value = f64> {
        -10.0..10.0f64
    }

    fn point() -> impl Strategy<Value = DVec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| DVec3::new(x, y, z))
    }

    /// A point of the triangle from barycentric weights in [0, 1].
    fn on_triangle(t: [DVec3; 3], u: f64, v: f64) -> DVec3 {
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// No sampled point of the triangle is closer than the answer, and the
        /// answer lies on the triangle (its plane distance is ~0).
        #[test]
        fn closest_point_is_closest(a in point(), b in point(), c in point(), p in point(),
                                    samples in prop::collection::vec((0.0..1.0f64, 0.0..1.0f64), 32)) {
            let t = [a, b, c];
            let q = closest_point_on_triangle(t, p);
            prop_assert!(q.is_finite());
            let best = (q - p).length();
            for (u, v) in samples {
                let s = on_triangle(t, u, v);
                prop_assert!(best <= (s - p).length() + 1e-9);
            }
            for &corner in &t {
                prop_assert!(best <= (corner - p).length() + 1e-9);
            }
            let n = (b - a).cross(c - a);
            if n.length() > 1e-6 {
                prop_assert!((q - a).dot(n.normalize()).abs() < 1e-9);
            }
        }

        /// On slivers (sines down to 1e-8) a point of the triangle comes
        /// back to itself, and so does one pushed off it along the normal, up
        /// to the precision of the sliver's plane (`EPSILON / sine`). (The
        /// Voronoi-region walk used before put a point of a 3-unit sliver of
        /// sine 8e-7 9e-7 away from itself: fifteen times this tolerance.)
        #[test]
        fn slivers_project_exactly(a in point(), b in point(), along in 0.0..1.0f64,
                                   thin_exp in -8.0..-2.0f64, u in 0.0..1.0f64, v in 0.0..1.0f64,
                                   height in -5.0..5.0f64) {
            let ab = b - a;
            prop_assume!(ab.length() > 0.1);
            let sine = 10f64.powf(thin_exp);
            let c = a + ab * along + ab.any_orthonormal_vector() * ab.length() * sine;
            let t = [a, b, c];
            let on = on_triangle(t, u, v);
            // The sliver's plane itself is only known to EPSILON / sine of
            // its size: rounding a vertex tilts it that much.
            let tol = (1e-13 + 1e-14 / sine) * (1.0 + ab.length());
            let q = closest_point_on_triangle(t, on);
            prop_assert!((q - on).length() < tol, "on: off by {}", (q - on).length());
            let n = ab.cross(c - a).normalize();
            let q = closest_point_on_triangle(t, on + n * height);
            let tol = tol * (1.0 + height.abs());
            prop_assert!((q - on).length() < tol, "above: off by {}", (q - on).length());
        }
    }
}
