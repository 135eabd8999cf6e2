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
    assert_eq!(kinds.len(), 10);
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

#[test]
fn info_warns_in_one_line_when_the_level_is_wound_against_its_normals() {
    let dir = scratch("winding_warning");
    // A floor quad whose normal says up: wound counter-clockwise seen from
    // above (1 4 3 2), or the other way round.
    let quad = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nvn 0 1 0\n";
    let good = dir.join("good.obj");
    let bad = dir.join("bad.obj");
    std::fs::write(&good, format!("{quad}f 1//1 4//1 3//1 2//1\n")).unwrap();
    std::fs::write(&bad, format!("{quad}f 1//1 2//1 3//1 4//1\n")).unwrap();
    let r = run(&["info", &bad.display().to_string()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let warnings: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("wound against"))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning    the level is wound against its vn normals: 2 of 2 triangles with \
          normals (100 %): default (2 of 2) (collision sees the back of these faces; \
          --hygiene lists them)"
        ],
        "{}",
        r.stdout
    );
    let ok = run(&["info", &good.display().to_string()]);
    assert!(!ok.stdout.contains("wound against"), "{}", ok.stdout);
    // --hygiene lists the object; the JSON counts the faces.
    let r = run(&["info", &bad.display().to_string(), "--hygiene"]);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("  wound_against_normals"))
        .unwrap();
    assert!(
        line.contains(" 1  (") && line.contains(") object default (2 of 2 triangles) size 1.0000"),
        "{line}"
    );
    let v = json(&run(&[
        "info",
        &bad.display().to_string(),
        "--json",
        "--hygiene",
    ]));
    assert_eq!(v["import_report"]["faces_against_normals"], 1);
    let item = &v["hygiene"]["kinds"][3]["items"][0];
    assert_eq!(item["kind"], "wound_against_normals");
    assert_eq!(item["object"]["name"], "default");
    assert_eq!(item["triangles"], serde_json::json!([0, 1]));
}
