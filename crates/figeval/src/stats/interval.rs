//! Intervals on a proportion and on a paired change: the [`Interval`] type, Wilson's score
//! interval of one rate, and Newcombe's square-and-add interval of a paired difference.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::decimal::{self, round4};

/// The 97.5th percentile of the standard normal distribution: the z of every 95% interval here.
pub(crate) const Z95: f64 = 1.959963984540054;

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
                "an interval must be [lo, hi] with lo <= hi, got [{}, {}]",
                decimal::shortest(lo),
                decimal::shortest(hi)
            ))
        }
    }
}

impl fmt::Display for Interval {
    /// Two decimals and an en dash, as the text and Markdown reports print it: `0.80–0.98`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}–{}",
            decimal::fixed(self.lo, 2),
            decimal::fixed(self.hi, 2)
        )
    }
}

/// The Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22, 1927) of `hits` successes in `n` trials at 95%, unrounded;
/// `None` when `n` is 0 (or `hits > n`, which no summary produces).
///
/// `(2x + z² ± z·√(z² + 4x(n−x)/n)) / (2(n + z²))`, with the bound at 0 hits exactly 0 and the
/// bound at `n` hits exactly 1 (the formula reaches them only up to rounding).
pub(crate) fn wilson(hits: u64, n: u64) -> Option<Interval> {
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
pub(crate) struct PairedCounts {
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
    pub(crate) fn n(&self) -> u64 {
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
pub(crate) fn newcombe_paired(t: PairedCounts) -> Option<Interval> {
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
pub(crate) fn newcombe_phi(t: PairedCounts) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn twelve_of_thirteen_has_a_95_percent_interval_of_roughly_0_67_to_0_99() {
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
    fn an_interval_is_a_json_pair_and_refuses_a_reversed_one() {
        let i = Interval { lo: 0.25, hi: 0.5 };
        assert_eq!(serde_json::to_string(&i).unwrap(), "[0.25,0.5]");
        assert_eq!(serde_json::from_str::<Interval>("[0.25,0.5]").unwrap(), i);
        assert!(serde_json::from_str::<Interval>("[0.5,0.25]").is_err());
        assert!(serde_json::from_str::<Interval>("[0.5]").is_err());
    }
}
