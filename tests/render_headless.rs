//! Renders a tiny level with a probe and overlays off screen (EGL device, no
//! display) and checks pixels found with `CameraView::world_to_screen`: the
//! background where nothing is, the floor's colour, the probe, an arrow, a
//! hit triangle lying in the floor's plane (it must win the depth test),
//! box edges drawn as lines (the bottom ones in the floor's plane), object
//! hiding, the wireframe, the grid and the axes.
//!
//! Skips with a message when no EGL device can give a GL context.
#![cfg(feature = "gui")]

mod render_support;

use collidoscope::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use collidoscope::geometry::shape::CharacterShape;
use collidoscope::math::{Aabb, Vec3};
use collidoscope::mesh::TriMesh;
use collidoscope::render::{CameraView, RenderOptions, SceneRenderer};
use glam::DVec3;

const W: u32 = 320;
const H: u32 = 240;
const BACKGROUND: [u8; 3] = [28, 31, 36];

type Image = Vec<[u8; 4]>;

/// A 10 m floor (object 0, green) and a 1 m crate (object 1, red).
fn level() -> TriMesh {
    let mut positions = vec![
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, -5.0),
        Vec3::new(5.0, 0.0, 5.0),
        Vec3::new(-5.0, 0.0, 5.0),
    ];
    let mut triangles = vec![[0, 2, 1], [0, 3, 2]];
    // Crate: the four side faces and the top of a unit cube at (3, 0, -3).
    let o = Vec3::new(2.5, 0.0, -3.5);
    for i in 0..8u32 {
        let c = Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32);
        positions.push(o + c);
    }
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    for q in quads {
        let q = q.map(|i| i + 4);
        triangles.push([q[0], q[1], q[2]]);
        triangles.push([q[0], q[2], q[3]]);
    }
    TriMesh::new(
        positions,
        triangles,
        vec![("floor".into(), 2), ("crate".into(), 12)],
    )
}

fn camera() -> CameraView {
    CameraView {
        eye: Vec3::new(0.0, 6.0, 9.0),
        target: Vec3::ZERO,
        up: Vec3::Y,
        fov_y_deg: 50.0,
        near: 0.05,
        far: 100.0,
        orthographic: false,
    }
}

fn prim(kind: OverlayKind, shape: Shape, color: [f32; 4]) -> DebugPrimitive {
    DebugPrimitive {
        kind,
        shape,
        color,
        label: None,
    }
}

fn overlays() -> Vec<DebugPrimitive> {
    vec![
        prim(
            OverlayKind::Velocity,
            Shape::Arrow {
                from: DVec3::new(-3.0, 0.5, 2.0),
                to: DVec3::new(-1.0, 0.5, 2.0),
            },
            [1.0, 0.0, 1.0, 1.0],
        ),
        prim(
            OverlayKind::HighlightTriangle,
            Shape::Triangle {
                corners: [
                    DVec3::new(1.0, 0.0, 1.0),
                    DVec3::new(3.0, 0.0, 1.0),
                    DVec3::new(1.0, 0.0, 3.0),
                ],
            },
            [1.0, 1.0, 0.0, 1.0],
        ),
    ]
}

const NO_EXTRAS: RenderOptions = RenderOptions {
    wireframe: false,
    grid: false,
    axes: false,
    overlays_on_top: false,
};

/// Renders with `setup` applied to a renderer, or `None` (skip) without EGL.
fn render(setup: impl FnOnce(&mut SceneRenderer), opts: RenderOptions) -> Option<Image> {
    let gl = match render_support::headless_gl() {
        Ok(gl) => gl,
        Err(e) => {
            eprintln!("skipping headless render test: {e}");
            return None;
        }
    };
    let mut renderer = SceneRenderer::try_new(gl.gl.clone()).expect("three-d context");
    setup(&mut renderer);
    let img = renderer.render_image(&camera(), W, H, &opts);
    assert_eq!(img.len(), (W * H) as usize);
    if let Ok(dir) = std::env::var("RENDER_TEST_DUMP") {
        dump_ppm(&img, &dir);
    }
    Some(img)
}

