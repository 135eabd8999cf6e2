//! A section: the level cut by a vertical plane along a walk, as a designer
//! draws a stair or a door in elevation, with the character's outline at
//! its frames.
//!
//! The cut's own 2D coordinates are `s`, metres along the walk's
//! horizontal direction from its origin, and `y`, world height (metres,
//! Y up). The plane contains the origin and the direction; each triangle
//! it crosses gives one segment.

use crate::bvh::{BvhScratch, QueryStats};
use crate::character::{Body, Walk, radius_along};
use crate::geometry::shape::Solid;
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
    /// The character's body cut by the plane through its centre: its
    /// outline at a path point.
    pub body: BodyCut,
}

/// The character's body cut by the section's plane through its centre,
/// in the cut's coordinates (metres): what meets the level's cut.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum BodyCut {
    /// An ellipsoid's or a sphere's cut: the ellipse of these half axes
    /// (along the cut, up).
    Ellipse {
        /// Half axes `(s, y)`.
        half: DVec2,
    },
    /// A capsule's cut: a rectangle of width `2 radius` and height
    /// `2 half_segment` with a half disc on top and below.
    Stadium {
        /// The capsule's radius.
        radius: f64,
        /// Half the straight part.
        half_segment: f64,
    },
    /// A cylinder's cut: a rectangle.
    Cylinder {
        /// Half sizes `(s, y)`.
        half: DVec2,
    },
    /// A box's cut: a rectangle.
    Box {
        /// Half sizes `(s, y)`.
        half: DVec2,
    },
}

impl BodyCut {
    /// `body`'s cut by the vertical plane along the horizontal unit `dir`.
    pub fn of(body: &Body, dir: DVec3) -> BodyCut {
        match *body {
            Body::Ellipsoid(radii) => BodyCut::Ellipse {
                half: DVec2::new(radius_along(radii, dir), radii.y),
            },
            Body::Solid(Solid::Sphere { radius }) => BodyCut::Ellipse {
                half: DVec2::splat(radius),
            },
            Body::Solid(Solid::Capsule {
                radius,
                half_segment,
            }) => BodyCut::Stadium {
                radius,
                half_segment,
            },
            Body::Solid(Solid::Cylinder {
                radius,
                half_height,
            }) => BodyCut::Cylinder {
                half: DVec2::new(radius, half_height),
            },
            Body::Solid(Solid::Box { half_extents: h }) => {
                // The line through the centre along `dir` leaves the box
                // at the nearer of its x and z faces.
                let along = |half: f64, d: f64| {
                    if d.abs() > 1e-12 {
                        half / d.abs()
                    } else {
                        f64::INFINITY
                    }
                };
                let s = along(h.x, dir.x).min(along(h.z, dir.z));
                BodyCut::Box {
                    half: DVec2::new(if s.is_finite() { s } else { h.x }, h.y),
                }
            }
        }
    }

    /// What the body is, for a legend.
    pub fn name(&self) -> &'static str {
        match self {
            BodyCut::Ellipse { half } if half.x == half.y => "sphere",
            BodyCut::Ellipse { .. } => "ellipsoid",
            BodyCut::Stadium { .. } => "capsule",
            BodyCut::Cylinder { .. } => "cylinder",
            BodyCut::Box { .. } => "box",
        }
    }

    /// Half its width along the cut and half its height.
    pub fn half_extent(&self) -> DVec2 {
        match *self {
            BodyCut::Ellipse { half } | BodyCut::Cylinder { half } | BodyCut::Box { half } => half,
            BodyCut::Stadium {
                radius,
                half_segment,
            } => DVec2::new(radius, radius + half_segment),
        }
    }

    /// A closed polyline of about `n` points around the cut centred at
    /// `c` (the first point repeated at the end).
    pub fn outline(&self, c: DVec2, n: usize) -> Vec<DVec2> {
        let n = n.max(8);
        let arc = |centre: DVec2, r: DVec2, from: f64, k: usize| {
            (0..=k).map(move |i| {
                let a = from + std::f64::consts::PI * i as f64 / k as f64;
                centre + DVec2::new(r.x * a.cos(), r.y * a.sin())
            })
        };
        match *self {
            BodyCut::Ellipse { half } => {
                let mut pts: Vec<DVec2> = arc(c, half, 0.0, n / 2).collect();
                pts.extend(arc(c, half, std::f64::consts::PI, n / 2).skip(1));
                pts
            }
            BodyCut::Stadium {
                radius,
                half_segment,
            } => {
                let up = DVec2::new(0.0, half_segment);
                let r = DVec2::splat(radius);
                let mut pts: Vec<DVec2> = arc(c + up, r, 0.0, n / 2).collect();
                pts.extend(arc(c - up, r, std::f64::consts::PI, n / 2));
                pts.push(pts[0]);
                pts
            }
            BodyCut::Cylinder { half } | BodyCut::Box { half } => [
                DVec2::new(half.x, half.y),
                DVec2::new(-half.x, half.y),
                DVec2::new(-half.x, -half.y),
                DVec2::new(half.x, -half.y),
                DVec2::new(half.x, half.y),
            ]
            .map(|p| c + p)
            .to_vec(),
        }
    }
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
        let half = self.body.half_extent();
        for p in &self.path {
            min = min.min(*p - half);
            max = max.max(*p + half);
        }
        if min.x > max.x {
            return (DVec2::ZERO, DVec2::ZERO);
        }
        (min, max)
    }
}

