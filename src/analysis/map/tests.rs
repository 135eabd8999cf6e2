//! The map's classes on small levels built for each, shards and merge,
//! cancel, limits and the image. Default character (radii 0.4, 0.9, 0.4 m;
//! step 0.3 m; 45°), few directions and short walks to stay quick.

use super::walker::MapWalk;
use super::*;
use crate::analysis::generate::parts::{floor, funnel_gap, wall};
use crate::analysis::generate::solid::cuboid;
use crate::analysis::generate::{LevelBuilder, default_level};
use crate::character::{CharacterState, FrameRecord, StepOutcome};
use crate::collide::SlideSettings;
use crate::level::Level;
use glam::{DVec2, DVec3};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A `size` × `size` m floor from the origin with 2.5 m walls along its
/// edges (inside it), plus `extra` parts.
fn room(size: f64, extra: &[(&str, crate::analysis::generate::Solid)]) -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::ZERO, DVec2::splat(size), 0.0, 0.5, 2.0),
    );
    let t = 0.2;
    let mut walls = wall(DVec3::ZERO, size, 2.5, t, None);
    walls.append(&wall(DVec3::new(0.0, 0.0, size - t), size, 2.5, t, None));
    for x in [0.0, size - t] {
        let w = wall(DVec3::ZERO, size - 2.0 * t, 2.5, t, None).turned(3);
        walls.append(&w.translated(DVec3::new(x + t, 0.0, t)));
    }
    b.add("walls", &walls);
    for (name, solid) in extra {
        b.add(*name, solid);
    }
    Level::from_mesh("room", b.build())
}

fn opts(spacing_m: f64, directions: u32, seconds: f64) -> MapOptions {
    MapOptions {
        spacing_m,
        directions,
        seconds,
        shard: Shard::WHOLE,
        ..MapOptions::default()
    }
}

fn map(level: &Level, o: &MapOptions) -> MapReport {
    map_level(
        &level.name,
        level.world(),
        &SlideSettings::default(),
        o,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("valid options")
    .expect("not cancelled")
}

fn no_findings(r: &MapReport) {
    let c = r.counts;
    assert_eq!(
        (
            c.stuck,
            c.jitter,
            c.fell_through,
            c.embedded,
            c.cant_get_back
        ),
        (0, 0, 0, 0, 0),
        "{c:?}"
    );
    assert!(r.clean());
}

#[test]
fn an_open_room_gives_free_and_blocked_walks_only() {
    let level = room(8.0, &[]);
    // 2 m walks: the middle of the room is free every way.
    let r = map(&level, &opts(1.0, 8, 0.4));
    no_findings(&r);
    // 8 × 8 columns, one floor each; those next to the walls have no room.
    assert!(r.spots.len() >= 36, "{} spots", r.spots.len());
    assert!(r.counts.free > 0 && r.counts.blocked > 0, "{:?}", r.counts);
    // Walking +x from the column nearest the +x wall stops at it: blocked.
    let east = r
        .spots
        .iter()
        .max_by(|a, b| a.start.x.total_cmp(&b.start.x))
        .unwrap();
    assert_eq!(east.walks[0], MapClass::Blocked, "{east:?}");
    // Every start settled on the floor, the centre a radius above it.
    for s in &r.spots {
        assert!((s.start.y - 0.9).abs() < 0.01, "{s:?}");
        assert_eq!(s.floor_y, 0.0);
    }
}

#[test]
fn a_slot_of_exactly_the_characters_width_gets_it_stuck() {
    let gap_at = DVec3::new(6.0, 0.0, 5.0);
    let funnel = funnel_gap(gap_at, 0.8, 1.6, 1.2, 0.2, 2.5);
    let level = room(10.0, &[("funnel", funnel)]);
    let r = map(&level, &opts(1.0, 4, 1.0));
    let stuck: Vec<&MapSpot> = r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::Stuck)
        .collect();
    assert!(!stuck.is_empty(), "{:?}", r.counts);
    for s in &stuck {
        // Walking +x (direction 0) into the slot, wedged at its mouth.
        assert_eq!(s.worst_direction, 0, "{s:?}");
        let off = s.end - DVec3::new(gap_at.x, s.end.y, gap_at.z);
        assert!(off.length() < 0.15, "{s:?}");
        assert!(s.frame.is_some());
    }
    assert!(!r.clean());
    assert_eq!(r.counts.embedded, 0);
}

