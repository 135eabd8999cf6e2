//! A settings file's engine table: `[unity]`, `[jolt]`, ... (in JSON an
//! object under the engine's name) holding that engine's own setting
//! names, read by [`crate::export::engines::apply_engine_names`].
//!
//! The rest of the file is read as before, with its positions: the table
//! is blanked out of the text (spaces, the line breaks kept), so an error
//! anywhere else still names its own line and column, and an error in
//! the table names the line of the engine's setting.

use crate::export::engines::{Engine, NamedValue};
use std::collections::BTreeMap;

use super::SettingsFormat;

/// The engine table found in a file.
pub(super) struct EngineTable {
    /// The engine it is named after.
    pub(super) engine: Engine,
    /// Its values by the engine's names (dotted when nested).
    pub(super) values: BTreeMap<String, NamedValue>,
    /// Collidoscope's own settings the file also gives (`radii`,
    /// `character.max_step_height_m`, `shape`, ...).
    pub(super) given: Vec<String>,
    /// The file's text with the table blanked out.
    pub(super) rest: String,
    /// 1-based line of the table's start.
    line: usize,
    /// The text's lines holding the table, for finding a name's line.
    lines: std::ops::Range<usize>,
    text_lines: Vec<String>,
}

impl EngineTable {
    /// Whether the table gives the body (a capsule's radius, a box's
    /// half sizes), which stands for `radii`.
    pub(super) fn gives_body(&self) -> bool {
        ["radius", "mRadius", "CapsuleRadius", "halfHeight"]
            .iter()
            .any(|k| self.values.contains_key(*k))
    }

    /// The 1-based line where `name` (dotted for a nested one) is given,
    /// or the table's first line.
    pub(super) fn line_of(&self, name: Option<&str>) -> usize {
        let Some(name) = name else {
            return self.line;
        };
        let last = name.rsplit('.').next().unwrap_or(name);
        self.lines
            .clone()
            .find(|&i| {
                let t = self.text_lines[i].trim_start();
                let t = t.strip_prefix('"').unwrap_or(t);
                t.strip_prefix(last).is_some_and(|after| {
                    let after = after.strip_prefix('"').unwrap_or(after).trim_start();
                    after.starts_with('=') || after.starts_with(':')
                })
            })
            .map_or(self.line, |i| i + 1)
    }
}

/// An error in the file's shape of engine tables: (1-based line, message).
pub(super) type TableError = (usize, String);

/// The file's engine table, if it has one. A file that does not parse at
/// all gives `Ok(None)`: the ordinary reading reports its error.
pub(super) fn find(text: &str, format: SettingsFormat) -> Result<Option<EngineTable>, TableError> {
    let top: BTreeMap<String, Generic> = match format {
        SettingsFormat::Toml => match text.parse::<toml::Table>() {
            Ok(t) => t.into_iter().map(|(k, v)| (k, Generic::Toml(v))).collect(),
            Err(_) => return Ok(None),
        },
        SettingsFormat::Json => match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(o)) => {
                o.into_iter().map(|(k, v)| (k, Generic::Json(v))).collect()
            }
            _ => return Ok(None),
        },
    };
    // In the order the file gives them.
    let mut engines: Vec<Engine> = Engine::ALL
        .into_iter()
        .filter(|e| top.contains_key(e.name()))
        .collect();
    engines.sort_by_key(|e| region(text, format, e.name()).map_or(0, |r| r.start));
    let Some(&engine) = engines.first() else {
        return Ok(None);
    };
    let text_lines: Vec<String> = text.lines().map(str::to_string).collect();
    if let Some(second) = engines.get(1) {
        let line = region(text, format, second.name()).map_or(1, |r| r.start + 1);
        return Err((
            line,
            format!(
                "the file gives both `{}` and `{}` settings: one engine per file",
                engine.name(),
                second.name()
            ),
        ));
    }
    let mut values = BTreeMap::new();
    top[engine.name()]
        .flatten("", &mut values)
        .map_err(|(name, message)| {
            let line = region(text, format, engine.name()).map_or(1, |r| r.start + 1);
            (
                line,
                format!("`{}`: {message}", crate::quote::prefix(&name)),
            )
        })?;
    let mut given = Vec::new();
    for (key, value) in &top {
        if key == engine.name() {
            continue;
        }
        given.push(key.clone());
        if key == "character" {
            given.extend(value.keys().into_iter().map(|k| format!("character.{k}")));
        }
    }
    let lines = region(text, format, engine.name()).unwrap_or(0..0);
    let rest = blank(text, format, engine.name());
    Ok(Some(EngineTable {
        engine,
        values,
        given,
        rest,
        line: lines.start + 1,
        lines,
        text_lines,
    }))
}

