//! Turning responses into a report, through `figeval` only: a live run's envelopes and an
//! offline capture go through the same [`figeval::CaptureReader`] and [`figeval::Report::build`]
//! the command line uses, so the numbers and settings in the browser are the command line's.

use std::cell::OnceCell;
use std::rc::Rc;

use figeval::snippet::{self, Snippet};
use figeval::trec::{self, TrecFiles};
use figeval::{
    CaptureError, CaptureErrors, CaptureReader, Dataset, Pairing, Report, RunInfo, ScoreConfig,
    Scored,
};

use crate::said::Said;
use crate::settings::RunConfig;
use crate::shared::Shared;

/// A pairing that keeps what the matches said.
fn pairing(dataset: &Dataset, config: ScoreConfig) -> Pairing<'_, Vec<Snippet>> {
    Pairing::keeping(dataset, config, snippet::of_matches)
}

/// The report of what was scored (the core's one way to build it), and what the matches said.
fn report((scored, said): (Scored, Vec<Vec<Snippet>>), run: RunInfo) -> (Report, Said) {
    (Report::build(scored, run), Shared::new(said))
}

/// Scores a capture in any form of contract §6. The report's base URL, top_k and cache mode are
/// the ones the capture recorded (when every response recorded the same ones); `top_k`, when
/// given, states the depth the searches asked for, as `figeval score --top-k` does (contract
/// §4.1); `run` says where it came from and when.
pub fn score_capture(
    dataset: &Dataset,
    text: &str,
    allow_missing: bool,
    top_k: Option<u32>,
    max_precise_span_pages: u32,
    run: RunInfo,
) -> Result<(Report, Said), Refused> {
    let config = ScoreConfig {
        max_precise_span_pages,
    };
    let read = CaptureReader::read_str(pairing(dataset, config), text);
    let scored = read
        .pairing
        .finish_keeping(allow_missing)
        .map_err(|e| Refused {
            foreign: foreign_questions(dataset, &e),
            message: match read.cut_off {
                Some(cut) => format!("{e}\n(note: {cut})"),
                None => e.to_string(),
            },
        })?;
    let scored = match top_k {
        None => scored,
        Some(k) => {
            let (scored, said) = scored;
            let scored = scored.stating_top_k(k).map_err(|e| Refused {
                foreign: None,
                message: format!("top_k: {e}"),
            })?;
            (scored, said)
        }
    };
    Ok(report(scored, run))
}

/// Why a capture could not be scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// Every problem, as the core words them.
    pub message: String,
    /// The capture's questions when none of them is in the dataset (a capture of another
    /// dataset), so the page can say which dataset it is for.
    pub foreign: Option<Vec<String>>,
}

/// The questions of a capture none of whose responses is for an item of `dataset`: every item
/// went unanswered and some responses were for questions the dataset lacks.
fn foreign_questions(dataset: &Dataset, errors: &CaptureErrors) -> Option<Vec<String>> {
    let mut unknown = None;
    let mut missing = 0;
    for e in &errors.0 {
        match e {
            CaptureError::UnknownQuestions(qs) => unknown = Some(qs.clone()),
            CaptureError::MissingResponses { questions, .. } => missing = questions.len(),
            _ => {}
        }
    }
    unknown.filter(|_| missing == dataset.items.len())
}

/// Whether most of `questions` (a capture's) are items of `dataset`.
pub fn is_capture_of(dataset: &Dataset, questions: &[String]) -> bool {
    let known = questions
        .iter()
        .filter(|q| dataset.items.iter().any(|it| it.question == **q))
        .count();
    known * 2 > questions.len()
}

/// Scores the envelopes of a live run (one per item, in dataset order). The report states the
/// search parameters the envelopes recorded: the ones the run asked with.
pub fn score_live<'a>(
    dataset: &Dataset,
    lines: impl IntoIterator<Item = &'a str>,
    config: &RunConfig,
    run: RunInfo,
) -> Result<(Report, Said), CaptureErrors> {
    let mut reader = CaptureReader::new(pairing(
        dataset,
        ScoreConfig {
            max_precise_span_pages: config.max_precise_span_pages,
        },
    ));
    for line in lines {
        reader.feed_line(line);
    }
    let scored = reader.end().pairing.finish_keeping(false)?;
    Ok(report(scored, run))
}

/// The standard run files of what a report was scored from (`figeval::trec::export`, the
/// rule `figeval export` follows), or the core's reason they cannot be written; made the first
/// time they are asked for, so scoring a capture reads it once (a 10k-item capture took twice
/// as long when the files were made with the report).
pub struct LazyTrec {
    files: OnceCell<Result<TrecFiles, String>>,
    make: Box<dyn Fn() -> Result<TrecFiles, trec::ExportError>>,
}

impl LazyTrec {
    fn new(make: impl Fn() -> Result<TrecFiles, trec::ExportError> + 'static) -> Trec {
        Shared::new(LazyTrec {
            files: OnceCell::new(),
            make: Box::new(make),
        })
    }

    /// The files, made now if they were not yet.
    pub fn get(&self) -> &Result<TrecFiles, String> {
        self.files
            .get_or_init(|| (self.make)().map_err(|e| e.to_string()))
    }

    /// The files if they were made already.
    #[cfg(test)]
    pub fn made(&self) -> Option<&Result<TrecFiles, String>> {
        self.files.get()
    }
}

impl std::fmt::Debug for LazyTrec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyTrec")
            .field("files", &self.files.get())
            .finish_non_exhaustive()
    }
}

/// The run files of a report, made when asked for.
pub type Trec = Shared<LazyTrec>;

