//! Collision settings: one serde struct with units and defaults, versioned,
//! and the rules its values must follow.
//!
//! Single values are checked while deserialising (a bad value in a file is
//! then reported with its line and column, like a syntax error);
//! [`SlideSettings::validate`] checks every rule, for settings built in code
//! or edited after loading. Files are read and written by
//! [`crate::settings_file`]: this layer does no I/O.

use crate::character::CharacterSettings;
use crate::geometry::shape::CharacterShape;
use glam::DVec3;
use serde::{Deserialize, Deserializer, Serialize};

/// The settings file format version this build reads and writes.
pub const SETTINGS_FORMAT_VERSION: u32 = 1;

/// Which collide-and-slide algorithm runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlideMode {
    /// Fauerby's per-feature tests with the later fixes: padding along the
    /// contact normal, crease sliding between two planes and a stop at three,
    /// recovery from embedded starts, gravity as its own pass, optional
    /// two-sided triangles.
    #[default]
    Robust,
    /// As Fauerby's 2003 paper: per-feature tests, the very-close distance
    /// taken along the velocity, a recursion limit, gravity as its own pass.
    Fauerby2003,
    /// As Nettle's 2000 article, flaws included: plane / polygon / ellipsoid
    /// intersection points, reverse intersection, an EPSILON along the
    /// velocity, gravity added to the velocity.
    Nettle2000,
}

impl SlideMode {
    /// Every mode, in menu order.
    pub const ALL: [SlideMode; 3] = [
        SlideMode::Robust,
        SlideMode::Fauerby2003,
        SlideMode::Nettle2000,
    ];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SlideMode::Robust => "robust",
            SlideMode::Fauerby2003 => "fauerby2003",
            SlideMode::Nettle2000 => "nettle2000",
        }
    }
}

impl std::fmt::Display for SlideMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SlideMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SlideMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown mode '{s}' (expected robust, fauerby2003 or nettle2000)")
            })
    }
}

/// Everything that tunes one probe's collide and slide. Lengths in metres
/// (world units), world space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlideSettings {
    /// File format version; must be [`SETTINGS_FORMAT_VERSION`].
    #[serde(deserialize_with = "de_version")]
    pub format_version: u32,
    /// The algorithm.
    #[serde(default)]
    pub mode: SlideMode,
    /// Ellipsoid radii along world x, y, z, metres, each from
    /// [`MIN_RADIUS_M`] to [`MAX_RADIUS_M`].
    #[serde(deserialize_with = "de_radii")]
    pub radii: [f64; 3],
    /// The probe's shape: the ellipsoid of `radii` (the default, and what
    /// a file without a `shape` table gets), or a sphere, a capsule or a
    /// cylinder or a box of its own sizes (then `radii` is not used). Robust mode only:
    /// the paper modes are the ellipsoid's algorithms and refuse any other
    /// shape ([`SlideSettings::validate`]).
    #[serde(default, skip_serializing_if = "CharacterShape::is_ellipsoid")]
    pub shape: CharacterShape,
    /// Gravity displacement per move, metres. Robust and Fauerby run it as
    /// a second pass; Nettle adds it to the velocity.
    #[serde(default, deserialize_with = "de_finite3")]
    pub gravity: [f64; 3],
    /// Very-close distance kept between the probe and the geometry, metres, ≥ 0.
    #[serde(default = "default_skin", deserialize_with = "de_non_negative")]
    pub skin: f64,
    /// Maximum iterations of the recursion per pass, 1 to [`MAX_ITERATIONS`].
    #[serde(default = "default_max_iterations", deserialize_with = "de_iterations")]
    pub max_iterations: u32,
    /// Remaining moves shorter than this end the pass, metres, ≥ 0.
    #[serde(default = "default_min_move", deserialize_with = "de_non_negative")]
    pub min_move: f64,
    /// Robust mode only: collide with both sides of every triangle (real
    /// levels have inconsistent winding and single-quad thin walls). The
    /// paper modes always cull back faces, as published.
    #[serde(default = "default_true")]
    pub two_sided: bool,
    /// A hit on an edge or vertex whose neighbours fold by at most this
    /// many degrees from the hit triangle is flagged as a ghost corner in
    /// the trace (0 to 45; it changes no motion).
    #[serde(
        default = "default_ghost_edge_angle_deg",
        deserialize_with = "de_ghost_angle"
    )]
    pub ghost_edge_angle_deg: f64,
    /// After every iteration, check the path the probe's centre took
    /// (flagging a tunnel), measure the clearance where it ended (flagging
    /// an end inside geometry) and check the nearest hit for a ghost
    /// corner. The results live in the iteration's record: stepping, they
    /// cost 1.6-2x the slide (see BENCHMARKS.md); a move run to its end
    /// checks only the record it keeps, when that is read, so batch runs
    /// that only need final positions pay nothing for them.
    #[serde(default = "default_true")]
    pub self_checks: bool,
    /// How a character with this probe walks (`collidoscope walk`, the
    /// envelope, the level checks, walk mode). Files without the section
    /// get the defaults.
    #[serde(default)]
    pub character: CharacterSettings,
    /// What these settings say about the level they are used on: which of
    /// its objects do not collide (liquids, triggers, clip, sky). Every
    /// command and the window apply it.
    #[serde(default, skip_serializing_if = "LevelSettings::is_empty")]
    pub level: LevelSettings,
}

