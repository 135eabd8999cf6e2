//! The "Snok" extension for long chains of segments (seed document 004):
//! one box per segment of a path instead of one box around the whole path,
//! world space. Each segment is tested with the camera box swept along it
//! (the box around the camera box at both ends) through the four levels,
//! and the report says how many triangles one whole-path box would have
//! passed to level 3 against how many the per-segment boxes pass.

use super::{BoxCamReport, BoxCamera, test_box_colliding};
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Most segments one chain may have: each segment is one pass over the
/// level's objects, so the work is segments x objects (plus the triangles
/// of the objects each segment box reaches).
pub const MAX_CHAIN_SEGMENTS: usize = 10_000;

/// One segment of the chain and its four-level test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainSegment {
    /// Segment index (from point `index` to point `index + 1`).
    pub index: usize,
    /// Start of the segment (the camera box's centre).
    pub from: DVec3,
    /// End of the segment.
    pub to: DVec3,
    /// The four levels for the box swept along the segment.
    pub report: BoxCamReport,
}

/// A whole chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainReport {
    /// Half sizes of the camera box.
    pub half_extents: DVec3,
    /// The one box around the whole path.
    pub whole_box: BoxCamera,
    /// Triangles whose box overlaps the whole-path box (what one box would
    /// pass to level 3).
    pub whole_box_candidates: usize,
    /// Distinct triangles some segment box passes to level 3.
    pub segment_candidates: usize,
    /// Distinct triangles that collide with some segment's box.
    pub colliding_triangles: usize,
    /// Segments with at least one colliding triangle.
    pub colliding_segments: usize,
    /// Per segment.
    pub segments: Vec<ChainSegment>,
}

/// Why a chain cannot be tested.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// Fewer than two points.
    #[error("a path needs at least two points, it has {0}")]
    TooShort(usize),
    /// More than [`MAX_CHAIN_SEGMENTS`] segments.
    #[error("the path has {0} segments; at most {MAX_CHAIN_SEGMENTS} are tested")]
    TooLong(usize),
    /// A non-finite point or half size.
    #[error("point {0} of the path is not finite")]
    NotFinite(usize),
    /// A half size that is not positive and finite.
    #[error("the box's half sizes must be positive and finite")]
    BadBox,
}

/// Tests the camera box (half sizes `half_extents`) along `path`, one box per segment.
pub fn test_chain(
    mesh: &TriMesh,
    path: &[DVec3],
    half_extents: DVec3,
) -> Result<ChainReport, ChainError> {
    test_chain_colliding(mesh, path, half_extents, None)
}

/// [`test_chain`] where only the objects flagged `true` in
/// `object_colliding` (one flag per object; `None`: all) take part, as
/// the box method's steps do.
pub fn test_chain_colliding(
    mesh: &TriMesh,
    path: &[DVec3],
    half_extents: DVec3,
    object_colliding: Option<&[bool]>,
) -> Result<ChainReport, ChainError> {
    if path.len() < 2 {
        return Err(ChainError::TooShort(path.len()));
    }
    if path.len() - 1 > MAX_CHAIN_SEGMENTS {
        return Err(ChainError::TooLong(path.len() - 1));
    }
    if let Some(i) = path.iter().position(|p| !p.is_finite()) {
        return Err(ChainError::NotFinite(i));
    }
    if !(half_extents.is_finite() && half_extents.min_element() > 0.0) {
        return Err(ChainError::BadBox);
    }
    let boxes: Vec<BoxCamera> = path
        .windows(2)
        .map(|w| {
            BoxCamera::around(w[0], half_extents).union(&BoxCamera::around(w[1], half_extents))
        })
        .collect();
    let whole_box = boxes.iter().skip(1).fold(boxes[0], |acc, b| acc.union(b));
    let whole_box_candidates = mesh
        .tri_aabbs()
        .iter()
        .filter(|b| whole_box.overlaps_aabb(b))
        .count();
    let segments: Vec<ChainSegment> = boxes
        .into_iter()
        .enumerate()
        .map(|(i, b)| ChainSegment {
            index: i,
            from: path[i],
            to: path[i + 1],
            report: test_box_colliding(mesh, b, object_colliding),
        })
        .collect();
    let mut candidates = BTreeSet::new();
    let mut colliding = BTreeSet::new();
    for s in &segments {
        for t in &s.report.triangles {
            candidates.insert(t.triangle);
            if t.rejected_at.is_none() {
                colliding.insert(t.triangle);
            }
        }
    }
    Ok(ChainReport {
        half_extents,
        whole_box,
        whole_box_candidates,
        segment_candidates: candidates.len(),
        colliding_triangles: colliding.len(),
        colliding_segments: segments.iter().filter(|s| s.report.colliding > 0).count(),
        segments,
    })
}
