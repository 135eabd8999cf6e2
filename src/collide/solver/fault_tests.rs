//! The self checks against injected faults: a solver result moved inside
//! geometry, a path moved through a slab, a path moved within the radius
//! of a wall's end. Each fault is put into the record of a real iteration
//! (with its candidates, its hit and the solver's state as they are) and
//! the checks are run again on it, as after any iteration: they must
//! report it. And the two shortcuts the checks take (the clearance's
//! search from seed triangles, the path check's bound by the plane) are
//! held to the exact measures they spare, on random triangles.

use super::SlideSolver;
use crate::collide::TUNNEL_TOLERANCE_RADII;
use crate::collide::clearance::{ClearanceQuery, NearbyTriangles, behind};
use crate::collide::crossing::{
    CrossingQuery, boxes_stay_beyond, dips_between_ends, path_stays_beyond,
};
use crate::collide::{SlideMode, SlideSettings, TraceDetail};
use crate::geometry::closest::{closest_point_on_triangle, segment_triangle_closest};
use crate::geometry::espace::EllipsoidSpace;
use crate::level::Level;
use crate::math::Aabb;
use crate::mesh::MeshBuilder;
use glam::{DVec3, Vec3};
use proptest::prelude::*;

/// The default character without gravity, its checks on.
fn settings(mode: SlideMode) -> SlideSettings {
    SlideSettings {
        mode,
        gravity: [0.0; 3],
        self_checks: true,
        ..SlideSettings::default()
    }
}

/// A floor, a wall across x in `[3, 3.5]` and a pillar far off to the side.
fn walled() -> Level {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(-10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, -10.0),
    );
    b.object("wall")
        .cuboid(Vec3::new(3.0, 0.0, -5.0), Vec3::new(3.5, 3.0, 5.0));
    b.object("pillar")
        .cuboid(Vec3::new(-6.0, 0.0, 6.0), Vec3::new(-5.0, 3.0, 7.0));
    Level::from_mesh("walled", b.build())
}

/// A slab 5 cm thick across x in `[3, 3.05]`, nothing else.
fn slab() -> Level {
    let mut b = MeshBuilder::new();
    b.object("slab")
        .cuboid(Vec3::new(3.0, -2.0, -5.0), Vec3::new(3.05, 4.0, 5.0));
    Level::from_mesh("slab", b.build())
}

/// A solver that has run the first iteration of a move from `start` by
/// `velocity`, its record still in place.
fn after_one_iteration<'a>(
    level: &'a Level,
    mode: SlideMode,
    start: DVec3,
    velocity: DVec3,
) -> SlideSolver<'a> {
    let mut solver =
        SlideSolver::reusable(level.world(), &settings(mode), TraceDetail::Summary).unwrap();
    assert!(solver.start_move(start, velocity));
    assert!(solver.step().is_some());
    solver
}

fn object_name(level: &Level, object: u32) -> &str {
    &level.mesh.objects[object as usize].name
}

#[test]
fn an_end_moved_inside_the_wall_it_hit_is_reported_embedded() {
    let level = walled();
    for mode in SlideMode::ALL {
        let mut solver = after_one_iteration(
            &level,
            mode,
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(5.0, 0.0, 0.0),
        );
        let rec = &solver.record;
        assert!(rec.nearest.is_some(), "{mode}: the wall is hit");
        assert!(
            !rec.clearance.unwrap().embedded,
            "{mode}: {:?}",
            rec.clearance
        );
        // The fault: the iteration ends 0.2 m inside the wall's face.
        solver.record.end = DVec3::new(2.8, 1.0, 0.0);
        solver.check_iteration();
        let c = solver
            .record
            .clearance
            .expect("a clearance inside the wall");
        assert!(c.embedded, "{mode}: {c:?}");
        assert_eq!(object_name(&level, c.object), "wall");
        assert!((c.radii + 0.5).abs() < 1e-9, "{mode}: {c:?}");
        assert!((c.metres + 0.2).abs() < 1e-9, "{mode}: {c:?}");
    }
}