/// The run files of an offline capture, as `figeval export` writes them from the same text.
pub fn trec_of_capture(dataset: Shared<Dataset>, text: Rc<str>) -> Trec {
    LazyTrec::new(move || trec::export_capture(&dataset, &text))
}

/// The run files of a live run's envelopes (one per item, in dataset order), as
/// `figeval export` writes them from the downloaded capture.
pub fn trec_of_live(dataset: Shared<Dataset>, lines: Rc<Vec<Option<Rc<str>>>>) -> Trec {
    LazyTrec::new(move || {
        let mut reader = CaptureReader::new(trec::pairing(&dataset));
        for line in lines.iter().flatten() {
            reader.feed_line(line);
        }
        trec::export(&dataset, reader.end().pairing)
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::envelope_line;
    use crate::settings::Settings;
    use figeval::Metric;
    use serde_json::json;

    pub(crate) fn dataset() -> Dataset {
        Dataset::parse(&figeval_web_common::demo::dataset_json()).unwrap()
    }

    pub(crate) use figeval_web_common::demo::body;

    #[test]
    fn bare_bodies_one_per_line_are_paired_by_query() {
        let d = dataset();
        let text = [
            body("Where is the chart?", &[(4, 4)]),
            body(
                "What does the curve show?",
                &[(1, 1), (2, 2), (3, 3), (9, 9)],
            ),
            body("Where is the prose?", &[(2, 2)]),
        ]
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join("\n");
        let (r, said) = score_capture(&d, &text, false, None, 3, from("pasted")).unwrap();
        assert_eq!(r.summary.n, 3);
        // What the matches said is kept per record, rank by rank.
        assert_eq!(said.len(), 3);
        assert_eq!(said[1].len(), 4);
        assert_eq!(said[1][3].rank, 4);
        assert_eq!(said[1][3].content, Some(("…".into(), false)));
        assert_eq!(r.summary.hits(Metric::PageHitAt3), 2);
        assert_eq!(r.summary.hits(Metric::PageHitAt5), 3);
        assert_eq!(r.base_url, None);
        assert_eq!(r.run.source, "pasted");
    }

    #[test]
    fn a_missing_response_is_an_error_unless_allowed() {
        let d = dataset();
        let text = body("Where is the chart?", &[(4, 4)]).to_string();
        let err = score_capture(&d, &text, false, None, 3, from("x")).unwrap_err();
        assert!(err.message.contains("2 items with no response"));
        assert_eq!(err.foreign, None, "one item was answered");
        let (r, said) = score_capture(&d, &text, true, None, 3, from("x")).unwrap();
        assert_eq!(r.summary.n, 1);
        assert_eq!(said.len(), 1, "the snippets line up with per_item");
        assert_eq!(r.unscored.len(), 2);
    }

    #[test]
    fn a_capture_none_of_whose_questions_is_in_the_dataset_is_named_foreign() {
        let d = dataset();
        let text = format!(
            "{}\n{}\n",
            body("Which page shows the moon?", &[(4, 4)]),
            body("Where is the lander?", &[(5, 5)])
        );
        let err = score_capture(&d, &text, false, None, 3, from("x")).unwrap_err();
        let foreign = err.foreign.unwrap();
        assert_eq!(
            foreign,
            ["Which page shows the moon?", "Where is the lander?"]
        );
        assert!(!is_capture_of(&d, &foreign));
        let mine: Vec<String> = d.items.iter().map(|i| i.question.clone()).collect();
        assert!(is_capture_of(&d, &mine));
    }

    /// The run facts of a report from `source`.
    fn from(source: &str) -> RunInfo {
        RunInfo {
            source: source.into(),
            ..RunInfo::default()
        }
    }

    #[test]
    fn a_live_run_scores_like_its_capture_read_back_and_states_the_same_settings() {
        let d = dataset();
        let settings = Settings {
            base_url: "http://h:1/api".into(),
            top_k: "7".into(),
            cache_mode: "refresh".into(),
            max_precise_span: "4".into(),
            ..Settings::default()
        };
        let config = settings.validate().unwrap();
        let lines: Vec<String> = d
            .items
            .iter()
            .map(|it| {
                envelope_line(
                    &it.question,
                    &config,
                    &body(&it.question, &[(4, 9)]).to_string(),
                )
            })
            .collect();
        let (live, live_said) =
            score_live(&d, lines.iter().map(String::as_str), &config, from("live")).unwrap();
        let (offline, offline_said) =
            score_capture(&d, &lines.join("\n"), false, None, 4, from("capture.jsonl")).unwrap();
        assert_eq!(live.run.source, "live");
        assert_eq!(*live_said, *offline_said);
        assert_eq!(live_said.len(), 3);
        let header = |r: &Report| {
            let v = serde_json::to_value(r).unwrap();
            [
                "corpus_id",
                "base_url",
                "top_k",
                "cache_mode",
                "max_precise_span_pages",
            ]
            .map(|k| (k, v[k].clone()))
        };
        // The header `figeval run` writes for these settings (figeval's own tests hold the
        // command line to the same).
        assert_eq!(
            header(&live),
            [
                ("corpus_id", json!("demo")),
                ("base_url", json!("http://h:1/api")),
                ("top_k", json!(7)),
                ("cache_mode", json!("refresh")),
                ("max_precise_span_pages", json!(4)),
            ]
        );
        // Offline scoring of the run's capture is the same report, header and all.
        assert_eq!(
            Report {
                run: live.run.clone(),
                ..offline
            },
            live
        );
    }
}
