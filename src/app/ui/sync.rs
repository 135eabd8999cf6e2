//! Keeps the scene renderer in step with the editor state, uploading only
//! what changed: the level once per level, visibility flags, the selected
//! probe's overlay primitives (rebuilt only when the shown iteration or the
//! toggles change) and the probe ellipsoids. World space throughout.

use super::CollidoscopeApp;
use crate::analysis::hygiene::HygieneKind;
use crate::app::checks::finding_primitives;
use crate::app::hygiene::hygiene_primitives;
use crate::app::map::map_primitives;
use crate::bvh::BvhStats;
use crate::collide::debug_draw::{
    DebugPrimitive, OverlayKind, OverlayOptions, OverlaySet, OverlayToggles, Shape,
    primitives_for_trace,
};
use crate::geometry::shape::CharacterShape;
use crate::level::Level;
use glam::DVec3;
use std::sync::Arc;
use std::time::Instant;

/// What was last uploaded, to skip unchanged uploads.
#[derive(Default)]
pub struct SyncMemo {
    level: Option<Arc<Level>>,
    uploaded_level: bool,
    bvh_stats: Option<BvhStats>,
    visible: Vec<bool>,
    overlay_key: Option<OverlayKey>,
    probes: Vec<(DVec3, DVec3, CharacterShape, [f32; 4])>,
    overlays: OverlaySet,
    uploaded_overlays: bool,
    /// The level's bounding volumes (by level address), fitted the first
    /// time a volume overlay is shown.
    volumes: Option<(usize, Arc<crate::broadphase::BoundingVolumes>)>,
}

/// The hygiene report (by address), the kinds drawn and the item opened.
type HygieneKey = (
    usize,
    [bool; HygieneKind::ALL.len()],
    Option<(HygieneKind, usize)>,
);

/// Everything the overlay primitives depend on.
#[derive(Clone, Debug, PartialEq)]
struct OverlayKey {
    level: usize,
    selected: Option<usize>,
    records: usize,
    cursor: Option<usize>,
    current: Option<(DVec3, DVec3)>,
    radii: DVec3,
    /// The body the probe's trace swept.
    body: CharacterShape,
    toggles: OverlayToggles,
    highlight: Option<u32>,
    selected_object: Option<usize>,
    bvh_depth: u32,
    max_boxes: usize,
    /// The check finding opened (report, index): its measurement is drawn.
    finding: Option<(usize, usize)>,
    /// The checks' pins: the report, the filter, the opened finding.
    pins: Option<(usize, crate::app::checks::ChecksFilter, Option<usize>)>,
    /// The hygiene report, the kinds drawn and the item opened.
    hygiene: Option<HygieneKey>,
    /// Compare modes' and what-if's ghosts: every point they pass through.
    ghosts: Vec<DVec3>,
    /// The replay shown (by address).
    replay: Option<usize>,
    /// The stuck-spot map (by address) and the spot opened.
    map: Option<(usize, Option<usize>)>,
    /// The "Move all probes together" run drawn.
    pairs: Option<usize>,
    cylinders: Vec<crate::level::cylinder::Cylinder>,
    /// Whether the cylinders are drawn ([`crate::app::cylinders::cylinders_drawn`]).
    radial_in_use: bool,
}

impl SyncMemo {
    /// The level's BVH statistics (computed once per level).
    pub fn bvh_stats(&self) -> Option<&BvhStats> {
        self.bvh_stats.as_ref()
    }

    /// The overlay primitives last built (labels are drawn from them).
    pub fn primitives(&self) -> &[DebugPrimitive] {
        &self.overlays.primitives
    }

    /// How many boxes of `kind` the per-kind cap left out of the overlays.
    pub fn hidden_boxes(&self, kind: OverlayKind) -> usize {
        self.overlays.hidden(kind)
    }
}

