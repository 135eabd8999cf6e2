//! The character's collision shape, world metres: the ellipsoid the solver
//! has always swept, or one of the solids game engines give a character
//! controller (a capsule in Unity, Unreal, Godot, Rapier and Jolt; PhysX
//! also a box), all upright (their axis along world Y).
//!
//! [`CharacterShape`] is the settings value (serde, in
//! [`crate::collide::SlideSettings::shape`]); [`Solid`] is the same shape
//! as the exact swept tests of [`super::solid_sweep`] take it (half sizes,
//! no ellipsoid, since the ellipsoid has its own closed form in
//! [`super::sweep`]).

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Smallest radius or half size of a shape, metres: the ellipsoid's own
/// limit ([`crate::collide::MIN_RADIUS_M`]), for the same reason (far below
/// a millimetre, round-off in a level's coordinates is a sizeable part of
/// the shape).
pub const MIN_SIZE_M: f64 = 1e-3;
/// Largest radius or half size of a shape, metres (10 km), as the
/// ellipsoid's ([`crate::collide::MAX_RADIUS_M`]).
pub const MAX_SIZE_M: f64 = 1e4;

/// The character's collision shape, upright (axis along world Y), centred
/// on the probe's position, sizes in metres.
///
/// In a settings file it is the optional `shape` table, e.g. TOML
/// `[shape]` with `kind = "capsule"`, `radius_m = 0.4`, `height_m = 1.8`;
/// without it the probe is the ellipsoid of `radii`, as before shapes
/// existed. For any other shape `radii` is not used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CharacterShape {
    /// The ellipsoid of the settings' `radii` (the default).
    #[default]
    Ellipsoid,
    /// A ball.
    Sphere {
        /// Radius, metres.
        radius_m: f64,
    },
    /// A capsule: the points within `radius_m` of a vertical segment; its
    /// total height (cap to cap) is `height_m`, at least `2 * radius_m`
    /// (equal: a sphere). Unity's `CharacterController`, Godot's and
    /// Jolt's usual capsule give the same total height.
    Capsule {
        /// Radius, metres.
        radius_m: f64,
        /// Total height including both hemispherical caps, metres.
        height_m: f64,
    },
    /// An upright circular cylinder with flat caps.
    Cylinder {
        /// Radius, metres.
        radius_m: f64,
        /// Height (cap to cap), metres.
        height_m: f64,
    },
    /// An axis-aligned box (PhysX's box controller), not rotated.
    Box {
        /// Half sizes along world x, y, z, metres.
        half_extents_m: [f64; 3],
    },
}

/// A shape other than the ellipsoid, as the swept tests take it: half
/// sizes, metres, upright.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solid {
    /// Ball of this radius.
    Sphere {
        /// Radius.
        radius: f64,
    },
    /// Points within `radius` of the vertical segment from `-half_segment`
    /// to `+half_segment` (y) through the centre.
    Capsule {
        /// Radius.
        radius: f64,
        /// Half the length of the core segment (total height / 2 - radius), ≥ 0.
        half_segment: f64,
    },
    /// Upright cylinder.
    Cylinder {
        /// Radius.
        radius: f64,
        /// Half the height.
        half_height: f64,
    },
    /// Axis-aligned box.
    Box {
        /// Half sizes along x, y, z.
        half_extents: DVec3,
    },
}

impl Solid {
    /// Half sizes of the box around the shape (its AABB about the centre), metres.
    pub fn half_extents(&self) -> DVec3 {
        match *self {
            Solid::Sphere { radius } => DVec3::splat(radius),
            Solid::Capsule {
                radius,
                half_segment,
            } => DVec3::new(radius, half_segment + radius, radius),
            Solid::Cylinder {
                radius,
                half_height,
            } => DVec3::new(radius, half_height, radius),
            Solid::Box { half_extents } => half_extents,
        }
    }

