//! The section plot of the bottom panel: the level cut by a vertical plane
//! along a walk ([`crate::analysis::section`]), with the character's
//! outline (its ellipsoid, or the capsule, cylinder or box it walks with)
//! at several frames, the path of its centre, a marker where the
//! stepper is, and the measured riser or opening height as a labelled bar.
//! Drawn at equal scale on both axes, so a step looks like a step.
//!
//! The walk is the opened check finding's deciding walk, else the selected
//! probe's walk-mode frames, else its stepped path. Cut coordinates: `s`
//! metres along the walk, `y` world height.

use super::CollidoscopeApp;
use crate::analysis::checks::Finding;
use crate::analysis::section::{BodyCut, Section, cut};
use crate::app::state::EditorState;
use crate::character::Body;
use eframe::egui::{self, Color32};
use egui_plot::{Legend, Line, Plot, PlotPoint, PlotPoints, Points, Text};
use glam::{DVec2, DVec3};
use std::sync::Arc;

/// Outlines drawn along the path (evenly spaced frames, first and last included).
pub const OUTLINES: usize = 6;
/// Points of one outline.
const OUTLINE_POINTS: usize = 48;
/// Most cut segments drawn (each is one plot line).
const MAX_DRAWN_SEGMENTS: usize = 4000;

/// A measurement drawn as a bar with its value: a riser's height or a
/// clearance up, a tread's depth across.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureBar {
    /// Foot of the bar (its riser end for a tread), `(s, y)`.
    pub foot: [f64; 2],
    /// Top of the bar (its far end for a tread), `(s, y)`.
    pub top: [f64; 2],
    /// `riser 0.300 m`, `clearance 2.000 m`, `tread 0.600 m`.
    pub label: String,
}

impl MeasureBar {
    /// Whether the bar lies across (a tread) rather than up.
    pub fn across(&self) -> bool {
        (self.top[1] - self.foot[1]).abs() < (self.top[0] - self.foot[0]).abs()
    }
}

/// Everything the section plot draws, in cut coordinates `(s, y)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SectionPlot {
    /// The level's cut.
    pub segments: Vec<[[f64; 2]; 2]>,
    /// The body's outline at a few frames.
    pub outlines: Vec<Vec<[f64; 2]>>,
    /// The centre's path.
    pub path: Vec<[f64; 2]>,
    /// Where the stepper is.
    pub marker: Option<[f64; 2]>,
    /// The body's outline at the marker.
    pub marker_outline: Vec<[f64; 2]>,
    /// The measured height (riser or clearance), for a finding: what the
    /// view opens zoomed to.
    pub bar: Option<MeasureBar>,
    /// The tread on top of a riser, for a step with one.
    pub tread: Option<MeasureBar>,
    /// Segments were left out (the cut's cap or the drawing cap).
    pub truncated: bool,
    /// What the outlines are (`ellipsoid`, `capsule`, ...), for the legend.
    pub body: &'static str,
}

impl SectionPlot {
    /// The lowest and highest height of everything drawn, metres
    /// (`(0, 0)` when nothing is).
    pub fn y_range(&self) -> (f64, f64) {
        let ys = self
            .segments
            .iter()
            .flatten()
            .chain(self.outlines.iter().flatten())
            .chain(&self.path)
            .chain(&self.marker_outline)
            .chain(self.bar.iter().flat_map(|b| [&b.foot, &b.top]))
            .chain(self.tread.iter().flat_map(|b| [&b.foot, &b.top]))
            .map(|p| p[1]);
        let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
        if lo <= hi { (lo, hi) } else { (0.0, 0.0) }
    }
}

/// The body's outline in `sec` centred at `c`.
fn body_outline(sec: &Section, c: DVec2) -> Vec<[f64; 2]> {
    sec.body
        .outline(c, OUTLINE_POINTS)
        .into_iter()
        .map(|p| [p.x, p.y])
        .collect()
}

