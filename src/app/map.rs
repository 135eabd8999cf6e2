//! The stuck-spot map in the window: running it in the background
//! ([`super::level_job`]), the report, the heat map drawn on the level (one
//! floor quad per start point, in its class's colour), finding the spot
//! under a click, and opening a spot's worst walk (re-run from its start
//! along its direction, the frame where it went wrong opened in the
//! stepper). World space, Y up, metres.

use crate::analysis::map::{MapClass, MapOptions, MapReport, MapSpot, map_level};
use crate::app::checks::frame_spec;
use crate::app::level_job::{JobStep, LevelJob};
use crate::app::state::{EditorState, Probe};
use crate::character::{Walk, WalkSpec, WalkTrace, walk};
use crate::collide::SlideSettings;
use crate::collide::debug_draw::{DebugPrimitive, OverlayKind, Shape};
use glam::DVec3;
use std::sync::Arc;

/// The heat map's quads float this far above the floor (no z-fighting).
pub const QUAD_LIFT_M: f64 = 0.03;
/// A quad covers this share of its cell's side (a gap shows the grid).
pub const QUAD_SHARE: f64 = 0.8;
/// A click on the level picks a spot whose floor is at most this far
/// above or below the point clicked, metres (storeys stay apart).
pub const PICK_HEIGHT_M: f64 = 0.6;

/// The spot opened from the list or the view.
#[derive(Clone, Debug)]
pub struct OpenSpot {
    /// Index into the report's spots.
    pub spot: usize,
    /// The worst walk re-run (frames only).
    pub walk: Walk,
    /// The frame opened in the stepper.
    pub frame: usize,
}

/// The map of the loaded level.
#[derive(Default)]
pub struct MapState {
    /// The options of the next run.
    pub options: MapOptions,
    /// The run in progress.
    pub job: Option<LevelJob<MapReport, MapOptions>>,
    /// Its last progress, `[0, 1]`.
    pub progress: f32,
    /// The last map.
    pub report: Option<Arc<MapReport>>,
    /// Why the last run could not map the level.
    pub error: Option<String>,
    /// The progress at which the last run was cancelled.
    pub cancelled_at: Option<f32>,
    /// The spot opened.
    pub open: Option<OpenSpot>,
    /// The one class the spots list shows (`None`: the worst of every class).
    pub listed: Option<MapClass>,
}

impl Clone for MapState {
    /// A clone keeps the results but not a running job.
    fn clone(&self) -> Self {
        MapState {
            options: self.options,
            job: None,
            progress: self.progress,
            report: self.report.clone(),
            error: self.error.clone(),
            cancelled_at: self.cancelled_at,
            open: self.open.clone(),
            listed: self.listed,
        }
    }
}

impl std::fmt::Debug for MapState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapState")
            .field("running", &self.job.is_some())
            .field("spots", &self.report.as_ref().map(|r| r.spots.len()))
            .field("error", &self.error)
            .field("open", &self.open.as_ref().map(|o| o.spot))
            .finish()
    }
}

impl MapState {
    /// Whether a run is in progress.
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// The spot opened.
    pub fn open_spot(&self) -> Option<&MapSpot> {
        self.report.as_ref()?.spots.get(self.open.as_ref()?.spot)
    }

    /// Drops the results and stops a run (the level changed); the options stay.
    pub fn clear(&mut self) {
        *self = MapState {
            options: self.options,
            ..MapState::default()
        };
    }

    /// Indices (into the report's spots) of the `n` worth looking at first:
    /// worst class first, then in grid order; only the [`MapState::listed`]
    /// class when one is chosen.
    pub fn worst(&self, n: usize) -> Vec<usize> {
        let Some(r) = &self.report else {
            return Vec::new();
        };
        let shown = |c: MapClass| match self.listed {
            Some(only) => c == only,
            None => c > MapClass::Blocked,
        };
        let mut v: Vec<usize> = (0..r.spots.len())
            .filter(|&i| r.spots[i].reachable && shown(r.spots[i].class))
            .collect();
        v.sort_by(|&a, &b| r.spots[b].class.cmp(&r.spots[a].class).then(a.cmp(&b)));
        v.truncate(n);
        v
    }
}

