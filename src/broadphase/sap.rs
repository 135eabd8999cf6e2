//! Sweep-and-prune (plane sweep) over the probes' swept boxes and the
//! level's objects' boxes, world space, `f32`.
//!
//! Seed 003 ("Dealing with Complexity", plane sweep): objects whose bounds
//! overlap on every axis are examined more closely; sorting the bounds each
//! frame costs `O(n log n)`, but objects stay roughly in place from frame to
//! frame, so the list is sorted once and then repaired with an insertion
//! sort, which costs about one step per endpoint plus one per swap. Here the
//! sorted list holds the x bounds (start and end) of every object's box and
//! of every probe's box; [`SweepAndPrune::update`] moves the probes' bounds,
//! repairs the order and sweeps it once, pairing each probe with the objects
//! whose intervals are open at the same time and whose boxes also overlap
//! on y and z.
//!
//! The level's objects do not move, so inside an object the triangles are
//! kept sorted by the start of their x interval: the triangles a probe's box
//! can overlap are a contiguous run of that list (from the probe's start
//! minus the object's widest triangle to the probe's end), and each is kept
//! when its box overlaps the probe's on all three axes. The result is the
//! same set as [`crate::bvh::Bvh::query_aabb`] gives for the probe's box.

use crate::math::Aabb;
use crate::mesh::TriMesh;

/// One x bound in the sorted list.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Endpoint {
    /// The bound's x, world space.
    x: f32,
    /// Object index, or probe index with [`PROBE_BIT`] set.
    item: u32,
    /// `true` for the end of the interval (ends sort after starts at the
    /// same x, so touching intervals count as overlapping).
    is_end: bool,
}

const PROBE_BIT: u32 = 1 << 31;

impl Endpoint {
    /// A bound at `x` (-0 stored as +0, so that `total_cmp` orders the
    /// bounds as `<=` compares boxes).
    fn new(x: f32, item: u32, is_end: bool) -> Endpoint {
        Endpoint {
            x: x + 0.0,
            item,
            is_end,
        }
    }

    /// The order of the list: by x, then starts before ends.
    #[inline]
    fn order(&self, other: &Endpoint) -> std::cmp::Ordering {
        let by_x = self.x.total_cmp(&other.x);
        by_x.then(self.is_end.cmp(&other.is_end))
    }

    #[inline]
    fn after(&self, other: &Endpoint) -> bool {
        self.order(other) == std::cmp::Ordering::Greater
    }
}

/// An object's triangles sorted by the start of their x interval.
#[derive(Clone, Debug)]
struct SortedObject {
    aabb: Aabb,
    /// Triangle indices, by `tri_aabbs[t].min.x`.
    by_min_x: Vec<u32>,
    /// The same starts, for the binary search.
    min_x: Vec<f32>,
    /// Widest x extent of one of its triangles.
    widest_x: f32,
}

/// What the last [`SweepAndPrune::update`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SapStats {
    /// Bounds in the sorted list (two per object and per probe).
    pub endpoints: usize,
    /// Swaps the insertion sort made to repair the order (0 for a full sort).
    pub swaps: usize,
    /// `true` when the list was sorted from scratch (first update, or the
    /// number of probes changed).
    pub full_sort: bool,
    /// (probe, object) pairs whose boxes overlap.
    pub pairs: usize,
}

/// The sorted bounds and the probe-object pairs of the last update.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    objects: Vec<SortedObject>,
    probes: Vec<Aabb>,
    endpoints: Vec<Endpoint>,
    /// Objects paired with each probe at the last update.
    pairs: Vec<Vec<u32>>,
    stats: SapStats,
}

impl SweepAndPrune {
    /// The static part: the mesh's objects (those with triangles) and their
    /// triangles sorted by x. No probes yet.
    pub fn new(mesh: &TriMesh) -> SweepAndPrune {
        let tri_aabbs = mesh.tri_aabbs();
        let objects = mesh
            .objects()
            .iter()
            .map(|o| {
                let range = o.first_triangle..o.first_triangle + o.triangle_count;
                let mut by_min_x: Vec<u32> = range.collect();
                by_min_x.sort_by(|&a, &b| {
                    let (a, b) = (&tri_aabbs[a as usize], &tri_aabbs[b as usize]);
                    a.min.x.total_cmp(&b.min.x)
                });
                let min_x = by_min_x
                    .iter()
                    .map(|&t| tri_aabbs[t as usize].min.x)
                    .collect();
                let widest_x = by_min_x
                    .iter()
                    .map(|&t| tri_aabbs[t as usize].extent().x)
                    .fold(0.0f32, f32::max);
                // The extents are rounded: widen so no triangle is missed.
                let widest_x = widest_x * (1.0 + 1.0 / 1_048_576.0);
                SortedObject {
                    aabb: o.aabb,
                    by_min_x,
                    min_x,
                    widest_x,
                }
            })
            .collect();
        SweepAndPrune {
            objects,
            ..SweepAndPrune::default()
        }
    }

