//! `collidoscope`: the command line, and (feature `gui`) the window.

fn main() {
    std::process::exit(collidoscope::cli::run(std::env::args_os().collect()));
}
