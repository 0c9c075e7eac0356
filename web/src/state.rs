//! The app's state and its reducer. Everything that changes together — the dataset, the run,
//! the report on show, the banner — is one value changed by [`Action`]s, so the reducer is a
//! pure function with ordinary unit tests. The shells (components, the live runner) do the I/O
//! and dispatch what happened.

use std::rc::Rc;

use figeval::share::{Link, ShareError};
use figeval::{Dataset, Report, ReportError, RunInfo};
use yew::Reducible;

use crate::datasets;
use crate::scoring::{self, Said, Trec};
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

/// Where a live run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// No run for this dataset yet.
    Idle,
    /// Searches are in flight.
    Running,
    /// The user stopped it; what was received is kept.
    Cancelled,
    /// A search failed; what was received is kept.
    Failed,
    /// Every item answered and the report was built.
    Finished,
}

/// A live run's capture: one envelope per dataset item, `None` until answered. Shared, not
/// copied, between the run and the report scored from it; joined into JSON Lines only when
/// it is downloaded.
pub type CaptureLines = Rc<Vec<Option<Rc<str>>>>;

/// The answered envelopes of `lines` as JSON Lines, in dataset order.
pub fn capture_text(lines: &[Option<Rc<str>>]) -> String {
    let mut out = String::with_capacity(lines.iter().flatten().map(|l| l.len() + 1).sum());
    for line in lines.iter().flatten() {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A live run: its capture so far (one envelope per item, `None` until answered).
#[derive(Debug, Clone, PartialEq)]
pub struct LiveRun {
    /// Increases with every start, so a cancelled run's late answers are ignored.
    pub id: u64,
    /// Where it is.
    pub status: RunStatus,
    /// The settings the capture was collected with.
    pub config: Option<RunConfig>,
    /// One capture line per dataset item, in dataset order.
    pub lines: CaptureLines,
    /// Items whose answer hit on page_hit_at_3 so far.
    pub hits: usize,
    /// When the first segment started (RFC 3339).
    pub started_at: Option<String>,
    /// Seconds spent in finished segments.
    pub elapsed_s: f64,
    /// When the running segment started (ms since the epoch).
    pub segment_started_ms: f64,
    /// Retried requests.
    pub retries: u64,
    /// Why it stopped, when it failed.
    pub failure: Option<String>,
}

impl LiveRun {
    fn new(items: usize) -> LiveRun {
        LiveRun {
            id: 0,
            status: RunStatus::Idle,
            config: None,
            lines: Rc::new(vec![None; items]),
            hits: 0,
            started_at: None,
            elapsed_s: 0.0,
            segment_started_ms: 0.0,
            retries: 0,
            failure: None,
        }
    }

    /// Items answered.
    pub fn done(&self) -> usize {
        self.lines.iter().filter(|l| l.is_some()).count()
    }

    /// Items in the dataset.
    pub fn total(&self) -> usize {
        self.lines.len()
    }

    /// Dataset indices not answered yet, in dataset order.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.lines.len())
            .filter(|&i| self.lines[i].is_none())
            .collect()
    }

    /// Whether any answer was received (so there is a capture to download).
    pub fn has_capture(&self) -> bool {
        self.lines.iter().any(Option::is_some)
    }

    /// Whether a stopped run can be resumed.
    pub fn can_resume(&self) -> bool {
        matches!(self.status, RunStatus::Cancelled | RunStatus::Failed)
            && self.done() < self.total()
            && self.config.is_some()
    }

    /// The capture received so far: JSON Lines of envelopes, in dataset order.
    pub fn capture_text(&self) -> String {
        capture_text(&self.lines)
    }

    fn stop_segment(&mut self, now_ms: f64) {
        self.elapsed_s += ((now_ms - self.segment_started_ms) / 1000.0).max(0.0);
    }
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The baseline.
    Before,
    /// The change.
    After,
}

/// A report and what it is called (its file, `live`, `share link`…).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenReport {
    /// Where it came from.
    pub name: Rc<str>,
    /// The report.
    pub report: Shared<Report>,
    /// What its matches said, when it was scored here from responses (a live run, a capture).
    pub said: Option<Said>,
    /// This entry's own key, never shared with another entry: the compare view's list keys its
    /// rows by it, so a row (and its focus) follows its report when the list is reordered, also
    /// when the same report was added twice.
    pub key: u64,
}