    /// The shape as a core box rounded by an axis-aligned ellipsoid, when
    /// it is one: `(core half sizes, rounding radii)`, the shape being the
    /// points within the rounding of the core (see
    /// [`crate::bvh::RoundedProbe`]). A sphere is its ball around its
    /// centre, a capsule its ball around its core segment; the cylinder's
    /// flat caps and the box have no rounding worth testing (`None`).
    pub fn rounding(&self) -> Option<(DVec3, DVec3)> {
        match *self {
            Solid::Sphere { radius } => Some((DVec3::ZERO, DVec3::splat(radius))),
            Solid::Capsule {
                radius,
                half_segment,
            } => Some((DVec3::new(0.0, half_segment, 0.0), DVec3::splat(radius))),
            Solid::Cylinder { .. } | Solid::Box { .. } => None,
        }
    }

    /// The farthest point of the shape (centred at the origin) along `dir`
    /// (any length), for the extent of the shape along a direction:
    /// `support(n).dot(n)`.
    pub fn support(&self, dir: DVec3) -> DVec3 {
        let sign = |x: f64| if x < 0.0 { -1.0 } else { 1.0 };
        match *self {
            Solid::Sphere { radius } => dir.normalize_or_zero() * radius,
            Solid::Capsule {
                radius,
                half_segment,
            } => {
                DVec3::new(0.0, sign(dir.y) * half_segment, 0.0) + dir.normalize_or_zero() * radius
            }
            Solid::Cylinder {
                radius,
                half_height,
            } => {
                let h = DVec3::new(dir.x, 0.0, dir.z).normalize_or_zero() * radius;
                h + DVec3::new(0.0, sign(dir.y) * half_height, 0.0)
            }
            Solid::Box { half_extents } => {
                DVec3::new(sign(dir.x), sign(dir.y), sign(dir.z)) * half_extents
            }
        }
    }
}

impl CharacterShape {
    /// The name used in files and messages.
    pub fn name(&self) -> &'static str {
        match self {
            CharacterShape::Ellipsoid => "ellipsoid",
            CharacterShape::Sphere { .. } => "sphere",
            CharacterShape::Capsule { .. } => "capsule",
            CharacterShape::Cylinder { .. } => "cylinder",
            CharacterShape::Box { .. } => "box",
        }
    }

    /// Whether it is the ellipsoid (nothing to write in a settings file).
    pub fn is_ellipsoid(&self) -> bool {
        *self == CharacterShape::Ellipsoid
    }

    /// The solid the swept tests take, `None` for the ellipsoid. Assumes
    /// [`CharacterShape::validate`] passed.
    pub fn solid(&self) -> Option<Solid> {
        match *self {
            CharacterShape::Ellipsoid => None,
            CharacterShape::Sphere { radius_m } => Some(Solid::Sphere { radius: radius_m }),
            CharacterShape::Capsule { radius_m, height_m } => Some(Solid::Capsule {
                radius: radius_m,
                half_segment: (0.5 * height_m - radius_m).max(0.0),
            }),
            CharacterShape::Cylinder { radius_m, height_m } => Some(Solid::Cylinder {
                radius: radius_m,
                half_height: 0.5 * height_m,
            }),
            CharacterShape::Box { half_extents_m } => Some(Solid::Box {
                half_extents: DVec3::from_array(half_extents_m),
            }),
        }
    }

    /// Half sizes of the box around the shape, metres; the ellipsoid's are
    /// its `radii`.
    pub fn half_extents(&self, radii: DVec3) -> DVec3 {
        self.solid().map_or(radii, |s| s.half_extents())
    }

    /// Checks the sizes: every radius and half size from [`MIN_SIZE_M`] to
    /// [`MAX_SIZE_M`], a capsule at least as tall as it is wide. The message
    /// names the field and quotes the number.
    pub fn validate(&self) -> Result<(), String> {
        let size = |field: &str, v: f64| -> Result<(), String> {
            if v.is_finite() && (MIN_SIZE_M..=MAX_SIZE_M).contains(&v) {
                Ok(())
            } else {
                Err(format!(
                    "shape.{field} {} of the {} must be a finite number from {MIN_SIZE_M} to {MAX_SIZE_M} m",
                    crate::math::short_number(v),
                    self.name()
                ))
            }
        };
        match *self {
            CharacterShape::Ellipsoid => Ok(()),
            CharacterShape::Sphere { radius_m } => size("radius_m", radius_m),
            CharacterShape::Capsule { radius_m, height_m } => {
                size("radius_m", radius_m)?;
                if !(height_m.is_finite()
                    && height_m >= 2.0 * radius_m
                    && height_m <= 2.0 * MAX_SIZE_M)
                {
                    return Err(format!(
                        "shape.height_m {} of the capsule must be from twice its radius ({} m) to {} m \
                         (the height is the total, cap to cap)",
                        crate::math::short_number(height_m),
                        crate::math::short_number(2.0 * radius_m),
                        2.0 * MAX_SIZE_M
                    ));
                }
                Ok(())
            }
            CharacterShape::Cylinder { radius_m, height_m } => {
                size("radius_m", radius_m)?;
                if !(height_m.is_finite()
                    && (2.0 * MIN_SIZE_M..=2.0 * MAX_SIZE_M).contains(&height_m))
                {
                    return Err(format!(
                        "shape.height_m {} of the cylinder must be a finite number from {} to {} m",
                        crate::math::short_number(height_m),
                        2.0 * MIN_SIZE_M,
                        2.0 * MAX_SIZE_M
                    ));
                }
                Ok(())
            }
            CharacterShape::Box { half_extents_m } => {
                for (axis, v) in ["x", "y", "z"].iter().zip(half_extents_m) {
                    size(&format!("half_extents_m.{axis}"), v)?;
                }
                Ok(())
            }
        }
    }
}

