//! Property tests of the solver's invariants over random levels and moves:
//! a robust slide never ends inside geometry, never leaves a closed room,
//! never yields NaN for finite input; non-finite input is rejected.

use crate::common::solid_separation as separation;
use crate::common::*;
use collidoscope::collide::{
    CLEARANCE_REACH_RADII, IterationRecord, SlideMode, SlideSettings, SlideSolver, TraceDetail,
    slide,
};
use collidoscope::geometry::espace::EllipsoidSpace;
use collidoscope::level::Level;
use collidoscope::mesh::{MeshBuilder, TriMesh};
use glam::{DMat3, DVec3, Vec3};
use proptest::prelude::*;

const TOL: f64 = 1e-6;

fn vec3(range: f64) -> impl Strategy<Value = DVec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// Random triangles of 0.5-6 m inside a 20 m cube.
fn soup() -> impl Strategy<Value = TriMesh> {
    prop::collection::vec((vec3(10.0), vec3(3.0), vec3(3.0)), 1..12).prop_map(|tris| {
        let mut b = MeshBuilder::new();
        b.object("soup");
        for (a, e1, e2) in tris {
            let f = |v: DVec3| v.as_vec3();
            b.triangle(f(a), f(a + e1), f(a + e2));
        }
        b.build()
    })
}

/// A floor at y = 0 of square tiles (two triangles each), 0.1-1 m, up to
/// 4 m on a side.
fn tiled_floor() -> impl Strategy<Value = TriMesh> {
    (0.1..1.0f32, 2..40usize).prop_map(|(tile, n)| {
        let mut b = MeshBuilder::new();
        b.object("floor");
        let half = tile * n as f32 / 2.0;
        for i in 0..n {
            for k in 0..n {
                let x = i as f32 * tile - half;
                let z = k as f32 * tile - half;
                let p = |dx: f32, dz: f32| Vec3::new(x + dx, 0.0, z + dz);
                b.triangle(p(0.0, 0.0), p(0.0, tile), p(tile, tile));
                b.triangle(p(0.0, 0.0), p(tile, tile), p(tile, 0.0));
            }
        }
        b.build()
    })
}

/// A velocity: ordinary, fast, or tiny.
fn velocity() -> impl Strategy<Value = DVec3> {
    prop_oneof![vec3(3.0), vec3(200.0), vec3(1e-3)]
}

fn radii() -> impl Strategy<Value = [f64; 3]> {
    (0.2..1.2f64, 0.2..1.5f64, 0.2..1.2f64).prop_map(|(x, y, z)| [x, y, z])
}

fn robust(radii: [f64; 3], gravity: DVec3) -> SlideSettings {
    SlideSettings {
        radii,
        gravity: gravity.to_array(),
        ..SlideSettings::default()
    }
}

/// The oracle of the path check: the triangle whose least distance from
/// the centre's segment `start..end` (ellipsoid space of `radii`) is under
/// one and under the distance at both ends by more than `margin`, the
/// deepest, with that least distance. Found by golden-section search of
/// the distance along the segment (convex: the distance to a convex set
/// along a line), independently of the solver's exact closed form.
fn oracle_tunnel(
    mesh: &TriMesh,
    radii: DVec3,
    start: DVec3,
    end: DVec3,
    margin: f64,
) -> Option<(u32, f64)> {
    use collidoscope::geometry::closest::closest_point_on_triangle;
    let es = EllipsoidSpace::new(radii).unwrap();
    let (p0, p1) = (es.espace_from_world(start), es.espace_from_world(end));
    let mut deepest: Option<(u32, f64)> = None;
    for tri in 0..mesh.triangle_count() as u32 {
        let t_e = mesh.triangle_f64(tri).map(|p| es.espace_from_world(p));
        let f = |t: f64| {
            let p = p0 + (p1 - p0) * t;
            (closest_point_on_triangle(t_e, p) - p).length()
        };
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (0.0, 1.0);
        for _ in 0..90 {
            let (c, d) = (b - phi * (b - a), a + phi * (b - a));
            if f(c) < f(d) { b = d } else { a = c }
        }
        let least = f((a + b) / 2.0);
        if least < 1.0 - margin
            && least < f(0.0) - margin
            && least < f(1.0) - margin
            && deepest.is_none_or(|(_, d)| least < d)
        {
            deepest = Some((tri, least));
        }
    }
    deepest
}

