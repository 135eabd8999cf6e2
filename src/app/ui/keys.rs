//! Keyboard: stepper shortcuts (N / Space step, B back, R run, Home reset),
//! F frames the selection, Ctrl+O opens, Ctrl+D / Del duplicate and delete,
//! Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo, P toggles walk mode; WASD
//! drives walk mode or the fly camera.

use super::CollidoscopeApp;
use crate::app::camera_ctl;
use crate::app::command::Command;
use crate::app::probes;
use crate::app::walk::WalkInput;
use eframe::egui::{self, Key, Modifiers};

/// Reads this frame's keys and turns them into commands and motion.
pub fn handle(ctx: &egui::Context, app: &mut CollidoscopeApp) {
    if ctx.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::O)) {
        app.queue.push(Command::OpenDialog);
    }
    // Typing in a text field must not step the solver (and Ctrl+Z there
    // undoes the typing).
    if ctx.egui_wants_keyboard_input() {
        return;
    }
    ctx.input_mut(|i| {
        // The most specific first: Ctrl+Z matches Ctrl+Shift+Z too.
        if i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
            || i.consume_key(Modifiers::COMMAND, Key::Y)
        {
            app.queue.push(Command::Redo);
        } else if i.consume_key(Modifiers::COMMAND, Key::Z) {
            app.queue.push(Command::Undo);
        }
    });
    if app.state.walk.active {
        walk(ctx, app);
    } else if app.fly {
        fly(ctx, app);
    }
    let sel = app.state.selected;
    let walking = app.state.walk.active;
    ctx.input_mut(|i| {
        let mut cmds = Vec::new();
        if i.consume_key(Modifiers::COMMAND, Key::D) {
            cmds.extend(sel.map(Command::Duplicate));
        }
        if !walking {
            if i.consume_key(Modifiers::NONE, Key::N) || i.consume_key(Modifiers::NONE, Key::Space)
            {
                cmds.push(Command::Step);
            }
            if i.consume_key(Modifiers::NONE, Key::B) {
                cmds.push(Command::StepBack);
            }
            if i.consume_key(Modifiers::NONE, Key::R) {
                cmds.push(Command::RunToEnd);
            }
        }
        if i.consume_key(Modifiers::NONE, Key::Home) {
            cmds.push(Command::Reset);
        }
        if i.consume_key(Modifiers::NONE, Key::F) {
            cmds.push(Command::FrameSelection);
        }
        if i.consume_key(Modifiers::NONE, Key::Delete) {
            cmds.extend(sel.map(Command::Delete));
        }
        if i.consume_key(Modifiers::NONE, Key::P) {
            cmds.push(Command::SetWalk(!walking));
        }
        if walking && i.consume_key(Modifiers::NONE, Key::Escape) {
            cmds.push(Command::SetWalk(false));
        }
        app.queue.extend(cmds);
    });
}

/// Pressed WASD as (right, forward) in {-1, 0, 1}.
fn wasd(i: &egui::InputState) -> (f32, f32) {
    let axis = |pos: Key, neg: Key| i.key_down(pos) as i8 as f32 - i.key_down(neg) as i8 as f32;
    (axis(Key::D, Key::A), axis(Key::W, Key::S))
}

fn walk(ctx: &egui::Context, app: &mut CollidoscopeApp) {
    let (right, forward, jump, dt) = ctx.input(|i| {
        let (r, f) = wasd(i);
        (r, f, i.key_pressed(Key::Space), i.unstable_dt as f64)
    });
    // W walks away from the camera, or along the probe's velocity.
    let heading = app
        .state
        .view
        .walk_along_probe
        .then(|| app.state.selected_probe())
        .flatten()
        .and_then(|p| camera_ctl::heading_basis(p.velocity.as_vec3()));
    let (fwd, rgt) = heading.unwrap_or_else(|| camera_ctl::ground_basis(&app.state.camera));
    let wish = (fwd * forward + rgt * right).as_dvec3();
    let before = app.state.selected_probe().map(|p| p.position);
    let input = WalkInput {
        wish_dir: wish,
        jump,
        dt,
    };
    if probes::walk_frame(&mut app.state, input)
        && let (Some(a), Some(b)) = (before, app.state.selected_probe().map(|p| p.position))
    {
        // The camera follows the walker.
        let delta = (b - a).as_vec3();
        app.state.camera.eye += delta;
        app.state.camera.target += delta;
    }
}

fn fly(ctx: &egui::Context, app: &mut CollidoscopeApp) {
    let (right, forward, up, dt, fast) = ctx.input(|i| {
        let (r, f) = wasd(i);
        let up = i.key_down(Key::E) as i8 as f32 - i.key_down(Key::Q) as i8 as f32;
        (r, f, up, i.stable_dt, i.modifiers.shift)
    });
    if right == 0.0 && forward == 0.0 && up == 0.0 {
        return;
    }
    // Half the distance to the orbit target per second (Shift: three times
    // that): a framed level is crossed in a few seconds, a close-up slowly.
    let dist = (app.state.camera.eye - app.state.camera.target).length();
    let speed = 0.5 * dist.clamp(1.0, 200.0) * if fast { 3.0 } else { 1.0 };
    let step = speed * dt.min(0.1);
    // Keep frames coming while a key is held, so the motion is smooth
    // rather than tied to the keyboard's repeat rate.
    ctx.request_repaint();
    camera_ctl::fly_move(
        &mut app.state.camera,
        right * step,
        up * step,
        forward * step,
    );
}