#[test]
fn an_end_moved_inside_geometry_far_from_the_hit_is_reported_embedded() {
    let level = walled();
    for mode in SlideMode::ALL {
        let mut solver = after_one_iteration(
            &level,
            mode,
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(5.0, 0.0, 0.0),
        );
        // Measured once where it ended, so that the next search starts
        // from the wall (the hit and the last clearance's triangle).
        assert_eq!(
            object_name(&level, solver.record.clearance.unwrap().object),
            "wall"
        );
        // The fault: the iteration ends 0.2 m into the pillar's side,
        // 10 m away.
        solver.record.end = DVec3::new(-4.8, 1.5, 6.5);
        solver.check_iteration();
        let c = solver
            .record
            .clearance
            .expect("a clearance inside the pillar");
        assert!(c.embedded, "{mode}: {c:?}");
        assert_eq!(object_name(&level, c.object), "pillar");
        assert!((c.metres + 0.2).abs() < 1e-9, "{mode}: {c:?}");
        // And put back where it was, the wall again, clear.
        solver.record.end = DVec3::new(2.59, 1.0, 0.0);
        solver.check_iteration();
        let c = solver.record.clearance.expect("the wall within reach");
        assert!(!c.embedded && c.radii > 0.0, "{mode}: {c:?}");
        assert_eq!(object_name(&level, c.object), "wall");
    }
}

