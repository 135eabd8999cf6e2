//! What a map gives: one record per start point with its worst walk, the
//! count per class, and the merge of shards (world space, metres).

use super::{MapClass, MapError, MapGrid, MapOptions, Shard};
use crate::collide::SlideSettings;
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// One start point and how its walks went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapSpot {
    /// Index among all the level's start points (all shards), in grid
    /// order: rows of z, columns of x, floors bottom to top.
    pub index: u32,
    /// Grid column and row `[ix, iz]`.
    pub cell: [u32; 2],
    /// Height of the floor at the column's centre, metres.
    pub floor_y: f64,
    /// Ellipsoid centre after settling on the floor: where every walk starts.
    pub start: DVec3,
    /// The worst walk's class.
    pub class: MapClass,
    /// Which walk was worst (the first of the worst), `0..directions`.
    pub worst_direction: u32,
    /// Its horizontal unit direction.
    pub direction: DVec3,
    /// The frame where it went wrong (stalled, left the ground, dropped,
    /// began jittering, ended embedded); `None` for a free walk.
    pub frame: Option<u32>,
    /// Where the worst walk ended.
    pub end: DVec3,
    /// Every walk's class, by direction.
    pub walks: Vec<MapClass>,
    /// Whether a player gets here: from the main floor region or a spawn
    /// point (see [`MapReport::unreachable`]). Unreachable spots keep their
    /// class but count in no class.
    #[serde(default = "reachable_by_default")]
    pub reachable: bool,
    /// The other start points this one's walks passed (stood in their
    /// cell at their floor's height), by index: the links reachability
    /// follows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reaches: Vec<u32>,
}

/// Maps saved before reachability count every spot.
fn reachable_by_default() -> bool {
    true
}

/// How many start points got each class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassCounts {
    /// Free.
    pub free: usize,
    /// Blocked.
    pub blocked: usize,
    /// Can't get back.
    pub cant_get_back: usize,
    /// Walked off the edge (absent from maps made before the class).
    #[serde(default)]
    pub walked_off_edge: usize,
    /// Jitter.
    pub jitter: usize,
    /// Stuck.
    pub stuck: usize,
    /// Fell through.
    pub fell_through: usize,
    /// Embedded.
    pub embedded: usize,
}

impl ClassCounts {
    /// Counts the classes of the reachable `spots`.
    pub fn of(spots: &[MapSpot]) -> Self {
        let mut c = ClassCounts::default();
        for s in spots.iter().filter(|s| s.reachable) {
            *c.get_mut(s.class) += 1;
        }
        c
    }

    /// The count of `class`.
    pub fn get(&self, class: MapClass) -> usize {
        let mut c = *self;
        *c.get_mut(class)
    }

    fn get_mut(&mut self, class: MapClass) -> &mut usize {
        match class {
            MapClass::Free => &mut self.free,
            MapClass::Blocked => &mut self.blocked,
            MapClass::CantGetBack => &mut self.cant_get_back,
            MapClass::WalkedOffEdge => &mut self.walked_off_edge,
            MapClass::Jitter => &mut self.jitter,
            MapClass::Stuck => &mut self.stuck,
            MapClass::FellThrough => &mut self.fell_through,
            MapClass::Embedded => &mut self.embedded,
        }
    }
}

/// A level's map (or one shard of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapReport {
    /// The level's name.
    pub level: String,
    /// The character walked (self checks as run: on).
    pub settings: SlideSettings,
    /// The grid of start columns.
    pub grid: MapGrid,
    /// Directions walked from each start.
    pub directions: u32,
    /// Seconds per walk.
    pub seconds: f64,
    /// The part of the start points walked ([`Shard::WHOLE`] once merged).
    pub shard: Shard,
    /// Start points of the whole level (all shards).
    pub start_points: u32,
    /// Start points of this part where the character could not stand
    /// (it did not come to rest on ground, or overlapped geometry there).
    pub unplaceable: u32,
    /// Start points of this part where a player cannot stand: no ground
    /// under some point of the character's footprint (a wall top, a
    /// cornice narrower than the character); not walked.
    #[serde(default)]
    pub no_footing: u32,
    /// The spawn points reachability starts from (world space); empty: the
    /// main floor region (the largest set of starts whose walks reach each
    /// other both ways).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spawns: Vec<DVec3>,
    /// Spots no walk from the main floor region (or a spawn point) reaches,
    /// directly or through other spots: walked, but in no class's count.
    #[serde(default)]
    pub unreachable: u32,
    /// The start points walked, by index.
    pub spots: Vec<MapSpot>,
    /// Start points per class.
    pub counts: ClassCounts,
    /// Walks run (the walks back of `cant_get_back` included).
    pub walks: u64,
    /// Frames run.
    pub frames: u64,
    /// Time taken, milliseconds (merged: the parts' sum).
    pub elapsed_ms: f64,
}

impl MapReport {
    /// Whether no reachable start point is stuck, jitters, fell through
    /// or ended embedded.
    pub fn clean(&self) -> bool {
        self.spots
            .iter()
            .all(|s| !s.reachable || !s.class.is_finding())
    }

