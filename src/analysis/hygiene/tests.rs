//! Each fixture holds exactly one kind of fault; the analysis finds exactly
//! it (kind, count, triangles, position), and nothing on clean meshes.

use super::fixtures::{self, Soup};
use super::*;
use crate::analysis::generate::{default_level, solid::grid_box};
use crate::math::Vec3;
use HygieneKind::*;
use proptest::prelude::*;

fn run(mesh: &TriMesh) -> HygieneReport {
    analyse(mesh, &HygieneOptions::default())
}

/// The counts of every kind, zero where `expected` does not name it.
fn assert_counts(report: &HygieneReport, expected: &[(HygieneKind, usize)]) {
    for kind in HygieneKind::ALL {
        let want = expected.iter().find(|e| e.0 == kind).map_or(0, |e| e.1);
        let got = report.kind(kind);
        assert_eq!(got.count, want, "{kind:?}: {:#?}", got.items);
        assert_eq!(got.items.len(), want, "{kind:?}");
        assert!(!got.truncated);
    }
    let faults: usize = expected
        .iter()
        .filter(|e| e.0.is_fault())
        .map(|e| e.1)
        .sum();
    assert_eq!(report.faults, faults);
}

fn near(a: DVec3, b: [f64; 3]) -> bool {
    a.distance(DVec3::from(b)) < 1e-5
}

#[test]
fn a_clean_box_has_no_fault_and_one_coplanar_diagonal_per_face() {
    let report = run(&fixtures::clean_box());
    assert_counts(&report, &[(CoplanarEdge, 6)]);
    assert_eq!(report.welded_vertices, 8);
    // Each diagonal's midpoint is its face's centre: two coordinates 0.5.
    for diagonal in &report.kind(CoplanarEdge).items {
        assert_eq!(diagonal.size, 0.0);
        let halves = diagonal
            .position
            .to_array()
            .iter()
            .filter(|&&c| c == 0.5)
            .count();
        assert_eq!(halves, 2, "{diagonal:?}");
    }
}

#[test]
fn an_unwelded_box_is_welded_first() {
    let report = run(&fixtures::unwelded_box());
    assert_counts(&report, &[(CoplanarEdge, 6)]);
    assert_eq!(report.welded_vertices, 8);
}

#[test]
fn a_clean_terrain_has_only_its_open_border() {
    let n = 12;
    let mesh = fixtures::terrain(n);
    let report = run(&mesh);
    let open = report.kind(OpenEdge);
    assert_eq!(open.count, 4 * n as usize);
    for item in &open.items {
        let p = item.position;
        let on_border = [p.x, p.z].iter().any(|&c| c == 0.0 || c == f64::from(n));
        assert!(on_border, "{item:?}");
        assert!(item.size >= 1.0 - 1e-6, "{item:?}");
    }
    let coplanar = report.count(CoplanarEdge);
    assert_counts(
        &report,
        &[(OpenEdge, 4 * n as usize), (CoplanarEdge, coplanar)],
    );
}

#[test]
fn the_default_level_has_no_fault() {
    let report = run(&default_level());
    assert_counts(&report, &[(CoplanarEdge, report.count(CoplanarEdge))]);
    assert!(report.count(CoplanarEdge) > 100);
}

#[test]
fn an_open_box_has_the_three_edges_of_its_hole() {
    let report = run(&fixtures::open_box());
    assert_counts(&report, &[(OpenEdge, 3), (CoplanarEdge, 5)]);
    // The missing triangle was the +z face's second one: (0,0,1) (1,1,1) (0,1,1).
    let mut mids: Vec<[f64; 3]> = report
        .kind(OpenEdge)
        .items
        .iter()
        .map(|i| i.position.to_array())
        .collect();
    mids.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(mids, [[0.0, 0.5, 1.0], [0.5, 0.5, 1.0], [0.5, 1.0, 1.0]]);
    for item in &report.kind(OpenEdge).items {
        assert_eq!(item.triangles.len(), 1);
    }
}

#[test]
fn boxes_touching_along_an_edge_are_not_a_fault() {
    let report = run(&fixtures::boxes_sharing_an_edge());
    assert_counts(&report, &[(CoplanarEdge, 12)]);
}

#[test]
fn solids_cutting_into_each_other_at_an_edge_are_one_non_manifold_edge() {
    let mesh = fixtures::solids_cutting_at_an_edge();
    let report = run(&mesh);
    assert_counts(&report, &[(NonManifoldEdge, 1), (CoplanarEdge, 6)]);
    let item = &report.kind(NonManifoldEdge).items[0];
    assert!(near(item.position, [1.0, 1.0, 0.5]), "{item:?}");
    assert_eq!(item.triangles.len(), 4);
    assert_eq!(item.triangles.iter().filter(|&&t| t < 12).count(), 2);
    assert!((item.size - 1.0).abs() < 1e-9);
}

