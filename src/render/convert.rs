//! The one place where glam (the core's maths) meets cgmath and three-d's
//! colour types (the renderer's), world space throughout.

use three_d::Srgba;

/// A glam vector as a three-d (cgmath) vector.
pub fn v3(v: glam::Vec3) -> three_d::Vec3 {
    three_d::vec3(v.x, v.y, v.z)
}

/// An sRGB colour with alpha in `0..=1` (as the debug primitives carry
/// them) as three-d's 8-bit sRGBA; out-of-range values are clamped.
pub fn srgba(c: [f32; 4]) -> Srgba {
    let b = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    Srgba::new(b(c[0]), b(c[1]), b(c[2]), b(c[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_round_and_clamp() {
        assert_eq!(srgba([1.0, 0.5, -1.0, 2.0]), Srgba::new(255, 128, 0, 255));
        assert_eq!(
            v3(glam::Vec3::new(1.0, 2.0, 3.0)),
            three_d::vec3(1.0, 2.0, 3.0)
        );
    }
}
