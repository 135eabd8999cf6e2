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
//! Layout, in `u32` words: leaf `first..first + count` (positions in
//! `Bvh::tri_indices`) owns the fixed region of `stride` words a triangle
//! starting at `first * stride`, so a walk finds it from the node's slot
//! with no lookup. A leaf's record is
//!
//! - `count` words: its triangles' indices in the mesh;
//! - `3 * count` bytes, padded to whole words: the corner numbers of each
//!   triangle, in order (the first is always 0);
//! - three words (`f32` bits) for each distinct corner, in order of first use.
//!
//! The stride is chosen per level, the one that makes the whole smallest.
//! A leaf whose record does not fit its region (one with few shared
//! corners) has it in a second array, the spill: its region then holds the
//! record's offset in its first word and, in the word where its corner
//! numbers would begin, `0xff` in the low byte (never a first corner
//! number) and the record's length above it.

use super::{Slot, huge_pages};
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;

/// A leaf's triangles may have at most this many distinct corners (their
/// numbers are bytes); a level with a leaf that has more keeps boxes
/// instead (only heaps of unrelated triangles in one leaf, where the
/// builder could not split them).
const MAX_CORNERS: usize = 256;
/// The low byte of a region's marker word when the record is spilled.
const SPILLED: u32 = 0xff;
/// Largest stride tried: a leaf of one triangle (1 + 1 + 9 words) fits,
/// and so any leaf of triangles with no corner shared.
const MAX_STRIDE: usize = 11;

/// The leaves of a level, with shared corners (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedLeaves {
    /// Words a triangle in `regions` (0 when there are none).
    pub(crate) stride: usize,
    /// Each leaf's fixed region: its record, or where the spill holds it.
    pub(crate) regions: Vec<u32>,
    /// The records that do not fit their region.
    pub(crate) spill: Vec<u32>,
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
        let at = 2 * self.count + 3 * c;
        let p = &self.words[at..at + 3];
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
    pub(crate) fn is_empty(&self) -> bool {
        self.stride == 0
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        std::mem::size_of_val(self.regions.as_slice())
            + std::mem::size_of_val(self.spill.as_slice())
    }

    /// The fixed region of the leaf at positions `range` (what a walk asks
    /// the cache for ahead of time; a spilled leaf's record is elsewhere).
    #[inline(always)]
    pub(crate) fn region(&self, range: std::ops::Range<usize>) -> Option<&[u32]> {
        self.regions
            .get(range.start * self.stride..range.end * self.stride)
    }

    /// The record of the leaf at positions `range` of `tri_indices`
    /// (`None` when there is no such region).
    #[inline(always)]
    pub(crate) fn leaf(&self, range: std::ops::Range<usize>) -> Option<SharedLeaf<'_>> {
        let count = range.len();
        let region = self.region(range)?;
        let mark = *region.get(count)?;
        let words = if mark & 0xff == SPILLED {
            let at = region[0] as usize;
            self.spill.get(at..at + (mark >> 8) as usize)?
        } else {
            region
        };
        Some(SharedLeaf { words, count })
    }

    /// The leaves of the tree `nodes` over `tri_indices` (every position in
    /// exactly one leaf, as a build makes them), with the corners of
    /// `mesh`'s triangles; `None` when a leaf has more than
    /// [`MAX_CORNERS`] distinct corners or there is no triangle.
    pub(crate) fn build(
        nodes: &[super::BvhNode],
        tri_indices: &[u32],
        mesh: &TriMesh,
    ) -> Option<SharedLeaves> {
        use rayon::prelude::*;
        let mut leaves: Vec<(u32, u32)> = nodes
            .iter()
            .flat_map(|n| (0..4).map(move |k| n.slot(k)))
            .filter_map(|s| match s {
                Slot::Leaf { first, count } => Some((first, count)),
                _ => None,
            })
            .collect();
        leaves.sort_unstable();
        if leaves.is_empty() {
            return None;
        }
        let records: Vec<Option<Vec<u32>>> = leaves
            .par_iter()
            .map(|&(first, count)| {
                let tris = tri_indices.get(first as usize..(first + count) as usize)?;
                record(tris, mesh)
            })
            .collect();
        let records: Vec<Vec<u32>> = records.into_iter().collect::<Option<_>>()?;
        let positions = tri_indices.len();
        // The stride that makes regions and spill smallest.
        let total = |stride: usize| {
            let spilled: usize = leaves
                .iter()
                .zip(&records)
                .filter(|((_, count), r)| r.len() > *count as usize * stride)
                .map(|(_, r)| r.len())
                .sum();
            positions * stride + spilled
        };
        let stride = (2..=MAX_STRIDE).min_by_key(|&s| total(s))?;
        let len = positions * stride;
        let mut regions = huge_pages::empty_in_huge_pages(len).unwrap_or_default();
        regions.resize(len, 0);
        let mut spill = Vec::new();
        for (&(first, count), r) in leaves.iter().zip(&records) {
            let (first, count) = (first as usize, count as usize);
            let region = &mut regions[first * stride..(first + count) * stride];
            if r.len() <= region.len() {
                region[..r.len()].copy_from_slice(r);
            } else {
                region[0] = spill.len() as u32;
                region[count] = SPILLED | (r.len() as u32) << 8;
                spill.extend_from_slice(r);
            }
        }
        Some(SharedLeaves {
            stride,
            regions,
            spill,
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
