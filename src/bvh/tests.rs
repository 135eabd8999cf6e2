//! BVH tests: edge-case builds, corruption detection, and proptests that
//! compare every query with brute force over random triangle soups.

use super::build::MAX_LEAF;
use super::*;
use crate::mesh::MeshBuilder;
use proptest::prelude::*;

fn grid_mesh(n: usize) -> TriMesh {
    let mut b = MeshBuilder::new();
    b.object("floor");
    for i in 0..n {
        for j in 0..n {
            let (x, z) = (i as f32, j as f32);
            let y = ((i * 7 + j * 3) % 5) as f32 * 0.1;
            b.quad(
                Vec3::new(x, y, z),
                Vec3::new(x, y, z + 1.0),
                Vec3::new(x + 1.0, y, z + 1.0),
                Vec3::new(x + 1.0, y, z),
            );
        }
    }
    b.build()
}

fn query_sorted(bvh: &Bvh, boxes: &[Aabb], q: &Aabb) -> Vec<u32> {
    let mut out = Vec::new();
    bvh.query_aabb(
        boxes,
        q,
        &mut BvhScratch::default(),
        &mut out,
        None,
        &mut QueryStats::default(),
    );
    out.sort_unstable();
    out
}

fn brute_query(boxes: &[Aabb], q: &Aabb) -> Vec<u32> {
    (0..boxes.len() as u32)
        .filter(|&i| boxes[i as usize].overlaps(q))
        .collect()
}

fn brute_ray(mesh: &TriMesh, origin: Vec3, dir: Vec3, max_t: f32) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    for tri in 0..mesh.triangle_count() as u32 {
        let limit = best.map_or(max_t, |b| b.1);
        let hit = ray_triangle(origin, dir, mesh.triangle(tri), limit);
        if let Some((t, _, _)) = hit.filter(|h| best.is_none_or(|b| h.0 < b.1)) {
            best = Some((tri, t));
        }
    }
    best
}

fn cast(bvh: &Bvh, mesh: &TriMesh, origin: Vec3, dir: Vec3, max_t: f32) -> Option<RayHit> {
    bvh.ray_cast(
        mesh,
        origin,
        dir,
        max_t,
        &mut BvhScratch::default(),
        &mut QueryStats::default(),
    )
}

#[test]
fn node_is_two_aligned_cache_lines() {
    assert_eq!(std::mem::size_of::<BvhNode>(), 128);
    assert_eq!(std::mem::align_of::<BvhNode>(), 64);
}

#[test]
fn empty_input_builds_an_empty_tree_that_finds_nothing() {
    let bvh = Bvh::build(&[]);
    assert!(bvh.nodes.is_empty() && bvh.tri_indices.is_empty());
    bvh.validate(&[]).unwrap();
    let q = Aabb::from_corners(Vec3::splat(-1e9), Vec3::splat(1e9));
    assert!(query_sorted(&bvh, &[], &q).is_empty());
    assert!(
        cast(
            &bvh,
            &TriMesh::default(),
            Vec3::ZERO,
            Vec3::X,
            f32::INFINITY
        )
        .is_none()
    );
    assert_eq!(bvh.stats(), BvhStats::default());
    assert!(bvh.node_depths().is_empty());
}

#[test]
fn single_triangle_is_one_leaf() {
    let mesh = TriMesh::single_object("t", vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]]);
    let bvh = Bvh::build(&mesh.tri_aabbs);
    bvh.validate(&mesh.tri_aabbs).unwrap();
    assert_eq!(bvh.nodes.len(), 1);
    assert_eq!(bvh.nodes[0].slot(0), Slot::Leaf { first: 0, count: 1 });
    assert!((1..4).all(|k| bvh.nodes[0].slot(k) == Slot::Empty));
    assert_eq!(bvh.node_aabb(0), mesh.tri_aabbs[0]);
    let touching = Aabb::from_corners(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0));
    assert_eq!(query_sorted(&bvh, &mesh.tri_aabbs, &touching), vec![0]);
    let apart = Aabb::from_corners(Vec3::splat(1.5), Vec3::splat(2.0));
    assert!(query_sorted(&bvh, &mesh.tri_aabbs, &apart).is_empty());
    let hit = cast(&bvh, &mesh, Vec3::new(0.25, 0.25, 5.0), Vec3::NEG_Z, 10.0).unwrap();
    assert_eq!((hit.triangle, hit.t), (0, 5.0));
    assert_eq!(hit.uv, [0.25, 0.25]);
}

