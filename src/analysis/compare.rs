//! One move run in every slide mode side by side, and the first iteration
//! where the modes part ways.
//!
//! The papers' algorithms (Nettle 2000, Fauerby 2003) and the robust mode
//! agree on most moves; where a player snags or ends inside a wall they do
//! not, and the question is where the disagreement starts. The modes'
//! traces are compared record by record (index `i` of one with index `i` of
//! the others, world space, metres): they diverge at the first index where
//! one mode has ended and another goes on, where the pass differs, where
//! the nearest hit is a different triangle (or a hit against a miss), where
//! the iteration ends differently (continue, pass ended, move ended and
//! why), where one ends inside geometry and another does not, or where the
//! end positions are farther apart than [`DIVERGENCE_TOLERANCE_M`].

use crate::collide::{
    CollisionWorld, IterationOutcome, IterationRecord, Pass, SlideMode, SlideResult, SlideSettings,
    TraceDetail, slide,
};
use glam::DVec3;
use serde::Serialize;

/// End positions closer than this (metres, world space) count as the same.
///
/// A millimetre: well under the default 5 mm skin, so that the modes'
/// different ways of keeping the skin (along the contact normal, along the
/// velocity) only count when they move the probe visibly, and well over
/// the solver's rounding (about 1e-9 m).
pub const DIVERGENCE_TOLERANCE_M: f64 = 1e-3;

/// The same move in every mode.
#[derive(Clone, Debug)]
pub struct ModeComparison {
    /// One run per mode, in [`SlideMode::ALL`] order.
    pub runs: Vec<(SlideMode, SlideResult)>,
    /// The first iteration where the modes differ; `None` when they agree
    /// on every iteration.
    pub divergence: Option<Divergence>,
}

/// One way in which the modes' iterations can differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Aspect {
    /// A mode's move had ended before this iteration; another's goes on.
    IterationCount,
    /// The modes are in different passes (velocity, gravity).
    Pass,
    /// The nearest hit is a different triangle, or a hit against a miss.
    HitTriangle,
    /// The iteration ends differently (continue, pass ended, move ended, why).
    Outcome,
    /// One ends inside geometry, another does not.
    Embedded,
    /// One's centre went through or within the radius of a triangle on
    /// the way (the self checks' `tunnel`), another's did not.
    Tunnel,
    /// The end positions are more than [`DIVERGENCE_TOLERANCE_M`] apart.
    EndPosition,
}

/// What differs at the first iteration where the modes part ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    /// The iteration's index (0-based, over the whole move).
    pub iteration: u32,
    /// What differs, in [`Aspect`] order.
    pub differs: Vec<Aspect>,
    /// The largest distance between two modes' end positions at that
    /// iteration, metres (0 when fewer than two modes reached it).
    pub end_spread_m: f64,
    /// Each mode at that iteration, in [`SlideMode::ALL`] order.
    pub modes: Vec<ModeAtIteration>,
}

/// One mode at the divergent iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModeAtIteration {
    /// The mode.
    pub mode: SlideMode,
    /// Whether the mode ran this iteration (`false`: its move had ended).
    pub ran: bool,
    /// The pass, when it ran.
    pub pass: Option<Pass>,
    /// The nearest hit's triangle, when it ran and hit something.
    pub hit_triangle: Option<u32>,
    /// How the iteration ended, when it ran.
    pub outcome: Option<IterationOutcome>,
    /// It ended inside geometry (per the solver's self checks).
    pub embedded: bool,
    /// Its centre tunnelled on the way (per the solver's self checks).
    pub tunnel: bool,
    /// Where it ended, world space; where the move ended when it did not run.
    pub end: DVec3,
}

