//! The solver checking itself: after every iteration, how far the probe is
//! from the nearest colliding triangle, and whether it ended inside one.
//!
//! The paper modes reproduce the papers' flaws on purpose (Nettle's article
//! ignores planes facing away from the velocity, Fauerby's keeps its
//! very-close distance along the velocity), so they can end a move inside
//! a wall. The trace must then say so, loudly, rather than leave a
//! programmer to find out from a screenshot; and robust mode, which must
//! never do it, is checked by the same measure in its property tests.
//!
//! The measure is exact in ellipsoid space, where the probe is the unit
//! sphere: the distance from its centre to the closest point of each nearby
//! triangle, minus one. The metres reported are the length, in world space,
//! of the segment from that closest point to the probe's surface along the
//! same direction: exact for a sphere, and for an ellipsoid the gap along the
//! direction in which it is smallest in radii.

use super::world::CollisionWorld;
use super::{EndReason, IterationOutcome, IterationRecord, SlideMode, SlideSettings};
use crate::bvh::{BvhScratch, QueryStats, RoundedProbe};
use crate::geometry::closest::closest_feature_given_cross;
use crate::geometry::espace::EllipsoidSpace;
use crate::geometry::sweep::Feature;
use crate::math::{Aabb, Vec3};
use crate::mesh::TriMesh;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// How far beyond the probe's surface the clearance is looked for, in radii
/// (ellipsoid space), or twice the skin if that is farther (a tiny probe).
/// Farther triangles are not searched: the search stays one small box
/// query (a reach of 0.25 radii cost half as much again on long moves
/// through a city, see BENCHMARKS.md), and what makes a player stick
/// happens within the skin.
pub const CLEARANCE_REACH_RADII: f64 = 0.05;

/// Deeper than this (radii) counts as embedded. The solver's own arithmetic
/// leaves contacts within about `1e-9` of the skin; the property tests hold
/// robust mode to `1e-6`.
pub const EMBEDDED_TOLERANCE_RADII: f64 = 1e-6;

/// How far from the probe's centre (radii, ellipsoid space) the
/// clearance's search reaches out to list the triangles of the hit's edge
/// or vertex for the ghost-corner check
/// ([`ClearanceQuery::measure_covering`]). An iteration ends about one
/// radius plus the skin from its hit; a feature farther than this (an
/// end moved elsewhere) gets the ghost check's own search instead.
pub(super) const COVER_REACH_RADII: f64 = 2.0;

/// The most seed triangles a clearance search starts from (more are left
/// out).
pub(super) const MAX_SEEDS: usize = 2;

/// The gap between the probe and the nearest colliding triangle where an
/// iteration ends.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clearance {
    /// The gap, metres (see the module documentation); negative when the
    /// probe is embedded: then minus the depth.
    pub metres: f64,
    /// The gap in radii: distance from the centre to the triangle in
    /// ellipsoid space, minus one. Negative when embedded.
    pub radii: f64,
    /// The nearest triangle.
    pub triangle: u32,
    /// Its object.
    pub object: u32,
    /// The triangle's face, edge or vertex nearest to the probe.
    pub feature: Feature,
    /// The nearest point of the triangle, world space.
    pub closest_point: DVec3,
    /// The point of the probe's surface facing it (along the ellipsoid-space
    /// direction to the centre), world space. From `closest_point` to here is
    /// the gap; when embedded, the depth vector that would free the probe.
    pub surface_point: DVec3,
    /// Deeper inside the triangle than [`EMBEDDED_TOLERANCE_RADII`].
    pub embedded: bool,
}

/// The farthest (radii, ellipsoid space) a clearance search reaches beyond
/// what it needs, so that [`NearbyTriangles`] can serve the next iteration
/// of the same pass, which ends within its velocity's length of this end.
/// A longer slide leaves the ball anyway, so the search is not grown for
/// it.
pub(super) const NEARBY_GROWTH_MAX_RADII: f64 = 1.0;

