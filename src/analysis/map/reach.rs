//! Which start points a player can reach: a start is reachable when a
//! walk of the map from a reachable start passes it (stands in its grid
//! cell at its floor's height), starting from the main floor region (the
//! largest set of starts whose walks reach each other both ways) or from
//! the starts nearest the `--spawn` points. Linear in the starts and the
//! walks' links (one strongly-connected-components pass, one search).

use super::MapSpot;
use glam::DVec3;
use std::collections::HashMap;

/// A spawn point matches the start nearest it within this horizontal
/// distance, in grid spacings.
pub const SPAWN_REACH_SPACINGS: f64 = 1.5;
/// ... and within this height of the start's centre, metres.
pub const SPAWN_REACH_HEIGHT_M: f64 = 2.0;

/// Sets every spot's `reachable` from the links its walks found
/// (`reaches`, start indices); seeds are the spots nearest `spawns` (each
/// must have one, else the spawn is returned as the error), or the largest
/// strongly connected region when there are no spawns.
pub(super) fn mark_reachable(
    spots: &mut [MapSpot],
    spawns: &[DVec3],
    spacing_m: f64,
) -> Result<(), DVec3> {
    let n = spots.len();
    let pos: HashMap<u32, usize> = spots
        .iter()
        .enumerate()
        .map(|(i, s)| (s.index, i))
        .collect();
    let edges: Vec<Vec<usize>> = spots
        .iter()
        .map(|s| {
            s.reaches
                .iter()
                .filter_map(|i| pos.get(i).copied())
                .collect()
        })
        .collect();
    let mut seeds: Vec<usize> = Vec::new();
    for &p in spawns {
        let near = spots
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                let d = s.start - p;
                DVec3::new(d.x, 0.0, d.z).length() <= SPAWN_REACH_SPACINGS * spacing_m
                    && d.y.abs() <= SPAWN_REACH_HEIGHT_M
            })
            .min_by(|a, b| {
                let (da, db) = ((a.1.start - p).length(), (b.1.start - p).length());
                da.total_cmp(&db).then(a.0.cmp(&b.0))
            });
        match near {
            Some((i, _)) => seeds.push(i),
            None => return Err(p),
        }
    }
    if spawns.is_empty() && n > 0 {
        let comp = components(&edges);
        let mut size = vec![0usize; n];
        for &c in &comp {
            size[c] += 1;
        }
        // The largest; ties to the one holding the lowest index.
        let best = (0..n).max_by_key(|&i| (size[comp[i]], std::cmp::Reverse(i)));
        if let Some(b) = best {
            let c = comp[b];
            seeds.extend((0..n).filter(|&i| comp[i] == c));
        }
    }
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    for s in seeds {
        if !std::mem::replace(&mut seen[s], true) {
            stack.push(s);
        }
    }
    while let Some(v) = stack.pop() {
        for &w in &edges[v] {
            if !std::mem::replace(&mut seen[w], true) {
                stack.push(w);
            }
        }
    }
    for (s, r) in spots.iter_mut().zip(seen) {
        s.reachable = r;
    }
    Ok(())
}

/// Strongly connected components (Kosaraju, iterative): a component id
/// per node.
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    // First pass: finishing order.
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if visited[root] {
            continue;
        }
        visited[root] = true;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = edges[v].get(*next) {
                *next += 1;
                if !visited[w] {
                    visited[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    // Second pass on the reversed graph, in reverse finishing order.
    let mut reverse = vec![Vec::new(); n];
    for (v, out) in edges.iter().enumerate() {
        for &w in out {
            reverse[w].push(v);
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut todo = Vec::new();
    for &root in order.iter().rev() {
        if comp[root] != usize::MAX {
            continue;
        }
        comp[root] = root;
        todo.push(root);
        while let Some(v) = todo.pop() {
            for &w in &reverse[v] {
                if comp[w] == usize::MAX {
                    comp[w] = root;
                    todo.push(w);
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn components_split_one_way_links() {
        // 0 <-> 1 <-> 2, 3 -> 0 (a ledge dropping in), 4 alone.
        let edges = vec![vec![1], vec![0, 2], vec![1], vec![0], vec![]];
        let c = components(&edges);
        assert!(c[0] == c[1] && c[1] == c[2]);
        assert!(c[3] != c[0] && c[4] != c[0] && c[3] != c[4]);
    }
}