/// Writes the image as a PPM into `dir` when `RENDER_TEST_DUMP` is set, to
/// look at what a failing test saw.
fn dump_ppm(img: &Image, dir: &str) {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let thread = std::thread::current()
        .name()
        .unwrap_or("render")
        .replace("::", "_");
    let name = format!("{thread}_{n}");
    let mut bytes = format!("P6 {W} {H} 255\n").into_bytes();
    bytes.extend(img.iter().flat_map(|p| [p[0], p[1], p[2]]));
    let _ = std::fs::write(std::path::Path::new(dir).join(format!("{name}.ppm")), bytes);
}

fn full_scene(r: &mut SceneRenderer) {
    r.set_level(&level(), &[[0.25, 0.75, 0.3], [0.8, 0.25, 0.2]]);
    r.set_probes(&[(
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.5, 1.0, 0.5),
        CharacterShape::Ellipsoid,
        [0.15, 0.3, 1.0, 1.0],
    )]);
    r.set_overlays(&overlays());
}

fn screen(p: Vec3) -> [f32; 2] {
    camera()
        .world_to_screen(p, [0.0, 0.0], [W as f32, H as f32])
        .expect("on screen")
}

fn pixel(img: &Image, at: [f32; 2]) -> [u8; 4] {
    img[at[1] as usize * W as usize + at[0] as usize]
}

/// Whether any pixel within `r` pixels of `at` satisfies `pred`.
fn near(img: &Image, at: [f32; 2], r: i32, pred: impl Fn([u8; 4]) -> bool) -> bool {
    let (cx, cy) = (at[0] as i32, at[1] as i32);
    (-r..=r).any(|dy| {
        (-r..=r).any(|dx| {
            let (x, y) = (cx + dx, cy + dy);
            (0..W as i32).contains(&x)
                && (0..H as i32).contains(&y)
                && pred(img[(y * W as i32 + x) as usize])
        })
    })
}

fn is_background(p: [u8; 4]) -> bool {
    (0..3).all(|i| p[i].abs_diff(BACKGROUND[i]) <= 2)
}

fn is_floor_green(p: [u8; 4]) -> bool {
    p[1] > p[0].saturating_add(40) && p[1] > p[2].saturating_add(40)
}

#[test]
fn background_floor_probe_arrow_and_hit_triangle_land_where_projected() {
    let Some(img) = render(full_scene, NO_EXTRAS) else {
        return;
    };
    assert!(is_background(img[0]), "top-left corner: {:?}", img[0]);
    let floor = pixel(&img, screen(Vec3::new(-3.0, 0.0, -0.5)));
    assert!(is_floor_green(floor), "floor: {floor:?}");
    let probe = pixel(&img, screen(Vec3::new(0.0, 1.0, 0.0)));
    assert!(
        probe[2] > probe[0] + 60 && probe[2] > probe[1] + 30,
        "probe: {probe:?}"
    );
    let crate_px = pixel(&img, screen(Vec3::new(3.0, 1.0, -3.0)));
    assert!(crate_px[0] > crate_px[1] + 40, "crate top: {crate_px:?}");
    let magenta = |p: [u8; 4]| p[0] > 150 && p[2] > 150 && p[1] < 100;
    assert!(
        near(&img, screen(Vec3::new(-2.0, 0.5, 2.0)), 2, magenta),
        "arrow shaft"
    );
    assert!(
        near(&img, screen(Vec3::new(-1.05, 0.5, 2.0)), 2, magenta),
        "arrow head"
    );
    // Coplanar with the floor: drawn over it, never z-fighting.
    let centroid = screen(Vec3::new(5.0 / 3.0, 0.0, 5.0 / 3.0));
    let yellow = |p: [u8; 4]| p[0] > 150 && p[1] > 150 && p[2] < 100;
    let all_yellow = (-3..=3).all(|d| yellow(pixel(&img, [centroid[0] + d as f32, centroid[1]])));
    assert!(all_yellow, "hit triangle: {:?}", pixel(&img, centroid));
}