/// The plot of `sec`, with `finding`'s measured height and a marker at
/// `current` (world space).
pub fn section_plot(
    sec: &Section,
    finding: Option<&Finding>,
    current: Option<DVec3>,
) -> SectionPlot {
    let arr = |p: DVec2| [p.x, p.y];
    let n = sec.path.len();
    let shown = OUTLINES.min(n);
    let outlines = (0..shown)
        .map(|k| {
            let i = if shown > 1 {
                k * (n - 1) / (shown - 1)
            } else {
                0
            };
            body_outline(sec, sec.path[i])
        })
        .collect();
    let marker = current.map(|p| sec.to_cut(p));
    let bar = finding.and_then(|f| {
        let m = &f.feature;
        let (h, what) = match (m.riser_height_m, m.height_m) {
            (Some(r), _) => (r, "riser"),
            (None, Some(h)) => (h, "clearance"),
            _ => return None,
        };
        let foot = sec.to_cut(m.position);
        Some(MeasureBar {
            foot: arr(foot),
            top: [foot.x, foot.y + h],
            label: format!("{what} {h:.3} m"),
        })
    });
    // The tread runs from the riser's top the way the step climbs (in the
    // cut: forwards when the walk goes up the step, backwards otherwise).
    let tread = finding.and_then(|f| {
        let m = &f.feature;
        let (r, t) = (m.riser_height_m?, m.tread_depth_m?);
        let foot = sec.to_cut(m.position);
        let way = if m.direction.dot(sec.direction) < 0.0 {
            -1.0
        } else {
            1.0
        };
        Some(MeasureBar {
            foot: [foot.x, foot.y + r],
            top: [foot.x + way * t, foot.y + r],
            label: format!("tread {t:.3} m"),
        })
    });
    SectionPlot {
        segments: sec
            .segments
            .iter()
            .take(MAX_DRAWN_SEGMENTS)
            .map(|s| [arr(s[0]), arr(s[1])])
            .collect(),
        outlines,
        path: sec.path.iter().map(|p| arr(*p)).collect(),
        marker: marker.map(arr),
        marker_outline: marker.map_or(Vec::new(), |m| body_outline(sec, m)),
        bar,
        tread,
        truncated: sec.truncated || sec.segments.len() > MAX_DRAWN_SEGMENTS,
        body: sec.body.name(),
    }
}

/// The section along a polyline of centres (world space): the cut through
/// its first point towards its last, `margin` metres beyond both ends.
pub fn section_of_path(
    level: &crate::level::Level,
    path: &[DVec3],
    body: &Body,
    margin: f64,
) -> Option<Section> {
    let origin = *path.first()?;
    let far = path
        .iter()
        .max_by(|a, b| {
            let h = |p: &DVec3| (*p - origin).with_y(0.0).length_squared();
            h(a).total_cmp(&h(b))
        })
        .copied()?;
    let dir = (far - origin).with_y(0.0).normalize_or(DVec3::X);
    let along = |p: DVec3| DVec2::new((p - origin).dot(dir), p.y);
    let cut_path: Vec<DVec2> = path.iter().map(|p| along(*p)).collect();
    let (lo, hi) = cut_path.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let reach = body.half_height() * 2.0 + 1.0;
    let (segments, truncated) = cut(
        level,
        origin,
        dir,
        (lo.x - margin, hi.x + margin),
        (lo.y - reach, hi.y + reach),
    );
    Some(Section {
        origin,
        direction: dir,
        segments,
        truncated,
        path: cut_path,
        body: BodyCut::of(body, dir),
    })
}

/// What the fallback section depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct SectionKey {
    level: usize,
    selected: Option<usize>,
    frames: usize,
    last_frame: Option<u32>,
    records: usize,
    start: DVec3,
    body: Body,
}

/// The walk-mode frames or the stepped path of the selected probe, world space.
fn probe_path(st: &EditorState) -> Vec<DVec3> {
    if !st.walk.frames.is_empty() {
        let mut path = vec![st.walk.frames[0].start()];
        path.extend(st.walk.frames.iter().map(|f| f.end()));
        return path;
    }
    let Some(p) = st.selected_probe() else {
        return Vec::new();
    };
    let mut path = vec![p.stepper.start_position().unwrap_or(p.position)];
    path.extend(p.stepper.records().iter().map(|r| r.end));
    path
}

