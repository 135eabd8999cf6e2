//! Comparing engine profiles on one level: the same features checked with
//! each profile's body and rules ([`crate::character::EngineProfile`]), and
//! the findings whose verdict differs, each with every profile's reason.
//! This is the question a programmer porting a level between engines asks:
//! which stairs, doors and ceilings behave differently there, and why.

use super::{CheckReport, Finding, Verdict, VerdictCounts};
use crate::analysis::features::FeatureKind;
use crate::character::EngineProfile;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Two findings are the same feature when of one kind and this close,
/// metres (the profiles share the probe's size, so the finder normally
/// gives the very same list; this only guards against rounding).
const SAME_SPOT_M: f64 = 0.05;

/// One profile's verdict on a finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileVerdict {
    /// The profile.
    pub engine: EngineProfile,
    /// Its verdict.
    pub verdict: Verdict,
    /// Why, as its check says (with the numbers).
    pub reason: String,
}

/// A feature whose verdict differs between profiles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileDifference {
    /// Index of the finding in the first profile's report.
    pub index: usize,
    /// What kind of feature.
    pub kind: FeatureKind,
    /// Where (the first profile's finding), world metres.
    pub position: DVec3,
    /// Each profile's verdict, in the order the profiles were given
    /// (`None` where a profile's finder did not list the feature).
    pub verdicts: Vec<Option<ProfileVerdict>>,
}

/// How the profiles compare on one level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileComparison {
    /// The profiles, in order.
    pub engines: Vec<EngineProfile>,
    /// Each profile's verdict counts, in the same order.
    pub counts: Vec<VerdictCounts>,
    /// Findings of the first profile (the ones compared).
    pub findings: usize,
    /// The findings whose verdict is not the same in every profile.
    pub differences: Vec<ProfileDifference>,
}

/// Compares the reports of the same level checked with each profile.
pub fn compare_profiles(reports: &[(EngineProfile, &CheckReport)]) -> ProfileComparison {
    let engines: Vec<EngineProfile> = reports.iter().map(|(e, _)| *e).collect();
    let counts = reports.iter().map(|(_, r)| r.counts).collect();
    let Some((_, first)) = reports.first() else {
        return ProfileComparison {
            engines,
            counts,
            findings: 0,
            differences: Vec::new(),
        };
    };
    let verdict_of = |engine: EngineProfile, f: &Finding| ProfileVerdict {
        engine,
        verdict: f.verdict,
        reason: f.reason.clone(),
    };
    let mut differences = Vec::new();
    for (index, f) in first.findings.iter().enumerate() {
        let verdicts: Vec<Option<ProfileVerdict>> = reports
            .iter()
            .map(|&(engine, r)| same_feature(r, index, f).map(|g| verdict_of(engine, g)))
            .collect();
        let all_same = verdicts
            .iter()
            .all(|v| v.as_ref().map(|v| v.verdict) == Some(f.verdict));
        if !all_same {
            differences.push(ProfileDifference {
                index,
                kind: f.feature.kind,
                position: f.feature.position,
                verdicts,
            });
        }
    }
    ProfileComparison {
        engines,
        counts,
        findings: first.findings.len(),
        differences,
    }
}

/// The finding of `r` that is the feature `f` (at `index` in the first
/// report): the one at the same index when it matches, else the nearest
/// of its kind within [`SAME_SPOT_M`].
fn same_feature<'a>(r: &'a CheckReport, index: usize, f: &Finding) -> Option<&'a Finding> {
    let matches = |g: &Finding| {
        g.feature.kind == f.feature.kind
            && g.feature.position.distance(f.feature.position) <= SAME_SPOT_M
    };
    if let Some(g) = r.findings.get(index).filter(|g| matches(g)) {
        return Some(g);
    }
    r.findings.iter().filter(|g| matches(g)).min_by(|a, b| {
        let da = a.feature.position.distance(f.feature.position);
        let db = b.feature.position.distance(f.feature.position);
        da.total_cmp(&db)
    })
}
