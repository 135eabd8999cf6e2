//! `vn` normals against the faces' winding: counted per face, kept per
//! triangle in the mesh's order, nothing kept for a file without normals.

use super::*;

/// A unit quad in z = 0, counter-clockwise seen from +z, and one normal.
fn quad(normal: &str, corners: &str) -> String {
    format!("{SQUARE}vn {normal}\n{corners}")
}

#[test]
fn normals_along_the_winding_agree() {
    let (mesh, report) = import(&quad("0 0 1", "f 1//1 2//1 3//1 4//1\n")).unwrap();
    assert_eq!(mesh.triangle_count(), 2);
    assert_eq!(
        (report.faces_with_normals, report.faces_against_normals),
        (1, 0)
    );
    assert_eq!(report.triangle_normals, [NormalAgreement::Agrees; 2]);
}

#[test]
fn normals_opposite_the_winding_are_against() {
    let (_, report) = import(&quad("0 0 -1", "f 1//1 2//1 3//1 4//1\n")).unwrap();
    assert_eq!(
        (report.faces_with_normals, report.faces_against_normals),
        (1, 1)
    );
    assert_eq!(report.triangle_normals, [NormalAgreement::Against; 2]);
    // The JSON has the counts, not the per-triangle list.
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["faces_against_normals"], 1);
    assert!(json.get("triangle_normals").is_none());
}

#[test]
fn faces_without_a_normal_at_every_corner_are_unknown() {
    // A face with no normals, one with a corner missing its normal, one
    // with a dangling normal index, then one that agrees; the first face
    // (before any normal index) is filled in.
    let text =
        format!("{SQUARE}vn 0 0 1\nf 1 2 3\nf 1//1 3//1 4\nf 2//1 3//1 4//9\nf 1//1 2//1 4//1\n");
    let (mesh, report) = import(&text).unwrap();
    assert_eq!(mesh.triangle_count(), 4);
    assert_eq!(
        (report.faces_with_normals, report.faces_against_normals),
        (1, 0)
    );
    use NormalAgreement::*;
    assert_eq!(report.triangle_normals, [Unknown, Unknown, Unknown, Agrees]);
}

#[test]
fn a_file_without_normals_keeps_nothing() {
    let (_, report) = import(&format!("{SQUARE}f 1 2 3 4\n")).unwrap();
    assert!(report.triangle_normals.is_empty());
    assert_eq!(report.faces_with_normals, 0);
}

#[test]
fn normals_follow_their_triangles_into_object_order() {
    // Group a is reopened after b: a's triangles come first in the mesh.
    let text = format!(
        "{SQUARE}vn 0 0 1\nvn 0 0 -1\ng a\nf 1//1 2//1 3//1\ng b\nf 2//2 3//2 4//2\n\
         g a\nf 1//2 3//2 4//2\n"
    );
    let (mesh, report) = import(&text).unwrap();
    assert_eq!(mesh.objects[0].name, "a");
    use NormalAgreement::*;
    assert_eq!(report.triangle_normals, [Agrees, Against, Against]);
    assert_eq!(report.faces_against_normals, 2);
}

#[test]
fn z_up_turns_normals_with_the_positions() {
    // Faces along +z in a Z-up file face +y in the world: still agreeing.
    let options = ImportOptions {
        up: UpAxis::Z,
        ..ImportOptions::default()
    };
    let text = quad("0 0 1", "f 1//1 2//1 3//1 4//1\n");
    let (_, report) = import_obj_bytes(text.as_bytes(), Path::new("z.obj"), &options).unwrap();
    assert_eq!(report.triangle_normals, [NormalAgreement::Agrees; 2]);
}
