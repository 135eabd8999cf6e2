//! Where a vertical line crosses a triangle, world space: the sampling the
//! level checks and the stuck-spot map do on a grid of vertical lines.
//!
//! A plain ray test (Moller-Trumbore) would do, but it is neither watertight
//! nor independent of the corners' order: a line through an edge two
//! triangles share may miss both or hit both, and which it does changes when
//! a face is turned over. The BVH's ray test ([`super::ray_triangle`]) is
//! watertight and its hits blind to winding, but a line through a shared
//! edge hits both triangles there, at heights that differ in their last
//! bits with the corners' order. Grid lines fall on edges all the time in game levels, whose
//! corners sit on an inch or a 0.1 m grid, so that showed as findings that
//! came and went when a level's winding was reversed.
//!
//! Here the test is done in plan (x, z) with the rasteriser's rules
//! (Pineda 1988; the top-left rule of Direct3D and OpenGL): every triangle is
//! taken counter-clockwise in plan whatever its winding, the three edge
//! functions are computed in `f64` from the `f32` corners (their signs are
//! exact but for corners of hugely different magnitudes), and a point on an
//! edge belongs to the triangle for which that edge is a "top" or "left"
//! one. So a point inside a mesh's plan is in exactly one of the triangles
//! that share its edge or corner, and a face turned over gives bit for bit
//! the same answer.

use crate::math::Vec3;

/// The edge function of `p0 -> p1` at `p`, in plan (x, z): twice the signed
/// area of `(p0, p1, p)`. Its sign says which side of the edge `p` is on;
/// a triangle whose third corner gives a positive value is what this file
/// calls counter-clockwise.
#[inline]
fn edge(p0: (f64, f64), p1: (f64, f64), p: (f64, f64)) -> f64 {
    (p1.0 - p0.0) * (p.1 - p0.1) - (p1.1 - p0.1) * (p.0 - p0.0)
}

/// Whether a point exactly on the edge `p0 -> p1` of a counter-clockwise
/// triangle belongs to it: of the two triangles sharing an edge, which walk
/// it in opposite directions, exactly one says yes.
#[inline]
fn owns_edge(p0: (f64, f64), p1: (f64, f64)) -> bool {
    let (dx, dz) = (p1.0 - p0.0, p1.1 - p0.1);
    dz < 0.0 || (dz == 0.0 && dx > 0.0)
}

/// Whether the edge value `e` of edge `p0 -> p1` puts the point inside.
#[inline]
fn inside(e: f64, p0: (f64, f64), p1: (f64, f64)) -> bool {
    e > 0.0 || (e == 0.0 && owns_edge(p0, p1))
}

