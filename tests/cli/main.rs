//! The command line through the real `collidoscope` binary, one test
//! binary for every subcommand (one link instead of one per file).

mod support;

mod baseline;
mod basics;
mod batch;
mod engines;
mod errors;
mod files;
mod hostile;
mod hygiene;
mod limits;
mod map;
mod methods;
mod profiles;
mod radial;
mod readme;
mod refusals;
mod replay;
mod repro;
