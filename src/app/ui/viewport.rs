//! The central viewport: the three-d scene (through `render::paint_viewport`),
//! mouse camera controls, hover picking, probe selection and placement, the
//! velocity arrow handle, and everything drawn with the egui painter over
//! the scene (labels, legend, hover box, error banner), projected with the
//! same `CameraView`. Picking and handles work in world space.

use super::{CollidoscopeApp, Tool, labels, legend, sync, widgets};
use crate::app::command::Command;
use crate::app::probes::{self, params_of};
use crate::app::state::Severity;
use crate::app::{camera_ctl, measure, pick};
use crate::collide::debug_draw::OverlayKind;
use crate::render::{RenderOptions, paint_viewport};
use eframe::egui::{self, Color32, PointerButton, Pos2, Rect, Sense, Stroke};
use glam::{DVec3, Vec3};

/// Pixels within which a press grabs the velocity handle.
const HANDLE_GRAB_PX: f32 = 10.0;

/// Shows the viewport in the remaining space.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| {
            let rect = ui.available_rect_before_wrap();
            let response = ui.allocate_rect(rect, Sense::click_and_drag());
            app.viewport_rect = Some(rect);
            // The camera views frame their subject for this shape.
            app.state.view_aspect = rect.aspect_ratio();
            handle_drag(ui, app, rect, &response);
            camera_input(ui, app, rect, &response);
            hover_and_click(app, rect, &response);
            sync::sync(app);
            let opts = RenderOptions {
                wireframe: app.state.view.wireframe,
                grid: app.state.view.grid,
                axes: app.state.view.axes,
                overlays_on_top: app.state.view.overlays_on_top,
            };
            match &app.renderer {
                Some(r) => paint_viewport(ui, rect, r.clone(), app.state.camera, opts),
                None => {
                    ui.painter().rect_filled(rect, 0.0, Color32::from_gray(30));
                    ui.painter().text(
                        rect.center(),
                        egui::Align2::CENTER_CENTER,
                        "No OpenGL context: the 3D view is off (panels still work)",
                        egui::FontId::proportional(14.0),
                        Color32::GRAY,
                    );
                }
            }
            draw_vectors(ui, app, rect);
            draw_pin_dots(ui, app, rect);
            draw_labels(ui, app, rect);
            draw_velocity_handle(ui, app, rect);
            // What covers the view: the labels keep off it next frame.
            let covers = [
                Some(legend::show(ui, app, rect)),
                Some(measure_toggle(ui, app, rect)),
                banner(ui, app, rect),
                hover_box(ui, app, rect),
            ];
            app.view_covers = covers.into_iter().flatten().collect();
        });
}

fn to_screen(app: &CollidoscopeApp, rect: Rect, p: DVec3) -> Option<Pos2> {
    app.state
        .camera
        .world_to_screen(p.as_vec3(), rect.min.into(), rect.size().into())
        .map(|[x, y]| Pos2::new(x, y))
}

fn ray_at(app: &CollidoscopeApp, rect: Rect, pos: Pos2) -> (Vec3, Vec3) {
    app.state
        .camera
        .screen_ray(pos.into(), rect.min.into(), rect.size().into())
}

fn camera_input(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect, response: &egui::Response) {
    let cam = &mut app.state.camera;
    let d = response.drag_delta();
    if !app.handle_drag && response.dragged_by(PointerButton::Primary) {
        if app.fly {
            camera_ctl::fly_look(cam, d.x, d.y);
        } else if ui.input(|i| i.modifiers.shift) {
            camera_ctl::pan(cam, d.x, d.y, rect.height());
        } else {
            camera_ctl::orbit(cam, d.x, d.y);
        }
    }
    if response.dragged_by(PointerButton::Secondary) || response.dragged_by(PointerButton::Middle) {
        camera_ctl::pan(cam, d.x, d.y, rect.height());
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            // Towards the level point under the pointer, else the point
            // under it level with the target: always where the pointer is.
            let hit = app.hover.as_ref().map(|h| h.point.as_vec3());
            let ray = response.hover_pos().map(|pos| ray_at(app, rect, pos));
            let focus = ray.and_then(|ray| camera_ctl::zoom_focus(&app.state.camera, hit, ray));
            camera_ctl::zoom_at(&mut app.state.camera, scroll / 50.0, focus.or(hit));
        }
    }
}

