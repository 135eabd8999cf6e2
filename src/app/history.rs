//! Undo and redo of the window's edits.
//!
//! Every edit of the scene (probes placed, moved, edited, duplicated or
//! deleted; cylinders placed, edited or deleted; level objects switched;
//! settings imported; a walk) is kept as the editable state before and
//! after it, a [`Doc`]: the probes' parameters, the cylinders, the objects'
//! switches and the selection, never the solver's traces (they are
//! recomputed). Undo puts the state before back, redo the state after.
//!
//! An edit made by one gesture is one step: a drag of a value or of the
//! velocity handle, or typing in a text field (the window tells the history
//! which gesture is going on, [`History::set_gesture`]). A whole walk is one
//! step. The history keeps at most [`MAX_UNDO_STEPS`] steps and about
//! [`MAX_HISTORY_BYTES`] of states, dropping the oldest first, and is
//! cleared when a level is loaded (its objects and probes belong to it).

use crate::app::command::ProbeParams;
use crate::app::probes::params_of;
use crate::app::state::{EditorState, ObjectFlags, Probe};
use crate::level::cylinder::Cylinder;
use std::collections::VecDeque;
use std::sync::Arc;

/// Most undo steps kept; the oldest are dropped first.
pub const MAX_UNDO_STEPS: usize = 100;
/// About the most memory the kept states take; the oldest steps are
/// dropped first (a level of many objects keeps fewer steps).
pub const MAX_HISTORY_BYTES: usize = 64 << 20;

/// The editable part of the editor state, as one undo step restores it.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// Every probe's parameters, in list order.
    pub probes: Vec<ProbeParams>,
    /// The placed cylinders.
    pub cylinders: Vec<Cylinder>,
    /// The level objects' shown and colliding switches.
    pub objects: Vec<ObjectFlags>,
    /// The number the next new probe is named with.
    pub next_probe_number: u32,
    /// The selected probe (restored, but not an edit by itself).
    pub selected: Option<usize>,
}

impl Doc {
    /// The editable state of `state` now.
    pub fn of(state: &EditorState) -> Doc {
        Doc {
            probes: state.probes.iter().map(params_of).collect(),
            cylinders: state.cylinders.clone(),
            objects: state.objects.clone(),
            next_probe_number: state.next_probe_number,
            selected: state.selected,
        }
    }

    /// Whether `other` holds the same scene (the selection aside).
    pub fn same_scene(&self, other: &Doc) -> bool {
        self.probes == other.probes
            && self.cylinders == other.cylinders
            && self.objects == other.objects
    }

    /// About how many bytes the state takes.
    pub fn bytes(&self) -> usize {
        let strings: usize = self
            .probes
            .iter()
            .map(|p| {
                p.name.len()
                    + p.settings
                        .level
                        .non_colliding
                        .iter()
                        .map(|s| s.len() + size_of::<String>())
                        .sum::<usize>()
            })
            .sum();
        size_of::<Doc>()
            + self.probes.len() * size_of::<ProbeParams>()
            + strings
            + self.cylinders.len() * size_of::<Cylinder>()
            + self.objects.len() * size_of::<ObjectFlags>()
    }
}

/// One undoable edit.
#[derive(Clone, Debug)]
struct Step {
    /// What it did, in the menu's words ("move Probe 2").
    label: String,
    /// The state before it.
    before: Arc<Doc>,
    /// The state after it.
    after: Arc<Doc>,
    /// What later edits of the same gesture merge on (`None`: never merged).
    key: Option<String>,
    /// The gesture it was made by.
    gesture: Option<u64>,
    /// A walk: the camera, which followed the walker, follows undo and redo.
    walk: bool,
}

impl Step {
    fn bytes(&self) -> usize {
        // Consecutive steps share their states; count each one's "after".
        self.after.bytes() + self.label.len()
    }
}

/// The undo and redo stacks.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: VecDeque<Step>,
    redo: Vec<Step>,
    /// The gesture going on now (a drag, a focused text field).
    gesture: Option<u64>,
    /// The state when the walk going on started.
    walk_start: Option<Arc<Doc>>,
}

impl History {
    /// Forgets every step (a new level).
    pub fn clear(&mut self) {
        *self = History {
            gesture: self.gesture,
            ..History::default()
        };
    }

    /// The gesture going on now: edits made while it lasts, of the same
    /// thing, are one step. `None` when nothing is dragged or focused.
    pub fn set_gesture(&mut self, gesture: Option<u64>) {
        self.gesture = gesture;
    }