#[test]
fn identical_boxes_split_by_halving() {
    let boxes = vec![Aabb::from_corners(Vec3::ZERO, Vec3::ONE); 1000];
    let bvh = Bvh::build(&boxes);
    bvh.validate(&boxes).unwrap();
    let s = bvh.stats();
    assert!(s.leaf_size_histogram.len() <= MAX_LEAF + 1);
    assert!(s.max_depth <= 10, "depth {}", s.max_depth);
    let q = Aabb::from_corners(Vec3::splat(0.5), Vec3::splat(0.6));
    assert_eq!(query_sorted(&bvh, &boxes, &q).len(), 1000);
}

#[test]
fn non_finite_boxes_do_not_break_the_build() {
    let mut boxes = vec![Aabb::from_corners(Vec3::ZERO, Vec3::ONE); 20];
    boxes[3] = Aabb::EMPTY;
    boxes[5].max.x = f32::INFINITY;
    boxes[7].min.y = f32::NAN;
    boxes[9] = Aabb::from_corners(Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY));
    let bvh = Bvh::build(&boxes);
    bvh.validate(&boxes).unwrap();
    let q = Aabb::from_corners(Vec3::splat(0.5), Vec3::splat(0.6));
    assert_eq!(query_sorted(&bvh, &boxes, &q), brute_query(&boxes, &q));
}

#[test]
fn grid_stats_and_depths_are_consistent() {
    let mesh = grid_mesh(30);
    let bvh = Bvh::build(&mesh.tri_aabbs);
    bvh.validate(&mesh.tri_aabbs).unwrap();
    let s = bvh.stats();
    // Every node but the root hangs from one inner slot.
    let slots: Vec<Slot> = bvh
        .nodes
        .iter()
        .flat_map(|n| (0..4).map(|k| n.slot(k)))
        .collect();
    let inner = slots.iter().filter(|s| matches!(s, Slot::Inner(_))).count();
    let leaves = slots
        .iter()
        .filter(|s| matches!(s, Slot::Leaf { .. }))
        .count();
    assert_eq!((inner + 1, leaves), (s.nodes, s.leaves));
    // Collapsed from a binary tree: at least two slots per node in use.
    assert!(s.nodes * 2 <= inner + leaves + 1, "{} nodes", s.nodes);
    let total: usize = s
        .leaf_size_histogram
        .iter()
        .enumerate()
        .map(|(k, c)| k * c)
        .sum();
    assert_eq!(total, mesh.triangle_count());
    assert_eq!(s.leaf_size_histogram[0], 0);
    assert!(s.leaf_size_histogram.len() <= MAX_LEAF + 1);
    // Nodes, the triangle index and the leaf-ordered boxes.
    assert_eq!(
        s.memory_bytes,
        128 * s.nodes + (4 + 24) * mesh.triangle_count()
    );
    let depths = bvh.node_depths();
    assert_eq!(depths[0], 0);
    let mut deepest_leaf = 0;
    for (i, node) in bvh.nodes.iter().enumerate() {
        for (_, aabb, slot) in node.slots() {
            match slot {
                Slot::Inner(c) => {
                    assert_eq!(depths[c as usize], depths[i] + 1);
                    assert_eq!(bvh.node_aabb(c), aabb, "a slot's box is its node's");
                }
                Slot::Leaf { .. } => deepest_leaf = deepest_leaf.max(depths[i]),
                Slot::Empty => unreachable!("slots() skips empty slots"),
            }
        }
    }
    assert_eq!(s.max_depth as u32, deepest_leaf);
    // A balanced-ish tree over 1800 triangles: SAH keeps it far from a
    // list, and four children per node make it about half as deep as a
    // binary tree (which would be about 9 deep here).
    assert!(s.max_depth < 10, "depth {}", s.max_depth);
}

