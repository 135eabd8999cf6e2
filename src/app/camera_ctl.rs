//! Camera controls on a [`CameraView`], world space (Y up): orbit about
//! the target, pan, dolly zoom, and a fly camera (move with WASD, look with
//! the mouse). Pure functions of the view and the input, no egui, so they
//! are unit-tested.

use crate::render::CameraView;
use glam::Vec3;

/// Radians of orbit / look per pixel of mouse motion.
pub const RADIANS_PER_PIXEL: f32 = 0.008;
/// Closest the eye may get to the target, metres.
const MIN_DISTANCE: f32 = 0.05;
/// Keeps pitch away from the poles, where the view's up vector degenerates.
const MAX_PITCH: f32 = 1.54;

fn yaw_pitch(dir: Vec3) -> (f32, f32) {
    let d = dir.normalize_or_zero();
    (d.x.atan2(d.z), d.y.clamp(-1.0, 1.0).asin())
}

fn dir_from(yaw: f32, pitch: f32) -> Vec3 {
    Vec3::new(
        yaw.sin() * pitch.cos(),
        pitch.sin(),
        yaw.cos() * pitch.cos(),
    )
}

/// Rotates the eye about the target by mouse motion `(dx, dy)` pixels.
pub fn orbit(cam: &mut CameraView, dx: f32, dy: f32) {
    let offset = cam.eye - cam.target;
    let dist = offset.length().max(MIN_DISTANCE);
    let (yaw, pitch) = yaw_pitch(offset);
    let yaw = yaw - dx * RADIANS_PER_PIXEL;
    let pitch = (pitch + dy * RADIANS_PER_PIXEL).clamp(-MAX_PITCH, MAX_PITCH);
    cam.eye = cam.target + dir_from(yaw, pitch) * dist;
    cam.up = Vec3::Y;
}

/// The camera's right and up unit vectors, world space.
pub fn basis(cam: &CameraView) -> (Vec3, Vec3, Vec3) {
    let forward = (cam.target - cam.eye).normalize_or(Vec3::NEG_Z);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    let up = right.cross(forward);
    (forward, right, up)
}

/// Moves eye and target so the scene follows the mouse: `(dx, dy)` pixels
/// in a viewport `height_px` tall.
pub fn pan(cam: &mut CameraView, dx: f32, dy: f32, height_px: f32) {
    let (_, right, up) = basis(cam);
    let dist = (cam.eye - cam.target).length();
    let metres_per_px = 2.0 * dist * (cam.fov_y_deg.to_radians() * 0.5).tan() / height_px.max(1.0);
    let shift = (-right * dx + up * dy) * metres_per_px;
    cam.eye += shift;
    cam.target += shift;
}

/// Dolly towards the target: `steps` > 0 zooms in (mouse wheel notches).
pub fn zoom(cam: &mut CameraView, steps: f32) {
    let offset = cam.eye - cam.target;
    let dist = (offset.length() * 0.9f32.powf(steps)).max(MIN_DISTANCE);
    cam.eye = cam.target + offset.normalize_or(Vec3::Z) * dist;
    cam.far = cam.far.max(dist * 4.0);
}

/// Zooms by `steps` wheel steps towards `focus` (the point under the
/// pointer): the camera is scaled about that point, so it stays under the
/// pointer while the view closes in, in the perspective and the
/// orthographic views alike (an orthographic view's scale follows the
/// distance to its target). The near plane scales with it, so a view that
/// cuts away the walls in front of its subject keeps cutting them at the
/// same place on screen; the far plane moves back by as much as the eye
/// did, so nothing seen before is cut off. Without a focus, towards the
/// target.
pub fn zoom_at(cam: &mut CameraView, steps: f32, focus: Option<Vec3>) {
    let Some(focus) = focus.filter(|f| f.is_finite()) else {
        zoom(cam, steps);
        return;
    };
    let offset = cam.eye - cam.target;
    let k = 0.9f32.powf(steps);
    // Never closer to the target than the plain zoom allows.
    let k = k.max(MIN_DISTANCE / offset.length().max(MIN_DISTANCE));
    let eye = focus + (cam.eye - focus) * k;
    let moved = (eye - cam.eye).length();
    cam.eye = eye;
    cam.target = focus + (cam.target - focus) * k;
    cam.near = (cam.near * k).max(1e-5);
    cam.far = (cam.far + moved)
        .max((cam.eye - cam.target).length() * 4.0)
        .max(cam.near * 2.0);
}

