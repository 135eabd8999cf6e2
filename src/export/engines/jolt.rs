//! Jolt Physics (C++): `CharacterVirtualSettings` (with its base
//! `CharacterBaseSettings`) and `CharacterVirtual::ExtendedUpdateSettings`.
//! Jolt works in metres with a configurable up (default +Y); angles in
//! radians. Source: jrouwe/JoltPhysics `Jolt/Physics/Character/CharacterVirtual.h`
//! and `CharacterBase.h`.

use super::import::{Field, ImportError, Range, Reader, id};
use super::snippet::{Snippet, short};
use super::{Capsule, ExportError};
use crate::collide::SlideSettings;

pub(super) fn write(
    s: &SlideSettings,
    cap: &Capsule,
    out: &mut Snippet,
) -> Result<(), ExportError> {
    let c = &s.character;
    out.line("#pragma once");
    out.line("#include <Jolt/Jolt.h>");
    out.line("#include <Jolt/Physics/Character/CharacterVirtual.h>");
    out.line("#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>");
    out.blank();
    out.line("inline JPH::Ref<JPH::CharacterVirtualSettings> MakeCollidoscopeCharacterSettings()");
    out.line("{");
    out.line("    JPH::Ref<JPH::CharacterVirtualSettings> settings = new JPH::CharacterVirtualSettings();");
    out.line("    // Capsule along Y centred on the character's position: half the straight part,");
    out.line("    // then the radius (a half height of 0 makes Jolt build a sphere).");
    let half = out.float("mHalfHeightOfCylinder", cap.cylinder_or_zero_m() / 2.0)?;
    let radius = out.float("mRadius", cap.radius_m)?;
    out.line(&format!(
        "    settings->mShape = JPH::CapsuleShapeSettings({half}, {radius}).Create().Get();"
    ));
    out.line("    settings->mUp = JPH::Vec3::sAxisY();");
    let slope = out.float("mMaxSlopeAngle", c.max_slope_deg.to_radians())?;
    out.line(&format!(
        "    settings->mMaxSlopeAngle = {slope}; // max_slope_deg = {} degrees, in radians",
        short(c.max_slope_deg)
    ));
    let padding = out.float("mCharacterPadding", s.skin)?;
    out.line(&format!(
        "    settings->mCharacterPadding = {padding}; // skin, metres"
    ));
    out.line(&format!(
        "    settings->mMaxCollisionIterations = {}; // max_iterations",
        s.max_iterations
    ));
    let back_faces = if s.two_sided {
        "CollideWithBackFaces"
    } else {
        "IgnoreBackFaces"
    };
    out.line(&format!(
        "    settings->mBackFaceMode = JPH::EBackFaceMode::{back_faces}; // two_sided = {}",
        s.two_sided
    ));
    out.line("    return settings;");
    out.line("}");
    out.blank();
    update_settings(s, out)?;
    out.blank();
    loop_constants(s, out)?;
    out.not_mapped(&format!(
        "min_move = {} m: Jolt's nearest, mMinTimeRemaining, is a time, not a distance",
        short(s.min_move)
    ));
    Ok(())
}

/// Step, tread and snap: the settings of `CharacterVirtual::ExtendedUpdate`.
fn update_settings(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    let c = &s.character;
    out.comment("Pass to CharacterVirtual::ExtendedUpdate. A zero vector turns that part off.");
    out.line(
        "inline JPH::CharacterVirtual::ExtendedUpdateSettings MakeCollidoscopeUpdateSettings()",
    );
    out.line("{");
    out.line("    JPH::CharacterVirtual::ExtendedUpdateSettings update;");
    let down = out.float("mStickToFloorStepDown", -c.snap_distance_m)?;
    out.line(&format!(
        "    update.mStickToFloorStepDown = JPH::Vec3(0.0f, {down}, 0.0f); // snap_distance_m, down"
    ));
    let up = out.float("mWalkStairsStepUp", c.max_step_height_m)?;
    out.line(&format!(
        "    update.mWalkStairsStepUp = JPH::Vec3(0.0f, {up}, 0.0f); // max_step_height_m"
    ));
    let tread = out.float("mWalkStairsMinStepForward", c.min_tread_depth_m)?;
    out.line(&format!(
        "    update.mWalkStairsMinStepForward = {tread}; // min_tread_depth_m"
    ));
    out.line("    return update;");
    out.line("}");
    Ok(())
}

