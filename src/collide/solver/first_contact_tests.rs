//! Which way `run_to_end` starts an iteration: the open-space walk or
//! straight to the ordered search. Iteration `k` of a move goes by
//! iteration `k` of the previous move, not by the iteration before it: a
//! move on the ground ends, as often as not, with a slide along the floor
//! that meets nothing, and the next move on the ground meets the floor
//! again at once, then slides freely again. The motion is the same either
//! way (the walk only spares the record of an iteration through open
//! space); what these tests hold is the guess.

use super::SlideSolver;
use crate::collide::{SlideSettings, TraceDetail};
use crate::level::Level;
use crate::mesh::MeshBuilder;
use glam::{DVec3, Vec3};

/// A flat floor at `y = 0`, 20 m square.
fn floor() -> Level {
    let mut b = MeshBuilder::new();
    b.object("floor").quad(
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(-10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(10.0, 0.0, -10.0),
    );
    Level::from_mesh("floor", b.build())
}

#[test]
fn each_iteration_goes_by_the_same_iteration_of_the_previous_move() {
    let level = floor();
    let settings = SlideSettings {
        self_checks: false,
        ..SlideSettings::default()
    };
    let mut solver = SlideSolver::reusable(level.world(), &settings, TraceDetail::Summary)
        .expect("default settings");
    // The default probe stands 2 cm above the floor and walks 0.5 m, 5 cm
    // down: it meets the floor, then slides along it, meeting nothing.
    let on_ground = |solver: &mut SlideSolver<'_>, x: f64| {
        let start = DVec3::new(x, 0.92, 0.0);
        assert!(solver.start_move(start, DVec3::new(0.5, -0.05, 0.0)));
        let end = solver.run_to_end();
        assert_eq!(end.iterations, 2, "floor met, then a free slide");
    };
    let in_the_air = |solver: &mut SlideSolver<'_>| {
        assert!(solver.start_move(DVec3::new(0.0, 5.0, 0.0), DVec3::X));
        assert_eq!(solver.run_to_end().iterations, 1);
    };
    let expects = |solver: &SlideSolver<'_>, k: u32| solver.expect_contact & (1 << k) != 0;
    on_ground(&mut solver, 0.0);
    // The first iteration met the floor; the second, the free slide, nothing.
    assert!(expects(&solver, 0));
    assert!(!expects(&solver, 1));
    // The next move on the ground: the floor by the ordered search, the
    // slide by the walk (which finds open space again).
    on_ground(&mut solver, 1.0);
    assert!(expects(&solver, 0));
    assert!(!expects(&solver, 1));
    // A move through the air opens the next one with the walk...
    in_the_air(&mut solver);
    assert!(!expects(&solver, 0));
    in_the_air(&mut solver);
    assert!(!expects(&solver, 0));
    // ...whose failure on the ground sends the following ones straight
    // to the ordered search again.
    on_ground(&mut solver, 2.0);
    assert!(expects(&solver, 0));
    assert!(!expects(&solver, 1));
}
