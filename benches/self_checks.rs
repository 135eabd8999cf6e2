//! What the solver's checks of itself cost (`self_checks`: the path each
//! iteration's centre travelled, the clearance where it ended, ghost
//! corners), in each mode: the same moves with the checks on and off, one
//! kept solver per set, each move run the ways the product runs one:
//!
//! - `stepped_full`: one iteration at a time, each record read, in a full
//!   trace, as the window's stepper and `sweep` do by default (long moves
//!   only: the frames' figures tell nothing more);
//! - `stepped`: the same in a summary trace, as `sweep --summary` does;
//! - `run_to_end_read`: to the end, then the last iteration's record read,
//!   as a batch that flags where a move ends inside geometry: that record
//!   is the only one kept, and is checked when read;
//! - `run_to_end`: to the end with no record read, as a batch replays a
//!   recorded path: nothing is checked (the checks-on figure should be
//!   the checks-off one).
//!
//! Scene: a generated city of ~100k triangles; sets `move` (300 long moves
//! of 0.5-5 m into walls, stairs, creases, doors and along corridors) and
//! `frames` (the same moves as 60 Hz frames of 0.15 m with a slight drop,
//! in contact with the ground and walls, up to 10 each).
//!
//! Short run: `cargo bench --bench self_checks -- --warm-up-time 1 --measurement-time 3`.
//! To profile one figure, run it alone for a while under perf:
//! `perf record -g cargo bench --no-default-features --bench self_checks --
//! --profile-time 6 'stepped_move_robust/on'`.

use collidoscope::analysis::generate::{city, city_moves};
use collidoscope::collide::{SlideMode, SlideSettings, SlideSolver, TraceDetail};
use collidoscope::level::Level;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
#[path = "support/self_check_frames.rs"]
mod self_check_frames;
use self_check_frames::frame_moves;
use std::hint::black_box;

const MOVES: usize = 300;

fn self_check_benches(c: &mut Criterion) {
    let generated = city(100_000);
    let moves = city_moves(&generated, MOVES);
    let level = Level::from_mesh("city_100k", generated.mesh);
    let frames = frame_moves(&level, &moves);
    for (set, moves) in [("move", &moves[..]), ("frames", &frames[..])] {
        let ways: &[&str] = match set {
            "move" => &["stepped_full", "stepped", "run_to_end_read", "run_to_end"],
            _ => &["stepped", "run_to_end_read", "run_to_end"],
        };
        for (mode, how) in SlideMode::ALL
            .into_iter()
            .flat_map(|m| ways.iter().map(move |&h| (m, h)))
        {
            let detail = match how {
                "stepped_full" => TraceDetail::Full,
                _ => TraceDetail::Summary,
            };
            let mut group = c.benchmark_group(format!("self_checks/{how}_{set}_{mode}"));
            group.throughput(Throughput::Elements(moves.len() as u64));
            for (label, on) in [("on", true), ("off", false)] {
                let s = SlideSettings {
                    mode,
                    self_checks: on,
                    ..SlideSettings::default()
                };
                let mut solver =
                    SlideSolver::reusable(level.world(), &s, detail).expect("valid settings");
                group.bench_function(label, |b| {
                    b.iter(|| {
                        for m in moves {
                            if !solver.start_move(m.start_world, m.velocity_world) {
                                continue;
                            }
                            match how {
                                "stepped" | "stepped_full" => {
                                    while let Some(rec) = solver.step() {
                                        black_box(rec);
                                    }
                                }
                                "run_to_end_read" => {
                                    black_box(solver.run_to_end());
                                    black_box(solver.last_record());
                                }
                                _ => {
                                    black_box(solver.run_to_end());
                                }
                            }
                        }
                    })
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, self_check_benches);
criterion_main!(benches);
