//! Axis-aligned bounding box in world space, `f32`.

use glam::{DVec3, Vec3};
use serde::{Deserialize, Serialize};

/// An axis-aligned box. An empty box has `min > max` on every axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Default for Aabb {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Aabb {
    /// The box that contains nothing; `grow` from it.
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::splat(f32::INFINITY),
        max: Vec3::splat(f32::NEG_INFINITY),
    };

    /// A box from two corners, in any order.
    pub fn from_corners(a: Vec3, b: Vec3) -> Self {
        Aabb {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The tightest box around `points`.
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Self {
        let mut b = Self::EMPTY;
        for p in points {
            b.grow_point(p);
        }
        b
    }

    /// A box from `f64` corners, rounded outwards so that it still contains
    /// the exact `f64` box after conversion to `f32`.
    pub fn from_f64_outward(min: DVec3, max: DVec3) -> Self {
        let down = |x: f64| {
            let f = x as f32;
            if (f as f64) > x { f.next_down() } else { f }
        };
        let up = |x: f64| {
            let f = x as f32;
            if (f as f64) < x { f.next_up() } else { f }
        };
        Aabb {
            min: Vec3::new(down(min.x), down(min.y), down(min.z)),
            max: Vec3::new(up(max.x), up(max.y), up(max.z)),
        }
    }

    /// `true` when the box contains no point.
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x || self.min.y > self.max.y || self.min.z > self.max.z
    }

    /// Extends the box to contain `p`.
    pub fn grow_point(&mut self, p: Vec3) {
        self.min = self.min.min(p);
        self.max = self.max.max(p);
    }

    /// Extends the box to contain `other`.
    pub fn grow(&mut self, other: &Aabb) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// The union of two boxes.
    pub fn union(&self, other: &Aabb) -> Aabb {
        let mut b = *self;
        b.grow(other);
        b
    }

    /// `true` when the boxes share at least one point (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// `true` when `p` is inside or on the boundary.
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// `true` when `other` lies entirely inside this box.
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Size along each axis (zero or negative for an empty box).
    pub fn extent(&self) -> Vec3 {
        self.max - self.min
    }

    /// Surface area, the cost measure of the SAH; zero for an empty box.
    pub fn surface_area(&self) -> f32 {
        if self.is_empty() {
            return 0.0;
        }
        let e = self.extent();
        2.0 * (e.x * e.y + e.y * e.z + e.z * e.x)
    }

    /// The box grown by `margin` on every side.
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - Vec3::splat(margin),
            max: self.max + Vec3::splat(margin),
        }
    }

    /// The eight corners, in the order x fastest, then y, then z.
    pub fn corners(&self) -> [Vec3; 8] {
        let (a, b) = (self.min, self.max);
        [
            Vec3::new(a.x, a.y, a.z),
            Vec3::new(b.x, a.y, a.z),
            Vec3::new(a.x, b.y, a.z),
            Vec3::new(b.x, b.y, a.z),
            Vec3::new(a.x, a.y, b.z),
            Vec3::new(b.x, a.y, b.z),
            Vec3::new(a.x, b.y, b.z),
            Vec3::new(b.x, b.y, b.z),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_box_overlaps_nothing_and_grows() {
        let mut b = Aabb::EMPTY;
        assert!(b.is_empty());
        assert!(!b.overlaps(&Aabb::from_corners(Vec3::ZERO, Vec3::ONE)));
        b.grow_point(Vec3::ONE);
        assert_eq!(b.min, Vec3::ONE);
        assert_eq!(b.surface_area(), 0.0);
    }

    #[test]
    fn touching_boxes_overlap() {
        let a = Aabb::from_corners(Vec3::ZERO, Vec3::ONE);
        let b = Aabb::from_corners(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0));
        assert!(a.overlaps(&b));
        let c = Aabb::from_corners(Vec3::new(1.01, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0));
        assert!(!a.overlaps(&c));
    }

    #[test]
    fn outward_rounding_contains_the_f64_box() {
        let min = DVec3::new(0.1, -0.3, 1e-9);
        let max = DVec3::new(0.7, 0.30000001, 2.0 / 3.0);
        let b = Aabb::from_f64_outward(min, max);
        assert!(
            (b.min.x as f64) <= min.x && (b.min.y as f64) <= min.y && (b.min.z as f64) <= min.z
        );
        assert!(
            (b.max.x as f64) >= max.x && (b.max.y as f64) >= max.y && (b.max.z as f64) >= max.z
        );
    }
}
