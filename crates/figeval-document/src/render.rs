//! Text and Markdown renderings of a ground check (contract §13): `figeval ground` prints
//! them, findings first, each with what to do. Every dataset string in the Markdown is escaped
//! the way the core's renderers escape theirs ([`figeval::render::markdown_escape`]); nothing
//! here recomputes a verdict.

use std::fmt::Write as _;

use figeval::dataset::Page;
use figeval::render::markdown_escape;

use crate::ground::{Ground, ItemGround, Verdict};

/// The start of a question for a listing: at most 70 characters, `…` when cut.
fn question_start(q: &str) -> String {
    figeval::describe::start(q, 70)
}

/// The verdict counts as `ok 30, moved 2, ...`.
fn ground_counts(g: &Ground) -> String {
    let counts: Vec<String> = Verdict::ALL
        .iter()
        .map(|&v| format!("{} {}", v.name(), g.counts.get(v)))
        .collect();
    counts.join(", ")
}

fn pages_text(pages: &[Page]) -> String {
    let list: Vec<String> = pages.iter().map(|p| p.to_string()).collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(",")
    }
}

/// How the pages were read, when any went through OCR or could not be read: `46 of 46 pages
/// read by OCR`, then `; 2 pages could not be read (3,4)`; `None` for a document read from
/// its text layer alone. `figeval ground` and `figeval captions` print it, and the page's
/// caption list says it.
pub fn pages_read(pdf_pages: u32, ocr_pages: u32, unreadable: &[Page]) -> Option<String> {
    if ocr_pages == 0 && unreadable.is_empty() {
        return None;
    }
    let mut note = format!("{ocr_pages} of {pdf_pages} pages read by OCR");
    if !unreadable.is_empty() {
        const LISTED: usize = 20;
        let mut list = pages_text(&unreadable[..unreadable.len().min(LISTED)]);
        if unreadable.len() > LISTED {
            list.push_str(&format!(" and {} more", unreadable.len() - LISTED));
        }
        let _ = write!(
            note,
            "; {} could not be read ({list})",
            figeval::describe::counted(unreadable.len(), "page", "pages")
        );
    }
    Some(note)
}

const NO_FINDINGS: &str = "No findings: every checked item's page carries its caption or heading.";

/// The items with a finding, with their 0-based index.
fn ground_findings(g: &Ground) -> Vec<(usize, &ItemGround)> {
    g.items
        .iter()
        .enumerate()
        .filter(|(_, i)| i.verdict.is_finding())
        .collect()
}

/// A ground check as plain text, for a terminal: the findings first, each with what to do,
/// then the offset and warnings, then the items that passed or were not checked.
pub fn ground_text(g: &Ground, dataset: &str, pdf: &str) -> String {
    ground_text_numbered(g, dataset, pdf, &[])
}

/// [`ground_text`] of the check of part of a dataset: `numbers[i]` is the 1-based number in
/// the dataset of the check's item `i` (its own position when `numbers` is shorter).
pub fn ground_text_numbered(g: &Ground, dataset: &str, pdf: &str, numbers: &[usize]) -> String {
    let num = |i: usize| numbers.get(i).copied().unwrap_or(i + 1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "figeval ground: {dataset} against {pdf} ({} pages)",
        g.pdf_pages
    );
    if let Some(note) = pages_read(g.pdf_pages, g.ocr_pages, &g.unreadable_pages) {
        let _ = writeln!(out, "{note}");
    }
    let findings = ground_findings(g);
    if findings.is_empty() {
        let _ = writeln!(out, "\n{NO_FINDINGS}");
    } else {
        let _ = writeln!(
            out,
            "\nFINDINGS ({} of {} items)",
            findings.len(),
            g.items.len()
        );
        for (i, it) in &findings {
            let _ = writeln!(
                out,
                "  item {} {:?}\n    {} {}: expected {}, found {}, mentioned {}\n    -> {}",
                num(*i),
                question_start(&it.question),
                it.verdict.name(),
                it.figure_ref.escape_debug(),
                pages_text(&it.expected_pages),
                pages_text(&it.found_pages),
                pages_text(&it.mention_pages),
                g.advice(it)
            );
        }
    }
    if let Some(o) = &g.offset {
        let advice = o.advice(g.offset_shifts_unplaced());
        let _ = writeln!(
            out,
            "\nOFFSET {:+} pages ({} items)\n    -> {advice}",
            o.pages, o.items
        );
    }
    for w in &g.warnings {
        let _ = writeln!(out, "\nWARNING {}\n    -> {}", w.code, w.message);
    }
    let rest: Vec<(usize, &ItemGround)> = g
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| !i.verdict.is_finding())
        .collect();
    if !rest.is_empty() {
        let _ = writeln!(out, "\nChecked ok or not checked:");
        for (i, it) in rest {
            let _ = writeln!(
                out,
                "  item {:<3} {:<11} {:<40} p.{}",
                num(i),
                it.verdict.name(),
                it.figure_ref.escape_debug().to_string(),
                pages_text(&it.expected_pages)
            );
        }
    }
    let _ = writeln!(out, "\n{}", ground_counts(g));
    out
}

