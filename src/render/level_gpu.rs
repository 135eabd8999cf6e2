//! The level on the GPU, world space, in two forms:
//!
//! - **shaded**: indexed, each object's vertices stored once (shared by its
//!   triangles). The default view. On a software rasteriser (Mesa's
//!   llvmpipe, the only "GPU" of a VM or CI machine) vertex shading is a
//!   large share of a frame, and a level's vertices are shared by several
//!   triangles each (the 331k-triangle conference level: 832k corners, 194k
//!   vertices), so this draws the same picture with a fraction of the
//!   vertex work of an unindexed mesh.
//! - **wireframe**: unindexed, three vertices per triangle carrying
//!   barycentric coordinates (as uvs) from which the fragment shader draws
//!   the edges. Shown while View > Wireframe is on.
//!
//! Both carry a per-vertex object colour. Hiding an object drops its
//! triangles from the shaded form's index buffer (so its fragment shader
//! never discards, and the rasteriser can reject hidden fragments by depth
//! before shading them), and gives its vertices a zero alpha in the
//! wireframe form, whose material discards them.

use super::convert::{srgba, v3};
use super::materials::LevelMaterial;
use crate::mesh::TriMesh;
use three_d::{Context, CpuMesh, Gm, Indices, Mesh, Positions, Srgba, TriangleBuffer, Vec2, Vec4};

/// One form of the level: its model and, per object, the first vertex and
/// vertex count of that object's run in the vertex buffer.
struct LevelMesh {
    model: Gm<Mesh, LevelMaterial>,
    ranges: Vec<(u32, u32)>,
}

impl LevelMesh {
    /// Re-uploads the colours: object `i` gets `linear[i]`, alpha 0 when hidden.
    fn set_colors(&mut self, linear: &[Vec4], visible: &[bool]) {
        let total = self.ranges.iter().map(|r| r.1 as usize).sum();
        let mut colors = Vec::with_capacity(total);
        for ((&(_, count), &c), &show) in self.ranges.iter().zip(linear).zip(visible) {
            let alpha = if show { 1.0 } else { 0.0 };
            colors.extend(std::iter::repeat_n(
                Vec4::new(c.x, c.y, c.z, alpha),
                count as usize,
            ));
        }
        // One full upload, into the buffer itself: three-d 0.19's
        // `set_colors` checks the length against the index count (wrong for
        // an indexed mesh), and `set_colors_partially` passes its element
        // offset to GL as a byte offset. The buffer holds one colour per
        // vertex and `colors` has exactly that many.
        #[allow(deprecated)]
        if let Some(buffer) = self.model.geometry.colors_mut() {
            buffer.fill(&colors);
        }
    }
}

/// The shaded form: its model, every triangle's indices and, per object,
/// the run of `indices` holding its triangles.
struct ShadedMesh {
    model: Gm<Mesh, LevelMaterial>,
    indices: Vec<u32>,
    ranges: Vec<(u32, u32)>,
}

impl ShadedMesh {
    /// Re-uploads the index buffer with the visible objects' triangles only.
    fn set_visibility(&mut self, visible: &[bool]) {
        let mut shown = Vec::with_capacity(self.indices.len());
        for (&(first, count), &show) in self.ranges.iter().zip(visible) {
            if show {
                shown.extend_from_slice(&self.indices[first as usize..(first + count) as usize]);
            }
        }
        if let TriangleBuffer::IndexedU32(buffer) = self.model.geometry.indices_mut() {
            buffer.fill(&shown);
        }
    }
}

/// The level in both forms, and what is needed to hide and show objects.
pub(super) struct LevelGpu {
    shaded: ShadedMesh,
    wireframe: LevelMesh,
    /// Per object: colour, linear RGB (what the colour buffer holds).
    linear: Vec<Vec4>,
    visible: Vec<bool>,
}

impl LevelGpu {
    /// Uploads `mesh` with one sRGB colour per object (`color_of(i)`).
    pub fn upload(ctx: &Context, mesh: &TriMesh, color_of: impl Fn(usize) -> [f32; 3]) -> Self {
        let colors: Vec<Srgba> = (0..mesh.objects.len())
            .map(|i| {
                let [r, g, b] = color_of(i);
                srgba([r, g, b, 1.0])
            })
            .collect();
        LevelGpu {
            shaded: shaded_mesh(ctx, mesh, &colors),
            wireframe: wireframe_mesh(ctx, mesh, &colors),
            linear: colors.iter().map(|c| c.to_linear_srgb()).collect(),
            visible: vec![true; mesh.objects.len()],
        }
    }

