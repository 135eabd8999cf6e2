//! Closed solids in world space (`f64` while building): tessellated boxes and
//! prisms extruded from a 2D outline.
//!
//! Every solid is a closed, consistently wound triangle mesh: each edge is
//! shared by exactly two of its triangles, in opposite directions, and every
//! triangle is counter-clockwise seen from outside. Solids share vertices by
//! index inside themselves (so closedness is checkable by index) and never
//! with each other.

use glam::{DVec2, DVec3};
use std::collections::HashMap;

/// A closed triangle mesh under construction, world space, `f64`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solid {
    /// Vertex positions, world space.
    pub positions: Vec<DVec3>,
    /// Counter-clockwise (seen from outside) triangles indexing `positions`.
    pub triangles: Vec<[u32; 3]>,
}

impl Solid {
    /// Appends `other`'s vertices and triangles (it stays a separate component).
    pub fn append(&mut self, other: &Solid) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.triangles
            .extend(other.triangles.iter().map(|t| t.map(|i| i + base)));
    }

    /// The same solid moved by `offset`.
    pub fn translated(mut self, offset: DVec3) -> Solid {
        for p in &mut self.positions {
            *p += offset;
        }
        self
    }

    /// The same solid turned by `quarter_turns` x 90 degrees about the
    /// vertical axis through the origin (+x towards -z, right-handed about +y).
    /// Quarter turns are exact, so grid-aligned parts stay on the grid.
    pub fn turned(mut self, quarter_turns: u32) -> Solid {
        for p in &mut self.positions {
            for _ in 0..quarter_turns % 4 {
                *p = DVec3::new(p.z, p.y, -p.x);
            }
        }
        self
    }

    /// The same solid turned by `angle_rad` about the vertical axis through
    /// `pivot` (+x towards -z for a positive angle, as [`Solid::turned`]).
    pub fn rotated_y(mut self, angle_rad: f64, pivot: DVec3) -> Solid {
        let (sin, cos) = angle_rad.sin_cos();
        for p in &mut self.positions {
            let d = *p - pivot;
            *p = pivot + DVec3::new(cos * d.x + sin * d.z, d.y, -sin * d.x + cos * d.z);
        }
        self
    }

    /// The same solid with every triangle turned over (wound inside out).
    pub fn flipped(mut self) -> Solid {
        for t in &mut self.triangles {
            t.swap(1, 2);
        }
        self
    }

    /// Signed volume (divergence theorem): positive when the triangles face
    /// outwards.
    pub fn signed_volume(&self) -> f64 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.positions[i as usize]);
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }
}

/// Where a 2D outline lives in the world: a point `(s, t)` at depth `w` is
/// `origin + s * u + t * v + w * normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// World position of the outline's `(0, 0)` at depth 0.
    pub origin: DVec3,
    /// World direction of the outline's first axis.
    pub u: DVec3,
    /// World direction of the outline's second axis.
    pub v: DVec3,
    /// World direction of the extrusion.
    pub normal: DVec3,
}

impl Frame {
    /// Outline in the vertical plane through `origin`: `s` along +x, `t` up,
    /// extruded along +z.
    pub fn xy(origin: DVec3) -> Frame {
        Frame {
            origin,
            u: DVec3::X,
            v: DVec3::Y,
            normal: DVec3::Z,
        }
    }

    /// Outline in the vertical plane through `origin`: `s` along +z, `t` up,
    /// extruded along +x.
    pub fn zy(origin: DVec3) -> Frame {
        Frame {
            origin,
            u: DVec3::Z,
            v: DVec3::Y,
            normal: DVec3::X,
        }
    }

    /// Outline on the ground plane through `origin`: `s` along +x, `t` along
    /// +z, extruded upwards.
    pub fn xz(origin: DVec3) -> Frame {
        Frame {
            origin,
            u: DVec3::X,
            v: DVec3::Z,
            normal: DVec3::Y,
        }
    }

