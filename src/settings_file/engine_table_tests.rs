//! Settings files in an engine's own names: each engine's table read into
//! the same character `settings import` reads from that engine's export,
//! errors at their lines, and the rest of the file read as before.

use super::*;
use crate::character::EngineProfile;
use crate::export::engines::{self, Engine};
use crate::geometry::shape::CharacterShape;

fn toml(text: &str) -> Result<SlideSettings, SettingsFileError> {
    parse(text, SettingsFormat::Toml, Path::new("s.toml"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// The character each engine's table below describes, in Collidoscope's
/// names: a 0.4 m radius, 1.8 m capsule, 45 degree slopes, 0.35 m steps.
fn expected() -> SlideSettings {
    let mut s = SlideSettings {
        radii: [0.4, 0.9, 0.4],
        skin: 0.02,
        ..SlideSettings::default()
    };
    s.character.max_slope_deg = 45.0;
    s.character.max_step_height_m = 0.35;
    s
}

/// Each engine's settings for [`expected`], as a programmer copies them
/// from their engine (its names, its units).
fn tables() -> Vec<(Engine, &'static str)> {
    vec![
        (
            Engine::Unity,
            "[unity]\nradius = 0.4\nheight = 1.8\nslopeLimit = 45\nstepOffset = 0.35\nskinWidth = 0.02\n",
        ),
        (
            Engine::Unreal,
            "[unreal]\nCapsuleRadius = 40\nCapsuleHalfHeight = 90\nWalkableFloorAngle = 45\nMaxStepHeight = 35\n",
        ),
        (
            Engine::Godot,
            "[godot]\nradius = 0.4\nheight = 1.8\nfloor_max_angle = 0.7853981633974483\nsafe_margin = 0.02\n",
        ),
        (
            Engine::Rapier,
            "[rapier]\nradius = 0.4\nhalf_height = 0.5\noffset = 0.02\nmax_slope_climb_angle = 0.7853981633974483\n\n[rapier.autostep]\nmax_height = 0.35\n",
        ),
        (
            Engine::Jolt,
            "[jolt]\nmRadius = 0.4\nmHalfHeightOfCylinder = 0.5\nmMaxSlopeAngle = 0.7853981633974483\nmCharacterPadding = 0.02\nmWalkStairsStepUp = [0.0, 0.35, 0.0]\n",
        ),
        (
            Engine::Physx,
            "[physx]\nradius = 0.4\nheight = 1.0\nslopeLimit = 0.7071067811865476\nstepOffset = 0.35\ncontactOffset = 0.02\n",
        ),
    ]
}

#[test]
fn each_engines_own_names_give_the_character_its_export_describes() {
    let want = expected();
    for (engine, table) in tables() {
        let text = format!("format_version = 1\n\n{table}");
        let got = toml(&text).unwrap_or_else(|e| panic!("{engine}: {e}\n{text}"));
        assert_eq!(got.character.engine, engine.profile(), "{engine}");
        for i in 0..3 {
            assert!(
                close(got.radii[i], want.radii[i]),
                "{engine}: {:?}",
                got.radii
            );
        }
        let c = &got.character;
        assert!(
            close(c.max_slope_deg, 45.0),
            "{engine}: {}",
            c.max_slope_deg
        );
        // Godot's controller has no step-up: its table has no step.
        let step = if engine == Engine::Godot { 0.3 } else { 0.35 };
        assert!(
            close(c.max_step_height_m, step),
            "{engine}: {}",
            c.max_step_height_m
        );
        if engine != Engine::Unreal {
            assert!(close(got.skin, 0.02), "{engine}: skin {}", got.skin);
        }
        // The same character as the engine's export reads back as.
        let mut with_profile = want.clone();
        with_profile.character.engine = engine.profile();
        with_profile.skin = got.skin;
        let export = engines::export(engine, &with_profile).unwrap();
        let imported = engines::import(engine, &export.text).unwrap().settings;
        for i in 0..3 {
            assert!(close(imported.radii[i], got.radii[i]), "{engine}");
        }
        assert!(close(imported.character.max_slope_deg, c.max_slope_deg));
        assert!(close(
            imported.character.max_step_height_m,
            c.max_step_height_m
        ));
        assert_eq!(imported.character.engine, got.character.engine);
    }
}

#[test]
fn the_rest_of_each_engines_names_convert_their_units() {
    let s = toml(
        "format_version = 1\n[unreal]\nCapsuleRadius = 34\nCapsuleHalfHeight = 88\nWalkableFloorAngle = 44.765\n\
         MaxStepHeight = 45\nMaxWalkSpeed = 600\nJumpZVelocity = 420\nGravityScale = 2\n\
         TerminalVelocity = 4000\nPerchRadiusThreshold = 15\nPerchAdditionalHeight = 20\n",
    )
    .unwrap();
    assert_eq!(s.radii, [0.34, 0.88, 0.34]);
    let c = &s.character;
    assert!(close(c.perch_radius_threshold_m, 0.15));
    assert!(close(c.perch_additional_height_m, 0.2));
    assert!(close(c.max_step_height_m, 0.45) && close(c.walk_speed_m_s, 6.0));
    assert!(close(c.jump_speed_m_s, 4.2) && close(c.gravity_m_s2, 19.6));
    assert!(close(c.max_fall_speed_m_s, 40.0) && close(c.max_slope_deg, 44.765));

    let s = toml(
        "format_version = 1\n[godot]\nradius = 0.5\nheight = 2\nfloor_max_angle = 0.5\nfloor_snap_length = 0.25\n\
         max_slides = 4\nphysics_ticks_per_second = 120\n",
    )
    .unwrap();
    assert!(close(s.character.max_slope_deg, 0.5f64.to_degrees()));
    assert_eq!((s.character.snap_distance_m, s.max_iterations), (0.25, 4));
    assert_eq!(s.character.frame_rate_hz, 120.0);

    // Rapier's Option settings turned off with false; min_width the tread.
    let s = toml(
        "format_version = 1\n[rapier]\nradius = 0.3\nhalf_height = 0.6\nautostep = { max_height = 0.4, min_width = 0.2 }\nsnap_to_ground = false\n",
    )
    .unwrap();
    assert!(close(s.radii[1], 0.9) && s.radii[0] == 0.3 && s.radii[2] == 0.3);
    assert_eq!(s.character.min_tread_depth_m, 0.2);
    assert_eq!(s.character.snap_distance_m, 0.0);
    let s =
        toml("format_version = 1\nradii = [0.4, 0.9, 0.4]\n[rapier]\nautostep = false\n").unwrap();
    assert_eq!(s.character.max_step_height_m, 0.0);

    // Jolt's vectors, or their y; the step down is negative.
    let s = toml(
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[jolt]\nmStickToFloorStepDown = [0, -0.5, 0]\nmWalkStairsStepUp = 0.4\n\
         mBackFaceMode = \"CollideWithBackFaces\"\nmMaxCollisionIterations = 7\n",
    )
    .unwrap();
    assert_eq!(s.character.snap_distance_m, 0.5);
    assert_eq!(s.character.max_step_height_m, 0.4);
    assert!(s.two_sided);
    assert_eq!(s.max_iterations, 7);
    assert_eq!(s.character.engine, EngineProfile::Jolt);

    // PhysX's box controller: x up in its own frame, so the side extent
    // lies along x and the forward extent along z.
    let s =
        toml("format_version = 1\n[physx]\nhalfHeight = 0.9\nhalfSideExtent = 0.3\nhalfForwardExtent = 0.2\n").unwrap();
    assert_eq!(
        s.shape,
        CharacterShape::Box {
            half_extents_m: [0.3, 0.9, 0.2]
        }
    );
}

#[test]
fn the_table_may_stand_beside_collidoscopes_own_settings_and_its_engine() {
    let text = "format_version = 1\nmode = \"robust\"\nradii = [0.4, 0.9, 0.4]\n\n[character]\nengine = \"unity\"\n\
                walk_speed_m_s = 5\n\n[unity]\nstepOffset = 0.5\n\n[level]\nmax_opening_width_m = 3\n";
    let s = toml(text).unwrap();
    assert_eq!(s.character.engine, EngineProfile::Unity);
    assert_eq!(s.character.walk_speed_m_s, 5.0);
    assert_eq!(s.character.max_step_height_m, 0.5);
    assert_eq!(s.level.max_opening_width_m, 3.0);
    // Written back, the file uses Collidoscope's names and reads the same.
    let back = to_text(&s, Path::new("s.toml")).unwrap();
    assert!(!back.contains("[unity]"), "{back}");
    assert_eq!(toml(&back).unwrap(), s);
}

#[test]
fn json_files_take_the_engine_object_first_middle_or_last() {
    for text in [
        r#"{"unity": {"stepOffset": 0.5, "slopeLimit": 30}, "format_version": 1, "radii": [1, 1, 1], "skin": 0.01}"#,
        "{\n  \"format_version\": 1,\n  \"unity\": {\"stepOffset\": 0.5, \"slopeLimit\": 30, \"radius\": 0.5, \"height\": 2},\n  \"skin\": 0.01\n}",
        "{\"format_version\": 1, \"skin\": 0.01, \"radii\": [1, 1, 1],\n \"unity\": {\"stepOffset\": 0.5, \"slopeLimit\": 30}\n}",
    ] {
        let s = parse(text, SettingsFormat::Json, Path::new("s.json"))
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(s.character.engine, EngineProfile::Unity, "{text}");
        assert_eq!(
            (s.character.max_step_height_m, s.character.max_slope_deg),
            (0.5, 30.0)
        );
        assert_eq!(s.skin, 0.01);
    }
    // An error elsewhere keeps its own line.
    let text =
        "{\n  \"unity\": {\"stepOffset\": 0.5},\n  \"format_version\": 1,\n  \"skin\": -1\n}";
    let e = parse(text, SettingsFormat::Json, Path::new("s.json"))
        .unwrap_err()
        .to_string();
    // Where the same file without the engine's object puts it.
    let plain = text.replace(
        "\"unity\": {\"radius\": 0.5, \"height\": 2}",
        "\"radii\": [1, 1, 1]",
    );
    let want = parse(&plain, SettingsFormat::Json, Path::new("s.json"))
        .unwrap_err()
        .to_string();
    assert_eq!(e, want);
    assert!(e.starts_with("s.json:5:"), "{e}");
}

/// The error's line and message.
fn error(text: &str) -> (usize, String) {
    match toml(text) {
        Err(SettingsFileError::Parse { line, message, .. }) => (line, message),
        other => panic!("expected an error at a line, got {other:?}"),
    }
}

#[test]
fn mistakes_in_the_table_are_named_at_their_lines() {
    const HEAD: &str = "format_version = 1\nradii = [0.4, 0.9, 0.4]\n";
    // An unknown name: which names are read, and a near miss suggested.
    let (line, m) =
        error("format_version = 1\n[unity]\nradius = 0.4\nheight = 1.8\nstepoffset = 0.3\n");
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("`stepoffset`") && m.contains("did you mean `stepOffset`"),
        "{m}"
    );
    assert!(m.contains("slopeLimit"), "{m}");
    let (_, m) =
        error("format_version = 1\n[unity]\nradius = 0.4\nheight = 1.8\nstepofset = 0.3\n");
    assert!(m.contains("did you mean `stepOffset`"), "{m}");
    // Not modelled: refused, not dropped.
    let (line, m) = error(&format!("{HEAD}[physx]\ninvisibleWallHeight = 1\n"));
    assert_eq!(line, 4);
    assert!(
        m.contains("invisibleWallHeight") && m.contains("stepOffset"),
        "{m}"
    );
    // PhysX's modes are their enumerators' names.
    let (line, m) = error(&format!("{HEAD}[physx]\nnonWalkableMode = 1\n"));
    assert_eq!(line, 4);
    assert!(
        m.contains("nonWalkableMode") && m.contains("ePREVENT_CLIMBING_AND_FORCE_SLIDING"),
        "{m}"
    );
    let (_, m) = error(&format!("{HEAD}[physx]\nclimbingMode = \"eHARD\"\n"));
    assert!(m.contains("eEASY") && m.contains("eCONSTRAINED"), "{m}");
    // Out of range after conversion, quoting the engine's number.
    let (line, m) = error(&format!("{HEAD}[unreal]\n\nMaxStepHeight = -30\n"));
    assert_eq!(line, 5);
    assert!(
        m.contains("-30") && m.contains("character.max_step_height_m"),
        "{m}"
    );
    let (_, m) = error(&format!("{HEAD}[physx]\nslopeLimit = 1.5\n"));
    assert!(m.contains("slopeLimit") && !m.contains("NaN"), "{m}");
    // A huge number is quoted short.
    let (_, m) = error(&format!("{HEAD}[unreal]\nMaxStepHeight = 1e308\n"));
    assert!(m.len() < 200 && m.contains("MaxStepHeight"), "{m}");
    // Half a capsule.
    let (line, m) = error("format_version = 1\n[godot]\nradius = 0.4\n");
    assert_eq!(line, 3);
    assert!(m.contains("needs both `radius` and `height`"), "{m}");
    let (_, m) = error("format_version = 1\n[unity]\nradius = 0.5\nheight = 0.6\n");
    assert!(m.contains("at least the radius"), "{m}");
    // Not a number.
    let (line, m) = error(&format!("{HEAD}[unity]\nstepOffset = \"high\"\n"));
    assert_eq!(line, 4);
    assert!(m.contains("must be a number"), "{m}");
    // One setting in both names.
    let (_, m) = error(&format!("{HEAD}[unity]\nradius = 0.4\nheight = 1.8\n"));
    assert!(m.contains("`radii`") && m.contains("keep one"), "{m}");
    let (_, m) = error(&format!(
        "{HEAD}[character]\nmax_step_height_m = 0.3\n[jolt]\nmWalkStairsStepUp = 0.4\n"
    ));
    assert!(m.contains("keep one"), "{m}");
    // Another engine chosen, or two engines' tables.
    let (line, m) = error(&format!(
        "{HEAD}[character]\nengine = \"jolt\"\n\n[unity]\nstepOffset = 0.3\n"
    ));
    assert_eq!(line, 6);
    assert!(m.contains("\"jolt\""), "{m}");
    let (line, m) = error(&format!(
        "{HEAD}[unity]\nstepOffset = 0.3\n[godot]\nsafe_margin = 0.01\n"
    ));
    assert_eq!(line, 5);
    assert!(m.contains("one engine per file"), "{m}");
    // An error after the table keeps its own line, with or without the
    // capsule standing in for `radii`.
    let (line, m) = error(&format!(
        "{HEAD}[unity]\nstepOffset = 0.3\n\n[character]\nmax_slope_deg = 95\n"
    ));
    assert_eq!(line, 7, "{m}");
    let (line, m) = error(
        "format_version = 1\n[unity]\nradius = 0.4\nheight = 1.8\n\n[character]\nmax_slope_deg = 95\n",
    );
    assert_eq!(line, 7, "{m}");
}

#[test]
fn a_top_level_engine_line_is_read_too() {
    let s =
        toml("format_version = 1\nradii = [1, 1, 1]\nunity = { stepOffset = 0.25 }\nskin = 0.01\n")
            .unwrap();
    assert_eq!(s.character.max_step_height_m, 0.25);
    assert_eq!(s.skin, 0.01);
    let s = toml("format_version = 1\nradii = [1, 1, 1]\ngodot.floor_snap_length = 0.3\n").unwrap();
    assert_eq!(s.character.snap_distance_m, 0.3);
    assert_eq!(s.character.engine, EngineProfile::Godot);
}

#[test]
fn every_engines_names_map_to_real_settings() {
    for engine in Engine::ALL {
        let names = engines::accepted_names(engine);
        assert!(names.len() >= 5, "{engine}: {names:?}");
        for (name, setting) in engines::name_settings(engine) {
            assert!(!name.is_empty() && !setting.is_empty());
        }
    }
}

#[test]
fn the_settings_page_lists_every_name_read_and_its_example_reads() {
    let page = include_str!("../../docs/settings.md");
    let section = &page[page
        .find("### Your engine's own names")
        .expect("the section")..];
    for engine in Engine::ALL {
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| `[{}]`", engine.name())))
            .unwrap_or_else(|| panic!("no row for {engine}"));
        for name in engines::accepted_names(engine) {
            let shown = name.rsplit('.').next().unwrap_or(name);
            assert!(
                row.contains(&format!("`{name}")) || row.contains(shown),
                "{engine}: {name} not in {row}"
            );
        }
    }
    let example = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the example");
    let s = toml(example).unwrap();
    assert_eq!(s.character.engine, EngineProfile::Unreal);
    assert_eq!(s.radii, [0.34, 0.88, 0.34]);
}

#[test]
fn physx_modes_are_read_under_their_own_names_and_ours() {
    use crate::character::{ClimbingMode, NonWalkable};
    let s = toml(
        "format_version = 1\n[physx]\nradius = 0.4\nheight = 1.0\n\
         nonWalkableMode = \"ePREVENT_CLIMBING_AND_FORCE_SLIDING\"\n\
         climbingMode = \"physx::PxCapsuleClimbingMode::eCONSTRAINED\"\n",
    )
    .expect("reads");
    assert_eq!(
        s.character.non_walkable,
        Some(NonWalkable::PreventClimbingAndForceSliding)
    );
    assert_eq!(s.character.climbing_mode, Some(ClimbingMode::Constrained));
    let s = toml(
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\nengine = \"physx\"\n\
         non_walkable = \"prevent_climbing\"\nclimbing_mode = \"easy\"\n",
    )
    .expect("reads");
    assert_eq!(s.character.non_walkable, Some(NonWalkable::PreventClimbing));
    assert_eq!(s.character.climbing_mode, Some(ClimbingMode::Easy));
    // Given twice, once in each name: refused.
    let e = toml(
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\nnon_walkable = \"prevent_climbing\"\n\
         [physx]\nnonWalkableMode = \"ePREVENT_CLIMBING\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("nonWalkableMode") && e.contains("non_walkable"),
        "{e}"
    );
    let e = toml(
        "format_version = 1\nradii = [0.4, 0.9, 0.4]\n[character]\nnon_walkable = \"slide\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("prevent_climbing"), "{e}");
}
