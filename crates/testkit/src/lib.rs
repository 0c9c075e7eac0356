//! What the workspace's tests, benchmarks and tasks share, so each exists once:
//!
//! - [`manual`]: where the GNU Octave manual is (`FIGEVAL_OCTAVE_PDF`) and whether it is the
//!   exact PDF the tests are written for (its SHA-256);
//! - [`refsearch`]: starting `refsearch` and reading its `listening on` line;
//! - [`serve`]: the same for `figeval serve`, its log lines kept;
//! - [`postgres`]: a PostgreSQL cluster of the tests' own under the target folder, one per
//!   test binary, a database per test, never left running;
//! - [`expect`]: running a command and checking its exit status and output, with the
//!   command's stderr in every failure; [`expect_within`], the same with a hang detector;
//! - [`Rng`]: a seeded generator for synthetic data (the benchmarks' files, the ranx check's).
//!
//! It depends on nothing of the workspace: `refsearch` takes it as a dev-dependency and must
//! never depend on `figeval`. The browser tests have the same pieces in
//! `tests/browser/support.mjs`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod expect;
pub mod manual;
pub mod postgres;
pub mod refsearch;
mod rng;
pub mod serve;

pub use expect::{expect, expect_within, Outcome};
pub use rng::Rng;
