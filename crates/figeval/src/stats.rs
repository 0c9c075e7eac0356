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
//!
//! One job per file: `interval` (the type, Wilson, Newcombe), `significance` (Holm, McNemar's
//! smallest significant change), `bootstrap` (one mean's interval), `batch` (several, over
//! threads), `binomial` (the bootstrap's draws), `rng` (the generators), `order` (the merge
//! sort and the selection every sort here goes through).

mod batch;
mod binomial;
mod bootstrap;
mod interval;
mod order;
mod rng;
#[cfg(test)]
mod samples;
mod significance;

pub use batch::percentile_bootstrap_means;
pub use binomial::BinomialSampler;
pub use bootstrap::{percentile_bootstrap_mean, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED};
pub use interval::{newcombe_paired, newcombe_phi, wilson, Interval, PairedCounts, Z95};
pub use order::stable_order;
pub use rng::{SplitMix64, Xoshiro256StarStar};
pub use significance::{holm, min_significant_delta};
