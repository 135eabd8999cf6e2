//! Writes a [`TriMesh`] (world space, Y up, metres) as Wavefront OBJ text
//! with the `obj` crate's writer: every vertex, then one `o` / `g` block of
//! faces per object (every OBJ the tool saves goes through here).
//!
//! The crate prints coordinates with Rust's shortest round-trip `f32`
//! formatting, so reading the file back gives the very same `f32`
//! positions and the output is identical on every platform (the default
//! level asset relies on this to be checked against its generator, and
//! repro bundles to replay the same trace).

use crate::mesh::TriMesh;
use obj::{Group, IndexTuple, ObjData, Object, SimplePolygon};
use std::io::{self, Write};

/// Writes `mesh` as OBJ: a two-line header, `v` lines for all positions,
/// then for each object an `o <name>` and a `g <name>` line (the importer
/// reads either as the object's name) and its triangles as 1-based `f`
/// lines.
pub fn write_obj(mesh: &TriMesh, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "# Collidoscope level: Y up, metres")?;
    writeln!(
        out,
        "# {} vertices, {} triangles, {} objects",
        mesh.positions().len(),
        mesh.triangles().len(),
        mesh.objects().len()
    )?;
    let objects = mesh
        .objects()
        .iter()
        .map(|object| {
            // OBJ names end at the line's end; a newline in a name would split it.
            let name = object.name.replace(['\n', '\r'], "_");
            let first = object.first_triangle as usize;
            let tris = &mesh.triangles()[first..first + object.triangle_count as usize];
            let mut group = Group::new(name.clone());
            group.polys = tris
                .iter()
                .map(|t| {
                    SimplePolygon(
                        t.iter()
                            .map(|&i| IndexTuple(i as usize, None, None))
                            .collect(),
                    )
                })
                .collect();
            let mut o = Object::new(name);
            o.groups.push(group);
            o
        })
        .collect();
    let data = ObjData {
        position: mesh.positions().iter().map(|p| p.to_array()).collect(),
        texture: Vec::new(),
        normal: Vec::new(),
        objects,
        material_libs: Vec::new(),
    };
    data.write_to_buf(out).map_err(|e| match e {
        obj::ObjError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    })
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
                "g a",
                "f 1 2 3",
                "o b",
                "g b",
                "f 1 3 4"
            ]
        );
    }
}
