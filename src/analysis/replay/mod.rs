//! Does a recorded path reproduce here? A recording (a game's or another
//! tool's log of a character: time, position, velocity or input) is read
//! ([`parse_recording`]), and each of its frames is re-run by the one
//! character [`FrameSolver`](crate::character::FrameSolver) from the
//! recorded state ([`replay`]); the distance between where the re-run ends
//! and where the recording goes next is the frame's divergence. World
//! space (Y up, metres). Plain data, used by `collidoscope replay` and the
//! window's Replay panel. No file system here.

mod recording;
mod run;
mod text;

#[cfg(test)]
mod tests;

pub use recording::{
    ColumnMap, FIELDS, GROUNDED_FIELD, MAX_FRAME_STEP_S, MAX_LINE_BYTES, MAX_RECORDED_FRAMES,
    MAX_RECORDING_BYTES, MIN_FRAME_STEP_S, RecordedFrame, Recording, RecordingError,
    RecordingFormat, RecordingOptions, parse_recording,
};
pub use run::{Replay, ReplayError, ReplayFrame, ReplaySummary, frame_settings, replay};

/// Default tolerance, metres: a centimetre, well above the rounding of a
/// recording written with a few decimals, well below a visible difference.
pub const DEFAULT_TOLERANCE_M: f64 = 0.01;
