//! The binary tree the SAH build makes, before [`collapse`](super::collapse)
//! turns it into the 4-wide tree the queries walk.

use crate::math::{Aabb, Vec3};

/// One binary node, 32 bytes: its box, and either two children or a leaf range.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub(super) struct BinaryNode {
    /// Bounds of everything below this node.
    pub aabb_min: Vec3,
    /// Leaf: index of the first entry in `tri_indices`; inner: index of the left child (right = left + 1).
    pub first: u32,
    /// Bounds of everything below this node.
    pub aabb_max: Vec3,
    /// Leaf: number of triangles (> 0); inner: 0.
    pub count: u32,
}

impl BinaryNode {
    /// `true` for a leaf (it holds triangles rather than children).
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// The node's box.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb {
            min: self.aabb_min,
            max: self.aabb_max,
        }
    }
}

/// A built binary tree: node 0 is the root, the children of an inner node
/// are adjacent, and each leaf is a range of `tri_indices` (the triangles,
/// reordered so that leaves are contiguous), with the leaf-ordered boxes.
#[derive(Clone, Debug, Default)]
pub(super) struct BinaryTree {
    pub nodes: Vec<BinaryNode>,
    pub tri_indices: Vec<u32>,
    /// The triangles' boxes in `tri_indices` order.
    pub leaf_aabbs: Vec<Aabb>,
}
