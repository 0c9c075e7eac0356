//! The Octave dataset's pages are the physical pages of the real PDF: every figure item's page
//! and every figure note's page carries the figure's caption in the PDF's own text.

use std::process::Command;

use figeval::{Dataset, Group};
use figeval_e2e::{octave_pdf, repo_root, OCTAVE_DATASET, OCTAVE_NOTES};

fn page_text(page: u64) -> String {
    let out = Command::new("pdftotext")
        .args([
            "-f",
            &page.to_string(),
            "-l",
            &page.to_string(),
            "-layout",
            octave_pdf(),
            "-",
        ])
        .output()
        .expect("pdftotext runs (apt-get install poppler-utils)");
    assert!(out.status.success(), "pdftotext failed on page {page}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_figure_item_page_carries_its_caption() {
    let text = std::fs::read_to_string(repo_root().join(OCTAVE_DATASET)).unwrap();
    let d = Dataset::parse(&text).unwrap();
    let mut checked = 0;
    for it in d.items.iter().filter(|it| it.group() != Group::Prose) {
        let caption = format!("{}:", it.figure_ref);
        let on_page = it
            .expected_pages
            .iter()
            .any(|p| page_text(p.get().into()).contains(&caption));
        assert!(
            on_page,
            "{caption} is not printed on pages {:?}",
            it.expected_pages
        );
        checked += 1;
    }
    assert!(checked >= 24, "{checked} figure items");
}

#[test]
fn every_figure_note_page_carries_its_caption() {
    let notes: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join(OCTAVE_NOTES)).unwrap())
            .unwrap();
    for n in &notes {
        let caption = format!("{}:", n["figure_ref"].as_str().unwrap());
        let page = n["page"].as_u64().unwrap();
        assert!(
            page_text(page).contains(&caption),
            "{caption} is not on page {page}"
        );
    }
}
