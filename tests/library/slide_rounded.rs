//! The rounded candidate search (a summary trace skips the triangles whose
//! boxes lie out of the probe's rounded reach, and the clearance searches
//! only the ball it measures in) against the plain search, on random dense
//! levels: clusters of tiny triangles of every orientation, as the
//! conference room's chairs are, on a tiled floor. Every shape, every
//! move, gravity, self checks on: the records are the same but for the
//! candidate counters, and a character walks the same frames.

use collidoscope::bvh::{BvhScratch, QueryStats, RoundedProbe};
use collidoscope::character::{WalkSpec, WalkTrace, walk};
use collidoscope::collide::{IterationRecord, SlideSettings, SlideSolver, TraceDetail};
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::Level;
use collidoscope::math::Aabb;
use collidoscope::mesh::{MeshBuilder, TriMesh};
use glam::{DVec3, Vec3};
use proptest::prelude::*;

fn vec3(range: f64) -> impl Strategy<Value = DVec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// A tiled floor at y = 0 (0.25 m tiles, 6 m across) and clusters of
/// tiny triangles (1 mm to 8 cm) of random orientation around random
/// points up to 2 m above it; some triangles are slivers or points.
fn dense_level() -> impl Strategy<Value = TriMesh> {
    let cluster = (
        vec3(2.0),
        prop::collection::vec((vec3(0.4), vec3(0.08), vec3(0.08)), 5..80),
    );
    prop::collection::vec(cluster, 1..6).prop_map(|clusters| {
        let mut b = MeshBuilder::new();
        b.object("floor");
        let tile = 0.25f32;
        for i in 0..24 {
            for k in 0..24 {
                let (x, z) = (i as f32 * tile - 3.0, k as f32 * tile - 3.0);
                let p = |dx: f32, dz: f32| Vec3::new(x + dx, 0.0, z + dz);
                b.triangle(p(0.0, 0.0), p(0.0, tile), p(tile, tile));
                b.triangle(p(0.0, 0.0), p(tile, tile), p(tile, 0.0));
            }
        }
        b.object("chairs");
        for (centre, tris) in clusters {
            let centre = centre + DVec3::Y * 2.0;
            for (at, e1, e2) in tris {
                let a = centre + at;
                b.triangle(a.as_vec3(), (a + e1).as_vec3(), (a + e2).as_vec3());
            }
        }
        b.build()
    })
}

fn shape() -> impl Strategy<Value = CharacterShape> {
    prop_oneof![
        Just(CharacterShape::Ellipsoid),
        (0.1..0.6f64).prop_map(|radius_m| CharacterShape::Sphere { radius_m }),
        (0.1..0.5f64, 0.0..1.5f64).prop_map(|(radius_m, extra)| CharacterShape::Capsule {
            radius_m,
            height_m: 2.0 * radius_m + extra,
        }),
        (0.1..0.5f64, 0.3..1.8f64)
            .prop_map(|(radius_m, height_m)| CharacterShape::Cylinder { radius_m, height_m }),
        (0.1..0.5f64, 0.2..0.9f64, 0.1..0.5f64).prop_map(|(x, y, z)| CharacterShape::Box {
            half_extents_m: [x, y, z],
        }),
    ]
}

