//! Jolt Physics (C++): `CharacterVirtualSettings` (with its base
//! `CharacterBaseSettings`) and `CharacterVirtual::ExtendedUpdateSettings`.
//! Jolt works in metres with a configurable up (default +Y); angles in
//! radians. Source: jrouwe/JoltPhysics `Jolt/Physics/Character/CharacterVirtual.h`
//! and `CharacterBase.h`.

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