/// How much farther than it needs the clearance's search reaches, for what
/// comes next: the next iteration's velocity (ellipsoid space) when the
/// pass goes on and it is at most [`NEARBY_GROWTH_MAX_RADII`] long, else
/// nothing. Growing the search at the end of a move (for a walking
/// character's next frame, which starts there) cost more on long moves
/// than it saved in frames (BENCHMARKS.md, "The clearance's kept search").
pub(super) fn nearby_growth_radii(next_velocity_e: Option<DVec3>) -> f64 {
    match next_velocity_e.map(DVec3::length) {
        Some(l) if l <= NEARBY_GROWTH_MAX_RADII => l,
        _ => 0.0,
    }
}

/// The triangles one search of the tree listed around a point, kept for
/// the clearances measured after it: consecutive iterations end near each
/// other (the end of one is the start of the next), and so do a walking
/// character's frames.
///
/// A search lists every triangle whose box comes within a ball (ellipsoid
/// space) of a centre; a later measure needs those within a ball of its
/// own. When the new ball lies inside the searched one (the distance
/// between the centres plus the new radius is at most the searched
/// radius), every triangle within the new ball was within the searched one
/// (the triangle inequality), so the list serves unchanged: the answer is
/// exact, never a guess. Otherwise the tree is searched again, with a ball
/// grown for the measures after it (see [`nearby_growth_radii`]).
///
/// The list belongs to one world and one shape: the solver that keeps it
/// borrows its level for its whole life and never changes its settings,
/// so nothing can move under a kept list.
#[derive(Debug)]
pub(super) struct NearbyTriangles {
    /// Whether a list is kept for later measures (the solver's default);
    /// off, each measure searches the tree for just its own ball.
    reuse: bool,
    /// The searched ball's centre and radius, ellipsoid space; `None`
    /// before the first search.
    searched: Option<(DVec3, f64)>,
    /// The triangles listed, in the tree's order.
    tris: Vec<u32>,
    /// Their boxes, in the same order (read in a row, not from the mesh).
    boxes: Vec<Aabb>,
    /// Searches of the tree made (for tests and tuning).
    pub searches: u64,
    /// Measures served by a kept list (for tests and tuning).
    pub reuses: u64,
}

impl NearbyTriangles {
    /// An empty list; `reuse` as in [`NearbyTriangles::set_reuse`].
    pub fn new(reuse: bool) -> Self {
        NearbyTriangles {
            reuse,
            searched: None,
            tris: Vec::new(),
            boxes: Vec::new(),
            searches: 0,
            reuses: 0,
        }
    }

    /// Whether later measures may reuse a search's list (when its ball
    /// covers theirs). Off, every measure searches the tree for its own
    /// ball only; the clearances, and what the ghost check finds, are the
    /// same either way.
    pub fn set_reuse(&mut self, on: bool) {
        self.reuse = on;
        self.searched = None;
    }

    /// Lists (or keeps the list of) every triangle whose box comes within
    /// `need_e` (ellipsoid space) of `center_e` (`center_w` in world
    /// space); a new search reaches `growth_e` farther.
    fn cover(
        &mut self,
        world: &CollisionWorld<'_>,
        es: EllipsoidSpace,
        (center_w, center_e): (DVec3, DVec3),
        (need_e, growth_e): (f64, f64),
        scratch: &mut BvhScratch,
    ) {
        if self.reuse
            && let Some((searched_e, radius_e)) = self.searched
            && (center_e - searched_e).length() + need_e <= radius_e
        {
            self.reuses += 1;
            return;
        }
        self.searches += 1;
        let radius_e = if self.reuse {
            need_e + growth_e
        } else {
            need_e
        };
        // A pad in metres far above the rounding of the centres and of the
        // distance between them above, so that the search covers the ball
        // of `radius_e` with room to spare.
        let pad = center_w.abs().max_element() * 1e-12 + 1e-9;
        let probe = RoundedProbe {
            center: center_w,
            core_half: DVec3::ZERO,
            radii: es.radii() * radius_e + pad,
        };
        let mesh = world.mesh;
        self.tris.clear();
        world.bvh.query_rounded(
            &mesh.tri_aabbs,
            &probe,
            scratch,
            &mut self.tris,
            &mut QueryStats::default(),
        );
        self.boxes.clear();
        self.boxes
            .extend(self.tris.iter().map(|&t| mesh.tri_aabbs[t as usize]));
        self.searched = Some((center_e, radius_e));
    }
}

