//! NVIDIA PhysX 5 (C++): `PxCapsuleControllerDesc` (with its base
//! `PxControllerDesc`) for `PxControllerManager::createController`. PhysX
//! works in the application's units (metres here) with a configurable up;
//! the slope limit is a cosine. The capsule's `height` is the distance
//! between its two sphere centres and `isValid()` wants radius > 0,
//! height > 0, contactOffset > 0, stepOffset ≥ 0 and stepOffset ≤ height +
//! 2 × radius. Source: the PhysX 5 API pages for `PxControllerDesc` and
//! `PxCapsuleControllerDesc` (`PxCapsuleController.h`) and the Character
//! Controllers guide.

use super::import::{Field, ImportError, Range, Reader, id};
use super::names::{PHYSX_CLIMBING, PHYSX_NON_WALKABLE};
use super::snippet::{Snippet, short};
use super::{Capsule, ExportError};
use crate::character::ControllerRules;
use crate::collide::SlideSettings;

/// PhysX's default `contactOffset`, written when the tuned skin is 0.
const PHYSX_DEFAULT_CONTACT_OFFSET_M: f64 = 0.1;
/// Written as `height` when the capsule would have none (PhysX wants > 0).
const SHORTEST_HEIGHT_M: f64 = 0.001;

pub(super) fn write(
    s: &SlideSettings,
    cap: &Capsule,
    out: &mut Snippet,
) -> Result<(), ExportError> {
    let c = &s.character;
    out.line("#pragma once");
    out.line("#include <PxPhysicsAPI.h>");
    out.blank();
    out.comment("The controller's position is the capsule's centre, as Collidoscope's probe's.");
    out.line("inline physx::PxCapsuleControllerDesc MakeCollidoscopeControllerDesc(physx::PxMaterial* material)");
    out.line("{");
    out.line("    physx::PxCapsuleControllerDesc desc;");
    let radius = out.float("radius", cap.radius_m)?;
    out.line(&format!("    desc.radius = {radius}; // metres"));
    let height_m = if cap.cylinder_m() > 0.0 {
        cap.cylinder_m()
    } else {
        out.warn(&format!(
            "height: PhysX needs a capsule height (between the sphere centres) above 0 and \
             this one is {}; written as {} m",
            short(cap.cylinder_m()),
            short(SHORTEST_HEIGHT_M)
        ));
        SHORTEST_HEIGHT_M
    };
    let height = out.float("height", height_m)?;
    out.line(&format!(
        "    desc.height = {height}; // between the sphere centres: total height less 2 x radius"
    ));
    out.line("    desc.upDirection = physx::PxVec3(0.0f, 1.0f, 0.0f);");
    let cos = out.float("slopeLimit", c.floor_min_up())?;
    out.line(&format!(
        "    desc.slopeLimit = {cos}; // cos(max_slope_deg = {} degrees)",
        short(c.max_slope_deg)
    ));
    let rules = ControllerRules::for_settings(s);
    let non_walkable = enumerator_of(&PHYSX_NON_WALKABLE, rules.non_walkable);
    out.line(&format!(
        "    desc.nonWalkableMode = physx::PxControllerNonWalkableMode::{non_walkable}; // non_walkable = \"{}\"",
        rules.non_walkable.name()
    ));
    let step_m = out.within(
        "stepOffset",
        c.max_step_height_m,
        0.0,
        height_m + 2.0 * cap.radius_m,
        "at most height + 2 x radius",
    );
    let step = out.float("stepOffset", step_m)?;
    out.line(&format!(
        "    desc.stepOffset = {step}; // max_step_height_m"
    ));
    let climbing = enumerator_of(&PHYSX_CLIMBING, rules.climbing);
    out.line(&format!(
        "    desc.climbingMode = physx::PxCapsuleClimbingMode::{climbing}; // climbing_mode = \"{}\"",
        rules.climbing.name()
    ));
    let offset_m = if s.skin > 0.0 {
        s.skin
    } else {
        out.warn(&format!(
            "contactOffset: the tuned skin is 0 and PhysX needs more than 0; written as PhysX's \
             default, {} m",
            short(PHYSX_DEFAULT_CONTACT_OFFSET_M)
        ));
        PHYSX_DEFAULT_CONTACT_OFFSET_M
    };
    let offset = out.float("contactOffset", offset_m)?;
    out.line(&format!("    desc.contactOffset = {offset}; // skin"));
    out.line("    desc.material = material;");
    out.line("    return desc;");
    out.line("}");
    out.blank();
    loop_constants(s, out)?;
    out.not_mapped(&format!(
        "max_iterations = {}: PhysX's controller runs its own loop",
        s.max_iterations
    ));
    out.not_mapped(&format!(
        "min_tread_depth_m = {} m: PhysX has no least step forward",
        short(c.min_tread_depth_m)
    ));
    out.not_mapped(&format!(
        "snap_distance_m = {} m: PhysX has no ground snap (its down pass only takes back the up pass by stepOffset)",
        short(c.snap_distance_m)
    ));
    Ok(())
}

/// The enumerator's name of `value` in `table`.
fn enumerator_of<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> &'static str {
    table
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(n, _)| n)
}