#[test]
fn visited_nodes_overlap_the_query_and_stats_count_tests() {
    let mesh = grid_mesh(20);
    let bvh = Bvh::build(&mesh.tri_aabbs);
    let q = Aabb::from_corners(Vec3::new(3.2, -1.0, 4.5), Vec3::new(5.1, 1.0, 6.0));
    let (mut out, mut visited, mut stats) = (Vec::new(), Vec::new(), QueryStats::default());
    let mut scratch = BvhScratch::default();
    bvh.query_aabb(
        &mesh.tri_aabbs,
        &q,
        &mut scratch,
        &mut out,
        Some(&mut visited),
        &mut stats,
    );
    assert!(!out.is_empty());
    assert!(visited[0] < 4, "the root's slots come first");
    for &id in &visited {
        assert!(bvh.slot_aabb(id).unwrap().overlaps(&q));
    }
    let mut unique = visited.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), visited.len());
    // A node is entered when a slot linking to it overlapped (the root always).
    let inner = visited
        .iter()
        .filter(|&&id| matches!(bvh.slot(id), Slot::Inner(_)));
    assert_eq!(stats.nodes_visited as usize, inner.count() + 1);
    assert!((stats.nodes_visited as usize) < bvh.nodes.len() / 4);
    let leaf_count = |&id: &u32| match bvh.slot(id) {
        Slot::Leaf { count, .. } => count,
        _ => 0,
    };
    let leaf_tris: u32 = visited.iter().map(leaf_count).sum();
    assert_eq!(stats.triangles_tested, leaf_tris);
    // The second identical query reuses the stack: same results, no growth.
    let cap = scratch.stack.capacity();
    let mut again = Vec::new();
    bvh.query_aabb(
        &mesh.tri_aabbs,
        &q,
        &mut scratch,
        &mut again,
        None,
        &mut QueryStats::default(),
    );
    assert_eq!((again, scratch.stack.capacity()), (out, cap));
}

#[test]
fn ray_cast_edge_cases() {
    let mesh = grid_mesh(10);
    let bvh = Bvh::build(&mesh.tri_aabbs);
    let down = cast(&bvh, &mesh, Vec3::new(2.5, 10.0, 3.5), Vec3::NEG_Y, 100.0).unwrap();
    let hit_point = Vec3::new(2.5, 10.0 - down.t, 3.5);
    assert!(
        mesh.tri_aabbs[down.triangle as usize]
            .expanded(1e-5)
            .contains_point(hit_point)
    );
    // Two-sided: from below as well.
    assert!(cast(&bvh, &mesh, Vec3::new(2.5, -10.0, 3.5), Vec3::Y, 100.0).is_some());
    // Too short, pointing away, in a plane parallel to the floor, degenerate input.
    assert!(cast(&bvh, &mesh, Vec3::new(2.5, 10.0, 3.5), Vec3::NEG_Y, 9.0).is_none());
    assert!(cast(&bvh, &mesh, Vec3::new(2.5, 10.0, 3.5), Vec3::Y, 100.0).is_none());
    assert!(cast(&bvh, &mesh, Vec3::new(-5.0, 5.0, 3.5), Vec3::X, 100.0).is_none());
    assert!(cast(&bvh, &mesh, Vec3::new(2.5, 10.0, 3.5), Vec3::ZERO, 100.0).is_none());
    assert!(cast(&bvh, &mesh, Vec3::new(2.5, 10.0, 3.5), Vec3::NAN, 100.0).is_none());
    assert!(
        cast(
            &bvh,
            &mesh,
            Vec3::new(2.5, 10.0, 3.5),
            Vec3::NEG_Y,
            f32::NAN
        )
        .is_none()
    );
    // Scaling the direction scales t.
    let slow = cast(
        &bvh,
        &mesh,
        Vec3::new(2.5, 10.0, 3.5),
        Vec3::NEG_Y * 0.5,
        100.0,
    )
    .unwrap();
    assert_eq!(slow.t, down.t * 2.0);
}

fn corrupt(f: impl FnOnce(&mut Bvh)) -> BvhError {
    let mesh = grid_mesh(6);
    let mut bvh = Bvh::build(&mesh.tri_aabbs);
    bvh.validate(&mesh.tri_aabbs).unwrap();
    f(&mut bvh);
    bvh.validate(&mesh.tri_aabbs).unwrap_err()
}

