//! Unreal Engine 5 (C++): `UCharacterMovementComponent` and the
//! character's `UCapsuleComponent`. Unreal works in centimetres with Z up
//! (Collidoscope's Y); angles in degrees. `InitCapsuleSize` takes the
//! radius and the half height *including* the round end, and raises a half
//! height under the radius to it; `SetWalkableFloorAngle` keeps 0 to 90
//! degrees. Gravity is the project's (`DefaultGravityZ`, −980 cm/s² unless
//! changed) times `GravityScale`; the fastest fall is the physics volume's
//! `TerminalVelocity`. `PerchRadiusThreshold` and `PerchAdditionalHeight`
//! are centimetres, as the perch settings' metres. Source: Epic's API pages
//! for `UCharacterMovementComponent`, `UCapsuleComponent` and
//! `APhysicsVolume`.

use super::import::{Field, ImportError, Range, Reader, id};
use super::snippet::{Snippet, short};
use super::{Capsule, ExportError};
use crate::collide::SlideSettings;

/// Centimetres per metre.
const CM_PER_M: f64 = 100.0;
/// Unreal's default project gravity, cm/s² (downward).
pub(super) const UNREAL_DEFAULT_GRAVITY_CM_S2: f64 = 980.0;

pub(super) fn write(
    s: &SlideSettings,
    cap: &Capsule,
    out: &mut Snippet,
) -> Result<(), ExportError> {
    let c = &s.character;
    out.line("#pragma once");
    out.line("#include \"Components/CapsuleComponent.h\"");
    out.line("#include \"GameFramework/Character.h\"");
    out.line("#include \"GameFramework/CharacterMovementComponent.h\"");
    out.blank();
    out.comment(
        "Call from your ACharacter subclass's constructor: ApplyCollidoscopeSettings(this);",
    );
    out.comment("Centimetres, Z up: Collidoscope's heights (along Y) are along Z here.");
    out.line("inline void ApplyCollidoscopeSettings(ACharacter* Character)");
    out.line("{");
    let radius = out.float("CapsuleRadius", cap.radius_m * CM_PER_M)?;
    let half = out.float(
        "CapsuleHalfHeight",
        cap.height_at_least_diameter_m() / 2.0 * CM_PER_M,
    )?;
    out.line("    // Radius, then half height including the round end (the vertical radius).");
    out.line(&format!(
        "    Character->GetCapsuleComponent()->InitCapsuleSize({radius}, {half});"
    ));
    out.line("    UCharacterMovementComponent* Move = Character->GetCharacterMovement();");
    let step = out.float("MaxStepHeight", c.max_step_height_m * CM_PER_M)?;
    out.line(&format!(
        "    Move->MaxStepHeight = {step}; // max_step_height_m = {} m",
        short(c.max_step_height_m)
    ));
    let slope = out.float("WalkableFloorAngle", c.max_slope_deg)?;
    out.line(&format!(
        "    Move->SetWalkableFloorAngle({slope}); // max_slope_deg, degrees (sets WalkableFloorAngle)"
    ));
    let walk = out.float("MaxWalkSpeed", c.walk_speed_m_s * CM_PER_M)?;
    out.line(&format!(
        "    Move->MaxWalkSpeed = {walk}; // walk_speed_m_s = {} m/s",
        short(c.walk_speed_m_s)
    ));
    let jump = out.float("JumpZVelocity", c.jump_speed_m_s * CM_PER_M)?;
    out.line(&format!(
        "    Move->JumpZVelocity = {jump}; // jump_speed_m_s = {} m/s",
        short(c.jump_speed_m_s)
    ));
    let threshold = out.float(
        "PerchRadiusThreshold",
        c.perch_radius_threshold_m * CM_PER_M,
    )?;
    out.line(&format!(
        "    Move->PerchRadiusThreshold = {threshold}; // perch_radius_threshold_m = {} m",
        short(c.perch_radius_threshold_m)
    ));
    let perch_height = out.float(
        "PerchAdditionalHeight",
        c.perch_additional_height_m * CM_PER_M,
    )?;
    out.line(&format!(
        "    Move->PerchAdditionalHeight = {perch_height}; // perch_additional_height_m = {} m",
        short(c.perch_additional_height_m)
    ));
    let scale = out.float(
        "GravityScale",
        c.gravity_m_s2 * CM_PER_M / UNREAL_DEFAULT_GRAVITY_CM_S2,
    )?;
    out.line(&format!(
        "    Move->GravityScale = {scale}; // gravity_m_s2 = {} m/s2 over the default -980 cm/s2",
        short(c.gravity_m_s2)
    ));
    out.line("}");
    out.blank();
    let fall = out.float("TerminalVelocity", c.max_fall_speed_m_s * CM_PER_M)?;
    out.comment(&format!(
        "max_fall_speed_m_s = {} m/s: the level's physics volume, TerminalVelocity = {fall} (cm/s).",
        short(c.max_fall_speed_m_s)
    ));
    out.comment(&format!(
        "frame_rate_hz = {} Hz: Unreal moves the character once per game tick (and in substeps \
         no longer than MaxSimulationTimeStep).",
        short(c.frame_rate_hz)
    ));
    out.not_mapped(&format!(
        "skin = {} m: Unreal keeps its own distance above the floor (1.9 to 2.4 cm)",
        short(s.skin)
    ));
    out.not_mapped(&format!(
        "max_iterations = {}, min_move = {} m: the movement component runs its own loop",
        s.max_iterations,
        short(s.min_move)
    ));
    out.not_mapped(&format!(
        "min_tread_depth_m = {} m: Unreal has no least step forward (it steps forward by \
         what is left of the walk)",
        short(c.min_tread_depth_m)
    ));
    out.not_mapped(&format!(
        "snap_distance_m = {} m: a walking character stays on walkable floor within \
         MaxStepHeight below it",
        short(c.snap_distance_m)
    ));
    out.not_mapped(
        "instant walk speed: Collidoscope's character walks at full speed at once; Unreal \
         accelerates by MaxAcceleration and brakes by BrakingDecelerationWalking",
    );
    Ok(())
}

