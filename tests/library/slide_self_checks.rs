//! The solver checking itself: the clearance recorded after every
//! iteration (and the loud flag when a paper mode ends inside a wall), the
//! skin kept in metres whatever the radii, and ghost corners on the
//! internal edges of flat floors; the path of each iteration (the tunnel
//! flag when a paper mode's centre goes through a triangle).

use crate::common::*;
use collidoscope::collide::{
    CLEARANCE_REACH_RADII, CandidateOutcome, EndReason, SlideMode, SlideSettings, TunnelCause,
    embedded_verdict, segment_triangle_closest, tunnel_verdict,
};
use collidoscope::geometry::sweep::{Feature, MissReason};
use collidoscope::level::Level;
use collidoscope::mesh::{MeshBuilder, TriMesh};
use glam::{DVec3, Vec3};

const RADII: [f64; 3] = [0.4, 0.9, 0.4];

/// `tests/fixtures/cli_box.obj`: a floor at y = 0 from -5 to 5 and one
/// single-sided quad wall at x = 3 facing -x (towards the origin), as an
/// exporter writes a thin wall.
fn one_sided_wall() -> Level {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cli_box.obj");
    Level::load(&path, &Default::default()).expect("the fixture imports")
}

#[test]
fn a_paper_mode_entering_a_wall_from_behind_is_flagged_with_its_known_flaw() {
    let level = one_sided_wall();
    // From behind the wall towards it: both paper modes ignore the back face
    // and end 0.2 m past its plane, half the radius inside.
    let from = DVec3::new(5.0, 1.0, 0.0);
    let velocity = DVec3::new(-1.8, 0.0, 0.0);
    for (mode, flaw) in [
        (SlideMode::Nettle2000, "which nettle2000 ignores"),
        (SlideMode::Fauerby2003, "which fauerby2003 culls"),
    ] {
        let s = SlideSettings {
            mode,
            ..settings(RADII)
        };
        let r = run(&level, &s, from, velocity);
        let last = r.iterations.last().unwrap();
        let c = last.clearance.expect("the wall is within reach");
        assert!(c.embedded, "{mode}: {c:?}");
        assert!((c.radii + 0.5).abs() < 1e-9, "{mode}: {c:?}");
        assert!((c.metres + 0.2).abs() < 1e-9, "{mode}: {c:?}");
        assert_eq!(r.level_object_name(&level, c.object), "wall");
        // The depth vector runs from the wall to the probe's surface.
        assert!((c.surface_point - DVec3::new(2.8, 1.0, 0.0)).length() < 1e-9);
        assert!((c.closest_point - DVec3::new(3.0, 1.0, 0.0)).length() < 1e-9);
        let verdict = embedded_verdict(level.mesh(), mode, &r.iterations).unwrap();
        assert!(
            verdict.starts_with("embedded: 1 of 1 iterations"),
            "{verdict}"
        );
        assert!(verdict.contains("0.500 radii (0.2000 m)"), "{verdict}");
        assert!(
            verdict.contains("(wall)") && verdict.contains(flaw),
            "{verdict}"
        );
    }
    // Robust mode collides with both sides and stops a skin short.
    let r = run(&level, &settings(RADII), from, velocity);
    assert!(r.iterations.iter().all(|i| !i.clearance.unwrap().embedded));
    assert_eq!(
        embedded_verdict(level.mesh(), SlideMode::Robust, &r.iterations),
        None
    );
}

/// `SlideResult` has no level; a small helper keeps the asserts readable.
trait ObjectName {
    fn level_object_name<'a>(&self, level: &'a Level, object: u32) -> &'a str;
}
impl ObjectName for collidoscope::collide::SlideResult {
    fn level_object_name<'a>(&self, level: &'a Level, object: u32) -> &'a str {
        &level.mesh().objects()[object as usize].name
    }
}

