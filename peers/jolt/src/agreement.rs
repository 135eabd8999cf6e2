//! The agreement of Jolt's walks with Collidoscope's: each finding of a
//! `check` rejudged with Jolt's walks of the same specs, and the verdicts
//! compared finding by finding (as `tests/library/rapier_peer.rs` does
//! for Rapier).

use crate::{JoltCharacter, JoltLevel, JoltMesh};
use collidoscope::analysis::checks::{CheckReport, Finding, Verdict, check_level, rejudge};
use collidoscope::analysis::features::FeatureKind;
use collidoscope::character::{EngineProfile, Walk, WalkTrace, walk};
use collidoscope::collide::{CollisionWorld, SlideSettings};
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::import::import_obj_bytes;
use collidoscope::level::{ImportOptions, Level, ObjectsBy, UpAxis};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// `settings` with its ellipsoid as the capsule the Jolt export writes
/// (radius the larger horizontal radius, total height twice the vertical).
pub fn capsule_settings(mut settings: SlideSettings) -> SlideSettings {
    let [rx, ry, rz] = settings.radii;
    let radius_m = rx.max(rz);
    settings.shape = CharacterShape::Capsule {
        radius_m,
        height_m: (2.0 * ry).max(2.0 * radius_m),
    };
    settings
}

/// `settings` under the `jolt` engine profile (`[character] engine =
/// "jolt"`), with the same capsule.
pub fn jolt_profile(settings: SlideSettings) -> SlideSettings {
    let mut settings = capsule_settings(settings);
    settings.character.engine = EngineProfile::Jolt;
    settings
}

/// `check` on `level` with `settings`.
pub fn check(level: &Level, world: CollisionWorld<'_>, settings: &SlideSettings) -> CheckReport {
    check_level(level, world, settings, &|_| {}, &AtomicBool::new(false))
        .expect("a floor to check")
        .expect("not cancelled")
}

/// One finding, both ways.
pub struct Row {
    /// Collidoscope's finding.
    pub ours: Finding,
    /// The same finding judged on Jolt's walks.
    pub theirs: Finding,
}

/// Jolt physics systems of one level, one per worker thread, made once
/// and reused for every walk (a mesh of 300 000 triangles takes seconds
/// to build).
pub struct JoltPool {
    levels: Vec<Mutex<JoltLevel>>,
}

impl JoltPool {
    /// One system per rayon thread, each holding `mesh`.
    pub fn new(mesh: &JoltMesh) -> Self {
        let n = rayon::current_num_threads().max(1);
        JoltPool {
            levels: (0..n).map(|_| Mutex::new(JoltLevel::new(mesh))).collect(),
        }
    }

    /// Runs `job(level, item)` for each item on the pool's systems, in
    /// parallel; the results in `items`' order.
    pub fn map<T: Sync, R: Send>(
        &self,
        items: &[T],
        job: impl Fn(&mut JoltLevel, &T) -> R + Sync,
    ) -> Vec<R> {
        let next = AtomicUsize::new(0);
        let out: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for level in &self.levels {
                let (next, out, job) = (&next, &out, &job);
                scope.spawn(move || {
                    let mut level = level.lock().expect("a level");
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        let r = job(&mut level, item);
                        *out[i].lock().expect("a slot") = Some(r);
                    }
                });
            }
        });
        out.into_iter()
            .map(|m| m.into_inner().expect("a slot").expect("every item ran"))
            .collect()
    }
}

/// The findings of `report` rejudged with the walks of Jolt's `character`.
pub fn jolt_rows(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
    pool: &JoltPool,
    character: &JoltCharacter,
) -> Vec<Row> {
    let walks: Vec<Vec<Option<Walk>>> = pool.map(&report.findings, |level, f| {
        f.walks
            .iter()
            // A walk of no frames: the check found no start (no floor,
            // no room), so neither controller walks it.
            .map(|w| (w.summary.frames > 0).then(|| level.walk(world, character, &w.spec)))
            .collect()
    });
    report
        .findings
        .iter()
        .zip(walks)
        .map(|(f, walks)| Row {
            ours: f.clone(),
            theirs: rejudge(world, settings, f, &walks),
        })
        .collect()
}

/// The agreement of a list of rows: (agreeing, all), and among the
/// findings both tested (neither untested).
#[derive(Clone, Copy, Debug)]
pub struct Agreement {
    /// Findings with the same verdict.
    pub agree: usize,
    /// All findings.
    pub total: usize,
    /// Findings both tested, with the same verdict.
    pub both_tested_agree: usize,
    /// Findings both tested.
    pub both_tested: usize,
}

impl Agreement {
    /// The agreement of `rows`.
    pub fn of(rows: &[Row]) -> Self {
        let same = |r: &Row| r.ours.verdict == r.theirs.verdict;
        let tested: Vec<&Row> = rows
            .iter()
            .filter(|r| {
                r.ours.verdict != Verdict::Untested && r.theirs.verdict != Verdict::Untested
            })
            .collect();
        Agreement {
            agree: rows.iter().filter(|r| same(r)).count(),
            total: rows.len(),
            both_tested_agree: tested.iter().filter(|r| same(r)).count(),
            both_tested: tested.len(),
        }
    }

    /// The share that agrees, 0..1.
    pub fn share(&self) -> f64 {
        self.agree as f64 / self.total.max(1) as f64
    }

    /// The share that agrees among the findings both tested, 0..1.
    pub fn tested_share(&self) -> f64 {
        self.both_tested_agree as f64 / self.both_tested.max(1) as f64
    }
}

/// A verdict's name.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Climbs => "climbs",
        Verdict::Passes => "passes",
        Verdict::Blocked => "blocked",
        Verdict::Stalls => "stalls",
        Verdict::Untested => "untested",
    }
}

