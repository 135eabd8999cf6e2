//! The clearance's kept search (`clearance::NearbyTriangles`) against what
//! it spares: a clearance measured from a list kept across many centres
//! must be the brute-force nearest over every triangle of the level, and a
//! solver that keeps its lists must report exactly what one that searches
//! the tree every time reports, in every mode, on walks of many frames.

use super::SlideSolver;
use crate::analysis::generate::{city, city_moves};
use crate::collide::clearance::{CLEARANCE_REACH_RADII, ClearanceQuery, NearbyTriangles};
use crate::collide::{SlideMode, SlideSettings, TraceDetail};
use crate::geometry::closest::closest_feature_on_triangle;
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::sweep::Feature;
use crate::level::Level;
use crate::mesh::{MeshBuilder, TriMesh};
use glam::{DVec3, Vec3};
use proptest::prelude::*;

/// The nearest colliding triangle to the probe centred at `centre_w`
/// (triangle, distance from the centre in ellipsoid space, feature), by
/// the definition: every triangle of the level measured, the least
/// distance and then the lowest index, none beyond the reach.
fn brute_force_nearest(
    level: &Level,
    settings: &SlideSettings,
    centre_w: DVec3,
) -> Option<(u32, f64, Feature)> {
    let es = EllipsoidSpace::new(settings.half_extents()).unwrap();
    let reach_radii = CLEARANCE_REACH_RADII.max(2.0 * settings.skin / es.radii().min_element());
    let one_sided = settings.mode == SlideMode::Robust && !settings.two_sided;
    let world = level.world();
    let centre_e = es.espace_from_world(centre_w);
    let mut best: Option<(u32, f64, Feature)> = None;
    for tri in 0..level.mesh.triangle_count() as u32 {
        if !world.triangle_collides(tri) {
            continue;
        }
        let t = level
            .mesh
            .triangle_f64(tri)
            .map(|p| es.espace_from_world(p));
        let normal = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or_zero();
        if one_sided && normal.dot(centre_e - t[0]) < 0.0 {
            continue;
        }
        let (point, feature) = closest_feature_on_triangle(t, centre_e);
        let d = (centre_e - point).length();
        let nearer = match best {
            None => d <= 1.0 + reach_radii,
            Some((b_tri, b_d, _)) => d < b_d || (d == b_d && tri < b_tri),
        };
        if nearer {
            best = Some((tri, d, feature));
        }
    }
    best
}

/// A soup for the clearance: random triangles, a grid of tiles (centres
/// over shared edges and corners are exact ties), and each random triangle
/// once more with its corners in another order (a tie at every distance),
/// all shifted by `offset`.
fn soup(random: &[[f32; 9]], tiles: u32, offset: Vec3) -> Level {
    let mut b = MeshBuilder::new();
    b.object("random");
    for t in random {
        let p = |k: usize| Vec3::new(t[k], t[k + 1], t[k + 2]) + offset;
        b.triangle(p(0), p(3), p(6));
    }
    b.object("repeated");
    for t in random.iter().step_by(2) {
        let p = |k: usize| Vec3::new(t[k], t[k + 1], t[k + 2]) + offset;
        b.triangle(p(3), p(6), p(0));
    }
    b.object("tiles");
    for i in 0..tiles {
        for k in 0..tiles {
            let at = |x: u32, z: u32| Vec3::new(0.5 * x as f32 - 2.0, -0.9, 0.5 * z as f32 - 2.0);
            b.quad(
                at(i, k) + offset,
                at(i, k + 1) + offset,
                at(i + 1, k + 1) + offset,
                at(i + 1, k) + offset,
            );
        }
    }
    Level::from_mesh("soup", b.build())
}