/// The node and slot of the first leaf.
fn first_leaf(bvh: &Bvh) -> (usize, usize) {
    let is_leaf = |n: &BvhNode, k| matches!(n.slot(k), Slot::Leaf { .. });
    let node = bvh.nodes.iter().position(|n| (0..4).any(|k| is_leaf(n, k)));
    let node = node.unwrap();
    (
        node,
        (0..4).find(|&k| is_leaf(&bvh.nodes[node], k)).unwrap(),
    )
}

/// The first inner slot of the root.
fn first_inner_slot(bvh: &Bvh) -> usize {
    let inner = |k: &usize| matches!(bvh.nodes[0].slot(*k), Slot::Inner(_));
    (0..4).find(inner).unwrap()
}

#[test]
fn validate_names_each_corruption() {
    use BvhError as E;
    let e = corrupt(|b| b.tri_indices.pop().map(|_| ()).unwrap());
    assert!(matches!(e, E::IndexCountMismatch { .. }), "{e}");
    let e = corrupt(|b| b.tri_indices[3] = b.tri_indices[4]);
    assert!(matches!(e, E::DuplicateTriangle { .. }), "{e}");
    let e = corrupt(|b| b.tri_indices[0] = 9999);
    assert!(
        matches!(e, E::TriangleOutOfRange { triangle: 9999, .. }),
        "{e}"
    );
    let e = corrupt(|b| {
        let k = first_inner_slot(b);
        b.nodes[0].child[k] = 0;
    });
    assert!(matches!(e, E::NodeReachedTwice { node: 0 }), "{e}");
    let e = corrupt(|b| {
        let k = first_inner_slot(b);
        b.nodes[0].child[k] = b.nodes.len() as u32;
    });
    assert!(matches!(e, E::ChildOutOfRange { .. }), "{e}");
    let e = corrupt(|b| b.nodes.push(b.nodes[1]));
    assert!(matches!(e, E::UnreachableNodes { count: 1, .. }), "{e}");
    let e = corrupt(|b| {
        let (n, k) = first_leaf(b);
        b.nodes[n].count[k] = 1000;
    });
    assert!(matches!(e, E::LeafRangeOutOfBounds { .. }), "{e}");
    let e = corrupt(|b| {
        let (n, k) = first_leaf(b);
        b.nodes[n].count[k] -= 1;
    });
    assert!(matches!(e, E::TriangleInNoLeaf { .. }), "{e}");
    let e = corrupt(|b| {
        let (n, k) = first_leaf(b);
        b.nodes[n].child[k] += 1;
    });
    assert!(
        matches!(
            e,
            E::OverlappingLeaves { .. }
                | E::TriangleInNoLeaf { .. }
                | E::TriangleOutsideLeaf { .. }
        ),
        "{e}"
    );
    let e = corrupt(|b| {
        let c = b.nodes[0].child[first_inner_slot(b)] as usize;
        b.nodes[c].max_y[0] += 100.0;
    });
    assert!(matches!(e, E::ChildOutsideParent { .. }), "{e}");
    let e = corrupt(|b| {
        let (n, k) = first_leaf(b);
        let leaf = &mut b.nodes[n];
        [leaf.max_x[k], leaf.max_y[k], leaf.max_z[k]] =
            [leaf.min_x[k], leaf.min_y[k], leaf.min_z[k]];
    });
    assert!(matches!(e, E::TriangleOutsideLeaf { .. }), "{e}");
    let e = corrupt(|b| {
        let node = b.nodes.iter().position(|n| n.is_empty_slot(3)).unwrap();
        b.nodes[node].min_x[3] = 0.0;
    });
    assert!(matches!(e, E::EmptySlotBox { .. }), "{e}");
    let e = corrupt(|b| b.nodes.clear());
    assert!(matches!(e, E::EmptyMismatch { nodes: 0, .. }), "{e}");
    let e = corrupt(|b| b.leaf_aabbs[2].max.x += 1.0);
    assert!(matches!(e, E::LeafBoxMismatch { position: 2, .. }), "{e}");
    let e = corrupt(|b| b.leaf_aabbs.pop().map(|_| ()).unwrap());
    assert!(
        matches!(
            e,
            E::LeafBoxMismatch {
                triangle: u32::MAX,
                ..
            }
        ),
        "{e}"
    );
}

