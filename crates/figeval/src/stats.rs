//! How sure a number is: intervals on rates and MRR, the paired interval of a change, and the
//! multiplicity adjustment of many comparisons.
//!
//! Every function here is pure and deterministic. The bootstrap draws from a fixed, documented
//! generator ([`Xoshiro256StarStar`] seeded with [`BOOTSTRAP_SEED`]), so the same records give
//! the same interval natively and on `wasm32-unknown-unknown`: IEEE-754 arithmetic is the same
//! on both, and nothing here reads a clock or the platform's randomness.
//!
//! - [`wilson`]: the Wilson score interval of a single proportion (Wilson 1927).
//! - [`percentile_bootstrap_mean`]: the percentile bootstrap interval of a mean (Efron 1979).
//! - [`newcombe_paired`]: Newcombe's square-and-add interval for a paired difference of
//!   proportions (Newcombe 1998, method 10).
//! - [`holm`]: Holm's step-down adjustment of p-values (Holm 1979).
//! - [`min_significant_delta`]: the smallest change the exact McNemar test could call
//!   significant at 0.05.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::summary::round4;

/// The 97.5th percentile of the standard normal distribution: the z of every 95% interval here.
pub const Z95: f64 = 1.959963984540054;

/// How many resamples the bootstrap draws.
pub const BOOTSTRAP_RESAMPLES: usize = 10_000;

/// The seed of the bootstrap's generator (the ASCII bytes of `figeval`). Every bootstrap starts
/// from it, so an interval depends on the values and their order only.
pub const BOOTSTRAP_SEED: u64 = 0x0066_6967_6576_616c;

/// A closed interval `[lo, hi]`, written in JSON as a two-element array.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(into = "[f64; 2]", try_from = "[f64; 2]")]
pub struct Interval {
    /// The lower bound.
    pub lo: f64,
    /// The upper bound.
    pub hi: f64,
}

impl Interval {
    /// Both bounds rounded like the rates ([`round4`]: Python's `round(x, 4)`).
    pub fn rounded(self) -> Interval {
        Interval {
            lo: round4(self.lo),
            hi: round4(self.hi),
        }
    }

    /// Whether `x` lies in the interval (bounds included).
    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

impl From<Interval> for [f64; 2] {
    fn from(i: Interval) -> [f64; 2] {
        [i.lo, i.hi]
    }
}

impl TryFrom<[f64; 2]> for Interval {
    type Error = String;

    fn try_from([lo, hi]: [f64; 2]) -> Result<Interval, String> {
        if lo.is_finite() && hi.is_finite() && lo <= hi {
            Ok(Interval { lo, hi })
        } else {
            Err(format!(
                "an interval must be [lo, hi] with lo <= hi, got [{lo}, {hi}]"
            ))
        }
    }
}

impl fmt::Display for Interval {
    /// Two decimals and an en dash, as the text and Markdown reports print it: `0.80–0.98`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2}–{:.2}", self.lo, self.hi)
    }
}

/// The Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22, 1927) of `hits` successes in `n` trials at 95%, unrounded;
/// `None` when `n` is 0 (or `hits > n`, which no summary produces).
///
/// `(2x + z² ± z·√(z² + 4x(n−x)/n)) / (2(n + z²))`, with the bound at 0 hits exactly 0 and the
/// bound at `n` hits exactly 1 (the formula reaches them only up to rounding).
pub fn wilson(hits: u64, n: u64) -> Option<Interval> {
    if n == 0 || hits > n {
        return None;
    }
    let (x, nf, z2) = (hits as f64, n as f64, Z95 * Z95);
    let centre = 2.0 * x + z2;
    let spread = Z95 * (z2 + 4.0 * x * (nf - x) / nf).sqrt();
    let denom = 2.0 * (nf + z2);
    let lo = if hits == 0 {
        0.0
    } else {
        ((centre - spread) / denom).max(0.0)
    };
    let hi = if hits == n {
        1.0
    } else {
        ((centre + spread) / denom).min(1.0)
    };
    Some(Interval { lo, hi })
}

/// The four cells of a paired 2×2 table of one metric over the same items, before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairedCounts {
    /// Hit before and after.
    pub both: u64,
    /// Missed before, hit after.
    pub gained: u64,
    /// Hit before, missed after.
    pub lost: u64,
    /// Missed before and after.
    pub neither: u64,
}

