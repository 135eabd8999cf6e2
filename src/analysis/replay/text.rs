//! The two text formats of a recording, read into rows of field values
//! (before any conversion): CSV with a header row, and JSON Lines. Both
//! check each line's length, the number of frames and every number.

use super::recording::{
    ColumnMap, MAX_LINE_BYTES, MAX_RECORDED_FRAMES, RawRow, RecordingError, quote,
};

/// Fields that hold a flag (`jump`, `grounded`), by index in a row.
const FLAG_FIELDS: [usize; 2] = [10, 11];
/// Fields every frame needs (`t`, `x`, `y`, `z`).
const REQUIRED_FIELDS: [usize; 4] = [0, 1, 2, 3];

fn err(line: usize, message: impl Into<String>) -> RecordingError {
    RecordingError {
        line,
        message: message.into(),
    }
}

/// The lines worth reading: (1-based line number, text), without blank
/// lines and `#` comments; refuses over-long lines and more frames than
/// the limit (`headers`: lines before the first frame).
fn lines(
    text: &str,
    headers: usize,
) -> impl Iterator<Item = Result<(usize, &str), RecordingError>> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(move |(count, (line, l))| {
            if l.len() > MAX_LINE_BYTES {
                return Err(err(
                    line,
                    format!(
                        "the line is {} bytes long; at most {MAX_LINE_BYTES}: '{}'",
                        l.len(),
                        quote(l)
                    ),
                ));
            }
            if count >= MAX_RECORDED_FRAMES + headers {
                return Err(err(line, format!("more than {MAX_RECORDED_FRAMES} frames")));
            }
            Ok((line, l))
        })
}

/// One cell: a finite number, or for a flag also `true` / `false`.
fn number(line: usize, column: &str, text: &str, flag: bool) -> Result<f64, RecordingError> {
    let t = text.trim().trim_matches('"');
    if flag {
        match t.to_ascii_lowercase().as_str() {
            "true" => return Ok(1.0),
            "false" => return Ok(0.0),
            _ => {}
        }
    }
    match t.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(err(
            line,
            format!("{column}: '{}' is not a finite number", quote(t)),
        )),
        Err(_) => Err(err(
            line,
            format!("{column}: '{}' is not a number", quote(t)),
        )),
    }
}

/// CSV rows: the first line read is the header; columns not mapped to a
/// field are ignored.
pub(super) fn csv_rows(
    text: &str,
    columns: &ColumnMap,
) -> Result<Vec<(usize, RawRow)>, RecordingError> {
    let mut lines = lines(text, 1);
    let Some(header) = lines.next() else {
        return Ok(Vec::new());
    };
    let (header_line, header) = header?;
    let heads: Vec<&str> = header
        .split(',')
        .map(|h| h.trim().trim_matches('"'))
        .collect();
    let mut index_of_field = [None; FIELDS_AND_FLAG];
    for (f, name) in columns.names.iter().enumerate() {
        let mut found = heads.iter().enumerate().filter(|(_, h)| *h == name);
        index_of_field[f] = found.next().map(|(i, _)| i);
        if found.next().is_some() {
            return Err(err(
                header_line,
                format!("the column {} appears twice", quote(name)),
            ));
        }
    }
    if let Some(&f) = REQUIRED_FIELDS
        .iter()
        .find(|&&f| index_of_field[f].is_none())
    {
        return Err(err(
            header_line,
            format!(
                "the header '{}' has no column {} (name columns with --columns, e.g. {}=...)",
                quote(header),
                quote(&columns.names[f]),
                super::recording::FIELDS[f]
            ),
        ));
    }
    let mut rows = Vec::new();
    for l in lines {
        let (line, l) = l?;
        let cells: Vec<&str> = l.split(',').collect();
        if cells.len() != heads.len() {
            return Err(err(
                line,
                format!(
                    "{} values for {} columns: '{}'",
                    cells.len(),
                    heads.len(),
                    quote(l)
                ),
            ));
        }
        let mut row: RawRow = [None; FIELDS_AND_FLAG];
        for (f, at) in index_of_field.iter().enumerate() {
            let Some(cell) = at.map(|i| cells[i]) else {
                continue;
            };
            if cell.trim().is_empty() {
                continue;
            }
            row[f] = Some(number(
                line,
                &columns.names[f],
                cell,
                FLAG_FIELDS.contains(&f),
            )?);
        }
        rows.push((line, row));
    }
    Ok(rows)
}

/// Fields of a row: the frame's fields and the grounded flag.
const FIELDS_AND_FLAG: usize = super::recording::FIELDS.len() + 1;

/// JSON Lines rows: each line one object; keys not mapped to a field are
/// ignored, `null` is no value.
pub(super) fn jsonl_rows(
    text: &str,
    columns: &ColumnMap,
) -> Result<Vec<(usize, RawRow)>, RecordingError> {
    let mut rows = Vec::new();
    for l in lines(text, 0) {
        let (line, l) = l?;
        let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(l)
            .map_err(|e| err(line, format!("not a JSON object ({e}): '{}'", quote(l))))?;
        let mut row: RawRow = [None; FIELDS_AND_FLAG];
        for (f, name) in columns.names.iter().enumerate() {
            row[f] = match object.get(name) {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::Bool(b)) if FLAG_FIELDS.contains(&f) => {
                    Some(f64::from(u8::from(*b)))
                }
                Some(serde_json::Value::Number(n)) => n.as_f64().filter(|x| x.is_finite()),
                Some(other) => {
                    let shown = other.to_string();
                    return Err(err(
                        line,
                        format!("{}: '{}' is not a number", quote(name), quote(&shown)),
                    ));
                }
            };
        }
        if let Some(&f) = REQUIRED_FIELDS.iter().find(|&&f| row[f].is_none()) {
            return Err(err(
                line,
                format!("no value for {}", quote(&columns.names[f])),
            ));
        }
        rows.push((line, row));
    }
    Ok(rows)
}
