//! Reading an engine's settings back: the text [`super::export`] wrote for
//! an engine (and reasonable hand edits of it: changed numbers, reordered
//! lines, other whitespace, extra comments, `f` suffixes, `1.0e-2` forms)
//! read into [`SlideSettings`], the units converted back.
//!
//! The shape comes from the capsule: its radius is both horizontal radii
//! (x = z) and half its total height the vertical radius (y). Settings the
//! export lists as not mapped keep Collidoscope's defaults, and
//! [`EngineImport::not_read`] names them. Values the export clamped (with a
//! `WARNING` comment) come back as written, clamped; the warnings are
//! returned in [`EngineImport::warnings`].
//!
//! Numbers: every engine number is a 32-bit float, so a value comes back
//! within that precision. When the file holds a number exactly as the
//! export writes it (the shortest form of a 32-bit float), the value read
//! back is the shortest decimal that the export writes as that same number
//! (45 degrees, not 45.0000002 from `0.7853982` radians), so exporting the
//! settings read back writes the same numbers again.
//!
//! Errors name the line and quote the start of its text
//! ([`crate::quote::prefix`]): a file that holds none of the engine's
//! settings, a missing required one (the capsule and the walkable slope),
//! a number that is not one, not finite or out of Collidoscope's range.

use super::Engine;
use crate::character::{MAX_CHARACTER_VALUE, MAX_FRAME_RATE_HZ, MIN_FRAME_RATE_HZ};
use crate::collide::{MAX_ITERATIONS, MAX_MAGNITUDE_M, MAX_RADIUS_M, MIN_RADIUS_M, SlideSettings};
use crate::quote::prefix;

/// Largest engine file read: an export is a few kilobytes.
pub const MAX_ENGINE_FILE_BYTES: u64 = crate::fileio::MIB;

/// Settings read back from an engine's file.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineImport {
    /// The engine read from.
    pub engine: Engine,
    /// The settings, validated.
    pub settings: SlideSettings,
    /// Settings the file does not hold, kept at Collidoscope's defaults,
    /// each as `name = default` (and why, when the file holds the setting
    /// in a form that is not read back).
    pub not_read: Vec<String>,
    /// The file's `WARNING` comments: values the export wrote clamped,
    /// which come back as written.
    pub warnings: Vec<String>,
}

/// Why a file could not be read back; the caller adds the file's name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct ImportError {
    /// The 1-based line at fault, when one is.
    pub line: Option<usize>,
    /// What is wrong, one line, quotes bounded.
    pub message: String,
}

impl ImportError {
    fn at(line: usize, message: String) -> ImportError {
        ImportError {
            line: Some(line),
            message,
        }
    }

    fn whole(message: String) -> ImportError {
        ImportError {
            line: None,
            message,
        }
    }
}

/// Reads `text`, an export for `engine`, back into settings.
pub fn import(engine: Engine, text: &str) -> Result<EngineImport, ImportError> {
    if text.trim().is_empty() {
        return Err(ImportError::whole(format!(
            "the file is empty, not a {} export",
            engine.title()
        )));
    }
    let mut r = Reader::new(engine, text);
    if !r.recognised(engine) {
        let other = Engine::ALL
            .into_iter()
            .find(|&e| e != engine && r.recognised(e));
        let hint = match other {
            Some(e) => format!(" (it looks like a {} export: try --from {e})", e.title()),
            None => String::new(),
        };
        return Err(ImportError::whole(format!(
            "not a {} export: none of its settings ({}) is in the file{hint}",
            engine.title(),
            signature(engine).join(", ")
        )));
    }
    let mut s = SlideSettings::default();
    match engine {
        Engine::Rapier => super::rapier::read(&mut r, &mut s)?,
        Engine::Jolt => super::jolt::read(&mut r, &mut s)?,
        Engine::Physx => super::physx::read(&mut r, &mut s)?,
        Engine::Godot => super::godot::read(&mut r, &mut s)?,
        Engine::Unity => super::unity::read(&mut r, &mut s)?,
        Engine::Unreal => super::unreal::read(&mut r, &mut s)?,
    }
    // Read back from an engine's file: the character follows that engine.
    s.character.engine = engine.profile();
    let d = SlideSettings::default();
    r.not_read(format!("mode = {}", d.mode));
    r.not_read(format!("self_checks = {}", d.self_checks));
    r.not_read(format!("ghost_edge_angle_deg = {}", d.ghost_edge_angle_deg));
    r.not_read(format!("gravity = {:?}", d.gravity));
    if engine != Engine::Jolt {
        r.not_read(format!("two_sided = {}", d.two_sided));
    }
    s.validate().map_err(|e| {
        ImportError::whole(format!(
            "the settings read back break a rule: {}",
            crate::quote::bounded_message(&e.0)
        ))
    })?;
    Ok(EngineImport {
        engine,
        settings: s,
        not_read: r.not_read,
        warnings: r.warnings,
    })
}

