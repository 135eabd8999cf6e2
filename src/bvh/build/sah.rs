//! The surface area heuristic's choice of a split plane among a node's bins.

use super::{BINS, Bin, Bounds};

/// The cheapest SAH plane `k` (bins `..k` go left): the least
/// `area(left) * count(left) + area(right) * count(right)`, which orders
/// planes like the full SAH cost (the node's area and the traversal cost
/// are the same for all of them). `None` if every triangle is in one bin,
/// or no cost is finite.
pub(super) fn best_plane(bins: &[Bin]) -> Option<usize> {
    // right_cost[k]: area * count of bins k.. (the right side of plane k).
    let mut right_cost = [0.0f32; BINS];
    let mut right_count = [0u32; BINS];
    let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
    for k in (1..bins.len()).rev() {
        acc.grow(&bins[k].bounds);
        n += bins[k].count;
        right_count[k] = n;
        right_cost[k] = if n > 0 {
            acc.half_area() * n as f32
        } else {
            0.0
        };
    }
    let (mut acc, mut n) = (Bounds::EMPTY, 0u32);
    let mut best: Option<(usize, f32)> = None;
    for k in 1..bins.len() {
        acc.grow(&bins[k - 1].bounds);
        n += bins[k - 1].count;
        if n == 0 || right_count[k] == 0 {
            continue;
        }
        let cost = acc.half_area() * n as f32 + right_cost[k];
        if cost < best.map_or(f32::INFINITY, |b| b.1) {
            best = Some((k, cost));
        }
    }
    best.map(|b| b.0)
}
