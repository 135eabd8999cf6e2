//! The tuned character (slide and character settings, world space, Y up,
//! metres) written as ready-to-paste settings for another engine's
//! character controller, in that engine's own names, units and language:
//! Rapier's `KinematicCharacterController` (Rust), Jolt's
//! `CharacterVirtualSettings` (C++), PhysX's `PxCapsuleControllerDesc`
//! (C++), Godot's `CharacterBody3D` (GDScript), Unity's
//! `CharacterController` (C#) and Unreal's `UCharacterMovementComponent`
//! (C++, centimetres, Z up).
//!
//! Every output states the ellipsoid-to-capsule conversion ([`Capsule`]),
//! lists what has no counterpart in that engine, and writes only finite
//! numbers within the engine's documented range: a tuned value outside it
//! is replaced by the nearest allowed one *and* a `WARNING` comment says
//! so (the same text is returned in [`EngineExport::warnings`]).
//! The names and ranges come from each engine's documentation and source;
//! the "Settings for your engine" table in `docs/settings.md` cites them.
//!
//! [`import`] reads such a file back (each engine module's `read`, next to
//! its `write`): exporting, then importing, gives the same character.

mod capsule;
mod godot;
mod import;
mod jolt;
mod names;
mod physx;
mod rapier;
mod snippet;
mod unity;
mod unreal;

#[cfg(test)]
mod import_tests;
#[cfg(test)]
mod tests;

pub use capsule::Capsule;
pub use import::{EngineImport, ImportError, MAX_ENGINE_FILE_BYTES, import};
pub use names::{
    NameError, NamedValue, accepted_names, apply as apply_engine_names, name_settings,
};

use crate::character::rolling_height;
use crate::collide::{InvalidSettings, SlideSettings};
use glam::DVec3;
use snippet::{Snippet, short};

/// An engine whose character controller settings can be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Rapier (Rust): `KinematicCharacterController`.
    Rapier,
    /// Jolt Physics (C++): `CharacterVirtualSettings`.
    Jolt,
    /// NVIDIA PhysX 5 (C++): `PxCapsuleControllerDesc`.
    Physx,
    /// Godot 4 (GDScript): `CharacterBody3D`.
    Godot,
    /// Unity (C#): `CharacterController`.
    Unity,
    /// Unreal Engine 5 (C++): `UCharacterMovementComponent`.
    Unreal,
}

impl Engine {
    /// Every engine, in menu order.
    pub const ALL: [Engine; 6] = [
        Engine::Rapier,
        Engine::Jolt,
        Engine::Physx,
        Engine::Godot,
        Engine::Unity,
        Engine::Unreal,
    ];

    /// The name used on the command line (`--for NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Rapier => "rapier",
            Engine::Jolt => "jolt",
            Engine::Physx => "physx",
            Engine::Godot => "godot",
            Engine::Unity => "unity",
            Engine::Unreal => "unreal",
        }
    }

    /// The engine profile whose rules the walks follow for this engine.
    pub fn profile(self) -> crate::character::EngineProfile {
        use crate::character::EngineProfile as P;
        match self {
            Engine::Rapier => P::Rapier,
            Engine::Jolt => P::Jolt,
            Engine::Physx => P::Physx,
            Engine::Godot => P::Godot,
            Engine::Unity => P::Unity,
            Engine::Unreal => P::Unreal,
        }
    }

    /// The engine and the class the output configures, for menus and headers.
    pub fn title(self) -> &'static str {
        match self {
            Engine::Rapier => "Rapier KinematicCharacterController",
            Engine::Jolt => "Jolt CharacterVirtualSettings",
            Engine::Physx => "PhysX PxCapsuleControllerDesc",
            Engine::Godot => "Godot CharacterBody3D",
            Engine::Unity => "Unity CharacterController",
            Engine::Unreal => "Unreal CharacterMovementComponent",
        }
    }

    /// A file name that suits the output's language (Unity needs the
    /// class name, `CollidoscopeCharacter`, as the file name).
    pub fn default_file_name(self) -> &'static str {
        match self {
            Engine::Rapier => "collidoscope_character.rs",
            Engine::Jolt => "CollidoscopeJoltCharacter.h",
            Engine::Physx => "CollidoscopePhysXController.h",
            Engine::Godot => "collidoscope_character.gd",
            Engine::Unity => "CollidoscopeCharacter.cs",
            Engine::Unreal => "CollidoscopeUnrealCharacter.h",
        }
    }

    /// The file extension of [`Engine::default_file_name`], without the dot.
    pub fn extension(self) -> &'static str {
        self.default_file_name()
            .rsplit('.')
            .next()
            .unwrap_or_default()
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.to_ascii_lowercase();
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == wanted)
            .ok_or_else(|| {
                let shown: String = s.chars().take(24).collect();
                format!(
                    "unknown engine '{shown}' (expected rapier, jolt, physx, godot, unity or unreal)"
                )
            })
    }
}

/// One engine's settings text.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineExport {
    /// The engine written for.
    pub engine: Engine,
    /// The text to paste, comments included, ending with a newline.
    pub text: String,
    /// Tuned values the engine cannot take as they are, one line each
    /// (each also a `WARNING` comment in `text`).
    pub warnings: Vec<String>,
}

/// Why settings could not be written for an engine.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The settings break their own rules.
    #[error(transparent)]
    Invalid(#[from] InvalidSettings),
    /// A value has no finite, non-zero 32-bit float (the engines' number type).
    #[error(
        "{what} = {value:e} cannot be written as a 32-bit float, the number type {engine} uses"
    )]
    NotRepresentable {
        /// The engine written for.
        engine: &'static str,
        /// The setting, in the engine's name.
        what: String,
        /// The value, in the engine's unit.
        value: f64,
    },
}

