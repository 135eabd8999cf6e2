//! The chunked parse against the one-chunk parse: the same result or the
//! same error, whatever the chunk size, on files whose chunks cut them where
//! it hurts (relative indices, names, warnings, continuations, errors).

use super::*;
use crate::level::import::{ImportOptions, ImportWarning};
use proptest::prelude::*;
use std::path::Path;

/// Everything a parse gives, comparable (positions as bits).
#[derive(Debug, PartialEq)]
struct Seen {
    positions: Vec<[u32; 3]>,
    corners: Vec<u32>,
    face_starts: Vec<u32>,
    face_lines: Vec<u32>,
    normals: Vec<[u32; 3]>,
    corner_normals: Vec<u32>,
    runs: Vec<(u32, u32)>,
    object_names: Vec<String>,
    ignored: [usize; 3],
    warnings: Vec<ImportWarning>,
}

fn seen(p: Parsed) -> Seen {
    Seen {
        positions: p
            .positions
            .iter()
            .map(|v| v.to_array().map(f32::to_bits))
            .collect(),
        corners: p.corners,
        face_starts: p.face_starts,
        face_lines: p.face_lines,
        normals: p
            .normals
            .iter()
            .map(|v| v.to_array().map(f32::to_bits))
            .collect(),
        corner_normals: p.corner_normals,
        runs: p.runs.iter().map(|r| (r.object, r.first_face)).collect(),
        object_names: p.object_names,
        ignored: [
            p.lines_ignored,
            p.points_ignored,
            p.material_statements_ignored,
        ],
        warnings: p.warnings.finish(),
    }
}

/// Parses in chunks of `chunk_len` bytes, checking the progress reports.
fn parse_in(text: &[u8], chunk_len: usize) -> Result<Seen, String> {
    let options = ImportOptions::default();
    let ctx = Ctx {
        path: Path::new("c.obj"),
        options: &options,
    };
    let calls = Mutex::new(Vec::new());
    let parsed = parse(text, &ctx, &|f| calls.lock().unwrap().push(f), chunk_len);
    let calls = calls.into_inner().unwrap();
    assert!(calls.windows(2).all(|w| w[0] < w[1]), "{calls:?}");
    assert!(calls.iter().all(|f| (0.0..1.0).contains(f)), "{calls:?}");
    parsed.map(seen).map_err(|e| e.to_string())
}

