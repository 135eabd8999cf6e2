//! The classes of a map walk, ordered by severity, and the rules that
//! decide them from the walk's frames (world space, Y up, metres).

use super::walker::MapWalk;
use crate::character::{FrameRecord, Phase};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// How one walk went, least severe first: a spot's class is its worst walk's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MapClass {
    /// Walked for the whole time.
    Free,
    /// Stopped at a wall facing the input (within [`BLOCK_FACING_DEG`]): fine.
    Blocked,
    /// Dropped more than the step height, and walking straight back does
    /// not bring it back up to where it started.
    CantGetBack,
    /// Left the level through a side: its centre went past the level's
    /// horizontal bounds while still above its bottom (and it then fell or
    /// ended outside), off the open edge of a floor with no wall around it. Not a fault of the level's
    /// surfaces (a game would fence it or kill the player), so not a finding.
    WalkedOffEdge,
    /// Kept moving without getting anywhere: in the second half of the
    /// walk the path is at least [`JITTER_PATH_SHARE`] of the walk asked
    /// for and more than [`JITTER_PATH_OVER_NET`] times the distance
    /// between its ends.
    Jitter,
    /// Input held, no progress (each frame under a tenth of its walk to
    /// the end), and no wall facing the input stops it: wedged between
    /// walls it would slide along one by one (a narrow V, a gap of about
    /// its width), or caught on an edge with no wall at all.
    Stuck,
    /// Ended with nothing under it, below the level, or outside its
    /// bounds (plus [`OUTSIDE_MARGIN_M`]), having gone down through the
    /// level rather than off its side: a hole, a missing floor triangle.
    FellThrough,
    /// A solver iteration ended inside geometry (the solver's own
    /// clearance check). Must never happen in robust mode.
    Embedded,
}

impl MapClass {
    /// Every class, least severe first.
    pub const ALL: [MapClass; 8] = [
        MapClass::Free,
        MapClass::Blocked,
        MapClass::CantGetBack,
        MapClass::WalkedOffEdge,
        MapClass::Jitter,
        MapClass::Stuck,
        MapClass::FellThrough,
        MapClass::Embedded,
    ];

    /// The name in JSON and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            MapClass::Free => "free",
            MapClass::Blocked => "blocked",
            MapClass::CantGetBack => "cant_get_back",
            MapClass::WalkedOffEdge => "walked_off_edge",
            MapClass::Jitter => "jitter",
            MapClass::Stuck => "stuck",
            MapClass::FellThrough => "fell_through",
            MapClass::Embedded => "embedded",
        }
    }

    /// A finding a designer or programmer must look at (fails the CLI run).
    pub fn is_finding(self) -> bool {
        matches!(
            self,
            MapClass::Jitter | MapClass::Stuck | MapClass::FellThrough | MapClass::Embedded
        )
    }

    /// Colour in the map image and the window, sRGB.
    pub fn colour(self) -> [u8; 3] {
        match self {
            MapClass::Free => [120, 200, 120],
            MapClass::Blocked => [90, 130, 220],
            MapClass::CantGetBack => [240, 200, 40],
            MapClass::WalkedOffEdge => [90, 210, 220],
            MapClass::Jitter => [250, 130, 20],
            MapClass::Stuck => [230, 30, 30],
            MapClass::FellThrough => [170, 40, 200],
            MapClass::Embedded => [255, 0, 255],
        }
    }
}

/// A wall stops a walk rightly when its horizontal normal faces the input
/// within this angle: walls at more than this slide a lone character along
/// them, so a stop against them only is a wedge. 65° calls a 0.70 m gap
/// (0.10 m narrower than the default character) blocked and a gap of its
/// width, or a 30° V, stuck.
pub const BLOCK_FACING_DEG: f64 = 65.0;
/// A lone wall this close to square to the walk (from its facing) stops
/// it by itself: sliding along it gains at most sin² 25° = 18 % of the
/// walk, and the stall rule's tenth is reached within it once the skin
/// and the frame's other phases take their share (a 2:1 wall walked at
/// 45°, 18.4° from square, stalls).
pub const SQUARE_WALL_DEG: f64 = 25.0;
/// A contact whose normal points at least this far up (sin 11.5°) is a
/// slope, too steep to walk when it is no floor: facing the walk, it stops
/// it by itself.
pub const STEEP_SLOPE_UP: f64 = 0.2;
/// The frames at the end of a stalled walk whose contacts decide between
/// `blocked` and `stuck` (fewer when it stalled later).
pub const END_FRAMES: usize = 4;
/// Jitter: the second half's path is at least this share of the walk asked for.
pub const JITTER_PATH_SHARE: f64 = 0.25;
/// Jitter: the second half's path is more than this many times its net displacement.
pub const JITTER_PATH_OVER_NET: f64 = 4.0;
/// Outside the level's bounds by more than this is out of the level, metres.
pub const OUTSIDE_MARGIN_M: f64 = 0.5;
/// Back within this of the start height counts as back, metres.
pub const BACK_TOLERANCE_M: f64 = 0.05;

