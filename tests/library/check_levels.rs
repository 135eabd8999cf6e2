//! The level checks on every level in `../shared/levels/` (skipped, with a
//! message, when it is absent):
//!
//! - every `climbs` and `passes` is backed by its walk: each walk that
//!   tested it is replayed here and read with this file's own rays (not
//!   the checks' code): it started over the feature's floor (or lower down
//!   its own staircase), and a step was then stood on at the riser's
//!   height past the riser, an opening crossed between its jambs at its
//!   floor's level, a ceiling walked under at its floor's level;
//! - one row per real riser: findings that are the same riser (same
//!   line, same way up, overlapping) are counted, at most 1.3 rows a riser;
//! - turning every face over changes no finding, on any level.
//!
//! The LibreQuake maps load as the engine has them (Z up, inches) with
//! their materials as objects and their liquids made non-colliding by the
//! settings' `[level]` patterns, as docs/checks.md shows. Prints each level's
//! counts (the table in docs/checks.md comes from here):
//! `cargo test --no-default-features --test library check_levels -- --nocapture`.

use collidoscope::analysis::checks::{CheckReport, Finding, Verdict, check_level};
use collidoscope::analysis::features::FeatureKind;
use collidoscope::analysis::public_levels::{PUBLIC_LEVELS, PublicLevel};
use collidoscope::bvh::{BvhScratch, QueryStats};
use collidoscope::character::{EngineProfile, WalkTrace, walk};
use collidoscope::collide::{CollisionWorld, SlideSettings, objects_named};
use collidoscope::level::Level;
use collidoscope::level::import::import_obj_bytes;
use glam::{DVec3, Vec3};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

fn path_of(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/levels")
        .join(file)
}

