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

/// Characters of the file quoted in a message at most: a 50-million-digit
/// number must not make a 50 MB error line.
pub(super) const QUOTE_CHARS: usize = 40;

/// `token` in backquotes for a message: whole when short, otherwise its
/// first [`QUOTE_CHARS`] characters, `…` and its length in bytes.
pub(super) fn quote(token: &[u8]) -> String {
    // Four bytes per character at most: enough bytes for the prefix.
    let head = String::from_utf8_lossy(&token[..token.len().min(4 * QUOTE_CHARS)]);
    if token.len() <= QUOTE_CHARS && head.chars().count() == token.len() {
        return format!("`{head}`");
    }
    let prefix: String = head.chars().take(QUOTE_CHARS).collect();
    if prefix.len() == token.len() {
        format!("`{prefix}`")
    } else {
        format!("`{prefix}…` ({} bytes)", token.len())
    }
}

/// `name` cut to [`super::super::MAX_NAME_CHARS`] characters (with a
/// trailing `…`), and its length in characters when it was cut.
pub(super) fn cap_name(name: &[u8]) -> (String, Option<usize>) {
    let max = super::super::MAX_NAME_CHARS;
    let head = String::from_utf8_lossy(&name[..name.len().min(4 * (max + 1))]);
    if head.chars().count() <= max && head.len() >= name.len() {
        return (head.into_owned(), None);
    }
    let mut cut: String = head.chars().take(max).collect();
    cut.push('…');
    (cut, Some(String::from_utf8_lossy(name).chars().count()))
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}

/// The text after the keyword, trimmed; `None` when there is none.
pub(super) fn rest_of_line(line: &[u8]) -> Option<&[u8]> {
    let start = line.iter().position(|&b| !is_space(b))?;
    let line = &line[start..];
    let after_keyword = line.iter().position(|&b| is_space(b))?;
    let rest = line[after_keyword..].trim_ascii();
    (!rest.is_empty()).then_some(rest)
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
