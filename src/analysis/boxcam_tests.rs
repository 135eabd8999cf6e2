use super::*;
use glam::Vec3;
use proptest::prelude::*;

/// A mesh from objects given as lists of triangles (world corners).
fn mesh(objects: &[(&str, Vec<[[f32; 3]; 3]>)]) -> TriMesh {
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    let mut names = Vec::new();
    for (name, tris) in objects {
        for t in tris {
            let base = positions.len() as u32;
            positions.extend(t.iter().map(|&p| Vec3::from(p)));
            triangles.push([base, base + 1, base + 2]);
        }
        names.push((name.to_string(), tris.len() as u32));
    }
    TriMesh::new(positions, triangles, names)
}

/// A 10 m floor at y = 0 split along x = z: triangle 0 holds z <= x.
fn floor() -> Vec<[[f32; 3]; 3]> {
    vec![
        [[-5.0, 0.0, -5.0], [5.0, 0.0, -5.0], [5.0, 0.0, 5.0]],
        [[-5.0, 0.0, -5.0], [5.0, 0.0, 5.0], [-5.0, 0.0, 5.0]],
    ]
}

fn far_wall() -> Vec<[[f32; 3]; 3]> {
    vec![
        [[100.0, 0.0, -5.0], [100.0, 3.0, -5.0], [100.0, 3.0, 5.0]],
        [[100.0, 0.0, -5.0], [100.0, 3.0, 5.0], [100.0, 0.0, 5.0]],
    ]
}

fn verdict(r: &BoxCamReport, tri: u32) -> &TriangleVerdict {
    r.triangles.iter().find(|t| t.triangle == tri).unwrap()
}

#[test]
fn box_standing_in_the_floor_each_level_rejects_its_share() {
    let m = mesh(&[("floor", floor()), ("wall", far_wall())]);
    // Box 0.8 x 1.8 x 0.8 whose bottom is 0.4 m below the floor, clear of
    // the diagonal: its four vertical edges cross floor triangle 0.
    let camera = BoxCamera::around(DVec3::new(1.0, 0.5, 0.0), DVec3::new(0.4, 0.9, 0.4));
    let r = test_box(&m, camera);
    assert_eq!(r.objects_passed, vec![0]);
    assert_eq!(r.rejected, [2, 0, 0, 1]);
    assert_eq!(r.colliding, 1);
    let hit = verdict(&r, 0);
    assert_eq!(hit.rejected_at, None);
    // The edges along y are 4..8; each crosses the floor at its corner.
    assert_eq!(hit.surviving_edges, vec![4, 5, 6, 7]);
    let mut points: Vec<[f64; 3]> = r.points().map(|p| p.to_array()).collect();
    points.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(
        points,
        vec![
            [0.6, 0.0, -0.4],
            [0.6, 0.0, 0.4],
            [1.4, 0.0, -0.4],
            [1.4, 0.0, 0.4]
        ]
    );
    for h in &hit.hits {
        assert!((h.t - 0.4 / 1.8).abs() < 1e-12, "{}", h.t);
    }
    // Triangle 1: the same edges reach its plane, outside it.
    let other = verdict(&r, 1);
    assert_eq!(other.rejected_at, Some(RejectLevel::SegmentTriangle));
    assert!(other.hits.is_empty());
}

#[test]
fn level_two_rejects_a_far_triangle_of_a_near_object() {
    // One object: a floor piece under the box and one 40 m away.
    let tris = vec![
        [[0.0, 0.0, -1.0], [2.0, 0.0, -1.0], [2.0, 0.0, 1.0]],
        [[40.0, 0.0, 0.0], [41.0, 0.0, 0.0], [41.0, 0.0, 1.0]],
    ];
    let m = mesh(&[("pieces", tris)]);
    let camera = BoxCamera::around(DVec3::new(1.5, 0.5, -0.2), DVec3::new(0.4, 0.9, 0.4));
    let r = test_box(&m, camera);
    assert_eq!(r.rejected, [0, 1, 0, 0]);
    assert_eq!(r.colliding, 1);
    assert_eq!(r.triangles.len(), 1);
}

#[test]
fn what_the_document_misses_a_triangle_inside_and_a_pole_through_the_box() {
    // A small triangle wholly inside the box, and a thin pole (two long
    // thin triangles at x = 1) through its top and bottom faces: neither
    // touches an edge, so level 3 rejects both though they are in the box.
    let inside = vec![[[0.9, 0.4, -0.1], [1.1, 0.4, -0.1], [1.0, 0.6, 0.1]]];
    let pole = vec![
        [[1.0, -5.0, -0.05], [1.0, 5.0, -0.05], [1.0, 5.0, 0.05]],
        [[1.0, -5.0, -0.05], [1.0, 5.0, 0.05], [1.0, -5.0, 0.05]],
    ];
    let m = mesh(&[("inside", inside), ("pole", pole)]);
    let camera = BoxCamera::around(DVec3::new(1.0, 0.5, 0.0), DVec3::new(0.4, 0.9, 0.4));
    let r = test_box(&m, camera);
    assert_eq!(r.objects_passed, vec![0, 1]);
    assert_eq!(r.rejected, [0, 0, 3, 0]);
    assert_eq!(r.colliding, 0);
    assert!(r.triangles.iter().all(|t| t.surviving_edges.is_empty()));
}