    fn point(&self, p: DVec2, w: f64) -> DVec3 {
        self.origin + self.u * p.x + self.v * p.y + self.normal * w
    }

    /// `true` when `(u, v, normal)` is a right-handed basis.
    fn right_handed(&self) -> bool {
        self.u.cross(self.v).dot(self.normal) > 0.0
    }
}

/// Twice the signed area of a 2D polygon (positive when counter-clockwise).
fn signed_area2(points: impl Iterator<Item = DVec2> + Clone) -> f64 {
    let next = points.clone().cycle().skip(1);
    points.zip(next).map(|(a, b)| a.perp_dot(b)).sum()
}

/// Triangulates a convex polygon (indices into `points`, either winding) as
/// a fan, from an apex chosen so that no triangle is degenerate even when
/// the polygon has collinear vertices. Triangles keep the polygon's winding.
fn convex_fan(poly: &[usize], points: &[DVec2]) -> Vec<[usize; 3]> {
    let n = poly.len();
    let area =
        |a: usize, b: usize, c: usize| (points[b] - points[a]).perp_dot(points[c] - points[a]);
    let fan_from = |apex: usize| -> Vec<[usize; 3]> {
        (1..n - 1)
            .map(|k| [poly[apex], poly[(apex + k) % n], poly[(apex + k + 1) % n]])
            .collect()
    };
    let scale = poly
        .iter()
        .map(|&i| points[i].abs().max_element())
        .fold(1.0, f64::max);
    let eps = 1e-12 * scale * scale;
    (0..n)
        .map(fan_from)
        .find(|tris| tris.iter().all(|t| area(t[0], t[1], t[2]).abs() > eps))
        .unwrap_or_else(|| fan_from(0))
}

/// Extrudes a simple 2D `outline` from depth `w0` to `w1` along the frame's
/// normal. `pieces` split the outline's interior into convex polygons whose
/// corners are outline vertices (so the caps have no T-junctions); a convex
/// outline is its own single piece. Collinear outline vertices are allowed.
pub fn prism(outline: &[DVec2], pieces: &[Vec<usize>], frame: &Frame, w0: f64, w1: f64) -> Solid {
    let n = outline.len();
    let mut positions: Vec<DVec3> = outline.iter().map(|&p| frame.point(p, w0)).collect();
    positions.extend(outline.iter().map(|&p| frame.point(p, w1)));
    let ccw = signed_area2(outline.iter().copied()) > 0.0;
    let mut triangles = Vec::new();
    for piece in pieces {
        let piece_ccw = signed_area2(piece.iter().map(|&i| outline[i])) > 0.0;
        for [a, b, c] in convex_fan(piece, outline) {
            // Written as if everything were counter-clockwise; flipped below.
            let (a, b, c) = if piece_ccw == ccw {
                (a, b, c)
            } else {
                (a, c, b)
            };
            triangles.push([c, b, a].map(|i| i as u32));
            triangles.push([a, b, c].map(|i| (i + n) as u32));
        }
    }
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.push([i, j, j + n].map(|k| k as u32));
        triangles.push([i, j + n, i + n].map(|k| k as u32));
    }
    // Outward winding assumed a counter-clockwise outline, a right-handed
    // frame and w1 > w0; each of the three that fails mirrors it once.
    let flips = [!ccw, !frame.right_handed(), w1 < w0];
    if flips.iter().filter(|&&f| f).count() % 2 == 1 {
        for t in &mut triangles {
            t.swap(1, 2);
        }
    }
    Solid {
        positions,
        triangles,
    }
}

