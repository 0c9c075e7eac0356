//! Pairing responses to a dataset's items (contract §6.3, §6.4): by exact question text,
//! every problem collected, the search parameters the responses agree on.

use std::collections::HashMap;

use serde::de::DeserializeSeed;

use super::envelope::{Entry, EntrySeed, RequestFields};
use super::error::{CaptureError, CaptureErrors, Source};
#[cfg(feature = "connectors")]
use crate::connector::read::MappedEntry;
#[cfg(feature = "connectors")]
use crate::connector::{AnswerPages, MappedAnswer, Reader};
use crate::dataset::Dataset;
use crate::report::Scored;
use crate::request::{CacheMode, RequestInfo, SearchRequest};
use crate::response::{BodySeed, Match, Response};
use crate::score::{score_item, ItemRecord, ScoreConfig};

/// How many line-level errors are kept; past that they are counted, not stored.
const MAX_KEPT_ERRORS: usize = 100;

/// Pairs responses to a dataset's items by exact question text, scoring each as it arrives.
///
/// Besides each record it can keep one more thing made of the item's matches, whatever its
/// user needs ([`Pairing::keeping`]): `figeval export` keeps each item's page run
/// (`crate::trec`), the page what the top matches said (`crate::snippet`). The pairing knows
/// neither.
pub struct Pairing<'d, K = ()> {
    dataset: &'d Dataset,
    config: ScoreConfig,
    index: HashMap<&'d str, usize>,
    seen: Vec<bool>,
    records: Vec<Option<ItemRecord>>,
    unknown: Vec<String>,
    duplicates: Vec<String>,
    errors: Vec<CaptureError>,
    dropped_errors: usize,
    /// Lines with a problem whose question cannot be read: an item with no response may be
    /// one of theirs.
    unread_lines: usize,
    responses: usize,
    /// `None` before the first response; then the request all responses agree on, or
    /// `Some(None)` once one disagrees or has none.
    request: Option<Option<RequestFields>>,
    /// What is kept of an answered item's matches besides its record ([`Pairing::keeping`]).
    keep: fn(&[Match]) -> K,
    /// What was kept, by dataset index.
    kept: Vec<Option<K>>,
    /// The connector answers are read through, and what a capture records of it; `None` for
    /// the default, read by the contract's own reader.
    #[cfg(feature = "connectors")]
    connector: Option<(&'d Reader, String)>,
    /// Hits that cited no page, over the answers scored.
    hits_without_page: u64,
    /// The connector the first answer that said it was read through one names (`read_through`,
    /// contract §14.9): the report then states it and `hits_without_page`.
    read_through: Option<String>,
    /// How capture lines' bodies are read ([`Pairing::skip_content`]).
    reading: BodySeed,
    /// The answer with hits read through the connector that is first in dataset order: its
    /// item's index, where it is, and what its pages came to (it must cite a page).
    #[cfg(feature = "connectors")]
    first_with_hits: Option<(usize, Source, AnswerPages)>,
}

/// A capture entry, read by the contract's reader or through a connector.
pub(super) enum Parsed {
    Entry(Entry),
    #[cfg(feature = "connectors")]
    Mapped(MappedEntry),
}