#[test]
fn the_skin_is_metres_from_the_geometry_whatever_the_radii() {
    let level = one_sided_wall();
    let skin = 0.005;
    // A tall thin probe, a flat wide one and a tiny one.
    for radii in [
        [0.4, 0.9, 0.05],
        [0.05, 0.9, 0.4],
        [0.01, 0.01, 0.01],
        RADII,
    ] {
        let s = SlideSettings {
            gravity: [0.0, -2.0, 0.0],
            ..settings(radii)
        };
        let from = DVec3::new(0.0, radii[1] + 0.5, 0.0);
        // Into the wall (+x) and down onto the floor.
        let r = run(&level, &s, from, DVec3::new(6.0, 0.0, 0.0));
        let p = r.final_position;
        let to_wall = 3.0 - (p.x + radii[0]);
        let to_floor = p.y - radii[1];
        assert!((to_wall - skin).abs() < 1e-6, "{radii:?}: {to_wall}");
        assert!((to_floor - skin).abs() < 1e-6, "{radii:?}: {to_floor}");
        let c = r.iterations.last().unwrap().clearance.unwrap();
        assert!((c.metres - skin).abs() < 1e-6, "{radii:?}: {c:?}");
        assert!(!c.embedded);
    }
}

#[test]
fn clearance_is_left_out_beyond_its_reach_and_reported_at_contact() {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    let level = level(&b);
    let s = settings(RADII);
    // High above the floor: nothing within reach.
    let r = run(
        &level,
        &s,
        DVec3::new(0.0, 5.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
    );
    assert_eq!(r.iterations[0].clearance, None);
    // Just within reach: 0.04 radii over the floor (0.036 m).
    let y = 0.9 * (1.0 + 0.04);
    let r = run(
        &level,
        &s,
        DVec3::new(0.0, y, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
    );
    let c = r.iterations[0].clearance.unwrap();
    assert!(
        (c.radii - 0.04).abs() < 1e-9 && (c.metres - 0.036).abs() < 1e-9,
        "{c:?}"
    );
    assert!(c.radii < CLEARANCE_REACH_RADII);
    assert_eq!(c.feature, Feature::Face);
    assert_eq!(level.mesh().triangle_normal(c.triangle).y, 1.0);
}

#[test]
fn a_robust_start_stuck_inside_is_flagged_as_such() {
    // Two walls 0.6 m apart squeeze a probe 0.8 m wide: pushed out of one,
    // it is pushed into the other.
    let mut b = MeshBuilder::new();
    b.object("left")
        .cuboid(Vec3::new(-1.3, -2.0, -2.0), Vec3::new(-0.3, 2.0, 2.0));
    b.object("right")
        .cuboid(Vec3::new(0.3, -2.0, -2.0), Vec3::new(1.3, 2.0, 2.0));
    let level = level(&b);
    let s = settings(RADII);
    let r = run(&level, &s, DVec3::ZERO, DVec3::new(0.1, 0.0, 0.0));
    assert_eq!(r.end_reason, EndReason::StuckEmbedded);
    let verdict = embedded_verdict(level.mesh(), SlideMode::Robust, &r.iterations).unwrap();
    assert!(verdict.contains("started inside geometry"), "{verdict}");
}

/// A floor of 1 m tiles, two triangles each, whose top is at y = 0.
fn tiled_floor(tilt_deg: f32) -> Level {
    let tan = tilt_deg.to_radians().tan();
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    let n = 6;
    for i in 0..=n {
        for k in 0..=n {
            // From x = 0 on, the floor falls away by `tilt_deg`: the edge
            // at x = 0 is a crest.
            let x = i as f32 - 3.0;
            let y = if x > 0.0 { -x * tan } else { 0.0 };
            positions.push(Vec3::new(x, y, k as f32 - 3.0));
        }
    }
    let at = |i: u32, k: u32| i * (n + 1) + k;
    for i in 0..n {
        for k in 0..n {
            triangles.push([at(i, k), at(i, k + 1), at(i + 1, k + 1)]);
            triangles.push([at(i, k), at(i + 1, k + 1), at(i + 1, k)]);
        }
    }
    let count = triangles.len() as u32;
    Level::from_mesh(
        "tiles",
        TriMesh::new(positions, triangles, vec![("tiles".into(), count)]),
    )
}

#[test]
fn a_crest_between_nearly_flat_tiles_is_flagged_as_a_ghost_corner_and_a_real_one_is_not() {
    let s = SlideSettings {
        gravity: [0.0, -1.0, 0.0],
        ..settings(RADII)
    };
    let landing = |level: &Level, s: &SlideSettings, x: f64| {
        let r = run(level, s, DVec3::new(x, 1.2, 0.5), DVec3::ZERO);
        let rec = r.iterations.iter().find(|i| i.nearest.is_some()).cloned();
        rec.expect("lands")
    };
    // Set down on the crest x = 0 of a floor that falls away by 0.5°: the
    // probe meets the crest's edge before either face.
    let slight = tiled_floor(0.5);
    let rec = landing(&slight, &s, 0.0);
    let hit = rec.nearest.unwrap();
    assert!(matches!(hit.feature, Feature::Edge(_)), "{hit:?}");
    let ghost = rec.ghost_hit.clone().expect("0.5° is under the 1° default");
    assert_eq!(ghost.neighbours.len(), 1);
    assert_eq!(ghost.neighbour_objects, [0]);
    assert!((ghost.max_fold_deg - 0.5).abs() < 1e-3, "{ghost:?}");
    // The setting decides what is flat.
    let strict = SlideSettings {
        ghost_edge_angle_deg: 0.1,
        ..s.clone()
    };
    let rec = landing(&slight, &strict, 0.0);
    assert!(matches!(rec.nearest.unwrap().feature, Feature::Edge(_)));
    assert_eq!(rec.ghost_hit, None);
    // A crest of 20° is a real corner.
    let rec = landing(&tiled_floor(20.0), &s, 0.0);
    assert!(matches!(rec.nearest.unwrap().feature, Feature::Edge(_)));
    assert_eq!(rec.ghost_hit, None);
    // An exactly flat floor is met on a face even over an internal edge:
    // the contact is the face's, nothing to flag.
    let rec = landing(&tiled_floor(0.0), &s, -1.0);
    assert_eq!(rec.nearest.unwrap().feature, Feature::Face);
    assert_eq!(rec.ghost_hit, None);
}

#[test]
fn the_open_border_of_a_floor_is_a_real_edge() {
    let s = SlideSettings {
        gravity: [0.0, -1.0, 0.0],
        ..settings(RADII)
    };
    let flat = tiled_floor(0.0);
    // Falling past the floor's far edge at x = 3, so the rim is hit.
    let r = run(&flat, &s, DVec3::new(3.2, 1.2, 0.5), DVec3::ZERO);
    let rec = r.iterations.iter().find(|i| i.nearest.is_some()).unwrap();
    let hit = rec.nearest.expect("catches the rim");
    assert!(matches!(hit.feature, Feature::Edge(_)), "{hit:?}");
    assert_eq!(rec.ghost_hit, None);
}

#[test]
fn a_walk_over_a_nearly_flat_crest_counts_its_ghost_corner_hits() {
    use collidoscope::character::{WalkSpec, WalkTrace, walk};
    let level = tiled_floor(0.5);
    let spec = WalkSpec {
        from: DVec3::new(-2.0, 0.91, 0.5),
        direction: DVec3::X,
        seconds: 0.8,
        jump: false,
    };
    let s = settings(RADII);
    let w = walk(level.world(), &s, &spec, WalkTrace::FramesOnly).unwrap();
    assert!(w.summary.final_position.x > 1.0, "{:?}", w.summary);
    let ghost_hits = w.summary.ghost_hits;
    assert!(ghost_hits > 0, "{:?}", w.summary);
    assert_eq!(w.summary.embedded_iterations, 0);
    let strict = SlideSettings {
        ghost_edge_angle_deg: 0.1,
        ..s
    };
    // The tiles of the falling part are flat among themselves; only the
    // crest's 0.5° fold stops counting.
    let w = walk(level.world(), &strict, &spec, WalkTrace::FramesOnly).unwrap();
    assert!(w.summary.ghost_hits < ghost_hits, "{:?}", w.summary);
}

/// A capsule set down on a tile's edge meets it along the face's own
/// normal: nothing is bent, so it is no ghost corner (it once counted
/// hundreds on the built-in level's floors under an engine profile). On
/// the crest's 0.5° fold the edge does bend its contact, and counts.
#[test]
fn a_capsule_on_flat_tiles_meets_no_ghost_corner_and_on_a_crest_does() {
    use collidoscope::character::{EngineProfile, WalkSpec, WalkTrace, walk};
    let mut s = settings(RADII);
    s.character.engine = EngineProfile::Jolt;
    let run = |tilt: f32, from: DVec3, direction: DVec3| {
        let spec = WalkSpec {
            from,
            direction,
            seconds: 0.8,
            jump: false,
        };
        walk(tiled_floor(tilt).world(), &s, &spec, WalkTrace::FramesOnly).unwrap()
    };
    // Diagonally across the flat tiles' edges and along them.
    for (from, direction) in [
        (
            DVec3::new(-2.5, 0.91, -2.5),
            DVec3::new(1.0, 0.0, 1.0).normalize(),
        ),
        (DVec3::new(-2.5, 0.91, 0.0), DVec3::X),
        (DVec3::new(0.0, 0.91, -2.5), DVec3::Z),
    ] {
        let w = run(0.0, from, direction);
        assert!(
            w.summary.final_position.distance(from) > 2.0,
            "{:?}",
            w.summary
        );
        assert_eq!(w.summary.ghost_hits, 0, "{direction}: {:?}", w.summary);
    }
    let w = run(0.5, DVec3::new(-2.0, 0.91, 0.5), DVec3::X);
    assert!(w.summary.ghost_hits > 0, "{:?}", w.summary);
}

#[test]
fn a_paper_mode_passing_through_a_back_face_is_flagged_as_a_tunnel_and_robust_is_not() {
    let level = one_sided_wall();
    // From behind the wall, right through it: both paper modes end clear
    // on the far side, 2 m past it, so only the path shows the tunnel.
    let from = DVec3::new(5.0, 1.0, 0.0);
    let velocity = DVec3::new(-4.0, 0.0, 0.0);
    for (mode, flaw) in [
        (SlideMode::Nettle2000, "which nettle2000 ignores by design"),
        (SlideMode::Fauerby2003, "which fauerby2003 culls by design"),
    ] {
        let s = SlideSettings {
            mode,
            ..settings(RADII)
        };
        let r = run(&level, &s, from, velocity);
        assert!(r.iterations.iter().all(|i| i.clearance.is_none()), "{mode}");
        let t = r.iterations[0].tunnel.expect("went through the wall");
        assert!(t.crossed && t.back_face, "{mode}: {t:?}");
        assert_eq!(t.cause, TunnelCause::BackFaceCulled);
        assert!((t.depth_radii - 1.0).abs() < 1e-12, "{t:?}");
        assert!(
            (t.center - DVec3::new(3.0, 1.0, 0.0)).length() < 1e-9,
            "{t:?}"
        );
        assert!((t.t - 0.5).abs() < 1e-9, "{t:?}");
        assert_eq!(r.level_object_name(&level, t.object), "wall");
        let verdict = tunnel_verdict(level.mesh(), mode, &r.iterations).unwrap();
        assert!(
            verdict.starts_with("tunnel: 1 of 1 iterations") && verdict.contains(flaw),
            "{verdict}"
        );
        assert!(verdict.contains("went through triangle"), "{verdict}");
        assert_eq!(embedded_verdict(level.mesh(), mode, &r.iterations), None);
    }
    let r = run(&level, &settings(RADII), from, velocity);
    assert!(r.iterations.iter().all(|i| i.tunnel.is_none()));
    assert_eq!(
        tunnel_verdict(level.mesh(), SlideMode::Robust, &r.iterations),
        None
    );
    // Without self checks, nothing is checked or flagged.
    let s = SlideSettings {
        mode: SlideMode::Fauerby2003,
        self_checks: false,
        ..settings(RADII)
    };
    let r = run(&level, &s, from, velocity);
    assert!(r.iterations.iter().all(|i| i.tunnel.is_none()));
}

/// A floor at y = 0 and a slab 0.6 m wide sloped by about 34°, from
/// (-0.3, 1.8) to (0.3, 2.2) across x, facing up.
fn sloped_slab() -> Level {
    let mut b = MeshBuilder::new();
    floor(&mut b);
    b.object("slab");
    let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    b.triangle(p(-0.3, 1.8, -2.0), p(-0.3, 1.8, 2.0), p(0.3, 2.2, 2.0));
    b.triangle(p(-0.3, 1.8, -2.0), p(0.3, 2.2, 2.0), p(0.3, 2.2, -2.0));
    level(&b)
}

#[test]
fn nettle2000_missing_a_sloped_slab_with_a_thin_probe_names_the_plane_intersection_point() {
    let level = sloped_slab();
    // A thin probe (5 cm across, 1.8 m tall) straight down onto the slab.
    let radii = [0.05, 0.9, 0.05];
    let from = DVec3::new(0.0, 3.5, 0.0);
    let velocity = DVec3::new(0.0, -3.0, 0.0);
    let s = SlideSettings {
        mode: SlideMode::Nettle2000,
        ..settings(radii)
    };
    let r = run(&level, &s, from, velocity);
    // Nettle's point under the probe is the slab's inverted normal scaled
    // by the radii: 0.4 m to the side of the thin body, off the slab.
    let first = &r.iterations[0];
    let slab_misses = first
        .candidates
        .iter()
        .filter(|c| r.level_object_name(&level, c.object) == "slab")
        .all(|c| {
            matches!(
                c.outcome,
                CandidateOutcome::Miss {
                    reason: MissReason::NoFeatureHit
                }
            )
        });
    assert!(slab_misses, "{:?}", first.candidates);
    let t = first.tunnel.expect("the centre went through the slab");
    assert!(t.crossed && !t.back_face, "{t:?}");
    assert_eq!(t.cause, TunnelCause::PlaneIntersectionPoint);
    assert_eq!(r.level_object_name(&level, t.object), "slab");
    assert!(
        r.final_position.y < 1.0,
        "ends on the floor: {}",
        r.final_position
    );
    let verdict = tunnel_verdict(level.mesh(), SlideMode::Nettle2000, &r.iterations).unwrap();
    assert!(verdict.contains("plane intersection point"), "{verdict}");
    // Fauerby's exact sweep and robust mode stop on the slab.
    for mode in [SlideMode::Fauerby2003, SlideMode::Robust] {
        let s = SlideSettings {
            mode,
            ..settings(radii)
        };
        let r = run(&level, &s, from, velocity);
        assert!(r.iterations.iter().all(|i| i.tunnel.is_none()), "{mode}");
        assert!(r.final_position.y > 2.5, "{mode}: {}", r.final_position);
    }
}

#[test]
fn the_least_distance_from_a_segment_to_a_triangle_is_exact() {
    let tri = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 0.0, 2.0),
    ];
    // Through the face.
    let (t, d, q) =
        segment_triangle_closest(DVec3::new(0.5, 1.0, 0.5), DVec3::new(0.5, -3.0, 0.5), tri);
    assert_eq!(d, 0.0);
    assert!((t - 0.25).abs() < 1e-12 && (q - DVec3::new(0.5, 0.0, 0.5)).length() < 1e-12);
    // Over the face, parallel to it: the whole segment is 0.3 away.
    let (_, d, _) =
        segment_triangle_closest(DVec3::new(0.2, 0.3, 0.2), DVec3::new(0.8, 0.3, 0.2), tri);
    assert!((d - 0.3).abs() < 1e-12);
    // Beside the hypotenuse (x + z = 2), parallel to it at x + z = 3 and
    // 0.5 up: sqrt(1/2 + 1/4) away wherever they overlap.
    let (t, d, _) =
        segment_triangle_closest(DVec3::new(3.0, 0.5, 0.0), DVec3::new(0.0, 0.5, 3.0), tri);
    assert!(
        (d - 0.75f64.sqrt()).abs() < 1e-12 && t > 0.0 && t < 1.0,
        "{d} {t}"
    );
    // Across the hypotenuse's line, over its end (2, 0, 0): nearest there.
    let (t, d, q) =
        segment_triangle_closest(DVec3::new(3.0, 0.5, -1.0), DVec3::new(3.0, 0.5, 1.0), tri);
    assert!(
        (d - 1.25f64.sqrt()).abs() < 1e-12 && (t - 0.5).abs() < 1e-12,
        "{d} {t}"
    );
    assert!((q - DVec3::new(2.0, 0.0, 0.0)).length() < 1e-12);
    // Beyond a vertex: an end of the segment is nearest.
    let (t, d, q) = segment_triangle_closest(
        DVec3::new(-1.0, 0.0, -1.0),
        DVec3::new(-3.0, 0.0, -3.0),
        tri,
    );
    assert!(t == 0.0 && (d - 2f64.sqrt()).abs() < 1e-12 && q == DVec3::ZERO);
}
