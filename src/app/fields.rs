//! The window's number fields: what each setting allows, and the check of
//! a typed value against it. A value out of range is refused (the field
//! keeps its value and says the range in one short line), never clamped
//! to the nearest value allowed nor stored as typed. NaN is called NaN.
//!
//! The ranges are those the settings' own validation states
//! ([`crate::collide::SlideSettings::validate`], the character settings,
//! [`crate::methods::MethodSettings::validate`],
//! [`crate::level::cylinder::Cylinder::validate`]); the tests below check
//! that each bound agrees with it.

use crate::character::{MAX_CHARACTER_VALUE, MAX_FRAME_RATE_HZ, MIN_FRAME_RATE_HZ};
use crate::collide::{MAX_ITERATIONS, MAX_MAGNITUDE_M, MAX_RADIUS_M, MIN_RADIUS_M};

/// The values one field allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// The lowest value.
    pub min: f64,
    /// The lowest value itself is not allowed.
    pub min_open: bool,
    /// The highest value.
    pub max: f64,
    /// The highest value itself is not allowed.
    pub max_open: bool,
    /// Only whole numbers.
    pub integer: bool,
    /// The unit shown after the bounds (" m", "°", " Hz").
    pub unit: &'static str,
}

impl Range {
    /// From `min` to `max`, both allowed.
    pub const fn closed(min: f64, max: f64, unit: &'static str) -> Range {
        Range {
            min,
            min_open: false,
            max,
            max_open: false,
            integer: false,
            unit,
        }
    }

    /// More than `min`, at most `max`.
    pub const fn above(min: f64, max: f64, unit: &'static str) -> Range {
        Range {
            min_open: true,
            ..Range::closed(min, max, unit)
        }
    }

    /// At least `min`, less than `max`.
    pub const fn below(min: f64, max: f64, unit: &'static str) -> Range {
        Range {
            max_open: true,
            ..Range::closed(min, max, unit)
        }
    }

    /// Whole numbers only.
    pub const fn whole(self) -> Range {
        Range {
            integer: true,
            ..self
        }
    }

    /// A world coordinate or displacement: within ±[`MAX_MAGNITUDE_M`].
    pub const fn coordinate() -> Range {
        Range::closed(-MAX_MAGNITUDE_M, MAX_MAGNITUDE_M, " m")
    }

    /// Whether `x` is allowed.
    pub fn contains(&self, x: f64) -> bool {
        let low = if self.min_open {
            x > self.min
        } else {
            x >= self.min
        };
        let high = if self.max_open {
            x < self.max
        } else {
            x <= self.max
        };
        x.is_finite() && low && high && (!self.integer || x.fract() == 0.0)
    }

    /// The range in a few characters: `1 ≤ v ≤ 1000 Hz`.
    pub fn words(&self) -> String {
        let lo = if self.min_open { "<" } else { "≤" };
        let hi = if self.max_open { "<" } else { "≤" };
        let whole = if self.integer { ", whole" } else { "" };
        format!(
            "{} {lo} v {hi} {}{}{whole}",
            number(self.min),
            number(self.max),
            self.unit
        )
    }

    /// The values a drag may reach: the range with its open ends moved in
    /// by a hair (a drag is clamped; only typing is refused).
    pub fn drag_range(&self) -> std::ops::RangeInclusive<f64> {
        let hair = |x: f64| (x.abs() * 1e-6).max(1e-6);
        let lo = if self.min_open {
            self.min + hair(self.min)
        } else {
            self.min
        };
        let hi = if self.max_open {
            self.max - hair(self.max)
        } else {
            self.max
        };
        lo..=hi.max(lo)
    }
}

/// A bound in a few characters: `1e9`, `1000`, `0.3`.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "infinity" } else { "-infinity" }.into()
    } else if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-4) {
        format!("{x:e}")
    } else {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" { "0".into() } else { s.into() }
    }
}

/// Typed text as a message quotes it, in double quotes: at most
/// [`crate::quote::QUOTE_CHARS`] characters, and how long it was when longer
/// ([`crate::quote::prefix`]).
pub fn quote(text: &str) -> String {
    format!("\"{}\"", crate::quote::prefix(text))
}

/// Reads typed text as a number (spaces ignored, a typographic minus
/// read as a minus), or says why not.
pub fn parse(text: &str) -> Result<f64, String> {
    let clean: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '−' { '-' } else { c })
        .collect();
    match clean.parse::<f64>() {
        Ok(x) if x.is_nan() => Err("NaN is not a number".into()),
        Ok(x) if x.is_infinite() => Err("infinity is not allowed".into()),
        Ok(x) => Ok(x),
        Err(_) => Err("not a number".into()),
    }
}