/// The height at which the vertical line through `(x, z)` crosses the
/// triangle `tri`, or `None` when it does not (or the triangle is vertical
/// or degenerate in plan). The same for a triangle whatever the order of its
/// corners; watertight over a mesh (see the module's text).
pub fn vertical_line_triangle(x: f32, z: f32, tri: [Vec3; 3]) -> Option<f32> {
    let plan = |v: Vec3| (f64::from(v.x), f64::from(v.z));
    let (a, mut b, mut c) = (plan(tri[0]), plan(tri[1]), plan(tri[2]));
    let (mut yb, mut yc) = (f64::from(tri[1].y), f64::from(tri[2].y));
    let mut area = edge(a, b, c);
    if area == 0.0 || !area.is_finite() {
        return None;
    }
    if area < 0.0 {
        std::mem::swap(&mut b, &mut c);
        std::mem::swap(&mut yb, &mut yc);
        area = -area;
    }
    let p = (f64::from(x), f64::from(z));
    let (ea, eb, ec) = (edge(b, c, p), edge(c, a, p), edge(a, b, p));
    if !(inside(ea, b, c) && inside(eb, c, a) && inside(ec, a, b)) {
        return None;
    }
    // Barycentric weights: each corner's share is the opposite edge's value.
    let y = (ea * f64::from(tri[0].y) + eb * yb + ec * yc) / area;
    Some(y as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(x, y, z)
    }

    #[test]
    fn a_point_inside_gets_the_plane_height_and_one_outside_misses() {
        let tri = [v(0.0, 0.0, 0.0), v(2.0, 2.0, 0.0), v(0.0, 0.0, 2.0)];
        let y = vertical_line_triangle(0.5, 0.5, tri).unwrap();
        assert!((y - 0.5).abs() < 1e-6, "{y}");
        assert_eq!(vertical_line_triangle(1.5, 1.5, tri), None);
        assert_eq!(vertical_line_triangle(-0.1, 0.5, tri), None);
        // A wall (no area in plan) is never crossed.
        let wall = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
        assert_eq!(vertical_line_triangle(0.2, 0.0, wall), None);
    }

    /// How many of `tris` the line at `(x, z)` crosses.
    fn crossings(tris: &[[Vec3; 3]], x: f32, z: f32) -> usize {
        tris.iter()
            .filter(|t| vertical_line_triangle(x, z, **t).is_some())
            .count()
    }

    /// A `n` × `n` grid of unit quads at height `y`, each cut along a
    /// diagonal, wound one way or the other at random per triangle.
    fn floor(n: usize, y: f32, flips: &[bool]) -> Vec<[Vec3; 3]> {
        let mut out = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (x0, z0) = (i as f32 * 0.3, j as f32 * 0.3);
                let (x1, z1) = (x0 + 0.3, z0 + 0.3);
                let quad = [v(x0, y, z0), v(x1, y, z0), v(x1, y, z1), v(x0, y, z1)];
                let diag = (i + j) % 2 == 0;
                let (t0, t1) = if diag {
                    ([quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]])
                } else {
                    ([quad[0], quad[1], quad[3]], [quad[1], quad[2], quad[3]])
                };
                out.push(t0);
                out.push(t1);
            }
        }
        for (t, &flip) in out.iter_mut().zip(flips.iter().cycle()) {
            if flip {
                t.swap(1, 2);
            }
        }
        out
    }

    #[test]
    fn every_point_of_a_floor_is_on_exactly_one_triangle_edges_and_corners_too() {
        let tris = floor(4, 1.0, &[false, true, true, false, true]);
        // Sample on the quads' edges, diagonals and corners as well as inside.
        for i in 1..48 {
            for j in 1..48 {
                let (x, z) = (i as f32 * 0.025, j as f32 * 0.025);
                assert_eq!(crossings(&tris, x, z), 1, "({x}, {z})");
            }
        }
        for i in 1..4 {
            for j in 1..4 {
                let (x, z) = (i as f32 * 0.3, j as f32 * 0.3);
                assert_eq!(crossings(&tris, x, z), 1, "corner ({x}, {z})");
            }
        }
    }

    proptest! {
        /// Turning a triangle over (any order of its corners) gives the
        /// same answer, bit for bit.
        #[test]
        fn the_corners_order_changes_nothing(
            c in prop::array::uniform9(-50.0f32..50.0),
            px in -50.0f32..50.0,
            pz in -50.0f32..50.0,
            on_corner in any::<bool>(),
        ) {
            let tri = [v(c[0], c[1], c[2]), v(c[3], c[4], c[5]), v(c[6], c[7], c[8])];
            let (x, z) = if on_corner { (tri[1].x, tri[1].z) } else { (px, pz) };
            let a = vertical_line_triangle(x, z, tri);
            for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
                let t = [tri[order[0]], tri[order[1]], tri[order[2]]];
                let b = vertical_line_triangle(x, z, t);
                prop_assert_eq!(a.is_some(), b.is_some());
                // The height's rounding may depend on which corner comes
                // first, but only in its last bits.
                if let (Some(a), Some(b)) = (a, b) {
                    prop_assert!((a - b).abs() <= 1e-4 * (1.0 + a.abs()), "{} {}", a, b);
                }
            }
            let flipped = vertical_line_triangle(x, z, [tri[0], tri[2], tri[1]]);
            prop_assert_eq!(a.map(f32::to_bits), flipped.map(f32::to_bits));
        }

        /// A fan of triangles round a shared corner, each wound either way:
        /// a point on a spoke or at the hub is in exactly one of them.
        #[test]
        fn a_fan_is_watertight_at_its_spokes_and_hub(
            n in 3usize..9,
            hub in (-5.0f32..5.0, -5.0f32..5.0),
            flips in prop::collection::vec(any::<bool>(), 9),
            along in 0.0f32..1.0,
            spoke in 0usize..9,
        ) {
            let h = v(hub.0, 0.0, hub.1);
            let rim: Vec<Vec3> = (0..n)
                .map(|k| {
                    let a = k as f32 / n as f32 * std::f32::consts::TAU + 0.1;
                    v(hub.0 + 3.0 * a.cos(), 1.0, hub.1 + 3.0 * a.sin())
                })
                .collect();
            let tris: Vec<[Vec3; 3]> = (0..n)
                .map(|k| {
                    let t = [h, rim[k], rim[(k + 1) % n]];
                    if flips[k] { [t[0], t[2], t[1]] } else { t }
                })
                .collect();
            prop_assert_eq!(crossings(&tris, h.x, h.z), 1);
            let r = rim[spoke % n];
            // A point on the spoke (rounded to f32: it may fall either
            // side, but never in neither or both).
            let (x, z) = (h.x + along * 0.9 * (r.x - h.x), h.z + along * 0.9 * (r.z - h.z));
            prop_assert_eq!(crossings(&tris, x, z), 1);
        }
    }
}