/// Names only `engine`'s export writes in code, to tell its file from others.
fn signature(engine: Engine) -> &'static [&'static str] {
    match engine {
        Engine::Rapier => &[
            "ColliderBuilder::capsule_y",
            "ColliderBuilder::ball",
            "max_slope_climb_angle",
        ],
        Engine::Jolt => &[
            "CapsuleShapeSettings",
            "mMaxSlopeAngle",
            "mCharacterPadding",
        ],
        Engine::Physx => &["desc.radius", "desc.height", "desc.slopeLimit"],
        Engine::Godot => &["capsule.radius", "capsule.height", "floor_max_angle"],
        Engine::Unity => &[
            "controller.radius",
            "controller.height",
            "controller.slopeLimit",
        ],
        Engine::Unreal => &["InitCapsuleSize", "SetWalkableFloorAngle", "MaxWalkSpeed"],
    }
}

/// One line of the file, split into code and comment, each with runs of
/// whitespace removed (one space kept between two word characters, so
/// `const float X` stays three words).
struct Line {
    /// 1-based.
    number: usize,
    /// The line as written, trimmed, for quoting.
    raw: String,
    code: String,
    /// The comment, squeezed as the code.
    comment: String,
    /// The comment as written, trimmed.
    note: String,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with whitespace runs dropped, or one space where both sides are
/// word characters.
fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_whitespace() {
            gap = true;
            continue;
        }
        if gap && out.chars().next_back().is_some_and(is_word) && is_word(c) {
            out.push(' ');
        }
        gap = false;
        out.push(c);
    }
    out
}

/// Splits `text` into lines of code and comment: `#` comments for
/// GDScript, `//` and `/* */` for Rust, C++ and C#; string literals are
/// skipped.
fn lex(text: &str, hash_comments: bool) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for (i, raw) in text.lines().enumerate() {
        let mut code = String::new();
        let mut comment = String::new();
        let mut chars = raw.chars().peekable();
        let mut in_string = false;
        while let Some(c) = chars.next() {
            if in_block {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    in_block = false;
                    code.push(' ');
                } else {
                    comment.push(c);
                }
                continue;
            }
            if in_string {
                code.push(c);
                if c == '\\' {
                    if let Some(n) = chars.next() {
                        code.push(n);
                    }
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            match c {
                '"' => {
                    in_string = true;
                    code.push(c);
                }
                '#' if hash_comments => {
                    comment.push(' ');
                    comment.extend(chars.by_ref());
                }
                '/' if !hash_comments && chars.peek() == Some(&'/') => {
                    chars.next();
                    comment.push(' ');
                    comment.extend(chars.by_ref());
                }
                '/' if !hash_comments && chars.peek() == Some(&'*') => {
                    chars.next();
                    in_block = true;
                    comment.push(' ');
                }
                _ => code.push(c),
            }
        }
        lines.push(Line {
            number: i + 1,
            raw: raw.trim().to_string(),
            code: squeeze(&code),
            comment: squeeze(&comment),
            note: comment.trim().to_string(),
        });
    }
    lines
}

