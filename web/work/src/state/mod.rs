//! The workbench's state and its reducer. Everything of the workbench that changes together —
//! the dataset, the deployment settings, the live run, the responses to score, and what the
//! workbench hands to the app (a report scored here, a banner) — is one value changed by
//! [`Action`]s behind the one `use_reducer`, so the reducer is a pure function with ordinary
//! unit tests; the shells (components, the live runner, the effects that hand reports and
//! banners to the app and tell the document module what is checked) do the I/O and dispatch
//! what happened. [`WorkState::apply`] hands the run's actions to its sub-reducer ([`run`]).

mod run;
#[cfg(test)]
pub(crate) mod tests;

pub use run::{capture_text, CaptureLines, LiveRun, RunStatus};

use std::rc::Rc;

use figeval::{Dataset, Report, RunInfo};
use yew::Reducible;

use crate::said::Said;
use crate::scoring::{self, Trec};
use crate::settings::{RunConfig, Settings};
use crate::shared::Shared;

/// A message for the app's banner (`error-banner`), handed over by an effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// One line saying what failed.
    pub title: String,
    /// The message in words, shown as text (prose).
    pub detail: String,
    /// The technical detail behind `detail`, folded away (`<details>`), when there is one.
    pub more: Option<String>,
}

/// A report scored here, handed to the app (its report view shows it), with what only the
/// workbench keeps for it: the capture of a live run and the standard run files.
#[derive(Debug, Clone, PartialEq)]
pub struct Handed {
    /// Counts the reports handed over: the app asks for this one's files by it.
    pub key: u32,
    /// Where it came from (`live run`, the responses' file name…).
    pub name: Rc<str>,
    /// The report.
    pub report: Shared<Report>,
    /// What its matches said.
    pub said: Said,
    /// The capture it was scored from, for a live run.
    pub capture: Option<CaptureLines>,
    /// Its standard run files, made when asked for.
    pub trec: Trec,
}

/// The workbench's whole state.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkState {
    /// The dataset's JSON text (`dataset-input`).
    pub dataset_text: Rc<str>,
    /// Where the dataset text came from.
    pub dataset_source: Rc<str>,
    /// The dataset, when the text is valid.
    pub dataset: Option<Shared<Dataset>>,
    /// Every validation error, worded by `figeval::Dataset::parse`.
    pub dataset_errors: Rc<Vec<String>>,
    /// Whether the user chose the dataset (loaded or edited one): until then the page may
    /// replace the first bundled one with the one the deployment serves.
    pub dataset_chosen: bool,
    /// The corpus the deployment says it serves (`GET {base}/health`), when it said.
    pub served: Option<Served>,
    /// The questions of the capture just refused because none of them is in the dataset:
    /// the page looks for the bundled dataset they belong to.
    pub foreign_capture: Option<Shared<Vec<String>>>,
    /// The deployment settings form.
    pub settings: Settings,
    /// The live run for the current dataset.
    pub run: LiveRun,
    /// Pasted or dropped responses (`responses-input`).
    pub responses_text: Rc<str>,
    /// Where the responses came from.
    pub responses_source: Rc<str>,
    /// Score the answered items and list the rest as unscored.
    pub allow_missing: bool,
    /// The depth the saved responses were searched with, as typed beside offline scoring
    /// (`offline-top-k`; blank: read from the answers), as `figeval score --top-k` states it.
    pub offline_top_k: Rc<str>,
    /// What the app's banner should say (`None`: nothing, after a clear), and which message
    /// it is: a new message (or a clear) takes the next number, a message changed in place
    /// keeps its own, so the app changes it only while it is still on show.
    pub banner: (u32, Option<Banner>),
    /// The last report scored here, handed to the app.
    pub handed: Option<Handed>,
    /// Whether the document module's check reads this dataset (the app says: nothing with
    /// items of its own is on show), and the corpus of the report open in the app.
    pub checked: Checked,
}

/// What the app says of the document check (web/README.md, "The workbench module").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// The check reads the workbench's dataset.
    pub here: bool,
    /// The corpus of the report open in the app, when one is.
    pub report_corpus: Option<Rc<str>>,
}

