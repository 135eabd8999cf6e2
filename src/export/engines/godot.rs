//! Godot 4 (GDScript): `CharacterBody3D` properties and its
//! `CapsuleShape3D`, set from `_ready()`. Godot works in metres, Y up;
//! angles in radians. `CapsuleShape3D.height` is the total height and
//! must be at least twice the radius; the inspector takes `safe_margin`
//! from 0.001 to 256 and `max_slides` from 1; physics ticks are a whole
//! number per second. Source: the Godot 4 class reference for
//! `CharacterBody3D`, `CapsuleShape3D` and `ProjectSettings`.

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
    out.comment(
        "Attach to a CharacterBody3D with a child CollisionShape3D named CollisionShape3D.",
    );
    out.line("extends CharacterBody3D");
    out.blank();
    out.comment("Your _physics_process applies these (Godot's script template names the first");
    out.comment("two SPEED and JUMP_VELOCITY).");
    for (name, value, what) in [
        ("WALK_SPEED_M_S", c.walk_speed_m_s, "walk_speed_m_s"),
        ("JUMP_VELOCITY", c.jump_speed_m_s, "jump_speed_m_s"),
        (
            "GRAVITY_M_S2",
            c.gravity_m_s2,
            "gravity_m_s2; Godot's project gravity is physics/3d/default_gravity",
        ),
        (
            "MAX_FALL_SPEED_M_S",
            c.max_fall_speed_m_s,
            "max_fall_speed_m_s",
        ),
    ] {
        let v = out.num(name, value)?;
        out.line(&format!("const {name} := {v}  # {what}"));
    }
    out.blank();
    out.line("func _ready() -> void:");
    out.line("\tup_direction = Vector3.UP");
    let slope = out.num("floor_max_angle", c.max_slope_deg.to_radians())?;
    out.line(&format!(
        "\tfloor_max_angle = {slope}  # max_slope_deg = {} degrees, in radians",
        short(c.max_slope_deg)
    ));
    out.line("\t# Stand on walkable slopes without creeping down, as Collidoscope's character.");
    out.line("\tfloor_stop_on_slope = true");
    let snap = out.num("floor_snap_length", c.snap_distance_m)?;
    out.line(&format!("\tfloor_snap_length = {snap}  # snap_distance_m"));
    let margin_m = out.within(
        "safe_margin",
        s.skin,
        0.001,
        256.0,
        "0.001 to 256 m in the inspector",
    );
    let margin = out.num("safe_margin", margin_m)?;
    out.line(&format!("\tsafe_margin = {margin}  # skin"));
    out.line(&format!(
        "\tmax_slides = {}  # max_iterations",
        s.max_iterations
    ));
    shape(cap, out)?;
    out.blank();
    ticks(s, out);
    out.not_mapped(&format!(
        "max_step_height_m = {} m, min_tread_depth_m = {} m: CharacterBody3D has no step-up \
         built in (move_and_slide climbs only what its shape rolls over)",
        short(c.max_step_height_m),
        short(c.min_tread_depth_m)
    ));
    out.not_mapped(&format!(
        "min_move = {} m: CharacterBody3D has no least move",
        short(s.min_move)
    ));
    Ok(())
}

/// The capsule, total height, never shorter than its diameter.
fn shape(cap: &Capsule, out: &mut Snippet) -> Result<(), ExportError> {
    let radius = out.num("radius", cap.radius_m)?;
    let height = out.num("height", cap.height_at_least_diameter_m())?;
    out.line("\tvar capsule := CapsuleShape3D.new()");
    out.line(&format!("\tcapsule.radius = {radius}"));
    out.line(&format!(
        "\tcapsule.height = {height}  # total height, round ends included"
    ));
    out.line("\t$CollisionShape3D.shape = capsule");
    Ok(())
}

/// `frame_rate_hz` → the project's physics ticks, a whole number ≥ 1.
fn ticks(s: &SlideSettings, out: &mut Snippet) {
    let rate = s.character.frame_rate_hz;
    let whole = rate.round().max(1.0);
    if whole != rate {
        out.warn(&format!(
            "physics_ticks_per_second: the tuned frame_rate_hz {} is not a whole number of \
             ticks, which Godot needs; written as {whole}",
            short(rate)
        ));
    }
    out.comment(&format!(
        "Project Settings: physics/common/physics_ticks_per_second = {whole} (frame_rate_hz)."
    ));
}

/// Reads [`write`]'s output back: the constants, the body's fields
/// (radians to degrees), the capsule (half the total height is the
/// vertical radius) and the physics ticks from the project-settings note.
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    let radius_field = Field::code(&["capsule.radius"], "capsule.radius", "radii");
    let found = r.required(&radius_field)?;
    let radius = r.value(&radius_field, found, id, id, Range::RADIUS)?;
    let height = Field::code(&["capsule.height"], "capsule.height", "radii");
    let found = r.required(&height)?;
    let y = r.value(&height, found, |h| h / 2.0, |y| 2.0 * y, Range::RADIUS)?;
    s.radii = [radius, y, radius];
    let slope = Field::code(
        &["floor_max_angle"],
        "floor_max_angle",
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
        &Field::code(&["safe_margin"], "safe_margin", "skin"),
        Range::SOLVER_LENGTH,
        &mut s.skin,
    )?;
    r.iterations(
        &Field::code(&["max_slides"], "max_slides", "max_iterations"),
        &mut s.max_iterations,
    )?;
    let c = &mut s.character;
    r.same_unit(
        &Field::code(
            &["floor_snap_length"],
            "floor_snap_length",
            "character.snap_distance_m",
        ),
        Range::CHARACTER,
        &mut c.snap_distance_m,
    )?;
    for (key, setting, range, target) in [
        (
            "WALK_SPEED_M_S",
            "character.walk_speed_m_s",
            Range::CHARACTER,
            &mut c.walk_speed_m_s,
        ),
        (
            "JUMP_VELOCITY",
            "character.jump_speed_m_s",
            Range::CHARACTER,
            &mut c.jump_speed_m_s,
        ),
        (
            "GRAVITY_M_S2",
            "character.gravity_m_s2",
            Range::CHARACTER,
            &mut c.gravity_m_s2,
        ),
        (
            "MAX_FALL_SPEED_M_S",
            "character.max_fall_speed_m_s",
            Range::FALL,
            &mut c.max_fall_speed_m_s,
        ),
    ] {
        r.same_unit(&Field::code(&[key], key, setting), range, target)?;
    }
    r.same_unit(
        &Field::code(
            &["physics_ticks_per_second"],
            "physics/common/physics_ticks_per_second",
            "character.frame_rate_hz",
        )
        .noted(),
        Range::FRAME_RATE,
        &mut c.frame_rate_hz,
    )?;
    r.not_read(format!("max_step_height_m = {}", c.max_step_height_m));
    r.not_read(format!("min_tread_depth_m = {}", c.min_tread_depth_m));
    r.not_read(format!("min_move = {}", s.min_move));
    Ok(())
}
