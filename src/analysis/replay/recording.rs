//! A recorded path read from text: CSV (a header row, then one frame per
//! row) or JSON Lines (one object per frame). Each frame carries its time,
//! the character's position and its velocity and/or the player's input
//! direction, optionally a jump flag and whether it stood on ground.
//!
//! Values are converted to the level's space as the level importer does:
//! Z-up files are rotated to Y up (`(x, y, z)` becomes `(x, z, -y)`) and
//! positions and velocities are multiplied by the scale (metres per unit);
//! an input direction is only rotated. No file system here: the text comes
//! in as a string.

use crate::level::UpAxis;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Longest line accepted, in bytes (a frame is a few dozen numbers).
pub const MAX_LINE_BYTES: usize = 4096;
/// Largest recording file read, bytes (the frame limit at full lines).
pub const MAX_RECORDING_BYTES: u64 = 160 << 20;
/// Most frames a recording may hold (ten minutes at 60 Hz, a walk's limit).
pub const MAX_RECORDED_FRAMES: usize = crate::character::MAX_WALK_FRAMES as usize + 1;
/// Shortest time step between frames, seconds (the character runs at most
/// 1000 Hz).
pub const MIN_FRAME_STEP_S: f64 = 0.001;
/// Longest time step between frames, seconds: a longer gap is a pause or a
/// cut in the recording, not one frame.
pub const MAX_FRAME_STEP_S: f64 = 1.0;
/// Most characters of bad text quoted in an error.
const QUOTE_CHARS: usize = 40;

/// The text format of a recording.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordingFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// The fields of a frame, in the order of [`ColumnMap::names`].
pub const FIELDS: [&str; 11] = [
    "t", "x", "y", "z", "vx", "vy", "vz", "ix", "iy", "iz", "jump",
];
/// The optional "stood on ground" field (after [`FIELDS`]).
pub const GROUNDED_FIELD: &str = "grounded";

/// Which column (CSV header name, or JSON key) holds each field. By default
/// each field's column has the field's own name (`t`, `x`, `y`, `z`, `vx`,
/// `vy`, `vz`, `ix`, `iy`, `iz`, `jump`, `grounded`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnMap {
    /// Column name per field: [`FIELDS`] then [`GROUNDED_FIELD`].
    pub names: Vec<String>,
}

impl Default for ColumnMap {
    fn default() -> Self {
        let mut names: Vec<String> = FIELDS.iter().map(|s| s.to_string()).collect();
        names.push(GROUNDED_FIELD.into());
        ColumnMap { names }
    }
}

impl ColumnMap {
    /// Parses `t=time,x=pos_x,...`: each `field=column` renames one field's
    /// column; fields not named keep their default column.
    pub fn parse(text: &str) -> Result<ColumnMap, String> {
        let mut map = ColumnMap::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((field, column)) = pair.split_once('=') else {
                return Err(format!(
                    "'{}' is not field=column (e.g. t=time)",
                    quote(pair)
                ));
            };
            let (field, column) = (field.trim(), column.trim());
            let Some(i) = map.index_of_field(field) else {
                return Err(format!(
                    "'{}' is not a field; the fields are {}, {GROUNDED_FIELD}",
                    quote(field),
                    FIELDS.join(", ")
                ));
            };
            if column.is_empty() {
                return Err(format!("the field {field} is given no column name"));
            }
            map.names[i] = column.to_string();
        }
        Ok(map)
    }

    fn index_of_field(&self, field: &str) -> Option<usize> {
        FIELDS
            .iter()
            .chain(std::iter::once(&GROUNDED_FIELD))
            .position(|f| *f == field)
    }
}

/// How to read a recording.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordingOptions {
    /// CSV or JSON Lines.
    pub format: RecordingFormat,
    /// The column of each field.
    pub columns: ColumnMap,
    /// The file's up axis.
    pub up: UpAxis,
    /// Metres per unit of the file's positions and velocities.
    pub scale: f64,
}

impl RecordingOptions {
    /// CSV, default columns, Y up, metres.
    pub fn new(format: RecordingFormat) -> Self {
        RecordingOptions {
            format,
            columns: ColumnMap::default(),
            up: UpAxis::Y,
            scale: 1.0,
        }
    }
}

/// One recorded frame, level space (Y up, metres, m/s).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedFrame {
    /// Line of the file it came from (1-based).
    pub line: usize,
    /// Time, seconds.
    pub t_s: f64,
    /// Ellipsoid centre.
    pub position: DVec3,
    /// Velocity, when recorded.
    pub velocity: Option<DVec3>,
    /// The player's input direction, when recorded (length 1 is full speed).
    pub input: Option<DVec3>,
    /// Jump pressed in this frame.
    pub jump: bool,
    /// Stood on walkable ground at the start of the frame, when recorded.
    pub grounded: Option<bool>,
}

/// A whole recording.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    /// The frames, times increasing.
    pub frames: Vec<RecordedFrame>,
}