    /// How many steps can be undone.
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// How many steps can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// What undo would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.back().map(|s| s.label.as_str())
    }

    /// What redo would redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|s| s.label.as_str())
    }

    /// Keeps an edit from `before` to `after` (nothing when the scene did
    /// not change). An edit of the same `key` in the gesture of the last
    /// step merges into it. Redo steps are dropped.
    pub fn record(&mut self, label: String, key: Option<String>, before: Doc, after: Doc) {
        if before.same_scene(&after) {
            return;
        }
        self.redo.clear();
        if let Some(last) = self.undo.back_mut()
            && last.gesture.is_some()
            && last.gesture == self.gesture
            && key.is_some()
            && last.key == key
        {
            last.after = Arc::new(after);
            if last.before.same_scene(&last.after) {
                self.undo.pop_back();
            }
            return;
        }
        // Share the state with the last step when it is the same.
        let before = match self.undo.back() {
            Some(last) if *last.after == before => last.after.clone(),
            _ => Arc::new(before),
        };
        self.undo.push_back(Step {
            label,
            before,
            after: Arc::new(after),
            key,
            gesture: self.gesture,
            walk: false,
        });
        self.bound();
    }

    /// Drops the oldest steps beyond the limits.
    fn bound(&mut self) {
        while self.undo.len() > MAX_UNDO_STEPS {
            self.undo.pop_front();
        }
        let mut total: usize = self.undo.iter().map(Step::bytes).sum();
        while total > MAX_HISTORY_BYTES && self.undo.len() > 1 {
            if let Some(s) = self.undo.pop_front() {
                total -= s.bytes();
            }
        }
    }

    /// Memory the kept states take, about.
    pub fn bytes(&self) -> usize {
        self.undo.iter().chain(&self.redo).map(Step::bytes).sum()
    }
}

/// What an undoable command did, in the Edit menu's words, from the state
/// before and after it; and the key consecutive edits of one gesture merge
/// on. `None` for a command that is not an edit.
fn describe(
    cmd: &crate::app::command::Command,
    state: &EditorState,
    before: &Doc,
    after: &Doc,
) -> Option<(String, Option<String>)> {
    use crate::app::command::Command as C;
    let probe_name = |d: &Doc, i: usize| {
        d.probes
            .get(i)
            .map_or("a probe".to_string(), |p| short(&p.name))
    };
    let object = |i: usize| {
        state
            .level
            .as_ref()
            .and_then(|l| l.mesh.objects.get(i))
            .map_or_else(|| format!("object {i}"), |o| short(&o.name))
    };
    let pole = |i: usize| crate::app::cylinders::named_count(state) + i;
    let words = match cmd {
        C::PlaceProbe { .. } => format!("place {}", probe_name(after, after.probes.len() - 1)),
        C::Duplicate(i) => format!("duplicate {}", probe_name(before, *i)),
        C::Delete(i) => format!("delete {}", probe_name(before, *i)),
        C::UpdateProbe(i, _) => {
            let key = Some(format!("probe {i}"));
            let (Some(a), Some(b)) = (before.probes.get(*i), after.probes.get(*i)) else {
                return Some(("edit a probe".into(), key));
            };
            return Some((edit_words(a, b), key));
        }
        C::ImportSettings(_) => format!(
            "import settings into {}",
            probe_name(before, before.selected.unwrap_or(0))
        ),
        C::SetObjectColliding(i, true) => format!("make {} solid", object(*i)),
        C::SetObjectColliding(i, false) => format!("make {} non-colliding", object(*i)),
        C::SetObjectVisible(i, true) => format!("show {}", object(*i)),
        C::SetObjectVisible(i, false) => format!("hide {}", object(*i)),
        C::PlaceCylinder(_) => format!("place pole {}", pole(after.cylinders.len() - 1)),
        C::UpdateCylinder(i, _) => {
            return Some((format!("edit pole {}", pole(*i)), Some(format!("pole {i}"))));
        }
        C::DeleteCylinder(i) => format!("delete pole {}", pole(*i)),
        C::CarryProbes { choice, .. } => match choice {
            crate::app::state::CarryChoice::Keep => "keep the probes".into(),
            crate::app::state::CarryChoice::Reseat => "re-seat the probes".into(),
            crate::app::state::CarryChoice::Clear => "clear the probes".into(),
        },
        C::OpenFinding(_) | C::OpenFindingPin(_) | C::OpenMapSpot(_) => {
            match after.probes.len() > before.probes.len() {
                true => format!("add {}", probe_name(after, after.probes.len() - 1)),
                false => "open a finding".into(),
            }
        }
        _ => return None,
    };
    Some((words, None))
}