/// A number as a file writes it.
#[derive(Clone, Copy, Debug)]
struct Literal {
    value: f64,
    /// Written as the export writes a 32-bit float: its shortest form.
    shortest_f32: bool,
}

/// The number literal at the start of `s` (`-0.5`, `1.0e-2f`, `45F`,
/// `3_f32`, `.5`) and its length, or `None`.
fn literal(s: &str) -> Option<(Literal, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits_from = i;
    let mut digits = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        digits += usize::from(b[i].is_ascii_digit());
        i += 1;
    }
    if digits == 0 || s[digits_from..i].matches('.').count() > 1 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_from = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > exp_from {
            i = j;
        }
    }
    let number = &s[..i];
    let rest = &s[i..];
    let suffix = ["_f32", "_f64", "f32", "f64", "f", "F", "d", "D"]
        .into_iter()
        .find(|x| rest.starts_with(x))
        .map_or(0, str::len);
    let end = i + suffix;
    if s[end..]
        .chars()
        .next()
        .is_some_and(|c| is_word(c) || c == '.')
    {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    let f = value as f32;
    let shortest_f32 = f.is_finite() && format!("{f:?}").parse::<f64>().ok() == Some(value);
    Some((
        Literal {
            value,
            shortest_f32,
        },
        end,
    ))
}

/// A Collidoscope setting's range, for the check of a value read back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Range {
    min: f64,
    min_inclusive: bool,
    max: f64,
    max_inclusive: bool,
}

impl Range {
    /// A radius: [`MIN_RADIUS_M`] to [`MAX_RADIUS_M`].
    pub(super) const RADIUS: Range = Range::closed(MIN_RADIUS_M, MAX_RADIUS_M);
    /// The skin and the least move: 0 to the solver's largest magnitude.
    pub(super) const SOLVER_LENGTH: Range = Range::closed(0.0, MAX_MAGNITUDE_M);
    /// A character length, speed or acceleration: 0 to [`MAX_CHARACTER_VALUE`].
    pub(super) const CHARACTER: Range = Range::closed(0.0, MAX_CHARACTER_VALUE);
    /// The fastest fall: above 0.
    pub(super) const FALL: Range = Range {
        min: 0.0,
        min_inclusive: false,
        max: MAX_CHARACTER_VALUE,
        max_inclusive: true,
    };
    /// The walkable slope, degrees: 0 to under 90.
    pub(super) const SLOPE: Range = Range {
        min: 0.0,
        min_inclusive: true,
        max: 90.0,
        max_inclusive: false,
    };
    /// The frame rate, Hz.
    pub(super) const FRAME_RATE: Range = Range::closed(MIN_FRAME_RATE_HZ, MAX_FRAME_RATE_HZ);
    /// The iterations of one pass.
    pub(super) const ITERATIONS: Range = Range::closed(1.0, MAX_ITERATIONS as f64);

    const fn closed(min: f64, max: f64) -> Range {
        Range {
            min,
            min_inclusive: true,
            max,
            max_inclusive: true,
        }
    }

    pub(super) fn holds(&self, x: f64) -> bool {
        let low = if self.min_inclusive {
            x >= self.min
        } else {
            x > self.min
        };
        let high = if self.max_inclusive {
            x <= self.max
        } else {
            x < self.max
        };
        x.is_finite() && low && high
    }

    pub(super) fn text(&self) -> String {
        let low = if self.min_inclusive {
            "at least"
        } else {
            "more than"
        };
        let high = if self.max_inclusive {
            "at most"
        } else {
            "under"
        };
        format!("{low} {} and {high} {}", self.min, self.max)
    }
}

