//! Counting every finding while keeping only the first few, in parallel and
//! in a fixed order: the searches run over chunks of their input on rayon's
//! threads, each chunk keeps at most the cap, and the chunks are joined in
//! input order, so the list is the same on any number of threads and its
//! memory is bounded even when a hostile mesh has quadratically many pairs.

use super::HygieneItem;
use rayon::prelude::*;

/// Inputs per parallel chunk.
const CHUNK: usize = 2048;

/// The findings of one kind: the exact count and the first `cap` items.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// How many were found.
    pub count: usize,
    /// The first of them, at most the cap.
    pub items: Vec<HygieneItem>,
    /// Inputs (triangles, edges, vertices) whose search stopped at
    /// [`super::MAX_NEIGHBOURS`] (or [`super::MAX_OVERLAP_CANDIDATES`])
    /// candidates: while it is above zero,
    /// `count` is a lower bound.
    pub cut: usize,
}

/// Where a search puts its findings: counts all, keeps up to `cap`.
pub(super) struct Sink {
    cap: usize,
    found: Found,
}

impl Sink {
    fn new(cap: usize) -> Sink {
        Sink {
            cap,
            found: Found::default(),
        }
    }

    /// Counts a finding; `item` is only built while the list has room.
    pub fn push(&mut self, item: impl FnOnce() -> HygieneItem) {
        self.found.count += 1;
        if self.found.items.len() < self.cap {
            self.found.items.push(item());
        }
    }

    /// Notes an input whose candidates were cut at [`super::MAX_NEIGHBOURS`].
    pub fn cut(&mut self) {
        self.found.cut += 1;
    }
}

/// Runs `search(i, sink)` for every `i` in `0..n`, in parallel chunks,
/// and joins the findings in the order of `i`.
pub(super) fn find_capped<F>(n: usize, cap: usize, search: F) -> Found
where
    F: Fn(usize, &mut Sink) + Sync,
{
    find_capped_with(n, cap, || (), |_: &mut (), i, sink| search(i, sink))
}

/// [`find_capped`] with per-chunk scratch state made by `init` (query
/// stacks, candidate lists), so the searches do not allocate per input.
pub(super) fn find_capped_with<S, I, F>(n: usize, cap: usize, init: I, search: F) -> Found
where
    I: Fn() -> S + Sync,
    F: Fn(&mut S, usize, &mut Sink) + Sync,
{
    let chunks: Vec<Found> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut state = init();
            let mut sink = Sink::new(cap);
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                search(&mut state, i, &mut sink);
            }
            sink.found
        })
        .collect();
    let mut all = Found::default();
    for chunk in chunks {
        all.count += chunk.count;
        all.cut += chunk.cut;
        let room = cap - all.items.len();
        all.items.extend(chunk.items.into_iter().take(room));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::hygiene::HygieneKind;
    use crate::math::DVec3;

    fn item(i: usize) -> HygieneItem {
        HygieneItem {
            kind: HygieneKind::Sliver,
            position: DVec3::ZERO,
            triangles: vec![i as u32],
            size: 0.0,
            object: None,
        }
    }

    #[test]
    fn counts_all_and_keeps_the_first_in_input_order() {
        // Two findings per multiple of 3, across several chunks.
        let n = 3 * CHUNK + 17;
        let found = find_capped(n, 5, |i, sink| {
            if i % 3 == 0 {
                sink.push(|| item(i));
                sink.push(|| item(i));
            }
        });
        assert_eq!(found.count, 2 * n.div_ceil(3));
        let firsts: Vec<u32> = found.items.iter().map(|it| it.triangles[0]).collect();
        assert_eq!(firsts, vec![0, 0, 3, 3, 6]);
        let all = find_capped(n, usize::MAX, |i, sink| sink.push(|| item(i)));
        assert_eq!(all.count, n);
        assert!(
            all.items
                .iter()
                .enumerate()
                .all(|(i, it)| it.triangles == [i as u32])
        );
    }
}