/// Brings the memo (and the renderer, when there is one) up to date.
pub fn sync(app: &mut CollidoscopeApp) {
    let level_changed = match (&app.sync.level, &app.state.level) {
        (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
        (None, None) => false,
        _ => true,
    };
    if level_changed {
        app.sync.level = app.state.level.clone();
        app.sync.bvh_stats = app.state.level.as_ref().map(|l| l.bvh.stats());
        app.sync.uploaded_level = false;
        app.sync.overlay_key = None;
        app.sync.visible.clear();
    }
    rebuild_overlays(app);
    let Some(renderer) = app.renderer.clone() else {
        return;
    };
    let Ok(mut r) = renderer.lock() else {
        return;
    };
    if let (Some(level), false) = (&app.state.level, app.sync.uploaded_level) {
        r.set_level(&level.mesh, &[]);
        app.sync.uploaded_level = true;
    }
    let visible = app.state.visible_flags();
    if visible != app.sync.visible {
        r.set_object_visibility(&visible);
        app.sync.visible = visible;
    }
    let probes: Vec<_> = app
        .state
        .probes
        .iter()
        .map(|p| (p.shown_center(), p.radii(), p.shown_body(), shown_color(p)))
        .collect();
    if probes != app.sync.probes {
        r.set_probes(&probes);
        app.sync.probes = probes;
    }
    if !app.sync.uploaded_overlays {
        r.set_overlays(&app.sync.overlays.primitives);
        app.sync.uploaded_overlays = true;
    }
}

/// The box around the selected level object (white: no overlay uses it).
const SELECTED_OBJECT_COLOR: [f32; 4] = [1.0, 1.0, 1.0, 1.0];

/// Probe alpha while its move is being stepped: the contact ellipsoid,
/// the normal and the slide vector inside it show through.
const STEPPING_PROBE_ALPHA: f32 = 0.3;

/// The probe's colour, translucent while its move is being stepped.
fn shown_color(p: &crate::app::state::Probe) -> [f32; 4] {
    let mut c = p.color;
    if p.stepper.current_record().is_some() || p.stepper.current_method_step().is_some() {
        c[3] = c[3].min(STEPPING_PROBE_ALPHA);
    }
    c
}

fn rebuild_overlays(app: &mut CollidoscopeApp) {
    let st = &app.state;
    // With cylinders, the traces ran on the level plus their prisms: their
    // triangle numbers go past the level's own.
    let Some(level) = crate::app::cylinders::drawn_level(st) else {
        return;
    };
    let probe = st.selected_probe();
    let key = OverlayKey {
        level: Arc::as_ptr(level) as usize,
        selected: st.selected,
        records: probe.map_or(0, |p| p.stepper.step_count()),
        cursor: probe.and_then(|p| p.stepper.cursor()),
        current: probe.and_then(|p| {
            (p.stepper.current_record().map(|r| (r.start, r.end)))
                .or(p.stepper.current_method_step().map(|s| (s.start, s.end)))
        }),
        radii: probe.map_or(DVec3::ONE, |p| p.radii()),
        body: probe.map_or(CharacterShape::Ellipsoid, |p| p.shown_body()),
        toggles: st.overlays.clone(),
        highlight: st.highlight,
        selected_object: st.selected_object,
        bvh_depth: st.view.bvh_level_depth,
        max_boxes: st.view.max_boxes_per_kind,
        finding: st
            .checks
            .report
            .as_ref()
            .zip(st.checks.open.as_ref())
            .map(|((r, _), o)| (Arc::as_ptr(r) as usize, o.index)),
        pins: st.checks.report.as_ref().map(|(r, _)| {
            (
                Arc::as_ptr(r) as usize,
                st.checks.filter,
                st.checks.open.as_ref().map(|o| o.index),
            )
        }),
        hygiene: st
            .hygiene
            .report
            .as_ref()
            .map(|(r, _)| (Arc::as_ptr(r) as usize, st.hygiene.drawn, st.hygiene.open)),
        ghosts: crate::app::compare_draw::ghost_points(&st.compare),
        replay: st
            .replay
            .view
            .as_ref()
            .map(|v| Arc::as_ptr(&v.replay) as usize),
        map: st.map.report.as_ref().map(|r| {
            (
                Arc::as_ptr(r) as usize,
                st.map.open.as_ref().map(|o| o.spot),
            )
        }),
        pairs: st.pairs.as_ref().map(|p| Arc::as_ptr(p) as usize),
        cylinders: st.cylinders.clone(),
        radial_in_use: crate::app::cylinders::cylinders_drawn(st),
    };
    if app.sync.overlay_key.as_ref() == Some(&key) {
        return;
    }
    let t = Instant::now();
    let options = OverlayOptions {
        toggles: st.overlays.clone(),
        bvh_level_depth: st.view.bvh_level_depth,
        max_boxes_per_kind: st.view.max_boxes_per_kind,
    };
    let method_trace = probe.and_then(|p| p.stepper.method_trace());
    let mut overlays = match (probe, key.cursor) {
        (Some(_), Some(cursor)) if method_trace.is_some() => OverlaySet {
            primitives: crate::methods::primitives_for_method(
                method_trace.map_or(&[], |t| &t.iterations),
                cursor,
                key.radii,
                &level.mesh,
                &st.overlays,
            ),
            hidden: Vec::new(),
        },
        (Some(p), Some(cursor)) => primitives_for_trace(
            p.stepper.records(),
            cursor,
            key.radii,
            key.body,
            &level.mesh,
            &level.bvh,
            &options,
        ),
        _ => OverlaySet::default(),
    };
    if let Some(tri) = st
        .highlight
        .filter(|&t| (t as usize) < level.mesh.triangle_count())
    {
        let kind = OverlayKind::HighlightTriangle;
        overlays.primitives.push(DebugPrimitive {
            kind,
            shape: Shape::Triangle {
                corners: level.mesh.triangle_f64(tri),
            },
            color: kind.color(),
            label: Some(format!("tri {tri}")),
        });
    }
    if let Some(o) = st.selected_object.and_then(|i| level.mesh.objects.get(i)) {
        let kind = OverlayKind::HighlightTriangle;
        overlays.primitives.push(DebugPrimitive {
            kind,
            shape: Shape::Box { aabb: o.aabb },
            color: SELECTED_OBJECT_COLOR,
            label: Some(o.name.clone()),
        });
    }
    if let Some(f) = st.checks.open_finding() {
        overlays.primitives.extend(finding_primitives(f));
    }
    if st.overlays.get(OverlayKind::FindingPins) {
        overlays
            .primitives
            .extend(crate::app::checks::finding_pins(&st.checks));
    }
    if st.overlays.get(OverlayKind::MeshHygiene) {
        overlays
            .primitives
            .extend(hygiene_primitives(&st.hygiene, &level.mesh));
    }
    overlays
        .primitives
        .extend(crate::app::compare_draw::compare_primitives(
            &st.compare,
            key.radii,
            st.overlays.get(OverlayKind::ModeComparison),
            st.overlays.get(OverlayKind::WhatIf),
        ));
    if let Some(v) = st
        .replay
        .view
        .as_ref()
        .filter(|_| st.overlays.get(OverlayKind::ReplayPaths))
    {
        overlays
            .primitives
            .extend(crate::app::replay::replay_primitives(&v.replay));
    }
    if st.overlays.get(OverlayKind::StuckMap) {
        overlays.primitives.extend(map_primitives(&st.map));
    }
    if crate::app::cylinders::cylinders_drawn(st) {
        overlays
            .primitives
            .extend(crate::methods::radial_draw::cylinder_primitives(
                &crate::app::cylinders::scene_cylinders(st),
                &st.overlays,
            ));
    }
    if let Some(cmp) = probe.and_then(|p| p.stepper.radial_comparison()) {
        overlays
            .primitives
            .extend(crate::methods::radial_draw::disagreement_primitives(
                cmp,
                key.radii,
                &st.overlays,
            ));
    }
    let volume_kinds = [
        OverlayKind::BoundingSpheres,
        OverlayKind::BoundingAabbs,
        OverlayKind::BoundingObbs,
    ];
    if volume_kinds.iter().any(|&k| st.overlays.get(k)) {
        let at = Arc::as_ptr(level) as usize;
        let volumes = match &app.sync.volumes {
            Some((a, v)) if *a == at => v.clone(),
            _ => Arc::new(crate::broadphase::BoundingVolumes::build(&level.mesh)),
        };
        app.sync.volumes = Some((at, volumes.clone()));
        overlays
            .primitives
            .extend(crate::broadphase::volume_primitives(
                &volumes,
                &level.mesh,
                &st.overlays,
                st.view.max_boxes_per_kind,
            ));
    }
    if let Some(view) = &st.pairs {
        overlays.primitives.extend(
            crate::app::pairs::pair_primitives(view)
                .into_iter()
                .filter(|p| st.overlays.get(p.kind)),
        );
    }
    app.sync.overlays = overlays;
    app.sync.uploaded_overlays = false;
    app.sync.overlay_key = Some(key);
    app.timings.overlays = t.elapsed();
}
