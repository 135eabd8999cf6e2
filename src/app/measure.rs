//! The measuring tool: two clicks on the level give the distance between
//! the points, the height difference and the horizontal distance, so a
//! designer reads a riser, a door's height or a gap directly. Clicks snap
//! to the picked triangle's corners, then its edges, when the pointer is
//! within a few pixels of them (world space; the snapping distance is
//! measured on screen through the caller's projection).

use glam::DVec3;

/// Pointer distance, screen points, within which a corner wins.
pub const SNAP_VERTEX_PX: f32 = 10.0;
/// Pointer distance, screen points, within which an edge wins.
pub const SNAP_EDGE_PX: f32 = 6.0;

/// What a measured point snapped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnapKind {
    /// A corner of the triangle.
    Vertex,
    /// A point on an edge of the triangle.
    Edge,
    /// The surface under the pointer.
    Surface,
}

impl SnapKind {
    /// Short words for the label.
    pub fn words(self) -> &'static str {
        match self {
            SnapKind::Vertex => "corner",
            SnapKind::Edge => "edge",
            SnapKind::Surface => "surface",
        }
    }
}

/// A measured point, world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasurePoint {
    /// Where, world space, metres.
    pub at: DVec3,
    /// What it snapped to.
    pub snap: SnapKind,
}

/// The tool's state: the first point once clicked, the pair once done.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measure {
    /// The first click, waiting for the second.
    pub first: Option<MeasurePoint>,
    /// The last finished measurement.
    pub done: Option<(MeasurePoint, MeasurePoint)>,
}

impl Measure {
    /// Takes a click: the first point, or the second (which finishes the
    /// measurement and readies the next).
    pub fn click(&mut self, p: MeasurePoint) {
        match self.first.take() {
            None => {
                self.first = Some(p);
                self.done = None;
            }
            Some(a) => self.done = Some((a, p)),
        }
    }
}

/// Snaps `hit` (on the triangle `corners`) to a corner or an edge when
/// the pointer at `pointer` is close to one on screen; `to_screen`
/// projects world points (`None`: behind the camera).
pub fn snap(
    hit: DVec3,
    corners: [DVec3; 3],
    pointer: [f32; 2],
    to_screen: impl Fn(DVec3) -> Option<[f32; 2]>,
) -> MeasurePoint {
    let px = |p: DVec3| {
        to_screen(p).map_or(f32::INFINITY, |s| {
            ((s[0] - pointer[0]).powi(2) + (s[1] - pointer[1]).powi(2)).sqrt()
        })
    };
    let nearest_corner = corners
        .iter()
        .map(|&c| (c, px(c)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((c, d)) = nearest_corner
        && d <= SNAP_VERTEX_PX
    {
        return MeasurePoint {
            at: c,
            snap: SnapKind::Vertex,
        };
    }
    let nearest_edge = (0..3)
        .map(|i| closest_on_segment(hit, corners[i], corners[(i + 1) % 3]))
        .map(|q| (q, px(q)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((q, d)) = nearest_edge
        && d <= SNAP_EDGE_PX
    {
        return MeasurePoint {
            at: q,
            snap: SnapKind::Edge,
        };
    }
    MeasurePoint {
        at: hit,
        snap: SnapKind::Surface,
    }
}

fn closest_on_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f64::MIN_POSITIVE {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The label of a measurement: distance, rise (up positive, from the
/// first point to the second) and horizontal distance, metres.
pub fn describe(a: MeasurePoint, b: MeasurePoint) -> String {
    let d = b.at - a.at;
    let across = (d.x * d.x + d.z * d.z).sqrt();
    format!(
        "{:.3} m · rise {:+.3} m · across {:.3} m ({} to {})",
        d.length(),
        d.y,
        across,
        a.snap.words(),
        b.snap.words()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A top-down projection: 100 screen points per metre, x right, z down.
    fn top(p: DVec3) -> Option<[f32; 2]> {
        Some([(p.x * 100.0) as f32, (p.z * 100.0) as f32])
    }

    const TRI: [DVec3; 3] = [
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(2.0, 0.0, 0.0),
        DVec3::new(0.0, 0.0, 2.0),
    ];

    #[test]
    fn clicks_snap_to_corners_then_edges_then_stay_on_the_surface() {
        let near_corner = snap(DVec3::new(1.95, 0.0, 0.04), TRI, [195.0, 4.0], top);
        assert_eq!(near_corner.snap, SnapKind::Vertex);
        assert_eq!(near_corner.at, TRI[1]);
        let near_edge = snap(DVec3::new(1.0, 0.0, 0.03), TRI, [100.0, 3.0], top);
        assert_eq!(near_edge.snap, SnapKind::Edge);
        assert!((near_edge.at - DVec3::new(1.0, 0.0, 0.0)).length() < 1e-12);
        let inside = snap(DVec3::new(0.5, 0.0, 0.5), TRI, [50.0, 50.0], top);
        assert_eq!(inside.snap, SnapKind::Surface);
        assert_eq!(inside.at, DVec3::new(0.5, 0.0, 0.5));
        let unseen = snap(DVec3::new(0.5, 0.0, 0.5), TRI, [50.0, 50.0], |_| None);
        assert_eq!(unseen.snap, SnapKind::Surface, "nothing on screen, no snap");
    }

    #[test]
    fn a_riser_reads_as_its_rise() {
        let foot = MeasurePoint {
            at: DVec3::new(1.0, 0.0, 2.0),
            snap: SnapKind::Edge,
        };
        let nose = MeasurePoint {
            at: DVec3::new(1.0, 0.3, 2.0),
            snap: SnapKind::Vertex,
        };
        let mut m = Measure::default();
        m.click(foot);
        assert_eq!(m.done, None);
        m.click(nose);
        assert_eq!(m.done, Some((foot, nose)));
        assert_eq!(m.first, None, "ready for the next");
        assert_eq!(
            describe(foot, nose),
            "0.300 m · rise +0.300 m · across 0.000 m (edge to corner)"
        );
        m.click(foot);
        assert_eq!(m.done, None, "a new first click clears the old result");
    }
}
