//! Mesh hygiene: the faults in a level's triangles that make a swept
//! ellipsoid snag, fall through or hit "ghost" edges, found from the mesh
//! alone (world space, metres), with no character and no solver.
//!
//! Vertices are first welded by exact position (the importer's own
//! welding, `level::import::weld_ids`), so an unwelded OBJ, where every
//! face has its own corners, is analysed as the surface it draws. Then:
//!
//! - `edges`: one sorted table of the welded edges gives the unmatched
//!   edges (used by one triangle), non-manifold edges (more than two triangles), inconsistent
//!   winding (two triangles running the edge the same way) and the
//!   coplanar internal edges (the edges a sliding sphere can catch as
//!   "ghost" collisions);
//! - `tjunctions`: a vertex strictly inside an unmatched edge;
//! - `coverage`: the open edges, the unmatched edges (or their parts) that
//!   no collinear edge of another triangle covers: a T-junction's seam is
//!   sealed;
//! - `near_miss`: distinct vertices closer than a tolerance (hash grid);
//! - `slivers`: triangles whose smallest angle is under a threshold;
//! - `overlaps`: same-facing coplanar triangles whose interiors overlap;
//! - `winding`: objects wound against their own `vn` normals (as the
//!   import found them) and closed objects turned inside out.
//!
//! Every search is near-linear (sorting, hash grids, BVHs) and runs on
//! rayon's threads; the figures on the shipped levels are in BENCHMARKS.md.
//! A hostile mesh can still put every triangle next to every other (50,000
//! fins round one edge, 40,000 copies of one triangle): each edge or vertex
//! is compared with at most [`MAX_NEIGHBOURS`] candidates and each triangle
//! with at most [`MAX_OVERLAP_CANDIDATES`], so the work stays linear, and a kind whose search stopped there says so
//! ([`KindReport::searches_cut`]; its count is then a lower bound).
//! Each kind lists at most [`HygieneOptions::max_items_per_kind`] items
//! (in a fixed order, so the report is deterministic) while its count
//! stays exact, so a hostile mesh cannot blow up the output.

mod cells;
mod collect;
mod coverage;
mod edges;
mod near_miss;
mod overlaps;
mod slivers;
mod tjunctions;
mod winding;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;

use crate::level::{Level, NormalAgreement};
use crate::math::DVec3;
use crate::mesh::TriMesh;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The coplanar angle shared with the solver's ghost-edge detection
/// (defined in `math`, below both).
pub use crate::math::DEFAULT_COPLANAR_DEG;
pub use winding::{AgainstNormals, against_normals};

/// Most candidates one edge or vertex is compared with. Real levels stay
/// below it (the conference room's chairs, the densest shared level, pack
/// a few thousand vertices into some millimetre cells); beyond it, the
/// search of that input stops and the kind's count becomes a lower bound.
pub const MAX_NEIGHBOURS: usize = 4096;
/// Most coplanar candidates one triangle is clipped against in the overlap
/// search (a clip costs some fifty distance tests; real levels stay far
/// below it).
pub const MAX_OVERLAP_CANDIDATES: usize = 1024;

/// Tolerances of the analysis, world space (metres) and degrees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HygieneOptions {
    /// Distinct vertices closer than this are a near miss (default 1 mm:
    /// far below any modelled detail, far above `f32` rounding in a
    /// kilometre-sized level, about 0.06 mm).
    pub near_miss_m: f64,
    /// A vertex this close to an unmatched edge, and farther than this from its
    /// ends, is a T-junction (default 1 mm; edges no longer than twice this
    /// are not searched). Collinear edges this close seal an unmatched
    /// edge, and open parts no longer than this are not listed.
    pub tjunction_m: f64,
    /// Normals within this angle are coplanar (default [`DEFAULT_COPLANAR_DEG`]).
    pub coplanar_deg: f64,
    /// Same-facing triangles within this distance of each other's plane
    /// are candidates for an overlap (default 1 mm).
    pub plane_distance_m: f64,
    /// Overlaps smaller than this area (square metres) are rounding at a
    /// shared edge, not an overlap (default 1 mm², 1e-6 m²).
    pub overlap_min_area_m2: f64,
    /// A triangle whose smallest angle is under this (default 1°), and
    /// which is thinner than [`HygieneOptions::sliver_max_width_m`], is a
    /// sliver.
    pub sliver_min_angle_deg: f64,
    /// Slivers are thinner than this (their smallest altitude, default
    /// 1 cm). A thin wall's end, 2 cm by 3 m, has 0.38° corners on
    /// purpose, and its plane is exact; a 1 mm splinter's is rounding.
    pub sliver_max_width_m: f64,
    /// Items listed per kind; the count stays exact (default 10,000).
    pub max_items_per_kind: usize,
}

