//! A section: the level cut by a vertical plane along a walk, as a designer
//! draws a stair or a door in elevation, with the character's outline at
//! its frames.
//!
//! The cut's own 2D coordinates are `s`, metres along the walk's
//! horizontal direction from its origin, and `y`, world height (metres,
//! Y up). The plane contains the origin and the direction; each triangle
//! it crosses gives one segment.

use crate::bvh::{BvhScratch, QueryStats};
use crate::character::{Walk, radius_along};
use crate::level::Level;
use crate::math::Aabb;
use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

/// Most segments one section keeps (a cut through a dense mesh is capped
/// rather than growing without bound).
pub const MAX_SECTION_SEGMENTS: usize = 200_000;

/// The level cut along a walk, and the walk in the cut.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// Where `s = 0` is, world space.
    pub origin: DVec3,
    /// The cut's horizontal unit direction, world space.
    pub direction: DVec3,
    /// The cut geometry: segments `[(s, y), (s, y)]`.
    pub segments: Vec<[DVec2; 2]>,
    /// Whether segments were dropped at [`MAX_SECTION_SEGMENTS`].
    pub truncated: bool,
    /// The ellipsoid centre at the start and after each frame, `(s, y)`.
    pub path: Vec<DVec2>,
    /// The ellipsoid's half-width along the cut and its vertical radius,
    /// metres: its outline at a path point is that ellipse.
    pub half_extent: DVec2,
}

impl Section {
    /// A world point in the cut's coordinates.
    pub fn to_cut(&self, p: DVec3) -> DVec2 {
        DVec2::new((p - self.origin).dot(self.direction), p.y)
    }

    /// The box `(min, max)` around the cut geometry and the path, `(s, y)`.
    pub fn bounds(&self) -> (DVec2, DVec2) {
        let mut min = DVec2::splat(f64::INFINITY);
        let mut max = DVec2::splat(f64::NEG_INFINITY);
        for p in self.segments.iter().flatten().chain(&self.path) {
            min = min.min(*p);
            max = max.max(*p);
        }
        for p in &self.path {
            min = min.min(*p - self.half_extent);
            max = max.max(*p + self.half_extent);
        }
        if min.x > max.x {
            return (DVec2::ZERO, DVec2::ZERO);
        }
        (min, max)
    }
}

/// Cuts `level` along `walk` (its direction, from its start), from `before`
/// metres behind the start to `after` metres past its end.
pub fn section_of_walk(
    level: &Level,
    walk: &Walk,
    radii: DVec3,
    before: f64,
    after: f64,
) -> Section {
    let origin = walk.spec.from;
    let dir = DVec3::new(walk.spec.direction.x, 0.0, walk.spec.direction.z).normalize_or(DVec3::X);
    let along = |p: DVec3| (p - origin).dot(dir);
    let mut path = vec![DVec2::new(0.0, origin.y)];
    path.extend(
        walk.frames
            .iter()
            .map(|f| DVec2::new(along(f.after.position), f.after.position.y)),
    );
    let s_max = path.iter().map(|p| p.x).fold(0.0, f64::max) + after;
    let s_min = path.iter().map(|p| p.x).fold(0.0, f64::min) - before;
    let (y_min, y_max) = path
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.y), b.max(p.y))
        });
    let reach = radii.y * 2.0 + 1.0;
    let (segments, truncated) = cut(
        level,
        origin,
        dir,
        (s_min, s_max),
        (y_min - reach, y_max + reach),
    );
    let a = radius_along(radii, dir);
    Section {
        origin,
        direction: dir,
        segments,
        truncated,
        path,
        half_extent: DVec2::new(a, radii.y),
    }
}