#[test]
fn box_edges_are_lines_drawn_over_the_floor_they_lie_on() {
    let aabb = Aabb::from_corners(Vec3::new(-4.0, 0.0, -1.0), Vec3::new(-2.0, 1.0, 1.0));
    let boxed = |r: &mut SceneRenderer| {
        r.set_level(&level(), &[[0.25, 0.75, 0.3], [0.8, 0.25, 0.2]]);
        r.set_overlays(&[prim(
            OverlayKind::CandidateAabbs,
            Shape::Box { aabb },
            [0.0, 1.0, 1.0, 1.0],
        )]);
    };
    let Some(img) = render(boxed, NO_EXTRAS) else {
        return;
    };
    let cyan = |p: [u8; 4]| p[0] < 100 && p[1] > 150 && p[2] > 150;
    // Midpoints of the near bottom edge (in the floor's plane: it must win
    // the depth test), a near upright and the far top edge.
    for mid in [
        Vec3::new(-3.0, 0.0, 1.0),
        Vec3::new(-4.0, 0.5, 1.0),
        Vec3::new(-3.0, 1.0, -1.0),
    ] {
        assert!(near(&img, screen(mid), 1, cyan), "edge at {mid}");
    }
    // Only the edges: the middle of the near face shows the floor.
    let face = pixel(&img, screen(Vec3::new(-3.0, 0.5, 1.0)));
    assert!(is_floor_green(face), "inside the box: {face:?}");
}

#[test]
fn hidden_objects_disappear_and_come_back() {
    let floor_at = screen(Vec3::new(-3.0, 0.0, -0.5));
    let crate_at = screen(Vec3::new(3.0, 1.0, -3.0));
    let Some(hidden) = render(
        |r| {
            full_scene(r);
            r.set_object_visibility(&[false, true]);
        },
        NO_EXTRAS,
    ) else {
        return;
    };
    assert!(is_background(pixel(&hidden, floor_at)));
    assert!(!is_background(pixel(&hidden, crate_at)));
    // The wireframe view is a separate mesh: it hides the same objects.
    let wire = RenderOptions {
        wireframe: true,
        ..NO_EXTRAS
    };
    let hidden_wire = render(
        |r| {
            full_scene(r);
            r.set_object_visibility(&[false, true]);
        },
        wire,
    )
    .unwrap();
    assert!(is_background(pixel(&hidden_wire, floor_at)));
    assert!(!is_background(pixel(&hidden_wire, crate_at)));
    let shown = render(
        |r| {
            full_scene(r);
            r.set_object_visibility(&[false, false]);
            r.set_object_visibility(&[true, true]);
        },
        NO_EXTRAS,
    )
    .unwrap();
    assert!(is_floor_green(pixel(&shown, floor_at)));
}

#[test]
fn wireframe_darkens_triangle_edges_only() {
    // (-3, 0, -3) lies on the floor's diagonal edge; (-3, 0, -0.5) does not.
    let edge = screen(Vec3::new(-3.0, 0.0, -3.0));
    let inside = screen(Vec3::new(-3.0, 0.0, -0.5));
    let dark = |p: [u8; 4]| p[1] < 100;
    let wire = RenderOptions {
        wireframe: true,
        ..NO_EXTRAS
    };
    let Some(with) = render(full_scene, wire) else {
        return;
    };
    let without = render(full_scene, NO_EXTRAS).unwrap();
    assert!(near(&with, edge, 1, dark), "edge: {:?}", pixel(&with, edge));
    assert!(!near(&without, edge, 1, dark));
    assert!(is_floor_green(pixel(&with, inside)));
}