/// Smallest radius, metres. The solver works in the ellipsoid's own space,
/// where the level is divided by the radii: far below a millimetre, f64
/// round-off in a level's coordinates is a sizeable part of the radius, and
/// a probe of 1e-20 m goes through a wall (a 1e-100 m one does not see it).
/// A millimetre keeps a margin of about a million to one on levels within
/// 1,000 km of the origin.
pub const MIN_RADIUS_M: f64 = 1e-3;
/// Largest radius, metres (10 km): far beyond any character or camera.
pub const MAX_RADIUS_M: f64 = 1e4;
/// Most iterations of the recursion a pass may be given. The papers use 5;
/// a pass that needs more than a few dozen is caught in a corner.
pub const MAX_ITERATIONS: u32 = 1000;

/// Most patterns a `[level]` section may hold.
pub const MAX_NON_COLLIDING_PATTERNS: usize = 256;
/// Longest pattern, characters.
pub const MAX_PATTERN_CHARS: usize = 200;

/// The `[level]` section of a settings file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LevelSettings {
    /// Widest passage the level checks take for an opening (a door, an
    /// arch), metres, in (0, 100]: a game's doors may be 3 m and more.
    pub max_opening_width_m: f64,
    /// Highest, metres, in (0, 100].
    pub max_opening_height_m: f64,
    /// Objects that do not collide, named by patterns: `*` stands for any
    /// run of characters and `?` for one, letter case is ignored, and a
    /// pattern names an object when it matches its whole name, or the part
    /// before or after a `:` (the group and the material of an object made
    /// by `--objects-by group-and-material`), e.g. `["*water*", "*slime*",
    /// "*lava*", "trigger*"]`. See [`crate::collide::object_matches`].
    pub non_colliding: Vec<String>,
}

/// What a player passes through in a Quake-engine map imported by
/// [`crate::level::ImportOptions::quake_map`], as `[level] non_colliding`
/// patterns: the liquids (water, slime, lava), blood pools and teleporter
/// triggers, which such maps mark only by their texture names.
pub const QUAKE_NON_COLLIDING: [&str; 5] = ["*water*", "*slime*", "*lava*", "*blood*", "*tele*"];

impl Default for LevelSettings {
    fn default() -> Self {
        LevelSettings {
            max_opening_width_m: 6.0,
            max_opening_height_m: 6.0,
            non_colliding: Vec::new(),
        }
    }
}

/// Largest opening limit a `[level]` section may set, metres.
pub const MAX_OPENING_LIMIT_M: f64 = 100.0;

impl LevelSettings {
    /// Whether it says nothing but the defaults.
    pub fn is_empty(&self) -> bool {
        *self == LevelSettings::default()
    }
}

fn default_skin() -> f64 {
    0.005
}
fn default_max_iterations() -> u32 {
    5
}
fn default_min_move() -> f64 {
    1e-4
}
/// The mesh hygiene analysis calls the same angle coplanar.
fn default_ghost_edge_angle_deg() -> f64 {
    crate::math::DEFAULT_COPLANAR_DEG
}
fn default_true() -> bool {
    true
}

impl Default for SlideSettings {
    fn default() -> Self {
        SlideSettings {
            format_version: SETTINGS_FORMAT_VERSION,
            mode: SlideMode::Robust,
            radii: [0.4, 0.9, 0.4],
            shape: CharacterShape::Ellipsoid,
            gravity: [0.0, 0.0, 0.0],
            skin: default_skin(),
            max_iterations: default_max_iterations(),
            min_move: default_min_move(),
            two_sided: true,
            ghost_edge_angle_deg: default_ghost_edge_angle_deg(),
            self_checks: true,
            character: CharacterSettings::default(),
            level: LevelSettings::default(),
        }
    }
}