/// Reads [`write`]'s output back, centimetres to metres: the capsule (the
/// half height, round end included, is the vertical radius; Unreal's Z is
/// Collidoscope's Y), the movement component's fields, the gravity scale
/// times the default 980 cm/s², and the terminal velocity and frame rate
/// from their notes.
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    let capsule = Field::code(&["InitCapsuleSize("], "InitCapsuleSize", "radii");
    let radius_field = capsule.nth(0, 2);
    let found = r.required(&radius_field)?;
    let radius = r.value(
        &radius_field,
        found,
        |cm| cm / CM_PER_M,
        |m| m * CM_PER_M,
        Range::RADIUS,
    )?;
    let half = capsule.nth(1, 2);
    let found = r.required(&half)?;
    let y = r.value(
        &half,
        found,
        |cm| cm / CM_PER_M,
        |y| 2.0 * y / 2.0 * CM_PER_M,
        Range::RADIUS,
    )?;
    s.radii = [radius, y, radius];
    let c = &mut s.character;
    let slope = Field::code(
        &["SetWalkableFloorAngle(", "WalkableFloorAngle"],
        "SetWalkableFloorAngle",
        "character.max_slope_deg",
    );
    let found = r.required(&slope)?;
    c.max_slope_deg = r.value(&slope, found, id, id, Range::SLOPE)?;
    for (key, setting, range, target) in [
        (
            "MaxStepHeight",
            "character.max_step_height_m",
            Range::CHARACTER,
            &mut c.max_step_height_m,
        ),
        (
            "MaxWalkSpeed",
            "character.walk_speed_m_s",
            Range::CHARACTER,
            &mut c.walk_speed_m_s,
        ),
        (
            "JumpZVelocity",
            "character.jump_speed_m_s",
            Range::CHARACTER,
            &mut c.jump_speed_m_s,
        ),
        (
            "PerchRadiusThreshold",
            "character.perch_radius_threshold_m",
            Range::CHARACTER,
            &mut c.perch_radius_threshold_m,
        ),
        (
            "PerchAdditionalHeight",
            "character.perch_additional_height_m",
            Range::CHARACTER,
            &mut c.perch_additional_height_m,
        ),
    ] {
        r.scaled(&Field::code(&[key], key, setting), CM_PER_M, range, target)?;
    }
    let scale = Field::code(&["GravityScale"], "GravityScale", "character.gravity_m_s2");
    match r.get(
        &scale,
        |x| x * UNREAL_DEFAULT_GRAVITY_CM_S2 / CM_PER_M,
        |g| g * CM_PER_M / UNREAL_DEFAULT_GRAVITY_CM_S2,
        Range::CHARACTER,
    )? {
        Some(g) => c.gravity_m_s2 = g,
        None => r.absent(&scale, c.gravity_m_s2),
    }
    r.scaled(
        &Field::code(
            &["TerminalVelocity"],
            "TerminalVelocity",
            "character.max_fall_speed_m_s",
        )
        .noted(),
        CM_PER_M,
        Range::FALL,
        &mut c.max_fall_speed_m_s,
    )?;
    r.same_unit(
        &Field::code(
            &["frame_rate_hz"],
            "frame_rate_hz",
            "character.frame_rate_hz",
        )
        .noted(),
        Range::FRAME_RATE,
        &mut c.frame_rate_hz,
    )?;
    r.not_read(format!("skin = {}", s.skin));
    r.not_read(format!("max_iterations = {}", s.max_iterations));
    r.not_read(format!("min_move = {}", s.min_move));
    r.not_read(format!("min_tread_depth_m = {}", c.min_tread_depth_m));
    r.not_read(format!("snap_distance_m = {}", c.snap_distance_m));
    Ok(())
}