#[test]
fn a_hole_through_the_floor_is_fallen_through() {
    // A 10 m floor missing its middle 2 m square, nothing below.
    let mut b = LevelBuilder::new();
    for (lo, hi) in [
        (DVec2::new(0.0, 0.0), DVec2::new(10.0, 4.0)),
        (DVec2::new(0.0, 6.0), DVec2::new(10.0, 10.0)),
        (DVec2::new(0.0, 4.0), DVec2::new(4.0, 6.0)),
        (DVec2::new(6.0, 4.0), DVec2::new(10.0, 6.0)),
    ] {
        b.add("floor", &floor(lo, hi, 0.0, 0.5, 2.0));
    }
    let level = Level::from_mesh("holed", b.build());
    let r = map(&level, &opts(1.0, 4, 1.0));
    let fell: Vec<&MapSpot> = r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::FellThrough)
        .collect();
    // Into the hole (the floor has no walls: off its edges too).
    let into_hole = |s: &&&MapSpot| (4.0..6.0).contains(&s.end.x) && (4.0..6.0).contains(&s.end.z);
    assert!(fell.iter().any(|s| into_hole(&s)), "{fell:#?}");
    let off_floor = |p: DVec3| !((0.0..=10.0).contains(&p.x) && (0.0..=10.0).contains(&p.z));
    for s in &fell {
        // Through the hole and on under the floor, or off its edge.
        let under = into_hole(&s) || s.end.y < 0.0 || off_floor(s.end);
        assert!(under, "nothing under the end: {s:?}");
    }
    // The column over the hole has no start point.
    assert!(r.spots.iter().all(|s| s.cell != [5, 5]));
    // Walks off the floor's open outer edges are their own class, which
    // a hole's walks never are.
    assert!(r.counts.walked_off_edge > 0, "{:?}", r.counts);
    for s in r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::WalkedOffEdge)
    {
        assert!(off_floor(s.end), "left the floor sideways: {s:?}");
    }
    assert!(
        fell.iter()
            .all(|s| !off_floor(s.end) || s.end.y < -0.5 - 0.5)
    );
}

#[test]
fn a_diagonal_edge_inside_the_levels_box_is_walked_off_not_fallen_through() {
    // A right-triangle floor 12 m a side: its long edge runs diagonally
    // across the level's box, so a walk off it ends over the void inside
    // the box (as off a terrain's cliff or a Quake sky strip). Nothing is
    // under it and nothing of the level lies beyond it: an open edge.
    let positions = vec![
        glam::Vec3::new(0.0, 0.0, 0.0),
        glam::Vec3::new(0.0, 0.0, 12.0),
        glam::Vec3::new(12.0, 0.0, 0.0),
    ];
    let mesh = crate::mesh::TriMesh::new(positions, vec![[0, 1, 2]], vec![("floor".into(), 1)]);
    let level = Level::from_mesh("wedge", mesh);
    let r = map(&level, &opts(1.0, 8, 1.0));
    assert_eq!(r.counts.fell_through, 0, "{:?}", r.counts);
    let over_diagonal = r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::WalkedOffEdge)
        .filter(|s| s.end.x + s.end.z > 12.0 && s.end.x < 12.0 && s.end.z < 12.0)
        .count();
    assert!(
        over_diagonal > 0,
        "no walk ended past the diagonal edge: {:?}",
        r.counts
    );
}

#[test]
fn walks_off_a_floor_without_walls_walk_off_the_edge_and_are_no_finding() {
    // A 6 m floor with nothing around it and no hole.
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::ZERO, DVec2::splat(6.0), 0.0, 0.5, 2.0),
    );
    let level = Level::from_mesh("open floor", b.build());
    let r = map(&level, &opts(1.0, 4, 1.0));
    assert_eq!(r.counts.fell_through, 0, "{:?}", r.counts);
    // 5 m/s for 1 s reaches the edge from every start in some direction.
    assert_eq!(r.counts.walked_off_edge, r.spots.len(), "{:?}", r.counts);
    assert!(!MapClass::WalkedOffEdge.is_finding() && r.clean());
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"walked_off_edge\""), "{json}");
    // A map saved before the class still reads (its count is zero).
    let old = json.replace(
        &format!("\"walked_off_edge\":{},", r.counts.walked_off_edge),
        "",
    );
    let back: MapReport = serde_json::from_str(&old).unwrap();
    assert_eq!(back.counts.walked_off_edge, 0);
}

