//! The `collidoscope` command line (clap).
//!
//! CONTRACT (skeleton): filled in by the CLI helper.

/// Runs the command line; returns the process exit code.
pub fn run(args: Vec<std::ffi::OsString>) -> i32 {
    let _ = args;
    unimplemented!("cli")
}
