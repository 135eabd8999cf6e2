//! The engines' own names for their controller settings, as a settings
//! file can give them: a table named after the engine (`[unity]`,
//! `[jolt]`, ...) holding values in that engine's names and units, read
//! into [`SlideSettings`] with the units converted and the engine's
//! profile chosen. A programmer porting a controller copies the numbers
//! from their engine as they are (Unreal's centimetres, PhysX's slope
//! cosine, Godot's radians) and the walks follow that engine.
//!
//! The names are the engine's API names, the same ones [`super::export`]
//! writes and [`super::import`] reads back; each engine module's doc and
//! the "Settings for your engine" table in `docs/settings.md` cite the
//! engine's documentation or source for each one.

use super::Engine;
use super::import::Range;
use crate::character::{CharacterSettings, ClimbingMode, NonWalkable};
use crate::collide::SlideSettings;
use crate::geometry::shape::CharacterShape;
use std::collections::BTreeMap;

/// A value as the settings file holds it.
#[derive(Clone, Debug, PartialEq)]
pub enum NamedValue {
    /// A number (integers too).
    Number(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A list of numbers (Jolt's vectors).
    Numbers(Vec<f64>),
    /// A string.
    Text(String),
}

/// Why a value in an engine's table could not be read; the caller adds
/// the file and the line.
#[derive(Clone, Debug, PartialEq)]
pub struct NameError {
    /// The engine's name at fault (dotted for a nested one), or `None`
    /// for the table as a whole.
    pub name: Option<String>,
    /// What is wrong, one line.
    pub message: String,
}

impl NameError {
    fn at(name: &str, message: String) -> NameError {
        NameError {
            name: Some(name.to_string()),
            message,
        }
    }
}

/// What one engine setting becomes.
#[derive(Clone, Copy, Debug)]
enum Meaning {
    /// The capsule's radius (both horizontal radii), in metres times `scale`.
    Radius { scale: f64 },
    /// The capsule's height in one of the engines' forms, giving the
    /// vertical radius from (value in metres, radius).
    Height {
        scale: f64,
        to_ry: fn(f64, f64) -> f64,
    },
    /// A box controller's half size along world axis `axis` (PhysX).
    BoxHalf { axis: usize },
    /// A number read into one field, converted by `to`.
    Number {
        to: fn(f64) -> f64,
        range: Range,
        set: fn(&mut SlideSettings, f64),
    },
    /// A whole count (iterations).
    Count { set: fn(&mut SlideSettings, u32) },
    /// A length the engine holds as an up vector or its y (Jolt): the
    /// setting is `sign * y`.
    UpVector {
        sign: f64,
        set: fn(&mut CharacterSettings, f64),
    },
    /// A feature the engine turns off with `false` (Rapier's `autostep`
    /// and `snap_to_ground`): `false` sets the field to 0.
    Switch {
        set: fn(&mut CharacterSettings, f64),
    },
    /// Jolt's back-face mode, by its enum name.
    BackFaceMode,
    /// PhysX's `PxControllerNonWalkableMode`, by its enumerator's name.
    NonWalkableMode,
    /// PhysX's `PxCapsuleClimbingMode`, by its enumerator's name.
    ClimbingMode,
}

/// One of an engine's settings.
#[derive(Clone, Copy, Debug)]
struct Name {
    /// The engine's name, dotted for a nested one (`autostep.max_height`).
    name: &'static str,
    /// Collidoscope's setting it becomes, for messages.
    setting: &'static str,
    meaning: Meaning,
}

const M: f64 = 1.0;
const CM: f64 = 0.01;

fn id(x: f64) -> f64 {
    x
}

fn radians(x: f64) -> f64 {
    x.to_degrees()
}

fn per_cm(x: f64) -> f64 {
    x * CM
}

/// Unreal's `GravityScale` times its default gravity (980 cm/s²).
fn unreal_gravity(scale: f64) -> f64 {
    scale * super::unreal::UNREAL_DEFAULT_GRAVITY_CM_S2 * CM
}

/// PhysX's `slopeLimit` is the cosine of the steepest walkable angle.
fn cosine(c: f64) -> f64 {
    if (0.0..=1.0).contains(&c) {
        c.acos().to_degrees()
    } else {
        f64::NAN
    }
}

fn set_skin(s: &mut SlideSettings, v: f64) {
    s.skin = v;
}
fn set_min_move(s: &mut SlideSettings, v: f64) {
    s.min_move = v;
}
fn set_slope(s: &mut SlideSettings, v: f64) {
    s.character.max_slope_deg = v;
}
fn set_step(s: &mut SlideSettings, v: f64) {
    s.character.max_step_height_m = v;
}
fn set_tread(s: &mut SlideSettings, v: f64) {
    s.character.min_tread_depth_m = v;
}
fn set_snap(s: &mut SlideSettings, v: f64) {
    s.character.snap_distance_m = v;
}
fn set_walk(s: &mut SlideSettings, v: f64) {
    s.character.walk_speed_m_s = v;
}
fn set_jump(s: &mut SlideSettings, v: f64) {
    s.character.jump_speed_m_s = v;
}
fn set_gravity(s: &mut SlideSettings, v: f64) {
    s.character.gravity_m_s2 = v;
}
fn set_fall(s: &mut SlideSettings, v: f64) {
    s.character.max_fall_speed_m_s = v;
}
fn set_rate(s: &mut SlideSettings, v: f64) {
    s.character.frame_rate_hz = v;
}
fn set_perch_threshold(s: &mut SlideSettings, v: f64) {
    s.character.perch_radius_threshold_m = v;
}
fn set_perch_height(s: &mut SlideSettings, v: f64) {
    s.character.perch_additional_height_m = v;
}
fn set_iterations(s: &mut SlideSettings, n: u32) {
    s.max_iterations = n;
}
fn char_step(c: &mut CharacterSettings, v: f64) {
    c.max_step_height_m = v;
}
fn char_snap(c: &mut CharacterSettings, v: f64) {
    c.snap_distance_m = v;
}

const fn number(
    name: &'static str,
    setting: &'static str,
    to: fn(f64) -> f64,
    range: Range,
    set: fn(&mut SlideSettings, f64),
) -> Name {
    Name {
        name,
        setting,
        meaning: Meaning::Number { to, range, set },
    }
}

const fn radius(name: &'static str, scale: f64) -> Name {
    Name {
        name,
        setting: "radii",
        meaning: Meaning::Radius { scale },
    }
}

const fn height(name: &'static str, scale: f64, to_ry: fn(f64, f64) -> f64) -> Name {
    Name {
        name,
        setting: "radii",
        meaning: Meaning::Height { scale, to_ry },
    }
}

/// The names each engine's table accepts.
fn names(engine: Engine) -> &'static [Name] {
    const SKIN: &str = "skin";
    const SLOPE: &str = "character.max_slope_deg";
    const STEP: &str = "character.max_step_height_m";
    const SNAP: &str = "character.snap_distance_m";
    match engine {
        // Unity `CharacterController`: metres, degrees.
        Engine::Unity => {
            const N: &[Name] = &[
                radius("radius", M),
                height("height", M, |h, _| h / 2.0),
                number("slopeLimit", SLOPE, id, Range::SLOPE, set_slope),
                number("stepOffset", STEP, id, Range::CHARACTER, set_step),
                number("skinWidth", SKIN, id, Range::SOLVER_LENGTH, set_skin),
                number(
                    "minMoveDistance",
                    "min_move",
                    id,
                    Range::SOLVER_LENGTH,
                    set_min_move,
                ),
            ];
            N
        }
        // Unreal `UCapsuleComponent` and `UCharacterMovementComponent`:
        // centimetres, degrees; the half height is the whole capsule's.
        Engine::Unreal => {
            const N: &[Name] = &[
                radius("CapsuleRadius", CM),
                height("CapsuleHalfHeight", CM, |h, _| h),
                number("WalkableFloorAngle", SLOPE, id, Range::SLOPE, set_slope),
                number("MaxStepHeight", STEP, per_cm, Range::CHARACTER, set_step),
                number(
                    "MaxWalkSpeed",
                    "character.walk_speed_m_s",
                    per_cm,
                    Range::CHARACTER,
                    set_walk,
                ),
                number(
                    "JumpZVelocity",
                    "character.jump_speed_m_s",
                    per_cm,
                    Range::CHARACTER,
                    set_jump,
                ),
                number(
                    "GravityScale",
                    "character.gravity_m_s2",
                    unreal_gravity,
                    Range::CHARACTER,
                    set_gravity,
                ),
                number(
                    "TerminalVelocity",
                    "character.max_fall_speed_m_s",
                    per_cm,
                    Range::FALL,
                    set_fall,
                ),
                number(
                    "PerchRadiusThreshold",
                    "character.perch_radius_threshold_m",
                    per_cm,
                    Range::CHARACTER,
                    set_perch_threshold,
                ),
                number(
                    "PerchAdditionalHeight",
                    "character.perch_additional_height_m",
                    per_cm,
                    Range::CHARACTER,
                    set_perch_height,
                ),
            ];
            N
        }
        // Godot `CharacterBody3D` with a `CapsuleShape3D` (total height);
        // angles in radians.
        Engine::Godot => {
            const N: &[Name] = &[
                radius("radius", M),
                height("height", M, |h, _| h / 2.0),
                number("floor_max_angle", SLOPE, radians, Range::SLOPE, set_slope),
                number("floor_snap_length", SNAP, id, Range::CHARACTER, set_snap),
                number("safe_margin", SKIN, id, Range::SOLVER_LENGTH, set_skin),
                Name {
                    name: "max_slides",
                    setting: "max_iterations",
                    meaning: Meaning::Count {
                        set: set_iterations,
                    },
                },
                number(
                    "physics_ticks_per_second",
                    "character.frame_rate_hz",
                    id,
                    Range::FRAME_RATE,
                    set_rate,
                ),
            ];
            N
        }
        // Rapier `KinematicCharacterController` with `capsule_y(half_height,
        // radius)`: lengths absolute (metres), angles in radians.
        Engine::Rapier => {
            const N: &[Name] = &[
                radius("radius", M),
                height("half_height", M, |h, r| h + r),
                number("offset", SKIN, id, Range::SOLVER_LENGTH, set_skin),
                number(
                    "max_slope_climb_angle",
                    SLOPE,
                    radians,
                    Range::SLOPE,
                    set_slope,
                ),
                Name {
                    name: "autostep",
                    setting: STEP,
                    meaning: Meaning::Switch { set: char_step },
                },
                number("autostep.max_height", STEP, id, Range::CHARACTER, set_step),
                number(
                    "autostep.min_width",
                    "character.min_tread_depth_m",
                    id,
                    Range::CHARACTER,
                    set_tread,
                ),
                Name {
                    name: "snap_to_ground",
                    setting: SNAP,
                    meaning: Meaning::Switch { set: char_snap },
                },
            ];
            N
        }
        // Jolt `CapsuleShapeSettings`, `CharacterVirtualSettings` and
        // `ExtendedUpdateSettings`: metres, radians, vectors.
        Engine::Jolt => {
            const N: &[Name] = &[
                radius("mRadius", M),
                height("mHalfHeightOfCylinder", M, |h, r| h + r),
                number("mMaxSlopeAngle", SLOPE, radians, Range::SLOPE, set_slope),
                number(
                    "mCharacterPadding",
                    SKIN,
                    id,
                    Range::SOLVER_LENGTH,
                    set_skin,
                ),
                Name {
                    name: "mMaxCollisionIterations",
                    setting: "max_iterations",
                    meaning: Meaning::Count {
                        set: set_iterations,
                    },
                },
                Name {
                    name: "mBackFaceMode",
                    setting: "two_sided",
                    meaning: Meaning::BackFaceMode,
                },
                Name {
                    name: "mWalkStairsStepUp",
                    setting: STEP,
                    meaning: Meaning::UpVector {
                        sign: 1.0,
                        set: char_step,
                    },
                },
                number(
                    "mWalkStairsMinStepForward",
                    "character.min_tread_depth_m",
                    id,
                    Range::CHARACTER,
                    set_tread,
                ),
                Name {
                    name: "mStickToFloorStepDown",
                    setting: SNAP,
                    meaning: Meaning::UpVector {
                        sign: -1.0,
                        set: char_snap,
                    },
                },
            ];
            N
        }
        // PhysX `PxCapsuleControllerDesc` (`height` between the sphere
        // centres) or `PxBoxControllerDesc`; `slopeLimit` a cosine.
        Engine::Physx => {
            const N: &[Name] = &[
                radius("radius", M),
                height("height", M, |h, r| h / 2.0 + r),
                number("slopeLimit", SLOPE, cosine, Range::SLOPE, set_slope),
                number("stepOffset", STEP, id, Range::CHARACTER, set_step),
                number("contactOffset", SKIN, id, Range::SOLVER_LENGTH, set_skin),
                Name {
                    name: "nonWalkableMode",
                    setting: "character.non_walkable",
                    meaning: Meaning::NonWalkableMode,
                },
                Name {
                    name: "climbingMode",
                    setting: "character.climbing_mode",
                    meaning: Meaning::ClimbingMode,
                },
                // The box controller's local frame has x up, rotated onto
                // the up direction (PhysX `CctCharacterController`): with y
                // up, the side extent lies along x and the forward along z.
                Name {
                    name: "halfHeight",
                    setting: "shape",
                    meaning: Meaning::BoxHalf { axis: 1 },
                },
                Name {
                    name: "halfSideExtent",
                    setting: "shape",
                    meaning: Meaning::BoxHalf { axis: 0 },
                },
                Name {
                    name: "halfForwardExtent",
                    setting: "shape",
                    meaning: Meaning::BoxHalf { axis: 2 },
                },
            ];
            N
        }
    }
}

/// The names `engine`'s table accepts, for messages and the docs.
pub fn accepted_names(engine: Engine) -> Vec<&'static str> {
    names(engine).iter().map(|n| n.name).collect()
}

