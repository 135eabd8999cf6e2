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
