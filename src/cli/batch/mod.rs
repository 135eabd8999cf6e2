//! Batch runs (`sweep --batch`, `walk --batch`): many moves on one loaded
//! level, one JSON object per input line, one JSON object per output line
//! in the same order.
//!
//! Lines are read in chunks; each chunk's moves run in parallel (rayon) and
//! its results are written in input order before the next chunk is read,
//! so memory stays bounded by a chunk and the output is the same whatever
//! the number of threads. A line that cannot be run becomes an output line
//! `{"line": N, "error": "..."}` and the others go on.

pub(crate) mod lines;

use super::CliError;
use lines::{BoundedLines, Line, MAX_LINE_BYTES};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

/// Exit code of a batch that ran but refused at least one line.
pub(crate) const EXIT_BAD_LINES: i32 = 4;

/// How a batch went.
#[derive(Debug, Default)]
pub(crate) struct BatchOutcome {
    /// Lines that held a move (not blank, not a comment).
    pub moves: usize,
    /// Of those (and of unreadable lines), how many gave an error line.
    pub failed: usize,
    /// The first error: its line number and message.
    pub first_failure: Option<(usize, String)>,
}

impl BatchOutcome {
    /// The exit code: 0, or [`EXIT_BAD_LINES`] after a one-line note on
    /// stderr naming the first bad line.
    pub fn report(&self) -> i32 {
        match &self.first_failure {
            None => super::EXIT_OK,
            Some((line, message)) => {
                eprintln!(
                    "error: {} of {} lines refused; the first, line {line}: {message}",
                    self.failed, self.moves
                );
                EXIT_BAD_LINES
            }
        }
    }
}

/// Opens the moves file, `-` for stdin.
pub(crate) fn open(path: &Path) -> Result<Box<dyn BufRead>, CliError> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    // A regular file, judged before opening (a FIFO would wait for a
    // writer, /dev/zero never ends); streams come through `-`. The file is
    // read line by line, so its size is bounded only by the disk.
    let (file, _) = crate::fileio::open_regular(path).map_err(|e| super::read_failed(path, e))?;
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// Runs `job` on every move line of `input`, `chunk` lines at a time, and
/// writes one line per move to `out`. `job` gets the line's number and
/// text and returns the output object's JSON (without a line break) or
/// the error message. `label` names the input in read errors.
pub(crate) fn run<J>(
    input: &mut dyn BufRead,
    label: &str,
    chunk: usize,
    out: &mut dyn Write,
    job: J,
) -> Result<BatchOutcome, CliError>
where
    J: Fn(usize, &str) -> Result<String, String> + Sync,
{
    let mut reader = BoundedLines::new(input, MAX_LINE_BYTES);
    let mut outcome = BatchOutcome::default();
    // Per queued line: its number, and its text or why it cannot be read.
    let mut pending: Vec<(usize, Result<String, String>)> = Vec::with_capacity(chunk);
    loop {
        pending.clear();
        while pending.len() < chunk {
            let line = reader.next_line().map_err(|e| {
                CliError::Failed(format!("{label}: line {}: {e}", reader.number + 1))
            })?;
            match line {
                None => break,
                Some(Line::Skip) => {}
                Some(Line::Move(text)) => pending.push((reader.number, Ok(text))),
                Some(Line::Bad(message)) => pending.push((reader.number, Err(message))),
            }
        }
        if pending.is_empty() {
            return Ok(outcome);
        }
        let results: Vec<(usize, Result<String, String>)> = pending
            .par_iter()
            .map(|(number, line)| {
                let r = match line {
                    Ok(text) => job(*number, text),
                    Err(message) => Err(message.clone()),
                };
                (*number, r)
            })
            .collect();
        let mut text = String::new();
        for (number, r) in results {
            outcome.moves += 1;
            match r {
                Ok(json) => text.push_str(&json),
                Err(message) => {
                    outcome.failed += 1;
                    text.push_str(&error_line(number, &message));
                    outcome.first_failure.get_or_insert((number, message));
                }
            }
            text.push('\n');
        }
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => {}
            // A reader that went away (`| head`) ends the batch quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(outcome),
            Err(e) => return Err(CliError::Failed(format!("cannot write to stdout: {e}"))),
        }
    }
}

/// `{"line":N,"error":"..."}`.
fn error_line(line: usize, message: &str) -> String {
    #[derive(Serialize)]
    struct ErrorLine<'a> {
        line: usize,
        error: &'a str,
    }
    serde_json::to_string(&ErrorLine {
        line,
        error: message,
    })
    .unwrap_or_else(|_| format!("{{\"line\":{line},\"error\":\"unprintable error\"}}"))
}

/// A JSON line parsed into `T`, or a one-line message: the parser's words
/// (its column, long quotes cut) and, for text that is not JSON at all, the
/// start of the line.
pub(crate) fn parse_line<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => &message[..i],
            None => &message,
        };
        let message = crate::quote::bounded_message(message);
        match e.classify() {
            serde_json::error::Category::Data => format!("{message} (column {})", e.column()),
            _ => format!(
                "bad JSON: {message} at column {}, in {}",
                e.column(),
                lines::quote_prefix(text.as_bytes(), text.len())
            ),
        }
    })
}

