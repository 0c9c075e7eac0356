//! The text of every physical page of a PDF, from poppler's `pdftotext`.
//!
//! The one way natively to get a PDF's page text, shared by the `figeval` command line
//! (`figeval ground`, `figeval captions`) and the `refsearch` reference deployment, which must
//! not depend on figeval. Page `n` is index `n - 1`: poppler ends every page, blank ones
//! included, with a form feed, and the count must equal `pdfinfo`'s `Pages:`, or the pages
//! would be numbered wrong.
//!
//! Why `pdftotext` and not a pure-Rust crate: measured on the GNU Octave manual (1158 pages,
//! 29 figure captions), see the figeval README's "Check a dataset against its PDF".

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

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
    /// A poppler tool is not installed.
    #[error(
        "`{tool}` was not found on PATH: install poppler-utils (apt-get install poppler-utils)"
    )]
    ToolMissing {
        /// `pdftotext` or `pdfinfo`.
        tool: &'static str,
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
    /// `pdfinfo` printed no usable `Pages:` line.
    #[error("`pdfinfo` printed no `Pages:` line for {0}")]
    NoPageCount(PathBuf),
    /// The PDF has no pages.
    #[error("{0} has no pages")]
    NoPages(PathBuf),
    /// `pdftotext` did not produce one form feed per page, so pages cannot be numbered.
    #[error(
        "`pdftotext -f {first} -l {last}` produced {found} pages but pdfinfo says the range has {expected}; page numbers would be wrong"
    )]
    PageCountMismatch {
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

/// The text of every physical page of `pdf`, index 0 holding page 1.
///
/// Runs `pdfinfo` for the page count, then `pdftotext -layout -enc UTF-8` over
/// contiguous page ranges, one process per available core, and splits the output
/// on form feeds (poppler ends every page, blank ones included, with `\f`). The
/// page count of every range must match `pdfinfo`, else numbering would drift.
pub fn extract_pages(pdf: &Path) -> Result<Vec<String>, ExtractError> {
    if !pdf.is_file() {
        return Err(ExtractError::PdfMissing(pdf.to_path_buf()));
    }
    std::fs::File::open(pdf).map_err(|source| ExtractError::Unreadable {
        pdf: pdf.to_path_buf(),
        source,
    })?;
    let page_count = pdf_page_count(pdf)?;
    if page_count == 0 {
        return Err(ExtractError::NoPages(pdf.to_path_buf()));
    }
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8);
    let ranges = page_ranges(page_count, workers);
    let results: Vec<Result<Vec<String>, ExtractError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .iter()
            .map(|&(first, last)| scope.spawn(move || extract_range(pdf, first, last)))
            .collect();
        handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    let mut pages = Vec::with_capacity(page_count as usize);
    for result in results {
        pages.extend(result?);
    }
    Ok(pages)
}

/// The `Pages:` count `pdfinfo` reports for `pdf`.
pub fn pdf_page_count(pdf: &Path) -> Result<u32, ExtractError> {
    let stdout = run_tool("pdfinfo", Command::new("pdfinfo").arg(pdf), pdf)?;
    parse_pdfinfo_pages(&stdout).ok_or_else(|| ExtractError::NoPageCount(pdf.to_path_buf()))
}

/// The page count in `pdfinfo` output (`Pages:          1158`).
pub fn parse_pdfinfo_pages(pdfinfo_output: &str) -> Option<u32> {
    pdfinfo_output
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|count| count.trim().parse().ok())
}

/// Splits `pdftotext` output into pages: one per form feed, the trailing empty
/// remainder dropped. Text after the last form feed (none from poppler) is kept
/// as a final page so that a miscount shows up instead of vanishing.
pub fn split_pages(text: &str) -> Vec<String> {
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    if pages.last().is_some_and(|last| last.is_empty()) {
        pages.pop();
    }
    pages
}

/// `count` pages cut into at most `parts` contiguous, inclusive, 1-based ranges.
fn page_ranges(count: u32, parts: usize) -> Vec<(u32, u32)> {
    let parts = (parts as u32).clamp(1, count.max(1));
    let base = count / parts;
    let extra = count % parts;
    let mut ranges = Vec::with_capacity(parts as usize);
    let mut first = 1;
    for part in 0..parts {
        let len = base + u32::from(part < extra);
        ranges.push((first, first + len - 1));
        first += len;
    }
    ranges
}