/// Cuts `level` along `walk` (its direction, from its start), from `before`
/// metres behind the start to `after` metres past its end; `body` is the
/// character's ([`Body::of`] its settings).
pub fn section_of_walk(
    level: &Level,
    walk: &Walk,
    body: &Body,
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
    let reach = body.half_height() * 2.0 + 1.0;
    let (segments, truncated) = cut(
        level,
        origin,
        dir,
        (s_min, s_max),
        (y_min - reach, y_max + reach),
    );
    Section {
        origin,
        direction: dir,
        segments,
        truncated,
        path,
        body: BodyCut::of(body, dir),
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

#[cfg(test)]
mod body_cut_tests {
    use super::*;

    #[test]
    fn each_bodys_cut_outline_lies_on_its_boundary() {
        let c = DVec2::new(2.0, 1.0);
        // A capsule: every point at its radius from the core segment.
        let capsule = BodyCut::of(
            &Body::Solid(Solid::Capsule {
                radius: 0.4,
                half_segment: 0.5,
            }),
            DVec3::X,
        );
        assert_eq!(capsule.half_extent(), DVec2::new(0.4, 0.9));
        let pts = capsule.outline(c, 48);
        assert_eq!(pts.first(), pts.last());
        for p in &pts {
            let q = *p - c;
            let d = DVec2::new(q.x, (q.y.abs() - 0.5).max(0.0)).length();
            assert!((d - 0.4).abs() < 1e-9, "{q} is {d} from the core");
        }
        // Its top and bottom are the round ends', 0.9 m from the centre.
        let top = pts.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        assert!((top - 1.9).abs() < 1e-9);
        // An ellipsoid's cut is the ellipse of its radius along the cut.
        let e = BodyCut::of(&Body::Ellipsoid(DVec3::new(0.4, 0.9, 0.2)), DVec3::Z);
        assert_eq!(e.half_extent(), DVec2::new(0.2, 0.9));
        for p in e.outline(c, 48) {
            let q = (p - c) / e.half_extent();
            assert!((q.length() - 1.0).abs() < 1e-9);
        }
        // A box cut at 45 degrees: the line through its centre leaves by
        // the nearer face, x = 0.3 at s = 0.3 * sqrt 2.
        let dir = DVec3::new(1.0, 0.0, 1.0).normalize();
        let b = BodyCut::of(
            &Body::Solid(Solid::Box {
                half_extents: DVec3::new(0.3, 0.9, 0.5),
            }),
            dir,
        );
        let half = b.half_extent();
        assert!((half.x - 0.3 * 2f64.sqrt()).abs() < 1e-12 && half.y == 0.9);
        assert_eq!(b.outline(c, 48).len(), 5);
        assert_eq!(b.name(), "box");
        assert_eq!(capsule.name(), "capsule");
        // A cylinder: a rectangle of its radius and half height.
        let cyl = BodyCut::of(
            &Body::Solid(Solid::Cylinder {
                radius: 0.3,
                half_height: 0.8,
            }),
            dir,
        );
        assert_eq!(cyl.half_extent(), DVec2::new(0.3, 0.8));
    }
}