#[test]
fn a_fin_on_an_edge_is_non_manifold_with_its_open_rim() {
    let mut s = Soup::default();
    let c = s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    let tip = s.vertex(Vec3::new(1.5, 1.5, 0.5));
    s.triangles.push([c[3], c[7], tip]);
    let report = run(&s.mesh());
    assert_counts(
        &report,
        &[(NonManifoldEdge, 1), (OpenEdge, 2), (CoplanarEdge, 6)],
    );
    assert_eq!(report.kind(NonManifoldEdge).items[0].triangles.len(), 3);
}

#[test]
fn a_flipped_triangle_has_three_inconsistently_wound_edges() {
    let report = run(&fixtures::flipped_triangle());
    assert_counts(&report, &[(InconsistentWinding, 3), (CoplanarEdge, 5)]);
    for item in &report.kind(InconsistentWinding).items {
        assert!(
            item.triangles.contains(&0) && item.triangles.len() == 2,
            "{item:?}"
        );
    }
}

#[test]
fn a_split_top_edge_is_one_t_junction_and_no_open_edge() {
    // The front face's long top edge and the top's two short ones cover
    // each other: the box is sealed, its seam has a T-junction.
    let mesh = fixtures::t_junction();
    let report = run(&mesh);
    assert_counts(&report, &[(TJunction, 1), (CoplanarEdge, 7)]);
    let item = &report.kind(TJunction).items[0];
    assert!(near(item.position, [0.5, 1.0, 0.0]), "{item:?}");
    assert!(item.size < 1e-9);
    // The front face's triangle with the long edge, then the two top
    // triangles whose open edges end at the vertex.
    assert_eq!(item.triangles.len(), 3);
    let long = mesh.triangle(item.triangles[0]);
    assert!(long.iter().all(|p| p.z == 0.0));
    for &t in &item.triangles[1..] {
        assert!(mesh.triangle(t).iter().all(|p| p.y == 1.0));
    }
}

/// The open edges' midpoints, sorted.
fn open_midpoints(report: &HygieneReport) -> Vec<[f64; 3]> {
    let mut mids: Vec<[f64; 3]> = report
        .kind(OpenEdge)
        .items
        .iter()
        .map(|i| i.position.to_array())
        .collect();
    mids.sort_by(|a, b| a.partial_cmp(b).unwrap());
    mids
}

#[test]
fn a_t_split_floor_seam_is_sealed() {
    // One long edge against two collinear short ones: a T-junction at the
    // middle, and only the floor's four outer border edges are open.
    let report = run(&fixtures::t_split_floor());
    assert_counts(&report, &[(TJunction, 1), (OpenEdge, 4), (CoplanarEdge, 1)]);
    let item = &report.kind(TJunction).items[0];
    assert!(near(item.position, [1.0, 0.0, 0.0]), "{item:?}");
    assert_eq!(item.triangles[0], 0);
    assert_eq!(
        open_midpoints(&report),
        [
            [0.5, 0.0, -0.5],
            [0.5, 0.0, 0.5],
            [1.5, 0.0, -0.5],
            [1.5, 0.0, 0.5]
        ]
    );
    // Seams a millimetre-sized tolerance apart still seal.
    let off = fixtures::floor_seam(&[
        [
            Vec3::ZERO,
            Vec3::new(1.0, 0.0, -0.0004),
            Vec3::new(1.0, 0.0, -1.0),
        ],
        [
            Vec3::new(1.0, 0.0, -0.0004),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, -1.0),
        ],
    ]);
    assert_counts(
        &run(&off),
        &[(TJunction, 1), (OpenEdge, 4), (CoplanarEdge, 1)],
    );
}

#[test]
fn short_edges_shared_with_a_wall_seal_the_long_edge() {
    // The split side's short edges are each shared with a wall triangle
    // standing on the seam (wound to match): they are matched, and they
    // still cover the long edge.
    let mut s = Soup::default();
    let [a, b, c, m, d, w1, w2] = [
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, -1.0),
        Vec3::new(0.5, 1.0, 0.0),
        Vec3::new(1.5, 1.0, 0.0),
    ]
    .map(|p| s.vertex(p));
    s.triangles = vec![[a, b, c], [a, m, d], [m, b, d], [m, a, w1], [b, m, w2]];
    let report = run(&s.mesh());
    // Open: the floor's four outer edges and the wall triangles' two
    // free edges each; none of the seam.
    assert_counts(&report, &[(TJunction, 1), (OpenEdge, 8), (CoplanarEdge, 1)]);
    assert!(
        report
            .kind(OpenEdge)
            .items
            .iter()
            .all(|i| i.position.z != 0.0 || i.position.y != 0.0),
        "{:?}",
        report.kind(OpenEdge).items
    );
}