/// Writes `settings` for `engine`. The settings are validated first, so
/// settings built in code get the same rules as a settings file.
pub fn export(engine: Engine, settings: &SlideSettings) -> Result<EngineExport, ExportError> {
    settings.validate()?;
    let capsule = Capsule::from_radii(settings.radii);
    let mut out = Snippet::new(engine);
    header(&mut out, settings, &capsule);
    match engine {
        Engine::Rapier => rapier::write(settings, &capsule, &mut out)?,
        Engine::Jolt => jolt::write(settings, &capsule, &mut out)?,
        Engine::Physx => physx::write(settings, &capsule, &mut out)?,
        Engine::Godot => godot::write(settings, &capsule, &mut out)?,
        Engine::Unity => unity::write(settings, &capsule, &mut out)?,
        Engine::Unreal => unreal::write(settings, &capsule, &mut out)?,
    }
    common_not_mapped(&mut out, settings, &capsule, engine);
    Ok(out.finish())
}

/// The conversion every engine shares, stated at the top of the output.
fn header(out: &mut Snippet, s: &SlideSettings, cap: &Capsule) {
    let [x, y, z] = s.radii;
    out.comment(&format!(
        "Collidoscope {} character settings for {}.",
        env!("CARGO_PKG_VERSION"),
        out.engine().title()
    ));
    out.comment("Tuned in Collidoscope's world: Y up, metres, seconds.");
    out.comment(&format!(
        "Shape: Collidoscope sweeps an ellipsoid with radii x {} m, y {} m, z {} m; \
         this engine uses a capsule:",
        short(x),
        short(y),
        short(z)
    ));
    out.comment(&format!(
        "  capsule radius = the larger horizontal radius, max(x, z) = {} m, so the capsule \
         is never narrower than the ellipsoid and fits through no opening it could not;",
        short(cap.radius_m)
    ));
    out.comment(&format!(
        "  capsule total height = 2 x the vertical radius y = {} m, so it stands as tall \
         and clears the same ceilings;",
        short(cap.total_height_m)
    ));
    out.comment(&format!(
        "  straight part between the hemisphere centres = total height - 2 x radius = {} m.",
        short(cap.cylinder_m())
    ));
    out.comment(
        "The capsule contains the ellipsoid: its straight sides and round ends are fuller than \
         the ellipsoid's curve, so it meets steps, ledges and creases differently. Check the \
         level's steps again in the engine.",
    );
    out.comment(&rolling_note(s, cap));
    if cap.is_squat() {
        out.warn(&format!(
            "the ellipsoid is wider ({} m) than tall ({} m); a capsule of radius {} m is at \
             least {} m tall, so the shape below is that sphere (or the engine's shortest \
             capsule), {} m taller than the probe",
            short(2.0 * cap.radius_m),
            short(cap.total_height_m),
            short(cap.radius_m),
            short(2.0 * cap.radius_m),
            short(2.0 * cap.radius_m - cap.total_height_m)
        ));
    }
    out.blank();
}

/// How high an edge each shape rolls over by itself within the walkable
/// slope: the ellipsoid's [`rolling_height`] along x (and z when it
/// differs), the capsule's round end r (1 − cos slope).
fn rolling_note(s: &SlideSettings, cap: &Capsule) -> String {
    let slope_deg = s.character.max_slope_deg;
    let radii = s.radii_vec();
    let along_x = rolling_height(radii, DVec3::X, slope_deg);
    let along_z = rolling_height(radii, DVec3::Z, slope_deg);
    let ellipsoid = if cap.horizontal_radii_differ {
        format!("{along_x:.3} m walking along x, {along_z:.3} m along z")
    } else {
        format!("{along_x:.3} m")
    };
    let capsule = cap.radius_m * (1.0 - slope_deg.to_radians().cos());
    format!(
        "Within the {} degree walkable slope, the ellipsoid rolls over an edge up to \
         {ellipsoid} high by itself, the capsule up to {capsule:.3} m.",
        short(slope_deg)
    )
}

/// What no engine here has a setting for (the engine modules add their own).
fn common_not_mapped(out: &mut Snippet, s: &SlideSettings, cap: &Capsule, engine: Engine) {
    if cap.horizontal_radii_differ {
        let [x, _, z] = s.radii;
        out.not_mapped(&format!(
            "unequal horizontal radii x = {} m, z = {} m: a capsule is round, so its radius \
             is the larger one and it is {} m wider than the ellipsoid along the other axis",
            short(x),
            short(z),
            short(2.0 * (x - z).abs())
        ));
    }
    out.not_mapped(&format!(
        "mode = {}: Collidoscope's slide algorithm; the engine runs its own",
        s.mode
    ));
    out.not_mapped(&format!(
        "self_checks = {}, ghost_edge_angle_deg = {}: Collidoscope's diagnostics, they change no motion",
        s.self_checks,
        short(s.ghost_edge_angle_deg)
    ));
    out.not_mapped(&format!(
        "gravity = {:?} m per move: used by single sweeps only; the character's gravity is gravity_m_s2",
        s.gravity
    ));
    if engine != Engine::Jolt {
        out.not_mapped(&format!(
            "two_sided = {}: whether triangles collide on both sides is a property of the \
             level's mesh collider in this engine, not of the character",
            s.two_sided
        ));
    }
}
