//! Triangulation invariants on concave polygons placed in arbitrary planes:
//! the triangles' area equals the polygon's, every sample point inside the
//! polygon is covered exactly once and every point outside not at all, and
//! every triangle keeps the polygon's winding.

use super::*;
use proptest::prelude::*;

/// A polygon given in 2D, placed in 3D at `origin + x * u + y * v`.
struct Placed {
    pts: Vec<[f64; 2]>,
    positions: Vec<Vec3>,
    normal: DVec3,
}

fn place(pts: &[[f64; 2]], origin: DVec3, u: DVec3, v: DVec3) -> Placed {
    let positions: Vec<Vec3> = pts
        .iter()
        .map(|p| (origin + p[0] * u + p[1] * v).as_vec3())
        .collect();
    let pos_f64: Vec<DVec3> = positions.iter().map(|p| p.as_dvec3()).collect();
    Placed {
        pts: pts.to_vec(),
        normal: newell_normal(&pos_f64),
        positions,
    }
}

fn flat(pts: &[[f64; 2]]) -> Placed {
    place(pts, DVec3::ZERO, DVec3::X, DVec3::Y)
}

fn run(p: &Placed) -> (Outcome, Vec<[u32; 3]>) {
    let corners: Vec<u32> = (0..p.pts.len() as u32).collect();
    let mut out = Vec::new();
    let outcome = Triangulator::default().triangulate(&corners, &p.positions, &mut out);
    (outcome, out)
}

fn shoelace(pts: &[[f64; 2]]) -> f64 {
    (0..pts.len())
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum::<f64>()
        / 2.0
}

