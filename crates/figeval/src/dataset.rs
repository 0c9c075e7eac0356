//! The dataset model and its validation (contract §1).
//!
//! A dataset is parsed once at the boundary into typed values; everything after works with
//! [`Dataset`] and [`Item`], never with JSON lookups. Validation reports *every* error it
//! finds, each saying where (line:column for syntax, item number and question start for a
//! field) and what was expected, because an operator fixing a 30-item file wants one round
//! trip, not thirty.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::describe;

pub(crate) mod locations;

/// A 1-based physical PDF page: an integer in `1..=2147483647`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u32")]
pub struct Page(u32);

impl Page {
    /// The largest page number a dataset or a response may use (`i32::MAX`).
    pub const MAX: u32 = i32::MAX as u32;

    /// A page from an integer, when it is in `1..=2147483647`.
    pub fn new(n: i64) -> Option<Page> {
        (1..=i64::from(Page::MAX))
            .contains(&n)
            .then_some(Page(n as u32))
    }

    /// The page number.
    pub fn get(self) -> u32 {
        self.0
    }
}

impl TryFrom<i64> for Page {
    type Error = String;
    fn try_from(n: i64) -> Result<Self, Self::Error> {
        Page::new(n).ok_or_else(|| format!("expected {}, found {n}", Page::rule_for_number(n)))
    }
}

impl Page {
    /// The rule a number breaks when it is not a page, in words: `a page number of 1 or
    /// more`, or for one past the limit `a page number of at most 2147483647`.
    fn rule_for_number(n: i64) -> String {
        if n > i64::from(Page::MAX) {
            format!("a page number of at most {}", Page::MAX)
        } else {
            "a page number of 1 or more".to_string()
        }
    }

    /// What a dataset says when `v` is not a page: the rule in words and what was found
    /// (`expected a page number of 1 or more, found the number 0`).
    pub(crate) fn expected(v: &Value) -> String {
        let rule = match v {
            Value::Number(n) if n.is_f64() => {
                "a whole page number (without a decimal point)".to_string()
            }
            Value::Number(n) => Page::rule_for_number(n.as_i64().unwrap_or(i64::MAX)),
            _ => "a page number (1 for the PDF's first page)".to_string(),
        };
        format!("expected {rule}, found {}", describe::value(v))
    }
}

impl From<Page> for u32 {
    fn from(p: Page) -> u32 {
        p.0
    }
}

impl fmt::Display for Page {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What answers an item's question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The caption alone answers.
    Locate,
    /// Only the drawn content answers.
    Content,
}

impl Kind {
    /// The name used in datasets and reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Locate => "locate",
            Kind::Content => "content",
        }
    }
}

/// The reporting group of an item: `prose` for the non-figure control, else its kind.
///
/// Reporting is by group so that the prose control never dilutes the figure numbers. The
/// order is by name, which is the order of `by_group` in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    /// Figure items whose answer is drawn in the figure.
    Content,
    /// Figure items whose caption answers.
    Locate,
    /// Non-figure control items, tagged `prose`.
    Prose,
}

impl Group {
    /// Every group, in report order.
    pub const ALL: [Group; 3] = [Group::Content, Group::Locate, Group::Prose];

    /// The name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Group::Content => "content",
            Group::Locate => "locate",
            Group::Prose => "prose",
        }
    }

    /// The group with this name.
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Pages of one file that carry an item's answer (contract §1.5): `start..=end` of `path`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedLocation {
    /// The file, matched to a match's file path on whole trailing path components.
    pub path: String,
    /// The first page, 1-based.
    pub start: Page,
    /// The last page, `>= start`.
    pub end: Page,
}

/// One question of a dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The question sent as the search query; unique within the dataset.
    pub question: String,
    /// The pages that carry the answer: at least one, or none when the item gives
    /// `expected_locations` instead.
    pub expected_pages: Vec<Page>,
    /// The pages of several files that carry the answer, at most one location per path; empty
    /// for an item of a single-file dataset, which gives `expected_pages`.
    pub expected_locations: Vec<ExpectedLocation>,
    /// How the document names the figure or the prose section.
    pub figure_ref: String,
    /// Whether the caption or only the drawn content answers.
    pub kind: Kind,
    /// Free tags; `prose` marks a non-figure control item.
    pub tags: Vec<String>,
}