fn corners() -> impl Strategy<Value = [f32; 9]> {
    proptest::array::uniform9(-3.0..3.0f32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A list kept across a walk of centres (steps from nothing to a
    /// metre and a half, so that some centres are served by the list and
    /// some search again) gives the brute-force nearest at every one,
    /// near the origin and far from it, from any seeds.
    #[test]
    fn a_kept_list_gives_the_brute_force_clearance(
        random in proptest::collection::vec(corners(), 0..10),
        tiles in 0..8u32,
        offset in prop_oneof![Just(0.0f32), Just(1.0e3), Just(1.0e5), Just(-2.5e5)],
        steps in proptest::collection::vec(
            ((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), 0.0..1.5f64, 0..3u32),
            1..24,
        ),
        start in (-2.0..2.0f64, -1.0..1.0f64, -2.0..2.0f64),
        growth_e in prop_oneof![Just(0.0), 0.0..1.5f64],
        robust in any::<bool>(),
        two_sided in any::<bool>(),
    ) {
        let offset_v = Vec3::splat(offset);
        let level = soup(&random, tiles, offset_v);
        let s = SlideSettings {
            mode: if robust { SlideMode::Robust } else { SlideMode::Fauerby2003 },
            two_sided,
            radii: [0.5, 1.0, 0.7],
            ..SlideSettings::default()
        };
        let es = EllipsoidSpace::new(s.half_extents()).unwrap();
        let world = level.world();
        let n = level.mesh.triangle_count() as u32;
        let (mut scratch, mut tris) = (Default::default(), Vec::new());
        let mut nearby = NearbyTriangles::new(true);
        let mut centre = DVec3::new(start.0, start.1, start.2) + offset_v.as_dvec3();
        let mut last = None;
        for (dir, length, seeding) in steps {
            let dir = DVec3::new(dir.0, dir.1, dir.2).normalize_or(DVec3::X);
            centre += dir * length;
            // No seed, the last answer's triangle (as the solver does), or
            // the middle triangle of the level.
            let seeds: Vec<u32> = match seeding {
                0 => Vec::new(),
                1 => last.into_iter().collect(),
                _ => (n > 0).then_some(n / 2).into_iter().collect(),
            };
            let measured = ClearanceQuery {
                world: &world,
                settings: &s,
                es,
                scratch: &mut scratch,
                nearby: &mut nearby,
                growth_e,
                tris: &mut tris,
            }
            .measure(centre, &seeds);
            let expected = brute_force_nearest(&level, &s, centre);
            prop_assert_eq!(
                measured.map(|c| (c.triangle, c.radii, c.feature)),
                expected.map(|(tri, d, feature)| (tri, d - 1.0, feature)),
                "centre {:?}", centre
            );
            last = measured.map(|c| c.triangle);
        }
    }
}

/// The default character, its checks on, falling slightly.
fn settings(mode: SlideMode) -> SlideSettings {
    SlideSettings {
        mode,
        gravity: [0.0, -0.5, 0.0],
        self_checks: true,
        ..SlideSettings::default()
    }
}

/// A floor of 0.5 m tiles whose corners are raised a few millimetres in a
/// pattern (ghost corners under the 1° default), a 5 cm step, and a wall,
/// all shifted by `offset`.
fn tiles_and_wall(offset: Vec3) -> Level {
    let n = 16u32;
    let mut positions = Vec::new();
    for i in 0..=n {
        for k in 0..=n {
            let bump = 0.003 * ((i * 7 + k * 3) % 5) as f32;
            let step = if i > 11 { 0.05 } else { 0.0 };
            positions
                .push(Vec3::new(0.5 * i as f32 - 4.0, bump + step, 0.5 * k as f32 - 4.0) + offset);
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
    let floor = triangles.len() as u32;
    // A wall box across z = 2.5, 20 cm thick, 2 m high.
    let base = positions.len() as u32;
    for &(x, y, z) in &[
        (-3.0, 0.0, 2.5),
        (3.0, 0.0, 2.5),
        (3.0, 2.0, 2.5),
        (-3.0, 2.0, 2.5),
        (-3.0, 0.0, 2.7),
        (3.0, 0.0, 2.7),
        (3.0, 2.0, 2.7),
        (-3.0, 2.0, 2.7),
    ] {
        positions.push(Vec3::new(x, y, z) + offset);
    }
    for q in [
        [0, 1, 2, 3],
        [5, 4, 7, 6],
        [4, 0, 3, 7],
        [1, 5, 6, 2],
        [3, 2, 6, 7],
    ] {
        let [a, b, c, d] = q.map(|k| base + k);
        triangles.push([a, b, c]);
        triangles.push([a, c, d]);
    }
    let wall = triangles.len() as u32 - floor;
    Level::from_mesh(
        "tiles_and_wall",
        TriMesh::new(
            positions,
            triangles,
            vec![("tiles".into(), floor), ("wall".into(), wall)],
        ),
    )
}

/// A move and how many frames it is cut into.
type Walk = (DVec3, DVec3, usize);

/// Runs each walk as frames with one solver per mode, the kept list on or
/// off, and returns every record of every frame, and the list's counts.
fn frame_records(level: &Level, walks: &[Walk], reuse: bool) -> (Vec<String>, u64, u64) {
    let mut out = Vec::new();
    let (mut searches, mut reuses) = (0, 0);
    for mode in SlideMode::ALL {
        let mut solver =
            SlideSolver::reusable(level.world(), &settings(mode), TraceDetail::Summary).unwrap();
        solver.set_clearance_reuse(reuse);
        for &(start, velocity, frames) in walks {
            let mut pos = start;
            let step = velocity / frames as f64;
            for _ in 0..frames {
                assert!(solver.start_move(pos, step));
                while let Some(rec) = solver.step() {
                    out.push(format!("{mode} {rec:?}"));
                }
                pos = solver.position();
            }
        }
        searches += solver.nearby.searches;
        reuses += solver.nearby.reuses;
    }
    (out, searches, reuses)
}

fn walk(origin: DVec3) -> impl Strategy<Value = Walk> {
    (
        (-3.0..3.0f64, 0.9..1.3f64, -3.0..3.0f64),
        (-3.0..3.0f64, -0.3..0.1f64, -3.0..3.0f64),
        1..12usize,
    )
        .prop_map(move |(p, v, frames)| {
            (
                origin + DVec3::new(p.0, p.1, p.2),
                DVec3::new(v.0, v.1, v.2),
                frames,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every record (clearance, ghost corner, path check and the motion)
    /// is the same with the kept list and without, in every mode, on walks
    /// cut into frames over ghost-cornered tiles and into a wall, near the
    /// origin and far from it.
    #[test]
    fn the_checks_report_the_same_with_the_kept_list_and_without(
        far in any::<bool>(),
        walks in proptest::collection::vec(walk(DVec3::ZERO), 1..6),
    ) {
        let offset = if far { Vec3::new(1.0e5, 0.0, -1.0e5) } else { Vec3::ZERO };
        let level = tiles_and_wall(offset);
        let walks: Vec<Walk> = walks
            .into_iter()
            .map(|(p, v, f)| (p + offset.as_dvec3(), v, f))
            .collect();
        let (kept, ..) = frame_records(&level, &walks, true);
        let (searched, ..) = frame_records(&level, &walks, false);
        prop_assert_eq!(kept.len(), searched.len());
        for (a, b) in kept.iter().zip(&searched) {
            prop_assert_eq!(a, b);
        }
    }
}

/// The same on the benchmark's scene, a generated city, with its long
/// moves cut into frames as the benchmark does; and the list is reused
/// there (most clearances), so the comparison is not of two searches.
#[test]
fn the_checks_report_the_same_with_the_kept_list_in_a_city() {
    let generated = city(20_000);
    let moves = city_moves(&generated, 120);
    let level = Level::from_mesh("city", generated.mesh);
    let walks: Vec<Walk> = moves
        .iter()
        .map(|m| {
            let frames = ((m.velocity_world.length() / 0.15).ceil() as usize).clamp(1, 10);
            (m.start_world, m.velocity_world, frames)
        })
        .collect();
    let (kept, searches, reuses) = frame_records(&level, &walks, true);
    let (searched, off_searches, off_reuses) = frame_records(&level, &walks, false);
    assert_eq!(kept.len(), searched.len());
    for (a, b) in kept.iter().zip(&searched) {
        assert_eq!(a, b);
    }
    assert_eq!(off_reuses, 0);
    assert!(
        reuses > searches,
        "{reuses} measures served by a kept list, {searches} searches ({off_searches} without)"
    );
}

/// Running a move to its end checks no iteration; the record it keeps,
/// the last, is checked when it is read, with the results stepping gives;
/// stepping checks every iteration. Counted by the clearance's measures
/// (each one a search of the tree or a kept list's reuse), on the city's
/// long moves in every mode: most take several iterations.
#[test]
fn running_to_the_end_checks_the_kept_record_when_read() {
    let generated = city(20_000);
    let moves = city_moves(&generated, 60);
    let level = Level::from_mesh("city", generated.mesh);
    let measures = |s: &SlideSolver<'_>| s.nearby.searches + s.nearby.reuses;
    for mode in SlideMode::ALL {
        let mut stepped =
            SlideSolver::reusable(level.world(), &settings(mode), TraceDetail::Summary).unwrap();
        let mut batch =
            SlideSolver::reusable(level.world(), &settings(mode), TraceDetail::Summary).unwrap();
        let (mut iterations, mut last_kept, mut longer) = (0, 0, 0u64);
        for m in &moves {
            assert!(stepped.start_move(m.start_world, m.velocity_world));
            let before = measures(&stepped);
            let mut n = 0;
            while stepped.step().is_some() {
                n += 1;
            }
            assert_eq!(
                measures(&stepped) - before,
                n,
                "{mode}: stepping checks each"
            );
            iterations += n;
            assert!(batch.start_move(m.start_world, m.velocity_world));
            let before = measures(&batch);
            let end = batch.run_to_end();
            assert_eq!(u64::from(end.iterations), n, "{mode}: the same move");
            assert_eq!(measures(&batch), before, "{mode}: none while running");
            let kept = u64::from(batch.last_record().is_some());
            assert_eq!(
                measures(&batch) - before,
                kept,
                "{mode}: the last, when read"
            );
            batch.last_record();
            assert_eq!(measures(&batch) - before, kept, "{mode}: once");
            // Its checks are the stepped one's (the counters aside: they
            // say what each run's search did).
            if let (Some(b), Some(s)) = (batch.last_record(), stepped.last_record()) {
                assert_eq!((b.clearance, b.tunnel), (s.clearance, s.tunnel), "{mode}");
                assert_eq!(b.ghost_hit, s.ghost_hit, "{mode}");
            }
            last_kept += kept;
            longer += u64::from(n > 1);
        }
        assert!(longer >= 20, "{mode}: {longer} moves of several iterations");
        assert!(last_kept >= 30, "{mode}: {last_kept} last records kept");
        assert!(iterations > moves.len() as u64 + 20, "{mode}");
    }
}