fn hover_and_click(app: &mut CollidoscopeApp, rect: Rect, response: &egui::Response) {
    let Some(level) = app.state.level.clone() else {
        app.hover = None;
        return;
    };
    let pointer = response.hover_pos();
    app.hover = pointer.and_then(|pos| {
        let (o, d) = ray_at(app, rect, pos);
        pick::pick(&level, o, d)
    });
    let clicked = response.clicked_by(PointerButton::Primary);
    let double = response.double_clicked_by(PointerButton::Primary);
    let (Some(pos), true) = (pointer, clicked || double) else {
        return;
    };
    let (o, d) = ray_at(app, rect, pos);
    let (o, d) = (o.as_dvec3(), d.as_dvec3());
    if app.tool == Tool::Measure {
        match app.hover.clone() {
            Some(h) => {
                let corners = level.mesh.triangle_f64(h.triangle);
                let p = measure::snap(h.point, corners, [pos.x, pos.y], |w| {
                    to_screen(app, rect, w).map(|s| [s.x, s.y])
                });
                app.measure.click(p);
                if let Some((a, b)) = app.measure.done {
                    app.state
                        .info(format!("Measured {}", measure::describe(a, b)));
                }
            }
            None => app
                .state
                .error("Measure: nothing of the level under the pointer; click a surface"),
        }
        return;
    }
    if app.tool == Tool::PlaceCylinder {
        match &app.hover {
            Some(h) => {
                app.queue.push(Command::PlaceCylinder(h.point));
                app.tool = Tool::Select;
            }
            None => app
                .state
                .error("Place cylinder: nothing of the level under the pointer; click a surface"),
        }
        return;
    }
    if app.tool == Tool::PlaceProbe || double {
        match &app.hover {
            Some(h) if probes::place_refusal(h.normal).is_some() => {
                // Stay armed: the next click on a floor places it.
                app.state.error(probes::place_refusal(h.normal).unwrap_or_default());
            }
            Some(h) => {
                app.queue.push(Command::PlaceProbe {
                    point: h.point,
                    normal: h.normal,
                });
                app.tool = Tool::Select;
            }
            None => app.state.error(
                "Place: nothing of the level under the pointer; click a floor (+ Place again to stop placing)",
            ),
        }
        return;
    }
    // A probe in front of the surface under the mouse wins the click.
    let surface_t = app
        .hover
        .as_ref()
        .map_or(f64::INFINITY, |h| h.distance as f64);
    let hit = app
        .state
        .probes
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, pick::ray_ellipsoid(o, d, p.shown_center(), p.radii())?)))
        .filter(|(_, t)| *t <= surface_t + 1e-3)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match (hit, &app.hover) {
        (Some((i, _)), _) => app.queue.push(Command::Select(Some(i))),
        // A finding's pin (the Checks page's) opens that finding; from far
        // away, its dot.
        (None, _)
            if let Some(i) = app
                .state
                .overlays
                .get(OverlayKind::FindingPins)
                .then(|| {
                    crate::app::checks::pin_under_ray(&app.state.checks, o, d, surface_t)
                        .or_else(|| pin_dot_at(app, pos))
                })
                .flatten() =>
        {
            app.queue.push(Command::OpenFindingPin(i));
        }
        // A click on a cell of the heat map opens its spot's worst walk.
        (None, Some(h)) if let Some(i) = map_spot_under(app, h.point) => {
            app.queue.push(Command::OpenMapSpot(i));
        }
        // A click on the level selects the object under the pointer.
        (None, Some(h)) => {
            app.queue.push(Command::SelectObject(Some(h.object)));
            app.reveal_object = true;
        }
        (None, None) => app.queue.push(Command::SelectObject(None)),
    }
}

