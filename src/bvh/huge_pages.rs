//! The tree's big arrays in 2 MiB pages where the system allows it.
//!
//! A move on a level of a million triangles reads a few dozen nodes and
//! leaves scattered over tens of megabytes. With 4 KiB pages nearly each
//! of those reads also misses the address translation cache (a few
//! thousand entries cover 8 MiB), so the processor walks the page tables
//! before it can even start the fetch. In 2 MiB pages the same entries
//! cover gigabytes. Linux gives an ordinary allocation huge pages when it
//! is marked with `madvise(MADV_HUGEPAGE)` before its pages are first
//! touched (the default "madvise" setting of transparent huge pages);
//! Embree does the same for its trees (`os_malloc` in
//! `common/sys/alloc.cpp`). Elsewhere, or where the system refuses, the
//! array stays as it is: the contents are the same either way.

/// Arrays smaller than this stay where they are: they fit in the
/// translation cache's reach anyway, and only whole 2 MiB pages inside an
/// allocation can be huge.
const WORTH_BYTES: usize = 8 << 20;

/// `items`, moved into an allocation marked for huge pages before it is
/// filled (the same elements in the same order). Small arrays, and
/// systems without transparent huge pages, get `items` back untouched.
pub(super) fn in_huge_pages<T: Copy>(items: Vec<T>) -> Vec<T> {
    match empty_in_huge_pages(items.len()) {
        Some(mut moved) => {
            moved.extend_from_slice(&items);
            moved
        }
        None => items,
    }
}

/// An empty vector with room for `len` elements, marked for huge pages
/// (fill it without growing it); `None` when that is not worth it or the
/// system does not take the advice.
pub(super) fn empty_in_huge_pages<T>(len: usize) -> Option<Vec<T>> {
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    if bytes < WORTH_BYTES {
        return None;
    }
    let mut empty: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(empty.as_mut_ptr().cast(), bytes).then_some(empty)
}

/// Marks the whole 2 MiB pages inside `len` bytes from `start` for huge
/// pages; `true` when the system took the advice.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) -> bool {
    const HUGE: usize = 2 << 20;
    let first = (start as usize).next_multiple_of(HUGE);
    let end = (start as usize + len) / HUGE * HUGE;
    if end <= first {
        return false;
    }
    // SAFETY: `[first, end)` lies inside the allocation of `len` bytes at
    // `start`, which this process owns; the advice changes how the kernel
    // backs the pages, never their contents or who may read them.
    unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elements_are_kept_in_order() {
        let small: Vec<u64> = (0..1000).collect();
        assert_eq!(in_huge_pages(small.clone()), small);
        let big: Vec<u64> = (0..(3 * WORTH_BYTES / 8) as u64).collect();
        assert_eq!(in_huge_pages(big.clone()), big);
    }

    #[test]
    fn only_big_arrays_are_moved() {
        assert!(empty_in_huge_pages::<u64>(1000).is_none());
        let len = 2 * WORTH_BYTES / 8;
        if let Some(v) = empty_in_huge_pages::<u64>(len) {
            assert!(v.is_empty() && v.capacity() >= len);
        }
    }
}
