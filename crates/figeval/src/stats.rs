//! How sure a number is: intervals on rates and MRR, the paired interval of a change, and the
//! multiplicity adjustment of many comparisons.
//!
//! Every function here is pure and deterministic. The bootstrap draws from a fixed, documented
//! generator (xoshiro256** seeded from the ASCII bytes of `figeval`, contract §5.1), so the
//! same records give the same interval natively and on `wasm32-unknown-unknown`: IEEE-754
//! arithmetic is the same on both, and nothing here reads a clock or the platform's randomness.
//!
//! Only [`Interval`] is public: the reports carry the intervals, and the statistics that make
//! them are the crate's own. Each is named after its method, with the paper in its doc comment
//! and a test on the paper's worked example:
//!
//! - `wilson`: the Wilson score interval of a single proportion (Wilson 1927).
//! - `percentile_bootstrap_mean`: the percentile bootstrap interval of a mean (Efron 1979).
//! - `newcombe_paired`: Newcombe's square-and-add interval for a paired difference of
//!   proportions (Newcombe 1998, method 10).
//! - `holm`: Holm's step-down adjustment of p-values (Holm 1979).
//! - `min_significant_delta`: the smallest change the exact McNemar test could call
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

pub use interval::Interval;
/// The page's item list sorts with it too, so that the browser bundle carries no
/// standard-library sort; not core API.
#[doc(hidden)]
pub use order::stable_order;

pub(crate) use batch::percentile_bootstrap_means;
pub(crate) use bootstrap::percentile_bootstrap_mean;
pub(crate) use interval::{newcombe_paired, wilson, PairedCounts};
pub(crate) use significance::{holm, min_significant_delta};