/// The section for the selected probe (cached while its path holds still).
fn fallback_section(app: &mut CollidoscopeApp) -> Option<&Section> {
    let st = &app.state;
    let level = st.level.as_ref()?;
    let probe = st.selected_probe()?;
    let key = SectionKey {
        level: Arc::as_ptr(level) as usize,
        selected: st.selected,
        frames: st.walk.frames.len(),
        last_frame: st.walk.frames.back().map(|f| f.spec.index),
        records: probe.stepper.records().len(),
        start: probe.position,
        // Walk-mode frames are the character's; a stepped move is the
        // probe's own shape, or the engine's body while a frame is stepped.
        body: if st.walk.frames.is_empty() {
            match probe.shown_body().solid() {
                Some(solid) => Body::Solid(solid),
                None => Body::Ellipsoid(probe.radii()),
            }
        } else {
            Body::of(&probe.settings)
        },
    };
    if app.section_cache.as_ref().map(|(k, _)| k) != Some(&key) {
        let sec = section_of_path(level, &probe_path(st), &key.body, 1.0);
        app.section_cache = sec.map(|s| (key, s));
    }
    app.section_cache.as_ref().map(|(_, s)| s)
}

/// Height of one legend row, points.
const LEGEND_ROW_H: f32 = 18.0;

/// Points of the plot's height taken by the x axis, its numbers and label.
const AXES_H: f32 = 30.0;

/// The height above data spanning `y_min..y_max` (metres) that leaves the
/// top `legend_h` points of a `plot_h`-point plot to the legend: the data
/// then fill the rest. Zero when the plot is too short for both, or the
/// span is not finite.
pub fn legend_headroom(y_min: f64, y_max: f64, plot_h: f32, legend_h: f32) -> f64 {
    let span = y_max - y_min;
    let free = f64::from(plot_h - legend_h);
    if !(span.is_finite() && span > 0.0) || free < f64::from(plot_h) * 0.25 {
        return 0.0;
    }
    span * f64::from(legend_h) / free
}

/// Share of the plot's height the measured riser or clearance takes when
/// the view opens on a finding (at least half, so a 0.15 m riser is read
/// at a glance rather than as a 10-pixel notch).
pub const FOCUS_SHARE: f64 = 0.6;

/// How the section plot is framed, in plain numbers (the tests read them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SectionView {
    /// What the view was last framed for: the opened finding's index and
    /// its frame, or `None` for the probe's path.
    framed_for: Option<Option<(usize, usize)>>,
    /// Reset view was asked for (the button, or a double click).
    reset: bool,
    /// The bounds shown last frame, `([s_min, y_min], [s_max, y_max])`.
    pub bounds: Option<([f64; 2], [f64; 2])>,
    /// The plot's data rectangle last frame, screen points.
    pub rect: Option<egui::Rect>,
    /// The riser or clearance bar drawn last frame.
    pub bar: Option<MeasureBar>,
    /// The labels drawn last frame (riser, clearance, tread).
    pub labels: Vec<String>,
}

impl SectionView {
    /// Asks for the view the plot opened with (applied next frame).
    pub fn request_reset(&mut self) {
        self.reset = true;
    }
}

/// The bounds that frame `bar` (a riser or a clearance) so that it takes
/// [`FOCUS_SHARE`] of the height of a plot whose data rectangle is
/// `aspect` times as wide as it is high, at equal scale; the bar sits a
/// third of the way across, so the walk coming to it shows on its left.
/// `None` for a bar of no height.
pub fn focus_bounds(bar: &MeasureBar, aspect: f64) -> Option<([f64; 2], [f64; 2])> {
    let h = (bar.top[1] - bar.foot[1]).abs();
    if !(h.is_finite() && h > 1e-6) {
        return None;
    }
    let aspect = if aspect.is_finite() && aspect > 0.05 {
        aspect
    } else {
        1.0
    };
    let view_h = h / FOCUS_SHARE;
    let y0 = bar.foot[1].min(bar.top[1]) - (view_h - h) * 0.5;
    // A hair narrower than the aspect asks: egui_plot then widens the
    // x range to equal scale and leaves the height as it is.
    let view_w = view_h * aspect * 0.98;
    let x0 = bar.foot[0] - view_w / 3.0;
    Some(([x0, y0], [x0 + view_w, y0 + view_h]))
}

