//! A grayscale PNG heightmap read as a height-field level: one sample per
//! pixel, `spacing` metres apart in x (columns) and z (rows), black at
//! height 0 and white at `height_scale` metres.
//!
//! The image's header is checked against [`MAX_SIDE`] and [`MAX_SAMPLES`]
//! before any pixel is decoded, so a small file claiming a huge image fails
//! at once with a clear message, as does a corrupt or non-PNG file.

use super::HeightField;
use crate::level::{ImportError, ImportOptions, ImportReport, ImportWarning};
use crate::mesh::TriMesh;
use std::path::Path;

/// Most pixels along either side.
pub const MAX_SIDE: u32 = 4096;
/// Most pixels in all: 2^20 samples make about two million triangles, the
/// size of the largest levels the tool is tuned for.
pub const MAX_SAMPLES: u64 = 1 << 20;
/// Largest PNG file read, bytes.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads the heightmap at `path` with the options' spacing and height
/// scale, and triangulates it (see [`HeightField::to_mesh`]).
pub fn import_png(
    path: &Path,
    options: &ImportOptions,
) -> Result<(HeightField, TriMesh, ImportReport), ImportError> {
    let invalid = |message: String| ImportError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let (spacing, height_scale) = (options.heightmap_spacing, options.heightmap_height_scale);
    if !(spacing.is_finite() && spacing > 0.0) {
        return Err(invalid(format!(
            "spacing {spacing} must be a finite number above zero"
        )));
    }
    if !height_scale.is_finite() {
        return Err(invalid(format!(
            "height scale {height_scale} must be a finite number"
        )));
    }
    let bytes = crate::fileio::read_bounded(path, MAX_FILE_BYTES, "a heightmap").map_err(|e| {
        ImportError::Io {
            path: path.to_path_buf(),
            source: e.into(),
        }
    })?;
    let field = decode(&bytes, spacing, height_scale).map_err(invalid)?;
    let (field, colour) = field;
    let name = path
        .file_stem()
        .map_or_else(|| "terrain".into(), |s| s.to_string_lossy().into_owned());
    let mesh = field.to_mesh(&name);
    let [columns, rows] = field.size();
    let far = (columns.max(rows) - 1) as f64 * spacing;
    if far >= f32::MAX as f64 / 2.0 {
        return Err(invalid(format!(
            "spacing {spacing} puts the terrain beyond f32's range"
        )));
    }
    let mut report = ImportReport {
        vertices: mesh.positions().len(),
        faces: (columns as usize - 1) * (rows as usize - 1),
        corners: 4 * (columns as usize - 1) * (rows as usize - 1),
        triangles: mesh.triangle_count(),
        ..ImportReport::default()
    };
    report.ngons_triangulated = report.faces;
    if colour {
        report.warnings.push(ImportWarning {
            line: None,
            message: "the image has colour: heights come from its luminance".into(),
        });
    }
    Ok((field, mesh, report))
}

/// Decodes PNG bytes into a field; `true` with it when the image had colour.
fn decode(bytes: &[u8], spacing: f64, height_scale: f64) -> Result<(HeightField, bool), String> {
    let format = image::guess_format(bytes).map_err(|_| "not an image file".to_string())?;
    if format != image::ImageFormat::Png {
        return Err(format!("a {format:?} image, not a PNG"));
    }
    let reader = || {
        let mut r = image::ImageReader::new(std::io::Cursor::new(bytes));
        r.set_format(image::ImageFormat::Png);
        r
    };
    let (w, h) = reader()
        .into_dimensions()
        .map_err(|e| format!("corrupt PNG: {}", short(&e.to_string())))?;
    let samples = w as u64 * h as u64;
    if w > MAX_SIDE || h > MAX_SIDE || samples > MAX_SAMPLES {
        return Err(format!(
            "a {w} x {h} heightmap is too large (at most {MAX_SIDE} pixels a side and {MAX_SAMPLES} in all)"
        ));
    }
    if w < 2 || h < 2 {
        return Err(format!(
            "a {w} x {h} heightmap has no cell (at least 2 x 2 pixels)"
        ));
    }
    let mut r = reader();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    r.limits(limits);
    let img = r
        .decode()
        .map_err(|e| format!("corrupt PNG: {}", short(&e.to_string())))?;
    let colour = img.color().has_color();
    let luma = img.to_luma16();
    let heights = luma
        .pixels()
        .map(|p| (p.0[0] as f64 / 65535.0 * height_scale) as f32)
        .collect();
    let field = HeightField::new(w, h, spacing, heights)
        .ok_or_else(|| format!("height scale {height_scale} makes heights beyond f32's range"))?;
    Ok((field, colour))
}

/// At most 120 characters of a decoder's message.
fn short(text: &str) -> String {
    text.chars().take(120).collect()
}
