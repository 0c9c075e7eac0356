//! The app's state and its reducer. Everything that changes together — the dataset, the run,
//! the report on show, the comparison, the banner — is one value changed by [`Action`]s behind
//! the one `use_reducer`, so the reducer is a pure function with ordinary unit tests; the shells
//! (components, the live runner, the effects that tell the document module what is on screen)
//! do the I/O and dispatch what happened. [`AppState::apply`] hands each action to the part it
//! concerns: the run's sub-reducer ([`run`]), the comparison's list ([`compare`]), and here the
//! dataset, the offline scoring, the report on show and the banner.

mod compare;
mod run;
#[cfg(test)]
pub(crate) mod tests;

pub use compare::{Compared, OpenReport, Slot};
pub use run::{capture_text, CaptureLines, LiveRun, RunStatus};

use std::rc::Rc;

use figeval::share::{Link, ShareError};
use figeval::{Dataset, Report, ReportError, RunInfo};
use yew::Reducible;

use crate::scoring::{self, Trec};
use crate::settings::{RunConfig, Settings};
use crate::shared::Shared;

/// The page on show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Dataset, deployment, live run and offline scoring.
    Workbench,
    /// The report view.
    Report,
    /// Before/after comparison.
    Compare,
}

/// A message at the top of the page (`error-banner`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// One line saying what failed.
    pub title: String,
    /// The message in words, shown as text (prose).
    pub detail: String,
    /// The technical detail behind `detail`, folded away (`<details>`), when there is one.
    pub more: Option<String>,
}

/// The whole app state.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The page on show.
    pub view: View,
    /// The document tools are on show (the Document view) in place of `view`, which goes on
    /// deciding which dataset the document check reads (`crate::checked`).
    pub document: bool,
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
    /// The report on show.
    pub report: Option<OpenReport>,
    /// The capture the report on show was scored from, when it was a live run.
    pub report_capture: Option<CaptureLines>,
    /// The standard run files of the report on show (or why there are none), when it was
    /// scored in this page from responses against the dataset loaded.
    pub report_trec: Option<Trec>,
    /// A failure to show.
    pub banner: Option<Banner>,
    /// The reports compared, in order (the baseline first).
    pub compared: Compared,
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
    /// Show a page.
    Show(View),
    /// Show the document tools (the Document view).
    ShowDocument,
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
    /// A report file arrived.
    OpenReport {
        /// Its name.
        name: String,
        /// Its text.
        text: String,
    },
    /// The page was opened with (or navigated to) a `#report=` or `#compare=` fragment: what
    /// it holds, or why it cannot be opened (`browser::open_link`).
    OpenShareLink(Result<Link, ShareError>),
    /// Put a report in a comparison slot: a file's text, or the current report when `None`.
    SetCompare {
        /// Which side.
        slot: Slot,
        /// Its name.
        name: String,
        /// The report file's text, or `None` for the report on show.
        text: Option<String>,
    },
    /// Swap before and after.
    SwapCompare,
    /// Add a report after the others in the comparison (a file's text, or the current report
    /// when `None`).
    AddCompare {
        /// Its name.
        name: String,
        /// The report file's text, or `None` for the report on show.
        text: Option<String>,
    },
    /// Take the report at this position of [`Compared::list`] out of the comparison.
    RemoveCompare(usize),
    /// Rename the report at this position of [`Compared::list`].
    RenameCompare(usize, String),
    /// Move the report at `from` of [`Compared::list`] to `to` (0 makes it the baseline).
    MoveCompare {
        /// Its position now.
        from: usize,
        /// Its position after.
        to: usize,
    },
    /// Something failed outside the reducer (reading a file, fetching a URL).
    Error {
        /// What failed.
        title: String,
        /// Why.
        detail: String,
    },
    /// Close the banner.
    DismissBanner,
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(Settings::default())
    }
}

impl AppState {
    /// The state at start: remembered settings, no dataset until the first bundled one (or
    /// the deployment's) arrives.
    pub fn new(settings: Settings) -> AppState {
        AppState {
            view: View::Workbench,
            document: false,
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
            report: None,
            report_capture: None,
            report_trec: None,
            banner: None,
            compared: Compared::default(),
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

    fn banner(&mut self, title: &str, detail: impl Into<String>) {
        self.foreign_capture = None;
        self.banner = Some(Banner {
            title: title.to_string(),
            detail: detail.into(),
            more: None,
        });
    }

    /// A report for the comparison: the file's text read (or refused with the banner), or the
    /// report on show when `text` is `None`.
    fn compare_input(&mut self, name: &str, text: Option<String>) -> Option<OpenReport> {
        match text {
            Some(text) => match Report::parse(&text) {
                Ok(r) => Some(OpenReport::new(name, r)),
                Err(e) => {
                    self.refuse_report(name, &text, &e);
                    None
                }
            },
            None => self.report.clone().map(OpenReport::keyed),
        }
    }

    /// The banner of a report text that was refused: the reason is the detail; a dataset
    /// given where a report belongs is named as one.
    fn refuse_report(&mut self, name: &str, text: &str, e: &ReportError) {
        let title = format!("{name} was refused");
        if Dataset::parse(text).is_ok() {
            self.banner(
                &title,
                "this is a dataset, not a report: load it under Dataset in Run & score, \
                 or open a report (figeval run --out, a downloaded report) here",
            );
        } else {
            self.banner(&title, e.to_string());
        }
    }

    /// The banner of a share link that cannot be opened: a damaged link says so in words,
    /// with the decoder's detail folded away.
    fn refuse_link(&mut self, e: &ShareError) {
        let title = "This share link cannot be opened";
        match e {
            ShareError::NotBase64(_) | ShareError::NotDeflate(_) => {
                self.banner(title, "this link is damaged (it was cut or changed)");
                if let Some(b) = &mut self.banner {
                    b.more = Some(e.to_string());
                }
            }
            _ => self.banner(title, e.to_string()),
        }
    }

    fn show_report(
        &mut self,
        report: OpenReport,
        capture: Option<CaptureLines>,
        trec: Option<Trec>,
    ) {
        self.report = Some(report);
        self.report_capture = capture;
        self.report_trec = trec;
        self.show(View::Report);
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
                self.banner = None;
                let trec = scoring::trec_of_live(dataset.clone(), lines.clone());
                self.show_report(
                    OpenReport::scored("live run", scored),
                    Some(lines),
                    Some(trec),
                );
            }
            Err(e) => {
                self.run.status = RunStatus::Failed(config);
                self.banner("The live run's responses cannot be scored", e.to_string());
            }
        }
    }