/// Runs the move step by step, checking every record, and returns the end.
fn check_move(
    level: &Level,
    s: &SlideSettings,
    start: DVec3,
    vel: DVec3,
) -> Result<DVec3, TestCaseError> {
    let radii = DVec3::from(s.radii);
    let mut solver = SlideSolver::new(level.world(), s, start, vel, TraceDetail::Full)
        .ok_or_else(|| TestCaseError::fail("finite input was rejected"))?;
    let mut n = 0;
    for rec in solver.by_ref() {
        n += 1;
        prop_assert!(
            rec.end.is_finite() && rec.start.is_finite(),
            "NaN in {rec:?}"
        );
        let c = espace_clearance(level.mesh(), radii, rec.end);
        if s.mode == SlideMode::Robust {
            prop_assert!(
                c >= 1.0 - TOL,
                "iteration {} ends inside: clearance {c}",
                rec.index
            );
            prop_assert!(rec.clearance.is_none_or(|c| !c.embedded), "{rec:?}");
        }
        // The clearance the solver records is the brute-force one.
        match rec.clearance {
            Some(recorded) => prop_assert!(
                (recorded.radii - (c - 1.0)).abs() < 1e-9,
                "recorded {recorded:?}, measured {c}"
            ),
            None => prop_assert!(c - 1.0 > CLEARANCE_REACH_RADII - 1e-9, "missed {c}"),
        }
        prop_assert!(n <= 2 * s.max_iterations as usize);
        // The crossing rule: a centre that went through or within the
        // radius of a triangle on the way (deeper than at both ends) is
        // flagged, in every mode; robust mode never does it.
        let start = rec.start + rec.recovery.map_or(DVec3::ZERO, |r| r.push);
        let oracle = oracle_tunnel(level.mesh(), radii, start, rec.end, 1e-6);
        if s.mode == SlideMode::Robust {
            prop_assert!(oracle.is_none(), "robust tunnelled: {oracle:?} in {rec:?}");
            prop_assert!(rec.tunnel.is_none(), "{rec:?}");
        }
        if let Some((tri, least)) = oracle_tunnel(level.mesh(), radii, start, rec.end, 1e-5) {
            let t = rec.tunnel.ok_or_else(|| {
                TestCaseError::fail(format!("unflagged tunnel through {tri} ({least}): {rec:?}"))
            })?;
            prop_assert!((1.0 - t.depth_radii) <= least + 1e-6, "{t:?} vs {least}");
        }
        if let Some(t) = rec.tunnel {
            let (_, least) = oracle.ok_or_else(|| {
                TestCaseError::fail(format!("flagged, but the oracle finds no tunnel: {t:?}"))
            })?;
            prop_assert!(
                ((1.0 - t.depth_radii) - least).abs() < 1e-6,
                "{t:?} vs {least}"
            );
        }
    }
    Ok(solver.position())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(1000), ..ProptestConfig::default() })]

    #[test]
    fn a_robust_slide_never_ends_inside_geometry(
        mesh in soup(), radii in radii(), start in vec3(12.0), vel in velocity(), g in vec3(0.5)
    ) {
        let level = Level::from_mesh("soup", mesh);
        prop_assume!(espace_clearance(level.mesh(), DVec3::from(radii), start) >= 1.0);
        check_move(&level, &robust(radii, g), start, vel)?;
    }

    /// Every mode on random soups: every tunnel on the way is flagged (the
    /// paper modes cull back faces and Nettle's construction misses some
    /// front faces), and robust mode never tunnels.
    #[test]
    fn every_tunnel_is_flagged_in_every_mode_and_robust_never_tunnels(
        mesh in soup(), radii in prop_oneof![radii(), Just([0.05, 0.9, 0.05])], start in vec3(12.0),
        vel in velocity(), g in vec3(0.5), mode_i in 0usize..3,
    ) {
        let level = Level::from_mesh("soup", mesh);
        prop_assume!(espace_clearance(level.mesh(), DVec3::from(radii), start) >= 1.0);
        let s = SlideSettings { mode: SlideMode::ALL[mode_i], ..robust(radii, g) };
        check_move(&level, &s, start, vel)?;
    }

    #[test]
    fn moves_starting_in_contact_or_grazing_stay_outside(
        mesh in soup(), radii in radii(), k in 0usize..12, bary in (0.0..1.0f64, 0.0..1.0f64),
        gap in 0.0..1e-6f64, speed in 0.01..50.0f64, mix in -1.0..1.0f64, tangent_angle in 0.0..6.3f64,
    ) {
        let level = Level::from_mesh("soup", mesh);
        let es = EllipsoidSpace::new(DVec3::from(radii)).unwrap();
        let t = (k % level.mesh().triangle_count()) as u32;
        let [a, b, c] = level.mesh().triangle_f64(t).map(|p| es.espace_from_world(p));
        let n = (b - a).cross(c - a).normalize_or_zero();
        prop_assume!(n != DVec3::ZERO);
        let (u, v) = if bary.0 + bary.1 > 1.0 { (1.0 - bary.0, 1.0 - bary.1) } else { bary };
        let on_tri = a + (b - a) * u + (c - a) * v;
        let start_e = on_tri + n * (1.0 + gap);
        let start = es.world_from_espace(start_e);
        prop_assume!(espace_clearance(level.mesh(), DVec3::from(radii), start) >= 1.0);
        // Grazing: along the plane, tilted slightly in or out by `mix`.
        let tangent = n.any_orthonormal_pair();
        let along = tangent.0 * tangent_angle.cos() + tangent.1 * tangent_angle.sin();
        let vel_e = (along + n * (mix * 0.05)) * speed;
        check_move(&level, &robust(radii, DVec3::ZERO), start, es.world_from_espace(vel_e))?;
    }

    #[test]
    fn a_probe_inside_a_closed_room_stays_inside(
        size in vec3(1.0), radii in radii(), rot in vec3(3.2), frac in vec3(1.0),
        vel in velocity(), g in vec3(2.0), mode_i in 0usize..3,
    ) {
        // A rotated box room, 2 m larger than the probe on every axis at least.
        let half = DVec3::from(radii) + DVec3::splat(1.0) + size.abs() * 4.0;
        let m = DMat3::from_euler(glam::EulerRot::XYZ, rot.x, rot.y, rot.z);
        let mut b = MeshBuilder::new();
        b.object("room").cuboid((-half).as_vec3(), half.as_vec3());
        let mesh = b.build();
        // Turn the box inside out (faces towards the inside) so that the
        // one-sided paper modes see it from the front, then rotate it.
        let triangles = mesh.triangles().iter().map(|&[a, b, c]| [a, c, b]).collect();
        let positions = mesh.positions().iter().map(|p| (m * p.as_dvec3()).as_vec3()).collect();
        let mesh = TriMesh::new(positions, triangles, vec![("room".into(), 12)]);
        let level = Level::from_mesh("room", mesh);
        let room_radii = half - DVec3::from(radii) - DVec3::splat(0.01);
        let start = m * (frac * room_radii);
        prop_assume!(espace_clearance(level.mesh(), DVec3::from(radii), start) >= 1.0);
        let mode = SlideMode::ALL[mode_i];
        let s = SlideSettings { mode, ..robust(radii, g) };
        let end = check_move(&level, &s, start, vel)?;
        // nettle2000 is kept as published: its "ellipsoid intersection point"
        // is not on the ellipsoid, so a flat ellipsoid can pass a wall there.
        if mode != SlideMode::Nettle2000 {
            let local = m.transpose() * end;
            prop_assert!(local.abs().cmple(half).all(), "{mode} left the room: {local} outside {half}");
        }
    }

    /// A summary run stops each triangle's sweep at the nearest hit so far
    /// (it lists no candidates); the slide must be the same, record for
    /// record, as the full trace's. Tiled floors are where ties happen: a
    /// probe landing on one meets its neighbours' plane at the same time.
    #[test]
    fn a_summary_run_slides_exactly_like_a_full_trace(
        mesh in prop_oneof![soup(), tiled_floor()], radii in radii(), start in vec3(3.0),
        vel in velocity(), g in vec3(0.5), mode_i in 0usize..3,
    ) {
        let level = Level::from_mesh("level", mesh);
        let start = start + DVec3::Y * 1.6;
        prop_assume!(espace_clearance(level.mesh(), DVec3::from(radii), start) >= 1.0);
        let s = SlideSettings { mode: SlideMode::ALL[mode_i], ..robust(radii, g) };
        let full = slide(level.world(), &s, start, vel, TraceDetail::Full).unwrap();
        let summary = slide(level.world(), &s, start, vel, TraceDetail::Summary).unwrap();
        prop_assert_eq!(full.final_position, summary.final_position);
        prop_assert_eq!(full.end_reason, summary.end_reason);
        prop_assert_eq!(full.iterations.len(), summary.iterations.len());
        // Record for record, but for the lists only a full trace keeps.
        // A summary also takes the open-space shortcut (no search when the
        // probe's moving box touches no triangle's box): its records must
        // be those of the search it spares. And it searches rounded
        // (skipping boxes out of the probe's reach): its counters may be
        // smaller, never larger.
        for (f, m) in full.iterations.iter().zip(&summary.iterations) {
            let mut f = f.clone();
            f.bvh_nodes_visited.clear();
            f.candidates.clear();
            prop_assert!(m.candidate_count <= f.candidate_count);
            prop_assert!(m.bvh_stats.nodes_visited <= f.bvh_stats.nodes_visited);
            let mut m = m.clone();
            m.candidate_count = f.candidate_count;
            m.bvh_stats = f.bvh_stats.clone();
            prop_assert_eq!(&f, &m);
        }
    }

    /// One solver kept across moves (as a batch keeps one per thread) gives
    /// every move the very records a fresh solver gives it: nothing of one
    /// move (contact planes, the gravity pass, buffers, the record filled
    /// in place, a refused move) leaks into the next.
    #[test]
    fn a_kept_solver_slides_each_move_like_a_fresh_one(
        mesh in prop_oneof![soup(), tiled_floor()], radii in radii(), mode_i in 0usize..3,
        g in prop_oneof![Just(DVec3::ZERO), vec3(0.5)],
        moves in prop::collection::vec((vec3(3.0), velocity(), 0usize..6), 1..6), full in any::<bool>(),
    ) {
        let level = Level::from_mesh("level", mesh);
        let s = SlideSettings { mode: SlideMode::ALL[mode_i], ..robust(radii, g) };
        let detail = if full { TraceDetail::Full } else { TraceDetail::Summary };
        let mut kept = SlideSolver::reusable(level.world(), &s, detail).unwrap();
        let mut last_end = None;
        for (start, vel, kind) in moves {
            // One move in six is refused, and must leave no move behind;
            // half start where the last one ended, in contact, where a
            // contact plane left over from it would change the slide.
            let start = match (kind, last_end) {
                (0, _) => DVec3::new(f64::NAN, 0.0, 0.0),
                (1..=3, Some(end)) => end,
                _ => start + DVec3::Y * 1.6,
            };
            let fresh = slide(level.world(), &s, start, vel, detail);
            prop_assert_eq!(kept.start_move(start, vel), fresh.is_some());
            let Some(fresh) = fresh else {
                prop_assert!(kept.step().is_none());
                continue;
            };
            let mut records = Vec::new();
            while let Some(rec) = kept.step() {
                records.push(rec.clone());
            }
            prop_assert_eq!(&records, &fresh.iterations);
            prop_assert_eq!(kept.last_record(), fresh.iterations.last());
            let end = kept.run_to_end();
            prop_assert_eq!(end.final_position, fresh.final_position);
            prop_assert_eq!(end.end_reason, fresh.end_reason);
            prop_assert_eq!(end.iterations as usize, fresh.iterations.len());
            last_end = Some(end.final_position);
        }
    }

    /// Running a move to its end without records (a batch's way: an
    /// iteration through open space then fills none) ends every move
    /// exactly where stepping it ends, for the same reason, after as many
    /// iterations, in every mode, from the air, from contact and grazing.
    #[test]
    fn running_to_the_end_ends_where_stepping_ends(
        mesh in prop_oneof![soup(), tiled_floor()], radii in radii(), mode_i in 0usize..3,
        g in prop_oneof![Just(DVec3::ZERO), vec3(0.5)],
        moves in prop::collection::vec((vec3(6.0), velocity(), 0usize..4), 1..8), full in any::<bool>(),
    ) {
        let level = Level::from_mesh("level", mesh);
        let s = SlideSettings { mode: SlideMode::ALL[mode_i], ..robust(radii, g) };
        let detail = if full { TraceDetail::Full } else { TraceDetail::Summary };
        let mut batch = SlideSolver::reusable(level.world(), &s, detail).unwrap();
        let mut last_end = DVec3::ZERO;
        for (start, vel, kind) in moves {
            // Half start where the last move ended (in contact, or in the
            // air after an arrival), half anywhere, some high above.
            let start = match kind {
                0 | 1 => last_end,
                2 => start + DVec3::Y * 12.0,
                _ => start,
            };
            let stepped = slide(level.world(), &s, start, vel, detail).unwrap();
            prop_assert!(batch.start_move(start, vel));
            let end = batch.run_to_end();
            prop_assert_eq!(end.final_position, stepped.final_position);
            prop_assert_eq!(end.end_reason, stepped.end_reason);
            prop_assert_eq!(end.iterations as usize, stepped.iterations.len());
            // The last record is kept only if that iteration was recorded.
            // It is the stepped one's, but for its counters: those say
            // what this run's search did, and an iteration through open
            // space may be ended by the open-space walk in one run and by
            // the (rounded) ordered search in the other, which prunes
            // boxes the walk counts (see `IterationRecord::bvh_stats`).
            if let Some(rec) = batch.last_record() {
                let stepped_last = stepped.iterations.last().map(|r| IterationRecord {
                    bvh_stats: rec.bvh_stats.clone(),
                    ..r.clone()
                });
                prop_assert_eq!(Some(rec), stepped_last.as_ref());
            }
            last_end = end.final_position;
        }
    }

    #[test]
    fn non_finite_input_is_rejected(
        which in 0usize..3, axis in 0usize..3, bad in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)]
    ) {
        let mut b = MeshBuilder::new();
        b.object("floor").cuboid(Vec3::new(-5.0, -1.0, -5.0), Vec3::new(5.0, 0.0, 5.0));
        let level = level(&b);
        let mut v = [DVec3::new(0.0, 2.0, 0.0), DVec3::X, DVec3::ZERO];
        v[which][axis] = bad;
        let s = SlideSettings { gravity: v[2].to_array(), ..SlideSettings::default() };
        prop_assert!(SlideSolver::new(level.world(), &s, v[0], v[1], TraceDetail::Full).is_none());
    }
}

