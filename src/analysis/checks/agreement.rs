//! How far another character controller agrees with a `check`: the
//! other controller (an engine's own, run in the same process: Rapier's,
//! Jolt's, PhysX's) walks every walk the check walked, from the same
//! start, the same way, for as long, and its walks are judged by the
//! check's own rules ([`rejudge`]). The two verdicts are then compared
//! finding by finding, and every disagreement is listed with where both
//! walks ended, so that its cause can be found on a concrete walk.
//!
//! The comparison is only as good as the replay: [`replayed_verdicts`]
//! rejudges the check's own walks, replayed, and a harness must get every
//! verdict back before it compares anything.

use super::{CheckReport, Finding, Verdict, rejudge};
use crate::analysis::features::FeatureKind;
use crate::character::{Walk, WalkSpec, WalkTrace, walk};
use crate::collide::{CollisionWorld, SlideSettings};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One finding as the check gave it and as the peer's walks give it.
#[derive(Clone, Debug)]
pub struct PeerRow {
    /// The check's finding.
    pub ours: Finding,
    /// The same finding judged on the peer's walks.
    pub theirs: Finding,
}

/// The findings of `report` judged again on the peer's walks: `walks[i][j]`
/// is the peer's walk of finding `i`'s walk `j`, `None` where the check
/// found no start for that walk (it has no frames; neither controller
/// walks it).
///
/// # Panics
///
/// When `walks` does not hold one list per finding.
pub fn rows_from_walks(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
    walks: Vec<Vec<Option<Walk>>>,
) -> Vec<PeerRow> {
    assert_eq!(walks.len(), report.findings.len(), "one list per finding");
    report
        .findings
        .par_iter()
        .zip(walks)
        .map(|(f, walks)| PeerRow {
            ours: f.clone(),
            theirs: rejudge(world, settings, f, &walks),
        })
        .collect()
}

/// The specs of the walks a peer has to walk for `report`: per finding,
/// per walk, `None` where the check found no start.
pub fn walk_specs(report: &CheckReport) -> Vec<Vec<Option<&WalkSpec>>> {
    report
        .findings
        .iter()
        .map(|f| {
            f.walks
                .iter()
                .map(|w| (w.summary.frames > 0).then_some(&w.spec))
                .collect()
        })
        .collect()
}

/// [`rows_from_walks`] with a peer that can walk from many threads at
/// once: `peer_walk` walks one spec.
pub fn peer_rows(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
    peer_walk: impl Fn(&WalkSpec) -> Walk + Sync,
) -> Vec<PeerRow> {
    let walks = walk_specs(report)
        .into_par_iter()
        .map(|specs| specs.into_iter().map(|s| s.map(&peer_walk)).collect())
        .collect();
    rows_from_walks(world, settings, report, walks)
}

/// How many of `report`'s verdicts come back when its own walks are
/// replayed with Collidoscope's solver and judged again: all of them, or
/// the replay (and so any comparison built on it) is wrong.
pub fn replayed_verdicts(
    world: CollisionWorld<'_>,
    settings: &SlideSettings,
    report: &CheckReport,
) -> usize {
    peer_rows(world, settings, report, |spec| {
        walk(world, settings, spec, WalkTrace::FramesOnly).expect("a replayed walk")
    })
    .iter()
    .filter(|r| r.ours.verdict == r.theirs.verdict)
    .count()
}

/// How many verdicts agree: of all findings, and of those both tested
/// (neither `untested`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// Findings with the same verdict.
    pub agree: usize,
    /// All findings.
    pub total: usize,
    /// Findings both tested, with the same verdict.
    pub both_tested_agree: usize,
    /// Findings both tested.
    pub both_tested: usize,
}

impl Agreement {
    /// The agreement of `rows`.
    pub fn of(rows: &[PeerRow]) -> Self {
        let same = |r: &&PeerRow| r.ours.verdict == r.theirs.verdict;
        let tested = |r: &&PeerRow| {
            r.ours.verdict != Verdict::Untested && r.theirs.verdict != Verdict::Untested
        };
        Agreement {
            agree: rows.iter().filter(same).count(),
            total: rows.len(),
            both_tested_agree: rows.iter().filter(tested).filter(same).count(),
            both_tested: rows.iter().filter(tested).count(),
        }
    }

    /// The share that agrees, 0..=1 (1 with no findings).
    pub fn share(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.agree as f64 / self.total as f64
        }
    }

    /// The share that agrees among the findings both tested, 0..=1.
    pub fn tested_share(&self) -> f64 {
        if self.both_tested == 0 {
            1.0
        } else {
            self.both_tested_agree as f64 / self.both_tested as f64
        }
    }
}

/// The finding's feature and measurements in a few words.
fn feature_words(f: &Finding) -> String {
    let x = &f.feature;
    let m = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    let kind = x.kind.word();
    match x.kind {
        FeatureKind::Step => format!(
            "{kind} riser {} tread {} over {:.2}",
            m(x.riser_height_m),
            m(x.tread_depth_m),
            x.extent_m
        ),
        FeatureKind::Slope => {
            format!("{kind} {}° over {:.2}", m(x.slope_deg), x.extent_m)
        }
        FeatureKind::Opening => {
            format!("{kind} {} x {}", m(x.width_m), m(x.height_m))
        }
        FeatureKind::Ceiling => format!("{kind} {}", m(x.height_m)),
    }
}

