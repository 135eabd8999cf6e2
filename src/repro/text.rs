//! The bundle's files for people: the README with the commands that replay
//! it, and the `#[test]` that replays it through the library.

use super::{LEVEL_FILE, MOVE_FILE, ReproMove, SETTINGS_FILE, TEST_FILE};
use glam::DVec3;

/// `x,y,z` with Rust's shortest round-trip formatting: parsing it back gives
/// the very same `f64`s.
fn csv(v: DVec3) -> String {
    format!("{},{},{}", v.x, v.y, v.z)
}

/// `DVec3::new(x, y, z)` as Rust source, exact to the bit.
fn rust_vec(v: DVec3) -> String {
    format!("DVec3::new({:?}, {:?}, {:?})", v.x, v.y, v.z)
}

/// The bundle's `README.md`.
pub(super) fn readme(m: &ReproMove, triangles: usize) -> String {
    let e = &m.expected;
    format!(
        "# Collidoscope repro bundle\n\n\
         One collide-and-slide move cut out of `{level}`: the {triangles} colliding \
         triangles within reach of the move plus {margin} m (`{LEVEL_FILE}`, world \
         space, Y up, metres), the probe's settings (`{SETTINGS_FILE}`) and the move \
         with what it gave (`{MOVE_FILE}`).\n\n\
         Recorded outcome: end reason `{reason:?}`, final position `{fin}`, \
         {iters} iterations (mode `{mode}`).\n\n\
         Replay it and check that it still reproduces (exit code 0 when it does, 3 when not):\n\n\
         ```sh\ncollidoscope repro --run .\n```\n\n\
         Show its trace, one line per iteration:\n\n\
         ```sh\ncollidoscope sweep {LEVEL_FILE} --settings {SETTINGS_FILE} --from={from} --velocity={vel}\n```\n\n\
         `{TEST_FILE}` is a ready Rust test. To run it from a crate that depends on \
         `collidoscope`, copy this folder to `tests/<name>/` and add \
         `tests/<name>.rs` holding `#[path = \"<name>/{TEST_FILE}\"] mod repro;`.\n",
        level = m.source_level,
        margin = m.margin_m,
        reason = e.end_reason,
        fin = csv(e.final_position),
        iters = e.iterations,
        mode = m.mode,
        from = csv(m.from),
        vel = csv(m.velocity),
    )
}

/// The bundle's `repro_test.rs`: loads the bundle next to it, replays the
/// move and asserts the recorded end reason, final position (to 1e-9 m)
/// and iteration count.
pub(super) fn rust_test(m: &ReproMove) -> String {
    let e = &m.expected;
    format!(
        "//! Replays the Collidoscope repro bundle in this folder (written by\n\
         //! `collidoscope repro`) and checks that it still gives the recorded outcome.\n\
         \n\
         use collidoscope::collide::EndReason;\n\
         use collidoscope::math::DVec3;\n\
         \n\
         #[test]\n\
         fn repro_bundle_reproduces() {{\n\
         \x20   // This file's folder: the bundle (`file!()` is relative to the package root).\n\
         \x20   let here = std::path::Path::new(file!()).parent().expect(\"a folder\");\n\
         \x20   let dir = std::path::Path::new(env!(\"CARGO_MANIFEST_DIR\")).join(here);\n\
         \x20   let bundle = collidoscope::repro::load(&dir).expect(\"the bundle loads\");\n\
         \x20   let (got, _) = collidoscope::repro::replay(&bundle).expect(\"the solver takes the move\");\n\
         \x20   assert_eq!(bundle.repro.from, {from});\n\
         \x20   assert_eq!(bundle.repro.velocity, {vel});\n\
         \x20   assert_eq!(got.end_reason, EndReason::{reason:?});\n\
         \x20   let expected = {fin};\n\
         \x20   let off_m = got.final_position.distance(expected);\n\
         \x20   assert!(\n\
         \x20       off_m <= 1e-9,\n\
         \x20       \"ended {{off_m:e}} m from the recorded position\"\n\
         \x20   );\n\
         \x20   assert_eq!(got.iterations, {iters});\n\
         }}\n",
        from = rust_vec(m.from),
        vel = rust_vec(m.velocity),
        reason = e.end_reason,
        fin = rust_vec(e.final_position),
        iters = e.iterations,
    )
}