/// The typed `text` as a value of `range`, or the one-line reason it is
/// refused (the range in it): `Refused "1e308": needs 1 ≤ v ≤ 1000 Hz`.
pub fn judge(text: &str, range: &Range) -> Result<f64, Refusal> {
    let refuse = |why: Option<String>| Refusal {
        quoted: quote(text.trim()),
        why,
        range: range.words(),
    };
    match parse(text) {
        Ok(x) if range.contains(x) => Ok(x),
        Ok(_) => Err(refuse(None)),
        Err(why) => Err(refuse(Some(why))),
    }
}

/// [`judge`], and a value with more decimals than the field shows
/// (`decimals`) refused too: the value applied is the value shown.
pub fn judge_shown(text: &str, range: &Range, decimals: usize) -> Result<f64, Refusal> {
    let x = judge(text, range)?;
    let shown: f64 = format!("{x:.decimals$}").parse().unwrap_or(f64::NAN);
    if shown == x {
        return Ok(x);
    }
    Err(Refusal {
        quoted: quote(text.trim()),
        why: Some(format!("at most {decimals} decimals")),
        range: range.words(),
    })
}

/// Why a typed value was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The typed text, quoted ([`quote`]).
    pub quoted: String,
    /// Why it is no number ("NaN is not a number"), when it is none.
    pub why: Option<String>,
    /// The range allowed ([`Range::words`]).
    pub range: String,
}

impl Refusal {
    /// The short line under the field: `needs 1 ≤ v ≤ 1000 Hz`, or
    /// `NaN is not a number`.
    pub fn short(&self) -> String {
        match &self.why {
            Some(why) => format!("Refused: {why}"),
            None => format!("Refused: needs {}", self.range),
        }
    }

    /// The whole message, naming the field and quoting the text.
    pub fn message(&self, field: &str) -> String {
        match &self.why {
            Some(why) => format!(
                "{field}: {} refused, {why} (needs {})",
                self.quoted, self.range
            ),
            None => format!("{field}: {} refused, it needs {}", self.quoted, self.range),
        }
    }
}