impl Default for HygieneOptions {
    fn default() -> Self {
        HygieneOptions {
            near_miss_m: 1e-3,
            tjunction_m: 1e-3,
            coplanar_deg: DEFAULT_COPLANAR_DEG,
            plane_distance_m: 1e-3,
            overlap_min_area_m2: 1e-6,
            sliver_min_angle_deg: 1.0,
            sliver_max_width_m: 0.01,
            max_items_per_kind: 10_000,
        }
    }
}

/// What an item is. The order here is the order of [`HygieneReport::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HygieneKind {
    /// An edge used by one triangle only (a hole's rim, a crack, or the
    /// border of a deliberately open surface such as terrain) that
    /// collinear edges of other triangles do not cover: where a long edge
    /// meets shorter collinear edges along a seam (a T-junction), the seam
    /// is sealed and none of them is open. `size`: the length no collinear
    /// edge covers, m (the edge's length when none does); `position`: the
    /// middle of the edge, or of its longest uncovered part when partly
    /// covered; `triangles`: the one triangle.
    OpenEdge,
    /// An edge used by more than two triangles that are not closed solids
    /// merely touching along it (fins, solids cutting into each other at
    /// the edge, an odd count). `size`: the edge's length, m;
    /// `triangles`: all of them.
    NonManifoldEdge,
    /// Two triangles run their shared edge the same way: one of them faces
    /// the wrong side. `size`: the edge's length, m; `triangles`: both.
    InconsistentWinding,
    /// An object with faces wound against their own `vn` normals: the
    /// corners' order (counter-clockwise seen from the front) makes a
    /// normal pointing away from the file's normals, so the collision
    /// sees the back of what the renderer shows (a mirrored export, a
    /// flipped winding setting). One item per object. `size`: the share of
    /// its faces with normals that are wound against them (0 to 1);
    /// `triangles`: those faces' triangles; `object`: the object, how many
    /// triangles and of how many with normals.
    WoundAgainstNormals,
    /// A closed object without normals whose faces point inwards: its
    /// signed volume is negative, so it is solid on the outside and hollow
    /// inside (a solid modelled inside out; a room meant to be seen from
    /// within is one too). One item per object. `size`: the signed volume,
    /// m³ (negative); `position`: the centre of its box; `triangles`: its
    /// triangles; `object`: the object and its triangle count.
    InsideOut,
    /// A vertex strictly inside another triangle's unmatched edge: where
    /// rounding opens a crack a sphere can catch or fall into, even when
    /// collinear edges seal the seam. `size`: the vertex's distance to the edge, m;
    /// `triangles`: the edge's triangle first, then the triangles whose
    /// unmatched edges end at the vertex.
    TJunction,
    /// A vertex with another of higher index closer than
    /// [`HygieneOptions::near_miss_m`], distinct and not joined to it by an
    /// edge: a missed weld (two vertices count once, a clump of `k` about
    /// `k - 1` times). `size`: their distance, m; `position`: their
    /// midpoint; `triangles`: those using either.
    NearMiss,
    /// A triangle whose smallest angle is under
    /// [`HygieneOptions::sliver_min_angle_deg`] and whose smallest
    /// altitude is under [`HygieneOptions::sliver_max_width_m`]: its normal
    /// and its contacts are mostly rounding. `size`: that angle, degrees;
    /// `position`: its centroid.
    Sliver,
    /// Two same-facing coplanar triangles whose interiors overlap (a
    /// doubled decal, a fold). `size`: the overlap's area, m²;
    /// `position`: the overlap's centroid; `triangles`: the pair.
    Overlap,
    /// Information, not a fault: a manifold, consistently wound edge
    /// between two coplanar triangles (every quad's diagonal is one). A
    /// sliding sphere can still hit such an edge (a "ghost" collision), so
    /// the list is what a ghost-edge overlay draws. `size`: the angle
    /// between the normals, degrees; `triangles`: both.
    CoplanarEdge,
}