/// Checks a vector read from a line: `n` numbers, each within the
/// solver's supported magnitude (JSON numbers are always finite; beyond
/// `f64` the parser refuses them). Read as a list rather than a fixed-size
/// array so that a wrong count gets its own message.
pub(crate) fn check_numbers<const N: usize>(
    name: &str,
    v: &[f64],
    axes: [&str; N],
) -> Result<[f64; N], String> {
    let Ok(a) = <[f64; N]>::try_from(v) else {
        return Err(format!(
            "{name} has {} number{}; expected {N}",
            v.len(),
            if v.len() == 1 { "" } else { "s" }
        ));
    };
    let max = crate::collide::MAX_MAGNITUDE_M;
    for (x, axis) in a.iter().zip(axes) {
        if !x.is_finite() || x.abs() > max {
            return Err(format!(
                "{name} {axis} {x:e} is beyond the supported ±{max:e} m"
            ));
        }
    }
    Ok(a)
}

/// `[x, y, z]`, checked as [`check_numbers`] does.
pub(crate) fn check_vec3(name: &str, v: &[f64]) -> Result<glam::DVec3, String> {
    check_numbers(name, v, ["x", "y", "z"]).map(glam::DVec3::from_array)
}

/// As [`check_vec3`], and each radius within the settings' range
/// ([`crate::collide::settings::radii_rule`]).
pub(crate) fn check_radii(v: &[f64]) -> Result<glam::DVec3, String> {
    let r = check_vec3("radii", v)?;
    crate::collide::settings::radii_rule(r.to_array())?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(input: &str, chunk: usize) -> (String, BatchOutcome) {
        let mut reader = std::io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        let outcome = run(&mut reader, "test", chunk, &mut out, |n, text| {
            let v: serde_json::Value = parse_line(text)?;
            let x = v["x"].as_f64().ok_or("no x")?;
            Ok(format!("{{\"line\":{n},\"twice\":{}}}", 2.0 * x))
        })
        .unwrap();
        (String::from_utf8(out).unwrap(), outcome)
    }

    #[test]
    fn results_keep_input_order_across_chunks_and_errors_carry_line_numbers() {
        let input: String = (0..50)
            .map(|i| match i {
                7 => "# comment\n".to_string(),
                11 => "{\"x\": nope}\n".to_string(),
                _ => format!("{{\"x\": {i}}}\n"),
            })
            .collect();
        for chunk in [1, 3, 64] {
            let (out, outcome) = batch(&input, chunk);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 49, "{out}");
            assert_eq!(lines[0], "{\"line\":1,\"twice\":0}");
            assert_eq!(lines[6], "{\"line\":7,\"twice\":12}");
            assert_eq!(lines[7], "{\"line\":9,\"twice\":16}");
            assert!(
                lines[10].starts_with("{\"line\":12,\"error\":\"bad JSON: expected ident at column 8, in `{\\\"x\\\": nope}`"),
                "{}",
                lines[10]
            );
            assert_eq!(lines[48], "{\"line\":50,\"twice\":98}");
            assert_eq!((outcome.moves, outcome.failed), (49, 1));
            assert_eq!(outcome.first_failure.unwrap().0, 12);
        }
    }

    #[test]
    fn data_errors_name_the_column_and_magnitudes_are_bounded() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct M {
            from: Vec<f64>,
        }
        let e = parse_line::<M>("{\"from\": [1, 2, 3], \"speed\": 4}").unwrap_err();
        assert!(
            e.starts_with("unknown field `speed`, expected `from` (column"),
            "{e}"
        );
        let e = parse_line::<M>("{\"from\": [1, 2, 1e400]}").unwrap_err();
        assert!(e.contains("number out of range"), "{e}");
        let e = parse_line::<M>("{\"from\": [1, \"2\"]}").unwrap_err();
        assert!(
            e.starts_with("invalid type: string \"2\", expected f64"),
            "{e}"
        );
        let e = check_vec3("from", &[1.0, 2.0]).unwrap_err();
        assert_eq!(e, "from has 2 numbers; expected 3");
        let e = check_vec3("from", &[0.0, 2e9, 0.0]).unwrap_err();
        assert!(e.contains("from y 2e9 is beyond"), "{e}");
        let e = check_numbers("direction", &[0.0, -2e9], ["x", "z"]).unwrap_err();
        assert!(e.contains("direction z -2e9 is beyond"), "{e}");
        let e = check_radii(&[0.4, 0.0, 0.4]).unwrap_err();
        assert!(
            e.contains("radius 0 must be a finite number from 0.001"),
            "{e}"
        );
        let e = check_radii(&[0.4, 1e-9, 0.4]).unwrap_err();
        assert!(e.contains("smallest safe radius"), "{e}");
        assert!(check_radii(&[0.4, 0.9, 0.4]).is_ok());
    }
}
