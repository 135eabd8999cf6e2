//! Triggers: the level's non-colliding objects, whose contacts the prologue
//! of a collision declines (Wang, "Collision Detection and Resolution",
//! COEN 396: "if the collision should not affect the position or
//! trajectories of the objects, the function returns false"). They do not
//! change the motion; the probe's entering and leaving them is recorded.
//!
//! A probe is *in* a trigger where the discrete mode says so
//! ([`crate::methods::overlap::OverlapQuery`]): its ellipsoid overlaps one of
//! the object's triangles, or its centre is inside the object's box.
//! [`events_between`] turns two such sets into enter / exit events (the
//! discrete mode's steps use it as is).
//!
//! The slide records, per iteration, when along the segment it travelled
//! (`start` to `end`, world space) each change happened
//! ([`TriggerCrossing`]), exactly for the ellipsoid: the enter time is the
//! first time the swept ellipsoid touches one of the trigger's triangles
//! (the swept unit sphere against the triangle in ellipsoid space, as the
//! solver's own test, both sides counting) or its centre enters the box;
//! the exit time is the last such time, found by sweeping the segment
//! backwards from its end. A trigger passed through within one iteration
//! gets both events. The triggers a move starts in are not entered by it
//! (unlike the discrete mode, whose first step enters them): events are
//! the changes along the path, so a walk made of many short moves records
//! each change once.

use crate::bvh::{BvhScratch, QueryStats};
use crate::collide::CollisionWorld;
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::sweep::{SweepOutcome, sweep_unit_sphere_triangle};
use crate::math::Aabb;
use crate::methods::overlap::OverlapQuery;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A trigger event: the probe entered or left a non-colliding object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriggerEvent {
    /// Object index in the level's mesh.
    pub object: u32,
    /// The object's name.
    pub name: String,
    /// Entered or left.
    pub kind: TriggerKind,
}

/// Which way a trigger event goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerKind {
    /// The probe started to overlap the object in this step.
    Enter,
    /// The probe stopped overlapping it in this step.
    Exit,
}

impl TriggerKind {
    /// `"enter"` or `"exit"`.
    pub fn name(self) -> &'static str {
        match self {
            TriggerKind::Enter => "enter",
            TriggerKind::Exit => "exit",
        }
    }
}

/// A trigger entered or left on a slide iteration's travelled segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriggerCrossing {
    /// Object index in the level's mesh.
    pub object: u32,
    /// The object's name.
    pub name: String,
    /// Entered or left.
    pub kind: TriggerKind,
    /// When, as a fraction of the travelled segment (`start` to `end` of
    /// the iteration), in `[0, 1]`.
    pub t: f64,
    /// The probe centre then, world space.
    pub center: DVec3,
}

/// Enter events for triggers in `now` and not in `before`, exit events for
/// the reverse (both lists ascending).
pub fn events_between(
    world: &CollisionWorld<'_>,
    before: &[u32],
    now: &[u32],
) -> Vec<TriggerEvent> {
    let entered = now
        .iter()
        .filter(|o| !before.contains(o))
        .map(|&o| (o, TriggerKind::Enter));
    let left = before
        .iter()
        .filter(|o| !now.contains(o))
        .map(|&o| (o, TriggerKind::Exit));
    entered
        .chain(left)
        .map(|(object, kind)| TriggerEvent {
            object,
            name: object_name(world, object),
            kind,
        })
        .collect()
}

fn object_name(world: &CollisionWorld<'_>, object: u32) -> String {
    world
        .mesh
        .objects()
        .get(object as usize)
        .map_or_else(String::new, |m| m.name.clone())
}

/// `true` when the world has a non-colliding object.
pub fn has_triggers(world: &CollisionWorld<'_>) -> bool {
    world
        .object_colliding
        .is_some_and(|flags| flags.iter().take(world.mesh.objects().len()).any(|c| !c))
}

/// Follows which triggers a sliding probe is in, iteration by iteration,
/// with reusable buffers.
#[derive(Default)]
pub(crate) struct TriggerTracker {
    overlap: OverlapQuery,
    scratch: BvhScratch,
    tris: Vec<u32>,
    stats: QueryStats,
    /// Triggers the probe is in where the last iteration ended.
    inside: Vec<u32>,
    /// Per object touched on the segment: first and last time.
    touched: Vec<(u32, f64, f64)>,
}

impl TriggerTracker {
    /// A new move from `start` (world space): the triggers the probe is
    /// in there are not entered by the move, so moves chained end to start
    /// (a walk's phases and frames) record each change once.
    pub fn reset(&mut self, world: &CollisionWorld<'_>, es: EllipsoidSpace, start: DVec3) {
        self.inside = self.overlap.at(world, es, start, DVec3::ZERO).triggers;
    }

