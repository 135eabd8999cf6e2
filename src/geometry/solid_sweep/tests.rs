//! The swept solids on hand-made contacts (face, edge, vertex, side,
//! overlap) and against a sampled oracle on seeded random cases.

use super::*;
use glam::DVec2;

const CAPSULE: Solid = Solid::Capsule {
    radius: 0.4,
    half_segment: 0.5,
};
const CYLINDER: Solid = Solid::Cylinder {
    radius: 0.4,
    half_height: 0.9,
};
const BOX: Solid = Solid::Box {
    half_extents: DVec3::new(0.3, 0.9, 0.2),
};

/// A big floor triangle at height `y`, facing up.
fn floor(y: f64) -> [DVec3; 3] {
    [
        DVec3::new(-10.0, y, -10.0),
        DVec3::new(0.0, y, 10.0),
        DVec3::new(10.0, y, -10.0),
    ]
}

#[test]
fn a_capsule_lands_on_a_floor_with_its_bottom_cap() {
    let hit = sweep_solid_triangle(
        &CAPSULE,
        DVec3::new(0.0, 2.0, 0.0),
        DVec3::NEG_Y * 4.0,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    // The bottom of the capsule is 0.9 m below its centre: it falls 1.1 m of 4.
    assert!((hit.t - 1.1 / 4.0).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Face);
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    assert!((hit.point - DVec3::ZERO).length() < 1e-9, "{hit:?}");
}

#[test]
fn a_capsule_meets_a_ledge_edge_with_its_flat_side() {
    // A horizontal edge at x = 1, level with the capsule's middle, running along z.
    let tri = [
        DVec3::new(1.0, 0.2, -5.0),
        DVec3::new(1.0, 0.2, 5.0),
        DVec3::new(3.0, 0.2, 0.0),
    ];
    let hit = sweep_solid_triangle(&CAPSULE, DVec3::ZERO, DVec3::X * 2.0, tri, 1.0, false).unwrap();
    assert!((hit.t - 0.3).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Edge(0));
    assert!((hit.normal - DVec3::NEG_X).length() < 1e-12, "{hit:?}");
    assert!((hit.point - DVec3::new(1.0, 0.2, 0.0)).length() < 1e-9);
}

#[test]
fn a_capsule_meets_a_corner_with_its_side() {
    // A triangle whose vertex 0 points at the capsule, level with its core.
    let tri = [
        DVec3::new(1.0, -0.3, 0.0),
        DVec3::new(3.0, -0.3, 1.0),
        DVec3::new(3.0, -0.3, -1.0),
    ];
    let hit = sweep_solid_triangle(&CAPSULE, DVec3::ZERO, DVec3::X * 2.0, tri, 1.0, false).unwrap();
    assert!((hit.t - 0.3).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Vertex(0));
    assert!((hit.normal - DVec3::NEG_X).length() < 1e-12);
}

#[test]
fn a_capsule_starting_through_a_floor_is_pushed_up_by_its_depth() {
    let hit = sweep_solid_triangle(
        &CAPSULE,
        DVec3::new(0.0, 0.5, 0.0),
        DVec3::X,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert_eq!(hit.t, 0.0);
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    assert!((hit.depth - 0.4).abs() < 1e-12, "{hit:?}");
    // Core through the plane: out on the centre's side, by the radius and the core's dip.
    let hit = sweep_solid_triangle(
        &CAPSULE,
        DVec3::new(0.0, 0.2, 0.0),
        DVec3::X,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    assert!((hit.depth - 0.7).abs() < 1e-12, "{hit:?}");
}

#[test]
fn a_box_lands_flat_and_meets_corners_and_edges() {
    let hit = sweep_solid_triangle(
        &BOX,
        DVec3::new(0.0, 2.0, 0.0),
        DVec3::NEG_Y * 4.0,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert!((hit.t - 1.1 / 4.0).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Face);
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    assert!(hit.point.y.abs() < 1e-9 && hit.point.x.abs() <= 0.3 + 1e-9);
    // A spike's tip (vertex 0) met by the box's +x face.
    let spike = [
        DVec3::new(1.0, 0.1, 0.05),
        DVec3::new(3.0, 0.5, 1.0),
        DVec3::new(3.0, -0.5, -1.0),
    ];
    let hit = sweep_solid_triangle(&BOX, DVec3::ZERO, DVec3::X * 2.0, spike, 1.0, false).unwrap();
    assert!((hit.t - 0.35).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Vertex(0));
    assert!((hit.normal - DVec3::NEG_X).length() < 1e-12);
    assert!((hit.point - spike[0]).length() < 1e-7, "{hit:?}");
    // Starting 0.1 m into a floor: pushed up 0.1 m.
    let hit = sweep_solid_triangle(
        &BOX,
        DVec3::new(0.0, 0.8, 0.0),
        DVec3::X,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert_eq!(hit.t, 0.0);
    assert!(
        (hit.depth - 0.1).abs() < 1e-12 && (hit.normal - DVec3::Y).length() < 1e-12,
        "{hit:?}"
    );
}

#[test]
fn moving_away_from_a_front_face_is_culled_and_bad_input_misses() {
    let away = sweep_solid_triangle(
        &CAPSULE,
        DVec3::new(0.0, 2.0, 0.0),
        DVec3::Y,
        floor(0.0),
        1.0,
        true,
    );
    assert_eq!(away, Err(MissReason::BackFacing));
    for solid in [CAPSULE, BOX] {
        let nan = sweep_solid_triangle(&solid, DVec3::NAN, DVec3::Y, floor(0.0), 1.0, false);
        assert_eq!(nan, Err(MissReason::Degenerate));
        let flat = [DVec3::ZERO, DVec3::X, DVec3::X * 2.0];
        let flat = sweep_solid_triangle(&solid, DVec3::Y, DVec3::NEG_Y * 3.0, flat, 1.0, false);
        assert_eq!(flat, Err(MissReason::Degenerate));
    }
}

/// Whether `solid` centred at `c` overlaps (or touches) `tri`, by a
/// method independent of the sweeps: the capsule's core distance, the
/// box's 13 static separating axes.
fn overlaps(solid: &Solid, c: DVec3, tri: [DVec3; 3], slack: f64) -> bool {
    match *solid {
        Solid::Capsule {
            radius,
            half_segment,
        } => {
            let s = DVec3::Y * half_segment;
            segment_triangle_closest(c - s, c + s, tri).1 <= radius + slack
        }
        Solid::Box { half_extents } => {
            let p = tri.map(|v| v - c);
            let mut axes = vec![
                DVec3::X,
                DVec3::Y,
                DVec3::Z,
                (p[1] - p[0]).cross(p[2] - p[0]),
            ];
            for i in 0..3 {
                for a in [DVec3::X, DVec3::Y, DVec3::Z] {
                    axes.push((p[(i + 1) % 3] - p[i]).cross(a));
                }
            }
            axes.iter().filter_map(|a| a.try_normalize()).all(|l| {
                let r = (half_extents * l.abs()).element_sum();
                let proj = p.map(|v| v.dot(l));
                proj.iter().copied().fold(f64::INFINITY, f64::min) <= r + slack
                    && proj.iter().copied().fold(f64::NEG_INFINITY, f64::max) >= -r - slack
            })
        }
        Solid::Sphere { radius } => {
            (closest_point_on_triangle(tri, c) - c).length() <= radius + slack
        }
        Solid::Cylinder {
            radius,
            half_height,
        } => cylinder_distance(radius, half_height, c, tri) <= slack,
    }
}

/// Distance from the upright cylinder at `c` to `tri`: the least over the
/// triangle of the (convex) distance of a point to the cylinder, by nested
/// golden-section searches over its barycentric coordinates.
fn cylinder_distance(r: f64, hh: f64, c: DVec3, tri: [DVec3; 3]) -> f64 {
    let point_dist = |q: DVec3| {
        let q = q - c;
        let dx = (DVec2::new(q.x, q.z).length() - r).max(0.0);
        let dy = (q.y.abs() - hh).max(0.0);
        (dx * dx + dy * dy).sqrt()
    };
    let golden = |f: &dyn Fn(f64) -> f64, hi: f64| {
        let g = 0.618_033_988_749_895;
        let (mut lo, mut hi) = (0.0, hi);
        for _ in 0..42 {
            let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
            if f(m1) < f(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        f(0.5 * (lo + hi)).min(f(0.0)).min(f(hi))
    };
    let (a, e1, e2) = (tri[0], tri[1] - tri[0], tri[2] - tri[0]);
    let inner = |u: f64| golden(&|v: f64| point_dist(a + e1 * u + e2 * v), 1.0 - u);
    golden(&inner, 1.0)
}

/// SplitMix64, seeded: no dependency for a few hundred cases.
fn next(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

#[test]
fn first_contacts_agree_with_a_sampled_oracle() {
    let mut state = 7u64;
    let mut hits = 0;
    for case in 0..750 {
        let solid = [CAPSULE, BOX, CYLINDER][case % 3];
        let mut v = || DVec3::new(next(&mut state), next(&mut state), next(&mut state));
        let tri = [v() * 2.0, v() * 2.0, v() * 2.0];
        let center = v() * 3.0;
        let vel = (tri[0] - center) * 1.5 + v();
        let outcome = sweep_solid_triangle(&solid, center, vel, tri, 1.0, false);
        // The oracle: 4,000 samples of the move, the first overlap refined by bisection.
        let steps = if matches!(solid, Solid::Cylinder { .. }) {
            120
        } else {
            4000
        };
        // The cylinder's oracle is a search, good to about 1e-8 m.
        let slack = if matches!(solid, Solid::Cylinder { .. }) {
            1e-7
        } else {
            1e-9
        };
        let first = (0..=steps)
            .map(|k| k as f64 / steps as f64)
            .find(|&t| overlaps(&solid, center + vel * t, tri, 0.0));
        match (outcome, first) {
            (Err(MissReason::Degenerate), _) => {}
            (Ok(hit), Some(t_oracle)) => {
                hits += 1;
                assert!(
                    hit.t <= t_oracle + 1e-12,
                    "case {case}: {hit:?} after the oracle's {t_oracle}"
                );
                assert!(
                    overlaps(&solid, center + vel * hit.t, tri, slack),
                    "case {case}: not touching at {hit:?}"
                );
                if hit.t > 0.0 {
                    let before = hit.t - 1e-7 / vel.length().max(1e-9);
                    assert!(
                        before < 0.0 || !overlaps(&solid, center + vel * before, tri, -1e-9),
                        "case {case}: already overlapping before {hit:?}"
                    );
                }
                let back = hit.point - center - vel * hit.t;
                if hit.depth == 0.0 {
                    assert!(
                        back.dot(hit.normal) <= 1e-9,
                        "case {case}: normal into the solid {hit:?}"
                    );
                } else {
                    // Pushed out by the depth along the normal, it no longer overlaps.
                    let out = center + hit.normal * (hit.depth + 1e-7);
                    assert!(
                        !overlaps(&solid, out, tri, -1e-9),
                        "case {case}: push leaves it inside {hit:?}"
                    );
                }
            }
            (Ok(hit), None) => {
                // A contact the samples stepped over must still be a real touch.
                assert!(
                    overlaps(&solid, center + vel * hit.t, tri, 1e-9),
                    "case {case}: {hit:?}"
                );
            }
            (Err(why), Some(t)) => {
                panic!("case {case}: miss ({why:?}) but the oracle overlaps at {t}")
            }
            (Err(_), None) => {}
        }
    }
    assert!(hits > 100, "only {hits} hits: the cases should hit often");
}

#[test]
fn a_cylinder_lands_flat_meets_edges_with_its_side_and_rim_and_corners_with_its_cap() {
    // Flat on a floor: the bottom cap, the face, straight up.
    let hit = sweep_solid_triangle(
        &CYLINDER,
        DVec3::new(0.0, 2.0, 0.0),
        DVec3::NEG_Y * 4.0,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert!((hit.t - 1.1 / 4.0).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Face);
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    // A level ledge edge at mid height: the round side, flat along x.
    let ledge = [
        DVec3::new(1.0, 0.2, -5.0),
        DVec3::new(1.0, 0.2, 5.0),
        DVec3::new(3.0, 0.2, 0.0),
    ];
    let hit =
        sweep_solid_triangle(&CYLINDER, DVec3::ZERO, DVec3::X * 2.0, ledge, 1.0, false).unwrap();
    assert!((hit.t - 0.3).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Edge(0));
    assert!((hit.normal - DVec3::NEG_X).length() < 1e-12, "{hit:?}");
    // A sloped edge (a ramp's lip) met by the bottom rim, not the side: the
    // edge from (1, -0.9 - 1, 0) rising 1 m per metre along x.
    let ramp = [
        DVec3::new(1.0, -1.9, -3.0),
        DVec3::new(1.0, -1.9, 3.0),
        DVec3::new(3.0, 0.1, 0.0),
    ];
    let hit =
        sweep_solid_triangle(&CYLINDER, DVec3::ZERO, DVec3::X * 2.0, ramp, 1.0, false).unwrap();
    // The bottom rim point (0.4, -0.9) reaches the ramp's plane y = x - 2.9
    // when 0.4 + 2t - 2.9 = -0.9: t = 0.8.
    assert!((hit.t - 0.8).abs() < 1e-12, "{hit:?}");
    assert!((hit.point.y + 0.9).abs() < 1e-9, "{hit:?}");
    // A spike's tip (vertex 0) under the bottom cap, inside its radius.
    let spike = [
        DVec3::new(0.1, -1.0, 0.1),
        DVec3::new(1.0, -3.0, 1.0),
        DVec3::new(-1.0, -3.0, 0.5),
    ];
    let hit =
        sweep_solid_triangle(&CYLINDER, DVec3::ZERO, DVec3::NEG_Y, spike, 1.0, false).unwrap();
    assert!((hit.t - 0.1).abs() < 1e-12, "{hit:?}");
    assert_eq!(hit.feature, Feature::Vertex(0));
    assert!((hit.normal - DVec3::Y).length() < 1e-12);
    // Starting 0.1 m into a floor: pushed up 0.1 m.
    let hit = sweep_solid_triangle(
        &CYLINDER,
        DVec3::new(0.0, 0.8, 0.0),
        DVec3::X,
        floor(0.0),
        1.0,
        false,
    )
    .unwrap();
    assert_eq!(hit.t, 0.0);
    assert!(
        (hit.depth - 0.1).abs() < 1e-12 && (hit.normal - DVec3::Y).length() < 1e-12,
        "{hit:?}"
    );
}
