//! Probe editing on the editor state: placing a probe so it rests on a
//! surface, duplicating, deleting, editing, settings files, and walking.
//! World space throughout.

use crate::app::command::ProbeParams;
use crate::app::state::{EditorState, Probe};
use crate::app::walk::WalkInput;
use crate::collide::{SlideSettings, TraceDetail, slide};
use crate::export::engines::{self, Engine};
use glam::DVec3;
use std::path::Path;

/// Distance from an ellipsoid's centre to its tangent plane with unit
/// normal `n` (the ellipsoid's support function): `|radii * n|`.
pub fn support_distance(radii: DVec3, n: DVec3) -> f64 {
    (radii * n).length()
}

/// Where a probe with `settings` rests when placed on the surface at
/// `point` with normal `normal` (world space): lifted off the surface along
/// the normal's upward side by its support distance (plus the skin), then
/// settled downwards with the solver so it touches what is below.
pub fn resting_center(
    state: &EditorState,
    settings: &SlideSettings,
    point: DVec3,
    normal: DVec3,
) -> DVec3 {
    let mut n = normal.normalize_or(DVec3::Y);
    if n.y < 0.0 {
        n = -n;
    }
    let radii = settings.radii_vec();
    let lift = support_distance(radii, n) + 2.0 * settings.skin;
    let start = point + n * lift;
    let Some(level) = &state.level else {
        return start;
    };
    let flags = state.colliding_flags();
    let world = if flags.len() == level.mesh.objects.len() {
        level.world_with(&flags)
    } else {
        level.world()
    };
    let mut settle = settings.clone();
    settle.gravity = [0.0, 0.0, 0.0];
    // A drop of one radius: enough to reach the surface on slopes, short
    // enough not to fall off a ledge the user clicked next to.
    let drop = DVec3::new(0.0, -radii.y, 0.0);
    slide(world, &settle, start, drop, TraceDetail::Summary)
        .map(|r| r.final_position)
        .unwrap_or(start)
}

/// Adds a probe resting on the clicked surface and selects it.
/// Surfaces steeper than this (degrees from horizontal) do not take a
/// probe: a wall's face or a slab's side would put it beside or under the
/// level.
pub const MAX_PLACE_SLOPE_DEG: f64 = 80.0;

/// Why a click at a surface with `normal` cannot take a probe, if it cannot.
pub fn place_refusal(normal: DVec3) -> Option<String> {
    let n = normal.normalize_or_zero();
    // Either side: a floor seen from below still takes a probe on top
    // (`resting_center` flips the normal up).
    let slope = n.y.abs().min(1.0).acos().to_degrees();
    if n == DVec3::ZERO || slope > MAX_PLACE_SLOPE_DEG {
        return Some(format!(
            "Place: that surface is not a floor (it slopes {slope:.0}°, the limit is \
             {MAX_PLACE_SLOPE_DEG:.0}°); click a floor, a stair or a ramp"
        ));
    }
    None
}

/// Places a probe resting on the surface at `point` (refused, with a
/// message, on a surface that is not a floor).
pub fn place(state: &mut EditorState, point: DVec3, normal: DVec3) {
    if let Some(why) = place_refusal(normal) {
        state.error(why);
        return;
    }
    let settings = state
        .selected_probe()
        .map(|p| p.settings.clone())
        .unwrap_or_default();
    let center = resting_center(state, &settings, point, normal);
    let name = format!("Probe {}", state.next_probe_number);
    state.next_probe_number += 1;
    let mut probe = Probe::new(name, state.next_color(), center, DVec3::new(2.0, 0.0, 0.0));
    probe.settings = settings;
    state.probes.push(probe);
    let i = state.probes.len() - 1;
    state.selected = Some(i);
    state.restart_probe(i);
    state.info(format!(
        "Placed {} at ({:.3}, {:.3}, {:.3}) m",
        state.probes[i].name, center.x, center.y, center.z
    ));
}

