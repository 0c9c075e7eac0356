//! Test samples shaped like a report's values, drawn from a fixed seed.

use super::rng::Xoshiro256StarStar;

/// Reciprocal ranks as a report has them: 1/r for r in 1..=10, or 0.
pub(crate) fn reciprocal_ranks(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Xoshiro256StarStar::seeded(seed);
    (0..n)
        .map(|_| match rng.below(14) {
            r @ 0..=9 => 1.0 / (r + 1) as f64,
            _ => 0.0,
        })
        .collect()
}

/// nDCG@10 of items with one to three expected pages, each ranked 1 to 10 or missed, as a
/// report computes it: many distinct values, most of them rare.
pub(crate) fn ndcg_values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Xoshiro256StarStar::seeded(seed);
    (0..n)
        .map(|_| {
            let pages = 1 + rng.below(3) as usize;
            let ranks: Vec<u32> = (0..pages).map(|_| rng.below(13) as u32).collect();
            crate::score::ranking_values(&ranks)[1]
        })
        .collect()
}