/// A class's colour as the view draws it (opaque).
pub fn class_color(class: MapClass) -> [f32; 4] {
    let [r, g, b] = class.colour();
    [
        f32::from(r) / 255.0,
        f32::from(g) / 255.0,
        f32::from(b) / 255.0,
        1.0,
    ]
}

/// The centre of `s`'s quad: its grid column's centre, on its floor.
pub fn quad_center(r: &MapReport, s: &MapSpot) -> DVec3 {
    r.grid.point(s.cell[0], s.cell[1], s.floor_y + QUAD_LIFT_M)
}

/// Colour of an unreachable start point's quad (counted in no class).
pub const UNREACHABLE_COLOR: [f32; 4] = [0.45, 0.45, 0.45, 1.0];

/// The heat map: one floor quad per start point in its class's colour
/// (grey when unreachable), and a marker on the opened spot.
pub fn map_primitives(state: &MapState) -> Vec<DebugPrimitive> {
    let Some(r) = &state.report else {
        return Vec::new();
    };
    let half = 0.5 * QUAD_SHARE * r.grid.spacing_m;
    let mut out: Vec<DebugPrimitive> = r
        .spots
        .iter()
        .map(|s| DebugPrimitive {
            kind: OverlayKind::StuckMap,
            shape: Shape::PlaneQuad {
                center: quad_center(r, s),
                normal: DVec3::Y,
                half_size: half,
            },
            color: if s.reachable {
                class_color(s.class)
            } else {
                UNREACHABLE_COLOR
            },
            label: None,
        })
        .collect();
    if let (Some(s), Some(open)) = (state.open_spot(), &state.open) {
        out.push(DebugPrimitive {
            kind: OverlayKind::StuckMap,
            shape: Shape::Arrow {
                from: s.start,
                to: s.start + s.direction * r.grid.spacing_m.max(0.5),
            },
            color: [1.0, 1.0, 1.0, 1.0],
            label: Some(format!(
                "{} · frame {}",
                s.class.name().replace('_', " "),
                open.frame
            )),
        });
    }
    out
}