/// What Jolt takes per update or leaves to the game: time step, gravity, speeds.
fn loop_constants(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    let c = &s.character;
    let dt = out.float("inDeltaTime", c.frame_time_s())?;
    let g = out.float("inGravity", -c.gravity_m_s2)?;
    out.comment("ExtendedUpdate(inDeltaTime, inGravity, ...) and your velocity code:");
    out.line(&format!(
        "constexpr float kCollidoscopeFrameTimeS = {dt}; // 1 / frame_rate_hz"
    ));
    out.line(&format!(
        "inline const JPH::Vec3 kCollidoscopeGravity(0.0f, {g}, 0.0f); // gravity_m_s2, down"
    ));
    for (name, value, what) in [
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

/// Reads [`write`]'s output back: the capsule (half the straight part, the
/// radius), the settings' fields (radians to degrees), the update settings'
/// step, tread and snap (the Y of the vectors) and the loop constants.
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    let capsule = Field::code(&["CapsuleShapeSettings("], "CapsuleShapeSettings", "radii");
    let radius_field = capsule.nth(1, 2);
    let found = r.required(&radius_field)?;
    let radius = r.value(&radius_field, found, id, id, Range::RADIUS)?;
    let half = capsule.nth(0, 2);
    let found = r.required(&half)?;
    let y = r.value(
        &half,
        found,
        |h| h + radius,
        |y| (2.0 * y - 2.0 * radius) / 2.0,
        Range::RADIUS,
    )?;
    s.radii = [radius, y, radius];
    let slope = Field::code(
        &["mMaxSlopeAngle"],
        "mMaxSlopeAngle",
        "character.max_slope_deg",
    );
    let found = r.required(&slope)?;
    s.character.max_slope_deg = r.value(
        &slope,
        found,
        f64::to_degrees,
        f64::to_radians,
        Range::SLOPE,
    )?;
    r.same_unit(
        &Field::code(&["mCharacterPadding"], "mCharacterPadding", "skin"),
        Range::SOLVER_LENGTH,
        &mut s.skin,
    )?;
    r.iterations(
        &Field::code(
            &["mMaxCollisionIterations"],
            "mMaxCollisionIterations",
            "max_iterations",
        ),
        &mut s.max_iterations,
    )?;
    match r.word(&[
        "mBackFaceMode=JPH::EBackFaceMode::",
        "mBackFaceMode=EBackFaceMode::",
    ]) {
        Some((_, w)) if w == "CollideWithBackFaces" => s.two_sided = true,
        Some((_, w)) if w == "IgnoreBackFaces" => s.two_sided = false,
        Some((line, _)) => {
            return Err(r.bad(
                line,
                "mBackFaceMode: expected EBackFaceMode::CollideWithBackFaces or \
                 EBackFaceMode::IgnoreBackFaces"
                    .into(),
            ));
        }
        None => r.not_read(format!("two_sided = {}", s.two_sided)),
    }
    let c = &mut s.character;
    let snap = Field::code(
        &[
            "mStickToFloorStepDown=JPH::Vec3(",
            "mStickToFloorStepDown=Vec3(",
        ],
        "mStickToFloorStepDown",
        "character.snap_distance_m",
    )
    .nth(1, 3);
    match r.get(&snap, |y| 0.0 - y, |d| -d, Range::CHARACTER)? {
        Some(v) => c.snap_distance_m = v,
        None => r.absent(&snap, c.snap_distance_m),
    }
    r.same_unit(
        &Field::code(
            &["mWalkStairsStepUp=JPH::Vec3(", "mWalkStairsStepUp=Vec3("],
            "mWalkStairsStepUp",
            "character.max_step_height_m",
        )
        .nth(1, 3),
        Range::CHARACTER,
        &mut c.max_step_height_m,
    )?;
    r.same_unit(
        &Field::code(
            &["mWalkStairsMinStepForward"],
            "mWalkStairsMinStepForward",
            "character.min_tread_depth_m",
        ),
        Range::CHARACTER,
        &mut c.min_tread_depth_m,
    )?;
    r.frame_time(
        &Field::code(
            &["kCollidoscopeFrameTimeS"],
            "kCollidoscopeFrameTimeS",
            "character.frame_rate_hz",
        ),
        &mut c.frame_rate_hz,
    )?;
    let gravity = Field::code(
        &["kCollidoscopeGravity(", "kCollidoscopeGravity{"],
        "kCollidoscopeGravity",
        "character.gravity_m_s2",
    )
    .nth(1, 3);
    match r.get(&gravity, |y| 0.0 - y, |g| -g, Range::CHARACTER)? {
        Some(v) => c.gravity_m_s2 = v,
        None => r.absent(&gravity, c.gravity_m_s2),
    }
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
            "kCollidoscopeMaxFallSpeedMS",
            "character.max_fall_speed_m_s",
            Range::FALL,
            &mut c.max_fall_speed_m_s,
        ),
    ] {
        r.same_unit(&Field::code(&[key], key, setting), range, target)?;
    }
    r.not_read(format!("min_move = {}", s.min_move));
    Ok(())
}