/// The segments where the vertical plane through `origin` along the unit
/// horizontal `dir` crosses the level, for `s` in `s_range` and `y` in
/// `y_range`, in the cut's coordinates.
pub fn cut(
    level: &Level,
    origin: DVec3,
    dir: DVec3,
    s_range: (f64, f64),
    y_range: (f64, f64),
) -> (Vec<[DVec2; 2]>, bool) {
    let normal = DVec3::new(-dir.z, 0.0, dir.x);
    let a = origin + dir * s_range.0;
    let b = origin + dir * s_range.1;
    let query = Aabb::from_f64_covering(
        a.min(b).with_y(y_range.0) - DVec3::splat(1e-6),
        a.max(b).with_y(y_range.1) + DVec3::splat(1e-6),
    );
    let mut tris = Vec::new();
    level.bvh.query_aabb(
        &level.mesh.tri_aabbs,
        &query,
        &mut BvhScratch::default(),
        &mut tris,
        None,
        &mut QueryStats::default(),
    );
    tris.sort_unstable();
    let mut segments = Vec::new();
    for tri in tris {
        let corners = level.mesh.triangle_f64(tri);
        let Some([p, q]) = cross_plane(corners, origin, normal) else {
            continue;
        };
        let to_cut = |x: DVec3| DVec2::new((x - origin).dot(dir), x.y);
        if let Some(seg) = clip(to_cut(p), to_cut(q), s_range) {
            if segments.len() == MAX_SECTION_SEGMENTS {
                return (segments, true);
            }
            segments.push(seg);
        }
    }
    (segments, false)
}

/// Where the triangle crosses the plane through `origin` with `normal`.
fn cross_plane(corners: [DVec3; 3], origin: DVec3, normal: DVec3) -> Option<[DVec3; 2]> {
    let d = corners.map(|c| (c - origin).dot(normal));
    let mut points = Vec::with_capacity(2);
    for i in 0..3 {
        let (j, di, dj) = ((i + 1) % 3, d[i], d[(i + 1) % 3]);
        if (di < 0.0) != (dj < 0.0) {
            let t = di / (di - dj);
            points.push(corners[i] + (corners[j] - corners[i]) * t);
        } else if di == 0.0 && dj != 0.0 {
            points.push(corners[i]);
        }
    }
    points.dedup_by(|a, b| a.distance(*b) < 1e-12);
    (points.len() >= 2).then(|| [points[0], points[1]])
}

/// The part of segment `p`-`q` with `s` in `range`.
fn clip(p: DVec2, q: DVec2, range: (f64, f64)) -> Option<[DVec2; 2]> {
    let (p, q) = if p.x <= q.x { (p, q) } else { (q, p) };
    if q.x < range.0 || p.x > range.1 {
        return None;
    }
    let at = |s: f64| {
        let t = if q.x > p.x {
            (s - p.x) / (q.x - p.x)
        } else {
            0.0
        };
        p + (q - p) * t
    };
    let start = if p.x < range.0 { at(range.0) } else { p };
    let end = if q.x > range.1 { at(range.1) } else { q };
    Some([start, end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::generate::LevelBuilder;
    use crate::analysis::generate::solid::cuboid;

    #[test]
    fn a_box_cut_through_its_middle_gives_its_outline() {
        let mut b = LevelBuilder::new();
        b.add(
            "block",
            &cuboid(DVec3::new(1.0, 0.0, -1.0), DVec3::new(2.0, 0.5, 1.0)),
        );
        let level = Level::from_mesh("block", b.build());
        let (segs, truncated) = cut(&level, DVec3::ZERO, DVec3::X, (0.0, 3.0), (-1.0, 2.0));
        assert!(!truncated);
        // Front, back, top and bottom faces each give one or two segments
        // (two triangles per face); together they span the outline.
        let top: f64 = segs
            .iter()
            .filter(|s| (s[0].y - 0.5).abs() < 1e-9 && (s[1].y - 0.5).abs() < 1e-9)
            .map(|s| (s[1].x - s[0].x).abs())
            .sum();
        assert!((top - 1.0).abs() < 1e-9, "{segs:?}");
        let riser: f64 = segs
            .iter()
            .filter(|s| (s[0].x - 1.0).abs() < 1e-9 && (s[1].x - 1.0).abs() < 1e-9)
            .map(|s| (s[1].y - s[0].y).abs())
            .sum();
        assert!((riser - 0.5).abs() < 1e-9, "{segs:?}");
        // Cut short of the block: nothing.
        let (none, _) = cut(&level, DVec3::ZERO, DVec3::X, (0.0, 0.9), (-1.0, 2.0));
        assert!(none.is_empty());
    }
}