/// Copies probe `i` (offset sideways by its diameter) and selects the copy.
pub fn duplicate(state: &mut EditorState, i: usize) {
    let Some(src) = state.probes.get(i) else {
        return;
    };
    let mut copy = src.clone();
    copy.name = format!("{} copy", src.name);
    copy.color = state.next_color();
    copy.position.x += 2.0 * src.settings.radii[0];
    // The copy steps its own raw move, not a walk frame opened on the original.
    copy.stepper = Default::default();
    state.probes.push(copy);
    let j = state.probes.len() - 1;
    state.selected = Some(j);
    state.restart_probe(j);
}

/// Removes probe `i`, keeping the selection on a neighbour.
pub fn delete(state: &mut EditorState, i: usize) {
    if i >= state.probes.len() {
        return;
    }
    state.probes.remove(i);
    state.selected = match state.selected {
        _ if state.probes.is_empty() => None,
        Some(s) if s > i => Some(s - 1),
        Some(s) if s == i => Some(i.min(state.probes.len() - 1)),
        s => s,
    };
    state.walk.active = state.walk.active && state.selected.is_some();
}

/// Replaces probe `i`'s parameters; the move restarts when they changed.
/// Invalid settings are refused with a message (in the status bar and
/// beside the settings, [`EditorState::settings_error`]) and change nothing.
/// A character frame open in the stepper reruns with new settings; a new
/// position or velocity goes back to the raw move.
pub fn update(state: &mut EditorState, i: usize, params: ProbeParams) {
    let valid = params.settings.validate().map_err(|e| e.to_string());
    if let Err(e) = valid.and_then(|()| params.method_settings.validate()) {
        let msg = format!("Refused: {}", crate::app::fields::compact_numbers(&e));
        state.settings_error = Some(msg.clone());
        state.error(msg);
        return;
    }
    state.settings_error = None;
    let whatif_before = crate::app::whatif::before_edit(state, i, &params);
    let Some(p) = state.probes.get_mut(i) else {
        return;
    };
    // New radii with the same position keep the probe's lowest point where
    // it was: a probe standing on a floor stays on it, rather than float
    // (smaller) or sink into it (taller).
    let mut params = params;
    let (old_ry, new_ry) = (p.settings.radii[1], params.settings.radii[1]);
    if p.position == params.position && old_ry != new_ry {
        params.position.y += new_ry - old_ry;
    }
    let moved = p.position != params.position || p.velocity != params.velocity;
    let changed = moved
        || p.settings != params.settings
        || p.method != params.method
        || p.method_settings != params.method_settings;
    // Another method steps its own move, not a walk frame.
    if moved || p.method != params.method {
        p.stepper = Default::default();
    }
    p.name = params.name;
    p.color = params.color;
    p.position = params.position;
    p.velocity = params.velocity;
    p.settings = params.settings;
    p.method = params.method;
    p.method_settings = params.method_settings;
    if changed {
        state.restart_probe(i);
    }
    crate::app::whatif::after_edit(state, i, whatif_before);
}

/// Current parameters of probe `i`.
pub fn params_of(p: &Probe) -> ProbeParams {
    ProbeParams {
        name: p.name.clone(),
        color: p.color,
        position: p.position,
        velocity: p.velocity,
        settings: p.settings.clone(),
        method: p.method,
        method_settings: p.method_settings.clone(),
    }
}

/// Shown when settings are exported with no probe selected.
pub const NO_PROBE_TO_EXPORT: &str = "Select a probe whose settings to export";
/// Shown when settings are imported with no probe selected.
pub const NO_PROBE_TO_IMPORT: &str = "Select a probe to import settings into";

/// The open level's file: never replaced by an export.
fn level_inputs(state: &EditorState) -> Vec<std::path::PathBuf> {
    state.level_path.iter().cloned().collect()
}

/// Exports replace an existing file: the system dialog asked first, and
/// the typed path refuses one (see [`crate::app::file_prompt::validate`]).
/// Still atomic, never through a symbolic link, never over the level.
fn replace_asked(inputs: &[std::path::PathBuf]) -> crate::fileio::WriteRules<'_> {
    crate::fileio::WriteRules::new().force(true).inputs(inputs)
}

