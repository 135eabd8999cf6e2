//! Level parts, world space (Y up, metres): floors, walls with door
//! openings, staircases, ramps, pillars, thin walls and crease corners.
//!
//! Each function returns one closed [`Solid`] (possibly several closed
//! components) standing on `y = base.y`, so parts can be dropped on a floor
//! whose top is at that height. Parts that have a direction are built
//! facing +x or +z; turn them with [`Solid::turned`].

use super::solid::{Frame, Solid, grid_box, prism};
use glam::{DVec2, DVec3};

/// A floor slab whose top face is the plane `y = top_y` over
/// `[min_xz, max_xz]`, `thickness` deep, its faces split into square-ish
/// tiles of about `tile` metres (so the floor is made of many small
/// triangles, as real levels are).
pub fn floor(min_xz: DVec2, max_xz: DVec2, top_y: f64, thickness: f64, tile: f64) -> Solid {
    let size = max_xz - min_xz;
    let cells = |len: f64| ((len / tile).round() as u32).max(1);
    grid_box(
        DVec3::new(min_xz.x, top_y - thickness, min_xz.y),
        DVec3::new(max_xz.x, top_y, max_xz.y),
        [cells(size.x), 1, cells(size.y)],
    )
}

/// A straight staircase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stairs {
    /// Height of each step, metres.
    pub riser: f64,
    /// Depth of each tread, metres.
    pub tread: f64,
    /// Number of steps (>= 1).
    pub count: u32,
    /// Width across the climb, metres.
    pub width: f64,
    /// Extra depth of the top step, a landing to stand on, metres.
    pub landing: f64,
}

/// A solid staircase whose first riser starts at `base` and which climbs
/// towards +x, `stairs.width` wide along +z.
pub fn staircase(base: DVec3, stairs: &Stairs) -> Solid {
    let n = stairs.count.max(1) as usize;
    // x of the front of step k; the top step is deeper by the landing.
    let x = |k: usize| {
        if k == n {
            n as f64 * stairs.tread + stairs.landing
        } else {
            k as f64 * stairs.tread
        }
    };
    let y = |k: usize| k as f64 * stairs.riser;
    // Side profile, counter-clockwise: along the bottom, up the back, then
    // down the steps. `bottom[k]` and `corner[k]` index it.
    let mut outline: Vec<DVec2> = (0..=n).map(|k| DVec2::new(x(k), 0.0)).collect();
    let mut top_left = vec![0; n]; // (x(k), y(k + 1)): the front top of step k
    let mut riser_foot = vec![0; n + 1]; // (x(k), y(k)): the foot of riser k, k >= 1
    outline.push(DVec2::new(x(n), y(n)));
    riser_foot[n] = outline.len() - 1;
    for k in (0..n).rev() {
        outline.push(DVec2::new(x(k), y(k + 1)));
        top_left[k] = outline.len() - 1;
        if k > 0 {
            outline.push(DVec2::new(x(k), y(k)));
            riser_foot[k] = outline.len() - 1;
        }
    }
    // One convex column per step, from the ground to its tread.
    let pieces: Vec<Vec<usize>> = (0..n)
        .map(|k| {
            let mut p = vec![k, k + 1, riser_foot[k + 1], top_left[k]];
            if k > 0 {
                p.push(riser_foot[k]);
            }
            p
        })
        .collect();
    prism(&outline, &pieces, &Frame::xy(base), 0.0, stairs.width)
}

/// A ramp of `slope_deg` rising `height` towards +x from `base`, followed by
/// a flat landing `landing` metres deep, `width` wide along +z.
pub fn ramp(base: DVec3, slope_deg: f64, height: f64, width: f64, landing: f64) -> Solid {
    let run = height / slope_deg.to_radians().tan();
    let mut outline = vec![DVec2::ZERO, DVec2::new(run + landing, 0.0)];
    outline.push(DVec2::new(run + landing, height));
    if landing > 0.0 {
        outline.push(DVec2::new(run, height));
    }
    let piece = (0..outline.len()).collect();
    prism(&outline, &[piece], &Frame::xy(base), 0.0, width)
}

