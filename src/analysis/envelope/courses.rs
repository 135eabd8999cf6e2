//! The test courses the envelope walks, generated on the fly (world space,
//! Y up, metres). Each is a tiled floor with one obstacle across the walk,
//! which always goes along +x through z = 0, with the obstacle's near face
//! at x = [`OBSTACLE_X`]; each course says where the walk starts, how long
//! it lasts and whether it got past.

use crate::analysis::generate::LevelBuilder;
use crate::analysis::generate::parts::{Door, Stairs, floor, ramp, staircase, wall};
use crate::analysis::generate::solid::cuboid;
use crate::character::{Walk, WalkSpec};
use crate::collide::SlideSettings;
use crate::level::Level;
use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

/// Where every course's obstacle begins along the walk, metres.
pub const OBSTACLE_X: f64 = 2.0;
/// Half the width of every course across the walk, metres.
const HALF_WIDTH: f64 = 4.0;
/// How far past the obstacle the walk must end to have got by, metres.
const PAST: f64 = 0.3;

/// One course: which obstacle, and its size (metres, or degrees for a ramp).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "course", rename_all = "snake_case")]
pub enum Course {
    /// A block `height_m` tall (12 m deep); the walk starts against it.
    StepStanding {
        /// Riser height.
        height_m: f64,
    },
    /// The same block, reached after a 3 m run-up.
    StepRunning {
        /// Riser height.
        height_m: f64,
    },
    /// A ramp of `slope_deg` rising 1 m, then a landing.
    Ramp {
        /// Slope, degrees.
        slope_deg: f64,
    },
    /// A 0.2 m wall with a 3 m tall opening `width_m` wide.
    OpeningWidth {
        /// Clear width.
        width_m: f64,
    },
    /// A 0.5 m deep beam across the walk, its underside `height_m` up.
    Ceiling {
        /// Clearance under the beam.
        height_m: f64,
    },
    /// A pit `width_m` wide (2 m deep) after a 3 m run-up.
    Gap {
        /// Width of the pit along the walk.
        width_m: f64,
    },
}

impl Course {
    /// The course's level.
    pub fn level(&self) -> Level {
        let mut b = LevelBuilder::new();
        let ground = |b: &mut LevelBuilder, name: &str, x0: f64, x1: f64, y: f64| {
            let (min, max) = (DVec2::new(x0, -HALF_WIDTH), DVec2::new(x1, HALF_WIDTH));
            b.add(name, &floor(min, max, y, 0.5, 2.0));
        };
        let x = OBSTACLE_X;
        match *self {
            Course::Gap { width_m } => {
                ground(&mut b, "floor", -6.0, x, 0.0);
                ground(&mut b, "far_floor", x + width_m, x + width_m + 8.0, 0.0);
                ground(&mut b, "pit_bottom", x - 0.5, x + width_m + 0.5, -2.0);
            }
            _ => ground(&mut b, "floor", -6.0, x + 14.0, 0.0),
        }
        match *self {
            Course::StepStanding { height_m } | Course::StepRunning { height_m } => {
                if height_m > 0.0 {
                    let block = Stairs {
                        riser: height_m,
                        tread: 12.0,
                        count: 1,
                        width: 2.0 * HALF_WIDTH,
                        landing: 0.0,
                    };
                    let base = DVec3::new(x, 0.0, -HALF_WIDTH);
                    b.add("step", &staircase(base, &block));
                }
            }
            Course::Ramp { slope_deg } => {
                let base = DVec3::new(x, 0.0, -HALF_WIDTH);
                b.add("ramp", &ramp(base, slope_deg, 1.0, 2.0 * HALF_WIDTH, 3.0));
            }
            Course::OpeningWidth { width_m } => {
                let length = 2.0 * HALF_WIDTH;
                let door = Door {
                    offset: (length - width_m) * 0.5,
                    width: width_m,
                    height: 3.0,
                };
                // Built along +x, turned to span z with its thickness along +x.
                let solid = wall(
                    DVec3::ZERO,
                    length,
                    3.5,
                    0.2,
                    (width_m > 0.0).then_some(door),
                )
                .turned(1)
                .translated(DVec3::new(x, 0.0, HALF_WIDTH));
                b.add("opening", &solid);
            }
            Course::Ceiling { height_m } => {
                let min = DVec3::new(x, height_m, -HALF_WIDTH);
                let max = DVec3::new(x + 0.5, height_m + 0.3, HALF_WIDTH);
                b.add("beam", &cuboid(min, max));
            }
            Course::Gap { .. } => {}
        }
        Level::from_mesh(self.name(), b.build())
    }

    /// A short name for the course's level.
    pub fn name(&self) -> &'static str {
        match self {
            Course::StepStanding { .. } => "envelope: step from standing",
            Course::StepRunning { .. } => "envelope: step at full speed",
            Course::Ramp { .. } => "envelope: ramp",
            Course::OpeningWidth { .. } => "envelope: opening width",
            Course::Ceiling { .. } => "envelope: ceiling",
            Course::Gap { .. } => "envelope: gap",
        }
    }

    /// Where the walk starts, which way and for how long, for a character
    /// with `settings`.
    pub fn walk_spec(&self, settings: &SlideSettings) -> WalkSpec {
        let r = settings.radii_vec();
        let speed = settings.character.walk_speed_m_s.max(1e-3);
        // Standing against the obstacle, or a run-up of 3 m.
        let start_x = match self {
            Course::StepStanding { .. } => OBSTACLE_X - r.x - 2.0 * settings.skin - 1e-3,
            _ => OBSTACLE_X - r.x - 3.0,
        };
        // Long enough to cover the run-up, the obstacle and a margin.
        let distance = match *self {
            Course::Ramp { slope_deg } => 3.5 + 1.0 / slope_deg.to_radians().tan().max(1e-3),
            Course::Gap { width_m } => 4.0 + width_m,
            _ => 4.5,
        } + r.x;
        WalkSpec {
            from: DVec3::new(start_x, r.y + settings.skin, 0.0),
            direction: DVec3::X,
            seconds: (distance / speed).min(60.0),
            jump: false,
        }
    }

    /// Whether `walk` got past the obstacle (and, where it climbs, on top).
    pub fn passed(&self, walk: &Walk, settings: &SlideSettings) -> bool {
        let r = settings.radii_vec();
        let end = walk.summary.final_position;
        let x = OBSTACLE_X;
        match *self {
            Course::StepStanding { height_m } | Course::StepRunning { height_m } => {
                end.x > x + PAST && end.y > height_m + r.y - 0.05
            }
            Course::Ramp { .. } => end.y > 1.0 + r.y - 0.05,
            Course::OpeningWidth { .. } => end.x > x + 0.2 + r.x + PAST,
            // Under it, not over it: a beam low enough is a step.
            Course::Ceiling { height_m } => {
                end.x > x + 0.5 + r.x + PAST && walk.summary.highest_y < height_m
            }
            Course::Gap { width_m } => end.x > x + width_m + PAST && end.y > r.y - 0.05,
        }
    }
}