/// What `PxController::move` takes or the game applies.
fn loop_constants(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    let c = &s.character;
    out.comment("PxController::move(disp, minDist, elapsedTime, filters) and your velocity code:");
    for (name, value, what) in [
        (
            "kCollidoscopeMinMoveM",
            s.min_move,
            "min_move: move()'s minDist",
        ),
        (
            "kCollidoscopeFrameTimeS",
            c.frame_time_s(),
            "1 / frame_rate_hz: move()'s elapsedTime",
        ),
        (
            "kCollidoscopeWalkSpeedMS",
            c.walk_speed_m_s,
            "walk_speed_m_s",
        ),
        (
            "kCollidoscopeJumpSpeedMS",
            c.jump_speed_m_s,
            "jump_speed_m_s",
        ),
        (
            "kCollidoscopeGravityMS2",
            c.gravity_m_s2,
            "gravity_m_s2, down",
        ),
        (
            "kCollidoscopeMaxFallSpeedMS",
            c.max_fall_speed_m_s,
            "max_fall_speed_m_s",
        ),
    ] {
        let v = out.float(name, value)?;
        out.line(&format!("constexpr float {name} = {v}; // {what}"));
    }
    Ok(())
}

/// Reads [`write`]'s output back: the capsule (radius, and the height
/// between the sphere centres plus 2 radius for the total), the slope
/// limit (a cosine, to degrees), step and contact offsets and the loop
/// constants (`minDist` is the least move).
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    let radius_field = Field::code(&["desc.radius"], "desc.radius", "radii");
    let found = r.required(&radius_field)?;
    let radius = r.value(&radius_field, found, id, id, Range::RADIUS)?;
    let height = Field::code(&["desc.height"], "desc.height", "radii");
    let found = r.required(&height)?;
    let y = r.value(
        &height,
        found,
        |h| h / 2.0 + radius,
        |y| 2.0 * y - 2.0 * radius,
        Range::RADIUS,
    )?;
    s.radii = [radius, y, radius];
    let slope = Field::code(
        &["desc.slopeLimit"],
        "desc.slopeLimit",
        "character.max_slope_deg",
    );
    let found = r.required(&slope)?;
    s.character.max_slope_deg = r.value(
        &slope,
        found,
        |cos| cos.acos().to_degrees(),
        |deg| deg.to_radians().cos(),
        Range::SLOPE,
    )?;
    s.character.non_walkable = read_mode(
        r,
        "nonWalkableMode",
        "PxControllerNonWalkableMode",
        &PHYSX_NON_WALKABLE,
    )?;
    s.character.climbing_mode =
        read_mode(r, "climbingMode", "PxCapsuleClimbingMode", &PHYSX_CLIMBING)?;
    let c = &mut s.character;
    r.same_unit(
        &Field::code(
            &["desc.stepOffset"],
            "desc.stepOffset",
            "character.max_step_height_m",
        ),
        Range::CHARACTER,
        &mut c.max_step_height_m,
    )?;
    r.same_unit(
        &Field::code(&["desc.contactOffset"], "desc.contactOffset", "skin"),
        Range::SOLVER_LENGTH,
        &mut s.skin,
    )?;
    r.same_unit(
        &Field::code(
            &["kCollidoscopeMinMoveM"],
            "kCollidoscopeMinMoveM",
            "min_move",
        ),
        Range::SOLVER_LENGTH,
        &mut s.min_move,
    )?;
    r.frame_time(
        &Field::code(
            &["kCollidoscopeFrameTimeS"],
            "kCollidoscopeFrameTimeS",
            "character.frame_rate_hz",
        ),
        &mut c.frame_rate_hz,
    )?;
    for (key, setting, range, target) in [
        (
            "kCollidoscopeWalkSpeedMS",
            "character.walk_speed_m_s",
            Range::CHARACTER,
            &mut c.walk_speed_m_s,
        ),
        (
            "kCollidoscopeJumpSpeedMS",
            "character.jump_speed_m_s",
            Range::CHARACTER,
            &mut c.jump_speed_m_s,
        ),
        (
            "kCollidoscopeGravityMS2",
            "character.gravity_m_s2",
            Range::CHARACTER,
            &mut c.gravity_m_s2,
        ),
        (
            "kCollidoscopeMaxFallSpeedMS",
            "character.max_fall_speed_m_s",
            Range::FALL,
            &mut c.max_fall_speed_m_s,
        ),
    ] {
        r.same_unit(&Field::code(&[key], key, setting), range, target)?;
    }
    r.not_read(format!("max_iterations = {}", s.max_iterations));
    r.not_read(format!("min_tread_depth_m = {}", c.min_tread_depth_m));
    r.not_read(format!("snap_distance_m = {}", c.snap_distance_m));
    Ok(())
}

/// `desc.NAME = physx::ENUM::VALUE;` read back through `table`; `None`
/// (the profile's own) when the line is absent.
fn read_mode<T: Copy>(
    r: &mut Reader,
    name: &str,
    enum_name: &str,
    table: &[(&'static str, T)],
) -> Result<Option<T>, ImportError> {
    let keys = [
        format!("desc.{name}=physx::{enum_name}::"),
        format!("desc.{name}={enum_name}::"),
    ];
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    match r.word(&keys) {
        Some((line, w)) => match table.iter().find(|(n, _)| *n == w) {
            Some(&(_, v)) => Ok(Some(v)),
            None => {
                let names: Vec<String> = table
                    .iter()
                    .map(|(n, _)| format!("{enum_name}::{n}"))
                    .collect();
                Err(r.bad(line, format!("{name}: expected {}", names.join(" or "))))
            }
        },
        None => {
            r.not_read(format!("{name} (the profile's own)"));
            Ok(None)
        }
    }
}
