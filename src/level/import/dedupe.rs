//! Exact-position vertex welding and duplicate-triangle detection, on the
//! bit patterns of world-space `f32` positions.
//!
//! Both sort packed `u128` keys (three 32-bit words, then the element's own
//! index) in parallel instead of hashing: on a million triangles a hash
//! set's random probes cost several times the sort (measured here). Within a
//! run of equal keys the index order is file order, so "first" is exact.

use crate::math::Vec3;
use rayon::prelude::*;

fn pack(words: [u32; 3], index: usize) -> u128 {
    (u128::from(words[0]) << 96)
        | (u128::from(words[1]) << 64)
        | (u128::from(words[2]) << 32)
        | index as u128
}

/// Calls `f(first, other)` for every element whose key equals that of an
/// earlier element `first` (the earliest one with that key).
fn for_each_repeat(mut keyed: Vec<u128>, mut f: impl FnMut(u32, u32)) {
    keyed.par_sort_unstable();
    let mut run: Option<(u128, u32)> = None;
    for k in keyed {
        let (key, index) = (k >> 32, k as u32);
        match run {
            Some((run_key, first)) if run_key == key => f(first, index),
            _ => run = Some((key, index)),
        }
    }
}

/// For every vertex, the index of the first vertex at exactly the same
/// position (`-0.0` and `0.0` are the same place).
pub(super) fn weld_ids(positions: &[Vec3]) -> Vec<u32> {
    let keyed = positions
        .par_iter()
        .enumerate()
        .map(|(i, p)| pack((*p + Vec3::ZERO).to_array().map(f32::to_bits), i))
        .collect();
    let mut ids: Vec<u32> = (0..positions.len() as u32).collect();
    for_each_repeat(keyed, |first, other| ids[other as usize] = first);
    ids
}

/// The same key for the three rotations of a triangle (same winding).
pub(super) fn canonical([a, b, c]: [u32; 3]) -> [u32; 3] {
    if a <= b && a <= c {
        [a, b, c]
    } else if b <= c {
        [b, c, a]
    } else {
        [c, a, b]
    }
}

/// `(duplicate, first)` pairs, by increasing `duplicate`: triangle
/// `duplicate` has the corners of the earlier triangle `first`, at the same
/// positions and with the same winding. The reversed triangle is not a
/// duplicate: it is the other side of a two-sided wall.
pub(super) fn duplicate_triangles(triangles: &[[u32; 3]], weld: &[u32]) -> Vec<(u32, u32)> {
    let keyed = triangles
        .par_iter()
        .enumerate()
        .map(|(i, t)| pack(canonical(t.map(|v| weld[v as usize])), i))
        .collect();
    let mut repeats = Vec::new();
    for_each_repeat(keyed, |first, other| repeats.push((other, first)));
    repeats.sort_unstable();
    repeats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_share_a_key_and_the_reverse_does_not() {
        let k = canonical([7, 3, 5]);
        assert_eq!(k, canonical([3, 5, 7]));
        assert_eq!(k, canonical([5, 7, 3]));
        assert_ne!(k, canonical([7, 5, 3]));
    }

    #[test]
    fn welding_merges_equal_positions_and_signed_zeros() {
        let p = [
            Vec3::new(0.0, 1.0, 2.0),
            Vec3::new(1.0, 1.0, 2.0),
            Vec3::new(-0.0, 1.0, 2.0),
            Vec3::new(1.0, 1.0, 2.0),
        ];
        assert_eq!(weld_ids(&p), vec![0, 1, 0, 1]);
    }

    #[test]
    fn duplicates_point_at_the_first_occurrence() {
        let weld = [0, 1, 2, 0];
        let tris = [[0, 1, 2], [2, 1, 0], [1, 2, 3], [3, 1, 2], [2, 0, 1]];
        assert_eq!(duplicate_triangles(&tris, &weld), [(2, 0), (3, 0), (4, 0)]);
    }
}
