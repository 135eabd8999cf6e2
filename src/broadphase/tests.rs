//! The grid and sweep-and-prune find exactly the BVH's candidates; the
//! volumes contain their objects and never reject a box that touches one.

use super::*;
use crate::bvh::{Bvh, BvhScratch, QueryStats};
use crate::level::Level;
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use proptest::prelude::*;

fn bvh_set(bvh: &Bvh, mesh: &TriMesh, q: &Aabb) -> Vec<u32> {
    let mut out = Vec::new();
    let (mut scratch, mut stats) = (BvhScratch::default(), QueryStats::default());
    bvh.query_aabb(
        mesh.tri_aabbs(),
        q,
        &mut scratch,
        &mut out,
        None,
        &mut stats,
    );
    out.sort_unstable();
    out
}

fn grid_set(grid: &UniformGrid, mesh: &TriMesh, q: &Aabb) -> Vec<u32> {
    let mut out = Vec::new();
    grid.query_aabb(
        mesh.tri_aabbs(),
        q,
        &mut out,
        &mut GridQueryStats::default(),
    );
    let n = out.len();
    out.sort_unstable();
    out.dedup();
    assert_eq!(out.len(), n, "the grid reported a triangle twice");
    out
}

fn sap_set(sap: &SweepAndPrune, mesh: &TriMesh, probe: usize) -> Vec<u32> {
    let mut out = Vec::new();
    sap.candidates(mesh.tri_aabbs(), probe, &mut out);
    let n = out.len();
    out.sort_unstable();
    out.dedup();
    assert_eq!(out.len(), n, "sweep-and-prune reported a triangle twice");
    out
}

fn coord() -> impl Strategy<Value = f32> {
    // Mostly spread out, sometimes on a coarse lattice so that boxes touch
    // exactly, and the odd signed zero.
    prop_oneof![
        4 => -20.0f32..20.0,
        2 => (-8i32..8).prop_map(|i| i as f32 * 2.5),
        1 => Just(-0.0f32),
    ]
}

