//! Whole-tree statistics and per-node depths (no geometry, no space).

use super::{Bvh, BvhStats, Slot};

/// See [`Bvh::stats`].
pub(super) fn stats(bvh: &Bvh) -> BvhStats {
    let depths = node_depths(bvh);
    let mut s = BvhStats {
        nodes: bvh.nodes.len(),
        memory_bytes: std::mem::size_of_val(bvh.nodes.as_slice())
            + std::mem::size_of_val(bvh.tri_indices.as_slice())
            + std::mem::size_of_val(bvh.leaf_aabbs.as_slice())
            + std::mem::size_of_val(bvh.leaf_tris.as_slice()),
        ..BvhStats::default()
    };
    for (node, &depth) in bvh.nodes.iter().zip(&depths) {
        if depth == u32::MAX {
            continue;
        }
        for (_, _, slot) in node.slots() {
            let Slot::Leaf { count, .. } = slot else {
                continue;
            };
            s.leaves += 1;
            s.max_depth = s.max_depth.max(depth as usize);
            let size = count as usize;
            if s.leaf_size_histogram.len() <= size {
                s.leaf_size_histogram.resize(size + 1, 0);
            }
            s.leaf_size_histogram[size] += 1;
        }
    }
    s
}

/// Depth of every node (root = 0). Nodes the root does not reach (only in a BVH
/// that fails [`Bvh::validate`]) get `u32::MAX`.
pub(super) fn node_depths(bvh: &Bvh) -> Vec<u32> {
    let nodes = &bvh.nodes;
    let mut depths = vec![u32::MAX; nodes.len()];
    if nodes.is_empty() {
        return depths;
    }
    depths[0] = 0;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        for (_, _, slot) in nodes[i].slots() {
            let Slot::Inner(child) = slot else {
                continue;
            };
            let child = child as usize;
            // Only unvisited, in-range children: a malformed tree cannot loop here.
            if child < nodes.len() && depths[child] == u32::MAX {
                depths[child] = depths[i] + 1;
                stack.push(child);
            }
        }
    }
    depths
}