/// Why a recording cannot be read: the line (0 for the file as a whole) and
/// what is wrong, quoting at most a short prefix of the bad text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
pub struct RecordingError {
    /// 1-based line, 0 when the error is not on one line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> RecordingError {
    RecordingError {
        line,
        message: message.into(),
    }
}

/// At most [`QUOTE_CHARS`] characters of `text`, with `…` when cut.
pub fn quote(text: &str) -> String {
    let mut out: String = text.chars().take(QUOTE_CHARS).collect();
    if text.chars().nth(QUOTE_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// A frame's values by field, as read from one line (before conversion).
pub(super) type RawRow = [Option<f64>; FIELDS.len() + 1];

/// Reads a recording. Blank lines and CSV lines starting with `#` are skipped.
pub fn parse_recording(text: &str, opts: &RecordingOptions) -> Result<Recording, RecordingError> {
    if !(opts.scale.is_finite() && opts.scale > 0.0) {
        return Err(err(
            0,
            format!("the scale {} must be above zero", opts.scale),
        ));
    }
    let rows = match opts.format {
        RecordingFormat::Csv => super::text::csv_rows(text, &opts.columns)?,
        RecordingFormat::Jsonl => super::text::jsonl_rows(text, &opts.columns)?,
    };
    if rows.is_empty() {
        return Err(err(0, "the recording has no frames"));
    }
    let mut frames: Vec<RecordedFrame> = Vec::with_capacity(rows.len());
    for (line, row) in rows {
        let frame = to_frame(line, &row, opts)?;
        if let Some(prev) = frames.last() {
            check_step(prev, &frame)?;
        }
        frames.push(frame);
    }
    Ok(Recording { frames })
}

fn check_step(prev: &RecordedFrame, next: &RecordedFrame) -> Result<(), RecordingError> {
    let dt = next.t_s - prev.t_s;
    if dt <= 0.0 {
        return Err(err(
            next.line,
            format!(
                "time {} s does not increase (line {} has {} s)",
                next.t_s, prev.line, prev.t_s
            ),
        ));
    }
    if !(MIN_FRAME_STEP_S..=MAX_FRAME_STEP_S).contains(&dt) {
        return Err(err(
            next.line,
            format!(
                "{dt} s after line {}: frames must be {MIN_FRAME_STEP_S} to {MAX_FRAME_STEP_S} s apart",
                prev.line
            ),
        ));
    }
    Ok(())
}

/// Rotates a file vector to Y up.
fn to_y_up(v: DVec3, up: UpAxis) -> DVec3 {
    match up {
        UpAxis::Y => v,
        UpAxis::Z => DVec3::new(v.x, v.z, -v.y),
    }
}

fn to_frame(
    line: usize,
    row: &RawRow,
    opts: &RecordingOptions,
) -> Result<RecordedFrame, RecordingError> {
    let names = &opts.columns.names;
    let need = |i: usize| row[i].ok_or_else(|| err(line, format!("no value for {}", names[i])));
    let t_s = need(0)?;
    let position = DVec3::new(need(1)?, need(2)?, need(3)?);
    let velocity = match (row[4], row[5], row[6]) {
        (Some(x), Some(y), Some(z)) => Some(DVec3::new(x, y, z)),
        (None, None, None) => None,
        _ => {
            return Err(err(
                line,
                format!(
                    "a velocity needs all of {}, {}, {}",
                    names[4], names[5], names[6]
                ),
            ));
        }
    };
    let input = (row[7].is_some() || row[8].is_some() || row[9].is_some()).then(|| {
        DVec3::new(
            row[7].unwrap_or(0.0),
            row[8].unwrap_or(0.0),
            row[9].unwrap_or(0.0),
        )
    });
    if velocity.is_none() && input.is_none() {
        return Err(err(
            line,
            format!(
                "no velocity ({}, {}, {}) and no input direction ({}, {}, {})",
                names[4], names[5], names[6], names[7], names[8], names[9]
            ),
        ));
    }
    let s = opts.scale;
    let position = to_y_up(position, opts.up) * s;
    let velocity = velocity.map(|v| to_y_up(v, opts.up) * s);
    // The solver's own bound: beyond it its arithmetic would overflow, and
    // a replay there would compare infinities and call them equal.
    let max = crate::collide::MAX_MAGNITUDE_M;
    let within = |v: DVec3| v.is_finite() && v.abs().max_element() <= max;
    if !(within(position) && velocity.is_none_or(within)) {
        return Err(err(
            line,
            format!("a position or velocity is beyond the supported ±{max:e} m at this scale"),
        ));
    }
    Ok(RecordedFrame {
        line,
        t_s,
        position,
        velocity,
        input: input.map(|v| to_y_up(v, opts.up)),
        jump: row[10].is_some_and(|j| j != 0.0),
        grounded: row[11].map(|g| g != 0.0),
    })
}