/// Coordinates drawn so that ties are common: half snap to a coarse grid
/// (flat, axis-aligned and degenerate triangles, boxes that touch exactly).
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![(-8i32..=8).prop_map(|i| i as f32 * 0.5), -4.0f32..4.0]
}

fn point() -> impl Strategy<Value = Vec3> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn triangle() -> impl Strategy<Value = [Vec3; 3]> {
    prop_oneof![
        6 => [point(), point(), point()],
        // Flat in y, like floors.
        2 => (point(), point(), point()).prop_map(|(a, b, c)| [a, Vec3::new(b.x, a.y, b.z), Vec3::new(c.x, a.y, c.z)]),
        // Degenerate: a repeated corner, or a single point.
        1 => (point(), point()).prop_map(|(a, b)| [a, b, a]),
        1 => point().prop_map(|a| [a, a, a]),
    ]
}

fn soup() -> impl Strategy<Value = TriMesh> {
    prop::collection::vec(triangle(), 0..120).prop_map(|tris| {
        let positions: Vec<Vec3> = tris.iter().flatten().copied().collect();
        let triangles = (0..tris.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect();
        TriMesh::single_object("soup", positions, triangles)
    })
}

fn direction() -> impl Strategy<Value = Vec3> {
    prop_oneof![
        2 => point().prop_filter("non-zero", |d| *d != Vec3::ZERO),
        1 => (0usize..6).prop_map(|k| [Vec3::X, Vec3::Y, Vec3::Z, Vec3::NEG_X, Vec3::NEG_Y, Vec3::NEG_Z][k]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_soups_validate_and_queries_match_brute_force(
        mesh in soup(),
        boxes in prop::collection::vec((point(), point()), 8),
        rays in prop::collection::vec((point(), direction(), prop_oneof![Just(f32::INFINITY), 0.5f32..20.0]), 8),
    ) {
        let bvh = Bvh::build(&mesh.tri_aabbs);
        prop_assert_eq!(bvh.validate(&mesh.tri_aabbs), Ok(()));
        for (a, b) in boxes {
            let q = Aabb::from_corners(a, b);
            prop_assert_eq!(query_sorted(&bvh, &mesh.tri_aabbs, &q), brute_query(&mesh.tri_aabbs, &q));
        }
        for (origin, dir, max_t) in rays {
            let got = cast(&bvh, &mesh, origin, dir, max_t);
            let want = brute_ray(&mesh, origin, dir, max_t);
            match (got, want) {
                (None, None) => {}
                (Some(h), Some((_, t))) => {
                    // Through an edge or corner two triangles share, the
                    // cast takes the face met most squarely among hits
                    // within rounding of each other (`query::tie`), which
                    // need not be the one whose rounding came out nearest.
                    prop_assert!(
                        (h.t - t).abs() <= 1e-6 * (1.0 + t.abs()),
                        "bvh t {} vs brute force t {}",
                        h.t,
                        t
                    );
                    let again = ray_triangle(origin, dir, mesh.triangle(h.triangle), max_t);
                    prop_assert_eq!(again.map(|r| r.0), Some(h.t));
                }
                (g, w) => prop_assert!(false, "bvh {:?} vs brute force {:?}", g, w),
            }
        }
    }
}

/// The tree as bits: equal only if every node is the same, down to the sign
/// of a zero in a box.
fn node_bits(bvh: &Bvh) -> Vec<[[u32; 4]; 8]> {
    let bits = |v: [f32; 4]| v.map(f32::to_bits);
    bvh.nodes
        .iter()
        .map(|n| {
            let boxes = [n.min_x, n.min_y, n.min_z, n.max_x, n.max_y, n.max_z].map(bits);
            let [a, b, c, d, e, f] = boxes;
            [a, b, c, d, e, f, n.child, n.count]
        })
        .collect()
}

/// Builds in parallel, splitting ranges of more than `grain` triangles
/// between threads, and checks the result against the single-threaded build.
fn assert_parallel_build_is_identical(boxes: &[Aabb], max_leaf: usize, grain: usize) -> Bvh {
    let seq = Bvh::build_single_threaded(boxes, max_leaf);
    let par = build::parallel::build(boxes, max_leaf, grain);
    let par = Bvh::from_binary(par);
    assert_eq!(par.tri_indices, seq.tri_indices, "grain {grain}");
    assert!(
        node_bits(&par) == node_bits(&seq),
        "grain {grain}: nodes differ"
    );
    par.validate(boxes).unwrap();
    par
}

/// A triangle's box for the build tests, odd ones included: points (many
/// ties), one repeated box, empty, NaN and infinite coordinates.
fn build_box() -> impl Strategy<Value = Aabb> {
    let odd = prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(-0.0)
    ];
    prop_oneof![
        8 => (point(), point()).prop_map(|(a, b)| Aabb::from_corners(a, b)),
        2 => point().prop_map(|p| Aabb::from_corners(p, p)),
        1 => Just(Aabb::from_corners(Vec3::ZERO, Vec3::ONE)),
        1 => Just(Aabb::EMPTY),
        1 => (point(), 0usize..6, odd).prop_map(|(p, axis, v)| {
            let mut b = Aabb::from_corners(p, p + Vec3::ONE);
            if axis < 3 {
                b.min[axis] = v;
            } else {
                b.max[axis - 3] = v;
            }
            b
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Tiny grains send every level of small trees through the parallel
    /// path (divide, join, merge), odd boxes included.
    #[test]
    fn parallel_build_matches_the_single_threaded_one(
        boxes in prop::collection::vec(build_box(), 0..400),
        max_leaf in 1usize..9,
        grain in 0usize..48,
    ) {
        assert_parallel_build_is_identical(&boxes, max_leaf, grain);
    }
}

/// xorshift64*, for large deterministic meshes.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// `n` boxes in clusters of very different sizes and densities (so that
/// splits are unbalanced), one in 200 of them odd (empty, NaN, infinite).
fn clustered_boxes(n: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = Rng(seed);
    let mut boxes = Vec::with_capacity(n);
    while boxes.len() < n {
        let centre = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 1000.0;
        let spread = 0.1 + rng.unit() * 50.0;
        let count = 1 + (rng.unit() * rng.unit() * 20_000.0) as usize;
        for _ in 0..count.min(n - boxes.len()) {
            let p = centre + Vec3::new(rng.unit(), rng.unit(), rng.unit()) * spread;
            let size = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * spread * 0.05;
            boxes.push(match (rng.unit() * 200.0) as u32 {
                0 => Aabb::EMPTY,
                1 => Aabb::from_corners(Vec3::splat(f32::NAN), p),
                2 => Aabb::from_corners(p, Vec3::new(f32::INFINITY, p.y, p.z)),
                3 => Aabb::from_corners(Vec3::splat(f32::NEG_INFINITY), Vec3::splat(f32::INFINITY)),
                _ => Aabb::from_corners(p, p + size),
            });
        }
    }
    boxes
}

#[test]
fn large_parallel_builds_match_the_single_threaded_one() {
    // 150k boxes take the default grain's parallel path several levels deep.
    let boxes = clustered_boxes(150_000, 0x9e37_79b9_7f4a_7c15);
    let bvh = assert_parallel_build_is_identical(&boxes, MAX_LEAF, build::parallel::GRAIN);
    assert!(bvh.nodes.len() > 2 * (150_000 / build::parallel::GRAIN));
    for (seed, leaf, grain) in [(1, 1, 1000), (2, 4, 5000), (3, 8, 300)] {
        let boxes = clustered_boxes(40_000, seed);
        assert_parallel_build_is_identical(&boxes, leaf, grain);
    }
    // All centroids equal: every level is halved, none binned.
    let same = vec![Aabb::from_corners(Vec3::ZERO, Vec3::ONE); 20_000];
    assert_parallel_build_is_identical(&same, MAX_LEAF, 100);
    // `Bvh::build` is the parallel build with the default leaf and grain.
    let built = Bvh::build(&boxes_of_grid());
    let seq = Bvh::build_single_threaded(&boxes_of_grid(), Bvh::DEFAULT_MAX_LEAF);
    assert!(node_bits(&built) == node_bits(&seq));
}

fn boxes_of_grid() -> Vec<Aabb> {
    grid_mesh(120).tri_aabbs
}

/// The ray test is watertight and blind to winding: rays through the
/// shared edges and corners of a cut-up floor (each triangle wound at
/// random) always hit it, and turning a triangle over never changes whether
/// a ray hits it.
mod watertight {
    use super::*;

    fn floor(flips: &[bool]) -> Vec<[Vec3; 3]> {
        let mut out = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                let (x0, z0) = (i as f32 * 0.3, j as f32 * 0.3);
                let (x1, z1) = (x0 + 0.3, z0 + 0.3);
                let q = [
                    Vec3::new(x0, 0.0, z0),
                    Vec3::new(x1, 0.0, z0),
                    Vec3::new(x1, 0.0, z1),
                    Vec3::new(x0, 0.0, z1),
                ];
                out.push([q[0], q[1], q[2]]);
                out.push([q[0], q[2], q[3]]);
            }
        }
        for (t, &f) in out.iter_mut().zip(flips.iter().cycle()) {
            if f {
                t.swap(1, 2);
            }
        }
        out
    }

    proptest! {
        #[test]
        fn rays_through_edges_and_corners_never_fall_through(
            flips in prop::collection::vec(any::<bool>(), 7),
            i in 1u32..12,
            j in 1u32..12,
            lean in (-0.5f32..0.5, -0.5f32..0.5),
        ) {
            let tris = floor(&flips);
            // A point on the quads' edges and diagonals: (0.1 i, 0.1 j)
            // with i or j a multiple of 3 lies on an edge, i = j on a
            // diagonal; the rest are inside.
            let target = Vec3::new(0.1 * i as f32, 0.0, 0.1 * j as f32);
            let dir = Vec3::new(lean.0, -1.0, lean.1);
            let origin = target - dir * 2.0;
            let hits = tris
                .iter()
                .filter(|t| ray_triangle(origin, dir, **t, 10.0).is_some())
                .count();
            prop_assert!(hits >= 1, "fell through at {:?}", target);
        }

        #[test]
        fn turning_a_triangle_over_never_changes_a_hit(
            c in prop::array::uniform9(-5.0f32..5.0),
            o in prop::array::uniform3(-5.0f32..5.0),
            d in prop::array::uniform3(-1.0f32..1.0),
            on_edge in any::<bool>(),
        ) {
            let tri = [
                Vec3::new(c[0], c[1], c[2]),
                Vec3::new(c[3], c[4], c[5]),
                Vec3::new(c[6], c[7], c[8]),
            ];
            let origin = Vec3::from(o);
            // Aimed at the middle of an edge, or anywhere.
            let dir = if on_edge {
                (tri[0] + tri[1]) * 0.5 - origin
            } else {
                Vec3::from(d)
            };
            let a = ray_triangle(origin, dir, tri, 100.0);
            let b = ray_triangle(origin, dir, [tri[0], tri[2], tri[1]], 100.0);
            prop_assert_eq!(a.is_some(), b.is_some());
            if let (Some(a), Some(b)) = (a, b) {
                prop_assert!((a.0 - b.0).abs() <= 1e-5 * (1.0 + a.0.abs()));
            }
        }
    }
}

/// A level big enough for its leaf corners to go into huge pages (more
/// than 8 MiB of them) gets the same tree as one built without: the nodes
/// bit for bit, the same triangle order, and each leaf triangle's corners
/// and index those of the mesh.
#[test]
fn a_big_levels_tree_is_the_same_in_huge_pages() {
    let mesh = grid_mesh(340);
    assert!(mesh.triangle_count() * std::mem::size_of::<LeafTri>() > 8 << 20);
    let plain = Bvh::build(&mesh.tri_aabbs);
    let level = Bvh::build_for_mesh(&mesh);
    assert_eq!(node_bits(&level), node_bits(&plain));
    assert_eq!(level.tri_indices, plain.tri_indices);
    assert_eq!(level.leaf_tris.len(), mesh.triangle_count());
    for (k, leaf) in level.leaf_tris.iter().enumerate() {
        assert_eq!(leaf.tri, level.tri_indices[k]);
        assert_eq!(leaf.corners, mesh.triangle(leaf.tri));
    }
    assert_eq!(level.validate(&mesh.tri_aabbs), Ok(()));
}
