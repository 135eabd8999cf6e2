//! The mesh hygiene analysis in the window: run on a background thread
//! (a second or two on the largest levels), its counts per kind, which
//! kinds are drawn, the item opened from the list, and what the view
//! draws for them. The analysis itself is [`crate::analysis::hygiene`].

use crate::analysis::hygiene::{
    HygieneItem, HygieneKind, HygieneOptions, HygieneReport, analyse_level,
};
use crate::app::camera_ctl::look_at_keep_offset;
use crate::app::state::EditorState;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use crate::level::Level;
use crate::mesh::TriMesh;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

/// Items of one kind drawn at most: a messy level has tens of thousands of
/// open edges, more than anyone reads in a view; the list shows them all.
pub const MAX_DRAWN_PER_KIND: usize = 2000;

/// A finished analysis and how long it took, milliseconds.
type Analysed = (HygieneReport, f64);

/// How far from an opened item the camera stands at most, metres.
pub const FRAME_DISTANCE_M: f32 = 12.0;

/// The analysis as the window holds it.
#[derive(Default)]
pub struct HygieneState {
    /// The run in progress: the level it analyses and where its result comes.
    job: Option<(Arc<Level>, Receiver<Analysed>)>,
    /// The last result and how long it took, milliseconds.
    pub report: Option<(Arc<HygieneReport>, f64)>,
    /// Which kinds the view draws, in [`HygieneKind::ALL`] order (faults on).
    pub drawn: [bool; HygieneKind::ALL.len()],
    /// The kind whose items the list shows.
    pub listed: Option<HygieneKind>,
    /// The item opened from the list: its kind and index.
    pub open: Option<(HygieneKind, usize)>,
}

impl Clone for HygieneState {
    /// A clone keeps the result but not a running job.
    fn clone(&self) -> Self {
        HygieneState {
            job: None,
            report: self.report.clone(),
            drawn: self.drawn,
            listed: self.listed,
            open: self.open,
        }
    }
}

impl std::fmt::Debug for HygieneState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HygieneState")
            .field("running", &self.job.is_some())
            .field("faults", &self.report.as_ref().map(|r| r.0.faults))
            .field("open", &self.open)
            .finish()
    }
}

impl HygieneState {
    /// Whether a run is in progress.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Forgets the result and any run (a new level).
    pub fn clear(&mut self) {
        *self = HygieneState::default();
    }

    /// Whether `kind` is drawn.
    pub fn is_drawn(&self, kind: HygieneKind) -> bool {
        kind_index(kind).is_some_and(|i| self.drawn[i])
    }

    /// Turns drawing `kind` on or off.
    pub fn set_drawn(&mut self, kind: HygieneKind, on: bool) {
        if let Some(i) = kind_index(kind) {
            self.drawn[i] = on;
        }
    }

    /// The item opened from the list.
    pub fn open_item(&self) -> Option<&HygieneItem> {
        let (kind, i) = self.open?;
        self.report.as_ref()?.0.kind(kind).items.get(i)
    }
}

fn kind_index(kind: HygieneKind) -> Option<usize> {
    HygieneKind::ALL.iter().position(|&k| k == kind)
}

impl EditorState {
    /// Starts analysing the loaded level's mesh (a run in progress is replaced).
    pub fn run_hygiene(&mut self) {
        let Some(level) = self.level.clone() else {
            self.info("Open a level to analyse");
            return;
        };
        let (tx, rx) = channel();
        let job_level = level.clone();
        let spawned = std::thread::Builder::new()
            .name("mesh-hygiene".into())
            .spawn(move || {
                let t = Instant::now();
                let report = analyse_level(&job_level, &HygieneOptions::default());
                // The window may have dropped the job (a new level): nothing to do.
                let _ = tx.send((report, t.elapsed().as_secs_f64() * 1e3));
            });
        match spawned {
            Ok(_) => {
                self.hygiene.job = Some((level, rx));
                self.info("Analysing the mesh …");
            }
            Err(e) => self.error(format!("Could not start the mesh analysis: {e}")),
        }
    }

    /// Takes a finished analysis (the window calls this every frame);
    /// returns whether one is still running.
    pub fn poll_hygiene(&mut self) -> bool {
        let Some((level, rx)) = &self.hygiene.job else {
            return false;
        };
        let (report, ms) = match rx.try_recv() {
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => {
                self.hygiene.job = None;
                self.error("The mesh analysis stopped without a result");
                return false;
            }
            Ok(done) => done,
        };
        let current = self.level.as_ref().is_some_and(|l| Arc::ptr_eq(l, level));
        self.hygiene.job = None;
        if !current {
            return false;
        }
        self.info(format!(
            "Mesh hygiene: {} faults ({} coplanar internal edges) in {ms:.0} ms",
            report.faults,
            report.count(HygieneKind::CoplanarEdge)
        ));
        let drawn = HygieneKind::ALL.map(|k| k.is_fault() && report.count(k) > 0);
        self.hygiene.drawn = drawn;
        self.hygiene.listed = HygieneKind::ALL
            .into_iter()
            .find(|&k| k.is_fault() && report.count(k) > 0);
        self.hygiene.open = None;
        self.hygiene.report = Some((Arc::new(report), ms));
        false
    }

