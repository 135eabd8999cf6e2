//! Frame-cost measurement on the 331k-triangle conference level (scale
//! 0.003), headless: building the overlays of a full trace, uploading them,
//! and drawing 1280 × 720 frames. Prints a table for BENCHMARKS.md
//! ("## GUI frame"). Ignored by default (it loads a large level); run with
//!
//! ```text
//! cargo test --release --test render_frame_time -- --ignored --nocapture
//! ```
//!
//! Skips with a message without `../shared/levels` or an EGL device.
#![cfg(feature = "gui")]

mod render_support;

use collidoscope::collide::debug_draw::{OverlayOptions, OverlayToggles, primitives_for_trace};
use collidoscope::collide::{SlideResult, SlideSettings, TraceDetail, slide};
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::level::{ImportOptions, Level};
use collidoscope::math::Aabb;
use collidoscope::render::{
    CameraView, LevelDraw, RenderOptions, SceneRenderer, StrokeSizes, build_instances,
};
use glam::DVec3;
use std::path::Path;
use std::time::{Duration, Instant};

const LEVEL: &str = "../shared/levels/conference_ward_331k.obj.gz";

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The move with the most iterations among a fixed set of starts and
/// directions through the room (full trace detail, as the GUI records).
fn busiest_move(level: &Level, s: &SlideSettings) -> SlideResult {
    let b = level.mesh().bounds();
    let (lo, hi) = (b.min.as_dvec3(), b.max.as_dvec3());
    let mut best: Option<SlideResult> = None;
    for i in 0..64u32 {
        let f =
            |k: u32| (i.wrapping_mul(2654435761u32).wrapping_add(k * 40503) % 1000) as f64 / 1000.0;
        let start =
            lo + (hi - lo) * DVec3::new(0.2 + 0.6 * f(1), 0.15 + 0.3 * f(2), 0.2 + 0.6 * f(3));
        let vel = DVec3::new(f(4) - 0.5, -0.6, f(5) - 0.5) * 6.0;
        let Some(r) = slide(level.world(), s, start, vel, TraceDetail::Full) else {
            continue;
        };
        if best
            .as_ref()
            .is_none_or(|b| r.iterations.len() > b.iterations.len())
        {
            best = Some(r);
        }
    }
    best.expect("some move is valid")
}

