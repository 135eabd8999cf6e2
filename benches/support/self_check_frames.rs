//! The self-checks benchmark's frames, shared with
//! `examples/self_checks_cpu.rs` (included by each with `#[path]`), so
//! that both time the same moves.

use collidoscope::analysis::generate::ProbeMove;
use collidoscope::collide::{SlideSettings, TraceDetail, slide};
use collidoscope::level::Level;
use glam::DVec3;

/// Each long move replayed as up to ten 60 Hz frames of 0.15 m, each with
/// a 3 cm drop, following the robust solver's trajectory.
pub fn frame_moves(level: &Level, moves: &[ProbeMove]) -> Vec<ProbeMove> {
    let settings = SlideSettings::default();
    let mut frames = Vec::new();
    for m in moves {
        let horizontal = DVec3::new(m.velocity_world.x, 0.0, m.velocity_world.z);
        let n = ((horizontal.length() / 0.15).ceil() as usize).min(10);
        let velocity = horizontal.normalize() * 0.15 - DVec3::Y * 0.03;
        let mut pos = m.start_world;
        for _ in 0..n {
            frames.push(ProbeMove {
                start_world: pos,
                velocity_world: velocity,
            });
            let r = slide(
                level.world(),
                &settings,
                pos,
                velocity,
                TraceDetail::Summary,
            );
            pos = r.map_or(pos, |r| r.final_position);
        }
    }
    frames
}
