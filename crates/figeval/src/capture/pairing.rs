//! Pairing responses to a dataset's items (contract §6.3, §6.4): by exact question text,
//! every problem collected, the search parameters the responses agree on.

use std::collections::HashMap;

use super::envelope::{Entry, RequestFields};
use super::error::{CaptureError, CaptureErrors, Source};
use crate::dataset::{strip_position, Dataset};
use crate::report::Scored;
use crate::request::{CacheMode, RequestInfo, SearchRequest};
use crate::response::{Match, Response};
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
    responses: usize,
    /// `None` before the first response; then the request all responses agree on, or
    /// `Some(None)` once one disagrees or has none.
    request: Option<Option<RequestFields>>,
    /// What is kept of an answered item's matches besides its record ([`Pairing::keeping`]).
    keep: fn(&[Match]) -> K,
    /// What was kept, by dataset index.
    kept: Vec<Option<K>>,
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
            responses: 0,
            request: None,
            keep,
            kept: (0..n).map(|_| None).collect(),
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

    /// Scores the item at `i` on `matches`, and keeps what the pairing keeps of them.
    fn record(&mut self, i: usize, matches: &[Match]) {
        self.kept[i] = Some((self.keep)(matches));
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
        let kept = self.kept.into_iter().filter_map(|k| k).collect();
        let scored = Scored {
            corpus_id: self.dataset.corpus_id.clone(),
            config: self.config,
            request,
            records,
            unscored: missing,
        };
        Ok((scored, kept))
    }

    pub(super) fn error(&mut self, e: CaptureError) {
        if self.errors.len() < MAX_KEPT_ERRORS {
            self.errors.push(e);
        } else {
            self.dropped_errors += 1;
        }
    }

    pub(super) fn syntax_error(&mut self, e: &serde_json::Error) {
        self.error(CaptureError::NotJson {
            line: e.line(),
            column: e.column(),
            message: strip_position(e),
        });
    }

    pub(super) fn add_entry(&mut self, at: Source, entry: Entry) {
        self.responses += 1;
        let Entry {
            body,
            question,
            response,
            request,
        } = entry;
        if let Some(inner) = response {
            let Some(Some(question)) = question else {
                return self.error(CaptureError::EnvelopeWithoutQuestion { at });
            };
            self.note_request(request);
            return self.pair(at, question, inner.into_response());
        }
        if question.is_some() && body.query.is_none() && !body.has_matches() {
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
