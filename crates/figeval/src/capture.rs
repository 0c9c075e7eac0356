//! Captures: reading saved responses in every accepted form and pairing them to items (contract §6).
//!
//! Accepted forms, anywhere a capture is read:
//!
//! - JSON Lines of envelopes `{"question": ..., "response": <body>}` (what `figeval run
//!   --capture` writes; it adds a `request` object with the search parameters);
//! - JSON Lines of bare response bodies, paired by their `query`;
//! - a JSON array of bodies or envelopes;
//! - a single body (or several concatenated), pretty-printed or not.
//!
//! [`CaptureReader`] is the one place that tells these forms apart. It is fed the capture in
//! chunks of any size (a shell streams a file through it; the page feeds its text), reads JSON
//! Lines line by line, so memory grows with the number of items and not with the size of the
//! response bodies, and gathers a document whole. It hands every response to a [`Pairing`].
//!
//! A capture is written one flushed line per answer, so a crash mid-write can leave its last
//! line cut off. That line is expected: the reader drops it and says so ([`CutOff`]), and its
//! item counts as unanswered (a resume asks for it again). A bad line anywhere else is an error.

use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::dataset::{strip_position, Dataset};
use crate::describe;
use crate::report::{CacheMode, RequestInfo};
use crate::request::SearchRequest;
use crate::response::{Body, BodySeed, Match, RequestFields, Response, ResponseProblem};
use crate::score::{score_item, ItemRecord, ScoreConfig};
use crate::snippet::{self, Snippet};
use crate::trec::{self, RankedPage, SpanTooWide};

/// How many line-level errors are kept; past that they are counted, not stored.
const MAX_KEPT_ERRORS: usize = 100;
/// How many questions an error message lists.
const LISTED_QUESTIONS: usize = 20;

/// Where in a capture a response is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A 1-based line of a JSON Lines capture.
    Line(usize),
    /// A 1-based element of a JSON array capture.
    Element(usize),
    /// The 1-based value of a document holding one or more (pretty-printed) bodies.
    Value(usize),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Line(n) => write!(f, "line {n}"),
            Source::Element(n) => write!(f, "array element {n}"),
            Source::Value(n) => write!(f, "response {n} of the document"),
        }
    }
}

/// One problem with a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureError {
    /// Text that is not JSON.
    NotJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A line that is not UTF-8 text.
    NotText {
        /// 1-based line.
        line: usize,
        /// 1-based column (in bytes) of the first byte that is not UTF-8.
        column: usize,
    },
    /// A line longer than any search response; reading stops there.
    LineTooLong {
        /// 1-based line.
        line: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// An envelope without a string `question`.
    EnvelopeWithoutQuestion {
        /// Where it is.
        at: Source,
    },
    /// An object with a `question` but neither a `response` nor `matches`.
    EnvelopeWithoutResponse {
        /// Where it is.
        at: Source,
        /// The object's keys.
        keys: Vec<String>,
    },
    /// A bare body without a string `query` to pair it by.
    BodyWithoutQuery {
        /// Where it is.
        at: Source,
    },
    /// A response that cannot be scored.
    Response {
        /// Where it is.
        at: Source,
        /// The question it answers, when known.
        question: Option<String>,
        /// What is wrong with it.
        problem: ResponseProblem,
    },
    /// Responses for questions that are not in the dataset.
    UnknownQuestions(Vec<String>),
    /// Questions with more than one response.
    DuplicateResponses(Vec<String>),
    /// Items with no response.
    MissingResponses(Vec<String>),
    /// The capture holds no response at all.
    Empty,
    /// More line-level errors than are listed.
    More(usize),
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureError::NotJson {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: not JSON: {message}"),
            CaptureError::NotText { line, column } => write!(
                f,
                "line {line} is not UTF-8 text (invalid byte at column {column})"
            ),
            CaptureError::LineTooLong { line, limit } => write!(
                f,
                "line {line} is over {limit} bytes; no search response is that large"
            ),
            CaptureError::EnvelopeWithoutQuestion { at } => {
                write!(
                    f,
                    "{at}: an envelope with a `response` needs a string `question`"
                )
            }
            CaptureError::EnvelopeWithoutResponse { at, keys } => write!(
                f,
                "{at}: has a `question` but no `response` and no `matches` (its keys: {})",
                keys.join(", ")
            ),
            CaptureError::BodyWithoutQuery { at } => write!(
                f,
                "{at}: a bare response body needs a string `query` to be paired with its question"
            ),
            CaptureError::Response {
                at,
                question,
                problem,
            } => {
                write!(f, "{at}")?;
                if let Some(q) = question {
                    write!(f, " (question {:?})", describe::question(q))?;
                }
                write!(f, ": {problem}")
            }
            CaptureError::UnknownQuestions(qs) => write!(
                f,
                "{} response(s) for questions that are not in the dataset:{}",
                qs.len(),
                describe::question_list(qs, LISTED_QUESTIONS)
            ),
            CaptureError::DuplicateResponses(qs) => write!(
                f,
                "{} question(s) with more than one response:{}",
                qs.len(),
                describe::question_list(qs, LISTED_QUESTIONS)
            ),
            CaptureError::MissingResponses(qs) => write!(
                f,
                "{} item(s) with no response (allow missing responses to score the rest and \
                 list these as unscored):{}",
                qs.len(),
                describe::question_list(qs, LISTED_QUESTIONS)
            ),
            CaptureError::Empty => f.write_str("the capture holds no response"),
            CaptureError::More(n) => write!(f, "… and {n} more error(s) like those above"),
        }
    }
}