#[test]
fn a_crack_along_a_seam_is_open() {
    // The other side's edges run 1 cm off the long edge: a real crack.
    let d = Vec3::new(1.0, 0.0, -1.0);
    let (p, m, q) = (
        Vec3::new(0.0, 0.0, -0.01),
        Vec3::new(1.0, 0.0, -0.01),
        Vec3::new(2.0, 0.0, -0.01),
    );
    let report = run(&fixtures::floor_seam(&[[p, m, d], [m, q, d]]));
    assert_counts(&report, &[(OpenEdge, 7), (CoplanarEdge, 1)]);
    let long = report
        .kind(OpenEdge)
        .items
        .iter()
        .find(|i| near(i.position, [1.0, 0.0, 0.0]))
        .expect("the long edge is open");
    assert_eq!((long.triangles.as_slice(), long.size), (&[0][..], 2.0));
}

#[test]
fn a_partly_covered_edge_is_open_where_uncovered() {
    // One short triangle covers the first half of the long edge.
    let (m, d) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.5, 0.0, -1.0));
    let report = run(&fixtures::floor_seam(&[[Vec3::ZERO, m, d]]));
    assert_counts(&report, &[(TJunction, 1), (OpenEdge, 5)]);
    let long: Vec<&HygieneItem> = report
        .kind(OpenEdge)
        .items
        .iter()
        .filter(|i| i.triangles == [0] && i.position.y == 0.0 && i.position.z == 0.0)
        .collect();
    assert_eq!(long.len(), 1, "{long:?}");
    assert!(near(long[0].position, [1.5, 0.0, 0.0]), "{long:?}");
    assert!((long[0].size - 1.0).abs() < 1e-9, "{long:?}");
    // The short edge A-M lies on the long one: covered, not open.
    assert!(
        !open_midpoints(&report)
            .iter()
            .any(|p| near(DVec3::from(*p), [0.5, 0.0, 0.0]))
    );
}

#[test]
fn corners_0_7_mm_apart_are_one_near_miss() {
    let mesh = fixtures::near_miss();
    let report = run(&mesh);
    assert_counts(&report, &[(NearMiss, 1), (CoplanarEdge, 12)]);
    let item = &report.kind(NearMiss).items[0];
    assert!((item.size - 0.0004 * 3f64.sqrt()).abs() < 1e-6, "{item:?}");
    assert!(near(item.position, [1.0002; 3]), "{item:?}");
    let expected: Vec<u32> = (0..mesh.triangle_count() as u32)
        .filter(|&t| {
            mesh.triangle(t)
                .iter()
                .any(|p| p.distance(Vec3::splat(1.0002)) < 1e-3)
        })
        .collect();
    assert_eq!(item.triangles, expected);
    // A tolerance under their distance finds nothing.
    let tight = HygieneOptions {
        near_miss_m: 0.5e-3,
        ..HygieneOptions::default()
    };
    assert_eq!(analyse(&mesh, &tight).count(NearMiss), 0);
}

#[test]
fn a_triangle_1_mm_thin_is_one_sliver() {
    let (mesh, sliver) = fixtures::sliver();
    let report = run(&mesh);
    assert_counts(&report, &[(Sliver, 1), (CoplanarEdge, 9)]);
    let item = &report.kind(Sliver).items[0];
    assert_eq!(item.triangles, [sliver]);
    let want = (0.001f64 / 0.5).atan().to_degrees();
    assert!((item.size - want).abs() < 1e-3, "{item:?}");
}

#[test]
fn a_sunk_tetrahedron_flush_with_the_top_is_one_overlap() {
    let (mesh, box_top, tetra_top) = fixtures::overlap();
    let report = run(&mesh);
    assert_counts(&report, &[(Overlap, 1), (CoplanarEdge, 6)]);
    let item = &report.kind(Overlap).items[0];
    assert_eq!(item.triangles, [box_top, tetra_top]);
    assert!((item.size - 0.015).abs() < 1e-6, "{item:?}");
    assert!(near(item.position, [0.5, 1.0, 0.1]), "{item:?}");
}

