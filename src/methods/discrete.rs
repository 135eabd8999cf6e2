//! The discrete mode: overlap testing in fixed time steps, after Ming-Hwa
//! Wang's lecture notes "Collision Detection and Resolution" (COEN 396,
//! Santa Clara University).
//!
//! The move is cut into [`MethodSettings::step_count`] equal steps (one per
//! tick at [`MethodSettings::step_hz`]). Each step jumps the probe to its
//! next sample and tests it for overlap ([`super::overlap`]). When it
//! overlaps, the notes' results are computed: the time of impact by
//! bisection between the last clear position and the sample, the collision
//! normal (at the time of impact) and the penetration depth (at the
//! sample); then the resolution places the probe at the point of impact, a
//! skin off the contact, which is a penetration depth of zero, and assigns
//! the new velocity: the rest of the motion loses its part into the normal.
//! A probe that starts a step inside geometry is pushed out along its
//! penetration normal instead.
//!
//! Resolution is split as the notes split it. The prologue decides whether
//! a contact affects the motion: triangles of non-colliding objects are
//! declined there and become triggers, which record enter and exit events
//! in the step. The collision places and redirects the probe. The epilogue
//! is the record itself (what the step reports to whoever listens).
//!
//! What the notes warn about is kept visible: a step longer than the
//! thinnest wall plus the probe jumps over it. The trace marks such a step
//! with the triangle the centre passed through ([`DiscreteStep::crossed_triangle`])
//! and [`super::tunnel`] gives the speed above which the level tunnels.

use super::Method;
use super::overlap::{OverlapQuery, Penetration};
use super::{MethodEnd, MethodSettings, MethodStep, MethodTrace, StepDetail};
use crate::collide::triggers::{TriggerEvent, events_between};
use crate::collide::{CollisionWorld, SlideSettings};
use crate::geometry::espace::EllipsoidSpace;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Push-outs tried per step before the probe is declared stuck (a push out
/// of one triangle can push into a neighbour in a corner).
const MAX_PUSH_ROUNDS: u32 = 4;

/// A step whose sample overlapped colliding geometry, and its resolution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiscreteContact {
    /// The deepest overlap at the sample: how deep the fixed step went,
    /// its triangle, normal and the push that would end it.
    pub penetration: Penetration,
    /// The overlap at the time of impact (the first overlapping bisection
    /// position, or the start when it already overlapped): its normal is
    /// the collision normal the resolution uses.
    pub impact: Penetration,
    /// Time of impact found by bisection, fraction of the step (`0` when
    /// the step already started overlapping).
    pub toi: f64,
    /// Probe centre at the time of impact, world space.
    pub toi_position: DVec3,
    /// Halvings the bisection ran.
    pub bisection_iterations: u32,
    /// The step started inside the geometry (no clear position to bisect from).
    pub started_overlapping: bool,
    /// The push-outs left the probe clear of every colliding triangle.
    pub resolved: bool,
}

/// One fixed step of the discrete mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiscreteStep {
    /// Where the step lands before any resolution, world space.
    pub sample: DVec3,
    /// The overlap found at the sample and how it was resolved.
    pub contact: Option<DiscreteContact>,
    /// Tunnelling: the sample is clear, but the centre's path from the
    /// step's start passed through this colliding triangle.
    pub crossed_triangle: Option<u32>,
    /// Non-colliding objects (triggers) the probe overlaps where the step ends.
    pub triggers_inside: Vec<u32>,
    /// Triggers entered or left in this step (the prologue declined them as collisions).
    pub trigger_events: Vec<TriggerEvent>,
}

