//! Probes carried to another level. Positions and radii that suited the
//! last level mean nothing on the next one: a probe may hang in mid-air,
//! sit outside the level or dwarf it (a 0.9 m player on a level imported at
//! centimetre scale). When a level loads and probes exist, the user is
//! asked to keep them, re-seat them on the floor under their X and Z (cast
//! straight down through the level's BVH, then settled with the solver as
//! placing does) or clear them, and the misfits are named. World space.

use crate::app::pick::pick;
use crate::app::probes::resting_center;
use crate::app::state::{CarryChoice, CarryPrompt, EditorState, Probe};
use crate::level::Level;
use glam::{DVec3, Vec3};

/// A probe whose bottom is farther than this above the floor under it is
/// said to float (resting probes keep a skin of millimetres).
pub const FLOAT_GAP_M: f64 = 0.1;

/// The first surface a ray cast straight down from `from` meets, as point
/// and upward normal.
fn surface_below(level: &Level, from: DVec3) -> Option<(DVec3, DVec3)> {
    let hit = pick(level, from.as_vec3(), Vec3::NEG_Y)?;
    let n = if hit.normal.y < 0.0 {
        -hit.normal
    } else {
        hit.normal
    };
    Some((hit.point, n))
}

/// The floor for a probe centred at `c`: the surface under it, else (it is
/// below everything) the top surface at its X and Z.
fn floor_for(level: &Level, c: DVec3) -> Option<(DVec3, DVec3)> {
    let bounds = level.mesh.bounds();
    if bounds.is_empty() {
        return None;
    }
    let above = DVec3::new(c.x, f64::from(bounds.max.y) + 1.0, c.z);
    surface_below(level, c).or_else(|| surface_below(level, above))
}

/// Why probe `p` does not fit `level`, if it does not.
fn misfit(level: &Level, p: &Probe) -> Option<String> {
    let bounds = level.mesh.bounds();
    let size = (bounds.max - bounds.min).as_dvec3();
    let extent = size.max_element();
    let diameter = 2.0 * p.radii().max_element();
    if diameter > extent {
        return Some(format!(
            "{} ({diameter:.2} m across) is larger than the whole level ({extent:.2} m)",
            p.name
        ));
    }
    let (c, r) = (p.position, p.radii());
    let bottom = c.y - r.y;
    match surface_below(level, c) {
        Some((floor, _)) if bottom - floor.y > FLOAT_GAP_M => Some(format!(
            "{} floats {:.2} m above the floor",
            p.name,
            bottom - floor.y
        )),
        Some(_) => None,
        None => {
            let (lo, hi) = (bounds.min.as_dvec3(), bounds.max.as_dvec3());
            if (c + r).cmplt(lo).any() || (c - r).cmpgt(hi).any() {
                Some(format!("{} lies outside the level's box", p.name))
            } else {
                Some(format!("{} has no floor under it", p.name))
            }
        }
    }
}

/// Asks what to do with the probes a new level received, or applies the
/// answer remembered for this session.
pub fn ask_about_carried_probes(state: &mut EditorState) {
    if let Some(choice) = state.carry_choice {
        carry(state, choice, true);
        return;
    }
    let Some(level) = state.level.clone() else {
        return;
    };
    let misfits = state
        .probes
        .iter()
        .filter_map(|p| misfit(&level, p))
        .collect();
    state.carry_prompt = Some(CarryPrompt {
        level_name: level.name.clone(),
        misfits,
    });
}

/// Keeps, re-seats or clears the probes; `remember` answers the same way
/// for the rest of the session.
pub fn carry(state: &mut EditorState, choice: CarryChoice, remember: bool) {
    state.carry_prompt = None;
    if remember {
        state.carry_choice = Some(choice);
    }
    let n = state.probes.len();
    match choice {
        CarryChoice::Keep => state.info(format!("{} kept where they were", probes_words(n))),
        CarryChoice::Clear => {
            state.probes.clear();
            state.selected = None;
            state.walk.active = false;
            state.highlight = None;
            state.info(format!(
                "{} from the previous level cleared",
                probes_words(n)
            ));
        }
        CarryChoice::Reseat => {
            let unseated = reseat_all(state);
            if unseated.is_empty() {
                state.info(format!("{} re-seated on the floor", probes_words(n)));
            } else {
                state.error(format!(
                    "No floor under {} (left where they were)",
                    unseated.join(", ")
                ));
            }
        }
    }
}

/// Moves every probe onto the floor under it (else the top surface at its
/// X and Z, else at its X and Z clamped into the level's box, else at the
/// box's middle); returns the names of those with
/// no floor found at all.
fn reseat_all(state: &mut EditorState) -> Vec<String> {
    let Some(level) = state.level.clone() else {
        return Vec::new();
    };
    let bounds = level.mesh.bounds();
    let (lo, hi) = (bounds.min.as_dvec3(), bounds.max.as_dvec3());
    let mut unseated = Vec::new();
    for i in 0..state.probes.len() {
        let p = &state.probes[i];
        let (c, r) = (p.position, p.radii());
        // Inside the box by the probe's own radius where the box allows,
        // so a probe brought in from outside does not hang over an edge.
        let inward = |v: f64, lo: f64, hi: f64, r: f64| {
            if hi - lo > 2.0 * r {
                v.clamp(lo + r, hi - r)
            } else {
                (lo + hi) / 2.0
            }
        };
        let clamped = DVec3::new(
            inward(c.x, lo.x, hi.x, r.x),
            hi.y,
            inward(c.z, lo.z, hi.z, r.z),
        );
        let middle = (lo + hi) / 2.0;
        let floor = floor_for(&level, c)
            .or_else(|| floor_for(&level, clamped))
            .or_else(|| floor_for(&level, DVec3::new(middle.x, hi.y, middle.z)));
        let Some((point, normal)) = floor else {
            unseated.push(p.name.clone());
            continue;
        };
        let settings = p.settings.clone();
        let center = resting_center(state, &settings, point, normal);
        let p = &mut state.probes[i];
        p.position = center;
        p.stepper = Default::default();
        state.restart_probe(i);
    }
    unseated
}

/// "1 probe", "3 probes".
pub fn probes_words(n: usize) -> String {
    if n == 1 {
        "1 probe".into()
    } else {
        format!("{n} probes")
    }
}
