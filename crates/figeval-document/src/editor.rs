//! The dataset editor's logic (contract §1.4): a draft dataset, checked as it is typed.
//!
//! A [`Draft`] holds what the user has typed so far, valid or not: a question may be empty, a
//! page list may hold a word. It is checked by writing it as dataset JSON and handing that to
//! [`Dataset::parse`], so the editor's errors are the validator's own, word for word, each
//! mapped back to its item and field ([`Problem`]). The warnings are the editor's own: a
//! locate question that repeats most of its caption's words, a content question its caption
//! could answer, and locate and content items that share a page (the ground check's warning,
//! [`crate::ground`]).
//!
//! Items come from the document: [`DraftItem::from_caption`] turns an entry of the caption
//! index ([`crate::find_captions`]) into a locate item, and [`DraftItem::prose`] a section
//! heading of a page ([`crate::headings::section_headings`]) into a prose control item; the
//! question is left for the user to write.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use figeval::dataset::{Dataset, DatasetError, DatasetErrors, Group, Item, Kind, Location, Page};

use crate::caption::{Caption, Label};
use crate::ground::shared_pages;

/// The tag that marks a non-figure control item (contract §1.2).
pub const PROSE_TAG: &str = "prose";

/// One item of a draft, as typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DraftItem {
    /// The question; may be empty while it is being written.
    pub question: String,
    /// The expected pages as typed: numbers separated by commas or spaces (`332, 333`).
    pub pages: String,
    /// How the document names the figure or the section.
    pub figure_ref: String,
    /// Whether the caption or only the drawn content answers.
    pub kind: Kind,
    /// The tags; [`PROSE_TAG`] marks a prose control item.
    pub tags: Vec<String>,
}

impl Default for DraftItem {
    fn default() -> DraftItem {
        DraftItem {
            question: String::new(),
            pages: String::new(),
            figure_ref: String::new(),
            kind: Kind::Locate,
            tags: Vec::new(),
        }
    }
}

impl DraftItem {
    /// A locate item for a caption of the caption index: `figure_ref` is the caption's label,
    /// `expected_pages` its page; the question is left empty for the user to write.
    pub fn from_caption(caption: &Caption) -> DraftItem {
        DraftItem {
            pages: caption.page.to_string(),
            figure_ref: caption.label.clone(),
            ..DraftItem::default()
        }
    }

    /// A prose control item on `page` for a section heading found on it (`figure_ref` as
    /// [`crate::headings::section_headings`] gives it); the question is left empty.
    pub fn prose(page: u32, figure_ref: &str) -> DraftItem {
        DraftItem {
            pages: page.to_string(),
            figure_ref: figure_ref.to_string(),
            tags: vec![PROSE_TAG.to_string()],
            ..DraftItem::default()
        }
    }

    /// The item as it is in a dataset.
    pub fn from_item(item: &Item) -> DraftItem {
        let pages: Vec<String> = item.expected_pages.iter().map(Page::to_string).collect();
        DraftItem {
            question: item.question.clone(),
            pages: pages.join(", "),
            figure_ref: item.figure_ref.clone(),
            kind: item.kind,
            tags: item.tags.clone(),
        }
    }

    /// The valid pages of the typed page list, in the order typed; the rest are left out
    /// (the check names them).
    pub fn page_numbers(&self) -> Vec<Page> {
        page_tokens(&self.pages)
            .filter_map(|t| t.parse::<i64>().ok().and_then(Page::new))
            .collect()
    }

    /// Sets the expected pages to `page` alone (a click on its thumbnail).
    pub fn set_page(&mut self, page: u32) {
        self.pages = page.to_string();
    }

    /// Whether the item is a prose control item (tagged [`PROSE_TAG`]).
    pub fn is_prose(&self) -> bool {
        self.tags.iter().any(|t| t == PROSE_TAG)
    }

    /// Marks or unmarks the item as a prose control item; other tags are kept.
    pub fn set_prose(&mut self, prose: bool) {
        if prose && !self.is_prose() {
            self.tags.push(PROSE_TAG.to_string());
        } else if !prose {
            self.tags.retain(|t| t != PROSE_TAG);
        }
    }

    /// The item's reporting group (contract §1.2).
    pub fn group(&self) -> Group {
        self.as_item().group()
    }