/// The finding's measurement in a few words.
pub fn measured(f: &Finding) -> String {
    let x = &f.feature;
    let m = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    match x.kind {
        FeatureKind::Step => format!(
            "step riser {} tread {} over {:.2}",
            m(x.riser_height_m),
            m(x.tread_depth_m),
            x.extent_m
        ),
        FeatureKind::Slope => format!("slope {}° over {:.2}", m(x.slope_deg), x.extent_m),
        FeatureKind::Opening => format!("opening {} x {}", m(x.width_m), m(x.height_m)),
        FeatureKind::Ceiling => format!("ceiling {}", m(x.height_m)),
    }
}

/// Prints the agreement of `rows` on `name`: the matrix of verdicts and
/// every disagreement with where each walk ended.
pub fn print(name: &str, rows: &[Row]) -> Agreement {
    let a = Agreement::of(rows);
    println!(
        "{name}: {}/{} verdicts agree ({:.1} %); both tested: {}/{} ({:.1} %)",
        a.agree,
        a.total,
        100.0 * a.share(),
        a.both_tested_agree,
        a.both_tested,
        100.0 * a.tested_share()
    );
    let mut matrix: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in rows {
        *matrix
            .entry((verdict_name(r.ours.verdict), verdict_name(r.theirs.verdict)))
            .or_default() += 1;
    }
    for ((o, t), n) in &matrix {
        println!("  ours {o:9} jolt {t:9} {n:5}");
    }
    for r in rows.iter().filter(|r| r.ours.verdict != r.theirs.verdict) {
        let f = &r.ours.feature;
        println!(
            "  DIFF {} at ({:.2}, {:.2}, {:.2}): ours {}, jolt {}",
            measured(&r.ours),
            f.position.x,
            f.position.y,
            f.position.z,
            verdict_name(r.ours.verdict),
            verdict_name(r.theirs.verdict)
        );
        println!("    ours: {}", r.ours.reason);
        println!("    jolt: {}", r.theirs.reason);
        for (o, t) in r.ours.walks.iter().zip(&r.theirs.walks) {
            let (po, pt) = (o.summary.final_position, t.summary.final_position);
            println!(
                "    walk {:.0}°: ours ends ({:.2}, {:.2}, {:.2}) passed {} {}; jolt ends ({:.2}, {:.2}, {:.2}) passed {} {}",
                o.angle_deg,
                po.x,
                po.y,
                po.z,
                o.passed,
                o.untested.as_deref().unwrap_or(""),
                pt.x,
                pt.y,
                pt.z,
                t.passed,
                t.untested.as_deref().unwrap_or("")
            );
        }
    }
    a
}

/// How many of `report`'s verdicts come back when its own walks are
/// replayed and rejudged (the harness's own check: `rejudge` finds each
/// walk's aim again from its spec).
pub fn self_agreement(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
) -> usize {
    report
        .findings
        .par_iter()
        .filter(|f| {
            let walks: Vec<Option<Walk>> = f
                .walks
                .iter()
                .map(|w| {
                    (w.summary.frames > 0).then(|| {
                        walk(world, settings, &w.spec, WalkTrace::FramesOnly).expect("walks")
                    })
                })
                .collect();
            rejudge(world, settings, f, &walks).verdict == f.verdict
        })
        .count()
}

/// Quake's liquids and teleporters (as the main crate's `check_levels.rs`).
const QUAKE_NON_COLLIDING: [&str; 5] = ["*water*", "*slime*", "*lava*", "*blood*", "*tele*"];

/// The shared levels: (file, Quake map, scale), as the main crate's
/// `check_levels.rs` and `rapier_peer.rs` list them.
pub const SHARED: [(&str, bool, f64); 11] = [
    ("galleria_map.obj", false, 1.0),
    ("galleria_collision.obj", false, 1.0),
    ("galleria_stairs.obj", false, 1.0),
    ("threejs_collision_world.obj", false, 1.0),
    ("machu_picchu_level.obj", false, 1.0),
    ("parry_stairs.obj", false, 1.0),
    ("librequake_e0m2.obj", true, 1.0),
    ("librequake_e0m8.obj", true, 1.0),
    ("librequake_based.obj", true, 1.0),
    ("sibenik_dabrovic_75k.obj.gz", false, 1.0),
    ("conference_ward_331k.obj.gz", false, 0.003),
];

/// The folder of the shared levels (`../shared/levels` beside the
/// repository), if present.
pub fn shared_levels() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/levels");
    dir.is_dir().then_some(dir)
}

/// A shared level as `check` loads it (the Quake maps Z up, in inches,
/// objects by group and material, liquids and teleporters not
/// colliding), and its settings with the capsule.
pub fn load_shared(file: &str, quake: bool, scale: f64) -> Option<(Level, SlideSettings)> {
    let path = shared_levels()?.join(file);
    let raw = std::fs::read(&path).ok()?;
    let text = if file.ends_with(".gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&raw[..]), &mut text)
            .expect("the shared level unpacks");
        text
    } else {
        String::from_utf8(raw).expect("the shared level is text")
    };
    let options = if quake {
        ImportOptions {
            up: UpAxis::Z,
            scale: 0.0254,
            objects_by: ObjectsBy::GroupAndMaterial,
            ..ImportOptions::default()
        }
    } else {
        ImportOptions {
            scale,
            ..ImportOptions::default()
        }
    };
    let (mesh, _) = import_obj_bytes(text.as_bytes(), &path, &options).expect("imports");
    let mut settings = SlideSettings::default();
    if quake {
        settings.level.non_colliding = QUAKE_NON_COLLIDING.map(String::from).to_vec();
    }
    Some((Level::from_mesh(file, mesh), capsule_settings(settings)))
}
