//! What a change among many can be called: Holm's adjustment of several p-values, and the
//! smallest change the exact McNemar test could call significant.

use super::order::stable_order;
use crate::decimal::round4;

/// Holm's step-down adjustment (S. Holm, "A simple sequentially rejective multiple test
/// procedure", Scandinavian Journal of Statistics 6, 1979) of `m` p-values, returned in the
/// order given.
///
/// Sorted ascending, the `i`-th smallest (from 1) becomes `max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎)`,
/// so an adjusted p-value never falls below a smaller one's. Ties keep their given order.
pub(crate) fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let order = stable_order(m, &|a, b| p_values[a].total_cmp(&p_values[b]).is_lt());
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
pub(crate) fn min_significant_delta(n: u64) -> Option<f64> {
    (n >= 6).then(|| round4(6.0 / n as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::mcnemar_p;

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
}
