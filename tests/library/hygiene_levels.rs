//! Mesh hygiene on every real level in `../shared/levels/`: the analysis
//! finishes, its counts are plausible for what each level is, and a table
//! (counts per kind, time) is printed; on the Quake maps, the open edges
//! left and the seams sealed agree with a brute-force coverage check;
//! levels wound against their normals are flagged. Skips with a message when
//! `../shared` is absent. Speed is measured by `benches/hygiene.rs`.

use collidoscope::analysis::hygiene::{
    HygieneKind, HygieneOptions, HygieneReport, analyse_level as analyse_imported,
    analyse_with_normals,
};
use collidoscope::level::{ImportOptions, Level};
use collidoscope::math::DVec3;
use collidoscope::mesh::TriMesh;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

fn levels_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("SKIPPED: {} is absent", dir.display());
        None
    }
}

/// The level's report, with a table row printed.
fn analyse_level(dir: &std::path::Path, file: &str, scale: f64) -> HygieneReport {
    let options = ImportOptions {
        scale,
        ..ImportOptions::default()
    };
    analyse_level_with(dir, file, &options)
}

/// [`analyse_level`] with any import options.
fn analyse_level_with(dir: &std::path::Path, file: &str, options: &ImportOptions) -> HygieneReport {
    let level = Level::load(&dir.join(file), options).expect("the level imports");
    let start = Instant::now();
    let report = analyse_imported(&level, &HygieneOptions::default());
    let counts: Vec<String> = HygieneKind::ALL
        .iter()
        .map(|&k| format!("{} {}", k.name(), report.count(k)))
        .collect();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "{file}: {} triangles, {} welded vertices, {} unmatched edges, {} faults in {ms:.1} ms: {}",
        level.mesh().triangle_count(),
        report.welded_vertices,
        unmatched_edges(level.mesh()).len(),
        report.faults,
        counts.join(", ")
    );
    for kind in &report.kinds {
        assert_eq!(kind.truncated, kind.count > kind.items.len());
        // Real levels stay under the hostile-mesh limit: every count exact.
        assert_eq!(
            kind.searches_cut, 0,
            "{file}: {:?} searches stopped at the neighbour limit",
            kind.kind
        );
        assert!(kind.items.len() <= HygieneOptions::default().max_items_per_kind);
        for item in &kind.items {
            assert_eq!(item.kind, kind.kind);
            assert!(
                item.position.is_finite() && item.size.is_finite(),
                "{item:?}"
            );
            assert!(!item.triangles.is_empty());
            let n = level.mesh().triangle_count() as u32;
            assert!(item.triangles.iter().all(|&t| t < n), "{item:?}");
        }
    }
    report
}

#[test]
fn every_shared_level_is_analysed_with_plausible_counts() {
    let Some(dir) = levels_dir() else { return };
    // A render mesh: open edges where parts meet without sharing vertices.
    let sibenik = analyse_level(&dir, "sibenik_dabrovic_75k.obj.gz", 1.0);
    assert!(sibenik.count(HygieneKind::OpenEdge) > 100);
    assert!(sibenik.count(HygieneKind::CoplanarEdge) > 1000);
    let conference = analyse_level(&dir, "conference_ward_331k.obj.gz", 0.003);
    assert!(conference.count(HygieneKind::OpenEdge) > 0);
    // Three stacked closed blocks: no open, non-manifold or wound-wrong edge.
    let parry = analyse_level(&dir, "parry_stairs.obj", 1.0);
    for kind in [
        HygieneKind::OpenEdge,
        HygieneKind::NonManifoldEdge,
        HygieneKind::InconsistentWinding,
    ] {
        assert_eq!(
            parry.count(kind),
            0,
            "{kind:?}: {:?}",
            parry.kind(kind).items
        );
    }
    for file in [
        "galleria_map.obj",
        "galleria_collision.obj",
        "galleria_stairs.obj",
        "threejs_collision_world.obj",
        "machu_picchu_level.obj",
    ] {
        let report = analyse_level(&dir, file, 1.0);
        assert!(report.welded_vertices > 0);
    }
    for file in [
        "librequake_e0m2.obj",
        "librequake_e0m8.obj",
        "librequake_based.obj",
    ] {
        let report = analyse_level_with(&dir, file, &quake_options());
        assert!(report.count(HygieneKind::TJunction) > 0);
    }
}

/// The LibreQuake maps, in Quake units, Z up: load with these options.
fn quake_options() -> ImportOptions {
    ImportOptions {
        up: collidoscope::level::UpAxis::Z,
        scale: 0.0254,
        ..ImportOptions::default()
    }
}