#[test]
fn a_drop_taller_than_the_step_cannot_be_climbed_back() {
    // A 1 m platform over x in [2, 6] in a 10 m room.
    let platform = cuboid(DVec3::new(2.0, 0.0, 2.0), DVec3::new(6.0, 1.0, 8.0));
    let level = room(10.0, &[("platform", platform)]);
    let r = map(&level, &opts(1.0, 4, 1.0));
    let back: Vec<&MapSpot> = r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::CantGetBack)
        .collect();
    assert!(!back.is_empty(), "{:?}", r.counts);
    for s in &back {
        assert!(
            (s.floor_y - 1.0).abs() < 1e-6,
            "starts on the platform: {s:?}"
        );
        assert!(s.end.y < s.start.y - 0.35, "ends below it: {s:?}");
    }
    assert_eq!(
        (r.counts.stuck, r.counts.fell_through, r.counts.embedded),
        (0, 0, 0)
    );
}

#[test]
fn the_built_in_level_has_its_stuck_spot_at_the_funnel() {
    let level = Level::from_mesh("default", default_level());
    let r = map(&level, &opts(1.0, 4, 1.0));
    let gap = crate::analysis::generate::FUNNEL_GAP_AT;
    let at_gap = r
        .spots
        .iter()
        .filter(|s| s.class == MapClass::Stuck)
        .filter(|s| (s.end - DVec3::new(gap.x, s.end.y, gap.z)).length() < 0.15)
        .count();
    assert!(at_gap > 0, "{:?}", r.counts);
    // Its floor has no walls around it: walks off its edges fall.
    assert_eq!(r.counts.embedded, 0, "{:?}", r.counts);
}

#[test]
fn shards_merge_into_exactly_the_whole_map() {
    let platform = cuboid(DVec3::new(2.0, 0.0, 2.0), DVec3::new(4.0, 1.0, 5.0));
    let level = room(7.0, &[("platform", platform)]);
    let whole = map(&level, &opts(1.0, 3, 0.5));
    let parts: Vec<MapReport> = (0..3)
        .map(|index| {
            let mut o = opts(1.0, 3, 0.5);
            o.shard = Shard { index, count: 3 };
            map(&level, &o)
        })
        .collect();
    assert!(parts.iter().all(|p| p.spots.len() < whole.spots.len()));
    // In any order.
    let merged = merge(parts.into_iter().rev().collect()).unwrap();
    assert_eq!(merged.spots, whole.spots);
    assert_eq!(merged.counts, whole.counts);
    assert_eq!(
        (
            merged.start_points,
            merged.unplaceable,
            merged.walks,
            merged.frames
        ),
        (
            whole.start_points,
            whole.unplaceable,
            whole.walks,
            whole.frames
        )
    );
    assert_eq!(merged.shard, Shard::WHOLE);
}

#[test]
fn merge_refuses_missing_repeated_and_foreign_parts() {
    let level = room(5.0, &[]);
    let part = |index, count, seconds| {
        let mut o = opts(1.0, 2, seconds);
        o.shard = Shard { index, count };
        map(&level, &o)
    };
    let err = |parts| merge(parts).unwrap_err().to_string();
    assert!(err(vec![part(0, 2, 0.2)]).contains("shard 1/2 is missing"));
    assert!(err(vec![part(0, 2, 0.2), part(0, 2, 0.2)]).contains("given twice"));
    assert!(err(vec![part(0, 2, 0.2), part(1, 2, 0.3)]).contains("another level"));
    assert!(err(vec![]).contains("no parts"));
}

