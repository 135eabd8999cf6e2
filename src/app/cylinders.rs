//! The scene's vertical cylinders (poles, trees) in the window: placing,
//! editing and deleting them, and the level the probes collide with when
//! there are any (the level plus each placed cylinder's prism, so the
//! swept ellipsoid meets the poles the radial method pushes out of; the
//! level's objects named by the cylinder rule are poles too, and keep their
//! own triangles; see
//! [`crate::level::cylinder`] and [`crate::methods::radial`], seed
//! document 002). World space, metres.

use crate::app::state::EditorState;
use crate::level::Level;
use crate::level::cylinder::{
    Cylinder, MAX_CYLINDERS, NamedCylinderObjects, colliding_cylinder_objects, level_with_cylinders,
};
use glam::DVec3;
use std::sync::Arc;

/// Radius of a newly placed cylinder, metres (a lamp post or a thin trunk).
pub const NEW_RADIUS_M: f64 = 0.3;
/// Height of a newly placed cylinder, metres.
pub const NEW_HEIGHT_M: f64 = 3.0;

/// The level with the cylinders' prisms, and what it was built from.
#[derive(Clone, Debug)]
pub struct CylinderLevel {
    /// The level it was built on (compared by pointer).
    base: Arc<Level>,
    /// The cylinders it holds.
    cylinders: Vec<Cylinder>,
    /// The level plus the prisms.
    level: Arc<Level>,
}

/// Whether the view draws the cylinders: when the radial method is in
/// play (some were placed, or the selected probe moves by it). Otherwise a
/// level's pillars are plain geometry, and a "pole i" label on each would
/// only crowd the view.
pub fn cylinders_drawn(st: &EditorState) -> bool {
    !st.cylinders.is_empty()
        || st
            .selected_probe()
            .is_some_and(|p| p.method == crate::methods::Method::Radial)
}

/// Every cylinder of the scene, numbered as the radial method numbers them:
/// first the level's objects named by the rule
/// ([`crate::level::cylinder::is_cylinder_object_name`], e.g. the built-in
/// level's `pillar_*`), then the placed ones ([`EditorState::cylinders`]).
pub fn scene_cylinders(st: &EditorState) -> Vec<Cylinder> {
    let mut out: Vec<Cylinder> = named_objects(st)
        .cylinders
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    out.extend(st.cylinders.iter().copied());
    out.truncate(MAX_CYLINDERS);
    out
}

/// How many of [`scene_cylinders`] come from the level's named objects
/// (placed cylinder `i` is pole `named_count + i`).
pub fn named_count(st: &EditorState) -> usize {
    named_objects(st).cylinders.len()
}

/// The level's objects named by the cylinder rule, those switched off for
/// collision (the Objects list) among the unusable: a trigger pushes
/// nothing out.
pub fn named_objects(st: &EditorState) -> NamedCylinderObjects {
    st.level
        .as_ref()
        .map_or_else(NamedCylinderObjects::default, |l| {
            colliding_cylinder_objects(l.mesh(), &st.colliding_flags())
        })
}

/// The level the probes collide with: the loaded level, plus the
/// cylinders' prisms when there are cylinders (built once per change and
/// kept; the BVH is rebuilt, so on a very large level an edit costs a
/// rebuild).
pub fn collision_level(st: &mut EditorState) -> Option<Arc<Level>> {
    let base = st.level.clone()?;
    if st.cylinders.is_empty() {
        st.cylinder_level = None;
        return Some(base);
    }
    let fresh = st
        .cylinder_level
        .as_ref()
        .is_some_and(|c| Arc::ptr_eq(&c.base, &base) && c.cylinders == st.cylinders);
    if !fresh {
        let level = Arc::new(level_with_cylinders(&base, &st.cylinders));
        st.cylinder_level = Some(CylinderLevel {
            base,
            cylinders: st.cylinders.clone(),
            level,
        });
    }
    st.cylinder_level.as_ref().map(|c| c.level.clone())
}

/// The level the overlays were computed against, without building
/// anything: the cached level with prisms when it matches, else the level.
pub fn drawn_level(st: &EditorState) -> Option<&Arc<Level>> {
    let base = st.level.as_ref()?;
    match &st.cylinder_level {
        Some(c) if Arc::ptr_eq(&c.base, base) && c.cylinders == st.cylinders => Some(&c.level),
        _ => Some(base),
    }
}

/// One colliding flag per object of `level`: the level's own objects as
/// the user set them, the prisms always colliding.
pub fn colliding_flags_for(st: &EditorState, level: &Level) -> Vec<bool> {
    let mut flags = st.colliding_flags();
    flags.resize(level.mesh().objects().len(), true);
    flags
}

/// Adds a cylinder standing at `point` (its base centre).
pub fn place(st: &mut EditorState, point: DVec3) {
    if st.cylinders.len() >= MAX_CYLINDERS {
        st.error(format!("At most {MAX_CYLINDERS} cylinders"));
        return;
    }
    match Cylinder::new(point, NEW_RADIUS_M, NEW_HEIGHT_M) {
        Ok(c) => {
            st.cylinders.push(c);
            let i = named_count(st) + st.cylinders.len() - 1;
            st.info(format!(
                "Placed pole {i} at ({:.2}, {:.2}, {:.2}); edit its radius and height under Cylinders (radial)",
                point.x, point.y, point.z
            ));
            st.restart_all();
        }
        Err(e) => st.error(format!("Cannot place a cylinder there: {e}")),
    }
}

/// Replaces cylinder `i`; an invalid one is refused with the reason.
pub fn update(st: &mut EditorState, i: usize, c: Cylinder) {
    if i >= st.cylinders.len() {
        return;
    }
    if let Err(e) = c.validate() {
        st.error(format!("Pole {}: {e}", named_count(st) + i));
        return;
    }
    if st.cylinders[i] != c {
        st.cylinders[i] = c;
        st.restart_all();
    }
}

/// Deletes cylinder `i` (the later ones are renumbered).
pub fn delete(st: &mut EditorState, i: usize) {
    if i < st.cylinders.len() {
        st.cylinders.remove(i);
        st.info(format!("Deleted pole {}", named_count(st) + i));
        st.restart_all();
    }
}

/// Drops cylinders a session file holds that are not valid (a hand-edited
/// file); says how many.
pub fn sanitize(st: &mut EditorState) {
    let before = st.cylinders.len();
    st.cylinders.retain(|c| c.validate().is_ok());
    st.cylinders.truncate(MAX_CYLINDERS);
    let dropped = before - st.cylinders.len();
    if dropped > 0 {
        st.error(format!(
            "{dropped} cylinder(s) of the saved session were invalid and were dropped"
        ));
    }
}
