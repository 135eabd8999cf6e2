//! Open edges: the unmatched edges (edges of one triangle) that collinear
//! edges of other triangles do not seal.
//!
//! A BSP compiler, a boolean or a decimator splits faces without splitting
//! their neighbours: a long edge on one side of a seam meets two or more
//! shorter, collinear edges on the other, with vertices in the middle of
//! the long edge (T-junctions). The long edge has no partner with the same
//! ends (nor have the short ones, unless a third face shares them), yet
//! the surface is closed: the short edges cover the long one and the long
//! one covers each short one. Such an edge is sealed; only the parts
//! of an unmatched edge that no collinear edge covers are open: a hole, a
//! crack or a border. The covering edges may be matched themselves (the
//! short edges of a split floor, each shared with a wall standing on it).
//!
//! Which edges can cover an edge E = AB: a collinear edge F overlapping E
//! either has an end strictly inside E (within the tolerance of it, and
//! farther than the tolerance from A and B) or holds A or B strictly
//! inside itself (F holding all of E). An F that ends at or near A and
//! runs along E has its other end inside E or beyond B, so it is found
//! either way, except when its other end is within the tolerance of B: so
//! the edges from A to a vertex within the tolerance of B (and from B to
//! one near A) are candidates too, found on a hash grid of the vertices
//! and looked up by their ends (not by listing every edge at A: the hub of
//! a fan of 50,000 triangles would make that quadratic). Only an F whose
//! ends are both missed welds of A and B is not found (`near_miss` lists
//! those). The relations are the pairs of [`OnEdges`] (the T-junction
//! search's), the edges at each vertex and the vertex grid, so the
//! candidates of every edge come from a few binary searches and lookups,
//! at most [`super::MAX_NEIGHBOURS`] of them, and the whole test is linear
//! in the edges.
//!
//! A candidate covers the interval of E between the projections of its
//! ends when both ends are within the tolerance of E's line; the intervals
//! are sorted and swept, and uncovered parts up to the tolerance long are
//! closed (a whole edge that short too: an opening under a millimetre is
//! rounding, not a hole).

use super::cells::{CellMap, around, cell_of};
use super::collect::{Found, find_capped_with};
use super::edges::Edge;
use super::tjunctions::OnEdges;
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::math::DVec3;
use crate::mesh::TriMesh;

/// What the coverage test of one edge reads.
pub(super) struct Coverage<'a> {
    mesh: &'a TriMesh,
    edges: &'a [Edge],
    on: &'a OnEdges,
    /// The pairs of `on` by edge: `(edge, vertex)`, sorted.
    by_edge: Vec<(u32, u32)>,
    ends_at: EndsAt,
    near: VertexGrid,
    tol: f64,
}

impl<'a> Coverage<'a> {
    /// The test over `edges` (all the mesh's), `on` their pairs within `tol`.
    pub fn new(mesh: &'a TriMesh, edges: &'a [Edge], on: &'a OnEdges, tol: f64) -> Self {
        let mut by_edge: Vec<(u32, u32)> = on.pairs.iter().map(|&(v, e)| (e, v)).collect();
        by_edge.sort_unstable();
        Coverage {
            mesh,
            edges,
            on,
            by_edge,
            ends_at: EndsAt::new(edges),
            near: VertexGrid::new(mesh, edges, tol),
            tol,
        }
    }

