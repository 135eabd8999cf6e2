//! Reading each engine's output back: the defaults and random tuned
//! settings come back as they were (within the 32-bit precision the
//! engines' numbers have), clamped values come back clamped, hand edits
//! are read, and bad files get a one-line error naming the line.

use super::import::lexing;
use super::*;

fn text(engine: Engine, s: &SlideSettings) -> String {
    export(engine, s)
        .unwrap_or_else(|e| panic!("{engine}: {e}"))
        .text
}

fn back(engine: Engine, s: &SlideSettings) -> EngineImport {
    let t = text(engine, s);
    import(engine, &t).unwrap_or_else(|e| panic!("{engine}: {e}\n{t}"))
}

fn err(engine: Engine, t: &str) -> String {
    match import(engine, t) {
        Ok(i) => panic!("{engine}: read {:?} from\n{t}", i.settings),
        Err(e) => e.to_string(),
    }
}

/// The settings that make up the character, by name. Compared one by one
/// (not the whole struct), so that a setting added later that the import
/// sets on its own (the engine profile) does not break these tests.
fn fields(s: &SlideSettings) -> [(&'static str, f64); 21] {
    let c = &s.character;
    [
        ("radii.x", s.radii[0]),
        ("radii.y", s.radii[1]),
        ("radii.z", s.radii[2]),
        ("skin", s.skin),
        ("max_iterations", f64::from(s.max_iterations)),
        ("min_move", s.min_move),
        ("two_sided", f64::from(u8::from(s.two_sided))),
        ("self_checks", f64::from(u8::from(s.self_checks))),
        ("ghost_edge_angle_deg", s.ghost_edge_angle_deg),
        ("gravity.y", s.gravity[1]),
        ("walk_speed_m_s", c.walk_speed_m_s),
        ("frame_rate_hz", c.frame_rate_hz),
        ("gravity_m_s2", c.gravity_m_s2),
        ("jump_speed_m_s", c.jump_speed_m_s),
        ("max_step_height_m", c.max_step_height_m),
        ("min_tread_depth_m", c.min_tread_depth_m),
        ("max_slope_deg", c.max_slope_deg),
        ("snap_distance_m", c.snap_distance_m),
        ("max_fall_speed_m_s", c.max_fall_speed_m_s),
        ("perch_radius_threshold_m", c.perch_radius_threshold_m),
        ("perch_additional_height_m", c.perch_additional_height_m),
    ]
}

#[test]
fn the_defaults_come_back_exactly_from_every_engine() {
    let d = SlideSettings::default();
    for engine in Engine::ALL {
        let i = back(engine, &d);
        assert_eq!(i.engine, engine);
        assert!(i.warnings.is_empty(), "{engine}: {:?}", i.warnings);
        assert_eq!(fields(&i.settings), fields(&d), "{engine}");
        assert_eq!(i.settings.mode, d.mode);
        assert_eq!(i.settings.shape, d.shape);
        // Read back from an engine, the character follows its profile.
        assert_eq!(i.settings.character.engine, engine.profile());
    }
}

#[test]
fn each_engine_lists_what_it_cannot_give_back() {
    let not_read = |engine| back(engine, &SlideSettings::default()).not_read.join("; ");
    let cases: [(Engine, &[&str], &[&str]); 6] = [
        (
            Engine::Rapier,
            &[
                "max_iterations = 5",
                "min_move = 0.0001",
                "two_sided = true",
            ],
            &["skin", "max_step_height_m", "snap_distance_m"],
        ),
        (
            Engine::Jolt,
            &["min_move = 0.0001", "mode = robust"],
            &["two_sided", "skin", "min_tread_depth_m"],
        ),
        (
            Engine::Physx,
            &[
                "max_iterations = 5",
                "min_tread_depth_m = 0.02",
                "snap_distance_m = 0.1",
            ],
            &["min_move", "skin"],
        ),
        (
            Engine::Godot,
            &[
                "max_step_height_m = 0.3",
                "min_tread_depth_m = 0.02",
                "min_move = 0.0001",
            ],
            &["skin", "snap_distance_m", "frame_rate_hz"],
        ),
        (
            Engine::Unity,
            &[
                "max_iterations = 5",
                "min_tread_depth_m = 0.02",
                "snap_distance_m = 0.1",
            ],
            &["min_move", "frame_rate_hz"],
        ),
        (
            Engine::Unreal,
            &[
                "skin = 0.005",
                "max_iterations = 5",
                "min_move = 0.0001",
                "self_checks = true",
                "ghost_edge_angle_deg",
                "gravity = [0.0, 0.0, 0.0]",
            ],
            &["frame_rate_hz", "max_fall_speed_m_s", "max_step_height_m"],
        ),
    ];
    for (engine, listed, read) in cases {
        let list = not_read(engine);
        for l in listed {
            assert!(list.contains(l), "{engine}: {l:?} not in {list}");
        }
        for r in read {
            assert!(!list.contains(r), "{engine}: {r:?} read, yet in {list}");
        }
    }
}

/// splitmix64: a seeded stream of random settings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Log-uniform in [lo, hi).
    fn scale(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// 0 with chance `p`, else `x` drawn from the stream.
    fn or_zero(&mut self, p: f64, x: impl FnOnce(&mut Rng) -> f64) -> f64 {
        if self.chance(p) { 0.0 } else { x(self) }
    }
}

/// Valid settings with every field tuned: now and then unequal horizontal
/// radii, a squat ellipsoid, zero skin, step, snap or speeds, a step
/// taller than the character, a fractional frame rate.
fn random_settings(rng: &mut Rng) -> SlideSettings {
    let r = rng.scale(0.01, 5.0);
    let y = if rng.chance(0.15) {
        r * rng.between(0.3, 1.0)
    } else {
        r * rng.between(1.0, 4.0)
    };
    let z = if rng.chance(0.25) {
        r * rng.between(0.5, 1.0)
    } else {
        r
    };
    let (x, z) = if rng.chance(0.5) { (r, z) } else { (z, r) };
    let smallest = x.min(y).min(z);
    // PhysX writes a zero skin as its default 0.1 m contact offset, which
    // must stay under the smallest radius to be read back.
    let skin = if smallest > 0.15 && rng.chance(0.1) {
        0.0
    } else {
        rng.scale(1e-4, 0.2 * smallest)
    };
    let mut s = SlideSettings {
        radii: [x, y, z],
        skin,
        max_iterations: 1 + (rng.next() % 50) as u32,
        min_move: rng.or_zero(0.1, |r| r.scale(1e-6, 1e-2)),
        two_sided: rng.chance(0.5),
        ..SlideSettings::default()
    };
    let c = &mut s.character;
    c.walk_speed_m_s = rng.or_zero(0.05, |r| r.between(0.0, 20.0));
    c.jump_speed_m_s = rng.or_zero(0.05, |r| r.between(0.0, 15.0));
    c.gravity_m_s2 = rng.or_zero(0.05, |r| r.between(0.0, 30.0));
    c.max_step_height_m = rng.or_zero(0.15, |r| r.scale(1e-3, 2.0 * y));
    c.min_tread_depth_m = rng.or_zero(0.1, |r| r.scale(1e-4, 0.2));
    c.max_slope_deg = rng.or_zero(0.05, |r| r.between(0.0, 89.5));
    c.snap_distance_m = rng.or_zero(0.15, |r| r.scale(1e-3, 0.5));
    c.max_fall_speed_m_s = rng.between(0.5, 100.0);
    c.perch_radius_threshold_m = rng.or_zero(0.5, |r| r.scale(1e-3, x.max(z)));
    c.perch_additional_height_m = rng.or_zero(0.1, |r| r.scale(1e-3, 2.0 * y));
    c.frame_rate_hz = if rng.chance(0.5) {
        (1 + rng.next() % 240) as f64
    } else {
        rng.between(1.0, 1000.0)
    };
    s.validate().expect("random settings are valid");
    s
}

/// What reading `engine`'s export of `s` gives, as documented: the capsule's
/// radius for both horizontal radii and its half height (never under the
/// radius; PhysX's shortest, 0.5 mm over it) for the vertical one; values
/// the export clamps, clamped; what the engine has no setting for, the
/// default.
fn expected(engine: Engine, s: &SlideSettings) -> SlideSettings {
    let mut e = SlideSettings::default();
    let cap = Capsule::from_radii(s.radii);
    let r = cap.radius_m;
    let y = s.radii[1];
    let y_back = match engine {
        Engine::Physx if y <= r => r + 0.0005,
        _ => y.max(r),
    };
    e.radii = [r, y_back, r];
    let (c, ec) = (&s.character, &mut e.character);
    ec.max_slope_deg = c.max_slope_deg;
    ec.walk_speed_m_s = c.walk_speed_m_s;
    ec.jump_speed_m_s = c.jump_speed_m_s;
    ec.gravity_m_s2 = c.gravity_m_s2;
    ec.max_fall_speed_m_s = c.max_fall_speed_m_s;
    ec.frame_rate_hz = c.frame_rate_hz;
    match engine {
        Engine::Rapier => {
            if s.skin > 0.0 {
                e.skin = s.skin;
            }
            ec.max_step_height_m = c.max_step_height_m;
            if c.max_step_height_m > 0.0 {
                ec.min_tread_depth_m = c.min_tread_depth_m;
            }
            ec.snap_distance_m = c.snap_distance_m;
        }
        Engine::Jolt => {
            e.skin = s.skin;
            e.max_iterations = s.max_iterations;
            e.two_sided = s.two_sided;
            ec.max_step_height_m = c.max_step_height_m;
            ec.min_tread_depth_m = c.min_tread_depth_m;
            ec.snap_distance_m = c.snap_distance_m;
        }
        Engine::Physx => {
            e.skin = if s.skin > 0.0 { s.skin } else { 0.1 };
            e.min_move = s.min_move;
            let height = if y > r { 2.0 * (y - r) } else { 0.001 };
            ec.max_step_height_m = c.max_step_height_m.min(height + 2.0 * r);
        }
        Engine::Godot => {
            e.skin = s.skin.clamp(0.001, 256.0);
            e.max_iterations = s.max_iterations;
            ec.snap_distance_m = c.snap_distance_m;
            ec.frame_rate_hz = c.frame_rate_hz.round().max(1.0);
        }
        Engine::Unity => {
            e.skin = s.skin;
            e.min_move = s.min_move;
            ec.max_step_height_m = c.max_step_height_m.min(cap.height_at_least_diameter_m());
        }
        Engine::Unreal => {
            ec.max_step_height_m = c.max_step_height_m;
            ec.perch_radius_threshold_m = c.perch_radius_threshold_m;
            ec.perch_additional_height_m = c.perch_additional_height_m;
        }
    }
    e
}

/// `got` is `want` within the 32-bit precision the engine's numbers have
/// (a few units in the last place, after the unit conversions). PhysX's
/// slope is a cosine: compared as one, since near 0 degrees a 32-bit
/// cosine holds the angle only to about 0.001 degree.
fn assert_close(engine: Engine, what: &str, got: f64, want: f64, context: &str) {
    let ok = if engine == Engine::Physx && what == "max_slope_deg" {
        (got.to_radians().cos() - want.to_radians().cos()).abs() <= 2e-7
    } else {
        (got - want).abs() <= 1e-6 * want.abs()
    };
    assert!(ok, "{engine}: {what} = {got}, want {want} ({context})");
}

/// The squeezed code of each line (comments dropped).
fn code(engine: Engine, t: &str) -> Vec<String> {
    let mut lines = lexing::code_lines(t, engine == Engine::Godot);
    lines.retain(|l| !l.is_empty());
    lines
}

/// 200 random tuned characters per engine: exporting, then importing,
/// gives the same character (as [`expected`] documents); importing is a
/// fixed point (a second round trip changes nothing); and exporting what
/// was read back writes the same code, number for number.
#[test]
fn random_tuned_characters_round_trip_through_every_engine() {
    const CASES: usize = 200;
    let mut rng = Rng(0x5EED_C011_1D05_C0BE);
    let mut checked = 0;
    for case in 0..CASES {
        let s = random_settings(&mut rng);
        for engine in Engine::ALL {
            let first = text(engine, &s);
            let i = import(engine, &first)
                .unwrap_or_else(|e| panic!("case {case} {engine}: {e}\n{first}"));
            let want = expected(engine, &s);
            let context = format!("case {case}, radii {:?}", s.radii);
            for ((what, got), (_, w)) in fields(&i.settings).into_iter().zip(fields(&want)) {
                assert_close(engine, what, got, w, &context);
            }
            let again = text(engine, &i.settings);
            let rapier_zero_skin = engine == Engine::Rapier && s.skin == 0.0;
            if !rapier_zero_skin {
                assert_eq!(
                    code(engine, &again),
                    code(engine, &first),
                    "{engine}, {context}"
                );
            }
            let twice = import(engine, &again).unwrap_or_else(|e| panic!("{engine}: {e}"));
            assert_eq!(
                fields(&twice.settings),
                fields(&i.settings),
                "{engine}: {context}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, CASES * Engine::ALL.len());
}

#[test]
fn clamped_values_come_back_clamped_with_the_files_warning() {
    // A 2.5 m step: Unity and PhysX write their largest, 1.8 m.
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = 2.5;
    for engine in [Engine::Unity, Engine::Physx] {
        let i = back(engine, &s);
        assert_eq!(i.settings.character.max_step_height_m, 1.8, "{engine}");
        assert!(
            i.warnings
                .iter()
                .any(|w| w.contains("stepOffset: the tuned 2.5")),
            "{engine}: {:?}",
            i.warnings
        );
    }
    assert_eq!(
        back(Engine::Unreal, &s)
            .settings
            .character
            .max_step_height_m,
        2.5
    );
    // No skin: PhysX's 0.1 m default, Godot's least 0.001 m; Rapier's
    // relative offset is not a length and keeps the default.
    let s = SlideSettings {
        skin: 0.0,
        ..SlideSettings::default()
    };
    assert_eq!(back(Engine::Physx, &s).settings.skin, 0.1);
    assert_eq!(back(Engine::Godot, &s).settings.skin, 0.001);
    let rapier = back(Engine::Rapier, &s);
    assert_eq!(rapier.settings.skin, 0.005);
    assert!(
        rapier
            .not_read
            .iter()
            .any(|n| n.starts_with("skin = 0.005 (line ") && n.contains("Relative")),
        "{:?}",
        rapier.not_read
    );
    assert_eq!(back(Engine::Jolt, &s).settings.skin, 0.0);
    // Godot's whole physics ticks.
    let mut s = SlideSettings::default();
    s.character.frame_rate_hz = 59.94;
    assert_eq!(
        back(Engine::Godot, &s).settings.character.frame_rate_hz,
        60.0
    );
    assert_eq!(
        back(Engine::Unity, &s).settings.character.frame_rate_hz,
        59.94
    );
    // A squat ellipsoid: the capsule is a sphere of the radius.
    let s = SlideSettings {
        radii: [0.5, 0.3, 0.5],
        ..SlideSettings::default()
    };
    for engine in Engine::ALL {
        let i = back(engine, &s);
        let want_y = if engine == Engine::Physx { 0.5005 } else { 0.5 };
        assert_eq!(i.settings.radii, [0.5, want_y, 0.5], "{engine}");
        assert!(
            i.warnings
                .iter()
                .any(|w| w.contains("wider (1 m) than tall")),
            "{engine}: {:?}",
            i.warnings
        );
    }
    // Unequal horizontal radii: the capsule's radius, the larger, for both.
    let s = SlideSettings {
        radii: [0.3, 0.9, 0.45],
        ..SlideSettings::default()
    };
    for engine in Engine::ALL {
        assert_eq!(back(engine, &s).settings.radii, [0.45, 0.9, 0.45]);
    }
    // Off is off.
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = 0.0;
    s.character.snap_distance_m = 0.0;
    for engine in [Engine::Rapier, Engine::Jolt] {
        let c = back(engine, &s).settings.character;
        assert_eq!((c.max_step_height_m, c.snap_distance_m), (0.0, 0.0));
        assert!(c.snap_distance_m.is_sign_positive(), "{engine}: -0");
    }
}

#[test]
fn hand_edits_are_read() {
    let mut tuned = SlideSettings::default();
    tuned.character.max_step_height_m = 0.42;
    tuned.character.max_slope_deg = 37.5;
    tuned.radii = [0.35, 0.8, 0.35];
    for engine in Engine::ALL {
        let t = text(engine, &tuned);
        let plain = import(engine, &t).unwrap();
        // Lines in reverse order, spaces round `=` and `,`, and decoys in
        // comments that must not be read.
        let (marker, decoy) = if engine == Engine::Godot {
            ("#", "# capsule.radius = 99.0\n# floor_max_angle = 1.5\n")
        } else {
            (
                "//",
                "// desc.radius = 99.0f;\n/* controller.radius = 99.0f;\n   InitCapsuleSize(9900.0f, 9900.0f);\n   mMaxSlopeAngle = 1.5f; */\n",
            )
        };
        let mut edited = String::from(decoy);
        for line in t.lines().rev() {
            if line.trim_start().starts_with(marker) {
                edited.push_str(line);
            } else {
                edited.push_str(&line.replace('=', "  = ").replace(',', " ,  "));
            }
            edited.push_str("   \n");
        }
        let i = import(engine, &edited).unwrap_or_else(|e| panic!("{engine}: {e}\n{edited}"));
        assert_eq!(
            fields(&i.settings),
            fields(&plain.settings),
            "{engine}:\n{edited}"
        );
    }
    // Other number forms and a changed value.
    let unity = text(Engine::Unity, &SlideSettings::default())
        .replace(
            "controller.radius = 0.4f;",
            "controller.radius = 3.5e-1F; // mine",
        )
        .replace(
            "controller.slopeLimit = 45.0f;",
            "controller.slopeLimit=30;",
        )
        .replace("WalkSpeedMS = 5.0f;", "WalkSpeedMS = +6.25f ;");
    let s = import(Engine::Unity, &unity).unwrap().settings;
    assert_eq!(s.radii, [0.35, 0.9, 0.35]);
    assert_eq!(s.character.max_slope_deg, 30.0);
    assert_eq!(s.character.walk_speed_m_s, 6.25);
    let rapier = text(Engine::Rapier, &SlideSettings::default())
        .replace("WALK_SPEED_M_S: f32 = 5.0;", "WALK_SPEED_M_S: f64 = 7_f64;")
        .replace(
            "max_slope_climb_angle: 0.7853982,",
            "max_slope_climb_angle: 0.5_f32,",
        );
    let s = import(Engine::Rapier, &rapier).unwrap().settings;
    assert_eq!(s.character.walk_speed_m_s, 7.0);
    assert!((s.character.max_slope_deg - 0.5_f64.to_degrees()).abs() < 1e-5);
    // A constant taken out keeps its default and is listed.
    let godot =
        text(Engine::Godot, &SlideSettings::default()).replace("const JUMP_VELOCITY := 4.5", "");
    let i = import(Engine::Godot, &godot).unwrap();
    assert!(i.not_read.iter().any(|n| n == "jump_speed_m_s = 4.5"));
}

#[test]
fn number_literals_and_tidy_values() {
    assert_eq!(lexing::literal("0.5f;"), Some((0.5, true, 4)));
    assert_eq!(lexing::literal("1.0e-2F)"), Some((0.01, true, 7)));
    assert_eq!(lexing::literal("-3_f32,"), Some((-3.0, true, 6)));
    assert_eq!(lexing::literal(".25"), Some((0.25, true, 3)));
    assert_eq!(
        lexing::literal("0.123456789"),
        Some((0.123456789, false, 11))
    );
    for bad in ["abc", "1.2.3", "1e", "0.5fx", "-", ".", "1x", "inf", "NaN"] {
        assert_eq!(lexing::literal(bad), None, "{bad}");
    }
    // 45 degrees, not 45.0000002, from 0.7853982 radians.
    let rad = 45_f64.to_radians() as f32;
    let deg = lexing::tidy(f64::from(rad).to_degrees(), rad, f64::to_radians);
    assert_eq!(deg, 45.0);
    // 60 Hz from a 32-bit 1/60 s.
    let dt = (1.0 / 60.0_f64) as f32;
    assert_eq!(lexing::tidy(1.0 / f64::from(dt), dt, |hz| 1.0 / hz), 60.0);
}

#[test]
fn bad_files_get_one_line_errors_naming_the_line() {
    let unity = text(Engine::Unity, &SlideSettings::default());
    let line_of = |needle: &str| unity.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let e = err(Engine::Unity, "");
    assert!(e.contains("the file is empty"), "{e}");
    let e = err(Engine::Unity, " \n\t\n");
    assert!(e.contains("empty"), "{e}");
    let e = err(Engine::Unity, "\u{0}\u{1}\u{7f}ÿ garbage \u{fffd}\n");
    assert!(
        e.starts_with("not a Unity CharacterController export"),
        "{e}"
    );
    let e = err(Engine::Jolt, &unity);
    assert!(
        e.contains("not a Jolt CharacterVirtualSettings export") && e.contains("try --from unity"),
        "{e}"
    );
    let e = err(
        Engine::Unity,
        &unity.replace("        controller.radius = 0.4f;\n", ""),
    );
    assert!(
        e.starts_with("missing controller.radius (Collidoscope's radii)"),
        "{e}"
    );
    let radius = line_of("controller.radius");
    let e = err(
        Engine::Unity,
        &unity.replace("controller.radius = 0.4f;", "controller.radius = abc;"),
    );
    assert!(
        e.starts_with(&format!(
            "line {radius}: controller.radius: expected a number"
        )),
        "{e}"
    );
    assert!(e.ends_with("`controller.radius = abc;`"), "{e}");
    let e = err(
        Engine::Unity,
        &unity.replace("controller.radius = 0.4f;", "controller.radius = 1e999f;"),
    );
    assert!(
        e.contains("controller.radius is not a finite number"),
        "{e}"
    );
    let e = err(
        Engine::Unity,
        &unity.replace(
            "controller.slopeLimit = 45.0f;",
            "controller.slopeLimit = 90.0f;",
        ),
    );
    assert!(
        e.starts_with(&format!("line {}: ", line_of("controller.slopeLimit")))
            && e.contains("character.max_slope_deg = 90, which must be at least 0 and under 90"),
        "{e}"
    );
    let e = err(
        Engine::Unity,
        &unity.replace("controller.radius = 0.4f;", "controller.radius = -0.4f;"),
    );
    assert!(
        e.contains("radii = -0.4, which must be at least 0.001"),
        "{e}"
    );
    let jolt = text(Engine::Jolt, &SlideSettings::default());
    let e = err(Engine::Jolt, &jolt.replace("0.7853982f;", "2.0f;"));
    assert!(
        e.contains("mMaxSlopeAngle = 2 gives character.max_slope_deg = 114.59"),
        "{e}"
    );
    let e = err(
        Engine::Jolt,
        &jolt.replace("CollideWithBackFaces", "Sometimes"),
    );
    assert!(e.contains("mBackFaceMode: expected"), "{e}");
    let e = err(
        Engine::Jolt,
        &jolt.replace(
            "mMaxCollisionIterations = 5",
            "mMaxCollisionIterations = 2.5",
        ),
    );
    assert!(
        e.contains("mMaxCollisionIterations must be a whole number"),
        "{e}"
    );
    let physx = text(Engine::Physx, &SlideSettings::default());
    let e = err(Engine::Physx, &physx.replace("0.70710677f", "1.5f"));
    assert!(
        e.contains("desc.slopeLimit = 1.5 gives character.max_slope_deg = NaN"),
        "{e}"
    );
    // A rule between two settings: the skin under the smallest radius.
    let e = err(
        Engine::Unity,
        &unity.replace(
            "controller.skinWidth = 0.005f;",
            "controller.skinWidth = 0.5f;",
        ),
    );
    assert!(
        e.starts_with("the settings read back break a rule: skin 0.5"),
        "{e}"
    );
    // A huge line is quoted by its start.
    let long = format!("controller.radius = {}x;", "9".repeat(100_000));
    let e = err(
        Engine::Unity,
        &unity.replace("controller.radius = 0.4f;", &long),
    );
    assert!(e.len() < 300 && e.contains("(100022 characters)"), "{e}");
    assert_eq!(e.lines().count(), 1);
}

#[test]
fn physx_modes_round_trip_and_a_bad_one_names_the_choices() {
    use crate::character::{ClimbingMode, ControllerRules, EngineProfile, NonWalkable};
    // Every pair of modes, written by the export and read back, gives the
    // same rules; with no mode given, the export writes the profile's own.
    for non_walkable in [
        NonWalkable::PreventClimbing,
        NonWalkable::PreventClimbingAndForceSliding,
    ] {
        for climbing in [ClimbingMode::Easy, ClimbingMode::Constrained] {
            let mut s = SlideSettings::default();
            s.character.engine = EngineProfile::Physx;
            s.character.non_walkable = Some(non_walkable);
            s.character.climbing_mode = Some(climbing);
            let i = back(Engine::Physx, &s);
            assert_eq!(i.settings.character.non_walkable, Some(non_walkable));
            assert_eq!(i.settings.character.climbing_mode, Some(climbing));
            assert_eq!(
                ControllerRules::for_settings(&i.settings),
                ControllerRules::for_settings(&s)
            );
        }
    }
    let mut s = SlideSettings::default();
    s.character.engine = EngineProfile::Physx;
    let t = text(Engine::Physx, &s);
    assert!(
        t.contains("PxControllerNonWalkableMode::ePREVENT_CLIMBING;")
            && t.contains("PxCapsuleClimbingMode::eEASY;"),
        "{t}"
    );
    // Collidoscope's own rules, written for PhysX: slide, constrained.
    let t = text(Engine::Physx, &SlideSettings::default());
    assert!(
        t.contains("ePREVENT_CLIMBING_AND_FORCE_SLIDING;") && t.contains("eCONSTRAINED;"),
        "{t}"
    );
    let e = err(
        Engine::Physx,
        &t.replace("ePREVENT_CLIMBING_AND_FORCE_SLIDING;", "eSLIDE;"),
    );
    assert!(
        e.contains("nonWalkableMode") && e.contains("ePREVENT_CLIMBING"),
        "{e}"
    );
    // A hand-written file without the lines keeps the profile's own.
    let kept: String = t
        .lines()
        .filter(|l| !l.contains("nonWalkableMode") && !l.contains("climbingMode"))
        .map(|l| format!("{l}\n"))
        .collect();
    let i = import(Engine::Physx, &kept).expect("reads");
    assert_eq!(i.settings.character.non_walkable, None);
    assert_eq!(i.settings.character.climbing_mode, None);
}