/// Every chunk size from one line per chunk up: the same as one chunk.
fn assert_chunking_changes_nothing(text: &str) -> Result<Seen, String> {
    let text = text.as_bytes();
    assert!(
        chunk_bounds(text, 1).len() > 3,
        "the text must make several chunks"
    );
    let whole = parse_in(text, usize::MAX);
    for chunk_len in (1..=text.len().min(80)).chain([text.len() / 3, 1000]) {
        let chunked = parse_in(text, chunk_len);
        assert_eq!(
            chunked,
            whole,
            "chunks of {chunk_len} bytes, {:?}:\n{}",
            chunk_bounds(text, chunk_len),
            String::from_utf8_lossy(text)
        );
    }
    whole
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

#[test]
fn chunks_end_after_statements_only() {
    let text = b"v 1 \\\n2 3\nf 1 2 \\\r\n 3 \\\n  4\n# C:\\\nv 0 0 0\n";
    // One line per chunk, except that continued lines stay together.
    assert_eq!(chunk_bounds(text, 1), [0, 10, 28, 34, 42]);
    assert_eq!(chunk_bounds(text, 20), [0, 28, 42]);
    assert_eq!(chunk_bounds(text, 1000), [0, 42]);
    assert_eq!(chunk_bounds(b"v 1 2 \\", 1), [0, 7]);
    assert_eq!(chunk_bounds(b"", 1), [0, 0]);
}

#[test]
fn relative_indices_reach_across_chunks() {
    let text = format!(
        "{TRIANGLE}vt 0 0\nvn 0 0 1\no first\nf -3/-1/-1 -2//-1 -1\nv 0 0 1\nvt 1 1\n\
         f -4 -3 -1/-2\n\n\nf 1/1/1 2/2/1 4/-1/-1\nvn 1 0 0\nf -2//-2 -1//-1 -3//-1\n"
    );
    let p = assert_chunking_changes_nothing(&text).unwrap();
    assert_eq!(p.corners, [0, 1, 2, 0, 1, 3, 0, 1, 3, 2, 3, 1]);
    assert_eq!(p.face_lines, [7, 10, 13, 15]);
    // Normal indices too, kept for the winding check (N: none).
    const N: u32 = NO_NORMAL;
    assert_eq!(p.corner_normals, [0, 0, N, N, N, N, 0, 0, 0, 0, 1, 1]);
    assert_eq!(p.normals.len(), 2);
}

#[test]
fn names_span_chunks() {
    let text = format!(
        "{TRIANGLE}f 1 2 3\ng a\ng b\nv 0 0 1\ng c\nf 1 2 3\no  Crate 1 \nf 1 2 3\ng lid\n\
         f 1 2 3\ng\ng  \nf 1 2 3\no\ng walls\nf 1 2 3\ng floor\nf 1 2 3\nf 1 2 4\n\
         g walls\nf 1 2 3\no first\ng c\nf 1 2 3\ng trailing\n"
    );
    let p = assert_chunking_changes_nothing(&text).unwrap();
    assert_eq!(
        p.object_names,
        [
            "default",
            "c",
            "Crate 1",
            "Crate 1/lid",
            "walls",
            "floor",
            "first/c"
        ]
    );
    assert_eq!(
        p.runs,
        [
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (2, 4),
            (4, 5),
            (5, 6),
            (4, 8),
            (6, 9)
        ]
    );
}

#[test]
fn warnings_keep_file_order_and_the_cap() {
    let mut text = String::from(TRIANGLE);
    for i in 0..130 {
        let keyword = ["curv 1", "surf 2", "bmat u"][i % 3];
        text.push_str(&format!(
            "{keyword}\nf 1/{} 2 3//{}\n",
            i % 7 + 1,
            i % 5 + 1
        ));
    }
    text.push_str("f 1/7 2 3\nf 1 2 3//9\nl 1 2\np 1\nusemtl x\n");
    let p = assert_chunking_changes_nothing(&text).unwrap();
    // 50 of 130 ignored statements listed (lines 4, 6, ..., 102), and the
    // dangling indices on the first line using the largest: the first
    // `1/7` (line 17, not 264) and the `3//9` (line 265); sorted by line.
    assert_eq!(p.warnings.len(), 53);
    let w = |i: usize| (p.warnings[i].line, p.warnings[i].message.as_str());
    assert_eq!(
        w(0),
        (Some(4), "statement `curv` ignored (not polygonal geometry)")
    );
    assert_eq!(w(7).0, Some(17));
    assert!(w(7).1.starts_with("texture index 7 refers past"));
    assert_eq!(w(50).0, Some(102));
    assert_eq!(w(51).0, Some(265));
    assert!(w(51).1.starts_with("normal index 9 refers past"));
    assert_eq!(
        w(52),
        (
            None,
            "80 more ignored statement warnings not listed (130 in all)"
        )
    );
    assert_eq!(p.ignored, [1, 1, 1]);
}

#[test]
fn continued_lines_and_line_endings() {
    let text = "v 0 0 0\r\nv 1 0 \\\n 0\nv 0 1 0\nv 1 1 0\r\n# C:\\models\\\n\
                f 1 2 \\\r\n 3 \\\n  4\nf 1 2 3\nf -1 -2 \\\n -3";
    let p = assert_chunking_changes_nothing(text).unwrap();
    assert_eq!(p.face_lines, [7, 10, 11]);
    assert_chunking_changes_nothing("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 \\\n 2 \\")
        .unwrap_err();
}

#[test]
fn the_first_error_in_file_order_wins() {
    let cases = [
        // A relative index reaching above the file, after a few chunks...
        (
            format!("{TRIANGLE}f 1 2 3\nf -1 -2 -3\nf -4 1 2\nf 1 2\n"),
            "c.obj:6: relative vertex index -4 reaches before the first `v` (only 3 defined above this line)",
        ),
        // ... on the same line as a later problem...
        (
            format!("{TRIANGLE}vt 0 0\n\nf 1/1 2/-2 x\n"),
            "c.obj:6: relative texture index -2 reaches before the first `vt` (only 1 defined above this line)",
        ),
        // ... which wins when the index is fine...
        (
            format!("{TRIANGLE}vn 0 0 1\n\nf 1//-1 2 -3/x\n"),
            "c.obj:6: bad texture index `x`",
        ),
        // ... and loses to an error in an earlier chunk.
        (
            format!("{TRIANGLE}v 1 2\nf -1 -2 -9\n"),
            "c.obj:4: `v` needs 3 coordinates, found 2",
        ),
        (
            format!("f -1 1 1\n{TRIANGLE}"),
            "c.obj:1: relative vertex index -1 reaches before the first `v` (only 0 defined above this line)",
        ),
        (
            format!("{TRIANGLE}f 1//-2 2 3\nvn 0 0 1\nf 1//-2 2 3\n"),
            "c.obj:4: relative normal index -2 reaches before the first `vn` (only 0 defined above this line)",
        ),
        (
            format!("{TRIANGLE}f 1 2 3\n\nf 1 2"),
            "c.obj:6: face with 2 corners (a face needs at least 3) (the file ends in the middle of this line: truncated?)",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(assert_chunking_changes_nothing(&text).unwrap_err(), error);
    }
}

#[test]
fn fixtures_parse_the_same_in_any_chunks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "obj") {
            let text = std::fs::read(&path).unwrap();
            let whole = parse_in(&text, usize::MAX);
            for chunk_len in [1, 2, 3, 5, 8, 13, 21, 34, 55, 89] {
                assert_eq!(parse_in(&text, chunk_len), whole, "{}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} fixtures");
}

/// The shared levels (when present), cut into chunks of odd sizes.
#[test]
fn real_levels_parse_the_same_in_small_chunks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/levels");
    for name in ["galleria_map.obj", "sibenik_dabrovic_75k.obj.gz"] {
        let Ok(raw) = std::fs::read(dir.join(name)) else {
            continue;
        };
        let options = ImportOptions::default();
        let ctx = Ctx {
            path: Path::new(name),
            options: &options,
        };
        let text = if crate::level::import::decode::is_gzip(&raw) {
            crate::level::import::decode::gunzip(&raw, &ctx, &|_| {}).unwrap()
        } else {
            raw
        };
        let whole = parse_in(&text, usize::MAX).unwrap();
        for chunk_len in [4097, 65_521] {
            assert!(parse_in(&text, chunk_len).unwrap() == whole, "{name}");
        }
    }
}

/// Pieces of OBJ files: statements good and bad, relative indices, names,
/// continuations, blank lines.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "v 0 0 0\n",
        "v 1 0 0\n",
        "v 0 1 0\n",
        "v 0 0 1\r\n",
        "vt 0 0\n",
        "vn 0 0 1\n",
        "f 1 2 3\n",
        "f 1 2 3 4\n",
        "f -1 -2 -3\n",
        "f -3/-1/-1 -2//-1 -1\n",
        "f 1/-2 2/1 3/-1\n",
        "f 1//-2 2//1 3//1\n",
        "f 1/4 2/1 3/9\n",
        "f 1//3 2//1 3//3\n",
        "f 2 -1 \\\n 1\n",
        "g a\n",
        "g b\n",
        "o c\n",
        "o\n",
        "g\n",
        "l 1 2\n",
        "p 1\n",
        "usemtl m\n",
        "curv 1\n",
        "# C:\\x\\\n",
        "\n",
        "\r\n",
        "f 1 2\n",
        "f 0 1 2\n",
        "v 1 nan 0\n",
        "f 1 2 x\n",
        "v 0 0 \\\n",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_files_parse_the_same_in_any_chunks(
        pieces in prop::collection::vec(piece(), 0..40),
        chunk_len in 1usize..60,
        cut_last in any::<bool>(),
    ) {
        let mut text = pieces.concat();
        if cut_last {
            text.pop();
        }
        prop_assert_eq!(parse_in(text.as_bytes(), chunk_len), parse_in(text.as_bytes(), usize::MAX));
    }
}
