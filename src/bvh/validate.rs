//! Structural checks of a BVH against the triangle boxes it was built over
//! (world space): the tree shape, the leaf ranges and the box nesting.
//!
//! The walk is iterative and marks each node as it reaches it, so a cyclic
//! or shared child is reported rather than looped over, and every index is
//! range-checked before use, so any `Bvh` value can be validated.

use super::{Bvh, BvhNode, Slot};
use crate::math::Aabb;

/// A structural problem found by [`Bvh::validate`].
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BvhError {
    /// There are triangles but no nodes, or nodes but no triangles.
    #[error("BVH has {nodes} nodes for {triangles} triangles")]
    EmptyMismatch {
        /// Number of nodes.
        nodes: usize,
        /// Number of triangle boxes given.
        triangles: usize,
    },
    /// `tri_indices` does not hold one entry per triangle.
    #[error("BVH indexes {indices} triangles, the mesh has {triangles}")]
    IndexCountMismatch {
        /// Length of `tri_indices`.
        indices: usize,
        /// Number of triangle boxes given.
        triangles: usize,
    },
    /// An entry of `tri_indices` names a triangle that does not exist.
    #[error(
        "tri_indices[{position}] = {triangle} is out of range (mesh has {triangles} triangles)"
    )]
    TriangleOutOfRange {
        /// Position in `tri_indices`.
        position: usize,
        /// The bad triangle index.
        triangle: u32,
        /// Number of triangle boxes given.
        triangles: usize,
    },
    /// A triangle is listed twice in `tri_indices`.
    #[error("triangle {triangle} appears twice in tri_indices (positions {first} and {second})")]
    DuplicateTriangle {
        /// The triangle index.
        triangle: u32,
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// A slot links to a node outside the node array.
    #[error("slot {slot} links to node {child} but there are {nodes} nodes")]
    ChildOutOfRange {
        /// The slot's id (`node * 4 + slot`).
        slot: u32,
        /// The node it links to.
        child: u32,
        /// Number of nodes.
        nodes: usize,
    },
    /// An empty slot whose box is not the point at `+inf` that every search
    /// rejects (see `BvhNode::EMPTY`).
    #[error("slot {slot} is empty but its box {slot_box:?} is not the empty slot's box")]
    EmptySlotBox {
        /// The slot's id (`node * 4 + slot`).
        slot: u32,
        /// Its box.
        slot_box: Aabb,
    },
    /// A node is reached twice from the root: a cycle or a shared subtree.
    #[error("node {node} is reached twice from the root (cycle or shared child)")]
    NodeReachedTwice {
        /// The node reached again.
        node: u32,
    },
    /// Nodes that no path from the root reaches.
    #[error("{count} nodes are unreachable from the root, the first is node {first}")]
    UnreachableNodes {
        /// How many.
        count: usize,
        /// The lowest such index.
        first: u32,
    },
    /// A leaf's range runs past the end of `tri_indices`.
    #[error("leaf {leaf} covers tri_indices[{first}..{first}+{count}] past its length {len}")]
    LeafRangeOutOfBounds {
        /// The leaf's slot id.
        leaf: u32,
        /// Start of its range.
        first: u32,
        /// Its triangle count.
        count: u32,
        /// Length of `tri_indices`.
        len: usize,
    },
    /// Two leaves cover the same position of `tri_indices`.
    #[error(
        "position {position} of tri_indices is covered by leaves {first_leaf} and {second_leaf}"
    )]
    OverlappingLeaves {
        /// The doubly covered position.
        position: usize,
        /// The slot id of the leaf that covered it first.
        first_leaf: u32,
        /// The slot id of the leaf that covered it again.
        second_leaf: u32,
    },
    /// A position of `tri_indices` (and so a triangle) is in no leaf.
    #[error("triangle {triangle} (tri_indices[{position}]) is in no leaf")]
    TriangleInNoLeaf {
        /// The position not covered.
        position: usize,
        /// The triangle stored there.
        triangle: u32,
    },
    /// A node's box (around its slots) is not inside the box of the slot
    /// that links to it.
    #[error("node {child} box {child_box:?} is not inside its slot {parent} box {parent_box:?}")]
    ChildOutsideParent {
        /// The slot id of the linking slot.
        parent: u32,
        /// The node.
        child: u32,
        /// The slot's box.
        parent_box: Aabb,
        /// The node's box.
        child_box: Aabb,
    },
    /// The tree's leaf-ordered copy of the boxes is not the triangles'
    /// boxes in `tri_indices` order.
    #[error(
        "the leaf-ordered box at {position} is not the box of triangle {triangle} (tri_indices[{position}])"
    )]
    LeafBoxMismatch {
        /// The position in `tri_indices` / `leaf_aabbs` (its length, if the lengths differ).
        position: usize,
        /// The triangle stored there (`u32::MAX` if the lengths differ).
        triangle: u32,
    },
    /// A triangle's box is not inside the box of the leaf holding it.
    #[error("triangle {triangle} box {triangle_box:?} is not inside leaf {leaf} box {leaf_box:?}")]
    TriangleOutsideLeaf {
        /// The leaf's slot id.
        leaf: u32,
        /// The triangle.
        triangle: u32,
        /// The leaf's box.
        leaf_box: Aabb,
        /// The triangle's box.
        triangle_box: Aabb,
    },
}

