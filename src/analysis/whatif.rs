//! What a settings change did to one move: the outcome before and after
//! (path, end, why it ended) and what flipped between them, in words.
//!
//! The window keeps the outcome of the selected probe's move from before
//! a settings edit (skin, radii, step height, slope, gravity, ...) and
//! reruns the move with the new settings; this module says what the
//! difference means to a designer: the move now arrives or now stops, the
//! end reason changed, it now climbs (a character now reaches the higher
//! floor) or no longer does, it now ends inside geometry, and how far the
//! end moved. Outcomes are built from what the solver recorded (a
//! [`SlideResult`] or a character [`FrameRecord`]); positions are world
//! space, metres.

use crate::analysis::compare::DIVERGENCE_TOLERANCE_M;
use crate::character::{FrameRecord, StepOutcome};
use crate::collide::{EndReason, IterationRecord, SlideResult};
use glam::DVec3;

/// Ends closer than this (metres) have not moved: the comparison's
/// millimetre (see [`DIVERGENCE_TOLERANCE_M`]).
pub const END_MOVED_TOLERANCE_M: f64 = DIVERGENCE_TOLERANCE_M;

/// An end this much higher than the start (metres) counts as climbing:
/// a centimetre, above the skin and the snap's rounding, below any step.
pub const CLIMB_TOLERANCE_M: f64 = 0.01;

/// How a move or a character frame ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ending {
    /// A raw move: the solver's end reason.
    Move(EndReason),
    /// A character frame: the step-up, whether it stands on ground, and the
    /// triangle of the wall that stopped the walk, if one did.
    Frame {
        /// What the step-up did.
        step: StepOutcome,
        /// Standing on walkable ground at the end.
        grounded: bool,
        /// The wall that stopped the walk.
        wall: Option<u32>,
    },
}

impl Ending {
    /// Whether the move went where it was asked to (a frame: no wall
    /// stopped its walk).
    pub fn arrives(&self) -> bool {
        match self {
            Ending::Move(r) => *r == EndReason::Arrived,
            Ending::Frame { wall, .. } => wall.is_none(),
        }
    }

    /// A short phrase for the status line and the labels.
    pub fn words(&self) -> String {
        match self {
            Ending::Move(r) => move_end_words(*r).to_string(),
            Ending::Frame {
                step,
                grounded,
                wall,
            } => {
                let mut parts = vec![step_words(*step)];
                parts.push(if *grounded { "on ground" } else { "in the air" }.into());
                if let Some(t) = wall {
                    parts.push(format!("stopped by triangle {t}"));
                }
                parts.join(", ")
            }
        }
    }
}

fn move_end_words(r: EndReason) -> &'static str {
    match r {
        EndReason::Arrived => "arrived",
        EndReason::TooShort => "stopped, the motion left too short",
        EndReason::IterationCap => "stopped at the iteration limit",
        EndReason::CreaseStop => "boxed in by a crease",
        EndReason::Blocked => "blocked in a corner",
        EndReason::StuckEmbedded => "stuck inside geometry",
    }
}

fn step_words(step: StepOutcome) -> String {
    match step {
        StepOutcome::NotTried => "no step-up".into(),
        StepOutcome::Stepped { height_m, .. } => format!("stepped up {height_m:.3} m"),
        StepOutcome::Rejected { reason } => format!("step refused ({})", reason.describe()),
    }
}

/// One run of a move: where its centre went and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The start, then the end of every iteration, world space.
    pub path_w: Vec<DVec3>,
    /// How it ended.
    pub ending: Ending,
    /// Its last iteration ended inside geometry (the solver's self check).
    pub embedded: bool,
}

impl Outcome {
    /// The outcome of a raw move from `start_w`.
    pub fn of_move(start_w: DVec3, result: &SlideResult) -> Outcome {
        let mut o = Outcome::from_records(start_w, result.iterations.iter());
        o.ending = Ending::Move(result.end_reason);
        if let Some(last) = o.path_w.last_mut() {
            // The solver's final position (the same as the last record's end).
            *last = result.final_position;
        }
        o
    }

    /// The outcome of a character frame (its record with its iterations).
    pub fn of_frame(rec: &FrameRecord) -> Outcome {
        let mut o = Outcome::from_records(
            rec.before.position,
            rec.iterations.iter().map(|p| &p.record),
        );
        o.path_w.push(rec.after.position);
        o.path_w.dedup();
        o.ending = Ending::Frame {
            step: rec.step,
            grounded: rec.after.grounded,
            wall: rec.wall.map(|w| w.triangle),
        };
        o
    }

