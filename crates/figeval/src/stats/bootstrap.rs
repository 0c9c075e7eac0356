//! The percentile bootstrap interval of a mean, drawn as multinomial counts of the distinct
//! values from a fixed generator, so that every platform gives the same interval to the bit.

use super::binomial::BinomialSampler;
use super::order::{select, stable_order};
use super::rng::Xoshiro256StarStar;
use super::Interval;

/// How many resamples the bootstrap draws.
pub(crate) const BOOTSTRAP_RESAMPLES: usize = 10_000;

/// The seed of the bootstrap's generator (the ASCII bytes of `figeval`). Every bootstrap starts
/// from it, so an interval depends on the values and their order only.
pub(crate) const BOOTSTRAP_SEED: u64 = 0x0066_6967_6576_616c;

/// The percentile bootstrap interval at 95% of the mean of `values` (B. Efron, "Bootstrap
/// methods: another look at the jackknife", Annals of Statistics 7, 1979), unrounded; `None`
/// when there are no values.
///
/// A resample of the `n` values with replacement matters only through how many times it takes
/// each distinct value, and those counts are multinomial. So each resample draws the counts
/// (one binomial per distinct value), not `n` item indices: the cost grows with the number of
/// distinct values and with `log n`, not with `n` (a summary's reciprocal ranks take at most
/// `top_k + 1` values). The procedure, fixed so that every platform gives the same interval:
///
/// 1. The distinct values `v₁ … v_K` (equal as [`f64::total_cmp`] says) with how many times
///    each occurs, `m₁ … m_K`, ordered by that multiplicity, largest first, ties by value
///    ascending. The order of `values` does not matter.
/// 2. A [`Xoshiro256StarStar`] generator is seeded from [`BOOTSTRAP_SEED`].
/// 3. [`BOOTSTRAP_RESAMPLES`] (10,000) times: starting with `t = n` items to place, for each
///    value `k < K` in that order draw its count `c_k ~ Binomial(t, m_k / (m_k + … + m_K))`
///    ([`BinomialSampler`]) and take it from `t`; the last value gets the `t` left. The mean of
///    the resample is `Σ v_k · (c_k / n)`, summed in the same order.
/// 4. The 10,000 means in ascending order; the interval runs from the 250th smallest to the
///    250th largest (0-based positions 249 and 9750): the 2.5th and 97.5th percentiles,
///    symmetric in rank.
pub(crate) fn percentile_bootstrap_mean(values: &[f64]) -> Option<Interval> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as u64;
    let mut ascending: Vec<(f64, u64)> = Vec::new();
    for i in stable_order(values.len(), &|a, b| {
        values[a].total_cmp(&values[b]).is_lt()
    }) {
        let v = values[i];
        match ascending.last_mut() {
            Some((last, count)) if last.total_cmp(&v).is_eq() => *count += 1,
            _ => ascending.push((v, 1)),
        }
    }
    // Largest multiplicity first (the sort is stable: ties stay in ascending value order).
    let classes: Vec<(f64, u64)> =
        stable_order(ascending.len(), &|a, b| ascending[a].1 > ascending[b].1)
            .into_iter()
            .map(|i| ascending[i])
            .collect();
    let mut rest = n;
    let mut samplers: Vec<BinomialSampler> = Vec::with_capacity(classes.len());
    for &(_, m) in &classes[..classes.len() - 1] {
        samplers.push(BinomialSampler::new(m, rest));
        rest -= m;
    }
    let mut rng = Xoshiro256StarStar::seeded(BOOTSTRAP_SEED);
    let nf = n as f64;
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            let mut t = n;
            let mut mean = 0.0f64;
            for (k, &(v, _)) in classes.iter().enumerate() {
                let c = match samplers.get_mut(k) {
                    Some(s) => s.draw(t, &mut rng),
                    None => t,
                };
                t -= c;
                mean += v * (c as f64 / nf);
            }
            mean
        })
        .collect();
    let tail = BOOTSTRAP_RESAMPLES / 40; // 2.5% of the resamples: 250
    let lo = select(&mut means, tail - 1);
    let hi = select(&mut means, BOOTSTRAP_RESAMPLES - tail);
    Some(Interval { lo, hi })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::interval::Z95;
    use crate::stats::samples::{ndcg_values, reciprocal_ranks};

    /// The bootstrap as it is usually written (and as figeval first drew it): `n` item indices
    /// per resample. The count-drawing procedure must agree with it up to resampling noise.
    fn index_bootstrap(values: &[f64], seed: u64) -> Interval {
        let n = values.len();
        let mut rng = Xoshiro256StarStar::seeded(seed);
        let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
            .map(|_| {
                let sum: f64 = (0..n).map(|_| values[rng.below(n as u64) as usize]).sum();
                sum / n as f64
            })
            .collect();
        means.sort_by(f64::total_cmp);
        Interval {
            lo: means[249],
            hi: means[9750],
        }
    }

    #[test]
    fn counting_draws_agree_with_index_draws_and_with_the_normal_interval() {
        for (n, seed) in [(40, 1), (300, 2), (5_000, 3)] {
            let values = reciprocal_ranks(n, seed);
            let ours = percentile_bootstrap_mean(&values).unwrap();
            let theirs = index_bootstrap(&values, 99);
            let mean = values.iter().sum::<f64>() / n as f64;
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64;
            let se = (var / n as f64).sqrt();
            // Percentiles of 10,000 resamples wander by a few hundredths of a standard error.
            for (a, b) in [(ours.lo, theirs.lo), (ours.hi, theirs.hi)] {
                assert!((a - b).abs() < 0.12 * se, "n {n}: {ours:?} vs {theirs:?}");
            }
            // And both are close to mean ± 1.96 se at these sizes.
            assert!(
                (ours.lo - (mean - Z95 * se)).abs() < 0.2 * se,
                "n {n}: {ours:?}"
            );
            assert!(
                (ours.hi - (mean + Z95 * se)).abs() < 0.2 * se,
                "n {n}: {ours:?}"
            );
        }
    }

    #[test]
    fn the_bootstrap_ignores_the_order_of_the_values() {
        let values = reciprocal_ranks(777, 5);
        let mut reversed = values.clone();
        reversed.reverse();
        assert_eq!(
            percentile_bootstrap_mean(&values),
            percentile_bootstrap_mean(&reversed)
        );
    }

    #[test]
    fn the_bootstrap_is_fixed_and_brackets_the_mean() {
        let values: Vec<f64> = (0..25)
            .map(|i| match i % 5 {
                0 => 1.0,
                1 => 0.5,
                2 => 0.0,
                3 => 1.0 / 3.0,
                _ => 1.0,
            })
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let a = percentile_bootstrap_mean(&values).unwrap();
        let b = percentile_bootstrap_mean(&values).unwrap();
        assert_eq!(a, b, "same values, same interval");
        assert!(a.lo < mean && mean < a.hi, "{a:?} around {mean}");
        // Pinned: the same numbers must come out on every platform and in every release. A
        // separate transcription of the documented procedure (in Python, outside the
        // repository) gives the same two bounds, unrounded 0.41333333333333333 and 0.72; the
        // index-drawing procedure figeval used before gave the same rounded bounds.
        assert_eq!(<[f64; 2]>::from(a.rounded()), [0.4133, 0.72]);
    }

    #[test]
    fn the_bootstrap_bounds_are_pinned_to_the_bit() {
        // The exact, unrounded bounds: any change to the generator, the binomial tables, the
        // draws or the order they are taken in moves at least one of them. Each case uses
        // every power of two up to its n (tables of 1 to 2^16 trials).
        let cases: [(&str, Vec<f64>, [f64; 2]); 4] = [
            (
                "reciprocal ranks, 10,000",
                reciprocal_ranks(10_000, 11),
                [0.20289250000000003, 0.21288178571428573],
            ),
            (
                "nDCG@10, 10,000",
                ndcg_values(10_000, 12),
                [0.4183127030850127, 0.42779716455961425],
            ),
            (
                "nDCG@10, 1,177",
                ndcg_values(1_177, 13),
                [0.4125563821144628, 0.4411581274221557],
            ),
            (
                "nDCG@10, 100,000",
                ndcg_values(100_000, 14),
                [0.42004368042460244, 0.42303495656722045],
            ),
        ];
        for (name, values, pinned) in cases {
            let i = percentile_bootstrap_mean(&values).unwrap();
            assert_eq!(
                [i.lo, i.hi].map(f64::to_bits),
                pinned.map(f64::to_bits),
                "{name}"
            );
        }
    }

    #[test]
    fn the_bootstrap_of_nothing_is_none_and_of_a_constant_is_a_point() {
        assert_eq!(percentile_bootstrap_mean(&[]), None);
        let i = percentile_bootstrap_mean(&[0.25; 9]).unwrap();
        assert_eq!((i.lo, i.hi), (0.25, 0.25));
    }
}
