//! Whole slides checked by an independent library: every iteration of
//! every move, as the solver's record gives it (from its start, after any
//! recovery push, to its end), is swept again with parry3d's own shape
//! cast against parry's own `TriMesh` of the level, in the probe's
//! ellipsoid space. A sound path meets nothing on the way: the ball
//! (shrunk by parry's `f32` GJK tolerance) cast along it must hit nothing.
//! This is what "never tunnels, never ends inside geometry" means, checked
//! by code that shares nothing with ours.
//!
//! It also says why long moves end far from a parry loop's ends (the
//! slide bench reports 16-18 % of long moves on the fields more than 10 cm
//! apart): the test runs the bench's parry loop on the same moves and, for
//! each pair of ends 10 cm apart, finds the first iteration where the two
//! paths part and what parted them. Both paths being clear, the split is a
//! choice between valid slides, not a missed wall. The parry loop is the
//! benches' own (`benches/support/parry_slide.rs`).

use crate::common::shared_levels;
use collidoscope::analysis::generate::ProbeMove;
use collidoscope::analysis::generate::field;
use collidoscope::analysis::generate::move_sets::{MoveKind, random_moves};
use collidoscope::collide::{EndReason, SlideSettings, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level};
use glam::DVec3;
#[path = "../../benches/support/parry_slide.rs"]
mod parry_slide;
use parry_slide::ParrySlide;
use std::collections::BTreeMap;

/// parry's `f32` GJK places a contact within about 4.7e-3 of the true one
/// (ellipsoid units; measured in `sweep_vs_parry.rs`): the ball cast along
/// our paths is this much smaller than the probe, so only a real
/// overlap, not parry's rounding, can hit. Our probe keeps the skin (5 mm,
/// 0.0125 here) from every surface.
const PARRY_TOL: f32 = 6e-3;
/// On a face (not an edge or a corner, where GJK converges slowest) parry's
/// contact lies within this of the true one across the plane, ellipsoid
/// units: measured at most 7.5e-4 on the field's 435 first face hits,
/// where the two skin rules part by 4.4e-3 (median) across the plane.
const FACE_TOI_TOL: f64 = 2e-3;
/// Ends this far apart (metres) count as paths that parted.
const APART_M: f64 = 0.1;

/// What one set of moves showed.
#[derive(Default)]
struct Tally {
    moves: usize,
    iterations: usize,
    /// Iterations whose path parry's cast found blocked: (move, iteration, toi).
    blocked: Vec<(usize, u32, f32)>,
    /// Moves whose ends are `APART_M` apart.
    apart: usize,
    /// Of those: the iteration where the paths part, and how ours ended.
    parted_at: BTreeMap<String, usize>,
    /// First iterations that met a face on both sides.
    first_face_hits: usize,
    /// Of those, where the two first stops differ by more than the two
    /// skins explain: (move, ours, theirs, explained), ellipsoid units
    /// along the motion.
    first_stop_unexplained: Vec<(usize, f64, f64, f64)>,
}

/// Runs `moves` on `level` through `slide()` and checks every iteration
/// with parry; compares the ends with the parry loop's.
fn check_moves(level: &Level, settings: &SlideSettings, moves: &[ProbeMove]) -> Tally {
    let parry = ParrySlide::new(level.mesh(), settings);
    let mut tally = Tally::default();
    for (i, m) in moves.iter().enumerate() {
        let Some(record) = slide(
            level.world(),
            settings,
            m.start_world,
            m.velocity_world,
            TraceDetail::Summary,
        ) else {
            continue;
        };
        tally.moves += 1;
        let mut ours = vec![m.start_world];
        for it in &record.iterations {
            tally.iterations += 1;
            let from = it.start + it.recovery.as_ref().map_or(DVec3::ZERO, |r| r.push);
            if let Some(toi) = parry.cast(1.0 - PARRY_TOL, from, it.end) {
                tally.blocked.push((i, it.index, toi));
            }
            ours.push(it.end);
        }
        let theirs = parry.slide_points(m.start_world, m.velocity_world);
        if let Some(gap) = first_stop_gap(settings, m, &record.iterations, &theirs) {
            tally.first_face_hits += 1;
            if let Err(unexplained) = gap {
                tally
                    .first_stop_unexplained
                    .push((i, unexplained.0, unexplained.1, unexplained.2));
            }
        }
        let (our_end, their_end) = (record.final_position, *theirs.last().expect("a start"));
        if (our_end - their_end).length() > APART_M {
            tally.apart += 1;
            // The first point of the two paths more than a centimetre apart.
            let split = (1..ours.len().max(theirs.len()))
                .find(|&k| {
                    let (a, b) = (ours.get(k), theirs.get(k));
                    a.zip(b).is_none_or(|(a, b)| (*a - *b).length() > 0.01)
                })
                .unwrap_or(1);
            let how = match record.end_reason {
                EndReason::Arrived => "ours arrived",
                EndReason::IterationCap => "ours at its iteration cap",
                _ => "ours stopped",
            };
            let peer = if theirs.len() > settings.max_iterations as usize {
                "the peer out of casts"
            } else {
                "the peer done"
            };
            *tally
                .parted_at
                .entry(format!("parted after iteration {split}, {how}, {peer}"))
                .or_default() += 1;
        }
    }
    tally
}