fn point() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// Random triangles (some long and thin, some flat on y = 0) in 1-4 objects.
fn level() -> impl Strategy<Value = TriMesh> {
    let tri = (point(), point(), point(), any::<bool>());
    (prop::collection::vec(tri, 1..60), 1usize..5).prop_map(|(tris, objects)| {
        let mut positions = Vec::new();
        for (a, b, c, flat) in &tris {
            let f = |p: Vec3| if *flat { Vec3::new(p.x, 0.0, p.z) } else { p };
            positions.extend([f(*a), f(*b), f(*c)]);
        }
        let triangles: Vec<[u32; 3]> = (0..tris.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        let n = triangles.len() as u32;
        let per = n.div_ceil(objects as u32);
        let mut names = Vec::new();
        let mut left = n;
        while left > 0 {
            let k = per.min(left);
            names.push((format!("o{}", names.len()), k));
            left -= k;
        }
        TriMesh::new(positions, triangles, names)
    })
}

fn query_box() -> impl Strategy<Value = Aabb> {
    (point(), point()).prop_map(|(a, b)| Aabb::from_corners(a, b))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn grid_and_sap_find_the_bvh_candidates(
        mesh in level(),
        boxes in prop::collection::vec(query_box(), 1..10),
        steps in prop::collection::vec(point(), 3),
    ) {
        let bvh = Bvh::build(mesh.tri_aabbs());
        let grid = UniformGrid::build(mesh.tri_aabbs());
        let mut sap = SweepAndPrune::new(&mesh);
        let mut boxes = boxes;
        prop_assert!(sap.update(&boxes).full_sort);
        // Three more frames: every box moves (by a fraction of a random
        // step), the list is repaired by insertion sort, and the sets still agree.
        for frame in 0..=steps.len() {
            for (p, q) in boxes.iter().enumerate() {
                let want = bvh_set(&bvh, &mesh, q);
                prop_assert_eq!(&grid_set(&grid, &mesh, q), &want, "grid, box {:?}", q);
                prop_assert_eq!(&sap_set(&sap, &mesh, p), &want, "sap frame {}, box {:?}", frame, q);
            }
            let Some(step) = steps.get(frame) else { break };
            for (i, q) in boxes.iter_mut().enumerate() {
                let d = *step * (0.05 * (i + 1) as f32);
                *q = Aabb::from_corners(q.min + d, q.max + d);
            }
            prop_assert!(!sap.update(&boxes).full_sort);
        }
    }

    #[test]
    fn volumes_contain_their_objects(mesh in level(), boxes in prop::collection::vec(query_box(), 1..6)) {
        let volumes = BoundingVolumes::build(&mesh);
        for (o, v) in mesh.objects().iter().zip(&volumes.objects) {
            let v = v.expect("every object has triangles");
            for t in o.first_triangle..o.first_triangle + o.triangle_count {
                for p in mesh.triangle(t) {
                    let p = p.as_dvec3();
                    prop_assert!(p.distance(v.sphere_center) <= v.sphere_radius * (1.0 + 1e-9) + 1e-9);
                    let local = p - v.obb.center;
                    for k in 0..3 {
                        prop_assert!(v.obb.axes[k].dot(local).abs() <= v.obb.half[k] * (1.0 + 1e-9) + 1e-6);
                    }
                    // A point box at each corner is never rejected.
                    let q = Aabb::from_corners(p.as_vec3(), p.as_vec3());
                    prop_assert!(v.sphere_overlaps(&q) && v.obb.overlaps_aabb(&q));
                }
            }
        }
        // Objects the volumes keep include every object a candidate belongs to
        // whose triangle really lies partly inside the box (a corner inside).
        let mut keep = Vec::new();
        for q in &boxes {
            let r = volumes.reject(q, &mut keep);
            prop_assert_eq!(r.by_any + r.kept, mesh.triangle_count() as u32);
            prop_assert!(r.by_any >= r.by_aabb.max(r.by_sphere).max(r.by_obb));
            for t in 0..mesh.triangle_count() as u32 {
                if mesh.triangle(t).iter().any(|&p| q.contains_point(p)) {
                    prop_assert!(keep[mesh.object_of(t)], "triangle {} of a rejected object", t);
                }
            }
        }
    }
}

/// A 40 x 40 m floor of 2 x 2 m quads and a slanted 10 m plank.
fn floor_and_plank() -> TriMesh {
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    for i in 0..20 {
        for j in 0..20 {
            let base = positions.len() as u32;
            let (x, z) = (i as f32 * 2.0, j as f32 * 2.0);
            positions.extend([
                Vec3::new(x, 0.0, z),
                Vec3::new(x, 0.0, z + 2.0),
                Vec3::new(x + 2.0, 0.0, z + 2.0),
                Vec3::new(x + 2.0, 0.0, z),
            ]);
            triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
        }
    }
    let floor = triangles.len() as u32;
    let base = positions.len() as u32;
    // A plank along the x = z diagonal, rising 1 m: its OBB is far smaller
    // than its AABB.
    positions.extend([
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.3, 1.0, -0.3),
        Vec3::new(10.3, 2.0, 9.7),
        Vec3::new(10.0, 2.0, 10.0),
    ]);
    triangles.extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
    let objects = vec![("floor".to_string(), floor), ("plank".to_string(), 2)];
    TriMesh::new(positions, triangles, objects)
}

#[test]
fn grid_is_sized_to_about_one_triangle_per_cell() {
    let mesh = floor_and_plank();
    let grid = UniformGrid::build(mesh.tri_aabbs());
    // 802 triangles over a 40 x 2 x 40 m box: cubes of ~1.6 m sides, and a
    // box that touches its neighbours' cells is entered in each of them.
    let cells = grid.cell_count();
    assert!((200..=2 * 802).contains(&cells), "{cells} cells");
    assert!(grid.entry_count() <= MAX_ENTRIES_PER_TRIANGLE * 802);
    assert!(grid.max_per_cell() < 40, "{}", grid.max_per_cell());
    assert!(grid.occupied_cells() <= cells);
}