    /// Opens item `i` of `kind`: highlights it and aims the camera at it,
    /// from no farther than [`FRAME_DISTANCE_M`] (a crack of a millimetre is
    /// invisible from across the level).
    pub fn open_hygiene_item(&mut self, kind: HygieneKind, i: usize) {
        self.hygiene.open = Some((kind, i));
        if let Some(item) = self.hygiene.open_item() {
            let at = item.position.as_vec3();
            look_at_keep_offset(&mut self.camera, at);
            let offset = self.camera.eye - self.camera.target;
            if offset.length() > FRAME_DISTANCE_M {
                self.camera.eye = at + offset.normalize() * FRAME_DISTANCE_M;
            }
        }
    }
}

/// The colour each kind is drawn in (its list swatch too).
pub fn kind_color(kind: HygieneKind) -> [f32; 4] {
    match kind {
        HygieneKind::OpenEdge => [1.0, 0.85, 0.1, 1.0],
        HygieneKind::NonManifoldEdge => [1.0, 0.2, 0.2, 1.0],
        HygieneKind::InconsistentWinding => [0.2, 0.9, 1.0, 1.0],
        HygieneKind::WoundAgainstNormals => [0.3, 0.5, 1.0, 1.0],
        HygieneKind::InsideOut => [0.9, 0.9, 0.9, 1.0],
        HygieneKind::TJunction => [1.0, 0.45, 0.0, 1.0],
        HygieneKind::NearMiss => [0.7, 0.3, 1.0, 1.0],
        HygieneKind::Sliver => [0.3, 1.0, 0.4, 1.0],
        HygieneKind::Overlap => [1.0, 0.3, 0.8, 1.0],
        HygieneKind::CoplanarEdge => [0.6, 0.6, 0.75, 1.0],
    }
}

/// What the view draws for the analysis: the items of every drawn kind
/// (at most [`MAX_DRAWN_PER_KIND`] each) and the opened item, labelled.
pub fn hygiene_primitives(state: &HygieneState, mesh: &TriMesh) -> Vec<DebugPrimitive> {
    let Some((report, _)) = &state.report else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for kr in &report.kinds {
        if !state.is_drawn(kr.kind) {
            continue;
        }
        for item in kr.items.iter().take(MAX_DRAWN_PER_KIND) {
            out.push(item_primitive(item, mesh, kind_color(kr.kind), None));
        }
    }
    if let Some(item) = state.open_item() {
        let label = format!(
            "{} {}",
            item.kind.name().replace('_', " "),
            size_words(item)
        );
        out.push(item_primitive(
            item,
            mesh,
            [1.0, 1.0, 1.0, 1.0],
            Some(label),
        ));
    }
    out
}

/// An item's size in its unit.
pub fn size_words(item: &HygieneItem) -> String {
    match item.kind {
        HygieneKind::Sliver | HygieneKind::CoplanarEdge => format!("{:.2}°", item.size),
        HygieneKind::Overlap => format!("{:.4} m²", item.size),
        HygieneKind::WoundAgainstNormals => format!("{:.0} % of its faces", item.size * 100.0),
        HygieneKind::InsideOut => format!("{:.3} m³", item.size),
        // Cracks and missed welds are often far under a millimetre.
        _ if item.size < 1e-3 => format!("{:.3} mm", item.size * 1e3),
        _ => format!("{:.4} m", item.size),
    }
}

/// An edge kind as the segment of its first triangle whose midpoint is the
/// item's position; a vertex kind as a marker; a triangle kind as the
/// triangle's outline.
fn item_primitive(
    item: &HygieneItem,
    mesh: &TriMesh,
    color: [f32; 4],
    label: Option<String>,
) -> DebugPrimitive {
    let first = item
        .triangles
        .first()
        .filter(|&&t| (t as usize) < mesh.triangle_count())
        .map(|&t| mesh.triangle_f64(t));
    let shape = match (item.kind, first) {
        (
            HygieneKind::OpenEdge
            | HygieneKind::NonManifoldEdge
            | HygieneKind::InconsistentWinding
            | HygieneKind::CoplanarEdge,
            Some(c),
        ) => {
            let (a, b) = (0..3)
                .map(|i| (c[i], c[(i + 1) % 3]))
                .min_by(|x, y| {
                    // The position is the edge's midpoint, or the middle of
                    // an open edge's uncovered part: on the edge either way.
                    let dx = segment_distance(x.0, x.1, item.position);
                    let dy = segment_distance(y.0, y.1, item.position);
                    dx.total_cmp(&dy)
                })
                .unwrap_or((item.position, item.position));
            Shape::Segment { a, b }
        }
        (
            HygieneKind::Sliver
            | HygieneKind::Overlap
            | HygieneKind::WoundAgainstNormals
            | HygieneKind::InsideOut,
            Some(corners),
        ) => Shape::Triangle { corners },
        _ => Shape::Point { p: item.position },
    };
    DebugPrimitive {
        kind: OverlayKind::MeshHygiene,
        shape,
        color,
        label,
    }
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(a: crate::math::DVec3, b: crate::math::DVec3, p: crate::math::DVec3) -> f64 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}
