//! Running poppler's tools on a PDF: how many at once, within what time limit, and what their
//! failures mean in words (a password, no pages, not a PDF, a missing package).

use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::{child, ExtractError};

/// How many tool processes read one PDF at once: one per core, at most 8.
pub(crate) fn workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8)
}

/// The Debian package a tool comes from.
pub(crate) fn package_of(tool: &str) -> &'static str {
    match tool {
        "tesseract" => "tesseract-ocr tesseract-ocr-eng",
        _ => "poppler-utils",
    }
}

/// A tool that could not be started: not installed (with the package to install), or another
/// operating-system error.
pub(crate) fn spawn_failure(tool: &'static str, source: io::Error) -> ExtractError {
    if source.kind() == io::ErrorKind::NotFound {
        ExtractError::ToolMissing {
            tool,
            package: package_of(tool),
        }
    } else {
        ExtractError::Spawn { tool, source }
    }
}

/// How long one poppler call over `pages` pages may run before the PDF is taken to stall it:
/// a minute, and 50 ms a page. `pdftotext -layout` reads the Octave manual's 1158 pages in
/// 3.6 s here (3 ms a page), so the limit is far from any real document's time.
pub fn tool_limit(pages: u32) -> Duration {
    Duration::from_secs(60) + Duration::from_millis(50) * pages
}

/// Runs `command` with no input and its output captured, killing it past `limit`: `Ok(None)`
/// then. For the other tools a shell runs on a PDF (qpdf's page labels), under [`tool_limit`].
pub fn output_within(
    command: &mut Command,
    limit: Duration,
) -> io::Result<Option<std::process::Output>> {
    child::output_within(command, limit)
}

/// Runs a poppler `tool` on `pdf` within `limit` and gives its stdout, or its failure in words
/// (a password, no pages, not a PDF, the start of its stderr).
pub(crate) fn run_tool(
    tool: &'static str,
    command: &mut Command,
    pdf: &Path,
    limit: Duration,
) -> Result<String, ExtractError> {
    let Some(output) =
        child::output_within(command, limit).map_err(|source| spawn_failure(tool, source))?
    else {
        return Err(ExtractError::TimedOut {
            tool,
            pdf: pdf.to_path_buf(),
            seconds: limit.as_secs(),
        });
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("Incorrect password") {
            return Err(ExtractError::Encrypted(pdf.to_path_buf()));
        }
        if tool == "pdfinfo" && stderr.contains("Invalid page count 0") {
            return Err(ExtractError::NoPages(pdf.to_path_buf()));
        }
        if tool == "pdfinfo" && stderr.contains("Syntax Error") {
            return Err(ExtractError::NotPdf {
                pdf: pdf.to_path_buf(),
                detail: poppler_complaint(&stderr),
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

/// What poppler said about a PDF it could not open, for a message: its first two distinct
/// lines (poppler repeats itself), without the `Command Line Error` that follows from them
/// (`Wrong page range given`), at most 300 characters, and why that usually happens.
fn poppler_complaint(stderr: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in stderr.lines().map(str::trim) {
        if !line.is_empty() && !line.starts_with("Command Line Error") && !lines.contains(&line) {
            lines.push(line);
        }
    }
    let mut said: String = lines[..lines.len().min(2)]
        .join("; ")
        .chars()
        .take(300)
        .collect();
    let damaged = said.contains("trailer dictionary") || said.contains("xref table");
    if damaged && !said.contains("May not be a PDF") {
        said.push_str(" (the file is cut short or damaged)");
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poppler_call_past_its_limit_is_an_error_that_names_the_tool_and_the_pdf() {
        let err = run_tool(
            "pdftotext",
            Command::new("sleep").arg("30"),
            Path::new("/data/slow.pdf"),
            Duration::from_secs(1),
        )
        .expect_err("killed at its limit");
        assert_eq!(
            err.to_string(),
            "`pdftotext` took longer than 1 s on /data/slow.pdf and was stopped: the PDF is \
             damaged or built to stall a reader"
        );
        assert_eq!(tool_limit(1158), Duration::from_millis(60_000 + 57_900));
    }

    #[test]
    fn poppler_complaints_are_quoted_once_without_what_follows_from_them() {
        let truncated = "Syntax Error: Couldn't find trailer dictionary\nSyntax Error: Couldn't find trailer dictionary\nSyntax Error: Couldn't read xref table\n";
        assert_eq!(
            poppler_complaint(truncated),
            "Syntax Error: Couldn't find trailer dictionary; Syntax Error: Couldn't read xref table (the file is cut short or damaged)"
        );
        let lying = "Syntax Error: Page count (1000000) larger than number of objects (8)\nCommand Line Error: Wrong page range given: the first page (1) can not be after the last page (0).\n";
        assert_eq!(
            poppler_complaint(lying),
            "Syntax Error: Page count (1000000) larger than number of objects (8)"
        );
        let text = "Syntax Warning: May not be a PDF file (continuing anyway)\nSyntax Error: Couldn't find trailer dictionary\n";
        assert!(!poppler_complaint(text).contains("cut short"));
    }
}
