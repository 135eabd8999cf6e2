//! Axis-aligned bounding box in world space, `f32`.

use glam::{DVec3, Vec3, Vec3A};
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

    /// A box from `f64` corners that contains the exact `f64` box, a few
    /// `f32` ulps looser than [`Aabb::from_f64_outward`]: vector arithmetic
    /// with no branch per coordinate, for boxes built once per solver step.
    pub fn from_f64_covering(min: DVec3, max: DVec3) -> Self {
        // Rounding to nearest is off by at most half an ulp, itself at most
        // 2^-24 of the value (or half the smallest subnormal); moving by
        // 2^-22 of the value plus the smallest normal clears that, and the
        // rounding of this step too.
        const REL: f32 = 1.0 / 4_194_304.0;
        // In SIMD lanes (`Vec3A`): the same operations per coordinate as
        // with `Vec3`, so the same box, in a third of the instructions; the
        // solver builds two of these for every iteration.
        let widen = |v: Vec3A| v.abs() * REL + Vec3A::splat(f32::MIN_POSITIVE);
        // Beyond f32's range a corner rounds to an infinity: keep the ones
        // on the outer side, clamp the others (an infinity minus itself is NaN).
        let lo = min.as_vec3a().min(Vec3A::splat(f32::MAX));
        let hi = max.as_vec3a().max(Vec3A::splat(-f32::MAX));
        Aabb {
            min: (lo - widen(lo)).into(),
            max: (hi + widen(hi)).into(),
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

    proptest::proptest! {
        #[test]
        fn covering_box_contains_the_f64_box(
            a in proptest::array::uniform3(-1e30f64..1e30),
            d in proptest::array::uniform3(0.0f64..1e3),
            scale in -40i32..40,
        ) {
            let k = 2f64.powi(scale);
            let min = DVec3::from(a) * 1e-30 * k;
            let max = min + DVec3::from(d) * k;
            let b = Aabb::from_f64_covering(min, max);
            proptest::prop_assert!(b.min.as_dvec3().cmple(min).all(), "{b:?} {min}");
            proptest::prop_assert!(b.max.as_dvec3().cmpge(max).all(), "{b:?} {max}");
            // Looser than the tightest box by a few ulps only.
            let tight = Aabb::from_f64_outward(min, max);
            let slack = tight.min.abs().max(tight.max.abs()) * 1e-6 + 1e-37;
            proptest::prop_assert!((tight.min - b.min).cmple(slack).all());
            proptest::prop_assert!((b.max - tight.max).cmple(slack).all());
        }
    }

    #[test]
    fn covering_box_beyond_f32_range_has_no_nan() {
        for (min, max) in [(1e300, 2e300), (-2e300, -1e300), (-1e300, 1e300)] {
            let b = Aabb::from_f64_covering(DVec3::splat(min), DVec3::splat(max));
            assert!(!b.min.is_nan() && !b.max.is_nan(), "{b:?}");
            assert!(b.min.x as f64 <= min && b.max.x >= -f32::MAX, "{b:?}");
        }
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
