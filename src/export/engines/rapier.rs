//! Rapier (Rust): `KinematicCharacterController` and the character's
//! collider. Rapier works in the application's units (metres here) with a
//! configurable up (its default, +Y, is Collidoscope's); angles in radians.
//! Source: docs.rs `rapier3d::control::KinematicCharacterController`.

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
    out.line("use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};");
    out.line("use rapier3d::prelude::*;");
    out.blank();
    out.comment("The character's collider: a capsule along Y (half the straight part, then the");
    out.comment("radius), centred on the character's position as Collidoscope's probe is.");
    out.line("pub fn collidoscope_collider() -> Collider {");
    let radius = out.num("radius", cap.radius_m)?;
    if cap.cylinder_m() > 0.0 {
        let half = out.num("half_height", cap.cylinder_m() / 2.0)?;
        out.line(&format!(
            "    ColliderBuilder::capsule_y({half}, {radius}).build()"
        ));
    } else {
        out.line(&format!("    ColliderBuilder::ball({radius}).build()"));
    }
    out.line("}");
    out.blank();
    out.comment("Up is Rapier's default, +Y, as in Collidoscope.");
    out.line("pub fn collidoscope_controller() -> KinematicCharacterController {");
    out.line("    KinematicCharacterController {");
    offset(s, out)?;
    out.line("        slide: true,");
    autostep(s, out)?;
    let slope = out.num("max_slope_climb_angle", c.max_slope_deg.to_radians())?;
    out.line(&format!(
        "        // max_slope_deg = {} degrees, in radians.",
        short(c.max_slope_deg)
    ));
    out.line(&format!("        max_slope_climb_angle: {slope},"));
    out.line(
        "        // Collidoscope's character stands on any walkable slope and slides down only",
    );
    out.line("        // steeper ones: the slide angle is the climb angle.");
    out.line(&format!("        min_slope_slide_angle: {slope},"));
    if c.snap_distance_m > 0.0 {
        let snap = out.num("snap_to_ground", c.snap_distance_m)?;
        out.line("        // snap_distance_m.");
        out.line(&format!(
            "        snap_to_ground: Some(CharacterLength::Absolute({snap})),"
        ));
    } else {
        out.line("        // snap_distance_m = 0: no snap.");
        out.line("        snap_to_ground: None,");
    }
    out.line("        ..KinematicCharacterController::default()");
    out.line("    }");
    out.line("}");
    out.blank();
    loop_constants(s, out)?;
    out.not_mapped(&format!(
        "max_iterations = {}: Rapier's controller runs its own loop",
        s.max_iterations
    ));
    out.not_mapped(&format!(
        "min_move = {} m: Rapier has no least move",
        short(s.min_move)
    ));
    Ok(())
}

/// `skin` → `offset`, which Rapier's documentation says must not be zero.
fn offset(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    if s.skin > 0.0 {
        let skin = out.num("offset", s.skin)?;
        out.line("        // skin.");
        out.line(&format!(
            "        offset: CharacterLength::Absolute({skin}),"
        ));
    } else {
        out.warn(
            "offset: the tuned skin is 0, and Rapier's offset must not be zero; written as \
             Rapier's default, 1 % of the character's size",
        );
        out.line("        offset: CharacterLength::Relative(0.01),");
    }
    Ok(())
}

/// `max_step_height_m`, `min_tread_depth_m` → `autostep` (none for 0).
fn autostep(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    let c = &s.character;
    if c.max_step_height_m <= 0.0 {
        out.line("        // max_step_height_m = 0: no step-up.");
        out.line("        autostep: None,");
        return Ok(());
    }
    let height = out.num("autostep.max_height", c.max_step_height_m)?;
    let width = out.num("autostep.min_width", c.min_tread_depth_m)?;
    out.line("        // max_step_height_m, min_tread_depth_m. Collidoscope's levels hold no");
    out.line("        // dynamic bodies; Rapier's default steps onto them too.");
    out.line("        autostep: Some(CharacterAutostep {");
    out.line(&format!(
        "            max_height: CharacterLength::Absolute({height}),"
    ));
    out.line(&format!(
        "            min_width: CharacterLength::Absolute({width}),"
    ));
    out.line("            include_dynamic_bodies: true,");
    out.line("        }),");
    // handle_stairs moves the capsule min_width (and the offset) over the
    // riser's edge; resting there steeper than the slope limit it slides
    // back off. Say how wide min_width must be for a riser of the step
    // height (the `rapier` engine profile walks this rule).
    let r = s.radii_vec().x.max(s.radii_vec().z);
    let h = c.max_step_height_m.min(r);
    let slope = c.max_slope_deg.to_radians();
    let needed = ((r * r - (r - h) * (r - h)).max(0.0).sqrt() - r * slope.sin()).max(0.0);
    if c.min_tread_depth_m + s.skin < needed / std::f64::consts::FRAC_1_SQRT_2 {
        out.line(&format!(
            "        // Note: a capsule of radius {} m stands on a {} m riser's edge only {:.3} m",
            short(r),
            short(c.max_step_height_m),
            needed
        ));
        out.line(&format!(
            "        // past touching it ({:.3} m walking at 45 degrees to it); with min_width + offset",
            needed / std::f64::consts::FRAC_1_SQRT_2
        ));
        out.line(
            "        // less than that, the autostep leaves it on the edge and it slides back off.",
        );
    }
    Ok(())
}