    /// The item as a dataset item with only its valid pages: the typed view the warnings use.
    fn as_item(&self) -> Item {
        Item {
            question: self.question.clone(),
            expected_pages: self.page_numbers(),
            expected_locations: Vec::new(),
            figure_ref: self.figure_ref.clone(),
            kind: self.kind,
            tags: self.tags.clone(),
        }
    }

    /// The item as dataset JSON: each typed page is a number when it reads as one and the
    /// typed word otherwise, so that [`Dataset::parse`] names what is wrong with it.
    fn to_value(&self) -> Value {
        let pages: Vec<Value> = page_tokens(&self.pages)
            .map(|t| {
                t.parse::<i64>()
                    .map(Value::from)
                    .ok()
                    .or_else(|| {
                        figeval::decimal::parse(t)
                            .ok()
                            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
                    })
                    .unwrap_or_else(|| Value::String(t.to_string()))
            })
            .collect();
        serde_json::json!({
            "question": self.question,
            "expected_pages": pages,
            "figure_ref": self.figure_ref,
            "kind": self.kind,
            "tags": self.tags,
        })
    }
}

/// The words of a typed page list: separated by commas and whitespace.
fn page_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// Tags as typed in one field: separated by commas, each trimmed, empty ones dropped. (A tag
/// holding a comma can be imported but not typed.)
pub fn split_tags(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Tags as one field's text, the inverse of [`split_tags`].
pub fn join_tags(tags: &[String]) -> String {
    tags.join(", ")
}

/// A dataset being written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Draft {
    /// The corpus the questions are asked against; may be empty while typed.
    pub corpus_id: String,
    /// The items, in dataset order.
    pub items: Vec<DraftItem>,
}

/// Which field of the draft a [`Problem`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The dataset's `corpus_id`.
    CorpusId,
    /// The list of items as a whole (none yet).
    Items,
    /// An item's question.
    Question,
    /// An item's expected pages.
    Pages,
    /// An item's `figure_ref`.
    FigureRef,
    /// An item's kind.
    Kind,
    /// An item's tags.
    Tags,
}

impl Field {
    /// The field a [`DatasetError`] names (`expected_pages[2]` is [`Field::Pages`]).
    fn of(error: &DatasetError) -> Field {
        let name = error.field.split('[').next().unwrap_or("");
        match name {
            "corpus_id" => Field::CorpusId,
            "question" => Field::Question,
            "expected_pages" => Field::Pages,
            "figure_ref" => Field::FigureRef,
            "kind" => Field::Kind,
            "tags" => Field::Tags,
            _ => Field::Items,
        }
    }
}

/// What a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// A rule of the dataset is broken: export refuses the draft until it is fixed.
    Invalid,
    /// A locate question repeats most of its caption's words ([`repeats_caption`]).
    RepeatsCaption,
    /// A content question its caption could answer ([`answerable_from_caption`]).
    CaptionAnswers,
    /// Locate and content items expect the same page (contract §13.3).
    SharedPages,
}

impl Code {
    /// The name used in JSON and in the page: `invalid`, `repeats_caption`, ...
    pub fn name(self) -> &'static str {
        match self {
            Code::Invalid => "invalid",
            Code::RepeatsCaption => "repeats_caption",
            Code::CaptionAnswers => "caption_answers",
            Code::SharedPages => "shared_pages",
        }
    }

    /// Whether the problem stops an export (a broken rule); warnings do not.
    pub fn is_error(self) -> bool {
        self == Code::Invalid
    }
}

/// One thing the editor says about the draft: a broken rule or a warning, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// What it is.
    pub code: Code,
    /// The items concerned, 0-based indices into [`Draft::items`]; empty for the dataset.
    pub items: Vec<usize>,
    /// The field concerned.
    pub field: Field,
    /// What is wrong and what to do. For a broken rule this is [`Dataset::parse`]'s own
    /// sentence (`item 2 ("Which…"): question: expected a non-empty string, …`).
    pub message: String,
}

/// Why [`Draft::from_storage`] cannot restore a saved draft.
#[derive(Debug)]
pub enum StorageError {
    /// The saved text is not a draft: the reader's error, with its line and column.
    Unreadable(serde_json::Error),
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Unreadable(e) => write!(
                f,
                "the saved draft cannot be read (line {}, column {}): {}",
                e.line(),
                e.column(),
                figeval::describe::json_problem(e)
            ),
        }
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Unreadable(e) => Some(e),
        }
    }
}