/// A wall door opening.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Door {
    /// Distance from the wall's start to the opening's near jamb, metres (> 0).
    pub offset: f64,
    /// Clear width of the opening, metres.
    pub width: f64,
    /// Clear height of the opening, metres (below the wall's height).
    pub height: f64,
}

/// A wall from `base` along +x, `length` long, `height` tall and `thickness`
/// deep along +z, with an optional door opening reaching the ground.
///
/// The wall is one solid: jambs and lintel are real volumes around the
/// opening, with no internal faces between them.
pub fn wall(base: DVec3, length: f64, height: f64, thickness: f64, door: Option<Door>) -> Solid {
    let Some(d) = door else {
        let outline = [
            DVec2::ZERO,
            DVec2::new(length, 0.0),
            DVec2::new(length, height),
            DVec2::new(0.0, height),
        ];
        return prism(
            &outline,
            &[vec![0, 1, 2, 3]],
            &Frame::xy(base),
            0.0,
            thickness,
        );
    };
    let (a, b, h) = (d.offset, d.offset + d.width, d.height);
    let outline = [
        DVec2::new(0.0, 0.0),
        DVec2::new(a, 0.0),
        DVec2::new(a, h),
        DVec2::new(b, h),
        DVec2::new(b, 0.0),
        DVec2::new(length, 0.0),
        DVec2::new(length, height),
        DVec2::new(b, height),
        DVec2::new(a, height),
        DVec2::new(0.0, height),
    ];
    // Left jamb, lintel, right jamb.
    let pieces = [vec![0, 1, 2, 8, 9], vec![2, 3, 7, 8], vec![3, 4, 5, 6, 7]];
    prism(&outline, &pieces, &Frame::xy(base), 0.0, thickness)
}

/// A thin wall (e.g. 0.02 m): a single-thickness box from `base` along +x.
pub fn thin_wall(base: DVec3, length: f64, height: f64, thickness: f64) -> Solid {
    wall(base, length, height, thickness, None)
}

/// A box pillar of half-widths `half_xz`, standing on `base` (its centre at
/// the floor).
pub fn box_pillar(base: DVec3, half_xz: DVec2, height: f64) -> Solid {
    grid_box(
        base - DVec3::new(half_xz.x, 0.0, half_xz.y),
        base + DVec3::new(half_xz.x, height, half_xz.y),
        [1, 1, 1],
    )
}

/// A regular `sides`-gon prism pillar (>= 3 sides) of circumradius
/// `radius`, standing on `base` (its axis through `base`).
pub fn prism_pillar(base: DVec3, radius: f64, sides: u32, height: f64) -> Solid {
    let sides = sides.max(3);
    let outline: Vec<DVec2> = (0..sides)
        .map(|k| {
            let a = std::f64::consts::TAU * f64::from(k) / f64::from(sides);
            DVec2::new(radius * a.cos(), radius * a.sin())
        })
        .collect();
    let piece = (0..outline.len()).collect();
    prism(&outline, &[piece], &Frame::xz(base), 0.0, height)
}

/// Two walls meeting at an acute (or any) `angle_deg` at `apex`, the crease
/// opening towards +x: the inner faces run from `apex` along the directions
/// at +-angle/2 from +x, `arm` metres long. `thickness` thick, `height` tall.
/// A probe pushed into the crease meets both walls at once.
pub fn crease(apex: DVec3, angle_deg: f64, arm: f64, thickness: f64, height: f64) -> Solid {
    let half = (angle_deg * 0.5).to_radians();
    // (s, t) on the ground: s along +x, t along +z.
    let d1 = DVec2::new(half.cos(), half.sin());
    let d2 = DVec2::new(half.cos(), -half.sin());
    // Outer faces are the inner ones pushed out by `thickness`; they meet
    // behind the apex at distance thickness / sin(half).
    let n1 = DVec2::new(d1.y, -d1.x) * -1.0; // away from the opening (towards +t)
    let n2 = DVec2::new(-d2.y, d2.x) * -1.0; // away from the opening (towards -t)
    let outer_apex = DVec2::new(-thickness / half.sin(), 0.0);
    let outline = [
        DVec2::ZERO,
        d2 * arm,
        d2 * arm + n2 * thickness,
        outer_apex,
        d1 * arm + n1 * thickness,
        d1 * arm,
    ];
    let pieces = [vec![0, 1, 2, 3], vec![0, 3, 4, 5]];
    prism(&outline, &pieces, &Frame::xz(apex), 0.0, height)
}

