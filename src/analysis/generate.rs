//! Deterministic level generators for tests, benchmarks and the default level.
//!
//! CONTRACT (skeleton): filled in by the benchmark helper.