/// The level as the file has it, or with every face turned over.
fn load(s: &PublicLevel, flipped: bool) -> Level {
    let path = path_of(s.file);
    let raw = std::fs::read(&path).expect("the shared level reads");
    let text = if s.file.ends_with(".gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&raw[..]), &mut text)
            .expect("the shared level unpacks");
        text
    } else {
        String::from_utf8(raw).expect("the shared level is text")
    };
    let text = if flipped {
        text.lines()
            .map(|l| match l.strip_prefix("f ") {
                // The first corner stays first, so a polygon is cut into
                // the same triangles, each turned over.
                Some(rest) => {
                    let mut corners: Vec<&str> = rest.split_whitespace().collect();
                    corners[1..].reverse();
                    format!("f {}", corners.join(" "))
                }
                None => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        text
    };
    let (mesh, _) = import_obj_bytes(text.as_bytes(), &path, &s.import_options()).expect("imports");
    Level::from_mesh(s.file, mesh)
}

fn check(level: &Level, settings: &SlideSettings, colliding: &[bool]) -> CheckReport {
    check_level(
        level,
        level.world_with(colliding),
        settings,
        &|_| {},
        &AtomicBool::new(false),
    )
    .expect("a floor to check")
    .expect("not cancelled")
}

/// The first colliding surface straight below `p` within `max`: its height.
fn floor_below(world: CollisionWorld<'_>, p: DVec3, max: f64) -> Option<f64> {
    let mut scratch = BvhScratch::default();
    let mut stats = QueryStats::default();
    let mut y = p.y;
    while p.y - y < max {
        let from = DVec3::new(p.x, y, p.z).as_vec3();
        let left = (max - (p.y - y)) as f32;
        let hit = world.bvh.ray_cast(
            world.mesh,
            from,
            Vec3::NEG_Y,
            left,
            &mut scratch,
            &mut stats,
        )?;
        let at = y - f64::from(hit.t);
        if world.triangle_collides(hit.triangle) {
            return Some(at);
        }
        y = at - 1e-4;
    }
    None
}

/// The highest floor under a body of horizontal radius `r` over `p`: rays
/// from its centre and four points half-way to its rim.
fn floor_under(world: CollisionWorld<'_>, p: DVec3, r: f64, max: f64) -> Option<f64> {
    let h = 0.5 * r;
    [(0.0, 0.0), (h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h)]
        .into_iter()
        .filter_map(|(dx, dz)| floor_below(world, p + DVec3::new(dx, 0.0, dz), max))
        .reduce(f64::max)
}

/// Whether finding `f`'s verdict is backed by its walks, replayed here;
/// `Err` says what does not hold.
fn backed(world: CollisionWorld<'_>, settings: &SlideSettings, f: &Finding) -> Result<(), String> {
    let feature = &f.feature;
    // The walks that got over, up, through or under it (a walk that went
    // round a feature the character fits backs nothing and is not read).
    let tested: Vec<_> = f
        .walks
        .iter()
        .filter(|w| w.untested.is_none() && w.passed)
        .collect();
    if tested.is_empty() {
        return Err("no walk passed it".into());
    }
    let ry = settings.radii[1];
    let r = settings.radii[0].min(settings.radii[2]);
    let step = settings.character.max_step_height_m;
    for w in tested {
        let replay =
            walk(world, settings, &w.spec, WalkTrace::FramesOnly).map_err(|e| e.to_string())?;
        let floor_y = feature.position.y;
        let below = match feature.kind {
            FeatureKind::Step if feature.flight.is_some() => 1.0,
            FeatureKind::Opening | FeatureKind::Ceiling => 1.0,
            _ => 0.0,
        };
        let start_floor = floor_under(world, w.spec.from, r, ry + 2.0 + below)
            .ok_or(format!("the start {:?} is over nothing", w.spec.from))?;
        if start_floor > floor_y + 0.1 || start_floor < floor_y - 0.1 - below {
            return Err(format!(
                "the walk at {:.0}° started over a floor at {start_floor:.2} m, the feature's is {floor_y:.2} m (from {:?}, flight {:?})",
                w.angle_deg, w.spec.from, feature.flight
            ));
        }
        let normal = if w.spec.direction.dot(feature.direction) >= 0.0 {
            feature.direction
        } else {
            -feature.direction
        };
        let frames: Vec<(DVec3, bool, Option<f64>)> = replay
            .frames
            .iter()
            .map(|fr| {
                let p = fr.after.position;
                (
                    p,
                    fr.after.grounded,
                    floor_under(world, p, r, ry + 2.0 * step + 1.0),
                )
            })
            .collect();
        let past = |p: DVec3| (p - feature.position).dot(normal);
        let at = |floor: Option<f64>, y: f64, tol: f64| floor.is_some_and(|h| (h - y).abs() <= tol);
        let ok = match (feature.kind, f.verdict) {
            (FeatureKind::Step, Verdict::Climbs) => {
                let top = floor_y + feature.riser_height_m.unwrap();
                // On a staircase the footprint's highest floor may be the
                // next tread up: at most one step height above the top.
                let next_up = |fl: Option<f64>| {
                    feature.flight.is_some() && fl.is_some_and(|h| h > top && h <= top + step + 0.1)
                };
                frames
                    .iter()
                    .any(|&(p, g, fl)| g && past(p) > 0.0 && (at(fl, top, 0.1) || next_up(fl)))
            }
            (FeatureKind::Slope, Verdict::Climbs) => frames
                .iter()
                .any(|&(_, g, fl)| g && fl.is_some_and(|h| h > start_floor + 0.05)),
            (FeatureKind::Opening, Verdict::Passes) => {
                let line = DVec3::new(-normal.z, 0.0, normal.x);
                let half = 0.5 * feature.width_m.unwrap() + 0.1;
                let crossing = frames.iter().find(|(p, _, _)| past(*p) >= 0.0);
                crossing.is_some_and(|&(p, _, fl)| {
                    (p - feature.position).dot(line).abs() <= half && at(fl, floor_y, step + 0.1)
                }) && frames
                    .iter()
                    .any(|(p, _, _)| past(*p) > 0.5 * feature.extent_m + 0.3)
            }
            (FeatureKind::Ceiling, Verdict::Passes) => frames.iter().any(|&(p, _, fl)| {
                let h = DVec3::new(p.x - feature.position.x, 0.0, p.z - feature.position.z);
                h.length() <= 0.25 && at(fl, floor_y, 0.1)
            }),
            _ => true,
        };
        if !ok {
            return Err(format!(
                "the walk at {:.0}° from {:.2?} does not show it: {}",
                w.angle_deg, w.spec.from, f.reason
            ));
        }
    }
    Ok(())
}

/// Step findings that repeat a riser another finding already is: the
/// same way up (within 10°), on the same line (within 5 cm) and level
/// (within 5 cm), overlapping along it.
fn repeated_risers(report: &CheckReport) -> usize {
    let steps: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| f.feature.kind == FeatureKind::Step)
        .collect();
    let same = |a: &Finding, b: &Finding| {
        let (a, b) = (&a.feature, &b.feature);
        let along = DVec3::new(-a.direction.z, 0.0, a.direction.x);
        let d = b.position - a.position;
        a.direction.dot(b.direction) > 10f64.to_radians().cos()
            && d.dot(a.direction).abs() < 0.05
            && d.y.abs() < 0.05
            && d.dot(along).abs() <= 0.5 * (a.extent_m + b.extent_m) + 0.05
    };
    (0..steps.len())
        .filter(|&i| (0..i).any(|j| same(steps[i], steps[j])))
        .count()
}

fn print_counts(name: &str, report: &CheckReport, backed: usize, backable: usize) {
    let mut rows = String::new();
    for kind in [
        FeatureKind::Step,
        FeatureKind::Opening,
        FeatureKind::Slope,
        FeatureKind::Ceiling,
    ] {
        let of: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.feature.kind == kind)
            .collect();
        let n = |v: Verdict| of.iter().filter(|f| f.verdict == v).count();
        rows.push_str(&format!(
            " {kind:?} {} ({} ok, {} blocked, {} stalls, {} untested);",
            of.len(),
            n(Verdict::Climbs) + n(Verdict::Passes),
            n(Verdict::Blocked),
            n(Verdict::Stalls),
            n(Verdict::Untested)
        ));
    }
    let c = report.counts;
    println!(
        "{name}: {} findings;{rows} untested share {:.0} %; {backed} of {backable} climbs/passes backed; {} marginal; found in {:.0} ms, walked in {:.0} ms",
        report.findings.len(),
        100.0 * c.untested as f64 / report.findings.len().max(1) as f64,
        c.marginal,
        report.find_ms,
        report.walk_ms
    );
}