/// One engine setting: where it is written and what it becomes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Field<'a> {
    /// The texts that introduce it, whitespace removed as in [`squeeze`]
    /// (alternatives; the last line holding any of them counts).
    pub(super) keys: &'a [&'a str],
    /// Which of the comma-separated numbers after the key, and how many there are.
    pub(super) arg: usize,
    pub(super) args: usize,
    /// The engine's name for it, for messages.
    pub(super) name: &'a str,
    /// Collidoscope's name for what it becomes.
    pub(super) setting: &'a str,
    /// Also looked for in comments (values the export writes as a note).
    pub(super) in_comments: bool,
}

impl<'a> Field<'a> {
    /// The only number after one of `keys`, in code.
    pub(super) const fn code(keys: &'a [&'a str], name: &'a str, setting: &'a str) -> Field<'a> {
        Field {
            keys,
            arg: 0,
            args: 1,
            name,
            setting,
            in_comments: false,
        }
    }

    /// Number `arg` of `args` after one of `keys`, in code.
    pub(super) const fn nth(self, arg: usize, args: usize) -> Field<'a> {
        Field { arg, args, ..self }
    }

    /// Also looked for in comments.
    pub(super) const fn noted(self) -> Field<'a> {
        Field {
            in_comments: true,
            ..self
        }
    }
}

/// An engine number found in the file.
#[derive(Clone, Copy, Debug)]
pub(super) struct Found {
    line: usize,
    literal: Literal,
}

/// The file being read: its lines, and what was not read back.
pub(super) struct Reader {
    engine: Engine,
    lines: Vec<Line>,
    not_read: Vec<String>,
    warnings: Vec<String>,
}

impl Reader {
    fn new(engine: Engine, text: &str) -> Reader {
        let lines = lex(text, engine == Engine::Godot);
        let warnings = lines
            .iter()
            .filter_map(|l| {
                let w = l.note.strip_prefix("WARNING:")?;
                Some(format!(
                    "line {}: {}",
                    l.number,
                    crate::quote::bounded_message(w.trim())
                ))
            })
            .collect();
        Reader {
            engine,
            lines,
            not_read: Vec::new(),
            warnings,
        }
    }

    /// Whether any of `engine`'s signature names is in the code.
    fn recognised(&self, engine: Engine) -> bool {
        let names = signature(engine);
        self.lines
            .iter()
            .any(|l| names.iter().any(|n| key_at(&l.code, n).is_some()))
    }

    /// A setting kept at its default: `what` is `name = default` (and why).
    pub(super) fn not_read(&mut self, what: String) {
        self.not_read.push(what);
    }

    /// The last line holding one of `keys` (in comments too when asked),
    /// and the text right after the key.
    fn find(&self, keys: &[&str], in_comments: bool) -> Option<(&Line, &str)> {
        self.lines.iter().rev().find_map(|l| {
            let texts = [
                Some(l.code.as_str()),
                in_comments.then_some(l.comment.as_str()),
            ];
            texts.into_iter().flatten().find_map(|t| {
                keys.iter()
                    .find_map(|k| key_at(t, k).map(|at| (l, &t[at + k.len()..])))
            })
        })
    }

    /// The line holding one of `keys` in code, if any.
    pub(super) fn line_with(&self, keys: &[&str]) -> Option<usize> {
        self.find(keys, false).map(|(l, _)| l.number)
    }

    /// The word (identifier) right after one of `keys`, with its line.
    pub(super) fn word(&self, keys: &[&str]) -> Option<(usize, String)> {
        let (l, rest) = self.find(keys, false)?;
        let w: String = rest.chars().take_while(|&c| is_word(c)).collect();
        Some((l.number, w))
    }

    /// The error for a bad `line`, quoting its start.
    pub(super) fn bad(&self, line: usize, why: String) -> ImportError {
        let raw = self
            .lines
            .get(line.wrapping_sub(1))
            .map_or("", |l| l.raw.as_str());
        ImportError::at(line, format!("{why}: `{}`", prefix(raw)))
    }

