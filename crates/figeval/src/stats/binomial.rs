//! Exact binomial draws by inversion from tables of `2^j` trials, each found with a guide table:
//! how the bootstrap draws a resample's counts.

use super::rng::Xoshiro256StarStar;

/// Draws from `Binomial(t, m / r)` for any `t`, by inversion: exact tables of the binomial
/// with `2^j` trials, one per power of two, each drawn by one output of the generator.
///
/// `t` is written in binary and, for each set bit `j` from the lowest, one generator output `x`
/// gives `u = (x >> 11) · 2⁻⁵³` in `[0, 1)`; the draw is the smallest count whose cumulative
/// probability in the `2^j`-trial table exceeds `u` (the table's largest count when rounding
/// leaves none). The draws are added: a sum of independent binomials with the same
/// probability is the binomial of the summed trials.
///
/// The table of `N = 2^j` trials is computed with `+ − × ÷` only (no logarithms, so the same
/// on every platform): weights `w` from the mode `⌊(N+1)p⌋` (clamped to `N`), where `w = 1`,
/// outward by `w(k+1) = w(k) · ((N−k) · ρ / (k+1))` with `ρ = m / (r−m)` and
/// `w(k−1) = w(k) · (k · σ / (N−k+1))` with `σ = (r−m) / m`, each way until a weight falls
/// below 2⁻⁶⁴ (the mode's weight is about `1/√N` of the whole, so the counts left out have
/// a probability below 10⁻¹⁶); then the cumulative sums in ascending count, each divided by
/// the total. Tables are built when first needed.
///
/// The search starts where a guide says (C. Chen, H. Asau, "On generating random variates
/// from an empirical distribution", AIIE Transactions 6, 1974): the top bits of `x` name a
/// slice of `[0, 1)`, and the guide holds, per slice, the count the search would find at the
/// slice's lower end; the search goes up from there. It finds the count the binary search of
/// the cumulative sums would, with about one comparison instead of `log₂` of the table's length.
#[derive(Debug, Clone)]
pub(crate) struct BinomialSampler {
    /// `m / (r − m)`: the odds of a success.
    odds: f64,
    /// `(r − m) / m`: the odds of a failure.
    inverse_odds: f64,
    /// `m / r`.
    p: f64,
    /// The table of `2^j` trials at index `j`, once built.
    tables: Vec<Option<BinomialTable>>,
}

/// The cumulative probabilities of one binomial, over the counts `first ..`, with the guide of
/// its search.
#[derive(Debug, Clone)]
struct BinomialTable {
    first: u64,
    cumulative: Vec<f64>,
    /// Per slice `b` of `[0, 1)` (`b · 2^(shift − 64)` up to the next), the first index whose
    /// cumulative probability exceeds the slice's lower end, at most the last index.
    guide: Vec<u32>,
    /// `64 −` the number of bits that name a slice.
    shift: u32,
}

/// Below this, a weight of a binomial table is left out (2⁻⁶⁴).
const TABLE_TAIL: f64 = 1.0 / 18_446_744_073_709_551_616.0;

impl BinomialSampler {
    /// The sampler of a success probability `m / r`, `0 < m < r`.
    pub(crate) fn new(m: u64, r: u64) -> BinomialSampler {
        debug_assert!(0 < m && m < r);
        let (mf, ff) = (m as f64, (r - m) as f64);
        BinomialSampler {
            odds: mf / ff,
            inverse_odds: ff / mf,
            p: mf / r as f64,
            tables: Vec::new(),
        }
    }

    /// One draw from `Binomial(t, m / r)`.
    pub(crate) fn draw(&mut self, t: u64, rng: &mut Xoshiro256StarStar) -> u64 {
        let mut sum = 0;
        let mut bits = t;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let x = rng.next_u64();
            let u = (x >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
            let table = self.table(j);
            let (cumulative, last) = (&table.cumulative, table.cumulative.len() - 1);
            let mut at = table.guide[(x >> table.shift) as usize] as usize;
            while at < last && cumulative[at] <= u {
                at += 1;
            }
            sum += table.first + at as u64;
        }
        sum
    }

    fn table(&mut self, j: usize) -> &BinomialTable {
        if self.tables.len() <= j {
            self.tables.resize(j + 1, None);
        }
        let (odds, inverse_odds, p) = (self.odds, self.inverse_odds, self.p);
        self.tables[j].get_or_insert_with(|| BinomialTable::new(1u64 << j, p, odds, inverse_odds))
    }
}