/// The arrow from the selected probe's start along its velocity; dragging
/// its tip edits the velocity in the horizontal plane (Shift: vertically).
fn handle_drag(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect, response: &egui::Response) {
    let Some(i) = app.state.selected.filter(|_| !app.state.walk.active) else {
        app.handle_drag = false;
        return;
    };
    let p = &app.state.probes[i];
    let tip = p.position + p.velocity;
    if response.drag_started_by(PointerButton::Primary) {
        // Where the button went down: egui reports the drag a few pixels later.
        let press = ui.input(|i| i.pointer.press_origin());
        let tip_px = to_screen(app, rect, tip);
        app.handle_drag =
            matches!((press, tip_px), (Some(a), Some(b)) if a.distance(b) <= HANDLE_GRAB_PX);
    }
    if !response.dragged_by(PointerButton::Primary) {
        app.handle_drag = false;
    }
    let Some(pos) = response.interact_pointer_pos().filter(|_| app.handle_drag) else {
        return;
    };
    let (o, d) = ray_at(app, rect, pos);
    let (o, d) = (o.as_dvec3(), d.as_dvec3());
    let vertical = ui.input(|i| i.modifiers.shift);
    // The plane the tip moves in: horizontal through the tip, or vertical facing the camera.
    let normal = if vertical {
        DVec3::new(d.x, 0.0, d.z).normalize_or(DVec3::X)
    } else {
        DVec3::Y
    };
    let denom = normal.dot(d);
    if denom.abs() < 1e-6 {
        return;
    }
    let t = normal.dot(tip - o) / denom;
    if t <= 0.0 {
        return;
    }
    let mut params = params_of(p);
    params.velocity = o + d * t - p.position;
    app.queue.push(Command::UpdateProbe(i, Box::new(params)));
}

fn draw_velocity_handle(ui: &egui::Ui, app: &CollidoscopeApp, rect: Rect) {
    let Some(p) = app
        .state
        .selected_probe()
        .filter(|_| !app.state.walk.active)
    else {
        return;
    };
    let (Some(a), Some(b)) = (
        to_screen(app, rect, p.position),
        to_screen(app, rect, p.position + p.velocity),
    ) else {
        return;
    };
    let painter = ui.painter_at(rect);
    let color = widgets::color32(p.color);
    arrow(&painter, a, b, Stroke::new(2.5, color));
    let grab = if app.handle_drag { 8.0 } else { 6.0 };
    painter.circle(b, grab, Color32::WHITE, Stroke::new(2.0, color));
}

/// Pixels from the pointer within which a label shown only on request
/// appears (hovering its point).
const LABEL_HOVER_PX: f32 = 28.0;

/// The shortest a contact normal, slide vector or velocity is drawn on
/// screen, points: shorter, its direction cannot be read (on a real level
/// seen whole, a 1 m normal is a few pixels).
pub(crate) const MIN_VECTOR_PX: f32 = 44.0;

/// The overlay labels and the probes' names, as non-overlapping callouts
/// (see [`labels`]), the most important first: the measurement, what the
/// iteration decided, the probes' names, then (with View > Label every
/// overlay point, or under the pointer) the rest. Labels with no room
/// left are counted and the count shown. The cards and the count are kept
/// for the tests. A point outside the view gets no label: pinned to the
/// view's edge, it would name nothing in sight.
fn draw_labels(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect) {
    let pointer = ui
        .input(|i| i.pointer.hover_pos())
        .filter(|p| rect.contains(*p));
    let near_pointer = |pos: Pos2| pointer.is_some_and(|p| p.distance(pos) <= LABEL_HOVER_PX);
    let mut first = Vec::new();
    let mut rest = Vec::new();
    measurement_line(ui, app, rect, &mut first);
    for prim in app.sync.primitives() {
        let Some(text) = &prim.label else { continue };
        let Some(pos) = to_screen(app, rect, prim.shape.anchor()) else {
            continue;
        };
        let label = (pos, text.clone(), widgets::color32(prim.color).to_opaque());
        if prim.kind.labelled_by_default() {
            first.push(label);
        } else if app.state.view.all_labels || near_pointer(pos) {
            rest.push(label);
        }
    }
    let mut names = Vec::new();
    for (i, p) in app.state.probes.iter().enumerate() {
        let top = p.shown_center() + DVec3::new(0.0, p.radii().y * 1.15, 0.0);
        if let Some(pos) = to_screen(app, rect, top) {
            let color = if app.state.selected == Some(i) {
                Color32::WHITE
            } else {
                widgets::opaque(p.color)
            };
            names.push((pos, p.name.clone(), color));
        }
    }
    if let Some(label) = hovered_candidate(app, rect) {
        first.insert(0, label);
    }
    first.extend(names);
    first.extend(rest);
    let callouts = labels::merge_callouts(labels::in_view(first, rect));
    let painter = ui.painter_at(rect);
    // The legend, the Measure switch, the hover box and the error banner
    // as last drawn, and the place of the hidden count.
    let mut covers = app.view_covers.clone();
    covers.push(hidden_count_rect(rect));
    let (cards, hidden) = labels::paint(&painter, &callouts, app.state.view.label_size(), &covers);
    app.label_cards = cards;
    app.labels_hidden = hidden;
    if hidden > 0 {
        hidden_count(&painter, rect, hidden);
    }
}