/// What Rapier leaves to the game loop: speeds, gravity, the frame time.
fn loop_constants(s: &SlideSettings, out: &mut Snippet) -> Result<(), ExportError> {
    let c = &s.character;
    out.comment("Rapier's controller moves by what it is given: your loop applies these.");
    for (name, value, what) in [
        ("WALK_SPEED_M_S", c.walk_speed_m_s, "walk_speed_m_s"),
        ("JUMP_SPEED_M_S", c.jump_speed_m_s, "jump_speed_m_s"),
        (
            "GRAVITY_M_S2",
            c.gravity_m_s2,
            "gravity_m_s2, pulling down (-Y)",
        ),
        (
            "MAX_FALL_SPEED_M_S",
            c.max_fall_speed_m_s,
            "max_fall_speed_m_s",
        ),
        ("FRAME_TIME_S", c.frame_time_s(), "1 / frame_rate_hz"),
    ] {
        let v = out.num(name, value)?;
        out.line(&format!("pub const {name}: f32 = {v}; // {what}"));
    }
    Ok(())
}

/// Reads [`write`]'s output back: the collider's capsule (or ball), the
/// controller's fields (radians to degrees) and the loop constants (the
/// frame time to a rate). A `CharacterLength::Relative` length (a share of
/// the character's size) is not read back: that setting keeps its default.
pub(super) fn read(r: &mut Reader, s: &mut SlideSettings) -> Result<(), ImportError> {
    const CAPSULE: &[&str] = &["ColliderBuilder::capsule_y(", "capsule_y("];
    const BALL: &[&str] = &["ColliderBuilder::ball(", "ball("];
    let capsule = Field::code(CAPSULE, "ColliderBuilder::capsule_y", "radii");
    let ball = Field::code(BALL, "ColliderBuilder::ball", "radii");
    let capsule_line = r.line_with(CAPSULE);
    let ball_line = r.line_with(BALL);
    if ball_line.is_some_and(|b| capsule_line.is_none_or(|c| b > c)) {
        let found = r.required(&ball)?;
        let radius = r.value(&ball, found, id, id, Range::RADIUS)?;
        s.radii = [radius, radius, radius];
    } else {
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
    }
    length(
        r,
        &Field::code(&["offset:CharacterLength::Absolute("], "offset", "skin"),
        &["offset:CharacterLength::Relative("],
        Range::SOLVER_LENGTH,
        &mut s.skin,
    )?;
    let c = &mut s.character;
    let slope = Field::code(
        &["max_slope_climb_angle"],
        "max_slope_climb_angle",
        "character.max_slope_deg",
    );
    let found = r.required(&slope)?;
    c.max_slope_deg = r.value(
        &slope,
        found,
        f64::to_degrees,
        f64::to_radians,
        Range::SLOPE,
    )?;
    let step = Field::code(
        &["max_height:CharacterLength::Absolute("],
        "autostep.max_height",
        "character.max_step_height_m",
    );
    let tread = Field::code(
        &["min_width:CharacterLength::Absolute("],
        "autostep.min_width",
        "character.min_tread_depth_m",
    );
    if turned_off(r, "autostep:None", "autostep:Some(") {
        c.max_step_height_m = 0.0;
        r.absent(&tread, c.min_tread_depth_m);
    } else {
        let relative: &[&str] = &["max_height:CharacterLength::Relative("];
        length(
            r,
            &step,
            relative,
            Range::CHARACTER,
            &mut c.max_step_height_m,
        )?;
        let relative: &[&str] = &["min_width:CharacterLength::Relative("];
        length(
            r,
            &tread,
            relative,
            Range::CHARACTER,
            &mut c.min_tread_depth_m,
        )?;
    }
    let snap = Field::code(
        &["snap_to_ground:Some(CharacterLength::Absolute("],
        "snap_to_ground",
        "character.snap_distance_m",
    );
    if turned_off(r, "snap_to_ground:None", "snap_to_ground:Some(") {
        c.snap_distance_m = 0.0;
    } else {
        let relative: &[&str] = &["snap_to_ground:Some(CharacterLength::Relative("];
        length(r, &snap, relative, Range::CHARACTER, &mut c.snap_distance_m)?;
    }
    for (key, setting, range, target) in [
        (
            "WALK_SPEED_M_S",
            "character.walk_speed_m_s",
            Range::CHARACTER,
            &mut c.walk_speed_m_s,
        ),
        (
            "JUMP_SPEED_M_S",
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
    r.frame_time(
        &Field::code(&["FRAME_TIME_S"], "FRAME_TIME_S", "character.frame_rate_hz"),
        &mut c.frame_rate_hz,
    )?;
    r.not_read(format!("max_iterations = {}", s.max_iterations));
    r.not_read(format!("min_move = {}", s.min_move));
    Ok(())
}

/// Whether the feature is written off (`off`) on a later line than on (`on`).
fn turned_off(r: &Reader, off: &str, on: &str) -> bool {
    let off = r.line_with(&[off]);
    let on = r.line_with(&[on]);
    off.is_some_and(|off| on.is_none_or(|on| off > on))
}

/// A `CharacterLength::Absolute` length; a relative one, or none, keeps
/// the default (listed as not read).
fn length(
    r: &mut Reader,
    absolute: &Field,
    relative: &[&str],
    range: Range,
    target: &mut f64,
) -> Result<(), ImportError> {
    let relative_line = r.line_with(relative);
    let absolute_line = r.line_with(absolute.keys);
    if let Some(line) = relative_line
        && absolute_line.is_none_or(|a| line > a)
    {
        let name = absolute.setting.trim_start_matches("character.");
        r.not_read(format!(
            "{name} = {} (line {line}: {} is CharacterLength::Relative, a share of the \
             character's size, not a length)",
            *target, absolute.name
        ));
        return Ok(());
    }
    r.same_unit(absolute, range, target)
}