/// Every problem found with a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureErrors(pub Vec<CaptureError>);

impl fmt::Display for CaptureErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "{n} problem{} with the responses:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            let text = e.to_string().replace('\n', "\n  ");
            write!(f, "\n  {text}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CaptureErrors {}

/// The outcome of pairing, everything a report is made of but its run facts
/// ([`crate::Report::build`]): the dataset's corpus, the settings the records were scored with,
/// the search parameters the responses were asked with, the records and what went unscored
/// (and, for the page's ranked window, what the matches said: not part of a report).
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// The dataset's corpus.
    pub corpus_id: String,
    /// The settings every record was scored with.
    pub config: ScoreConfig,
    /// The search parameters, when every response recorded the same ones (a live answer
    /// records the request it was asked with, as its capture line does).
    pub request: RequestInfo,
    /// One record per scored item, in dataset order.
    pub records: Vec<ItemRecord>,
    /// Questions with no response (only when missing responses were allowed).
    pub unscored: Vec<String>,
    /// What each record's top matches said, one list per record (in the same order), when
    /// the pairing kept them ([`Pairing::keep_snippets`]); empty otherwise.
    pub snippets: Vec<Vec<Snippet>>,
}

/// Whether a capture whose first non-blank line is `first_line` must be read as one document
/// (a JSON array, or a body pretty-printed across lines) rather than line by line.
fn is_multiline_document(first_line: &str) -> bool {
    let t = first_line.trim_start();
    if t.starts_with('[') {
        return true;
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(first_line) {
        Ok(_) => false,
        Err(e) => e.is_eof(),
    }
}

/// The longest capture line read (the limit a live run puts on a response body, too): a longer
/// one is an error, not a silent truncation, and it bounds what one line holds in memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// A last line that a crash cut off mid-write: no line break ends it and its JSON stops short
/// (or its text stops inside a character). It is dropped, not an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutOff {
    /// Its 1-based line number.
    pub line: usize,
    /// The byte offset it starts at: the capture's complete lines end there.
    pub offset: u64,
}

impl fmt::Display for CutOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is cut off (no line break ends it and its JSON stops short, as a crash \
             mid-write leaves a capture); it was dropped, and its item counts as unanswered",
            self.line
        )
    }
}

/// How the reader is reading.
enum Mode {
    /// Before the first non-blank line: the form is not known yet.
    Start,
    /// JSON Lines, one response a line.
    Lines,
    /// One document, gathered whole (line breaks before it kept, so errors keep their lines).
    Document(Vec<u8>),
}

/// Reads a capture in any accepted form (see the module documentation) from chunks of any
/// size, and pairs every response it holds. It does no I/O: a shell feeds it.
pub struct CaptureReader<'d> {
    pairing: Pairing<'d>,
    mode: Mode,
    /// Lines completed so far.
    lines: usize,
    /// Bytes of the complete lines so far (where `partial` starts).
    offset: u64,
    /// The start of a line whose line break has not arrived yet.
    partial: Vec<u8>,
    /// Set after an error that ends reading (a line over [`MAX_LINE_BYTES`]).
    stopped: bool,
}

/// What reading a capture came to: the pairing to finish, and the cut-off last line, if any.
pub struct CaptureRead<'d> {
    /// Every response read, paired; [`Pairing::finish`] gives the records or the problems.
    pub pairing: Pairing<'d>,
    /// The last line, when a crash cut it off (it was dropped).
    pub cut_off: Option<CutOff>,
}

/// The text of a line, or the 1-based column of its first byte that is not UTF-8.
fn line_text(bytes: &[u8]) -> Result<&str, usize> {
    // simdutf8 checks a line several times faster than `std::str::from_utf8` (whose check was
    // a sixth of a whole `figeval score`); on failure std says where.
    #[cfg(feature = "simdutf8")]
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to() + 1)
}