#[test]
fn cancel_stops_the_map_early() {
    let level = room(10.0, &[]);
    let cancel = AtomicBool::new(false);
    let calls = AtomicUsize::new(0);
    let r = map_level(
        "room",
        level.world(),
        &SlideSettings::default(),
        &opts(0.5, 8, 1.0),
        &|f| {
            if f > 0.05 {
                calls.fetch_add(1, Ordering::Relaxed);
                cancel.store(true, Ordering::Relaxed);
            }
        },
        &cancel,
    )
    .unwrap();
    assert!(r.is_none());
    // Each worker finishes at most the start it was on.
    let n = calls.load(Ordering::Relaxed);
    assert!(n <= rayon::current_num_threads(), "{n} starts after cancel");
}

#[test]
fn bad_options_and_huge_grids_are_refused_with_the_numbers() {
    let level = room(5.0, &[]);
    let run = |o: MapOptions| {
        map_level(
            "room",
            level.world(),
            &SlideSettings::default(),
            &o,
            &|_| {},
            &AtomicBool::new(false),
        )
        .unwrap_err()
        .to_string()
    };
    let e = run(opts(0.001, 8, 1.0));
    assert!(
        e.contains("25000000 grid columns") && e.contains("4000000"),
        "{e}"
    );
    assert!(run(opts(0.0, 8, 1.0)).contains("spacing"));
    assert!(run(opts(1.0, 0, 1.0)).contains("directions"));
    assert!(run(opts(1.0, 8, f64::NAN)).contains("s walks"));
    let mut o = opts(1.0, 8, 1.0);
    o.shard = Shard { index: 2, count: 2 };
    assert!(run(o).contains("shard 2/2"));
}

/// Synthetic frames: the character at `xs` along x in turn.
fn frames_at(xs: &[f64]) -> MapWalk {
    let at = |x: f64| CharacterState {
        grounded: true,
        ..CharacterState::at(DVec3::new(x, 0.9, 0.0))
    };
    let frames = xs
        .windows(2)
        .enumerate()
        .map(|(i, w)| FrameRecord {
            index: i as u32,
            before: at(w[0]),
            after: at(w[1]),
            walk: DVec3::new(5.0 / 60.0, 0.0, 0.0),
            jumped: false,
            step: StepOutcome::NotTried,
            snapped: false,
            wall: None,
            iterations: Vec::new(),
        })
        .collect::<Vec<_>>();
    MapWalk {
        from: DVec3::new(xs[0], 0.9, 0.0),
        dir: DVec3::X,
        length: frames.len() as u32,
        frames,
        fixed_point: false,
    }
}

#[test]
fn going_back_and_forth_is_jitter_and_walking_on_is_not() {
    let cx = class::WalkContext {
        bounds_min: DVec3::splat(-100.0),
        bounds_max: DVec3::splat(100.0),
        walk_speed_m_s: 5.0,
        frame_time_s: 1.0 / 60.0,
        max_step_height_m: 0.3,
        floor_min_up: 45f64.to_radians().cos(),
    };
    // Forward a walk's worth, back a bit less: progress every other frame.
    let mut xs = vec![0.0];
    for i in 0..60 {
        let last = *xs.last().unwrap();
        xs.push(last + if i % 2 == 0 { 0.083 } else { -0.08 });
    }
    let found = class::classify(&frames_at(&xs), &cx, class::Under::Ground);
    assert_eq!(
        found.iter().map(|v| v.0).max(),
        Some(MapClass::Jitter),
        "{found:?}"
    );
    assert_eq!(found[0].1, Some(30));
    let straight: Vec<f64> = (0..=60).map(|i| f64::from(i) * 0.083).collect();
    assert!(class::classify(&frames_at(&straight), &cx, class::Under::Ground).is_empty());
}