#[test]
fn every_climb_and_pass_on_the_shared_levels_is_backed_by_its_walk_and_flipping_changes_nothing() {
    if !path_of(PUBLIC_LEVELS[0].file).is_file() {
        println!("SKIPPED: ../shared/levels is absent");
        return;
    }
    for s in &PUBLIC_LEVELS {
        let settings = s.settings();
        let level = load(s, false);
        let (named, _, _) = objects_named(level.mesh(), &settings.level.non_colliding);
        let colliding: Vec<bool> = named.iter().map(|n| !n).collect();
        let world = level.world_with(&colliding);
        let report = check(&level, &settings, &colliding);
        assert!(!report.inside_out, "{}: judged inside out", s.file);
        let mut failures = Vec::new();
        let mut backable = 0;
        for f in &report.findings {
            if matches!(f.verdict, Verdict::Climbs | Verdict::Passes) {
                backable += 1;
                if let Err(e) = backed(world, &settings, f) {
                    failures.push(format!(
                        "{:?} at {:.2?}: {e}",
                        f.feature.kind, f.feature.position
                    ));
                }
            }
        }
        print_counts(s.file, &report, backable - failures.len(), backable);
        assert!(failures.is_empty(), "{}: {failures:#?}", s.file);
        // One row per riser.
        let steps = report
            .findings
            .iter()
            .filter(|f| f.feature.kind == FeatureKind::Step)
            .count();
        let repeated = repeated_risers(&report);
        let distinct = steps - repeated;
        println!("  {steps} step rows, {distinct} distinct risers");
        assert!(
            steps as f64 <= 1.3 * distinct.max(1) as f64,
            "{}: {steps} rows for {distinct} risers",
            s.file
        );
        // Every face turned over: the same findings, the level reported.
        let flipped = load(s, true);
        let back = check(&flipped, &settings, &colliding);
        assert!(
            back.inside_out,
            "{}: the flipped level is not reported",
            s.file
        );
        // Nothing may differ: the finder's vertical samples and rays are
        // watertight and blind to winding, so the flipped level is sampled
        // bit for bit alike.
        assert_eq!(
            back.findings.len(),
            report.findings.len(),
            "{}: findings when flipped",
            s.file
        );
        let differ: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|x| {
                !back.findings.iter().any(|y| {
                    y.feature.kind == x.feature.kind
                        && y.verdict == x.verdict
                        && (y.feature.position - x.feature.position).length() < 0.3
                })
            })
            .collect();
        for x in &differ {
            let near = back
                .findings
                .iter()
                .filter(|y| y.feature.kind == x.feature.kind)
                .min_by(|a, b| {
                    let d = |y: &&Finding| (y.feature.position - x.feature.position).length();
                    d(a).total_cmp(&d(b))
                });
            println!(
                "    differs: {:?} {:?} at {:.2?}: {}\n      flipped nearest: {}",
                x.feature.kind,
                x.verdict,
                x.feature.position,
                x.reason,
                near.map_or("none".into(), |y| format!(
                    "{:?} at {:.2?}: {}",
                    y.verdict, y.feature.position, y.reason
                ))
            );
        }
        let missing = differ.len();
        println!(
            "  flipped: {missing} of {} findings differ",
            report.findings.len()
        );
        assert_eq!(missing, 0, "{}: findings change when flipped", s.file);
    }
}

#[test]
fn the_quake_patterns_name_the_liquids_and_nothing_else() {
    let s = &PUBLIC_LEVELS[6];
    if !path_of(s.file).is_file() {
        println!("SKIPPED: ../shared/levels is absent");
        return;
    }
    // e0m2: *water2 (839 triangles), *water1 (24), *blood1 (22) and its
    // two teleporters' surfaces.
    let level = load(s, false);
    let patterns = s.settings().level.non_colliding;
    let (named, objects, triangles) = objects_named(level.mesh(), &patterns);
    assert!(
        objects >= 5 && triangles >= 885,
        "{objects} objects, {triangles} triangles"
    );
    for (o, n) in level.mesh().objects().iter().zip(&named) {
        let material = o.name.rsplit(':').next().unwrap_or("");
        let liquid = material.starts_with('*');
        assert_eq!(*n, liquid, "{}", o.name);
    }
    // The galleria has none.
    let g = load(&PUBLIC_LEVELS[0], false);
    assert_eq!(objects_named(g.mesh(), &patterns).1, 0);
}

