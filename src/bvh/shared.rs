//! A level's leaves with shared corners: each leaf keeps its distinct
//! corners once and its triangles as three one-byte corner numbers.
//!
//! The triangles of a leaf sit side by side, so they share most of their
//! corners: eight triangles of a terrain's grid (two by two squares) have
//! nine corners between them, not 24. Kept once per leaf, with the
//! triangles naming them by a byte each, a leaf of those is 164 bytes
//! instead of 320 (40 a triangle: three corners and an index); on a big
//! level every leaf a walk enters is a miss to memory, so the walk reads
//! fewer lines. The corners are the mesh's `f32` values, copied bit for
//! bit, so every box made from them and every test on them is the same.
//! (Shared vertices per cluster of triangles are what compressed
//! ray-tracing leaves do, e.g. Embree's `QuadMi`/`Grid` primitives and
//! "compressed-leaf BVHs", Benthin et al. 2018; here only the indices are
//! narrowed, the corners stay exact.)
//!
//! Layout, in `u32` words: the leaves' records one after the other, in
//! `Bvh::tri_indices` order, and the leaf's slot in its node holds where
//! its record begins next to its count ([`BvhNode::leaf_record`]), so a
//! walk finds it with no lookup. A leaf of more than 31 triangles, or one
//! whose record begins beyond what a slot holds (levels of more than about
//! 10 million triangles), is found by its first position in a short sorted
//! list instead. A leaf's record of `count` triangles is
//!
//! - `count` words: its triangles' indices in the mesh;
//! - `count` words: each triangle's three corner numbers, a byte each
//!   from the low end; a word a triangle, not three bytes, so that a
//!   triangle's numbers are one read and three shifts;
//! - three words (`f32` bits) for each distinct corner, in order of first use.

use super::node::BvhNode;
use super::{Slot, huge_pages};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;

/// A leaf's triangles may have at most this many distinct corners (their
/// numbers are bytes); a level with a leaf that has more keeps boxes
/// instead (only heaps of unrelated triangles in one leaf, where the
/// builder could not split them).
const MAX_CORNERS: usize = 256;

/// The leaves of a level, with shared corners (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedLeaves {
    /// Whether the level keeps its leaves this way.
    present: bool,
    /// The leaves' records, one after the other.
    pub(crate) records: Vec<u32>,
    /// Where the record begins of each leaf whose slot does not say, by
    /// the leaf's first position, sorted.
    elsewhere: Vec<(u32, u32)>,
}

/// One leaf's record: see [`SharedLeaves`].
#[derive(Clone, Copy)]
pub(crate) struct SharedLeaf<'a> {
    words: &'a [u32],
    count: usize,
}

impl<'a> SharedLeaf<'a> {
    /// Corner `c` of the leaf.
    #[inline(always)]
    fn corner(&self, c: usize) -> Vec3 {
        // Clamped rather than checked: a record the build made never needs
        // it, and a move or a branch to a panic per corner was a tenth of
        // a leaf's search (a changed record reads a wrong corner, which
        // `validate` reports, never memory outside the records).
        let at = (2 * self.count + 3 * c).min(self.words.len() - 3);
        // SAFETY: `leaf` makes a record only with `words.len() >= 3`, so
        // `at + 3 <= words.len()`.
        let p = unsafe { self.words.get_unchecked(at..at + 3) };
        Vec3::new(
            f32::from_bits(p[0]),
            f32::from_bits(p[1]),
            f32::from_bits(p[2]),
        )
    }

    /// The corners of the `k`-th triangle, the mesh's, bit for bit.
    #[inline(always)]
    pub(crate) fn corners(&self, k: usize) -> [Vec3; 3] {
        let n = self.words[self.count + k] as usize;
        [
            self.corner(n & 0xff),
            self.corner((n >> 8) & 0xff),
            self.corner((n >> 16) & 0xff),
        ]
    }

    /// The box of the `k`-th triangle: the mesh's, bit for bit.
    #[inline(always)]
    pub(crate) fn aabb(&self, k: usize) -> Aabb {
        Aabb::from_points(self.corners(k))
    }

    /// [`SharedLeaf::corners`], or `None` where the record is too short
    /// for them (`validate`).
    pub(crate) fn checked_corners(&self, k: usize) -> Option<[Vec3; 3]> {
        let n = *self.words.get(self.count..2 * self.count)?.get(k)?;
        let mut out = [Vec3::ZERO; 3];
        for (i, p) in out.iter_mut().enumerate() {
            let at = 2 * self.count + 3 * ((n >> (8 * i)) & 0xff) as usize;
            let w = self.words.get(at..at + 3)?;
            *p = Vec3::new(
                f32::from_bits(w[0]),
                f32::from_bits(w[1]),
                f32::from_bits(w[2]),
            );
        }
        Some(out)
    }

    /// [`SharedLeaf::triangle`], or `None` where the record is too short.
    pub(crate) fn checked_triangle(&self, k: usize) -> Option<u32> {
        self.words.get(k).copied()
    }

    /// The mesh's index of the `k`-th triangle.
    #[inline(always)]
    pub(crate) fn triangle(&self, k: usize) -> u32 {
        self.words[k]
    }
}

