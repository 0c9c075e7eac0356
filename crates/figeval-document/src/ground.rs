//! The ground check: does each item's expected page really carry its figure or section?
//! (contract §13)
//!
//! [`ground`] takes a dataset and the text of every page of its document (index 0 holding
//! page 1) and rates each item:
//!
//! - a figure or table item (its `figure_ref` is a label, `Figure 15.1`) by where the label's
//!   caption is (see [`crate::caption`]);
//! - an item whose `figure_ref` names a section (`Section 8.7 Increment Operators`) by where
//!   the section's title is a heading line (see [`crate::headings`]); table-of-contents and
//!   index pages (lines with dot leaders) never count;
//! - any other item is `not_checked`.
//!
//! Each page's text comes with where it came from ([`PageSource`], [`ground_read`]): an item
//! whose expected page could not be read is `unreadable`, never `absent` or `moved`, since its
//! caption may well be printed there.
//!
//! Over the whole dataset it detects a page offset (two or more `moved` items off by the same
//! number of pages, as when printed page numbers were written for physical ones) and warns
//! when locate and content items share a page. [`Ground::fix`] writes the corrections.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use figeval::dataset::{Dataset, ExpectedLocation, Group, Item, Page};

use crate::caption::{label_pages, Label, LabelPages};
use crate::headings::{NormalizedPages, SectionRef};

/// What the document says about one item's expected pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// A caption (or section heading) is on an expected page.
    Ok,
    /// Captions (headings) only on other pages: `found_pages`.
    Moved,
    /// No caption (heading) anywhere, only mentions in running text: `mention_pages`.
    MentionOnly,
    /// The label (title) appears nowhere in the document.
    Absent,
    /// An expected page is past the document's last page.
    BeyondEnd,
    /// `figure_ref` names neither a figure or table label nor a section.
    NotChecked,
    /// An expected page could not be read (a scanned page with OCR off, or OCR failed or timed
    /// out on it), and no other expected page carries the caption (heading).
    Unreadable,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 7] = [
        Verdict::Ok,
        Verdict::Moved,
        Verdict::MentionOnly,
        Verdict::Absent,
        Verdict::BeyondEnd,
        Verdict::NotChecked,
        Verdict::Unreadable,
    ];

    /// The name used in JSON and on screen: `ok`, `mention_only`, ...
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Moved => "moved",
            Verdict::MentionOnly => "mention_only",
            Verdict::Absent => "absent",
            Verdict::BeyondEnd => "beyond_end",
            Verdict::NotChecked => "not_checked",
            Verdict::Unreadable => "unreadable",
        }
    }

    /// Whether the verdict is a finding: something about the item to fix.
    pub fn is_finding(self) -> bool {
        !matches!(self, Verdict::Ok | Verdict::NotChecked)
    }
}

/// The ground check of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemGround {
    /// The item's question.
    pub question: String,
    /// The item's `figure_ref`.
    pub figure_ref: String,
    /// The item's reporting group.
    pub group: Group,
    /// The item's expected pages, as the dataset gives them.
    pub expected_pages: Vec<Page>,
    /// The verdict.
    pub verdict: Verdict,
    /// Pages carrying the caption (or the section heading), ascending.
    pub found_pages: Vec<Page>,
    /// Pages that mention the label (or the title) without a caption (heading), ascending.
    pub mention_pages: Vec<Page>,
    /// Expected pages whose text could not be read, ascending.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable_pages: Vec<Page>,
}

impl ItemGround {
    /// Whether the item is checked by its section heading rather than a caption.
    fn is_section(&self) -> bool {
        Label::parse(&self.figure_ref).is_none()
    }

    /// What the finding means and what to do about it, as a sentence (empty for `ok`);
    /// `unread` is how many pages of the whole document could not be read.
    pub fn advice(&self, pdf_pages: u32, unread: usize) -> String {
        let what = if self.is_section() {
            "heading"
        } else {
            "caption"
        };
        let found = page_list(&self.found_pages);
        let mentioned = page_list(&self.mention_pages);
        match self.verdict {
            Verdict::Ok => String::new(),
            Verdict::Moved => {
                let also = if self.mention_pages.is_empty() {
                    String::new()
                } else {
                    format!(" (mentioned on {mentioned})")
                };
                format!(
                    "the {what} of {} is on {found}, not on the expected {}{also}: set expected_pages to the {what} page (--write-fixed does)",
                    self.figure_ref,
                    page_list(&self.expected_pages)
                )
            }
            Verdict::MentionOnly => format!(
                "no {what} of {} anywhere, only mentions (on {mentioned}): check figure_ref against the document's own {what}s, or whether the figure is drawn without a {what} line",
                self.figure_ref
            ),
            Verdict::Absent if unread > 0 => format!(
                "{} appears nowhere in the pages that could be read, but {} could not be: read them (OCR: --ocr auto, a longer --ocr-timeout), then check again",
                self.figure_ref,
                figeval::describe::counted(unread, "page", "pages")
            ),
            Verdict::Absent => format!(
                "{} appears nowhere in the document: check figure_ref, and that this is the PDF the dataset was written for",
                self.figure_ref
            ),
            Verdict::Unreadable => format!(
                "expected {} could not be read (a scanned page without a text layer, with OCR off, failed or timed out), so whether the {what} of {} is there cannot be told: read it through OCR (--ocr auto, the default; a longer --ocr-timeout), or check the page by eye",
                page_list(&self.unreadable_pages),
                self.figure_ref
            ),
            Verdict::BeyondEnd => {
                let past: Vec<Page> = self
                    .expected_pages
                    .iter()
                    .copied()
                    .filter(|p| p.get() > pdf_pages)
                    .collect();
                let fix = if self.found_pages.is_empty() {
                    "check the page, and that this is the PDF the dataset was written for".to_string()
                } else {
                    format!("the {what} is on {found} (--write-fixed moves it there)")
                };
                format!(
                    "expected {} is past the document's last page ({pdf_pages}): {fix}",
                    page_list(&past)
                )
            }
            Verdict::NotChecked => format!(
                "figure_ref {:?} names no figure or table label and no section, so its page cannot be checked from the text",
                self.figure_ref
            ),
        }
    }
}