/// Runs the discrete mode (settings already validated by [`super::run`]).
pub(super) fn run(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    ms: &MethodSettings,
    start: DVec3,
    velocity: DVec3,
) -> MethodTrace {
    let es = EllipsoidSpace::new(settings.radii_vec()).unwrap_or_else(|| {
        // Validated radii are never too small to divide by.
        EllipsoidSpace::new(DVec3::ONE).expect("unit radii")
    });
    let n = ms.step_count();
    let mut step_vel = velocity / f64::from(n);
    let mut query = OverlapQuery::default();
    let mut pos = start;
    let mut inside: Vec<u32> = Vec::new();
    let mut steps = Vec::with_capacity(n as usize);
    let mut any_contact = false;
    let mut stuck = false;
    for index in 0..n {
        let sample = pos + step_vel;
        let report = query.at(&world, es, sample, step_vel);
        let (end, contact, triggers_now) = match report.deepest {
            None => (sample, None, report.triggers),
            Some(pen) => {
                let c = resolve(
                    &mut query,
                    &world,
                    es,
                    settings.skin,
                    ms,
                    pos,
                    step_vel,
                    pen,
                );
                let end = c.1;
                let triggers = query.at(&world, es, end, step_vel).triggers;
                (end, Some(c.0), triggers)
            }
        };
        let crossed_triangle = match contact {
            None => query.centre_crossing(&world, pos, sample),
            Some(_) => None,
        };
        let trigger_events = events_between(&world, &inside, &triggers_now);
        if let Some(c) = &contact {
            any_contact = true;
            stuck = !c.resolved;
            // The new velocity: the rest of the motion without its part
            // into the contact.
            let into = step_vel.dot(c.impact.normal);
            if into < 0.0 {
                step_vel -= c.impact.normal * into;
            }
        } else {
            stuck = false;
        }
        steps.push(MethodStep {
            index,
            start: pos,
            velocity: sample - pos,
            end,
            detail: StepDetail::Discrete(DiscreteStep {
                sample,
                contact,
                crossed_triangle,
                triggers_inside: triggers_now.clone(),
                trigger_events,
            }),
        });
        inside = triggers_now;
        pos = end;
    }
    let end_reason = match (stuck, any_contact) {
        (true, _) => MethodEnd::StuckOverlapping,
        (false, true) => MethodEnd::ArrivedAfterContacts,
        (false, false) => MethodEnd::Arrived,
    };
    MethodTrace {
        method: Method::Discrete,
        final_position: pos,
        end_reason,
        iterations: steps,
    }
}

/// Bisection for the time of impact, then the resolution: the contact
/// record and where the probe ends. Bisection keeps the last clear
/// fraction (`lo`) and the first overlapping one (`hi`); the overlap at
/// `hi` is shallow and on the side the probe came from, so its normal is
/// the collision normal, even when the sample went past the middle of a
/// thin wall (where the sample's own nearest face is the far one).
#[allow(clippy::too_many_arguments)]
fn resolve(
    query: &mut OverlapQuery,
    world: &CollisionWorld<'_>,
    es: EllipsoidSpace,
    skin: f64,
    ms: &MethodSettings,
    from: DVec3,
    step_vel: DVec3,
    penetration: Penetration,
) -> (DiscreteContact, DVec3) {
    let at_start = query.at(world, es, from, step_vel).deepest;
    let started_overlapping = at_start.is_some();
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let mut impact = at_start.unwrap_or(penetration);
    let mut halvings = 0;
    if !started_overlapping {
        for _ in 0..ms.bisection_iterations {
            let mid = 0.5 * (lo + hi);
            match query.at(world, es, from + step_vel * mid, step_vel).deepest {
                Some(p) => {
                    hi = mid;
                    impact = p;
                }
                None => lo = mid,
            }
            halvings += 1;
        }
    }
    // Placed at the point of impact, a skin off the contact; a probe that
    // started inside is pushed out by its penetration instead.
    let mut end = if started_overlapping {
        from
    } else {
        from + step_vel * lo + impact.normal * skin
    };
    let mut pen = query.at(world, es, end, step_vel).deepest;
    for _ in 0..MAX_PUSH_ROUNDS {
        let Some(p) = pen else { break };
        end += p.push + p.normal * skin;
        pen = query.at(world, es, end, step_vel).deepest;
    }
    let contact = DiscreteContact {
        penetration,
        impact,
        toi: lo,
        toi_position: from + step_vel * lo,
        bisection_iterations: halvings,
        started_overlapping,
        resolved: pen.is_none(),
    };
    (contact, end)
}
