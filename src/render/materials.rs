//! The shaders of the viewport, as three-d materials: the level
//! (flat-lit faces, optional wireframe), overlays (lit, pulled towards the
//! camera so they win the depth test against the surface they lie on), box
//! edges (unlit lines, pulled the same way) and the ground grid. All of
//! them read world-space positions.
//!
//! Lighting is a fixed key light plus a headlight rather than three-d's PBR
//! lights: it is cheap on software GL and keeps every face readable from any
//! side. Colours come in as sRGB, are lit in linear space and mapped back
//! with three-d's colour mapping.

use three_d::{
    Blend, ColorMapping, Cull, DepthTest, EffectMaterialId, Light, Material, MaterialType, Program,
    RenderStates, Viewer, WriteMask,
};

/// Fragment shader helpers shared by the level and overlay shaders.
const LIGHTING: &str = "
uniform vec3 eyePos;

// Key light from above and a side, plus a headlight that keeps faces seen
// edge-on from going black. Two-sided: the normal is flipped to face the eye.
vec3 shade(vec3 base, vec3 n, vec3 p) {
    vec3 v = normalize(eyePos - p);
    if (dot(n, v) < 0.0) { n = -n; }
    vec3 keyDir = normalize(vec3(0.35, 1.0, 0.55));
    float key = max(dot(n, keyDir), 0.0);
    float head = max(dot(n, v), 0.0);
    return base * (0.28 + 0.47 * key + 0.35 * head);
}
";

/// The level: per-vertex (per-object) colour, flat normals from screen-space
/// derivatives (no normal buffer for a 331k-triangle level). The wireframe
/// variant draws edges from barycentrics stored as uvs (so only the
/// unindexed mesh can use it) and discards hidden objects by colour alpha;
/// the shaded variant never discards (hidden objects are left out of its
/// index buffer), which lets the rasteriser test depth before shading.
pub(super) struct LevelMaterial {
    pub wireframe: bool,
}

const LEVEL_FRAG: &str = "
in vec3 pos;
in vec4 col;
layout (location = 0) out vec4 outColor;

void main() {
#ifdef WIREFRAME
    if (col.a < 0.5) { discard; }
#endif
    vec3 n = normalize(cross(dFdx(pos), dFdy(pos)));
    vec3 c = shade(col.rgb, n, pos);
#ifdef WIREFRAME
    vec3 bary = vec3(uvs, 1.0 - uvs.x - uvs.y);
    vec3 w = fwidth(bary);
    // About one pixel fully dark, then half a pixel of anti-aliasing.
    vec3 edge = smoothstep(w * 0.5, w * 1.5, bary);
    float line = 1.0 - min(min(edge.x, edge.y), edge.z);
    c = mix(c, vec3(0.01), line * 0.9);
#endif
    outColor = vec4(color_mapping(c), 1.0);
}
";

impl Material for LevelMaterial {
    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        let wireframe = if self.wireframe {
            "#define WIREFRAME\nin vec2 uvs;\n"
        } else {
            ""
        };
        format!(
            "{}{}{}{}",
            ColorMapping::fragment_shader_source(),
            LIGHTING,
            wireframe,
            LEVEL_FRAG
        )
    }

    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(0x0C10 + u16::from(self.wireframe))
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        viewer.color_mapping().use_uniforms(program);
        program.use_uniform_if_required("eyePos", viewer.position());
    }

    fn render_states(&self) -> RenderStates {
        RenderStates {
            cull: Cull::None,
            ..Default::default()
        }
    }

    fn material_type(&self) -> MaterialType {
        MaterialType::Opaque
    }
}

/// Overlays and probes: instance (or vertex) colour, lit by the geometry's
/// normals, or unlit for box edges ([`super::lines::LineSegments`]: a
/// one-pixel line has no side to light). `pull` moves each fragment's depth
/// towards the eye by that fraction of its distance, so a segment lying on
/// the floor or a quad in the hit triangle's plane is drawn over the floor
/// instead of z-fighting it; the line geometry applies it per vertex, which
/// for straight lines is the same.
pub(super) struct OverlayMaterial {
    pub transparent: bool,
    pub pull: f32,
    pub lines: bool,
}