    /// The uncovered parts of unmatched edge `e`: `(from, to)` distances
    /// along it from its end `a`, in order, parts of at most the tolerance
    /// left out (an edge that short is under the analysis' resolution);
    /// empty when the edge is sealed.
    pub fn uncovered(&self, e: u32, scratch: &mut Scratch) -> Vec<(f64, f64)> {
        let (edges, tol) = (self.edges, self.tol);
        let pos = |v: u32| self.mesh.positions[v as usize].as_dvec3();
        let Edge { a, b, .. } = edges[e as usize];
        let (pa, pb) = (pos(a), pos(b));
        let length = pa.distance(pb);
        let Scratch {
            candidates,
            spans,
            near,
            cut,
        } = scratch;
        candidates.clear();
        spans.clear();
        *cut = false;
        if tol.is_finite() && tol > 0.0 && length > 0.0 {
            // Edges ending at a vertex on E.
            let from = self.by_edge.partition_point(|p| p.0 < e);
            for &(_, v) in self.by_edge[from..].iter().take_while(|p| p.0 == e) {
                candidates.extend_from_slice(self.ends_at.edges(v));
            }
            // Edges holding A or B.
            for end in [a, b] {
                candidates.extend(self.on.of_vertex(end).iter().map(|&(_, f)| f));
            }
            // Edges from one end to a missed weld of the other: the edges
            // at the end, or the edges to the vertices near the other end,
            // whichever are fewer (the hub of a fan has thousands of the
            // first, a clump of missed welds thousands of the second).
            for (end, other) in [(a, b), (b, a)] {
                let at_end = self.ends_at.edges(end);
                if at_end.len() <= self.near.population(pos(other), tol) {
                    candidates.extend_from_slice(at_end);
                    continue;
                }
                *cut |= self.near.within(self.mesh, pos(other), tol, near);
                for &w in near.iter().filter(|&&w| w != other && w != end) {
                    candidates.extend(edge_between(edges, end, w));
                }
            }
            if candidates.len() > super::MAX_NEIGHBOURS {
                candidates.truncate(super::MAX_NEIGHBOURS);
                *cut = true;
            }
            candidates.sort_unstable();
            candidates.dedup();
            let dir = (pb - pa) / length;
            let off_line = |q: DVec3, s: f64| (q - dir * s).length();
            for &f in candidates.iter().filter(|&&f| f != e) {
                let Edge { a: fa, b: fb, .. } = edges[f as usize];
                let (qa, qb) = (pos(fa) - pa, pos(fb) - pa);
                let (sa, sb) = (qa.dot(dir), qb.dot(dir));
                if off_line(qa, sa) > tol || off_line(qb, sb) > tol {
                    continue;
                }
                let (lo, hi) = (sa.min(sb).max(0.0), sa.max(sb).min(length));
                if hi > lo {
                    spans.push((lo, hi));
                }
            }
        }
        if !(tol.is_finite() && tol > 0.0) {
            return vec![(0.0, length)];
        }
        spans.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
        let mut gaps = Vec::new();
        let mut reach = 0.0f64;
        for &(lo, hi) in spans.iter() {
            if lo > reach + tol {
                gaps.push((reach, lo));
            }
            reach = reach.max(hi);
        }
        if length > reach + tol {
            gaps.push((reach, length));
        }
        gaps
    }
}

/// Scratch vectors of [`Coverage::uncovered`], reused across edges.
#[derive(Default)]
pub(super) struct Scratch {
    candidates: Vec<u32>,
    spans: Vec<(f64, f64)>,
    near: Vec<u32>,
    /// Whether the last edge's candidates were cut at
    /// [`super::MAX_NEIGHBOURS`].
    cut: bool,
}

/// The edge whose ends are `a` and `b`, if any (`edges` are in key order:
/// by lower end, then higher end).
fn edge_between(edges: &[Edge], a: u32, b: u32) -> Option<u32> {
    let key = (a.min(b), a.max(b));
    let at = edges.partition_point(|e| (e.a, e.b) < key);
    edges
        .get(at)
        .filter(|e| (e.a, e.b) == key)
        .map(|_| at as u32)
}

/// The edges' end vertices on a hash grid of cells as wide as the
/// tolerance: the vertices within it of a point are in the 27 cells
/// around the point's.
struct VertexGrid {
    /// `(cell, vertex)`, sorted.
    by_cell: Vec<([i64; 3], u32)>,
    /// Each cell's run of `by_cell`.
    cells: CellMap<(usize, usize)>,
}

impl VertexGrid {
    fn new(mesh: &TriMesh, edges: &[Edge], tol: f64) -> VertexGrid {
        if !(tol.is_finite() && tol > 0.0) {
            return VertexGrid {
                by_cell: Vec::new(),
                cells: CellMap::default(),
            };
        }
        let mut vertices: Vec<u32> = edges.iter().flat_map(|e| [e.a, e.b]).collect();
        vertices.sort_unstable();
        vertices.dedup();
        let mut by_cell: Vec<([i64; 3], u32)> = vertices
            .iter()
            .map(|&v| (cell_of(mesh.positions[v as usize].as_dvec3(), tol), v))
            .collect();
        by_cell.sort_unstable();
        let mut cells = CellMap::default();
        let mut start = 0;
        for i in 1..=by_cell.len() {
            if i == by_cell.len() || by_cell[i].0 != by_cell[start].0 {
                cells.insert(by_cell[start].0, (start, i));
                start = i;
            }
        }
        VertexGrid { by_cell, cells }
    }