impl HygieneKind {
    /// Every kind, in report order.
    pub const ALL: [HygieneKind; 10] = [
        HygieneKind::OpenEdge,
        HygieneKind::NonManifoldEdge,
        HygieneKind::InconsistentWinding,
        HygieneKind::WoundAgainstNormals,
        HygieneKind::InsideOut,
        HygieneKind::TJunction,
        HygieneKind::NearMiss,
        HygieneKind::Sliver,
        HygieneKind::Overlap,
        HygieneKind::CoplanarEdge,
    ];

    /// Whether the kind is a fault (counted in [`HygieneReport::faults`]).
    /// Coplanar edges are information: most are intended (quad diagonals).
    /// Open edges are faults of a closed level even though an open terrain
    /// has them by design: the analysis cannot tell, the count says.
    pub fn is_fault(self) -> bool {
        self != HygieneKind::CoplanarEdge
    }

    /// The name in the JSON and the text output (`open_edge`, ...).
    pub fn name(self) -> &'static str {
        match self {
            HygieneKind::OpenEdge => "open_edge",
            HygieneKind::NonManifoldEdge => "non_manifold_edge",
            HygieneKind::InconsistentWinding => "inconsistent_winding",
            HygieneKind::WoundAgainstNormals => "wound_against_normals",
            HygieneKind::InsideOut => "inside_out",
            HygieneKind::TJunction => "t_junction",
            HygieneKind::NearMiss => "near_miss",
            HygieneKind::Sliver => "sliver",
            HygieneKind::Overlap => "overlap",
            HygieneKind::CoplanarEdge => "coplanar_edge",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HygieneItem {
    /// What it is.
    pub kind: HygieneKind,
    /// Where, world space, metres (an edge's midpoint, the vertex, ...: see
    /// [`HygieneKind`]).
    pub position: DVec3,
    /// The triangles involved (indices into the mesh), as [`HygieneKind`] says.
    pub triangles: Vec<u32>,
    /// How big, in the kind's unit (metres, degrees or square metres: see
    /// [`HygieneKind`]).
    pub size: f64,
    /// For the kinds about a whole object, which one and how much of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectShare>,
}

/// The object an item is about, and how many of its triangles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectShare {
    /// The object's name.
    pub name: String,
    /// Its triangles the item is about.
    pub triangles: usize,
    /// Out of how many (those with normals, or all of them).
    pub of: usize,
}

/// All findings of one kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindReport {
    /// The kind.
    pub kind: HygieneKind,
    /// Whether it counts as a fault ([`HygieneKind::is_fault`]).
    pub fault: bool,
    /// How many there are (exact, even when the list is cut).
    pub count: usize,
    /// Whether `items` was cut at [`HygieneOptions::max_items_per_kind`].
    pub truncated: bool,
    /// Triangles, edges or vertices whose search stopped at
    /// [`MAX_NEIGHBOURS`] candidates (a hostile mesh): when above zero,
    /// `count` is a lower bound.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub searches_cut: usize,
    /// The findings, in a fixed order (by edge, vertex or triangle index).
    pub items: Vec<HygieneItem>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The whole analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HygieneReport {
    /// The tolerances used.
    pub options: HygieneOptions,
    /// Distinct vertex positions used by the triangles (after welding).
    pub welded_vertices: usize,
    /// Findings of the fault kinds, added up.
    pub faults: usize,
    /// One entry per kind, in [`HygieneKind::ALL`] order (empty ones too).
    pub kinds: Vec<KindReport>,
}

impl HygieneReport {
    /// The entry of `kind`.
    pub fn kind(&self, kind: HygieneKind) -> &KindReport {
        &self.kinds[HygieneKind::ALL
            .iter()
            .position(|&k| k == kind)
            .unwrap_or(0)]
    }