impl BinomialTable {
    fn new(trials: u64, p: f64, odds: f64, inverse_odds: f64) -> BinomialTable {
        let mode = (((trials + 1) as f64 * p) as u64).min(trials);
        let mut below = Vec::new(); // weights of mode−1, mode−2, …
        let (mut k, mut w) = (mode, 1.0f64);
        while k > 0 {
            w *= k as f64 * inverse_odds / (trials - k + 1) as f64;
            if w < TABLE_TAIL {
                break;
            }
            below.push(w);
            k -= 1;
        }
        let first = mode - below.len() as u64;
        let mut weights: Vec<f64> = below.into_iter().rev().collect();
        weights.push(1.0);
        let (mut k, mut w) = (mode, 1.0f64);
        while k < trials {
            w *= (trials - k) as f64 * odds / (k + 1) as f64;
            if w < TABLE_TAIL {
                break;
            }
            weights.push(w);
            k += 1;
        }
        let total: f64 = weights.iter().sum();
        let mut running = 0.0;
        let cumulative: Vec<f64> = weights
            .into_iter()
            .map(|w| {
                running += w;
                running / total
            })
            .collect();
        // At least twice as many slices as counts, so that a slice holds about half a count.
        let bits = (usize::BITS - cumulative.len().leading_zeros() + 1).min(53);
        let last = cumulative.len() - 1;
        let mut at = 0;
        let guide = (0..1u64 << bits)
            .map(|b| {
                let lower = b as f64 / (1u64 << bits) as f64;
                while at < last && cumulative[at] <= lower {
                    at += 1;
                }
                at as u32
            })
            .collect();
        BinomialTable {
            first,
            cumulative,
            guide,
            shift: 64 - bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_draws_have_the_binomial_mean_and_variance() {
        let mut rng = Xoshiro256StarStar::seeded(7);
        for (m, r, t) in [
            (1, 2, 1),
            (3, 10, 1_000),
            (1, 97, 12_345),
            (96, 97, 5),
            (2, 3, 100_000),
        ] {
            let mut s = BinomialSampler::new(m, r);
            let p = m as f64 / r as f64;
            let draws: Vec<f64> = (0..20_000).map(|_| s.draw(t, &mut rng) as f64).collect();
            assert!(draws.iter().all(|&d| d <= t as f64));
            let mean = draws.iter().sum::<f64>() / draws.len() as f64;
            let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / draws.len() as f64;
            let (mu, sigma2) = (t as f64 * p, t as f64 * p * (1.0 - p));
            // Five standard errors of the mean, and 5% on the variance.
            assert!(
                (mean - mu).abs() < 5.0 * (sigma2 / 20_000.0).sqrt(),
                "{m}/{r} of {t}: {mean}"
            );
            assert!(
                (var / sigma2 - 1.0).abs() < 0.05,
                "{m}/{r} of {t}: {var} vs {sigma2}"
            );
        }
        let mut s = BinomialSampler::new(1, 3);
        assert_eq!(s.draw(0, &mut rng), 0);
    }

    /// A draw as the procedure is written: a binary search of each table's cumulative sums.
    fn searched_draw(s: &mut BinomialSampler, t: u64, rng: &mut Xoshiro256StarStar) -> u64 {
        let mut sum = 0;
        let mut bits = t;
        while bits != 0 {
            let j = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
            let table = s.table(j);
            let at = table.cumulative.partition_point(|&c| c <= u);
            sum += table.first + at.min(table.cumulative.len() - 1) as u64;
        }
        sum
    }

    #[test]
    fn guided_draws_are_the_binary_searchs_draws_from_the_same_stream() {
        let mut pick = Xoshiro256StarStar::seeded(21);
        for (m, r) in [
            (1, 2),
            (1, 3),
            (3, 10),
            (1, 97),
            (96, 97),
            (1, 100_000),
            (99_999, 100_000),
            (4_395, 10_000),
        ] {
            let (mut guided, mut searched) =
                (BinomialSampler::new(m, r), BinomialSampler::new(m, r));
            let mut a = Xoshiro256StarStar::seeded(m ^ r);
            let mut b = a.clone();
            for _ in 0..20_000 {
                let t = pick.below(1 << 17);
                assert_eq!(
                    guided.draw(t, &mut a),
                    searched_draw(&mut searched, t, &mut b),
                    "{m}/{r} of {t}"
                );
            }
            assert_eq!(
                a.next_u64(),
                b.next_u64(),
                "{m}/{r}: the same outputs taken"
            );
        }
    }

    #[test]
    fn a_binomial_table_sums_to_one_and_holds_the_exact_probabilities() {
        // Binomial(8, 1/4): P(0) = 0.75^8, P(2) = 28 · 0.25² · 0.75⁶.
        let t = BinomialTable::new(8, 0.25, 1.0 / 3.0, 3.0);
        assert_eq!(t.first, 0);
        assert_eq!(t.cumulative.len(), 9);
        assert_eq!(*t.cumulative.last().unwrap(), 1.0);
        assert!((t.cumulative[0] - 0.75f64.powi(8)).abs() < 1e-15);
        let p2 = t.cumulative[2] - t.cumulative[1];
        assert!((p2 - 28.0 * 0.0625 * 0.75f64.powi(6)).abs() < 1e-15);
        // A wide one leaves out only the far tails.
        let wide = BinomialTable::new(1 << 16, 0.5, 1.0, 1.0);
        assert!(wide.first > 30_000 && wide.first + (wide.cumulative.len() as u64) < 35_600);
        assert_eq!(*wide.cumulative.last().unwrap(), 1.0);
    }
}