/// What a deployment said it serves (`GET {base}/health`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// The base URL asked.
    pub base_url: String,
    /// Its `corpus_id`.
    pub corpus_id: Rc<str>,
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Action {
    /// A dataset text arrived (bundled, file, URL).
    LoadDataset {
        /// Where it came from.
        source: String,
        /// Its text.
        text: Rc<str>,
    },
    /// The dataset textarea was edited.
    EditDataset(String),
    /// The first bundled dataset arrived, fetched at start: it is loaded unless a dataset is
    /// there already (the deployment's, or one the user chose).
    FirstDataset {
        /// Where it came from.
        source: String,
        /// Its text.
        text: Rc<str>,
    },
    /// The bundled dataset of the corpus the deployment serves arrived: it replaces the one
    /// loaded at start, unless the user chose one meanwhile.
    DefaultDataset {
        /// Where it came from.
        source: String,
        /// Its text.
        text: Rc<str>,
    },
    /// The deployment at `base_url` answered its health check with this corpus (`None`: it
    /// did not say).
    Served {
        /// The base URL asked.
        base_url: String,
        /// The `corpus_id` it gave.
        corpus_id: Option<String>,
    },
    /// The refused capture's questions are those of this bundled corpus.
    CaptureCorpus(String),
    /// The settings form changed.
    Settings(Settings),
    /// The responses textarea was edited.
    EditResponses(String),
    /// A responses file arrived.
    LoadResponses {
        /// Its name.
        source: String,
        /// Its text.
        text: Rc<str>,
    },
    /// The "allow missing" box.
    AllowMissing(bool),
    /// The top_k field beside offline scoring.
    OfflineTopK(String),
    /// Score the responses against the dataset.
    ScoreOffline {
        /// Now, RFC 3339.
        started_at: String,
    },
    /// A live run (or its resume) started.
    RunStarted {
        /// The new run id.
        id: u64,
        /// Its settings.
        config: RunConfig,
        /// Whether it completes the stopped run's capture.
        resume: bool,
        /// Now, RFC 3339.
        started_at: String,
        /// Now, ms since the epoch.
        now_ms: f64,
    },
    /// One item was answered.
    Received {
        /// The run.
        id: u64,
        /// The dataset index.
        index: usize,
        /// Its capture envelope.
        line: Rc<str>,
        /// Whether it hit on page_hit_at_3 (for the progress bar only).
        hit: bool,
    },
    /// A request was retried.
    Retried {
        /// The run.
        id: u64,
    },
    /// A search failed: the run stops.
    RunFailed {
        /// The run.
        id: u64,
        /// The message, naming the question.
        message: String,
        /// Now, ms since the epoch.
        now_ms: f64,
    },
    /// The user cancelled.
    RunCancelled {
        /// The run.
        id: u64,
        /// Now, ms since the epoch.
        now_ms: f64,
    },
    /// Every worker of the run is done.
    RunFinished {
        /// The run.
        id: u64,
        /// Now, ms since the epoch.
        now_ms: f64,
    },
    /// Forget a stopped run's capture.
    DiscardRun,
    /// The app said what the document check reads (boot.js's `figevalWork`).
    Checked(Checked),
    /// Something failed outside the reducer (reading a file, fetching a URL).
    Error {
        /// What failed.
        title: String,
        /// Why.
        detail: String,
    },
}

impl Default for WorkState {
    fn default() -> Self {
        WorkState::new(Settings::default())
    }
}

impl WorkState {
    /// The state at start: remembered settings, no dataset until the first bundled one (or
    /// the deployment's) arrives.
    pub fn new(settings: Settings) -> WorkState {
        WorkState {
            dataset_text: "".into(),
            dataset_source: "".into(),
            dataset: None,
            dataset_errors: Rc::new(Vec::new()),
            dataset_chosen: false,
            served: None,
            foreign_capture: None,
            settings,
            run: LiveRun::new(0, 0),
            responses_text: "".into(),
            responses_source: "pasted responses".into(),
            allow_missing: false,
            offline_top_k: "".into(),
            banner: (0, None),
            handed: None,
            checked: Checked::default(),
        }
    }

    fn set_dataset(&mut self, source: &str, text: Rc<str>) {
        let (dataset, errors) = match Dataset::parse(&text) {
            Ok(d) => (Some(Shared::new(d)), Vec::new()),
            Err(e) => (None, e.0.iter().map(ToString::to_string).collect()),
        };
        let items = dataset.as_ref().map_or(0, |d| d.items.len());
        self.dataset_text = text;
        self.dataset_source = source.into();
        self.dataset = dataset;
        self.dataset_errors = Rc::new(errors);
        self.run = LiveRun::new(items, self.run.id);
    }