/// Whether a replayed walk stood on step `f`'s upper floor, past its riser.
fn stood_on_top(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Finding,
    spec: &collidoscope::character::WalkSpec,
) -> bool {
    let r = settings.radii[0].min(settings.radii[2]);
    let reach = settings.radii[1] + 2.0 * settings.character.max_step_height_m + 1.0;
    let top = f.feature.position.y + f.feature.riser_height_m.unwrap();
    let step = settings.character.max_step_height_m;
    let replay = walk(world, settings, spec, WalkTrace::FramesOnly).unwrap();
    replay.frames.iter().any(|fr| {
        let p = fr.after.position;
        // At the riser's top, or (on a staircase) one tread higher.
        let stood = |h: f64| {
            (h - top).abs() <= 0.1
                || (f.feature.flight.is_some() && h > top && h <= top + step + 0.1)
        };
        fr.after.grounded
            && (p - f.feature.position).dot(f.feature.direction) > 0.0
            && floor_under(world, p, r, reach).is_some_and(stood)
    })
}

#[test]
fn a_step_that_another_frame_rate_flips_is_marginal_and_really_flips() {
    let s = &PUBLIC_LEVELS[9];
    if !path_of(s.file).is_file() {
        println!("SKIPPED: ../shared/levels is absent");
        return;
    }
    // Sibenik's chancel stairs (0.2 m risers on 0.32 m treads) with the
    // default character: the check finds walks there that climb at 60 Hz
    // and are refused at 30 Hz; each is replayed here at both rates.
    let settings = s.settings();
    let level = load(s, false);
    let colliding = vec![true; level.mesh().objects().len()];
    let report = check(&level, &settings, &colliding);
    let world = level.world();
    let flipped: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| {
            f.marginal
                .as_deref()
                .is_some_and(|m| m.contains(" Hz but "))
        })
        .collect();
    assert!(!flipped.is_empty(), "no step flips with the frame rate");
    for f in flipped {
        let note = f.marginal.as_deref().unwrap();
        // "... at 60 Hz but is refused at 30 Hz": the last number.
        let rate: f64 = note
            .rsplit(" at ")
            .next()
            .and_then(|t| t.trim_end_matches(" Hz").parse().ok())
            .expect("the rate");
        let climbed = f.verdict == Verdict::Climbs;
        let deciding = f
            .walks
            .iter()
            .find(|w| w.untested.is_none() && w.passed == climbed)
            .expect("the deciding walk");
        assert_eq!(
            stood_on_top(world, &settings, f, &deciding.spec),
            climbed,
            "{note}"
        );
        let mut at = settings.clone();
        at.character.frame_rate_hz = rate;
        assert_eq!(
            stood_on_top(world, &at, f, &deciding.spec),
            !climbed,
            "{note}"
        );
    }
}

#[test]
fn under_an_engine_profile_every_climb_and_pass_on_the_shared_levels_is_backed_by_its_walk() {
    // Jolt's rules differ most from the own model (the whole step, the
    // capsule riding over edges, the second try ahead): its verdicts must
    // say what its own walks did on every real level too.
    if !path_of(PUBLIC_LEVELS[0].file).is_file() {
        println!("SKIPPED: ../shared/levels is absent");
        return;
    }
    for s in &PUBLIC_LEVELS {
        let mut settings = s.settings();
        settings.character.engine = EngineProfile::Jolt;
        let level = load(s, false);
        let (named, _, _) = objects_named(level.mesh(), &settings.level.non_colliding);
        let colliding: Vec<bool> = named.iter().map(|n| !n).collect();
        let world = level.world_with(&colliding);
        let report = check(&level, &settings, &colliding);
        let mut failures = Vec::new();
        let mut backable = 0;
        for f in &report.findings {
            if matches!(f.verdict, Verdict::Climbs | Verdict::Passes) {
                backable += 1;
                if let Err(e) = backed(world, &settings, f) {
                    failures.push(format!(
                        "{:?} at {:.2?}: {e}",
                        f.feature.kind, f.feature.position
                    ));
                }
            }
        }
        print_counts(
            &format!("{} (jolt)", s.file),
            &report,
            backable - failures.len(),
            backable,
        );
        assert!(failures.is_empty(), "{} (jolt): {failures:#?}", s.file);
    }
}
