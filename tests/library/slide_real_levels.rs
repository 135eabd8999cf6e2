//! The solver on real levels from ../shared/levels (skipped when absent):
//! render meshes with inconsistent winding, degenerate triangles, thin
//! parts and stairs. Random moves (fixed seed) must never end inside
//! geometry nor produce NaN, in robust mode.

use crate::common::*;
use collidoscope::collide::{SlideSettings, TraceDetail, slide};
use collidoscope::level::{ImportOptions, Level};

fn check_level(file: &str, options: ImportOptions, moves: usize) {
    let Some(dir) = shared_levels() else { return };
    let level = Level::load(&dir.join(file), &options).expect("the level imports");
    let s = SlideSettings {
        gravity: [0.0, -0.3, 0.0],
        ..SlideSettings::default()
    };
    let radii = s.radii_vec();
    let b = level.mesh().bounds();
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let mut rng = Rng(file.len() as u64);
    let (mut tried, mut blocked) = (0, 0);
    while tried < moves {
        let start = rng.in_box(lo, hi);
        if espace_clearance_near(&level, radii, start) < 1.0 {
            continue;
        }
        tried += 1;
        // Aim at a random triangle: short of it, just at it, or far past it.
        let tri = (rng.unit() * level.mesh().triangle_count() as f64) as u32;
        let [a, b, c] = level.mesh().triangle_f64(tri);
        let target = (a + b + c) / 3.0;
        let vel = (target - start) * [0.5, 1.0, 3.0][tried % 3];
        let r = slide(level.world(), &s, start, vel, TraceDetail::Summary).expect("finite");
        for it in &r.iterations {
            let c = espace_clearance_near(&level, radii, it.end);
            assert!(
                c >= 1.0 - 1e-6,
                "{file}: move {tried} from {start} by {vel}: iteration {} ends inside (clearance {c})",
                it.index
            );
        }
        blocked += usize::from(r.iterations.iter().any(|i| i.nearest.is_some()));
    }
    // The moves must really meet the level, or the test proves nothing.
    assert!(
        blocked * 4 >= moves,
        "{file}: only {blocked} of {moves} moves hit anything"
    );
    eprintln!("{file}: {moves} moves, {blocked} with contacts, none ends inside");
}

#[test]
fn galleria_render_mesh() {
    check_level("galleria_map.obj", ImportOptions::default(), 300);
}

#[test]
fn threejs_character_controller_world() {
    check_level("threejs_collision_world.obj", ImportOptions::default(), 300);
}

#[test]
fn machu_picchu_terraces() {
    check_level("machu_picchu_level.obj", ImportOptions::default(), 300);
}

#[test]
fn sibenik_cathedral() {
    check_level("sibenik_dabrovic_75k.obj.gz", ImportOptions::default(), 300);
}