/// What classifying one walk needs besides the walk.
pub(super) struct WalkContext {
    /// The level's bounds, world space.
    pub bounds_min: DVec3,
    /// The level's bounds, world space.
    pub bounds_max: DVec3,
    /// Walking speed, m/s.
    pub walk_speed_m_s: f64,
    /// Seconds per frame.
    pub frame_time_s: f64,
    /// Tallest step climbed, metres.
    pub max_step_height_m: f64,
    /// Least up component of a walkable floor's normal.
    pub floor_min_up: f64,
}

/// A class and the frame where it showed (`None` for free).
pub(super) type Verdict = (MapClass, Option<u32>);

/// What lies under the end of a walk, read by rays against the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Under {
    /// A colliding surface somewhere below.
    Ground,
    /// Nothing below, but the level goes on around it, within
    /// [`ENCLOSED_REACH_M`] every way: a hole in a floor, a missing
    /// triangle.
    Hole,
    /// Nothing below, and no level at all within [`ENCLOSED_REACH_M`] one
    /// way at least: past an open edge of the level (a cliff at the edge of
    /// a terrain, a floor without walls), however the level's box is shaped.
    OpenSide,
}

/// How far around the end of a walk with nothing under it the level must
/// go on, every way, for the void to be a hole rather than the outside of
/// the level, metres.
pub const ENCLOSED_REACH_M: f64 = 8.0;

/// Every class but `cant_get_back` (which needs a walk back) and
/// `fell_through`'s ray test (which needs the level), most severe first.
pub(super) fn classify(walk: &MapWalk, cx: &WalkContext, under: Under) -> Vec<Verdict> {
    let mut found = Vec::new();
    let frames = &walk.frames;
    if let Some(f) = embedded_frame(frames) {
        found.push((MapClass::Embedded, Some(f)));
    }
    if let Some(verdict) = fell_verdict(walk, cx, under) {
        found.push(verdict);
    }
    // Going back and forth also leaves frames without progress: jitter first.
    if let Some(f) = jitter_frame(frames, cx).filter(|_| !walk.fixed_point) {
        found.push((MapClass::Jitter, Some(f)));
    } else if let Some(stall) = walk.stalled_at() {
        let normals = end_contacts(walk, stall, cx.floor_min_up);
        let class = if contacts_block(walk.dir, &normals) {
            MapClass::Blocked
        } else {
            MapClass::Stuck
        };
        found.push((class, Some(stall)));
    }
    found
}

/// Whether the walk ended more than a step below its start: then the
/// walk back decides `cant_get_back`.
pub(super) fn dropped(walk: &MapWalk, cx: &WalkContext) -> bool {
    walk.end().position.y - walk.from.y < -(cx.max_step_height_m + BACK_TOLERANCE_M)
}

/// The first frame that ended below the start by more than the step
/// height (where the drop that cannot be climbed back happened).
pub(super) fn drop_frame(walk: &MapWalk, cx: &WalkContext) -> u32 {
    let floor = walk.from.y - cx.max_step_height_m - BACK_TOLERANCE_M;
    walk.frames
        .iter()
        .position(|f| f.after.position.y < floor)
        .unwrap_or(0) as u32
}

/// The unit normals of every contact at the end of a walk that stalled at
/// frame `stall`: the walls met in the last [`END_FRAMES`] frames (from
/// the stall on), by the walk and by the step-up's walk at the raised
/// height. Walkable floors, ghost edges (an edge or vertex between flat
/// neighbours, a snag rather than a wall) and near-horizontal surfaces (a
/// ceiling) are left out.
pub(super) fn end_contacts(walk: &MapWalk, stall: u32, floor_min_up: f64) -> Vec<DVec3> {
    let frames = &walk.frames;
    let from = (stall as usize)
        .min(frames.len() - 1)
        .max(frames.len().saturating_sub(END_FRAMES));
    let mut normals: Vec<DVec3> = Vec::new();
    let mut add = |n: DVec3| {
        let across = DVec3::new(n.x, 0.0, n.z).length();
        if n.y < floor_min_up && across > 0.1 {
            let n = n.normalize();
            if !normals.iter().any(|m| m.dot(n) > 1.0 - 1e-9) {
                normals.push(n);
            }
        }
    };
    for f in &frames[from..] {
        if let Some(w) = f.wall {
            add(w.normal);
        }
        for it in &f.iterations {
            if !matches!(it.phase, Phase::Velocity | Phase::StepForward) {
                continue;
            }
            let r = &it.record;
            if let Some(hit) = r.nearest.as_ref().filter(|_| r.ghost_hit.is_none()) {
                add(hit.contact_normal);
            }
        }
    }
    normals
}