impl<'d> Pairing<'d> {
    /// Starts pairing responses to `dataset`'s items.
    pub fn new(dataset: &'d Dataset, config: ScoreConfig) -> Pairing<'d> {
        Pairing::keeping(dataset, config, |_| ())
    }
}

impl<'d, K> Pairing<'d, K> {
    /// Starts pairing responses to `dataset`'s items, keeping `keep(matches)` of each answered
    /// item as well as its record ([`Pairing::finish_keeping`] gives them back).
    pub fn keeping(
        dataset: &'d Dataset,
        config: ScoreConfig,
        keep: fn(&[Match]) -> K,
    ) -> Pairing<'d, K> {
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
            unread_lines: 0,
            responses: 0,
            request: None,
            keep,
            kept: (0..n).map(|_| None).collect(),
            #[cfg(feature = "connectors")]
            connector: None,
            hits_without_page: 0,
            read_through: None,
            reading: BodySeed::default(),
            #[cfg(feature = "connectors")]
            first_with_hits: None,
        }
    }

    /// Reads every answer through `reader` instead of the contract's own reader; `record` is
    /// what a capture records of the connector ([`crate::Connector::record`], as JSON text).
    #[cfg(feature = "connectors")]
    pub fn read_through(&mut self, reader: &'d Reader, record: String) {
        self.connector = Some((reader, record));
    }

    /// Skips each match's `content` unread in the capture lines read from now on: their
    /// matches' [`Match::content`] is `None`. For a caller that reads no content (scoring never
    /// does; the page's snippets and the provenance audit do). It spares unescaping and copying
    /// the content: about a tenth of `figeval score`'s time (BENCHMARKS.md).
    ///
    /// Native builds only: the page always reads the content, for its snippets.
    #[cfg(not(target_family = "wasm"))]
    pub fn skip_content(&mut self) {
        self.reading.skip_content = true;
    }

    /// Whether answers are read through a connector other than the contract's own reader.
    #[cfg(feature = "connectors")]
    pub(super) fn reads_through_connector(&self) -> bool {
        self.connector.is_some()
    }

    /// What a capture records of the connector answers are read through (none: the default).
    /// A preset's name, or a mapping's JSON text (as `read_through` holds them).
    fn recorded_connector(&self) -> Option<String> {
        #[cfg(feature = "connectors")]
        if let Some((_, record)) = &self.connector {
            let stated = serde_json::from_str(record).map(|r| crate::connector::stated(&r));
            return Some(stated.unwrap_or_else(|_| record.clone()));
        }
        None
    }

    pub(super) fn parse(&self, text: &str) -> Result<Parsed, serde_json::Error> {
        #[cfg(feature = "connectors")]
        if let Some((reader, _)) = &self.connector {
            return reader.read_entry(text).map(Parsed::Mapped);
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let entry = EntrySeed(self.reading).deserialize(&mut de)?;
        de.end()?;
        Ok(Parsed::Entry(entry))
    }

    pub(super) fn add_parsed(&mut self, at: Source, entry: Parsed) {
        match entry {
            Parsed::Entry(e) => self.add_entry(at, e),
            #[cfg(feature = "connectors")]
            Parsed::Mapped(e) => self.add_mapped(at, e),
        }
    }

    /// The request fields a live answer records (with the connector).
    fn fields_of(&self, request: &SearchRequest<'_>) -> RequestFields {
        #[cfg(feature = "connectors")]
        return RequestFields {
            connector: self.connector.as_ref().map(|(_, r)| r.clone()),
            ..RequestFields::of(request)
        };
        #[cfg(not(feature = "connectors"))]
        RequestFields::of(request)
    }

    /// Reads a document through the connector: a JSON array of envelopes, or envelopes one
    #[cfg(feature = "connectors")]
    /// after another.
    pub(super) fn add_mapped_document(&mut self, text: &str) {
        let array = text.trim_start().starts_with('[');
        let values: Result<Vec<serde_json::Value>, _> = if array {
            serde_json::from_str(text)
        } else {
            serde_json::Deserializer::from_str(text)
                .into_iter()
                .collect()
        };
        match values {
            Ok(values) => {
                for (i, v) in values.into_iter().enumerate() {
                    let at = if array {
                        Source::Element(i + 1)
                    } else {
                        Source::Value(i + 1)
                    };
                    match self.parse(&v.to_string()) {
                        Ok(entry) => self.add_parsed(at, entry),
                        Err(e) => self.syntax_error(&e),
                    }
                }
            }
            Err(e) => self.syntax_error(&e),
        }
    }

    /// Keeps `pages` when its item is the first in dataset order with hits so far.
    #[cfg(feature = "connectors")]
    fn note_pages(&mut self, index: usize, at: Source, pages: AnswerPages) {
        if pages.hits > 0
            && self
                .first_with_hits
                .as_ref()
                .is_none_or(|(i, ..)| index < *i)
        {
            self.first_with_hits = Some((index, at, pages));
        }
    }

    /// Notes the first entry recording another connector than the one read with.
    fn other_connector(&mut self, at: Source, recorded: String, reading: String) {
        let known = self
            .errors
            .iter()
            .any(|e| matches!(e, CaptureError::OtherConnector { .. }));
        if !known {
            self.error(CaptureError::OtherConnector {
                at,
                recorded,
                reading,
            });
        }
    }

    /// Adds an entry read through the connector.
    #[cfg(feature = "connectors")]
    fn add_mapped(&mut self, at: Source, mut entry: MappedEntry) {
        self.responses += 1;
        let Some((reader, record)) = &self.connector else {
            return;
        };
        let request = entry.request.take().map(RequestFields::from_value);
        let (name, record) = (reader.name().to_string(), record.clone());
        let MappedEntry {
            question,
            response,
            keys,
            ..
        } = entry;
        let Some(response) = response else {
            return match question {
                Some(q) => {
                    self.claim_quietly(q.as_deref());
                    self.error(CaptureError::EnvelopeWithoutResponse { at, keys })
                }
                None => self.error(CaptureError::NotAnEnvelope {
                    at,
                    connector: name,
                }),
            };
        };
        let Some(Some(question)) = question else {
            return self.error(CaptureError::EnvelopeWithoutQuestion { at });
        };
        if let Some(recorded) = request.as_ref().and_then(|r| r.connector.clone()) {
            if recorded != record {
                return self.other_connector(at, recorded, name);
            }
        }
        self.note_request(request);
        let MappedAnswer { matches, pages, .. } = response;
        if let (Ok(_), Some(&i)) = (&matches, self.index.get(question.as_str())) {
            self.note_pages(i, at, pages);
        }
        self.pair(
            at,
            question,
            Response {
                query: None,
                matches,
                read_through: None,
            },
        );
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
        #[cfg(feature = "connectors")]
        if let (Some((reader, _)), Some((_, at, pages))) = (&self.connector, &self.first_with_hits)
        {
            if pages.without_page == pages.hits {
                errors.insert(
                    0,
                    CaptureError::NoPage {
                        at: *at,
                        reason: reader.no_page_reason(pages),
                    },
                );
            }
        }
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
            Some(recorded) => recorded.as_ref() == Some(&self.fields_of(request)),
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
        self.note_request(Some(self.fields_of(request)));
        if !self.claim(index) {
            return None;
        }
        self.record(index, matches);
        self.records[index].as_ref()
    }

    /// Marks the item asking `question` (when it is one) as answered by a line with a problem
    /// of its own, so it is not listed again as an item with no response.
    fn claim_quietly(&mut self, question: Option<&str>) {
        if let Some(&i) = question.and_then(|q| self.index.get(q)) {
            self.seen[i] = true;
        }
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

    /// Scores the item at `i` on `matches`, and keeps what the pairing keeps of them.
    fn record(&mut self, i: usize, matches: &[Match]) {
        self.kept[i] = Some((self.keep)(matches));
        self.hits_without_page += matches.iter().filter(|m| m.pages.is_none()).count() as u64;
        self.records[i] = Some(score_item(&self.dataset.items[i], matches, self.config));
    }

    /// Ends pairing: the scored records, or every problem found.
    ///
    /// With `allow_missing`, items without a response are listed as unscored instead of being
    /// an error; they are left out of every summary's `n`.
    pub fn finish(self, allow_missing: bool) -> Result<Scored, CaptureErrors> {
        self.finish_keeping(allow_missing).map(|(scored, _)| scored)
    }

    /// [`Pairing::finish`], and what was kept of each record's matches, one per record in the
    /// same order.
    pub fn finish_keeping(self, allow_missing: bool) -> Result<(Scored, Vec<K>), CaptureErrors> {
        let mut errors = self.problems();
        let missing: Vec<String> = self
            .dataset
            .items
            .iter()
            .zip(&self.seen)
            .filter(|(_, &seen)| !seen)
            .map(|(it, _)| it.question.clone())
            .collect();
        // An item with no response is its own problem only when it cannot be one of the lines
        // already listed: when there are more such items than lines whose question cannot be
        // read, and the capture was read to its end.
        let told = errors.iter().any(|e| {
            matches!(
                e,
                CaptureError::OtherConnector { .. } | CaptureError::LineTooLong { .. }
            )
        });
        if self.responses == 0 && errors.is_empty() {
            errors.push(CaptureError::Empty);
        } else if missing.len() > self.unread_lines && !allow_missing && !told {
            errors.push(CaptureError::MissingResponses {
                questions: missing.clone(),
                unread_lines: self.unread_lines,
            });
        }
        if !errors.is_empty() {
            return Err(CaptureErrors(errors));
        }
        let connector = self.recorded_connector().or(self.read_through);
        let states_hits = connector.is_some();
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
        let kept = self.kept.into_iter().filter_map(|k| k).collect();
        let scored = Scored {
            corpus_id: self.dataset.corpus_id.clone(),
            config: self.config,
            request,
            records,
            unscored: missing,
            hits_without_page: states_hits.then_some(self.hits_without_page),
            connector,
        };
        Ok((scored, kept))
    }

    pub(super) fn error(&mut self, e: CaptureError) {
        let unread = match &e {
            CaptureError::Response { question, .. } => question.is_none(),
            CaptureError::NotText { .. }
            | CaptureError::EnvelopeWithoutQuestion { .. }
            | CaptureError::BodyWithoutQuery { .. } => true,
            #[cfg(feature = "connectors")]
            CaptureError::NotAnEnvelope { .. } => true,
            _ => false,
        };
        self.unread_lines += usize::from(unread);
        if self.errors.len() < MAX_KEPT_ERRORS {
            self.errors.push(e);
        } else {
            self.dropped_errors += 1;
        }
    }

    pub(super) fn syntax_error(&mut self, e: &serde_json::Error) {
        self.unread_lines += 1;
        self.error(CaptureError::NotJson {
            line: e.line(),
            column: e.column(),
            question: None,
            problem: crate::describe::json_problem(e),
        });
    }

    /// A line that is not JSON ([`CaptureError::NotJson`]). When the question it answers can
    /// be read and is an item's, the item counts as answered by it, so the line is one problem,
    /// not a second one as an item with no response; otherwise it is a line that cannot be
    /// read, which an item with no response may be.
    pub(super) fn broken_line(&mut self, e: CaptureError) {
        let item = match &e {
            CaptureError::NotJson {
                question: Some(q), ..
            } => self.index.get(q.as_str()).copied(),
            _ => None,
        };
        match item {
            Some(i) => self.seen[i] = true,
            None => self.unread_lines += 1,
        }
        self.error(e);
    }

    pub(super) fn add_entry(&mut self, at: Source, entry: Entry) {
        self.responses += 1;
        let Entry {
            body,
            question,
            response,
            request,
        } = entry;
        if let Some(recorded) = request.as_ref().and_then(|r| r.connector.clone()) {
            let reading = crate::request::DEFAULT_CONNECTOR.to_string();
            return self.other_connector(at, recorded, reading);
        }
        if let Some(inner) = response {
            let Some(Some(question)) = question else {
                return self.error(CaptureError::EnvelopeWithoutQuestion { at });
            };
            self.note_request(request);
            return self.pair(at, question, inner.into_response());
        }
        if question.is_some() && body.query.is_none() && !body.has_matches() {
            let keys = body.keys().to_vec();
            self.claim_quietly(question.flatten().as_deref());
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
        if self.read_through.is_none() {
            self.read_through = response.read_through;
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