fn de_version<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v != SETTINGS_FORMAT_VERSION {
        return Err(serde::de::Error::custom(format!(
            "format_version {v} is not supported (this build reads version {SETTINGS_FORMAT_VERSION})"
        )));
    }
    Ok(v)
}

/// Exactly three numbers: a file's array of two or four is refused (TOML's
/// reader would otherwise drop a fourth without a word). Read as a tuple,
/// as `[f64; 3]` is, so that every format that wrote one (the window's
/// saved session writes `(x, y, z)`) reads it back.
fn de_three<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    struct Three;
    impl<'de> serde::de::Visitor<'de> for Three {
        type Value = [f64; 3];
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("three numbers [x, y, z]")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<[f64; 3], A::Error> {
            let mut v = [0.0; 3];
            let mut n = 0;
            while let Some(x) = seq.next_element::<f64>()? {
                if n < 3 {
                    v[n] = x;
                }
                n += 1;
            }
            if n != 3 {
                return Err(serde::de::Error::custom(format!(
                    "expected exactly three numbers [x, y, z], got {n}"
                )));
            }
            Ok(v)
        }
    }
    d.deserialize_tuple(3, Three)
}

fn de_finite3<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    let v = de_three(d)?;
    if let Some(x) = v.iter().find(|x| !x.is_finite()) {
        return Err(serde::de::Error::custom(format!(
            "{x} is not a finite number"
        )));
    }
    Ok(v)
}

fn de_radii<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 3], D::Error> {
    let v = de_three(d)?;
    radii_rule(v).map_err(serde::de::Error::custom)?;
    Ok(v)
}

/// Checks radii against their range ([`MIN_RADIUS_M`] to
/// [`MAX_RADIUS_M`]); the message quotes the first one out of it.
pub fn radii_rule(radii: [f64; 3]) -> Result<(), String> {
    match radii
        .iter()
        .find(|r| !(r.is_finite() && (MIN_RADIUS_M..=MAX_RADIUS_M).contains(*r)))
    {
        None => Ok(()),
        Some(r) if r.is_finite() && *r > 0.0 && *r < MIN_RADIUS_M => Err(format!(
            "radius {} m is below the smallest safe radius, {MIN_RADIUS_M} m \
             (smaller probes slip through the round-off of level coordinates)",
            crate::math::short_number(*r)
        )),
        Some(r) => Err(format!(
            "radius {} must be a finite number from {MIN_RADIUS_M} to {MAX_RADIUS_M} m",
            crate::math::short_number(*r)
        )),
    }
}

fn de_non_negative<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let x = f64::deserialize(d)?;
    if !(x.is_finite() && (0.0..=super::MAX_MAGNITUDE_M).contains(&x)) {
        return Err(serde::de::Error::custom(format!(
            "{} must be a finite number from 0 to {:e}",
            crate::math::short_number(x),
            super::MAX_MAGNITUDE_M
        )));
    }
    Ok(x)
}

fn de_ghost_angle<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let x = f64::deserialize(d)?;
    if !(0.0..=45.0).contains(&x) {
        return Err(serde::de::Error::custom(format!(
            "ghost_edge_angle_deg {x} must be from 0 to 45"
        )));
    }
    Ok(x)
}

fn de_iterations<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if !(1..=MAX_ITERATIONS).contains(&n) {
        return Err(serde::de::Error::custom(format!(
            "max_iterations {n} must be from 1 to {MAX_ITERATIONS}"
        )));
    }
    Ok(n)
}

/// Why settings cannot be used: a value, or two values together, break a
/// rule ([`SlideSettings::validate`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid settings: {0}")]
pub struct InvalidSettings(pub String);

impl SlideSettings {
    /// Radii as a vector.
    pub fn radii_vec(&self) -> DVec3 {
        DVec3::from_array(self.radii)
    }

    /// Half sizes of the box around the probe's shape, metres: its radii
    /// for the ellipsoid. The solver's candidate search covers this box
    /// swept along the move.
    pub fn half_extents(&self) -> DVec3 {
        self.shape.half_extents(self.radii_vec())
    }

    /// Gravity as a vector.
    pub fn gravity_vec(&self) -> DVec3 {
        DVec3::from_array(self.gravity)
    }

