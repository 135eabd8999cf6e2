//! A GL context with no window and no display server, for rendering tests:
//! glutin's EGL *device* platform (Mesa's software device), a GL 3.3 core
//! context made current without a surface, wrapped in glow.
//!
//! Needs `libegl1 libegl-mesa0 libgl1-mesa-dri` at run time. When no device
//! gives a context, [`headless_gl`] says why and the caller skips.

use eframe::glow;
use glutin::api::egl::{context::PossiblyCurrentContext, device::Device, display::Display};
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::prelude::*;
use std::sync::Arc;

/// A current headless GL context; keep it alive while rendering.
pub struct HeadlessGl {
    /// The glow wrapper three-d renders with.
    pub gl: Arc<glow::Context>,
    _context: PossiblyCurrentContext,
    _display: Display,
}

/// Tries every EGL device until one gives a GL 3.3 core context.
pub fn headless_gl() -> Result<HeadlessGl, String> {
    let devices = Device::query_devices().map_err(|e| format!("no EGL devices: {e}"))?;
    let mut errors = Vec::new();
    for device in devices {
        match context_on(&device) {
            Ok(h) => return Ok(h),
            Err(e) => errors.push(e),
        }
    }
    Err(format!("no EGL device gave a GL 3.3 context: {errors:?}"))
}

fn context_on(device: &Device) -> Result<HeadlessGl, String> {
    let display = unsafe { Display::with_device(device, None) }.map_err(|e| e.to_string())?;
    let template = ConfigTemplateBuilder::new()
        .with_api(Api::OPENGL)
        .with_surface_type(ConfigSurfaceTypes::empty())
        .build();
    let config = unsafe { display.find_configs(template) }
        .map_err(|e| e.to_string())?
        .next()
        .ok_or("no config")?;
    let attributes = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .with_profile(GlProfile::Core)
        .build(None);
    let context = unsafe { display.create_context(&config, &attributes) }
        .map_err(|e| e.to_string())?
        .make_current_surfaceless()
        .map_err(|e| e.to_string())?;
    let gl = unsafe {
        glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name).cast())
    };
    Ok(HeadlessGl {
        gl: Arc::new(gl),
        _context: context,
        _display: display,
    })
}
