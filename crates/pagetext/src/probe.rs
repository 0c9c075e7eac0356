//! What poppler's `pdfinfo` and `pdfimages` say about a PDF: its page count, the size of its
//! pages, and which pages carry an image.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use crate::tool::{run_tool, tool_limit};
use crate::ExtractError;

/// The `Pages:` count `pdfinfo` reports for `pdf`.
pub fn pdf_page_count(pdf: &Path) -> Result<u32, ExtractError> {
    let stdout = run_tool(
        "pdfinfo",
        Command::new("pdfinfo").arg(pdf),
        pdf,
        tool_limit(0),
    )?;
    parse_pdfinfo_pages(&stdout).ok_or_else(|| ExtractError::NoPageCount(pdf.to_path_buf()))
}

/// The page count in `pdfinfo` output (`Pages:          1158`).
pub fn parse_pdfinfo_pages(pdfinfo_output: &str) -> Option<u32> {
    pdfinfo_output
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|count| count.trim().parse().ok())
}

/// The pages among `pages` (1-based, ascending) that carry at least one image, from
/// `pdfimages -list` over the runs of consecutive pages.
pub(crate) fn pages_with_images(pdf: &Path, pages: &[u32]) -> Result<BTreeSet<u32>, ExtractError> {
    let mut found = BTreeSet::new();
    for listing in over_runs("pdfimages", &["-list"], pdf, pages)? {
        found.extend(parse_pdfimages_pages(&listing));
    }
    Ok(found)
}

/// The page numbers in `pdfimages -list` output (the first column after two header lines).
fn parse_pdfimages_pages(listing: &str) -> BTreeSet<u32> {
    listing
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

/// The longest side in points of each page among `pages`, from `pdfinfo -f -l`.
pub(crate) fn page_sizes(pdf: &Path, pages: &[u32]) -> Result<Vec<(u32, f64)>, ExtractError> {
    let mut sizes = Vec::new();
    for listing in over_runs("pdfinfo", &[], pdf, pages)? {
        sizes.extend(parse_page_sizes(&listing));
    }
    Ok(sizes)
}

/// What `tool args -f FIRST -l LAST pdf` prints for each run of consecutive pages among `pages`.
fn over_runs(
    tool: &'static str,
    args: &[&str],
    pdf: &Path,
    pages: &[u32],
) -> Result<Vec<String>, ExtractError> {
    runs(pages)
        .into_iter()
        .map(|(first, last)| {
            let mut command = Command::new(tool);
            command
                .args(args)
                .args(["-f", &first.to_string(), "-l", &last.to_string()])
                .arg(pdf);
            run_tool(tool, &mut command, pdf, tool_limit(last - first + 1))
        })
        .collect()
}

/// `Page    1 size:  612 x 792 pts (letter)` lines as (page, longest side in points).
fn parse_page_sizes(pdfinfo_output: &str) -> Vec<(u32, f64)> {
    pdfinfo_output
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Page")?;
            let (number, size) = rest.split_once("size:")?;
            let number: u32 = number.trim().parse().ok()?;
            let mut sides = size.split_whitespace();
            let width: f64 = sides.next()?.parse().ok()?;
            let height: f64 = sides.nth(1)?.parse().ok()?;
            Some((number, width.max(height)))
        })
        .collect()
}

/// Ascending page numbers as runs of consecutive pages (first, last).
fn runs(pages: &[u32]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &n in pages {
        match runs.last_mut() {
            Some(run) if run.1 + 1 == n => run.1 = n,
            _ => runs.push((n, n)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfinfo_page_count_is_read_from_the_pages_line() {
        let out = "Title: x\nPages:           1158\nEncrypted: no\n";
        assert_eq!(parse_pdfinfo_pages(out), Some(1158));
        assert_eq!(parse_pdfinfo_pages("Title: x\n"), None);
    }

    #[test]
    fn pdfimages_listing_gives_the_pages_with_images() {
        let out = "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio\n\
            --------------------------------------------------------------------------------------------\n\
               1     0 image     876   951  rgb     3   8  image  no         7  0   452   452 51.3K 2.1%\n\
               3     1 image     876   951  rgb     3   8  image  no         8  0   452   452 51.3K 2.1%\n";
        assert_eq!(parse_pdfimages_pages(out), BTreeSet::from([1, 3]));
    }

    #[test]
    fn page_sizes_are_read_as_their_longest_side() {
        let out = "Page    1 size:  612 x 792 pts (letter)\nPage    2 size:  9000 x 300.5 pts\nFile size: 9 bytes\n";
        assert_eq!(parse_page_sizes(out), [(1, 792.0), (2, 9000.0)]);
    }

    #[test]
    fn consecutive_pages_make_one_run() {
        assert_eq!(runs(&[1, 2, 3, 7, 9, 10]), [(1, 3), (7, 7), (9, 10)]);
        assert!(runs(&[]).is_empty());
    }
}