/// An edge found independently of the analysis: welded by exact position
/// with a hash map; `tri` is its first triangle.
#[derive(Clone, Copy, Debug)]
struct Unmatched {
    tri: u32,
    a: DVec3,
    b: DVec3,
    unmatched: bool,
}

fn unmatched_edges(mesh: &TriMesh) -> Vec<Unmatched> {
    all_edges(mesh)
        .into_iter()
        .filter(|e| e.unmatched)
        .collect()
}

fn all_edges(mesh: &TriMesh) -> Vec<Unmatched> {
    let mut ids: HashMap<[u32; 3], u32> = HashMap::new();
    let weld: Vec<u32> = mesh
        .positions()
        .iter()
        .map(|p| {
            let n = ids.len() as u32;
            *ids.entry(p.to_array().map(f32::to_bits)).or_insert(n)
        })
        .collect();
    let mut uses: HashMap<(u32, u32), Vec<(u32, usize)>> = HashMap::new();
    for (t, tri) in mesh.triangles().iter().enumerate() {
        for c in 0..3 {
            let (a, b) = (weld[tri[c] as usize], weld[tri[(c + 1) % 3] as usize]);
            if a != b {
                uses.entry((a.min(b), a.max(b)))
                    .or_default()
                    .push((t as u32, c));
            }
        }
    }
    let mut out: Vec<Unmatched> = uses
        .values()
        .map(|u| {
            let (t, c) = u[0];
            let tri = mesh.triangles()[t as usize];
            let p = |i: usize| mesh.positions()[tri[i % 3] as usize].as_dvec3();
            Unmatched {
                tri: t,
                a: p(c),
                b: p(c + 1),
                unmatched: u.len() == 1,
            }
        })
        .collect();
    out.sort_by(|x, y| {
        (x.tri, x.a.to_array())
            .partial_cmp(&(y.tri, y.a.to_array()))
            .unwrap()
    });
    out
}