    /// The count of `kind`.
    pub fn count(&self, kind: HygieneKind) -> usize {
        self.kind(kind).count
    }
}

/// Analyses `mesh` (world space, metres) with the tolerances in `options`,
/// without normals (a mesh built in code).
pub fn analyse(mesh: &TriMesh, options: &HygieneOptions) -> HygieneReport {
    analyse_with_normals(mesh, &[], options)
}

/// Analyses an imported level: its mesh and the import's comparison of
/// each triangle's winding with the file's `vn` normals.
pub fn analyse_level(level: &Level, options: &HygieneOptions) -> HygieneReport {
    analyse_with_normals(level.mesh(), &level.report.triangle_normals, options)
}

/// [`analyse`], with how each triangle compares with its `vn` normals
/// (`agreement`, one per triangle, or empty when there are none).
pub fn analyse_with_normals(
    mesh: &TriMesh,
    agreement: &[NormalAgreement],
    options: &HygieneOptions,
) -> HygieneReport {
    let cap = options.max_items_per_kind;
    let welded = crate::level::import::weld_ids(&mesh.positions);
    let normals: Vec<DVec3> = (0..mesh.triangle_count() as u32)
        .into_par_iter()
        .map(|t| mesh.triangle_normal(t))
        .collect();
    let table = edges::EdgeTable::new(mesh, &welded);
    let edge_kinds = table.classify(mesh, &welded, &normals, options);
    let all_edges = table.edges();
    let on_edges = tjunctions::OnEdges::find(mesh, &all_edges, options.tjunction_m);
    let t_junctions = tjunctions::find(mesh, &all_edges, &on_edges, options);
    let open = coverage::find(mesh, &all_edges, &on_edges, options);
    let (welded_vertices, near_misses) = near_miss::find(mesh, &welded, &table, options);
    let slivers = slivers::find(mesh, options);
    let overlaps = overlaps::find(mesh, &normals, options);
    let against_normals = winding::find_against_normals(mesh, agreement, options);
    let inside_out = winding::find_inside_out(mesh, &welded, agreement, options);
    let mut kinds = Vec::with_capacity(HygieneKind::ALL.len());
    let [non_manifold, winding, coplanar] = edge_kinds;
    for (kind, found) in [
        (HygieneKind::OpenEdge, open),
        (HygieneKind::NonManifoldEdge, non_manifold),
        (HygieneKind::InconsistentWinding, winding),
        (HygieneKind::WoundAgainstNormals, against_normals),
        (HygieneKind::InsideOut, inside_out),
        (HygieneKind::TJunction, t_junctions),
        (HygieneKind::NearMiss, near_misses),
        (HygieneKind::Sliver, slivers),
        (HygieneKind::Overlap, overlaps),
        (HygieneKind::CoplanarEdge, coplanar),
    ] {
        kinds.push(KindReport {
            kind,
            fault: kind.is_fault(),
            count: found.count,
            truncated: found.count > found.items.len(),
            searches_cut: found.cut,
            items: found.items,
        });
    }
    debug_assert!(kinds.iter().all(|k| k.items.len() <= cap));
    let faults = kinds.iter().filter(|k| k.fault).map(|k| k.count).sum();
    HygieneReport {
        options: options.clone(),
        welded_vertices,
        faults,
        kinds,
    }
}