/// A straight wall across +x with a `gap` wide slot in it, and two walls
/// leading into the slot at 45 degrees from the -x side, `arm` long: a
/// funnel. `base` is the middle of the slot on the wall's front face (the
/// wall spans `x` in `[base.x, base.x + thickness]` and `z` within
/// `gap / 2 + side` of `base.z`); `thickness` thick, `height` tall. A probe
/// walking +x anywhere in the funnel slides along an arm into the slot, so
/// a slot of exactly the probe's width catches it from every start inside.
pub fn funnel_gap(
    base: DVec3,
    gap: f64,
    side: f64,
    arm: f64,
    thickness: f64,
    height: f64,
) -> Solid {
    let (g, th, d) = (0.5 * gap, thickness, std::f64::consts::FRAC_1_SQRT_2);
    // One side (+z); the other is its mirror image.
    let half = |sign: f64| -> Solid {
        let outline = [
            DVec2::new(0.0, g),
            DVec2::new(th, g),
            DVec2::new(th, g + side),
            DVec2::new(0.0, g + side),
            DVec2::new(0.0, g + th / d),
            DVec2::new(-arm * d + th * d, g + arm * d + th * d),
            DVec2::new(-arm * d, g + arm * d),
        ]
        .map(|p| DVec2::new(p.x, sign * p.y));
        let pieces = [vec![0, 1, 2, 3, 4], vec![0, 4, 5, 6]];
        prism(&outline, &pieces, &Frame::xz(base), 0.0, height)
    };
    let mut solid = half(1.0);
    solid.append(&half(-1.0));
    solid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staircase_volume_matches_its_steps() {
        let s = Stairs {
            riser: 0.3,
            tread: 0.5,
            count: 4,
            width: 2.0,
            landing: 1.0,
        };
        let solid = staircase(DVec3::new(1.0, 0.0, 2.0), &s);
        // Columns of heights 1..4 risers; the last is deeper by the landing.
        let area = 0.5 * 0.3 * (1.0 + 2.0 + 3.0) + 1.5 * 1.2;
        assert!((solid.signed_volume() - area * 2.0).abs() < 1e-9);
    }

    #[test]
    fn door_wall_volume_excludes_the_opening() {
        let door = Door {
            offset: 1.0,
            width: 0.9,
            height: 2.0,
        };
        let solid = wall(DVec3::ZERO, 4.0, 2.5, 0.2, Some(door));
        assert!((solid.signed_volume() - (4.0 * 2.5 - 0.9 * 2.0) * 0.2).abs() < 1e-9);
    }

    #[test]
    fn ramp_slope_is_as_asked() {
        let solid = ramp(DVec3::ZERO, 30.0, 1.0, 2.0, 0.0);
        let run = 1.0 / 30f64.to_radians().tan();
        assert!((solid.signed_volume() - 0.5 * run * 2.0).abs() < 1e-9);
    }

    #[test]
    fn crease_inner_faces_meet_at_the_angle() {
        let solid = crease(DVec3::ZERO, 60.0, 2.0, 0.2, 1.0);
        assert!(solid.signed_volume() > 0.0);
        // The inner faces contain the apex and the two arm ends.
        let ends: Vec<DVec3> = [1, 5].iter().map(|&i| solid.positions[i]).collect();
        let angle = ends[0].angle_between(ends[1]).to_degrees();
        assert!((angle - 60.0).abs() < 1e-9, "{angle}");
    }
}
