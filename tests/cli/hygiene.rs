//! `collidoscope info --hygiene` on the box fixture (a 10 m floor quad and
//! a wall standing on it, each an open sheet): the text lines and the
//! `hygiene` JSON object, with the counts and items the fixture holds.

use crate::support::*;

#[test]
fn info_hygiene_text_has_a_line_per_kind() {
    let r = run(&["info", &fixture("cli_box.obj"), "--hygiene"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = &r.stdout;
    assert!(
        out.contains("hygiene    10 faults, 8 welded vertices"),
        "{out}"
    );
    // The wall's bottom corners sit on the floor's open front and back edges.
    let t = out.lines().find(|l| l.contains("t_junction")).unwrap();
    assert!(
        t.contains(" 2  (3.0000, 0.0000, -5.0000) tris 0,2,3"),
        "{t}"
    );
    for (kind, count) in [
        ("open_edge", 8),
        ("non_manifold_edge", 0),
        ("coplanar_edge", 2),
    ] {
        let line = out.lines().find(|l| l.contains(kind)).unwrap();
        let n: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(n, count, "{line}");
    }
    // Without the flag there is no hygiene section.
    let plain = run(&["info", &fixture("cli_box.obj")]);
    assert!(
        !plain.stdout.contains("welded vertices"),
        "{}",
        plain.stdout
    );
}

#[test]
fn info_hygiene_json_lists_every_kind_with_items() {
    let v = json(&run(&[
        "info",
        &fixture("cli_box.obj"),
        "--hygiene",
        "--json",
    ]));
    let h = &v["hygiene"];
    assert_eq!(h["faults"], 10);
    assert_eq!(h["welded_vertices"], 8);
    assert_eq!(h["options"]["near_miss_m"], 0.001);
    let kinds = h["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), 8);
    let kind = |name: &str| kinds.iter().find(|k| k["kind"] == name).unwrap();
    let open = kind("open_edge");
    assert_eq!(
        (open["count"].as_u64(), open["fault"].as_bool()),
        (Some(8), Some(true))
    );
    assert_eq!(open["truncated"], false);
    assert_eq!(open["items"].as_array().unwrap().len(), 8);
    let t = &kind("t_junction")["items"][0];
    assert_eq!(t["kind"], "t_junction");
    assert_eq!(vec3(&t["position"]), [3.0, 0.0, -5.0]);
    assert_eq!(t["triangles"], serde_json::json!([0, 2, 3]));
    assert_eq!(t["size"], 0.0);
    let coplanar = kind("coplanar_edge");
    assert_eq!(
        (coplanar["count"].as_u64(), coplanar["fault"].as_bool()),
        (Some(2), Some(false))
    );
    // Without the flag the key is absent.
    let plain = json(&run(&["info", &fixture("cli_box.obj"), "--json"]));
    assert!(plain.get("hygiene").is_none());
}