/// See [`Bvh::validate`].
pub(super) fn validate(bvh: &Bvh, tri_aabbs: &[Aabb]) -> Result<(), BvhError> {
    let n = tri_aabbs.len();
    if bvh.nodes.is_empty() != (n == 0) {
        return Err(BvhError::EmptyMismatch {
            nodes: bvh.nodes.len(),
            triangles: n,
        });
    }
    check_indices(bvh, n)?;
    check_leaf_boxes(bvh, tri_aabbs)?;
    if n == 0 {
        return Ok(());
    }
    let covered_by = check_tree(bvh, tri_aabbs)?;
    if let Some(position) = covered_by.iter().position(|c| c.is_none()) {
        return Err(BvhError::TriangleInNoLeaf {
            position,
            triangle: bvh.tri_indices[position],
        });
    }
    Ok(())
}

/// `tri_indices` must be a permutation of `0..n`.
fn check_indices(bvh: &Bvh, n: usize) -> Result<(), BvhError> {
    if bvh.tri_indices.len() != n {
        return Err(BvhError::IndexCountMismatch {
            indices: bvh.tri_indices.len(),
            triangles: n,
        });
    }
    let mut seen_at: Vec<Option<usize>> = vec![None; n];
    for (position, &triangle) in bvh.tri_indices.iter().enumerate() {
        let Some(slot) = seen_at.get_mut(triangle as usize) else {
            return Err(BvhError::TriangleOutOfRange {
                position,
                triangle,
                triangles: n,
            });
        };
        if let Some(first) = *slot {
            return Err(BvhError::DuplicateTriangle {
                triangle,
                first,
                second: position,
            });
        }
        *slot = Some(position);
    }
    Ok(())
}

/// `leaf_aabbs` must copy the boxes in `tri_indices` order (indices are
/// already checked to be in range); or, in a tree that keeps the corners
/// instead (`leaf_tris`), the box of each triangle's corners must be its box,
/// bit for bit, so that the walks test the same boxes either way.
fn check_leaf_boxes(bvh: &Bvh, tri_aabbs: &[Aabb]) -> Result<(), BvhError> {
    let kept = if bvh.leaf_tris.is_empty() {
        bvh.leaf_aabbs.len()
    } else {
        bvh.leaf_tris.len()
    };
    if kept != bvh.tri_indices.len() {
        return Err(BvhError::LeafBoxMismatch {
            position: kept,
            triangle: u32::MAX,
        });
    }
    // Bit for bit: the boxes are copies, NaN boxes included.
    let bits = |b: &Aabb| [b.min.to_array(), b.max.to_array()].map(|v| v.map(f32::to_bits));
    let Some(boxes) = bvh.leaf_boxes(0..kept) else {
        return Ok(());
    };
    for (position, &triangle) in bvh.tri_indices.iter().enumerate() {
        if boxes.triangle(position, &bvh.tri_indices) != triangle
            || bits(&boxes.get(position)) != bits(&tri_aabbs[triangle as usize])
        {
            return Err(BvhError::LeafBoxMismatch { position, triangle });
        }
    }
    Ok(())
}