/// The point a wheel zoom closes in on: `hit`, the level point under the
/// pointer, when there is one; else where the pointer's ray `(origin,
/// dir)` meets the plane through the target facing the camera (the sky
/// beside a level, a far wall cut away), so the zoom still goes where the
/// pointer is rather than to the middle of the view.
pub fn zoom_focus(cam: &CameraView, hit: Option<Vec3>, ray: (Vec3, Vec3)) -> Option<Vec3> {
    if let Some(h) = hit.filter(|h| h.is_finite()) {
        return Some(h);
    }
    let (origin, dir) = ray;
    let normal = cam.forward();
    let denom = dir.dot(normal);
    if denom.abs() < 1e-6 {
        return None;
    }
    let t = (cam.target - origin).dot(normal) / denom;
    (t > 0.0)
        .then(|| origin + dir * t)
        .filter(|p| p.is_finite())
}

/// Forward and right on the ground for walking along `heading` (a probe's
/// velocity); `None` when it has no horizontal part.
pub fn heading_basis(heading: Vec3) -> Option<(Vec3, Vec3)> {
    let forward = Vec3::new(heading.x, 0.0, heading.z).try_normalize()?;
    Some((forward, forward.cross(Vec3::Y)))
}

/// Fly camera: turns the view direction by mouse motion, keeping the eye.
pub fn fly_look(cam: &mut CameraView, dx: f32, dy: f32) {
    let forward = cam.target - cam.eye;
    let dist = forward.length().max(MIN_DISTANCE);
    let (yaw, pitch) = yaw_pitch(forward);
    let yaw = yaw - dx * RADIANS_PER_PIXEL;
    let pitch = (pitch - dy * RADIANS_PER_PIXEL).clamp(-MAX_PITCH, MAX_PITCH);
    cam.target = cam.eye + dir_from(yaw, pitch) * dist;
    cam.up = Vec3::Y;
}

/// Fly camera: moves eye and target by `(right, up, forward)` metres in the
/// camera's frame (WASD, Q/E).
pub fn fly_move(cam: &mut CameraView, right_m: f32, up_m: f32, forward_m: f32) {
    let (forward, right, _) = basis(cam);
    let shift = right * right_m + Vec3::Y * up_m + forward * forward_m;
    cam.eye += shift;
    cam.target += shift;
    // A framed view's near plane cuts away what lies in front of its
    // subject; flying through the level, nothing ahead should vanish.
    let dist = (cam.eye - cam.target).length();
    cam.near = cam.near.min(dist * 1e-2).max(1e-5);
}

/// Horizontal forward and right unit vectors of the camera (walk mode's WASD).
pub fn ground_basis(cam: &CameraView) -> (Vec3, Vec3) {
    let f = cam.target - cam.eye;
    let forward = Vec3::new(f.x, 0.0, f.z).normalize_or(Vec3::NEG_Z);
    let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
    (forward, right)
}

/// Re-aims the camera at `target`, keeping its direction and distance.
pub fn look_at_keep_offset(cam: &mut CameraView, target: Vec3) {
    let offset = cam.eye - cam.target;
    cam.target = target;
    cam.eye = target + offset;
}

#[cfg(test)]
mod zoom_tests {
    use super::*;

    #[test]
    fn zooming_keeps_the_point_under_the_pointer_in_place() {
        let mut cam = CameraView::framing(&crate::math::Aabb::from_corners(
            Vec3::splat(-5.0),
            Vec3::splat(5.0),
        ));
        let (min, size) = ([0.0, 0.0], [800.0, 600.0]);
        let focus = Vec3::new(3.0, 0.0, 1.0);
        let before = cam.world_to_screen(focus, min, size).unwrap();
        let dist = (cam.eye - cam.target).length();
        zoom_at(&mut cam, 3.0, Some(focus));
        let after = cam.world_to_screen(focus, min, size).unwrap();
        assert!((before[0] - after[0]).abs() < 1e-2 && (before[1] - after[1]).abs() < 1e-2);
        assert!((cam.eye - cam.target).length() < dist, "closer");
        zoom_at(&mut cam, -3.0, None);
        assert!((cam.eye - cam.target).length() > 0.0);
    }