impl Draft {
    /// An empty draft for `corpus_id`.
    pub fn new(corpus_id: &str) -> Draft {
        Draft {
            corpus_id: corpus_id.to_string(),
            items: Vec::new(),
        }
    }

    /// A draft of a valid dataset (an opened or bundled one).
    pub fn from_dataset(dataset: &Dataset) -> Draft {
        Draft {
            corpus_id: dataset.corpus_id.clone(),
            items: dataset.items.iter().map(DraftItem::from_item).collect(),
        }
    }

    /// Reads a dataset file as a draft (import). The file must pass [`Dataset::parse`]; its
    /// errors are returned as that function words them.
    pub fn import(text: &str) -> Result<Draft, DatasetErrors> {
        Dataset::parse(text).map(|d| Draft::from_dataset(&d))
    }

    /// Appends an item and returns its index.
    pub fn add(&mut self, item: DraftItem) -> usize {
        self.items.push(item);
        self.items.len() - 1
    }

    /// Removes the item at `index`, when there is one.
    pub fn remove(&mut self, index: usize) -> Option<DraftItem> {
        (index < self.items.len()).then(|| self.items.remove(index))
    }

    /// Moves the item at `from` to `to` (the others shift); `false`, and nothing moves, when
    /// either is out of range.
    pub fn move_item(&mut self, from: usize, to: usize) -> bool {
        if from >= self.items.len() || to >= self.items.len() {
            return false;
        }
        let item = self.items.remove(from);
        self.items.insert(to, item);
        true
    }

    /// The draft as dataset JSON, as typed (valid or not).
    fn to_value(&self) -> Value {
        let items: Vec<Value> = self.items.iter().map(DraftItem::to_value).collect();
        serde_json::json!({ "corpus_id": self.corpus_id, "items": items })
    }

    /// The draft as a dataset, checked by [`Dataset::parse`].
    pub fn to_dataset(&self) -> Result<Dataset, DatasetErrors> {
        Dataset::parse(&self.to_value().to_string())
    }

    /// The dataset file (export): pretty JSON that `figeval validate` accepts; `Err` with the
    /// validator's errors while a rule is broken.
    pub fn export(&self) -> Result<String, DatasetErrors> {
        let dataset = self.to_dataset()?;
        let mut text =
            serde_json::to_string_pretty(&dataset.to_value()).expect("a dataset always serializes");
        text.push('\n');
        Ok(text)
    }

    /// The draft as saved between visits (`localStorage`): its typed state, invalid or not.
    pub fn to_storage(&self) -> String {
        serde_json::to_string(self).expect("a draft always serializes")
    }

    /// A draft saved by [`Draft::to_storage`]; `Err` saying what is wrong with the text.
    pub fn from_storage(text: &str) -> Result<Draft, StorageError> {
        serde_json::from_str(text).map_err(StorageError::Unreadable)
    }

    /// Everything the editor says about the draft: first the broken rules, as
    /// [`Dataset::parse`] words them, then the warnings. `captions` is the document's caption
    /// index ([`crate::find_captions`]), which the caption warnings compare questions with;
    /// with no document open it is empty and only the shared-page warning can be given.
    pub fn check(&self, captions: &[Caption]) -> Vec<Problem> {
        let mut out: Vec<Problem> = match self.to_dataset() {
            Ok(_) => Vec::new(),
            Err(errors) => errors.0.iter().map(invalid).collect(),
        };
        for (index, item) in self.items.iter().enumerate() {
            if item.question.trim().is_empty() {
                continue;
            }
            let Some(caption) = caption_of(item, captions) else {
                continue;
            };
            let (q, text) = (&item.question, &caption.text);
            let (code, found) = match item.group() {
                Group::Locate => (Code::RepeatsCaption, repeats_caption(q, text)),
                Group::Content => (Code::CaptionAnswers, answerable_from_caption(q, text)),
                Group::Prose => continue,
            };
            let Some(o) = found else { continue };
            let (n, of, label, list) = (o.shared.len(), o.of, &caption.label, o.shared.join(", "));
            let message = if code == Code::RepeatsCaption {
                format!("the question repeats {n} of the {of} words of the caption of {label} ({list}): a locate question that copies its caption measures string matching, not retrieval; ask for what the figure shows in other words")
            } else {
                format!("{n} of the question's {of} words are in the caption of {label} ({list}): the caption alone may answer it; a content question asks what only the drawing shows (a value, a colour, a shape)")
            };
            out.push(Problem {
                code,
                items: vec![index],
                field: Field::Question,
                message,
            });
        }
        let typed: Vec<Item> = self.items.iter().map(DraftItem::as_item).collect();
        if let Some(w) = shared_pages(&typed) {
            let on: BTreeSet<Page> = w.pages.iter().copied().collect();
            let items = typed
                .iter()
                .enumerate()
                .filter(|(_, it)| it.group() != Group::Prose)
                .filter(|(_, it)| it.expected_pages.iter().any(|p| on.contains(p)))
                .map(|(i, _)| i)
                .collect();
            out.push(Problem {
                code: Code::SharedPages,
                items,
                field: Field::Pages,
                message: w.message,
            });
        }
        out
    }
}