    /// Shows (`true`) or hides each object; missing flags mean visible.
    /// Re-uploads the colours only when a flag changed; returns whether one did.
    pub fn set_visibility(&mut self, visible: &[bool]) -> bool {
        let wanted: Vec<bool> = (0..self.linear.len())
            .map(|i| visible.get(i).copied().unwrap_or(true))
            .collect();
        if wanted == self.visible {
            return false;
        }
        self.visible = wanted;
        self.shaded.set_visibility(&self.visible);
        self.wireframe.set_colors(&self.linear, &self.visible);
        true
    }

    /// The model to draw: the wireframe form or the shaded one.
    pub fn model(&self, wireframe: bool) -> &Gm<Mesh, LevelMaterial> {
        if wireframe {
            &self.wireframe.model
        } else {
            &self.shaded.model
        }
    }
}

/// The indexed form: per object, each vertex its triangles use, once.
fn shaded_mesh(ctx: &Context, mesh: &TriMesh, colors: &[Srgba]) -> ShadedMesh {
    let mut positions = Vec::new();
    let mut vertex_colors = Vec::new();
    let mut indices = Vec::with_capacity(mesh.triangle_count() * 3);
    let mut ranges = Vec::with_capacity(mesh.objects.len());
    // Mesh vertex -> its index in this object's run (u32::MAX: not yet).
    let mut local = vec![u32::MAX; mesh.positions.len()];
    for (obj, &color) in mesh.objects.iter().zip(colors) {
        let tris = obj.first_triangle as usize..(obj.first_triangle + obj.triangle_count) as usize;
        for tri in &mesh.triangles[tris.clone()] {
            for &v in tri {
                let slot = &mut local[v as usize];
                if *slot == u32::MAX {
                    *slot = positions.len() as u32;
                    positions.push(v3(mesh.positions[v as usize]));
                    vertex_colors.push(color);
                }
                indices.push(*slot);
            }
        }
        // Forget this object's vertices: the next object gets its own copies
        // (its own colour).
        for tri in &mesh.triangles[tris] {
            for &v in tri {
                local[v as usize] = u32::MAX;
            }
        }
        let count = obj.triangle_count * 3;
        ranges.push((indices.len() as u32 - count, count));
    }
    let cpu = CpuMesh {
        positions: Positions::F32(positions),
        indices: Indices::U32(indices),
        colors: Some(vertex_colors),
        ..Default::default()
    };
    let model = Gm::new(Mesh::new(ctx, &cpu), LevelMaterial { wireframe: false });
    let Indices::U32(indices) = cpu.indices else {
        unreachable!("built as u32 above")
    };
    ShadedMesh {
        model,
        indices,
        ranges,
    }
}

/// The unindexed form, with per-corner barycentric coordinates as uvs.
fn wireframe_mesh(ctx: &Context, mesh: &TriMesh, colors: &[Srgba]) -> LevelMesh {
    let n = mesh.triangle_count() * 3;
    let mut positions = Vec::with_capacity(n);
    let mut vertex_colors = Vec::with_capacity(n);
    let mut uvs = Vec::with_capacity(n);
    let mut ranges = Vec::with_capacity(mesh.objects.len());
    // three-d flips v on upload; these arrive as (1,0), (0,1), (0,0).
    let corner_uvs = [
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 0.0),
        Vec2::new(0.0, 1.0),
    ];
    for (obj, &color) in mesh.objects.iter().zip(colors) {
        ranges.push((obj.first_triangle * 3, obj.triangle_count * 3));
        for tri in obj.first_triangle..obj.first_triangle + obj.triangle_count {
            for (corner, uv) in mesh.triangle(tri).into_iter().zip(corner_uvs) {
                positions.push(v3(corner));
                vertex_colors.push(color);
                uvs.push(uv);
            }
        }
    }
    let cpu = CpuMesh {
        positions: Positions::F32(positions),
        colors: Some(vertex_colors),
        uvs: Some(uvs),
        ..Default::default()
    };
    LevelMesh {
        model: Gm::new(Mesh::new(ctx, &cpu), LevelMaterial { wireframe: true }),
        ranges,
    }
}
