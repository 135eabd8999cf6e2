//! Small shared widgets: vector editors with units, colour swatches,
//! number formatting for the inspector, and the run bar of background work.

use super::CollidoscopeApp;
use crate::app::command::Command;
use crate::app::fields::{self, Range};
use eframe::egui;
use glam::DVec3;

/// What a page's run bar starts and stops (the checks, the map).
pub struct RunBar {
    /// Whether the work is running.
    pub running: bool,
    /// Its progress in `[0, 1]`.
    pub progress: f32,
    /// The button that starts it, and its tooltip.
    pub run: (&'static str, &'static str),
    /// The commands that start and cancel it.
    pub commands: (Command, Command),
}

/// A progress bar and Cancel while the work runs; else the button that
/// starts it, with whose settings it will run.
pub fn run_bar(ui: &mut egui::Ui, app: &mut CollidoscopeApp, bar: RunBar) {
    let (run, cancel) = bar.commands;
    if bar.running {
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(bar.progress)
                    .show_percentage()
                    .desired_width(ui.available_width() - 70.0),
            );
            if ui.button("Cancel").clicked() {
                app.queue.push(cancel);
            }
        });
        return;
    }
    let whose = app
        .state
        .selected_probe()
        .map_or("the default settings".to_string(), |p| {
            format!("{}'s settings", p.name)
        });
    ui.horizontal(|ui| {
        let enabled = app.state.level.is_some();
        if ui
            .add_enabled(enabled, egui::Button::new(bar.run.0))
            .on_hover_text(bar.run.1)
            .clicked()
        {
            app.queue.push(run);
        }
        ui.weak(format!("with {whose}"));
    });
}

/// Converts an sRGB float colour with alpha to egui's, rounding each
/// channel to a byte exactly as the 3D view does (`render::convert::srgba`),
/// so a swatch and the overlay it stands for have the same bytes.
pub fn color32(c: [f32; 4]) -> egui::Color32 {
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    egui::Color32::from_rgba_unmultiplied(byte(c[0]), byte(c[1]), byte(c[2]), byte(c[3]))
}

/// The colour with its alpha dropped: a translucent overlay's swatch shows
/// its hue at full strength, as it looks over the light level, rather than
/// faded into the panel's dark background.
pub fn opaque(c: [f32; 4]) -> egui::Color32 {
    color32([c[0], c[1], c[2], 1.0])
}

/// A filled square in `color` (opaque, see [`opaque`]), for legends.
pub fn swatch(ui: &mut egui::Ui, color: [f32; 4]) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, opaque(color));
}

/// A number field that refuses, not clamps: a typed value out of `range`
/// (or NaN, or no number, or with more decimals than the field shows)
/// leaves the value as it was and the refusal is
/// kept under `key` for [`refusal_row`]; a drag stays within the range.
/// The value is taken when the typing ends (Enter, or the field left), so
/// one typed value is one edit. `true` when the value changed.
pub fn number_field<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    key: egui::Id,
    value: &mut N,
    range: &Range,
    field: NumberStyle<'_>,
) -> bool {
    let refused = std::cell::RefCell::new(None);
    let drag = range.drag_range();
    // A count shows as one ("8", not "8.0", which the drag speed alone
    // would give it).
    let decimals = if N::INTEGRAL { 0 } else { field.decimals };
    let response = ui.add(
        egui::DragValue::new(value)
            .speed(field.speed)
            .range(*drag.start()..=*drag.end())
            .clamp_existing_to_range(false)
            .update_while_editing(false)
            .max_decimals(decimals)
            .prefix(field.prefix)
            .suffix(field.suffix)
            .custom_parser(|text| match fields::judge_shown(text, range, decimals) {
                Ok(x) => Some(x),
                Err(r) => {
                    *refused.borrow_mut() = Some(r);
                    None
                }
            }),
    );
    if let Some(r) = refused.into_inner() {
        ui.data_mut(|d| d.insert_temp(key, r));
    } else if response.changed() || response.gained_focus() {
        ui.data_mut(|d| d.remove::<fields::Refusal>(key));
    }
    response.changed()
}

/// How a [`number_field`] looks: drag speed, decimals, prefix, suffix.
#[derive(Clone, Copy)]
pub struct NumberStyle<'a> {
    /// Change per point dragged.
    pub speed: f64,
    /// Most decimals shown.
    pub decimals: usize,
    /// Text before the number ("x ").
    pub prefix: &'a str,
    /// Text after it (" m").
    pub suffix: &'a str,
}

impl NumberStyle<'_> {
    /// A plain number dragged by `speed`, with `suffix`.
    pub fn new(speed: f64, suffix: &str) -> NumberStyle<'_> {
        NumberStyle {
            speed,
            decimals: 4,
            prefix: "",
            suffix,
        }
    }
}

/// The refusal kept for the field `key` (or any of `keys`), if its last
/// typed value was refused.
pub fn refusal_of(ui: &egui::Ui, keys: &[egui::Id]) -> Option<fields::Refusal> {
    ui.data(|d| keys.iter().find_map(|k| d.get_temp::<fields::Refusal>(*k)))
}