/// "+3 labels hidden" at the bottom of the view, centred (the legend is
/// bottom right, the hover box bottom left).
fn hidden_count(painter: &egui::Painter, rect: Rect, hidden: usize) {
    let galley = painter.layout_no_wrap(
        labels::hidden_words(hidden),
        egui::FontId::proportional(12.0),
        Color32::from_gray(235),
    );
    let size = galley.size() + egui::vec2(12.0, 6.0);
    let card = Rect::from_center_size(hidden_count_rect(rect).center(), size);
    painter.rect_filled(card, 3.0, Color32::from_black_alpha(180));
    painter.galley(card.min + egui::vec2(6.0, 3.0), galley, Color32::WHITE);
}

/// Where the hidden count goes: the bottom of the view, centred, room
/// for "+99 labels hidden".
fn hidden_count_rect(rect: Rect) -> Rect {
    let size = egui::vec2(130.0, 22.0);
    Rect::from_min_size(
        egui::pos2(rect.center().x - size.x / 2.0, rect.bottom() - size.y - 8.0),
        size,
    )
}

/// The pointer over a candidate triangle of the iteration shown (not the
/// one it chose, which is labelled already): its outcome, as the
/// inspector lists it ("candidate 812: HIT t = 0.412 (face)").
fn hovered_candidate(app: &CollidoscopeApp, rect: Rect) -> Option<(Pos2, String, Color32)> {
    let h = app.hover.as_ref()?;
    let rec = app.state.selected_probe()?.stepper.current_record()?;
    if rec
        .nearest
        .as_ref()
        .is_some_and(|n| n.triangle == h.triangle)
    {
        return None;
    }
    let c = rec.candidates.iter().find(|c| c.triangle == h.triangle)?;
    let pos = to_screen(app, rect, h.point)?;
    let text = format!(
        "candidate {}: {}",
        c.triangle,
        super::inspector::outcome_text(&c.outcome)
    );
    let color = widgets::color32(OverlayKind::CandidateAabbs.color()).to_opaque();
    Some((pos, text, color))
}

/// The contact normal, slide vector and velocity drawn again over
/// everything, at least [`MIN_VECTOR_PX`] long with an arrow head: inside
/// the probe (a contact normal always is) or small on a large level they
/// would not be seen. The head points along the world vector; a vector
/// shorter on screen than the minimum is lengthened, not moved. Kept for
/// the tests.
fn draw_vectors(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect) {
    let painter = ui.painter_at(rect);
    let mut drawn = Vec::new();
    for prim in app.sync.primitives() {
        let (crate::collide::debug_draw::Shape::Arrow { from, to }, true) =
            (&prim.shape, prim.kind.is_screen_vector())
        else {
            continue;
        };
        let (Some(a), Some(b)) = (to_screen(app, rect, *from), to_screen(app, rect, *to)) else {
            continue;
        };
        let v = b - a;
        let len = v.length();
        // Pointing straight at the camera it has no direction on screen.
        if len < 0.5 || !len.is_finite() {
            continue;
        }
        let v = if len < MIN_VECTOR_PX {
            v * (MIN_VECTOR_PX / len)
        } else {
            v
        };
        let color = widgets::color32(prim.color).to_opaque();
        arrow(
            &painter,
            a,
            a + v,
            Stroke::new(5.0, Color32::from_black_alpha(150)),
        );
        arrow(&painter, a, a + v, Stroke::new(2.5, color));
        drawn.push((prim.kind, a, a + v));
    }
    app.screen_vectors = drawn;
}