    /// A new message for the app's banner (`None`: clear it).
    fn say(&mut self, banner: Option<Banner>) {
        self.foreign_capture = None;
        self.banner = (self.banner.0 + 1, banner);
    }

    fn banner(&mut self, title: &str, detail: impl Into<String>) {
        self.say(Some(Banner {
            title: title.to_string(),
            detail: detail.into(),
            more: None,
        }));
    }

    /// Hands a report scored here to the app.
    fn hand(
        &mut self,
        name: &str,
        (report, said): (Report, Said),
        capture: Option<CaptureLines>,
        trec: Trec,
    ) {
        self.handed = Some(Handed {
            key: self.handed.as_ref().map_or(1, |h| h.key + 1),
            name: name.into(),
            report: Shared::new(report),
            said,
            capture,
            trec,
        });
    }

    /// The corpus the deployment serves and the dataset's, when they differ (said before a
    /// run: its searches would find nothing).
    pub fn corpus_mismatch(&self) -> Option<(Rc<str>, String)> {
        let served = self.served.as_ref()?;
        let dataset = self.dataset.as_ref()?;
        (served.base_url == self.settings.base_url.trim()
            && *served.corpus_id != *dataset.corpus_id)
            .then(|| (served.corpus_id.clone(), dataset.corpus_id.clone()))
    }