/// Even-odd test; bridge edges of keyhole polygons are crossed twice.
fn inside(pts: &[[f64; 2]], q: [f64; 2]) -> bool {
    let mut odd = false;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        if (a[1] > q[1]) != (b[1] > q[1]) {
            let x = a[0] + (q[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if q[0] < x {
                odd = !odd;
            }
        }
    }
    odd
}

fn seg_dist(a: [f64; 2], b: [f64; 2], q: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len_sq = dx * dx + dy * dy;
    let t = if len_sq > 0.0 {
        (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((a[0] + t * dx - q[0]).powi(2) + (a[1] + t * dy - q[1]).powi(2)).sqrt()
}

/// Checks area, winding and exact coverage on a sample grid.
fn check_tiles(p: &Placed, tris: &[[u32; 3]]) {
    let n = p.pts.len();
    assert!(
        tris.len() <= n - 2,
        "{} triangles for {n} corners",
        tris.len()
    );
    let mut area = 0.0;
    for t in tris {
        let [a, b, c] = t.map(|i| p.positions[i as usize].as_dvec3());
        let cross = (b - a).cross(c - a);
        assert!(
            cross.dot(p.normal) > 0.0,
            "triangle {t:?} turns the wrong way"
        );
        area += cross.length() / 2.0;
    }
    let expected = p.normal.length() / 2.0;
    assert!(
        (area - expected).abs() <= 1e-5 * expected,
        "triangles cover {area}, polygon is {expected}"
    );
    let sign = shoelace(&p.pts).signum();
    let tri_pts = |t: &[u32; 3]| t.map(|i| p.pts[i as usize]);
    let (lo, hi) = p
        .pts
        .iter()
        .fold(([f64::MAX; 2], [f64::MIN; 2]), |(lo, hi), q| {
            (
                [lo[0].min(q[0]), lo[1].min(q[1])],
                [hi[0].max(q[0]), hi[1].max(q[1])],
            )
        });
    let eps = 1e-3 * (hi[0] - lo[0]).max(hi[1] - lo[1]);
    const GRID: usize = 37;
    for i in 0..=GRID {
        for j in 0..=GRID {
            let q = [
                lo[0] + (hi[0] - lo[0]) * (i as f64 + 0.31) / GRID as f64,
                lo[1] + (hi[1] - lo[1]) * (j as f64 + 0.17) / GRID as f64,
            ];
            let near_edge = (0..n).any(|k| seg_dist(p.pts[k], p.pts[(k + 1) % n], q) < eps)
                || tris.iter().any(|t| {
                    let [a, b, c] = tri_pts(t);
                    seg_dist(a, b, q) < eps || seg_dist(b, c, q) < eps || seg_dist(c, a, q) < eps
                });
            if near_edge {
                continue;
            }
            let covering = tris
                .iter()
                .filter(|t| {
                    let [a, b, c] = tri_pts(t);
                    sign * orient(a, b, q) > 0.0
                        && sign * orient(b, c, q) > 0.0
                        && sign * orient(c, a, q) > 0.0
                })
                .count();
            let expected = usize::from(inside(&p.pts, q));
            assert_eq!(covering, expected, "point {q:?} covered {covering} times");
        }
    }
}

fn l_shape() -> Vec<[f64; 2]> {
    vec![[0., 0.], [2., 0.], [2., 1.], [1., 1.], [1., 2.], [0., 2.]]
}

/// A wall with a round-headed arch opening cut from its bottom edge:
/// `arc` points on the semicircle, `arc + 8` corners in all.
fn arch(arc: usize) -> Vec<[f64; 2]> {
    let mut pts = vec![[0., 0.], [1., 0.], [1., 1.]];
    for k in 1..=arc {
        let angle = std::f64::consts::PI * (1.0 - k as f64 / (arc + 1) as f64);
        pts.push([2.0 + angle.cos(), 1.0 + angle.sin()]);
    }
    pts.extend([[3., 1.], [3., 0.], [4., 0.], [4., 3.], [0., 3.]]);
    pts
}

fn star(points: usize) -> Vec<[f64; 2]> {
    (0..2 * points)
        .map(|k| {
            let r = if k % 2 == 0 { 1.0 } else { 0.38 };
            let a = std::f64::consts::PI * k as f64 / points as f64;
            [r * a.cos(), r * a.sin()]
        })
        .collect()
}

#[test]
fn convex_square_makes_two_triangles() {
    let p = flat(&[[0., 0.], [1., 0.], [1., 1.], [0., 1.]]);
    let (outcome, tris) = run(&p);
    assert_eq!(outcome, Outcome::Exact);
    assert_eq!(tris.len(), 2);
    check_tiles(&p, &tris);
}

#[test]
fn concave_shapes_tile_exactly() {
    let u_shape = vec![
        [0., 0.],
        [3., 0.],
        [3., 3.],
        [2., 3.],
        [2., 1.],
        [1., 1.],
        [1., 3.],
        [0., 3.],
    ];
    for (name, pts) in [
        ("L", l_shape()),
        ("U", u_shape),
        ("arch", arch(70)),
        ("star", star(5)),
    ] {
        let p = flat(&pts);
        let (outcome, tris) = run(&p);
        assert_eq!(outcome, Outcome::Exact, "{name}");
        assert_eq!(tris.len(), pts.len() - 2, "{name}");
        check_tiles(&p, &tris);
    }
}

#[test]
fn arch_with_78_corners_in_a_tilted_far_plane() {
    let pts = arch(70);
    assert_eq!(pts.len(), 78);
    let u = DVec3::new(0.6, 0.0, 0.8);
    let p = place(&pts, DVec3::new(1000.0, -50.0, 20.0), u, DVec3::Y);
    let (outcome, tris) = run(&p);
    assert_eq!(outcome, Outcome::Exact);
    check_tiles(&p, &tris);
}

#[test]
fn clockwise_polygons_keep_their_winding() {
    let mut pts = l_shape();
    pts.reverse();
    let p = place(&pts, DVec3::new(3.0, 1.0, -2.0), DVec3::Z, DVec3::X);
    let (outcome, tris) = run(&p);
    assert_eq!(outcome, Outcome::Exact);
    check_tiles(&p, &tris);
}

#[test]
fn collinear_corners_leave_no_slivers() {
    let pts = [
        [0., 0.],
        [1., 0.],
        [2., 0.],
        [2., 1.],
        [2., 2.],
        [1., 2.],
        [0., 2.],
        [0., 1.],
    ];
    let p = flat(&pts);
    let (outcome, tris) = run(&p);
    assert_eq!(outcome, Outcome::Exact);
    check_tiles(&p, &tris);
    for t in &tris {
        let [a, b, c] = t.map(|i| p.positions[i as usize].as_dvec3());
        assert!(!is_degenerate(a, b, c), "sliver {t:?}");
    }
}

#[test]
fn repeated_corners_are_skipped() {
    let p = flat(&l_shape());
    let corners = [0, 1, 1, 2, 3, 4, 4, 5, 0];
    let mut tris = Vec::new();
    let outcome = Triangulator::default().triangulate(&corners, &p.positions, &mut tris);
    assert_eq!(outcome, Outcome::Exact);
    assert_eq!(tris.len(), 4);
    check_tiles(&p, &tris);
}

#[test]
fn keyhole_polygon_leaves_its_hole_open() {
    // Outer square, a bridge to a square hole walked the other way, and back.
    let pts = [
        [0., 0.],
        [4., 0.],
        [4., 4.],
        [0., 4.],
        [0., 0.],
        [1., 1.],
        [1., 3.],
        [3., 3.],
        [3., 1.],
        [1., 1.],
    ];
    let p = flat(&pts);
    let (outcome, tris) = run(&p);
    assert_eq!(outcome, Outcome::Exact);
    check_tiles(&p, &tris);
    assert!((p.normal.length() / 2.0 - 12.0).abs() < 1e-9);
}

#[test]
fn collinear_polygon_is_flat() {
    let p = flat(&[[0., 0.], [1., 0.], [3., 0.], [2., 0.]]);
    assert_eq!(run(&p), (Outcome::Flat, vec![]));
    let p = flat(&[[1., 1.], [1., 1.], [1., 1.], [1., 1.]]);
    assert_eq!(run(&p), (Outcome::Flat, vec![]));
}

#[test]
fn self_intersecting_polygon_terminates() {
    // A figure eight with lobes of different sizes: no proper triangulation.
    let pts = [
        [0., 0.],
        [3., 3.],
        [3., 0.],
        [0., 1.],
        [-1., 2.],
        [-1., -1.],
    ];
    let p = flat(&pts);
    let (_, tris) = run(&p);
    assert!(tris.len() <= pts.len() - 2);
}

#[test]
fn degenerate_test_is_scale_free() {
    let t =
        |s: f64, h: f64| is_degenerate(DVec3::ZERO, DVec3::X * s, DVec3::new(s / 2.0, h * s, 0.0));
    assert!(t(1.0, 0.0));
    assert!(t(1e4, 1e-8));
    assert!(!t(1e-3, 1e-3));
    assert!(!t(1e4, 1e-4));
    assert!(is_degenerate(DVec3::ONE, DVec3::ONE, DVec3::ONE));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Star-shaped polygons (random radius at each of n sorted angles) are
    /// simple and mostly concave.
    #[test]
    fn random_star_shaped_polygons_tile_exactly(
        radii in prop::collection::vec(0.15f64..1.0, 4..40),
        tilt in 0.0f64..1.5,
    ) {
        let n = radii.len();
        let pts: Vec<[f64; 2]> = radii
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                [r * a.cos(), r * a.sin()]
            })
            .collect();
        let u = DVec3::new(tilt.cos(), 0.0, tilt.sin());
        let p = place(&pts, DVec3::new(5.0, 2.0, -7.0), u, DVec3::Y);
        let (outcome, tris) = run(&p);
        prop_assert_eq!(outcome, Outcome::Exact);
        check_tiles(&p, &tris);
    }
}

#[test]
fn the_checks_catch_a_fan_on_a_concave_polygon() {
    // The fan from corner 0 of the U shape covers its notch: the checks
    // above must reject it, or they prove nothing.
    let pts = [
        [0., 0.],
        [3., 0.],
        [3., 3.],
        [2., 3.],
        [2., 1.],
        [1., 1.],
        [1., 3.],
        [0., 3.],
    ];
    let p = flat(&pts);
    let fan: Vec<[u32; 3]> = (1..7).map(|i| [0, i, i + 1]).collect();
    let caught = std::panic::catch_unwind(|| check_tiles(&p, &fan));
    assert!(caught.is_err());
}

#[test]
fn twisted_quad_splits_into_two_triangles_facing_its_normal() {
    let positions = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.2),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.2),
    ];
    let normal = newell_normal(&positions.iter().map(|p| p.as_dvec3()).collect::<Vec<_>>());
    let mut tris = Vec::new();
    let outcome = Triangulator::default().triangulate(&[0, 1, 2, 3], &positions, &mut tris);
    assert_eq!(outcome, Outcome::Exact);
    assert_eq!(tris.len(), 2);
    for t in tris {
        let [a, b, c] = t.map(|i| positions[i as usize].as_dvec3());
        assert!((b - a).cross(c - a).dot(normal) > 0.0);
    }
}
