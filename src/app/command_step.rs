//! The editor's handlers for stepping a probe's move, selecting and
//! framing, and walk mode: the part of [`EditorState::apply`] that drives
//! the stepper. Positions are world space, metres.

use crate::app::command::{Command, WALK_MESSAGE_START};
use crate::app::state::EditorState;
use crate::app::stepper::MoveSpec;

impl EditorState {
    /// Back from a character frame to the selected probe's own move.
    pub(super) fn close_frame(&mut self) {
        let Some(i) = self.selected.filter(|&i| i < self.probes.len()) else {
            return;
        };
        self.probes[i].stepper = Default::default();
        self.highlight = None;
        self.restart_probe(i);
        let name = self.probes[i].name.clone();
        self.info(format!("Back to {name}'s own move"));
    }

    /// Restarts every probe's move (after a level or collision-flag change).
    pub fn restart_all(&mut self) {
        for i in 0..self.probes.len() {
            self.restart_probe(i);
        }
    }

    /// Restarts probe `i`'s move: the character frame it steps, with the
    /// probe's settings as they are now, or else its raw move from its
    /// parameters.
    pub fn restart_probe(&mut self, i: usize) {
        // The level with the cylinders' prisms, so the slide meets them.
        let Some(level) = crate::app::cylinders::collision_level(self) else {
            return;
        };
        let flags = crate::app::cylinders::colliding_flags_for(self, &level);
        let cylinders = crate::app::cylinders::scene_cylinders(self);
        let Some(p) = self.probes.get_mut(i) else {
            return;
        };
        let started = match p.stepper.frame().copied() {
            Some(frame) => p.stepper.start_frame(level, flags, &p.settings, &frame),
            None => {
                let spec = MoveSpec {
                    start: p.position,
                    velocity: p.velocity,
                    settings: p.settings.clone(),
                    method: p.method,
                    method_settings: p.method_settings.clone(),
                    cylinders,
                };
                p.stepper.start(level, flags, &spec)
            }
        };
        if !started {
            let name = p.name.clone();
            self.error(format!(
                "{name}: the solver rejected this move (non-finite numbers or invalid settings)"
            ));
        }
    }

    pub(super) fn step_selected(&mut self, cmd: &Command) {
        let Some(i) = self.selected.filter(|&i| i < self.probes.len()) else {
            self.info("Select a probe to step (click it in the Probes list)");
            return;
        };
        if !self.probes[i].stepper.is_started() || matches!(cmd, Command::Reset) {
            self.restart_probe(i);
        }
        let stepper = &mut self.probes[i].stepper;
        match cmd {
            Command::Step => {
                stepper.step();
            }
            Command::StepBack => {
                stepper.step_back();
            }
            Command::RunToEnd => stepper.run_to_end(),
            _ => {}
        }
    }

    pub(super) fn select_object(&mut self, i: Option<usize>) {
        let Some(level) = self.level.clone() else {
            return;
        };
        self.selected_object = i.filter(|&i| i < level.mesh.objects.len());
        let Some(i) = self.selected_object else {
            return;
        };
        self.object_selected_last = true;
        let o = &level.mesh.objects[i];
        if !o.aabb.is_empty() {
            self.camera = self
                .camera
                .reframed_in(&o.aabb, &level.mesh.bounds(), self.aspect());
        }
        self.info(format!(
            "Object {i}: {} ({} triangles)",
            o.name, o.triangle_count
        ));
    }

    pub(super) fn set_walk(&mut self, on: bool) {
        let Some(p) = self.selected_probe() else {
            if on {
                self.info("Select a probe to walk with");
            }
            self.walk.active = false;
            return;
        };
        if !on {
            self.walk.active = false;
            self.clear_status_starting(WALK_MESSAGE_START);
            return;
        }
        let (position, rate) = (p.position, p.settings.character.frame_rate_hz);
        self.walk.begin(position);
        self.walk_started();
        self.info(format!(
            "{WALK_MESSAGE_START} ({rate} frames/s, the probe's Character settings): WASD to move \
             (relative to the camera), Space to jump, Esc to stop"
        ));
    }

    /// Opens recorded walk frame `i` in the selected probe's stepper as a
    /// character frame, with the probe's settings. The probe's parameters
    /// are left as they are.
    pub(super) fn open_walk_frame(&mut self, i: usize) {
        let (Some(frame), Some(sel)) = (self.walk.frames.get(i).cloned(), self.selected) else {
            return;
        };
        self.walk.active = false;
        self.clear_status_starting(WALK_MESSAGE_START);
        let Some(level) = self.level.clone() else {
            return;
        };
        let flags = self.colliding_flags();
        let Some(p) = self.probes.get_mut(sel) else {
            return;
        };
        if !p
            .stepper
            .start_frame(level, flags, &p.settings, &frame.spec)
        {
            self.error("This walk frame no longer runs with the probe's settings");
            return;
        }
        p.stepper.run_to_end();
        p.stepper.seek(Some(0));
        let name = p.name.clone();
        self.info(format!(
            "Walk frame {} opened in the stepper with {}'s settings (unchanged); \
             Back to probe returns to its own move",
            frame.spec.index, name
        ));
    }
}
