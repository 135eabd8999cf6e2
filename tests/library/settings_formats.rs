//! Settings read back from every format that writes them: TOML and JSON
//! files, and RON, the format of the window's saved session (eframe's
//! storage), where a fixed array is a tuple `(x, y, z)`. A reader that
//! took only lists once emptied every saved session of its probes.

use collidoscope::collide::SlideSettings;

#[test]
fn settings_round_trip_through_ron_as_the_window_saves_them() {
    let s = SlideSettings {
        radii: [0.3, 0.8, 0.35],
        gravity: [0.0, -0.5, 0.0],
        ..SlideSettings::default()
    };
    let text = ron::to_string(&s).unwrap();
    assert!(text.contains("radii:(0.3,0.8,0.35)"), "{text}");
    let back: SlideSettings = ron::from_str(&text).unwrap();
    assert_eq!(back, s);
    // A session written by hand (as CI's window smoke test writes one).
    let short: SlideSettings = ron::from_str("(format_version:1,radii:(0.4,0.9,0.4))").unwrap();
    assert_eq!(short.radii, [0.4, 0.9, 0.4]);
    // Three numbers exactly, in RON as in the files.
    let four = ron::from_str::<SlideSettings>("(format_version:1,radii:(0.4,0.9,0.4,1.0))");
    assert!(
        four.unwrap_err()
            .to_string()
            .contains("expected exactly three numbers"),
    );
}

/// A shape other than the ellipsoid round-trips through TOML, JSON and
/// RON; settings without one (every file written before shapes) load as
/// the ellipsoid and are written back without a `shape` entry.
#[test]
fn shapes_round_trip_and_files_without_one_stay_the_ellipsoid() {
    use collidoscope::geometry::shape::CharacterShape;
    use collidoscope::settings_file::{SettingsFormat, parse, to_text};
    use std::path::Path;
    let shapes = [
        CharacterShape::Capsule {
            radius_m: 0.4,
            height_m: 1.8,
        },
        CharacterShape::Sphere { radius_m: 0.5 },
        CharacterShape::Cylinder {
            radius_m: 0.35,
            height_m: 1.7,
        },
        CharacterShape::Box {
            half_extents_m: [0.3, 0.9, 0.25],
        },
    ];
    for shape in shapes {
        let s = SlideSettings {
            shape,
            ..SlideSettings::default()
        };
        for name in ["s.toml", "s.json"] {
            let path = Path::new(name);
            let text = to_text(&s, path).unwrap();
            assert!(text.contains(shape.name()), "{text}");
            let back = parse(&text, SettingsFormat::of_path(path).unwrap(), path).unwrap();
            assert_eq!(back, s, "{text}");
        }
        let text = ron::to_string(&s).unwrap();
        let back: SlideSettings = ron::from_str(&text).unwrap();
        assert_eq!(back, s, "{text}");
    }
    let toml = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n";
    let old = parse(toml, SettingsFormat::Toml, Path::new("old.toml")).unwrap();
    assert_eq!(old.shape, CharacterShape::Ellipsoid);
    let written = to_text(&old, Path::new("old.toml")).unwrap();
    assert!(!written.contains("shape"), "{written}");
    // A capsule shorter than it is wide, refused with its numbers.
    let bad = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n\n[shape]\nkind = \"capsule\"\nradius_m = 0.4\nheight_m = 0.6\n";
    let e = parse(bad, SettingsFormat::Toml, Path::new("bad.toml"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("height_m 0.6") && e.contains("0.8 m"), "{e}");
    // An unknown field of a shape is refused, as everywhere in the file.
    let typo =
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n\n[shape]\nkind = \"sphere\"\nradius = 0.4\n";
    assert!(parse(typo, SettingsFormat::Toml, Path::new("typo.toml")).is_err());
}