#[test]
#[ignore = "measurement on a 331k-triangle level; run with --ignored --nocapture"]
fn conference_level_frame_cost() {
    if !Path::new(LEVEL).exists() {
        eprintln!("skipping: {LEVEL} not found");
        return;
    }
    let gl = match render_support::headless_gl() {
        Ok(gl) => gl,
        Err(e) => {
            eprintln!("skipping: {e}");
            return;
        }
    };
    let options = ImportOptions {
        scale: 0.003,
        ..ImportOptions::default()
    };
    let level = Level::load(Path::new(LEVEL), &options).expect("conference level loads");
    let s = SlideSettings {
        gravity: [0.0, -0.5, 0.0],
        ..SlideSettings::default()
    };
    let radii = s.radii_vec();
    let trace = busiest_move(&level, &s).iterations;

    // Overlays for every step of the trace, everything on.
    // Everything on and no cap on boxes: the worst case.
    let options = OverlayOptions {
        max_boxes_per_kind: usize::MAX,
        ..OverlayOptions::new(OverlayToggles::all(true), 6)
    };
    let mut build = Vec::new();
    let mut prims = Vec::new();
    for current in 0..trace.len() {
        let t = Instant::now();
        let p = primitives_for_trace(
            &trace,
            current,
            radii,
            CharacterShape::Ellipsoid,
            level.mesh(),
            level.bvh(),
            &options,
        )
        .primitives;
        build.push(t.elapsed());
        if p.len() > prims.len() {
            prims = p;
        }
    }
    let t = Instant::now();
    let (opaque, translucent) = build_instances(&prims, &StrokeSizes::for_probe_radius(0.4));
    let instances_time = t.elapsed();

    let mut r = SceneRenderer::try_new(gl.gl.clone()).expect("three-d context");
    let t = Instant::now();
    r.set_level(level.mesh(), &[]);
    let upload_level = t.elapsed();
    r.set_probes(&[(
        trace[0].start,
        radii,
        CharacterShape::Ellipsoid,
        [0.2, 0.5, 1.0, 1.0],
    )]);
    let t = Instant::now();
    r.set_overlays(&prims);
    let upload_overlays = t.elapsed();

    let whole_level = CameraView::framing(&level.mesh().bounds());
    // What Frame selection (F) shows with the probe selected: its start,
    // four radii around, seen from the whole-level view's direction.
    let close_up = {
        let c = trace[0].start.as_vec3();
        let r = (radii * 4.0).as_vec3();
        whole_level.reframed(&Aabb::from_corners(c - r, c + r))
    };
    // A player's view: at the probe's eye height, looking level along +x.
    let eye_level = {
        let eye = trace[0].start.as_vec3() + glam::Vec3::Y * 0.5;
        CameraView {
            eye,
            target: eye + glam::Vec3::X * 5.0,
            ..close_up
        }
    };
    // A moving view (the camera nudged every frame, as while orbiting):
    // every frame draws the level.
    let frame_from = |r: &mut SceneRenderer, camera: &CameraView, opts: RenderOptions| {
        // The first frame compiles the shaders: keep it out of the numbers.
        r.render_image(camera, 1280, 720, &opts);
        let (mut cpu, mut wall) = (Vec::new(), Vec::new());
        for i in 0..5 {
            let nudged = CameraView {
                eye: camera.eye + glam::Vec3::X * (i + 1) as f32 * 1e-4,
                ..*camera
            };
            let t = Instant::now();
            r.render_image(&nudged, 1280, 720, &opts);
            wall.push(t.elapsed());
            cpu.push(r.last_render_time());
            assert_eq!(r.last_level_draw(), LevelDraw::Direct);
        }
        (median(cpu), median(wall))
    };
    // A still view (stepping, hovering, toggling overlays): the level's
    // image is copied.
    let still_from = |r: &mut SceneRenderer, camera: &CameraView, opts: RenderOptions| {
        r.render_image(camera, 1280, 720, &opts);
        r.render_image(camera, 1280, 720, &opts);
        let (mut cpu, mut wall) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            let t = Instant::now();
            r.render_image(camera, 1280, 720, &opts);
            wall.push(t.elapsed());
            cpu.push(r.last_render_time());
            assert_eq!(r.last_level_draw(), LevelDraw::ImageCopied);
        }
        (median(cpu), median(wall))
    };
    let frame = |r: &mut SceneRenderer, opts: RenderOptions| frame_from(r, &whole_level, opts);
    let (cpu, wall) = frame(&mut r, RenderOptions::default());
    let wire = RenderOptions {
        wireframe: true,
        ..RenderOptions::default()
    };
    let (cpu_wire, wall_wire) = frame(&mut r, wire);
    // What the window does when a step lands: build the primitives and
    // upload them, then draw. With the GUI's default box cap, for the
    // default toggles and for everything on.
    let mut capped = Vec::new();
    for (name, toggles) in [
        ("default overlays", OverlayToggles::default()),
        ("every overlay", OverlayToggles::all(true)),
    ] {
        let t = Instant::now();
        let set = primitives_for_trace(
            &trace,
            trace.len() - 1,
            radii,
            CharacterShape::Ellipsoid,
            level.mesh(),
            level.bvh(),
            &OverlayOptions::new(toggles, 6),
        );
        let build_cpu = t.elapsed();
        r.set_overlays(&set.primitives);
        let mut uploads = vec![t.elapsed() - build_cpu];
        for _ in 0..4 {
            let t = Instant::now();
            r.set_overlays(&set.primitives);
            uploads.push(t.elapsed());
        }
        let step_cpu = build_cpu + median(uploads);
        let (cpu, wall) = frame(&mut r, RenderOptions::default());
        let still = still_from(&mut r, &whole_level, RenderOptions::default());
        let hidden: usize = set.hidden.iter().map(|h| h.1).sum();
        capped.push((
            name,
            set.primitives.len(),
            hidden,
            build_cpu,
            step_cpu,
            (cpu, wall),
            still,
        ));
    }
    let default_prims = primitives_for_trace(
        &trace,
        trace.len() - 1,
        radii,
        CharacterShape::Ellipsoid,
        level.mesh(),
        level.bvh(),
        &OverlayOptions {
            max_boxes_per_kind: usize::MAX,
            ..OverlayOptions::new(OverlayToggles::default(), 6)
        },
    )
    .primitives;
    r.set_overlays(&default_prims);
    let (cpu_default, wall_default) = frame(&mut r, RenderOptions::default());
    let still_default = still_from(&mut r, &whole_level, RenderOptions::default());
    let still_close = still_from(&mut r, &close_up, RenderOptions::default());
    let (cpu_close, wall_close) = frame_from(&mut r, &close_up, RenderOptions::default());
    r.set_overlays(&[]);
    let (cpu_bare, wall_bare) = frame(&mut r, RenderOptions::default());
    let (cpu_bare_close, wall_bare_close) = frame_from(&mut r, &close_up, RenderOptions::default());
    let (cpu_bare_eye, wall_bare_eye) = frame_from(&mut r, &eye_level, RenderOptions::default());
    let still_bare = still_from(&mut r, &whole_level, RenderOptions::default());

    println!(
        "level: {} triangles, {} objects",
        level.mesh().triangle_count(),
        level.mesh().objects().len()
    );
    println!(
        "trace: {} iterations, largest overlay set {} primitives",
        trace.len(),
        prims.len()
    );
    println!(
        "primitives_for_trace (all overlays on): median {:.3} ms, max {:.3} ms",
        ms(median(build.clone())),
        ms(build.iter().copied().max().unwrap_or_default())
    );
    println!(
        "build_instances: {:.3} ms ({} opaque + {} translucent shapes)",
        ms(instances_time),
        opaque.len(),
        translucent.len()
    );
    println!(
        "set_overlays (instances + upload): {:.3} ms",
        ms(upload_overlays)
    );
    println!("set_level (once per level): {:.1} ms", ms(upload_level));
    println!(
        "frame 1280x720, CPU issuing GL: {:.3} ms; wall incl. llvmpipe raster + readback: {:.1} ms",
        ms(cpu),
        ms(wall)
    );
    println!(
        "frame with wireframe, CPU: {:.3} ms; wall: {:.1} ms",
        ms(cpu_wire),
        ms(wall_wire)
    );
    println!(
        "frame, default overlays, no box cap ({} primitives), CPU: {:.3} ms; wall: {:.1} ms",
        default_prims.len(),
        ms(cpu_default),
        ms(wall_default)
    );
    println!(
        "frame, level only, CPU: {:.3} ms; wall: {:.1} ms",
        ms(cpu_bare),
        ms(wall_bare)
    );
    println!(
        "close-up on the probe (F), default overlays, no box cap, CPU: {:.3} ms; wall: {:.1} ms",
        ms(cpu_close),
        ms(wall_close)
    );
    println!(
        "close-up on the probe (F), level only, CPU: {:.3} ms; wall: {:.1} ms",
        ms(cpu_bare_close),
        ms(wall_bare_close)
    );
    println!(
        "eye level at the probe, level only, CPU: {:.3} ms; wall: {:.1} ms",
        ms(cpu_bare_eye),
        ms(wall_bare_eye)
    );
    for (name, (cpu, wall)) in [
        ("whole level, level only", still_bare),
        ("whole level, default overlays, no box cap", still_default),
        (
            "close-up on the probe (F), default overlays, no box cap",
            still_close,
        ),
    ] {
        println!(
            "still view (level image copied), {name}, CPU: {:.3} ms; wall: {:.1} ms",
            ms(cpu),
            ms(wall)
        );
    }
    for (name, count, hidden, build_cpu, step_cpu, (cpu, wall), (still_cpu, still_wall)) in capped {
        println!(
            "{name}, default box cap: {count} primitives ({hidden} boxes left out); \
             primitives {:.3} ms, + set_overlays {:.3} ms; frame CPU {:.3} ms, wall {:.1} ms; \
             still view CPU {:.3} ms, wall {:.1} ms",
            ms(build_cpu),
            ms(step_cpu),
            ms(cpu),
            ms(wall),
            ms(still_cpu),
            ms(still_wall)
        );
    }
    assert!(!prims.is_empty());
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}