fn extract_range(pdf: &Path, first: u32, last: u32) -> Result<Vec<String>, ExtractError> {
    let mut command = Command::new("pdftotext");
    command
        .args(["-layout", "-enc", "UTF-8", "-f"])
        .arg(first.to_string())
        .arg("-l")
        .arg(last.to_string())
        .arg(pdf)
        .arg("-");
    let text = run_tool("pdftotext", &mut command, pdf)?;
    let pages = split_pages(&text);
    let expected = last - first + 1;
    if pages.len() != expected as usize || !text.ends_with('\u{c}') {
        return Err(ExtractError::PageCountMismatch {
            first,
            last,
            expected,
            found: pages.len(),
        });
    }
    Ok(pages)
}

fn run_tool(tool: &'static str, command: &mut Command, pdf: &Path) -> Result<String, ExtractError> {
    let output = command.output().map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            ExtractError::ToolMissing { tool }
        } else {
            ExtractError::Spawn { tool, source }
        }
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("Incorrect password") {
            return Err(ExtractError::Encrypted(pdf.to_path_buf()));
        }
        if tool == "pdfinfo" && stderr.contains("Syntax Error") {
            return Err(ExtractError::NotPdf {
                pdf: pdf.to_path_buf(),
                detail: stderr
                    .lines()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join("; ")
                    .chars()
                    .take(300)
                    .collect(),
            });
        }
        return Err(ExtractError::ToolFailed {
            tool,
            pdf: pdf.to_path_buf(),
            status: output.status.to_string(),
            stderr: stderr.chars().take(500).collect(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_feed_ends_one_page_and_blank_pages_are_kept() {
        assert_eq!(split_pages("one\u{c}\u{c}three\u{c}"), ["one", "", "three"]);
    }

    #[test]
    fn text_after_the_last_form_feed_counts_as_a_page() {
        assert_eq!(split_pages("one\u{c}tail").len(), 2);
    }

    #[test]
    fn pdfinfo_page_count_is_read_from_the_pages_line() {
        let out = "Title: x\nPages:           1158\nEncrypted: no\n";
        assert_eq!(parse_pdfinfo_pages(out), Some(1158));
        assert_eq!(parse_pdfinfo_pages("Title: x\n"), None);
    }

    #[test]
    fn page_ranges_cover_every_page_once_in_order() {
        for count in [1, 2, 3, 7, 1158] {
            for parts in [1, 2, 3, 8] {
                let ranges = page_ranges(count, parts);
                assert_eq!(ranges.first().map(|r| r.0), Some(1));
                assert_eq!(ranges.last().map(|r| r.1), Some(count));
                for pair in ranges.windows(2) {
                    assert_eq!(pair[0].1 + 1, pair[1].0);
                }
                assert!(ranges.iter().all(|(a, b)| a <= b));
            }
        }
    }

    #[test]
    fn a_missing_pdf_is_reported_by_path() {
        let err = extract_pages(Path::new("/nonexistent/x.pdf")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.pdf"), "{err}");
    }

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(name)
    }

    #[test]
    fn a_password_protected_pdf_is_reported_as_encrypted() {
        let err = extract_pages(&fixture("password.pdf")).unwrap_err();
        assert!(matches!(err, ExtractError::Encrypted(_)), "{err:?}");
        assert!(err.to_string().contains("needs a password"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_pdf_is_reported_as_such() {
        let dir = std::env::temp_dir().join(format!("pagetext-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("notes.pdf");
        std::fs::write(&path, "just some text, not a PDF\n").unwrap();
        let err = extract_pages(&path).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(err, ExtractError::NotPdf { .. }), "{err:?}");
        assert!(err.to_string().contains("is not a readable PDF"), "{err}");
    }

    #[test]
    fn a_folder_is_not_a_pdf() {
        let err = extract_pages(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err();
        assert!(matches!(err, ExtractError::PdfMissing(_)), "{err:?}");
    }
}
