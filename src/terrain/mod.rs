//! Height-field terrain and height queries, world space (Y up, metres).
//!
//! Seed 003 ("Terrain Collision Detection") treats a height field as a 2D
//! uniform grid in x and z: the cell holding a point Q is found by
//! division, and the cell's diagonal (here from its `(0, 0)` corner to its
//! `(1, 1)` corner) tells which of its two triangles holds Q: with Q in the
//! cell's own `[0, 1]` coordinates, the upper-left triangle when
//! `Q_z > Q_x`, the lower-right one otherwise. The height is then given by
//! the triangle's plane equation, `Q_y = (-N_x Q_x - N_z Q_z + N . P0) / N_y`,
//! or by barycentric weights of the corners (the notes' `w1`, `w2` from
//! `S = Q - P0`, `V1 = P1 - P0`, `V2 = P2 - P0`, taken in the x-z plane,
//! `w0 = 1 - w1 - w2`); the two agree, and the tests check that they do.
//!
//! A triangulated irregular network (TIN, any triangle mesh) answers the
//! same question through a spatial index, as the notes suggest: the BVH
//! gives the triangles whose boxes the vertical line through Q crosses, and
//! the first whose barycentric weights are all non-negative holds Q
//! ([`tin_height`]; the highest surface wins where several overlap).
//!
//! - `png`: a grayscale PNG heightmap read into a [`HeightField`], with
//!   limits on size and clear errors.

mod png;
mod tin;

#[cfg(test)]
mod tests;

use crate::math::{DVec3, Vec3};
use crate::mesh::TriMesh;
pub use png::{MAX_SAMPLES, MAX_SIDE, import_png};
pub use tin::{TinHit, tin_height};

/// Heights on a regular x-z lattice: sample `(i, j)` is at
/// `(i * spacing, height, j * spacing)`, world space.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    /// Samples along x (>= 2).
    columns: u32,
    /// Samples along z (>= 2).
    rows: u32,
    /// Distance between neighbouring samples, metres (> 0).
    spacing: f64,
    /// Heights, metres, row by row (`j * columns + i`).
    heights: Vec<f32>,
}

/// Where a point lies on a height field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellHit {
    /// The cell's column and row (its `(0, 0)` corner is sample `(i, j)`).
    pub cell: [u32; 2],
    /// `true` for the upper-left triangle (`Q_z > Q_x` in the cell).
    pub upper_left: bool,
    /// Index of that triangle in [`HeightField::to_mesh`]'s mesh.
    pub triangle: u32,
    /// The point in the cell's own coordinates, each in `[0, 1]`.
    pub local: [f64; 2],
}

impl HeightField {
    /// A field of `columns x rows` samples (each >= 2, `heights` row by row,
    /// finite) `spacing` metres apart (finite, > 0); `None` otherwise.
    pub fn new(columns: u32, rows: u32, spacing: f64, heights: Vec<f32>) -> Option<HeightField> {
        let ok = columns >= 2
            && rows >= 2
            && heights.len() == columns as usize * rows as usize
            && spacing.is_finite()
            && spacing > 0.0
            && heights.iter().all(|h| h.is_finite());
        ok.then_some(HeightField {
            columns,
            rows,
            spacing,
            heights,
        })
    }

    /// Samples along x and z.
    pub fn size(&self) -> [u32; 2] {
        [self.columns, self.rows]
    }

    /// Distance between samples, metres.
    pub fn spacing(&self) -> f64 {
        self.spacing
    }

    /// The sample at column `i`, row `j`, world space.
    pub fn sample(&self, i: u32, j: u32) -> DVec3 {
        let h = self.heights[(j * self.columns + i) as usize];
        DVec3::new(i as f64 * self.spacing, h as f64, j as f64 * self.spacing)
    }

    /// The two triangles of every cell, cell by cell, lower-right first;
    /// one object named `name`. Counter-clockwise seen from above.
    pub fn to_mesh(&self, name: &str) -> TriMesh {
        let positions = (0..self.rows)
            .flat_map(|j| (0..self.columns).map(move |i| (i, j)))
            .map(|(i, j)| self.sample(i, j).as_vec3())
            .collect::<Vec<Vec3>>();
        let mut triangles = Vec::with_capacity(2 * self.cell_count());
        for j in 0..self.rows - 1 {
            for i in 0..self.columns - 1 {
                let [p00, p10, p01, p11] = self.corner_ids(i, j);
                triangles.push([p00, p11, p10]);
                triangles.push([p00, p01, p11]);
            }
        }
        TriMesh::single_object(name, positions, triangles)
    }