    /// Decides which spots are reachable (from [`Self::spawns`] or the main
    /// floor region) and counts the classes of those.
    pub(super) fn count_reachable(&mut self) -> Result<(), MapError> {
        super::reach::mark_reachable(&mut self.spots, &self.spawns, self.grid.spacing_m).map_err(
            |p| {
                MapError::InvalidOptions(format!(
                    "spawn point ({:.4}, {:.4}, {:.4}) has no start point within {} grid spacings across and {} m up or down",
                    p.x,
                    p.y,
                    p.z,
                    super::reach::SPAWN_REACH_SPACINGS,
                    super::reach::SPAWN_REACH_HEIGHT_M
                ))
            },
        )?;
        self.unreachable = self.spots.iter().filter(|s| !s.reachable).count() as u32;
        self.counts = ClassCounts::of(&self.spots);
        Ok(())
    }

    /// The spots worth looking at first: worst class first, then by index.
    pub fn worst_spots(&self, n: usize) -> Vec<&MapSpot> {
        let mut v: Vec<&MapSpot> = self
            .spots
            .iter()
            .filter(|s| s.reachable && s.class > MapClass::Blocked)
            .collect();
        v.sort_by(|a, b| b.class.cmp(&a.class).then(a.index.cmp(&b.index)));
        v.truncate(n);
        v
    }
}

impl MapReport {
    /// Checks a map read from a file before anything is sized by it: the
    /// options and settings in range, the grid within [`super::MAX_COLUMNS`],
    /// and every spot inside the grid, the start points and the directions.
    pub fn validate(&self) -> Result<(), MapError> {
        let bad = |m: String| Err(MapError::InvalidOptions(m));
        MapOptions {
            spacing_m: self.grid.spacing_m,
            directions: self.directions,
            seconds: self.seconds,
            shard: self.shard,
            ..MapOptions::default()
        }
        .validate()?;
        self.settings
            .validate()
            .map_err(|e| MapError::InvalidSettings(e.to_string()))?;
        let g = &self.grid;
        let columns = u64::from(g.nx) * u64::from(g.nz);
        if g.nx == 0 || g.nz == 0 || columns > super::MAX_COLUMNS {
            return bad(format!(
                "a grid of {} × {} columns: from 1 to {} columns in all",
                g.nx,
                g.nz,
                super::MAX_COLUMNS
            ));
        }
        let limit = crate::collide::MAX_MAGNITUDE_M;
        if !(g.origin_x.is_finite()
            && g.origin_z.is_finite()
            && g.origin_x.abs() <= limit
            && g.origin_z.abs() <= limit)
        {
            return bad(format!("the grid's origin is beyond ±{limit:e} m"));
        }
        if self.spawns.len() > super::MAX_SPAWNS {
            return bad(format!(
                "{} spawn points: at most {}",
                self.spawns.len(),
                super::MAX_SPAWNS
            ));
        }
        if self.spots.len() as u64 > u64::from(self.start_points) {
            return bad(format!(
                "{} spots for {} start points",
                self.spots.len(),
                self.start_points
            ));
        }
        let within = |v: DVec3| v.is_finite() && v.abs().max_element() <= limit;
        for s in &self.spots {
            let ok = s.index < self.start_points
                && s.cell[0] < g.nx
                && s.cell[1] < g.nz
                && s.walks.len() == self.directions as usize
                && s.worst_direction < self.directions
                && s.floor_y.is_finite()
                && within(s.start)
                && within(s.end)
                && within(s.direction)
                && s.reaches.iter().all(|&i| i < self.start_points);
            if !ok {
                return bad(format!(
                    "spot {} does not fit the map's grid, start points or directions",
                    s.index
                ));
            }
        }
        if !self.spawns.iter().all(|&p| within(p)) {
            return bad(format!("a spawn point is beyond ±{limit:e} m"));
        }
        Ok(())
    }
}

/// Joins the shards of one map into the whole: every part of the same
/// level, settings, grid, directions and duration, each shard exactly once.
/// Each part is checked ([`MapReport::validate`]) before anything is sized
/// by it.
pub fn merge(mut parts: Vec<MapReport>) -> Result<MapReport, MapError> {
    let bad = |m: String| Err(MapError::Mismatch(m));
    for p in &parts {
        p.validate().map_err(|e| {
            MapError::Mismatch(format!("shard {}/{}: {e}", p.shard.index, p.shard.count))
        })?;
    }
    let Some(first) = parts.first() else {
        return bad("no parts given".into());
    };
    let count = first.shard.count;
    for p in &parts[1..] {
        let same = p.level == first.level
            && p.settings == first.settings
            && p.grid == first.grid
            && p.directions == first.directions
            && p.seconds == first.seconds
            && p.start_points == first.start_points
            && p.spawns == first.spawns
            && p.shard.count == count;
        if !same {
            return bad(format!(
                "shard {}/{} was made from another level, settings, grid, direction count, duration, spawn points or shard count than shard {}/{}",
                p.shard.index, p.shard.count, first.shard.index, count
            ));
        }
    }
    let mut seen = vec![false; count as usize];
    for p in &parts {
        let i = p.shard.index as usize;
        if i >= seen.len() || std::mem::replace(&mut seen[i], true) {
            return bad(format!("shard {}/{count} given twice", p.shard.index));
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return bad(format!("shard {missing}/{count} is missing"));
    }
    let mut whole = parts.swap_remove(0);
    for p in parts {
        whole.unplaceable += p.unplaceable;
        whole.no_footing += p.no_footing;
        whole.walks += p.walks;
        whole.frames += p.frames;
        whole.elapsed_ms += p.elapsed_ms;
        whole.spots.extend(p.spots);
    }
    whole.spots.sort_by_key(|s| s.index);
    whole.shard = Shard::WHOLE;
    whole.count_reachable()?;
    Ok(whole)
}
