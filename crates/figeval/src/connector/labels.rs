//! Page labels: the printed page numbers of a PDF (`"xii"`, `"316"`), and the physical page
//! each one is on.
//!
//! The shells read the PDF's `/PageLabels` number tree (natively from the file, in the page
//! through pdf.js); the core turns its ranges into one label per page (PDF 32000-1:2008,
//! §12.4.2) and a label into its page.

use std::collections::HashMap;

use crate::dataset::Page;

/// The numbering style of a label range (`/S`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelStyle {
    /// `D`: decimal, `1 2 3`.
    Decimal,
    /// `R`: upper-case roman, `I II III`.
    UpperRoman,
    /// `r`: lower-case roman, `i ii iii`.
    LowerRoman,
    /// `A`: upper-case letters, `A … Z AA … ZZ AAA`.
    UpperLetters,
    /// `a`: lower-case letters.
    LowerLetters,
}

impl LabelStyle {
    /// The style of a `/S` name (`D`, `R`, `r`, `A`, `a`).
    pub fn from_name(name: &str) -> Option<LabelStyle> {
        match name {
            "D" => Some(LabelStyle::Decimal),
            "R" => Some(LabelStyle::UpperRoman),
            "r" => Some(LabelStyle::LowerRoman),
            "A" => Some(LabelStyle::UpperLetters),
            "a" => Some(LabelStyle::LowerLetters),
            _ => None,
        }
    }

    fn format(self, n: u32) -> String {
        match self {
            LabelStyle::Decimal => n.to_string(),
            LabelStyle::UpperRoman => roman(n),
            LabelStyle::LowerRoman => roman(n).to_ascii_lowercase(),
            LabelStyle::UpperLetters => letters(n),
            LabelStyle::LowerLetters => letters(n).to_ascii_lowercase(),
        }
    }
}

/// Thousands are written as that many `M`s, up to this many: a PDF's `/St` may be any number,
/// and `M` repeated four million times for each page of a hostile file would fill the memory
/// (its fuzz target found it). Letters stop at the same count.
const MOST_REPEATS: u32 = 1000;

fn roman(n: u32) -> String {
    let thousands = n / 1000;
    let mut out = "M".repeat(thousands.min(MOST_REPEATS) as usize);
    let mut n = n % 1000;
    const TABLE: [(u32, &str); 12] = [
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    for (value, digits) in TABLE {
        while n >= value {
            out.push_str(digits);
            n -= value;
        }
    }
    out
}

/// `A`…`Z`, then `AA`…`ZZ`, `AAA`…: the letter repeated ⌈n/26⌉ times, at most
/// [`MOST_REPEATS`].
fn letters(n: u32) -> String {
    if n == 0 {
        return String::new();
    }
    let letter = char::from(b'A' + ((n - 1) % 26) as u8);
    letter
        .to_string()
        .repeat(((n - 1) / 26 + 1).min(MOST_REPEATS) as usize)
}

/// One entry of the `/PageLabels` number tree: from page index `start` (0-based) on, labels
/// are `prefix` followed by the number `first`, `first + 1`, … in `style` (no number when
/// `style` is `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelRange {
    /// The 0-based index of the range's first page.
    pub start: u32,
    /// The numbering style; `None` for labels that are the prefix alone.
    pub style: Option<LabelStyle>,
    /// `/P`, the label prefix.
    pub prefix: String,
    /// `/St`, the number of the range's first page (1 when absent).
    pub first: u32,
}

/// A PDF's page labels: one per physical page, and the page of each label.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageLabels {
    labels: Vec<String>,
    pages: HashMap<String, Page>,
}

impl PageLabels {
    /// The labels of pages 1, 2, … in order. A label printed on two pages maps to the first.
    pub fn new(labels: Vec<String>) -> PageLabels {
        let mut pages = HashMap::with_capacity(labels.len());
        for (i, label) in labels.iter().enumerate() {
            if let Some(p) = Page::new(i as i64 + 1) {
                pages.entry(label.clone()).or_insert(p);
            }
        }
        PageLabels { labels, pages }
    }

    /// The labels of a document of `page_count` pages from its `/PageLabels` ranges (in any
    /// order). Pages before the first range are labelled by their decimal page number, as
    /// readers do when a document has no labels.
    pub fn from_ranges(mut ranges: Vec<LabelRange>, page_count: u32) -> PageLabels {
        ranges.sort_by_key(|r| r.start);
        let mut labels = Vec::with_capacity(page_count as usize);
        for index in 0..page_count {
            let range = ranges.iter().rev().find(|r| r.start <= index);
            labels.push(match range {
                None => (index + 1).to_string(),
                Some(r) => {
                    let n = r.first.saturating_add(index - r.start);
                    let number = r.style.map_or(String::new(), |s| s.format(n));
                    format!("{}{number}", r.prefix)
                }
            });
        }
        PageLabels::new(labels)
    }

    /// The physical page printed with `label`, or `None` when no page has it.
    pub fn page_of(&self, label: &str) -> Option<Page> {
        self.pages.get(label).copied()
    }

    /// The label of physical page `page`.
    pub fn label_of(&self, page: Page) -> Option<&str> {
        self.labels.get(page.get() as usize - 1).map(String::as_str)
    }

    /// How many pages the document has.
    pub fn page_count(&self) -> usize {
        self.labels.len()
    }
}