#[test]
fn faces_of_opposite_sides_are_not_overlaps() {
    // A quad and its reverse: a two-sided wall. Its diagonal has four
    // triangles, alternately one way and the other: nothing is reported.
    let mut s = Soup::default();
    let v = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y].map(|p| s.vertex(p));
    s.triangles = vec![
        [v[0], v[1], v[2]],
        [v[0], v[2], v[3]],
        [v[2], v[1], v[0]],
        [v[3], v[2], v[0]],
    ];
    let report = run(&s.mesh());
    assert_counts(&report, &[]);
}

#[test]
fn lists_are_capped_while_counts_stay_exact() {
    let options = HygieneOptions {
        max_items_per_kind: 2,
        ..HygieneOptions::default()
    };
    let report = analyse(&fixtures::terrain(5), &options);
    let open = report.kind(OpenEdge);
    assert_eq!(
        (open.count, open.items.len(), open.truncated),
        (20, 2, true)
    );
}

#[test]
fn the_report_is_the_same_on_one_thread() {
    let mesh = fixtures::terrain(40);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let alone = one.install(|| run(&mesh));
    assert_eq!(alone, run(&mesh));
}

/// Internal edges of an `a` x `b` grid face: `a(b-1) + (a-1)b` grid lines
/// and `ab` diagonals, all coplanar.
fn grid_face_edges(a: u32, b: u32) -> usize {
    (a * (b - 1) + (a - 1) * b + a * b) as usize
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A tessellated box, turned, moved and scaled, welded or not, has no
    /// fault, and exactly its faces' internal edges are coplanar.
    #[test]
    fn transformed_grid_boxes_have_no_fault(
        size in prop::array::uniform3(1.0f64..4.0),
        divisions in prop::array::uniform3(1u32..5),
        axis in prop::array::uniform3(-1.0f64..1.0),
        angle in 0.0f64..6.3,
        offset in prop::array::uniform3(-500.0f64..500.0),
        unwelded in any::<bool>(),
    ) {
        let solid = grid_box(DVec3::ZERO, DVec3::from(size), divisions);
        let turn = glam::DQuat::from_axis_angle(
            DVec3::from(axis).try_normalize().unwrap_or(DVec3::Y),
            angle,
        );
        let mut s = Soup::default();
        for p in &solid.positions {
            s.vertex((turn * *p + DVec3::from(offset)).as_vec3());
        }
        s.triangles = solid.triangles.clone();
        if unwelded {
            let mut apart = Soup::default();
            for t in &s.triangles {
                let v = t.map(|i| apart.vertex(s.positions[i as usize]));
                apart.triangles.push(v);
            }
            s = apart;
        }
        let report = run(&s.mesh());
        let [x, y, z] = divisions;
        let coplanar = 2 * (grid_face_edges(y, z) + grid_face_edges(z, x) + grid_face_edges(x, y));
        prop_assert_eq!(report.faults, 0, "{:#?}", report.kinds);
        prop_assert_eq!(report.count(CoplanarEdge), coplanar);
    }
}

#[test]
fn thin_triangles_are_slivers_only_when_also_narrow() {
    // A 2 cm thin wall: 0.38° corners, 2 cm wide: deliberate.
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::new(3.0, 2.5, 0.02), &[]);
    assert_counts(&run(&s.mesh()), &[(CoplanarEdge, 6)]);
    // A 5 mm plate: its four thin faces are two 0.29° slivers each.
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.005), &[]);
    let report = run(&s.mesh());
    assert_counts(&report, &[(Sliver, 8), (CoplanarEdge, 6)]);
    for item in &report.kind(Sliver).items {
        assert!(
            (item.size - 0.005f64.atan().to_degrees()).abs() < 1e-3,
            "{item:?}"
        );
    }
}

#[test]
fn kind_names_are_the_json_names() {
    for kind in HygieneKind::ALL {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
        assert_eq!(kind.is_fault(), kind != CoplanarEdge);
    }
}

#[test]
fn a_box_wound_inside_out_is_one_inside_out_object() {
    let mut mesh = fixtures::clean_box();
    for t in &mut mesh.triangles {
        t.swap(1, 2);
    }
    let report = run(&mesh);
    assert_counts(&report, &[(InsideOut, 1), (CoplanarEdge, 6)]);
    let item = &report.kind(InsideOut).items[0];
    assert!((item.size + 1.0).abs() < 1e-9, "{item:?}");
    assert!(near(item.position, [0.5; 3]), "{item:?}");
    assert_eq!(item.triangles.len(), 12);
    let object = item.object.as_ref().unwrap();
    assert_eq!((object.triangles, object.of), (12, 12));
    // An open box has no inside: nothing to turn out.
    let mut open = fixtures::open_box();
    for t in &mut open.triangles {
        t.swap(1, 2);
    }
    assert_eq!(run(&open).count(InsideOut), 0);
}

