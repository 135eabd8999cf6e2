//! Triangulation of one polygonal face, world space (`f64` copies of the
//! stored `f32` positions, so that the triangles describe exactly the
//! geometry the solver will see).
//!
//! The polygon is projected onto the coordinate plane most facing its Newell
//! normal (Newell 1972; see Ericson, *Real-Time Collision Detection* §12.3)
//! with the axes ordered so that it turns counter-clockwise in 2D, then
//! clipped ear by ear (Meisters 1975; the reflex-vertex test follows
//! Eberly, *Triangulation by Ear Clipping*, and mapbox/earcut). A fan would
//! be wrong on concave faces such as arch openings. Emitted triangles keep
//! the polygon's winding. Repeated corners are skipped and collinear ones
//! removed without emitting slivers; a self-intersecting polygon, which has
//! no proper triangulation, is finished by forcing its most convex corner.
//!
//! Ear clipping is quadratic in the corner count (each ear is checked
//! against the reflex corners left), which a single 100k-corner face turns
//! into seconds and a 1M-corner one into minutes. Faces above
//! [`FAN_MIN_CORNERS`] are first checked for convexity in linear time
//! (every turn the same way, one turn around in all) and, when convex,
//! fanned from one corner, which is exact and linear. A concave face above
//! [`MAX_CONCAVE_CORNERS`] is refused: no exporter writes one, and it would
//! take seconds to hours.

use crate::math::{DVec3, Vec3};

/// Below this ratio of twice-area to squared longest edge a triangle's
/// normal is noise: its height is under a millionth of its length.
const DEGENERATE_REL: f64 = 1e-6;

/// True when triangle `abc` has (numerically) zero area.
pub(super) fn is_degenerate(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let longest_sq = (b - a)
        .length_squared()
        .max((c - b).length_squared())
        .max((a - c).length_squared());
    (b - a).cross(c - a).length() <= DEGENERATE_REL * longest_sq
}

/// Relative rounding of an `f32` coordinate, doubled (two corners' worth):
/// a corner this close to the line through its neighbours, relative to
/// the face's largest coordinate, may be in line with them as written.
const F32_ROUNDING: f64 = 1.0 / (1u64 << 23) as f64;

/// Rounding of the coordinates as written, relative to the face's size: an
/// exporter writing 5 decimals (or 6 significant digits) wobbles a curve's
/// corners by more than it bends between them when a face has millions.
/// A big face is convex when it is, within this, and fanned: its outline
/// moves by at most this (2 mm on a 200 m face).
const WRITTEN_ROUNDING: f64 = 1e-5;

/// Faces with more corners than this are fanned when convex.
pub(super) const FAN_MIN_CORNERS: usize = 64;

/// The most corners a non-convex face may have: ear clipping it takes
/// at most ~0.2 s at this size (a face crossing itself everywhere, where
/// every ear is forced, is the slowest: cubic; dev build).
pub(super) const MAX_CONCAVE_CORNERS: usize = 2_000;

/// How a polygon was triangulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The triangles tile the polygon exactly.
    Exact,
    /// The polygon has zero area (corners collinear or coincident): no triangles.
    Flat,
    /// The polygon intersects itself; some ears had to be forced, so the
    /// triangles cover it only approximately.
    Forced,
    /// The polygon is not convex and has more than [`MAX_CONCAVE_CORNERS`]
    /// corners: not triangulated.
    TooLarge,
}

/// Scratch buffers reused from one polygon to the next, so that
/// triangulating a level allocates only while its largest face grows them.
#[derive(Debug, Default)]
pub(super) struct Triangulator {
    /// Position index of each kept corner.
    corner: Vec<u32>,
    /// The corner, world space, `f64`.
    pos_world: Vec<DVec3>,
    /// The corner projected to 2D, relative to the first corner.
    pt: Vec<[f64; 2]>,
    prev: Vec<usize>,
    next: Vec<usize>,
    /// Scale-free turn at each corner: > 0 convex, < 0 reflex.
    turn: Vec<f64>,
}