#[test]
fn segment_against_triangle() {
    let tri = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
    ];
    // Through the inside at a quarter of the segment.
    let (t, p) =
        segment_triangle(DVec3::new(0.5, 0.5, -1.0), DVec3::new(0.5, 0.5, 3.0), tri).unwrap();
    assert!((t - 0.25).abs() < 1e-15);
    assert_eq!(p, DVec3::new(0.5, 0.5, 0.0));
    // Through the plane outside the triangle (r + s > 1).
    assert!(segment_triangle(DVec3::new(1.5, 1.5, -1.0), DVec3::new(1.5, 1.5, 1.0), tri).is_none());
    // Stops short of the plane.
    assert!(
        segment_triangle(DVec3::new(0.5, 0.5, -2.0), DVec3::new(0.5, 0.5, -1.0), tri).is_none()
    );
    // Parallel to the plane, and lying in it: no intersection.
    assert!(segment_triangle(DVec3::new(0.1, 0.1, 1.0), DVec3::new(1.0, 0.1, 1.0), tri).is_none());
    assert!(segment_triangle(DVec3::new(0.1, 0.1, 0.0), DVec3::new(1.0, 0.1, 0.0), tri).is_none());
    // A degenerate (zero-area) triangle.
    let flat = [tri[0], tri[1], tri[1]];
    assert!(
        segment_triangle(DVec3::new(0.5, 0.0, -1.0), DVec3::new(0.5, 0.0, 1.0), flat).is_none()
    );
}

/// A 10 m x 10 m grid at y = 1 of 100 cells, each holding one horizontal
/// triangle, its lower-left half: (i, j), (i + 1, j), (i, j + 1) in (x, z).
fn tiles() -> Vec<[[f32; 3]; 3]> {
    let mut tris = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            let (x, z) = (i as f32, j as f32);
            tris.push([[x, 1.0, z], [x + 1.0, 1.0, z], [x, 1.0, z + 1.0]]);
        }
    }
    tris
}

#[test]
fn chain_boxes_pass_far_fewer_triangles_than_one_box() {
    let m = mesh(&[("tiles", tiles())]);
    // Along the diagonal at the tiles' height, 1 m per segment.
    let path: Vec<DVec3> = (0..=10)
        .map(|k| DVec3::new(k as f64, 1.0, k as f64))
        .collect();
    let half = DVec3::new(0.2, 0.3, 0.35);
    let c = test_chain(&m, &path, half).unwrap();
    assert_eq!(c.segments.len(), 10);
    // One box around the path holds every tile; each segment's box only
    // the 3 x 3 cells around its own: the band |i - j| <= 2.
    assert_eq!(c.whole_box_candidates, 100);
    assert_eq!(c.segment_candidates, 44);
    // Segment k's vertical edges at (k + 1.2, k + 1.35) and (k + 1.2,
    // k - 0.35) stand in the lower-left halves of cells (k + 1, k + 1) and
    // (k + 1, k - 1); the other two corners fall in upper-right halves.
    assert_eq!(c.colliding_triangles, 9 + 8);
    assert_eq!(c.colliding_segments, 9);
    // One segment is the four levels on the swept box.
    let one = test_chain(&m, &path[..2], half).unwrap();
    let swept = BoxCamera::around(path[0], half).union(&BoxCamera::around(path[1], half));
    assert_eq!(one.segments[0].report, test_box(&m, swept));
}

#[test]
fn bad_chains_are_refused() {
    let m = mesh(&[("floor", floor())]);
    let h = DVec3::splat(0.5);
    assert_eq!(
        test_chain(&m, &[DVec3::ZERO], h).unwrap_err(),
        ChainError::TooShort(1)
    );
    let nan = [DVec3::ZERO, DVec3::new(f64::NAN, 0.0, 0.0)];
    assert_eq!(
        test_chain(&m, &nan, h).unwrap_err(),
        ChainError::NotFinite(1)
    );
    let two = [DVec3::ZERO, DVec3::X];
    assert_eq!(
        test_chain(&m, &two, DVec3::new(0.5, 0.0, 0.5)).unwrap_err(),
        ChainError::BadBox
    );
    let long = vec![DVec3::ZERO; MAX_CHAIN_SEGMENTS + 2];
    assert!(matches!(
        test_chain(&m, &long, h),
        Err(ChainError::TooLong(_))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every intersection point lies on its box edge and in its triangle's
    /// plane, and every triangle is counted by exactly one level or as a hit.
    #[test]
    fn hits_lie_on_edges_and_triangles(
        c in (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64),
        h in (0.1..2.0f64, 0.1..2.0f64, 0.1..2.0f64),
        corners in prop::collection::vec((-3.0..3.0f32, -3.0..3.0f32, -3.0..3.0f32), 9),
    ) {
        let tris: Vec<[[f32; 3]; 3]> = corners
            .chunks(3)
            .map(|k| [k[0].into(), k[1].into(), k[2].into()])
            .collect();
        let m = mesh(&[("a", tris[..2].to_vec()), ("b", tris[2..].to_vec())]);
        let camera = BoxCamera::around(DVec3::from(c), DVec3::from(h));
        let r = test_box(&m, camera);
        prop_assert_eq!(r.rejected.iter().sum::<usize>() + r.colliding, 3);
        for t in &r.triangles {
            let [a, b, cc] = m.triangle_f64(t.triangle);
            let n = (b - a).cross(cc - a).normalize();
            for hit in &t.hits {
                let (e0, e1) = camera.edge(hit.edge as usize);
                let on_edge = e0 + (e1 - e0) * hit.t;
                prop_assert!((on_edge - hit.point).length() < 1e-9);
                prop_assert!(n.dot(hit.point - a).abs() < 1e-6);
            }
        }
    }
}
