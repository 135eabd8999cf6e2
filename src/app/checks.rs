//! The level checks in the window: running them in the background
//! ([`super::level_job`]), the report, the filters, and opening a finding
//! (its deciding walk re-run, the frame where it stalls opened in the
//! stepper, its section kept for the plot, its measurement drawn in the
//! view). World space, Y up, metres.

use crate::analysis::checks::{
    CheckReport, CheckWalk, Finding, ProfileComparison, ProfileDifference, Verdict, check_level,
    compare_profiles,
};
use crate::analysis::features::FeatureKind;
use crate::analysis::section::{Section, section_of_walk};
use crate::app::level_job::{JobStep, LevelJob};
use crate::app::state::{EditorState, Probe};
use crate::app::stepper::FrameSpec;
use crate::character::EngineProfile;
use crate::character::{CharacterInput, Walk, WalkTrace, walk};
use crate::collide::SlideSettings;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use glam::DVec3;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Metres of level shown before a walk in its section.
pub const SECTION_BEFORE_M: f64 = 0.5;
/// Metres of level shown past a walk's end: a walk stalls a radius short
/// of the riser or wall that stopped it, which must be in the cut.
pub const SECTION_AFTER_M: f64 = 1.5;

/// Every feature kind, in the report's order.
pub const KINDS: [FeatureKind; 4] = [
    FeatureKind::Step,
    FeatureKind::Opening,
    FeatureKind::Slope,
    FeatureKind::Ceiling,
];

/// Every verdict.
pub const VERDICTS: [Verdict; 5] = [
    Verdict::Climbs,
    Verdict::Passes,
    Verdict::Blocked,
    Verdict::Stalls,
    Verdict::Untested,
];

/// Which findings the list shows (all by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChecksFilter {
    /// Per kind, in [`KINDS`] order.
    pub kinds: [bool; 4],
    /// Per verdict, in [`VERDICTS`] order.
    pub verdicts: [bool; 5],
    /// Only the marginal findings (a hair from the character's limit).
    pub marginal_only: bool,
    /// Only the findings whose verdict differs under the compared engine
    /// profile (when the run compared one).
    pub differing_only: bool,
}

impl Default for ChecksFilter {
    fn default() -> Self {
        ChecksFilter {
            kinds: [true; 4],
            verdicts: [true; 5],
            marginal_only: false,
            differing_only: false,
        }
    }
}

impl ChecksFilter {
    /// Whether `f` is shown.
    pub fn shows(&self, f: &Finding) -> bool {
        let k = KINDS.iter().position(|k| *k == f.feature.kind);
        let v = VERDICTS.iter().position(|v| *v == f.verdict);
        k.is_some_and(|k| self.kinds[k])
            && v.is_some_and(|v| self.verdicts[v])
            && (!self.marginal_only || f.marginal.is_some())
    }
}

/// The finding opened from the list: its deciding walk and its section.
#[derive(Clone, Debug)]
pub struct OpenFinding {
    /// Index into the report's findings.
    pub index: usize,
    /// The walk re-run (frames only).
    pub walk: Walk,
    /// Its angle to the feature's direction, degrees.
    pub angle_deg: f64,
    /// The frame opened in the stepper.
    pub frame: usize,
    /// The level cut along the walk.
    pub section: Section,
}

