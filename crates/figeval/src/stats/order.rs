//! Ordering without the standard library's sorts: a stable merge sort of indices, and a
//! selection of one position (a bootstrap's percentiles). Both run on `f64::total_cmp` or any
//! comparison, compiled once, so the browser bundle carries one sort, not one per type.

/// The value at 0-based position `k` of `xs` in ascending [`f64::total_cmp`] order (`xs` is
/// reordered): a quickselect with a three-way partition, in linear expected time where a sort
/// takes `n log n`, and many equal values (a bootstrap's means repeat) make it faster still.
/// Any order gives the same value at a position, so it is the sort's value to the bit.
pub(crate) fn select(xs: &mut [f64], k: usize) -> f64 {
    let (mut lo, mut hi) = (0, xs.len());
    loop {
        let mid = lo + (hi - lo) / 2;
        // The median of the window's first, middle and last values.
        let (a, b, c) = (xs[lo], xs[mid], xs[hi - 1]);
        let (min_ab, max_ab) = if a.total_cmp(&b).is_lt() {
            (a, b)
        } else {
            (b, a)
        };
        let pivot = if c.total_cmp(&min_ab).is_lt() {
            min_ab
        } else if c.total_cmp(&max_ab).is_gt() {
            max_ab
        } else {
            c
        };
        // xs[lo..less] < pivot, xs[less..at] == pivot, xs[more..hi] > pivot.
        let (mut less, mut at, mut more) = (lo, lo, hi);
        while at < more {
            match xs[at].total_cmp(&pivot) {
                std::cmp::Ordering::Less => {
                    xs.swap(less, at);
                    less += 1;
                    at += 1;
                }
                std::cmp::Ordering::Greater => {
                    more -= 1;
                    xs.swap(at, more);
                }
                std::cmp::Ordering::Equal => at += 1,
            }
        }
        if k < less {
            hi = less;
        } else if k >= more {
            lo = more;
        } else {
            return pivot;
        }
    }
}

/// The indices `0..n` in the order `less` sorts them, equal ones in index order: a bottom-up
/// merge sort. Every sort of the statistics goes through this one function (the standard
/// library's sorts and selection would be compiled once per element type and comparison,
/// about 2 KB each in the browser bundle), and the page's item list sorts with it too.
pub fn stable_order(n: usize, less: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut merged[start..end] {
                // The right run's element goes first only when it is strictly less.
                if j < end && (i >= mid || less(order[j], order[i])) {
                    *slot = order[j];
                    j += 1;
                } else {
                    *slot = order[i];
                    i += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::rng::Xoshiro256StarStar;

    #[test]
    fn selection_finds_the_sorted_value_at_every_position() {
        let mut rng = Xoshiro256StarStar::seeded(7);
        for n in [1usize, 2, 3, 10, 101, 1000] {
            for distinct in [1u64, 3, 50, 1 << 20] {
                let xs: Vec<f64> = (0..n).map(|_| rng.below(distinct) as f64 / 7.0).collect();
                let mut sorted = xs.clone();
                sorted.sort_by(f64::total_cmp);
                for k in (0..n).step_by((n / 17).max(1)).chain([n - 1]) {
                    let mut work = xs.clone();
                    assert_eq!(
                        select(&mut work, k).to_bits(),
                        sorted[k].to_bits(),
                        "n {n} k {k}"
                    );
                }
            }
        }
        // Equal values of opposite sign are told apart, as total_cmp does.
        assert_eq!(
            select(&mut [0.0, -0.0, 0.0], 0).to_bits(),
            (-0.0f64).to_bits()
        );
    }

    #[test]
    fn the_merge_sort_orders_as_the_standard_stable_sort() {
        let mut rng = Xoshiro256StarStar::seeded(3);
        for n in (0..70).chain([1000, 10_000]) {
            // Few distinct keys, so most comparisons are ties whose order must be kept.
            let keys: Vec<u64> = (0..n).map(|_| rng.below(1 + n as u64 / 4)).collect();
            let mut expected: Vec<usize> = (0..n).collect();
            expected.sort_by_key(|&i| keys[i]);
            assert_eq!(
                stable_order(n, &|a, b| keys[a] < keys[b]),
                expected,
                "n {n}"
            );
        }
    }
}
