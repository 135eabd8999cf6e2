//! Bounding volumes per object (sphere, AABB, OBB), world space, and their
//! use as the first rejection level of a box query.
//!
//! Seed 003 ("Dealing with Complexity", bounding volumes): if a query misses
//! an object's bounding volume it misses the object; the sphere is the
//! simplest volume, the axis-aligned box is cheap but loose, and the
//! oriented box fits tighter. Here each object gets all three:
//!
//! - sphere: centred on the object's box, radius to its farthest vertex;
//! - AABB: the object's box, as the mesh stores it;
//! - OBB: principal component analysis of the object's triangle corners
//!   (the eigenvectors of their covariance, by Jacobi rotations), the box
//!   along those axes around every corner; when the world axes give a
//!   smaller box (an axis-aligned wall), those are kept: the smaller of the
//!   two fits by volume.
//!
//! Each volume contains every triangle of its object, so a query box that
//! misses a volume misses the object's triangles. Tests are done in `f64`
//! with the volumes widened by a relative 1e-6, so rounding never rejects an
//! object the query touches.

use crate::math::{Aabb, DVec3, Vec3};
use crate::mesh::TriMesh;

/// Relative widening of every volume (rounding safety).
const PAD: f64 = 1e-6;

/// An oriented box: centre, three orthonormal axes and the half extents along them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    /// Centre, world space.
    pub center: DVec3,
    /// Unit axes, orthonormal.
    pub axes: [DVec3; 3],
    /// Half extents along `axes`, metres (>= 0).
    pub half: DVec3,
}

impl Obb {
    /// The eight corners, world space.
    pub fn corners(&self) -> [DVec3; 8] {
        std::array::from_fn(|i| {
            let s = |bit: usize| if i & (1 << bit) != 0 { 1.0 } else { -1.0 };
            self.center
                + self.axes[0] * (s(0) * self.half.x)
                + self.axes[1] * (s(1) * self.half.y)
                + self.axes[2] * (s(2) * self.half.z)
        })
    }

    /// Volume in cubic metres.
    pub fn volume(&self) -> f64 {
        8.0 * self.half.x * self.half.y * self.half.z
    }

    /// `true` when the box overlaps `b` (separating axis test, 15 axes;
    /// touching counts).
    pub fn overlaps_aabb(&self, b: &Aabb) -> bool {
        let (bc, bh) = aabb_center_half(b);
        let world = [DVec3::X, DVec3::Y, DVec3::Z];
        let d = self.center - bc;
        let separated = |axis: DVec3| {
            if axis.length_squared() < 1e-18 {
                return false;
            }
            let r_obb: f64 = (0..3)
                .map(|k| self.half[k] * self.axes[k].dot(axis).abs())
                .sum();
            let r_box = bh.x * axis.x.abs() + bh.y * axis.y.abs() + bh.z * axis.z.abs();
            let reach = (r_obb + r_box) * (1.0 + PAD) + 1e-12;
            d.dot(axis).abs() > reach
        };
        let faces = world.iter().chain(self.axes.iter()).any(|&a| separated(a));
        let edges = world
            .iter()
            .flat_map(|w| self.axes.iter().map(move |a| w.cross(*a)))
            .any(separated);
        !(faces || edges)
    }
}

/// The three volumes of one object.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectVolumes {
    /// Bounding sphere centre, world space.
    pub sphere_center: DVec3,
    /// Bounding sphere radius, metres.
    pub sphere_radius: f64,
    /// The object's axis-aligned box.
    pub aabb: Aabb,
    /// The oriented box.
    pub obb: Obb,
    /// Number of the object's triangles.
    pub triangles: u32,
}

impl ObjectVolumes {
    /// `true` when the sphere overlaps `b` (touching counts).
    pub fn sphere_overlaps(&self, b: &Aabb) -> bool {
        let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
        let nearest = self.sphere_center.clamp(lo, hi);
        let r = self.sphere_radius * (1.0 + PAD) + 1e-12;
        nearest.distance_squared(self.sphere_center) <= r * r
    }
}

/// Triangles (of the objects) each volume rejected for one query box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejections {
    /// Objects tested.
    pub objects: u32,
    /// Triangles of the objects whose sphere the query misses.
    pub by_sphere: u32,
    /// Triangles of the objects whose AABB the query misses.
    pub by_aabb: u32,
    /// Triangles of the objects whose OBB the query misses.
    pub by_obb: u32,
    /// Triangles of the objects some volume rejects.
    pub by_any: u32,
    /// Triangles of the objects no volume rejects.
    pub kept: u32,
}

/// Sphere, AABB and OBB of every object of a mesh (`None` for an object with no triangles).
#[derive(Clone, Debug, Default)]
pub struct BoundingVolumes {
    /// One entry per mesh object.
    pub objects: Vec<Option<ObjectVolumes>>,
}

impl BoundingVolumes {
    /// Fits the three volumes to each object of `mesh`.
    pub fn build(mesh: &TriMesh) -> BoundingVolumes {
        let objects = mesh
            .objects()
            .iter()
            .map(|o| {
                let tris = o.first_triangle..o.first_triangle + o.triangle_count;
                let corners: Vec<DVec3> = tris
                    .flat_map(|t| mesh.triangle(t))
                    .map(Vec3::as_dvec3)
                    .collect();
                fit(&corners, o.aabb, o.triangle_count)
            })
            .collect();
        BoundingVolumes { objects }
    }