/// `p.5` or `pp. 5, 7`.
fn page_list(pages: &[Page]) -> String {
    let list: Vec<String> = pages.iter().map(Page::to_string).collect();
    match list.len() {
        1 => format!("p.{}", list[0]),
        _ => format!("pp. {}", list.join(", ")),
    }
}

impl Offset {
    /// The offset and its likely cause, with what to do, as a sentence; `shifts_unplaced` as
    /// [`Ground::offset_shifts_unplaced`] says.
    pub fn advice(&self, shifts_unplaced: bool) -> String {
        let cause = match self.cause {
            OffsetCause::PrintedPageNumbers => {
                "the pages where they are print the expected numbers as page labels: the dataset used printed page numbers, and expected_pages are physical PDF pages (1 = the first page of the file)"
            }
            OffsetCause::FrontMatter => {
                "the printed page labels do not explain it: front matter (cover, preface, contents) counted differently, or another edition of the document"
            }
        };
        let shift = if shifts_unplaced {
            format!(
                ", and shifts by {:+} the items the text cannot place",
                self.pages
            )
        } else {
            String::new()
        };
        format!(
            "{} moved items are off by {:+} pages; {cause}. --write-fixed moves every moved item to its caption or heading page{shift}",
            self.items, self.pages
        )
    }
}

/// What most likely made a dataset's pages off by the same number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OffsetCause {
    /// The found pages print the expected numbers in their header or footer: the dataset
    /// used printed page numbers where physical PDF pages are needed.
    PrintedPageNumbers,
    /// The pages are shifted without the printed numbers explaining it: front matter (cover,
    /// preface, contents) counted differently, or another edition of the document.
    FrontMatter,
}

/// A page offset shared by several `moved` items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Offset {
    /// Found page minus expected page.
    pub pages: i64,
    /// How many `moved` items are off by exactly this much.
    pub items: usize,
    /// The likely cause.
    pub cause: OffsetCause,
}

/// A dataset-level warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What kind of warning: `shared_pages`.
    pub code: &'static str,
    /// The pages concerned.
    pub pages: Vec<Page>,
    /// What is wrong and what to do, as a sentence.
    pub message: String,
}

/// How many items got each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// `ok` items.
    pub ok: usize,
    /// `moved` items.
    pub moved: usize,
    /// `mention_only` items.
    pub mention_only: usize,
    /// `absent` items.
    pub absent: usize,
    /// `beyond_end` items.
    pub beyond_end: usize,
    /// `not_checked` items.
    pub not_checked: usize,
    /// `unreadable` items.
    pub unreadable: usize,
}

impl Counts {
    /// The count of one verdict.
    pub fn get(&self, v: Verdict) -> usize {
        let mut copy = *self;
        *copy.slot(v)
    }

    fn add(&mut self, v: Verdict) {
        *self.slot(v) += 1;
    }

    fn slot(&mut self, v: Verdict) -> &mut usize {
        match v {
            Verdict::Ok => &mut self.ok,
            Verdict::Moved => &mut self.moved,
            Verdict::MentionOnly => &mut self.mention_only,
            Verdict::Absent => &mut self.absent,
            Verdict::BeyondEnd => &mut self.beyond_end,
            Verdict::NotChecked => &mut self.not_checked,
            Verdict::Unreadable => &mut self.unreadable,
        }
    }
}

/// The ground check of a dataset against its document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ground {
    /// How many pages the document has.
    pub pdf_pages: u32,
    /// How many pages were read through OCR.
    pub ocr_pages: u32,
    /// The pages whose text could not be read, ascending.
    pub unreadable_pages: Vec<Page>,
    /// One entry per dataset item, in dataset order.
    pub items: Vec<ItemGround>,
    /// The page offset shared by several `moved` items, when there is one.
    pub offset: Option<Offset>,
    /// Dataset-level warnings.
    pub warnings: Vec<Warning>,
    /// How many items got each verdict.
    pub counts: Counts,
}

