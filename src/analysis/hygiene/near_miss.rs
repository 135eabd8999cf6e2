//! Near misses: distinct vertex positions closer than the tolerance, welds
//! the modeller missed. One item per vertex that has a vertex of higher
//! index (welded ids) within the tolerance, not joined to it by an edge: a
//! missed weld of two vertices counts once, a clump of `k` about `k - 1`
//! times (about the vertices a weld at the tolerance would remove), never
//! once per pair. Per pair, the conference level's chair feet (hundreds of
//! vertices within a millimetre at its metre scale) gave 23.6 million items
//! in 8.5 s; per vertex, the search stops at the first match, so a clump
//! costs little more than its size.
//!
//! Positions go into a hash grid whose cells are as wide as the tolerance,
//! so each vertex looks only in the 27 cells around its own, in a fixed
//! order (the item names the first match). Pairs joined by an edge are left
//! out: that is a short edge, not a missed weld, and its triangle shows as
//! a sliver.

use super::cells::{CellMap, around, cell_of};
use super::collect::{Found, find_capped};
use super::edges::EdgeTable;
use super::{HygieneItem, HygieneKind, HygieneOptions};
use crate::mesh::TriMesh;
use std::collections::HashMap;

/// `(welded vertices used by a triangle, near misses by vertex)`.
pub(super) fn find(
    mesh: &TriMesh,
    welded: &[u32],
    table: &EdgeTable,
    options: &HygieneOptions,
) -> (usize, Found) {
    let mut used = vec![false; mesh.positions.len()];
    for t in &mesh.triangles {
        for &v in t {
            used[welded[v as usize] as usize] = true;
        }
    }
    let vertices: Vec<u32> = (0..used.len() as u32)
        .filter(|&v| used[v as usize])
        .collect();
    let tol = options.near_miss_m;
    if !tol.is_finite() || tol <= 0.0 {
        return (vertices.len(), Found::default());
    }
    let pos = |v: u32| mesh.positions[v as usize].as_dvec3();
    let mut by_cell: Vec<([i64; 3], u32)> = vertices
        .iter()
        .map(|&v| (cell_of(pos(v), tol), v))
        .collect();
    by_cell.sort_unstable();
    let mut cells: CellMap<(usize, usize)> = CellMap::default();
    let mut start = 0;
    for i in 1..=by_cell.len() {
        if i == by_cell.len() || by_cell[i].0 != by_cell[start].0 {
            cells.insert(by_cell[start].0, (start, i));
            start = i;
        }
    }
    let mut found = find_capped(vertices.len(), options.max_items_per_kind, |i, sink| {
        let v = vertices[i];
        let pv = pos(v);
        // At most MAX_NEIGHBOURS vertices looked at (a clump of thousands
        // of vertices within the tolerance, all joined by edges, would
        // otherwise compare each with all).
        let mut budget = super::MAX_NEIGHBOURS;
        let first_near = around(cell_of(pv, tol)).find_map(|c| {
            let &(s, e) = cells.get(&c)?;
            let run = &by_cell[s..e];
            let look = run.len().min(budget);
            budget -= look;
            run[..look]
                .iter()
                .map(|&(_, w)| w)
                .find(|&w| w > v && pos(w).distance(pv) < tol && !table.has_edge(v, w))
        });
        if first_near.is_none() && budget == 0 {
            sink.cut();
        }
        if let Some(w) = first_near {
            let pw = pos(w);
            sink.push(|| HygieneItem {
                kind: HygieneKind::NearMiss,
                position: (pv + pw) * 0.5,
                // Filled in below, for the listed items only.
                triangles: vec![v, w],
                size: pv.distance(pw),
                object: None,
            });
        }
    });
    fill_triangles(mesh, welded, &mut found.items);
    (vertices.len(), found)
}

/// Replaces each item's two vertices by the triangles using either of
/// them: one pass over the triangles for all listed items.
fn fill_triangles(mesh: &TriMesh, welded: &[u32], items: &mut [HygieneItem]) {
    if items.is_empty() {
        return;
    }
    let mut at: HashMap<u32, Vec<u32>> = items
        .iter()
        .flat_map(|it| it.triangles.clone())
        .map(|v| (v, Vec::new()))
        .collect();
    for (t, corners) in mesh.triangles.iter().enumerate() {
        for &v in corners {
            if let Some(list) = at.get_mut(&welded[v as usize]) {
                list.push(t as u32);
            }
        }
    }
    for it in items {
        let mut tris: Vec<u32> = it.triangles.iter().flat_map(|v| at[v].clone()).collect();
        tris.sort_unstable();
        tris.dedup();
        it.triangles = tris;
    }
}
