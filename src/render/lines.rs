//! One-pixel line segments, world space: how box edges are drawn.
//!
//! The debugger draws boxes by the hundred (candidate triangles' boxes, BVH
//! nodes visited, a BVH level), twelve edges each. As tubes, every edge
//! is eight thin triangles; on a software rasteriser (Mesa's llvmpipe, the
//! only "GPU" of a VM or CI machine) the setup of those ~40,000 triangles
//! for 400 boxes cost about as much as the 277k-triangle level they sit in
//! (see BENCHMARKS.md, "GUI frame"). As `GL_LINES` each edge is one
//! primitive, one pixel wide at any distance: the boxes stay visible from
//! afar, where a tube narrower than a pixel would break up, and a frame
//! costs a fraction of the tubes' time.
//!
//! [`LineSegments`] is a three-d [`Geometry`], so it is depth-tested and
//! sorted with everything else in the frame; it draws with the overlay
//! material in its unlit line form ([`OverlayMaterial`] with `lines` set).
//! Its vertex shader applies the overlay depth pull to the vertex, so the
//! fragments keep early depth testing.

use super::materials::OverlayMaterial;
use three_d::{
    AxisAlignedBoundingBox, ColorTexture, Context, DepthTexture, Effect, Geometry, GeometryId, Gm,
    Light, Material, Program, RenderStates, Srgba, Vec3, Vec4, VertexBuffer, Viewer,
    render_with_effect, render_with_material,
};

/// Segments uploaded once, drawn as `GL_LINES`.
pub(super) struct LineSegments {
    context: Context,
    positions: VertexBuffer<Vec3>,
    colors: VertexBuffer<Vec4>,
    vertex_count: u32,
    aabb: AxisAlignedBoundingBox,
}

const LINE_VERT: &str = "
uniform mat4 viewProjection;
uniform vec3 eyePos;
uniform float pull;
in vec3 position;
in vec4 color;
out vec4 col;

void main() {
    col = color;
    gl_Position = viewProjection * vec4(mix(position, eyePos, pull), 1.0);
}
";

impl LineSegments {
    /// Uploads `segments` (end points and sRGB colour each).
    pub fn new(context: &Context, segments: &[([glam::Vec3; 2], Srgba)]) -> Self {
        let mut positions = Vec::with_capacity(segments.len() * 2);
        let mut colors = Vec::with_capacity(segments.len() * 2);
        for (ends, color) in segments {
            let linear = color.to_linear_srgb();
            for p in ends {
                positions.push(super::convert::v3(*p));
                colors.push(linear);
            }
        }
        LineSegments {
            context: context.clone(),
            positions: VertexBuffer::new_with_data(context, &positions),
            colors: VertexBuffer::new_with_data(context, &colors),
            vertex_count: positions.len() as u32,
            aabb: AxisAlignedBoundingBox::new_with_positions(&positions),
        }
    }

    /// The segments with the overlay material's line form, ready to render.
    pub fn into_model(self, transparent: bool, pull: f32) -> Gm<LineSegments, OverlayMaterial> {
        let material = OverlayMaterial {
            transparent,
            pull,
            lines: true,
        };
        Gm::new(self, material)
    }
}

impl Geometry for LineSegments {
    fn draw(&self, viewer: &dyn Viewer, program: &Program, render_states: RenderStates) {
        if self.vertex_count == 0 {
            return;
        }
        program.use_uniform("viewProjection", viewer.projection() * viewer.view());
        program.use_vertex_attribute("position", &self.positions);
        program.use_vertex_attribute("color", &self.colors);
        program.draw_with(render_states, viewer.viewport(), || {
            use three_d::HasContext;
            // SAFETY: the program and its attribute buffers are bound by
            // `draw_with`, and both buffers hold `vertex_count` vertices.
            unsafe {
                self.context
                    .draw_arrays(three_d::context::LINES, 0, self.vertex_count as i32);
            }
        });
    }

    fn vertex_shader_source(&self) -> String {
        LINE_VERT.to_owned()
    }

    fn id(&self) -> GeometryId {
        GeometryId(0x0C20)
    }

    fn render_with_material(
        &self,
        material: &dyn Material,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
    ) {
        if let Err(e) = render_with_material(&self.context, viewer, self, material, lights) {
            panic!("{e}");
        }
    }

    fn render_with_effect(
        &self,
        effect: &dyn Effect,
        viewer: &dyn Viewer,
        lights: &[&dyn Light],
        color_texture: Option<ColorTexture>,
        depth_texture: Option<DepthTexture>,
    ) {
        let drawn = render_with_effect(
            &self.context,
            viewer,
            self,
            effect,
            lights,
            color_texture,
            depth_texture,
        );
        if let Err(e) = drawn {
            panic!("{e}");
        }
    }

    fn aabb(&self) -> AxisAlignedBoundingBox {
        self.aabb
    }
}