/// The width over the height of the plot's data rectangle, from last
/// frame's, or estimated from the size asked for.
fn data_aspect_of(view: &SectionView, w: f32, h: f32) -> f64 {
    match view.rect {
        Some(r) if r.height() > 1.0 => f64::from(r.width() / r.height()),
        _ => f64::from((w - 50.0).max(10.0) / (h - AXES_H).max(10.0)),
    }
}

/// Shows the section plot, `w` by `h` points: a row with Reset view over
/// the plot. The plain mouse wheel does nothing to it (it scrolled the
/// riser out of sight): Ctrl + wheel zooms, Shift + wheel or a drag pans.
pub fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp, w: f32, h: f32) {
    let current = app.state.selected_probe().map(|p| p.shown_center());
    let open_key = app.state.checks.open.as_ref().map(|o| (o.index, o.frame));
    let data = if let Some(open) = &app.state.checks.open {
        section_plot(&open.section, app.state.checks.open_finding(), current)
    } else {
        fallback_section(app).map_or_else(SectionPlot::default, |s| section_plot(s, None, current))
    };
    if data.path.is_empty() && data.segments.is_empty() {
        app.section_view = SectionView::default();
        super::plots::empty_plot(ui, w, h, "Place a probe: its path's cut shows here");
        return;
    }
    let title = if app.state.checks.open.is_some() {
        "finding's walk"
    } else {
        "probe path"
    };
    ui.vertical(|ui| {
        ui.set_width(w);
        ui.horizontal(|ui| {
            ui.strong("Section");
            if ui
                .small_button("Reset view")
                .on_hover_text(if open_key.is_some() {
                    "Back to the view zoomed to the finding's riser or clearance \
                     (also a double click on the plot)"
                } else {
                    "Back to the whole path (also a double click on the plot)"
                })
                .clicked()
            {
                app.section_view.request_reset();
            }
            ui.weak("Ctrl+wheel zoom · Shift+wheel or drag pan");
        });
        let h = (h - ui.spacing().interact_size.y - ui.spacing().item_spacing.y).max(60.0);
        plot(ui, app, &data, title, open_key, w, h);
    });
}

#[allow(clippy::too_many_arguments)]
fn plot(
    ui: &mut egui::Ui,
    app: &mut CollidoscopeApp,
    data: &SectionPlot,
    title: &str,
    open_key: Option<(usize, usize)>,
    w: f32,
    h: f32,
) {
    // Room above the data for the legend (top right): without it the
    // legend covered the probe's outline at the end of a short walk.
    let entries = [
        !data.segments.is_empty(),
        !data.outlines.is_empty(),
        true,
        data.marker.is_some(),
        data.bar.is_some() || data.tread.is_some(),
    ];
    let legend_h = LEGEND_ROW_H * entries.iter().filter(|e| **e).count() as f32 + 12.0;
    let (y_min, y_max) = data.y_range();
    let headroom = legend_headroom(y_min, y_max, h - AXES_H, legend_h);
    // Framing: on a newly opened finding (or frame), on closing it, and on
    // Reset view.
    let view = &mut app.section_view;
    let reframe = view.reset || view.framed_for != Some(open_key);
    let focus = data
        .bar
        .as_ref()
        .filter(|_| open_key.is_some())
        .and_then(|b| focus_bounds(b, data_aspect_of(view, w, h)));
    view.reset = false;
    view.framed_for = Some(open_key);
    let shift = ui.input(|i| i.modifiers.shift);
    let shown = Plot::new("section")
        .legend(Legend::default())
        .include_y(y_max + headroom)
        .width(w)
        .height(h)
        .x_axis_label("along the walk (m)")
        .y_axis_label("height (m)")
        .data_aspect(1.0)
        // The plain wheel is left alone; Shift + wheel pans across (egui
        // turns it into a sideways scroll), Ctrl + wheel zooms.
        .allow_scroll(shift)
        .allow_double_click_reset(false)
        .show(ui, |pu| {
            if reframe {
                match focus {
                    Some((min, max)) => {
                        pu.set_plot_bounds(egui_plot::PlotBounds::from_min_max(min, max))
                    }
                    None => pu.set_auto_bounds(true),
                }
            }
            draw(pu, data, title);
        });
    let view = &mut app.section_view;
    if shown.response.double_clicked() {
        view.request_reset();
    }
    let b = shown.transform.bounds();
    view.bounds = Some((b.min(), b.max()));
    view.rect = Some(*shown.transform.frame());
    view.bar = data.bar.clone();
    view.labels = data
        .bar
        .iter()
        .chain(&data.tread)
        .map(|b| b.label.clone())
        .collect();
}