    /// What a click on "run" (or "resume") would start: the settings and the items to ask.
    pub fn plan_run(&self, resume: bool) -> Result<(RunConfig, Vec<usize>), String> {
        let Some(dataset) = &self.dataset else {
            return Err("load a valid dataset first".into());
        };
        if self.run.is_running() {
            return Err("a run is already in progress".into());
        }
        let config = self.settings.validate().map_err(|errs| {
            errs.iter()
                .map(|e| e.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
        if !resume {
            return Ok((config, (0..dataset.items.len()).collect()));
        }
        let Some(kept) = self.run.resumable() else {
            return Err("there is no stopped run to resume".into());
        };
        if !kept.same_search(&config) {
            return Err(format!(
                "the settings changed since the run started; a resume must ask the same \
                 deployment the same way (base URL {}, top_k {}, cache mode {}, max precise \
                 span {}) — restore them, or start a new run",
                kept.base_url, kept.top_k, kept.cache_mode, kept.max_precise_span_pages
            ));
        }
        Ok((config, self.run.pending()))
    }

    /// The running run `id` ended: its report when every item was answered, else the banner.
    fn finish_run(&mut self, id: u64, now_ms: f64) {
        let Some((config, complete)) = self.run.end(id, now_ms) else {
            return;
        };
        if let Err(msg) = complete {
            self.banner("The live run stopped", msg);
            return;
        }
        let Some(dataset) = self.dataset.clone() else {
            return;
        };
        let run = RunInfo {
            started_at: self.run.started_at.clone(),
            duration_s: (self.run.elapsed_s * 1000.0).round() / 1000.0,
            retries: self.run.retries,
            source: "live".into(),
            ..RunInfo::default()
        };
        let lines = self.run.lines.clone();
        match scoring::score_live(&dataset, lines.iter().flatten().map(|l| &**l), &config, run) {
            Ok(scored) => {
                self.run.status = RunStatus::Finished;
                let trec = scoring::trec_of_live(dataset.clone(), lines.clone());
                self.hand("live run", scored, Some(lines), trec);
            }
            Err(e) => {
                self.run.status = RunStatus::Failed(config);
                self.banner("The live run's responses cannot be scored", e.to_string());
            }
        }
    }

    /// Scores the responses against the dataset: the report handed to the app, or the banner.
    fn score_offline(&mut self, started_at: String) {
        let title = "The responses cannot be scored";
        let Some(dataset) = self.dataset.clone() else {
            self.banner(
                title,
                "load a valid dataset first: responses are paired to its questions",
            );
            return;
        };
        let span = match self.settings.max_precise_span_pages() {
            Ok(s) => s,
            Err(e) => return self.banner(title, e.message),
        };
        let top_k = match self.offline_top_k.trim() {
            "" => None,
            t => match t.parse::<u32>() {
                Ok(k) if k >= 1 => Some(k),
                _ => {
                    return self.banner(
                        title,
                        format!(
                            "top_k: {t:?} is not a depth; give a whole number of 1 or more (the \
                             top_k the searches asked for), or leave it blank to read it from \
                             the answers"
                        ),
                    )
                }
            },
        };
        let source = self.responses_source.to_string();
        let run = RunInfo {
            started_at: Some(started_at),
            source: source.clone(),
            ..RunInfo::default()
        };
        match scoring::score_capture(
            &dataset,
            &self.responses_text,
            self.allow_missing,
            top_k,
            span,
            run,
        ) {
            Ok(scored) => {
                let trec = scoring::trec_of_capture(dataset.clone(), self.responses_text.clone());
                self.hand(&source, scored, None, trec);
            }
            Err(e) => match e.foreign {
                Some(questions) => {
                    let detail = match questions.len() {
                        1 => format!(
                            "this capture's one question is not in the dataset {}: it is for \
                             another dataset",
                            dataset.corpus_id
                        ),
                        n => format!(
                            "none of this capture's {n} questions is in the dataset {}: it is \
                             for another dataset",
                            dataset.corpus_id
                        ),
                    };
                    self.say(Some(Banner {
                        title: title.into(),
                        detail,
                        more: Some(e.message),
                    }));
                    self.foreign_capture = Some(Shared::new(questions));
                }
                None => self.banner(title, e.message),
            },
        }
    }

    /// Applies one action (the pure heart of the workbench).
    pub fn apply(mut self, action: Action) -> WorkState {
        match action {
            Action::LoadDataset { source, text } => {
                if self.run.is_running() {
                    self.banner("The dataset was not changed", "cancel the live run first");
                } else {
                    self.set_dataset(&source, text);
                    self.dataset_chosen = true;
                }
            }
            Action::EditDataset(text) => {
                if !self.run.is_running() {
                    self.set_dataset("pasted", text.into());
                    self.dataset_chosen = true;
                }
            }
            Action::FirstDataset { source, text } => {
                if self.dataset_text.is_empty()
                    && !self.dataset_chosen
                    && self.run.status == RunStatus::Idle
                {
                    self.set_dataset(&source, text);
                }
            }
            Action::DefaultDataset { source, text } => {
                if !self.dataset_chosen
                    && self.run.status == RunStatus::Idle
                    && *self.dataset_source != *source
                {
                    self.set_dataset(&source, text);
                }
            }
            Action::Served {
                base_url,
                corpus_id,
            } => {
                self.served = corpus_id.map(|c| Served {
                    base_url,
                    corpus_id: c.into(),
                });
            }
            Action::CaptureCorpus(corpus) => {
                if let (Some(_), Some(d), (_, Some(b))) =
                    (&self.foreign_capture, &self.dataset, &mut self.banner)
                {
                    b.detail = format!(
                        "this capture is for {corpus}; the dataset is {}\nLoad the dataset of \
                         {corpus} (Dataset, above) to score it.",
                        d.corpus_id
                    );
                }
            }
            Action::Settings(s) => self.settings = s,
            Action::EditResponses(text) => {
                self.responses_text = text.into();
                self.responses_source = "pasted responses".into();
            }
            Action::LoadResponses { source, text } => {
                self.responses_text = text;
                self.responses_source = source.into();
            }
            Action::AllowMissing(b) => self.allow_missing = b,
            Action::OfflineTopK(t) => self.offline_top_k = t.into(),
            Action::ScoreOffline { started_at } => self.score_offline(started_at),
            Action::RunStarted {
                id,
                config,
                resume,
                started_at,
                now_ms,
            } => {
                self.run.start(id, config, resume, started_at, now_ms);
                self.say(None);
            }
            Action::Received {
                id,
                index,
                line,
                hit,
            } => self.run.receive(id, index, line, hit),
            Action::Retried { id } => self.run.retried(id),
            Action::RunFailed {
                id,
                message,
                now_ms,
            } => {
                if self.run.stop(id, Some(message.clone()), now_ms) {
                    self.banner(
                        "The live run stopped",
                        format!(
                            "{message}\n\nWhat was received is kept (answers already in flight \
                             may still arrive): download it as a capture, or fix the deployment \
                             and resume to ask only for the rest."
                        ),
                    );
                }
            }
            Action::RunCancelled { id, now_ms } => {
                self.run.stop(id, None, now_ms);
            }
            Action::RunFinished { id, now_ms } => self.finish_run(id, now_ms),
            Action::DiscardRun => self.run.discard(),
            Action::Checked(c) => self.checked = c,
            Action::Error { title, detail } => self.banner(&title, detail),
        }
        self
    }
}

impl Reducible for WorkState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}