    /// Moves the probes to `probe_boxes` (one box per probe, e.g. the box
    /// around each probe's move this frame), repairs the sorted list and
    /// finds the probe-object pairs. A box with a NaN corner, or an empty
    /// one, pairs with nothing.
    pub fn update(&mut self, probe_boxes: &[Aabb]) -> SapStats {
        let full_sort = probe_boxes.len() != self.probes.len() || self.endpoints.is_empty();
        self.probes = probe_boxes.iter().map(|b| sanitized(*b)).collect();
        let swaps = if full_sort {
            self.rebuild_endpoints();
            0
        } else {
            self.move_probe_endpoints();
            insertion_sort(&mut self.endpoints)
        };
        let pairs = self.sweep();
        self.stats = SapStats {
            endpoints: self.endpoints.len(),
            swaps,
            full_sort,
            pairs,
        };
        self.stats
    }

    fn item_box(&self, item: u32) -> &Aabb {
        if item & PROBE_BIT != 0 {
            &self.probes[(item & !PROBE_BIT) as usize]
        } else {
            &self.objects[item as usize].aabb
        }
    }

    /// Sorts every bound from scratch (`O(n log n)`).
    fn rebuild_endpoints(&mut self) {
        let objects =
            (0..self.objects.len() as u32).filter(|&o| usable(&self.objects[o as usize].aabb));
        let probes = (0..self.probes.len() as u32).map(|p| p | PROBE_BIT);
        let items: Vec<u32> = objects.chain(probes).collect();
        self.endpoints.clear();
        for item in items {
            let b = *self.item_box(item);
            self.endpoints.push(Endpoint::new(b.min.x, item, false));
            self.endpoints.push(Endpoint::new(b.max.x, item, true));
        }
        self.endpoints.sort_by(|a, b| a.order(b));
    }

    /// Writes the probes' new x bounds into the list, where they are.
    fn move_probe_endpoints(&mut self) {
        for e in &mut self.endpoints {
            if e.item & PROBE_BIT != 0 {
                let b = &self.probes[(e.item & !PROBE_BIT) as usize];
                e.x = if e.is_end { b.max.x } else { b.min.x } + 0.0;
            }
        }
    }

    /// One pass over the sorted bounds: pairs each probe with the objects
    /// open at the same x whose boxes overlap it on y and z too.
    fn sweep(&mut self) -> usize {
        self.pairs = vec![Vec::new(); self.probes.len()];
        let mut open_objects: Vec<u32> = Vec::new();
        let mut open_probes: Vec<u32> = Vec::new();
        let mut count = 0;
        for e in &self.endpoints {
            let is_probe = e.item & PROBE_BIT != 0;
            let id = e.item & !PROBE_BIT;
            if is_probe && !usable(&self.probes[id as usize]) {
                continue;
            }
            let (own, other) = if is_probe {
                (&mut open_probes, &open_objects)
            } else {
                (&mut open_objects, &open_probes)
            };
            if e.is_end {
                if let Some(i) = own.iter().position(|&x| x == id) {
                    own.swap_remove(i);
                }
                continue;
            }
            for &o in other {
                let (probe, object) = if is_probe { (id, o) } else { (o, id) };
                let pb = &self.probes[probe as usize];
                if overlaps_yz(pb, &self.objects[object as usize].aabb) {
                    self.pairs[probe as usize].push(object);
                    count += 1;
                }
            }
            own.push(id);
        }
        count
    }

    /// Appends to `out` the triangles whose box overlaps probe `probe`'s box
    /// (as of the last update; touching counts), each once. Returns the
    /// number of triangle boxes tested.
    pub fn candidates(&self, tri_aabbs: &[Aabb], probe: usize, out: &mut Vec<u32>) -> usize {
        let Some(q) = self.probes.get(probe) else {
            return 0;
        };
        let mut tested = 0;
        for &o in &self.pairs[probe] {
            let obj = &self.objects[o as usize];
            // A triangle ending at or after q.min.x starts at or after
            // q.min.x - widest_x (rounded down, so as not to miss it).
            let lowest_start = (q.min.x - obj.widest_x).next_down();
            let from = obj.min_x.partition_point(|&x| x < lowest_start);
            let to = obj.min_x.partition_point(|&x| x <= q.max.x);
            for &tri in &obj.by_min_x[from..to.max(from)] {
                tested += 1;
                if tri_aabbs[tri as usize].overlaps(q) {
                    out.push(tri);
                }
            }
        }
        tested
    }

    /// The objects (indices into the mesh's objects) paired with `probe`.
    pub fn paired_objects(&self, probe: usize) -> &[u32] {
        self.pairs.get(probe).map_or(&[], |p| p.as_slice())
    }

    /// What the last update did.
    pub fn stats(&self) -> SapStats {
        self.stats
    }
}

/// Repairs a nearly sorted list in place; returns the number of swaps.
fn insertion_sort(list: &mut [Endpoint]) -> usize {
    let mut swaps = 0;
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && list[j - 1].after(&list[j]) {
            list.swap(j - 1, j);
            swaps += 1;
            j -= 1;
        }
    }
    swaps
}

fn usable(b: &Aabb) -> bool {
    !b.is_empty()
}

/// NaN corners make a box that matches nothing (and keeps the order total).
fn sanitized(b: Aabb) -> Aabb {
    if b.min.is_nan() || b.max.is_nan() {
        Aabb::EMPTY
    } else {
        b
    }
}

fn overlaps_yz(a: &Aabb, b: &Aabb) -> bool {
    a.min.y <= b.max.y && b.min.y <= a.max.y && a.min.z <= b.max.z && b.min.z <= a.max.z
}