/// A record with the candidate search's own counters cleared: what the
/// rounded search may change (it tests fewer candidates).
fn without_counters(rec: &IterationRecord) -> IterationRecord {
    let mut rec = rec.clone();
    rec.candidate_count = 0;
    rec.bvh_stats = QueryStats::default();
    rec
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Rounded and plain searches give the same iterations (positions,
    /// hits, recoveries, slides, clearances, tunnels, end reasons), move
    /// after move, from contact and from the air, for every shape; the
    /// rounded one tests no more candidates.
    #[test]
    fn rounded_search_changes_no_result(
        mesh in dense_level(),
        shape in shape(),
        radii in (0.15..0.6f64, 0.2..1.0f64, 0.15..0.6f64),
        gravity in prop_oneof![Just(DVec3::ZERO), Just(DVec3::new(0.0, -0.05, 0.0)), vec3(0.3)],
        moves in prop::collection::vec((vec3(2.5), vec3(0.6), 0usize..3), 1..10),
    ) {
        let level = Level::from_mesh("dense", mesh);
        let settings = SlideSettings {
            radii: [radii.0, radii.1, radii.2],
            shape,
            gravity: gravity.to_array(),
            ..SlideSettings::default()
        };
        let world = level.world();
        let mut rounded = SlideSolver::reusable(world, &settings, TraceDetail::Summary).unwrap();
        let mut plain = SlideSolver::reusable(world, &settings, TraceDetail::Summary).unwrap();
        plain.set_rounded_search(false);
        let mut last = DVec3::new(0.0, 1.5, 0.0);
        let (mut tested_rounded, mut tested_plain) = (0u64, 0u64);
        for (at, vel, kind) in moves {
            // Half from where the last move ended (in contact), the rest
            // among the clusters or just above the floor.
            let start = match kind {
                0 => last,
                1 => at + DVec3::Y * 2.0,
                _ => DVec3::new(at.x, radii.1 + 0.01, at.z),
            };
            prop_assert!(rounded.start_move(start, vel));
            prop_assert!(plain.start_move(start, vel));
            loop {
                let a = rounded.step().cloned();
                let b = plain.step().cloned();
                match (a, b) {
                    (None, None) => break,
                    (Some(a), Some(b)) => {
                        prop_assert!(a.candidate_count <= b.candidate_count);
                        tested_rounded += u64::from(a.candidate_count);
                        tested_plain += u64::from(b.candidate_count);
                        prop_assert_eq!(without_counters(&a), without_counters(&b));
                        prop_assert!(a.end.is_finite());
                    }
                    (a, b) => prop_assert!(false, "one ended first: {:?} / {:?}", a.is_some(), b.is_some()),
                }
            }
            prop_assert_eq!(rounded.position(), plain.position());
            last = rounded.position();
        }
        prop_assert!(tested_rounded <= tested_plain);
    }

    /// A character walks the same frames whether its solvers search
    /// rounded (a frames-only walk, summary traces) or plain (a full
    /// trace, which lists every candidate its box touches).
    #[test]
    fn a_walk_is_the_same_rounded_or_plain(
        mesh in dense_level(),
        shape in prop_oneof![Just(CharacterShape::Ellipsoid), shape()],
        x in -2.0..2.0f64, z in -2.0..2.0f64, heading in 0.0..6.3f64,
    ) {
        let level = Level::from_mesh("dense", mesh);
        let settings = SlideSettings { shape, ..SlideSettings::default() };
        let spec = WalkSpec {
            from: DVec3::new(x, settings.half_extents().y + 0.3, z),
            direction: DVec3::new(heading.cos(), 0.0, heading.sin()),
            seconds: 0.5,
            jump: false,
        };
        let full = walk(level.world(), &settings, &spec, WalkTrace::Full).unwrap();
        let quick = walk(level.world(), &settings, &spec, WalkTrace::FramesOnly).unwrap();
        prop_assert_eq!(full.frames.len(), quick.frames.len());
        for (f, q) in full.frames.iter().zip(&quick.frames) {
            prop_assert_eq!(f.after, q.after);
            prop_assert_eq!(f.step, q.step);
            prop_assert_eq!(f.snapped, q.snapped);
            prop_assert_eq!(f.wall, q.wall);
        }
        prop_assert_eq!(full.summary, quick.summary);
    }

    /// The rounded box query lists, in the plain query's order, every
    /// triangle whose box lies within the probe's rounding of its core
    /// (decided exactly in `f64`), and nothing outside the probe's box.
    #[test]
    fn rounded_query_keeps_every_box_in_reach(
        mesh in dense_level(),
        center in vec3(3.0),
        core_y in prop_oneof![Just(0.0), 0.0..0.6f64],
        radii in (0.05..0.8f64, 0.05..1.0f64, 0.05..0.8f64),
    ) {
        let level = Level::from_mesh("dense", mesh);
        let center = center + DVec3::Y * 1.5;
        let radii = DVec3::new(radii.0, radii.1, radii.2);
        let core_half = DVec3::new(0.0, core_y, 0.0);
        let probe = RoundedProbe { center, core_half, radii };
        let boxes = level.mesh().tri_aabbs();
        let mut scratch = BvhScratch::default();
        let mut rounded = Vec::new();
        level.bvh().query_rounded(boxes, &probe, &mut scratch, &mut rounded, &mut QueryStats::default());
        // The plain query over a box a hair larger than the probe's.
        let reach = core_half + radii * 1.001;
        let query = Aabb::from_f64_covering(center - reach, center + reach);
        let mut plain = Vec::new();
        level.bvh().query_aabb(boxes, &query, &mut scratch, &mut plain, None, &mut QueryStats::default());
        // In order, a subsequence of the plain query.
        let mut it = plain.iter();
        for tri in &rounded {
            prop_assert!(it.any(|t| t == tri), "triangle {} out of the box or order", tri);
        }
        // Every box within reach is listed.
        for (tri, b) in boxes.iter().enumerate() {
            let (lo, hi) = (center - core_half, center + core_half);
            let gap = (b.min.as_dvec3() - hi).max(lo - b.max.as_dvec3()).max(DVec3::ZERO) / radii;
            if gap.length() <= 1.0 {
                prop_assert!(rounded.contains(&(tri as u32)), "triangle {} in reach left out", tri);
            }
        }
    }
}
