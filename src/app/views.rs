//! The camera views on the editor state: what the view is about (the
//! subject: the open finding, the selected probe and its move, the
//! selected object, else the whole level) and the views that frame it:
//! F in the current view, the front, side and top orthographic views, the
//! three-quarter perspective, and the elevation along a walk. No egui: the
//! viewport only reports its aspect ([`EditorState::view_aspect`]), so the
//! framing is tested from the state.

use crate::app::state::EditorState;
use crate::math::Aabb;
use crate::render::{CameraPreset, CameraView};
use glam::{DVec3, Vec3};

/// The aspect assumed before the view was first shown (the 3D view's at
/// the default 1280 × 800 window and panels).
const DEFAULT_ASPECT: f32 = 1.5;

/// What a camera view frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The finding opened on the Checks page (its feature and its walk's start).
    Finding,
    /// The selected probe, with its move.
    Probe(usize),
    /// The selected level object.
    Object(usize),
    /// Nothing is selected: the whole level.
    Level,
}

impl Subject {
    /// In words, for the status bar ("Front view of Probe 1").
    pub fn words(self, state: &EditorState) -> String {
        match self {
            Subject::Finding => "the open finding".into(),
            Subject::Probe(i) => state
                .probes
                .get(i)
                .map_or_else(|| "the probe".into(), |p| p.name.clone()),
            Subject::Object(i) => state
                .level
                .as_ref()
                .and_then(|l| l.mesh.objects.get(i))
                .map_or_else(|| "the object".into(), |o| o.name.clone()),
            Subject::Level => "the level".into(),
        }
    }
}

impl EditorState {
    /// The 3D view's aspect (width / height), a sensible one before it
    /// was shown.
    pub fn aspect(&self) -> f32 {
        if self.view_aspect.is_finite() && self.view_aspect > 0.05 {
            self.view_aspect
        } else {
            DEFAULT_ASPECT
        }
    }

    /// What the views frame and its box, world space: the open finding,
    /// else the selected probe (its ellipsoid where it starts, where it is
    /// shown and where its move heads, with a little room), or the
    /// selected object when it was picked after the probe, else the whole
    /// level. `None` with no level.
    pub fn subject(&self) -> Option<(Subject, Aabb)> {
        let level = self.level.as_ref()?;
        if let Some(b) = self.finding_box() {
            return Some((Subject::Finding, b));
        }
        let object = self
            .selected_object
            .and_then(|i| Some((i, level.mesh.objects.get(i)?.aabb)))
            .filter(|(_, b)| !b.is_empty());
        let probe = self.selected.filter(|&i| i < self.probes.len());
        match (probe, object) {
            (Some(_), Some((i, b))) if self.object_selected_last => Some((Subject::Object(i), b)),
            (Some(i), _) => Some((Subject::Probe(i), self.probe_box(i))),
            (None, Some((i, b))) => Some((Subject::Object(i), b)),
            (None, None) => Some((Subject::Level, level.mesh.bounds())),
        }
    }

    /// The box around probe `i` and its move.
    fn probe_box(&self, i: usize) -> Aabb {
        let p = &self.probes[i];
        let r = p.radii();
        let room = r + DVec3::splat(r.max_element() * 0.25);
        let mut b = Aabb::EMPTY;
        for c in [p.position, p.shown_center(), p.position + p.velocity] {
            if c.is_finite() {
                b.grow(&Aabb::from_f64_outward(c - room, c + room));
            }
        }
        b
    }

    /// The open finding's feature and its deciding walk's start, with a
    /// metre or more around (as opening it frames them).
    fn finding_box(&self) -> Option<Aabb> {
        let f = self.checks.open_finding()?;
        let open = self.checks.open.as_ref()?;
        let r = DVec3::splat((f.feature.extent_m * 0.5).clamp(1.0, 3.0));
        let start = open.walk.spec.from;
        Some(Aabb::from_f64_outward(
            f.feature.position.min(start) - r,
            f.feature.position.max(start) + r,
        ))
    }

    /// The walk the "along the walk" view looks across: the open
    /// finding's deciding walk, else the selected probe's move (its
    /// horizontal part). `None` when neither has a horizontal direction.
    pub fn walk_direction(&self) -> Option<Vec3> {
        let d = match (&self.checks.open, self.selected_probe()) {
            (Some(open), _) => open.walk.spec.direction,
            (None, Some(p)) => p.velocity,
            (None, None) => return None,
        };
        let h = DVec3::new(d.x, 0.0, d.z);
        (h.length() > 1e-9 && h.is_finite()).then(|| h.normalize().as_vec3())
    }

    /// F: the subject framed in the current view, keeping its direction
    /// and projection (the top view stays the top view).
    pub(super) fn frame_selection(&mut self) {
        let Some((subject, b)) = self.subject() else {
            return;
        };
        let level = self.level_bounds();
        self.camera = self.camera.reframed_in(&b, &level, self.aspect());
        let words = subject.words(self);
        self.info(format!("Framed {words}"));
    }

    /// A preset view (front, side, top, perspective) framing the subject.
    pub(super) fn view_preset(&mut self, preset: CameraPreset) {
        let Some((subject, b)) = self.subject() else {
            self.info("No level is loaded: nothing to view");
            return;
        };
        let level = self.level_bounds();
        self.camera = CameraView::preset_on(&b, &level, preset, self.aspect());
        let words = subject.words(self);
        let name = preset.label().split(' ').next().unwrap_or("The");
        self.info(format!("{name} view of {words}"));
    }

    /// The orthographic elevation across the open finding's walk (or the
    /// selected probe's move), framing the subject.
    pub(super) fn view_along_walk(&mut self) {
        let (Some((subject, b)), Some(dir)) = (self.subject(), self.walk_direction()) else {
            self.info(NO_WALK_FOR_ELEVATION);
            return;
        };
        let level = self.level_bounds();
        let Some(view) = CameraView::elevation(&b, &level, dir, self.aspect()) else {
            self.info(NO_WALK_FOR_ELEVATION);
            return;
        };
        self.camera = view;
        let words = subject.words(self);
        self.info(format!(
            "Along the walk: {words} side-on, the walk left to right, heights true"
        ));
    }

    fn level_bounds(&self) -> Aabb {
        self.level.as_ref().map_or(Aabb::EMPTY, |l| l.mesh.bounds())
    }
}

/// Why the "along the walk" view cannot be shown.
pub const NO_WALK_FOR_ELEVATION: &str =
    "Along the walk: open a finding on the Checks page, or select a probe that moves sideways";