impl SharedLeaves {
    /// `true` when the level keeps no leaves this way.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        !self.present
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        std::mem::size_of_val(self.records.as_slice())
            + std::mem::size_of_val(self.elsewhere.as_slice())
    }

    /// Where the record of the leaf at positions `range` begins: `record`,
    /// what its slot holds ([`BvhNode::leaf_record`]), else from the list.
    #[inline(always)]
    fn begins(&self, record: Option<usize>, range: &std::ops::Range<usize>) -> Option<usize> {
        match record {
            Some(at) => Some(at),
            None => {
                let first = u32::try_from(range.start).ok()?;
                let i = self.elsewhere.binary_search_by_key(&first, |e| e.0).ok()?;
                Some(self.elsewhere[i].1 as usize)
            }
        }
    }

    /// The record of the leaf at positions `range` of `tri_indices`, whose
    /// slot holds `record` (`None` when there is no such record).
    #[inline(always)]
    pub(crate) fn leaf(
        &self,
        record: Option<usize>,
        range: std::ops::Range<usize>,
    ) -> Option<SharedLeaf<'_>> {
        let at = self.begins(record, &range)?;
        // At least one corner (`SharedLeaf::corner` relies on it).
        let words = self
            .records
            .get(at..)
            .filter(|w| w.len() >= 2 * range.len() + 3)?;
        Some(SharedLeaf {
            words,
            count: range.len(),
        })
    }

    /// The words of the record of a leaf of `count` triangles that
    /// begins at `record`, as far as the walk asks the cache for them
    /// ahead of time: enough for `5 * count / 4 + 3` distinct corners,
    /// which a terrain's leaves seldom exceed (the rest is read when the
    /// leaf is searched).
    #[inline(always)]
    pub(crate) fn ahead(&self, record: usize, count: usize) -> &[u32] {
        let len = 2 * count + 3 * (5 * count / 4 + 3);
        let end = (record + len).min(self.records.len());
        self.records.get(record..end).unwrap_or_default()
    }

    /// The leaves of the tree `nodes` over `tri_indices` (every position in
    /// exactly one leaf, as a build makes them), with the corners of
    /// `mesh`'s triangles; each leaf's slot is made to hold where its
    /// record begins. `None` (and `nodes` untouched) when a leaf has more
    /// than [`MAX_CORNERS`] distinct corners or there is no leaf.
    pub(crate) fn build(
        nodes: &mut [BvhNode],
        tri_indices: &[u32],
        mesh: &TriMesh,
    ) -> Option<SharedLeaves> {
        use rayon::prelude::*;
        // (first, count, node, slot)
        let mut leaves: Vec<(u32, u32, u32, u8)> = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            for k in 0..4 {
                if let Slot::Leaf { first, count } = n.slot(k) {
                    leaves.push((first, count, i as u32, k as u8));
                }
            }
        }
        leaves.sort_unstable();
        if leaves.is_empty() {
            return None;
        }
        let records: Vec<Option<Vec<u32>>> = leaves
            .par_iter()
            .map(|&(first, count, _, _)| {
                let tris = tri_indices.get(first as usize..(first + count) as usize)?;
                record(tris, mesh)
            })
            .collect();
        let records: Vec<Vec<u32>> = records.into_iter().collect::<Option<_>>()?;
        let len = records.iter().map(Vec::len).sum();
        let mut all = huge_pages::empty_in_huge_pages(len).unwrap_or_default();
        let mut elsewhere = Vec::new();
        for (&(first, _, node, k), r) in leaves.iter().zip(&records) {
            let at = all.len();
            all.extend_from_slice(r);
            if !nodes[node as usize].set_leaf_record(k as usize, at) {
                elsewhere.push((first, at as u32));
            }
        }
        Some(SharedLeaves {
            present: true,
            records: all,
            elsewhere,
        })
    }
}

/// The record of a leaf of triangles `tris` of `mesh` (see the module
/// docs); `None` with more than [`MAX_CORNERS`] distinct corners.
fn record(tris: &[u32], mesh: &TriMesh) -> Option<Vec<u32>> {
    let count = tris.len();
    let mut corners: Vec<[u32; 3]> = Vec::with_capacity(3 * count);
    let mut numbers = vec![0u32; count];
    for (k, &tri) in tris.iter().enumerate() {
        for (i, p) in mesh.triangle(tri).into_iter().enumerate() {
            // Bit for bit: the copy must give back exactly the mesh's value.
            let bits = p.to_array().map(f32::to_bits);
            let c = match corners.iter().position(|q| *q == bits) {
                Some(c) => c,
                None => {
                    corners.push(bits);
                    corners.len() - 1
                }
            };
            if c >= MAX_CORNERS {
                return None;
            }
            numbers[k] |= (c as u32) << (8 * i);
        }
    }
    let mut words = Vec::with_capacity(count + numbers.len() + 3 * corners.len());
    words.extend_from_slice(tris);
    words.extend_from_slice(&numbers);
    words.extend(corners.into_iter().flatten());
    Some(words)
}