/// A random course for a character: a tiled floor, a block of random
/// height and a wall at random angles, all of random sizes.
fn character_course() -> impl Strategy<Value = TriMesh> {
    (
        0.02..1.2f64,
        0.1..3.0f64,
        0.0..6.3f64,
        0.0..6.3f64,
        0.5..4.0f64,
    )
        .prop_map(|(riser, depth, turn_block, turn_wall, wall_at)| {
            use collidoscope::analysis::generate::LevelBuilder;
            use collidoscope::analysis::generate::parts::{floor, thin_wall};
            use collidoscope::analysis::generate::solid::cuboid;
            let turn = |mut s: collidoscope::analysis::generate::Solid, a: f64| {
                let (sin, cos) = a.sin_cos();
                for p in &mut s.positions {
                    *p = DVec3::new(p.x * cos - p.z * sin, p.y, p.x * sin + p.z * cos);
                }
                s
            };
            let mut b = LevelBuilder::new();
            b.add(
                "floor",
                &floor(
                    glam::DVec2::splat(-8.0),
                    glam::DVec2::splat(8.0),
                    0.0,
                    0.5,
                    1.0,
                ),
            );
            let block = cuboid(
                DVec3::new(1.0, 0.0, -2.0),
                DVec3::new(1.0 + depth, riser, 2.0),
            );
            b.add("block", &turn(block, turn_block));
            let wall = thin_wall(DVec3::new(wall_at, 0.0, -3.0), 6.0, 2.5, 0.05);
            b.add("wall", &turn(wall, turn_wall));
            b.build()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(64), ..ProptestConfig::default() })]

    /// Every frame of a walk ends outside geometry, finite, and no further
    /// along the ground than its walk, plus the height a step-up climbed,
    /// plus what gravity and the snap moved it, within
    /// `MAX_OVERREACH_M`: a character never tunnels, teleports or outruns
    /// its walk (along a wall at any angle, onto and off steps).
    #[test]
    fn a_walking_character_never_ends_a_frame_inside_geometry_or_outruns_its_walk(
        mesh in character_course(), radii in radii(), angle in 0.0..6.3f64,
        step in 0.0..0.6f64, slope in 10.0..80.0f64, speed in 0.5..12.0f64, jump in any::<bool>(),
    ) {
        use collidoscope::character::{MAX_OVERREACH_M, WalkSpec, WalkTrace, walk};
        let level = Level::from_mesh("course", mesh);
        let mut s = robust(radii, DVec3::ZERO);
        s.character.max_step_height_m = step;
        s.character.max_slope_deg = slope;
        s.character.walk_speed_m_s = speed;
        let radii_v = DVec3::from(radii);
        // Obstacles lie within 5 m of the origin: start 7 m out, facing it.
        let dir = DVec3::new(angle.cos(), 0.0, angle.sin());
        let start = (-dir * 7.0).with_y(radii[1] + 0.01);
        prop_assume!(espace_clearance(level.mesh(), radii_v, start) >= 1.0);
        let spec = WalkSpec { from: start, direction: dir, seconds: 1.5, jump };
        let w = walk(level.world(), &s, &spec, WalkTrace::Summary).unwrap();
        for f in &w.frames {
            let p = f.after.position;
            prop_assert!(p.is_finite() && f.after.vertical_speed_m_s.is_finite(), "{f:?}");
            let c = espace_clearance(level.mesh(), radii_v, p);
            prop_assert!(c >= 1.0 - TOL, "frame {} ends inside: clearance {c}", f.index);
            let (moved, allowed) = (f.ground_moved_m(), f.ground_allowance_m());
            prop_assert!(
                moved <= allowed + MAX_OVERREACH_M,
                "frame {} moved {moved} m for a walk of {} m (allowed {allowed} m, step {:?})",
                f.index, f.walk.length(), f.step
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(64), ..ProptestConfig::default() })]

    /// Under every engine profile (each engine's capsule and step rules),
    /// every frame of a walk ends finite and outside geometry: the engines'
    /// full-height step-ups, Jolt's second try ahead, Rapier's tread cast
    /// and Unreal's perches never leave the body inside a riser, a wall or
    /// the floor.
    #[test]
    fn under_every_engine_profile_a_walk_never_ends_a_frame_inside_geometry(
        mesh in character_course(), engine in 0usize..7, angle in 0.0..6.3f64,
        step in 0.0..0.6f64, slope in 10.0..80.0f64, speed in 0.5..12.0f64,
        tread in 0.0..0.4f64, jump in any::<bool>(),
        perch in prop_oneof![Just(0.0), 0.0..0.5f64], perch_up in 0.0..1.0f64,
    ) {
        use collidoscope::character::{EngineProfile, WalkSpec, WalkTrace, body_shape, walk};
        let level = Level::from_mesh("course", mesh);
        let mut s = robust([0.4, 0.9, 0.4], DVec3::ZERO);
        s.character.engine = EngineProfile::ALL[engine];
        s.character.max_step_height_m = step;
        s.character.max_slope_deg = slope;
        s.character.walk_speed_m_s = speed;
        s.character.min_tread_depth_m = tread;
        // Unreal's perch settings (only the unreal profile reads them).
        s.character.perch_radius_threshold_m = perch;
        s.character.perch_additional_height_m = perch_up;
        let solid = body_shape(&s).solid();
        let dir = DVec3::new(angle.cos(), 0.0, angle.sin());
        let start = (-dir * 7.0).with_y(0.91);
        let spec = WalkSpec { from: start, direction: dir, seconds: 1.5, jump };
        let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
        for f in &w.frames {
            let p = f.after.position;
            prop_assert!(p.is_finite() && f.after.vertical_speed_m_s.is_finite(), "{f:?}");
            let gap = match &solid {
                Some(solid) => (0..level.mesh().triangle_count() as u32)
                    .map(|t| separation(solid, p, level.mesh().triangle_f64(t)))
                    .fold(f64::INFINITY, f64::min),
                None => espace_clearance(level.mesh(), s.radii_vec(), p) - 1.0,
            };
            prop_assert!(
                gap >= -TOL,
                "{}: frame {} ends {gap} m inside",
                s.character.engine,
                f.index
            );
        }
    }
}