/// A pin head drawn smaller than this on screen (points) is drawn as a dot
/// of this radius instead, over the view: a whole level in view leaves a
/// pin a fraction of a pixel, and the Checks page's list should still be
/// seen on the level.
const MIN_PIN_DOT_PX: f32 = 4.0;

/// The dots of the pins too small to see (see [`MIN_PIN_DOT_PX`]), in
/// their verdict's colour (the opened finding's white), remembered for
/// clicks and tests.
fn draw_pin_dots(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect) {
    let mut dots = Vec::new();
    let checks = &app.state.checks;
    if let (true, Some(report)) = (
        app.state.overlays.get(OverlayKind::FindingPins),
        checks.report(),
    ) {
        let painter = ui.painter_at(rect);
        let open = checks.open.as_ref().map(|o| o.index);
        for i in checks.visible() {
            let f = &report.findings[i];
            let (head, radius) = crate::app::checks::pin_head(checks, f, open == Some(i));
            let Some(c) = to_screen(app, rect, head) else {
                continue;
            };
            if !rect.contains(c) {
                continue;
            }
            // The head's size on screen: its largest projected radius.
            let shown = [DVec3::X, DVec3::Y, DVec3::Z]
                .into_iter()
                .filter_map(|axis| to_screen(app, rect, head + axis * radius))
                .map(|p| (p - c).length())
                .fold(0.0f32, f32::max);
            if shown >= MIN_PIN_DOT_PX {
                continue;
            }
            let color = if open == Some(i) {
                Color32::WHITE
            } else {
                widgets::color32(crate::app::checks::verdict_rgba(f.verdict)).to_opaque()
            };
            painter.circle(
                c,
                MIN_PIN_DOT_PX,
                color,
                Stroke::new(1.0, Color32::from_black_alpha(200)),
            );
            dots.push((i, c));
        }
    }
    app.pin_dots = dots;
}

