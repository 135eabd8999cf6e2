//! Unity (C#): a `CharacterController` set up by a small MonoBehaviour.
//! Unity works in metres, Y up; `slopeLimit` in degrees; `height` is the
//! total height (a height under twice the radius makes a sphere) and the
//! manual says `stepOffset` must not exceed it. Source: Unity's Character
//! Controller manual page and the `CharacterController` scripting reference.

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
    out.line("using UnityEngine;");
    out.blank();
    out.comment(
        "Save as CollidoscopeCharacter.cs and add to the GameObject with the CharacterController.",
    );
    out.line("[RequireComponent(typeof(CharacterController))]");
    out.line("public class CollidoscopeCharacter : MonoBehaviour");
    out.line("{");
    out.line("    // Your movement code applies these: CharacterController.Move moves by what it is given.");
    for (name, value, what) in [
        ("WalkSpeedMS", c.walk_speed_m_s, "walk_speed_m_s"),
        ("JumpSpeedMS", c.jump_speed_m_s, "jump_speed_m_s"),
        ("GravityMS2", c.gravity_m_s2, "gravity_m_s2, down (-Y)"),
        ("MaxFallSpeedMS", c.max_fall_speed_m_s, "max_fall_speed_m_s"),
    ] {
        let v = out.float(name, value)?;
        out.line(&format!("    public const float {name} = {v}; // {what}"));
    }
    out.blank();
    out.line("    void Awake()");
    out.line("    {");
    out.line("        var controller = GetComponent<CharacterController>();");
    out.line("        // The transform is the capsule's centre, as Collidoscope's probe position.");
    out.line("        controller.center = Vector3.zero;");
    let height_m = cap.height_at_least_diameter_m();
    let radius = out.float("radius", cap.radius_m)?;
    let height = out.float("height", height_m)?;
    out.line(&format!("        controller.radius = {radius};"));
    out.line(&format!(
        "        controller.height = {height}; // total height, round ends included"
    ));
    let slope = out.float("slopeLimit", c.max_slope_deg)?;
    out.line(&format!(
        "        controller.slopeLimit = {slope}; // max_slope_deg, degrees"
    ));
    let step_m = out.within(
        "stepOffset",
        c.max_step_height_m,
        0.0,
        height_m,
        "at most the controller's height",
    );
    let step = out.float("stepOffset", step_m)?;
    out.line(&format!(
        "        controller.stepOffset = {step}; // max_step_height_m"
    ));
    let skin = out.float("skinWidth", s.skin)?;
    out.line(&format!(
        "        controller.skinWidth = {skin}; // skin (Unity's manual suggests about 10 % of the radius)"
    ));
    let min_move = out.float("minMoveDistance", s.min_move)?;
    out.line(&format!(
        "        controller.minMoveDistance = {min_move}; // min_move"
    ));
    out.line("    }");
    out.line("}");
    out.blank();
    let dt = out.float("Fixed Timestep", c.frame_time_s())?;
    out.comment(&format!(
        "Project Settings > Time > Fixed Timestep (Time.fixedDeltaTime) = {dt} (1 / frame_rate_hz), \
         if Move runs in FixedUpdate."
    ));
    out.not_mapped(&format!(
        "max_iterations = {}: Unity's controller runs its own loop",
        s.max_iterations
    ));
    out.not_mapped(&format!(
        "min_tread_depth_m = {} m: Unity has no least step forward",
        short(c.min_tread_depth_m)
    ));
    out.not_mapped(&format!(
        "snap_distance_m = {} m: CharacterController has no ground snap (push it down in your code)",
        short(c.snap_distance_m)
    ));
    // Unity sets PhysX's modes itself: standing on steep ground, easy
    // climbing (the `unity` profile's own rules).
    if let Some(mode) = c.non_walkable {
        out.not_mapped(&format!(
            "non_walkable = \"{}\": CharacterController does not slide down steep ground (slide it in your code)",
            mode.name()
        ));
    }
    if let Some(mode) = c.climbing_mode {
        out.not_mapped(&format!(
            "climbing_mode = \"{}\": CharacterController has no climbing mode",
            mode.name()
        ));
    }
    Ok(())
}

/// Reads [`write`]'s output back: the constants, the controller's fields
/// (half the total height is the vertical radius; the slope in degrees)
/// and the fixed timestep from the project-settings note.
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    let radius_field = Field::code(&["controller.radius"], "controller.radius", "radii");
    let found = r.required(&radius_field)?;
    let radius = r.value(&radius_field, found, id, id, Range::RADIUS)?;
    let height = Field::code(&["controller.height"], "controller.height", "radii");
    let found = r.required(&height)?;
    let y = r.value(&height, found, |h| h / 2.0, |y| 2.0 * y, Range::RADIUS)?;
    s.radii = [radius, y, radius];
    let slope = Field::code(
        &["controller.slopeLimit"],
        "controller.slopeLimit",
        "character.max_slope_deg",
    );
    let found = r.required(&slope)?;
    s.character.max_slope_deg = r.value(&slope, found, id, id, Range::SLOPE)?;
    r.same_unit(
        &Field::code(&["controller.skinWidth"], "controller.skinWidth", "skin"),
        Range::SOLVER_LENGTH,
        &mut s.skin,
    )?;
    r.same_unit(
        &Field::code(
            &["controller.minMoveDistance"],
            "controller.minMoveDistance",
            "min_move",
        ),
        Range::SOLVER_LENGTH,
        &mut s.min_move,
    )?;
    let c = &mut s.character;
    r.same_unit(
        &Field::code(
            &["controller.stepOffset"],
            "controller.stepOffset",
            "character.max_step_height_m",
        ),
        Range::CHARACTER,
        &mut c.max_step_height_m,
    )?;
    for (key, setting, range, target) in [
        (
            "WalkSpeedMS",
            "character.walk_speed_m_s",
            Range::CHARACTER,
            &mut c.walk_speed_m_s,
        ),
        (
            "JumpSpeedMS",
            "character.jump_speed_m_s",
            Range::CHARACTER,
            &mut c.jump_speed_m_s,
        ),
        (
            "GravityMS2",
            "character.gravity_m_s2",
            Range::CHARACTER,
            &mut c.gravity_m_s2,
        ),
        (
            "MaxFallSpeedMS",
            "character.max_fall_speed_m_s",
            Range::FALL,
            &mut c.max_fall_speed_m_s,
        ),
    ] {
        r.same_unit(&Field::code(&[key], key, setting), range, target)?;
    }
    r.frame_time(
        &Field::code(
            &["Time.fixedDeltaTime)", "Time.fixedDeltaTime"],
            "Time.fixedDeltaTime",
            "character.frame_rate_hz",
        )
        .noted(),
        &mut c.frame_rate_hz,
    )?;
    r.not_read(format!("max_iterations = {}", s.max_iterations));
    r.not_read(format!("min_tread_depth_m = {}", c.min_tread_depth_m));
    r.not_read(format!("snap_distance_m = {}", c.snap_distance_m));
    Ok(())
}