    /// The engine number `f` names, if the file holds it.
    pub(super) fn number(&self, f: &Field) -> Result<Option<Found>, ImportError> {
        let Some((line, rest)) = self.find(f.keys, f.in_comments) else {
            return Ok(None);
        };
        let expected = || {
            let n = if f.args == 1 {
                "a number".to_string()
            } else {
                format!("{} numbers separated by commas", f.args)
            };
            self.bad(line.number, format!("{}: expected {n}", f.name))
        };
        // `NAME: f32 = 1.0`, `NAME := 1.0`, `NAME = 1.0`, `name: 1.0`: the
        // number after a type and the `=` (or a Rust field's `:`).
        let mut at = rest;
        if let Some(t) = at.strip_prefix(':')
            && t.starts_with(char::is_alphabetic)
        {
            at = t.trim_start_matches(is_word);
        }
        at = at
            .strip_prefix(":=")
            .or_else(|| at.strip_prefix('='))
            .or_else(|| at.strip_prefix(':'))
            .unwrap_or(at);
        let mut found = None;
        for i in 0..f.args {
            let (lit, len) = literal(at).ok_or_else(expected)?;
            if i == f.arg {
                found = Some(lit);
            }
            at = &at[len..];
            if i + 1 < f.args {
                at = at.strip_prefix(',').ok_or_else(expected)?;
            }
        }
        let literal = found.ok_or_else(expected)?;
        if !literal.value.is_finite() {
            return Err(self.bad(line.number, format!("{} is not a finite number", f.name)));
        }
        Ok(Some(Found {
            line: line.number,
            literal,
        }))
    }

    /// The engine number `f` names, required.
    pub(super) fn required(&self, f: &Field) -> Result<Found, ImportError> {
        self.number(f)?.ok_or_else(|| {
            ImportError::whole(format!(
                "missing {} (Collidoscope's {}): a {} export writes it as `{}`",
                f.name,
                f.setting,
                self.engine.title(),
                f.keys[0]
            ))
        })
    }

    /// The Collidoscope value of `found`: `from_engine` of the number,
    /// tidied (see [`tidy`]) against `to_engine`, the export's conversion
    /// without its clamps (a clamp maps many values to one number, and the
    /// value read back is the one that number stands for), and checked
    /// against `range`.
    pub(super) fn value(
        &self,
        f: &Field,
        found: Found,
        from_engine: impl Fn(f64) -> f64,
        to_engine: impl Fn(f64) -> f64,
        range: Range,
    ) -> Result<f64, ImportError> {
        let written = found.literal.value;
        let v0 = from_engine(written);
        let v = if found.literal.shortest_f32 {
            tidy(v0, written as f32, to_engine)
        } else {
            v0
        };
        if !range.holds(v) {
            return Err(self.bad(
                found.line,
                format!(
                    "{} = {} gives {} = {}, which must be {}",
                    f.name,
                    shown(written),
                    f.setting,
                    shown(v),
                    range.text()
                ),
            ));
        }
        Ok(v)
    }

    /// [`Reader::number`] then [`Reader::value`]: `None` when absent.
    pub(super) fn get(
        &self,
        f: &Field,
        from_engine: impl Fn(f64) -> f64,
        to_engine: impl Fn(f64) -> f64,
        range: Range,
    ) -> Result<Option<f64>, ImportError> {
        match self.number(f)? {
            Some(found) => self
                .value(f, found, from_engine, to_engine, range)
                .map(Some),
            None => Ok(None),
        }
    }

    /// A value the engine writes in Collidoscope's unit, or the default
    /// (listed as not read) when the file does not hold it.
    pub(super) fn same_unit(
        &mut self,
        f: &Field,
        range: Range,
        target: &mut f64,
    ) -> Result<(), ImportError> {
        self.scaled(f, 1.0, range, target)
    }

