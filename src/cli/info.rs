//! `collidoscope info LEVEL`: what a level holds once imported (world space,
//! Y up, metres): vertex and triangle counts, objects with their boxes, the
//! BVH's shape and memory, parse and build times, and the import report;
//! with `--hygiene`, the mesh hygiene analysis (`analysis::hygiene`).

use super::args::ImportArgs;
use super::{CliError, format, hygiene, print_stdout};
use crate::analysis::hygiene::{HygieneOptions, HygieneReport, against_normals, analyse_level};
use crate::bvh::BvhStats;
use crate::level::NormalAgreement;
use crate::level::{ImportOptions, ImportReport, Level};
use crate::math::Aabb;
use crate::mesh::MeshObject;
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Warnings listed in the text output; a messy level has thousands.
const TEXT_WARNINGS: usize = 20;

/// Object names are padded to line up up to this width; a longer name
/// pushes its own line out. Padding is done by hand, not with a format
/// width: `{:<w$}` panics when `w` is 65,536 or more.
const NAME_COLUMN: usize = 40;

/// Arguments of `collidoscope info`.
#[derive(Debug, Args)]
pub(crate) struct InfoArgs {
    /// The level (.obj, .obj.gz, or a .png heightmap: see --heightmap-spacing, --height-scale).
    level: PathBuf,
    #[command(flatten)]
    import: ImportArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also analyse the mesh's hygiene: open and non-manifold edges,
    /// T-junctions, near misses, slivers, overlaps, winding, coplanar edges.
    #[arg(long)]
    hygiene: bool,
}

/// The JSON form of `info` (field names are part of the CLI's interface).
#[derive(Serialize)]
struct InfoJson<'a> {
    level: &'a str,
    path: Option<&'a std::path::Path>,
    import_options: ImportOptions,
    vertices: usize,
    triangles: usize,
    objects: &'a [MeshObject],
    bounds: Aabb,
    bvh: BvhJson,
    parse_ms: f64,
    build_ms: f64,
    import_report: &'a ImportReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    hygiene: Option<&'a HygieneReport>,
}

#[derive(Serialize)]
struct BvhJson {
    #[serde(flatten)]
    stats: BvhStats,
    bytes_per_triangle: f64,
}

pub(crate) fn run(a: &InfoArgs) -> Result<(), CliError> {
    let options = a.import.options();
    let level = Level::load(&a.level, &options)?;
    let stats = level.bvh.stats();
    let hygiene = a
        .hygiene
        .then(|| analyse_level(&level, &HygieneOptions::default()));
    let triangles = level.mesh.triangle_count();
    let bytes_per_triangle = if triangles == 0 {
        0.0
    } else {
        stats.memory_bytes as f64 / triangles as f64
    };
    let text = if a.json {
        let json = InfoJson {
            level: &level.name,
            path: level.path.as_deref(),
            import_options: options,
            vertices: level.mesh.positions.len(),
            triangles,
            objects: &level.mesh.objects,
            bounds: level.mesh.bounds(),
            bvh: BvhJson {
                stats,
                bytes_per_triangle,
            },
            parse_ms: level.parse_time.as_secs_f64() * 1e3,
            build_ms: level.build_time.as_secs_f64() * 1e3,
            import_report: &level.report,
            hygiene: hygiene.as_ref(),
        };
        serde_json::to_string_pretty(&json).map_err(|e| CliError::Failed(e.to_string()))? + "\n"
    } else {
        let mut text = text_report(&level, &options, &stats, bytes_per_triangle);
        if let Some(report) = &hygiene {
            text.push_str(&hygiene::text(report));
        }
        text
    };
    print_stdout(&text)
}

fn text_report(
    level: &Level,
    options: &ImportOptions,
    stats: &BvhStats,
    bytes_per_tri: f64,
) -> String {
    let mesh = &level.mesh;
    let mut s = String::new();
    let path = level.path.as_ref().map(|p| p.display().to_string());
    let _ = writeln!(
        s,
        "level      {} ({})",
        level.name,
        path.unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "import     up {}, scale {}",
        format::snake_name(&options.up),
        options.scale
    );
    let _ = writeln!(s, "vertices   {}", mesh.positions.len());
    let _ = writeln!(s, "triangles  {}", mesh.triangle_count());
    let bounds = mesh.bounds();
    let _ = write!(s, "bounds     {}", format::aabb(&bounds));
    if !bounds.is_empty() {
        let _ = write!(s, " size {}", format::vec_f32(bounds.max - bounds.min));
    }
    s.push('\n');
    let _ = writeln!(s, "objects    {}", mesh.objects.len());
    let name_width = mesh
        .objects
        .iter()
        .map(|o| o.name.chars().count().min(NAME_COLUMN))
        .max()
        .unwrap_or(0);
    for o in &mesh.objects {
        let pad = name_width.saturating_sub(o.name.chars().count());
        let _ = writeln!(
            s,
            "  {}{}  {:>7} triangles  {}",
            o.name,
            " ".repeat(pad),
            o.triangle_count,
            format::aabb(&o.aabb)
        );
    }
    let _ = writeln!(
        s,
        "bvh        {} nodes, {} leaves, depth {}, {} bytes ({:.1} bytes/triangle)",
        stats.nodes, stats.leaves, stats.max_depth, stats.memory_bytes, bytes_per_tri
    );
    let _ = writeln!(
        s,
        "leaf sizes {}",
        leaf_histogram(&stats.leaf_size_histogram)
    );
    let _ = writeln!(
        s,
        "time       parse {}, bvh build {}",
        format::millis(level.parse_time),
        format::millis(level.build_time)
    );
    s.push_str(&import_report(&level.report));
    if let Some(warning) = winding_warning(level) {
        s.push_str(&warning);
    }
    s
}