/// The plot's items.
fn draw(pu: &mut egui_plot::PlotUi<'_>, data: &SectionPlot, title: &str) {
    let grey = Color32::from_gray(170);
    for s in &data.segments {
        pu.line(
            Line::new("level cut", PlotPoints::from(s.to_vec()))
                .color(grey)
                .width(1.5)
                .allow_hover(false),
        );
    }
    let blue = Color32::from_rgb(70, 140, 230);
    for o in &data.outlines {
        pu.line(
            Line::new(data.body, PlotPoints::from(o.clone()))
                .color(blue.gamma_multiply(0.6))
                .allow_hover(false),
        );
    }
    pu.line(Line::new(title, PlotPoints::from(data.path.clone())).color(blue));
    if let Some(m) = data.marker {
        let orange = Color32::from_rgb(250, 160, 40);
        pu.line(
            Line::new("now", PlotPoints::from(data.marker_outline.clone()))
                .color(orange)
                .width(2.0),
        );
        pu.points(
            Points::new("now", PlotPoints::from(vec![m]))
                .radius(4.0)
                .color(orange),
        );
    }
    let red = Color32::from_rgb(230, 70, 60);
    for b in data.bar.iter().chain(&data.tread) {
        pu.line(
            Line::new("measured", PlotPoints::from(vec![b.foot, b.top]))
                .color(red)
                .width(3.0),
        );
        // Readable over the cut and the outlines: a dark card, 13 points.
        let text = egui::RichText::new(&b.label)
            .size(13.0)
            .color(Color32::WHITE)
            .background_color(Color32::from_black_alpha(190));
        let (at, anchor) = if b.across() {
            // Above the tread, beside the riser's top.
            let way = (b.top[0] - b.foot[0]).signum();
            (
                PlotPoint::new(b.foot[0], b.foot[1]),
                if way < 0.0 {
                    egui::Align2::RIGHT_BOTTOM
                } else {
                    egui::Align2::LEFT_BOTTOM
                },
            )
        } else {
            // Left of the bar, half-way up: the side the walk comes from.
            (
                PlotPoint::new(b.foot[0], (b.foot[1] + b.top[1]) * 0.5),
                egui::Align2::RIGHT_CENTER,
            )
        };
        pu.text(Text::new("measured", at, text).anchor(anchor));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::checks::Verdict;
    use crate::analysis::features::{Feature, FeatureKind};

    fn section() -> Section {
        Section {
            origin: DVec3::new(1.0, 0.0, 2.0),
            direction: DVec3::Z,
            segments: vec![[DVec2::new(0.0, 0.0), DVec2::new(1.0, 0.0)]],
            truncated: false,
            path: (0..10).map(|i| DVec2::new(0.1 * i as f64, 0.9)).collect(),
            body: BodyCut::Ellipse {
                half: DVec2::new(0.4, 0.9),
            },
        }
    }

    fn step(riser: f64) -> Finding {
        Finding {
            feature: Feature {
                kind: FeatureKind::Step,
                position: DVec3::new(1.0, 0.0, 2.5),
                direction: DVec3::Z,
                riser_height_m: Some(riser),
                tread_depth_m: Some(0.6),
                tread_walled: false,
                width_m: None,
                height_m: None,
                slope_deg: None,
                extent_m: 2.0,
                object: Some("stairs".into()),
                cells: 10,
                flight: None,
            },
            marginal: None,
            verdict: Verdict::Climbs,
            reason: String::new(),
            walks: Vec::new(),
        }
    }

    #[test]
    fn the_legend_gets_its_share_of_the_height_above_the_data() {
        // 2 m of data in a 160-point plot with an 80-point legend: the
        // data take the lower half, so 2 m more above them.
        assert!((legend_headroom(-0.5, 1.5, 160.0, 80.0) - 2.0).abs() < 1e-12);
        // Too short a plot, or nothing drawn: no headroom.
        assert_eq!(legend_headroom(0.0, 2.0, 90.0, 80.0), 0.0);
        assert_eq!(legend_headroom(1.0, 1.0, 160.0, 80.0), 0.0);
        assert_eq!(legend_headroom(0.0, f64::INFINITY, 160.0, 80.0), 0.0);
        let plot = section_plot(&section(), None, None);
        let (lo, hi) = plot.y_range();
        assert!(lo.is_finite() && hi > lo, "{lo}..{hi}");
        assert_eq!(SectionPlot::default().y_range(), (0.0, 0.0));
    }

    #[test]
    fn the_outlines_lie_on_the_ellipse() {
        let plot = section_plot(&section(), None, Some(DVec3::new(1.0, 0.9, 2.3)));
        assert_eq!(plot.outlines.len(), OUTLINES);
        let sec = section();
        let firsts = [sec.path[0], sec.path[9]];
        let centres = [
            plot.outlines[0].clone(),
            plot.outlines[OUTLINES - 1].clone(),
        ];
        for (c, outline) in firsts.iter().zip(centres) {
            for p in outline {
                let q = (DVec2::from(p) - *c) / sec.body.half_extent();
                assert!((q.length() - 1.0).abs() < 1e-9, "{p:?} is off the ellipse");
            }
        }
        let m = plot.marker.expect("a marker at the probe");
        assert!((m[0] - 0.3).abs() < 1e-9 && (m[1] - 0.9).abs() < 1e-9);
        assert_eq!(plot.path.len(), 10);
    }

    #[test]
    fn the_riser_bar_has_the_measured_height() {
        let plot = section_plot(&section(), Some(&step(0.3)), None);
        let bar = plot.bar.expect("a step has a riser bar");
        assert!(
            (bar.foot[0] - 0.5).abs() < 1e-9,
            "at the feature, 0.5 m along"
        );
        assert!((bar.top[1] - bar.foot[1] - 0.3).abs() < 1e-12);
        assert_eq!(bar.label, "riser 0.300 m");
        assert!(plot.marker.is_none());
    }

    #[test]
    fn the_view_opens_with_the_riser_filling_most_of_its_height() {
        let plot = section_plot(&section(), Some(&step(0.15)), None);
        let bar = plot.bar.clone().expect("a riser bar");
        for aspect in [0.5, 1.0, 3.0, 6.5] {
            let (min, max) = focus_bounds(&bar, aspect).expect("a view");
            let (w, h) = (max[0] - min[0], max[1] - min[1]);
            assert!((0.15 / h - FOCUS_SHARE).abs() < 1e-9, "{h}");
            assert!(0.15 >= 0.5 * h, "at least half the height");
            assert!(
                w <= h * aspect && w > 0.9 * h * aspect,
                "equal scale: {w} × {h}"
            );
            assert!(
                min[1] < bar.foot[1] && bar.top[1] < max[1],
                "all of it in view"
            );
            assert!(min[0] < bar.foot[0] && bar.foot[0] < max[0]);
        }
        // The tread from the riser's top, the way the step climbs, labelled.
        let tread = plot.tread.expect("a step with a tread");
        assert!(tread.across());
        assert!((tread.foot[1] - bar.top[1]).abs() < 1e-12);
        assert!((tread.top[0] - tread.foot[0] - 0.6).abs() < 1e-12);
        assert_eq!(tread.label, "tread 0.600 m");
        let flat = MeasureBar {
            foot: [0.0, 1.0],
            top: [0.0, 1.0],
            label: String::new(),
        };
        assert_eq!(focus_bounds(&flat, 2.0), None, "nothing to zoom to");
    }
}