/// The spot whose cell holds `point` (a point clicked on the level), on the
/// floor nearest its height within [`PICK_HEIGHT_M`].
pub fn spot_at(r: &MapReport, point: DVec3) -> Option<usize> {
    let half = 0.5 * r.grid.spacing_m;
    (0..r.spots.len())
        .filter_map(|i| {
            let c = quad_center(r, &r.spots[i]);
            let dy = (point.y - r.spots[i].floor_y).abs();
            let inside = (point.x - c.x).abs() <= half && (point.z - c.z).abs() <= half;
            (inside && dy <= PICK_HEIGHT_M).then_some((i, dy))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// The walk a spot stands for, as `collidoscope walk` replays it.
pub fn spot_walk_spec(r: &MapReport, s: &MapSpot) -> WalkSpec {
    WalkSpec {
        from: s.start,
        direction: s.direction,
        seconds: r.seconds,
        jump: false,
    }
}

/// The frame of a spot's walk to open: where it went wrong (the last for
/// a free walk), within the frames run.
pub fn spot_frame(s: &MapSpot, w: &Walk) -> Option<usize> {
    let last = w.frames.len().checked_sub(1)?;
    Some(s.frame.map_or(last, |f| f as usize).min(last))
}

/// Whether two settings walk the same character (the map forces its self
/// checks on; they measure, they never move the character).
fn same_character(a: &SlideSettings, b: &SlideSettings) -> bool {
    let mut a = a.clone();
    a.self_checks = b.self_checks;
    a == *b
}

impl EditorState {
    /// Starts a map with the selected probe's settings (the defaults when
    /// none is selected) and the map options; a run in progress is replaced.
    pub fn run_map(&mut self) {
        let Some(level) = self.level.clone() else {
            self.info("Open a level to map");
            return;
        };
        if let Err(e) = self.map.options.validate() {
            self.map.error = Some(e.to_string());
            self.error(format!("Map: {e}"));
            return;
        }
        let settings = self
            .selected_probe()
            .map(|p| p.settings.clone())
            .unwrap_or_default();
        let flags = self.colliding_flags();
        let options = self.map.options;
        self.map.clear();
        self.map.job = Some(LevelJob::start(
            "stuck-spot-map",
            "the map",
            level,
            flags,
            options,
            move |level, world, progress, cancel| {
                map_level(&level.name, world, &settings, &options, progress, cancel)
                    .map_err(|e| e.to_string())
            },
        ));
        self.info("Mapping the level …");
    }

    /// Stops the run in progress: the walks under way finish on their
    /// thread, no results are kept, the window goes on as before.
    pub fn cancel_map(&mut self) {
        if self.map.job.take().is_some() {
            let at = self.map.progress;
            self.map.cancelled_at = Some(at);
            self.info(format!(
                "Map cancelled at {:.0} %: nothing kept, Run map starts again",
                at * 100.0
            ));
        }
    }

    /// Takes a finished run (the window calls this every frame); returns
    /// whether the run is still going.
    pub fn poll_map(&mut self) -> bool {
        let outcome = match LevelJob::finish(
            &mut self.map.job,
            &mut self.map.progress,
            self.level.as_ref(),
        ) {
            JobStep::Running => return true,
            JobStep::Done(_, outcome) => outcome,
            // A map of a level since replaced is dropped.
            JobStep::Idle | JobStep::Stale => return false,
        };
        match outcome {
            Ok(Some(report)) => {
                let c = report.counts;
                self.info(format!(
                    "Map: {} start points, {} stuck, {} jitter, {} fell through, {} embedded, \
                     {} walked off the edge",
                    report.spots.len(),
                    c.stuck,
                    c.jitter,
                    c.fell_through,
                    c.embedded,
                    c.walked_off_edge
                ));
                self.map.progress = 1.0;
                self.map.report = Some(Arc::new(report));
            }
            Ok(None) => {}
            Err(e) => {
                self.map.error = Some(e.clone());
                self.error(format!("Map: {e}"));
            }
        }
        false
    }

    /// Opens spot `i` (an index into the report's spots): re-runs its worst
    /// walk, opens the frame where it went wrong in a probe's stepper (the
    /// selected probe when it has the map's character, else a new one),
    /// and frames the camera on it.
    pub fn open_map_spot(&mut self, i: usize) {
        let (Some(report), Some(level)) = (self.map.report.clone(), self.level.clone()) else {
            return;
        };
        let Some(spot) = report.spots.get(i) else {
            return;
        };
        let flags = self.colliding_flags();
        let world = if flags.len() == level.mesh.objects.len() {
            level.world_with(&flags)
        } else {
            level.world()
        };
        let spec = spot_walk_spec(&report, spot);
        let w = match walk(world, &report.settings, &spec, WalkTrace::FramesOnly) {
            Ok(w) => w,
            Err(e) => {
                self.error(format!("The spot's walk does not run: {e}"));
                return;
            }
        };
        let Some((k, frame)) = spot_frame(spot, &w).and_then(|k| Some((k, frame_spec(&w, k)?)))
        else {
            return;
        };
        self.walk.active = false;
        self.highlight = None;
        self.checks.open = None;
        let sel = self.probe_for_map(&report.settings, spot.start, spot.direction);
        let p = &mut self.probes[sel];
        if p.stepper.start_frame(level, flags, &p.settings, &frame) {
            p.stepper.run_to_end();
            p.stepper.seek(Some(0));
        }
        let reach = DVec3::splat(report.grid.spacing_m.max(1.5));
        let at = frame.state.position;
        let aabb = crate::math::Aabb::from_f64_outward(
            at.min(spot.start) - reach,
            at.max(spot.start) + reach,
        );
        self.camera = self.camera.reframed(&aabb);
        self.info(format!(
            "Spot {}: {} walking {:.0}°, frame {k} opened in the stepper",
            spot.index,
            spot.class.name().replace('_', " "),
            spot.direction.z.atan2(spot.direction.x).to_degrees(),
        ));
        self.map.open = Some(OpenSpot {
            spot: i,
            walk: w,
            frame: k,
        });
    }

    /// The selected probe when it walks the map's character, else a new
    /// probe at the spot with the map's settings (selected).
    fn probe_for_map(&mut self, settings: &SlideSettings, at: DVec3, dir: DVec3) -> usize {
        if let Some(i) = self
            .selected
            .filter(|&i| i < self.probes.len())
            .filter(|&i| same_character(&self.probes[i].settings, settings))
        {
            return i;
        }
        let name = format!("Probe {}", self.next_probe_number);
        self.next_probe_number += 1;
        let mut probe = Probe::new(name, self.next_color(), at, dir);
        probe.settings = settings.clone();
        self.probes.push(probe);
        self.selected = Some(self.probes.len() - 1);
        self.probes.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::map::{ClassCounts, MapGrid, Shard};

    fn spot(index: u32, cell: [u32; 2], floor_y: f64, class: MapClass) -> MapSpot {
        MapSpot {
            index,
            cell,
            floor_y,
            start: DVec3::new(f64::from(cell[0]), floor_y + 0.9, f64::from(cell[1])),
            class,
            worst_direction: 0,
            direction: DVec3::X,
            frame: (class > MapClass::Blocked).then_some(3),
            end: DVec3::ZERO,
            walks: vec![class],
            reachable: true,
            reaches: Vec::new(),
        }
    }

    /// Two storeys over cell (1, 0): the ground at y = 0 and a floor at y = 3.
    fn report() -> MapReport {
        let spots = vec![
            spot(0, [0, 0], 0.0, MapClass::Free),
            spot(1, [1, 0], 0.0, MapClass::Stuck),
            spot(2, [1, 0], 3.0, MapClass::Jitter),
            spot(3, [2, 0], 0.0, MapClass::Stuck),
        ];
        MapReport {
            level: "two storeys".into(),
            settings: SlideSettings::default(),
            grid: MapGrid {
                origin_x: 0.0,
                origin_z: 0.0,
                spacing_m: 1.0,
                nx: 3,
                nz: 1,
            },
            directions: 1,
            seconds: 1.0,
            shard: Shard::WHOLE,
            start_points: 4,
            unplaceable: 0,
            no_footing: 0,
            spawns: Vec::new(),
            unreachable: 0,
            counts: ClassCounts::of(&spots),
            spots,
            walks: 4,
            frames: 240,
            elapsed_ms: 1.0,
        }
    }

    #[test]
    fn a_click_picks_the_cell_on_the_storey_clicked() {
        let r = report();
        assert_eq!(spot_at(&r, DVec3::new(1.2, 0.0, -0.3)), Some(1));
        assert_eq!(spot_at(&r, DVec3::new(0.8, 3.0, 0.4)), Some(2));
        assert_eq!(
            spot_at(&r, DVec3::new(1.0, 1.5, 0.0)),
            None,
            "between storeys"
        );
        assert_eq!(
            spot_at(&r, DVec3::new(0.0, 0.0, 0.6)),
            None,
            "outside the grid"
        );
        assert_eq!(spot_at(&r, DVec3::new(-0.4, 0.0, 0.0)), Some(0));
    }

    #[test]
    fn the_worst_come_first_and_the_heat_map_has_a_cell_each() {
        let state = MapState {
            report: Some(Arc::new(report())),
            ..MapState::default()
        };
        assert_eq!(
            state.worst(10),
            vec![1, 3, 2],
            "stuck before jitter, then by grid order"
        );
        assert_eq!(state.worst(1), vec![1]);
        let only_free = MapState {
            listed: Some(MapClass::Free),
            ..state.clone()
        };
        assert_eq!(only_free.worst(10), vec![0], "one class listed");
        let prims = map_primitives(&state);
        assert_eq!(prims.len(), 4);
        let Shape::PlaneQuad {
            center, half_size, ..
        } = prims[2].shape
        else {
            panic!("{:?}", prims[2]);
        };
        assert_eq!(center, DVec3::new(1.0, 3.0 + QUAD_LIFT_M, 0.0));
        assert!((half_size - 0.4).abs() < 1e-12);
        assert_eq!(prims[2].color, class_color(MapClass::Jitter));
        assert_eq!(class_color(MapClass::Free)[3], 1.0, "opaque");
    }
}
