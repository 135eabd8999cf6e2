//! Generator tests: every part is closed and outward-facing, counts and
//! determinism, the city's probe moves and the random move sets start clear
//! of the geometry, and the committed default level equals the generator's
//! output.

use collidoscope::analysis::generate::move_sets::{
    FRAME_DROP, FRAME_STEP, MoveKind, frame_walks, random_moves, read_moves_jsonl,
    write_moves_jsonl,
};
use collidoscope::analysis::generate::{
    City, DEFAULT_LEVEL_OBJ, LevelBuilder, MOVE_KINDS, ProbeMove, Solid, city, city_moves,
    default_level, field, parts, write_obj,
};
use collidoscope::collide::{SlideSettings, TraceDetail, slide};
use collidoscope::level::Level;
use collidoscope::mesh::TriMesh;
use glam::{DVec2, DVec3};
use std::collections::HashMap;

/// Checks object `o` of `mesh`: every directed edge appears once and its
/// reverse once (closed, consistently wound), no degenerate triangle, and
/// each connected component encloses a positive volume (outward-facing).
fn assert_closed_outward(mesh: &TriMesh, o: usize) {
    let obj = &mesh.objects()[o];
    let tris = &mesh.triangles()
        [obj.first_triangle as usize..(obj.first_triangle + obj.triangle_count) as usize];
    let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
    for t in tris {
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &directed {
        assert_eq!(n, 1, "{}: edge {a}->{b} used {n} times", obj.name);
        assert_eq!(
            directed.get(&(b, a)),
            Some(&1),
            "{}: edge {a}->{b} has no opposite",
            obj.name
        );
    }
    // Union-find over vertices to split the object into components.
    let mut parent: HashMap<u32, u32> = HashMap::new();
    fn find(parent: &mut HashMap<u32, u32>, x: u32) -> u32 {
        let p = *parent.entry(x).or_insert(x);
        if p == x {
            return x;
        }
        let r = find(parent, p);
        parent.insert(x, r);
        r
    }
    for t in tris {
        let r0 = find(&mut parent, t[0]);
        for &v in &t[1..] {
            let r = find(&mut parent, v);
            parent.insert(r, r0);
        }
    }
    let mut volume: HashMap<u32, f64> = HashMap::new();
    for (i, t) in tris.iter().enumerate() {
        let [a, b, c] = t.map(|v| mesh.positions()[v as usize].as_dvec3());
        let area2 = (b - a).cross(c - a).length();
        assert!(area2 > 1e-8, "{}: triangle {i} is degenerate", obj.name);
        let root = find(&mut parent, t[0]);
        *volume.entry(root).or_default() += a.dot(b.cross(c)) / 6.0;
    }
    for (root, v) in volume {
        assert!(
            v > 1e-6,
            "{}: component of vertex {root} has volume {v}",
            obj.name
        );
    }
}

fn single(name: &str, solid: &Solid) -> TriMesh {
    let mut b = LevelBuilder::new();
    b.add(name, solid);
    b.build()
}

#[test]
fn every_part_is_closed_and_outward_with_expected_counts() {
    let stairs = parts::Stairs {
        riser: 0.3,
        tread: 0.5,
        count: 4,
        width: 2.0,
        landing: 1.0,
    };
    let door = parts::Door {
        offset: 1.0,
        width: 0.9,
        height: 2.0,
    };
    let cases: Vec<(&str, Solid, usize)> = vec![
        // 2 * (8*1 + 1*6 + 6*8) cells, two triangles each.
        (
            "floor",
            parts::floor(DVec2::ZERO, DVec2::new(8.0, 6.0), 0.0, 0.3, 1.0),
            248,
        ),
        // Outline of 4 + 1 + 2*4 points: 13 side quads; caps: 4 columns of 4-5 corners.
        (
            "stairs",
            parts::staircase(DVec3::new(1.0, 0.0, 2.0), &stairs),
            2 * 13 + 2 * (2 + 3 * 3),
        ),
        (
            "ramp",
            parts::ramp(DVec3::ZERO, 20.0, 1.0, 2.0, 1.0),
            2 * 4 + 2 * 2,
        ),
        (
            "ramp_no_landing",
            parts::ramp(DVec3::ZERO, 45.0, 1.0, 2.0, 0.0),
            2 * 3 + 2,
        ),
        (
            "door",
            parts::wall(DVec3::ZERO, 4.0, 2.5, 0.2, Some(door)),
            2 * 10 + 2 * (3 + 2 + 3),
        ),
        ("wall", parts::wall(DVec3::ZERO, 4.0, 2.5, 0.2, None), 12),
        ("thin", parts::thin_wall(DVec3::ZERO, 3.0, 2.5, 0.02), 12),
        (
            "box_pillar",
            parts::box_pillar(DVec3::ZERO, DVec2::splat(0.3), 3.0),
            12,
        ),
        (
            "8gon",
            parts::prism_pillar(DVec3::new(1.0, 0.0, 1.0), 0.4, 8, 3.0),
            2 * 8 + 2 * 6,
        ),
        (
            "crease",
            parts::crease(DVec3::ZERO, 60.0, 3.0, 0.2, 2.5),
            2 * 6 + 2 * 4,
        ),
    ];
    for (name, solid, count) in cases {
        let mesh = single(name, &solid);
        assert_eq!(mesh.triangle_count(), count, "{name}");
        assert_closed_outward(&mesh, 0);
        // Turned copies stay closed and outward too.
        assert_closed_outward(&single(name, &solid.turned(1)), 0);
    }
}

#[test]
fn default_level_parts_are_closed_named_and_sized() {
    let mesh = default_level();
    let n = mesh.triangle_count();
    assert!((1000..5000).contains(&n), "{n} triangles");
    for o in 0..mesh.objects().len() {
        assert_closed_outward(&mesh, o);
    }
    let names: Vec<&str> = mesh.objects().iter().map(|o| o.name.as_str()).collect();
    for expected in [
        "floor",
        "stairs_riser_0.15",
        "stairs_riser_0.30",
        "stairs_riser_0.50",
        "stairs_riser_0.95",
        "stairs_riser_1.20",
        "door_w0.90_h2.00",
        "door_w0.60_h2.00",
        "door_w0.90_h1.60",
        "ramp_10deg",
        "ramp_30deg",
        "ramp_60deg",
        "crease_60deg",
        "thin_wall_0.02",
        "pillar_8gon_r0.30",
    ] {
        assert!(names.contains(&expected), "missing {expected} in {names:?}");
    }
    // Everything stands on the floor's top (y = 0) or below it (the floor).
    let b = mesh.bounds();
    assert!(b.min.y < 0.0 && b.max.y > 3.0);
}

#[test]
fn stairs_in_the_default_level_have_the_named_risers() {
    let mesh = default_level();
    for o in mesh
        .objects()
        .iter()
        .filter(|o| o.name.starts_with("stairs_riser_"))
    {
        let riser: f32 = o.name["stairs_riser_".len()..].parse().unwrap();
        // Three steps: the top is three risers up.
        assert!((o.aabb.max.y - 3.0 * riser).abs() < 1e-5, "{}", o.name);
        assert_eq!(o.aabb.min.y, 0.0);
    }
}

fn obj_text(mesh: &TriMesh) -> String {
    let mut out = Vec::new();
    write_obj(mesh, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Set `UPDATE_ASSETS=1` to rewrite `assets/default_level.obj` after
/// changing the generator.
#[test]
fn committed_default_level_equals_the_generator() {
    let text = obj_text(&default_level());
    if std::env::var_os("UPDATE_ASSETS").is_some() {
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default_level.obj"),
            &text,
        )
        .unwrap();
        return;
    }
    assert!(
        text == DEFAULT_LEVEL_OBJ,
        "assets/default_level.obj differs from default_level(): rerun with UPDATE_ASSETS=1"
    );
}

#[test]
fn default_level_obj_reads_back_with_the_obj_crate() {
    let mesh = default_level();
    let data = obj::ObjData::load_buf(DEFAULT_LEVEL_OBJ.as_bytes()).unwrap();
    assert_eq!(data.position.len(), mesh.positions().len());
    // Shortest round-trip formatting: the very same f32 positions.
    for (p, q) in data.position.iter().zip(mesh.positions()) {
        assert_eq!(*p, q.to_array());
    }
    let names: Vec<&str> = data.objects.iter().map(|o| o.name.as_str()).collect();
    let expected: Vec<&str> = mesh.objects().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, expected);
    for (o, m) in data.objects.iter().zip(mesh.objects()) {
        let polys: Vec<[u32; 3]> = o
            .groups
            .iter()
            .flat_map(|g| &g.polys)
            .map(|p| {
                assert_eq!(p.0.len(), 3);
                [p.0[0].0 as u32, p.0[1].0 as u32, p.0[2].0 as u32]
            })
            .collect();
        let first = m.first_triangle as usize;
        assert_eq!(
            polys,
            mesh.triangles()[first..first + m.triangle_count as usize]
        );
    }
}

#[test]
fn city_reaches_its_target_and_is_deterministic() {
    let a = city(20_000);
    let b = city(20_000);
    assert!(a.mesh.triangle_count() >= 20_000);
    // One cell is about a thousand triangles: no big overshoot.
    assert!(
        a.mesh.triangle_count() < 22_000,
        "{}",
        a.mesh.triangle_count()
    );
    assert_eq!(a.mesh.positions(), b.mesh.positions());
    assert_eq!(a.mesh.triangles(), b.mesh.triangles());
    assert_eq!(a.cells, b.cells);
    // Cells differ from each other (the variation is real).
    assert_ne!(a.cells[0].riser, a.cells[1].riser);
    for o in 0..a.mesh.objects().len() {
        assert_closed_outward(&a.mesh, o);
    }
}

/// Closest point on triangle `abc` to `p` (Ericson, Real-Time Collision
/// Detection, 5.1.5), written out here so the test does not depend on the
/// code under test.
fn closest_on_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

#[test]
fn city_moves_start_clear_of_the_geometry() {
    let c: City = city(10_000);
    let moves = city_moves(&c, c.cells.len() * MOVE_KINDS);
    let radii = DVec3::new(0.4, 0.9, 0.4);
    for (i, m) in moves.iter().enumerate() {
        assert!(m.velocity_world.length() > 0.5);
        // Distance in ellipsoid space, where the probe is a unit sphere.
        let p = m.start_world / radii;
        let nearest = (0..c.mesh.triangle_count() as u32)
            .map(|t| {
                let [a, b, cc] = c.mesh.triangle_f64(t).map(|v| v / radii);
                (closest_on_triangle(p, a, b, cc) - p).length()
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            nearest > 1.02,
            "move {i} (kind {}) starts {nearest} from the geometry",
            i % MOVE_KINDS
        );
    }
}

#[test]
fn default_level_parts_do_not_overlap_each_other() {
    // Parts stand apart (their boxes only touch the floor), so each reads on its own.
    let mesh = default_level();
    let parts: Vec<_> = mesh
        .objects()
        .iter()
        .filter(|o| o.name != "floor")
        .collect();
    for (i, a) in parts.iter().enumerate() {
        assert!(a.aabb.min.y >= 0.0, "{} is below the floor top", a.name);
        for b in &parts[i + 1..] {
            let shrunk = a.aabb.expanded(-1e-3);
            assert!(!shrunk.overlaps(&b.aabb), "{} overlaps {}", a.name, b.name);
        }
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn check(name: &str, solid: &Solid, volume: f64) {
        let mesh = single(name, solid);
        assert_closed_outward(&mesh, 0);
        let v = solid.signed_volume();
        assert!(
            (v - volume).abs() <= 1e-9 * volume.max(1.0),
            "{name}: volume {v} != {volume}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn staircases_are_closed_with_the_volume_of_their_steps(
            riser in 0.05f64..1.5, tread in 0.1f64..1.0, count in 1u32..12,
            width in 0.3f64..4.0, landing in 0.0f64..2.0, turns in 0u32..4,
        ) {
            let s = parts::Stairs { riser, tread, count, width, landing };
            let n = f64::from(count);
            // Columns 1..n risers high; the top one is deeper by the landing.
            let area = tread * riser * n * (n + 1.0) / 2.0 + landing * riser * n;
            check("stairs", &parts::staircase(DVec3::new(3.0, 0.0, -2.0), &s).turned(turns), area * width);
        }

        #[test]
        fn door_walls_are_closed_around_their_opening(
            length in 2.0f64..8.0, extra in 0.1f64..2.0, t in 0.01f64..0.5,
            off in 0.05f64..0.95, w in 0.05f64..0.95, hfrac in 0.1f64..0.95,
        ) {
            let height = 2.0 + extra;
            let width = w * (length - 0.1);
            let offset = 0.05 + off * (length - 0.1 - width);
            let door = parts::Door { offset, width, height: hfrac * height };
            let area = length * height - width * door.height;
            check("door", &parts::wall(DVec3::ZERO, length, height, t, Some(door)), area * t);
        }

        #[test]
        fn ramps_pillars_and_creases_are_closed(
            slope in 5.0f64..85.0, landing in 0.0f64..2.0, sides in 3u32..24,
            angle in 10.0f64..170.0, radius in 0.05f64..2.0,
        ) {
            let run = 1.0 / slope.to_radians().tan();
            check("ramp", &parts::ramp(DVec3::ONE, slope, 1.0, 2.0, landing), (0.5 * run + landing) * 2.0);
            let k = f64::from(sides);
            let polygon = 0.5 * k * radius * radius * (std::f64::consts::TAU / k).sin();
            check("pillar", &parts::prism_pillar(DVec3::ZERO, radius, sides, 3.0), polygon * 3.0);
            let solid = parts::crease(DVec3::ZERO, angle, 2.0, 0.2, 2.5);
            let mesh = single("crease", &solid);
            assert_closed_outward(&mesh, 0);
        }
    }
}

#[test]
fn field_reaches_its_target_is_closed_and_follows_its_seed() {
    let a = field(20_000, 7);
    let b = field(20_000, 7);
    let n = a.triangle_count();
    assert!((19_000..=21_000).contains(&n), "{n} triangles");
    assert_eq!(a.positions(), b.positions());
    assert_eq!(a.triangles(), b.triangles());
    let names: Vec<&str> = a.objects().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["terrain", "crates"]);
    // Every crate is a closed, outward-facing box.
    assert_closed_outward(&a, 1);
    // Another seed, another field of the same size.
    let c = field(20_000, 8);
    assert_eq!(c.triangle_count(), n);
    assert_ne!(a.positions(), c.positions());
    // The terrain faces up everywhere.
    let terrain = &a.objects()[0];
    for t in terrain.first_triangle..terrain.first_triangle + terrain.triangle_count {
        assert!(
            a.triangle_normal(t).y > 0.9,
            "terrain triangle {t} is steep"
        );
    }
}

/// Checks each start of `moves` by brute force over every triangle, in
/// ellipsoid space (the probe a unit sphere): clear of the geometry by at
/// least a hundredth of a radius, within a few centimetres of the nearest
/// triangle, which faces the start (so it stands on ground, outside every
/// solid); and each move's horizontal length within `lengths`.
fn assert_starts_on_ground(
    level: &Level,
    moves: &[ProbeMove],
    radii: DVec3,
    lengths: std::ops::Range<f64>,
) {
    let mesh = level.mesh();
    for (i, m) in moves.iter().enumerate() {
        let p = m.start_world / radii;
        let (nearest, tri) = (0..mesh.triangle_count() as u32)
            .map(|t| {
                let [a, b, c] = mesh.triangle_f64(t).map(|v| v / radii);
                ((closest_on_triangle(p, a, b, c) - p).length(), t)
            })
            .fold((f64::INFINITY, 0), |x, y| if y.0 < x.0 { y } else { x });
        assert!(
            nearest > 1.01 && nearest < 1.06,
            "move {i} starts {nearest} radii from the level"
        );
        let [a, b, c] = mesh.triangle_f64(tri).map(|v| v / radii);
        let normal = (b - a).cross(c - a);
        assert!(
            normal.dot(p - a) > 0.0,
            "move {i} starts behind its nearest triangle"
        );
        let flat = DVec3::new(m.velocity_world.x, 0.0, m.velocity_world.z).length();
        assert!(lengths.contains(&flat), "move {i} is {flat} m long");
        assert!(m.velocity_world.y < 0.0, "move {i} does not go down");
    }
}

#[test]
fn random_moves_start_on_the_ground_clear_of_the_level_and_follow_their_seed() {
    let radii = SlideSettings::default().radii_vec();
    let fields = Level::from_mesh("field", field(20_000, 3));
    let walks = random_moves(&fields, radii, MoveKind::Walk, 150, 5);
    assert_eq!(walks.len(), 150);
    assert_eq!(walks, random_moves(&fields, radii, MoveKind::Walk, 150, 5));
    assert_ne!(walks, random_moves(&fields, radii, MoveKind::Walk, 150, 6));
    assert_starts_on_ground(&fields, &walks, radii, 0.1..0.6);

    let c = city(10_000);
    let level = Level::from_mesh("city", c.mesh);
    let long = random_moves(&level, radii, MoveKind::Long, 150, 9);
    assert_eq!(long.len(), 150);
    assert_starts_on_ground(&level, &long, radii, 0.5..5.0);
    // Rooms, stairs and ramps: the starts are not all at floor height.
    assert!(long.iter().any(|m| m.start_world.y > 1.1));
}

#[test]
fn frame_walks_start_each_frame_where_the_solver_ended_the_last() {
    let settings = SlideSettings::default();
    let level = Level::from_mesh("field", field(20_000, 4));
    let frames = frame_walks(&level, &settings, 12, 10, 21);
    assert_eq!(frames.len(), 120);
    assert_eq!(frames, frame_walks(&level, &settings, 12, 10, 21));
    assert_starts_on_ground(&level, &frames[..1], settings.radii_vec(), 0.1..0.2);
    for walk in frames.chunks(10) {
        for pair in walk.windows(2) {
            let end = slide(
                level.world(),
                &settings,
                pair[0].start_world,
                pair[0].velocity_world,
                TraceDetail::Summary,
            )
            .expect("a valid move")
            .final_position;
            assert_eq!(pair[1].start_world, end);
            assert_eq!(pair[1].velocity_world, pair[0].velocity_world);
        }
        let v = walk[0].velocity_world;
        assert!((DVec3::new(v.x, 0.0, v.z).length() - FRAME_STEP).abs() < 1e-12);
        assert_eq!(v.y, -FRAME_DROP);
    }
}

#[test]
fn move_sets_round_trip_through_json_lines_bit_for_bit() {
    let level = Level::from_mesh("field", field(5_000, 1));
    let moves = random_moves(
        &level,
        SlideSettings::default().radii_vec(),
        MoveKind::Long,
        50,
        2,
    );
    let mut text = Vec::new();
    write_moves_jsonl(&moves, &mut text).unwrap();
    let lines = std::str::from_utf8(&text).unwrap().lines().count();
    assert_eq!(lines, 50);
    assert_eq!(read_moves_jsonl(&text[..]).unwrap(), moves);
    let err = read_moves_jsonl(&b"{\"from\":[0,0,0]}\n"[..]).unwrap_err();
    assert!(err.to_string().starts_with("line 1:"), "{err}");
}
