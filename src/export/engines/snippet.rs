//! The text an engine's output is built in: code lines, comments in the
//! language's syntax, warnings for values the engine cannot take, and the
//! list of what does not map, in that order.

use super::{Engine, EngineExport, ExportError};

/// An engine's output being written.
pub(super) struct Snippet {
    engine: Engine,
    lines: Vec<String>,
    warnings: Vec<String>,
    not_mapped: Vec<String>,
}

impl Snippet {
    pub(super) fn new(engine: Engine) -> Snippet {
        Snippet {
            engine,
            lines: Vec::new(),
            warnings: Vec::new(),
            not_mapped: Vec::new(),
        }
    }

    pub(super) fn engine(&self) -> Engine {
        self.engine
    }

    /// The language's line comment.
    fn marker(&self) -> &'static str {
        match self.engine {
            Engine::Godot => "#",
            _ => "//",
        }
    }

    /// One line of code, as given (indentation included).
    pub(super) fn line(&mut self, code: &str) {
        self.lines.push(code.to_string());
    }

    /// A comment line (or several, one per `\n`).
    pub(super) fn comment(&mut self, text: &str) {
        for l in text.lines() {
            let line = format!("{} {l}", self.marker());
            self.lines.push(line);
        }
    }

    pub(super) fn blank(&mut self) {
        self.lines.push(String::new());
    }

    /// A value the engine cannot take as tuned: a `WARNING` comment here
    /// and an entry in [`EngineExport::warnings`].
    pub(super) fn warn(&mut self, text: &str) {
        self.comment(&format!("WARNING: {text}."));
        self.warnings.push(text.to_string());
    }

    /// A tuned setting with no counterpart in this engine.
    pub(super) fn not_mapped(&mut self, text: &str) {
        self.not_mapped.push(text.to_string());
    }

    /// `x` if the engine allows it (`min ≤ x ≤ max`), else the nearest
    /// bound, with a warning naming the setting, the tuned value and the rule.
    pub(super) fn within(&mut self, what: &str, x: f64, min: f64, max: f64, rule: &str) -> f64 {
        if (min..=max).contains(&x) {
            return x;
        }
        let written = x.clamp(min, max);
        self.warn(&format!(
            "{what}: the tuned {} is out of {}'s range ({rule}); written as {}",
            short(x),
            self.engine.name(),
            short(written)
        ));
        written
    }

    /// `x` as a 32-bit float literal in Rust's shortest round-trip form
    /// (`30.0`, `0.7853982`, `1e-5`), which C++, C#, GDScript and Rust all
    /// read; refused when it has no finite 32-bit value or would become 0.
    pub(super) fn num(&self, what: &str, x: f64) -> Result<String, ExportError> {
        let f = x as f32;
        if !f.is_finite() || (x != 0.0 && f == 0.0) {
            return Err(ExportError::NotRepresentable {
                engine: self.engine.name(),
                what: what.to_string(),
                value: x,
            });
        }
        // -0.0 would read as a typo in pasted code.
        Ok(format!("{:?}", if f == 0.0 { 0.0 } else { f }))
    }

    /// [`Snippet::num`] with the `f` suffix C++ and C# floats take.
    pub(super) fn float(&self, what: &str, x: f64) -> Result<String, ExportError> {
        Ok(self.num(what, x)? + "f")
    }

    pub(super) fn finish(mut self) -> EngineExport {
        if !self.not_mapped.is_empty() {
            self.blank();
            let engine = self.engine.name();
            self.comment(&format!("Not mapped (no {engine} setting for these):"));
            for item in std::mem::take(&mut self.not_mapped) {
                self.comment(&format!("  - {item}."));
            }
        }
        let mut text = self.lines.join("\n");
        text.push('\n');
        EngineExport {
            engine: self.engine,
            text,
            warnings: self.warnings,
        }
    }
}

/// A number for a comment: the shortest form of its 32-bit value.
pub(super) fn short(x: f64) -> String {
    format!("{}", x as f32)
}
