//! The tree's node: four child boxes side by side, world space, `f32`.
//!
//! Each node holds up to four *slots*. A slot is one box and what lies in
//! it: another node, a leaf (a range of [`Bvh::tri_indices`]), or nothing.
//! The boxes are stored axis by axis (`min_x` of all four slots, then
//! `min_y`, ...), so one SIMD test covers the four of them; a query reads a
//! node once (two cache lines) and learns which of its four children to
//! enter, where a binary tree reads two nodes for the same step. On big
//! levels, where every node read is a cache miss, that halves the
//! dependent loads of a descent (see BENCHMARKS.md, "The 4-wide tree").
//!
//! A slot is named across the tree by its *slot id*, `node * 4 + slot`:
//! the traces' visited lists hold these, and [`Bvh::slot_aabb`] turns one
//! back into a box.
//!
//! [`Bvh::tri_indices`]: super::Bvh::tri_indices
//! [`Bvh::slot_aabb`]: super::Bvh::slot_aabb

use crate::math::{Aabb, Vec3};
use glam::{BVec4A, Vec4};

/// `count` of a slot that holds nothing.
const EMPTY: u32 = u32::MAX;
/// `count` of a slot that holds another node.
const INNER: u32 = 0;

/// What one slot of a [`BvhNode`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Nothing (a node with fewer than four children).
    Empty,
    /// The node at this index of [`Bvh::nodes`](super::Bvh::nodes).
    Inner(u32),
    /// A leaf: `tri_indices[first..first + count]`, `count > 0`.
    Leaf {
        /// Position of the leaf's first entry in `tri_indices`.
        first: u32,
        /// Number of triangles (at least 1).
        count: u32,
    },
}

/// One node, 128 bytes (two cache lines): four boxes stored axis by axis,
/// and what each holds. Use [`BvhNode::slot`] and [`BvhNode::slot_aabb`]
/// rather than the raw fields.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct BvhNode {
    /// Lower x of each slot's box.
    pub min_x: [f32; 4],
    /// Lower y of each slot's box.
    pub min_y: [f32; 4],
    /// Lower z of each slot's box.
    pub min_z: [f32; 4],
    /// Upper x of each slot's box.
    pub max_x: [f32; 4],
    /// Upper y of each slot's box.
    pub max_y: [f32; 4],
    /// Upper z of each slot's box.
    pub max_z: [f32; 4],
    /// Inner slot: the child node's index; leaf slot: its first position in `tri_indices`.
    pub child: [u32; 4],
    /// Leaf slot: its triangle count (> 0); inner slot: 0; empty slot: `u32::MAX`.
    pub count: [u32; 4],
}

const _: () = assert!(std::mem::size_of::<BvhNode>() == 128);

impl Default for BvhNode {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl BvhNode {
    /// A node whose four slots are empty. An empty slot's box is the point
    /// at `+inf` on every axis: no finite box overlaps it, and a moving
    /// box's slab test rejects it on any axis (both slab times are the
    /// same infinity), so the sweep needs no separate check for empty slots.
    pub const EMPTY: BvhNode = BvhNode {
        min_x: [f32::INFINITY; 4],
        min_y: [f32::INFINITY; 4],
        min_z: [f32::INFINITY; 4],
        max_x: [f32::INFINITY; 4],
        max_y: [f32::INFINITY; 4],
        max_z: [f32::INFINITY; 4],
        child: [0; 4],
        count: [EMPTY; 4],
    };

    /// A node with `slots` in its first slots (at most four; the rest empty).
    pub fn from_slots(slots: &[(Aabb, Slot)]) -> BvhNode {
        let mut node = BvhNode::EMPTY;
        for (k, &(aabb, slot)) in slots.iter().take(4).enumerate() {
            node.set_slot(k, aabb, slot);
        }
        node
    }

