//! Small meshes built in code, each holding exactly one kind of fault (and
//! what that fault cannot come without, e.g. the open edges along a
//! T-junction's crack), for the tests in `tests.rs`.

use crate::math::Vec3;
use crate::mesh::TriMesh;

/// Positions and triangles under construction.
#[derive(Default)]
pub(super) struct Soup {
    pub positions: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
}

/// The faces of a unit box over corners `x + 2y + 4z`, each in cyclic
/// order with its outward direction.
const BOX_FACES: [([u32; 4], [f32; 3]); 6] = [
    ([0, 2, 6, 4], [-1.0, 0.0, 0.0]),
    ([1, 3, 7, 5], [1.0, 0.0, 0.0]),
    ([0, 1, 5, 4], [0.0, -1.0, 0.0]),
    ([2, 3, 7, 6], [0.0, 1.0, 0.0]),
    ([0, 1, 3, 2], [0.0, 0.0, -1.0]),
    ([4, 5, 7, 6], [0.0, 0.0, 1.0]),
];
/// The index of the top (+y) face in [`BOX_FACES`].
pub(super) const TOP: usize = 3;

impl Soup {
    pub fn vertex(&mut self, p: Vec3) -> u32 {
        self.positions.push(p);
        self.positions.len() as u32 - 1
    }

    /// Adds triangle `t`, wound so that its normal points along `out`.
    pub fn facing(&mut self, [a, b, c]: [u32; 3], out: Vec3) -> u32 {
        let p = |i: u32| self.positions[i as usize];
        let n = (p(b) - p(a)).cross(p(c) - p(a));
        let t = if n.dot(out) >= 0.0 {
            [a, b, c]
        } else {
            [a, c, b]
        };
        self.triangles.push(t);
        self.triangles.len() as u32 - 1
    }

    /// The 8 corners of the box `min`..`min + size`, as `x + 2y + 4z`.
    pub fn corners(&mut self, min: Vec3, size: Vec3) -> [u32; 8] {
        std::array::from_fn(|i| {
            let bit = |k: usize| ((i >> k) & 1) as f32;
            self.vertex(min + size * Vec3::new(bit(0), bit(1), bit(2)))
        })
    }

    /// A closed, outward box of 12 triangles (each face split along its
    /// first-to-third corner diagonal), leaving out the faces in `skip`.
    pub fn closed_box(&mut self, min: Vec3, size: Vec3, skip: &[usize]) -> [u32; 8] {
        let c = self.corners(min, size);
        for (f, (q, out)) in BOX_FACES.iter().enumerate() {
            if skip.contains(&f) {
                continue;
            }
            let q = q.map(|k| c[k as usize]);
            self.facing([q[0], q[1], q[2]], Vec3::from(*out));
            self.facing([q[0], q[2], q[3]], Vec3::from(*out));
        }
        c
    }

    pub fn mesh(self) -> TriMesh {
        TriMesh::single_object("fixture", self.positions, self.triangles)
    }
}

/// The unit box at the origin.
pub(super) fn clean_box() -> TriMesh {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    s.mesh()
}

/// The unit box with every triangle on corners of its own (as an unwelded
/// OBJ or [`crate::mesh::MeshBuilder`] gives).
pub(super) fn unwelded_box() -> TriMesh {
    let welded = clean_box();
    let mut s = Soup::default();
    for t in 0..welded.triangle_count() as u32 {
        let [a, b, c] = welded.triangle(t);
        let v = [a, b, c].map(|p| s.vertex(p));
        s.triangles.push(v);
    }
    s.mesh()
}

/// A grid heightfield of `n` x `n` one-metre cells, open along its border.
pub(super) fn terrain(n: u32) -> TriMesh {
    let mut s = Soup::default();
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f32, j as f32);
            let y = 0.6 * (0.9 * x).sin() * (0.7 * z).cos() + 0.08 * x;
            s.vertex(Vec3::new(x, y, z));
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            let q = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            s.facing([q[0], q[1], q[2]], Vec3::Y);
            s.facing([q[0], q[2], q[3]], Vec3::Y);
        }
    }
    s.mesh()
}

/// A closed box whose top face has a vertex in the middle of its front
/// edge that the front face does not have: one T-junction at (0.5, 1, 0).
pub(super) fn t_junction() -> TriMesh {
    let mut s = Soup::default();
    let c = s.closed_box(Vec3::ZERO, Vec3::ONE, &[TOP]);
    let m = s.vertex(Vec3::new(0.5, 1.0, 0.0));
    let [a, b, cc, d] = [c[2], c[3], c[7], c[6]];
    for t in [[a, m, d], [m, cc, d], [m, b, cc]] {
        s.facing(t, Vec3::Y);
    }
    s.mesh()
}

/// Two unit boxes touching along one edge (x = 1, y = 1): four triangles
/// on the edge, alternately one way and the other, which is not a fault.
pub(super) fn boxes_sharing_an_edge() -> TriMesh {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    s.closed_box(Vec3::new(1.0, 1.0, 0.0), Vec3::ONE, &[]);
    s.mesh()
}