/// Whether `cmd` may change the scene (then it is recorded for undo).
pub fn is_edit(cmd: &crate::app::command::Command) -> bool {
    use crate::app::command::Command as C;
    matches!(
        cmd,
        C::PlaceProbe { .. }
            | C::Duplicate(_)
            | C::Delete(_)
            | C::UpdateProbe(..)
            | C::ImportSettings(_)
            | C::SetObjectColliding(..)
            | C::SetObjectVisible(..)
            | C::PlaceCylinder(_)
            | C::UpdateCylinder(..)
            | C::DeleteCylinder(_)
            | C::CarryProbes { .. }
            | C::OpenFinding(_)
            | C::OpenFindingPin(_)
            | C::OpenMapSpot(_)
    )
}

/// A name cut to 40 characters for a menu.
fn short(name: &str) -> String {
    let n = name.chars().count();
    if n <= 40 {
        name.to_string()
    } else {
        format!("{}…", name.chars().take(39).collect::<String>())
    }
}

/// What an edit of one probe changed ("move Probe 2", "rename Probe 2").
fn edit_words(a: &ProbeParams, b: &ProbeParams) -> String {
    let name = short(&a.name);
    let mut what = Vec::new();
    if a.name != b.name {
        what.push(format!("rename {name}"));
    }
    if a.color != b.color {
        what.push(format!("recolour {name}"));
    }
    if a.position != b.position && a.settings.radii == b.settings.radii {
        what.push(format!("move {name}"));
    }
    if a.velocity != b.velocity {
        what.push(format!("change {name}'s velocity"));
    }
    if a.settings.character != b.settings.character {
        what.push(format!("edit {name}'s character"));
    }
    let mut sa = a.settings.clone();
    sa.character = b.settings.character.clone();
    if sa != b.settings {
        what.push(format!("edit {name}'s settings"));
    }
    if a.method != b.method || a.method_settings != b.method_settings {
        what.push(format!("edit {name}'s method"));
    }
    match what.len() {
        1 => what.remove(0),
        _ => format!("edit {name}"),
    }
}

impl EditorState {
    /// Applies an edit command and keeps it for undo (a command that
    /// changed nothing, or was refused, is not kept).
    pub(crate) fn apply_edit(
        &mut self,
        cmd: crate::app::command::Command,
    ) -> Option<crate::app::command::Effect> {
        self.checkpoint_walk();
        let before = Doc::of(self);
        let probe = cmd.clone();
        let effect = self.apply_now(cmd);
        let after = Doc::of(self);
        if !before.same_scene(&after)
            && let Some((label, key)) = describe(&probe, self, &before, &after)
        {
            self.history.record(label, key, before, after);
        }
        effect
    }

    /// Starts keeping a walk as one step (walk mode turned on).
    pub(crate) fn walk_started(&mut self) {
        self.checkpoint_walk();
        self.history.walk_start = Some(Arc::new(Doc::of(self)));
    }

    /// Keeps the walk so far as one step; a walk going on goes on as the
    /// next step. Called when walk mode stops and before any other edit.
    pub fn checkpoint_walk(&mut self) {
        let Some(start) = self.history.walk_start.take() else {
            return;
        };
        let now = Doc::of(self);
        let name = start
            .selected
            .and_then(|i| start.probes.get(i))
            .map_or("a probe".to_string(), |p| short(&p.name));
        let steps = self.history.undo.len();
        self.history
            .record(format!("walk {name}"), None, (*start).clone(), now);
        if self.history.undo.len() > steps
            && let Some(step) = self.history.undo.back_mut()
        {
            step.walk = true;
        }
        if self.walk.active {
            self.history.walk_start = Some(Arc::new(Doc::of(self)));
        }
    }

    /// What Edit → Undo would undo now (a walk going on included).
    pub fn undo_label(&self) -> Option<String> {
        if let Some(start) = &self.history.walk_start
            && !start.same_scene(&Doc::of(self))
        {
            let name = start
                .selected
                .and_then(|i| start.probes.get(i))
                .map_or("a probe".to_string(), |p| short(&p.name));
            return Some(format!("walk {name}"));
        }
        self.history.undo_label().map(str::to_string)
    }

    /// What Edit → Redo would redo now.
    pub fn redo_label(&self) -> Option<String> {
        self.history.redo_label().map(str::to_string)
    }

    /// Undoes the last edit (a walk going on stops first and is undone).
    pub(crate) fn undo(&mut self) {
        self.stop_walk_for_history();
        let Some(step) = self.history.undo.pop_back() else {
            self.info("Nothing to undo");
            return;
        };
        self.restore(&step.before);
        if step.walk {
            self.follow_walker(&step.after, &step.before);
        }
        self.info(format!("Undone: {}", step.label));
        self.history.redo.push(step);
    }