    /// Puts `slot`, with box `aabb`, in slot `k` (0..4).
    pub fn set_slot(&mut self, k: usize, aabb: Aabb, slot: Slot) {
        let (child, count) = match slot {
            Slot::Empty => (0, EMPTY),
            Slot::Inner(node) => (node, INNER),
            // A zero count would read as an inner slot: keep it a leaf.
            Slot::Leaf { first, count } => (first, count.clamp(1, EMPTY - 1)),
        };
        let (lo, hi) = match slot {
            Slot::Empty => (Vec3::INFINITY, Vec3::INFINITY),
            _ => (aabb.min, aabb.max),
        };
        [self.min_x[k], self.min_y[k], self.min_z[k]] = lo.to_array();
        [self.max_x[k], self.max_y[k], self.max_z[k]] = hi.to_array();
        self.child[k] = child;
        self.count[k] = count;
    }

    /// What slot `k` (0..4) holds.
    #[inline]
    pub fn slot(&self, k: usize) -> Slot {
        match self.count[k] {
            EMPTY => Slot::Empty,
            INNER => Slot::Inner(self.child[k]),
            count => Slot::Leaf {
                first: self.child[k],
                count,
            },
        }
    }

    /// `true` when slot `k` holds nothing.
    #[inline]
    pub fn is_empty_slot(&self, k: usize) -> bool {
        self.count[k] == EMPTY
    }

    /// The box of slot `k` (0..4).
    #[inline]
    pub fn slot_aabb(&self, k: usize) -> Aabb {
        Aabb {
            min: Vec3::new(self.min_x[k], self.min_y[k], self.min_z[k]),
            max: Vec3::new(self.max_x[k], self.max_y[k], self.max_z[k]),
        }
    }

    /// The slots in use, with their index and box.
    pub fn slots(&self) -> impl Iterator<Item = (usize, Aabb, Slot)> + '_ {
        (0..4)
            .filter(|&k| !self.is_empty_slot(k))
            .map(|k| (k, self.slot_aabb(k), self.slot(k)))
    }

    /// The largest magnitude of any coordinate of the slots in use (0 for
    /// a node with none): the largest coordinate of [`BvhNode::aabb`],
    /// found without building the box. Every search of the tree reads it
    /// from the root to size its rounding pad, so it is a few SIMD
    /// operations on the node as stored.
    #[inline]
    pub fn largest_coordinate(&self) -> f32 {
        let c = &self.count;
        let in_use = BVec4A::new(c[0] != EMPTY, c[1] != EMPTY, c[2] != EMPTY, c[3] != EMPTY);
        let axes = [
            &self.min_x,
            &self.min_y,
            &self.min_z,
            &self.max_x,
            &self.max_y,
            &self.max_z,
        ];
        let largest = axes.iter().fold(Vec4::ZERO, |m, a| {
            m.max(Vec4::select(in_use, Vec4::from(**a).abs(), Vec4::ZERO))
        });
        largest.max_element()
    }

    /// The box around every slot in use: the node's own box.
    pub fn aabb(&self) -> Aabb {
        self.slots()
            .fold(Aabb::EMPTY, |acc, (_, aabb, _)| acc.union(&aabb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The largest coordinate of a box, as searches sized their pad from
    /// the root's box before `largest_coordinate`.
    fn largest_of_box(b: &Aabb) -> f32 {
        b.min.abs().max(b.max.abs()).max_element()
    }

    proptest! {
        #[test]
        fn largest_coordinate_is_that_of_the_nodes_box(
            boxes in prop::collection::vec(
                ((-1e6f32..1e6, -1e6f32..1e6, -1e6f32..1e6), (0.0f32..1e3, 0.0f32..1e3, 0.0f32..1e3)),
                1..=4,
            ),
            empty in prop::collection::vec(any::<bool>(), 4),
        ) {
            let mut node = BvhNode::EMPTY;
            for (k, ((x, y, z), (a, b, c))) in boxes.into_iter().enumerate() {
                let min = Vec3::new(x, y, z);
                let aabb = Aabb::from_corners(min, min + Vec3::new(a, b, c));
                let slot = if empty[k] { Slot::Empty } else { Slot::Leaf { first: 0, count: 1 } };
                node.set_slot(k, aabb, slot);
            }
            let expected = if node.slots().next().is_none() {
                0.0
            } else {
                largest_of_box(&node.aabb())
            };
            prop_assert_eq!(node.largest_coordinate(), expected);
        }
    }
}