/// The agreement of `rows` on the level `level` with the peer `peer`, in
/// words: the count, the matrix of verdict pairs, and every disagreement
/// with both reasons and where each walk started and ended.
pub fn describe(level: &str, peer: &str, rows: &[PeerRow]) -> String {
    let a = Agreement::of(rows);
    let mut out = format!(
        "{level}: {}/{} verdicts agree ({:.1} %); both tested: {}/{} ({:.1} %)\n",
        a.agree,
        a.total,
        100.0 * a.share(),
        a.both_tested_agree,
        a.both_tested,
        100.0 * a.tested_share()
    );
    let mut matrix: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for r in rows {
        *matrix
            .entry((r.ours.verdict.word(), r.theirs.verdict.word()))
            .or_default() += 1;
    }
    for ((o, t), n) in &matrix {
        let _ = writeln!(out, "  ours {o:9} {peer} {t:9} {n:5}");
    }
    let p = |v: glam::DVec3| format!("({:.2}, {:.2}, {:.2})", v.x, v.y, v.z);
    for r in rows.iter().filter(|r| r.ours.verdict != r.theirs.verdict) {
        let _ = writeln!(
            out,
            "  DIFF {} at {}: ours {}, {peer} {}",
            feature_words(&r.ours),
            p(r.ours.feature.position),
            r.ours.verdict.word(),
            r.theirs.verdict.word()
        );
        let _ = writeln!(out, "    ours: {}", r.ours.reason);
        let _ = writeln!(out, "    {peer}: {}", r.theirs.reason);
        for (o, t) in r.ours.walks.iter().zip(&r.theirs.walks) {
            let _ = writeln!(
                out,
                "    walk {:.0}° from {}: ours ends {} passed {} {}; {peer} ends {} passed {} {}",
                o.angle_deg,
                p(o.spec.from),
                p(o.summary.final_position),
                o.passed,
                o.untested.as_deref().unwrap_or(""),
                p(t.summary.final_position),
                t.passed,
                t.untested.as_deref().unwrap_or("")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::checks::check_level;
    use crate::analysis::generate::default_level;
    use crate::level::Level;
    use std::sync::atomic::AtomicBool;

    fn built_in_report() -> (Level, SlideSettings, CheckReport) {
        let level = Level::from_mesh("built-in", default_level());
        let settings = SlideSettings::default();
        let report = check_level(
            &level,
            level.world(),
            &settings,
            &|_| {},
            &AtomicBool::new(false),
        )
        .expect("a floor")
        .expect("not cancelled");
        (level, settings, report)
    }

    #[test]
    fn the_checks_own_walks_replayed_give_every_verdict_back() {
        let (level, settings, report) = built_in_report();
        let n = report.findings.len();
        assert!(n > 10, "the built-in level has findings ({n})");
        assert_eq!(replayed_verdicts(level.world(), &settings, &report), n);
    }

    #[test]
    fn a_peer_that_stands_still_disagrees_where_the_check_got_past() {
        let (level, settings, report) = built_in_report();
        let world = level.world();
        // A controller that hardly moves: it walks one frame of each walk.
        let still = |spec: &WalkSpec| {
            let short = WalkSpec {
                seconds: 1.0 / 60.0,
                ..*spec
            };
            walk(world, &settings, &short, WalkTrace::FramesOnly).expect("walks")
        };
        let rows = peer_rows(world, &settings, &report, still);
        let a = Agreement::of(&rows);
        let got_past = report
            .findings
            .iter()
            .filter(|f| matches!(f.verdict, Verdict::Climbs | Verdict::Passes))
            .count();
        assert!(got_past > 0);
        assert!(
            a.total - a.agree >= got_past,
            "every climb and pass is lost when the peer stands still ({} of {got_past})",
            a.total - a.agree
        );
        let text = describe("built-in", "still", &rows);
        assert!(text.contains("DIFF"), "{text}");
        assert!(text.contains("ours climbs    still"), "{text}");
    }

    #[test]
    fn agreement_counts_untested_apart() {
        let (_, _, report) = built_in_report();
        let f = report
            .findings
            .iter()
            .find(|f| f.verdict != Verdict::Untested)
            .expect("a tested finding");
        let mut untested = f.clone();
        untested.verdict = Verdict::Untested;
        let rows = vec![
            PeerRow {
                ours: f.clone(),
                theirs: f.clone(),
            },
            PeerRow {
                ours: f.clone(),
                theirs: untested,
            },
        ];
        let a = Agreement::of(&rows);
        assert_eq!(
            (a.agree, a.total, a.both_tested_agree, a.both_tested),
            (1, 2, 1, 1)
        );
        assert_eq!(a.share(), 0.5);
        assert_eq!(a.tested_share(), 1.0);
        assert_eq!(Agreement::of(&[]).share(), 1.0);
    }
}