impl Triangulator {
    /// Appends the triangles of the polygon `corners` (indices into
    /// `positions`, all in range) to `out`, counter-clockwise seen from the
    /// side the polygon itself is counter-clockwise from.
    pub(super) fn triangulate(
        &mut self,
        corners: &[u32],
        positions: &[Vec3],
        out: &mut Vec<[u32; 3]>,
    ) -> Outcome {
        self.load(corners, positions);
        let n = self.corner.len();
        if n < 3 {
            return Outcome::Flat;
        }
        let normal = newell_normal(&self.pos_world);
        let (lo, hi) = self
            .pos_world
            .iter()
            .fold((self.pos_world[0], self.pos_world[0]), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        if normal.length() <= DEGENERATE_REL * (hi - lo).length_squared() {
            return Outcome::Flat;
        }
        if n == 3 {
            out.push([self.corner[0], self.corner[1], self.corner[2]]);
            return Outcome::Exact;
        }
        self.project(normal);
        if n > FAN_MIN_CORNERS {
            if let Some(outcome) = self.fan(out) {
                return outcome;
            }
            if n > MAX_CONCAVE_CORNERS {
                return Outcome::TooLarge;
            }
        }
        self.clip_ears(out)
    }

    /// Fans the polygon from its first kept corner when it is convex, and
    /// says whether it was. First the corners in line with their kept
    /// neighbours are removed (as ear clipping does, each judged against the
    /// neighbours left); a corner turning the wrong way by less than the
    /// rounding of `f32` positions and of the text ([`WRITTEN_ROUNDING`])
    /// is removed too: a face with a million corners on a circle has bends
    /// far smaller than that rounding, which turns some of them the wrong
    /// way. (Only those: removing corners that
    /// turn the right way would compound into a coarser polygon.) What is left is convex when every corner turns left and the
    /// turns add up to one turn around, not two (a pentagram turns left at
    /// every corner). All linear in the corner count.
    fn fan(&mut self, out: &mut Vec<[u32; 3]>) -> Option<Outcome> {
        let (extent, lo, hi) = self.pos_world.iter().fold(
            (0.0f64, self.pos_world[0], self.pos_world[0]),
            |(m, lo, hi), p| (m.max(p.abs().max_element()), lo.min(*p), hi.max(*p)),
        );
        let noise = extent * F32_ROUNDING + (hi - lo).length() * WRITTEN_ROUNDING;
        let pt = &self.pt;
        let in_line = |a: usize, b: usize, c: usize| {
            let (a, b, c) = (pt[a], pt[b], pt[c]);
            let o = orient(a, b, c);
            turn(a, b, c).abs() <= DEGENERATE_REL || (o < 0.0 && -o <= noise * dist_sq(a, c).sqrt())
        };
        let mut kept: Vec<usize> = Vec::with_capacity(pt.len());
        for i in 0..pt.len() {
            while let [.., a, b] = kept[..]
                && in_line(a, b, i)
            {
                kept.pop();
            }
            kept.push(i);
        }
        // The ends meet: drop corners in line there until none are left.
        let mut first = 0;
        loop {
            let live = &kept[first..];
            let l = live.len();
            if l < 3 {
                return None;
            }
            if in_line(live[l - 2], live[l - 1], live[0]) {
                kept.pop();
            } else if in_line(live[l - 1], live[0], live[1]) {
                first += 1;
            } else {
                break;
            }
        }
        let live = &kept[first..];
        let l = live.len();
        let mut total = 0.0;
        for i in 0..l {
            let (a, b, c) = (
                pt[live[(i + l - 1) % l]],
                pt[live[i]],
                pt[live[(i + 1) % l]],
            );
            if orient(a, b, c) <= 0.0 {
                return None;
            }
            let (e, f) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
            total += (e[0] * f[1] - e[1] * f[0]).atan2(e[0] * f[0] + e[1] * f[1]);
        }
        if total >= 3.0 * std::f64::consts::PI {
            return None;
        }
        let apex = self.corner[live[0]];
        out.extend(
            live[1..]
                .windows(2)
                .map(|w| [apex, self.corner[w[0]], self.corner[w[1]]]),
        );
        Some(Outcome::Exact)
    }

    /// Copies the corners, dropping a corner equal to the one before it
    /// (including the last equal to the first).
    fn load(&mut self, corners: &[u32], positions: &[Vec3]) {
        self.corner.clear();
        self.pos_world.clear();
        for &c in corners {
            let p = positions[c as usize].as_dvec3();
            if self.pos_world.last() != Some(&p) {
                self.corner.push(c);
                self.pos_world.push(p);
            }
        }
        while self.pos_world.len() > 1 && self.pos_world.last() == self.pos_world.first() {
            self.pos_world.pop();
            self.corner.pop();
        }
    }

    /// Drops the axis along which `normal` is largest, ordering the other two
    /// so that the projected polygon is counter-clockwise.
    fn project(&mut self, normal: DVec3) {
        let abs = normal.abs();
        let k = if abs.x >= abs.y && abs.x >= abs.z {
            0
        } else if abs.y >= abs.z {
            1
        } else {
            2
        };
        let (mut u, mut v) = ((k + 1) % 3, (k + 2) % 3);
        if normal[k] < 0.0 {
            std::mem::swap(&mut u, &mut v);
        }
        let origin = self.pos_world[0];
        self.pt.clear();
        self.pt.extend(
            self.pos_world
                .iter()
                .map(|p| [p[u] - origin[u], p[v] - origin[v]]),
        );
    }

    fn clip_ears(&mut self, out: &mut Vec<[u32; 3]>) -> Outcome {
        let n = self.pt.len();
        self.prev.clear();
        self.prev.extend((0..n).map(|i| (i + n - 1) % n));
        self.next.clear();
        self.next.extend((0..n).map(|i| (i + 1) % n));
        self.turn.clear();
        self.turn.resize(n, 0.0);
        for i in 0..n {
            self.update_turn(i);
        }
        let mut outcome = Outcome::Exact;
        let (mut remaining, mut v, mut stalled) = (n, 0, 0);
        while remaining > 3 {
            let turn = self.turn[v];
            let collinear = turn.abs() <= DEGENERATE_REL;
            if collinear || (turn > 0.0 && self.is_ear(v)) {
                if !collinear {
                    self.emit(v, out);
                }
                v = self.unlink(v);
                remaining -= 1;
                stalled = 0;
                continue;
            }
            v = self.next[v];
            stalled += 1;
            if stalled > remaining {
                // Every corner is reflex or blocked: the polygon crosses itself.
                v = self.most_convex(v);
                if self.turn[v] > 0.0 {
                    self.emit(v, out);
                }
                v = self.unlink(v);
                remaining -= 1;
                stalled = 0;
                outcome = Outcome::Forced;
            }
        }
        if self.turn[v] > DEGENERATE_REL {
            self.emit(v, out);
        } else if self.turn[v] < -DEGENERATE_REL {
            outcome = Outcome::Forced;
        }
        outcome
    }

    fn emit(&self, v: usize, out: &mut Vec<[u32; 3]>) {
        out.push([
            self.corner[self.prev[v]],
            self.corner[v],
            self.corner[self.next[v]],
        ]);
    }

    /// Removes corner `v`, refreshes its neighbours and returns the next one.
    fn unlink(&mut self, v: usize) -> usize {
        let (a, c) = (self.prev[v], self.next[v]);
        self.next[a] = c;
        self.prev[c] = a;
        self.update_turn(a);
        self.update_turn(c);
        c
    }

    fn update_turn(&mut self, v: usize) {
        self.turn[v] = turn(self.pt[self.prev[v]], self.pt[v], self.pt[self.next[v]]);
    }

    /// True when no non-convex corner lies in or on the triangle cut off at
    /// `v`. Corners at the same place as the triangle's own (the two sides
    /// of a bridge to a hole) do not block it.
    fn is_ear(&self, v: usize) -> bool {
        let (a, c) = (self.prev[v], self.next[v]);
        let (pa, pv, pc) = (self.pt[a], self.pt[v], self.pt[c]);
        let mut p = self.next[c];
        while p != a {
            let q = self.pt[p];
            if self.turn[p] <= DEGENERATE_REL
                && q != pa
                && q != pv
                && q != pc
                && orient(pa, pv, q) >= 0.0
                && orient(pv, pc, q) >= 0.0
                && orient(pc, pa, q) >= 0.0
            {
                return false;
            }
            p = self.next[p];
        }
        true
    }

    fn most_convex(&self, start: usize) -> usize {
        let (mut best, mut v) = (start, self.next[start]);
        while v != start {
            if self.turn[v] > self.turn[best] {
                best = v;
            }
            v = self.next[v];
        }
        best
    }
}

/// Twice the area vector of a polygon (Newell's method), taken about its
/// first corner to keep far-from-origin coordinates precise.
fn newell_normal(pos_world: &[DVec3]) -> DVec3 {
    let origin = pos_world[0];
    let mut sum = DVec3::ZERO;
    for (i, p) in pos_world.iter().enumerate() {
        let q = pos_world[(i + 1) % pos_world.len()];
        sum += (*p - origin).cross(q - origin);
    }
    sum
}

/// Scale-free turn at `b` on the way from `a` to `c`: > 0 left (convex
/// in a counter-clockwise polygon), < 0 right, 0 when the points coincide.
fn turn(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let longest_sq = dist_sq(a, b).max(dist_sq(b, c)).max(dist_sq(c, a));
    if longest_sq > 0.0 {
        orient(a, b, c) / longest_sq
    } else {
        0.0
    }
}

/// Twice the signed area of 2D triangle `abc`: > 0 when counter-clockwise.
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

fn dist_sq(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)
}

#[cfg(test)]
mod tests;
