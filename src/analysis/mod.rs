//! Level checks built on the solver (stairs, doors, stuck spots) and level generators.

pub mod features;
pub mod generate;