/// The next [`OpenReport::key`].
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl OpenReport {
    fn new(name: &str, report: Report) -> OpenReport {
        OpenReport {
            name: name.into(),
            report: Shared::new(report),
            said: None,
            key: 0,
        }
        .keyed()
    }

    /// The same report as a new entry, with a key of its own.
    fn keyed(self) -> OpenReport {
        let key = NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenReport { key, ..self }
    }

    fn scored(name: &str, (report, said): (Report, Said)) -> OpenReport {
        OpenReport {
            said: Some(said),
            ..OpenReport::new(name, report)
        }
    }
}

/// The whole app state.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The page on show.
    pub view: View,
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
    /// The comparison's baseline.
    pub before: Option<OpenReport>,
    /// The comparison's change.
    pub after: Option<OpenReport>,
    /// The comparison's further runs, in order, after `after` (a `#compare=` link's third
    /// report on, or added): with them the view is every run against the baseline.
    pub compare_rest: Rc<Vec<OpenReport>>,
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
    /// A dataset text arrived (bundled, file, URL).
    LoadDataset {
        /// Where it came from.
        source: String,
        /// Its text.
        text: Rc<str>,
    },
    /// The dataset textarea was edited.
    EditDataset(String),
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
    /// Take the report at this position of [`AppState::compared`] out of the comparison.
    RemoveCompare(usize),
    /// Move the report at `from` of [`AppState::compared`] to `to` (0 makes it the baseline).
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
    /// The state at start: remembered settings, the first bundled dataset.
    pub fn new(settings: Settings) -> AppState {
        let first = &datasets::BUNDLED[0];
        let mut s = AppState {
            view: View::Workbench,
            dataset_text: "".into(),
            dataset_source: "".into(),
            dataset: None,
            dataset_errors: Rc::new(Vec::new()),
            dataset_chosen: false,
            served: None,
            foreign_capture: None,
            settings,
            run: LiveRun::new(0),
            responses_text: "".into(),
            responses_source: "pasted responses".into(),
            allow_missing: false,
            report: None,
            report_capture: None,
            report_trec: None,
            banner: None,
            before: None,
            after: None,
            compare_rest: Rc::new(Vec::new()),
        };
        let text = first
            .text
            .expect("the first bundled dataset is inside the app");
        s.set_dataset(&format!("bundled: {}", first.file), text.into());
        s
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
        let id = self.run.id;
        self.run = LiveRun::new(items);
        self.run.id = id;
    }

    fn banner(&mut self, title: &str, detail: impl Into<String>) {
        self.foreign_capture = None;
        self.banner = Some(Banner {
            title: title.to_string(),
            detail: detail.into(),
            more: None,
        });
    }

    /// The reports compared, in order: the baseline (before), the first run (after), then the
    /// others; an empty slot is skipped.
    pub fn compared(&self) -> Vec<OpenReport> {
        self.before
            .iter()
            .chain(&self.after)
            .chain(self.compare_rest.iter())
            .cloned()
            .collect()
    }

    /// Puts the reports compared back in order: the baseline, the first run, the others.
    fn set_compared(&mut self, list: Vec<OpenReport>) {
        let mut list = list.into_iter();
        self.before = list.next();
        self.after = list.next();
        self.compare_rest = Rc::new(list.collect());
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
        self.view = View::Report;
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
        if self.run.status == RunStatus::Running {
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
        if !self.run.can_resume() {
            return Err("there is no stopped run to resume".into());
        }
        let kept = self
            .run
            .config
            .as_ref()
            .expect("a resumable run has settings");
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

    fn finish_run(&mut self, now_ms: f64) {
        self.run.stop_segment(now_ms);
        let (Some(dataset), Some(config)) = (self.dataset.clone(), self.run.config.clone()) else {
            return;
        };
        if self.run.done() < self.run.total() {
            self.run.status = RunStatus::Failed;
            let msg = format!(
                "the run ended with {} of {} items unanswered",
                self.run.total() - self.run.done(),
                self.run.total()
            );
            self.run.failure = Some(msg.clone());
            self.banner("The live run stopped", msg);
            return;
        }
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
                self.run.status = RunStatus::Failed;
                self.banner("The live run's responses cannot be scored", e.to_string());
            }
        }
    }

    /// Applies one action (the pure heart of the app).
    pub fn apply(mut self, action: Action) -> AppState {
        match action {
            Action::Show(v) => self.view = v,
            Action::LoadDataset { source, text } => {
                if self.run.status == RunStatus::Running {
                    self.banner("The dataset was not changed", "cancel the live run first");
                } else {
                    self.set_dataset(&source, text);
                    self.dataset_chosen = true;
                    self.view = View::Workbench;
                }
            }
            Action::EditDataset(text) => {
                if self.run.status != RunStatus::Running {
                    self.set_dataset("pasted", text.into());
                    self.dataset_chosen = true;
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
                if !resume {
                    self.run = LiveRun::new(self.run.total());
                    self.run.started_at = Some(started_at);
                }
                self.run.id = id;
                self.run.status = RunStatus::Running;
                self.run.config = Some(config);
                self.run.segment_started_ms = now_ms;
                self.run.failure = None;
                self.banner = None;
            }
            Action::Received {
                id,
                index,
                line,
                hit,
            } => {
                // After a failure, searches that were already in flight may still land.
                if id == self.run.id
                    && matches!(self.run.status, RunStatus::Running | RunStatus::Failed)
                    && self.run.lines.get(index).is_some_and(Option::is_none)
                {
                    Rc::make_mut(&mut self.run.lines)[index] = Some(line);
                    self.run.hits += usize::from(hit);
                }
            }
            Action::Retried { id } => {
                if id == self.run.id {
                    self.run.retries += 1;
                }
            }
            Action::RunFailed {
                id,
                message,
                now_ms,
            } => {
                if id == self.run.id && self.run.status == RunStatus::Running {
                    self.run.stop_segment(now_ms);
                    self.run.status = RunStatus::Failed;
                    self.run.failure = Some(message.clone());
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
                if id == self.run.id && self.run.status == RunStatus::Running {
                    self.run.stop_segment(now_ms);
                    self.run.status = RunStatus::Cancelled;
                }
            }
            Action::RunFinished { id, now_ms } => {
                if id == self.run.id && self.run.status == RunStatus::Running {
                    self.finish_run(now_ms);
                }
            }
            Action::DiscardRun => {
                if self.run.status != RunStatus::Running {
                    let id = self.run.id;
                    self.run = LiveRun::new(self.run.total());
                    self.run.id = id;
                }
            }
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
                    let mut opened = reports
                        .into_iter()
                        .map(|n| OpenReport::new(&n.name, n.report));
                    self.before = opened.next();
                    self.after = opened.next();
                    self.compare_rest = Rc::new(opened.collect());
                    self.view = View::Compare;
                }
                Err(e) => self.refuse_link(&e),
            },
            Action::SetCompare { slot, name, text } => {
                if let Some(o) = self.compare_input(&name, text) {
                    match slot {
                        Slot::Before => self.before = Some(o),
                        Slot::After => self.after = Some(o),
                    }
                    self.view = View::Compare;
                }
            }
            Action::SwapCompare => std::mem::swap(&mut self.before, &mut self.after),
            Action::AddCompare { name, text } => {
                if let Some(o) = self.compare_input(&name, text) {
                    let mut list = self.compared();
                    list.push(o);
                    self.set_compared(list);
                    self.view = View::Compare;
                }
            }
            Action::RemoveCompare(at) => {
                let mut list = self.compared();
                if at < list.len() {
                    list.remove(at);
                    self.set_compared(list);
                }
            }
            Action::MoveCompare { from, to } => {
                let mut list = self.compared();
                if from < list.len() && to < list.len() {
                    let o = list.remove(from);
                    list.insert(to, o);
                    self.set_compared(list);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::tests::{body, dataset};
    use crate::search::envelope_line;
    use figeval::Metric;

    fn with_demo_dataset() -> AppState {
        let text = dataset().to_value().to_string();
        AppState::default().apply(Action::LoadDataset {
            source: "demo.json".into(),
            text: text.into(),
        })
    }

    /// A capture of the demo dataset, every item answered with one match citing `pages`.
    fn demo_capture(pages: &[(u32, u32)]) -> String {
        dataset()
            .items
            .iter()
            .map(|it| body(&it.question, pages).to_string() + "\n")
            .collect()
    }

    /// The demo dataset scored offline, every item answered with one match citing `pages`.
    fn scored_offline(pages: &[(u32, u32)]) -> AppState {
        with_demo_dataset()
            .apply(Action::EditResponses(demo_capture(pages)))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            })
    }

    fn start(s: AppState, id: u64, resume: bool) -> AppState {
        let config = s.settings.validate().unwrap();
        s.apply(Action::RunStarted {
            id,
            config,
            resume,
            started_at: "2024-01-01T00:00:00.000Z".into(),
            now_ms: 1000.0,
        })
    }

    fn answer(s: AppState, id: u64, index: usize, pages: &[(u32, u32)]) -> AppState {
        let q = s.dataset.as_ref().unwrap().items[index].question.clone();
        let config = s.settings.validate().unwrap();
        let line = envelope_line(&q, &config, &body(&q, pages).to_string());
        s.apply(Action::Received {
            id,
            index,
            line: line.into(),
            hit: true,
        })
    }

    #[test]
    fn the_app_opens_on_a_valid_bundled_dataset() {
        let s = AppState::default();
        assert!(s.dataset.is_some(), "{:?}", s.dataset_errors);
        assert!(s.dataset_source.starts_with("bundled: "));
        assert_eq!(s.run.total(), s.dataset.as_ref().unwrap().items.len());
    }

    #[test]
    fn an_invalid_dataset_lists_every_error_as_figeval_words_it() {
        let text = r#"{"corpus_id": "", "items": [{"question": "q", "kind": "maybe"}]}"#;
        let s = AppState::default().apply(Action::EditDataset(text.into()));
        assert!(s.dataset.is_none());
        let expected: Vec<String> = Dataset::parse(text)
            .unwrap_err()
            .0
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(expected.len() > 2);
        assert_eq!(*s.dataset_errors, expected);
    }

    #[test]
    fn a_complete_live_run_shows_its_report_and_keeps_its_capture() {
        let mut s = start(with_demo_dataset(), 1, false);
        for i in 0..3 {
            s = answer(s, 1, i, &[(4, 4)]);
        }
        assert_eq!(s.run.done(), 3);
        let s = s.apply(Action::RunFinished {
            id: 1,
            now_ms: 3500.0,
        });
        assert_eq!(s.run.status, RunStatus::Finished);
        assert_eq!(s.view, View::Report);
        let report = &s.report.as_ref().unwrap().report;
        assert_eq!(report.summary.n, 3);
        assert_eq!(report.summary.hits(Metric::PageHitAt3), 1);
        assert_eq!(report.run.source, "live");
        assert_eq!(report.run.duration_s, 2.5);
        let kept = s.report_capture.as_ref().unwrap();
        assert!(
            Rc::ptr_eq(kept, &s.run.lines),
            "the report shares the run's capture, not a copy"
        );
        assert_eq!(capture_text(kept).lines().count(), 3);
        assert_eq!(capture_text(kept), s.run.capture_text());
        let trec = s.report_trec.as_ref().unwrap();
        assert!(trec.made().is_none(), "made only when asked for");
        let want = figeval::trec::export_capture(&dataset(), &capture_text(kept));
        assert_eq!(trec.get(), &want.map_err(|e| e.to_string()));
    }

    #[test]
    fn a_failure_stops_the_run_keeps_what_was_received_and_names_the_question() {
        let s = answer(start(with_demo_dataset(), 1, false), 1, 0, &[(4, 4)]);
        let s = s.apply(Action::RunFailed {
            id: 1,
            message: "The search for question \"What does the curve show?\" failed: HTTP 500"
                .into(),
            now_ms: 2000.0,
        });
        assert_eq!(s.run.status, RunStatus::Failed);
        let banner = s.banner.as_ref().unwrap();
        assert!(banner.detail.contains("What does the curve show?"));
        assert!(banner.detail.contains("What was received is kept"));
        assert!(s.run.has_capture());
        assert_eq!(s.run.capture_text().lines().count(), 1);
        // An answer that was in flight when the run failed still lands in the capture…
        let s = answer(s, 1, 1, &[(9, 9)]);
        assert_eq!(s.run.done(), 2);
        // …but not one from an older run, nor one after a cancel.
        let s = answer(s, 0, 2, &[(2, 2)]);
        assert_eq!(s.run.done(), 2);
    }

    #[test]
    fn a_resume_asks_only_for_the_rest_and_completes_the_same_capture() {
        let s = answer(start(with_demo_dataset(), 1, false), 1, 1, &[(9, 9)]);
        let s = s.apply(Action::RunCancelled {
            id: 1,
            now_ms: 2000.0,
        });
        assert!(s.run.can_resume());
        let s = answer(s, 1, 0, &[(4, 4)]);
        assert_eq!(s.run.done(), 1, "nothing lands after a cancel");
        let (_, pending) = s.plan_run(true).unwrap();
        assert_eq!(pending, vec![0, 2]);
        let mut s = start(s, 2, true);
        assert_eq!(s.run.done(), 1, "a resume keeps the capture");
        s = answer(s, 2, 0, &[(4, 4)]);
        s = answer(s, 2, 2, &[(2, 2)]);
        let s = s.apply(Action::RunFinished {
            id: 2,
            now_ms: 3000.0,
        });
        let report = &s.report.as_ref().unwrap().report;
        assert_eq!(report.summary.hits(Metric::PageHitAt3), 3);
        // 1 s before the cancel, 2 s after the resume.
        assert_eq!(report.run.duration_s, 3.0);
    }

    #[test]
    fn a_resume_with_other_search_settings_is_refused() {
        let s = answer(start(with_demo_dataset(), 1, false), 1, 1, &[(9, 9)]);
        let mut s = s.apply(Action::RunCancelled { id: 1, now_ms: 0.0 });
        s.settings.top_k = "10".into();
        let err = s.plan_run(true).unwrap_err();
        assert!(err.contains("settings changed"), "{err}");
        assert!(s.plan_run(false).is_ok(), "a new run is fine");
    }

    #[test]
    fn a_run_is_refused_while_top_k_is_below_five() {
        let mut s = with_demo_dataset();
        s.settings.top_k = "3".into();
        assert!(s.plan_run(false).unwrap_err().contains("page_hit_at_5"));
    }

    #[test]
    fn offline_scoring_failure_shows_the_capture_errors_text() {
        let s = with_demo_dataset()
            .apply(Action::EditResponses("not json\n".into()))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            });
        let banner = s.banner.unwrap();
        assert!(
            banner.detail.starts_with("2 problems with the responses:"),
            "{}",
            banner.detail
        );
        assert!(banner.detail.contains("line 1, column 2: not JSON"));
        assert!(banner.detail.contains("3 item(s) with no response"));
        assert!(s.report.is_none());
    }

    #[test]
    fn offline_scoring_opens_the_report_view() {
        let d = dataset();
        let text: String = d
            .items
            .iter()
            .map(|it| body(&it.question, &[(2, 4)]).to_string() + "\n")
            .collect();
        let s = with_demo_dataset()
            .apply(Action::EditResponses(text))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            });
        assert_eq!(s.view, View::Report);
        let r = &s.report.unwrap().report;
        assert_eq!(r.summary.hits(Metric::PageHitAt3), 2);
        assert_eq!(r.run.source, "pasted responses");
    }

    #[test]
    fn offline_scoring_keeps_the_run_files_figeval_export_writes() {
        let s = scored_offline(&[(2, 4)]);
        let kept = s.report_trec.clone().unwrap();
        let want = figeval::trec::export_capture(&dataset(), &demo_capture(&[(2, 4)])).unwrap();
        assert!(kept.made().is_none(), "made only when asked for");
        assert_eq!(kept.get(), &Ok(want.clone()));
        assert!(want.run.contains("q1 Q0 p2 1 1 figeval\n"), "{}", want.run);
        // A report opened from a file has no responses at hand.
        let json = s.report.unwrap().report.to_json_pretty();
        let opened = s_open(&json);
        assert!(opened.report.is_some());
        assert!(opened.report_trec.is_none());
    }

    fn s_open(json: &str) -> AppState {
        AppState::default().apply(Action::OpenReport {
            name: "r.json".into(),
            text: json.into(),
        })
    }

    #[test]
    fn a_partial_capture_scored_with_allow_missing_says_why_it_has_no_run_files() {
        let d = dataset();
        let first = &d.items[0].question;
        let s = with_demo_dataset()
            .apply(Action::EditResponses(
                body(first, &[(2, 2)]).to_string() + "\n",
            ))
            .apply(Action::AllowMissing(true))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            });
        assert!(s.report.is_some());
        let trec = s.report_trec.unwrap();
        let reason = trec.get().clone().unwrap_err();
        assert!(reason.contains("no response"), "{reason}");
    }

    /// What a link holds, as the page reads it (the core inflating here).
    fn link(fragment: &str) -> Result<Link, ShareError> {
        figeval::share::decode_link(fragment)
    }

    #[test]
    fn a_corrupt_share_link_shows_a_message_and_keeps_the_state() {
        let s = AppState::default().apply(Action::OpenShareLink(link("#report=%%%")));
        assert!(s.report.is_none());
        assert_eq!(s.banner.unwrap().title, "This share link cannot be opened");
    }

    #[test]
    fn a_share_link_round_trips_a_report() {
        let s = scored_offline(&[(4, 4)]);
        let report = s.report.clone().unwrap().report;
        let fragment = figeval::share::fragment(&report).unwrap();
        let opened =
            AppState::default().apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
        assert_eq!(*opened.report.unwrap().report, *report);
    }

    fn scored(pages: &[(u32, u32)]) -> Report {
        let text: String = dataset()
            .items
            .iter()
            .map(|it| body(&it.question, pages).to_string() + "\n")
            .collect();
        let s = with_demo_dataset()
            .apply(Action::EditResponses(text))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            });
        (*s.report.unwrap().report).clone()
    }

    #[test]
    fn a_compare_link_opens_the_compare_view_on_all_its_reports_in_order() {
        let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
        let fragment =
            figeval::share::compare_fragment(&[("before.json", &a), ("after.json", &b), ("c", &c)])
                .unwrap();
        let s = AppState::default().apply(Action::OpenShareLink(link(&format!("#{fragment}"))));
        assert_eq!(s.view, View::Compare);
        assert!(s.banner.is_none());
        let names: Vec<String> = s.compared().iter().map(|o| o.name.to_string()).collect();
        assert_eq!(
            names,
            ["before.json", "after.json", "c"],
            "all of them, in order"
        );
        let before = s.before.unwrap();
        let after = s.after.unwrap();
        assert_eq!((&*before.name, &*before.report), ("before.json", &a));
        assert_eq!((&*after.name, &*after.report), ("after.json", &b));
        assert_eq!(s.compare_rest.len(), 1);
        assert_eq!(*s.compare_rest[0].report, c);
        assert!(s.report.is_none(), "the report view is left alone");
    }

    #[test]
    fn reports_are_added_removed_reordered_and_made_the_baseline_in_order() {
        let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
        let names = |s: &AppState| {
            s.compared()
                .iter()
                .map(|o| o.name.to_string())
                .collect::<Vec<_>>()
        };
        let add = |s: AppState, name: &str, r: &Report| {
            s.apply(Action::AddCompare {
                name: name.into(),
                text: Some(r.to_json_pretty()),
            })
        };
        let s = add(add(add(AppState::default(), "a", &a), "b", &b), "c", &c);
        assert_eq!(s.view, View::Compare);
        assert_eq!(names(&s), ["a", "b", "c"]);
        assert_eq!(
            *s.before.as_ref().unwrap().report,
            a,
            "the first is the baseline"
        );
        let s = s.apply(Action::MoveCompare { from: 2, to: 0 });
        assert_eq!(names(&s), ["c", "a", "b"]);
        assert_eq!(*s.before.as_ref().unwrap().report, c);
        assert_eq!(*s.after.as_ref().unwrap().report, a);
        let s = s.apply(Action::MoveCompare { from: 1, to: 2 });
        assert_eq!(names(&s), ["c", "b", "a"]);
        let s = s.apply(Action::RemoveCompare(0));
        assert_eq!(names(&s), ["b", "a"]);
        assert!(
            s.compare_rest.is_empty(),
            "two reports: before and after, as before"
        );
        assert_eq!(&*s.before.as_ref().unwrap().name, "b");
        // Out of range: nothing moves.
        let s = s
            .apply(Action::MoveCompare { from: 5, to: 0 })
            .apply(Action::MoveCompare { from: 0, to: 2 })
            .apply(Action::RemoveCompare(9));
        assert_eq!(names(&s), ["b", "a"]);
        // A file that is not a report is refused and nothing is added.
        let s = s.apply(Action::AddCompare {
            name: "bad.json".into(),
            text: Some("{".into()),
        });
        assert_eq!(names(&s), ["b", "a"]);
        assert_eq!(s.banner.as_ref().unwrap().title, "bad.json was refused");
        // The current report: none on show adds nothing.
        let s = AppState::default().apply(Action::AddCompare {
            name: "current report".into(),
            text: None,
        });
        assert!(s.compared().is_empty());
    }

    #[test]
    fn each_report_compared_keeps_its_own_key_through_moves_even_the_same_report_twice() {
        let a = scored(&[(4, 4)]);
        let current = |s: AppState| {
            s.apply(Action::AddCompare {
                name: "current report".into(),
                text: None,
            })
        };
        let s = AppState::default().apply(Action::OpenReport {
            name: "a.json".into(),
            text: a.to_json_pretty(),
        });
        let s = current(current(current(s)));
        let keys = |s: &AppState| s.compared().iter().map(|o| o.key).collect::<Vec<_>>();
        let was = keys(&s);
        assert_eq!(was.len(), 3);
        assert!(
            was[0] != was[1] && was[1] != was[2] && was[0] != was[2],
            "{was:?}"
        );
        assert!(!was.contains(&s.report.as_ref().unwrap().key));
        let s = s.apply(Action::MoveCompare { from: 0, to: 2 });
        assert_eq!(
            keys(&s),
            [was[1], was[2], was[0]],
            "a key moves with its report"
        );
    }

    #[test]
    fn a_corrupt_compare_link_shows_a_message_and_keeps_the_comparison() {
        let (a, b) = (scored(&[(4, 4)]), scored(&[(9, 9)]));
        let good = figeval::share::compare_fragment(&[("a", &a), ("b", &b)]).unwrap();
        let s = AppState::default()
            .apply(Action::OpenShareLink(link(&format!("#{good}"))))
            .apply(Action::OpenShareLink(link("#compare=%%%")));
        let banner = s.banner.unwrap();
        assert_eq!(banner.title, "This share link cannot be opened");
        assert_eq!(
            banner.detail,
            "this link is damaged (it was cut or changed)"
        );
        let more = banner.more.unwrap();
        assert!(more.contains("not base64url"), "{more}");
        assert_eq!(&*s.before.unwrap().name, "a");
    }

    #[test]
    fn a_report_file_that_contradicts_its_items_is_refused_with_the_disagreement() {
        let s = scored_offline(&[(4, 4)]);
        let mut v = serde_json::to_value(&*s.report.as_ref().unwrap().report).unwrap();
        let hits = v["page_hit_at_3_hits"].clone();
        v["page_hit_at_3_hits"] = 999.into();
        v.as_object_mut().unwrap().remove("page_hit_at_3_ci");
        let opened = AppState::default().apply(Action::OpenReport {
            name: "tampered.json".into(),
            text: v.to_string(),
        });
        assert!(opened.report.is_none());
        let banner = opened.banner.unwrap();
        assert_eq!(banner.title, "tampered.json was refused");
        assert!(
            banner.detail.ends_with(&format!(
                "page_hit_at_3_hits is 999 but per_item gives {hits}"
            )),
            "{}",
            banner.detail
        );
    }

    #[test]
    fn a_dataset_given_where_a_report_belongs_is_named_as_a_dataset() {
        let text = dataset().to_value().to_string();
        let s = AppState::default().apply(Action::OpenReport {
            name: "demo.json".into(),
            text: text.clone(),
        });
        assert!(s.report.is_none());
        let banner = s.banner.unwrap();
        assert_eq!(banner.title, "demo.json was refused");
        assert!(
            banner.detail.starts_with("this is a dataset, not a report"),
            "{}",
            banner.detail
        );
        let s = AppState::default().apply(Action::AddCompare {
            name: "demo.json".into(),
            text: Some(text),
        });
        let detail = s.banner.unwrap().detail;
        assert!(
            detail.starts_with("this is a dataset, not a report"),
            "{detail}"
        );
    }

    #[test]
    fn the_current_report_can_be_compared_with_a_file() {
        let s = scored_offline(&[(4, 4)]);
        let json = s.report.as_ref().unwrap().report.to_json_pretty();
        let s = s
            .apply(Action::SetCompare {
                slot: Slot::Before,
                name: "current".into(),
                text: None,
            })
            .apply(Action::SetCompare {
                slot: Slot::After,
                name: "after.json".into(),
                text: Some(json),
            });
        assert_eq!(s.view, View::Compare);
        assert!(s.before.is_some() && s.after.is_some());
        let s = s.apply(Action::SetCompare {
            slot: Slot::After,
            name: "bad.json".into(),
            text: Some("{".into()),
        });
        assert!(s.banner.unwrap().title.contains("bad.json"));
        assert_eq!(
            &*s.after.unwrap().name,
            "after.json",
            "a bad file leaves the slot alone"
        );
    }

    #[test]
    fn the_deployments_corpus_replaces_the_start_dataset_until_the_user_chooses_one() {
        let octave = r#"{"corpus_id": "octave-manual", "items": [{"question": "Q?", "expected_pages": [2], "figure_ref": "Figure 1.1", "kind": "locate"}]}"#;
        let default = |s: AppState| {
            s.apply(Action::DefaultDataset {
                source: "bundled: octave-manual-figures.json".into(),
                text: octave.into(),
            })
        };
        let s = default(AppState::default());
        assert_eq!(s.dataset.as_ref().unwrap().corpus_id, "octave-manual");
        assert!(!s.dataset_chosen);
        // A dataset the user loaded stays.
        let s = default(with_demo_dataset());
        assert_eq!(s.dataset.as_ref().unwrap().corpus_id, dataset().corpus_id);
    }

    #[test]
    fn a_deployment_serving_another_corpus_is_said_before_the_run() {
        let s = with_demo_dataset();
        let base = s.settings.base_url.clone();
        let served = |s: AppState, base: &str, corpus: Option<&str>| {
            s.apply(Action::Served {
                base_url: base.into(),
                corpus_id: corpus.map(Into::into),
            })
        };
        let s = served(s, &base, Some("octave-manual"));
        let (said, ours) = s.corpus_mismatch().unwrap();
        assert_eq!(
            (&*said, ours.as_str()),
            ("octave-manual", dataset().corpus_id.as_str())
        );
        // The same corpus, an answer for another base URL, or no answer: nothing to say.
        let corpus = dataset().corpus_id;
        assert!(served(s.clone(), &base, Some(&corpus))
            .corpus_mismatch()
            .is_none());
        assert!(served(s.clone(), "http://other/api", Some("x"))
            .corpus_mismatch()
            .is_none());
        assert!(served(s, &base, None).corpus_mismatch().is_none());
    }

    #[test]
    fn a_capture_of_another_dataset_opens_with_one_line_naming_both_corpora() {
        let s = with_demo_dataset()
            .apply(Action::EditResponses(
                body("Which page shows the moon?", &[(2, 2)]).to_string() + "\n",
            ))
            .apply(Action::ScoreOffline {
                started_at: "t".into(),
            });
        let banner = s.banner.clone().unwrap();
        assert!(
            banner
                .detail
                .starts_with("this capture's one question is not in the dataset"),
            "{}",
            banner.detail
        );
        assert!(banner.more.unwrap().contains("not in the dataset"));
        assert_eq!(
            s.foreign_capture.as_ref().unwrap()[0],
            "Which page shows the moon?"
        );
        let s = s.apply(Action::CaptureCorpus("octave-manual".into()));
        let detail = s.banner.unwrap().detail;
        let first = detail.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "this capture is for octave-manual; the dataset is {}",
                dataset().corpus_id
            )
        );
    }

    #[test]
    fn the_dataset_cannot_change_under_a_running_run() {
        let s = start(with_demo_dataset(), 1, false);
        let s = s.apply(Action::EditDataset("{}".into()));
        assert!(s.dataset.is_some());
    }
}