/// The finding whose dot (last frame's) is under `pos`, nearest first.
fn pin_dot_at(app: &CollidoscopeApp, pos: Pos2) -> Option<usize> {
    app.pin_dots
        .iter()
        .map(|&(i, c)| (i, (c - pos).length()))
        .filter(|&(_, d)| d <= MIN_PIN_DOT_PX + 3.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// A line from `a` to `b` with a head at `b` of a fixed size (egui's own
/// head is a quarter of the line: 150 points on a long velocity).
fn arrow(painter: &egui::Painter, a: Pos2, b: Pos2, stroke: Stroke) {
    let v = b - a;
    let len = v.length();
    painter.line_segment([a, b], stroke);
    if len < 1.0 {
        return;
    }
    let dir = v / len;
    let head = (len * 0.4).min(12.0);
    let side = egui::vec2(-dir.y, dir.x) * head * 0.5;
    let base = b - dir * head;
    painter.line_segment([b, base + side], stroke);
    painter.line_segment([b, base - side], stroke);
}

/// The measured points and the line between them (over everything, as
/// a ruler laid on the screen), with the result as a label at its middle.
fn measurement_line(
    ui: &egui::Ui,
    app: &CollidoscopeApp,
    rect: Rect,
    labels: &mut Vec<(Pos2, String, Color32)>,
) {
    let color = Color32::from_rgb(255, 230, 90);
    let painter = ui.painter_at(rect);
    let dot = |p: DVec3| {
        if let Some(s) = to_screen(app, rect, p) {
            painter.circle(s, 4.0, Color32::BLACK, Stroke::new(2.0, color));
        }
    };
    match (app.measure.first, app.measure.done) {
        (Some(a), _) => dot(a.at),
        (None, Some((a, b))) => {
            if let (Some(sa), Some(sb)) = (to_screen(app, rect, a.at), to_screen(app, rect, b.at)) {
                painter.line_segment([sa, sb], Stroke::new(2.0, color));
                labels.push((sa.lerp(sb, 0.5), measure::describe(a, b), color));
            }
            dot(a.at);
            dot(b.at);
        }
        (None, None) => {}
    }
}

/// The measuring tool's switch, top right of the view.
fn measure_toggle(ui: &egui::Ui, app: &mut CollidoscopeApp, rect: Rect) -> Rect {
    egui::Area::new(egui::Id::unique("measure_toggle"))
        .pivot(egui::Align2::RIGHT_TOP)
        .fixed_pos(rect.right_top() + egui::vec2(-8.0, 8.0))
        .order(egui::Order::Foreground)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let on = app.tool == Tool::Measure;
                let hint = match (on, app.measure.first.is_some()) {
                    (false, _) => "Click two points to read distance and rise",
                    (true, false) => "Click the first point (corners and edges snap)",
                    (true, true) => "Click the second point",
                };
                if ui
                    .selectable_label(on, "Measure")
                    .on_hover_text(hint)
                    .clicked()
                {
                    app.tool = if on { Tool::Select } else { Tool::Measure };
                    app.measure = Default::default();
                }
                if on {
                    ui.add(egui::Label::new(egui::RichText::new(hint).small()).extend());
                }
            });
        })
        .response
        .rect
}

fn banner(ui: &egui::Ui, app: &CollidoscopeApp, rect: Rect) -> Option<Rect> {
    let msg = app
        .state
        .status
        .as_ref()
        .filter(|m| m.severity == Severity::Error)?;
    let painter = ui.painter_at(rect);
    let galley = painter.layout(
        format!("Error: {}", msg.text),
        egui::FontId::proportional(15.0),
        Color32::WHITE,
        rect.width() - 40.0,
    );
    let box_rect = Rect::from_min_size(
        rect.left_top() + egui::vec2(12.0, 12.0),
        galley.size() + egui::vec2(16.0, 12.0),
    );
    painter.rect_filled(box_rect, 4.0, Color32::from_rgb(150, 30, 30));
    painter.galley(box_rect.min + egui::vec2(8.0, 6.0), galley, Color32::WHITE);
    Some(box_rect)
}

fn hover_box(ui: &egui::Ui, app: &CollidoscopeApp, rect: Rect) -> Option<Rect> {
    let (Some(h), true) = (&app.hover, app.state.view.hover_info) else {
        return None;
    };
    let text = format!(
        "triangle {}\nobject {} ({})\npoint {}\nnormal {}\nslope {:.1}°\nAABB {:.3?}\n   – {:.3?}",
        h.triangle,
        h.object,
        h.object_name,
        widgets::fmt3(h.point),
        widgets::fmt3(h.normal),
        h.slope_deg,
        h.aabb.min.to_array(),
        h.aabb.max.to_array()
    );
    let painter = ui.painter_at(rect);
    let galley =
        painter.layout_no_wrap(text, egui::FontId::monospace(11.0), Color32::from_gray(230));
    let min = rect.left_bottom() + egui::vec2(10.0, -galley.size().y - 22.0);
    let box_rect = Rect::from_min_size(min, galley.size() + egui::vec2(12.0, 10.0));
    painter.rect_filled(box_rect, 4.0, Color32::from_black_alpha(170));
    painter.galley(box_rect.min + egui::vec2(6.0, 5.0), galley, Color32::WHITE);
    Some(box_rect)
}

/// The stuck-spot map's spot under a clicked level point, when the heat
/// map is shown.
fn map_spot_under(app: &CollidoscopeApp, point: DVec3) -> Option<usize> {
    if !app.state.overlays.get(OverlayKind::StuckMap) {
        return None;
    }
    crate::app::map::spot_at(app.state.map.report.as_ref()?, point)
}
