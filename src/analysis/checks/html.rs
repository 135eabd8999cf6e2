//! The level checks as one self-contained HTML page: the character, the
//! counts, a map of the findings seen from above, and per finding its
//! measurements, verdict, reason and a section (the level cut along its
//! deciding walk, the ellipsoid's outline at its frames, the measured
//! height). Inline SVG and CSS only: it opens anywhere, offline.

use super::{CheckReport, Finding, Verdict};
use crate::analysis::section::{Section, section_of_walk};
use crate::character::{WalkTrace, walk};
use crate::collide::{CollisionWorld, SlideSettings};
use crate::level::Level;
use glam::DVec2;
use rayon::prelude::*;
use std::fmt::Write as _;

/// Drawing size of a section, pixels.
const SECTION_PX: (f64, f64) = (420.0, 220.0);
/// Metres of level drawn behind a walk's start and past its end.
const SECTION_MARGIN_M: f64 = 0.5;
/// Ellipsoid outlines drawn per section (evenly over the frames).
const OUTLINES: usize = 8;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colour of a verdict.
fn colour(v: Verdict) -> &'static str {
    match v {
        Verdict::Climbs | Verdict::Passes => "#2e9e4f",
        Verdict::Blocked => "#c0392b",
        Verdict::Stalls => "#d68910",
        Verdict::Untested => "#7f8c8d",
    }
}

/// The measurements of a finding, in words.
pub fn measurements(f: &Finding) -> String {
    let m = &f.feature;
    let mut parts = Vec::new();
    if let Some(n) = m.flight {
        parts.push(format!("staircase {}", n + 1));
    }
    if let Some(r) = m.riser_height_m {
        parts.push(format!("riser {r:.3} m"));
    }
    if let Some(t) = m.tread_depth_m {
        parts.push(format!("tread {t:.3} m"));
    }
    if let Some(w) = m.width_m {
        parts.push(format!("width {w:.3} m"));
    }
    if let Some(h) = m.height_m {
        parts.push(format!("height {h:.3} m"));
    }
    if let Some(s) = m.slope_deg {
        parts.push(format!("slope {s:.1}°"));
    }
    parts.join(", ")
}