/// A broken rule, from the validator's error.
fn invalid(error: &DatasetError) -> Problem {
    let items = match error.location {
        Location::Item { number, .. } => vec![number - 1],
        _ => Vec::new(),
    };
    Problem {
        code: Code::Invalid,
        items,
        field: Field::of(error),
        message: error.to_string(),
    }
}

/// The caption of the figure or table an item names: the caption index's entry with the
/// same label (compared as labels: `FIG. 5-5` is `Figure 5.5`), preferring one on an
/// expected page.
fn caption_of<'c>(item: &DraftItem, captions: &'c [Caption]) -> Option<&'c Caption> {
    let label = Label::parse(&item.figure_ref)?;
    let pages = item.page_numbers();
    let mut same = captions
        .iter()
        .filter(|c| Label::parse(&c.label).as_ref() == Some(&label));
    let first = same.clone().next()?;
    Some(
        same.find(|c| pages.iter().any(|p| p.get() == c.page))
            .unwrap_or(first),
    )
}

/// Words that carry no subject: English function words, question words and the words every
/// figure question uses (`figure`, `shows`). They are not counted by [`words`].
const STOP_WORDS: [&str; 45] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does", "fig", "figure", "for",
    "from", "how", "in", "into", "is", "it", "its", "of", "on", "or", "show", "shown", "shows",
    "table", "than", "that", "the", "then", "these", "this", "those", "to", "was", "were", "what",
    "when", "where", "which", "who", "why", "with",
];

/// The distinct words of `text` that count for overlap: maximal runs of letters and digits,
/// lowercased, less the [`STOP_WORDS`]; in order of first appearance.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        let w = w.to_lowercase();
        if !w.is_empty() && !STOP_WORDS.contains(&w.as_str()) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// How much of one text's words another repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlap {
    /// The shared words, in the order of the text they are counted against.
    pub shared: Vec<String>,
    /// How many words that text has.
    pub of: usize,
}

/// The words of `base` that `other` also has.
fn overlap(base: &str, other: &str) -> Overlap {
    let base = words(base);
    let other = words(other);
    let shared: Vec<String> = base.iter().filter(|w| other.contains(w)).cloned().collect();
    Overlap {
        shared,
        of: base.len(),
    }
}

/// Whether a locate question repeats most of its caption's words: **more than half** of the
/// caption's distinct [`words`], and at least two of them. `Some` with the overlap (counted
/// against the caption) when it does. A one-word caption is never repeated this way: a
/// question has to name the subject somehow.
pub fn repeats_caption(question: &str, caption: &str) -> Option<Overlap> {
    let o = overlap(caption, question);
    (o.shared.len() >= 2 && 2 * o.shared.len() > o.of).then_some(o)
}