    /// How many vertices the cells around `p` hold (an upper bound on
    /// those within `tol` of it).
    fn population(&self, p: DVec3, tol: f64) -> usize {
        around(cell_of(p, tol))
            .filter_map(|c| self.cells.get(&c))
            .map(|&(s, e)| e - s)
            .sum()
    }

    /// Fills `out` with the vertices within `tol` of `p`, at most
    /// [`super::MAX_NEIGHBOURS`] looked at; `true` when that cut the search.
    fn within(&self, mesh: &TriMesh, p: DVec3, tol: f64, out: &mut Vec<u32>) -> bool {
        out.clear();
        let mut budget = super::MAX_NEIGHBOURS;
        for c in around(cell_of(p, tol)) {
            let Some(&(s, e)) = self.cells.get(&c) else {
                continue;
            };
            let run = &self.by_cell[s..e];
            let look = run.len().min(budget);
            budget -= look;
            out.extend(
                run[..look]
                    .iter()
                    .map(|&(_, w)| w)
                    .filter(|&w| mesh.positions[w as usize].as_dvec3().distance(p) <= tol),
            );
            if budget == 0 {
                return true;
            }
        }
        false
    }
}

/// The edges ending at each vertex.
pub(super) struct EndsAt {
    /// `(vertex, edge)`, sorted.
    ends: Vec<(u32, u32)>,
    /// The edges of `ends`, in its order.
    edges: Vec<u32>,
}

impl EndsAt {
    pub fn new(edges: &[Edge]) -> EndsAt {
        let mut ends: Vec<(u32, u32)> = edges
            .iter()
            .enumerate()
            .flat_map(|(i, e)| [(e.a, i as u32), (e.b, i as u32)])
            .collect();
        ends.sort_unstable();
        let edges = ends.iter().map(|p| p.1).collect();
        EndsAt { ends, edges }
    }

    /// The edges ending at vertex `v`.
    pub fn edges(&self, v: u32) -> &[u32] {
        let from = self.ends.partition_point(|p| p.0 < v);
        let to = from + self.ends[from..].partition_point(|p| p.0 == v);
        &self.edges[from..to]
    }
}

/// The open edges: one item per unmatched edge of `edges` with an
/// uncovered part, in edge order. `size` is the uncovered length (the whole edge's when
/// nothing covers it), `position` the middle of its longest uncovered part.
pub(super) fn find(
    mesh: &TriMesh,
    edges: &[Edge],
    on: &OnEdges,
    options: &HygieneOptions,
) -> Found {
    let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
    let coverage = Coverage::new(mesh, edges, on, options.tjunction_m);
    let unmatched: Vec<u32> = (0..edges.len() as u32)
        .filter(|&e| edges[e as usize].unmatched)
        .collect();
    let mut found = find_capped_with(
        unmatched.len(),
        options.max_items_per_kind,
        Scratch::default,
        |scratch, i, sink| {
            let e = unmatched[i];
            let gaps = coverage.uncovered(e, scratch);
            if scratch.cut {
                sink.cut();
            }
            if gaps.is_empty() {
                return;
            }
            let Edge { a, b, tri, .. } = edges[e as usize];
            sink.push(|| {
                let (pa, pb) = (pos(a), pos(b));
                let dir = (pb - pa).normalize_or_zero();
                let widest = gaps
                    .iter()
                    .copied()
                    .max_by(|p, q| (p.1 - p.0).total_cmp(&(q.1 - q.0)))
                    .unwrap_or((0.0, 0.0));
                let whole = gaps.len() == 1 && gaps[0].0 == 0.0;
                HygieneItem {
                    kind: HygieneKind::OpenEdge,
                    position: if whole {
                        (pa + pb) * 0.5
                    } else {
                        pa + dir * ((widest.0 + widest.1) * 0.5)
                    },
                    triangles: vec![tri],
                    size: gaps.iter().map(|g| g.1 - g.0).sum(),
                    object: None,
                }
            });
        },
    );
    found.cut += on.cut;
    found
}