/// The unit box and a closed tetrahedron on its edge x = 1, y = 1 that
/// cuts into it (its wedge spans 225° to 315° around the edge, the box's
/// 180° to 270°): one non-manifold edge with four triangles.
pub(super) fn solids_cutting_at_an_edge() -> TriMesh {
    let mut s = Soup::default();
    let c = s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    let side = |deg: f32| {
        let r = deg.to_radians();
        Vec3::new(1.0 + 0.5 * r.cos(), 1.0 + 0.5 * r.sin(), 0.5)
    };
    let (p, q) = (s.vertex(side(225.0)), s.vertex(side(315.0)));
    let v = [c[3], c[7], p, q];
    let centre = v.iter().map(|&i| s.positions[i as usize]).sum::<Vec3>() / 4.0;
    for t in [
        [v[0], v[1], v[2]],
        [v[0], v[1], v[3]],
        [v[0], v[2], v[3]],
        [v[1], v[2], v[3]],
    ] {
        let mid = t.iter().map(|&i| s.positions[i as usize]).sum::<Vec3>() / 3.0;
        s.facing(t, mid - centre);
    }
    s.mesh()
}

/// Two closed unit boxes whose nearest corners are 0.4 mm apart on each
/// axis (0.69 mm): one near miss.
pub(super) fn near_miss() -> TriMesh {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    s.closed_box(Vec3::splat(1.0004), Vec3::ONE, &[]);
    s.mesh()
}

/// A closed box whose top is a fan around a vertex 1 mm from its front
/// edge: the front triangle is a 0.11° sliver.
pub(super) fn sliver() -> (TriMesh, u32) {
    let mut s = Soup::default();
    let c = s.closed_box(Vec3::ZERO, Vec3::ONE, &[TOP]);
    let m = s.vertex(Vec3::new(0.5, 1.0, 0.001));
    let sliver = s.facing([c[2], c[3], m], Vec3::Y);
    for t in [[c[3], c[7], m], [c[7], c[6], m], [c[6], c[2], m]] {
        s.facing(t, Vec3::Y);
    }
    (s.mesh(), sliver)
}

/// A closed box with a closed tetrahedron sunk into it whose top face lies
/// in the box's top face, facing up: one overlap of 0.015 m².
pub(super) fn overlap() -> (TriMesh, u32, u32) {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    let top = [
        Vec3::new(0.4, 1.0, 0.05),
        Vec3::new(0.6, 1.0, 0.05),
        Vec3::new(0.5, 1.0, 0.2),
    ];
    let apex = Vec3::new(0.5, 0.8, 0.1);
    let centre = (top[0] + top[1] + top[2] + apex) / 4.0;
    let v = [top[0], top[1], top[2], apex].map(|p| s.vertex(p));
    let tetra_top = s.facing([v[0], v[1], v[2]], Vec3::Y);
    for t in [[v[0], v[1], v[3]], [v[1], v[2], v[3]], [v[2], v[0], v[3]]] {
        let p = t.map(|i| s.positions[i as usize]);
        s.facing(t, (p[0] + p[1] + p[2]) / 3.0 - centre);
    }
    // The box's top triangle holding the tetrahedron's top: the one on the
    // front edge (corners 2 and 3), split along the 2-7 diagonal.
    let box_top = (TOP * 2) as u32;
    (s.mesh(), box_top, tetra_top)
}

/// The unit box with its first triangle turned over: three inconsistently
/// wound edges, all on triangle 0.
pub(super) fn flipped_triangle() -> TriMesh {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    s.triangles[0].swap(1, 2);
    s.mesh()
}

/// The unit box without its last triangle: three open edges.
pub(super) fn open_box() -> TriMesh {
    let mut s = Soup::default();
    s.closed_box(Vec3::ZERO, Vec3::ONE, &[]);
    s.triangles.pop();
    s.mesh()
}

/// A flat floor (facing +y) of one big triangle on the long edge A-B,
/// (0,0,0)-(2,0,0), and on the other side of that edge the triangles in
/// `others` (corners as positions), for the seam tests: the long edge is
/// triangle 0.
pub(super) fn floor_seam(others: &[[Vec3; 3]]) -> TriMesh {
    let mut s = Soup::default();
    let [a, b, c] = [
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
    ]
    .map(|p| s.vertex(p));
    s.facing([a, b, c], Vec3::Y);
    for t in others {
        // Corners at the same position as A or B are welded by the analysis.
        let v = t.map(|p| s.vertex(p));
        s.facing(v, Vec3::Y);
    }
    s.mesh()
}

/// [`floor_seam`] split as a BSP compiler splits: two triangles whose
/// edges (0,0,0)-(1,0,0) and (1,0,0)-(2,0,0) cover the long edge, meeting
/// at its middle M = (1,0,0).
pub(super) fn t_split_floor() -> TriMesh {
    let (a, m, b, d) = (
        Vec3::ZERO,
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, -1.0),
    );
    floor_seam(&[[a, m, d], [m, b, d]])
}