/// Whether a content question could be answered from its caption alone, as far as word
/// overlap can tell: **at least three quarters** of the question's distinct [`words`], and at
/// least two of them, are in the caption, so what the question asks about is what the caption
/// says rather than what the drawing shows. `Some` with the overlap (counted against the
/// question) when it could.
pub fn answerable_from_caption(question: &str, caption: &str) -> Option<Overlap> {
    let o = overlap(question, caption);
    (o.shared.len() >= 2 && 4 * o.shared.len() >= 3 * o.of).then_some(o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::headings::section_headings;

    fn caption(label: &str, page: u32, text: &str) -> Caption {
        Caption {
            label: label.into(),
            page,
            text: text.into(),
        }
    }

    fn codes(problems: &[Problem]) -> Vec<(Code, Vec<usize>, Field)> {
        problems
            .iter()
            .map(|p| (p.code, p.items.clone(), p.field))
            .collect()
    }

    /// A valid three-item draft: a locate, a content and a prose item.
    fn draft() -> Draft {
        let mut d = Draft::new("octave-manual");
        let mut a = DraftItem::from_caption(&caption("Figure 15.3", 349, "Errorbar plot."));
        a.question =
            "Which figure marks the spread of each data point with vertical whiskers?".into();
        d.add(a);
        let mut b =
            DraftItem::from_caption(&caption("Figure 15.1", 332, "Simple Two-Dimensional Plot."));
        b.kind = Kind::Content;
        b.question = "In the sine curve example, how many peaks reach the value 1?".into();
        b.tags = vec!["plot".into()];
        d.add(b);
        let mut c = DraftItem::prose(187, "Section 8.7 Increment Operators");
        c.question = "What does x++ return when x is 2?".into();
        d.add(c);
        d
    }

    #[test]
    fn a_caption_becomes_a_locate_item_with_its_label_and_page_and_no_question() {
        let item =
            DraftItem::from_caption(&caption("Figure 15.1", 332, "Simple Two-Dimensional Plot."));
        assert_eq!(item.figure_ref, "Figure 15.1");
        assert_eq!(item.page_numbers(), [Page::new(332).unwrap()]);
        assert_eq!(item.kind, Kind::Locate);
        assert_eq!(item.question, "");
        assert_eq!(item.group(), Group::Locate);
        let prose = DraftItem::prose(187, "Section 8.7 Increment Operators");
        assert_eq!(prose.group(), Group::Prose);
        assert_eq!(prose.pages, "187");
        assert_eq!(prose.question, "");
    }

    #[test]
    fn items_are_added_edited_removed_and_reordered() {
        let mut d = draft();
        let questions = |d: &Draft| -> Vec<String> {
            d.items
                .iter()
                .map(|i| i.question.chars().take(5).collect())
                .collect()
        };
        assert_eq!(questions(&d), ["Which", "In th", "What "]);
        assert!(d.move_item(2, 0));
        assert_eq!(questions(&d), ["What ", "Which", "In th"]);
        assert!(!d.move_item(0, 3), "out of range moves nothing");
        assert_eq!(questions(&d), ["What ", "Which", "In th"]);
        d.items[1].question = "Edited?".into();
        d.items[1].set_page(350);
        assert_eq!(d.items[1].pages, "350");
        assert_eq!(
            d.remove(0).map(|i| i.figure_ref),
            Some("Section 8.7 Increment Operators".into())
        );
        assert_eq!(d.remove(5), None);
        assert_eq!(questions(&d), ["Edite", "In th"]);
        let i = d.add(DraftItem::default());
        assert_eq!(i, 2);
    }

    #[test]
    fn prose_is_a_tag_set_and_cleared_without_touching_the_others() {
        let mut item = DraftItem {
            tags: split_tags(" plot, ,figure ,"),
            ..DraftItem::default()
        };
        assert_eq!(item.tags, ["plot", "figure"]);
        item.set_prose(true);
        item.set_prose(true);
        assert_eq!(join_tags(&item.tags), "plot, figure, prose");
        assert_eq!(item.group(), Group::Prose);
        item.set_prose(false);
        assert_eq!(item.tags, ["plot", "figure"]);
        assert!(!item.is_prose());
    }

    #[test]
    fn a_valid_draft_exports_a_dataset_that_parses_back_to_the_same_draft() {
        let d = draft();
        assert_eq!(d.check(&[]), []);
        let text = d.export().unwrap();
        let dataset = Dataset::parse(&text).unwrap();
        assert_eq!(dataset.corpus_id, "octave-manual");
        assert_eq!(dataset.items.len(), 3);
        assert_eq!(dataset.items[2].tags, ["prose"]);
        assert_eq!(Draft::import(&text).unwrap(), d);
        let bundled = include_str!("../../../data/eval_datasets/octave-manual-figures.json");
        let imported = Draft::import(bundled).unwrap();
        assert_eq!(
            imported.to_dataset().unwrap(),
            Dataset::parse(bundled).unwrap()
        );
        assert!(Draft::import("{\"corpus_id\": 1}").is_err());
    }

    #[test]
    fn a_draft_survives_storage_with_its_unfinished_fields() {
        let mut d = draft();
        d.items[0].question.clear();
        d.items[1].pages = "332, x".into();
        let back = Draft::from_storage(&d.to_storage()).unwrap();
        assert_eq!(back, d);
        assert_eq!(Draft::from_storage("{}").unwrap(), Draft::default());
        let StorageError::Unreadable(e) = Draft::from_storage("[1]").unwrap_err();
        assert_eq!((e.line(), e.column()), (1, 2));
        assert_eq!(
            Draft::from_storage("[1]").unwrap_err().to_string(),
            "the saved draft cannot be read (line 1, column 2): expected a string, found the number 1"
        );
        assert_eq!(
            Draft::from_storage("{\"corpus_id\": 1}")
                .unwrap_err()
                .to_string(),
            "the saved draft cannot be read (line 1, column 15): expected a string, found the \
             number 1"
        );
    }

    #[test]
    fn broken_rules_are_the_validators_words_on_their_item_and_field() {
        let mut d = draft();
        d.corpus_id = " ".into();
        d.items[0].question.clear();
        d.items[1].pages = "332, x, 0, 2.5".into();
        d.items[2].question = d.items[1].question.clone();
        d.items[2].figure_ref.clear();
        let problems = d.check(&[]);
        let expected = Dataset::parse(&d.to_value().to_string()).unwrap_err();
        let messages: Vec<String> = problems.iter().map(|p| p.message.clone()).collect();
        let wording: Vec<String> = expected.0.iter().map(|e| e.to_string()).collect();
        assert_eq!(messages, wording, "the same errors, in the same words");
        assert_eq!(
            codes(&problems),
            [
                (Code::Invalid, vec![], Field::CorpusId),
                (Code::Invalid, vec![0], Field::Question),
                (Code::Invalid, vec![1], Field::Pages),
                (Code::Invalid, vec![1], Field::Pages),
                (Code::Invalid, vec![1], Field::Pages),
                (Code::Invalid, vec![2], Field::FigureRef),
                (Code::Invalid, vec![2], Field::Question),
            ]
        );
        for needle in [
            "expected_pages[1]: expected a page number (1 for the PDF's first page), found the string \"x\"",
            "expected_pages[2]: expected a page number of 1 or more, found the number 0",
            "expected_pages[3]: expected a whole page number (without a decimal point), found the number 2.5",
            "item 3 (\"In the sine curve example, how many peaks reach …\"): question: duplicates the question of item 2",
        ] {
            assert!(messages.iter().any(|m| m.contains(needle)), "{needle:?} in {messages:#?}");
        }
        assert!(d.export().is_err());
        assert_eq!(d.items[1].page_numbers(), [Page::new(332).unwrap()]);
        let empty = Draft::new("c").check(&[]);
        assert_eq!(codes(&empty), [(Code::Invalid, vec![], Field::Items)]);
        assert!(empty[0]
            .message
            .contains("items: expected at least one item"));
        let mut blank_pages = draft();
        blank_pages.items[0].pages = " , ".into();
        assert!(blank_pages.check(&[])[0]
            .message
            .ends_with("expected_pages: expected at least one page, found an empty array"));
    }

    #[test]
    fn words_are_lowercased_runs_of_letters_and_digits_without_stop_words() {
        assert_eq!(
            words("Which figure shows the Polar plot, of sin(x) in 3-D? Polar!"),
            ["polar", "plot", "sin", "x", "3", "d"]
        );
        assert_eq!(words("Überblick der Daten"), ["überblick", "der", "daten"]);
    }

    #[test]
    fn a_locate_question_repeating_more_than_half_its_captions_words_is_warned() {
        // Caption words: comparison, interp1, interpft, data (4).
        let caption = "Comparison of interp1 and interpft for data";
        let half = "Which figure puts interp1 beside interpft?";
        assert_eq!(
            repeats_caption(half, caption),
            None,
            "2 of 4 is not more than half"
        );
        let more = "Which figure compares interp1 with interpft on data?";
        let o = repeats_caption(more, caption).unwrap();
        assert_eq!(
            (o.shared, o.of),
            (
                vec!["interp1".to_string(), "interpft".into(), "data".into()],
                4
            )
        );
        assert_eq!(
            repeats_caption("Which figure shows a histogram?", "Histogram."),
            None,
            "one word"
        );
        assert!(repeats_caption("Which figure is a polar plot?", "Polar plot.").is_some());
    }

    #[test]
    fn a_content_question_mostly_made_of_its_captions_words_is_warned() {
        let caption = "Delaunay triangulation of a random set of points";
        // Question words: delaunay, triangulation, points, colour (4): 3 in the caption.
        let three_quarters = "In the Delaunay triangulation of points, what colour?";
        let o = answerable_from_caption(three_quarters, caption);
        assert_eq!(o.map(|o| (o.shared.len(), o.of)), Some((3, 4)));
        // Question words: delaunay, triangulation, points, colour, lines (5): 3 in the caption.
        let below = "In the Delaunay triangulation of points, what colour are the lines?";
        assert_eq!(
            answerable_from_caption(below, caption),
            None,
            "3 of 5 is under three quarters"
        );
    }

    #[test]
    fn the_caption_warnings_find_the_caption_by_label_and_page() {
        let captions = [
            caption(
                "Figure 30.1",
                843,
                "Delaunay triangulation of a random set of points",
            ),
            caption(
                "Figure 30.5",
                854,
                "The convex hull of a simple set of points",
            ),
            caption(
                "Table 15.1",
                423,
                "Available special characters in TEX mode",
            ),
            caption("Table 15.1", 424, "Other"),
        ];
        let mut d = Draft::new("c");
        let mut locate = DraftItem::from_caption(&captions[1]);
        locate.question = "Which figure shows the convex hull of a simple set of points?".into();
        d.add(locate);
        let mut content = DraftItem::from_caption(&captions[0]);
        content.figure_ref = "FIG. 30-1".into();
        content.kind = Kind::Content;
        content.question = "In the Delaunay triangulation of points, what colour?".into();
        d.add(content);
        let mut prose = DraftItem::prose(855, "Section 30.2 Convex Hull");
        prose.question =
            "Which figure shows the convex hull of a simple set of points again?".into();
        d.add(prose);
        let mut table = DraftItem::from_caption(&captions[3]);
        table.question = "Which table lists the available special characters in TEX mode?".into();
        d.add(table);
        let problems = d.check(&captions);
        assert_eq!(
            codes(&problems),
            [
                (Code::RepeatsCaption, vec![0], Field::Question),
                (Code::CaptionAnswers, vec![1], Field::Question),
            ],
            "{problems:#?}"
        );
        assert!(problems[0]
            .message
            .contains("repeats 5 of the 5 words of the caption of Figure 30.5"));
        assert!(problems[1]
            .message
            .contains("3 of the question's 4 words are in the caption of Figure 30.1"));
        assert_eq!(
            d.check(&[]),
            [],
            "without a caption index only shared pages can be warned of"
        );
        d.items[3].set_page(423);
        assert_eq!(
            codes(&d.check(&captions))[2],
            (Code::RepeatsCaption, vec![3], Field::Question)
        );
    }

    #[test]
    fn locate_and_content_items_on_one_page_get_the_ground_checks_warning() {
        let mut d = draft();
        d.items[1].pages = "349, 332".into();
        let mut prose = DraftItem::prose(349, "Section 15.2 Errorbars");
        prose.question = "Prose on the same page?".into();
        d.add(prose);
        let problems = d.check(&[]);
        assert_eq!(
            codes(&problems),
            [(Code::SharedPages, vec![0, 1], Field::Pages)]
        );
        let dataset = d.to_dataset().unwrap();
        let ground = crate::ground(&dataset, &[""; 400]);
        assert_eq!(problems[0].message, ground.warnings[0].message);
        assert!(!Code::SharedPages.is_error() && Code::Invalid.is_error());
    }

    #[test]
    fn a_prose_item_from_a_section_heading_is_rated_ok_by_the_ground_check() {
        let mut pages = vec![String::new(); 4];
        pages[2] = "Chapter 8: Expressions                 171\n\nthe end of a paragraph.\n8.7 Increment Operators\nIncrement operators increase.\n1. Install it first.\n".into();
        let headings = section_headings(&pages[2]);
        assert_eq!(headings, ["Section 8.7 Increment Operators"]);
        let mut d = Draft::new("c");
        let mut item = DraftItem::prose(3, &headings[0]);
        item.question = "What does x++ return?".into();
        d.add(item);
        let g = crate::ground(&d.to_dataset().unwrap(), &pages);
        assert_eq!(g.items[0].verdict, crate::Verdict::Ok);
    }
}
