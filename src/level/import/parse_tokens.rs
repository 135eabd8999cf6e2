//! Byte-level pieces of the OBJ parser: tokens, numbers, names.

/// A decimal integer with an optional sign; `None` if malformed or huge.
pub(super) fn parse_index(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value * 10 + i64::from(d - b'0');
    }
    Some(if negative { -value } else { value })
}

pub(super) fn parse_f64(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// Plain notation for everyday numbers, scientific for huge or tiny ones.
pub(super) fn readable(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

pub(super) fn lossy(token: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(token)
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The text after the keyword, trimmed; `None` when there is none.
pub(super) fn rest_of_line(line: &[u8]) -> Option<String> {
    let start = line.iter().position(|&b| !is_space(b))?;
    let line = &line[start..];
    let after_keyword = line.iter().position(|&b| is_space(b))?;
    let rest = line[after_keyword..].trim_ascii();
    (!rest.is_empty()).then(|| String::from_utf8_lossy(rest).into_owned())
}

/// Whitespace-separated tokens of one line, stopping at a `#` comment.
pub(super) struct Tokens<'a>(pub(super) &'a [u8]);

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let Some(start) = self.0.iter().position(|&b| !is_space(b)) else {
            self.0 = &[];
            return None;
        };
        let rest = &self.0[start..];
        if rest[0] == b'#' {
            self.0 = &[];
            return None;
        }
        let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
        self.0 = &rest[len..];
        Some(&rest[..len])
    }
}