/// A parsed value of either format.
enum Generic {
    Toml(toml::Value),
    Json(serde_json::Value),
}

impl Generic {
    /// The keys of a table (none for other values).
    fn keys(&self) -> Vec<String> {
        match self {
            Generic::Toml(toml::Value::Table(t)) => t.keys().cloned().collect(),
            Generic::Json(serde_json::Value::Object(o)) => o.keys().cloned().collect(),
            _ => Vec::new(),
        }
    }

    /// Flattens a table into dotted names and plain values.
    fn flatten(
        &self,
        prefix: &str,
        out: &mut BTreeMap<String, NamedValue>,
    ) -> Result<(), (String, String)> {
        let join = |k: &str| {
            if prefix.is_empty() {
                k.to_string()
            } else {
                format!("{prefix}.{k}")
            }
        };
        let bad = |name: String| {
            Err((
                name,
                "must be a number, a list of numbers, true/false or a name".to_string(),
            ))
        };
        match self {
            Generic::Toml(toml::Value::Table(t)) => {
                for (k, v) in t {
                    Generic::Toml(v.clone()).flatten(&join(k), out)?;
                }
            }
            Generic::Json(serde_json::Value::Object(o)) => {
                for (k, v) in o {
                    Generic::Json(v.clone()).flatten(&join(k), out)?;
                }
            }
            _ if prefix.is_empty() => {
                return Err((
                    String::new(),
                    "the engine's settings must be a table of its names".into(),
                ));
            }
            Generic::Toml(v) => {
                let value = match v {
                    toml::Value::Integer(i) => NamedValue::Number(*i as f64),
                    toml::Value::Float(x) => NamedValue::Number(*x),
                    toml::Value::Boolean(b) => NamedValue::Bool(*b),
                    toml::Value::String(s) => NamedValue::Text(s.clone()),
                    toml::Value::Array(a) => {
                        let numbers: Option<Vec<f64>> = a
                            .iter()
                            .map(|x| match x {
                                toml::Value::Integer(i) => Some(*i as f64),
                                toml::Value::Float(f) => Some(*f),
                                _ => None,
                            })
                            .collect();
                        match numbers {
                            Some(n) => NamedValue::Numbers(n),
                            None => return bad(prefix.to_string()),
                        }
                    }
                    _ => return bad(prefix.to_string()),
                };
                out.insert(prefix.to_string(), value);
            }
            Generic::Json(v) => {
                let value = match v {
                    serde_json::Value::Number(n) => match n.as_f64() {
                        Some(x) => NamedValue::Number(x),
                        None => return bad(prefix.to_string()),
                    },
                    serde_json::Value::Bool(b) => NamedValue::Bool(*b),
                    serde_json::Value::String(s) => NamedValue::Text(s.clone()),
                    serde_json::Value::Array(a) => {
                        let numbers: Option<Vec<f64>> = a.iter().map(|x| x.as_f64()).collect();
                        match numbers {
                            Some(n) => NamedValue::Numbers(n),
                            None => return bad(prefix.to_string()),
                        }
                    }
                    _ => return bad(prefix.to_string()),
                };
                out.insert(prefix.to_string(), value);
            }
        }
        Ok(())
    }
}