impl std::fmt::Display for CharacterShape {
    /// `capsule r 0.4 m h 1.8 m`, for traces and messages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = crate::math::short_number;
        match *self {
            CharacterShape::Ellipsoid => f.write_str("ellipsoid"),
            CharacterShape::Sphere { radius_m } => write!(f, "sphere r {} m", n(radius_m)),
            CharacterShape::Capsule { radius_m, height_m } => {
                write!(f, "capsule r {} m h {} m", n(radius_m), n(height_m))
            }
            CharacterShape::Cylinder { radius_m, height_m } => {
                write!(f, "cylinder r {} m h {} m", n(radius_m), n(height_m))
            }
            CharacterShape::Box {
                half_extents_m: [x, y, z],
            } => {
                write!(f, "box half {} × {} × {} m", n(x), n(y), n(z))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_with_the_number_in_the_message() {
        let ok = [
            CharacterShape::Ellipsoid,
            CharacterShape::Sphere { radius_m: 0.5 },
            CharacterShape::Capsule {
                radius_m: 0.4,
                height_m: 0.8,
            },
            CharacterShape::Cylinder {
                radius_m: 0.4,
                height_m: 1.8,
            },
            CharacterShape::Box {
                half_extents_m: [0.3, 0.9, 0.3],
            },
        ];
        for s in ok {
            assert_eq!(s.validate(), Ok(()), "{s}");
        }
        let bad = [
            (
                CharacterShape::Capsule {
                    radius_m: 0.4,
                    height_m: 0.7,
                },
                "height_m 0.7",
            ),
            (CharacterShape::Sphere { radius_m: 1e-4 }, "radius_m 0.0001"),
            (
                CharacterShape::Cylinder {
                    radius_m: 0.4,
                    height_m: f64::NAN,
                },
                "height_m NaN",
            ),
            (
                CharacterShape::Box {
                    half_extents_m: [0.3, -1.0, 0.3],
                },
                "half_extents_m.y -1",
            ),
        ];
        for (s, want) in bad {
            let e = s.validate().unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn a_capsule_is_as_tall_as_its_height() {
        let c = CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        };
        assert_eq!(c.half_extents(DVec3::ONE), DVec3::new(0.4, 0.9, 0.4));
        let s = c.solid().unwrap();
        assert!((s.support(DVec3::NEG_Y).y + 0.9).abs() < 1e-15);
        assert_eq!(
            CharacterShape::Ellipsoid.half_extents(DVec3::new(1.0, 2.0, 3.0)),
            DVec3::new(1.0, 2.0, 3.0)
        );
    }
}
