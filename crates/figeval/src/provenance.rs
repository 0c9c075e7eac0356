//! The provenance audit (contract §14.8): is each hit's content printed on the pages it cites?
//!
//! A deployment's text came from its own extractor (pypdf, Docling, an OCR engine), figeval's
//! from poppler; the two differ in reading order, line breaks, hyphenation and ligatures. So a
//! hit is not looked up as a string: its words are cut into shingles (runs of [`SHINGLE`]
//! words, hyphenation and case folded), and the page that shares the most of them is where its
//! text is printed. A hit whose shingles meet no page well enough is not found, and left out.
//!
//! The audit reads page texts, never files: the shells bring them (natively `pagetext`).

use serde::{Deserialize, Serialize};

use crate::connector::PageLabels;
use crate::dataset::Page;
use crate::response::Match;

/// Words in a shingle: long enough that a shingle is rare in a manual (4 common words in a row
/// recur, 5 rarely do), short enough that a 300-character content holds dozens.
pub const SHINGLE: usize = 5;

/// The fewest shingles a hit must have to be checked: a content shorter than this (a caption
/// alone, a heading) is too short to say where it is printed.
pub const MIN_SHINGLES: usize = 4;

/// The least share of a hit's shingles the best page must hold for the hit to count as found
/// there. Another extractor's reading order breaks the shingles that cross a column or a line
/// it joined differently; half of them surviving is the rule.
pub const MIN_SHARE: f64 = 0.5;

/// The fewest misplaced hits that must sit the same number of pages away before that distance
/// is called an offset.
pub(crate) const MIN_OFFSET_HITS: u64 = 3;

/// What is kept of a hit for the audit: the pages it cites and the start of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditHit {
    /// First and last cited page (1-based physical).
    pub pages: (u32, u32),
    /// The start of the hit's content (at most 300 characters), and whether it was cut.
    pub content: String,
    /// Whether `content` is only the start of the hit's content (its last word may be cut).
    pub cut: bool,
    /// The file the hit is in (`file_path`, or a connector's `path`), when it says.
    pub file: Option<String>,
}

/// Every hit of an answer that cites a page and carries content, for
/// [`crate::Pairing::keeping`].
pub fn hits_of(matches: &[Match]) -> Vec<AuditHit> {
    matches
        .iter()
        .filter_map(|m| {
            let span = m.pages?;
            let (content, cut) = m.content.as_ref()?;
            Some(AuditHit {
                pages: (span.start().get(), span.end().get()),
                content: content.clone(),
                cut: *cut,
                file: m.file_path.clone(),
            })
        })
        .collect()
}

/// The shingles of every page of a PDF, for finding where a text is printed.
pub struct PageIndex {
    /// `(shingle hash, 1-based page)`, sorted, each pair once.
    pairs: Vec<(u64, u32)>,
    /// Pages indexed.
    pages: u32,
}

impl PageIndex {
    /// Indexes the texts of a PDF's pages, page 1 first.
    pub fn new<S: AsRef<str>>(pages: &[S]) -> PageIndex {
        let mut pairs = Vec::new();
        for (i, text) in pages.iter().enumerate() {
            let page = i as u32 + 1;
            pairs.extend(
                shingles(text.as_ref(), false)
                    .into_iter()
                    .map(|h| (h, page)),
            );
        }
        // A shingle printed twice on a page counts once: equal pairs sort next to each other.
        pairs.sort_unstable();
        pairs.dedup();
        PageIndex {
            pairs,
            pages: pages.len() as u32,
        }
    }

    /// The number of pages indexed.
    pub fn pages(&self) -> u32 {
        self.pages
    }