/// The unit box as OBJ text with a `vn` per triangle along its outward
/// normal, each face wound along it or, `flipped`, against it.
fn box_obj(flipped: bool) -> String {
    use std::fmt::Write as _;
    let mesh = fixtures::clean_box();
    let mut s = String::from("o crate\n");
    for p in &mesh.positions {
        let _ = writeln!(s, "v {} {} {}", p.x, p.y, p.z);
    }
    for (t, &[a, b, c]) in mesh.triangles.iter().enumerate() {
        let n = mesh.triangle_normal(t as u32);
        let _ = writeln!(s, "vn {} {} {}", n.x, n.y, n.z);
        let corners = if flipped { [a, c, b] } else { [a, b, c] };
        let [a, b, c] = corners.map(|v| format!("{}//{}", v + 1, t + 1));
        let _ = writeln!(s, "f {a} {b} {c}");
    }
    s
}

fn import_and_analyse(text: &str) -> HygieneReport {
    let level = crate::level::import::import_obj_bytes(
        text.as_bytes(),
        std::path::Path::new("box.obj"),
        &crate::level::ImportOptions::default(),
    )
    .unwrap();
    analyse_with_normals(
        &level.0,
        &level.1.triangle_normals,
        &HygieneOptions::default(),
    )
}

#[test]
fn a_box_wound_against_its_normals_is_one_object_item() {
    let report = import_and_analyse(&box_obj(true));
    // Its normals say which way it faces: it is wound against them, which
    // is the fault to report, not that it is inside out.
    assert_counts(&report, &[(WoundAgainstNormals, 1), (CoplanarEdge, 6)]);
    let item = &report.kind(WoundAgainstNormals).items[0];
    assert_eq!(item.size, 1.0);
    assert_eq!(item.triangles, (0..12).collect::<Vec<u32>>());
    let object = item.object.as_ref().unwrap();
    assert_eq!(
        (object.name.as_str(), object.triangles, object.of),
        ("crate", 12, 12)
    );
}

#[test]
fn a_box_wound_along_its_normals_has_no_fault() {
    let report = import_and_analyse(&box_obj(false));
    assert_counts(&report, &[(CoplanarEdge, 6)]);
}

/// A fan of `n` fins round the edge (0, 0, 0)-(0, 1, 0): one non-manifold
/// edge of `n` triangles, the hub of every other edge.
fn fins(n: usize) -> TriMesh {
    let mut s = Soup::default();
    let (a, b) = (s.vertex(Vec3::ZERO), s.vertex(Vec3::Y));
    for i in 0..n {
        let angle = i as f32 / n as f32 * std::f32::consts::TAU;
        let rim = s.vertex(Vec3::new(angle.cos(), 0.5, angle.sin()));
        s.triangles.push([a, b, rim]);
    }
    s.mesh()
}

#[test]
fn a_fan_of_thousands_of_fins_is_one_non_manifold_edge_found_in_linear_time() {
    // Every edge but the axis ends at the hub: searching each edge's
    // neighbours by the edges at its ends was quadratic.
    let r = analyse(&fins(6000), &HygieneOptions::default());
    assert_eq!(r.count(NonManifoldEdge), 1);
    assert_eq!(r.kind(NonManifoldEdge).items[0].triangles.len(), 6000);
    // The spokes are covered by nothing: all open, each found.
    assert_eq!(r.count(OpenEdge), 12_000);
    assert_eq!(r.kind(OpenEdge).searches_cut, 0);
}

#[test]
fn a_stack_of_copies_stops_at_the_neighbour_limit_and_says_so() {
    // 3,000 copies of one triangle, shifted by micrometres: every copy
    // overlaps every other (4.5 million pairs), more than a linear search
    // may look at.
    let mut s = Soup::default();
    for i in 0..3000 {
        let d = Vec3::new(i as f32 * 1e-6, 0.0, 0.0);
        let c = [s.vertex(d), s.vertex(d + Vec3::Z), s.vertex(d + Vec3::X)];
        s.facing(c, Vec3::Y);
    }
    let r = analyse(&s.mesh(), &HygieneOptions::default());
    let overlap = r.kind(Overlap);
    assert!(overlap.searches_cut > 0, "{:?}", overlap.count);
    // A lower bound: each copy compared with its first few.
    assert!(overlap.count >= MAX_OVERLAP_CANDIDATES, "{}", overlap.count);
    assert!(overlap.count < 3000 * MAX_OVERLAP_CANDIDATES);
    assert!(overlap.items.len() <= HygieneOptions::default().max_items_per_kind);
}
