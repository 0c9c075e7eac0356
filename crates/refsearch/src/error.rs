//! Everything that can stop `refsearch` from starting, and the exit status each one ends with.

use std::path::PathBuf;

use crate::{extract, NotesError};

/// Everything that can stop `refsearch` from starting.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The PDF's text could not be read.
    #[error(transparent)]
    Extract(#[from] extract::ExtractError),
    /// The figure notes are unreadable or do not fit the PDF.
    #[error(transparent)]
    Notes(#[from] NotesError),
    /// The index could not be built.
    #[error("cannot build the search index: {0}")]
    Index(#[from] tantivy::TantivyError),
    /// The PDF has no text to index.
    #[error("the PDF has no extractable text on any of its {0} pages")]
    NoText(usize),
    /// The PDF `refsearch` was started with has no text to index.
    #[error("{pdf} has no text on any of its {pages} pages, in its text layer or by OCR: nothing to index")]
    PdfWithoutText {
        /// The PDF.
        pdf: PathBuf,
        /// Its page count.
        pages: usize,
    },
    /// Options that do not go together.
    #[error("{0}")]
    Usage(String),
    /// The listen address could not be bound or served.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: String,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl Error {
    /// The exit status `refsearch` ends with on this error: 2 for bad input (the PDF, the
    /// figure notes, options that do not go together), 1 for the rest (the index, the listen
    /// address).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Extract(_)
            | Error::Notes(_)
            | Error::NoText(_)
            | Error::PdfWithoutText { .. }
            | Error::Usage(_) => 2,
            Error::Index(_) | Error::Listen { .. } => 1,
        }
    }
}