    /// Where `hit`'s text is printed: the page sharing the most of its shingles (a cited page
    /// among equals), when it holds at least [`MIN_SHARE`] of them; `None` when the content is
    /// too short ([`MIN_SHINGLES`]) or found nowhere.
    pub fn locate(&self, hit: &AuditHit) -> Option<u32> {
        let mut wanted = shingles(&hit.content, hit.cut);
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.len() < MIN_SHINGLES {
            return None;
        }
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for h in &wanted {
            let from = self.pairs.partition_point(|&(k, _)| k < *h);
            for &(_, page) in self.pairs[from..].iter().take_while(|(k, _)| k == h) {
                match counts.iter_mut().find(|(p, _)| *p == page) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((page, 1)),
                }
            }
        }
        let cited = |p: u32| (hit.pages.0..=hit.pages.1).contains(&p);
        let (page, n) = counts
            .into_iter()
            .max_by_key(|&(p, n)| (n, cited(p), std::cmp::Reverse(p)))?;
        (f64::from(n) >= MIN_SHARE * wanted.len() as f64).then_some(page)
    }
}

/// The shingle hashes of a text: words are runs of letters and digits, lowercased, with a
/// hyphen that ends a line joined to the next word (`hyphen-\nation` is `hyphenation`). With
/// `cut`, the last word is dropped, since it may be only the start of a word.
fn shingles(text: &str, cut: bool) -> Vec<u64> {
    let mut words: Vec<u64> = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
            continue;
        }
        if c == '-' && !word.is_empty() {
            // A hyphen before a line break (spaces aside) joins the word to the next line's.
            let mut ahead = chars.clone();
            while ahead.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
                ahead.next();
            }
            if matches!(ahead.peek(), Some('\n' | '\r')) {
                while ahead.peek().is_some_and(|c| c.is_whitespace()) {
                    ahead.next();
                }
                chars = ahead;
                continue;
            }
        }
        if !word.is_empty() {
            words.push(fnv(&word));
            word.clear();
        }
    }
    if !word.is_empty() && !cut {
        words.push(fnv(&word));
    }
    words
        .windows(SHINGLE)
        .map(|w| w.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, x| mix(h ^ x)))
        .collect()
}

/// FNV-1a of a word.
fn fnv(word: &str) -> u64 {
    word.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A 64-bit finalizer (splitmix64's), so a shingle's hash depends on its words' order.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What the audit found (contract §14.8), as a report states it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Hits with content whose text was found on a page of the PDF.
    pub checked: u64,
    /// Of those, hits whose text is printed on a page they cite.
    pub on_cited_page: u64,
    /// `on_cited_page / checked`, rounded to 4 decimals; `null` when nothing was checked.
    pub rate: Option<f64>,
    /// Hits with content too short to check, or whose text is printed on no page of the PDF.
    pub not_found: u64,
    /// Hits of a corpus of several files whose file is none of the PDFs given (or several of
    /// them): not checked. Not written when there are none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub other_file: u64,
    /// The distance most misplaced hits share, when they do.
    pub offset: Option<ProvenanceOffset>,
}

/// A shared distance between where hits' text is printed and the pages they cite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProvenanceOffset {
    /// The true page minus the cited page: `+1` for 0-based page numbers read as 1-based.
    pub pages: i64,
    /// The misplaced hits at that distance.
    pub hits: u64,
    /// What most likely causes it, in words.
    pub cause: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One PDF of an audit: its pages' shingles and, when known, its printed page labels.
#[derive(Clone, Copy)]
pub struct AuditPdf<'a> {
    /// The PDF's pages.
    pub index: &'a PageIndex,
    /// Its printed page labels: with them an offset whose cited pages are the printed labels
    /// of the true pages is named as such.
    pub labels: Option<&'a PageLabels>,
}

/// Audits every kept hit against one PDF, the corpus (every hit is checked against it,
/// whatever file it names). `labels` are the PDF's printed page labels, when known.
pub fn audit(index: &PageIndex, hits: &[Vec<AuditHit>], labels: Option<&PageLabels>) -> Provenance {
    audit_pdfs(&[AuditPdf { index, labels }], hits, &|_| Some(0))
}

