//! From the binary tree the SAH build makes to the 4-wide tree the queries
//! walk.
//!
//! Each 4-wide node takes a binary node's children and, while it has fewer
//! than four and one of them is an inner node, replaces the inner child
//! with the largest surface area by its own two children (the box a query
//! is most likely to enter is the one worth opening early). This is the
//! collapse of Wald et al. 2008, "Getting rid of packets", and Dammertz et
//! al. 2008, "Shallow bounding volume hierarchies", with the greedy choice
//! of Pinto 2010. Leaves keep their ranges of `tri_indices`, so the
//! triangle order the build chose is kept. Nodes come out depth-first: a
//! node's subtree follows it in memory.

use super::binary::BinaryNode;
use super::node::{BvhNode, Slot};

/// The 4-wide tree over the binary `nodes` (root first, as the build lays
/// them out); empty for an empty tree.
pub(super) fn collapse(nodes: &[BinaryNode]) -> Vec<BvhNode> {
    let Some(root) = nodes.first() else {
        return Vec::new();
    };
    if root.is_leaf() {
        let leaf = Slot::Leaf {
            first: root.first,
            count: root.count,
        };
        return vec![BvhNode::from_slots(&[(root.aabb(), leaf)])];
    }
    // A binary tree of n nodes has (n - 1) / 2 inner nodes, and each 4-wide
    // node takes at least one of them (between one and three).
    let mut out: Vec<BvhNode> = Vec::with_capacity(nodes.len() / 2 + 1);
    // (binary inner node, parent 4-wide node and slot to link it from).
    let mut pending: Vec<(u32, Option<(u32, usize)>)> = vec![(0, None)];
    while let Some((binary, parent)) = pending.pop() {
        let me = out.len() as u32;
        if let Some((p, k)) = parent {
            out[p as usize].child[k] = me;
        }
        let (kids, len) = widest_children(nodes, binary);
        let mut node = BvhNode::EMPTY;
        for (k, &c) in kids[..len].iter().enumerate() {
            let child = &nodes[c as usize];
            let slot = if child.is_leaf() {
                Slot::Leaf {
                    first: child.first,
                    count: child.count,
                }
            } else {
                // Linked when the child is laid out.
                Slot::Inner(u32::MAX)
            };
            node.set_slot(k, child.aabb(), slot);
        }
        out.push(node);
        // Reversed, so the first slot's subtree is laid out first.
        for (k, &c) in kids[..len].iter().enumerate().rev() {
            if !nodes[c as usize].is_leaf() {
                pending.push((c, Some((me, k))));
            }
        }
    }
    out.shrink_to_fit();
    out
}

/// Up to four binary descendants of inner node `binary` that together hold
/// everything below it: its children, with the largest inner ones opened.
fn widest_children(nodes: &[BinaryNode], binary: u32) -> ([u32; 4], usize) {
    // A leaf is never opened: it ranks below every inner node.
    let rank = |c: u32| {
        let node = &nodes[c as usize];
        if node.is_leaf() {
            f32::NEG_INFINITY
        } else {
            node.aabb().surface_area()
        }
    };
    let first = nodes[binary as usize].first;
    let mut kids = [first, first + 1, 0, 0];
    let mut ranks = [rank(first), rank(first + 1), 0.0, 0.0];
    let mut len = 2;
    while len < 4 {
        let mut widest = 0;
        for i in 1..len {
            if ranks[i] > ranks[widest] {
                widest = i;
            }
        }
        if ranks[widest] == f32::NEG_INFINITY {
            break;
        }
        // Its two children take its place, in order.
        let opened = nodes[kids[widest] as usize].first;
        kids.copy_within(widest + 1..len, widest + 2);
        ranks.copy_within(widest + 1..len, widest + 2);
        kids[widest..widest + 2].copy_from_slice(&[opened, opened + 1]);
        ranks[widest..widest + 2].copy_from_slice(&[rank(opened), rank(opened + 1)]);
        len += 1;
    }
    (kids, len)
}
