//! The public levels Collidoscope's checks, stuck-spot maps and engine
//! peers are measured on, and how each is imported: real game and demo
//! levels from public projects (stairs, doors, a 331k-triangle scene, a
//! visual/collision pair, three Quake-engine maps), kept beside the
//! repository in `../shared/levels` with their licences. Tests and
//! benchmarks that use them find that folder themselves and skip, with a
//! message, when it is absent.
//!
//! Each level is imported as a designer would open it: the Quake maps with
//! [`ImportOptions::quake_map`] and their liquids and teleporters not
//! colliding ([`QUAKE_NON_COLLIDING`]), the conference scene at 0.003 m a
//! unit (its file is in millimetre-like units), the others as they are.

use crate::collide::{CollisionWorld, QUAKE_NON_COLLIDING, SlideSettings, objects_named};
use crate::level::import::import_obj_file;
use crate::level::{ImportError, ImportOptions, Level};
use std::path::Path;

/// One public level: its file and how to import it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PublicLevel {
    /// File name in the levels folder.
    pub file: &'static str,
    /// A Quake-engine map (Z up, inches, objects by group and material,
    /// liquids and teleporters not colliding).
    pub quake: bool,
    /// Metres per file unit, for the levels that are not Quake maps.
    pub scale: f64,
}

/// Every public level, the small ones first.
pub const PUBLIC_LEVELS: [PublicLevel; 11] = [
    PublicLevel::metres("galleria_map.obj"),
    PublicLevel::metres("galleria_collision.obj"),
    PublicLevel::metres("galleria_stairs.obj"),
    PublicLevel::metres("threejs_collision_world.obj"),
    PublicLevel::metres("machu_picchu_level.obj"),
    PublicLevel::metres("parry_stairs.obj"),
    PublicLevel::quake_map("librequake_e0m2.obj"),
    PublicLevel::quake_map("librequake_e0m8.obj"),
    PublicLevel::quake_map("librequake_based.obj"),
    PublicLevel::metres("sibenik_dabrovic_75k.obj.gz"),
    PublicLevel {
        file: "conference_ward_331k.obj.gz",
        quake: false,
        scale: 0.003,
    },
];

/// A public level as imported, with the settings it is checked with.
pub struct LoadedLevel {
    /// The level, named after its file.
    pub level: Level,
    /// Default settings, with the level's non-colliding patterns.
    pub settings: SlideSettings,
    /// Per object: whether it collides under `settings`.
    pub colliding: Vec<bool>,
}

impl LoadedLevel {
    /// The level's colliding triangles.
    pub fn world(&self) -> CollisionWorld<'_> {
        self.level.world_with(&self.colliding)
    }
}

impl PublicLevel {
    const fn metres(file: &'static str) -> Self {
        PublicLevel {
            file,
            quake: false,
            scale: 1.0,
        }
    }

    const fn quake_map(file: &'static str) -> Self {
        PublicLevel {
            file,
            quake: true,
            scale: 1.0,
        }
    }

    /// How the file is imported.
    pub fn import_options(&self) -> ImportOptions {
        if self.quake {
            ImportOptions::quake_map()
        } else {
            ImportOptions {
                scale: self.scale,
                ..ImportOptions::default()
            }
        }
    }

    /// The default settings with the level's non-colliding patterns.
    pub fn settings(&self) -> SlideSettings {
        let mut settings = SlideSettings::default();
        if self.quake {
            settings.level.non_colliding = QUAKE_NON_COLLIDING.map(String::from).to_vec();
        }
        settings
    }

    /// Whether `name` (a file name, or the start of one, as an environment
    /// variable listing levels gives it) names this level.
    pub fn is_named(&self, name: &str) -> bool {
        !name.is_empty() && self.file.starts_with(name)
    }

    /// Imports the level from the folder `dir`.
    pub fn load(&self, dir: &Path) -> Result<LoadedLevel, ImportError> {
        let (mesh, _) = import_obj_file(&dir.join(self.file), &self.import_options(), &|_| {})?;
        let level = Level::from_mesh(self.file, mesh);
        let settings = self.settings();
        let (named, _, _) = objects_named(level.mesh(), &settings.level.non_colliding);
        let colliding = named.iter().map(|n| !n).collect();
        Ok(LoadedLevel {
            level,
            settings,
            colliding,
        })
    }
}

/// The public levels `names` picks (comma-separated file names or their
/// starts, e.g. `"librequake,sibenik"`); all of them for `None`.
pub fn pick(names: Option<&str>) -> Vec<PublicLevel> {
    PUBLIC_LEVELS
        .into_iter()
        .filter(|l| names.is_none_or(|n| n.split(',').any(|x| l.is_named(x.trim()))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_maps_import_z_up_in_inches_with_their_liquids_passable() {
        let e0m2 = pick(Some("librequake_e0m2"));
        assert_eq!(e0m2.len(), 1);
        let options = e0m2[0].import_options();
        assert_eq!(options, ImportOptions::quake_map());
        assert_eq!(options.scale, 0.0254);
        assert!(
            e0m2[0]
                .settings()
                .level
                .non_colliding
                .contains(&"*water*".to_string())
        );
        let sibenik = pick(Some("sibenik"))[0];
        assert_eq!(sibenik.import_options(), ImportOptions::default());
        assert!(sibenik.settings().level.non_colliding.is_empty());
    }

    #[test]
    fn pick_takes_names_by_their_start_and_nothing_for_an_empty_name() {
        assert_eq!(pick(None).len(), PUBLIC_LEVELS.len());
        assert_eq!(pick(Some("librequake")).len(), 3);
        assert_eq!(pick(Some("galleria_stairs, parry")).len(), 2);
        assert!(pick(Some("")).is_empty());
        assert!(pick(Some("nothing_like_it")).is_empty());
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let dir = Path::new("/nonexistent/collidoscope/levels");
        assert!(PUBLIC_LEVELS[0].load(dir).is_err());
    }
}