impl PairedCounts {
    /// The number of pairs.
    pub fn n(&self) -> u64 {
        self.both + self.gained + self.lost + self.neither
    }
}

/// Newcombe's square-and-add 95% interval for the paired difference `after − before` of two
/// proportions (R. G. Newcombe, "Improved confidence intervals for the difference between
/// binomial proportions based on paired data", Statistics in Medicine 17, 1998, method 10);
/// `None` when there are no pairs. Unrounded, within `[−1, 1]`.
///
/// With `a` = both, `b` = gained, `c` = lost, `d` = neither, the after rate is
/// `p₁ = (a+b)/n` and the before rate `p₂ = (a+c)/n`, each with its Wilson interval
/// `(l₁, u₁)`, `(l₂, u₂)`. The correlation estimate is Newcombe's
/// `φ = A / √((a+b)(c+d)(a+c)(b+d))` where `A = ad − bc` reduced by `n/2` when it exceeds
/// `n/2`, set to 0 when it lies in `[0, n/2]`, and kept when negative; `φ = 0` when any margin
/// is 0. Then, with `θ = p₁ − p₂`,
///
/// - lower = `θ − √((p₁−l₁)² − 2φ(p₁−l₁)(u₂−p₂) + (u₂−p₂)²)`,
/// - upper = `θ + √((u₁−p₁)² − 2φ(u₁−p₁)(p₂−l₂) + (p₂−l₂)²)`.
pub fn newcombe_paired(t: PairedCounts) -> Option<Interval> {
    let n = t.n();
    let after = wilson(t.both + t.gained, n)?;
    let before = wilson(t.both + t.lost, n)?;
    let nf = n as f64;
    let (p1, p2) = (
        (t.both + t.gained) as f64 / nf,
        (t.both + t.lost) as f64 / nf,
    );
    let phi = newcombe_phi(t);
    let theta = p1 - p2;
    let down = (p1 - after.lo, before.hi - p2);
    let up = (after.hi - p1, p2 - before.lo);
    let root = |(x, y): (f64, f64)| (x * x - 2.0 * phi * x * y + y * y).max(0.0).sqrt();
    Some(Interval {
        lo: (theta - root(down)).max(-1.0),
        hi: (theta + root(up)).min(1.0),
    })
}

/// Newcombe's corrected correlation estimate φ of a paired table (see [`newcombe_paired`]).
/// The cross product is computed exactly in integers, so the `n/2` thresholds are exact.
pub fn newcombe_phi(t: PairedCounts) -> f64 {
    let margins = [
        t.both + t.gained,
        t.lost + t.neither,
        t.both + t.lost,
        t.gained + t.neither,
    ];
    if margins.contains(&0) {
        return 0.0;
    }
    let n = i128::from(t.n());
    let cross =
        i128::from(t.both) * i128::from(t.neither) - i128::from(t.gained) * i128::from(t.lost);
    // Twice the corrected numerator, in integers: 2A − n above n/2, 0 on [0, n/2], 2A below 0.
    let twice = if 2 * cross > n {
        2 * cross - n
    } else if cross >= 0 {
        0
    } else {
        2 * cross
    };
    let product: f64 = margins.iter().map(|&m| m as f64).product();
    twice as f64 / 2.0 / product.sqrt()
}

/// Holm's step-down adjustment (S. Holm, "A simple sequentially rejective multiple test
/// procedure", Scandinavian Journal of Statistics 6, 1979) of `m` p-values, returned in the
/// order given.
///
/// Sorted ascending, the `i`-th smallest (from 1) becomes `max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎)`,
/// so an adjusted p-value never falls below a smaller one's. Ties keep their given order.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        let scaled = ((m - rank) as f64 * p_values[i]).min(1.0);
        running = running.max(scaled);
        adjusted[i] = running;
    }
    adjusted
}

/// The smallest change in a rate over `n` paired items that the exact McNemar test could call
/// significant at 0.05, rounded like the rates; `None` when `n < 6`, where nothing can.
///
/// The two-sided exact McNemar p-value of `k` flips all one way is `2 / 2^k`: 0.0625 for 5 and
/// 0.03125 for 6. A change of `k/n` needs at least `k` one-way flips, so no change below `6/n`
/// reaches p < 0.05.
pub fn min_significant_delta(n: u64) -> Option<f64> {
    (n >= 6).then(|| round4(6.0 / n as f64))
}