/// Where the first stops of the two slides lie along the motion, when
/// both first met a face: `Ok` when they differ by what the two skin rules
/// explain (within parry's tolerance at that angle), else `Err((ours,
/// theirs, explained))`. Ours keeps the skin in metres across the
/// contact plane; the peer's loop steps the skin back along the motion.
/// On a move that meets the ground at a grazing angle (the long moves
/// fall a tenth of their length: about 6 degrees) ours stops
/// `skin / sin(angle)` short, 5-10 cm, and the two slides go on from
/// different points.
fn first_stop_gap(
    settings: &SlideSettings,
    m: &ProbeMove,
    ours: &[collidoscope::collide::IterationRecord],
    theirs: &[DVec3],
) -> Option<Result<(), (f64, f64, f64)>> {
    let first = ours.first()?;
    let hit = first.nearest.as_ref()?;
    if first.recovery.is_some()
        || hit.feature != collidoscope::geometry::sweep::Feature::Face
        || theirs.len() < 2
    {
        return None;
    }
    let radii = settings.radii_vec();
    let dir_e = (m.velocity_world / radii).normalize();
    let approach = -dir_e.dot(hit.contact_normal_espace);
    if approach < 0.05 {
        return None;
    }
    let start_e = m.start_world / radii;
    let ours_e = (first.end_espace - start_e).dot(dir_e);
    let theirs_e = (theirs[1] / radii - start_e).dot(dir_e);
    let ours_back = settings.skin * (hit.contact_normal_espace / radii).length() / approach;
    let theirs_back = settings.skin / radii.min_element();
    let explained = ours_back - theirs_back;
    let tolerance = FACE_TOI_TOL / approach;
    if ((theirs_e - ours_e) - explained).abs() <= tolerance {
        Some(Ok(()))
    } else {
        Some(Err((ours_e, theirs_e, explained)))
    }
}

fn report(name: &str, tally: &Tally) {
    println!(
        "{name}: {} moves, {} iterations, {} blocked by parry; {} ends more than {APART_M} m from the parry loop's",
        tally.moves,
        tally.iterations,
        tally.blocked.len(),
        tally.apart
    );
    for (why, count) in &tally.parted_at {
        println!("  {count:4}  {why}");
    }
    println!(
        "  first stops on a face: {}, {} not explained by the two skin rules: {:?}",
        tally.first_face_hits,
        tally.first_stop_unexplained.len(),
        &tally.first_stop_unexplained[..tally.first_stop_unexplained.len().min(8)]
    );
    assert!(
        tally.first_stop_unexplained.is_empty(),
        "{name}: first stops the skin rules do not explain (move, ours, theirs, explained): {:?}",
        tally.first_stop_unexplained
    );
    assert!(
        tally.blocked.is_empty(),
        "{name}: parry finds these iterations' paths blocked (move, iteration, time of impact): {:?}",
        &tally.blocked[..tally.blocked.len().min(20)]
    );
}

/// The slide bench's generated terrain with crates, at a test's size: long
/// moves (0.5-5 m, into walls and over edges) and walks.
#[test]
fn every_iteration_on_the_field_is_clear_by_parry() {
    let level = Level::from_mesh("field", field(20_000, 30));
    let settings = SlideSettings::default();
    let radii = settings.radii_vec();
    for (kind, name) in [
        (MoveKind::Long, "field long"),
        (MoveKind::Walk, "field walk"),
    ] {
        let moves = random_moves(&level, radii, kind, 400, 30);
        let tally = check_moves(&level, &settings, &moves);
        report(name, &tally);
        assert!(
            tally.iterations > tally.moves,
            "{name}: the moves meet the level"
        );
        assert!(
            tally.first_face_hits > 100,
            "{name}: first stops on a face compared"
        );
    }
}

/// The same on the shared levels (skipped when absent): a real scene and a
/// Quake map (BSP T-junctions, diagonal stairs, liquids left colliding).
#[test]
fn every_iteration_on_shared_levels_is_clear_by_parry() {
    let Some(dir) = shared_levels() else {
        eprintln!("skipped: ../shared/levels is absent");
        return;
    };
    let quake = ImportOptions {
        up: collidoscope::level::UpAxis::Z,
        scale: 0.0254,
        ..ImportOptions::default()
    };
    for (file, options) in [
        ("sibenik_dabrovic_75k.obj.gz", ImportOptions::default()),
        ("librequake_e0m2.obj", quake),
    ] {
        let level = Level::load(&dir.join(file), &options).expect("the level imports");
        let settings = SlideSettings::default();
        let moves = random_moves(&level, settings.radii_vec(), MoveKind::Long, 300, 31);
        let tally = check_moves(&level, &settings, &moves);
        report(file, &tally);
    }
}