/// A grid row under a refused field: its refusal's short line (the range
/// allowed), the whole message (the typed text quoted) on hover. The line
/// starts under the field's label and runs across the grid's columns
/// without widening any: one line, not wrapped into the narrow value
/// column.
pub fn refusal_row(ui: &mut egui::Ui, field: &str, keys: &[egui::Id]) {
    if refusal_line(ui, field, keys) {
        ui.label("");
        ui.end_row();
    }
}

/// The refusal's line, painted from here to the right without taking
/// any width in the layout; `false` when the field has no refusal.
pub fn refusal_line(ui: &mut egui::Ui, field: &str, keys: &[egui::Id]) -> bool {
    let Some(r) = refusal_of(ui, keys) else {
        return false;
    };
    let text = r.short();
    let color = ui.visuals().error_fg_color;
    let font = egui::TextStyle::Body.resolve(ui.style());
    let galley = ui.painter().layout_no_wrap(text.clone(), font, color);
    let (cell, _) = ui.allocate_exact_size(egui::vec2(0.0, galley.size().y), egui::Sense::hover());
    let rect = egui::Rect::from_min_size(cell.left_top(), galley.size());
    ui.painter().galley(rect.min, galley, color);
    let response = ui.interact(rect, keys[0].with("refusal"), egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &text));
    response.on_hover_text(r.message(field));
    true
}

/// The ids of a vector's three fields under `key`.
pub fn axis_keys(key: egui::Id) -> [egui::Id; 3] {
    [key.with("x"), key.with("y"), key.with("z")]
}

/// Three number fields (x, y, z) with a unit suffix, each refusing values
/// out of `range` ([`number_field`]); `true` when edited. Side by side
/// where the panel is wide enough for all three, else one under the
/// other, so that no axis is ever cut off by a narrow panel.
pub fn vec3_edit(
    ui: &mut egui::Ui,
    key: egui::Id,
    v: &mut DVec3,
    speed: f64,
    suffix: &str,
    range: &Range,
) -> bool {
    /// Room one drag value needs for `y -12.345 m`, in points.
    const ONE_VALUE_WIDTH: f32 = 84.0;
    let mut changed = false;
    let keys = axis_keys(key);
    let add = |ui: &mut egui::Ui| {
        for ((axis, c), k) in ["x ", "y ", "z "]
            .iter()
            .zip([&mut v.x, &mut v.y, &mut v.z])
            .zip(keys)
        {
            let style = NumberStyle {
                prefix: axis,
                ..NumberStyle::new(speed, suffix)
            };
            changed |= number_field(ui, k, c, range, style);
        }
    };
    if ui.available_width() >= 3.0 * ONE_VALUE_WIDTH {
        ui.horizontal(add);
    } else {
        ui.vertical(add);
    }
    changed
}