#[test]
fn an_end_moved_just_inside_the_floor_under_it_is_reported_embedded() {
    // The floor is the last clearance's triangle; the fault is a hair
    // deeper than the tolerance.
    let level = walled();
    let mut solver = after_one_iteration(
        &level,
        SlideMode::Robust,
        DVec3::new(0.0, 0.905, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
    );
    let c = solver.record.clearance.expect("the floor a skin below");
    assert!(!c.embedded);
    assert_eq!(object_name(&level, c.object), "floor");
    solver.record.end = DVec3::new(0.0, 0.9 - 1e-5, 1.0);
    solver.check_iteration();
    let c = solver.record.clearance.expect("the floor");
    assert!(c.embedded, "{c:?}");
    assert_eq!(object_name(&level, c.object), "floor");
}

#[test]
fn a_path_moved_through_a_slab_is_reported_as_a_tunnel() {
    let level = slab();
    for mode in SlideMode::ALL {
        let mut solver = after_one_iteration(
            &level,
            mode,
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(5.0, 0.0, 0.0),
        );
        assert!(solver.record.tunnel.is_none(), "{mode}");
        assert!(!solver.tris.is_empty(), "{mode}: the slab is a candidate");
        // The fault: the iteration ends clear, on the slab's far side.
        solver.record.end = DVec3::new(4.0, 1.0, 0.0);
        solver.check_iteration();
        let t = solver.record.tunnel.expect("a tunnel through the slab");
        assert!(t.crossed, "{mode}: {t:?}");
        assert_eq!(object_name(&level, t.object), "slab");
        // 0.95 m from the slab is beyond the clearance's reach: only the
        // path check can see this fault.
        assert_eq!(solver.record.clearance, None, "{mode}");
    }
}

#[test]
fn a_path_moved_past_a_wall_end_within_the_radius_is_reported_as_a_tunnel() {
    // Both ends of the path are 2 m clear of the wall's ends and on the
    // same side of each of its planes; on the way, alongside the wall, the
    // probe's surface is 0.1 m into its face (x = 3): the plane is within
    // the radius, so its bound must not skip it.
    let level = walled();
    let mut solver = after_one_iteration(
        &level,
        SlideMode::Robust,
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(5.0, 0.0, 0.0),
    );
    // The fault, with every triangle of the level a candidate.
    solver.tris = (0..level.mesh.triangle_count() as u32).collect();
    solver.record.start = DVec3::new(2.7, 1.0, -7.0);
    solver.record.recovery = None;
    solver.record.end = DVec3::new(2.7, 1.0, 7.0);
    solver.check_iteration();
    let t = solver.record.tunnel.expect("a tunnel along the wall's end");
    assert!(!t.crossed, "{t:?}");
    assert_eq!(object_name(&level, t.object), "wall");
    assert!((t.depth_radii - 0.25).abs() < 1e-9, "{t:?}");
    assert!((t.depth_metres - 0.1).abs() < 1e-9, "{t:?}");
}

/// A triangle of random corners within `[-3, 3]` on each axis.
fn triangle() -> impl Strategy<Value = [DVec3; 3]> {
    let p = || (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64).prop_map(|(x, y, z)| DVec3::new(x, y, z));
    (p(), p(), p()).prop_map(|(a, b, c)| [a, b, c])
}

fn point() -> impl Strategy<Value = DVec3> {
    (-4.0..4.0f64, -4.0..4.0f64, -4.0..4.0f64).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

proptest! {
    /// The path check skips a triangle by its plane only where the exact
    /// least distance is at least the bound.
    #[test]
    fn the_plane_bound_never_skips_a_nearer_triangle(
        tri in triangle(),
        p0 in point(),
        p1 in point(),
        along in -1.5..1.5f64,
        bound in 0.0..2.0f64,
    ) {
        // Half the cases with the segment's ends near the plane.
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        let unit = n.normalize_or_zero();
        let p1 = if along.abs() < 0.75 {
            p1 - unit * (unit.dot(p1 - tri[0]) - along)
        } else {
            p1
        };
        let (h0, h1) = (n.dot(p0 - tri[0]), n.dot(p1 - tri[0]));
        let reach = (p0 - tri[0]).abs().max(p1 - tri[0]).max_element();
        if path_stays_beyond(tri, n, (h0, h1), bound, reach) {
            let (_, dist, _) = segment_triangle_closest(p0, p1, tri);
            prop_assert!(dist >= bound, "skipped at {dist} < {bound}");
        }
    }

    /// The path check skips a triangle by the distance between its box and
    /// the segment's box only where the exact least distance is at least
    /// the bound, near the origin and far from it (where the margin over
    /// the boxes' rounding matters).
    #[test]
    fn the_box_bound_never_skips_a_nearer_triangle(
        tri in triangle(),
        p0 in point(),
        p1 in point(),
        bound in 0.0..2.0f64,
        offset in prop_oneof![Just(0.0), Just(1.0e3), Just(-2.5e5), Just(1.0e9)],
    ) {
        let shift = DVec3::new(offset, -offset, 0.5 * offset);
        let tri = tri.map(|p| p + shift);
        let (p0, p1) = (p0 + shift, p1 + shift);
        let (seg_lo, seg_hi) = (p0.min(p1), p0.max(p1));
        let reach = seg_lo.abs().max(seg_hi.abs()).max_element();
        let tri_box = (tri[0].min(tri[1]).min(tri[2]), tri[0].max(tri[1]).max(tri[2]));
        if boxes_stay_beyond((seg_lo, seg_hi), tri_box, bound, reach) {
            let (_, dist, _) = segment_triangle_closest(p0, p1, tri);
            prop_assert!(dist >= bound, "skipped at {dist} < {bound}");
        }
    }

    /// The path check reads a triangle's box in ellipsoid space from the
    /// mesh's box: the same box as its corners mapped to ellipsoid space,
    /// to the bit, for any corners and any radii.
    #[test]
    fn the_mesh_box_in_ellipsoid_space_is_the_corners_box(
        corners in proptest::array::uniform9(-1.0e6..1.0e6f32),
        radii in (0.01..5.0f64, 0.01..5.0f64, 0.01..5.0f64),
    ) {
        let c = [0, 3, 6].map(|k| Vec3::new(corners[k], corners[k + 1], corners[k + 2]));
        let es = EllipsoidSpace::new(DVec3::new(radii.0, radii.1, radii.2)).unwrap();
        let b = Aabb::from_points(c);
        let e = c.map(|p| es.espace_from_world(p.as_dvec3()));
        prop_assert_eq!(es.espace_from_world(b.min.as_dvec3()), e[0].min(e[1]).min(e[2]));
        prop_assert_eq!(es.espace_from_world(b.max.as_dvec3()), e[0].max(e[1]).max(e[2]));
    }

    /// The path check, with every skip it takes, flags the same tunnel
    /// (triangle, place and depth, to the bit) as the definition: every
    /// candidate measured exactly, the deepest kept in the candidates'
    /// order; on random soups near the origin and far from it, with paths
    /// through triangles, in both kinds of sidedness.
    #[test]
    fn the_path_check_flags_what_the_exact_measure_flags(
        tris in proptest::collection::vec(triangle(), 1..12),
        p0 in point(),
        p1 in point(),
        through in 0..12usize,
        miss in prop_oneof![Just(0.02), 0.0..0.4f64],
        offset in prop_oneof![Just(0.0f32), Just(1.0e3), Just(-2.5e5)],
        robust in any::<bool>(),
        two_sided in any::<bool>(),
    ) {
        let shift = DVec3::splat(offset as f64);
        let mut b = MeshBuilder::new();
        b.object("soup");
        for t in &tris {
            let p = |k: usize| t[k].as_vec3() + Vec3::splat(offset);
            b.triangle(p(0), p(1), p(2));
        }
        let level = Level::from_mesh("soup", b.build());
        let mode = if robust { SlideMode::Robust } else { SlideMode::Fauerby2003 };
        let s = SlideSettings { mode, two_sided, radii: [0.5, 1.0, 0.7], ..settings(mode) };
        let es = EllipsoidSpace::new(s.half_extents()).unwrap();
        let world = level.world();
        // Most paths aimed through a triangle's centroid, or past it by
        // up to a few radii (near misses, flagged or not).
        let (start, end) = match tris.get(through) {
            Some(t) => {
                let c = (t[0] + t[1] + t[2]) / 3.0;
                (p0 + shift, c + (c - p0) * 0.3 + (p1 - c) * miss + shift)
            }
            None => (p0 + shift, p1 + shift),
        };
        let all: Vec<u32> = (0..level.mesh.triangle_count() as u32).collect();
        let mut rec = crate::collide::context::empty_record(mode);
        rec.start = start;
        rec.end = end;
        rec.velocity = end - start;
        let flagged = CrossingQuery { world: &world, settings: &s, es, tris: &all }
            .check(&rec)
            .map(|t| (t.triangle, t.t, t.depth_radii));
        // The definition, no skips.
        let (e0, e1) = (es.espace_from_world(start), es.espace_from_world(end));
        let one_sided = robust && !two_sided;
        let mut deepest: Option<(u32, f64, f64)> = None;
        for &tri in &all {
            let t = level.mesh.triangle_f64(tri).map(|p| es.espace_from_world(p));
            let n = (t[1] - t[0]).cross(t[2] - t[0]);
            if one_sided && n.dot(e0 - t[0]) < 0.0 {
                continue;
            }
            let bound = deepest.map_or(1.0 - TUNNEL_TOLERANCE_RADII, |d| d.2);
            let at_start = (closest_point_on_triangle(t, e0) - e0).length();
            let at_end = (closest_point_on_triangle(t, e1) - e1).length();
            let (along, dist, _) = segment_triangle_closest(e0, e1, t);
            if dist < bound
                && dist < at_start - TUNNEL_TOLERANCE_RADII
                && dist < at_end - TUNNEL_TOLERANCE_RADII
            {
                deepest = Some((tri, along, dist));
            }
        }
        prop_assert_eq!(flagged, deepest.map(|(tri, t, dist)| (tri, t, 1.0 - dist)));
    }

    /// The clearance's one-sided rule decides whether a centre is behind a
    /// triangle exactly as the unit normal's height does, also for centres
    /// on the plane and within a rounding of it, near the origin and far.
    #[test]
    fn the_behind_test_is_the_unit_normals_sign(
        tri in triangle(),
        p in point(),
        off in prop_oneof![Just(0.0), -1e-12..1e-12f64, -1e-6..1e-6f64, -2.0..2.0f64],
        shift in prop_oneof![Just(0.0), Just(1.0e3), Just(-2.5e5)],
    ) {
        let tri = tri.map(|v| v + DVec3::splat(shift));
        let cross = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        let unit = cross.normalize_or_zero();
        // The point put on the plane, then `off` along the normal.
        let p = p + DVec3::splat(shift);
        let p = p - unit * unit.dot(p - tri[0]) + unit * off;
        let d = p - tri[0];
        prop_assert_eq!(behind(cross, d, cross.dot(d)), unit.dot(d) < 0.0);
    }

    /// The path check's test of the ends lets through every path the
    /// exact measure flags: one whose least distance to the triangle is
    /// deeper than at both ends by the tolerance.
    #[test]
    fn the_test_of_the_ends_lets_every_tunnel_through(
        tri in triangle(),
        p0 in point(),
        p1 in point(),
        through in any::<bool>(),
    ) {
        // Half the cases pass the segment through the triangle's centroid
        // or near it, where most tunnels are.
        let p1 = if through {
            let c = (tri[0] + tri[1] + tri[2]) / 3.0;
            c + (c - p0) * 0.7 + (p1 - c) * 0.05
        } else {
            p1
        };
        let (q0, q1) = (closest_point_on_triangle(tri, p0), closest_point_on_triangle(tri, p1));
        let (at_start, at_end) = ((q0 - p0).length(), (q1 - p1).length());
        let (_, dist, _) = segment_triangle_closest(p0, p1, tri);
        if dist < at_start - TUNNEL_TOLERANCE_RADII && dist < at_end - TUNNEL_TOLERANCE_RADII {
            prop_assert!(dips_between_ends(p1 - p0, (p0 - q0, at_start), (p1 - q1, at_end)));
        }
    }

    /// The clearance is the same whatever triangles its search starts
    /// from: none, the nearest, the farthest, any.
    #[test]
    fn the_clearance_is_the_same_from_any_seeds(
        tris in proptest::collection::vec(triangle(), 1..12),
        centre in (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64),
        seeds in proptest::collection::vec(0..12u32, 0..4),
        robust in any::<bool>(),
        two_sided in any::<bool>(),
    ) {
        let mut b = MeshBuilder::new();
        b.object("soup");
        for t in &tris {
            b.triangle(t[0].as_vec3(), t[1].as_vec3(), t[2].as_vec3());
        }
        let level = Level::from_mesh("soup", b.build());
        let s = SlideSettings {
            mode: if robust { SlideMode::Robust } else { SlideMode::Fauerby2003 },
            two_sided,
            radii: [0.5, 1.0, 0.7],
            ..SlideSettings::default()
        };
        let es = crate::geometry::espace::EllipsoidSpace::new(s.half_extents()).unwrap();
        let world = level.world();
        let n = level.mesh.triangle_count() as u32;
        let seeds: Vec<u32> = seeds.into_iter().filter(|&t| t < n).collect();
        let centre = DVec3::new(centre.0, centre.1, centre.2);
        let measure = |seeds: &[u32]| {
            let (mut scratch, mut found) = (Default::default(), Vec::new());
            ClearanceQuery {
                world: &world,
                settings: &s,
                es,
                scratch: &mut scratch,
                nearby: &mut NearbyTriangles::new(false),
                growth_e: 0.0,
                tris: &mut found,
            }
            .measure(centre, seeds)
        };
        let plain = measure(&[]);
        prop_assert_eq!(measure(&seeds), plain);
        // Started from every triangle (the nearest among them).
        let all: Vec<u32> = (0..n).collect();
        prop_assert_eq!(measure(&all), plain);
    }
}

/// A floor of 0.5 m tiles, two triangles each, its corners raised by a
/// few millimetres in a pattern, so that neighbouring tiles fold by a
/// fraction of a degree (ghost corners under the 1° default), and a few
/// real folds where it rises by 5 cm.
fn bumpy_tiles() -> Level {
    let n = 16u32;
    let mut positions = Vec::new();
    for i in 0..=n {
        for k in 0..=n {
            let bump = 0.003 * ((i * 7 + k * 3) % 5) as f32;
            let step = if i > 11 { 0.05 } else { 0.0 };
            positions.push(Vec3::new(
                0.5 * i as f32 - 4.0,
                bump + step,
                0.5 * k as f32 - 4.0,
            ));
        }
    }
    let at = |i: u32, k: u32| i * (n + 1) + k;
    let mut triangles = Vec::new();
    for i in 0..n {
        for k in 0..n {
            triangles.push([at(i, k), at(i, k + 1), at(i + 1, k + 1)]);
            triangles.push([at(i, k), at(i + 1, k + 1), at(i + 1, k)]);
        }
    }
    let count = triangles.len() as u32;
    Level::from_mesh(
        "bumpy",
        crate::mesh::TriMesh::new(positions, triangles, vec![("tiles".into(), count)]),
    )
}

/// The ghost-corner check finds the triangles around the hit's edge or
/// vertex among those the clearance's search listed; what it reports must
/// be exactly what its own search of the tree finds, and the clearance
/// what a search without seeds or the grown reach finds, in every mode, on
/// moves that walk, fall and land on tiles whose internal edges are
/// ghost corners.
#[test]
fn the_ghost_check_on_the_clearance_list_equals_its_own_search() {
    let level = bumpy_tiles();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut compared = 0;
    for mode in SlideMode::ALL {
        let s = SlideSettings {
            gravity: [0.0, -1.0, 0.0],
            ..settings(mode)
        };
        let mut solver = SlideSolver::reusable(level.world(), &s, TraceDetail::Summary).unwrap();
        for _ in 0..200 {
            let start = DVec3::new(6.0 * unit() - 3.0, 0.95 + 0.3 * unit(), 6.0 * unit() - 3.0);
            let velocity = DVec3::new(2.0 * unit() - 1.0, -0.2 * unit(), 2.0 * unit() - 1.0);
            assert!(solver.start_move(start, velocity));
            while let Some(rec) = solver.step() {
                let rec = rec.clone();
                let Some(hit) = &rec.nearest else { continue };
                let (mut scratch, mut tris) = (Default::default(), Vec::new());
                let own =
                    super::super::ghost::suspect_feature(&solver.world, hit).and_then(|suspect| {
                        super::super::ghost::detect(
                            &solver.world,
                            hit,
                            suspect,
                            s.ghost_edge_angle_deg,
                            &mut scratch,
                            &mut tris,
                            false,
                        )
                    });
                assert_eq!(rec.ghost_hit, own, "{mode}: {rec:?}");
                compared += usize::from(own.is_some());
                if own.is_some() {
                    // The end moved 5 cm over the floor half a metre off:
                    // the clearance's ball shrinks to the tile under it,
                    // and only its growth to the hit edge lists the
                    // triangles around the edge.
                    let floor_y = f64::from(level.mesh.triangle(hit.triangle)[0].y);
                    solver.record.end = DVec3::new(rec.end.x + 0.5, floor_y + 0.05, rec.end.z);
                    solver.check_iteration();
                    assert_eq!(solver.record.ghost_hit, own, "{mode}: moved end");
                }
                let plain = ClearanceQuery {
                    world: &solver.world,
                    settings: &s,
                    es: solver.es,
                    scratch: &mut scratch,
                    nearby: &mut NearbyTriangles::new(false),
                    growth_e: 0.0,
                    tris: &mut tris,
                }
                .measure(rec.end, &[]);
                assert_eq!(rec.clearance, plain, "{mode}: {rec:?}");
            }
        }
    }
    // Not a test of nothing: ghost corners were met and compared.
    assert!(compared >= 20, "only {compared} ghost corners met");
}