impl Ground {
    /// What `item`'s finding means and what to do about it ([`ItemGround::advice`] with this
    /// document's page count and unreadable pages).
    pub fn advice(&self, item: &ItemGround) -> String {
        item.advice(self.pdf_pages, self.unreadable_pages.len())
    }

    /// Whether every checked item is `ok` (`not_checked` items do not count).
    pub fn all_ok(&self) -> bool {
        self.items.iter().all(|i| !i.verdict.is_finding())
    }

    /// The JSON form (`figeval ground --format json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a ground check always serializes")
    }

    /// Whether [`Ground::fix`] shifts by the detected offset the items the text cannot place
    /// (`mention_only`, `not_checked`): only when the offset explains at least half of the
    /// checked items, as in a dataset written from printed page numbers throughout. A dataset
    /// with a few such items among right ones keeps the others as they are.
    pub fn offset_shifts_unplaced(&self) -> bool {
        let checked = self.items.len() - self.counts.not_checked;
        self.offset.is_some_and(|o| o.items * 2 >= checked)
    }

    /// The dataset with this check's corrections (`--write-fixed`): a `moved` or
    /// `beyond_end` item whose caption (heading) was found goes to those pages, and when
    /// [`Ground::offset_shifts_unplaced`], the items the text cannot place are shifted by the
    /// offset (when every shifted page stays in the document). Every change is listed. `Err`
    /// when the check is not of this dataset (other questions).
    pub fn fix(&self, dataset: &Dataset) -> Result<Fixed, FixError> {
        let differs = self
            .items
            .iter()
            .zip(&dataset.items)
            .position(|(g, it)| g.question != it.question);
        if differs.is_some() || self.items.len() != dataset.items.len() {
            return Err(FixError::OtherDataset {
                checked_items: self.items.len(),
                dataset_items: dataset.items.len(),
                first_difference: differs.unwrap_or(self.items.len().min(dataset.items.len())) + 1,
            });
        }
        let mut fixed = dataset.clone();
        let mut changes = Vec::new();
        for (number, (g, item)) in self.items.iter().zip(fixed.items.iter_mut()).enumerate() {
            let (to, reason) = match g.verdict {
                Verdict::Moved | Verdict::BeyondEnd if !g.found_pages.is_empty() => {
                    (g.found_pages.clone(), FixReason::CaptionPage)
                }
                Verdict::MentionOnly | Verdict::NotChecked => {
                    let Some(offset) = self.offset.filter(|_| self.offset_shifts_unplaced()) else {
                        continue;
                    };
                    let shifted: Option<Vec<Page>> = item
                        .expected_pages
                        .iter()
                        .map(|p| {
                            let n = i64::from(p.get()) + offset.pages;
                            Page::new(n).filter(|p| p.get() <= self.pdf_pages)
                        })
                        .collect();
                    let Some(shifted) = shifted else { continue };
                    (shifted, FixReason::Offset)
                }
                _ => continue,
            };
            if to != item.expected_pages {
                changes.push(Change {
                    item: number + 1,
                    question: item.question.clone(),
                    from: std::mem::replace(&mut item.expected_pages, to.clone()),
                    to,
                    reason,
                });
            }
        }
        Ok(Fixed {
            dataset: fixed,
            changes,
        })
    }
}

/// Why [`Ground::fix`] refuses a dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixError {
    /// The ground check is of another dataset: its questions differ from the dataset's.
    OtherDataset {
        /// The items of the ground check.
        checked_items: usize,
        /// The items of the dataset.
        dataset_items: usize,
        /// The 1-based number of the first item whose question differs (one past the shorter
        /// list when one list is a start of the other).
        first_difference: usize,
    },
}

impl fmt::Display for FixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixError::OtherDataset { .. } => {
                f.write_str("the ground check is not of this dataset (its questions differ)")
            }
        }
    }
}

impl std::error::Error for FixError {}

/// Why [`Ground::fix`] changed an item's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FixReason {
    /// Moved to the pages its caption (or section heading) is on.
    CaptionPage,
    /// Shifted by the detected dataset offset.
    Offset,
}

/// One item whose pages [`Ground::fix`] changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The 1-based item number.
    pub item: usize,
    /// The item's question.
    pub question: String,
    /// The expected pages before.
    pub from: Vec<Page>,
    /// The expected pages after.
    pub to: Vec<Page>,
    /// Why.
    pub reason: FixReason,
}

/// A corrected dataset and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The dataset with the corrected pages; questions and everything else unchanged.
    pub dataset: Dataset,
    /// Each change, in item order.
    pub changes: Vec<Change>,
}

/// Where a page's text came from, as the shell that read it says (contract §13).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageSource {
    /// The PDF's text layer.
    #[default]
    Layer,
    /// Optical character recognition.
    Ocr,
    /// Nothing could be read off the page (no text layer and OCR off, or OCR failed or timed
    /// out); its text is empty.
    Unreadable,
}

/// Checks every item of `dataset` against the text of its document's pages (index 0 holding
/// page 1), every page read from its text layer.
pub fn ground<S: AsRef<str>>(dataset: &Dataset, pages: &[S]) -> Ground {
    ground_read(dataset, pages, &[])
}