    /// The enter / exit events of the segment `from..to` (world space),
    /// sorted by time, and the probe's triggers at `to` remembered for the
    /// next segment.
    pub fn crossings(
        &mut self,
        world: &CollisionWorld<'_>,
        es: EllipsoidSpace,
        from: DVec3,
        to: DVec3,
    ) -> Vec<TriggerCrossing> {
        let now = self.overlap.at(world, es, to, to - from).triggers;
        self.touch_times(world, es, from, to);
        let mut out = Vec::new();
        let mut event = |object: u32, kind: TriggerKind, t: f64| {
            let t = t.clamp(0.0, 1.0);
            out.push(TriggerCrossing {
                object,
                name: object_name(world, object),
                kind,
                t,
                center: from + (to - from) * t,
            });
        };
        let span = |o: u32| self.touched.iter().find(|e| e.0 == o).map(|e| (e.1, e.2));
        for e in events_between(world, &self.inside, &now) {
            let span = span(e.object);
            let t = match e.kind {
                TriggerKind::Enter => span.map_or(1.0, |s| s.0),
                TriggerKind::Exit => span.map_or(0.0, |s| s.1),
            };
            event(e.object, e.kind, t);
        }
        // Passed through: touched on the way, in it at neither end.
        for &(o, first, last) in &self.touched {
            if !self.inside.contains(&o) && !now.contains(&o) {
                event(o, TriggerKind::Enter, first);
                event(o, TriggerKind::Exit, last);
            }
        }
        out.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.object.cmp(&b.object)));
        self.inside = now;
        out
    }

    /// Fills `touched` with, per trigger the segment touches, the first
    /// and last time it does (fractions of `from..to`).
    fn touch_times(
        &mut self,
        world: &CollisionWorld<'_>,
        es: EllipsoidSpace,
        from: DVec3,
        to: DVec3,
    ) {
        self.touched.clear();
        let radii = es.radii();
        let query = Aabb::from_f64_outward(from.min(to) - radii, from.max(to) + radii);
        self.tris.clear();
        world.bvh.query_aabb(
            world.mesh.tri_aabbs(),
            &query,
            &mut self.scratch,
            &mut self.tris,
            None,
            &mut self.stats,
        );
        let (from_e, to_e) = (es.espace_from_world(from), es.espace_from_world(to));
        let vel_e = to_e - from_e;
        for &tri in &self.tris {
            if world.triangle_collides(tri) {
                continue;
            }
            let corners_e = world
                .mesh
                .triangle_f64(tri)
                .map(|c| es.espace_from_world(c));
            let first = first_touch(from_e, vel_e, corners_e);
            // The last touch going forwards is the first going backwards.
            let last = first_touch(to_e, -vel_e, corners_e).map(|t| 1.0 - t);
            if let (Some(first), Some(last)) = (first, last) {
                let object = world.mesh.object_of(tri) as u32;
                note(&mut self.touched, object, first, last);
            }
        }
        if let Some(flags) = world.object_colliding {
            for (o, object) in world.mesh.objects().iter().enumerate() {
                if flags.get(o).copied().unwrap_or(true) {
                    continue;
                }
                if let Some((t0, t1)) = segment_in_box(from, to, &object.aabb) {
                    note(&mut self.touched, o as u32, t0, t1);
                }
            }
        }
    }
}

/// Widens `object`'s first / last touch in `touched` to cover `first..last`.
fn note(touched: &mut Vec<(u32, f64, f64)>, object: u32, first: f64, last: f64) {
    match touched.iter_mut().find(|e| e.0 == object) {
        Some(e) => {
            e.1 = e.1.min(first);
            e.2 = e.2.max(last);
        }
        None => touched.push((object, first, last)),
    }
}

/// First time in `[0, 1]` the unit sphere at `center_e` moving by `vel_e`
/// touches the triangle (ellipsoid space, both faces), if it does.
fn first_touch(center_e: DVec3, vel_e: DVec3, corners_e: [DVec3; 3]) -> Option<f64> {
    match sweep_unit_sphere_triangle(center_e, vel_e, corners_e, 1.0, false) {
        SweepOutcome::Hit(hit) => Some(hit.t),
        SweepOutcome::Miss { .. } => None,
    }
}

/// The part of the segment `from..to` inside the box (slab test), as
/// fractions of the segment, if any.
fn segment_in_box(from: DVec3, to: DVec3, aabb: &Aabb) -> Option<(f64, f64)> {
    if aabb.is_empty() {
        return None;
    }
    let (lo, hi) = (aabb.min.as_dvec3(), aabb.max.as_dvec3());
    let dir = to - from;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for axis in 0..3 {
        if dir[axis] == 0.0 {
            if from[axis] < lo[axis] || from[axis] > hi[axis] {
                return None;
            }
            continue;
        }
        let a = (lo[axis] - from[axis]) / dir[axis];
        let b = (hi[axis] - from[axis]) / dir[axis];
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}

#[cfg(test)]
#[path = "triggers_tests.rs"]
mod tests;
