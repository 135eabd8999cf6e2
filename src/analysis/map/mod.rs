//! The stuck-spot map: start the character on every walkable floor of a
//! level (a grid of columns, every storey), walk it from each start in
//! evenly spaced directions with the input held, and sort each walk into
//! a [`MapClass`]: free, blocked, can't get back, jitter, stuck, fell
//! through, embedded. Only start points a player stands on (ground under
//! the whole footprint) are walked, and only those a player reaches (from
//! the main floor region or spawn points, by the walks' own paths: see
//! `reach`) are counted. A start point's class is its worst walk's, and it
//! keeps that walk's direction and the frame where it went wrong, so the
//! walk can be replayed exactly (`walk` from [`MapSpot::start`] along
//! [`MapSpot::direction`] for [`MapReport::seconds`]).
//!
//! The walks run the real character ([`crate::character::walk`]) with the
//! solver's self checks on whatever the settings say: `embedded` is read
//! from the clearance they measure after every iteration. World space,
//! Y up, metres. Runs on all cores (rayon), reports progress, can be
//! cancelled between walks, and can be split into shards whose reports
//! [`merge`] back into exactly the unsharded one.

pub(crate) mod class;
mod image;
mod reach;
mod report;
mod run;
mod starts;
mod walker;

#[cfg(test)]
mod tests;

pub use class::{
    BACK_TOLERANCE_M, BLOCK_FACING_DEG, JITTER_PATH_OVER_NET, JITTER_PATH_SHARE, MapClass,
    OUTSIDE_MARGIN_M,
};
pub use image::{MapImage, map_image};
pub use reach::{SPAWN_REACH_HEIGHT_M, SPAWN_REACH_SPACINGS};
pub use report::{ClassCounts, MapReport, MapSpot, merge};
pub use run::{FOOTPRINT_POINTS, REACH_SPARE_M, map_level, map_level_from};
pub use starts::MapGrid;

use serde::{Deserialize, Serialize};

/// Most grid columns a map may sample (a 2 km square at 1 m spacing).
pub const MAX_COLUMNS: u64 = 4_000_000;
/// Most directions walked from each start.
pub const MAX_DIRECTIONS: u32 = 360;
/// Longest walk, seconds.
pub const MAX_SECONDS: f64 = 60.0;
/// Most parts a map may be split into (far more machines than anyone has;
/// a merge keeps one flag per part).
pub const MAX_SHARDS: u32 = 65_536;
/// Frames a map runs at most unless told otherwise ([`MapOptions::max_frames`]):
/// about five minutes on two cores on a 75k-triangle level (the Sibenik
/// cathedral's map, 2.2 million frames, takes 7.5 s), and far more than a
/// level's map needs at a sensible spacing. A 2 km square at 1 m spacing
/// with the defaults is 1.9 billion frames: hours, refused unless asked.
pub const DEFAULT_MAX_FRAMES: u64 = 100_000_000;
/// Most spawn points a map may start its reachability from.
pub const MAX_SPAWNS: usize = 256;

/// One part of a map split for several machines: the start points whose
/// index modulo `count` is `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This part, `0..count`.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// The whole map.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether start point `i` belongs to this part.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }
}

/// What to map.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapOptions {
    /// Distance between grid columns, metres.
    pub spacing_m: f64,
    /// Directions walked from each start, evenly spaced in yaw from +x
    /// towards +z.
    pub directions: u32,
    /// How long each walk lasts, seconds.
    pub seconds: f64,
    /// Which part of the start points to walk.
    pub shard: Shard,
    /// The most frames this map may run (its start points × directions ×
    /// frames per walk, counted before the walks start; the walks back of
    /// `cant_get_back` come on top). A map that would run more is refused
    /// with its estimate ([`MapError::TooManyFrames`]).
    #[serde(default = "default_max_frames")]
    pub max_frames: u64,
}

fn default_max_frames() -> u64 {
    DEFAULT_MAX_FRAMES
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions {
            spacing_m: 1.0,
            directions: 8,
            seconds: 1.0,
            shard: Shard::WHOLE,
            max_frames: DEFAULT_MAX_FRAMES,
        }
    }
}

/// Why a map could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapError {
    /// The settings break a rule (the message names the field).
    #[error("{0}")]
    InvalidSettings(String),
    /// A spacing, direction count, duration or shard out of range.
    #[error("{0}")]
    InvalidOptions(String),
    /// The grid would have more columns than [`MAX_COLUMNS`].
    #[error(
        "a {spacing_m} m spacing gives {columns:.0} grid columns over the level; the limit is {MAX_COLUMNS}: use a larger spacing"
    )]
    TooManyColumns {
        /// The spacing asked for, metres.
        spacing_m: f64,
        /// Columns it would take.
        columns: f64,
    },
    /// The walks would run more frames than [`MapOptions::max_frames`].
    #[error(
        "this map would run {frames} frames ({starts} start points × {directions} directions × {per_walk} frames a walk), more than the limit of {max_frames}: use a larger spacing, fewer directions, shorter walks or parts (`--shard`), or raise the limit (`--max-frames`)"
    )]
    TooManyFrames {
        /// Frames the walks would run.
        frames: u64,
        /// Start points walked.
        starts: u64,
        /// Directions per start.
        directions: u32,
        /// Frames per walk.
        per_walk: u64,
        /// The limit.
        max_frames: u64,
    },
    /// The level has no triangles.
    #[error("the level has no triangles: nothing to map")]
    EmptyLevel,
    /// Map parts that do not belong together.
    #[error("cannot merge: {0}")]
    Mismatch(String),
}

impl MapOptions {
    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), MapError> {
        let bad = |m: String| Err(MapError::InvalidOptions(m));
        if !(self.spacing_m.is_finite() && self.spacing_m > 0.0) {
            return bad(format!(
                "spacing {} m must be a finite number of metres above 0",
                self.spacing_m
            ));
        }
        if !(1..=MAX_DIRECTIONS).contains(&self.directions) {
            return bad(format!(
                "{} directions: from 1 to {MAX_DIRECTIONS}",
                self.directions
            ));
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0 && self.seconds <= MAX_SECONDS) {
            return bad(format!(
                "{} s walks: more than 0 and at most {MAX_SECONDS} s",
                self.seconds
            ));
        }
        let Shard { index, count } = self.shard;
        if count == 0 || index >= count {
            return bad(format!(
                "shard {index}/{count}: the part must be below the count, counting from 0"
            ));
        }
        if self.max_frames == 0 {
            return bad("a frame limit of 0 runs nothing".into());
        }
        if count > MAX_SHARDS {
            return bad(format!("shard {index}/{count}: at most {MAX_SHARDS} parts"));
        }
        Ok(())
    }
}
