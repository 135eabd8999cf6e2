//! Profiles the self checks: the self_checks bench's long moves (city of
//! ~100k triangles, 300 moves) run to the end for a number of seconds,
//! checks on or off. `cargo run --release --no-default-features --example
//! check_profile -- [on|off] [robust|fauerby2003|nettle2000] [seconds] [run|read|step|summary|full]`
use collidoscope::analysis::generate::{city, city_moves};
use collidoscope::collide::{SlideMode, SlideSettings, SlideSolver, TraceDetail, slide};
use collidoscope::level::Level;
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let on = args.get(1).map(String::as_str) != Some("off");
    let mode = match args.get(2).map(String::as_str) {
        Some("fauerby2003") => SlideMode::Fauerby2003,
        Some("nettle2000") => SlideMode::Nettle2000,
        _ => SlideMode::Robust,
    };
    let seconds: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let how = args.get(4).map(String::as_str).unwrap_or("run");
    let generated = city(100_000);
    let moves = city_moves(&generated, 300);
    let level = Level::from_mesh("city_100k", generated.mesh);
    let s = SlideSettings {
        mode,
        self_checks: on,
        ..SlideSettings::default()
    };
    let mut solver =
        SlideSolver::reusable(level.world(), &s, TraceDetail::Summary).expect("valid settings");
    let t0 = Instant::now();
    let mut sets = 0u64;
    while t0.elapsed().as_secs_f64() < seconds {
        for m in &moves {
            match how {
                "full" | "summary" => {
                    let d = if how == "full" {
                        TraceDetail::Full
                    } else {
                        TraceDetail::Summary
                    };
                    black_box(slide(level.world(), &s, m.start_world, m.velocity_world, d));
                }
                "step" => {
                    if solver.start_move(m.start_world, m.velocity_world) {
                        while let Some(r) = solver.step() {
                            black_box(r);
                        }
                    }
                }
                "read" => {
                    if solver.start_move(m.start_world, m.velocity_world) {
                        black_box(solver.run_to_end());
                        black_box(solver.last_record());
                    }
                }
                _ => {
                    if solver.start_move(m.start_world, m.velocity_world) {
                        black_box(solver.run_to_end());
                    }
                }
            }
        }
        sets += 1;
    }
    println!(
        "checks {on} {mode:?}: {:.3} ms a set of {} moves",
        t0.elapsed().as_secs_f64() * 1e3 / sets as f64,
        moves.len()
    );
}
