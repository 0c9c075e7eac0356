//! Wall-clock time for the report's `run` object (the scoring core has no clock): the
//! server crate's, which stamps stored runs with the same clock.

pub use figeval_server::clock::now_rfc3339;
