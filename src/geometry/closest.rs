//! Closest points on segments and triangles, `f64`, in whatever space the
//! caller's points are in (the solver uses ellipsoid space).
//!
//! The triangle query follows the Voronoi-region walk of Christer Ericson,
//! *Real-Time Collision Detection* (2005), section 5.1.5: the point is
//! classified against the vertex regions, then the edge regions, and only
//! falls into the face region when no boundary region claims it. It also
//! reports which feature holds the closest point, which the swept-sphere test
//! needs to label an overlap at `t = 0`. Every division is guarded so that
//! zero-length edges and zero-area triangles give a finite answer instead of
//! NaN.

use super::sweep::Feature;
use glam::DVec3;

/// Below this sine of the angle at vertex 0 a triangle is a sliver (or has
/// a zero-length edge, or none of its area): its normal cannot be trusted,
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

/// Closest point to `p` on the solid triangle `tri` (Ericson, Real-Time Collision Detection 5.1.5).
///
/// A degenerate triangle is treated as the union of its three edges.
pub fn closest_point_on_triangle(tri: [DVec3; 3], p: DVec3) -> DVec3 {
    closest_feature_on_triangle(tri, p).0
}

/// `num / den` clamped to `[0, 1]`, and `0` when `den` is not positive
/// (a zero-length edge: every parameter names the same point).
#[inline]
fn unit_ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        (num / den).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Closest point to `p` on the solid triangle `tri` and the feature it lies
/// on: `Vertex(i)`, `Edge(i)` (from vertex `i` to vertex `(i + 1) % 3`) or
/// `Face` (the open interior).
///
/// A point exactly on a region boundary is reported as the lower-dimensional
/// feature (vertex before edge before face), as the region walk meets them in
/// that order.
///
/// A degenerate triangle (see [`DEGENERATE_SINE`]) is treated as the union of
/// its three edges, and the feature is then always an edge.
pub fn closest_feature_on_triangle(tri: [DVec3; 3], p: DVec3) -> (DVec3, Feature) {
    let e0 = tri[1] - tri[0];
    let e1 = tri[2] - tri[0];
    let n2 = e0.cross(e1).length_squared();
    // The region walk below assumes a proper triangle: with two equal
    // vertices, say, it would stop in the "edge" region of a zero-length edge.
    let min_n2 = DEGENERATE_SINE * DEGENERATE_SINE * e0.length_squared() * e1.length_squared();
    if n2 <= min_n2 || n2.is_nan() {
        return closest_on_edges(tri, p);
    }
    closest_feature_on_solid_triangle(tri, p)
}

/// [`closest_feature_on_triangle`] for a triangle known not to be degenerate.
#[inline]
pub(crate) fn closest_feature_on_solid_triangle(tri: [DVec3; 3], p: DVec3) -> (DVec3, Feature) {
    let [a, b, c] = tri;
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return (a, Feature::Vertex(0));
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return (b, Feature::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * unit_ratio(d1, d1 - d3), Feature::Edge(0));
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return (c, Feature::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        // Edge 2 runs from c to a; the parameter here is measured from a.
        return (a + ac * unit_ratio(d2, d2 - d6), Feature::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    let (from_b, from_c) = (d4 - d3, d5 - d6);
    if va <= 0.0 && from_b >= 0.0 && from_c >= 0.0 {
        return (
            b + (c - b) * unit_ratio(from_b, from_b + from_c),
            Feature::Edge(1),
        );
    }
    // The three sub-areas sum to |ab x ac|^2 > 0; the guard only keeps
    // rounding on a near-sliver from dividing by zero.
    let denom = va + vb + vc;
    if denom <= 0.0 || denom.is_nan() {
        return closest_on_edges(tri, p);
    }
    let v = vb / denom;
    let w = vc / denom;
    (a + ab * v + ac * w, Feature::Face)
}

/// Closest point on the boundary of `tri` (its three edges).
fn closest_on_edges(tri: [DVec3; 3], p: DVec3) -> (DVec3, Feature) {
    let mut best = (tri[0], Feature::Vertex(0));
    let mut best_d2 = f64::INFINITY;
    for i in 0..3 {
        let q = closest_point_on_segment(tri[i], tri[(i + 1) % 3], p);
        let d2 = (q - p).length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = (q, Feature::Edge(i as u8));
        }
    }
    best
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
    }
}