    /// Which objects a query box `query` can touch: `keep[o]` is `true`
    /// when no volume of object `o` rejects it. Counts, per volume, the
    /// triangles of the objects it rejects.
    pub fn reject(&self, query: &Aabb, keep: &mut Vec<bool>) -> Rejections {
        keep.clear();
        let mut r = Rejections::default();
        for v in &self.objects {
            let Some(v) = v else {
                keep.push(false);
                continue;
            };
            r.objects += 1;
            let by_aabb = !v.aabb.overlaps(query);
            let by_sphere = !v.sphere_overlaps(query);
            let by_obb = !v.obb.overlaps_aabb(query);
            let n = v.triangles;
            r.by_aabb += if by_aabb { n } else { 0 };
            r.by_sphere += if by_sphere { n } else { 0 };
            r.by_obb += if by_obb { n } else { 0 };
            let any = by_aabb || by_sphere || by_obb;
            r.by_any += if any { n } else { 0 };
            r.kept += if any { 0 } else { n };
            keep.push(!any);
        }
        r
    }

    /// Removes from `candidates` (triangles a broad phase found for `query`)
    /// those of objects a volume rejects, and returns the counts.
    pub fn filter(&self, mesh: &TriMesh, query: &Aabb, candidates: &mut Vec<u32>) -> Rejections {
        let mut keep = Vec::with_capacity(self.objects.len());
        let r = self.reject(query, &mut keep);
        candidates.retain(|&t| keep.get(mesh.object_of(t)).copied().unwrap_or(false));
        r
    }
}

fn aabb_center_half(b: &Aabb) -> (DVec3, DVec3) {
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    ((lo + hi) * 0.5, (hi - lo) * 0.5)
}

/// The three volumes around `corners` (the object's triangle corners).
fn fit(corners: &[DVec3], aabb: Aabb, triangles: u32) -> Option<ObjectVolumes> {
    if corners.is_empty() || aabb.is_empty() {
        return None;
    }
    let (center, half) = aabb_center_half(&aabb);
    let radius = corners
        .iter()
        .map(|p| p.distance(center))
        .fold(0.0, f64::max);
    let world = Obb {
        center,
        axes: [DVec3::X, DVec3::Y, DVec3::Z],
        half,
    };
    let pca = pca_box(corners);
    let obb = match pca {
        Some(p) if p.volume() < world.volume() => p,
        _ => world,
    };
    Some(ObjectVolumes {
        sphere_center: center,
        sphere_radius: radius,
        aabb,
        obb,
        triangles,
    })
}

/// The box along the principal axes of `points`.
fn pca_box(points: &[DVec3]) -> Option<Obb> {
    let n = points.len() as f64;
    let mean = points.iter().copied().sum::<DVec3>() / n;
    let mut cov = [[0.0f64; 3]; 3];
    for p in points {
        let d = *p - mean;
        for (i, row) in cov.iter_mut().enumerate() {
            for (j, c) in row.iter_mut().enumerate() {
                *c += d[i] * d[j] / n;
            }
        }
    }
    let axes = jacobi_eigenvectors(cov)?;
    let mut lo = DVec3::splat(f64::INFINITY);
    let mut hi = DVec3::splat(f64::NEG_INFINITY);
    for p in points {
        let q = DVec3::new(axes[0].dot(*p), axes[1].dot(*p), axes[2].dot(*p));
        lo = lo.min(q);
        hi = hi.max(q);
    }
    let mid = (lo + hi) * 0.5;
    let center = axes[0] * mid.x + axes[1] * mid.y + axes[2] * mid.z;
    let obb = Obb {
        center,
        axes,
        half: (hi - lo) * 0.5,
    };
    obb.center.is_finite().then_some(obb)
}

/// Orthonormal eigenvectors of a symmetric 3x3 matrix by cyclic Jacobi
/// rotations (Golub & Van Loan, "Matrix Computations", 8.5), or `None` if
/// the matrix is not finite.
fn jacobi_eigenvectors(mut a: [[f64; 3]; 3]) -> Option<[DVec3; 3]> {
    if a.iter().flatten().any(|x| !x.is_finite()) {
        return None;
    }
    let mut v = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _sweep in 0..32 {
        let off = a[0][1].powi(2) + a[0][2].powi(2) + a[1][2].powi(2);
        if off <= 1e-30 * (a[0][0].powi(2) + a[1][1].powi(2) + a[2][2].powi(2)) || off == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // A <- J^T A J, V <- V J (rotation in the p-q plane).
            for row in &mut a {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (row_p, row_q) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * row_p[k] - s * row_q[k];
                a[q][k] = s * row_p[k] + c * row_q[k];
            }
            for row in &mut v {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    let col = |k: usize| DVec3::new(v[0][k], v[1][k], v[2][k]).normalize_or_zero();
    let (x, y) = (col(0), col(1));
    // Re-orthogonalise: rounding leaves the columns a few ulps apart.
    let z = x.cross(y).normalize_or_zero();
    let y = z.cross(x);
    (x != DVec3::ZERO && z != DVec3::ZERO).then_some([x, y, z])
}
