//! Captures: reading saved responses in every accepted form and pairing them to items (contract §6).
//!
//! Accepted forms, anywhere a capture is read:
//!
//! - JSON Lines of envelopes `{"question": ..., "response": <body>}` (what `figeval run
//!   --capture` writes; it adds a `request` object with the search parameters);
//! - JSON Lines of bare response bodies, paired by their `query`;
//! - a JSON array of bodies or envelopes;
//! - a single body (or several concatenated), pretty-printed or not.
//!
//! [`CaptureReader`] is the one place that tells these forms apart. It is fed the capture in
//! chunks of any size (a shell streams a file through it; the page feeds its text), reads JSON
//! Lines line by line, so memory grows with the number of items and not with the size of the
//! response bodies, and gathers a document whole. It hands every response to a [`Pairing`].
//!
//! A capture is written one flushed line per answer, so a crash mid-write can leave its last
//! line cut off. That line is expected: the reader drops it and says so ([`CutOff`]), and its
//! item counts as unanswered (a resume asks for it again). A bad line anywhere else is an error.
//!
//! The jobs, one submodule each: the problems ([`CaptureError`]), the line reader
//! ([`CaptureReader`]), the envelope a live run writes, and the pairing ([`Pairing`]).

pub(crate) mod envelope;
mod error;
mod pairing;
mod reader;

pub use error::{CaptureError, CaptureErrors, Source};
pub use pairing::Pairing;
pub(crate) use reader::MAX_LINE_BYTES;
pub use reader::{CaptureRead, CaptureReader, CutOff};

#[cfg(test)]
mod tests;