/// The checks of the loaded level.
#[derive(Default)]
pub struct ChecksState {
    /// The run in progress.
    pub job: Option<LevelJob<CheckRun, SlideSettings>>,
    /// Its last progress, `[0, 1]`.
    pub progress: f32,
    /// The last report, with the settings it was made with.
    pub report: Option<(Arc<CheckReport>, SlideSettings)>,
    /// Why the last run could not check the level.
    pub error: Option<String>,
    /// Which findings the list shows.
    pub filter: ChecksFilter,
    /// The finding opened.
    pub open: Option<OpenFinding>,
    /// The groups of the list shown unfolded (all are folded at first, so
    /// a level of hundreds of findings opens on one line per staircase and
    /// object, each with its worst verdict).
    pub unfolded: BTreeSet<GroupKey>,
    /// The list scrolls to the opened finding's row once (it was opened
    /// from its pin in the view).
    pub reveal: bool,
    /// Radius of the pins' heads for the level checked, metres
    /// ([`pin_radius_for`]).
    pub pin_radius_m: f64,
    /// The engine profile the next run also checks the level with, to list
    /// the verdicts that differ (`None`: one profile only).
    pub compare_with: Option<EngineProfile>,
    /// The last run's comparison with [`ChecksState::compare_with`]: the
    /// findings whose verdict differs, each with both reasons.
    pub comparison: Option<Arc<ProfileComparison>>,
}

/// What one run of the checks gives: the report, and the same level
/// checked under another engine profile when one was asked for.
pub struct CheckRun {
    /// The report under the probe's own settings.
    pub report: CheckReport,
    /// The comparison with the other profile.
    pub comparison: Option<ProfileComparison>,
}

/// A group of the findings list: one staircase (its risers), or one
/// object (its other findings).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKey {
    /// A flight of risers, as the core numbers it (`Feature::flight`).
    Staircase(u32),
    /// The object the feature's main triangle belongs to (`None`: no name).
    Object(Option<String>),
}

impl GroupKey {
    /// The group of `f`: its staircase when it is a riser of one, else its
    /// object.
    pub fn of(f: &Finding) -> GroupKey {
        match f.feature.flight {
            Some(n) if f.feature.kind == FeatureKind::Step => GroupKey::Staircase(n),
            _ => GroupKey::Object(f.feature.object.clone()),
        }
    }

    /// "staircase 2" (numbered from 1, as the text and HTML reports do),
    /// or the object's name.
    pub fn title(&self) -> String {
        match self {
            GroupKey::Staircase(n) => format!("staircase {}", n + 1),
            GroupKey::Object(Some(name)) => name.clone(),
            GroupKey::Object(None) => "(no object)".into(),
        }
    }
}

/// How bad a verdict is for a designer signing off a level: a group shows
/// its worst member's verdict while folded.
pub fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::Blocked => 4,
        Verdict::Stalls => 3,
        Verdict::Untested => 2,
        Verdict::Climbs | Verdict::Passes => 1,
    }
}

/// One group of the list, over the findings the filter shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FindingGroup {
    /// Which staircase or object.
    pub key: GroupKey,
    /// Its findings (indices into the report), in the list's order.
    pub members: Vec<usize>,
    /// The worst verdict among them ([`severity`]).
    pub worst: Verdict,
    /// How many of them are marginal.
    pub marginal: usize,
    /// How many of them are steps (a staircase's risers).
    pub steps: usize,
}

/// One row of the list: a group's header or a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListRow {
    /// Header of group `i` of [`ChecksState::groups`].
    Group(usize),
    /// Finding `i` of the report.
    Finding(usize),
}

impl Clone for ChecksState {
    /// A clone keeps the results but not a running job.
    fn clone(&self) -> Self {
        ChecksState {
            job: None,
            progress: self.progress,
            report: self.report.clone(),
            error: self.error.clone(),
            filter: self.filter,
            open: self.open.clone(),
            unfolded: self.unfolded.clone(),
            reveal: self.reveal,
            pin_radius_m: self.pin_radius_m,
            compare_with: self.compare_with,
            comparison: self.comparison.clone(),
        }
    }
}

impl std::fmt::Debug for ChecksState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChecksState")
            .field("running", &self.job.is_some())
            .field("findings", &self.report().map(|r| r.findings.len()))
            .field("error", &self.error)
            .field("open", &self.open.as_ref().map(|o| o.index))
            .finish()
    }
}

impl ChecksState {
    /// Whether a run is in progress.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The last report.
    pub fn report(&self) -> Option<&CheckReport> {
        self.report.as_ref().map(|(r, _)| r.as_ref())
    }