#[test]
fn a_grid_over_one_huge_triangle_stays_small() {
    // Long thin triangles everywhere would put each in thousands of cells:
    // the cell side grows until the entries fit the budget.
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    for i in 0..500 {
        let z = i as f32 * 0.01;
        let b = positions.len() as u32;
        positions.extend([
            Vec3::new(0.0, 0.0, z),
            Vec3::new(1000.0, 1.0, z),
            Vec3::new(0.0, 1.0, z + 1000.0),
        ]);
        triangles.push([b, b + 1, b + 2]);
    }
    let mesh = TriMesh::single_object("spikes", positions, triangles);
    let grid = UniformGrid::build(mesh.tri_aabbs());
    assert!(grid.entry_count() <= MAX_ENTRIES_PER_TRIANGLE * 500);
    let q = Aabb::from_corners(Vec3::new(10.0, 0.0, 10.0), Vec3::new(11.0, 2.0, 11.0));
    let bvh = Bvh::build(mesh.tri_aabbs());
    assert_eq!(grid_set(&grid, &mesh, &q), bvh_set(&bvh, &mesh, &q));
}

#[test]
fn obb_fits_a_diagonal_plank_tighter_than_its_aabb() {
    let mesh = floor_and_plank();
    let volumes = BoundingVolumes::build(&mesh);
    let plank = volumes.objects[1].unwrap();
    let aabb_volume = {
        let e = plank.aabb.extent();
        (e.x * e.y * e.z) as f64
    };
    assert!(
        plank.obb.volume() < 0.2 * aabb_volume,
        "{} vs {aabb_volume}",
        plank.obb.volume()
    );
    // A box in the corner of the plank's AABB, away from the plank: the
    // AABB keeps it, the OBB rejects it.
    let q = Aabb::from_corners(Vec3::new(8.0, 1.0, 0.0), Vec3::new(9.0, 1.5, 1.0));
    let mut keep = Vec::new();
    let r = volumes.reject(&q, &mut keep);
    assert_eq!(r.by_aabb, 800, "the floor's AABB is below the box");
    assert_eq!(r.by_obb, 802);
    assert_eq!(r.by_any, 802);
    assert_eq!(keep, vec![false, false]);
    // The floor is flat: its OBB is the world-axis box (the smaller fit).
    assert_eq!(
        volumes.objects[0].unwrap().obb.axes[1].abs(),
        crate::math::DVec3::Y
    );
}

#[test]
fn volumes_filter_removes_only_rejected_objects() {
    let mesh = floor_and_plank();
    let volumes = BoundingVolumes::build(&mesh);
    let bvh = Bvh::build(mesh.tri_aabbs());
    let q = Aabb::from_corners(Vec3::new(8.0, -0.5, 0.0), Vec3::new(9.0, 1.5, 1.0));
    let mut candidates = bvh_set(&bvh, &mesh, &q);
    let before = candidates.len();
    let r = volumes.filter(&mesh, &q, &mut candidates);
    assert!(before > 0);
    assert_eq!(r.by_obb, 2, "only the plank is rejected");
    assert_eq!(r.by_aabb, 0, "both AABBs overlap the box");
    assert_eq!(candidates.len(), before - 2, "the plank's two triangles go");
    assert!(candidates.iter().all(|&t| mesh.object_of(t) == 0));
}

#[test]
fn sap_repair_after_a_small_move_is_cheap_and_reports_swaps() {
    let mesh = floor_and_plank();
    let mut sap = SweepAndPrune::new(&mesh);
    let boxes = probe_boxes(&mesh.bounds(), 50, Vec3::new(0.8, 1.8, 0.8));
    let first = sap.update(&boxes);
    assert!(first.full_sort);
    assert_eq!(first.endpoints, 2 * (2 + 50));
    let moved: Vec<Aabb> = boxes
        .iter()
        .map(|b| Aabb::from_corners(b.min + Vec3::X * 0.01, b.max + Vec3::X * 0.01))
        .collect();
    let second = sap.update(&moved);
    assert!(!second.full_sort);
    assert!(second.swaps < 20, "{} swaps", second.swaps);
    // Moving one probe across the level swaps it past many bounds.
    let mut far = moved.clone();
    far[0] = Aabb::from_corners(Vec3::new(39.0, 0.0, 0.0), Vec3::new(39.5, 1.0, 0.5));
    assert!(sap.update(&far).swaps > 10);
    // A NaN box pairs with nothing.
    far[1] = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    sap.update(&far);
    assert!(sap.paired_objects(1).is_empty());
    assert!(!sap.paired_objects(0).is_empty());
}