/// Objects listed by name in the winding warning.
const WARNING_OBJECTS: usize = 3;

/// One line when the level, or an object of it, is wound against its own
/// `vn` normals (more than half of its faces with normals are): the
/// collision sees the back of what the renderer shows.
fn winding_warning(level: &Level) -> Option<String> {
    let normals = &level.report.triangle_normals;
    let wrong: Vec<_> = against_normals(&level.mesh, normals)
        .into_iter()
        .filter(|a| 2 * a.against.len() > a.with_normals)
        .collect();
    if wrong.is_empty() {
        return None;
    }
    let with: usize = normals
        .iter()
        .filter(|&&n| n != NormalAgreement::Unknown)
        .count();
    let against = normals
        .iter()
        .filter(|&&n| n == NormalAgreement::Against)
        .count();
    let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
    let whole = wrong.len() == level.mesh.objects.len() || 2 * against > with;
    let mut s = if whole {
        format!(
            "warning    the level is wound against its vn normals: {against} of {with} \
             triangles with normals ({:.0} %)",
            share(against, with)
        )
    } else {
        format!(
            "warning    {} objects are wound against their vn normals",
            wrong.len()
        )
    };
    let named: Vec<String> = wrong
        .iter()
        .take(WARNING_OBJECTS)
        .map(|a| {
            format!(
                "{} ({} of {})",
                level.mesh.objects[a.object].name,
                a.against.len(),
                a.with_normals
            )
        })
        .collect();
    let _ = write!(s, ": {}", named.join(", "));
    if wrong.len() > WARNING_OBJECTS {
        let _ = write!(s, " and {} more", wrong.len() - WARNING_OBJECTS);
    }
    s.push_str(" (collision sees the back of these faces; --hygiene lists them)\n");
    Some(s)
}

/// `1:12 2:30 4:3`: how many leaves hold each number of triangles.
fn leaf_histogram(histogram: &[usize]) -> String {
    let parts: Vec<String> = histogram
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(size, n)| format!("{size}:{n}"))
        .collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(" ")
    }
}

fn import_report(r: &ImportReport) -> String {
    let mut s = String::from("import report\n");
    let _ = writeln!(
        s,
        "  read       {} vertices, {} faces of {} corners ({} n-gons triangulated), {} triangles kept",
        r.vertices, r.faces, r.corners, r.ngons_triangulated, r.triangles
    );
    let _ = writeln!(
        s,
        "  ignored    {} lines (l), {} points (p), {} material statements",
        r.lines_ignored, r.points_ignored, r.material_statements_ignored
    );
    let _ = writeln!(
        s,
        "  dropped    {} degenerate, {} duplicate triangles; {} collinear n-gon corners removed",
        r.degenerate_triangles_dropped, r.duplicate_triangles_dropped, r.collinear_corners_removed
    );
    let _ = writeln!(s, "  warnings   {}", r.warnings.len());
    for w in r.warnings.iter().take(TEXT_WARNINGS) {
        match w.line {
            Some(line) => {
                let _ = writeln!(s, "    line {line}: {}", w.message);
            }
            None => {
                let _ = writeln!(s, "    {}", w.message);
            }
        }
    }
    if r.warnings.len() > TEXT_WARNINGS {
        let _ = writeln!(
            s,
            "    ... {} more (--json lists them all)",
            r.warnings.len() - TEXT_WARNINGS
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ImportWarning;

    /// A name of 65,536 characters once panicked ("Formatting argument out
    /// of range"); names made in code are not capped by the importer.
    #[test]
    fn huge_object_names_print_without_padding_them() {
        use crate::math::Vec3;
        use crate::mesh::TriMesh;
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let long = "n".repeat(70_000);
        let mesh = TriMesh::new(
            positions,
            vec![[0, 1, 2], [0, 1, 3]],
            vec![(long.clone(), 1), ("b".into(), 1)],
        );
        let level = Level::from_mesh("long", mesh);
        let stats = level.bvh.stats();
        let text = text_report(&level, &ImportOptions::default(), &stats, 0.0);
        assert!(
            text.contains(&format!("  {long}        1 triangles")),
            "padded"
        );
        let b = format!("  b{}        1 triangles", " ".repeat(NAME_COLUMN - 1));
        assert!(text.contains(&b), "{}", &text[text.len() - 600..]);
    }

    #[test]
    fn the_leaf_histogram_skips_empty_sizes() {
        assert_eq!(leaf_histogram(&[0, 3, 0, 2]), "1:3 3:2");
        assert_eq!(leaf_histogram(&[]), "none");
    }

    #[test]
    fn the_import_report_lists_counts_and_warnings_with_lines() {
        let r = ImportReport {
            lines_ignored: 2,
            duplicate_triangles_dropped: 1,
            warnings: vec![
                ImportWarning {
                    line: Some(7),
                    message: "odd".into(),
                },
                ImportWarning {
                    line: None,
                    message: "whole file".into(),
                },
            ],
            ..ImportReport::default()
        };
        let text = import_report(&r);
        assert!(text.contains("2 lines (l)"), "{text}");
        assert!(text.contains("0 degenerate, 1 duplicate"), "{text}");
        assert!(
            text.contains("line 7: odd") && text.contains("    whole file"),
            "{text}"
        );
    }
}