/// Whether contacts with the unit normals `normals` stop a walk along
/// `dir` as they should (`blocked`). Angles are between a normal's
/// horizontal part and the walk's reverse. Blocked when one contact faces
/// the walk within [`BLOCK_FACING_DEG`] and either it stops the walk by
/// itself (within [`SQUARE_WALL_DEG`] of square, or a slope too steep to
/// walk, its normal at least [`STEEP_SLOPE_UP`] up: sliding on climbs it
/// and gravity takes it back), or another contact lies on the other side
/// of the walk's reverse with the two less than 180° apart (a corner: no
/// horizontal way on is open against both). Otherwise the contacts would
/// let the character slide on, or none faces it (a narrow V, a slot of its
/// width): the stop is a snag, `stuck`.
pub(super) fn contacts_block(dir: DVec3, normals: &[DVec3]) -> bool {
    let back = -DVec3::new(dir.x, 0.0, dir.z).normalize_or_zero();
    // Angle from the walk's reverse, signed by side (left positive).
    let angle = |n: DVec3| {
        let h = DVec3::new(n.x, 0.0, n.z);
        back.cross(h).y.atan2(back.dot(h))
    };
    let facing = BLOCK_FACING_DEG.to_radians();
    let square = SQUARE_WALL_DEG.to_radians();
    normals.iter().any(|&a| {
        let aa = angle(a);
        if aa.abs() > facing {
            return false;
        }
        aa.abs() <= square
            || a.y >= STEEP_SLOPE_UP
            || normals.iter().any(|&b| {
                let ab = angle(b);
                aa * ab < 0.0 && aa.abs() + ab.abs() < std::f64::consts::PI
            })
    })
}

pub(super) fn embedded_frame(frames: &[FrameRecord]) -> Option<u32> {
    frames
        .iter()
        .find(|f| {
            f.iterations
                .iter()
                .any(|it| it.record.clearance.is_some_and(|c| c.embedded))
        })
        .map(|f| f.index)
}

/// Fell through or walked off the edge: nothing under the end, or out of
/// the level's box; off the edge when the walk left the box through a side
/// before it went below its bottom, or when the void it ended over opens
/// onto the outside of the level ([`Under::OpenSide`]: an irregular level's
/// edge lies inside its box).
fn fell_verdict(walk: &MapWalk, cx: &WalkContext, under: Under) -> Option<Verdict> {
    let m = OUTSIDE_MARGIN_M;
    let beside = |p: DVec3| {
        p.x < cx.bounds_min.x - m
            || p.z < cx.bounds_min.z - m
            || p.x > cx.bounds_max.x + m
            || p.z > cx.bounds_max.z + m
    };
    let below = |p: DVec3| p.y < cx.bounds_min.y - m;
    let end = walk.end().position;
    if walk.frames.is_empty() || !(under != Under::Ground || below(end) || beside(end)) {
        return None;
    }
    // Where it went wrong: the frame after it last stood on ground.
    let last_grounded = walk.frames.iter().rposition(|f| f.after.grounded);
    let frame = last_grounded.map_or(0, |i| (i + 1).min(walk.frames.len() - 1)) as u32;
    // Out through a side first, still above the level's bottom: the
    // centre went past the level's horizontal bounds (a character rolls off
    // an open edge once its centre is past it, and may then fall straight
    // down, within the margin) before it went below the level.
    let past_side = |p: DVec3| {
        p.x < cx.bounds_min.x
            || p.z < cx.bounds_min.z
            || p.x > cx.bounds_max.x
            || p.z > cx.bounds_max.z
    };
    let off_edge = walk
        .frames
        .iter()
        .map(|f| f.after.position)
        .find(|&p| past_side(p) || below(p))
        .is_some_and(|p| !below(p))
        || under == Under::OpenSide;
    let class = if off_edge {
        MapClass::WalkedOffEdge
    } else {
        MapClass::FellThrough
    };
    Some((class, Some(frame)))
}

/// Jitter in the second half of the walk: see [`MapClass::Jitter`].
fn jitter_frame(frames: &[FrameRecord], cx: &WalkContext) -> Option<u32> {
    let half = &frames[frames.len() / 2..];
    if half.len() < 4 {
        return None;
    }
    let path_m: f64 = half
        .iter()
        .map(|f| (f.after.position - f.before.position).length())
        .sum();
    let net_m = (half[half.len() - 1].after.position - half[0].before.position).length();
    let asked_m = cx.walk_speed_m_s * cx.frame_time_s * half.len() as f64;
    (path_m >= JITTER_PATH_SHARE * asked_m && path_m > JITTER_PATH_OVER_NET * net_m)
        .then_some(half[0].index)
}
