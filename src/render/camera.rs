//! The viewport camera: a look-at camera in world space (Y up, metres),
//! perspective or orthographic (the front / side / top presets), its projection to screen points (egui coordinates, y down) and
//! back to picking rays. Plain glam, no GL, so the maths is unit-tested and
//! the app's labels land exactly where the renderer draws.

use crate::math::Aabb;
use glam::{Mat4, Vec3, Vec4};
use serde::{Deserialize, Serialize};

/// A camera looking from `eye` at `target`, world space.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraView {
    /// Camera position, world space.
    pub eye: Vec3,
    /// The point looked at (the orbit centre), world space.
    pub target: Vec3,
    /// Up direction, world space (need not be orthogonal to the view direction).
    pub up: Vec3,
    /// Vertical field of view, degrees.
    pub fov_y_deg: f32,
    /// Near clip distance, metres.
    pub near: f32,
    /// Far clip distance, metres.
    pub far: f32,
    /// Orthographic: parallel projection showing, at every depth, the
    /// height the perspective view shows at the target (so switching keeps
    /// the scale). Front, side and top views read true lengths.
    #[serde(default)]
    pub orthographic: bool,
}

/// The camera presets of the View menu. Each frames the subject (what is
/// selected, else the whole level) from its own direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraPreset {
    /// Looking along −Z (from +Z), orthographic.
    Front,
    /// Looking along −X (from +X), orthographic.
    Side,
    /// Looking down −Y, north (−Z) up on screen, orthographic.
    Top,
    /// The default three-quarter perspective view.
    Perspective,
}

impl CameraPreset {
    /// Every preset, in menu order.
    pub const ALL: [CameraPreset; 4] = [
        CameraPreset::Front,
        CameraPreset::Side,
        CameraPreset::Top,
        CameraPreset::Perspective,
    ];

    /// The menu's words.
    pub fn label(self) -> &'static str {
        match self {
            CameraPreset::Front => "Front (orthographic, along −Z)",
            CameraPreset::Side => "Side (orthographic, along −X)",
            CameraPreset::Top => "Top (orthographic, looking down)",
            CameraPreset::Perspective => "Perspective (three-quarter)",
        }
    }

    /// Unit direction from the subject to the eye, and the view's up.
    fn direction(self) -> (Vec3, Vec3) {
        match self {
            CameraPreset::Front => (Vec3::Z, Vec3::Y),
            CameraPreset::Side => (Vec3::X, Vec3::Y),
            CameraPreset::Top => (Vec3::Y, Vec3::NEG_Z),
            CameraPreset::Perspective => (THREE_QUARTER.normalize(), Vec3::Y),
        }
    }
}

/// The three-quarter direction (from the subject to the eye) of the
/// perspective view: above, to the right and in front.
const THREE_QUARTER: Vec3 = Vec3::new(1.0, 0.8, 1.3);

/// Room left around a framed subject: it fills about 87 % of the view's
/// tighter side, so its outline is not lost under the view's edge.
const FRAME_MARGIN: f32 = 1.15;

impl Default for CameraView {
    fn default() -> Self {
        CameraView::framing(&Aabb::from_corners(Vec3::splat(-5.0), Vec3::splat(5.0)))
    }
}