/// Collidoscope's own setting each of `engine`'s names becomes: pairs of
/// (engine name, Collidoscope setting).
pub fn name_settings(engine: Engine) -> Vec<(&'static str, &'static str)> {
    names(engine).iter().map(|n| (n.name, n.setting)).collect()
}

/// Reads `values` (the engine's names, dotted when nested, with their
/// values) into `s`: units converted, ranges checked, the engine's
/// profile chosen. `given` holds Collidoscope's own settings the file
/// also gives (as `radii`, `skin`, `character.max_step_height_m`,
/// `shape`): one setting given in both names is an error.
pub fn apply(
    engine: Engine,
    values: &BTreeMap<String, NamedValue>,
    given: &[String],
    s: &mut SlideSettings,
) -> Result<(), NameError> {
    let table = names(engine);
    let title = engine_title(engine);
    let mut radius = None;
    let mut height = None;
    let mut half = [None; 3];
    for (key, value) in values {
        let Some(name) = table.iter().find(|n| n.name == key) else {
            // The closest name, if close: a case slip or a letter or two.
            let near = table
                .iter()
                .map(|n| {
                    let d = strsim::levenshtein(&n.name.to_lowercase(), &key.to_lowercase());
                    (d, n.name)
                })
                .min()
                .filter(|&(d, name)| d <= 2.max(name.len() / 5))
                .map(|(_, name)| format!(" (did you mean `{name}`?)"))
                .unwrap_or_default();
            return Err(NameError::at(
                key,
                format!(
                    "`{}` is not one of {title}'s settings Collidoscope reads{near}; it reads {}",
                    crate::quote::prefix(key),
                    accepted_names(engine).join(", ")
                ),
            ));
        };
        if given.iter().any(|g| g == name.setting) {
            return Err(NameError::at(
                key,
                format!(
                    "{title}'s `{key}` and Collidoscope's `{}` both set the same thing: keep one",
                    name.setting
                ),
            ));
        }
        let number = || match value {
            NamedValue::Number(x) if x.is_finite() => Ok(*x),
            _ => Err(NameError::at(
                key,
                format!("{title}'s `{key}` must be a number"),
            )),
        };
        let checked = |v: f64, range: Range, shown: f64| {
            let short = crate::math::short_number;
            if range.holds(v) {
                Ok(v)
            } else if v.is_finite() {
                Err(NameError::at(
                    key,
                    format!(
                        "{title}'s `{key}` = {} gives {} = {}, which must be {}",
                        short(shown),
                        name.setting,
                        short(v),
                        range.text()
                    ),
                ))
            } else {
                Err(NameError::at(
                    key,
                    format!(
                        "{title}'s `{key}` = {} is outside what it can be: it gives no {} {}",
                        short(shown),
                        name.setting,
                        range.text()
                    ),
                ))
            }
        };
        match name.meaning {
            Meaning::Radius { scale } => {
                let x = number()?;
                radius = Some((key.as_str(), checked(x * scale, Range::RADIUS, x)?));
            }
            Meaning::Height { scale, to_ry } => {
                height = Some((key.as_str(), number()?, scale, to_ry))
            }
            Meaning::BoxHalf { axis } => {
                let x = number()?;
                half[axis] = Some(checked(x, Range::RADIUS, x)?);
            }
            Meaning::Number { to, range, set } => {
                let x = number()?;
                set(s, checked(to(x), range, x)?);
            }
            Meaning::Count { set } => {
                let x = number()?;
                if x.fract() != 0.0 || !Range::ITERATIONS.holds(x) {
                    return Err(NameError::at(
                        key,
                        format!(
                            "{title}'s `{key}` = {x} must be a whole number, {}",
                            Range::ITERATIONS.text()
                        ),
                    ));
                }
                set(s, x as u32);
            }
            Meaning::UpVector { sign, set } => {
                let y = match value {
                    NamedValue::Number(y) => *y,
                    NamedValue::Numbers(v) if v.len() == 3 => {
                        if v[0] != 0.0 || v[2] != 0.0 {
                            return Err(NameError::at(
                                key,
                                format!(
                                    "{title}'s `{key}` must point along the up axis (y): [0, y, 0]"
                                ),
                            ));
                        }
                        v[1]
                    }
                    _ => {
                        return Err(NameError::at(
                            key,
                            format!("{title}'s `{key}` must be its y or a vector [0, y, 0]"),
                        ));
                    }
                };
                set(&mut s.character, checked(sign * y, Range::CHARACTER, y)?);
            }
            Meaning::Switch { set } => match value {
                NamedValue::Bool(false) => set(&mut s.character, 0.0),
                NamedValue::Number(x) => {
                    let ranged = checked(*x, Range::CHARACTER, *x)?;
                    set(&mut s.character, ranged)
                }
                _ => {
                    return Err(NameError::at(
                        key,
                        format!(
                            "{title}'s `{key}` is a table of its settings, a length, or false to turn it off"
                        ),
                    ));
                }
            },
            Meaning::NonWalkableMode => {
                let mode = enumerator(value, "PxControllerNonWalkableMode", &PHYSX_NON_WALKABLE);
                s.character.non_walkable = Some(mode.ok_or_else(|| {
                    NameError::at(
                        key,
                        format!(
                            "{title}'s `{key}` is \"ePREVENT_CLIMBING\" or \"ePREVENT_CLIMBING_AND_FORCE_SLIDING\""
                        ),
                    )
                })?);
            }
            Meaning::ClimbingMode => {
                let mode = enumerator(value, "PxCapsuleClimbingMode", &PHYSX_CLIMBING);
                s.character.climbing_mode = Some(mode.ok_or_else(|| {
                    NameError::at(
                        key,
                        format!("{title}'s `{key}` is \"eEASY\" or \"eCONSTRAINED\""),
                    )
                })?);
            }
            Meaning::BackFaceMode => match value {
                NamedValue::Text(t) if t == "CollideWithBackFaces" => s.two_sided = true,
                NamedValue::Text(t) if t == "IgnoreBackFaces" => s.two_sided = false,
                _ => {
                    return Err(NameError::at(
                        key,
                        format!(
                            "{title}'s `{key}` is \"CollideWithBackFaces\" or \"IgnoreBackFaces\""
                        ),
                    ));
                }
            },
        }
    }
    match (radius, height) {
        (Some((_, r)), Some((key, h, scale, to_ry))) => {
            if given.iter().any(|g| g == "shape") {
                return Err(NameError::at(
                    key,
                    format!("{title}'s capsule and the [shape] table both give the body: keep one"),
                ));
            }
            let ry = to_ry(h * scale, r);
            if !(Range::RADIUS.holds(ry) && ry >= r) {
                return Err(NameError::at(
                    key,
                    format!(
                        "{title}'s `{key}` = {h} gives a capsule of radius {r} m and half height {ry} m; it must be at least the radius and {}",
                        Range::RADIUS.text()
                    ),
                ));
            }
            s.radii = [r, ry, r];
        }
        (Some((key, _)), None) | (None, Some((key, ..))) => {
            let [r, h] = [table[0].name, table[1].name];
            return Err(NameError::at(
                key,
                format!("{title}'s capsule needs both `{r}` and `{h}`"),
            ));
        }
        (None, None) => {}
    }
    match half {
        [Some(x), Some(y), Some(z)] => {
            if radius.is_some() {
                return Err(NameError::at(
                    "halfHeight",
                    format!(
                        "{title}: give a capsule (radius, height) or a box (halfHeight, halfSideExtent, halfForwardExtent), not both"
                    ),
                ));
            }
            if given.iter().any(|g| g == "shape") {
                return Err(NameError::at(
                    "halfHeight",
                    format!("{title}'s box and the [shape] table both give the body: keep one"),
                ));
            }
            s.shape = CharacterShape::Box {
                half_extents_m: [x, y, z],
            };
            s.radii = [x, y, z];
        }
        [None, None, None] => {}
        _ => {
            return Err(NameError::at(
                "halfHeight",
                format!("{title}'s box needs halfHeight, halfSideExtent and halfForwardExtent"),
            ));
        }
    }
    s.character.engine = engine.profile();
    Ok(())
}

