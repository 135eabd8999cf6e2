//! What the self checks cost, in the CPU time of the thread that runs
//! them: the moves of `benches/self_checks.rs` (a generated city of ~100k
//! triangles, long moves and the same as 60 Hz frames), in each mode, with
//! the checks off, on, and on with the clearance searching the tree for
//! every end (its kept list off). Not a test and not a criterion bench: on
//! a machine shared with other builds, wall-clock times swing by half
//! between runs, while the time the thread itself spends on a core
//! (Linux `/proc/thread-self/schedstat`) moves much less. The three
//! settings take turns, round after round, and each reports its median.
//!
//! ```text
//! cargo run --release --no-default-features --example self_checks_cpu -- 15
//! ```
//!
//! The argument is the number of rounds (default 15).

use collidoscope::analysis::generate::{city, city_moves};
use collidoscope::collide::{SlideMode, SlideSettings, SlideSolver, TraceDetail};
use collidoscope::level::Level;
#[path = "../benches/support/self_check_frames.rs"]
mod self_check_frames;
use self_check_frames::frame_moves;
use std::hint::black_box;

const MOVES: usize = 300;

/// The CPU time this thread has run, nanoseconds (the first field of its
/// schedstat).
fn thread_cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("Linux /proc/thread-self/schedstat");
    text.split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .expect("schedstat starts with the time on a core, ns")
}

fn median(mut v: Vec<u64>) -> f64 {
    v.sort_unstable();
    v[v.len() / 2] as f64
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(15, |a| a.parse().expect("rounds: a whole number"));
    let generated = city(100_000);
    let moves = city_moves(&generated, MOVES);
    let level = Level::from_mesh("city_100k", generated.mesh);
    let frames = frame_moves(&level, &moves);
    println!("set mode: off / on / on, searching every end (CPU ms, median of {rounds} rounds)");
    for (set, moves) in [("move", &moves[..]), ("frames", &frames[..])] {
        for mode in SlideMode::ALL {
            // (checks, kept list)
            let configs = [(false, true), (true, true), (true, false)];
            let mut solvers: Vec<SlideSolver> = configs
                .iter()
                .map(|&(on, keep)| {
                    let s = SlideSettings {
                        mode,
                        self_checks: on,
                        ..SlideSettings::default()
                    };
                    let mut solver = SlideSolver::reusable(level.world(), &s, TraceDetail::Summary)
                        .expect("valid settings");
                    solver.set_clearance_reuse(keep);
                    solver
                })
                .collect();
            let mut times = vec![Vec::new(); configs.len()];
            for round in 0..=rounds {
                for (k, solver) in solvers.iter_mut().enumerate() {
                    let t0 = thread_cpu_ns();
                    // Enough passes over the set for a few tens of ms.
                    for _ in 0..8 {
                        for m in moves {
                            if solver.start_move(m.start_world, m.velocity_world) {
                                black_box(solver.run_to_end());
                            }
                        }
                    }
                    // The first round warms the caches and the solvers.
                    if round > 0 {
                        times[k].push(thread_cpu_ns() - t0);
                    }
                }
            }
            let [off, on, searching] = [0, 1, 2].map(|k| median(times[k].clone()) / 8e6);
            println!(
                "{set} {mode}: {off:.3} / {on:.3} / {searching:.3} ms; on/off {:.2}x, searching every end/off {:.2}x",
                on / off,
                searching / off
            );
        }
    }
}