impl Item {
    /// The item's reporting group.
    pub fn group(&self) -> Group {
        if self.tags.iter().any(|t| t == "prose") {
            Group::Prose
        } else {
            match self.kind {
                Kind::Locate => Group::Locate,
                Kind::Content => Group::Content,
            }
        }
    }

    /// Whether `page` is one of the expected pages.
    pub fn expects(&self, page: Page) -> bool {
        self.expected_pages.contains(&page)
    }
}

/// A validated dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dataset {
    /// The corpus the questions are asked against; sent as the search's `repo_id`.
    pub corpus_id: String,
    /// The items, in dataset order.
    pub items: Vec<Item>,
}

/// Where a dataset error is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A JSON syntax error at this 1-based line and column.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The top-level object.
    Dataset,
    /// An item: its 1-based number and the start of its question when it has one.
    Item {
        /// 1-based item number.
        number: usize,
        /// The start of the item's question, when it has a string question.
        question: Option<String>,
    },
}

/// One thing wrong with a dataset: where, which field, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetError {
    /// Where the error is.
    pub location: Location,
    /// The field concerned (`expected_pages[2]`), empty for syntax errors.
    pub field: String,
    /// What was expected and what was found.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::Syntax { line, column } => {
                write!(f, "line {line}, column {column}: {}", self.message)
            }
            Location::Dataset => write!(f, "dataset: {}: {}", self.field, self.message),
            Location::Item { number, question } => {
                write!(f, "item {number}")?;
                if let Some(q) = question {
                    write!(f, " ({q:?})")?;
                }
                write!(f, ": {}: {}", self.field, self.message)
            }
        }
    }
}

/// Every error found in a dataset, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetErrors(pub Vec<DatasetError>);

impl fmt::Display for DatasetErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "{n} error{} in the dataset:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DatasetErrors {}

const TOP_KEYS: [&str; 2] = ["corpus_id", "items"];

/// The longest question accepted, in characters. A search query of pages of text is not a
/// question; refusing it keeps a pasted file from becoming megabytes of request bodies.
pub(crate) const MAX_QUESTION_CHARS: usize = 4096;
/// The longest `corpus_id`, `figure_ref` or tag accepted, in characters.
pub(crate) const MAX_NAME_CHARS: usize = 1024;

/// `Err` with a message when `s` is longer than `max` characters.
pub(crate) fn check_len(s: &str, max: usize) -> Result<(), String> {
    let n = s.chars().count();
    if n > max {
        Err(format!(
            "is {n} characters long; at most {max} are accepted"
        ))
    } else {
        Ok(())
    }
}
const ITEM_KEYS: [&str; 6] = [
    "question",
    "expected_pages",
    "expected_locations",
    "figure_ref",
    "kind",
    "tags",
];

impl Dataset {
    /// Whether the dataset is of several files (contract §1.5): an item gives
    /// `expected_locations`.
    pub fn of_several_files(&self) -> bool {
        self.items.iter().any(|i| !i.expected_locations.is_empty())
    }

    /// Parses and validates a dataset from its JSON text.
    pub fn parse(text: &str) -> Result<Dataset, DatasetErrors> {
        if let Some(dataset) = parse_valid(text) {
            return Ok(dataset);
        }
        let value: Value = serde_json::from_str(text).map_err(|e| {
            DatasetErrors(vec![DatasetError {
                location: Location::Syntax {
                    line: e.line(),
                    column: e.column(),
                },
                field: String::new(),
                message: format!("not valid JSON: {}", describe::json_problem(&e)),
            }])
        })?;
        Dataset::from_value(&value)
    }