/// PhysX's `PxControllerNonWalkableMode` enumerators and what they are.
pub const PHYSX_NON_WALKABLE: [(&str, NonWalkable); 2] = [
    ("ePREVENT_CLIMBING", NonWalkable::PreventClimbing),
    (
        "ePREVENT_CLIMBING_AND_FORCE_SLIDING",
        NonWalkable::PreventClimbingAndForceSliding,
    ),
];

/// PhysX's `PxCapsuleClimbingMode` enumerators and what they are.
pub const PHYSX_CLIMBING: [(&str, ClimbingMode); 2] = [
    ("eEASY", ClimbingMode::Easy),
    ("eCONSTRAINED", ClimbingMode::Constrained),
];

/// The value of an enumerator named by `value`, alone or qualified by
/// its enum (`PxCapsuleClimbingMode::eEASY`, with or without `physx::`).
fn enumerator<T: Copy>(value: &NamedValue, enum_name: &str, table: &[(&str, T)]) -> Option<T> {
    let NamedValue::Text(t) = value else {
        return None;
    };
    let t = t.trim();
    let t = t.strip_prefix("physx::").unwrap_or(t);
    let t = t
        .strip_prefix(enum_name)
        .and_then(|r| r.strip_prefix("::"))
        .unwrap_or(t);
    table.iter().find(|(n, _)| *n == t).map(|&(_, v)| v)
}

/// The engine's name in messages.
fn engine_title(engine: Engine) -> &'static str {
    match engine {
        Engine::Rapier => "Rapier",
        Engine::Jolt => "Jolt",
        Engine::Physx => "PhysX",
        Engine::Godot => "Godot",
        Engine::Unity => "Unity",
        Engine::Unreal => "Unreal",
    }
}