    /// Indices of the findings the filter shows, in the report's order.
    /// The findings the list shows, in the report's order with the
    /// untested ones last (apart from those a walk tested).
    pub fn visible(&self) -> Vec<usize> {
        self.report().map_or(Vec::new(), |r| {
            let differs = |i: usize| {
                self.comparison
                    .as_ref()
                    .is_some_and(|c| c.differences.iter().any(|d| d.index == i))
            };
            let mut shown: Vec<usize> = (0..r.findings.len())
                .filter(|&i| self.filter.shows(&r.findings[i]))
                .filter(|&i| !self.filter.differing_only || differs(i))
                .collect();
            shown.sort_by_key(|&i| r.findings[i].verdict == Verdict::Untested);
            shown
        })
    }

    /// The visible findings grouped: the staircases first (by number), then
    /// the objects in the order their first finding is listed; inside a
    /// group, the list's order.
    pub fn groups(&self) -> Vec<FindingGroup> {
        let Some(r) = self.report() else {
            return Vec::new();
        };
        let mut out: Vec<FindingGroup> = Vec::new();
        let mut at = std::collections::HashMap::new();
        for i in self.visible() {
            let f = &r.findings[i];
            let key = GroupKey::of(f);
            let g = *at.entry(key.clone()).or_insert_with(|| {
                out.push(FindingGroup {
                    key,
                    members: Vec::new(),
                    worst: f.verdict,
                    marginal: 0,
                    steps: 0,
                });
                out.len() - 1
            });
            let g = &mut out[g];
            g.members.push(i);
            if severity(f.verdict) > severity(g.worst) {
                g.worst = f.verdict;
            }
            g.marginal += usize::from(f.marginal.is_some());
            g.steps += usize::from(f.feature.kind == FeatureKind::Step);
        }
        // Stable: objects keep the order of their first finding.
        out.sort_by_key(|g| match g.key {
            GroupKey::Staircase(n) => (0, n),
            GroupKey::Object(_) => (1, 0),
        });
        out
    }

    /// The list's rows: each group's header, then its findings when it is
    /// unfolded.
    pub fn rows(&self, groups: &[FindingGroup]) -> Vec<ListRow> {
        let mut rows = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            rows.push(ListRow::Group(g));
            if self.unfolded.contains(&group.key) {
                rows.extend(group.members.iter().map(|&i| ListRow::Finding(i)));
            }
        }
        rows
    }

    /// The finding opened.
    pub fn open_finding(&self) -> Option<&Finding> {
        let i = self.open.as_ref()?.index;
        self.report()?.findings.get(i)
    }

    /// Drops the results and stops a run (the level changed).
    pub fn clear(&mut self) {
        *self = ChecksState {
            filter: self.filter,
            compare_with: self.compare_with,
            ..ChecksState::default()
        };
    }

    /// How the opened-or-any finding `index` fares under the compared
    /// profile, when its verdict differs there.
    pub fn difference(&self, index: usize) -> Option<&ProfileDifference> {
        self.comparison
            .as_ref()?
            .differences
            .iter()
            .find(|d| d.index == index)
    }
}

/// The walk that decided a finding: the first that failed, else the first.
pub fn deciding_walk(f: &Finding) -> Option<&CheckWalk> {
    f.walks.iter().find(|w| !w.passed).or(f.walks.first())
}

/// The frame of `w` to open: where it stalls, else its last.
pub fn frame_to_open(w: &Walk) -> Option<usize> {
    let last = w.frames.len().checked_sub(1)?;
    Some(
        w.summary
            .stalled_at_frame
            .map_or(last, |f| f as usize)
            .min(last),
    )
}

/// What reopens frame `k` of `w` in the stepper: the state before it and
/// the input the walk gave it (a jump is asked until the first frame on
/// ground takes it).
pub fn frame_spec(w: &Walk, k: usize) -> Option<FrameSpec> {
    let f = w.frames.get(k)?;
    let jumped_before = w.frames[..k].iter().any(|f| f.jumped);
    Some(FrameSpec {
        state: f.before,
        input: CharacterInput {
            wish_dir: w.spec.direction,
            jump: w.spec.jump && !jumped_before && f.before.grounded,
        },
        index: k as u32,
    })
}

