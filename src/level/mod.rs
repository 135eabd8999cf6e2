//! A level: the collision mesh, its BVH, and how it was imported.

pub mod cylinder;
pub mod import;

use crate::bvh::Bvh;
use crate::collide::CollisionWorld;
use crate::mesh::TriMesh;
use crate::terrain::HeightField;
pub use import::{
    ImportError, ImportOptions, ImportReport, ImportWarning, NormalAgreement, ObjectsBy, UpAxis,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The share of the progress bar that parsing fills before the BVH build.
const IMPORT_SHARE: f32 = 0.6;

/// A loaded level, ready to collide with.
#[derive(Clone, Debug)]
pub struct Level {
    /// Display name (the file name, or a generator's name).
    pub name: String,
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// Triangles, per-triangle AABBs and objects, world space (Y up, metres).
    pub(crate) mesh: TriMesh,
    /// The BVH over `mesh.tri_aabbs`.
    pub(crate) bvh: Bvh,
    /// What the import did and warned about.
    pub report: ImportReport,
    /// Time spent reading and parsing the file.
    pub parse_time: Duration,
    /// Time spent building the BVH.
    pub build_time: Duration,
    /// The height field the level was made from (a `.png` heightmap), for
    /// the terrain's own cell and triangle lookup.
    pub(crate) height_field: Option<HeightField>,
}

impl Level {
    /// Wraps a mesh built in code (generated levels, tests), building its BVH.
    pub fn from_mesh(name: &str, mesh: TriMesh) -> Level {
        let t = std::time::Instant::now();
        let bvh = Bvh::build_for_mesh(&mesh);
        Level {
            name: name.to_string(),
            path: None,
            report: ImportReport::default(),
            parse_time: Duration::ZERO,
            build_time: t.elapsed(),
            bvh,
            mesh,
            height_field: None,
        }
    }

    /// Reads an `.obj` or `.obj.gz` file, or a grayscale `.png` heightmap
    /// (see [`crate::terrain`]), and builds its BVH.
    pub fn load(path: &Path, options: &ImportOptions) -> Result<Level, ImportError> {
        Self::load_with_progress(path, options, &|_| {})
    }

    /// As [`Level::load`], calling `progress` with a fraction in `[0, 1]` as it goes
    /// (the GUI loads off the UI thread and shows it).
    pub fn load_with_progress(
        path: &Path,
        options: &ImportOptions,
        progress: &(dyn Fn(f32) + Sync),
    ) -> Result<Level, ImportError> {
        let t = std::time::Instant::now();
        // Parsing is most of a small level's load and about half of a big
        // one's; the BVH build (no progress of its own) takes the rest.
        let (mesh, report, height_field) = if is_heightmap(path) {
            let (field, mesh, report) = crate::terrain::import_png(path, options)?;
            (mesh, report, Some(field))
        } else {
            let share = |f: f32| progress(f * IMPORT_SHARE);
            let (mesh, report) = import::import_obj_file(path, options, &share)?;
            (mesh, report, None)
        };
        progress(IMPORT_SHARE);
        let parse_time = t.elapsed();
        let t = std::time::Instant::now();
        let bvh = Bvh::build_for_mesh(&mesh);
        progress(1.0);
        Ok(Level {
            name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            path: Some(path.to_path_buf()),
            mesh,
            bvh,
            report,
            parse_time,
            build_time: t.elapsed(),
            height_field,
        })
    }

    /// The height field of a level made from a heightmap image.
    pub fn height_field(&self) -> Option<&HeightField> {
        self.height_field.as_ref()
    }

    /// The collision mesh: triangles, their boxes and objects, world space.
    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    /// The BVH over the mesh's triangle boxes.
    pub fn bvh(&self) -> &Bvh {
        &self.bvh
    }

    /// Every object collides.
    pub fn world(&self) -> CollisionWorld<'_> {
        CollisionWorld::new(&self.mesh, &self.bvh)
    }

    /// Only the objects flagged `true` collide (one flag per `mesh.objects`).
    pub fn world_with<'a>(&'a self, object_colliding: &'a [bool]) -> CollisionWorld<'a> {
        CollisionWorld {
            object_colliding: Some(object_colliding),
            ..self.world()
        }
    }
}

/// `true` for a path that names a heightmap image (`.png`, any case).
pub fn is_heightmap(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str());
    ext.is_some_and(|e| e.eq_ignore_ascii_case("png"))
}