/// `msg` with every number longer than 16 characters written short
/// (`1e-300` rather than three hundred zeros), so a message that quotes a
/// value is one line.
pub fn compact_numbers(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(512));
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let t = std::mem::take(token);
        match t.parse::<f64>() {
            Ok(x) if t.len() > 16 => out.push_str(&format!("{x:e}")),
            _ => out.push_str(&t),
        }
    };
    for c in msg.chars() {
        let in_number =
            c.is_ascii_digit() || c == '-' || matches!(c, '.' | '+' | 'e') && !token.is_empty();
        if in_number {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The fields of the probe editor and the Character page, with the range
/// each allows. `skin` and `radius` depend on each other; `smallest_radius`
/// and `skin` are the probe's now.
pub mod ranges {
    use super::*;

    /// A probe's radius: from the smallest safe radius to the largest,
    /// and more than its skin (the validation's "skin smaller than the
    /// smallest radius").
    pub fn radius(skin: f64) -> Range {
        if skin >= MIN_RADIUS_M {
            Range::above(skin, MAX_RADIUS_M, " m")
        } else {
            Range::closed(MIN_RADIUS_M, MAX_RADIUS_M, " m")
        }
    }

    /// The skin: zero or more, less than the smallest radius.
    pub fn skin(smallest_radius: f64) -> Range {
        Range::below(0.0, smallest_radius, " m")
    }

    /// The iteration cap per pass.
    pub const ITERATIONS: Range = Range::closed(1.0, MAX_ITERATIONS as f64, "").whole();
    /// The least move that counts.
    pub const MIN_MOVE: Range = Range::closed(0.0, MAX_MAGNITUDE_M, " m");
    /// The ghost corner fold.
    pub const GHOST_FOLD: Range = Range::closed(0.0, 45.0, "°");

    /// A method's step rate: above zero, and the move at most
    /// [`crate::methods::MAX_STEPS`] steps.
    pub fn step_rate(move_seconds: f64) -> Range {
        let max = f64::from(crate::methods::MAX_STEPS) / move_seconds.max(1e-9);
        Range::above(0.0, max, " Hz")
    }

    /// A method's move duration: above zero, at most
    /// [`crate::methods::MAX_STEPS`] steps.
    pub fn move_seconds(step_hz: f64) -> Range {
        let max = f64::from(crate::methods::MAX_STEPS) / step_hz.max(1e-9);
        Range::above(0.0, max, " s")
    }

    /// A speed, acceleration or length of the character.
    pub const CHARACTER: Range = Range::closed(0.0, MAX_CHARACTER_VALUE, "");
    /// The character's frame rate.
    pub const FRAME_RATE: Range = Range::closed(MIN_FRAME_RATE_HZ, MAX_FRAME_RATE_HZ, " Hz");
    /// The fastest fall: above zero.
    pub const FALL_SPEED: Range = Range::above(0.0, MAX_CHARACTER_VALUE, " m/s");
    /// The walkable slope: less than vertical.
    pub const SLOPE: Range = Range::below(0.0, 90.0, "°");

    /// A cylinder's radius.
    pub const CYLINDER_RADIUS: Range = Range::above(0.0, MAX_MAGNITUDE_M, " m");

    /// A cylinder's height: its top within the solver's bound.
    pub fn cylinder_height(base_y: f64) -> Range {
        Range::above(0.0, MAX_MAGNITUDE_M - base_y.max(0.0), " m")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::character::CharacterSettings;
    use crate::collide::SlideSettings;

    #[test]
    fn out_of_range_and_nan_are_refused_with_the_range() {
        let r = ranges::FRAME_RATE;
        assert_eq!(judge("60", &r), Ok(60.0));
        assert_eq!(judge(" 1 000 ", &r), Ok(1000.0));
        let e = judge("1e308", &r).unwrap_err();
        assert_eq!(e.short(), "Refused: needs 1 ≤ v ≤ 1000 Hz");
        assert!(e.message("frame rate").contains("\"1e308\""));
        let nan = judge("NaN", &r).unwrap_err();
        assert_eq!(nan.short(), "Refused: NaN is not a number");
        assert!(!nan.message("x").contains("inf"));
        assert_eq!(
            judge("inf", &r).unwrap_err().short(),
            "Refused: infinity is not allowed"
        );
        assert_eq!(judge("0", &r).unwrap_err().range, "1 ≤ v ≤ 1000 Hz");
        assert!(judge("0.5", &r).is_err(), "below 1 Hz");
        assert!(judge("2.5", &ranges::ITERATIONS).is_err());
        assert_eq!(judge_shown("1.1", &ranges::FRAME_RATE, 4), Ok(1.1));
        let fine = judge_shown("1.12345", &ranges::FRAME_RATE, 4).unwrap_err();
        assert_eq!(fine.short(), "Refused: at most 4 decimals");
        assert_eq!(judge("3", &ranges::ITERATIONS), Ok(3.0));
    }

    #[test]
    fn messages_quote_at_most_40_characters() {
        let long = "9".repeat(300);
        let e = judge(&long, &ranges::FRAME_RATE).unwrap_err();
        let m = e.message("frame rate");
        assert!(m.contains("(300 characters)"), "{m}");
        assert!(m.chars().count() < 120, "{m}");
        assert!(e.short().chars().count() < 40);
    }

    #[test]
    fn compact_numbers_shortens_long_numbers_only() {
        let msg = format!("skin {} must be small; radius 0.3", 1e-300);
        let c = compact_numbers(&msg);
        assert_eq!(c, "skin 1e-300 must be small; radius 0.3");
        assert_eq!(compact_numbers("step 12 of 3.5-4"), "step 12 of 3.5-4");
    }

    /// The ranges agree with the validation at both ends.
    #[test]
    fn the_ranges_are_the_validations() {
        type Set = fn(&mut CharacterSettings, f64);
        let fields: [(Range, Set); 9] = [
            (ranges::CHARACTER, |c, x| c.walk_speed_m_s = x),
            (ranges::FRAME_RATE, |c, x| c.frame_rate_hz = x),
            (ranges::CHARACTER, |c, x| c.gravity_m_s2 = x),
            (ranges::CHARACTER, |c, x| c.jump_speed_m_s = x),
            (ranges::CHARACTER, |c, x| c.max_step_height_m = x),
            (ranges::CHARACTER, |c, x| c.min_tread_depth_m = x),
            (ranges::SLOPE, |c, x| c.max_slope_deg = x),
            (ranges::CHARACTER, |c, x| c.snap_distance_m = x),
            (ranges::FALL_SPEED, |c, x| c.max_fall_speed_m_s = x),
        ];
        for (k, (r, set)) in fields.into_iter().enumerate() {
            for x in [r.min, r.max] {
                for probe in [x, x - x.abs().max(1.0) * 1e-9, x + x.abs().max(1.0) * 1e-9] {
                    let mut c = CharacterSettings::default();
                    set(&mut c, probe);
                    assert_eq!(
                        c.validate().is_ok(),
                        r.contains(probe),
                        "field {k} at {probe}"
                    );
                }
            }
        }
        let s = SlideSettings::default();
        let skin = ranges::skin(0.3);
        let mut t = s.clone();
        t.radii = [0.3; 3];
        t.skin = 0.3;
        assert_eq!(t.validate().is_ok(), skin.contains(0.3));
        let mut t = s.clone();
        t.ghost_edge_angle_deg = 45.0;
        assert_eq!(t.validate().is_ok(), ranges::GHOST_FOLD.contains(45.0));
        let mut m = crate::methods::MethodSettings {
            move_seconds: 1.0,
            ..Default::default()
        };
        let rate = ranges::step_rate(1.0);
        m.step_hz = rate.max;
        assert!(m.validate().is_ok() && rate.contains(rate.max));
        m.step_hz = rate.max + 1.0;
        assert!(m.validate().is_err() && !rate.contains(rate.max + 1.0));
    }
}
