//! The text layer: `pdftotext -layout` over contiguous page ranges, one process per core,
//! split on form feeds, each range's page count checked against `pdfinfo`'s.

use std::path::Path;
use std::process::Command;

use crate::probe::pdf_page_count;
use crate::tool::{run_tool, tool_limit, workers};
use crate::ExtractError;

/// The text layer of every physical page of `pdf`, index 0 holding page 1 (no OCR: see
/// [`read_pages`](crate::read_pages)).
///
/// Runs `pdfinfo` for the page count, then `pdftotext -layout -enc UTF-8` over
/// contiguous page ranges, one process per available core, and splits the output
/// on form feeds (poppler ends every page, blank ones included, with `\f`). The
/// page count of every range must match `pdfinfo`, else numbering would drift.
pub fn extract_pages(pdf: &Path) -> Result<Vec<String>, ExtractError> {
    if !pdf.is_file() {
        return Err(ExtractError::PdfMissing(pdf.to_path_buf()));
    }
    let file = std::fs::File::open(pdf).map_err(|source| ExtractError::Unreadable {
        pdf: pdf.to_path_buf(),
        source,
    })?;
    let size = file
        .metadata()
        .map_err(|source| ExtractError::Unreadable {
            pdf: pdf.to_path_buf(),
            source,
        })?
        .len();
    if size == 0 {
        return Err(ExtractError::NotPdf {
            pdf: pdf.to_path_buf(),
            detail: "the file is empty (0 bytes)".into(),
        });
    }
    let page_count = pdf_page_count(pdf)?;
    if page_count == 0 {
        return Err(ExtractError::NoPages(pdf.to_path_buf()));
    }
    let ranges = page_ranges(page_count, workers());
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
    let text = run_tool("pdftotext", &mut command, pdf, tool_limit(last - first + 1))?;
    let pages = split_pages(&text);
    let expected = last - first + 1;
    if pages.len() != expected as usize || !text.ends_with('\u{c}') {
        return Err(ExtractError::PageCountMismatch {
            pdf: pdf.to_path_buf(),
            first,
            last,
            expected,
            found: pages.len(),
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn each_form_feed_ends_one_page_and_blank_pages_are_kept() {
        assert_eq!(split_pages("one\u{c}\u{c}three\u{c}"), ["one", "", "three"]);
    }

    #[test]
    fn text_after_the_last_form_feed_counts_as_a_page() {
        assert_eq!(split_pages("one\u{c}tail").len(), 2);
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
    fn an_empty_file_is_not_a_pdf() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.pdf");
        std::fs::write(&path, "").unwrap();
        let err = extract_pages(&path).unwrap_err();
        assert!(matches!(err, ExtractError::NotPdf { .. }), "{err:?}");
        assert!(err.to_string().contains("the file is empty"), "{err}");
    }

    #[test]
    fn a_folder_is_not_a_pdf() {
        let err = extract_pages(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err();
        assert!(matches!(err, ExtractError::PdfMissing(_)), "{err:?}");
    }
}