/// An item of a dataset of several files (contract §1.5) as the ground check of one of its
/// PDFs reads it: the pages of its location `l` in that PDF as its expected pages, up to the
/// first page past the PDF's `pdf_pages` (which the check calls `beyond_end`).
pub fn located(item: &Item, l: &ExpectedLocation, pdf_pages: usize) -> Item {
    let past_end = i64::try_from(pdf_pages)
        .unwrap_or(i64::MAX)
        .saturating_add(1);
    let last = i64::from(l.end.get()).min(past_end.max(i64::from(l.start.get())));
    Item {
        expected_pages: (i64::from(l.start.get())..=last)
            .filter_map(Page::new)
            .collect(),
        expected_locations: Vec::new(),
        ..item.clone()
    }
}

/// The items of a dataset of several files with a location in the PDF named `name` (compared
/// on whole trailing path components, [`figeval::files::same_file`]), as a dataset of that one
/// PDF of `pdf_pages` pages ([`located`]), with each item's 1-based number in `dataset`.
pub fn in_file(dataset: &Dataset, name: &str, pdf_pages: usize) -> (Dataset, Vec<usize>) {
    let (items, numbers) = dataset
        .items
        .iter()
        .enumerate()
        .flat_map(|(n, item)| {
            item.expected_locations
                .iter()
                .filter(|l| figeval::files::same_file(name, &l.path))
                .map(move |l| (located(item, l, pdf_pages), n + 1))
        })
        .unzip();
    let d = Dataset {
        corpus_id: dataset.corpus_id.clone(),
        items,
    };
    (d, numbers)
}

/// [`ground`] with where each page's text came from: `sources[i]` for page `i + 1`, a page
/// past the end of `sources` read from its text layer. An item whose expected page is
/// [`PageSource::Unreadable`] and whose caption is on no other expected page is
/// [`Verdict::Unreadable`].
pub fn ground_read<S: AsRef<str>>(
    dataset: &Dataset,
    pages: &[S],
    sources: &[PageSource],
) -> Ground {
    let pdf_pages = u32::try_from(pages.len()).unwrap_or(u32::MAX);
    let source_of = |page: Page| {
        let index = usize::try_from(page.get() - 1).unwrap_or(usize::MAX);
        sources.get(index).copied().unwrap_or_default()
    };
    let ocr_pages = sources.iter().filter(|s| **s == PageSource::Ocr).count();
    let unreadable_pages: Vec<Page> = (0..pages.len().min(sources.len()))
        .filter(|&i| sources[i] == PageSource::Unreadable)
        .filter_map(|i| Page::new(i as i64 + 1))
        .collect();
    let labels = label_pages(pages);
    let mut sections = None;
    let mut counts = Counts::default();
    let items: Vec<ItemGround> = dataset
        .items
        .iter()
        .map(|item| {
            let (found, mentions) = if let Some(label) = Label::parse(&item.figure_ref) {
                Some(label_found(&labels, &label))
            } else if let Some(section) = SectionRef::parse(&item.figure_ref) {
                let pages = sections.get_or_insert_with(|| NormalizedPages::new(pages));
                Some(section.find(pages))
            } else {
                None
            }
            .unzip();
            let unreadable: Vec<Page> = item
                .expected_pages
                .iter()
                .copied()
                .filter(|&p| p.get() <= pdf_pages && source_of(p) == PageSource::Unreadable)
                .collect();
            let mut verdict = verdict(item, pdf_pages, found.as_deref(), mentions.as_deref());
            if !unreadable.is_empty()
                && matches!(
                    verdict,
                    Verdict::Moved | Verdict::MentionOnly | Verdict::Absent
                )
            {
                verdict = Verdict::Unreadable;
            }
            counts.add(verdict);
            ItemGround {
                question: item.question.clone(),
                figure_ref: item.figure_ref.clone(),
                group: item.group(),
                expected_pages: item.expected_pages.clone(),
                verdict,
                found_pages: to_pages(found.unwrap_or_default()),
                mention_pages: to_pages(mentions.unwrap_or_default()),
                unreadable_pages: unreadable,
            }
        })
        .collect();
    let offset = detect_offset(&items, pages);
    let warnings = shared_pages(&dataset.items).into_iter().collect();
    Ground {
        pdf_pages,
        ocr_pages: u32::try_from(ocr_pages).unwrap_or(u32::MAX),
        unreadable_pages,
        items,
        offset,
        warnings,
        counts,
    }
}

fn label_found(labels: &LabelPages, label: &Label) -> (Vec<u32>, Vec<u32>) {
    (
        labels.captions.get(label).cloned().unwrap_or_default(),
        labels.mentions.get(label).cloned().unwrap_or_default(),
    )
}

fn to_pages(pages: Vec<u32>) -> Vec<Page> {
    pages
        .into_iter()
        .filter_map(|p| Page::new(p.into()))
        .collect()
}