/// Audits every kept hit against the PDF `pdf_of` picks for it (an index into `pdfs`); a hit
/// it picks none for counts as [`Provenance::other_file`]. A corpus of several files picks
/// by the hit's file ([`pdf_of_file`]).
pub fn audit_pdfs(
    pdfs: &[AuditPdf<'_>],
    hits: &[Vec<AuditHit>],
    pdf_of: &dyn Fn(&AuditHit) -> Option<usize>,
) -> Provenance {
    let (mut checked, mut on_cited, mut not_found, mut other_file) = (0u64, 0u64, 0u64, 0u64);
    // (distance, hits, hits whose cited page is the true page's printed label)
    let mut distances: Vec<(i64, u64, u64)> = Vec::new();
    for hit in hits.iter().flatten() {
        let Some(AuditPdf { index, labels }) = pdf_of(hit).and_then(|i| pdfs.get(i)).copied()
        else {
            other_file += 1;
            continue;
        };
        let Some(page) = index.locate(hit) else {
            not_found += 1;
            continue;
        };
        checked += 1;
        let (start, end) = hit.pages;
        if (start..=end).contains(&page) {
            on_cited += 1;
            continue;
        }
        let d = if page < start {
            i64::from(page) - i64::from(start)
        } else {
            i64::from(page) - i64::from(end)
        };
        let label_match = labels
            .zip(Page::new(i64::from(page)))
            .and_then(|(l, p)| l.label_of(p))
            .is_some_and(|l| l == start.to_string());
        match distances.iter_mut().find(|(x, ..)| *x == d) {
            Some((_, n, l)) => {
                *n += 1;
                *l += u64::from(label_match);
            }
            None => distances.push((d, 1, u64::from(label_match))),
        }
    }
    let misplaced = checked - on_cited;
    let offset = distances
        .iter()
        .max_by_key(|(d, n, _)| (*n, std::cmp::Reverse(d.abs())))
        .filter(|(_, n, _)| *n >= MIN_OFFSET_HITS && 2 * *n > misplaced)
        .map(|&(pages, n, labelled)| ProvenanceOffset {
            pages,
            hits: n,
            cause: cause(pages, 2 * labelled > n),
        });
    Provenance {
        checked,
        on_cited_page: on_cited,
        rate: (checked > 0).then(|| crate::round4(on_cited as f64 / checked as f64)),
        not_found,
        other_file,
        offset,
    }
}

/// Audits every kept hit of a dataset of several files (`dataset`'s `expected_locations`)
/// against the PDF that is its file ([`pdf_of_file`]): `pdfs[i]` is the PDF at `pdf_paths[i]`.
/// The command line's `--pdf A --pdf B` and the page's open PDFs audit this way.
pub fn audit_files(
    pdfs: &[AuditPdf<'_>],
    pdf_paths: &[String],
    dataset: &crate::Dataset,
    hits: &[Vec<AuditHit>],
) -> Provenance {
    // Each file's path once: every hit is matched against them.
    let mut locations: Vec<&str> = dataset
        .items
        .iter()
        .flat_map(|i| i.expected_locations.iter().map(|l| l.path.as_str()))
        .collect();
    locations.sort_unstable();
    locations.dedup();
    audit_pdfs(pdfs, hits, &|hit| pdf_of_file(hit, pdf_paths, &locations))
}

/// Which of the PDFs at `pdf_paths` a hit is in, for a corpus of several files: the one whose
/// path is the hit's file, compared on whole trailing path components
/// ([`crate::files::same_file`]) directly or through a path of `dataset_paths` that both are
/// (`store/sheets/A-101.pdf` and `/tmp/sheets/A-101.pdf` are both `sheets/A-101.pdf`).
/// `None` for a hit that names no file, or names one that is none of them or several.
pub fn pdf_of_file(hit: &AuditHit, pdf_paths: &[String], dataset_paths: &[&str]) -> Option<usize> {
    use crate::files::same_file;
    let file = hit.file.as_deref()?;
    let is = |pdf: &str| {
        same_file(pdf, file)
            || dataset_paths
                .iter()
                .any(|l| same_file(file, l) && same_file(pdf, l))
    };
    let mut found = pdf_paths.iter().enumerate().filter(|(_, p)| is(p));
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The likely cause of an offset of `pages` (true minus cited).
fn cause(pages: i64, labelled: bool) -> String {
    if labelled {
        return "printed page labels read as physical pages".into();
    }
    match pages {
        1 => "0-based page numbers read as 1-based".into(),
        -1 => "1-based page numbers read as 0-based".into(),
        _ => format!(
            "the cited pages are {} {} the pages that print the hits' text",
            crate::describe::counted(pages.unsigned_abs() as usize, "page", "pages"),
            if pages > 0 { "before" } else { "after" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE_ONE: &str = "The plot function draws lines between the points it is given, and \
        the axes are scaled to fit every point of the data.";
    const PAGE_TWO: &str = "A histogram counts the values that fall into each of a number of \
        bins and draws one bar for every bin of the data set.";
    const PAGE_THREE: &str = "Contour plots show the level curves of a function of two vari-\n\
        ables over a rectangular grid of points in the plane.";

    fn hit(page: u32, content: &str) -> AuditHit {
        AuditHit {
            pages: (page, page),
            content: content.into(),
            cut: false,
            file: None,
        }
    }

    #[test]
    fn each_hit_of_several_files_is_checked_in_its_own_pdf() {
        let (one, two) = (index(), PageIndex::new(&["", PAGE_ONE]));
        let pdfs = [
            AuditPdf {
                index: &one,
                labels: None,
            },
            AuditPdf {
                index: &two,
                labels: None,
            },
        ];
        let paths = [
            "/tmp/x/sheets/one.pdf".to_string(),
            "/tmp/x/two.pdf".to_string(),
        ];
        let dataset = ["sheets/one.pdf"];
        let in_file = |file: &str, page: u32| AuditHit {
            file: Some(file.into()),
            ..hit(page, PAGE_ONE)
        };
        // one.pdf by way of the dataset's path (the hit's and the PDF's paths part before it);
        // two.pdf directly; a third file; no file.
        let hits = vec![vec![
            in_file("store/corpus/sheets/one.pdf", 1),
            in_file("two.pdf", 2),
            in_file("two.pdf", 1),
            in_file("three.pdf", 1),
            hit(1, PAGE_ONE),
        ]];
        assert_eq!(pdf_of_file(&hits[0][0], &paths, &dataset), Some(0));
        assert_eq!(pdf_of_file(&hits[0][1], &paths, &dataset), Some(1));
        assert_eq!(pdf_of_file(&hits[0][3], &paths, &dataset), None);
        assert_eq!(pdf_of_file(&hits[0][4], &paths, &dataset), None);
        let p = audit_pdfs(&pdfs, &hits, &|h| pdf_of_file(h, &paths, &dataset));
        // Page 1 of one.pdf and page 2 of two.pdf print PAGE_ONE; page 1 of two.pdf does not.
        assert_eq!((p.checked, p.on_cited_page, p.other_file), (3, 2, 2));
        // The audit of a dataset of several files (the CLI's `--pdf A --pdf B`, the page's
        // open PDFs) reads the same paths from the dataset's locations.
        let located = crate::Dataset::parse(
            r#"{"corpus_id": "c", "items": [
                {"question": "Which sheet?", "figure_ref": "A-1", "kind": "locate",
                 "expected_locations": [{"path": "sheets/one.pdf", "unit": "page", "start": 1, "end": 1}]}]}"#,
        )
        .expect("a dataset of one located item");
        assert_eq!(audit_files(&pdfs, &paths, &located, &hits), p);
        // A PDF named by a picked file's name only, or by a path in a chosen folder.
        let as_opened = ["one.pdf".to_string(), "set/two.pdf".to_string()];
        assert_eq!(audit_files(&pdfs, &as_opened, &located, &hits), p);
        // A path that is two of the PDFs picks neither.
        let same = ["a/one.pdf".to_string(), "b/one.pdf".to_string()];
        assert_eq!(pdf_of_file(&in_file("one.pdf", 1), &same, &[]), None);
        // With one PDF, every hit is checked in it, whatever its file; none is written.
        let p = audit(&one, &hits, None);
        assert_eq!((p.checked, p.other_file), (5, 0));
        assert!(!serde_json::to_string(&p).unwrap().contains("other_file"));
    }

    fn index() -> PageIndex {
        PageIndex::new(&[
            PAGE_ONE,
            PAGE_TWO,
            PAGE_THREE,
            "",
            "unrelated words on a page",
        ])
    }

    #[test]
    fn a_hit_is_found_on_the_page_that_prints_it_in_another_extractors_layout() {
        let i = index();
        // Another extractor: line breaks elsewhere, case and punctuation differ.
        let text = "a HISTOGRAM counts the values\nthat fall into each of a number of bins";
        assert_eq!(i.locate(&hit(2, text)), Some(2));
        assert_eq!(
            i.locate(&hit(7, text)),
            Some(2),
            "found wherever it is cited"
        );
        // Hyphenation folded: poppler's "vari-\nables" is the deployment's "variables".
        let joined = "show the level curves of a function of two variables over a rectangular";
        assert_eq!(i.locate(&hit(3, joined)), Some(3));
    }

    #[test]
    fn a_short_or_unknown_content_is_not_found() {
        let i = index();
        assert_eq!(i.locate(&hit(1, "The plot function")), None, "too short");
        let other = "nothing of this sentence is printed anywhere in the little document";
        assert_eq!(i.locate(&hit(1, other)), None);
    }

    #[test]
    fn a_cut_content_drops_its_last_word() {
        let whole = shingles("one two three four five six", false);
        assert_eq!(whole.len(), 2);
        assert_eq!(shingles("one two three four five six", true), whole[..1]);
        assert_eq!(
            shingles("one-\n  two three four five", false).len(),
            0,
            "four words"
        );
        assert_ne!(
            shingles("a b c d e", false),
            shingles("e d c b a", false),
            "order counts"
        );
    }

    #[test]
    fn the_audit_counts_hits_on_their_cited_page_and_names_a_shared_offset() {
        let i = index();
        let right = vec![hit(1, PAGE_ONE), hit(2, PAGE_TWO)];
        let audit_right = audit(&i, std::slice::from_ref(&right), None);
        assert_eq!(
            audit_right,
            Provenance {
                checked: 2,
                on_cited_page: 2,
                rate: Some(1.0),
                not_found: 0,
                other_file: 0,
                offset: None
            }
        );
        // 0-based pages read as 1-based: every hit cites the page before its own.
        let off_by_one = vec![
            vec![hit(0, PAGE_ONE), hit(1, PAGE_TWO)],
            vec![hit(2, PAGE_THREE), hit(2, "unrelated words on a page")],
        ];
        let a = audit(&i, &off_by_one, None);
        assert_eq!((a.checked, a.on_cited_page, a.not_found), (3, 0, 1));
        assert_eq!(a.rate, Some(0.0));
        let offset = a.offset.expect("three hits one page off");
        assert_eq!((offset.pages, offset.hits), (1, 3));
        assert_eq!(offset.cause, "0-based page numbers read as 1-based");
    }

    #[test]
    fn printed_labels_read_as_pages_are_named_and_a_scatter_is_no_offset() {
        let pages: Vec<String> = (0..20)
            .map(|p| format!("page {p} tells its own story of number {p} in words {p} {p}"))
            .collect();
        let i = PageIndex::new(&pages);
        // Physical page p+1 is labelled `p - 9` from page 11 on: labels lag by 10.
        let labels = PageLabels::new(
            (1..=20)
                .map(|p: i64| {
                    if p > 10 {
                        (p - 10).to_string()
                    } else {
                        format!("x{p}")
                    }
                })
                .collect(),
        );
        let cited_by_label: Vec<AuditHit> = (12..16)
            .map(|p: u32| hit(p - 10, &pages[p as usize - 1]))
            .collect();
        let a = audit(&i, &[cited_by_label], Some(&labels));
        let offset = a.offset.expect("four hits ten pages off");
        assert_eq!((offset.pages, offset.hits), (10, 4));
        assert_eq!(offset.cause, "printed page labels read as physical pages");
        let scattered = vec![
            hit(1, &pages[3]),
            hit(1, &pages[6]),
            hit(1, &pages[10]),
            hit(5, &pages[4]),
        ];
        let a = audit(&i, &[scattered], Some(&labels));
        assert_eq!((a.checked, a.on_cited_page), (4, 1));
        assert_eq!(a.offset, None, "no distance is shared by most");
    }
}