/// How much of `e` no other collinear edge of `all` covers (both ends within
/// `tol` of its line), gaps up to `tol` closed: by brute force.
fn uncovered_length(e: &Unmatched, all: &[Unmatched], tol: f64) -> f64 {
    let length = e.a.distance(e.b);
    let dir = (e.b - e.a) / length;
    let mut spans: Vec<(f64, f64)> = all
        .iter()
        .filter(|f| !(f.tri == e.tri && f.a == e.a && f.b == e.b))
        .filter_map(|f| {
            let (qa, qb) = (f.a - e.a, f.b - e.a);
            let (sa, sb) = (qa.dot(dir), qb.dot(dir));
            let on_line = (qa - dir * sa).length() <= tol && (qb - dir * sb).length() <= tol;
            let (lo, hi) = (sa.min(sb).max(0.0), sa.max(sb).min(length));
            (on_line && hi > lo).then_some((lo, hi))
        })
        .collect();
    spans.sort_by(|p, q| p.0.total_cmp(&q.0));
    let (mut reach, mut gaps) = (0.0f64, 0.0);
    for (lo, hi) in spans {
        if lo > reach + tol {
            gaps += lo - reach;
        }
        reach = reach.max(hi);
    }
    if length > reach + tol {
        gaps += length - reach;
    }
    gaps
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// At most `n` of `items`, evenly spread.
fn sample<T>(items: &[T], n: usize) -> impl Iterator<Item = &T> {
    let step = items.len().div_ceil(n).max(1);
    items.iter().step_by(step)
}

#[test]
fn librequake_open_edges_are_not_sealed_by_collinear_neighbours() {
    let Some(dir) = levels_dir() else { return };
    let options = HygieneOptions::default();
    let tol = options.tjunction_m;
    for file in [
        "librequake_e0m2.obj",
        "librequake_e0m8.obj",
        "librequake_based.obj",
    ] {
        let level = Level::load(&dir.join(file), &quake_options()).expect("the level imports");
        let mesh = level.mesh();
        let report = analyse_imported(&level, &options);
        let open = report.kind(HygieneKind::OpenEdge);
        assert!(!open.truncated);
        // Covers are any edges; the ones to cover, unmatched ones.
        let all = all_edges(mesh);
        let unmatched: Vec<Unmatched> = all.iter().copied().filter(|e| e.unmatched).collect();
        // Each open edge item is one unmatched edge of its triangle: the
        // one its position lies on.
        let edge_of = |item: &collidoscope::analysis::hygiene::HygieneItem| {
            let t = item.triangles[0];
            let found: Vec<&Unmatched> = unmatched
                .iter()
                .filter(|e| e.tri == t && segment_distance(e.a, e.b, item.position) < 1e-6)
                .collect();
            assert_eq!(found.len(), 1, "{file}: {item:?}");
            *found[0]
        };
        let open_edges: Vec<Unmatched> = open.items.iter().map(edge_of).collect();
        // The open edges left are open: collinear neighbours leave a part
        // uncovered, the size the item gives.
        let mut checked = 0;
        for (item, e) in sample(&open.items, 200).zip(sample(&open_edges, 200)) {
            let gaps = uncovered_length(e, &all, tol);
            assert!(gaps > 0.0, "{file}: a sealed edge reported open: {item:?}");
            assert!(
                (gaps - item.size).abs() < 1e-6,
                "{file}: {gaps} vs {item:?}"
            );
            checked += 1;
        }
        // And the unmatched edges not listed are sealed.
        let listed = |e: &Unmatched| {
            open_edges
                .iter()
                .any(|o| o.tri == e.tri && o.a == e.a && o.b == e.b)
        };
        let sealed: Vec<Unmatched> = unmatched.iter().copied().filter(|e| !listed(e)).collect();
        for e in sample(&sealed, 200) {
            assert_eq!(uncovered_length(e, &all, tol), 0.0, "{file}: {e:?}");
        }
        println!(
            "{file}: {} unmatched edges, {} open ({checked} checked), {} sealed, {} t-junctions",
            unmatched.len(),
            open.count,
            sealed.len(),
            report.count(HygieneKind::TJunction)
        );
        assert!(!sealed.is_empty(), "{file}: BSP splits leave sealed seams");
    }
}

/// `text` with every face's corners in reverse order: the same level
/// wound the other way, its `vn` normals unchanged.
fn reverse_faces(text: &str) -> String {
    text.lines()
        .map(|line| match line.strip_prefix("f ") {
            Some(corners) => {
                let mut c: Vec<&str> = corners.split_whitespace().collect();
                c.reverse();
                format!("f {}\n", c.join(" "))
            }
            None => format!("{line}\n"),
        })
        .collect()
}

#[test]
fn levels_wound_against_their_normals_are_flagged() {
    let Some(dir) = levels_dir() else { return };
    let options = HygieneOptions::default();
    // The shared levels with normals are all wound along them, and the
    // closed objects of those without (the Quake maps' brushes, the
    // blocks) face outwards.
    for (file, import) in [
        ("galleria_map.obj", ImportOptions::default()),
        ("galleria_collision.obj", ImportOptions::default()),
        ("galleria_stairs.obj", ImportOptions::default()),
        ("machu_picchu_level.obj", ImportOptions::default()),
        ("threejs_collision_world.obj", ImportOptions::default()),
        ("parry_stairs.obj", ImportOptions::default()),
        ("librequake_e0m2.obj", quake_options()),
        ("librequake_e0m8.obj", quake_options()),
        ("librequake_based.obj", quake_options()),
    ] {
        let level = Level::load(&dir.join(file), &import).expect("the level imports");
        let report = analyse_imported(&level, &options);
        println!(
            "{file}: faces with normals {}, against {}; wound_against_normals {}, inside_out {}",
            level.report.faces_with_normals,
            level.report.faces_against_normals,
            report.count(HygieneKind::WoundAgainstNormals),
            report.count(HygieneKind::InsideOut)
        );
        assert_eq!(level.report.faces_against_normals, 0, "{file}");
        assert_eq!(report.count(HygieneKind::WoundAgainstNormals), 0, "{file}");
        assert_eq!(report.count(HygieneKind::InsideOut), 0, "{file}");
    }
    // The same real levels wound the other way round are flagged, every
    // object with normals at 100 %.
    for file in ["galleria_collision.obj", "machu_picchu_level.obj"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let (mesh, import) = collidoscope::level::import::import_obj_bytes(
            reverse_faces(&text).as_bytes(),
            &dir.join(file),
            &ImportOptions::default(),
        )
        .expect("the reversed level imports");
        assert_eq!(import.faces_against_normals, import.faces_with_normals);
        let report = analyse_with_normals(&mesh, &import.triangle_normals, &options);
        let against = report.kind(HygieneKind::WoundAgainstNormals);
        assert_eq!(against.count, mesh.objects().len(), "{file}");
        for item in &against.items {
            assert_eq!(item.size, 1.0, "{file}: {item:?}");
        }
        assert_eq!(report.count(HygieneKind::InsideOut), 0, "{file}");
    }
}