    fn from_records<'a>(
        start_w: DVec3,
        records: impl Iterator<Item = &'a IterationRecord>,
    ) -> Self {
        let mut path_w = vec![start_w];
        let mut embedded = false;
        for r in records {
            path_w.push(r.end);
            embedded = r.clearance.is_some_and(|c| c.embedded);
        }
        Outcome {
            path_w,
            ending: Ending::Move(EndReason::Arrived),
            embedded,
        }
    }

    /// Where it started.
    pub fn start_w(&self) -> DVec3 {
        self.path_w[0]
    }

    /// Where it ended.
    pub fn end_w(&self) -> DVec3 {
        *self.path_w.last().unwrap_or(&self.path_w[0])
    }

    /// How much higher the end is than the start, metres (negative: lower).
    pub fn rise_m(&self) -> f64 {
        self.end_w().y - self.start_w().y
    }

    /// Whether it climbs: ends at least [`CLIMB_TOLERANCE_M`] higher (a
    /// character frame: and stands on ground there, a higher floor).
    pub fn climbs(&self) -> bool {
        let high = self.rise_m() >= CLIMB_TOLERANCE_M;
        match self.ending {
            Ending::Move(_) => high,
            Ending::Frame { grounded, .. } => high && grounded,
        }
    }

    /// Whether this is a character frame's outcome (not a raw move's).
    pub fn is_frame(&self) -> bool {
        matches!(self.ending, Ending::Frame { .. })
    }
}

/// One thing that differs between the outcome before and after a change.
#[derive(Clone, Debug, PartialEq)]
pub enum Flip {
    /// It now goes where it was asked (a frame: no wall stops it).
    NowArrives,
    /// It used to arrive and now stops short.
    NowStops,
    /// The way it ends changed otherwise (words before, words after).
    Ending {
        /// How it ended before.
        before: String,
        /// How it ends now.
        after: String,
    },
    /// It now climbs (a character: reaches a higher floor), by this much.
    NowClimbs {
        /// Rise of the end over the start, metres.
        rise_m: f64,
        /// A character frame (reaches a higher floor) rather than a move.
        character: bool,
    },
    /// It climbed before and no longer does.
    NoLongerClimbs {
        /// A character frame rather than a move.
        character: bool,
    },
    /// It now ends inside geometry.
    NowInsideGeometry,
    /// It ended inside geometry before and no longer does.
    NoLongerInsideGeometry,
    /// The end moved by this much (metres, world space).
    EndMoved {
        /// Distance between the two ends.
        distance_m: f64,
    },
}

impl Flip {
    /// The flip in a designer's words.
    pub fn words(&self) -> String {
        match self {
            Flip::NowArrives => "now arrives".into(),
            Flip::NowStops => "now stops short".into(),
            Flip::Ending { before, after } => format!("now {after} (before: {before})"),
            Flip::NowClimbs {
                rise_m,
                character: false,
            } => format!("now climbs ({rise_m:.3} m up)"),
            Flip::NowClimbs {
                rise_m,
                character: true,
            } => format!("now reaches the higher floor ({rise_m:.3} m up)"),
            Flip::NoLongerClimbs { character: false } => "no longer climbs".into(),
            Flip::NoLongerClimbs { character: true } => "no longer reaches the higher floor".into(),
            Flip::NowInsideGeometry => "now ends inside geometry".into(),
            Flip::NoLongerInsideGeometry => "no longer ends inside geometry".into(),
            Flip::EndMoved { distance_m } => format!("end moved by {distance_m:.3} m"),
        }
    }
}

/// What flipped from `before` to `after`, most telling first: arriving,
/// the end reason, climbing, ending inside geometry, then how far the end
/// moved. Empty when the change made no difference.
pub fn flips(before: &Outcome, after: &Outcome) -> Vec<Flip> {
    let mut out = Vec::new();
    match (before.ending.arrives(), after.ending.arrives()) {
        (false, true) => out.push(Flip::NowArrives),
        (true, false) => out.push(Flip::NowStops),
        _ => {}
    }
    let (was, now) = (before.ending.words(), after.ending.words());
    if was != now && before.ending.arrives() == after.ending.arrives() {
        out.push(Flip::Ending {
            before: was,
            after: now,
        });
    }
    let character = after.is_frame();
    match (before.climbs(), after.climbs()) {
        (false, true) => out.push(Flip::NowClimbs {
            rise_m: after.rise_m(),
            character,
        }),
        (true, false) => out.push(Flip::NoLongerClimbs { character }),
        _ => {}
    }
    match (before.embedded, after.embedded) {
        (false, true) => out.push(Flip::NowInsideGeometry),
        (true, false) => out.push(Flip::NoLongerInsideGeometry),
        _ => {}
    }
    let distance_m = before.end_w().distance(after.end_w());
    if distance_m > END_MOVED_TOLERANCE_M {
        out.push(Flip::EndMoved { distance_m });
    }
    out
}

/// The flips as one sentence ("now arrives; end moved by 0.412 m"), or
/// that nothing flipped.
pub fn sentence(flips: &[Flip]) -> String {
    if flips.is_empty() {
        return format!(
            "nothing flipped: same ending, end within {} mm",
            END_MOVED_TOLERANCE_M * 1000.0
        );
    }
    flips.iter().map(Flip::words).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
#[path = "whatif_tests.rs"]
mod tests;