    /// Validates a dataset already parsed as JSON.
    pub fn from_value(value: &Value) -> Result<Dataset, DatasetErrors> {
        let mut errors = Vec::new();
        let top_error = |field: &str, message: String| DatasetError {
            location: Location::Dataset,
            field: field.to_string(),
            message,
        };
        let Some(obj) = value.as_object() else {
            return Err(DatasetErrors(vec![top_error(
                "(top level)",
                format!(
                    "expected an object with corpus_id and items, found {}",
                    describe::value(value)
                ),
            )]));
        };
        for key in obj.keys().filter(|k| !TOP_KEYS.contains(&k.as_str())) {
            errors.push(top_error(key_name(key), unknown_key(&TOP_KEYS)));
        }
        let corpus_id = match obj.get("corpus_id") {
            Some(Value::String(s)) if !s.trim().is_empty() => match check_len(s, MAX_NAME_CHARS) {
                Ok(()) => Some(s.clone()),
                Err(m) => {
                    errors.push(top_error("corpus_id", m));
                    None
                }
            },
            Some(v) => {
                errors.push(top_error(
                    "corpus_id",
                    format!("expected a non-empty string, found {}", describe::value(v)),
                ));
                None
            }
            None => {
                errors.push(top_error(
                    "corpus_id",
                    "missing (a non-empty string)".into(),
                ));
                None
            }
        };
        let mut items = Vec::new();
        match obj.get("items") {
            Some(Value::Array(raw)) if !raw.is_empty() => {
                let mut first_seen: HashMap<&str, usize> = HashMap::new();
                for (i, v) in raw.iter().enumerate() {
                    let number = i + 1;
                    let item = parse_item(number, v, &mut errors);
                    if let Some(Value::String(q)) = v.get("question") {
                        if let Some(first) = first_seen.get(q.as_str()) {
                            errors.push(DatasetError {
                                location: item_location(number, v),
                                field: "question".into(),
                                message: format!(
                                    "duplicates the question of item {first}; questions must be unique"
                                ),
                            });
                        } else {
                            first_seen.insert(q, number);
                        }
                    }
                    items.extend(item);
                }
            }
            Some(Value::Array(_)) => errors.push(top_error(
                "items",
                "expected at least one item, found an empty array".into(),
            )),
            Some(v) => errors.push(top_error(
                "items",
                format!("expected an array of items, found {}", describe::value(v)),
            )),
            None => errors.push(top_error("items", "missing (an array of items)".into())),
        }
        match corpus_id {
            Some(corpus_id) if errors.is_empty() => Ok(Dataset { corpus_id, items }),
            _ => Err(DatasetErrors(errors)),
        }
    }

    /// Serializes the dataset back to its JSON form.
    pub fn to_value(&self) -> Value {
        let items = self
            .items
            .iter()
            .map(|it| {
                #[allow(unused_mut)]
                let mut v = serde_json::json!({
                    "question": it.question,
                    "expected_pages": it.expected_pages,
                    "figure_ref": it.figure_ref,
                    "kind": it.kind,
                    "tags": it.tags,
                });
                locations::locations_to_value(it, &mut v);
                v
            })
            .collect::<Vec<_>>();
        serde_json::json!({ "corpus_id": self.corpus_id, "items": items })
    }