    /// Checks the same rules as the file reader, for settings built in code.
    pub fn validate(&self) -> Result<(), InvalidSettings> {
        let bad = |m: String| Err(InvalidSettings(m));
        for (name, v) in [
            ("level.max_opening_width_m", self.level.max_opening_width_m),
            (
                "level.max_opening_height_m",
                self.level.max_opening_height_m,
            ),
        ] {
            if !(v.is_finite() && v > 0.0 && v <= MAX_OPENING_LIMIT_M) {
                return bad(format!(
                    "{name} {v} must be a number greater than 0 and at most {MAX_OPENING_LIMIT_M} m"
                ));
            }
        }
        let patterns = &self.level.non_colliding;
        if patterns.len() > MAX_NON_COLLIDING_PATTERNS {
            return bad(format!(
                "level.non_colliding has {} patterns; at most {MAX_NON_COLLIDING_PATTERNS}",
                patterns.len()
            ));
        }
        if let Some(p) = patterns
            .iter()
            .find(|p| p.is_empty() || p.chars().count() > MAX_PATTERN_CHARS)
        {
            let shown: String = p.chars().take(40).collect();
            return bad(format!(
                "level.non_colliding pattern '{shown}{}' ({} characters) must be 1 to {MAX_PATTERN_CHARS} characters",
                if p.chars().count() > 40 { "…" } else { "" },
                p.chars().count()
            ));
        }
        if self.format_version != SETTINGS_FORMAT_VERSION {
            return bad(format!(
                "format_version {} is not supported",
                self.format_version
            ));
        }
        radii_rule(self.radii).map_err(|e| InvalidSettings(format!("radii: {e}")))?;
        if !self.gravity.iter().all(|g| g.is_finite()) {
            return bad(format!("gravity {:?} must be finite", self.gravity));
        }
        if !(self.skin.is_finite() && self.skin >= 0.0) {
            return bad(format!(
                "skin {} must be finite and zero or more",
                crate::math::short_number(self.skin)
            ));
        }
        self.shape.validate().map_err(InvalidSettings)?;
        if !self.shape.is_ellipsoid() && self.mode != SlideMode::Robust {
            return bad(format!(
                "shape {} needs mode robust: {} is the ellipsoid's algorithm as published \
                 (shapes other than the ellipsoid run only in robust mode)",
                self.shape.name(),
                self.mode
            ));
        }
        let smallest = self.half_extents().min_element();
        if self.skin >= smallest {
            return bad(format!(
                "skin {} must be smaller than the smallest radius {smallest}: \
                 the probe would keep farther from everything than its own size",
                self.skin
            ));
        }
        if let Some(g) = self
            .gravity
            .iter()
            .find(|g| g.abs() > super::MAX_MAGNITUDE_M)
        {
            return bad(format!(
                "gravity {g} is beyond the supported ±{:e} m",
                super::MAX_MAGNITUDE_M
            ));
        }
        if !(self.min_move.is_finite() && (0.0..=super::MAX_MAGNITUDE_M).contains(&self.min_move)) {
            return bad(format!(
                "min_move {} must be a finite number from 0 to {:e} m",
                crate::math::short_number(self.min_move),
                super::MAX_MAGNITUDE_M
            ));
        }
        if !(0.0..=45.0).contains(&self.ghost_edge_angle_deg) {
            return bad(format!(
                "ghost_edge_angle_deg {} must be from 0 to 45",
                self.ghost_edge_angle_deg
            ));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.max_iterations) {
            return bad(format!(
                "max_iterations {} must be from 1 to {MAX_ITERATIONS}",
                self.max_iterations
            ));
        }
        self.character.validate().map_err(InvalidSettings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field's name and an edit that breaks its rule.
    type Breakage = (&'static str, fn(&mut SlideSettings));

    #[test]
    fn defaults_are_valid_and_each_rule_names_its_field() {
        assert_eq!(SlideSettings::default().validate(), Ok(()));
        let broken: [Breakage; 8] = [
            ("format_version", |s| s.format_version = 7),
            ("radii", |s| s.radii[1] = 0.0),
            ("gravity", |s| s.gravity[0] = f64::NAN),
            ("skin", |s| s.skin = 0.4),
            ("ghost_edge_angle_deg", |s| s.ghost_edge_angle_deg = 60.0),
            ("max_iterations", |s| s.max_iterations = 0),
            ("shape.height_m", |s| {
                s.shape = CharacterShape::Capsule {
                    radius_m: 0.4,
                    height_m: 0.5,
                }
            }),
            ("mode robust", |s| {
                s.shape = CharacterShape::Sphere { radius_m: 0.4 };
                s.mode = SlideMode::Fauerby2003;
            }),
        ];
        for (field, break_it) in broken {
            let mut s = SlideSettings::default();
            break_it(&mut s);
            let e = s.validate().unwrap_err().to_string();
            assert!(
                e.starts_with("invalid settings: ") && e.contains(field),
                "{field}: {e}"
            );
        }
    }
}
