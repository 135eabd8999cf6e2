//! Hash maps keyed by grid cells (`[i64; 3]`), for the near-miss grid and
//! the normal groups, with a multiply-rotate hash in the manner of rustc's
//! FxHash instead of the standard SipHash: the keys are our own integers,
//! not attacker-chosen strings, and each search makes 27 lookups per vertex
//! or triangle, where SipHash was a third of the near-miss search's time.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map from grid cells to `V`.
pub(super) type CellMap<V> = HashMap<[i64; 3], V, BuildHasherDefault<CellHasher>>;

/// The cell of `p` on a grid of cells `size` wide (float-to-int casts
/// saturate, so even absurd coordinates get a cell).
pub(super) fn cell_of(p: glam::DVec3, size: f64) -> [i64; 3] {
    (p / size).floor().to_array().map(|c| c as i64)
}

/// The 27 cells around `cell` (itself included), in a fixed order.
pub(super) fn around(cell: [i64; 3]) -> impl Iterator<Item = [i64; 3]> {
    (-1..=1).flat_map(move |dx| {
        (-1..=1)
            .flat_map(move |dy| (-1..=1).map(move |dz| [cell[0] + dx, cell[1] + dy, cell[2] + dz]))
    })
}

/// Multiply-rotate hashing of 8-byte words.
#[derive(Default)]
pub(super) struct CellHasher(u64);

impl CellHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for CellHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_i64(&mut self, n: i64) {
        self.add(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_around_are_the_27_neighbours_once_each() {
        let all: std::collections::BTreeSet<[i64; 3]> = around([5, -2, 0]).collect();
        assert_eq!(all.len(), 27);
        assert!(all.contains(&[4, -3, -1]) && all.contains(&[6, -1, 1]));
        let mut map: CellMap<u32> = CellMap::default();
        for (i, c) in around([0, 0, 0]).enumerate() {
            map.insert(c, i as u32);
        }
        assert_eq!(map.len(), 27);
        assert_eq!(map[&[1, 1, 1]], 26);
        assert_eq!(
            cell_of(glam::DVec3::new(0.0015, -0.0005, 2.0), 1e-3),
            [1, -1, 2000]
        );
    }
}
