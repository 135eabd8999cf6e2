//! Reading a JSON Lines moves file one line at a time with a bound on each
//! line's length, so a file with no line breaks (or a hostile one) is never
//! held in memory whole, and quoting bad text in messages by a short prefix.

use std::io::BufRead;

/// The longest line read, in bytes (64 KiB). A move is a small JSON object
/// of a few hundred bytes; anything longer is a mistake (a whole trace
/// pasted on one line, a binary file) and is refused, not read.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// Characters of bad input quoted in a message at most.
pub(crate) const QUOTE_CHARS: usize = 40;

/// One line of the moves file.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    /// Blank, or a comment (first non-blank character `#`): no move, no output.
    Skip,
    /// A line to run, its text without the line break.
    Move(String),
    /// A line that cannot be read as text: why.
    Bad(String),
}

/// Splits a reader into [`Line`]s, numbered from 1.
pub(crate) struct BoundedLines<R> {
    reader: R,
    /// Lines read so far (the last one's number).
    pub number: usize,
    max_bytes: usize,
}

impl<R: BufRead> BoundedLines<R> {
    pub fn new(reader: R, max_bytes: usize) -> Self {
        BoundedLines {
            reader,
            number: 0,
            max_bytes,
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        // Up to `max_bytes` of the line are kept; the rest is only counted.
        let mut kept: Vec<u8> = Vec::new();
        let mut total: usize = 0;
        let mut saw_any = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let newline = buf.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(buf.len());
            let room = self.max_bytes.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..take.min(room)]);
            total = total.saturating_add(take);
            self.reader.consume(take + usize::from(newline.is_some()));
            if newline.is_some() {
                break;
            }
        }
        self.number += 1;
        Ok(Some(self.classify(kept, total)))
    }

    fn classify(&self, mut bytes: Vec<u8>, total: usize) -> Line {
        if total > self.max_bytes {
            return Line::Bad(format!(
                "the line is {total} bytes, longer than the limit of {} bytes; it starts {}",
                self.max_bytes,
                quote_prefix(&bytes, total)
            ));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        if self.number == 1 && bytes.starts_with("\u{feff}".as_bytes()) {
            bytes.drain(..3);
        }
        match String::from_utf8(bytes) {
            Ok(text) => {
                let t = text.trim_start();
                if t.is_empty() || t.starts_with('#') {
                    Line::Skip
                } else {
                    Line::Move(text)
                }
            }
            Err(e) => Line::Bad(format!(
                "the line is not UTF-8 text (byte {} of {}); it starts {}",
                e.utf8_error().valid_up_to() + 1,
                e.as_bytes().len(),
                quote_prefix(e.as_bytes(), e.as_bytes().len())
            )),
        }
    }
}

/// `text` in backquotes: whole when short, else its first [`QUOTE_CHARS`]
/// characters, `…` and `total`, its length in bytes.
pub(crate) fn quote_prefix(bytes: &[u8], total: usize) -> String {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4 * QUOTE_CHARS)]);
    let prefix: String = head.chars().take(QUOTE_CHARS).collect();
    if prefix.len() == total && bytes.len() == total {
        format!("`{prefix}`")
    } else {
        format!("`{prefix}…` ({total} bytes)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut r = BoundedLines::new(std::io::BufReader::with_capacity(7, input), max);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_split_on_lf_and_crlf_and_skip_blanks_and_comments() {
        let got = lines(b"\xef\xbb\xbf{\"a\":1}\r\n\n   \n  # note\n{\"b\":2}", 100);
        assert_eq!(
            got,
            vec![
                Line::Move("{\"a\":1}".into()),
                Line::Skip,
                Line::Skip,
                Line::Skip,
                Line::Move("{\"b\":2}".into()),
            ]
        );
        assert!(lines(b"", 100).is_empty());
        assert_eq!(lines(b"\n", 100), vec![Line::Skip]);
    }

    #[test]
    fn a_line_over_the_limit_is_refused_by_its_length_and_the_next_one_reads() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\n{}\n");
        let got = lines(&input, 64);
        let Line::Bad(m) = &got[0] else {
            panic!("{got:?}")
        };
        assert!(
            m.starts_with("the line is 1000 bytes, longer than the limit of 64 bytes"),
            "{m}"
        );
        assert!(
            m.ends_with(&format!("`{}…` (1000 bytes)", "x".repeat(QUOTE_CHARS))),
            "{m}"
        );
        assert_eq!(got[1], Line::Move("{}".into()));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_a_bad_line() {
        let got = lines(b"ab\xff\xfecd\n", 100);
        let Line::Bad(m) = &got[0] else {
            panic!("{got:?}")
        };
        assert!(
            m.starts_with("the line is not UTF-8 text (byte 3 of 6)"),
            "{m}"
        );
    }
}