    #[test]
    fn zooming_at_the_pointer_holds_its_point_in_every_view() {
        use crate::render::CameraPreset;
        let level = crate::math::Aabb::from_corners(Vec3::splat(-20.0), Vec3::splat(20.0));
        let (min, size) = ([100.0, 50.0], [900.0, 560.0]);
        let pointer = [260.0, 480.0];
        for preset in CameraPreset::ALL {
            let mut cam = CameraView::preset_on(&level, &level, preset, size[0] / size[1]);
            let ray = cam.screen_ray(pointer, min, size);
            // Nothing under the pointer: the plane through the target.
            let focus = zoom_focus(&cam, None, ray).expect("the pointer's ray meets it");
            let near = cam.near;
            zoom_at(&mut cam, 4.0, Some(focus));
            let after = cam.world_to_screen(focus, min, size).unwrap();
            assert!(
                (after[0] - pointer[0]).abs() < 0.5 && (after[1] - pointer[1]).abs() < 0.5,
                "{preset:?}: {after:?}"
            );
            assert!(cam.near < near, "{preset:?}: the near plane closes in too");
            // A level point under the pointer wins over the plane.
            let hit = Vec3::new(1.0, 2.0, 3.0);
            assert_eq!(zoom_focus(&cam, Some(hit), ray), Some(hit));
        }
    }

    #[test]
    fn walking_along_the_heading_ignores_its_height() {
        let (f, r) = heading_basis(Vec3::new(0.0, -5.0, 2.0)).unwrap();
        assert!((f - Vec3::Z).length() < 1e-6);
        assert!((r - Vec3::NEG_X).length() < 1e-6 || (r - Vec3::X).length() < 1e-6);
        assert!(heading_basis(Vec3::new(0.0, -9.8, 0.0)).is_none());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cam() -> CameraView {
        CameraView {
            eye: Vec3::new(0.0, 0.0, 10.0),
            target: Vec3::ZERO,
            up: Vec3::Y,
            fov_y_deg: 60.0,
            near: 0.1,
            far: 100.0,
            orthographic: false,
        }
    }

    #[test]
    fn orbit_keeps_the_distance_and_the_target() {
        let mut c = cam();
        orbit(&mut c, 120.0, -40.0);
        assert!((c.eye.length() - 10.0).abs() < 1e-4);
        assert_eq!(c.target, Vec3::ZERO);
        assert!(
            c.eye.x.abs() > 1.0,
            "yaw moved the eye sideways: {:?}",
            c.eye
        );
        // Pitch is clamped short of the pole.
        orbit(&mut c, 0.0, 10_000.0);
        assert!(c.eye.y < 10.0 && c.eye.y > 9.0);
    }

    #[test]
    fn pan_moves_eye_and_target_together() {
        let mut c = cam();
        pan(&mut c, 100.0, 0.0, 600.0);
        assert!(c.target.x < 0.0, "dragging right moves the scene right");
        assert!(((c.eye - c.target) - Vec3::new(0.0, 0.0, 10.0)).length() < 1e-5);
    }

    #[test]
    fn zoom_in_and_out_are_inverse_and_bounded() {
        let mut c = cam();
        zoom(&mut c, 3.0);
        assert!(c.eye.z < 10.0);
        zoom(&mut c, -3.0);
        assert!((c.eye.z - 10.0).abs() < 1e-3);
        zoom(&mut c, 1000.0);
        assert!(c.eye.z >= MIN_DISTANCE - 1e-6);
    }

    #[test]
    fn fly_moves_forward_along_the_view() {
        let mut c = cam();
        fly_move(&mut c, 0.0, 0.0, 2.0);
        assert!((c.eye.z - 8.0).abs() < 1e-5);
        fly_look(&mut c, 0.0, 0.0);
        assert!((c.target - Vec3::new(0.0, 0.0, -2.0)).length() < 1e-4);
        let (fwd, right) = ground_basis(&c);
        assert!((fwd - Vec3::NEG_Z).length() < 1e-5);
        assert!((right - Vec3::X).length() < 1e-5);
    }
}