impl<'d> CaptureReader<'d> {
    /// Starts reading a capture into `pairing`.
    pub fn new(pairing: Pairing<'d>) -> CaptureReader<'d> {
        CaptureReader {
            pairing,
            mode: Mode::Start,
            lines: 0,
            offset: 0,
            partial: Vec::new(),
            stopped: false,
        }
    }

    /// Reads a whole capture text.
    pub fn read_str(pairing: Pairing<'d>, text: &str) -> CaptureRead<'d> {
        let mut r = CaptureReader::new(pairing);
        r.feed_str(text);
        r.end()
    }

    /// Feeds the next bytes of the capture (a chunk may end anywhere, even inside a character).
    pub fn feed(&mut self, bytes: &[u8]) {
        self.push(bytes, None);
    }

    /// Feeds the next text of the capture (already known to be UTF-8, so not checked again).
    pub fn feed_str(&mut self, text: &str) {
        self.push(text.as_bytes(), Some(text));
    }

    /// Feeds one complete line (without its line break), for a shell that holds lines.
    pub fn feed_line(&mut self, line: &str) {
        self.feed_str(line);
        self.feed_str("\n");
    }

    /// Whether more input is of use: `false` once an error has ended reading.
    pub fn wants_more(&self) -> bool {
        !self.stopped
    }

    fn push(&mut self, bytes: &[u8], text: Option<&str>) {
        let mut at = 0;
        while !self.stopped {
            if let Mode::Document(doc) = &mut self.mode {
                doc.extend_from_slice(&bytes[at..]);
                return;
            }
            let Some(end) = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i) else {
                break;
            };
            if self.partial.is_empty() {
                let line = match text {
                    Some(t) => Ok(&t[at..end]),
                    None => line_text(&bytes[at..end]),
                };
                self.complete_line(line, end - at);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(&bytes[at..end]);
                self.complete_line(line_text(&whole), whole.len());
                whole.clear();
                self.partial = whole;
            }
            at = end + 1;
        }
        if self.stopped {
            return;
        }
        let rest = &bytes[at..];
        if self.partial.len() + rest.len() > MAX_LINE_BYTES {
            self.too_long(self.lines + 1);
            return;
        }
        self.partial.extend_from_slice(rest);
    }

    fn too_long(&mut self, line: usize) {
        self.pairing.error(CaptureError::LineTooLong {
            line,
            limit: MAX_LINE_BYTES,
        });
        self.stopped = true;
    }

    fn complete_line(&mut self, line: Result<&str, usize>, len: usize) {
        self.lines += 1;
        self.offset += len as u64 + 1;
        let n = self.lines;
        if len > MAX_LINE_BYTES {
            return self.too_long(n);
        }
        let line = match line {
            Ok(l) => l,
            Err(column) => {
                return self
                    .pairing
                    .error(CaptureError::NotText { line: n, column })
            }
        };
        if line.trim().is_empty() {
            return;
        }
        if matches!(self.mode, Mode::Start) {
            if is_multiline_document(line) {
                let mut doc = "\n".repeat(n - 1).into_bytes();
                doc.extend_from_slice(line.as_bytes());
                doc.push(b'\n');
                self.mode = Mode::Document(doc);
                return;
            }
            self.mode = Mode::Lines;
        }
        match serde_json::from_str::<Entry>(line) {
            Ok(Entry(body)) => self.pairing.add_entry(Source::Line(n), body),
            Err(e) => self.pairing.error(not_json(n, &e)),
        }
    }

    /// Ends the capture: reads its last line (the one no line break ends) and its document.
    pub fn end(mut self) -> CaptureRead<'d> {
        let mut cut_off = None;
        let last = std::mem::take(&mut self.partial);
        if !self.stopped && !last.is_empty() {
            let n = self.lines + 1;
            // A last line that stops inside a character was cut off if its JSON stops short.
            let (text, broken_char) = match std::str::from_utf8(&last) {
                Ok(t) => (t, None),
                Err(e) => (
                    std::str::from_utf8(&last[..e.valid_up_to()]).unwrap_or_default(),
                    Some((e.valid_up_to() + 1, e.error_len().is_none())),
                ),
            };
            let starts_document = matches!(self.mode, Mode::Start)
                && broken_char.is_none()
                && text.trim_start().starts_with('[');
            if starts_document {
                let mut doc = "\n".repeat(n - 1);
                doc.push_str(text);
                self.pairing.add_document(&doc);
            } else if broken_char.is_some() || !text.trim().is_empty() {
                let cut = CutOff {
                    line: n,
                    offset: self.offset,
                };
                match (serde_json::from_str::<Entry>(text), broken_char) {
                    (Err(e), Some((_, true))) | (Err(e), None) if e.is_eof() => cut_off = Some(cut),
                    (_, Some((column, _))) => self
                        .pairing
                        .error(CaptureError::NotText { line: n, column }),
                    (Ok(Entry(body)), None) => self.pairing.add_entry(Source::Line(n), body),
                    (Err(e), None) => self.pairing.error(not_json(n, &e)),
                }
            }
        }
        if let Mode::Document(doc) = std::mem::replace(&mut self.mode, Mode::Lines) {
            match String::from_utf8(doc) {
                Ok(text) => self.pairing.add_document(&text),
                Err(e) => {
                    let bytes = e.as_bytes();
                    let at = e.utf8_error().valid_up_to();
                    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                    let line_start = bytes[..at]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    self.pairing.error(CaptureError::NotText {
                        line,
                        column: at - line_start + 1,
                    });
                }
            }
        }
        CaptureRead {
            pairing: self.pairing,
            cut_off,
        }
    }
}

fn not_json(line: usize, e: &serde_json::Error) -> CaptureError {
    CaptureError::NotJson {
        line,
        column: e.column(),
        message: strip_position(e),
    }
}

/// Pairs responses to a dataset's items by exact question text, scoring each as it arrives.
pub struct Pairing<'d> {
    dataset: &'d Dataset,
    config: ScoreConfig,
    index: HashMap<&'d str, usize>,
    seen: Vec<bool>,
    records: Vec<Option<ItemRecord>>,
    unknown: Vec<String>,
    duplicates: Vec<String>,
    errors: Vec<CaptureError>,
    dropped_errors: usize,
    responses: usize,
    /// `None` before the first response; then the request all responses agree on, or
    /// `Some(None)` once one disagrees or has none.
    request: Option<Option<RequestFields>>,
    /// Each item's page run ([`trec::page_run`]), kept only for `figeval export`.
    page_runs: Option<Vec<Option<PageRun>>>,
    /// Each item's snippets ([`snippet::of_matches`]), kept only for the browser's window.
    snippets: Option<Vec<Option<Vec<Snippet>>>>,
}