fn verdict(
    item: &Item,
    pdf_pages: u32,
    found: Option<&[u32]>,
    mentions: Option<&[u32]>,
) -> Verdict {
    if item.expected_pages.iter().any(|p| p.get() > pdf_pages) {
        return Verdict::BeyondEnd;
    }
    let (Some(found), Some(mentions)) = (found, mentions) else {
        return Verdict::NotChecked;
    };
    if item.expected_pages.iter().any(|p| found.contains(&p.get())) {
        Verdict::Ok
    } else if !found.is_empty() {
        Verdict::Moved
    } else if !mentions.is_empty() {
        Verdict::MentionOnly
    } else {
        Verdict::Absent
    }
}

/// The offset shared by the most `moved` items (two at least), each item off by its smallest
/// distance from an expected page to a found page; ties go to the smaller shift.
fn detect_offset<S: AsRef<str>>(items: &[ItemGround], pages: &[S]) -> Option<Offset> {
    let mut by_shift: BTreeMap<i64, Vec<(u32, u32)>> = BTreeMap::new();
    for it in items.iter().filter(|i| i.verdict == Verdict::Moved) {
        let nearest = it
            .expected_pages
            .iter()
            .flat_map(|e| it.found_pages.iter().map(move |f| (e.get(), f.get())))
            .min_by_key(|&(e, f)| {
                let d = i64::from(f) - i64::from(e);
                (d.abs(), d < 0)
            });
        if let Some((e, f)) = nearest {
            by_shift
                .entry(i64::from(f) - i64::from(e))
                .or_default()
                .push((e, f));
        }
    }
    let (&shift, pairs) = by_shift
        .iter()
        .filter(|(_, v)| v.len() >= 2)
        .min_by_key(|(d, v)| (std::cmp::Reverse(v.len()), d.abs(), **d < 0))?;
    let printed = pairs
        .iter()
        .filter(|&&(e, f)| prints_number(pages[f as usize - 1].as_ref(), e))
        .count();
    let cause = if printed * 2 >= pairs.len() {
        OffsetCause::PrintedPageNumbers
    } else {
        OffsetCause::FrontMatter
    };
    Some(Offset {
        pages: shift,
        items: pairs.len(),
        cause,
    })
}

/// Whether a page prints `number` as a word of its first or last three non-blank lines (its
/// header or footer).
fn prints_number(page: &str, number: u32) -> bool {
    let number = number.to_string();
    let lines: Vec<&str> = page.lines().filter(|l| !l.trim().is_empty()).collect();
    let edge = lines.iter().take(3).chain(
        lines
            .iter()
            .rev()
            .take(3.min(lines.len().saturating_sub(3))),
    );
    edge.into_iter()
        .any(|l| l.split_whitespace().any(|w| w == number))
}

