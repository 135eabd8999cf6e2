//! Raw bytes to OBJ text: gzip detection by magic bytes and decompression
//! (flate2), then the whole-file checks that come before parsing (empty,
//! binary) and old Mac line breaks. No geometry here.
//!
//! The unpacked text is held in memory while it is parsed, so its size is
//! capped ([`super::ImportOptions::max_unpacked_bytes`]): a 14 MB file can
//! claim gigabytes. Memory is reserved as the text grows, never beyond the
//! cap, and a failed reservation is reported as out of memory.

use super::{Ctx, ImportError};
use rayon::prelude::*;
use std::io::Read;

/// The two bytes every gzip member starts with (RFC 1952).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// True when `raw` is gzip data, whatever the file is called.
pub(super) fn is_gzip(raw: &[u8]) -> bool {
    raw.starts_with(&GZIP_MAGIC)
}

/// Decompresses every gzip member of `raw`, reporting the fraction of the
/// compressed input consumed; refuses to unpack more than the options'
/// `max_unpacked_bytes`.
pub(super) fn gunzip(
    raw: &[u8],
    ctx: &Ctx,
    progress: &dyn Fn(f32),
) -> Result<Vec<u8>, ImportError> {
    let limit = usize::try_from(ctx.options.max_unpacked_bytes).unwrap_or(usize::MAX);
    let counter = CountingReader {
        inner: raw,
        consumed: 0,
        total: raw.len(),
        next_report: 0,
        progress,
    };
    let mut decoder = flate2::read::MultiGzDecoder::new(counter);
    let mut text = Vec::new();
    // OBJ text typically compresses 5-6x; a good first guess saves regrowth.
    let guess = raw.len().saturating_mul(6).min(limit).min(1 << 30);
    reserve(&mut text, guess, ctx)?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = match decoder.read(&mut buf) {
            Ok(0) => return Ok(text),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ctx.invalid(format!("corrupt or truncated gzip data: {e}"))),
        };
        if n > limit - text.len() {
            return Err(ctx.invalid(format!(
                "gzip data unpacks to more than {}, the limit for compressed levels \
                 (max_unpacked_bytes): refused",
                size(limit as u64)
            )));
        }
        if text.capacity() - text.len() < n {
            // Doubling, but never past the limit.
            let more = text.len().max(1 << 20).min(limit - text.len()).max(n);
            reserve(&mut text, more, ctx)?;
        }
        text.extend_from_slice(&buf[..n]);
    }
}

/// Reserves room for `more` bytes, or says that memory ran out.
fn reserve(text: &mut Vec<u8>, more: usize, ctx: &Ctx) -> Result<(), ImportError> {
    text.try_reserve_exact(more).map_err(|_| {
        ctx.invalid(format!(
            "out of memory unpacking gzip data ({} unpacked, {} more needed)",
            size(text.len() as u64),
            size(more as u64)
        ))
    })
}

/// `512 KiB`, `3 MiB`, `1 GiB`: sizes as people read them (rounded down).
pub(super) fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..0x10_0000 => format!("{} KiB", bytes >> 10),
        0x10_0000..0x4000_0000 => format!("{} MiB", bytes >> 20),
        _ if bytes.is_multiple_of(1 << 30) => format!("{} GiB", bytes >> 30),
        _ => format!("{} MiB", bytes >> 20),
    }
}

/// Text with old Mac line breaks (a lone CR, no LF anywhere) with each CR
/// turned into an LF, so its lines are lines; other text as it is. (The
/// parser takes a CR before an LF, or anywhere else, for a space.)
pub(super) fn mac_line_breaks(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if text.contains(&b'\n') || !text.contains(&b'\r') {
        return std::borrow::Cow::Borrowed(text);
    }
    let lines = text
        .iter()
        .map(|&b| if b == b'\r' { b'\n' } else { b })
        .collect();
    std::borrow::Cow::Owned(lines)
}

/// Passes bytes through, calling `progress` every [`REPORT_EVERY`] bytes.
struct CountingReader<'a> {
    inner: &'a [u8],
    consumed: usize,
    total: usize,
    next_report: usize,
    progress: &'a dyn Fn(f32),
}

/// How often (in compressed bytes) gunzip reports progress.
const REPORT_EVERY: usize = 1 << 18;

