//! Unreal Engine 5 (C++): `UCharacterMovementComponent` and the
//! character's `UCapsuleComponent`. Unreal works in centimetres with Z up
//! (Collidoscope's Y); angles in degrees. `InitCapsuleSize` takes the
//! radius and the half height *including* the round end, and raises a half
//! height under the radius to it; `SetWalkableFloorAngle` keeps 0 to 90
//! degrees. Gravity is the project's (`DefaultGravityZ`, −980 cm/s² unless
//! changed) times `GravityScale`; the fastest fall is the physics volume's
//! `TerminalVelocity`. Source: Epic's API pages for
//! `UCharacterMovementComponent`, `UCapsuleComponent` and `APhysicsVolume`.

use super::snippet::{Snippet, short};
use super::{Capsule, ExportError};
use crate::collide::SlideSettings;

/// Centimetres per metre.
const CM_PER_M: f64 = 100.0;
/// Unreal's default project gravity, cm/s² (downward).
const UNREAL_DEFAULT_GRAVITY_CM_S2: f64 = 980.0;

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
        "min_tread_depth_m = {} m: Unreal has no least step forward (its ledge settings are \
         PerchRadiusThreshold and LedgeCheckThreshold)",
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