/// Walks from the root checking links, ranges and boxes; returns, for each
/// position of `tri_indices`, the slot id of the leaf that covers it.
fn check_tree(bvh: &Bvh, tri_aabbs: &[Aabb]) -> Result<Vec<Option<u32>>, BvhError> {
    let nodes = &bvh.nodes;
    let mut reached = vec![false; nodes.len()];
    let mut covered_by: Vec<Option<u32>> = vec![None; bvh.tri_indices.len()];
    let mut stack = vec![0u32];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        let node = &nodes[i as usize];
        check_empty_slots(node, i)?;
        for (k, slot_box, slot) in node.slots() {
            let id = i * 4 + k as u32;
            match slot {
                Slot::Leaf { first, count } => {
                    let leaf = Leaf {
                        id,
                        aabb: slot_box,
                        first,
                        count,
                    };
                    check_leaf(bvh, &leaf, tri_aabbs, &mut covered_by)?;
                }
                Slot::Inner(child) => {
                    let Some(seen) = reached.get_mut(child as usize) else {
                        return Err(BvhError::ChildOutOfRange {
                            slot: id,
                            child,
                            nodes: nodes.len(),
                        });
                    };
                    if std::mem::replace(seen, true) {
                        return Err(BvhError::NodeReachedTwice { node: child });
                    }
                    let child_box = nodes[child as usize].aabb();
                    if !slot_box.contains(&child_box) {
                        return Err(BvhError::ChildOutsideParent {
                            parent: id,
                            child,
                            parent_box: slot_box,
                            child_box,
                        });
                    }
                    stack.push(child);
                }
                Slot::Empty => {}
            }
        }
    }
    let unreachable = reached.iter().filter(|r| !**r).count();
    if unreachable > 0 {
        let first = reached.iter().position(|r| !*r).unwrap_or(0) as u32;
        return Err(BvhError::UnreachableNodes {
            count: unreachable,
            first,
        });
    }
    Ok(covered_by)
}

/// The searches skip empty slots by their box alone: it must be the point
/// at `+inf`.
fn check_empty_slots(node: &BvhNode, i: u32) -> Result<(), BvhError> {
    let empty_box = BvhNode::EMPTY.slot_aabb(0);
    for k in (0..4).filter(|&k| node.is_empty_slot(k)) {
        let slot_box = node.slot_aabb(k);
        if slot_box != empty_box {
            return Err(BvhError::EmptySlotBox {
                slot: i * 4 + k as u32,
                slot_box,
            });
        }
    }
    Ok(())
}

/// A leaf slot as the walk finds it.
struct Leaf {
    id: u32,
    aabb: Aabb,
    first: u32,
    count: u32,
}

/// Checks a leaf's range and that its box holds its triangles' boxes.
fn check_leaf(
    bvh: &Bvh,
    leaf: &Leaf,
    tri_aabbs: &[Aabb],
    covered_by: &mut [Option<u32>],
) -> Result<(), BvhError> {
    let (first, count) = (leaf.first, leaf.count);
    let end = first as usize + count as usize;
    if end > bvh.tri_indices.len() {
        return Err(BvhError::LeafRangeOutOfBounds {
            leaf: leaf.id,
            first,
            count,
            len: bvh.tri_indices.len(),
        });
    }
    let leaf_box = leaf.aabb;
    let range = first as usize..end;
    let slots = covered_by[range.clone()].iter_mut();
    for ((position, slot), &triangle) in range.clone().zip(slots).zip(&bvh.tri_indices[range]) {
        if let Some(first_leaf) = slot.replace(leaf.id) {
            return Err(BvhError::OverlappingLeaves {
                position,
                first_leaf,
                second_leaf: leaf.id,
            });
        }
        // In range: check_indices ran first.
        let triangle_box = tri_aabbs[triangle as usize];
        // An empty or NaN box holds no point, so there is nothing to contain
        // (the build treats both as empty).
        let holds_points = triangle_box.min.cmple(triangle_box.max).all();
        if holds_points && !leaf_box.contains(&triangle_box) {
            return Err(BvhError::TriangleOutsideLeaf {
                leaf: leaf.id,
                triangle,
                leaf_box,
                triangle_box,
            });
        }
    }
    Ok(())
}