/// Runs the move from `from_w` by `velocity_w` (world space, metres) once
/// per mode with `settings` (its `mode` ignored) and finds the divergence.
/// `None` when the solver refuses the input (see [`slide`]).
pub fn compare_modes(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    from_w: DVec3,
    velocity_w: DVec3,
    detail: TraceDetail,
) -> Option<ModeComparison> {
    let mut runs = Vec::with_capacity(SlideMode::ALL.len());
    for mode in SlideMode::ALL {
        let s = SlideSettings {
            mode,
            ..settings.clone()
        };
        runs.push((mode, slide(world, &s, from_w, velocity_w, detail)?));
    }
    let divergence = first_divergence(&runs);
    Some(ModeComparison { runs, divergence })
}

/// One mode's trace as the comparison reads it: its records in order and
/// where its move ended (world space). A raw move's [`SlideResult`] and a
/// character frame's iterations both give one.
#[derive(Clone, Copy, Debug)]
pub struct ModeTrace<'a> {
    /// The mode that ran.
    pub mode: SlideMode,
    /// Its iteration records, in order.
    pub records: &'a [IterationRecord],
    /// Where its move ended.
    pub end: DVec3,
}

impl<'a> ModeTrace<'a> {
    /// The trace of one run of [`slide`].
    pub fn of_result(mode: SlideMode, r: &'a SlideResult) -> Self {
        ModeTrace {
            mode,
            records: &r.iterations,
            end: r.final_position,
        }
    }
}

/// The first iteration at which the runs differ (see the module docs).
pub fn first_divergence(runs: &[(SlideMode, SlideResult)]) -> Option<Divergence> {
    let traces: Vec<ModeTrace<'_>> = runs
        .iter()
        .map(|(m, r)| ModeTrace::of_result(*m, r))
        .collect();
    first_divergence_of(&traces)
}

