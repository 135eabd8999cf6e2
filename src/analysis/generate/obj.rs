//! Writes a [`TriMesh`] (world space, Y up, metres) as Wavefront OBJ text:
//! every vertex, then one `o` block of faces per object.
//!
//! Coordinates are printed with Rust's shortest round-trip `f32` formatting,
//! so reading the file back gives the very same `f32` positions and the
//! output is identical on every platform (the default level asset relies on
//! this to be checked against its generator).

use crate::mesh::TriMesh;
use std::io::{self, Write};

/// Writes `mesh` as OBJ: `v` lines for all positions, then for each object
/// an `o <name>` line and its triangles as 1-based `f` lines.
pub fn write_obj(mesh: &TriMesh, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "# Collidoscope level: Y up, metres")?;
    writeln!(
        out,
        "# {} vertices, {} triangles, {} objects",
        mesh.positions.len(),
        mesh.triangles.len(),
        mesh.objects.len()
    )?;
    for p in &mesh.positions {
        writeln!(out, "v {} {} {}", p.x, p.y, p.z)?;
    }
    for object in &mesh.objects {
        // OBJ names end at the line's end; a newline in a name would split it.
        let name = object.name.replace(['\n', '\r'], "_");
        writeln!(out, "o {name}")?;
        let first = object.first_triangle as usize;
        for t in &mesh.triangles[first..first + object.triangle_count as usize] {
            writeln!(out, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    #[test]
    fn writes_vertices_then_named_faces() {
        let mesh = TriMesh::new(
            vec![Vec3::ZERO, Vec3::X, Vec3::new(0.0, 0.1, 0.0), Vec3::Z],
            vec![[0, 1, 2], [0, 2, 3]],
            vec![("a".into(), 1), ("b".into(), 1)],
        );
        let mut text = Vec::new();
        write_obj(&mesh, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            body,
            [
                "v 0 0 0",
                "v 1 0 0",
                "v 0 0.1 0",
                "v 0 0 1",
                "o a",
                "f 1 2 3",
                "o b",
                "f 1 3 4"
            ]
        );
    }
}