#[test]
fn report_agrees_and_counts() {
    let level = Level::from_mesh("floor", floor_and_plank());
    let boxes = probe_boxes(&level.mesh().bounds(), 16, Vec3::new(0.8, 1.8, 0.8));
    let r = BroadPhaseReport::measure(&level, &boxes);
    assert!(r.agree);
    assert_eq!(r.queries, 16);
    assert!(r.candidates > 0);
    assert_eq!(r.rejections.by_any + r.rejections.kept, 16 * 802);
    assert!(r.grid_entries >= 802);
    assert!(r.sap_endpoints == 2 * (2 + 16));
}

#[test]
fn empty_inputs_find_nothing() {
    let grid = UniformGrid::build(&[]);
    let mut out = Vec::new();
    let q = Aabb::from_corners(Vec3::ZERO, Vec3::ONE);
    grid.query_aabb(&[], &q, &mut out, &mut GridQueryStats::default());
    assert!(out.is_empty());
    assert!(probe_boxes(&Aabb::EMPTY, 4, Vec3::ONE).is_empty());
    let mesh = floor_and_plank();
    let grid = UniformGrid::build(mesh.tri_aabbs());
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::NAN,
    };
    grid.query_aabb(
        mesh.tri_aabbs(),
        &nan,
        &mut out,
        &mut GridQueryStats::default(),
    );
    assert!(out.is_empty());
    // An infinite box finds everything, as the BVH's does.
    let all = Aabb::from_corners(Vec3::NEG_INFINITY, Vec3::INFINITY);
    assert_eq!(grid_set(&grid, &mesh, &all).len(), mesh.triangle_count());
}

#[test]
fn volume_overlays_follow_their_toggles() {
    use crate::collide::debug_draw::{OverlayKind, OverlayToggles, Shape};
    let mesh = floor_and_plank();
    let volumes = BoundingVolumes::build(&mesh);
    let only = |kind: OverlayKind| OverlayToggles::all(false).with(kind, true);
    let spheres = volume_primitives(&volumes, &mesh, &only(OverlayKind::BoundingSpheres), 10);
    assert_eq!(spheres.len(), 2);
    assert!(matches!(spheres[0].shape, Shape::Ellipsoid { .. }));
    assert_eq!(spheres[1].label.as_deref(), Some("plank"));
    let obbs = volume_primitives(&volumes, &mesh, &only(OverlayKind::BoundingObbs), 10);
    assert_eq!(obbs.len(), 2 * 12, "twelve edges a box");
    assert!(obbs.iter().all(|p| p.kind == OverlayKind::BoundingObbs));
    let aabbs = volume_primitives(&volumes, &mesh, &only(OverlayKind::BoundingAabbs), 1);
    assert_eq!(aabbs.len(), 1, "capped at one object");
    assert!(volume_primitives(&volumes, &mesh, &OverlayToggles::default(), 10).is_empty());
}

/// Figures for the shared levels (when `../shared/levels` is present):
/// `cargo test --lib broadphase::tests::shared_levels -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement on large levels, not a check"]
fn shared_levels_report() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    for file in ["conference_ward_331k.obj.gz", "sibenik_dabrovic_75k.obj.gz"] {
        let t = std::time::Instant::now();
        let Ok(level) = Level::load(&dir.join(file), &Default::default()) else {
            println!("skipping {file}");
            continue;
        };
        let load = t.elapsed();
        let boxes = probe_boxes(&level.mesh().bounds(), 256, Vec3::new(0.8, 1.8, 0.8));
        let r = BroadPhaseReport::measure(&level, &boxes);
        assert!(r.agree);
        println!("{file}: load {load:?}\n{r:#?}");
    }
}