    /// A value the engine writes times `scale` (100 for centimetres), or
    /// the default (listed as not read) when the file does not hold it.
    pub(super) fn scaled(
        &mut self,
        f: &Field,
        scale: f64,
        range: Range,
        target: &mut f64,
    ) -> Result<(), ImportError> {
        match self.get(f, |x| x / scale, |v| v * scale, range)? {
            Some(v) => *target = v,
            None => self.absent(f, *target),
        }
        Ok(())
    }

    /// Notes `f`'s setting as not in the file, kept at `default`.
    pub(super) fn absent(&mut self, f: &Field, default: f64) {
        let name = f.setting.trim_start_matches("character.");
        self.not_read(format!("{name} = {default}"));
    }

    /// A whole number of iterations.
    pub(super) fn iterations(&mut self, f: &Field, target: &mut u32) -> Result<(), ImportError> {
        match self.number(f)? {
            Some(found) => {
                let n = self.value(f, found, id, id, Range::ITERATIONS)?;
                if n.fract() != 0.0 {
                    return Err(self.bad(found.line, format!("{} must be a whole number", f.name)));
                }
                *target = n as u32;
            }
            None => self.absent(f, f64::from(*target)),
        }
        Ok(())
    }

    /// The frame rate from a frame time in seconds (`1 / frame_rate_hz`).
    pub(super) fn frame_time(&mut self, f: &Field, target: &mut f64) -> Result<(), ImportError> {
        match self.get(f, |dt| 1.0 / dt, |hz| 1.0 / hz, Range::FRAME_RATE)? {
            Some(v) => *target = v,
            None => self.absent(f, *target),
        }
        Ok(())
    }
}

/// The conversion of a setting an engine writes in Collidoscope's unit.
pub(super) fn id(x: f64) -> f64 {
    x
}

/// A number for a message: its 32-bit form when that is exact enough
/// (`114.59156`), else [`crate::math::short_number`].
fn shown(x: f64) -> String {
    let f = x as f32;
    if f.is_finite() && (x == 0.0 || (1e-4..1e7).contains(&x.abs())) {
        format!("{f}")
    } else {
        crate::math::short_number(x)
    }
}

/// Where `key` starts in `text` at a word boundary (not inside a longer
/// name), the last such place.
fn key_at(text: &str, key: &str) -> Option<usize> {
    let starts_word = key.chars().next().is_some_and(is_word);
    let ends_word = key.chars().next_back().is_some_and(is_word);
    text.rmatch_indices(key).map(|(i, _)| i).find(|&i| {
        let before = starts_word && text[..i].chars().next_back().is_some_and(is_word);
        let after = ends_word && text[i + key.len()..].chars().next().is_some_and(is_word);
        !before && !after
    })
}

/// The value read back for an engine number written as the 32-bit float
/// `written`: of the decimals that the export's conversion `to_engine`
/// turns into that same float, the one with the fewest digits near `v0`
/// (the exact inverse); `v0` when none is found.
fn tidy(v0: f64, written: f32, to_engine: impl Fn(f64) -> f64) -> f64 {
    if !v0.is_finite() {
        return v0;
    }
    let same = |d: f64| to_engine(d) as f32 == written;
    if !same(v0) {
        return v0;
    }
    (0..17)
        .filter_map(|digits| format!("{v0:.digits$e}").parse::<f64>().ok())
        .find(|&d| same(d))
        .unwrap_or(v0)
}

#[cfg(test)]
pub(super) mod lexing {
    //! The reader's pieces, for the tests.
    pub(in super::super) fn literal(s: &str) -> Option<(f64, bool, usize)> {
        super::literal(s).map(|(l, n)| (l.value, l.shortest_f32, n))
    }

    pub(in super::super) fn tidy(v0: f64, written: f32, to: impl Fn(f64) -> f64) -> f64 {
        super::tidy(v0, written, to)
    }

    /// Each line's code, whitespace squeezed.
    pub(in super::super) fn code_lines(text: &str, hash: bool) -> Vec<String> {
        super::lex(text, hash).into_iter().map(|l| l.code).collect()
    }
}