#[test]
fn grid_and_axes_draw_only_when_asked() {
    let count = |img: &Image| img.iter().filter(|p| !is_background(**p)).count();
    let Some(empty) = render(|_| {}, NO_EXTRAS) else {
        return;
    };
    assert_eq!(count(&empty), 0);
    let grid = RenderOptions {
        grid: true,
        ..NO_EXTRAS
    };
    let with_grid = render(|_| {}, grid).unwrap();
    assert!(
        count(&with_grid) > 500,
        "grid pixels: {}",
        count(&with_grid)
    );
    let axes = RenderOptions {
        axes: true,
        ..NO_EXTRAS
    };
    let with_axes = render(|_| {}, axes).unwrap();
    assert!(count(&with_axes) > 20, "axes pixels: {}", count(&with_axes));
    let red = |p: [u8; 4]| p[0] > 120 && p[1] < 80 && p[2] < 80;
    assert!(with_axes.iter().any(|p| red(*p)), "X axis is red");
}

#[test]
fn the_level_image_is_kept_while_the_view_holds_and_overlays_stay_depth_tested() {
    use collidoscope::render::LevelDraw::{Direct, ImageCopied, ImageDrawn};
    let gl = match render_support::headless_gl() {
        Ok(gl) => gl,
        Err(e) => {
            eprintln!("skipping headless render test: {e}");
            return;
        }
    };
    let mut r = SceneRenderer::try_new(gl.gl.clone()).expect("three-d context");
    full_scene(&mut r);
    let frame = |r: &mut SceneRenderer, cam: &CameraView, opts: RenderOptions| {
        let img = r.render_image(cam, W, H, &opts);
        (img, r.last_level_draw())
    };
    let (direct, how) = frame(&mut r, &camera(), NO_EXTRAS);
    assert_eq!(how, Direct, "a new view is drawn straight into the frame");
    let (drawn, how) = frame(&mut r, &camera(), NO_EXTRAS);
    assert_eq!(how, ImageDrawn, "a view held for a second frame is kept");
    let (copied, how) = frame(&mut r, &camera(), NO_EXTRAS);
    assert_eq!(how, ImageCopied);
    assert!(direct == drawn, "the image frame equals the direct one");
    assert!(direct == copied, "a copied frame equals the direct one");

    // New overlays (a step landing) keep the image; they are drawn over
    // it and still hidden behind the level: a triangle straddling the
    // crate's far side shows only beside the crate.
    let behind = prim(
        OverlayKind::HighlightTriangle,
        Shape::Triangle {
            corners: [
                DVec3::new(1.5, 0.5, -3.7),
                DVec3::new(4.5, 0.5, -3.7),
                DVec3::new(3.0, 0.9, -3.7),
            ],
        },
        [0.0, 1.0, 1.0, 1.0],
    );
    r.set_overlays(&[behind]);
    let (img, how) = frame(&mut r, &camera(), NO_EXTRAS);
    assert_eq!(how, ImageCopied, "overlays alone do not redraw the level");
    let cyan = |p: [u8; 4]| p[0] < 100 && p[1] > 150 && p[2] > 150;
    let beside = pixel(&img, screen(Vec3::new(1.8, 0.55, -3.7)));
    assert!(cyan(beside), "overlay beside the crate: {beside:?}");
    let hidden = pixel(&img, screen(Vec3::new(3.0, 0.6, -3.7)));
    assert!(
        hidden[0] > hidden[1] + 40,
        "the crate hides the overlay behind it: {hidden:?}"
    );

    // What the image shows changed: drawn again.
    r.set_object_visibility(&[true, true]);
    assert_eq!(frame(&mut r, &camera(), NO_EXTRAS).1, ImageCopied);
    r.set_object_visibility(&[true, false]);
    let (img, how) = frame(&mut r, &camera(), NO_EXTRAS);
    assert_eq!(how, Direct, "hiding an object draws the level again");
    assert!(cyan(pixel(&img, screen(Vec3::new(3.0, 0.6, -3.7)))));
    let moved = CameraView {
        eye: Vec3::new(0.5, 6.0, 9.0),
        ..camera()
    };
    assert_eq!(frame(&mut r, &moved, NO_EXTRAS).1, Direct);
    let wire = RenderOptions {
        wireframe: true,
        ..NO_EXTRAS
    };
    assert_eq!(frame(&mut r, &moved, wire).1, Direct, "a toggled option");
    r.set_level(&level(), &[]);
    assert_eq!(frame(&mut r, &moved, wire).1, Direct, "a new level");
    assert_eq!(frame(&mut r, &moved, wire).1, ImageDrawn);
    assert_eq!(frame(&mut r, &moved, wire).1, ImageCopied);
}