/// A verdict's colour, sRGB floats with alpha: green for climbs and passes, red for
/// blocked, orange for stalls, grey for untested (the page and the pins).
pub fn verdict_rgba(v: Verdict) -> [f32; 4] {
    let c = |r: u8, g: u8, b: u8| [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0];
    match v {
        Verdict::Climbs | Verdict::Passes => c(80, 200, 90),
        Verdict::Blocked => c(230, 70, 60),
        Verdict::Stalls => c(240, 150, 40),
        Verdict::Untested => c(150, 150, 160),
    }
}

/// The colour that marks a marginal finding (its pin's stem, its row).
pub const MARGINAL_RGBA: [f32; 4] = [90.0 / 255.0, 170.0 / 255.0, 240.0 / 255.0, 1.0];

/// Height of a finding's pin over the feature's floor, metres: above a
/// 0.3 m riser's top, below a door's lintel.
pub const PIN_HEIGHT_M: f64 = 0.6;
/// Height of the opened finding's pin, metres: over the head of the
/// character its walk leaves standing at the feature.
pub const OPEN_PIN_HEIGHT_M: f64 = 2.3;
/// Smallest radius of a pin's head, metres (the opened finding's is twice
/// its pins' radius).
pub const PIN_HEAD_M: f64 = 0.08;

/// The radius of the pins' heads on a level whose bounding box has this
/// diagonal, metres: 0.2 % of it, from [`PIN_HEAD_M`] to 0.2 m, so that
/// pins still show when the whole level is in view and do not hide the
/// steps around them close up.
pub fn pin_radius_for(diagonal_m: f64) -> f64 {
    (diagonal_m * 0.002).clamp(PIN_HEAD_M, 0.2)
}

/// Where finding `f`'s pin head is, and its radius (`open`: the opened one).
pub fn pin_head(checks: &ChecksState, f: &Finding, open: bool) -> (DVec3, f64) {
    let r = checks.pin_radius_m.max(PIN_HEAD_M);
    if open {
        (f.feature.position + DVec3::Y * OPEN_PIN_HEIGHT_M, 2.0 * r)
    } else {
        (f.feature.position + DVec3::Y * PIN_HEIGHT_M.max(4.0 * r), r)
    }
}

/// A pin at each finding the Checks page lists (its filter applied): a
/// stem up from the feature's floor point, marginal ones' in blue, and a
/// head in the verdict's colour; the opened finding's head is twice as
/// large and white, so it is found again among its neighbours.
pub fn finding_pins(checks: &ChecksState) -> Vec<DebugPrimitive> {
    pins_with(checks, checks.open.as_ref().map(|o| o.index))
}

/// The pins, finding `open` drawn as the opened one.
fn pins_with(checks: &ChecksState, open: Option<usize>) -> Vec<DebugPrimitive> {
    let Some(r) = checks.report() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for i in checks.visible() {
        let f = &r.findings[i];
        let is_open = open == Some(i);
        let (head, radius) = pin_head(checks, f, is_open);
        let color = verdict_rgba(f.verdict);
        out.push(DebugPrimitive {
            kind: OverlayKind::FindingPins,
            shape: Shape::Segment {
                a: f.feature.position,
                b: head,
            },
            color: if f.marginal.is_some() {
                MARGINAL_RGBA
            } else {
                color
            },
            label: None,
        });
        out.push(DebugPrimitive {
            kind: OverlayKind::FindingPins,
            shape: Shape::Ellipsoid {
                center: head,
                radii: DVec3::splat(radius),
            },
            color: if is_open { [1.0, 1.0, 1.0, 1.0] } else { color },
            label: None,
        });
    }
    out
}