/// [`first_divergence`] over traces (a character frame run in each mode).
pub fn first_divergence_of(traces: &[ModeTrace<'_>]) -> Option<Divergence> {
    let longest = traces.iter().map(|t| t.records.len()).max()?;
    (0..longest).find_map(|i| {
        let row = compare_at(traces, i);
        (!row.differs.is_empty()).then_some(row)
    })
}

/// Every iteration side by side, one row per index up to the longest
/// trace: what each mode did there and what differs (`differs` is empty
/// where the modes agree). The first row with a difference is the
/// divergence.
pub fn iteration_table(traces: &[ModeTrace<'_>]) -> Vec<Divergence> {
    let longest = traces.iter().map(|t| t.records.len()).max().unwrap_or(0);
    (0..longest).map(|i| compare_at(traces, i)).collect()
}

fn compare_at(traces: &[ModeTrace<'_>], i: usize) -> Divergence {
    let modes: Vec<ModeAtIteration> = traces.iter().map(|t| mode_at(t, i)).collect();
    let ran: Vec<&ModeAtIteration> = modes.iter().filter(|m| m.ran).collect();
    let mut end_spread_m: f64 = 0.0;
    for (k, a) in ran.iter().enumerate() {
        for b in &ran[k + 1..] {
            end_spread_m = end_spread_m.max(a.end.distance(b.end));
        }
    }
    let mut differs = Vec::new();
    if ran.len() != modes.len() {
        differs.push(Aspect::IterationCount);
    }
    if !all_same(&ran, |m| m.pass) {
        differs.push(Aspect::Pass);
    }
    if !all_same(&ran, |m| m.hit_triangle) {
        differs.push(Aspect::HitTriangle);
    }
    if !all_same(&ran, |m| m.outcome) {
        differs.push(Aspect::Outcome);
    }
    if !all_same(&ran, |m| m.embedded) {
        differs.push(Aspect::Embedded);
    }
    if !all_same(&ran, |m| m.tunnel) {
        differs.push(Aspect::Tunnel);
    }
    if end_spread_m > DIVERGENCE_TOLERANCE_M {
        differs.push(Aspect::EndPosition);
    }
    Divergence {
        iteration: i as u32,
        differs,
        end_spread_m,
        modes,
    }
}

/// Whether `key` is the same for every mode that ran.
fn all_same<T: PartialEq>(ran: &[&ModeAtIteration], key: impl Fn(&ModeAtIteration) -> T) -> bool {
    ran.windows(2).all(|w| key(w[0]) == key(w[1]))
}

fn mode_at(t: &ModeTrace<'_>, i: usize) -> ModeAtIteration {
    let mode = t.mode;
    match t.records.get(i) {
        Some(rec) => ModeAtIteration {
            mode,
            ran: true,
            pass: Some(rec.pass),
            hit_triangle: rec.nearest.map(|h| h.triangle),
            outcome: Some(rec.outcome),
            embedded: is_embedded(rec),
            tunnel: rec.tunnel.is_some(),
            end: rec.end,
        },
        None => ModeAtIteration {
            mode,
            ran: false,
            pass: None,
            hit_triangle: None,
            outcome: None,
            embedded: false,
            tunnel: false,
            end: t.end,
        },
    }
}

fn is_embedded(rec: &IterationRecord) -> bool {
    rec.clearance.is_some_and(|c| c.embedded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::{EndReason, SlideResult};

    fn record(
        index: u32,
        end: DVec3,
        hit: Option<u32>,
        outcome: IterationOutcome,
    ) -> IterationRecord {
        let level = crate::level::Level::from_mesh(
            "one",
            crate::mesh::TriMesh::new(
                vec![glam::Vec3::ZERO, glam::Vec3::X, glam::Vec3::Z],
                vec![[0, 1, 2]],
                vec![("t".to_string(), 1)],
            ),
        );
        // A real record from the solver, then the fields under test set.
        let s = SlideSettings::default();
        let mut rec = slide(
            level.world(),
            &s,
            DVec3::new(0.0, 5.0, 0.0),
            DVec3::X,
            TraceDetail::Summary,
        )
        .unwrap()
        .iterations
        .remove(0);
        rec.index = index;
        rec.end = end;
        rec.nearest = hit.map(|t| {
            let mut h = sample_hit();
            h.triangle = t;
            h
        });
        rec.outcome = outcome;
        rec
    }

    fn sample_hit() -> crate::collide::NearestHit {
        let z = DVec3::ZERO;
        crate::collide::NearestHit {
            triangle: 0,
            object: 0,
            t: 0.5,
            feature: crate::geometry::sweep::Feature::Face,
            contact_point: z,
            contact_point_espace: z,
            contact_center: z,
            contact_center_espace: z,
            contact_normal: DVec3::Y,
            contact_normal_espace: DVec3::Y,
            triangle_plane_origin: z,
            triangle_plane_normal: DVec3::Y,
            plane_intersection_point: z,
            plane_intersection_point_espace: z,
            polygon_intersection_point: z,
            polygon_intersection_point_espace: z,
            ellipsoid_intersection_point: z,
            ellipsoid_intersection_point_espace: z,
        }
    }

    fn run(mode: SlideMode, iterations: Vec<IterationRecord>) -> (SlideMode, SlideResult) {
        let last = iterations.last().unwrap();
        (
            mode,
            SlideResult {
                mode,
                final_position: last.end,
                end_reason: EndReason::Arrived,
                iterations,
            },
        )
    }

    const GO: IterationOutcome = IterationOutcome::Continue;
    const END: IterationOutcome = IterationOutcome::MoveEnded(EndReason::Arrived);

    #[test]
    fn positions_within_the_tolerance_agree_and_beyond_it_diverge() {
        let a = DVec3::new(1.0, 0.0, 0.0);
        let near = a + DVec3::new(0.9 * DIVERGENCE_TOLERANCE_M, 0.0, 0.0);
        let far = a + DVec3::new(1.1 * DIVERGENCE_TOLERANCE_M, 0.0, 0.0);
        let agree = [
            run(SlideMode::Robust, vec![record(0, a, Some(3), END)]),
            run(SlideMode::Nettle2000, vec![record(0, near, Some(3), END)]),
        ];
        assert_eq!(first_divergence(&agree), None);
        let apart = [
            run(SlideMode::Robust, vec![record(0, a, Some(3), END)]),
            run(SlideMode::Nettle2000, vec![record(0, far, Some(3), END)]),
        ];
        let d = first_divergence(&apart).unwrap();
        assert_eq!(
            (d.iteration, d.differs.clone()),
            (0, vec![Aspect::EndPosition])
        );
        assert!((d.end_spread_m - 1.1 * DIVERGENCE_TOLERANCE_M).abs() < 1e-12);
    }

    #[test]
    fn a_tunnel_in_one_mode_only_is_a_divergence() {
        let p = DVec3::ONE;
        let mut through = record(0, p, None, END);
        through.tunnel = Some(crate::collide::Tunnel {
            triangle: 0,
            object: 0,
            crossed: true,
            depth_radii: 1.0,
            depth_metres: 0.4,
            t: 0.5,
            center: p,
            closest_point: p,
            back_face: true,
            cause: crate::collide::TunnelCause::BackFaceCulled,
        });
        let runs = [
            run(SlideMode::Robust, vec![record(0, p, None, END)]),
            run(SlideMode::Fauerby2003, vec![through]),
        ];
        let d = first_divergence(&runs).unwrap();
        assert_eq!((d.iteration, d.differs.clone()), (0, vec![Aspect::Tunnel]));
        assert_eq!(
            d.modes.iter().map(|m| m.tunnel).collect::<Vec<_>>(),
            [false, true]
        );
    }

    #[test]
    fn a_different_triangle_or_an_earlier_end_is_a_divergence() {
        let p = DVec3::ONE;
        let runs = [
            run(
                SlideMode::Robust,
                vec![record(0, p, Some(1), GO), record(1, p, Some(2), END)],
            ),
            run(
                SlideMode::Fauerby2003,
                vec![record(0, p, Some(1), GO), record(1, p, None, END)],
            ),
        ];
        let d = first_divergence(&runs).unwrap();
        assert_eq!(
            (d.iteration, d.differs.clone()),
            (1, vec![Aspect::HitTriangle])
        );
        assert_eq!(d.modes[1].hit_triangle, None);
        let runs = [
            run(
                SlideMode::Robust,
                vec![record(0, p, Some(1), GO), record(1, p, None, END)],
            ),
            run(SlideMode::Nettle2000, vec![record(0, p, Some(1), END)]),
        ];
        let d = first_divergence(&runs).unwrap();
        assert_eq!(d.iteration, 0);
        assert_eq!(d.differs, vec![Aspect::Outcome]);
        // Had the outcomes matched, the missing iteration would have shown.
        let runs = [
            run(
                SlideMode::Robust,
                vec![record(0, p, Some(1), GO), record(1, p, None, END)],
            ),
            run(SlideMode::Nettle2000, vec![record(0, p, Some(1), GO)]),
        ];
        let d = first_divergence(&runs).unwrap();
        assert_eq!(
            (d.iteration, d.differs.clone()),
            (1, vec![Aspect::IterationCount])
        );
        assert!(!d.modes[1].ran);
        assert_eq!(d.modes[1].end, p);
    }

    #[test]
    fn the_table_has_a_row_per_iteration_and_its_first_difference_is_the_divergence() {
        let p = DVec3::ONE;
        let runs = [
            run(
                SlideMode::Robust,
                vec![record(0, p, Some(1), GO), record(1, p, Some(2), END)],
            ),
            run(
                SlideMode::Fauerby2003,
                vec![record(0, p, Some(1), GO), record(1, p * 2.0, Some(2), END)],
            ),
        ];
        let traces: Vec<ModeTrace<'_>> = runs
            .iter()
            .map(|(m, r)| ModeTrace::of_result(*m, r))
            .collect();
        let table = iteration_table(&traces);
        assert_eq!(table.len(), 2);
        assert!(table[0].differs.is_empty());
        assert_eq!(table[0].end_spread_m, 0.0);
        assert_eq!(table[1].differs, vec![Aspect::EndPosition]);
        assert!((table[1].end_spread_m - 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(first_divergence(&runs).as_ref(), Some(&table[1]));
        assert!(iteration_table(&[]).is_empty());
    }
}
