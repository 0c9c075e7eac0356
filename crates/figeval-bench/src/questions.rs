//! A large, honest dataset over a real PDF, for the load benchmarks.
//!
//! Every question quotes one line of the PDF's text (as `pdftotext` extracts it) and expects
//! the physical page that line is printed on. Only lines that occur on exactly one page are
//! used, and only lines that read as prose (40–110 characters, at least six words of three or
//! more letters, mostly letters), so each question has one right page and BM25 has real words
//! to work with. The choice is deterministic: pass `k` takes the `k`-th usable line of every
//! page, in page order, until the wanted count is reached; the same PDF gives the same
//! dataset.
//!
//! These are `prose` items (kind `content`, tags `["prose", "load"]`): they load the search
//! path exactly as the figure questions do, and their scores are a by-product, not the point.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

/// Shortest usable line, in characters.
const MIN_CHARS: usize = 40;
/// Longest usable line, in characters.
const MAX_CHARS: usize = 110;
/// Words of three or more letters a usable line must have.
const MIN_WORDS: usize = 6;

/// The text of every page of `pdf` (index 0 is page 1), from `pdftotext`.
pub fn pdf_pages(pdf: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("pdftotext")
        .arg("-enc")
        .arg("UTF-8")
        .arg(pdf)
        .arg("-")
        .output()
        .map_err(|e| format!("cannot run pdftotext (apt-get install poppler-utils): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "pdftotext {} failed: {}",
            pdf.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    // pdftotext ends the last page with a form feed too.
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    Ok(pages)
}

fn normalise(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn reads_as_prose(line: &str) -> bool {
    let chars = line.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return false;
    }
    let words = line
        .split(' ')
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3)
        .count();
    let letters = line
        .chars()
        .filter(|c| c.is_alphabetic() || *c == ' ')
        .count();
    words >= MIN_WORDS && letters * 100 >= chars * 85 && !line.contains('"')
}

/// For every page, its usable lines in reading order (see the module docs).
pub fn usable_lines(pages: &[String]) -> Vec<Vec<String>> {
    let per_page: Vec<Vec<String>> = pages
        .iter()
        .map(|p| {
            let mut seen = Vec::new();
            for line in p.lines().map(normalise) {
                if !line.is_empty() && !seen.contains(&line) {
                    seen.push(line);
                }
            }
            seen
        })
        .collect();
    let mut pages_with: HashMap<&str, usize> = HashMap::new();
    for lines in &per_page {
        for l in lines {
            *pages_with.entry(l.as_str()).or_default() += 1;
        }
    }
    per_page
        .iter()
        .map(|lines| {
            lines
                .iter()
                .filter(|l| pages_with[l.as_str()] == 1 && reads_as_prose(l))
                .cloned()
                .collect()
        })
        .collect()
}

/// A dataset of `count` questions over `pages` (see the module docs), or an error saying how
/// many usable lines there are when that is fewer than `count`.
pub fn dataset(pages: &[String], corpus_id: &str, count: usize) -> Result<Value, String> {
    let lines = usable_lines(pages);
    let available: usize = lines.iter().map(Vec::len).sum();
    if available < count {
        return Err(format!(
            "the PDF has {available} usable lines; {count} questions were asked for"
        ));
    }
    let mut items = Vec::with_capacity(count);
    let mut pass = 0;
    while items.len() < count {
        for (i, page_lines) in lines.iter().enumerate() {
            if items.len() == count {
                break;
            }
            if let Some(line) = page_lines.get(pass) {
                let page = i + 1;
                items.push(json!({
                    "question": format!("Which page of the manual says: \"{line}\"?"),
                    "expected_pages": [page],
                    "figure_ref": format!("page {page}"),
                    "kind": "content",
                    "tags": ["prose", "load"],
                }));
            }
        }
        pass += 1;
    }
    Ok(json!({ "corpus_id": corpus_id, "items": items }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages() -> Vec<String> {
        vec![
            "Chapter 1: Getting Started\nThe quick brown fox jumps over the lazy sleeping dog today\n\
             Repeated header line that shows up on every single page here\n12\n"
                .into(),
            "Repeated header line that shows up on every single page here\n\
             Octave evaluates the expression and prints the answer on the screen\n\
             A second distinct sentence with plenty of ordinary English words\n"
                .into(),
        ]
    }

    #[test]
    fn only_lines_unique_to_one_page_that_read_as_prose_are_used() {
        let lines = usable_lines(&pages());
        assert_eq!(
            lines[0],
            ["The quick brown fox jumps over the lazy sleeping dog today"]
        );
        assert_eq!(lines[1].len(), 2);
        assert!(lines.iter().flatten().all(|l| !l.starts_with("Repeated")));
    }

    #[test]
    fn questions_expect_the_page_their_line_is_on_and_form_a_valid_dataset() {
        let d = dataset(&pages(), "c", 3).unwrap();
        let items = d["items"].as_array().unwrap();
        assert_eq!(items.len(), 3);
        // Pass 0 takes page 1 then page 2; pass 1 takes page 2's second line.
        let pages: Vec<u64> = items
            .iter()
            .map(|i| i["expected_pages"][0].as_u64().unwrap())
            .collect();
        assert_eq!(pages, [1, 2, 2]);
        assert!(items[2]["question"]
            .as_str()
            .unwrap()
            .contains("A second distinct sentence"));
        figeval::Dataset::parse(&d.to_string()).expect("a valid dataset");
    }

    #[test]
    fn asking_for_more_than_the_pdf_has_is_an_error() {
        let e = dataset(&pages(), "c", 4).unwrap_err();
        assert!(e.contains("3 usable lines"), "{e}");
    }
}