/// An axis-aligned box whose faces are split into a grid of
/// `divisions[axis]` cells along each axis (two triangles per cell).
pub fn grid_box(min: DVec3, max: DVec3, divisions: [u32; 3]) -> Solid {
    let n = divisions.map(|d| d.max(1));
    let coord = |axis: usize, i: u32| {
        if i == n[axis] {
            max[axis]
        } else {
            min[axis] + (max[axis] - min[axis]) * f64::from(i) / f64::from(n[axis])
        }
    };
    let mut solid = Solid::default();
    let mut index: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertex = |solid: &mut Solid, g: [u32; 3]| -> u32 {
        *index.entry(g).or_insert_with(|| {
            solid
                .positions
                .push(DVec3::new(coord(0, g[0]), coord(1, g[1]), coord(2, g[2])));
            solid.positions.len() as u32 - 1
        })
    };
    for a in 0..3 {
        // (a, b, c) cyclic, so the cell corners below wind around +a.
        let (b, c) = ((a + 1) % 3, (a + 2) % 3);
        for side in [0, n[a]] {
            for p in 0..n[b] {
                for q in 0..n[c] {
                    let mut corner = |dp: u32, dq: u32| {
                        let mut g = [0; 3];
                        g[a] = side;
                        g[b] = p + dp;
                        g[c] = q + dq;
                        vertex(&mut solid, g)
                    };
                    let quad = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    let (t1, t2) = ([quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]);
                    if side == 0 {
                        solid.triangles.push([t1[0], t1[2], t1[1]]);
                        solid.triangles.push([t2[0], t2[2], t2[1]]);
                    } else {
                        solid.triangles.extend([t1, t2]);
                    }
                }
            }
        }
    }
    solid
}

/// A plain box (one quad per face).
pub fn cuboid(min: DVec3, max: DVec3) -> Solid {
    grid_box(min, max, [1, 1, 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_box_counts_and_volume() {
        let s = grid_box(DVec3::ZERO, DVec3::new(4.0, 1.0, 2.0), [4, 1, 2]);
        // 2 * (4*1 + 1*2 + 2*4) cells, two triangles each.
        assert_eq!(s.triangles.len(), 2 * 2 * (4 + 2 + 8));
        assert!((s.signed_volume() - 8.0).abs() < 1e-12);
    }

    #[test]
    fn prism_volume_is_area_times_depth_in_any_frame() {
        let square = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
        let pieces = vec![vec![0, 1, 2, 3]];
        let frames = [
            Frame::xy(DVec3::ZERO),
            Frame::zy(DVec3::ONE),
            Frame::xz(DVec3::ZERO),
        ];
        for frame in frames {
            for (w0, w1) in [(0.0, 2.0), (2.0, 0.0)] {
                let s = prism(&square, &pieces, &frame, w0, w1);
                assert!(
                    (s.signed_volume() - 2.0).abs() < 1e-12,
                    "{frame:?} {w0} {w1}"
                );
            }
            let clockwise: Vec<DVec2> = square.iter().rev().copied().collect();
            let s = prism(&clockwise, &pieces, &frame, 0.0, 2.0);
            assert!((s.signed_volume() - 2.0).abs() < 1e-12);
        }
    }

    #[test]
    fn fan_avoids_collinear_apex() {
        // A pentagon with three collinear vertices on its left side.
        let pts = [
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(1.0, 2.0),
            DVec2::new(0.0, 2.0),
            DVec2::new(0.0, 1.0),
        ];
        let tris = convex_fan(&[0, 1, 2, 3, 4], &pts);
        assert_eq!(tris.len(), 3);
        for t in tris {
            let area = (pts[t[1]] - pts[t[0]]).perp_dot(pts[t[2]] - pts[t[0]]);
            assert!(area > 0.0);
        }
    }

    #[test]
    fn turning_four_times_is_identity() {
        let s = cuboid(DVec3::new(1.0, 0.0, 2.0), DVec3::new(3.0, 1.0, 5.0));
        assert_eq!(s.clone().turned(4), s);
        assert_eq!(s.clone().turned(1).turned(3), s);
        assert!((s.turned(1).signed_volume() - 6.0).abs() < 1e-12);
    }
}
