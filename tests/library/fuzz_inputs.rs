//! Fuzz-style tests of the two parsers that read users' files: the OBJ
//! importer and the settings reader. Random bytes and mutations of the
//! fixtures (flipped bytes, spliced tokens, cut lines, repeated lines) must
//! never panic; what imports is finite and consistent, and every error is
//! one short message. Bounded in time for CI (`PROPTEST_CASES` runs them
//! longer, see the README).

use crate::common::proptest_cases;
use collidoscope::collide::SlideSettings;
use collidoscope::level::ImportOptions;
use collidoscope::level::import::import_obj_bytes;
use collidoscope::settings_file::{self, SettingsFormat};
use proptest::prelude::*;
use std::path::Path;

/// Longest error message accepted: a file and line, a short quote, a hint.
const MAX_MESSAGE: usize = 400;

const OBJ_FIXTURES: [&str; 8] = [
    "cli_box.obj",
    "concave_ngons.obj",
    "face_forms.obj",
    "groups.obj",
    "materials.obj",
    "negative_indices.obj",
    "warnings.obj",
    "ghost_crest.obj",
];

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read(path).expect("fixture")
}

/// Tokens that OBJ parsers trip on, spliced into real files.
const TOKENS: [&str; 16] = [
    "f",
    "v",
    "vt",
    "vn",
    "o",
    "g",
    "usemtl",
    "-1",
    "0",
    "1e400",
    "nan",
    "/",
    "//",
    "\r",
    "\n",
    "99999999999999999999",
];

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Splice(usize, usize),
    Cut(usize),
    Repeat(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(i, t)| Mutation::Splice(i, t)),
        any::<usize>().prop_map(Mutation::Cut),
        (any::<usize>(), 1..50usize).prop_map(|(i, n)| Mutation::Repeat(i, n)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let n = bytes.len().max(1);
        match *m {
            Mutation::Flip(i, b) if !bytes.is_empty() => bytes[i % n] = b,
            Mutation::Splice(i, t) => {
                let at = i % (bytes.len() + 1);
                let token = format!(" {} ", TOKENS[t]);
                bytes.splice(at..at, token.bytes());
            }
            Mutation::Cut(i) => bytes.truncate(i % (bytes.len() + 1)),
            Mutation::Repeat(i, times) if !bytes.is_empty() => {
                // Repeat the line holding byte i.
                let at = i % n;
                let start = bytes[..at]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1);
                let end = bytes[at..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(bytes.len(), |p| at + p + 1);
                let line = bytes[start..end].to_vec();
                for _ in 0..times {
                    bytes.splice(end..end, line.iter().copied());
                }
            }
            _ => {}
        }
    }
    bytes
}

/// Imports `bytes` and checks whatever comes out.
fn check_import(bytes: &[u8]) -> Result<(), TestCaseError> {
    let options = ImportOptions::default();
    match import_obj_bytes(bytes, Path::new("fuzz.obj"), &options) {
        Ok((mesh, report)) => {
            prop_assert!(mesh.positions().iter().all(|p| p.is_finite()));
            let n = mesh.positions().len() as u32;
            prop_assert!(mesh.triangles().iter().flatten().all(|&i| i < n));
            prop_assert_eq!(mesh.triangle_count(), report.triangles);
            let tiled: u32 = mesh.objects().iter().map(|o| o.triangle_count).sum();
            prop_assert_eq!(tiled as usize, mesh.triangle_count());
        }
        Err(e) => {
            let message = e.to_string();
            prop_assert!(
                message.len() <= MAX_MESSAGE,
                "{} bytes: {message:.200}",
                message.len()
            );
            prop_assert!(message.starts_with("fuzz.obj"), "{message:.200}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(2000), ..ProptestConfig::default() })]

    #[test]
    fn mutated_fixtures_import_or_fail_with_one_short_message(
        which in 0..OBJ_FIXTURES.len(),
        mutations in proptest::collection::vec(mutation(), 1..8),
    ) {
        check_import(&mutate(fixture(OBJ_FIXTURES[which]), &mutations))?;
    }

    #[test]
    fn random_bytes_import_or_fail_with_one_short_message(
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        check_import(&bytes)?;
    }

    #[test]
    fn mutated_settings_load_valid_or_fail_with_one_short_message(
        json in any::<bool>(),
        engine in 0usize..8,
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let path = Path::new(if json { "fuzz.json" } else { "fuzz.toml" });
        let mut text = settings_file::to_text(&SlideSettings::default(), path).expect("defaults serialise");
        // Most files also give an engine's settings in its own names.
        let tables = [
            ("unity", "stepOffset = 0.3\nslopeLimit = 40"),
            ("jolt", "mWalkStairsStepUp = [0.0, 0.4, 0.0]\nmBackFaceMode = \"IgnoreBackFaces\""),
            ("rapier", "offset = 0.01\nautostep = { max_height = 0.3, min_width = 0.1 }"),
            ("godot", "floor_max_angle = 0.7\nmax_slides = 4"),
            ("unreal", "MaxStepHeight = 40\nGravityScale = 1.5"),
            ("physx", "slopeLimit = 0.7\ncontactOffset = 0.01"),
        ];
        if let Some((name, body)) = tables.get(engine) {
            // The engine's names stand for Collidoscope's: a file gives one or the other.
            text = if json {
                "{\"format_version\": 1, \"radii\": [0.4, 0.9, 0.4]}".to_string()
            } else {
                "format_version = 1\nradii = [0.4, 0.9, 0.4]\n".to_string()
            };
            if json {
                let members: Vec<String> = body
                    .lines()
                    .map(|l| {
                        let (k, v) = l.split_once(" = ").unwrap();
                        let v = v.replace("{ max_height = 0.3, min_width = 0.1 }", "{\"max_height\": 0.3, \"min_width\": 0.1}");
                        format!("\"{k}\": {v}")
                    })
                    .collect();
                text = text.replacen('{', &format!("{{\n  \"{name}\": {{{}}},", members.join(", ")), 1);
            } else {
                text.push_str(&format!("\n[{name}]\n{body}\n"));
            }
        }
        let format = if json { SettingsFormat::Json } else { SettingsFormat::Toml };
        let unmutated = settings_file::parse(&text, format, path);
        prop_assert!(unmutated.is_ok(), "{unmutated:?}\n{text}");
        let bytes = mutate(text.into_bytes(), &mutations);
        let text = String::from_utf8_lossy(&bytes);
        match settings_file::parse(&text, format, path) {
            Ok(s) => prop_assert!(s.validate().is_ok(), "{s:?}"),
            Err(e) => {
                let message = e.to_string();
                prop_assert!(message.len() <= MAX_MESSAGE, "{} bytes: {message:.200}", message.len());
            }
        }
    }
}
