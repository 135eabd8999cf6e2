//! `vn` statements and the normal index of each face corner, kept so that
//! the build can tell whether each face is wound the way its normals say.
//! A file without normals pays nothing: the per-corner list starts at the
//! first corner that has a normal index (earlier corners filled in then).

use super::tokens::{Tokens, parse_f64};
use super::{NO_NORMAL, Parser};
use crate::level::import::UpAxis;
use crate::math::Vec3;

/// A corner's normal index as the parser sees it.
#[derive(Clone, Copy, Debug)]
pub(super) enum NormalRef {
    /// 0-based in the file.
    Absolute(u64),
    /// 0-based in the chunk (a relative index resolved within it).
    InChunk(u64),
    /// A relative index reaching above the chunk: the merge resolves it.
    Pending,
}

impl Parser<'_> {
    /// A `vn` statement: counted, and its vector kept, turned Y up as the
    /// positions are (the scale does not turn a direction). A malformed
    /// one is kept as NaN, which no face's check uses; as before normals
    /// were read, it is not an error.
    pub(super) fn normal(&mut self, mut tokens: Tokens) {
        self.out.normals += 1;
        let mut file = [f32::NAN; 3];
        for c in &mut file {
            match tokens.next().and_then(parse_f64) {
                Some(x) => *c = x as f32,
                None => {
                    file = [f32::NAN; 3];
                    break;
                }
            }
        }
        let [x, y, z] = file;
        let world = match self.ctx.options.up {
            UpAxis::Y => Vec3::new(x, y, z),
            UpAxis::Z => Vec3::new(x, z, -y),
        };
        self.out.normal_vectors.push(world);
    }

    /// Records the normal of the corner about to be pushed onto `corners`.
    pub(super) fn note_corner_normal(&mut self, normal: Option<NormalRef>) {
        let at = self.out.corners.len();
        let list = &mut self.out.corner_normals;
        if normal.is_none() && list.is_empty() {
            return;
        }
        list.resize(at, NO_NORMAL);
        let value = match normal {
            None => NO_NORMAL,
            Some(NormalRef::Absolute(n)) => u32::try_from(n).unwrap_or(NO_NORMAL),
            Some(NormalRef::InChunk(n)) => {
                self.out.relative_normals.push(at as u32);
                n as u32
            }
            // Filled in by the merge.
            Some(NormalRef::Pending) => 0,
        };
        list.push(value);
    }
}
