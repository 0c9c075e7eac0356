//! Why the text of a PDF could not be read: one error type for every tool the crate runs.

use std::io;
use std::path::PathBuf;

/// Why the text of a PDF could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// The PDF file does not exist.
    #[error("PDF not found: {0}")]
    PdfMissing(PathBuf),
    /// The PDF file exists but cannot be opened.
    #[error("cannot read {pdf}: {source}")]
    Unreadable {
        /// The PDF.
        pdf: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The PDF needs a password to be opened.
    #[error(
        "{0} is encrypted and needs a password to open; decrypt it first (for example `qpdf --password=... --decrypt in.pdf out.pdf`)"
    )]
    Encrypted(PathBuf),
    /// The file is not a PDF poppler can read.
    #[error("{pdf} is not a readable PDF: {detail}")]
    NotPdf {
        /// The file.
        pdf: PathBuf,
        /// The start of what poppler said.
        detail: String,
    },
    /// A tool is not installed.
    #[error("`{tool}` was not found on PATH: install {package} (apt-get install {package})")]
    ToolMissing {
        /// `pdftotext`, `pdfinfo`, `pdfimages`, `pdftoppm` or `tesseract`.
        tool: &'static str,
        /// The Debian package that has it.
        package: &'static str,
    },
    /// A poppler tool could not be started for another reason.
    #[error("could not run `{tool}`: {source}")]
    Spawn {
        /// `pdftotext` or `pdfinfo`.
        tool: &'static str,
        /// The operating system's error.
        source: io::Error,
    },
    /// A poppler tool exited with a failure status.
    #[error("`{tool}` failed on {pdf} ({status}): {stderr}")]
    ToolFailed {
        /// `pdftotext` or `pdfinfo`.
        tool: &'static str,
        /// The PDF it was run on.
        pdf: PathBuf,
        /// Its exit status.
        status: String,
        /// The start of what it wrote on stderr.
        stderr: String,
    },
    /// A poppler tool ran past its time limit ([`tool_limit`](crate::tool_limit)) and was killed: a broken or
    /// hostile PDF, not a slow one.
    #[error("`{tool}` took longer than {seconds} s on {pdf} and was stopped: the PDF is damaged or built to stall a reader")]
    TimedOut {
        /// `pdftotext`, `pdfinfo` or `pdfimages`.
        tool: &'static str,
        /// The PDF it was run on.
        pdf: PathBuf,
        /// Its time limit, in seconds.
        seconds: u64,
    },
    /// `pdfinfo` printed no usable `Pages:` line.
    #[error("`pdfinfo` printed no `Pages:` line for {0}")]
    NoPageCount(PathBuf),
    /// The PDF has no pages.
    #[error("{0} has no pages")]
    NoPages(PathBuf),
    /// `pdftotext` did not produce one form feed per page, so pages cannot be numbered: the
    /// PDF's page count (its page tree's `/Count`) says more pages than it has, or less.
    #[error(
        "{pdf} has a damaged page count: `pdftotext -f {first} -l {last}` found {found} of the {expected} pages pdfinfo counts there; page numbers would be wrong"
    )]
    PageCountMismatch {
        /// The PDF.
        pdf: PathBuf,
        /// First page of the range (1-based).
        first: u32,
        /// Last page of the range (1-based, inclusive).
        last: u32,
        /// Pages in the range, from `pdfinfo`.
        expected: u32,
        /// Form-feed-terminated pages `pdftotext` wrote.
        found: usize,
    },
}
