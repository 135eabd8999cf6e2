//! `collidoscope`: the command line, and (feature `gui`) the window.

fn main() {
    // Libraries report through `log` (rfd says why a file dialog could not
    // open, eframe why GL failed); without a logger those words are lost.
    // `RUST_LOG` chooses the level, warnings and errors by default.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    std::process::exit(collidoscope::cli::run(std::env::args_os().collect()));
}