impl CameraView {
    /// World to view (camera) space.
    pub fn view(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye, self.target, self.up)
    }

    /// View to clip space (OpenGL depth range, −1..1), for a viewport of
    /// width / height `aspect`.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        if self.orthographic {
            let h = self.ortho_half_height();
            let w = h * aspect.max(1e-6);
            return glam::camera::rh::proj::opengl::orthographic(-w, w, -h, h, self.near, self.far);
        }
        glam::camera::rh::proj::opengl::perspective(
            self.fov_y_deg.to_radians(),
            aspect.max(1e-6),
            self.near,
            self.far,
        )
    }

    /// World to clip space.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// Where the world point `p` lands in a viewport whose top-left corner is
    /// `rect_min` and size `rect_size` (any unit, y down, as egui). `None`
    /// when `p` is behind the camera or outside the near..far range; points
    /// beside the viewport are returned (the caller's painter clips them).
    pub fn world_to_screen(
        &self,
        p: Vec3,
        rect_min: [f32; 2],
        rect_size: [f32; 2],
    ) -> Option<[f32; 2]> {
        let clip = self.view_proj(aspect(rect_size)) * Vec4::new(p.x, p.y, p.z, 1.0);
        if clip.w <= f32::EPSILON {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        if !(-1.0..=1.0).contains(&ndc.z) || !ndc.is_finite() {
            return None;
        }
        Some([
            rect_min[0] + (ndc.x * 0.5 + 0.5) * rect_size[0],
            rect_min[1] + (0.5 - ndc.y * 0.5) * rect_size[1],
        ])
    }

    /// The picking ray through screen point `pos` (same convention as
    /// [`CameraView::world_to_screen`]): its origin on the near plane and its
    /// unit direction, world space.
    pub fn screen_ray(
        &self,
        pos: [f32; 2],
        rect_min: [f32; 2],
        rect_size: [f32; 2],
    ) -> (Vec3, Vec3) {
        let x = (pos[0] - rect_min[0]) / rect_size[0].max(1e-6) * 2.0 - 1.0;
        let y = 1.0 - (pos[1] - rect_min[1]) / rect_size[1].max(1e-6) * 2.0;
        let inv = self.view_proj(aspect(rect_size)).inverse();
        let near = inv.project_point3(Vec3::new(x, y, -1.0));
        let far = inv.project_point3(Vec3::new(x, y, 1.0));
        let dir = (far - near).try_normalize().unwrap_or(self.forward());
        (near, dir)
    }

    /// Half the height an orthographic view shows: what the perspective
    /// view shows at the target's distance.
    pub fn ortho_half_height(&self) -> f32 {
        let distance = (self.target - self.eye).length();
        (distance * (self.fov_y_deg.to_radians() * 0.5).tan()).max(1e-4)
    }

    /// The preset view of `aabb` on its own (no level around it, a square
    /// view): [`CameraView::framing_subject`] from the preset's direction.
    pub fn preset(aabb: &Aabb, preset: CameraPreset) -> CameraView {
        CameraView::preset_on(aabb, aabb, preset, 1.0)
    }

    /// The preset view framing `subject` (what is selected, or the whole
    /// level) in a viewport of width / height `aspect`, with `level` (the
    /// whole level's box) inside the far plane.
    pub fn preset_on(
        subject: &Aabb,
        level: &Aabb,
        preset: CameraPreset,
        aspect: f32,
    ) -> CameraView {
        let (back, up) = preset.direction();
        let ortho = preset != CameraPreset::Perspective;
        CameraView::framing_subject(subject, level, back, up, ortho, aspect)
    }

    /// The orthographic elevation of a walk: looking horizontally across
    /// `walk` (the walk's direction, left to right on screen), so a stair's
    /// risers and a door's lintel read at their true heights. `None` when
    /// the walk has no horizontal direction.
    pub fn elevation(subject: &Aabb, level: &Aabb, walk: Vec3, aspect: f32) -> Option<CameraView> {
        let d = Vec3::new(walk.x, 0.0, walk.z).try_normalize()?;
        // The screen's right is forward × up; forward = Y × d makes it d.
        let forward = Vec3::Y.cross(d);
        Some(CameraView::framing_subject(
            subject,
            level,
            -forward,
            Vec3::Y,
            true,
            aspect,
        ))
    }

    /// A view from direction `back` (unit, from the subject to the eye)
    /// with `up`, perspective or orthographic, whose frustum holds every
    /// corner of `subject` with [`FRAME_MARGIN`] to spare in a viewport of
    /// width / height `aspect`. The near plane sits just in front of the
    /// subject, so walls between the eye and the subject (a cathedral's
    /// facade in the front view, a ceiling above a stair) are cut away
    /// rather than hiding it; the far plane reaches past `level`.
    pub fn framing_subject(
        subject: &Aabb,
        level: &Aabb,
        back: Vec3,
        up: Vec3,
        orthographic: bool,
        aspect: f32,
    ) -> CameraView {
        let subject = if subject.is_empty() {
            Aabb::from_corners(Vec3::splat(-1.0), Vec3::splat(1.0))
        } else {
            *subject
        };
        let level = if level.is_empty() {
            subject
        } else {
            level.union(&subject)
        };
        let back = back.try_normalize().unwrap_or(Vec3::Z);
        let right = up.cross(back).try_normalize().unwrap_or(Vec3::X);
        let true_up = back.cross(right);
        let aspect = if aspect.is_finite() && aspect > 1e-3 {
            aspect
        } else {
            1.0
        };
        let fov_y_deg = 50.0_f32;
        let tan_y = (fov_y_deg.to_radians() * 0.5).tan();
        let tan_x = tan_y * aspect;
        let center = subject.center();
        // A subject smaller than a few centimetres is shown 10 cm across.
        let min_half = 0.05_f32;
        let (mut half_h, mut distance, mut toward) = (min_half, 0.0_f32, 0.0_f32);
        for c in subject.corners() {
            let o = c - center;
            let (x, y, z) = (o.dot(right).abs(), o.dot(true_up).abs(), o.dot(back));
            toward = toward.max(z);
            half_h = half_h.max(y).max(x / aspect);
            // Perspective: the corner at depth z in front of the centre
            // fits when |x| / (d − z) ≤ tan_x and |y| / (d − z) ≤ tan_y.
            distance = distance.max(z + x / tan_x).max(z + y / tan_y);
        }
        half_h *= FRAME_MARGIN;
        let (distance, fov_y_deg) = if orthographic {
            // The eye just outside the subject; the orthographic scale is
            // the perspective one at the target
            // ([`CameraView::ortho_half_height`]), so the field of view is
            // narrowed to make it `half_h` (a deep subject, a whole level
            // seen from the front, then still fills the view).
            let d = (half_h / tan_y).max(toward * 1.5 + min_half);
            (d, 2.0 * (half_h / d).atan().to_degrees())
        } else {
            (
                (distance * FRAME_MARGIN).max(toward + min_half / tan_y),
                fov_y_deg,
            )
        };
        let eye = center + back * distance;
        // Just in front of the subject: a twentieth of its depth to spare.
        let near = (distance - toward * 1.05 - 0.01).max(distance * 1e-3);
        let farthest = level
            .corners()
            .iter()
            .map(|c| (eye - *c).dot(back))
            .fold(0.0_f32, f32::max);
        let far = (farthest * 1.05).max(distance * 2.0).max(near * 2.0);
        CameraView {
            eye,
            target: center,
            up: true_up,
            fov_y_deg,
            near,
            far,
            orthographic,
        }
    }

    /// Perspective from behind and a little above a probe at `center`
    /// with `radii`, looking along `direction` (its velocity): what the
    /// probe is walking into. `None` for a zero or non-finite direction.
    pub fn along(center: Vec3, radii: Vec3, direction: Vec3) -> Option<CameraView> {
        let d = direction.try_normalize()?;
        let size = radii.max_element().max(0.05);
        let eye = center - d * size * 4.0 + Vec3::Y * radii.y * 1.2;
        let target = center + d * size * 6.0;
        Some(CameraView {
            eye,
            target,
            up: Vec3::Y,
            fov_y_deg: 60.0,
            near: size * 0.02,
            far: size * 2000.0,
            orthographic: false,
        })
    }

    /// Unit view direction, world space.
    pub fn forward(&self) -> Vec3 {
        (self.target - self.eye)
            .try_normalize()
            .unwrap_or(Vec3::NEG_Z)
    }

    /// A camera that shows the whole box from above and to the side, with
    /// near / far planes scaled to it (the F key, and on level load). An
    /// empty box frames the unit box around the origin.
    pub fn framing(aabb: &Aabb) -> CameraView {
        let aabb = if aabb.is_empty() {
            Aabb::from_corners(Vec3::splat(-1.0), Vec3::splat(1.0))
        } else {
            *aabb
        };
        let fov_y_deg = 50.0_f32;
        let radius = (aabb.extent().length() * 0.5).max(0.1);
        // The bounding sphere fits the vertical field of view; wider
        // viewports then show it with room to spare.
        let distance = radius / (fov_y_deg.to_radians() * 0.5).sin();
        let dir = Vec3::new(1.0, 0.8, 1.3).normalize();
        CameraView {
            eye: aabb.center() + dir * distance,
            target: aabb.center(),
            up: Vec3::Y,
            fov_y_deg,
            // 24-bit depth keeps ~1e4 of range usefully: room to zoom in
            // ~100x and out ~10x before clipping.
            near: distance * 1e-3,
            far: distance * 10.0,
            orthographic: false,
        }
    }

    /// This view re-aimed at `aabb` from its own direction, keeping its
    /// projection (an orthographic view stays orthographic: F and opening
    /// a finding never leave the front, side or top view) and its up, with
    /// `aabb` framed in a square view and this view's far plane kept.
    pub fn reframed(&self, aabb: &Aabb) -> CameraView {
        self.reframed_in(aabb, &Aabb::EMPTY, 1.0)
    }

    /// [`CameraView::reframed`] in a viewport of width / height `aspect`,
    /// with `level` inside the far plane.
    pub fn reframed_in(&self, aabb: &Aabb, level: &Aabb, aspect: f32) -> CameraView {
        let back = (self.eye - self.target).normalize_or(Vec3::Z);
        // A view looking straight down keeps its screen up (north); any
        // other keeps the world's up.
        let up = if back.cross(Vec3::Y).length() < 1e-3 {
            let u = self.up - back * self.up.dot(back);
            u.try_normalize().unwrap_or(Vec3::NEG_Z)
        } else {
            Vec3::Y
        };
        let framed = CameraView::framing_subject(aabb, level, back, up, self.orthographic, aspect);
        CameraView {
            far: framed.far.max(self.far),
            ..framed
        }
    }
}

