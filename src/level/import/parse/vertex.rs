//! `v` statements: three coordinates, what may follow them, and the
//! conversion to the world (Y up, scaled, `f32`) and to the file's own
//! unscaled shape coordinates.

use super::super::UpAxis;
use super::super::report::WarningKind;
use super::tokens::{Tokens, parse_f64, quote, readable};
use super::{LineError, LineResult, Parser, incomplete};
use crate::math::Vec3;

impl Parser<'_> {
    pub(super) fn vertex(&mut self, mut tokens: Tokens) -> LineResult {
        let mut file = [0.0f64; 3];
        for (found, c) in file.iter_mut().enumerate() {
            let token = tokens
                .next()
                .ok_or_else(|| incomplete(format!("`v` needs 3 coordinates, found {found}")))?;
            *c = parse_f64(token)
                .ok_or_else(|| incomplete(format!("bad number {} in `v`", quote(token))))?;
            if !c.is_finite() {
                return Err(non_finite(token).into());
            }
        }
        self.vertex_extras(tokens);
        if self.out.positions.len() >= u32::MAX as usize {
            return Err(String::from("more than 4 294 967 295 vertices").into());
        }
        let pos_world = self.to_world(file).map_err(LineError::from)?;
        self.out.positions.push(pos_world);
        if self.ctx.options.scale != 1.0 {
            self.out.shape_positions.push(self.to_shape(file));
        }
        Ok(())
    }

    /// Checks what follows x y z: nothing, `w`, `r g b` or `w r g b` /
    /// `r g b a` (vertex colours, a common extension) are read silently;
    /// anything else is ignored with a warning (listed once per file).
    fn vertex_extras(&mut self, tokens: Tokens) {
        let (mut count, mut numbers) = (0usize, true);
        for token in tokens {
            count += 1;
            numbers &= parse_f64(token).is_some();
        }
        if numbers && matches!(count, 0 | 1 | 3 | 4) {
            return;
        }
        self.out
            .warnings
            .push(WarningKind::VertexExtras, Some(self.line), || {
                format!(
                    "`v` has {count} values after x y z (only w, or r g b colours, are read); \
                     extras ignored"
                )
            });
    }

    /// A file point turned Y up, unscaled, in `f32` as the world is: the
    /// coordinates faces are triangulated and judged flat in. (A rotation
    /// by quarter turns is exact, so only the scale is left out.)
    fn to_shape(&self, file: [f64; 3]) -> Vec3 {
        let [x, y, z] = file.map(|c| c.clamp(-f64::from(f32::MAX), f64::from(f32::MAX)) as f32);
        match self.ctx.options.up {
            UpAxis::Y => Vec3::new(x, y, z),
            UpAxis::Z => Vec3::new(x, z, -y),
        }
    }

    /// Scales and turns a file point into the world (Y up). Z up maps
    /// (x, y, z) to (x, z, -y): a rotation, so handedness and winding stay.
    fn to_world(&self, file: [f64; 3]) -> Result<Vec3, String> {
        let s = self.ctx.options.scale;
        let [x, y, z] = file.map(|c| c * s);
        let world = match self.ctx.options.up {
            UpAxis::Y => [x, y, z],
            UpAxis::Z => [x, z, -y],
        };
        let world_f32 = world.map(|c| c as f32);
        if let Some(world_axis) = world_f32.iter().position(|c| !c.is_finite()) {
            let file_axis = match self.ctx.options.up {
                UpAxis::Y => world_axis,
                UpAxis::Z => [0, 2, 1][world_axis],
            };
            return Err(format!(
                "coordinate {} times unit scale {} overflows: it does not fit in 32-bit floats",
                readable(file[file_axis]),
                readable(s)
            ));
        }
        Ok(Vec3::from_array(world_f32))
    }
}

/// The message for a coordinate that is not finite as read: an overflow
/// (`1e400`) says so, as one beyond `f32` does; `nan` and `inf` as typed
/// are non-finite.
fn non_finite(token: &[u8]) -> String {
    let digits = token.iter().any(u8::is_ascii_digit);
    if digits {
        format!(
            "coordinate {} overflows: it does not fit in 32-bit floats",
            quote(token)
        )
    } else {
        format!("non-finite coordinate {}", quote(token))
    }
}