    /// Shows a page: the document tools give way to it.
    fn show(&mut self, view: View) {
        self.view = view;
        self.document = false;
    }

    /// Applies one action (the pure heart of the app).
    pub fn apply(mut self, action: Action) -> AppState {
        match action {
            Action::Show(v) => self.show(v),
            Action::ShowDocument => self.document = true,
            Action::LoadDataset { source, text } => {
                if self.run.is_running() {
                    self.banner("The dataset was not changed", "cancel the live run first");
                } else {
                    self.set_dataset(&source, text);
                    self.dataset_chosen = true;
                    self.show(View::Workbench);
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
                if let (Some(_), Some(d), Some(b)) =
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
            Action::ScoreOffline { started_at } => {
                let Some(dataset) = self.dataset.clone() else {
                    self.banner(
                        "The responses cannot be scored",
                        "load a valid dataset first: responses are paired to its questions",
                    );
                    return self;
                };
                let span = match self.settings.max_precise_span_pages() {
                    Ok(s) => s,
                    Err(e) => {
                        self.banner("The responses cannot be scored", e.message);
                        return self;
                    }
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
                    span,
                    run,
                ) {
                    Ok(scored) => {
                        self.banner = None;
                        let trec =
                            scoring::trec_of_capture(dataset.clone(), self.responses_text.clone());
                        self.show_report(OpenReport::scored(&source, scored), None, Some(trec));
                    }
                    Err(e) => {
                        let title = "The responses cannot be scored";
                        match e.foreign {
                            Some(questions) => {
                                self.banner(
                                    title,
                                    match questions.len() {
                                        1 => format!(
                                            "this capture's one question is not in the dataset \
                                             {}: it is for another dataset",
                                            dataset.corpus_id
                                        ),
                                        n => format!(
                                            "none of this capture's {n} questions is in the \
                                             dataset {}: it is for another dataset",
                                            dataset.corpus_id
                                        ),
                                    },
                                );
                                if let Some(b) = &mut self.banner {
                                    b.more = Some(e.message);
                                }
                                self.foreign_capture = Some(Shared::new(questions));
                            }
                            None => self.banner(title, e.message),
                        }
                    }
                }
            }
            Action::RunStarted {
                id,
                config,
                resume,
                started_at,
                now_ms,
            } => {
                self.run.start(id, config, resume, started_at, now_ms);
                self.banner = None;
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
            Action::OpenReport { name, text } => match Report::parse(&text) {
                Ok(r) => {
                    self.banner = None;
                    self.show_report(OpenReport::new(&name, r), None, None);
                }
                Err(e) => self.refuse_report(&name, &text, &e),
            },
            Action::OpenShareLink(link) => match link {
                Ok(Link::Report(r)) => {
                    self.banner = None;
                    self.show_report(OpenReport::new("share link", *r), None, None);
                }
                Ok(Link::Compare(reports)) => {
                    self.banner = None;
                    self.compared = Compared::of(
                        reports
                            .into_iter()
                            .map(|n| OpenReport::new(&n.name, n.report))
                            .collect(),
                    );
                    self.show(View::Compare);
                }
                Err(e) => self.refuse_link(&e),
            },
            Action::SetCompare { slot, name, text } => {
                if let Some(o) = self.compare_input(&name, text) {
                    self.compared.set(slot, o);
                    self.show(View::Compare);
                }
            }
            Action::SwapCompare => self.compared.swap(),
            Action::AddCompare { name, text } => {
                if let Some(o) = self.compare_input(&name, text) {
                    self.compared.add(o);
                    self.show(View::Compare);
                }
            }
            Action::RemoveCompare(at) => self.compared.remove(at),
            Action::RenameCompare(at, name) => self.compared.rename(at, &name),
            Action::MoveCompare { from, to } => self.compared.move_to(from, to),
            Action::Error { title, detail } => self.banner(&title, detail),
            Action::DismissBanner => {
                self.banner = None;
                self.foreign_capture = None;
            }
        }
        self
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}
