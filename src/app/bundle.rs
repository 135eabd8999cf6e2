//! Repro bundles in the window ([`crate::repro`]): writing the selected
//! probe's move as a bundle folder, and opening a bundle folder as a level
//! with its move ready to step. World space, Y up, metres.

use crate::app::state::{EditorState, Probe};
use crate::repro::{self, BundleRequest, DEFAULT_MARGIN_M, MOVE_FILE};
use std::path::Path;
use std::sync::Arc;

/// What Write repro bundle… says with no probe selected.
pub const NO_PROBE_FOR_BUNDLE: &str = "Select a probe: its move is what the bundle reproduces";

/// Whether `dir` is a repro bundle folder (it holds a `move.json`).
pub fn is_bundle(dir: &Path) -> bool {
    dir.is_dir() && dir.join(MOVE_FILE).is_file()
}

impl EditorState {
    /// Writes the selected probe's move (its start, velocity and settings;
    /// the colliding objects only) as a bundle into `dir` (created when
    /// missing, refused when it holds files).
    pub fn write_repro_bundle(&mut self, dir: &Path) {
        let (Some(level), Some(p)) = (self.level.clone(), self.selected_probe().cloned()) else {
            self.info(NO_PROBE_FOR_BUNDLE);
            return;
        };
        let flags = self.colliding_flags();
        let colliding = (flags.len() == level.mesh.objects.len()).then_some(flags.as_slice());
        let req = BundleRequest {
            level: &level,
            colliding,
            settings: &p.settings,
            from: p.position,
            velocity: p.velocity,
            margin_m: DEFAULT_MARGIN_M,
            force: false,
            inputs: &[],
        };
        match repro::write(dir, &req) {
            Ok((m, triangles)) => self.info(format!(
                "Wrote the repro bundle {}: {triangles} triangles, {}'s move ends at ({:.3}, {:.3}, {:.3}) after {} iterations",
                dir.display(),
                p.name,
                m.expected.final_position.x,
                m.expected.final_position.y,
                m.expected.final_position.z,
                m.expected.iterations
            )),
            Err(e) => self.error(format!("Could not write the repro bundle: {e}")),
        }
    }

    /// Opens the bundle in `dir`: its triangles become the level, and its
    /// move, with its settings, the one probe (selected, ready to step).
    /// The status says whether it still gives the recorded outcome.
    pub fn open_repro_bundle(&mut self, dir: &Path) {
        let bundle = match repro::load(dir) {
            Ok(b) => b,
            Err(e) => {
                self.loading = None;
                self.error(format!("Could not open the repro bundle: {e}"));
                return;
            }
        };
        let verdict = match repro::replay(&bundle) {
            Ok((_, diffs)) if diffs.is_empty() => "it reproduces the recorded outcome".to_string(),
            Ok((_, diffs)) => format!("it no longer reproduces: {}", diffs.join("; ")),
            Err(e) => format!("its move does not run: {e}"),
        };
        let m = bundle.repro.clone();
        // The bundle is one move on its own: its probe replaces the others
        // (nothing to carry over to a cut-out of another level).
        self.probes.clear();
        self.selected = None;
        self.loading = None;
        self.set_level(Arc::new(bundle.level));
        let name = format!("Probe {}", self.next_probe_number);
        self.next_probe_number += 1;
        let mut probe = Probe::new(name, self.next_color(), m.from, m.velocity);
        probe.settings = bundle.settings;
        self.probes.push(probe);
        let i = self.probes.len() - 1;
        self.selected = Some(i);
        self.restart_probe(i);
        self.info(format!(
            "Opened the repro bundle {} (from {}): {verdict}",
            dir.display(),
            m.source_level
        ));
    }
}
