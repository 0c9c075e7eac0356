//! Several bootstraps in one batch, shared out over the machine's cores with the `native-speed`
//! feature (native builds), one by one otherwise; the intervals are the same either way.

use super::bootstrap::percentile_bootstrap_mean;
use super::Interval;

/// [`percentile_bootstrap_mean`] of each sample given (`None` for each not given), in one
/// batch. With the `native-speed` feature (native builds) the samples are shared out over the
/// machine's cores, each taken by the next free thread; every bootstrap starts from the same
/// seed whichever thread draws it, so the intervals are the same as one by one, to the bit.
pub(crate) fn percentile_bootstrap_means<const N: usize>(
    samples: [Option<&[f64]>; N],
) -> [Option<Interval>; N] {
    let mut out = [None; N];
    #[cfg(all(feature = "native-speed", not(target_family = "wasm")))]
    {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let given = samples.iter().flatten().count();
        if threads > 1 && given > 1 {
            on_threads(&samples, &mut out, threads.min(given));
            return out;
        }
    }
    for (interval, sample) in out.iter_mut().zip(samples) {
        if let Some(values) = sample {
            *interval = percentile_bootstrap_mean(values);
        }
    }
    out
}

/// [`percentile_bootstrap_means`] on `threads` scoped threads (this one among them), into
/// `out`.
#[cfg(all(feature = "native-speed", not(target_family = "wasm")))]
fn on_threads(samples: &[Option<&[f64]>], out: &mut [Option<Interval>], threads: usize) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            match samples.get(i) {
                None => return done,
                Some(Some(values)) => done.push((i, percentile_bootstrap_mean(values))),
                Some(None) => {}
            }
        }
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for handle in others {
            // A bootstrap does not panic; if one did, its panic is this thread's.
            all.extend(
                handle
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p)),
            );
        }
        for (i, interval) in all {
            out[i] = interval;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::samples::{ndcg_values, reciprocal_ranks};

    #[test]
    fn a_batch_of_bootstraps_gives_each_ones_interval_whatever_the_threads() {
        let samples: Vec<Vec<f64>> = vec![
            ndcg_values(3_000, 1),
            reciprocal_ranks(1_000, 2),
            Vec::new(),
            vec![0.25; 40],
            ndcg_values(500, 3),
        ];
        let one_by_one: Vec<Option<Interval>> = samples
            .iter()
            .map(|s| percentile_bootstrap_mean(s))
            .collect();
        assert_eq!(one_by_one[2], None);
        assert_ne!(one_by_one[0], one_by_one[4]);
        let given: [Option<&[f64]>; 5] = std::array::from_fn(|i| Some(&samples[i][..]));
        assert_eq!(percentile_bootstrap_means(given).to_vec(), one_by_one);
        // A sample not given has no interval, and moves no other.
        let mut some = given;
        some[1] = None;
        let mut expected = one_by_one.clone();
        expected[1] = None;
        assert_eq!(percentile_bootstrap_means(some).to_vec(), expected);
        #[cfg(all(feature = "native-speed", not(target_family = "wasm")))]
        for threads in [2, 3, 5] {
            let mut out = [None; 5];
            on_threads(&some, &mut out, threads);
            assert_eq!(out.to_vec(), expected, "{threads} threads");
        }
    }
}
