//! Quoting what a user typed, or a file held, in a message.
//!
//! A message that repeats a bad value helps only while it stays one short
//! line: a 10 MB string in a settings file, a 100,000-character flag or a
//! 50-million-digit number must not come back as a 10 MB error. Every
//! front end (the command line, the window) quotes through here: at most
//! [`QUOTE_CHARS`] characters of any quoted text, with its length when it
//! was cut, and at most [`MAX_MESSAGE_CHARS`] characters in all.

/// Most characters of user text one quote repeats.
pub const QUOTE_CHARS: usize = 40;
/// Most characters of a whole message, whatever it holds.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// `text` as a message quotes it: whole when it has at most
/// [`QUOTE_CHARS`] characters, else its first [`QUOTE_CHARS`], `…` and how
/// many characters it had. Text already cut this way is left as it is, so
/// that a message bounded twice still gives the first length.
pub fn prefix(text: &str) -> String {
    if is_cut(text) {
        return text.to_string();
    }
    let mut chars = text.char_indices();
    match chars.nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// `message` with every span between a pair of `delimiters` (e.g. the
/// backquotes serde puts round an unknown key) cut by [`prefix`], and the
/// whole cut to [`MAX_MESSAGE_CHARS`]. An unclosed span is cut as well.
pub fn shorten_quoted(message: &str, delimiters: &[char]) -> String {
    let mut out = String::with_capacity(message.len().min(2 * MAX_MESSAGE_CHARS));
    let mut rest = message;
    while let Some(open) = rest.find(delimiters) {
        let delimiter = rest[open..].chars().next().unwrap_or('`');
        let inner_start = open + delimiter.len_utf8();
        out.push_str(&rest[..inner_start]);
        let inner = &rest[inner_start..];
        match inner.find(delimiter) {
            Some(close) => {
                out.push_str(&prefix(&inner[..close]));
                out.push(delimiter);
                rest = &inner[close + delimiter.len_utf8()..];
            }
            None => {
                out.push_str(&prefix(inner));
                rest = "";
            }
        }
        if out.len() > 4 * MAX_MESSAGE_CHARS {
            break;
        }
    }
    out.push_str(rest);
    cap(&out)
}

/// A runtime error as it is shown: one line, every span in backquotes or
/// double quotes cut by [`prefix`], at most [`MAX_MESSAGE_CHARS`]
/// characters.
pub fn bounded_message(message: &str) -> String {
    shorten_quoted(message, &['`', '"'])
}

/// Whether `text` is already a prefix of a longer text: at most
/// [`QUOTE_CHARS`] characters, then `…` and, as [`prefix`] writes it,
/// ` (N characters)` (other readers give the length after the quote).
fn is_cut(text: &str) -> bool {
    if let Some(head) = text.strip_suffix('…') {
        return head.chars().count() <= QUOTE_CHARS;
    }
    let Some((head, tail)) = text.split_once("… (") else {
        return false;
    };
    head.chars().count() <= QUOTE_CHARS
        && tail
            .strip_suffix(" characters)")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `text` cut to [`MAX_MESSAGE_CHARS`] characters, with `…` when cut.
fn cap(text: &str) -> String {
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_by_its_start_and_length() {
        assert_eq!(prefix("robust"), "robust");
        let long = "é".repeat(100);
        let q = prefix(&long);
        assert!(q.starts_with(&"é".repeat(QUOTE_CHARS)));
        assert!(q.ends_with("… (100 characters)"), "{q}");
        assert_eq!(prefix(&q), q, "cut once, kept");
        let other = format!("{}…", "9".repeat(QUOTE_CHARS));
        assert_eq!(prefix(&other), other, "cut by another reader, kept");
    }

    #[test]
    fn every_quoted_span_is_cut_and_the_message_capped() {
        let key = "k".repeat(10_000_000);
        let m = format!("unknown field `{key}`, expected one of `radii`, `skin`");
        let s = bounded_message(&m);
        assert!(s.len() < 200, "{} bytes", s.len());
        assert!(s.contains("(10000000 characters)`, expected one of `radii`, `skin`"));
        assert_eq!(bounded_message(&s), s);
        let unclosed = format!("bad value \"{key}");
        assert!(bounded_message(&unclosed).len() < 200);
        let plain = "x ".repeat(5000);
        assert_eq!(
            bounded_message(&plain).chars().count(),
            MAX_MESSAGE_CHARS + 1
        );
    }
}
