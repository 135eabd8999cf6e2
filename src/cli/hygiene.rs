//! The text form of `collidoscope info --hygiene`: the verdict, then one
//! line per kind with its count and its first few items (position in
//! metres, triangles, size in the kind's unit); `--json` lists them all up
//! to the report's cap.

use super::format;
use crate::analysis::hygiene::{HygieneKind, HygieneReport};
use std::fmt::Write as _;

/// Items shown per kind in the text output.
const TEXT_ITEMS: usize = 3;
/// Triangles listed per item in the text output (a fin of 50,000
/// triangles round one edge is one item).
const TEXT_TRIANGLES: usize = 8;

/// The unit of a kind's `size`, as printed.
fn unit(kind: HygieneKind) -> &'static str {
    match kind {
        HygieneKind::Sliver | HygieneKind::CoplanarEdge => "deg",
        HygieneKind::Overlap => "m2",
        HygieneKind::WoundAgainstNormals => "of its faces",
        HygieneKind::InsideOut => "m3",
        _ => "m",
    }
}

/// Four decimals, or three significant digits under 0.001 (a near miss of
/// 0.02 mm must not read as 0.0000).
fn size(value: f64) -> String {
    if value != 0.0 && value.abs() < 1e-3 {
        format!("{value:.2e}")
    } else {
        format!("{value:.4}")
    }
}

/// The `hygiene` section of `info`'s text output.
pub(crate) fn text(report: &HygieneReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "hygiene    {} faults, {} welded vertices (coplanar edges are information, not faults)",
        report.faults, report.welded_vertices
    );
    let width = HygieneKind::ALL
        .iter()
        .map(|k| k.name().len())
        .max()
        .unwrap_or(0);
    for kind in &report.kinds {
        let _ = write!(s, "  {:<width$} {:>8}", kind.kind.name(), kind.count);
        let shown: Vec<String> = kind
            .items
            .iter()
            .take(TEXT_ITEMS)
            .map(|item| {
                if let Some(o) = &item.object {
                    return format!(
                        "{} object {} ({} of {} triangles) size {} {}",
                        format::vec(item.position),
                        o.name,
                        o.triangles,
                        o.of,
                        size(item.size),
                        unit(kind.kind)
                    );
                }
                let mut tris: Vec<String> = item
                    .triangles
                    .iter()
                    .take(TEXT_TRIANGLES)
                    .map(u32::to_string)
                    .collect();
                if item.triangles.len() > TEXT_TRIANGLES {
                    tris.push(format!("… ({} triangles)", item.triangles.len()));
                }
                format!(
                    "{} tris {} size {} {}",
                    format::vec(item.position),
                    tris.join(","),
                    size(item.size),
                    unit(kind.kind)
                )
            })
            .collect();
        if !shown.is_empty() {
            let _ = write!(s, "  {}", shown.join("; "));
        }
        if kind.count > shown.len() && !shown.is_empty() {
            s.push_str("; ...");
        }
        if kind.searches_cut > 0 {
            let _ = write!(
                s,
                " (at least: {} searches stopped at their candidate limit)",
                kind.searches_cut
            );
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hygiene::{HygieneOptions, analyse};
    use crate::math::Vec3;
    use crate::mesh::TriMesh;

    #[test]
    fn one_line_per_kind_with_the_first_items() {
        // Two separate triangles: six open edges, their only fault.
        let up = |x: f32| {
            [
                Vec3::new(x, 0.0, 0.0),
                Vec3::new(x, 0.0, 1.0),
                Vec3::new(x + 1.0, 0.0, 0.0),
            ]
        };
        let positions = [up(0.0), up(5.0)].concat();
        let mesh = TriMesh::single_object("t", positions, vec![[0, 1, 2], [3, 4, 5]]);
        let text = text(&analyse(&mesh, &HygieneOptions::default()));
        assert!(
            text.starts_with("hygiene    6 faults, 6 welded vertices"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1 + HygieneKind::ALL.len(), "{text}");
        let open = text.lines().find(|l| l.contains("open_edge")).unwrap();
        let first = "       6  (0.0000, 0.0000, 0.5000) tris 0 size 1.0000 m; ";
        assert!(open.contains(first), "{open}");
        assert_eq!(open.matches(" tris ").count(), TEXT_ITEMS, "{open}");
        assert!(open.ends_with("; ..."), "{open}");
        let sliver = text.lines().find(|l| l.contains("sliver")).unwrap();
        assert!(sliver.trim_end().ends_with(" 0"), "{sliver}");
    }

    #[test]
    fn tiny_sizes_keep_their_digits() {
        assert_eq!(size(0.0), "0.0000");
        assert_eq!(size(1.5), "1.5000");
        assert_eq!(size(0.000_023_4), "2.34e-5");
    }
}