/// The pages both locate and content items expect, as a warning (the dataset editor, a layer
/// up, gives the same one).
pub(crate) fn shared_pages(items: &[Item]) -> Option<Warning> {
    let pages_of = |group: Group| -> BTreeSet<Page> {
        items
            .iter()
            .filter(|i| i.group() == group)
            .flat_map(|i| i.expected_pages.iter().copied())
            .collect()
    };
    let shared: Vec<Page> = pages_of(Group::Locate)
        .intersection(&pages_of(Group::Content))
        .copied()
        .collect();
    if shared.is_empty() {
        return None;
    }
    let list: Vec<String> = shared.iter().map(Page::to_string).collect();
    Some(Warning {
        code: "shared_pages",
        message: format!(
            "locate and content items share page{} {}: the two groups are meant to cover disjoint pages, so a retriever that finds the page for one gets the other for free; move one of them to a figure on another page",
            if shared.len() == 1 { "" } else { "s" },
            list.join(", ")
        ),
        pages: shared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headings::section_headings;
    use serde_json::json;

    #[test]
    fn a_pdf_of_several_files_is_checked_on_the_items_located_in_it() {
        let d = Dataset::parse(
            r#"{"corpus_id": "c", "items": [
            {"question": "Which sheet shows the stair?", "figure_ref": "Figure 1", "kind": "locate",
             "expected_locations": [{"path": "sheets/A-101.pdf", "unit": "page", "start": 2, "end": 3}]},
            {"question": "Which sheet shows the roof?", "figure_ref": "Figure 2", "kind": "locate",
             "expected_locations": [{"path": "A-102.pdf", "unit": "page", "start": 1, "end": 1}]},
            {"question": "Which sheets show the lift?", "figure_ref": "Figure 3", "kind": "locate",
             "expected_locations": [{"path": "A-102.pdf", "unit": "page", "start": 4, "end": 9},
                                    {"path": "A-101.pdf", "unit": "page", "start": 5, "end": 5}]}]}"#,
        )
        .unwrap();
        let (one, numbers) = in_file(&d, "drawings/sheets/A-101.pdf", 4);
        assert_eq!(numbers, [1, 3]);
        let pages: Vec<Vec<u32>> = one
            .items
            .iter()
            .map(|i| i.expected_pages.iter().map(|p| p.get()).collect())
            .collect();
        // Item 3's page 5 is past the 4 pages: kept, so the check calls it beyond_end.
        assert_eq!(pages, [vec![2, 3], vec![5]]);
        assert!(one.items.iter().all(|i| i.expected_locations.is_empty()));
        // A location's pages stop at the first page past the end, however far it runs.
        let (two, numbers) = in_file(&d, "A-102.pdf", 5);
        assert_eq!(numbers, [2, 3]);
        assert_eq!(two.items[1].expected_pages.len(), 3, "pages 4, 5 and 6");
        assert_eq!(in_file(&d, "notA-101.pdf", 4).1, Vec::<usize>::new());
    }

    fn dataset(items: serde_json::Value) -> Dataset {
        Dataset::from_value(&json!({"corpus_id": "c", "items": items})).unwrap()
    }

    fn item(q: &str, pages: &[u32], figure_ref: &str, kind: &str) -> serde_json::Value {
        json!({"question": q, "expected_pages": pages, "figure_ref": figure_ref, "kind": kind})
    }

    fn prose(q: &str, pages: &[u32], figure_ref: &str) -> serde_json::Value {
        json!({"question": q, "expected_pages": pages, "figure_ref": figure_ref, "kind": "locate", "tags": ["prose"]})
    }

    fn verdicts(g: &Ground) -> Vec<(Verdict, Vec<u32>, Vec<u32>)> {
        g.items
            .iter()
            .map(|i| {
                (
                    i.verdict,
                    i.found_pages.iter().map(|p| p.get()).collect(),
                    i.mention_pages.iter().map(|p| p.get()).collect(),
                )
            })
            .collect()
    }

    /// A small book: physical page = printed page + 2.
    fn book() -> Vec<String> {
        let mut pages: Vec<String> = vec![
            "Cover".into(),
            concat!(
                "Contents\n",
                "1 Plots . . . . . . . . . . 1\n",
                "1.1 Simple Plots . . . . . . . 1\n",
                "1.2 Three Dimensions . . . . . . 2\n",
                "2 Data . . . . . . . . . . . 3\n",
                "2.1 Histograms . . . . . . . 3\n",
            )
            .into(),
        ];
        let body = [
            "1 Plots\n1.1 Simple Plots\nThe plot is shown in\nFigure 1.1. Note the axes.\n",
            "      x axis\n   Figure 1.1: A sine wave.\nSee Figure 1.2 on the next page.",
            "   FIG. 1-2 Three-dimensional spiral\n1.2 Three Dimensions\nSimple plots again, in three dimensions.",
            "2 Data\n2.1 Histograms\nAs Figure 2.9 shows, nothing is drawn.\n",
            "   Figure 2.1: Histogram.\n   Table 2.2: Counts.\n",
        ];
        for (i, text) in body.iter().enumerate() {
            pages.push(format!(
                "Chapter {}        {}\n{text}\n{}\n",
                i / 3 + 1,
                i + 1,
                i + 1
            ));
        }
        pages
    }

    #[test]
    fn each_verdict_is_given_where_the_document_says_so() {
        let d = dataset(json!([
            item("ok?", &[4], "Figure 1.1", "locate"),
            item("moved?", &[3], "Figure 1.1", "content"),
            item("spelled?", &[5], "Figure 1.2", "locate"),
            item("mentioned?", &[6], "Figure 2.9", "content"),
            item("absent?", &[6], "Figure 7.7", "content"),
            item("past the end?", &[8], "Figure 2.1", "content"),
            item("table?", &[7], "Table 2.2", "locate"),
            item("unnamed?", &[7], "the big chart", "locate"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(g.pdf_pages, 7);
        assert_eq!(
            verdicts(&g),
            [
                (Verdict::Ok, vec![4], vec![3]),
                (Verdict::Moved, vec![4], vec![3]),
                (Verdict::Ok, vec![5], vec![4]),
                (Verdict::MentionOnly, vec![], vec![6]),
                (Verdict::Absent, vec![], vec![]),
                (Verdict::BeyondEnd, vec![7], vec![]),
                (Verdict::Ok, vec![7], vec![]),
                (Verdict::NotChecked, vec![], vec![]),
            ]
        );
        assert_eq!(
            (g.counts.ok, g.counts.moved, g.counts.mention_only),
            (3, 1, 1)
        );
        assert_eq!(
            (g.counts.absent, g.counts.beyond_end, g.counts.not_checked),
            (1, 1, 1)
        );
        assert!(!g.all_ok());
        assert_eq!(g.offset, None, "one moved item is not an offset");
    }

    #[test]
    fn sections_are_found_by_their_heading_and_contents_pages_are_left_out() {
        let d = dataset(json!([
            prose("simple?", &[3], "Section 1.1 Simple Plots"),
            prose("wrong page?", &[4], "Section 2.1 Histograms"),
            prose("numbered only?", &[5], "§1.2"),
            prose("mentioned only?", &[3], "Section 9.9 Simple plots again"),
            prose("no section?", &[3], "Histograms"),
            prose("absent?", &[3], "Chapter 5 Surfaces"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(
            verdicts(&g),
            [
                (Verdict::Ok, vec![3], vec![5]),
                (Verdict::Moved, vec![6], vec![]),
                (Verdict::Ok, vec![5], vec![]),
                (Verdict::MentionOnly, vec![], vec![5]),
                (Verdict::NotChecked, vec![], vec![]),
                (Verdict::Absent, vec![], vec![]),
            ]
        );
        assert!(!g.all_ok());
    }

    #[test]
    fn printed_page_numbers_are_detected_as_an_offset_and_fixed() {
        let d = dataset(json!([
            item("a?", &[2], "Figure 1.1", "locate"),
            item("b?", &[3], "Figure 1.2", "locate"),
            item("c?", &[5], "Figure 2.1", "content"),
            prose("d?", &[4], "Section 2.1 Histograms"),
            item("e?", &[4], "the big chart", "content"),
            item("f?", &[6], "Figure 2.1", "content"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(
            g.offset,
            Some(Offset {
                pages: 2,
                items: 4,
                cause: OffsetCause::PrintedPageNumbers
            })
        );
        let fixed = g.fix(&d).unwrap();
        let pages: Vec<Vec<u32>> = fixed
            .dataset
            .items
            .iter()
            .map(|i| i.expected_pages.iter().map(|p| p.get()).collect())
            .collect();
        assert_eq!(
            pages,
            [vec![4], vec![5], vec![7], vec![6], vec![6], vec![7]]
        );
        let reasons: Vec<(usize, FixReason)> =
            fixed.changes.iter().map(|c| (c.item, c.reason)).collect();
        assert_eq!(
            reasons,
            [
                (1, FixReason::CaptionPage),
                (2, FixReason::CaptionPage),
                (3, FixReason::CaptionPage),
                (4, FixReason::CaptionPage),
                (5, FixReason::Offset),
                (6, FixReason::CaptionPage),
            ]
        );
        let again = ground(&fixed.dataset, &book());
        assert_eq!(again.counts.ok, 5);
        assert_eq!(again.counts.not_checked, 1);
        assert!(again.all_ok());
        assert_eq!(again.offset, None);
    }

    #[test]
    fn an_offset_of_a_few_items_among_right_ones_moves_only_the_moved_items() {
        let d = dataset(json!([
            item("a?", &[2], "Figure 1.1", "locate"),
            item("b?", &[3], "Figure 1.2", "locate"),
            item("c?", &[7], "Figure 2.1", "content"),
            item("d?", &[7], "Table 2.2", "content"),
            prose("e?", &[6], "Section 2.1 Histograms"),
            prose("f?", &[3], "Section 1.1 Simple Plots"),
            item("g?", &[4], "the big chart", "content"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(g.offset.map(|o| (o.pages, o.items)), Some((2, 2)));
        assert!(!g.offset_shifts_unplaced());
        let fixed = g.fix(&d).unwrap();
        assert_eq!(fixed.changes.len(), 2);
        assert_eq!(
            fixed.dataset.items[6].expected_pages,
            [Page::new(4).unwrap()]
        );
        assert!(!g.offset.unwrap().advice(false).contains("shifts"));
        assert!(g.offset.unwrap().advice(true).contains("shifts by +2"));
    }

    #[test]
    fn an_offset_the_page_numbers_do_not_explain_is_put_on_the_front_matter() {
        let d = dataset(json!([
            item("a?", &[3], "Figure 1.1", "locate"),
            item("b?", &[4], "Figure 1.2", "locate"),
            item("c?", &[6], "Figure 2.1", "content"),
        ]));
        let offset = ground(&d, &book()).offset.unwrap();
        assert_eq!((offset.pages, offset.items), (1, 3));
        assert_eq!(offset.cause, OffsetCause::FrontMatter);
    }

    #[test]
    fn locate_and_content_items_on_one_page_are_warned_about_by_page() {
        let d = dataset(json!([
            item("a?", &[4, 7], "Figure 1.1", "locate"),
            item("b?", &[7], "Figure 2.1", "content"),
            item("c?", &[4], "Figure 2.1", "content"),
            prose("d?", &[5], "Section 1.2"),
            item("e?", &[5], "Figure 1.2", "content"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(g.warnings.len(), 1);
        let w = &g.warnings[0];
        assert_eq!(w.pages, [Page::new(4).unwrap(), Page::new(7).unwrap()]);
        assert!(w.message.contains("share pages 4, 7"), "{}", w.message);
    }

    #[test]
    fn the_json_has_the_documented_shape() {
        let d = dataset(json!([item("a?", &[3], "Figure 1.1", "locate")]));
        let v: serde_json::Value = serde_json::from_str(&ground(&d, &book()).to_json()).unwrap();
        assert_eq!(
            v,
            json!({
                "pdf_pages": 7,
                "ocr_pages": 0,
                "unreadable_pages": [],
                "items": [{"question": "a?", "figure_ref": "Figure 1.1", "group": "locate",
                           "expected_pages": [3], "verdict": "moved", "found_pages": [4],
                           "mention_pages": [3]}],
                "offset": null,
                "warnings": [],
                "counts": {"ok": 0, "moved": 1, "mention_only": 0, "absent": 0,
                           "beyond_end": 0, "not_checked": 0, "unreadable": 0}
            })
        );
    }

    #[test]
    fn a_fix_refuses_another_datasets_check_and_never_writes_past_the_end() {
        let d = dataset(json!([item("a?", &[3], "Figure 1.1", "locate")]));
        let other = dataset(json!([item("b?", &[3], "Figure 1.1", "locate")]));
        let refused = ground(&d, &book()).fix(&other).unwrap_err();
        assert_eq!(
            refused,
            FixError::OtherDataset {
                checked_items: 1,
                dataset_items: 1,
                first_difference: 1
            }
        );
        let longer = dataset(json!([
            item("a?", &[3], "Figure 1.1", "locate"),
            item("b?", &[4], "Figure 1.2", "locate"),
        ]));
        assert_eq!(
            ground(&d, &book()).fix(&longer),
            Err(FixError::OtherDataset {
                checked_items: 1,
                dataset_items: 2,
                first_difference: 2
            })
        );
        assert_eq!(
            refused.to_string(),
            "the ground check is not of this dataset (its questions differ)"
        );
        let d = dataset(json!([
            item("a?", &[2], "Figure 1.1", "locate"),
            item("b?", &[3], "Figure 1.2", "locate"),
            item("c?", &[6], "no label", "locate"),
        ]));
        let g = ground(&d, &book());
        assert_eq!(g.offset.map(|o| o.pages), Some(2));
        let fixed = g.fix(&d).unwrap();
        assert_eq!(
            fixed.dataset.items[2].expected_pages,
            [Page::new(6).unwrap()]
        );
        assert_eq!(fixed.changes.len(), 2);
    }

    #[test]
    fn section_headings_are_the_numbered_titles_the_check_finds_on_the_page() {
        let pages = book();
        assert_eq!(
            section_headings(&pages[2]),
            ["Section 1 Plots", "Section 1.1 Simple Plots"]
        );
        assert_eq!(
            section_headings(&pages[4]),
            ["Section 1.2 Three Dimensions"]
        );
        assert_eq!(
            section_headings(&pages[1]),
            Vec::<String>::new(),
            "contents"
        );
        let lines =
            "Chapter 8: Expressions      171\n2. a list item\n3 Done.\n9.9 lowercase title\n\
                     SECTION 4.2 Upper Word\n4.2 Upper Word\n";
        assert_eq!(section_headings(lines), ["Section 4.2 Upper Word"]);
        for (number, figure_ref) in section_headings(&pages[2]).iter().enumerate() {
            let d = dataset(json!([prose("q?", &[3], figure_ref)]));
            assert_eq!(ground(&d, &pages).items[0].verdict, Verdict::Ok, "{number}");
        }
    }

    #[test]
    fn an_item_whose_expected_page_could_not_be_read_is_unreadable_never_absent() {
        let pages = ["Cover", "", "See Figure 2.1 for the plot.", ""];
        let sources = [
            PageSource::Layer,
            PageSource::Unreadable,
            PageSource::Layer,
            PageSource::Ocr,
        ];
        let d = dataset(json!([
            item("a", &[2], "Figure 1.1", "locate"),
            item("b", &[2], "Figure 2.1", "locate"),
            item("c", &[4], "Figure 3.1", "locate"),
        ]));
        let g = ground_read(&d, &pages, &sources);
        let got: Vec<Verdict> = g.items.iter().map(|i| i.verdict).collect();
        assert_eq!(
            got,
            [Verdict::Unreadable, Verdict::Unreadable, Verdict::Absent]
        );
        assert_eq!(g.items[0].unreadable_pages, [Page::new(2).unwrap()]);
        assert_eq!((g.ocr_pages, g.unreadable_pages.len()), (1, 1));
        assert_eq!(g.counts.unreadable, 2);
        let advice = g.advice(&g.items[0]);
        assert!(
            advice.contains("expected p.2 could not be read"),
            "{advice}"
        );
        assert!(advice.contains("--ocr auto"), "{advice}");
        // Absent elsewhere: the advice says some pages could not be read.
        let absent = g.advice(&g.items[2]);
        assert!(absent.contains("1 page could not be"), "{absent}");
    }

    #[test]
    fn a_caption_on_a_readable_expected_page_is_ok_beside_an_unreadable_one() {
        let pages = ["", "Figure 1.1: A plot."];
        let sources = [PageSource::Unreadable, PageSource::Ocr];
        let d = dataset(json!([item("a", &[1, 2], "Figure 1.1", "locate")]));
        let g = ground_read(&d, &pages, &sources);
        assert_eq!(g.items[0].verdict, Verdict::Ok);
    }

    #[test]
    fn ground_without_sources_reads_every_page_from_its_layer() {
        let d = dataset(json!([item("a", &[1], "Figure 1.1", "locate")]));
        let g = ground(&d, &[""]);
        assert_eq!(g.items[0].verdict, Verdict::Absent);
        assert_eq!((g.ocr_pages, g.unreadable_pages.len()), (0, 0));
    }
}