/// An item's page run, or why its matches cannot be listed page by page.
pub type PageRun = Result<Vec<RankedPage>, SpanTooWide>;

/// A capture entry: a body read with envelope keys recognised.
struct Entry(Body);

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BodySeed { envelope: true }.deserialize(d).map(Entry)
    }
}

/// A JSON array of entries.
struct Entries(Vec<Body>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON array of response bodies or envelopes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(Entry(b)) = seq.next_element()? {
                    out.push(b);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_seq(V)
    }
}

impl<'d> Pairing<'d> {
    /// Starts pairing responses to `dataset`'s items.
    pub fn new(dataset: &'d Dataset, config: ScoreConfig) -> Pairing<'d> {
        let index = dataset
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.question.as_str(), i))
            .collect();
        let n = dataset.items.len();
        Pairing {
            dataset,
            config,
            index,
            seen: vec![false; n],
            records: vec![None; n],
            unknown: Vec::new(),
            duplicates: Vec::new(),
            errors: Vec::new(),
            dropped_errors: 0,
            responses: 0,
            request: None,
            page_runs: None,
            snippets: None,
        }
    }

    /// Keeps what each answered item's top matches said ([`crate::snippet`]) as well as its
    /// record; [`Scored::snippets`] holds them.
    pub fn keep_snippets(&mut self) {
        self.snippets = Some(vec![None; self.dataset.items.len()]);
    }

    /// Keeps each answered item's page run as well as its record (see [`crate::trec`]).
    pub fn keep_page_runs(&mut self) {
        self.page_runs = Some(vec![None; self.dataset.items.len()]);
    }

    /// The page runs kept since [`Pairing::keep_page_runs`], by dataset index (`None` for an
    /// item without a usable response); empty when they were not kept.
    pub fn take_page_runs(&mut self) -> Vec<Option<PageRun>> {
        self.page_runs.take().unwrap_or_default()
    }

    /// Reads a document: a JSON array of entries, or one or more concatenated JSON values.
    fn add_document(&mut self, text: &str) {
        if text.trim_start().starts_with('[') {
            match serde_json::from_str::<Entries>(text) {
                Ok(Entries(bodies)) => {
                    for (i, b) in bodies.into_iter().enumerate() {
                        self.add_entry(Source::Element(i + 1), b);
                    }
                }
                Err(e) => self.syntax_error(&e),
            }
            return;
        }
        let stream = serde_json::Deserializer::from_str(text).into_iter::<Entry>();
        for (i, entry) in stream.enumerate() {
            match entry {
                Ok(Entry(b)) => self.add_entry(Source::Value(i + 1), b),
                Err(e) => {
                    self.syntax_error(&e);
                    return;
                }
            }
        }
    }

    /// Whether an item with this question has been answered by a usable response.
    pub fn is_answered(&self, question: &str) -> bool {
        self.index
            .get(question)
            .is_some_and(|&i| self.records[i].is_some())
    }

    /// The records scored so far, by dataset index.
    pub fn records(&self) -> &[Option<ItemRecord>] {
        &self.records
    }

    /// Whether any problem has been found so far (unknown, duplicate or unreadable responses).
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty() || !self.unknown.is_empty() || !self.duplicates.is_empty()
    }

    /// Every problem found so far (unknown, duplicate or unreadable responses), as
    /// [`Pairing::finish`] would list them; items still unanswered are not a problem here.
    /// What a resume checks before it asks for the rest.
    pub fn check(&self) -> Result<(), CaptureErrors> {
        let errors = self.problems();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(CaptureErrors(errors))
        }
    }

    /// The problems found so far, in the order they are listed (the kept errors are bounded,
    /// so this copy is small).
    fn problems(&self) -> Vec<CaptureError> {
        let mut errors = self.errors.clone();
        if self.dropped_errors > 0 {
            errors.push(CaptureError::More(self.dropped_errors));
        }
        if !self.unknown.is_empty() {
            errors.push(CaptureError::UnknownQuestions(self.unknown.clone()));
        }
        if !self.duplicates.is_empty() {
            errors.push(CaptureError::DuplicateResponses(self.duplicates.clone()));
        }
        errors
    }

    /// Whether every response so far recorded that it was asked with `request` (true before
    /// the first): a capture a live run may complete.
    pub fn asked_with(&self, request: &SearchRequest<'_>) -> bool {
        match &self.request {
            None => true,
            Some(recorded) => recorded.as_ref() == Some(&RequestFields::of(request)),
        }
    }

    /// Scores a live answer to the item at `index` (dataset order), asked with `request`: it
    /// counts as the capture line of that answer would ([`SearchRequest::envelope_line`]), so a
    /// live run's report and its capture's agree by construction. `None` (and nothing
    /// recorded) for an index outside the dataset; a second answer to an item is a duplicate.
    pub fn add_answer(
        &mut self,
        index: usize,
        request: &SearchRequest<'_>,
        matches: &[Match],
    ) -> Option<&ItemRecord> {
        if index >= self.dataset.items.len() {
            return None;
        }
        self.responses += 1;
        self.note_request(Some(RequestFields::of(request)));
        if !self.claim(index) {
            return None;
        }
        self.record(index, matches);
        self.records[index].as_ref()
    }

    /// Marks the item at `i` answered; `false` (and its question listed as a duplicate) when it
    /// already was.
    fn claim(&mut self, i: usize) -> bool {
        if std::mem::replace(&mut self.seen[i], true) {
            self.duplicates.push(self.dataset.items[i].question.clone());
            return false;
        }
        true
    }

    /// Scores the item at `i` on `matches`, keeping its page run and snippets when asked to.
    fn record(&mut self, i: usize, matches: &[Match]) {
        if let Some(runs) = &mut self.page_runs {
            runs[i] = Some(trec::page_run(matches));
        }
        if let Some(snippets) = &mut self.snippets {
            snippets[i] = Some(snippet::of_matches(matches));
        }
        self.records[i] = Some(score_item(&self.dataset.items[i], matches, self.config));
    }

    /// Ends pairing: the scored records, or every problem found.
    ///
    /// With `allow_missing`, items without a response are listed as unscored instead of being
    /// an error; they are left out of every summary's `n`.
    pub fn finish(self, allow_missing: bool) -> Result<Scored, CaptureErrors> {
        let mut errors = self.problems();
        let missing: Vec<String> = self
            .dataset
            .items
            .iter()
            .zip(&self.seen)
            .filter(|(_, &seen)| !seen)
            .map(|(it, _)| it.question.clone())
            .collect();
        if self.responses == 0 && errors.is_empty() {
            errors.push(CaptureError::Empty);
        } else if !missing.is_empty() && !allow_missing {
            errors.push(CaptureError::MissingResponses(missing.clone()));
        }
        if !errors.is_empty() {
            return Err(CaptureErrors(errors));
        }
        let request = self
            .request
            .flatten()
            .map_or_else(RequestInfo::default, |r| RequestInfo {
                base_url: r.base_url,
                top_k: r.top_k,
                cache_mode: r.cache_mode.and_then(|m| m.parse::<CacheMode>().ok()),
            });
        // `filter_map` collects in place, reusing the array of slots; `flatten` does not, and
        // a second array of records would add its size (17 MB at 100,000 items) to the peak.
        #[allow(clippy::filter_map_identity)]
        let records = self.records.into_iter().filter_map(|r| r).collect();
        // Kept exactly for the items that have a record, so the two lists line up.
        #[allow(clippy::filter_map_identity)]
        let snippets = self
            .snippets
            .map_or_else(Vec::new, |s| s.into_iter().filter_map(|s| s).collect());
        Ok(Scored {
            corpus_id: self.dataset.corpus_id.clone(),
            config: self.config,
            request,
            records,
            unscored: missing,
            snippets,
        })
    }

    fn error(&mut self, e: CaptureError) {
        if self.errors.len() < MAX_KEPT_ERRORS {
            self.errors.push(e);
        } else {
            self.dropped_errors += 1;
        }
    }

    fn syntax_error(&mut self, e: &serde_json::Error) {
        self.error(CaptureError::NotJson {
            line: e.line(),
            column: e.column(),
            message: strip_position(e),
        });
    }

    fn add_entry(&mut self, at: Source, mut body: Body) {
        self.responses += 1;
        let request = body.request.take();
        if let Some(inner) = body.response {
            let Some(Some(question)) = body.question else {
                return self.error(CaptureError::EnvelopeWithoutQuestion { at });
            };
            self.note_request(request);
            return self.pair(at, question, inner.into_response());
        }
        if body.question.is_some() && body.query.is_none() && !body.has_matches() {
            let keys = body.keys().to_vec();
            return self.error(CaptureError::EnvelopeWithoutResponse { at, keys });
        }
        self.note_request(None);
        let response = body.into_response();
        match response.query.clone() {
            Some(q) => self.pair(at, q, response),
            None => match response.matches {
                Err(problem) => self.error(CaptureError::Response {
                    at,
                    question: None,
                    problem,
                }),
                Ok(_) => self.error(CaptureError::BodyWithoutQuery { at }),
            },
        }
    }

    fn note_request(&mut self, request: Option<RequestFields>) {
        self.request = match self.request.take() {
            None => Some(request),
            Some(prev) if prev == request => Some(prev),
            Some(_) => Some(None),
        };
    }

    fn pair(&mut self, at: Source, question: String, response: Response) {
        let Some(&i) = self.index.get(question.as_str()) else {
            if self.unknown.len() < MAX_KEPT_ERRORS * 10 {
                self.unknown.push(question);
            }
            return;
        };
        if !self.claim(i) {
            return;
        }
        match response.matches {
            Ok(matches) => self.record(i, &matches),
            Err(problem) => self.error(CaptureError::Response {
                at,
                question: Some(question),
                problem,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Report, RunInfo};

    fn dataset() -> Dataset {
        Dataset::parse(
            r#"{"corpus_id":"c","items":[
            {"question":"Which figure shows A?","expected_pages":[1],"figure_ref":"F1","kind":"locate"},
            {"question":"Which figure shows B?","expected_pages":[2],"figure_ref":"F2","kind":"content"}]}"#,
        )
        .unwrap()
    }

    fn body(q: &str, page: u32) -> String {
        format!(
            r#"{{"query":{q:?},"matches":[{{"chunk_id":"x","content":"…","provenance":{{"page_start":{page},"page_end":{page}}}}}]}}"#
        )
    }

    fn envelope(q: &str, page: u32) -> String {
        format!(r#"{{"question":{q:?},"response":{}}}"#, body(q, page))
    }

    fn score(text: &str, allow_missing: bool) -> Result<Scored, CaptureErrors> {
        let d = dataset();
        let read = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), text);
        read.pairing.finish(allow_missing)
    }

    /// Reads `bytes` fed in chunks of `size`, and says what came of it.
    fn read_chunked(bytes: &[u8], size: usize) -> (Result<Scored, CaptureErrors>, Option<CutOff>) {
        let d = dataset();
        let mut r = CaptureReader::new(Pairing::new(&d, ScoreConfig::default()));
        for chunk in bytes.chunks(size) {
            r.feed(chunk);
        }
        let read = r.end();
        (read.pairing.finish(true), read.cut_off)
    }

    fn hits(s: &Scored) -> Vec<bool> {
        s.records.iter().map(|r| r.page_hit_at_3).collect()
    }

    #[test]
    fn every_capture_form_gives_the_same_records() {
        let a = "Which figure shows A?";
        let b = "Which figure shows B?";
        let envelopes = format!("{}\n{}\n", envelope(b, 2), envelope(a, 9));
        let bare = format!("{}\n\n{}", body(a, 9), body(b, 2));
        let array = format!("[{}, {}]", body(a, 9), envelope(b, 2));
        let pretty = serde_json::to_string_pretty(
            &serde_json::from_str::<serde_json::Value>(&body(a, 9)).unwrap(),
        )
        .unwrap()
            + "\n"
            + &body(b, 2);
        let want = score(&envelopes, false).unwrap();
        assert_eq!(
            hits(&want),
            [false, true],
            "dataset order, not capture order"
        );
        for text in [bare, array, pretty] {
            assert_eq!(score(&text, false).unwrap().records, want.records, "{text}");
        }
    }

    #[test]
    fn a_single_body_pairs_and_the_rest_may_be_allowed_missing() {
        let s = score(&body("Which figure shows B?", 2), true).unwrap();
        assert_eq!(s.records.len(), 1);
        assert_eq!(s.unscored, ["Which figure shows A?"]);
        let e = score(&body("Which figure shows B?", 2), false).unwrap_err();
        assert!(e.to_string().contains("1 item(s) with no response"), "{e}");
        assert!(e.to_string().contains("\"Which figure shows A?\""), "{e}");
    }

    #[test]
    fn a_line_that_is_not_json_is_named_by_its_line() {
        let text = format!(
            "{}\n{{not json\n{}",
            envelope("Which figure shows A?", 1),
            envelope("Which figure shows B?", 2)
        );
        let e = score(&text, false).unwrap_err();
        assert_eq!(e.0.len(), 1, "{e}");
        assert!(
            e.0[0]
                .to_string()
                .starts_with("line 2, column 2: not JSON: key must be a string"),
            "{e}"
        );
    }

    #[test]
    fn unknown_duplicate_and_missing_questions_are_all_listed() {
        let text = format!(
            "{}\n{}\n{}",
            envelope("Which figure shows A?", 1),
            envelope("Which figure shows A?", 1),
            envelope("Which figure shows C?", 1)
        );
        let e = score(&text, false).unwrap_err().to_string();
        assert!(e.contains("1 response(s) for questions that are not in the dataset:\n    - \"Which figure shows C?\""), "{e}");
        assert!(
            e.contains(
                "1 question(s) with more than one response:\n    - \"Which figure shows A?\""
            ),
            "{e}"
        );
        assert!(e.contains("1 item(s) with no response"), "{e}");
    }

    #[test]
    fn a_response_without_matches_names_its_line_question_and_keys() {
        let text = format!(
            "{}\n{}",
            envelope("Which figure shows A?", 1),
            r#"{"question":"Which figure shows B?","response":{"query":"Which figure shows B?","results":[]}}"#
        );
        let e = score(&text, false).unwrap_err().to_string();
        assert!(
            e.contains("line 2 (question \"Which figure shows B?\"): the response has no `matches` array (its keys: query, results)"),
            "{e}"
        );
    }

    #[test]
    fn a_match_that_is_not_an_object_is_an_error_not_a_miss() {
        let text = format!(
            "{}\n{}",
            envelope("Which figure shows A?", 1),
            r#"{"question":"Which figure shows B?","response":{"matches":[{},null]}}"#
        );
        let e = score(&text, false).unwrap_err().to_string();
        assert!(
            e.contains("the match at rank 2 is null, not a JSON object"),
            "{e}"
        );
    }

    #[test]
    fn bodies_without_query_and_envelopes_without_question_are_errors() {
        let e = score(r#"{"matches":[]}"#, false).unwrap_err().to_string();
        assert!(
            e.contains("line 1: a bare response body needs a string `query`"),
            "{e}"
        );
        let e = score(r#"{"question":3,"response":{"matches":[]}}"#, false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1: an envelope with a `response` needs a string `question`"),
            "{e}"
        );
        let e = score(r#"{"question":"Which figure shows A?","resp":{}}"#, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("has a `question` but no `response`"), "{e}");
    }

    #[test]
    fn an_empty_capture_is_an_error() {
        assert_eq!(
            score("\n  \n", true).unwrap_err().0,
            vec![CaptureError::Empty]
        );
        assert_eq!(score("[]", true).unwrap_err().0, vec![CaptureError::Empty]);
    }

    #[test]
    fn a_broken_array_gives_line_and_column() {
        let e = score("[\n{\"matches\": [}\n]", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2, column 14: not JSON"), "{e}");
    }

    #[test]
    fn the_request_is_kept_only_when_every_envelope_agrees() {
        let with = |q: &str, k: u32| {
            format!(
                r#"{{"question":{q:?},"request":{{"base_url":"http://h/api","top_k":{k},"cache_mode":"bypass"}},"response":{}}}"#,
                body(q, 1)
            )
        };
        let same = format!(
            "{}\n{}",
            with("Which figure shows A?", 5),
            with("Which figure shows B?", 5)
        );
        let r = score(&same, false).unwrap().request;
        assert_eq!(r.top_k, Some(5));
        assert_eq!(r.cache_mode, Some(CacheMode::Bypass));
        assert_eq!(r.base_url.as_deref(), Some("http://h/api"));
        let differ = format!(
            "{}\n{}",
            with("Which figure shows A?", 5),
            with("Which figure shows B?", 8)
        );
        assert_eq!(
            score(&differ, false).unwrap().request,
            RequestInfo::default()
        );
    }

    #[test]
    fn the_report_carries_the_recorded_request_and_the_scoring_settings() {
        let line = format!(
            r#"{{"question":"Which figure shows B?","request":{{"base_url":"http://h/api","top_k":7,"cache_mode":"refresh"}},"response":{}}}"#,
            body("Which figure shows B?", 2)
        );
        let d = dataset();
        let config = ScoreConfig {
            max_precise_span_pages: 4,
        };
        let scored = CaptureReader::read_str(Pairing::new(&d, config), &line)
            .pairing
            .finish(true)
            .unwrap();
        let records = scored.records.clone();
        let r = Report::build(scored, RunInfo::default());
        assert_eq!(r.corpus_id, "c");
        assert_eq!(r.base_url.as_deref(), Some("http://h/api"));
        assert_eq!(r.top_k, Some(7));
        assert_eq!(r.cache_mode, Some(CacheMode::Refresh));
        assert_eq!(r.max_precise_span_pages, 4);
        assert_eq!(r.per_item, records);
        assert_eq!(r.unscored, ["Which figure shows A?"]);
        assert_eq!(r.summary.n, 1);
    }

    /// The settings a report states, as its JSON has them.
    fn header(r: &Report) -> serde_json::Value {
        let v = serde_json::to_value(r).unwrap();
        let keys = [
            "corpus_id",
            "base_url",
            "top_k",
            "cache_mode",
            "max_precise_span_pages",
        ];
        keys.iter()
            .map(|&k| (k.to_string(), v[k].clone()))
            .collect()
    }

    #[test]
    fn a_live_run_the_page_and_figeval_score_build_the_same_report() {
        let d = dataset();
        let config = ScoreConfig {
            max_precise_span_pages: 4,
        };
        let request = SearchRequest {
            base_url: "http://h/api",
            corpus_id: &d.corpus_id,
            top_k: 7,
            cache_mode: CacheMode::Refresh,
        };
        let bodies: Vec<String> = d
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| body(&it.question, i as u32 + 1))
            .collect();
        let lines: Vec<String> = d
            .items
            .iter()
            .zip(&bodies)
            .map(|(it, b)| request.envelope_line(&it.question, b))
            .collect();
        // The command line's live run: each answer as it comes, last item first.
        let mut cli = Pairing::new(&d, config);
        for (i, b) in bodies.iter().enumerate().rev() {
            let matches = Response::parse(b).unwrap().matches.unwrap();
            assert!(cli.add_answer(i, &request, &matches).is_some());
        }
        assert!(cli.asked_with(&request));
        // The page's live run: each answer's capture line.
        let mut page = CaptureReader::new(Pairing::new(&d, config));
        for l in &lines {
            page.feed_line(l);
        }
        // `figeval score` of the capture.
        let capture = lines.join("\n") + "\n";
        let offline = CaptureReader::read_str(Pairing::new(&d, config), &capture);
        let reports = [cli, page.end().pairing, offline.pairing]
            .map(|p| Report::build(p.finish(false).unwrap(), RunInfo::default()));
        let expected = serde_json::json!({
            "corpus_id": "c",
            "base_url": "http://h/api",
            "top_k": 7,
            "cache_mode": "refresh",
            "max_precise_span_pages": 4,
        });
        for r in &reports {
            assert_eq!(header(r), expected);
            assert_eq!(r, &reports[0]);
        }
    }

    #[test]
    fn a_live_answer_counts_like_its_capture_line() {
        let d = dataset();
        let request = SearchRequest {
            base_url: "http://h/api",
            corpus_id: &d.corpus_id,
            top_k: 5,
            cache_mode: CacheMode::Bypass,
        };
        let config = ScoreConfig::default();
        assert!(
            Pairing::new(&d, config).asked_with(&request),
            "nothing recorded yet"
        );
        let other = SearchRequest {
            top_k: 6,
            ..request.clone()
        };
        let mut r = CaptureReader::new(Pairing::new(&d, config));
        let a = "Which figure shows A?";
        r.feed_line(&request.envelope_line(a, &body(a, 1)));
        let mut p = r.end().pairing;
        assert!(p.asked_with(&request));
        assert!(!p.asked_with(&other));
        assert!(p.add_answer(2, &request, &[]).is_none(), "no item 3");
        assert!(
            p.add_answer(0, &request, &[]).is_none(),
            "item 1 is answered"
        );
        let e = p.check().unwrap_err().to_string();
        assert!(e.contains("Which figure shows A?"), "{e}");
        assert!(p.finish(true).is_err());
    }

    #[test]
    fn any_chunking_reads_like_the_whole_text() {
        let a = "Which figure shows A?";
        let b = "Which figure shows B?";
        let pretty = serde_json::to_string_pretty(
            &serde_json::from_str::<serde_json::Value>(&envelope(a, 1)).unwrap(),
        )
        .unwrap();
        for text in [
            format!("{}\r\n\n{}", envelope(b, 2), envelope(a, 9)),
            format!("\n[{}, {}]", body(a, 9), envelope(b, 2)),
            format!("{pretty}\n{}", body(b, 2)),
        ] {
            let whole = score(&text, true).unwrap();
            for size in [1, 2, 7, 64, text.len()] {
                let (chunked, cut) = read_chunked(text.as_bytes(), size);
                assert_eq!(chunked.unwrap(), whole, "chunks of {size}: {text}");
                assert_eq!(cut, None);
            }
        }
    }

    #[test]
    fn a_cut_off_last_line_is_dropped_and_its_item_goes_unanswered() {
        let first = envelope("Which figure shows A?", 1) + "\n";
        let second = envelope("Which figure shows B?", 2);
        for cut in [1, second.len() / 2, second.len() - 1] {
            let text = format!("{first}{}", &second[..cut]);
            for size in [3, text.len()] {
                let (scored, cut_off) = read_chunked(text.as_bytes(), size);
                assert_eq!(
                    cut_off,
                    Some(CutOff {
                        line: 2,
                        offset: first.len() as u64
                    })
                );
                let scored = scored.unwrap();
                assert_eq!(scored.records.len(), 1);
                assert_eq!(scored.unscored, ["Which figure shows B?"]);
            }
        }
        // Cut inside a character: the text stops short too.
        let text = format!("{first}{{\"question\":\"é");
        let cut = text.len() - 1;
        let (_, cut_off) = read_chunked(&text.as_bytes()[..cut], 5);
        assert_eq!(cut_off.map(|c| c.line), Some(2));
        // A line that is the whole capture can be cut off as well.
        let (_, cut_off) = read_chunked(&second.as_bytes()[..10], 4);
        assert_eq!(cut_off, Some(CutOff { line: 1, offset: 0 }));
    }

    #[test]
    fn a_bad_line_that_is_not_the_last_stays_an_error() {
        let second = envelope("Which figure shows B?", 2);
        // Cut off, but followed by a line break and another line: not a crash mid-write.
        let text = format!(
            "{}\n{}\n{}\n",
            envelope("Which figure shows A?", 1),
            &second[..second.len() / 2],
            envelope("Which figure shows A?", 1)
        );
        let (scored, cut_off) = read_chunked(text.as_bytes(), 16);
        assert_eq!(cut_off, None);
        let e = scored.unwrap_err().to_string();
        assert!(e.contains("line 2, column"), "{e}");
        assert!(e.contains("not JSON: EOF while parsing"), "{e}");
        // A last line that is wrong in another way than stopping short is an error too.
        let text = format!(
            "{}\n{{\"question\": 3]",
            envelope("Which figure shows A?", 1)
        );
        let (scored, cut_off) = read_chunked(text.as_bytes(), 16);
        assert_eq!(cut_off, None);
        assert!(scored.unwrap_err().to_string().contains("line 2, column"));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_named_by_its_line_and_column() {
        let mut bytes = (envelope("Which figure shows A?", 1) + "\n").into_bytes();
        bytes.extend_from_slice(b"{\"q\xff\"}\n");
        let e = read_chunked(&bytes, 5).0.unwrap_err().to_string();
        assert!(
            e.contains("line 2 is not UTF-8 text (invalid byte at column 4)"),
            "{e}"
        );
    }

    #[test]
    fn a_line_over_the_limit_ends_reading_with_an_error() {
        let d = dataset();
        let mut r = CaptureReader::new(Pairing::new(&d, ScoreConfig::default()));
        r.feed(b"{\"question\":\"");
        let block = vec![b'x'; 1 << 20];
        while r.wants_more() {
            r.feed(&block);
        }
        let e = r.end().pairing.finish(true).unwrap_err().to_string();
        assert!(e.contains("line 1 is over 67108864 bytes"), "{e}");
    }

    #[test]
    fn kept_snippets_line_up_with_the_records_and_are_empty_unless_asked() {
        let (a, b) = ("Which figure shows A?", "Which figure shows B?");
        let text = format!("{}\n", envelope(b, 2));
        let d = dataset();
        let mut pairing = Pairing::new(&d, ScoreConfig::default());
        pairing.keep_snippets();
        let scored = CaptureReader::read_str(pairing, &text)
            .pairing
            .finish(true)
            .unwrap();
        assert_eq!(scored.records.len(), 1);
        assert_eq!(scored.records[0].question, b);
        assert_eq!(scored.unscored, vec![a.to_string()]);
        assert_eq!(
            scored.snippets.len(),
            1,
            "one list per record, none for the unscored"
        );
        assert_eq!(scored.snippets[0].len(), 1);
        assert_eq!(scored.snippets[0][0].content, Some(("…".into(), false)));
        assert!(score(&text, true).unwrap().snippets.is_empty());
    }

    #[test]
    fn multiline_detection_looks_at_the_first_line_only() {
        assert!(is_multiline_document("["));
        assert!(is_multiline_document("  {"));
        assert!(is_multiline_document("{\"matches\": ["));
        assert!(!is_multiline_document("{\"matches\": []}"));
        assert!(!is_multiline_document("{not json"));
    }
}