/// What a clearance search needs from the solver.
pub(super) struct ClearanceQuery<'a, 'w> {
    pub world: &'a CollisionWorld<'w>,
    pub settings: &'a SlideSettings,
    pub es: EllipsoidSpace,
    pub scratch: &'a mut BvhScratch,
    /// The list of an earlier search, used when it covers this one.
    pub nearby: &'a mut NearbyTriangles,
    /// How much farther a new search reaches, for the measures after this
    /// one ([`nearby_growth_radii`]).
    pub growth_e: f64,
    /// Filled with the ghost check's triangles when the hit's edge or
    /// vertex is covered (see [`ClearanceQuery::measure_covering`]), else
    /// left as it is.
    pub tris: &'a mut Vec<u32>,
}

impl ClearanceQuery<'_, '_> {
    /// [`ClearanceQuery::measure_covering`] with no segment to cover.
    #[cfg(test)]
    pub fn measure(&mut self, center_w: DVec3, seeds: &[u32]) -> Option<Clearance> {
        self.measure_covering(center_w, seeds, None).0
    }

    /// The clearance of the probe centred at `center_w` (the first value),
    /// or `None` when no colliding triangle comes within
    /// [`CLEARANCE_REACH_RADII`].
    ///
    /// Which triangles are solid from both sides follows the settings: in
    /// robust mode with `two_sided` off, a triangle whose plane has the
    /// centre behind it is passable by design and not counted. The paper
    /// modes cull back faces as published, which is exactly the flaw this
    /// measure exists to reveal, so for them every triangle counts.
    ///
    /// The search starts from `seeds` (the first [`MAX_SEEDS`]), triangles
    /// likely to be nearest (the iteration's hit, the last clearance's
    /// triangle), and gives the same answer whatever they are (any
    /// triangles, or none): the nearest
    /// seed's exact distance bounds the nearest triangle's, so the search
    /// needs only the triangles within it, a ball often much smaller than
    /// the reach (a probe resting a skin above a floor: the tile under it
    /// instead of every tile within the reach). Among triangles at the
    /// same distance (a centre over the edge between two tiles) the one of
    /// lowest index is the nearest, whatever order they are met in, and
    /// the cheap bounds that skip a triangle leave a margin far above
    /// their rounding, so none at the nearest distance is ever skipped.
    /// The triangles come from [`NearbyTriangles`]: an earlier search's
    /// list when its ball covers this one, else a new search; any list
    /// that holds every triangle of the ball gives the same answer.
    ///
    /// When the segment `cover_w` (the hit's edge, or a vertex when both
    /// ends are equal) comes within [`COVER_REACH_RADII`] of the centre,
    /// the ball is grown to reach it, and `tris` is set to the listed triangles
    /// whose boxes hold both its ends, in the tree's order: every triangle
    /// that has the edge or vertex is among them. The second value says
    /// whether it did. The ghost-corner check of the same iteration then
    /// finds the triangles sharing the hit's edge or vertex there instead
    /// of searching the tree again (see `ghost::detect`). The clearance is
    /// the same either way: the loop below skips the farther triangles by
    /// their boxes, in any order.
    pub fn measure_covering(
        &mut self,
        center_w: DVec3,
        seeds: &[u32],
        cover_w: Option<[Vec3; 2]>,
    ) -> (Option<Clearance>, bool) {
        let es = self.es;
        // Every triangle within `reach_radii` of the surface (in ellipsoid
        // space) touches the box of the ball of radius `1 + reach_radii`.
        let reach_radii =
            CLEARANCE_REACH_RADII.max(2.0 * self.settings.skin / es.radii().min_element());
        let mesh = self.world.mesh;
        let one_sided = self.settings.mode == SlideMode::Robust && !self.settings.two_sided;
        let center_e = es.espace_from_world(center_w);
        // Nearest so far; farther than the reach is not reported anyway.
        let mut best_distance_e = 1.0 + reach_radii;
        let mut best: Option<(u32, DVec3, Feature)> = None;
        // Each seed's measure, kept for when the search meets it again.
        let mut seeded = [None; MAX_SEEDS];
        for (k, &tri) in seeds.iter().take(MAX_SEEDS).enumerate() {
            seeded[k] = Some((
                tri,
                self.exact(tri, center_e, one_sided, loose(best_distance_e)),
            ));
            if let Some(Measured {
                distance_e,
                point_e,
                feature,
                ..
            }) = seeded[k].and_then(|s| s.1)
                && nearer((distance_e, tri), best_distance_e, best)
            {
                best_distance_e = distance_e;
                best = Some((tri, point_e, feature));
            }
        }
        // Only triangles whose box lies within the ball of the nearest so
        // far (of the ellipsoid metric) can be as near: the loop below
        // skips the others by the same measure, so the search leaves them
        // out.
        let mut search_e = best_distance_e;
        // The segment's point nearest the centre (ellipsoid metric): every
        // box that touches the segment is no farther than it. Its rounding
        // is far inside the margin added.
        let cover_e = cover_w.map(|[a, b]| {
            let (a_e, b_e) = (
                es.espace_from_world(a.as_dvec3()),
                es.espace_from_world(b.as_dvec3()),
            );
            let ab = b_e - a_e;
            let len2 = ab.length_squared();
            let t = if len2 > 0.0 {
                ((center_e - a_e).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let d = (center_e - (a_e + ab * t)).length();
            d + 1e-9 * (1.0 + d)
        });
        let covered = cover_e.is_some_and(|d| d <= COVER_REACH_RADII);
        if let Some(d) = cover_e.filter(|_| covered) {
            search_e = search_e.max(d);
        }
        self.nearby.cover(
            self.world,
            es,
            (center_w, center_e),
            (search_e, self.growth_e),
            self.scratch,
        );
        if let Some([a, b]) = cover_w.filter(|_| covered) {
            // A triangle with the edge (or vertex) has both its ends as
            // corners, so its box, exact around its corners, holds them.
            let nearby = &*self.nearby;
            self.tris.clear();
            self.tris.extend(
                nearby
                    .tris
                    .iter()
                    .zip(&nearby.boxes)
                    .filter(|(_, bx)| bx.contains_point(a) && bx.contains_point(b))
                    .map(|(&t, _)| t),
            );
        }
        let inv_radii = es.radii().recip();
        // Two cheap lower bounds, the distance to the triangle's box and to
        // its plane (in `exact`), skip most triangles before the exact
        // closest point.
        let nearby = &*self.nearby;
        for (&tri, aabb) in nearby.tris.iter().zip(&nearby.boxes) {
            let outside = (aabb.min.as_dvec3() - center_w)
                .max(center_w - aabb.max.as_dvec3())
                .max(DVec3::ZERO);
            let bound = loose(best_distance_e);
            // Squared, with no square root to wait for: the two sides differ
            // from the lengths' comparison by a rounding, far inside the
            // bound's margin.
            if (outside * inv_radii).length_squared() > bound * bound {
                continue;
            }
            // A seed measured against a looser bound: the same distance,
            // unless its plane is beyond the bound now.
            let measured = match seeded.iter().flatten().find(|s| s.0 == tri) {
                Some(&(_, m)) => m.filter(|m| !plane_beyond(m.plane, bound)),
                None => self.exact(tri, center_e, one_sided, bound),
            };
            if let Some(Measured {
                distance_e,
                point_e,
                feature,
                ..
            }) = measured
                && nearer((distance_e, tri), best_distance_e, best)
            {
                best_distance_e = distance_e;
                best = Some((tri, point_e, feature));
            }
        }
        let Some((tri, point_e, feature)) = best else {
            return (None, covered);
        };
        let gap_radii = best_distance_e - 1.0;
        // The probe's surface point facing the triangle. A centre exactly on
        // the triangle has no direction: take the triangle's normal.
        let dir_e = (center_e - point_e).try_normalize().unwrap_or_else(|| {
            let t = mesh.triangle_f64(tri).map(|p| es.espace_from_world(p));
            (t[1] - t[0]).cross(t[2] - t[0]).normalize_or(DVec3::Y)
        });
        let surface_e = center_e - dir_e;
        let closest_point = es.world_from_espace(point_e);
        let surface_point = es.world_from_espace(surface_e);
        let length_w = (surface_point - closest_point).length();
        let clearance = Clearance {
            metres: length_w.copysign(gap_radii),
            radii: gap_radii,
            triangle: tri,
            object: mesh.object_of(tri) as u32,
            feature,
            closest_point,
            surface_point,
            embedded: gap_radii < -EMBEDDED_TOLERANCE_RADII,
        };
        (Some(clearance), covered)
    }

    /// The distance from `center_e` to triangle `tri` (ellipsoid space),
    /// its closest point and feature, and its plane's distance; `None` when
    /// the triangle does not count (it does not collide, or it is
    /// one-sided and the centre is behind it) or its plane alone is
    /// farther than `bound`. The one measure of the clearance, for seeds
    /// and search alike, so that a triangle met twice gets the same
    /// distance to the last bit.
    #[inline]
    fn exact(&self, tri: u32, center_e: DVec3, one_sided: bool, bound: f64) -> Option<Measured> {
        if !self.world.triangle_collides(tri) {
            return None;
        }
        let es = self.es;
        let tri_e = self
            .world
            .mesh
            .triangle_f64(tri)
            .map(|p| es.espace_from_world(p));
        let cross_e = (tri_e[1] - tri_e[0]).cross(tri_e[2] - tri_e[0]);
        let to_center_e = center_e - tri_e[0];
        let plane = PlaneHeight {
            scaled: cross_e.dot(to_center_e),
            cross2: cross_e.length_squared(),
        };
        if (one_sided && behind(cross_e, to_center_e, plane.scaled)) || plane_beyond(plane, bound) {
            return None;
        }
        let (point_e, feature) = closest_feature_given_cross(tri_e, cross_e, center_e);
        Some(Measured {
            distance_e: (center_e - point_e).length(),
            point_e,
            feature,
            plane,
        })
    }
}

/// One triangle's exact measure from a centre ([`ClearanceQuery::exact`]).
#[derive(Clone, Copy, Debug)]
struct Measured {
    /// The distance from the centre, ellipsoid space.
    distance_e: f64,
    /// The triangle's point nearest the centre, ellipsoid space.
    point_e: DVec3,
    /// The feature it lies on.
    feature: Feature,
    /// The centre's height over the triangle's plane.
    plane: PlaneHeight,
}

/// The height of a point over a triangle's plane, unnormalised: `scaled`
/// is `n . (p - v0)` for the triangle's cross product `n = (v1 - v0) x
/// (v2 - v0)`, and `cross2` is `|n|^2`; the height is `scaled / |n|`.
/// Kept so, the plane bound needs no square root and no division.
#[derive(Clone, Copy, Debug)]
struct PlaneHeight {
    scaled: f64,
    cross2: f64,
}

/// Whether the plane alone is farther than `bound` (`|height| > bound`,
/// squared on both sides). It differs from comparing the normalised
/// height by a rounding, far inside the margin every bound carries
/// ([`loose`]): a triangle it skips is farther than the nearest one. A
/// degenerate triangle (`n` zero) is never skipped.
#[inline]
fn plane_beyond(plane: PlaneHeight, bound: f64) -> bool {
    plane.scaled * plane.scaled > bound * bound * plane.cross2
}

/// Whether the centre is behind the triangle's plane: the sign of its
/// height along the unit normal, decided exactly as that height's own
/// sign (a centre on the plane is not behind it). Where the unnormalised
/// height is larger than every rounding of either (a millionth of a
/// millionth of the sum it is made of, against a few 1e-16 for each), the
/// two have the same sign; only nearer the plane is the normal
/// normalised, as the one-sided rule has always measured it.
#[inline]
pub(super) fn behind(cross_e: DVec3, to_center_e: DVec3, scaled: f64) -> bool {
    let size = (cross_e * to_center_e).abs().element_sum();
    if scaled.abs() > 1e-12 * size {
        scaled < 0.0
    } else {
        cross_e.normalize_or_zero().dot(to_center_e) < 0.0
    }
}

/// The lower bounds that skip a triangle are compared with the nearest
/// distance so far plus this margin (radii, ellipsoid space), far above
/// the rounding of either side: a triangle at the nearest distance is
/// never skipped, whichever triangle set the bound.
const SKIP_MARGIN_RADII: f64 = 1e-9;

/// `bound` loosened by [`SKIP_MARGIN_RADII`].
#[inline]
fn loose(bound: f64) -> f64 {
    bound + SKIP_MARGIN_RADII
}

/// Whether triangle `tri` at distance `distance_e` is nearer than the best
/// so far (`best`, at `best_distance_e`; `None`: nothing yet, within the
/// reach `best_distance_e`): a smaller distance, or the same and a lower
/// triangle index.
#[inline]
fn nearer(
    (distance_e, tri): (f64, u32),
    best_distance_e: f64,
    best: Option<(u32, DVec3, Feature)>,
) -> bool {
    match best {
        None => distance_e <= best_distance_e,
        Some((best_tri, ..)) => {
            distance_e < best_distance_e || (distance_e == best_distance_e && tri < best_tri)
        }
    }
}

/// One line saying that a move ended iterations inside geometry, the
/// deepest of them, and the cause when it is a known flaw of the mode;
/// `None` when no iteration was embedded.
pub fn embedded_verdict(
    mesh: &TriMesh,
    mode: SlideMode,
    iterations: &[IterationRecord],
) -> Option<String> {
    let embedded: Vec<(&IterationRecord, Clearance)> = iterations
        .iter()
        .filter_map(|r| r.clearance.filter(|c| c.embedded).map(|c| (r, c)))
        .collect();
    let (rec, c) = embedded
        .iter()
        .min_by(|a, b| a.1.radii.total_cmp(&b.1.radii))?;
    let name = mesh
        .objects
        .get(c.object as usize)
        .map_or("?", |o| o.name.as_str());
    let normal = mesh.triangle_normal(c.triangle);
    let from_behind = normal.dot(rec.end - c.closest_point) < 0.0;
    let started_inside = matches!(
        rec.outcome,
        IterationOutcome::MoveEnded(EndReason::StuckEmbedded)
    );
    let cause = match (mode, from_behind) {
        _ if started_inside => {
            "the move started inside geometry and could not be pushed free (stuck_embedded)"
        }
        (SlideMode::Nettle2000, true) => {
            "it came in through the triangle's back, which nettle2000 ignores \
             (Nettle 2000 skips planes facing away from the velocity)"
        }
        (SlideMode::Nettle2000, false) => {
            "nettle2000 backs off along the velocity, not the contact normal, and \
             starts the slide at the polygon point (Nettle 2000)"
        }
        (SlideMode::Fauerby2003, true) => {
            "it came in through the triangle's back, which fauerby2003 culls (Fauerby 2003)"
        }
        (SlideMode::Fauerby2003, false) => {
            "fauerby2003 keeps its very-close distance along the velocity, which \
             leaves almost none at grazing angles (Fauerby 2003; Linahan 2012)"
        }
        (SlideMode::Robust, _) => {
            "robust mode must never do this: please report it with this move's --json trace"
        }
    };
    Some(format!(
        "embedded: {} of {} iterations end inside geometry; the deepest, #{}, is {:.3} radii \
         ({:.4} m) inside triangle {} ({name}): {cause}",
        embedded.len(),
        iterations.len(),
        rec.index,
        -c.radii,
        -c.metres,
        c.triangle,
    ))
}