/// The listed finding whose pin head the ray `origin + t·dir` meets
/// first, closer than `before` (the level's surface under the pointer);
/// heads are picked a little larger than drawn, so a small one is easy to
/// click.
pub fn pin_under_ray(
    checks: &ChecksState,
    origin: DVec3,
    dir: DVec3,
    before: f64,
) -> Option<usize> {
    let r = checks.report()?;
    let open = checks.open.as_ref().map(|o| o.index);
    checks
        .visible()
        .into_iter()
        .filter_map(|i| {
            let (c, radius) = pin_head(checks, &r.findings[i], open == Some(i));
            let t = crate::app::pick::ray_ellipsoid(origin, dir, c, DVec3::splat(radius * 1.6))?;
            (t <= before + 1e-3).then_some((i, t))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

fn prim(a: DVec3, b: DVec3, color: [f32; 4], label: Option<String>) -> DebugPrimitive {
    DebugPrimitive {
        // Drawn whatever the toggles, like the highlighted triangle.
        kind: OverlayKind::HighlightTriangle,
        shape: Shape::Segment { a, b },
        color,
        label,
    }
}

/// The measurement of `f` in the view: a vertical bar for a riser, an
/// opening's or a ceiling's height; a bar across an opening for its width;
/// an arrow up a slope; a marker at the feature, labelled with the numbers.
pub fn finding_primitives(f: &Finding) -> Vec<DebugPrimitive> {
    let m = &f.feature;
    let p = m.position;
    let color = [1.0, 0.3, 0.9, 1.0];
    let label = Some(crate::analysis::checks::measurements(f));
    let mut out = vec![DebugPrimitive {
        kind: OverlayKind::HighlightTriangle,
        shape: Shape::Point { p },
        color,
        label: None,
    }];
    if let Some(h) = m.riser_height_m.or(m.height_m) {
        out.push(prim(p, p + DVec3::Y * h, color, label.clone()));
    }
    if let Some(w) = m.width_m {
        let across = DVec3::new(-m.direction.z, 0.0, m.direction.x);
        let at = p + DVec3::Y * m.height_m.map_or(1.0, |h| (h * 0.5).min(1.0));
        out.push(prim(
            at - across * w * 0.5,
            at + across * w * 0.5,
            color,
            None,
        ));
    }
    if m.kind == FeatureKind::Slope {
        let len = m.extent_m.clamp(0.5, 2.0);
        let rise = m.slope_deg.unwrap_or(0.0).to_radians().tan() * len;
        out.push(DebugPrimitive {
            kind: OverlayKind::HighlightTriangle,
            shape: Shape::Arrow {
                from: p,
                to: p + m.direction * len + DVec3::Y * rise,
            },
            color,
            label,
        });
    }
    out
}

impl EditorState {
    /// Starts the checks with the selected probe's settings (the defaults
    /// when none is selected); a run in progress is replaced.
    pub fn run_checks(&mut self) {
        let Some(level) = self.level.clone() else {
            self.info("Open a level to check");
            return;
        };
        let settings = self
            .selected_probe()
            .map(|p| p.settings.clone())
            .unwrap_or_default();
        let flags = self.colliding_flags();
        self.checks.clear();
        let other = self
            .checks
            .compare_with
            .filter(|e| *e != settings.character.engine);
        self.checks.job = Some(LevelJob::start(
            "level-checks",
            "the checks",
            level,
            flags,
            settings.clone(),
            move |level, world, progress, cancel| {
                // With a second profile, each run is half the progress.
                let share = if other.is_some() { 0.5 } else { 1.0 };
                let first = |p: f32| progress(p * share);
                let Some(report) = check_level(level, world, &settings, &first, cancel)
                    .map_err(|e| e.to_string())?
                else {
                    return Ok(None);
                };
                let Some(engine) = other else {
                    return Ok(Some(CheckRun {
                        report,
                        comparison: None,
                    }));
                };
                let mut theirs = settings.clone();
                theirs.character.engine = engine;
                let second = |p: f32| progress(0.5 + 0.5 * p);
                let Some(other_report) = check_level(level, world, &theirs, &second, cancel)
                    .map_err(|e| e.to_string())?
                else {
                    return Ok(None);
                };
                let comparison = compare_profiles(&[
                    (settings.character.engine, &report),
                    (engine, &other_report),
                ]);
                Ok(Some(CheckRun {
                    report,
                    comparison: Some(comparison),
                }))
            },
        ));
        self.info("Checking the level …");
    }

    /// Stops the run in progress; the level and the previous state stay,
    /// no results are kept.
    pub fn cancel_checks(&mut self) {
        if self.checks.job.take().is_some() {
            self.info("Checks cancelled");
        }
    }

    /// Takes a finished run (the window calls this every frame); returns
    /// whether the run is still going.
    pub fn poll_checks(&mut self) -> bool {
        let (settings, outcome) = match LevelJob::finish(
            &mut self.checks.job,
            &mut self.checks.progress,
            self.level.as_ref(),
        ) {
            JobStep::Running => return true,
            JobStep::Done(settings, outcome) => (settings, outcome),
            JobStep::Idle | JobStep::Stale => return false,
        };
        match outcome {
            Ok(Some(CheckRun { report, comparison })) => {
                let c = report.counts;
                self.info(format!(
                    "Checks: {} findings ({} climb, {} pass, {} blocked, {} stall)",
                    report.findings.len(),
                    c.climbs,
                    c.passes,
                    c.blocked,
                    c.stalls
                ));
                if let Some(cmp) = &comparison
                    && let Some(engine) = cmp.engines.get(1)
                {
                    self.info(format!(
                        "Checks: {} of {} findings differ under {}",
                        cmp.differences.len(),
                        cmp.findings,
                        engine.title()
                    ));
                }
                self.checks.report = Some((Arc::new(report), settings));
                self.checks.comparison = comparison.map(Arc::new);
                if let Some(level) = &self.level {
                    let b = level.mesh.bounds();
                    self.checks.pin_radius_m = pin_radius_for(f64::from((b.max - b.min).length()));
                }
            }
            Ok(None) => {}
            Err(e) => {
                self.checks.error = Some(e.clone());
                self.error(format!("Checks: {e}"));
            }
        }
        false
    }

    /// Opens finding `i`: re-runs its deciding walk, opens the frame where
    /// it stalls (or its last) in the selected probe's stepper (a probe is
    /// made when none is selected; no probe's settings change), frames the
    /// camera on it and keeps its section.
    pub fn open_finding(&mut self, i: usize) {
        self.open_finding_framed(i, true)
    }

    /// Opens finding `i` as [`Self::open_finding`] does; `frame`: the
    /// camera frames it (not when its pin was clicked in the view, which
    /// the designer is already looking at).
    pub fn open_finding_framed(&mut self, i: usize, frame: bool) {
        let (Some((report, settings)), Some(level)) =
            (self.checks.report.clone(), self.level.clone())
        else {
            return;
        };
        let Some(finding) = report.findings.get(i) else {
            return;
        };
        let Some(decisive) = deciding_walk(finding) else {
            return;
        };
        let flags = self.colliding_flags();
        let world = if flags.len() == level.mesh.objects.len() {
            level.world_with(&flags)
        } else {
            level.world()
        };
        let w = match walk(world, &settings, &decisive.spec, WalkTrace::FramesOnly) {
            Ok(w) => w,
            Err(e) => {
                self.error(format!("The finding's walk does not run: {e}"));
                return;
            }
        };
        let section = section_of_walk(
            &level,
            &w,
            &crate::character::Body::of(&settings),
            SECTION_BEFORE_M,
            SECTION_AFTER_M,
        );
        let Some((k, spec)) = frame_to_open(&w).and_then(|k| Some((k, frame_spec(&w, k)?))) else {
            return;
        };
        self.walk.active = false;
        let sel = self.probe_for_finding(&settings, spec.state.position);
        let p = &mut self.probes[sel];
        if p.stepper.start_frame(level, flags, &p.settings, &spec) {
            p.stepper.run_to_end();
            p.stepper.seek(Some(0));
        }
        let r = DVec3::splat((finding.feature.extent_m * 0.5).clamp(1.0, 3.0));
        let aabb = crate::math::Aabb::from_f64_outward(
            finding.feature.position.min(spec.state.position) - r,
            finding.feature.position.max(spec.state.position) + r,
        );
        if frame {
            self.camera = self.camera.reframed(&aabb);
        }
        self.info(format!(
            "Finding {}: the walk at {:.0}°, frame {k} opened in the stepper",
            i + 1,
            decisive.angle_deg
        ));
        self.checks.unfolded.insert(GroupKey::of(finding));
        // Opened from its pin: the list scrolls to its row (a row clicked
        // in the list stays where it is).
        self.checks.reveal = !frame;
        self.checks.open = Some(OpenFinding {
            index: i,
            walk: w,
            angle_deg: decisive.angle_deg,
            frame: k,
            section,
        });
    }

    /// The selected probe, or a new one at `at` with `settings` (selected).
    pub(crate) fn probe_for_finding(&mut self, settings: &SlideSettings, at: DVec3) -> usize {
        if let Some(i) = self.selected.filter(|&i| i < self.probes.len()) {
            return i;
        }
        let name = format!("Probe {}", self.next_probe_number);
        self.next_probe_number += 1;
        let mut probe = Probe::new(name, self.next_color(), at, DVec3::new(2.0, 0.0, 0.0));
        probe.settings = settings.clone();
        self.probes.push(probe);
        self.selected = Some(self.probes.len() - 1);
        self.probes.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::features::Feature;

    fn opening() -> Finding {
        Finding {
            feature: Feature {
                kind: FeatureKind::Opening,
                position: DVec3::new(2.0, 0.0, 1.0),
                direction: DVec3::X,
                riser_height_m: None,
                tread_depth_m: None,
                tread_walled: false,
                width_m: Some(0.9),
                height_m: Some(2.1),
                slope_deg: None,
                extent_m: 0.2,
                object: Some("door".into()),
                cells: 4,
                flight: None,
            },
            marginal: None,
            verdict: Verdict::Passes,
            reason: String::new(),
            walks: Vec::new(),
        }
    }

    #[test]
    fn an_opening_is_drawn_with_its_height_and_width() {
        let prims = finding_primitives(&opening());
        let segments: Vec<(DVec3, DVec3)> = prims
            .iter()
            .filter_map(|p| match p.shape {
                Shape::Segment { a, b } => Some((a, b)),
                _ => None,
            })
            .collect();
        assert_eq!(segments.len(), 2);
        let (a, b) = segments[0];
        assert!((b - a - DVec3::Y * 2.1).length() < 1e-12, "the height bar");
        let (a, b) = segments[1];
        assert!((a.distance(b) - 0.9).abs() < 1e-12, "the width bar");
        assert!(
            (b - a).normalize().dot(DVec3::X).abs() < 1e-12,
            "across the passage"
        );
        assert!(
            prims
                .iter()
                .any(|p| p.label.as_deref() == Some("width 0.900 m, height 2.100 m")),
            "labelled with the measurements"
        );
        let mut f = ChecksFilter::default();
        assert!(f.shows(&opening()));
        f.verdicts[1] = false;
        assert!(!f.shows(&opening()));
    }

    fn step(x: f64, flight: Option<u32>, verdict: Verdict, object: &str) -> Finding {
        let mut f = opening();
        f.feature.kind = FeatureKind::Step;
        f.feature.position = DVec3::new(x, 0.0, 0.0);
        f.feature.riser_height_m = Some(0.2);
        f.feature.flight = flight;
        f.feature.object = Some(object.into());
        f.verdict = verdict;
        f
    }

    fn checks_of(findings: Vec<Finding>) -> ChecksState {
        let report = CheckReport {
            findings,
            counts: Default::default(),
            cell_m: 0.1,
            coarsened: false,
            inside_out: false,
            find_ms: 0.0,
            walk_ms: 0.0,
            ghost_hits: 0,
        };
        ChecksState {
            report: Some((Arc::new(report), SlideSettings::default())),
            ..ChecksState::default()
        }
    }

    #[test]
    fn risers_go_under_their_staircase_and_the_rest_under_their_object() {
        let mut checks = checks_of(vec![
            step(0.0, Some(1), Verdict::Climbs, "stairs"),
            opening(),
            step(1.0, Some(0), Verdict::Climbs, "block"),
            step(2.0, Some(1), Verdict::Blocked, "stairs"),
            step(3.0, None, Verdict::Untested, "door"),
        ]);
        let groups = checks.groups();
        let keys: Vec<GroupKey> = groups.iter().map(|g| g.key.clone()).collect();
        assert_eq!(
            keys,
            vec![
                GroupKey::Staircase(0),
                GroupKey::Staircase(1),
                GroupKey::Object(Some("door".into())),
            ],
            "staircases first, then objects in the list's order"
        );
        assert_eq!(groups[1].members, vec![0, 3]);
        assert_eq!(groups[1].worst, Verdict::Blocked, "its worst verdict");
        assert_eq!(
            groups[2].members,
            vec![1, 4],
            "the door's opening and riser"
        );
        assert_eq!(groups[2].worst, Verdict::Untested);
        assert_eq!(GroupKey::Staircase(1).title(), "staircase 2");
        // Folded: headers only; unfolded: the group's findings after it.
        assert_eq!(checks.rows(&groups).len(), 3);
        checks.unfolded.insert(GroupKey::Staircase(1));
        assert_eq!(
            checks.rows(&groups),
            vec![
                ListRow::Group(0),
                ListRow::Group(1),
                ListRow::Finding(0),
                ListRow::Finding(3),
                ListRow::Group(2),
            ]
        );
    }

    #[test]
    fn a_pin_per_listed_finding_the_opened_one_larger_and_a_ray_picks_it() {
        let mut checks = checks_of(vec![
            step(0.0, None, Verdict::Climbs, "a"),
            step(2.0, None, Verdict::Blocked, "a"),
        ]);
        let heads = |c: &ChecksState, open: Option<usize>| -> Vec<(DVec3, f64, [f32; 4])> {
            pins_with(c, open)
                .into_iter()
                .filter_map(|p| match p.shape {
                    Shape::Ellipsoid { center, radii } => Some((center, radii.x, p.color)),
                    _ => None,
                })
                .collect()
        };
        let h = heads(&checks, None);
        assert_eq!(h.len(), 2);
        assert_eq!(finding_pins(&checks).len(), 4, "a stem and a head each");
        assert_eq!(
            h[1].2,
            verdict_rgba(Verdict::Blocked),
            "in its verdict's colour"
        );
        assert!((h[0].0 - DVec3::Y * PIN_HEIGHT_M).length() < 1e-12);
        // Filtered out: no pin.
        checks.filter.verdicts[2] = false;
        assert_eq!(heads(&checks, None).len(), 1);
        checks.filter.verdicts[2] = true;
        // A ray down through the second head picks it; one beside it, none;
        // one behind the level's surface, none.
        let above = DVec3::new(2.0, 5.0, 0.0);
        assert_eq!(pin_under_ray(&checks, above, -DVec3::Y, 100.0), Some(1));
        let beside = DVec3::new(1.0, 5.0, 0.0);
        assert_eq!(pin_under_ray(&checks, beside, -DVec3::Y, 100.0), None);
        assert_eq!(pin_under_ray(&checks, above, -DVec3::Y, 1.0), None);
        let h = heads(&checks, Some(1));
        assert_eq!(h[1].2, [1.0; 4], "white-headed");
        assert!(
            (h[1].1 - 2.0 * PIN_HEAD_M).abs() < 1e-12,
            "the opened one is larger"
        );
        assert!((h[0].1 - PIN_HEAD_M).abs() < 1e-12);
    }
}