fn aspect(rect_size: [f32; 2]) -> f32 {
    rect_size[0] / rect_size[1].max(1e-6)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: [f32; 2] = [10.0, 20.0];
    const SIZE: [f32; 2] = [800.0, 500.0];

    fn cam() -> CameraView {
        CameraView {
            eye: Vec3::new(3.0, 4.0, 8.0),
            target: Vec3::new(0.5, 0.0, -1.0),
            up: Vec3::Y,
            fov_y_deg: 60.0,
            near: 0.1,
            far: 100.0,
            orthographic: false,
        }
    }

    #[test]
    fn orthographic_views_read_true_lengths_and_pick_along_the_view() {
        let level = Aabb::from_corners(Vec3::new(-4.0, 0.0, -4.0), Vec3::new(30.0, 3.6, 34.0));
        let front = CameraView::preset(&level, CameraPreset::Front);
        assert!(front.orthographic);
        assert!((front.forward() - Vec3::NEG_Z).length() < 1e-6);
        // Two 1 m posts at different depths: the same height on screen.
        let h = |z: f32| {
            let a = front
                .world_to_screen(Vec3::new(5.0, 0.0, z), MIN, SIZE)
                .unwrap();
            let b = front
                .world_to_screen(Vec3::new(5.0, 1.0, z), MIN, SIZE)
                .unwrap();
            a[1] - b[1]
        };
        assert!((h(0.0) - h(20.0)).abs() < 1e-3, "{} vs {}", h(0.0), h(20.0));
        // Every picking ray runs along the view and through its point.
        for p in [Vec3::new(0.0, 1.0, 3.0), Vec3::new(20.0, 2.0, 30.0)] {
            let s = front.world_to_screen(p, MIN, SIZE).unwrap();
            let ray = front.screen_ray(s, MIN, SIZE);
            assert!((ray.1 - Vec3::NEG_Z).length() < 1e-4);
            assert!(distance_to_ray(p, ray) < 1e-3);
        }
        let top = CameraView::preset(&level, CameraPreset::Top);
        assert!((top.forward() - Vec3::NEG_Y).length() < 1e-6);
        let north = top
            .world_to_screen(level.center() - Vec3::Z, MIN, SIZE)
            .unwrap();
        let south = top
            .world_to_screen(level.center() + Vec3::Z, MIN, SIZE)
            .unwrap();
        assert!(north[1] < south[1], "north (−Z) is up on the top view");
        let side = CameraView::preset(&level, CameraPreset::Side);
        assert!((side.forward() - Vec3::NEG_X).length() < 1e-6);
        let persp = CameraView::preset(&level, CameraPreset::Perspective);
        assert!(!persp.orthographic);
        assert_box_on_screen(&persp, &level);
    }

    /// The fraction of a `size` view the box's projected corners span,
    /// across and up, and whether every corner is inside the view.
    fn coverage(c: &CameraView, b: &Aabb, size: [f32; 2]) -> (f32, f32, bool) {
        let pts: Vec<[f32; 2]> = b
            .corners()
            .iter()
            .map(|p| c.world_to_screen(*p, [0.0, 0.0], size).expect("in front"))
            .collect();
        let (mut lo, mut hi) = ([f32::MAX; 2], [f32::MIN; 2]);
        for p in &pts {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let inside = (0..2).all(|k| lo[k] >= -0.5 && hi[k] <= size[k] + 0.5);
        ((hi[0] - lo[0]) / size[0], (hi[1] - lo[1]) / size[1], inside)
    }

    #[test]
    fn every_preset_frames_a_small_subject_inside_a_large_level() {
        // A 0.8 x 1.8 m probe and its 4 m move inside an 80 m cathedral.
        let level = Aabb::from_corners(Vec3::new(-20.0, -2.0, -40.0), Vec3::new(15.0, 35.0, 40.0));
        let subject = Aabb::from_corners(Vec3::new(2.0, 0.0, 3.0), Vec3::new(2.8, 1.8, 7.4));
        let size = [900.0, 560.0];
        for preset in CameraPreset::ALL {
            let c = CameraView::preset_on(&subject, &level, preset, size[0] / size[1]);
            let (w, h, inside) = coverage(&c, &subject, size);
            assert!(inside, "{preset:?}: the subject leaves the view");
            assert!(
                w.max(h) > 0.6,
                "{preset:?}: the subject spans only {w:.2} x {h:.2} of the view"
            );
            // The whole level lies before the far plane.
            for corner in level.corners() {
                assert!((corner - c.eye).dot(c.forward()) < c.far, "{preset:?}");
            }
            // The near plane cuts in front of the subject, never into it.
            for corner in subject.corners() {
                assert!((corner - c.eye).dot(c.forward()) > c.near, "{preset:?}");
            }
        }
        // The whole level, from the front: fills the view, not a dot.
        let front = CameraView::preset_on(&level, &level, CameraPreset::Front, 1.6);
        let (w, h, inside) = coverage(&front, &level, [800.0, 500.0]);
        assert!(inside && w.max(h) > 0.8, "{w} x {h}");
    }

    #[test]
    fn the_elevation_looks_across_the_walk_at_true_heights() {
        let level = Aabb::from_corners(Vec3::splat(-30.0), Vec3::splat(30.0));
        let stair = Aabb::from_corners(Vec3::new(0.0, 0.0, 0.0), Vec3::new(3.0, 1.2, 3.0));
        let walk = Vec3::new(1.0, 0.3, 1.0);
        let c = CameraView::elevation(&stair, &level, walk, 1.5).unwrap();
        assert!(c.orthographic);
        assert!(c.forward().y.abs() < 1e-6, "level, not looking down");
        assert!(c.forward().dot(walk).abs() < 1e-5, "across the walk");
        let s = |p: Vec3| c.world_to_screen(p, MIN, SIZE).unwrap();
        let (a, b) = (
            s(stair.center()),
            s(stair.center() + Vec3::new(1.0, 0.0, 1.0)),
        );
        assert!(b[0] > a[0] + 1.0, "the walk goes left to right");
        let rise = |p: Vec3| s(p)[1] - s(p + Vec3::Y * 0.3)[1];
        assert!(
            (rise(stair.min) - rise(stair.max)).abs() < 1e-3,
            "true heights"
        );
        assert!(CameraView::elevation(&stair, &level, Vec3::Y, 1.5).is_none());
    }

    #[test]
    fn reframing_an_orthographic_view_keeps_it_orthographic_and_its_up() {
        let level = Aabb::from_corners(Vec3::splat(-30.0), Vec3::splat(30.0));
        let probe = Aabb::from_corners(Vec3::new(5.0, 0.0, 5.0), Vec3::new(6.0, 2.0, 6.0));
        for preset in [CameraPreset::Front, CameraPreset::Top, CameraPreset::Side] {
            let view = CameraView::preset_on(&level, &level, preset, 1.5);
            let f = view.reframed_in(&probe, &level, 1.5);
            assert!(f.orthographic, "{preset:?}");
            assert!((f.forward() - view.forward()).length() < 1e-5, "{preset:?}");
            assert!((f.up - view.up).length() < 1e-5, "{preset:?}: {:?}", f.up);
            let (w, h, inside) = coverage(&f, &probe, [600.0, 400.0]);
            assert!(inside && w.max(h) > 0.6, "{preset:?}: {w} x {h}");
        }
    }

    #[test]
    fn the_probe_view_looks_along_its_velocity_from_behind() {
        let c = Vec3::new(1.0, 0.9, 6.0);
        let r = Vec3::new(0.4, 0.9, 0.4);
        let v = CameraView::along(c, r, Vec3::new(0.0, 0.0, 4.0)).unwrap();
        assert!(!v.orthographic);
        assert!(v.eye.z < c.z && v.target.z > c.z, "behind, looking ahead");
        assert!(v.forward().z > 0.9);
        assert!(
            v.world_to_screen(c, MIN, SIZE).is_some(),
            "the probe is in view"
        );
        assert!(CameraView::along(c, r, Vec3::ZERO).is_none());
        assert!(CameraView::along(c, r, Vec3::new(f32::NAN, 0.0, 1.0)).is_none());
    }

    fn distance_to_ray(p: Vec3, (origin, dir): (Vec3, Vec3)) -> f32 {
        (p - origin).cross(dir).length()
    }

    #[test]
    fn target_projects_to_the_centre_and_up_is_up() {
        let c = cam();
        let s = c.world_to_screen(c.target, MIN, SIZE).unwrap();
        assert!(
            (s[0] - 410.0).abs() < 1e-3 && (s[1] - 270.0).abs() < 1e-3,
            "{s:?}"
        );
        let above = c.world_to_screen(c.target + Vec3::Y, MIN, SIZE).unwrap();
        assert!(above[1] < s[1], "screen y grows downwards");
    }

    #[test]
    fn screen_points_and_rays_round_trip() {
        let c = cam();
        for p in [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(-2.0, 1.5, 3.0),
            Vec3::new(4.0, -1.0, -6.0),
        ] {
            let s = c.world_to_screen(p, MIN, SIZE).unwrap();
            let ray = c.screen_ray(s, MIN, SIZE);
            assert!((ray.1.length() - 1.0).abs() < 1e-5);
            assert!(distance_to_ray(p, ray) < 1e-3, "{p} misses its ray");
            assert!(
                (ray.0 - c.eye).length() < c.near * 2.0,
                "ray starts at the near plane"
            );
        }
        let (_, dir) = c.screen_ray([410.0, 270.0], MIN, SIZE);
        assert!(dir.dot(c.forward()) > 0.99999);
    }

    #[test]
    fn points_behind_or_beyond_the_clip_range_do_not_project() {
        let c = cam();
        assert_eq!(
            c.world_to_screen(c.eye - c.forward() * 2.0, MIN, SIZE),
            None
        );
        assert_eq!(
            c.world_to_screen(c.eye + c.forward() * 500.0, MIN, SIZE),
            None
        );
    }

    /// Every corner of `b` projects inside a 400 x 400 viewport of `c`.
    fn assert_box_on_screen(c: &CameraView, b: &Aabb) {
        for corner in b.corners() {
            let s = c
                .world_to_screen(corner, [0.0, 0.0], [400.0, 400.0])
                .unwrap();
            assert!(
                s.iter().all(|v| (0.0..=400.0).contains(v)),
                "{corner} at {s:?}"
            );
        }
    }

    #[test]
    fn framing_shows_every_corner_of_the_box() {
        let b = Aabb::from_corners(Vec3::new(-20.0, -15.3, -8.0), Vec3::new(21.0, 5.0, 9.0));
        let c = CameraView::framing(&b);
        assert_box_on_screen(&c, &b);
        assert!(c.near > 0.0 && c.far > c.near * 1000.0);
        let empty = CameraView::framing(&Aabb::EMPTY);
        assert!(empty.eye.is_finite() && empty.near > 0.0);
    }

    #[test]
    fn reframing_keeps_the_view_direction_and_shows_the_box() {
        let view = cam();
        let b = Aabb::from_corners(Vec3::new(3.0, 0.0, -2.0), Vec3::new(4.0, 2.0, -1.0));
        let c = view.reframed(&b);
        assert_eq!(c.target, b.center());
        let dir = |v: &CameraView| (v.eye - v.target).normalize();
        assert!(dir(&c).dot(dir(&view)) > 1.0 - 1e-5);
        assert_box_on_screen(&c, &b);
    }
}
