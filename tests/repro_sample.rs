//! A bundle written by `collidoscope repro` (a move up the built-in level's
//! ramp under gravity), run through its own generated `repro_test.rs`: the
//! test the tool writes compiles and passes as written.

#[path = "fixtures/repro_sample/repro_test.rs"]
mod repro;