/// Renders the default level's 0.60 m door with a probe stopped against
/// its jamb, seen from behind the probe; `kinds` are the overlays drawn.
fn door_contact(kinds: &[OverlayKind], overlays_on_top: bool) -> Option<Image> {
    use collidoscope::analysis::generate::default_level;
    use collidoscope::collide::debug_draw::{OverlayOptions, OverlayToggles, primitives_for_trace};
    use collidoscope::collide::{SlideSettings, TraceDetail, slide};
    use collidoscope::level::Level;

    let level = Level::from_mesh("default", default_level());
    let settings = SlideSettings::default();
    let radii = settings.radii_vec();
    // The door's opening runs from x = 1.5 to 2.1 in the wall at z = 8:
    // a probe centred at x = 1.55 meets the left jamb.
    let trace = slide(
        level.world(),
        &settings,
        DVec3::new(1.55, radii.y, 6.2),
        DVec3::new(0.0, 0.0, 4.0),
        TraceDetail::Full,
    )
    .expect("a valid move");
    let rec = &trace.iterations[0];
    assert!(rec.nearest.is_some(), "the first iteration hits the jamb");
    let mut toggles = OverlayToggles::default();
    for kind in OverlayKind::ALL {
        toggles.set(kind, kinds.contains(&kind));
    }
    let options = OverlayOptions::new(toggles, 0);
    let prims = primitives_for_trace(
        &trace.iterations,
        0,
        radii,
        CharacterShape::Ellipsoid,
        level.mesh(),
        level.bvh(),
        &options,
    )
    .primitives;
    let at = rec.end.as_vec3();
    let cam = CameraView {
        eye: at + Vec3::new(1.2, 0.9, -2.6),
        target: at,
        up: Vec3::Y,
        fov_y_deg: 50.0,
        near: 0.05,
        far: 100.0,
        orthographic: false,
    };
    let gl = match render_support::headless_gl() {
        Ok(gl) => gl,
        Err(e) => {
            eprintln!("skipping headless render test: {e}");
            return None;
        }
    };
    let mut r = SceneRenderer::try_new(gl.gl.clone()).expect("three-d context");
    r.set_level(level.mesh(), &[]);
    // The probe as the window shows it when not stepping: opaque.
    r.set_probes(&[(
        rec.end,
        radii,
        CharacterShape::Ellipsoid,
        [0.25, 0.45, 0.95, 1.0],
    )]);
    r.set_overlays(&prims);
    let opts = RenderOptions {
        overlays_on_top,
        ..NO_EXTRAS
    };
    Some(r.render_image(&cam, W, H, &opts))
}

fn differing_pixels(a: &Image, b: &Image) -> usize {
    a.iter().zip(b).filter(|(p, q)| p != q).count()
}

#[test]
fn xray_shows_the_contact_normal_and_slide_vector_hidden_inside_the_probe() {
    let vectors = [OverlayKind::ContactNormal, OverlayKind::SlideVector];
    let Some(plain_without) = door_contact(&[], false) else {
        return;
    };
    let plain_with = door_contact(&vectors, false).unwrap();
    let xray_without = door_contact(&[], true).unwrap();
    let xray_with = door_contact(&vectors, true).unwrap();
    let plain = differing_pixels(&plain_without, &plain_with);
    let xray = differing_pixels(&xray_without, &xray_with);
    assert!(
        xray > 100,
        "with X-ray the two vectors change {xray} pixels (depth-tested: {plain})"
    );
    assert!(
        xray > plain + 80,
        "X-ray shows more of them than the depth-tested view ({xray} vs {plain})"
    );
}
