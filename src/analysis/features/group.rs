//! Grouping: connected components of items (one per grid cell or cell
//! edge) whose neighbouring cells hold the same feature.

use super::grid::Grid;
use std::collections::HashMap;

/// Union-find over `0..n` with path halving and union by index.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn find(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // The smaller index is the root: components are found in order.
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.0[hi] = lo;
    }
}

/// Groups items: `cells[i]` is item `i`'s cell index, and items in cells
/// next to each other (4-neighbours) join when `same(i, j, axis)` holds,
/// `axis` 0 when they are neighbours along x, 1 along z. Returns the
/// groups, each sorted, ordered by their first item: deterministic.
pub(super) fn components(
    grid: &Grid,
    cells: &[usize],
    same: impl Fn(usize, usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut by_cell: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, &c) in cells.iter().enumerate() {
        by_cell.entry(c).or_default().push(i);
    }
    let mut uf = UnionFind((0..cells.len()).collect());
    for (i, &c) in cells.iter().enumerate() {
        let (ix, iz) = grid.cell_of(c);
        // +x and +z: each neighbouring pair is seen once.
        for (axis, d) in [(0, 0), (1, 2)] {
            let Some((jx, jz)) = grid.neighbour(ix, iz, d) else {
                continue;
            };
            for &j in by_cell.get(&grid.index(jx, jz)).into_iter().flatten() {
                if same(i, j, axis) {
                    uf.union(i, j);
                }
            }
        }
    }
    collect(uf, cells.len())
}

/// Like [`components`], with every cell within two cells (diagonal ones
/// too) and items of the same cell compared as well: `same(i, j)` decides.
/// A line of cells at an angle to the grid touches only at corners, and a
/// sample that falls right on a feature's edge may see nothing: the
/// second ring bridges such a one-cell gap.
pub(super) fn components_near(
    grid: &Grid,
    cells: &[usize],
    same: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let mut by_cell: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, &c) in cells.iter().enumerate() {
        by_cell.entry(c).or_default().push(i);
    }
    let mut uf = UnionFind((0..cells.len()).collect());
    // Half the 5 x 5 neighbourhood, so each pair of cells is seen once;
    // the cell itself compares each pair of its items once (j > i).
    let half = (-2i64..=2)
        .flat_map(|dz| (-2i64..=2).map(move |dx| (dx, dz)))
        .filter(|&(dx, dz)| dz > 0 || (dz == 0 && dx >= 0));
    let half: Vec<(i64, i64)> = half.collect();
    for (i, &c) in cells.iter().enumerate() {
        let (ix, iz) = grid.cell_of(c);
        for &(dx, dz) in &half {
            let (jx, jz) = (ix as i64 + dx, iz as i64 + dz);
            if jx < 0 || jz < 0 || jx as usize >= grid.nx || jz as usize >= grid.nz {
                continue;
            }
            let other = grid.index(jx as usize, jz as usize);
            for &j in by_cell.get(&other).into_iter().flatten() {
                if (other != c || j > i) && same(i, j) {
                    uf.union(i, j);
                }
            }
        }
    }
    collect(uf, cells.len())
}

/// The groups of a finished union-find over `n` items, each sorted,
/// ordered by their first item.
fn collect(mut uf: UnionFind, n: usize) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot: HashMap<usize, usize> = HashMap::new();
    for i in 0..n {
        let root = uf.find(i);
        let k = *slot.entry(root).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[k].push(i);
    }
    groups
}
