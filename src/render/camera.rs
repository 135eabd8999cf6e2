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

/// The camera presets of the View menu.
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
}

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

    /// The preset view of `aabb` (the level, or what is selected).
    pub fn preset(aabb: &Aabb, preset: CameraPreset) -> CameraView {
        let framed = CameraView::framing(aabb);
        let distance = (framed.eye - framed.target).length();
        let (dir, up) = match preset {
            CameraPreset::Front => (Vec3::Z, Vec3::Y),
            CameraPreset::Side => (Vec3::X, Vec3::Y),
            CameraPreset::Top => (Vec3::Y, Vec3::NEG_Z),
            CameraPreset::Perspective => return framed,
        };
        CameraView {
            eye: framed.target + dir * distance,
            up,
            orthographic: true,
            ..framed
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

    /// [`CameraView::framing`] of `aabb`, but seen from this view's
    /// direction (Frame selection keeps the angle the user chose and only
    /// re-aims and re-distances).
    pub fn reframed(&self, aabb: &Aabb) -> CameraView {
        let framed = CameraView::framing(aabb);
        let dir = (self.eye - self.target).normalize_or(Vec3::Z);
        let dist = (framed.eye - framed.target).length();
        CameraView {
            eye: framed.target + dir * dist,
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
        assert_eq!(persp, CameraView::framing(&level));
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