/// `(x, y, z)` with 4 decimals.
pub fn fmt3(v: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// Where the inspector keeps its choice of space (egui's memory).
fn space_choice_id() -> egui::Id {
    egui::Id::unique("inspector_space_is_espace")
}

/// Whether the inspector's vector rows show ellipsoid space (else world).
pub fn showing_espace(ui: &egui::Ui) -> bool {
    ui.data(|d| d.get_temp(space_choice_id()).unwrap_or(false))
}

/// The switch between world and ellipsoid space for the vector rows
/// below it. One space at a time: a vector takes about 200 points in
/// monospace, so two side by side (and their label) do not fit the
/// inspector at its default width, and the second was hidden off its edge.
pub fn space_switch(ui: &mut egui::Ui) {
    let mut espace = showing_espace(ui);
    ui.horizontal(|ui| {
        ui.selectable_value(&mut espace, false, "world (m)")
            .on_hover_text("Vectors in world space, metres");
        ui.selectable_value(&mut espace, true, "ellipsoid space")
            .on_hover_text(
                "Vectors divided by the probe's radii: the probe is a unit sphere there",
            );
    });
    ui.data_mut(|d| d.insert_temp(space_choice_id(), espace));
}

/// A vector row of an inspector grid (one column): its label, and below
/// it the value in the space [`space_switch`] chose.
pub fn pair_row(ui: &mut egui::Ui, label: &str, world: DVec3, espace: DVec3) {
    let value = if showing_espace(ui) { espace } else { world };
    ui.vertical(|ui| {
        ui.label(label);
        ui.monospace(fmt3(value));
    });
    ui.end_row();
}

/// An optional vector row (shows "—" when absent).
pub fn opt_pair_row(ui: &mut egui::Ui, label: &str, world: Option<DVec3>, espace: Option<DVec3>) {
    match (world, espace) {
        (Some(w), Some(e)) => pair_row(ui, label, w, e),
        _ => {
            ui.horizontal(|ui| {
                ui.label(label);
                ui.weak("—");
            });
            ui.end_row();
        }
    }
}

/// `text` cut in its middle ("stairs_…_block_12") so that `width` says it
/// fits in `room` points; the start (what it is) and the end (often the
/// object's distinguishing number) both stay. Whole when it fits; just
/// "…" when nothing else does.
pub fn elide_middle(text: &str, room: f32, width: impl Fn(&str) -> f32) -> String {
    if width(text) <= room {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    longest_fitting(chars.len(), room, width, |keep| {
        let head = keep.div_ceil(2);
        let tail = keep / 2;
        let mut s: String = chars[..head].iter().collect();
        s.push('…');
        s.extend(&chars[chars.len() - tail..]);
        s
    })
}

/// `text` cut at its end ("riser 0.406 m, tre…") so that `width` says it
/// fits in `room` points; whole when it fits, just "…" when nothing else
/// does.
pub fn elide_end(text: &str, room: f32, width: impl Fn(&str) -> f32) -> String {
    if width(text) <= room {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    longest_fitting(chars.len(), room, width, |keep| {
        let mut s: String = chars[..keep].iter().collect();
        s.push('…');
        s
    })
}

/// `cut(keep)` for the most characters kept (fewer than all `len`) that
/// `width` says fit in `room` points; the width grows with them.
fn longest_fitting(
    len: usize,
    room: f32,
    width: impl Fn(&str) -> f32,
    cut: impl Fn(usize) -> String,
) -> String {
    let (mut lo, mut hi) = (0, len.saturating_sub(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if width(&cut(mid)) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    cut(lo)
}

/// A finding's row tail, " · {measured} · {object}", fitted to `room`
/// points: the measurements are what the row is read for, so the object's
/// name is cut first (in its middle, keeping its distinguishing end), and
/// left out when not even a few of its characters fit; only then are the
/// measurements cut, at their end, so that the first (a riser's height, a
/// gap's width) stays.
pub fn fit_measured_then_object(
    measured: &str,
    object: &str,
    room: f32,
    width: impl Fn(&str) -> f32,
) -> String {
    let whole = format!(" · {measured} · {object}");
    if width(&whole) <= room {
        return whole;
    }
    let head = format!(" · {measured}");
    let object_room = room - width(&head) - width(" · ");
    // Fewer than this many characters of a name say nothing about it.
    const MIN_NAME_CHARS: usize = 6;
    let name = elide_middle(object, object_room, &width);
    if name.chars().count() >= MIN_NAME_CHARS.min(object.chars().count()) && name != "…" {
        return format!("{head} · {name}");
    }
    elide_end(&head, room, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::debug_draw::OverlayKind;

    /// A swatch has the very bytes the 3D view draws its overlay in (an
    /// sRGB value read as linear would come out lighter).
    #[test]
    fn swatch_bytes_are_the_view_bytes() {
        for kind in OverlayKind::ALL {
            let c = kind.color();
            let view = crate::render::convert::srgba(c);
            let same = egui::Color32::from_rgba_unmultiplied(view.r, view.g, view.b, view.a);
            assert_eq!(color32(c), same, "{kind:?}");
            let o = opaque(c).to_srgba_unmultiplied();
            assert_eq!(o, [view.r, view.g, view.b, 255], "{kind:?}");
        }
    }

    #[test]
    fn a_long_text_is_cut_in_its_middle_to_fit() {
        let w = |s: &str| s.chars().count() as f32 * 7.0;
        let text = "riser 0.300 m · stairs_north_block_12";
        assert_eq!(elide_middle(text, 1000.0, w), text, "whole when it fits");
        let cut = elide_middle(text, 20.0 * 7.0, w);
        assert_eq!(cut.chars().count(), 20, "{cut}");
        assert!(
            cut.starts_with("riser 0.3") && cut.ends_with("_block_12"),
            "{cut}"
        );
        assert!(cut.contains('…'));
        assert_eq!(elide_middle(text, 3.0, w), "…");
    }

    #[test]
    fn a_row_keeps_its_measurements_and_cuts_the_object_first() {
        let w = |s: &str| s.chars().count() as f32 * 7.0;
        let (measured, object) = ("riser 0.406 m, tread 3.251 m", "world:may_trm1_1");
        let whole = format!(" · {measured} · {object}");
        assert_eq!(fit_measured_then_object(measured, object, 1000.0, w), whole);
        // Room for the measurements and part of the name: the name is cut.
        let n = whole.chars().count() - 6;
        let fitted = fit_measured_then_object(measured, object, n as f32 * 7.0, w);
        assert!(fitted.starts_with(&format!(" · {measured} · ")), "{fitted}");
        assert!(fitted.ends_with("m1_1") && fitted.contains('…'), "{fitted}");
        assert!(fitted.chars().count() <= n, "{fitted}");
        // Too little room for a useful name: the measurements, cut at
        // their end, keep the riser's height.
        let fitted = fit_measured_then_object(measured, object, 20.0 * 7.0, w);
        assert!(fitted.starts_with(" · riser 0.406 m"), "{fitted}");
        assert!(!fitted.contains("trm1"), "{fitted}");
        assert!(fitted.chars().count() <= 20, "{fitted}");
        assert_eq!(fit_measured_then_object(measured, object, 3.0, w), "…");
    }
}