    /// Redoes the last undone edit.
    pub(crate) fn redo(&mut self) {
        self.stop_walk_for_history();
        let Some(step) = self.history.redo.pop() else {
            self.info("Nothing to redo");
            return;
        };
        self.restore(&step.after);
        if step.walk {
            self.follow_walker(&step.before, &step.after);
        }
        self.info(format!("Redone: {}", step.label));
        self.history.undo.push_back(step);
    }

    /// Moves the camera with the walked probe from where it is in `from`
    /// to where it is in `to`, as it followed the walk.
    fn follow_walker(&mut self, from: &Doc, to: &Doc) {
        let Some(i) = to.selected else {
            return;
        };
        if let (Some(a), Some(b)) = (from.probes.get(i), to.probes.get(i)) {
            let delta = (b.position - a.position).as_vec3();
            self.camera.eye += delta;
            self.camera.target += delta;
        }
    }

    fn stop_walk_for_history(&mut self) {
        if self.walk.active {
            self.walk.active = false;
            self.clear_status_starting(crate::app::command::WALK_MESSAGE_START);
        }
        self.checkpoint_walk();
    }

    /// Puts `doc` back: probes whose parameters differ are replaced and
    /// their moves recomputed; the others keep their stepper.
    fn restore(&mut self, doc: &Doc) {
        let world_changed = self.objects != doc.objects || self.cylinders != doc.cylinders;
        self.objects = doc.objects.clone();
        self.cylinders = doc.cylinders.clone();
        self.next_probe_number = doc.next_probe_number;
        self.probes.truncate(doc.probes.len());
        let mut changed = Vec::new();
        for (i, params) in doc.probes.iter().enumerate() {
            match self.probes.get_mut(i) {
                Some(p) if params_of(p) == *params => {}
                Some(p) => {
                    set_params(p, params);
                    changed.push(i);
                }
                None => {
                    let mut p = Probe::new(
                        params.name.clone(),
                        params.color,
                        params.position,
                        params.velocity,
                    );
                    set_params(&mut p, params);
                    self.probes.push(p);
                    changed.push(i);
                }
            }
        }
        self.selected = doc.selected.filter(|&i| i < self.probes.len());
        self.highlight = None;
        self.settings_error = None;
        self.compare.whatif = None;
        // The frames walked end where the probe no longer is.
        let moved = |i: &usize| {
            doc.probes[*i].position
                != self
                    .walk
                    .character
                    .map_or(doc.probes[*i].position, |c| c.position)
        };
        if changed.iter().any(moved) {
            self.walk.frames.clear();
            self.walk.character = None;
        }
        if world_changed {
            self.restart_all();
        } else {
            for i in changed {
                self.restart_probe(i);
            }
        }
    }
}

fn set_params(p: &mut Probe, params: &ProbeParams) {
    p.name = params.name.clone();
    p.color = params.color;
    p.position = params.position;
    p.velocity = params.velocity;
    p.settings = params.settings.clone();
    p.method = params.method;
    p.method_settings = params.method_settings.clone();
    p.stepper = Default::default();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(x: f64) -> Doc {
        let mut s = EditorState::default();
        s.probes.push(Probe::new(
            "Probe 1".into(),
            [1.0; 4],
            glam::DVec3::new(x, 0.0, 0.0),
            glam::DVec3::X,
        ));
        Doc::of(&s)
    }

    #[test]
    fn steps_of_one_gesture_merge_and_others_do_not() {
        let mut h = History::default();
        h.set_gesture(Some(1));
        h.record("move".into(), Some("probe 0".into()), doc(0.0), doc(1.0));
        h.record("move".into(), Some("probe 0".into()), doc(1.0), doc(2.0));
        assert_eq!(h.undo_len(), 1);
        assert_eq!(*h.undo[0].after, doc(2.0));
        h.set_gesture(None);
        h.record("move".into(), Some("probe 0".into()), doc(2.0), doc(3.0));
        h.record("move".into(), Some("probe 0".into()), doc(3.0), doc(4.0));
        assert_eq!(h.undo_len(), 3);
        // Back where the gesture started: the step goes.
        h.set_gesture(Some(2));
        h.record("move".into(), Some("probe 0".into()), doc(4.0), doc(5.0));
        h.record("move".into(), Some("probe 0".into()), doc(5.0), doc(4.0));
        assert_eq!(h.undo_len(), 3);
    }

    #[test]
    fn the_history_is_bounded() {
        let mut h = History::default();
        for i in 0..(MAX_UNDO_STEPS + 20) {
            h.record("move".into(), None, doc(i as f64), doc(i as f64 + 1.0));
        }
        assert_eq!(h.undo_len(), MAX_UNDO_STEPS);
        assert_eq!(*h.undo[0].before, doc(20.0));
        assert!(h.bytes() < MAX_HISTORY_BYTES);
    }
}