/// Writes the selected probe's settings (TOML or JSON by extension).
pub fn export_settings(state: &mut EditorState, path: &Path) {
    let Some(p) = state.selected_probe() else {
        state.info(NO_PROBE_TO_EXPORT);
        return;
    };
    let inputs = level_inputs(state);
    match crate::settings_file::save(&p.settings, path, &replace_asked(&inputs)) {
        Ok(()) => state.info(format!("Settings written to {}", path.display())),
        Err(e) => state.error(format!("Could not export settings: {e}")),
    }
}

/// Writes the selected probe's settings in `engine`'s terms (see
/// [`crate::export::engines`]); values out of the engine's range are
/// written in range and counted in the message.
pub fn export_for_engine(state: &mut EditorState, engine: Engine, path: &Path) {
    let Some(p) = state.selected_probe() else {
        state.info(NO_PROBE_TO_EXPORT);
        return;
    };
    let inputs = level_inputs(state);
    let written = engines::export(engine, &p.settings)
        .map_err(|e| e.to_string())
        .and_then(|out| {
            crate::fileio::write_bytes(path, out.text.as_bytes(), &replace_asked(&inputs))
                .map(|()| out.warnings.len())
                .map_err(|e| format!("{}: {e}", path.display()))
        });
    match written {
        Ok(0) => state.info(format!(
            "{} settings written to {}",
            engine.title(),
            path.display()
        )),
        Ok(n) => state.info(format!(
            "{} settings written to {} ({n} value(s) out of {}'s range: see the WARNING comments)",
            engine.title(),
            path.display(),
            engine.name()
        )),
        Err(e) => state.error(format!("Could not export for {}: {e}", engine.name())),
    }
}

/// Reads settings into the selected probe; a bad file changes nothing.
pub fn import_settings(state: &mut EditorState, path: &Path) {
    let Some(i) = state.selected.filter(|&i| i < state.probes.len()) else {
        state.info(NO_PROBE_TO_IMPORT);
        return;
    };
    match crate::settings_file::load(path) {
        Ok(settings) => {
            let named = apply_non_colliding(state, &settings.level.non_colliding);
            let mut params = params_of(&state.probes[i]);
            params.settings = settings;
            update(state, i, params);
            state.info(format!("Settings read from {}{named}", path.display()));
        }
        Err(e) => state.error(format!("Could not import settings (nothing changed): {e}")),
    }
}

/// Switches off the collisions of the loaded level's objects that the
/// settings' `[level] non_colliding` patterns name (the window's Objects
/// list shows them unticked); says how many, for the status bar.
fn apply_non_colliding(state: &mut EditorState, patterns: &[String]) -> String {
    let Some(level) = state.level.clone().filter(|_| !patterns.is_empty()) else {
        return String::new();
    };
    let (named, objects, triangles) = crate::collide::objects_named(level.mesh(), patterns);
    for (flags, n) in state.objects.iter_mut().zip(named) {
        if n {
            flags.colliding = false;
        }
    }
    if objects > 0 {
        state.restart_all();
    }
    format!(
        "; treated as non-colliding by its [level] patterns: {objects} objects, {triangles} triangles"
    )
}

/// Walk mode for one window frame: runs the character frames `input.dt`
/// covers for the selected probe and moves its start position to where the
/// character is. Returns `false` when walk mode cannot run (no level, no
/// probe, settings or position refused: then walk mode stops with a message).
pub fn walk_frame(state: &mut EditorState, input: WalkInput) -> bool {
    let Some(i) = state.selected else {
        return false;
    };
    // The level with the placed cylinders' prisms, as the stepper's: a
    // walk meets the poles a probe's slide meets.
    let Some(level) = crate::app::cylinders::collision_level(state) else {
        return false;
    };
    let flags = crate::app::cylinders::colliding_flags_for(state, &level);
    let Some(p) = state.probes.get(i) else {
        return false;
    };
    let world = level.world_with(&flags);
    let (settings, pos) = (p.settings.clone(), p.position);
    match state.walk.update(world, &settings, pos, input) {
        Ok(0) => true,
        Ok(_) => {
            let p = &mut state.probes[i];
            p.position = state.walk.character.map_or(pos, |c| c.position);
            p.stepper = Default::default();
            true
        }
        Err(e) => {
            state.walk.active = false;
            state.checkpoint_walk();
            state.error(format!("Walk mode stopped: {e}"));
            false
        }
    }
}