/// The percentile bootstrap interval at 95% of the mean of `values` (B. Efron, "Bootstrap
/// methods: another look at the jackknife", Annals of Statistics 7, 1979), unrounded; `None`
/// when there are no values.
///
/// The procedure, fixed so that every platform gives the same interval:
///
/// 1. A [`Xoshiro256StarStar`] generator is seeded from [`BOOTSTRAP_SEED`].
/// 2. [`BOOTSTRAP_RESAMPLES`] (10,000) times: draw `n` indices uniformly from `0..n` with
///    replacement, in pairs while `n < 2³²` ([`Xoshiro256StarStar::below_u32_pair`]: each
///    64-bit output gives two draws; an odd `n` ends with the first of one more pair) and one by
///    one beyond ([`Xoshiro256StarStar::below`]). The first draws of the pairs are added in
///    order into one sum, the second draws into another, and the mean is
///    `(first + second) / n`.
/// 3. Sort the 10,000 means; the interval runs from the 250th smallest to the 250th largest
///    (0-based positions 249 and 9750): the 2.5th and 97.5th percentiles, symmetric in rank.
pub fn percentile_bootstrap_mean(values: &[f64]) -> Option<Interval> {
    if values.is_empty() {
        return None;
    }
    let n = values.len();
    let mut rng = Xoshiro256StarStar::seeded(BOOTSTRAP_SEED);
    let mut means: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
        .map(|_| {
            // Two running sums (first and second draw of each pair), added at the end: half
            // the length of the chain of dependent additions.
            let (mut first, mut second) = (0.0f64, 0.0f64);
            match u32::try_from(n) {
                Ok(bound) => {
                    for _ in 0..n / 2 {
                        let (i, j) = rng.below_u32_pair(bound);
                        first += values[i as usize];
                        second += values[j as usize];
                    }
                    if n % 2 == 1 {
                        first += values[rng.below_u32_pair(bound).0 as usize];
                    }
                }
                Err(_) => {
                    for _ in 0..n {
                        first += values[rng.below(n as u64) as usize];
                    }
                }
            }
            (first + second) / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let tail = BOOTSTRAP_RESAMPLES / 40; // 2.5% of the resamples: 250
    Some(Interval {
        lo: means[tail - 1],
        hi: means[BOOTSTRAP_RESAMPLES - tail],
    })
}

/// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): used only to expand one seed into the four words of [`Xoshiro256StarStar`], as
/// its authors recommend.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting at `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (D. Blackman, S. Vigna, "Scrambled linear pseudorandom number generators",
/// ACM TOMS 47, 2021): the bootstrap's generator. Integer operations only, so its stream is
/// the same on every platform.
#[derive(Debug, Clone)]
pub struct Xoshiro256StarStar([u64; 4]);

impl Xoshiro256StarStar {
    /// The generator whose four state words are the first four outputs of [`SplitMix64`] at
    /// `seed`.
    pub fn seeded(seed: u64) -> Xoshiro256StarStar {
        let mut sm = SplitMix64::new(seed);
        Xoshiro256StarStar([sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()])
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound` (`bound > 0`) by Lemire's multiply-and-reject method
    /// (D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29, 2019):
    /// the high word of `x · bound`, redrawing `x` in the rare case whose low word falls below
    /// `2^64 mod bound`, so that no value is favoured.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(bound);
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (m >> 64) as u64
    }

    /// Two uniform integers in `0..bound` (`bound > 0`) from one 64-bit output: its high half,
    /// then its low half, each by Lemire's method on 32 bits. A half that must be rejected is
    /// redrawn from a fresh output's high half (the low half of that output is dropped).
    pub fn below_u32_pair(&mut self, bound: u32) -> (u32, u32) {
        let x = self.next_u64();
        let first = self.fit_u32((x >> 32) as u32, bound);
        let second = self.fit_u32(x as u32, bound);
        (first, second)
    }

    fn fit_u32(&mut self, mut x: u32, bound: u32) -> u32 {
        let mut m = u64::from(x) * u64::from(bound);
        if (m as u32) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u32) < threshold {
                x = (self.next_u64() >> 32) as u32;
                m = u64::from(x) * u64::from(bound);
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::mcnemar_p;

    /// A paired table in Newcombe's order: a (both), b (gained), c (lost), d (neither).
    fn table(both: u64, gained: u64, lost: u64, neither: u64) -> PairedCounts {
        PairedCounts {
            both,
            gained,
            lost,
            neither,
        }
    }

    fn rounded(i: Option<Interval>) -> [f64; 2] {
        i.expect("an interval").rounded().into()
    }

    #[test]
    fn wilson_reproduces_newcombes_single_proportion_examples() {
        // Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison
        // of seven methods", Statistics in Medicine 17:857–872, Table II, method 3 (score).
        assert_eq!(rounded(wilson(81, 263)), [0.2553, 0.3662]);
        assert_eq!(rounded(wilson(15, 148)), [0.0624, 0.1605]);
        assert_eq!(rounded(wilson(0, 20)), [0.0, 0.1611]);
        assert_eq!(rounded(wilson(1, 29)), [0.0061, 0.1718]);
    }

    #[test]
    fn wilson_reproduces_the_contingency_tables_book_example() {
        // Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017),
        // chapter 2: 13 of 16 (Ligarden et al. 2010), Wilson score 0.5699 to 0.9341.
        assert_eq!(rounded(wilson(13, 16)), [0.5699, 0.9341]);
    }

    #[test]
    fn wilson_is_none_without_trials_and_pinned_to_the_ends_at_zero_and_all() {
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
        let none = wilson(0, 27).unwrap();
        assert_eq!(none.lo, 0.0);
        let all = wilson(16, 16).unwrap();
        assert_eq!(all.hi, 1.0);
        assert!(all.lo > 0.79 && all.lo < 0.81, "{all:?}");
    }

    #[test]
    fn twelve_of_thirteen_has_the_interval_the_issue_quotes() {
        // "a rate of 12/13 has a 95% interval of roughly 0.67–0.99"
        assert_eq!(wilson(12, 13).unwrap().to_string(), "0.67–0.99");
        assert_eq!(wilson(31, 33).unwrap().to_string(), "0.80–0.98");
    }

    #[test]
    fn newcombe_reproduces_the_published_paired_examples() {
        // Fagerland, Lydersen & Laake (2014), "Recommended tests and confidence intervals for
        // paired binomial proportions", Statistics in Medicine 33:2850–2875, and the book's
        // chapter 8. The difference there is the first margin minus the second, so the
        // "gained" cell is n12 and the "lost" cell n21.
        // Airway hyper-responsiveness (Bentur et al. 2009): 1, 1, 7, 12 → −0.507 to −0.026.
        let bentur = table(1, 1, 7, 12);
        assert_eq!(rounded(newcombe_paired(bentur)), [-0.5069, -0.0256]);
        // Complete response before and after consolidation therapy (Cavo et al.): 59, 6, 16, 80 → −0.1186 to −0.0046.
        let cavo = table(59, 6, 16, 80);
        assert_eq!(rounded(newcombe_paired(cavo)), [-0.1186, -0.0046]);
        // Newcombe (1998) itself, the worked example a, b, c, d = 12, 9, 2, 21: 0.0112 to 0.2954.
        let newcombe = table(12, 9, 2, 21);
        assert_eq!(rounded(newcombe_paired(newcombe)), [0.0112, 0.2954]);
    }

    #[test]
    fn phi_follows_newcombes_correction_of_the_cross_product() {
        // Bentur: ad − bc = 12 − 7 = 5 lies in [0, n/2 = 10.5], so φ = 0.
        let bentur = table(1, 1, 7, 12);
        assert_eq!(newcombe_phi(bentur), 0.0);
        // Cavo: ad − bc = 4720 − 96 = 4624 > 80.5, reduced to 4543.5.
        let cavo = table(59, 6, 16, 80);
        let expected = 4543.5 / (65.0f64 * 96.0 * 75.0 * 86.0).sqrt();
        assert!((newcombe_phi(cavo) - expected).abs() < 1e-15);
        // A negative cross product is kept.
        let crossed = table(1, 10, 10, 1);
        assert!((newcombe_phi(crossed) - (-99.0 / 121.0)).abs() < 1e-15);
        // An empty margin: φ = 0.
        let flat = table(5, 0, 3, 0);
        assert_eq!(newcombe_phi(flat), 0.0);
    }

    #[test]
    fn a_paired_interval_holds_its_estimate_and_stays_in_range() {
        for both in 0..4 {
            for gained in 0..4 {
                for lost in 0..4 {
                    for neither in 0..4 {
                        let t = PairedCounts {
                            both,
                            gained,
                            lost,
                            neither,
                        };
                        let Some(i) = newcombe_paired(t) else {
                            assert_eq!(t.n(), 0);
                            continue;
                        };
                        let theta = (gained as f64 - lost as f64) / t.n() as f64;
                        assert!(i.contains(theta), "{t:?} {i:?}");
                        assert!(-1.0 <= i.lo && i.hi <= 1.0, "{t:?} {i:?}");
                    }
                }
            }
        }
        assert_eq!(newcombe_paired(PairedCounts::default()), None);
    }

    #[test]
    fn holm_reproduces_the_pingouin_documentation_example() {
        // pingouin.holm's documented example (Vallat, Pingouin, JOSS 2018).
        let adjusted = holm(&[0.50, 0.003, 0.32, 0.054, 0.0003]);
        let expected = [0.64, 0.012, 0.64, 0.162, 0.0015];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
    }

    #[test]
    fn holm_caps_at_one_keeps_order_and_leaves_a_single_test_alone() {
        assert_eq!(holm(&[]), Vec::<f64>::new());
        assert_eq!(holm(&[0.03]), [0.03]);
        assert_eq!(holm(&[0.6, 0.6]), [1.0, 1.0]);
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        assert_eq!(adjusted, [0.03, 0.06, 0.06, 0.02]);
    }

    #[test]
    fn the_smallest_significant_change_is_six_flips_over_n() {
        assert_eq!(min_significant_delta(5), None);
        assert_eq!(min_significant_delta(0), None);
        assert_eq!(min_significant_delta(6), Some(1.0));
        assert_eq!(min_significant_delta(7), Some(0.8571));
        assert_eq!(min_significant_delta(25), Some(0.24));
        // The reason: five one-way flips cannot reach 0.05, six can.
        assert!(mcnemar_p(5, 0) >= 0.05);
        assert!(mcnemar_p(6, 0) < 0.05);
    }

    #[test]
    fn xoshiro_matches_its_reference_stream() {
        // The reference implementation (Blackman & Vigna, xoshiro256starstar.c) started from the
        // state 1, 2, 3, 4 gives 11520, 0, 1509978240, 1215971899390074240.
        let mut g = Xoshiro256StarStar([1, 2, 3, 4]);
        let first: Vec<u64> = (0..4).map(|_| g.next_u64()).collect();
        assert_eq!(first, [11520, 0, 1509978240, 1215971899390074240]);
    }

    #[test]
    fn splitmix_matches_its_reference_stream() {
        // splitmix64.c (Vigna) from seed 1234567: 6457827717110365317, 3203168211198807973.
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }

    #[test]
    fn bounded_draws_cover_the_range_evenly() {
        let mut g = Xoshiro256StarStar::seeded(BOOTSTRAP_SEED);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[g.below(7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert!((0..100).all(|_| g.below(1) == 0));
        let mut counts = [0u32; 7];
        for _ in 0..35_000 {
            let (i, j) = g.below_u32_pair(7);
            counts[i as usize] += 1;
            counts[j as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert!((0..100).all(|_| g.below_u32_pair(1) == (0, 0)));
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
        // repository) gives the same two bounds.
        assert_eq!(<[f64; 2]>::from(a.rounded()), [0.4133, 0.72]);
    }

    #[test]
    fn the_bootstrap_of_nothing_is_none_and_of_a_constant_is_a_point() {
        assert_eq!(percentile_bootstrap_mean(&[]), None);
        let i = percentile_bootstrap_mean(&[0.25; 9]).unwrap();
        assert_eq!((i.lo, i.hi), (0.25, 0.25));
    }

    #[test]
    fn an_interval_is_a_json_pair_and_refuses_a_reversed_one() {
        let i = Interval { lo: 0.25, hi: 0.5 };
        assert_eq!(serde_json::to_string(&i).unwrap(), "[0.25,0.5]");
        assert_eq!(serde_json::from_str::<Interval>("[0.25,0.5]").unwrap(), i);
        assert!(serde_json::from_str::<Interval>("[0.5,0.25]").is_err());
        assert!(serde_json::from_str::<Interval>("[0.5]").is_err());
    }
}