const OVERLAY_FRAG: &str = "
uniform mat4 viewProjection;
uniform float pull;
in vec3 pos;
in vec3 nor;
in vec4 col;
layout (location = 0) out vec4 outColor;

void main() {
    vec3 c = shade(col.rgb, normalize(nor), pos);
    outColor = vec4(color_mapping(c), col.a);
    vec4 clip = viewProjection * vec4(mix(pos, eyePos, pull), 1.0);
    gl_FragDepth = clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0);
}
";

const LINE_FRAG: &str = "
in vec4 col;
layout (location = 0) out vec4 outColor;

void main() {
    outColor = vec4(color_mapping(col.rgb), col.a);
}
";

impl Material for OverlayMaterial {
    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        if self.lines {
            return format!("{}{}", ColorMapping::fragment_shader_source(), LINE_FRAG);
        }
        format!(
            "{}{}{}",
            ColorMapping::fragment_shader_source(),
            LIGHTING,
            OVERLAY_FRAG
        )
    }

    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(if self.lines { 0x0C13 } else { 0x0C11 })
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        viewer.color_mapping().use_uniforms(program);
        program.use_uniform_if_required("eyePos", viewer.position());
        program.use_uniform_if_required("pull", self.pull);
    }

    fn render_states(&self) -> RenderStates {
        if self.transparent {
            // Translucent shapes neither hide each other nor what is behind
            // them, so they do not write depth.
            RenderStates {
                write_mask: WriteMask::COLOR,
                blend: Blend::TRANSPARENCY,
                depth_test: DepthTest::LessOrEqual,
                cull: Cull::None,
            }
        } else {
            RenderStates {
                depth_test: DepthTest::LessOrEqual,
                cull: Cull::None,
                ..Default::default()
            }
        }
    }

    fn material_type(&self) -> MaterialType {
        if self.transparent {
            MaterialType::Transparent
        } else {
            MaterialType::Opaque
        }
    }
}

/// The ground grid: anti-aliased lines every `spacing` metres on the XZ
/// plane, every tenth one stronger, fading out with distance.
pub(super) struct GridMaterial {
    pub spacing: f32,
    pub fade_distance: f32,
}

const GRID_FRAG: &str = "
uniform vec3 eyePos;
uniform float spacing;
uniform float fadeDistance;
in vec3 pos;
layout (location = 0) out vec4 outColor;

float grid_line(vec2 p, float step) {
    vec2 g = p / step;
    vec2 d = abs(fract(g - 0.5) - 0.5) / fwidth(g);
    return 1.0 - min(min(d.x, d.y), 1.0);
}

void main() {
    float minor = grid_line(pos.xz, spacing);
    float major = grid_line(pos.xz, spacing * 10.0);
    float fade = 1.0 - smoothstep(0.3, 1.0, length(pos - eyePos) / fadeDistance);
    float a = max(minor * 0.25, major * 0.6) * fade;
    if (a < 0.01) { discard; }
    outColor = vec4(color_mapping(vec3(0.55, 0.58, 0.62)), a);
}
";

impl Material for GridMaterial {
    fn fragment_shader_source(&self, _lights: &[&dyn Light]) -> String {
        format!("{}{}", ColorMapping::fragment_shader_source(), GRID_FRAG)
    }

    fn id(&self) -> EffectMaterialId {
        EffectMaterialId(0x0C12)
    }

    fn use_uniforms(&self, program: &Program, viewer: &dyn Viewer, _lights: &[&dyn Light]) {
        viewer.color_mapping().use_uniforms(program);
        program.use_uniform_if_required("eyePos", viewer.position());
        program.use_uniform_if_required("spacing", self.spacing);
        program.use_uniform_if_required("fadeDistance", self.fade_distance);
    }

    fn render_states(&self) -> RenderStates {
        RenderStates {
            write_mask: WriteMask::COLOR,
            blend: Blend::TRANSPARENCY,
            depth_test: DepthTest::LessOrEqual,
            cull: Cull::None,
        }
    }

    fn material_type(&self) -> MaterialType {
        MaterialType::Transparent
    }
}