    /// How many items fall in each group, in group order; groups with no item are left out.
    pub fn group_counts(&self) -> Vec<(Group, usize)> {
        Group::ALL
            .into_iter()
            .map(|g| (g, self.items.iter().filter(|i| i.group() == g).count()))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// The fast path of [`Dataset::parse`]: a dataset that breaks no rule, read straight into
/// typed values. A `serde_json::Value` tree of a dataset costs about ten times the file's size
/// in memory (230 MB for a 100,000-item, 22 MB file), and that was the peak of a whole
/// `figeval score`. `None` for anything this path does not accept — a syntax error, an
/// unknown or repeated key, a wrong type, a broken rule — which [`Dataset::from_value`] then
/// reads again and reports in full; so this path never decides what is valid, it only
/// skips the tree when there is nothing to report.
fn parse_valid(text: &str) -> Option<Dataset> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RawDataset {
        corpus_id: String,
        items: Vec<RawItem>,
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RawItem {
        question: String,
        expected_pages: Vec<i64>,
        figure_ref: String,
        // A string, not `Kind`: serde would also take `{"locate": null}` for an enum.
        kind: String,
        #[serde(default)]
        tags: Vec<String>,
    }
    let name_ok = |s: &str| !s.trim().is_empty() && check_len(s, MAX_NAME_CHARS).is_ok();
    let raw: RawDataset = serde_json::from_str(text).ok()?;
    if !name_ok(&raw.corpus_id) || raw.items.is_empty() {
        return None;
    }
    let mut items = Vec::with_capacity(raw.items.len());
    for it in raw.items {
        let kind = match it.kind.as_str() {
            "locate" => Kind::Locate,
            "content" => Kind::Content,
            _ => return None,
        };
        if it.question.trim().is_empty()
            || check_len(&it.question, MAX_QUESTION_CHARS).is_err()
            || !name_ok(&it.figure_ref)
            || it.expected_pages.is_empty()
            || it
                .tags
                .iter()
                .any(|t| check_len(t, MAX_NAME_CHARS).is_err())
        {
            return None;
        }
        let expected_pages = it
            .expected_pages
            .iter()
            .map(|&p| Page::new(p))
            .collect::<Option<Vec<Page>>>()?;
        items.push(Item {
            question: it.question,
            expected_pages,
            expected_locations: Vec::new(),
            figure_ref: it.figure_ref,
            kind,
            tags: it.tags,
        });
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    if !items.iter().all(|it| seen.insert(it.question.as_str())) {
        return None;
    }
    drop(seen);
    Some(Dataset {
        corpus_id: raw.corpus_id,
        items,
    })
}

/// A key as an error names it: as written, or `""` when it is empty.
pub(crate) fn key_name(key: &str) -> &str {
    if key.is_empty() {
        "\"\""
    } else {
        key
    }
}

pub(crate) fn unknown_key(allowed: &[&str]) -> String {
    format!(
        "unknown key (allowed: {}); an unread key would be a silent lie about what is scored",
        allowed.join(", ")
    )
}

fn item_location(number: usize, v: &Value) -> Location {
    Location::Item {
        number,
        question: v
            .get("question")
            .and_then(Value::as_str)
            .filter(|q| !q.trim().is_empty())
            .map(describe::question),
    }
}

fn parse_item(number: usize, v: &Value, errors: &mut Vec<DatasetError>) -> Option<Item> {
    let location = item_location(number, v);
    let mut err = |field: &str, message: String| {
        errors.push(DatasetError {
            location: location.clone(),
            field: field.to_string(),
            message,
        })
    };
    let Some(obj) = v.as_object() else {
        err(
            "(item)",
            format!("expected an object, found {}", describe::value(v)),
        );
        return None;
    };
    for key in obj.keys().filter(|k| !ITEM_KEYS.contains(&k.as_str())) {
        err(key_name(key), unknown_key(&ITEM_KEYS));
    }
    let question = match obj.get("question") {
        Some(Value::String(s)) if !s.trim().is_empty() => match check_len(s, MAX_QUESTION_CHARS) {
            Ok(()) => Some(s.clone()),
            Err(m) => {
                err("question", m);
                None
            }
        },
        Some(v) => {
            err(
                "question",
                format!(
                    "expected a non-empty string, found {}",
                    if v.is_string() {
                        "an empty or blank string".to_string()
                    } else {
                        describe::value(v)
                    }
                ),
            );
            None
        }
        None => {
            err("question", "missing (a non-empty string)".into());
            None
        }
    };
    let (expected_pages, expected_locations) = locations::parse_expected(obj, &mut err);
    let figure_ref = match obj.get("figure_ref") {
        Some(Value::String(s)) if !s.trim().is_empty() => match check_len(s, MAX_NAME_CHARS) {
            Ok(()) => Some(s.clone()),
            Err(m) => {
                err("figure_ref", m);
                None
            }
        },
        Some(v) => {
            err(
                "figure_ref",
                format!(
                    "expected a non-empty string naming the figure or section, found {}",
                    describe::value(v)
                ),
            );
            None
        }
        None => {
            err(
                "figure_ref",
                "missing (how the document names the figure or section)".into(),
            );
            None
        }
    };
    let kind = match obj.get("kind") {
        Some(Value::String(s)) if s == "locate" => Some(Kind::Locate),
        Some(Value::String(s)) if s == "content" => Some(Kind::Content),
        Some(v) => {
            err(
                "kind",
                format!(
                    "expected \"locate\" or \"content\", found {}",
                    describe::value(v)
                ),
            );
            None
        }
        None => {
            err("kind", "missing (\"locate\" or \"content\")".into());
            None
        }
    };
    let tags = match obj.get("tags") {
        None => Some(Vec::new()),
        Some(Value::Array(a)) => {
            let mut tags = Vec::with_capacity(a.len());
            for (i, t) in a.iter().enumerate() {
                match t {
                    Value::String(s) => match check_len(s, MAX_NAME_CHARS) {
                        Ok(()) => tags.push(s.clone()),
                        Err(m) => err(&format!("tags[{i}]"), m),
                    },
                    other => err(
                        &format!("tags[{i}]"),
                        format!("expected a string, found {}", describe::value(other)),
                    ),
                }
            }
            (tags.len() == a.len()).then_some(tags)
        }
        Some(v) => {
            err(
                "tags",
                format!("expected an array of strings, found {}", describe::value(v)),
            );
            None
        }
    };
    Some(Item {
        question: question?,
        expected_pages: expected_pages?,
        expected_locations: expected_locations?,
        figure_ref: figure_ref?,
        kind: kind?,
        tags: tags?,
    })
}

pub(crate) fn parse_pages(
    obj: &Map<String, Value>,
    err: &mut impl FnMut(&str, String),
) -> Option<Vec<Page>> {
    match obj.get("expected_pages") {
        Some(Value::Array(a)) if !a.is_empty() => {
            let mut pages = Vec::with_capacity(a.len());
            for (i, p) in a.iter().enumerate() {
                match p.as_i64().and_then(Page::new) {
                    Some(page) => pages.push(page),
                    _ => err(&format!("expected_pages[{i}]"), Page::expected(p)),
                }
            }
            (pages.len() == a.len()).then_some(pages)
        }
        Some(Value::Array(_)) => {
            err(
                "expected_pages",
                "expected at least one page, found an empty array".into(),
            );
            None
        }
        Some(v) => {
            err(
                "expected_pages",
                format!(
                    "expected an array of page numbers, found {}",
                    describe::value(v)
                ),
            );
            None
        }
        None => {
            err(
                "expected_pages",
                "missing (an array of page numbers, 1 for the PDF's first page)".into(),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(q: &str) -> Value {
        serde_json::json!({"question": q, "expected_pages": [3], "figure_ref": "Figure 1", "kind": "locate"})
    }

    /// What the full validator makes of `text`, without the fast path.
    fn full(text: &str) -> Option<Dataset> {
        Dataset::from_value(&serde_json::from_str(text).ok()?).ok()
    }

    #[test]
    fn the_fast_path_accepts_exactly_what_the_validator_accepts() {
        let ok = |items: &str| format!(r#"{{"corpus_id": "c", "items": [{items}]}}"#);
        let with = |field: &str, value: &str| {
            ok(&format!(
                r#"{{"question": "q?", "expected_pages": [3], "figure_ref": "F", "kind": "locate", "{field}": {value}}}"#
            ))
        };
        let good = r#"{"question": "q?", "expected_pages": [3, 2147483647], "figure_ref": "F 1", "kind": "content", "tags": ["prose"]}"#;
        let long = |n: usize| format!("\"{}\"", "é".repeat(n));
        let mut cases = vec![
            ok(good),
            ok(r#"{"question": "q?", "expected_pages": [3], "figure_ref": "F", "kind": "locate"}"#),
            ok(&format!("{good}, {good}")),
            ok(r#"{"question": "q?", "expected_pages": [3], "figure_ref": "F", "kind": {"locate": null}}"#),
            ok(r#"{"question": "q?", "expected_pages": [3.0], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": "q?", "expected_pages": [0], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": "q?", "expected_pages": [2147483648], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": "q?", "expected_pages": [18446744073709551615], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": "q?", "expected_pages": [], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": " ", "expected_pages": [1], "figure_ref": "F", "kind": "locate"}"#),
            ok(r#"{"question": "q?", "question": "r?", "expected_pages": [1], "figure_ref": "F", "kind": "locate"}"#),
            with("tags", "null"),
            with("tags", "[\"a\", 1]"),
            with("x", "1"),
            r#"{"corpus_id": " ", "items": [{"question": "q?", "expected_pages": [1], "figure_ref": "F", "kind": "locate"}]}"#.to_string(),
            r#"{"corpus_id": "c", "items": []}"#.to_string(),
            r#"{"corpus_id": "c", "items": [], "extra": 1}"#.to_string(),
            r#"{"corpus_id": "c", "items": [1]} x"#.to_string(),
        ];
        for n in [MAX_NAME_CHARS, MAX_NAME_CHARS + 1] {
            cases.push(with("tags", &format!("[{}]", long(n))));
            cases.push(ok(&format!(
                r#"{{"question": "q?", "expected_pages": [3], "figure_ref": {}, "kind": "locate"}}"#,
                long(n)
            )));
            cases.push(format!(
                r#"{{"corpus_id": {}, "items": [{good}]}}"#,
                long(n)
            ));
        }
        for n in [MAX_QUESTION_CHARS, MAX_QUESTION_CHARS + 1] {
            cases.push(ok(&format!(
                r#"{{"question": {}, "expected_pages": [3], "figure_ref": "F", "kind": "locate"}}"#,
                long(n)
            )));
        }
        for text in &cases {
            if let Some(fast) = parse_valid(text) {
                assert_eq!(Some(fast), full(text), "{text}");
            }
            assert_eq!(Dataset::parse(text).ok(), full(text), "{text}");
        }
        assert!(parse_valid(&cases[0]).is_some() && parse_valid(&cases[2]).is_none());
        for path in ["nasa-apollo-11-figures.json", "octave-manual-figures.json"] {
            let file = format!(
                "{}/../../data/eval_datasets/{path}",
                env!("CARGO_MANIFEST_DIR")
            );
            let text = std::fs::read_to_string(&file).expect("the bundled datasets");
            assert!(parse_valid(&text).is_some(), "{path}");
            assert_eq!(parse_valid(&text), full(&text), "{path}");
        }
    }

    #[test]
    fn a_minimal_dataset_parses_with_default_tags() {
        let d = Dataset::from_value(
            &serde_json::json!({"corpus_id": "c", "items": [item("Which figure shows it?")]}),
        )
        .unwrap();
        assert_eq!(d.items[0].tags, Vec::<String>::new());
        assert_eq!(d.items[0].group(), Group::Locate);
        assert_eq!(d.items[0].expected_pages, vec![Page(3)]);
    }

    #[test]
    fn prose_tag_makes_the_group_prose_whatever_the_kind() {
        let mut v = item("q?");
        v["tags"] = serde_json::json!(["x", "prose"]);
        v["kind"] = serde_json::json!("content");
        let d = Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]})).unwrap();
        assert_eq!(d.items[0].group(), Group::Prose);
    }

    #[test]
    fn a_tag_that_only_contains_prose_does_not_count() {
        let mut v = item("q?");
        v["tags"] = serde_json::json!(["prose-like", "Prose"]);
        let d = Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]})).unwrap();
        assert_eq!(d.items[0].group(), Group::Locate);
    }

    #[test]
    fn every_error_is_reported_not_just_the_first() {
        let v = serde_json::json!({"corpus_id": "", "extra": 1, "items": [
            {"question": "  ", "expected_pages": [0, 1.5, "2", true], "figure_ref": 3, "kind": "other", "tags": [1], "page": 2},
            item("dup?"), item("dup?")
        ]});
        let errs = Dataset::from_value(&v).unwrap_err().0;
        let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
        let joined = text.join("\n");
        for needle in [
            "dataset: extra: unknown key",
            "dataset: corpus_id: expected a non-empty string",
            "item 1: page: unknown key",
            "question: expected a non-empty string, found an empty or blank string",
            "expected_pages[0]: expected a page number of 1 or more, found the number 0",
            "expected_pages[1]: expected a whole page number (without a decimal point), found the number 1.5",
            "expected_pages[2]: expected a page number (1 for the PDF's first page), found the string \"2\"",
            "expected_pages[3]: expected a page number (1 for the PDF's first page), found the boolean true",
            "figure_ref: expected a non-empty string",
            "kind: expected \"locate\" or \"content\", found the string \"other\"",
            "tags[0]: expected a string, found the number 1",
            "item 3 (\"dup?\"): question: duplicates the question of item 2",
        ] {
            assert!(joined.contains(needle), "missing {needle:?} in\n{joined}");
        }
        assert_eq!(errs.len(), 12, "{joined}");
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let err = Dataset::parse("{\n  \"corpus_id\": \"c\",\n  \"items\": [,]\n}").unwrap_err();
        let e = &err.0[0];
        assert_eq!(
            e.location,
            Location::Syntax {
                line: 3,
                column: 13
            }
        );
        assert!(e
            .to_string()
            .starts_with("line 3, column 13: not valid JSON: a value (a string in double quotes"));
    }

    #[test]
    fn pages_beyond_i32_are_refused() {
        let mut v = item("q?");
        v["expected_pages"] = serde_json::json!([2147483648u64]);
        let e = Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]}));
        assert!(
            e.unwrap_err().to_string().ends_with(
                "expected_pages[0]: expected a page number of at most 2147483647, found the \
                 number 2147483648"
            ),
            "a number past the limit is told the limit, not to be 1 or more"
        );
        let mut v = item("q?");
        v["expected_pages"] = serde_json::json!([u64::MAX]);
        assert!(
            Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]}))
                .unwrap_err()
                .to_string()
                .contains("at most 2147483647")
        );
        let mut v = item("q?");
        v["expected_pages"] = serde_json::json!([2147483647u64]);
        assert!(Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]})).is_ok());
    }

    #[test]
    fn top_level_must_be_an_object_with_items() {
        assert!(Dataset::parse("[]")
            .unwrap_err()
            .to_string()
            .contains("expected an object"));
        let e = Dataset::parse(r#"{"corpus_id":"c","items":[]}"#).unwrap_err();
        assert!(e.to_string().contains("items: expected at least one item"));
        let e = Dataset::parse(r#"{"items":[1]}"#).unwrap_err();
        assert!(e.to_string().contains("corpus_id: missing"));
        assert!(e
            .to_string()
            .contains("item 1: (item): expected an object, found the number 1"));
    }

    #[test]
    fn an_empty_unknown_key_is_named_visibly() {
        let mut v = item("q?");
        v[""] = serde_json::json!(1);
        let e =
            Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]})).unwrap_err();
        assert!(
            e.to_string().contains("item 1 (\"q?\"): \"\": unknown key"),
            "{e}"
        );
    }

    #[test]
    fn huge_strings_are_refused_with_their_length() {
        let long = "é".repeat(MAX_QUESTION_CHARS + 1);
        let mut v = item(&long);
        v["tags"] = serde_json::json!(["x".repeat(MAX_NAME_CHARS + 1)]);
        let e =
            Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [v]})).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("question: is 4097 characters long; at most 4096 are accepted"),
            "{text}"
        );
        assert!(
            text.contains("tags[0]: is 1025 characters long; at most 1024 are accepted"),
            "{text}"
        );
        assert!(
            text.contains("(\"éééé"),
            "the location quotes only the question's start: {text}"
        );
        assert!(text.len() < 1000);
        let ok = item(&"é".repeat(MAX_QUESTION_CHARS));
        assert!(Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [ok]})).is_ok());
    }

    #[test]
    fn to_value_round_trips() {
        let d = Dataset::from_value(
            &serde_json::json!({"corpus_id": "c", "items": [item("a?"), item("b?")]}),
        )
        .unwrap();
        assert_eq!(Dataset::from_value(&d.to_value()).unwrap(), d);
    }
}
