//! Collects recoverable import problems: every one is counted, only the
//! first [`LISTED_PER_KIND`] of each kind are listed with their line, so a
//! level with a million bad triangles still gets a readable report.

use super::ImportWarning;

/// How many warnings of one kind are listed; the rest are only counted.
pub(super) const LISTED_PER_KIND: usize = 50;

/// The kinds of recoverable problem, each capped separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WarningKind {
    /// A zero-area triangle (or a whole flat polygon) was dropped.
    Degenerate,
    /// A triangle repeating an earlier one was dropped.
    Duplicate,
    /// A statement the importer does not use (`t`, `curv`, ...).
    IgnoredStatement,
    /// A texture or normal index pointing at nothing (those are unused).
    AttributeIndex,
    /// A self-intersecting polygon was triangulated as well as it could be.
    Triangulation,
    /// An object name too long to show was cut.
    LongName,
    /// A `v` statement with values beyond x y z [w] or colours.
    VertexExtras,
    /// The file ends without a line break: its last line may be cut short.
    Truncated,
}

/// Each kind, its name in the summary line, and how many are listed: one
/// extra-vertex-values warning says all there is to say about an exporter.
const KINDS: [(WarningKind, &str, usize); 8] = [
    (
        WarningKind::Degenerate,
        "zero-area triangle",
        LISTED_PER_KIND,
    ),
    (
        WarningKind::Duplicate,
        "duplicate triangle",
        LISTED_PER_KIND,
    ),
    (
        WarningKind::IgnoredStatement,
        "ignored statement",
        LISTED_PER_KIND,
    ),
    (
        WarningKind::AttributeIndex,
        "dangling texture/normal index",
        LISTED_PER_KIND,
    ),
    (
        WarningKind::Triangulation,
        "self-intersecting polygon",
        LISTED_PER_KIND,
    ),
    (WarningKind::LongName, "long name", LISTED_PER_KIND),
    (WarningKind::VertexExtras, "extra vertex value", 1),
    (WarningKind::Truncated, "truncated file", 1),
];

fn slot(kind: WarningKind) -> usize {
    KINDS.iter().position(|(k, ..)| *k == kind).unwrap_or(0)
}

fn listed(kind: WarningKind) -> usize {
    KINDS[slot(kind)].2
}

/// Counts warnings per kind and keeps the first few of each.
#[derive(Debug, Default)]
pub(super) struct Warnings {
    counts: [usize; KINDS.len()],
    listed: Vec<(WarningKind, ImportWarning)>,
}

impl Warnings {
    /// Records one warning; `message` is only formatted when it is listed.
    pub(super) fn push(
        &mut self,
        kind: WarningKind,
        line: Option<usize>,
        message: impl FnOnce() -> String,
    ) {
        let count = &mut self.counts[slot(kind)];
        *count += 1;
        if *count <= listed(kind) {
            let message = message();
            self.listed.push((kind, ImportWarning { line, message }));
        }
    }

    /// Adds the warnings of the next part of the file, whose line numbers
    /// start after `line_offset`, as if they had been pushed here one by one
    /// (the parallel parse merges its chunks' warnings so).
    pub(super) fn append(&mut self, other: Warnings, line_offset: usize) {
        // `other` lists the first of each of its kinds; here they are listed
        // while this list has room for their kind.
        let mut seen = self.counts;
        for (kind, mut warning) in other.listed {
            let seen = &mut seen[slot(kind)];
            if *seen < listed(kind) {
                warning.line = warning.line.map(|line| line + line_offset);
                self.listed.push((kind, warning));
            }
            *seen += 1;
        }
        for (count, more) in self.counts.iter_mut().zip(other.counts) {
            *count += more;
        }
    }

    /// How many warnings of `kind` were pushed, listed or not.
    #[cfg(test)]
    pub(super) fn count(&self, kind: WarningKind) -> usize {
        self.counts[slot(kind)]
    }

    /// The listed warnings in file order (parsing and triangulation find
    /// them in separate passes), then one summary per kind over the cap.
    pub(super) fn finish(self) -> Vec<ImportWarning> {
        let mut listed: Vec<ImportWarning> = self.listed.into_iter().map(|(_, w)| w).collect();
        listed.sort_by_key(|w| w.line.unwrap_or(usize::MAX));
        for (kind, what, cap) in KINDS {
            let count = self.counts[slot(kind)];
            if count > cap {
                listed.push(ImportWarning {
                    line: None,
                    message: format!(
                        "{} more {what} warnings not listed ({count} in all)",
                        count - cap
                    ),
                });
            }
        }
        listed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_first_of_each_kind_and_counts_all() {
        let mut w = Warnings::default();
        for i in 0..LISTED_PER_KIND + 7 {
            w.push(WarningKind::Duplicate, Some(i + 1), || format!("dup {i}"));
        }
        w.push(WarningKind::Degenerate, Some(1000), || "flat".into());
        w.push(WarningKind::Degenerate, Some(2), || "thin".into());
        assert_eq!(w.count(WarningKind::Duplicate), LISTED_PER_KIND + 7);
        assert_eq!(w.count(WarningKind::Degenerate), 2);
        let list = w.finish();
        assert_eq!(list.len(), LISTED_PER_KIND + 3);
        assert_eq!(list[2].message, "thin");
        assert_eq!(list[LISTED_PER_KIND + 1].message, "flat");
        let last = list.last().unwrap();
        assert_eq!(last.line, None);
        assert!(
            last.message.starts_with("7 more duplicate triangle"),
            "{last:?}"
        );
    }
}