/// The page for `report` on `level` with the character of `settings`
/// (walks re-run through `world` to draw the sections).
pub fn html_report(
    level: &Level,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
) -> String {
    let sections: Vec<String> = report
        .findings
        .par_iter()
        .map(|f| section_svg(level, world, settings, f))
        .collect();
    let mut h = String::new();
    let c = &settings.character;
    let n = &report.counts;
    let _ = write!(
        h,
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Level checks: {name}</title>\
         <style>body{{font:14px system-ui,sans-serif;margin:2em;color:#222}}\
         table{{border-collapse:collapse}}td,th{{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}}\
         .v{{font-weight:bold}}svg{{background:#fafafa;border:1px solid #ccc}}</style></head><body>\
         <h1>Level checks: {name}</h1>\
         <p>{tris} triangles. Character: radii {rx:.2} × {ry:.2} × {rz:.2} m, {speed} m/s at {rate} Hz, \
         step {step} m, walkable slope {slope}°, mode {mode}.</p>\
         <p><b>{climbs}</b> climb, <b>{passes}</b> pass, <b style=\"color:#c0392b\">{blocked}</b> blocked, \
         <b style=\"color:#d68910\">{stalls}</b> stall; <b style=\"color:#7f8c8d\">{untested}</b> untested \
         (listed apart: no walk could reach or test them), {marginal} marginal.{inside_out} Features found in {find:.0} ms (cell {cell:.2} m{coarse}), walked in {walk:.0} ms.</p>",
        name = esc(&level.name),
        tris = level.mesh.triangle_count(),
        rx = settings.radii[0],
        ry = settings.radii[1],
        rz = settings.radii[2],
        speed = c.walk_speed_m_s,
        rate = c.frame_rate_hz,
        step = c.max_step_height_m,
        slope = c.max_slope_deg,
        mode = settings.mode,
        climbs = n.climbs,
        passes = n.passes,
        blocked = n.blocked,
        stalls = n.stalls,
        untested = n.untested,
        marginal = n.marginal,
        inside_out = if report.inside_out {
            " <b style=\"color:#c0392b\">The level is wound inside out: its faces point away from where a player stands; the features were found on their other side. Fix the winding in the file.</b>"
        } else {
            ""
        },
        find = report.find_ms,
        cell = report.cell_m,
        coarse = if report.coarsened { ", coarsened" } else { "" },
        walk = report.walk_ms,
    );
    h.push_str(&map_svg(level, report));
    let header = "<table><tr><th>#</th><th>kind</th><th>verdict</th><th>where (x, y, z)</th>\
         <th>measured</th><th>why</th><th>section along the deciding walk</th></tr>";
    h.push_str("<h2>Findings</h2>");
    h.push_str(header);
    // Tested findings first, then the untested ones in a table of their own.
    let rows = report.findings.iter().zip(&sections).enumerate();
    let (tested, untested): (Vec<_>, Vec<_>) =
        rows.partition(|(_, (f, _))| f.verdict != Verdict::Untested);
    for (k, (i, (f, svg))) in tested.into_iter().chain(untested).enumerate() {
        if k == report.findings.len() - report.counts.untested {
            h.push_str("</table><h2>Untested: no walk could reach or test these</h2>");
            h.push_str(header);
        }
        let p = f.feature.position;
        let marginal = f
            .marginal
            .as_deref()
            .map(|m| format!("<br><i>marginal: {}</i>", esc(m)))
            .unwrap_or_default();
        let _ = write!(
            h,
            "<tr id=\"f{i}\"><td>{i}</td><td>{kind}</td><td class=\"v\" style=\"color:{col}\">{verdict}</td>\
             <td>({:.2}, {:.2}, {:.2})<br>{object}</td><td>{meas}</td><td>{reason}{marginal}</td><td>{svg}</td></tr>",
            p.x,
            p.y,
            p.z,
            kind = f.feature.kind.word(),
            col = colour(f.verdict),
            verdict = f.verdict.word(),
            object = esc(f.feature.object.as_deref().unwrap_or("")),
            meas = esc(&measurements(f)),
            reason = esc(&f.reason),
        );
    }
    h.push_str("</table></body></html>\n");
    h
}

/// The findings seen from above (x to the right, z down), over the
/// objects' boxes.
fn map_svg(level: &Level, report: &CheckReport) -> String {
    let b = level.mesh.bounds();
    if b.is_empty() {
        return String::new();
    }
    let (w, h) = (720.0, 480.0);
    let size = DVec2::new(f64::from(b.max.x - b.min.x), f64::from(b.max.z - b.min.z))
        .max(DVec2::splat(1e-3));
    let scale = (w / size.x).min(h / size.y);
    let at = |x: f64, z: f64| {
        (
            (x - f64::from(b.min.x)) * scale,
            (z - f64::from(b.min.z)) * scale,
        )
    };
    let mut s = format!(
        "<h2>Map</h2><svg width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\">",
        size.x * scale,
        size.y * scale,
        size.x * scale,
        size.y * scale
    );
    for o in level.mesh.objects.iter().take(2000) {
        if o.aabb.is_empty() {
            continue;
        }
        let (x0, z0) = at(f64::from(o.aabb.min.x), f64::from(o.aabb.min.z));
        let (x1, z1) = at(f64::from(o.aabb.max.x), f64::from(o.aabb.max.z));
        let _ = write!(
            s,
            "<rect x=\"{x0:.1}\" y=\"{z0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#bbb\"/>",
            (x1 - x0).max(0.5),
            (z1 - z0).max(0.5)
        );
    }
    for (i, f) in report.findings.iter().enumerate() {
        let (x, z) = at(f.feature.position.x, f.feature.position.z);
        let _ = write!(
            s,
            "<a href=\"#f{i}\"><circle cx=\"{x:.1}\" cy=\"{z:.1}\" r=\"3\" fill=\"{}\"><title>{i} {} {}</title></circle></a>",
            colour(f.verdict),
            f.feature.kind.word(),
            f.verdict.word()
        );
    }
    s.push_str("</svg>");
    s
}

/// The section along a finding's deciding walk (the first that failed, or
/// the straight one).
fn section_svg(
    level: &Level,
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    f: &Finding,
) -> String {
    let Some(decisive) = f.walks.iter().find(|w| !w.passed).or(f.walks.first()) else {
        return String::new();
    };
    let Ok(w) = walk(world, settings, &decisive.spec, WalkTrace::FramesOnly) else {
        return String::new();
    };
    let sec = section_of_walk(
        level,
        &w,
        &crate::character::Body::of(settings),
        SECTION_MARGIN_M,
        SECTION_MARGIN_M,
    );
    draw_section(&sec, f, decisive.angle_deg)
}

/// One section as SVG: the cut in grey, the body's outline at a few
/// frames, its path, and the measured height as a labelled bar.
pub fn draw_section(sec: &Section, f: &Finding, angle_deg: f64) -> String {
    let (lo, hi) = sec.bounds();
    let (w, h) = SECTION_PX;
    let size = (hi - lo).max(DVec2::splat(1e-3));
    let scale = ((w - 20.0) / size.x).min((h - 20.0) / size.y);
    let px = |p: DVec2| (10.0 + (p.x - lo.x) * scale, h - 10.0 - (p.y - lo.y) * scale);
    let mut s =
        format!("<svg width=\"{w:.0}\" height=\"{h:.0}\"><g stroke=\"#555\" stroke-width=\"1.5\">");
    for seg in &sec.segments {
        let (a, b) = (px(seg[0]), px(seg[1]));
        let _ = write!(
            s,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            a.0, a.1, b.0, b.1
        );
    }
    s.push_str("</g><g fill=\"none\" stroke=\"#2a7fd4\" stroke-width=\"1\">");
    let n = sec.path.len();
    for k in 0..OUTLINES.min(n) {
        let i = if OUTLINES.min(n) > 1 {
            k * (n - 1) / (OUTLINES.min(n) - 1)
        } else {
            0
        };
        let points: Vec<String> = sec
            .body
            .outline(sec.path[i], 48)
            .into_iter()
            .map(|p| {
                let (x, y) = px(p);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = write!(
            s,
            "<polyline points=\"{}\" opacity=\"{:.2}\"/>",
            points.join(" "),
            0.3 + 0.7 * k as f64 / OUTLINES as f64
        );
    }
    let path: Vec<String> = sec
        .path
        .iter()
        .map(|p| {
            let (x, y) = px(*p);
            format!("{x:.1},{y:.1}")
        })
        .collect();
    let _ = write!(
        s,
        "<polyline points=\"{}\" stroke-dasharray=\"3 2\"/></g>",
        path.join(" ")
    );
    // The measured height, standing on the feature's floor at its position.
    let foot = sec.to_cut(f.feature.position);
    if let Some(m) = f.feature.riser_height_m.or(f.feature.height_m) {
        let (x, y0) = px(foot);
        let (_, y1) = px(foot + DVec2::new(0.0, m));
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{y0:.1}\" x2=\"{x:.1}\" y2=\"{y1:.1}\" stroke=\"#c0392b\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"#c0392b\" font-size=\"12\">{m:.2} m</text>",
            x + 4.0,
            (y0 + y1) * 0.5
        );
    }
    let _ = write!(
        s,
        "<text x=\"10\" y=\"14\" font-size=\"11\" fill=\"#555\">walk at {angle_deg:.0}°, {} frames{}</text></svg>",
        n.saturating_sub(1),
        if sec.truncated { ", cut truncated" } else { "" }
    );
    s
}