    fn cell_count(&self) -> usize {
        (self.columns as usize - 1) * (self.rows as usize - 1)
    }

    /// Sample indices of a cell's corners `(0,0), (1,0), (0,1), (1,1)`.
    fn corner_ids(&self, i: u32, j: u32) -> [u32; 4] {
        let id = |i: u32, j: u32| j * self.columns + i;
        [id(i, j), id(i + 1, j), id(i, j + 1), id(i + 1, j + 1)]
    }

    /// The cell and triangle holding the point `(x, z)`, or `None` outside
    /// the field (or not finite). Points on the far edges belong to the last cell.
    pub fn locate(&self, x: f64, z: f64) -> Option<CellHit> {
        let (u, v) = (x / self.spacing, z / self.spacing);
        let (max_u, max_v) = ((self.columns - 1) as f64, (self.rows - 1) as f64);
        if !(u >= 0.0 && v >= 0.0 && u <= max_u && v <= max_v) {
            return None;
        }
        let i = (u.floor() as u32).min(self.columns - 2);
        let j = (v.floor() as u32).min(self.rows - 2);
        let local = [u - i as f64, v - j as f64];
        let upper_left = local[1] > local[0];
        let cell_index = j as usize * (self.columns as usize - 1) + i as usize;
        Some(CellHit {
            cell: [i, j],
            upper_left,
            triangle: (2 * cell_index + upper_left as usize) as u32,
            local,
        })
    }

    /// The corners of the triangle `hit` names, in the mesh's order.
    pub fn triangle(&self, hit: &CellHit) -> [DVec3; 3] {
        let [i, j] = hit.cell;
        let s = |(di, dj): (u32, u32)| self.sample(i + di, j + dj);
        if hit.upper_left {
            [s((0, 0)), s((0, 1)), s((1, 1))]
        } else {
            [s((0, 0)), s((1, 1)), s((1, 0))]
        }
    }

    /// Terrain height under `(x, z)` by the triangle's plane equation.
    pub fn height_by_plane(&self, x: f64, z: f64) -> Option<f64> {
        let hit = self.locate(x, z)?;
        let [p0, p1, p2] = self.triangle(&hit);
        let n = (p1 - p0).cross(p2 - p0);
        // n.y is spacing^2 (or minus it): never zero on a height field.
        Some((-n.x * x - n.z * z + n.dot(p0)) / n.y)
    }

    /// Terrain height under `(x, z)` by barycentric weights.
    pub fn height_by_barycentric(&self, x: f64, z: f64) -> Option<f64> {
        let hit = self.locate(x, z)?;
        let tri = self.triangle(&hit);
        let w = barycentric_xz(tri, x, z)?;
        Some(w[0] * tri[0].y + w[1] * tri[1].y + w[2] * tri[2].y)
    }
}

/// Barycentric weights `[w0, w1, w2]` of the point `(x, z)` in the triangle
/// projected on the x-z plane (seed 003's formulas), or `None` when the
/// projection is degenerate (a vertical triangle).
pub fn barycentric_xz(tri: [DVec3; 3], x: f64, z: f64) -> Option<[f64; 3]> {
    let flat = |p: DVec3| glam::DVec2::new(p.x, p.z);
    let p0 = flat(tri[0]);
    let (v1, v2) = (flat(tri[1]) - p0, flat(tri[2]) - p0);
    let s = glam::DVec2::new(x, z) - p0;
    let (v11, v22, v12) = (v1.dot(v1), v2.dot(v2), v1.dot(v2));
    let det = v11 * v22 - v12 * v12;
    // Relative to the edges' size: a sliver seen from above has no weights.
    if det.abs() <= 1e-12 * v11 * v22 || !det.is_finite() {
        return None;
    }
    let (sv1, sv2) = (s.dot(v1), s.dot(v2));
    let w1 = (v22 * sv1 - v12 * sv2) / det;
    let w2 = (-v12 * sv1 + v11 * sv2) / det;
    Some([1.0 - w1 - w2, w1, w2])
}