/// A ground check as Markdown, for a CI job summary: findings first, every dataset string
/// escaped.
pub fn ground_markdown(g: &Ground, dataset: &str, pdf: &str) -> String {
    ground_markdown_numbered(g, dataset, pdf, &[])
}

/// [`ground_markdown`] with the items numbered as [`ground_text_numbered`] does.
pub fn ground_markdown_numbered(g: &Ground, dataset: &str, pdf: &str, numbers: &[usize]) -> String {
    let num = |i: usize| numbers.get(i).copied().unwrap_or(i + 1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## figeval ground: {} against {} ({} pages)\n",
        markdown_escape(dataset),
        markdown_escape(pdf),
        g.pdf_pages
    );
    if let Some(note) = pages_read(g.pdf_pages, g.ocr_pages, &g.unreadable_pages) {
        let _ = writeln!(out, "{note}\n");
    }
    let _ = writeln!(out, "{}\n", ground_counts(g));
    let row = |out: &mut String, i: usize, it: &ItemGround, advice: String| {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            num(i),
            it.verdict.name(),
            markdown_escape(&it.figure_ref),
            pages_text(&it.expected_pages),
            pages_text(&it.found_pages),
            pages_text(&it.mention_pages),
            markdown_escape(&advice)
        );
    };
    let header = "| item | verdict | figure_ref | expected | found | mentioned | what to do |\n|---:|---|---|---|---|---|---|";
    let findings = ground_findings(g);
    if findings.is_empty() {
        let _ = writeln!(out, "{NO_FINDINGS}\n");
    } else {
        let _ = writeln!(out, "### Findings\n\n{header}");
        for (i, it) in &findings {
            row(&mut out, *i, it, g.advice(it));
        }
        out.push('\n');
    }
    if let Some(o) = &g.offset {
        let _ = writeln!(
            out,
            "> **Offset {:+} pages ({} items):** {}\n",
            o.pages,
            o.items,
            markdown_escape(&o.advice(g.offset_shifts_unplaced()))
        );
    }
    for w in &g.warnings {
        let _ = writeln!(out, "> **Warning:** {}\n", markdown_escape(&w.message));
    }
    let _ = writeln!(out, "### All items\n\n{header}");
    for (i, it) in g.items.iter().enumerate() {
        row(&mut out, i, it, g.advice(it));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ground_of(items: serde_json::Value) -> Ground {
        let d =
            figeval::Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": items}))
                .unwrap();
        let pages = [
            "see Figure 1.1",
            "   Figure 1.1: A plot.",
            "   Figure 2.1: Another.",
        ];
        crate::ground(&d, &pages)
    }

    #[test]
    fn ground_renderings_put_findings_first_with_what_to_do() {
        let g = ground_of(serde_json::json!([
            {"question": "fine?", "expected_pages": [3], "figure_ref": "Figure 2.1", "kind": "locate"},
            {"question": "<b>moved</b>?", "expected_pages": [1], "figure_ref": "Figure 1.1 <i>", "kind": "content"},
        ]));
        let text = ground_text(&g, "d.json", "x.pdf");
        let findings = text.find("FINDINGS (1 of 2 items)").expect(&text);
        let ok = text.find("Checked ok").expect(&text);
        assert!(findings < ok, "{text}");
        assert!(
            text.contains("moved Figure 1.1 <i>: expected 1, found 2, mentioned 1"),
            "{text}"
        );
        assert!(
            text.contains("-> the caption of Figure 1.1 <i> is on p.2"),
            "{text}"
        );
        assert!(text.ends_with(
            "ok 1, moved 1, mention_only 0, absent 0, beyond_end 0, not_checked 0, unreadable 0\n"
        ));
        let md = ground_markdown(&g, "d.json", "x.pdf");
        assert!(md.find("### Findings").unwrap() < md.find("### All items").unwrap());
        assert!(!md.contains("<i>") && md.contains("&lt;i&gt;"), "{md}");
        assert!(
            md.contains("| 2 | moved | Figure 1\\.1 &lt;i&gt; | 1 | 2 | 1 | the caption"),
            "{md}"
        );
    }

    #[test]
    fn a_ground_without_findings_says_so() {
        let g = ground_of(serde_json::json!([
            {"question": "fine?", "expected_pages": [3], "figure_ref": "Figure 2.1", "kind": "locate"},
        ]));
        assert!(ground_text(&g, "d", "p").contains("No findings"));
        assert!(ground_markdown(&g, "d", "p").contains("No findings"));
    }
}