#[test]
fn the_image_greys_floors_and_colours_findings() {
    let gap_at = DVec3::new(6.0, 0.0, 5.0);
    let level = room(
        14.0,
        &[("funnel", funnel_gap(gap_at, 0.8, 1.6, 1.2, 0.2, 2.5))],
    );
    let r = map(&level, &opts(1.0, 4, 0.4));
    let img = map_image(&r, Some(level.world()), 140);
    assert_eq!((img.width, img.height), (140, 140));
    assert_eq!(img.rgb.len(), 140 * 140 * 3);
    let pixel = |cell: [u32; 2]| {
        // The middle of the cell's square.
        let at = ((cell[1] * 10 + 5) * 140 + cell[0] * 10 + 5) as usize * 3;
        [img.rgb[at], img.rgb[at + 1], img.rgb[at + 2]]
    };
    let stuck = r.spots.iter().find(|s| s.class == MapClass::Stuck).unwrap();
    assert_eq!(pixel(stuck.cell), MapClass::Stuck.colour());
    let free = r.spots.iter().find(|s| s.class == MapClass::Free).unwrap();
    let p = pixel(free.cell);
    assert!(p[0] == p[1] && p[1] == p[2], "grey: {p:?}");
}

#[test]
fn the_image_shows_the_floor_under_a_roof_not_the_roof() {
    // A roof slab 3 m up over part of a room, as an indoor level or a
    // Quake map's sky brushes have: a player reaches the room's floor under
    // it, not its top.
    let size = 10.0;
    let level = room(
        size,
        &[(
            "roof",
            floor(DVec2::splat(1.0), DVec2::splat(5.0), 3.2, 0.2, 2.0),
        )],
    );
    let r = map(&level, &opts(1.0, 4, 0.4));
    let img = map_image(&r, Some(level.world()), 80);
    let px = img.width / r.grid.nx;
    let free = r
        .spots
        .iter()
        .find(|s| {
            let inside = |i: u32, n: u32| i >= 2 && i + 2 < n;
            s.class == MapClass::Free
                && inside(s.cell[0], r.grid.nx)
                && inside(s.cell[1], r.grid.nz)
        })
        .expect("free floor away from the walls");
    // Near a corner of the cell's square, clear of the marks drawn in its
    // middle.
    let at = ((free.cell[1] * px + 1) * img.width + free.cell[0] * px + 1) as usize * 3;
    let p = [img.rgb[at], img.rgb[at + 1], img.rgb[at + 2]];
    // The floor (y 0) is at the low end of the level's heights (-0.5 to
    // 3.2): a dark grey; the roof would be the lightest.
    let b = level.mesh().bounds();
    let t = (0.0 - f64::from(b.min.y)) / f64::from(b.max.y - b.min.y);
    let expected = (70.0 + 160.0 * t).round() as u8;
    assert_eq!(p, [expected; 3], "the floor's grey, not the roof's");
    // The room's walls (2.5 m, taller than the character) still show, by
    // their tops: the pixel over the middle of the wall at x 0 to 0.2.
    let step = r.grid.spacing_m / f64::from(px);
    let pixel_at = |x: f64, z: f64| {
        let col = ((x - (r.grid.origin_x - 0.5 * r.grid.spacing_m)) / step) as u32;
        let row = ((z - (r.grid.origin_z - 0.5 * r.grid.spacing_m)) / step) as u32;
        let at = (row * img.width + col) as usize * 3;
        img.rgb[at]
    };
    let wall_t = (2.5 - f64::from(b.min.y)) / f64::from(b.max.y - b.min.y);
    let wall_grey = (70.0 + 160.0 * wall_t).round() as u8;
    assert_eq!(pixel_at(0.1, 7.5), wall_grey, "the wall's top");
}

#[test]
fn the_map_is_the_same_with_and_without_trigger_events() {
    // A room with a solid block and a trigger zone (a non-colliding box)
    // that many walks cross.
    let level = room(
        8.0,
        &[
            (
                "block",
                cuboid(DVec3::new(5.0, 0.0, 5.0), DVec3::new(6.0, 1.0, 6.0)),
            ),
            (
                "zone",
                cuboid(DVec3::new(2.0, 0.0, 1.0), DVec3::new(4.0, 2.0, 7.0)),
            ),
        ],
    );
    let flags = [true, true, true, false];
    let world = level.world_with(&flags);
    let settings = SlideSettings::default();
    let o = opts(1.0, 4, 1.0);
    let run = |events: bool| {
        let never = AtomicBool::new(false);
        run::map_level_recording("room", world, &settings, &o, &[], &|_| {}, &never, events)
            .expect("valid options")
            .expect("not cancelled")
    };
    let (mut on, mut off) = (run(true), run(false));
    assert!(on.walks > 50, "{on:?}");
    (on.elapsed_ms, off.elapsed_ms) = (0.0, 0.0);
    assert_eq!(on, off);
    // The walks did cross the zone: recorded when on, not when off.
    let from = DVec3::new(0.8, 0.9 + 0.02, 4.0);
    let walk = |events: bool| {
        let w = MapWalk::run(world, &settings, (from, DVec3::X), 60, &|_| false, events)
            .expect("finite");
        w.frames
            .iter()
            .flat_map(|f| &f.iterations)
            .map(|it| it.record.trigger_events.len())
            .sum::<usize>()
    };
    assert!(walk(true) >= 2, "entered and left the zone");
    assert_eq!(walk(false), 0);
}