impl Read for CountingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed += n;
        if self.consumed >= self.next_report {
            self.next_report = self.consumed + REPORT_EVERY;
            (self.progress)(self.consumed as f32 / self.total.max(1) as f32 * 0.999);
        }
        Ok(n)
    }
}

/// Rejects an empty file, UTF-16 text and a binary file (a control byte
/// that no text editor writes), naming the line of the first such byte.
/// Returns the text without a UTF-8 byte order mark, which some Windows
/// editors write and which would otherwise hide the first statement.
pub(super) fn check_text<'t>(text: &'t [u8], ctx: &Ctx) -> Result<&'t [u8], ImportError> {
    if text.is_empty() {
        return Err(ctx.invalid("empty file"));
    }
    if text.starts_with(&[0xff, 0xfe]) || text.starts_with(&[0xfe, 0xff]) {
        return Err(ctx.invalid("UTF-16 text: save the file as UTF-8 or ASCII"));
    }
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    if let Some(at) = first_binary_byte(text) {
        let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
        return Err(ctx.syntax(
            line,
            format!(
                "binary data (byte 0x{:02x}): this is not an OBJ text file",
                text[at]
            ),
        ));
    }
    Ok(text)
}

fn is_binary_byte(b: u8) -> bool {
    // Tab, LF, VT, FF and CR are whitespace in OBJ; DEL and the other C0
    // controls never appear in text.
    (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r')) || b == 0x7f
}

/// Offset of the first binary byte. This runs over every byte of files of
/// tens of megabytes: pieces of 64 KiB are scanned on rayon's threads, the
/// first one holding a binary byte found in order.
fn first_binary_byte(text: &[u8]) -> Option<usize> {
    const PIECE: usize = 1 << 16;
    let (i, piece) = text
        .par_chunks(PIECE)
        .enumerate()
        .find_first(|(_, piece)| first_binary_byte_in(piece).is_some())?;
    Some(i * PIECE + first_binary_byte_in(piece)?)
}

/// [`first_binary_byte`] on one thread. Scans in fixed-size blocks with a
/// branch-free inner loop so that the compiler vectorises it.
fn first_binary_byte_in(text: &[u8]) -> Option<usize> {
    const BLOCK: usize = 64;
    for (i, block) in text.chunks(BLOCK).enumerate() {
        if block.iter().fold(false, |acc, &b| acc | is_binary_byte(b)) {
            let within = block.iter().position(|&b| is_binary_byte(b))?;
            return Some(i * BLOCK + within);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_bytes_are_found_at_their_offset() {
        let mut text = vec![b'v'; 200];
        assert_eq!(first_binary_byte(&text), None);
        text[130] = 0;
        assert_eq!(first_binary_byte(&text), Some(130));
        // Across pieces: the first one wins.
        let mut text = vec![b'v'; 300_000];
        assert_eq!(first_binary_byte(&text), None);
        text[250_001] = 0x7f;
        assert_eq!(first_binary_byte(&text), Some(250_001));
        text[70_000] = 1;
        assert_eq!(first_binary_byte(&text), Some(70_000));
        assert_eq!(first_binary_byte(b"v 1 2 3\r\n\tf 1 2 3\x0c"), None);
        assert_eq!(first_binary_byte(b"v 1\x7f"), Some(3));
    }

    #[test]
    fn sizes_read_plainly_and_failed_reservations_say_out_of_memory() {
        assert_eq!(size(1 << 30), "1 GiB");
        assert_eq!(size(3 << 20), "3 MiB");
        assert_eq!(size(1536), "1 KiB");
        let options = super::super::ImportOptions::default();
        let ctx = Ctx {
            path: std::path::Path::new("m.obj.gz"),
            options: &options,
        };
        let err = reserve(&mut Vec::new(), usize::MAX / 2, &ctx).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("m.obj.gz: out of memory unpacking"),
            "{err}"
        );
    }

    #[test]
    fn gzip_is_detected_by_magic_not_name() {
        assert!(is_gzip(&[0x1f, 0x8b, 8, 0]));
        assert!(!is_gzip(b"v 1 2 3"));
        assert!(!is_gzip(&[0x1f]));
    }
}