/// The TOML table header's first key on `line` (`[rapier.autostep]` gives
/// `rapier`), if the line is a header.
fn header_key(line: &str) -> Option<String> {
    let t = line.trim_start();
    let inner = t.strip_prefix("[[").or_else(|| t.strip_prefix('['))?;
    let inner = inner.trim_start();
    if !inner.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '"' || c == '\'') {
        return None;
    }
    let first = inner
        .split(['.', ']'])
        .next()
        .unwrap_or_default()
        .trim()
        .trim_matches(|c| c == '"' || c == '\'');
    Some(first.to_string())
}

/// Whether a top-level TOML line assigns `name` (`name = {...}` or a
/// dotted `name.key = ...`).
fn assigns(line: &str, name: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix('"').unwrap_or(t);
    t.strip_prefix(name).is_some_and(|after| {
        let after = after.strip_prefix('"').unwrap_or(after).trim_start();
        after.starts_with('=') || after.starts_with('.')
    })
}

/// The 0-based lines holding `name`'s table (from its header, or its
/// first top-level line, to the last of its lines).
fn region(text: &str, format: SettingsFormat, name: &str) -> Option<std::ops::Range<usize>> {
    let lines: Vec<&str> = text.lines().collect();
    match format {
        SettingsFormat::Toml => {
            let mut header: Option<String> = None;
            let (mut first, mut last) = (None, 0);
            for (i, line) in lines.iter().enumerate() {
                if let Some(h) = header_key(line) {
                    header = Some(h);
                }
                let ours = match &header {
                    Some(h) => h == name,
                    None => assigns(line, name),
                };
                if ours {
                    first.get_or_insert(i);
                    last = i;
                }
            }
            first.map(|f| f..last + 1)
        }
        SettingsFormat::Json => {
            let span = json_member(text, name)?;
            let line_at = |b: usize| text[..b].matches('\n').count();
            Some(line_at(span.start)..line_at(span.end.saturating_sub(1)) + 1)
        }
    }
}

/// `text` with `name`'s table replaced by spaces (line breaks kept).
fn blank(text: &str, format: SettingsFormat, name: &str) -> String {
    match format {
        SettingsFormat::Toml => {
            let mut header: Option<String> = None;
            let mut out = String::with_capacity(text.len());
            for line in text.split_inclusive('\n') {
                if let Some(h) = header_key(line) {
                    header = Some(h);
                }
                let ours = match &header {
                    Some(h) => h == name,
                    None => assigns(line, name),
                };
                if ours {
                    out.extend(
                        line.chars()
                            .map(|c| if c == '\n' || c == '\r' { c } else { ' ' }),
                    );
                } else {
                    out.push_str(line);
                }
            }
            out
        }
        SettingsFormat::Json => match json_member(text, name) {
            Some(span) => {
                let mut out = String::with_capacity(text.len());
                for (i, c) in text.char_indices() {
                    if span.contains(&i) && c != '\n' && c != '\r' {
                        out.push(' ');
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            None => text.to_string(),
        },
    }
}

/// The byte range of the top-level JSON member `"name": value` with the
/// comma that separates it from its neighbour, in a text that parses.
fn json_member(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    let mut last_comma: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = i + 1;
                i = end;
                if depth == 1
                    && serde_json::from_str::<String>(&text[start..end.min(b.len())])
                        .ok()
                        .as_deref()
                        == Some(name)
                {
                    // A key only if a colon follows.
                    let mut j = end;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) != Some(&b':') {
                        continue;
                    }
                    let value_end = skip_json_value(b, j + 1)?;
                    let mut k = value_end;
                    while k < b.len() && b[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    return Some(if b.get(k) == Some(&b',') {
                        start..k + 1
                    } else {
                        last_comma.unwrap_or(start)..value_end
                    });
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => last_comma = Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The end (exclusive) of the JSON value starting at or after `i`.
fn skip_json_value(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b',' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    Some(b.len())
}