/// Counted spots (those in a class): every class's count summed.
fn counted(r: &MapReport) -> usize {
    MapClass::ALL.iter().map(|&c| r.counts.get(c)).sum()
}

#[test]
fn walks_into_a_rooms_corners_are_blocked_not_stuck() {
    // 16 directions: a walk 22.5° off a wall slides along it (the wall is
    // 67.5° from facing it) into the corner, where the second wall, 22.5°
    // from facing it, stops it. A normal stop.
    let level = room(6.0, &[]);
    let r = map(&level, &opts(1.0, 16, 1.0));
    no_findings(&r);
    // The start nearest the (+x, +z) corner, walking towards it.
    let corner = DVec3::new(5.8, 0.0, 5.8);
    let s = r
        .spots
        .iter()
        .min_by(|a, b| {
            let d = |s: &MapSpot| (s.start - corner).with_y(0.0).length();
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    for k in [1, 2, 3] {
        // 22.5°, 45°, 67.5°: into the corner.
        assert_eq!(s.walks[k], MapClass::Blocked, "direction {k}: {s:?}");
    }
}

#[test]
fn contacts_decide_blocked_from_every_wall_at_the_end() {
    let dir = DVec3::X;
    let at = |deg: f64| {
        // A wall normal `deg` from facing the walk (turned towards +z).
        let a = deg.to_radians();
        DVec3::new(-a.cos(), 0.0, a.sin())
    };
    // One wall square to the walk, or a corner with one wall facing it.
    assert!(class::contacts_block(dir, &[at(0.0)]));
    assert!(class::contacts_block(dir, &[at(67.5), at(-22.5)]));
    assert!(class::contacts_block(dir, &[at(45.0), at(-45.0)]));
    // A lone wall it would slide along, a 30° V (no wall facing it), no wall.
    assert!(!class::contacts_block(dir, &[at(40.0)]));
    assert!(!class::contacts_block(dir, &[at(75.0), at(-75.0)]));
    assert!(!class::contacts_block(dir, &[]));
    // Two walls on the same side leave the other side open.
    assert!(!class::contacts_block(dir, &[at(30.0), at(60.0)]));
    // A slope too steep to walk, 40° off square, stops it by itself.
    let steep = (at(40.0) * 0.87 + DVec3::Y * 0.5).normalize();
    assert!(class::contacts_block(dir, &[steep]));
    assert!(!class::contacts_block(
        dir,
        &[(at(70.0) * 0.87 + DVec3::Y * 0.5).normalize()]
    ));
}

/// A 10 m room with a 0.2 m thick, 3 m high wall across part of it (its top
/// under the 0.5 m grid's columns at z = 4.25) and a 2 m square pillar 3 m
/// high: floors a player cannot get to. The passages around them are
/// 1.3 m wide or more (one of 0.8 m would be a slot the player sticks in).
fn room_with_wall_top_and_pillar() -> Level {
    let wall_top = cuboid(DVec3::new(2.0, 0.0, 4.15), DVec3::new(6.0, 3.0, 4.35));
    let pillar = cuboid(DVec3::new(6.5, 0.0, 6.0), DVec3::new(8.5, 3.0, 8.0));
    room(10.0, &[("wall", wall_top), ("pillar", pillar)])
}

#[test]
fn wall_tops_and_ledges_no_walk_reaches_are_not_counted() {
    let level = room_with_wall_top_and_pillar();
    let r = map(&level, &opts(0.5, 4, 0.5));
    // Only the room's floor counts: nothing on the wall top (no footing),
    // on the pillar (no walk gets there) or inside it (the floor under a
    // closed box has room up to its top), and nothing falls through.
    let in_pillar = |p: DVec3| (6.5..8.5).contains(&p.x) && (6.0..8.0).contains(&p.z);
    let on_floor = |s: &MapSpot| s.floor_y.abs() < 0.01 && !in_pillar(s.start);
    let floor_spots = r.spots.iter().filter(|s| on_floor(s)).count();
    assert_eq!(counted(&r), floor_spots, "{:?}", r.counts);
    assert_eq!(r.counts.fell_through, 0, "{:?}", r.counts);
    assert!(
        r.spots
            .iter()
            .all(|s| !(s.floor_y > 2.9 && s.start.z > 4.0 && s.start.z < 4.5))
    );
    assert!(r.no_footing >= 8, "{} without footing", r.no_footing); // new-api
    let on_pillar = r.spots.iter().filter(|s| s.floor_y > 2.9).count(); // new-api
    assert!(on_pillar >= 4, "{on_pillar} on the pillar"); // new-api
    assert_eq!(r.unreachable as usize, r.spots.len() - floor_spots); // new-api
    assert!(r.spots.iter().all(|s| s.reachable == on_floor(s))); // new-api
    assert!(r.clean()); // new-api
}

#[test]
fn a_cornice_narrower_than_the_character_has_no_start() {
    // A 0.6 m deep slab on the -z wall, 1.2 m up: columns at 0.25 m find
    // its top, and the character would perch on its edge.
    let cornice = cuboid(DVec3::new(0.2, 1.2, 0.2), DVec3::new(5.8, 1.4, 0.8));
    let level = room(6.0, &[("cornice", cornice)]);
    let r = map(&level, &opts(0.25, 4, 0.5));
    assert!(
        r.spots.iter().all(|s| s.floor_y < 1.0),
        "{:?}",
        r.spots.iter().find(|s| s.floor_y >= 1.0)
    );
    no_findings(&r);
    assert!(r.no_footing > 0); // new-api
}

#[test]
fn spawn_points_say_where_players_are() {
    // An 8 m room split by a wall at x = 5: the larger part west of it.
    let split = cuboid(DVec3::new(5.0, 0.0, 0.2), DVec3::new(5.2, 2.5, 7.8));
    let level = room(8.0, &[("split", split)]);
    let o = opts(1.0, 4, 1.0);
    let west = |s: &MapSpot| s.start.x < 5.0;
    let r = map(&level, &o);
    let (w, e) = (
        r.spots.iter().filter(|s| west(s)).count(),
        r.spots.iter().filter(|s| !west(s)).count(),
    );
    assert!(w > e && e > 0, "{w} west, {e} east");
    // Without spawn points: the main floor region, the west part.
    assert_eq!(r.unreachable as usize, e);
    assert!(r.spots.iter().all(|s| s.reachable == west(s)));
    assert_eq!(counted(&r), w);
    // From a spawn point in the east part, only it counts.
    let spawn = DVec3::new(6.5, 0.9, 4.5);
    let from = |spawns: &[DVec3]| {
        map_level_from(
            "split",
            level.world(),
            &SlideSettings::default(),
            &o,
            spawns,
            &|_| {},
            &AtomicBool::new(false),
        )
    };
    let r = from(&[spawn]).unwrap().unwrap();
    assert_eq!(r.spawns, vec![spawn]);
    assert_eq!(r.unreachable as usize, w);
    assert!(r.spots.iter().all(|s| s.reachable != west(s)));
    assert_eq!(counted(&r), e);
    // Both parts from a spawn in each.
    let r = from(&[spawn, DVec3::new(2.5, 0.9, 4.5)]).unwrap().unwrap();
    assert_eq!((r.unreachable, counted(&r)), (0, w + e));
    // A spawn point far from every start is refused with where it is.
    let e = from(&[DVec3::new(50.0, 0.9, 4.5)]).unwrap_err().to_string();
    assert!(e.contains("spawn point (50.0000"), "{e}");
}
