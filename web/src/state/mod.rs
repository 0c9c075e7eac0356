//! The app's state and its reducer. Everything that changes together — the view, the report on
//! show, the comparison, the banner — is one value changed by [`Action`]s behind the one
//! `use_reducer`, so the reducer is a pure function with ordinary unit tests; the shells
//! (components, the effects that tell the other modules what is on screen, the bridge the
//! workbench hands its reports and banners through) do the I/O and dispatch what happened.
//! The comparison is the runs module's (web/runs): the app knows only how many reports it
//! holds, for the document check.

#[cfg(test)]
pub(crate) mod tests;

pub use figeval_web_common::open_report::OpenReport;

use std::rc::Rc;

use figeval::share::{Link, ShareError};
use figeval::Report;
use figeval_web_common::api::{self, Answer};
use figeval_web_common::open_report::{read_report, Stored};
use yew::Reducible;

use crate::said::Said;

/// The page on show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Dataset, deployment, live run and offline scoring: the workbench module (web/work).
    Workbench,
    /// The report view.
    Report,
    /// The comparison of reports: the runs module (web/runs).
    Compare,
    /// The runs stored by the team server or kept in this browser: the runs module.
    Runs,
}

impl View {
    /// The view a page opens on: a link's (`#report=`, `#run=`, `#compare=`, `#runs=`), else
    /// the workbench.
    pub fn at_start(fragment: Option<&str>) -> View {
        View::of_link(fragment.unwrap_or_default()).unwrap_or(View::Workbench)
    }

    /// The view a link's fragment opens: a report's (a share link's, or a stored run's), or a
    /// comparison's (which the runs module reads).
    pub fn of_link(fragment: &str) -> Option<View> {
        let starts = |p: &[&str]| p.iter().any(|p| fragment.starts_with(p));
        if starts(&["#report=", "#run="]) {
            Some(View::Report)
        } else if starts(&["#compare=", "#runs="]) {
            Some(View::Compare)
        } else {
            None
        }
    }
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

/// What the workbench keeps of the report on show when it scored it: the app asks for its
/// files by `key` (web/README.md, "The workbench module").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkFiles {
    /// The workbench's key of the report.
    pub key: u32,
    /// It was a live run, whose capture the workbench keeps.
    pub capture: bool,
    /// Why the standard run files cannot be written, once a click found out.
    pub unavailable: Option<Rc<str>>,
}

/// The whole app state.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The page on show.
    pub view: View,
    /// The document tools are on show (the Document view) in place of `view`, which goes on
    /// deciding which dataset the document check reads (`crate::checked`).
    pub document: bool,
    /// The report on show.
    pub report: Option<OpenReport>,
    /// The files of the report on show, when the workbench scored it.
    pub report_files: Option<WorkFiles>,
    /// A failure to show.
    pub banner: Option<Banner>,
    /// The number of the workbench's message on show in the banner, and the last one heard:
    /// a message changed in place is shown only while it is still on show.
    pub work_banner: (Option<u32>, u32),
    /// How many reports the runs module's compare view holds: with one or more, the document
    /// check on that view reads its baseline, which the runs module announces.
    pub compared: u32,
    /// Whether `figeval serve` serves the page (`None`: no, or not known yet), and if so
    /// whether its session may push a run (a short link of a report made here needs it).
    pub may_push: Option<bool>,
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Action {
    /// Show a page.
    Show(View),
    /// Show the document tools (the Document view).
    ShowDocument,
    /// A report file arrived (the workbench's card that opens one hands it over).
    OpenReport {
        /// Its name.
        name: String,
        /// Its text.
        text: String,
    },
    /// The workbench scored a report (boot.js's `figevalWork.report`).
    WorkReport {
        /// Where it came from (`live run`, the responses' name).
        name: String,
        /// Its JSON.
        text: String,
        /// What its matches said.
        said: Option<Said>,
        /// Its files, kept by the workbench.
        files: WorkFiles,
    },
    /// The workbench's message `n` for the banner (`None`: clear it).
    WorkBanner {
        /// Its number: a new one is shown, a known one only while it is on show; `0` is
        /// boot.js's own (the workbench could not be loaded), always shown.
        n: u32,
        /// The message.
        banner: Option<Banner>,
    },
    /// The workbench cannot write the standard run files of the report with this key.
    FilesUnavailable {
        /// The report's key.
        key: u32,
        /// The core's reason.
        reason: String,
    },
    /// The page was opened with (or navigated to) a `#report=` or `#compare=` fragment: what
    /// it holds, or why it cannot be opened (`browser::open_link`).
    OpenShareLink(Result<Link, ShareError>),
    /// A stored run was read from the team server (`#run=ID`, contract §15.5): the server's
    /// answer, or why there is none.
    OpenRun {
        /// The run's id.
        id: String,
        /// The answer (`api::run`).
        answer: Result<Answer, String>,
    },
    /// Rename the report on show (its run's name, `run.name`).
    RenameReport(String),
    /// The runs module's compare view holds this many reports.
    Compared(u32),
    /// What the page's session answered (`api::may_push`).
    Session(Option<bool>),
    /// The runs module pushed the report with this key (its run's id), or could not.
    Pushed {
        /// The report's key.
        key: u64,
        /// The run's id, or why not in words.
        result: Result<String, String>,
    },
    /// Close the banner.
    DismissBanner,
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(View::Workbench)
    }
}

impl AppState {
    /// The state at start, on `view`.
    pub fn new(view: View) -> AppState {
        AppState {
            view,
            document: false,
            report: None,
            report_files: None,
            banner: None,
            work_banner: (None, 0),
            compared: 0,
            may_push: None,
        }
    }

    fn banner(&mut self, title: &str, detail: impl Into<String>) {
        self.work_banner.0 = None;
        self.banner = Some(Banner {
            title: title.to_string(),
            detail: detail.into(),
            more: None,
        });
    }

    fn clear_banner(&mut self) {
        self.banner = None;
        self.work_banner.0 = None;
    }

    /// A report text read, or refused with the banner (`read_report`'s words).
    fn read_report(&mut self, name: &str, text: &str) -> Option<Report> {
        read_report(name, text)
            .map_err(|e| self.banner(&e.title, e.detail))
            .ok()
    }

    /// The banner of a share link that cannot be opened (`link::refused`'s words).
    fn refuse_link(&mut self, e: &ShareError) {
        let (title, detail, more) = figeval_web_common::link::refused(e);
        self.banner(title, detail);
        if let Some(b) = &mut self.banner {
            b.more = more;
        }
    }

    fn show_report(&mut self, report: OpenReport, files: Option<WorkFiles>) {
        self.clear_banner();
        self.report = Some(report);
        self.report_files = files;
        self.show(View::Report);
    }

    /// A stored run's report shown, or why it cannot be, in the banner.
    fn open_run(&mut self, id: &str, answer: Result<Answer, String>) {
        match api::open_run(id, answer) {
            Ok(open) => self.show_report(open, None),
            Err(words) => self.banner("This run cannot be opened", words),
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
            Action::OpenReport { name, text } => {
                if let Some(r) = self.read_report(&name, &text) {
                    self.show_report(OpenReport::new(&name, r), None);
                }
            }
            Action::WorkReport {
                name,
                text,
                said,
                files,
            } => {
                if let Some(r) = self.read_report(&name, &text) {
                    let open = OpenReport {
                        said,
                        ..OpenReport::new(&name, r)
                    };
                    self.show_report(open, Some(files));
                }
            }
            Action::WorkBanner { n: 0, banner } => {
                self.banner = banner;
                self.work_banner.0 = None;
            }
            Action::WorkBanner { n, banner } => {
                let (on_show, heard) = self.work_banner;
                if n > heard {
                    self.banner = banner;
                    self.work_banner = (Some(n), n);
                } else if on_show == Some(n) {
                    self.banner = banner;
                }
            }
            Action::FilesUnavailable { key, reason } => {
                if let Some(f) = self.report_files.as_mut().filter(|f| f.key == key) {
                    f.unavailable = Some(reason.into());
                }
            }
            Action::OpenShareLink(link) => match link {
                Ok(Link::Report(r)) => {
                    self.show_report(OpenReport::new("share link", *r), None);
                }
                // The runs module opens a comparison's link.
                Ok(Link::Compare(_)) => self.show(View::Compare),
                Err(e) => self.refuse_link(&e),
            },
            Action::OpenRun { id, answer } => self.open_run(&id, answer),
            Action::Compared(n) => self.compared = n,
            Action::Session(may_push) => self.may_push = may_push,
            Action::Pushed { key, result } => match result {
                Ok(id) => {
                    if let Some(open) = self.report.as_mut().filter(|o| o.key == key) {
                        open.stored = Some(Rc::new(Stored {
                            id,
                            labels: Vec::new(),
                        }));
                    }
                }
                Err(words) => self.banner("The report could not be pushed", words),
            },
            Action::RenameReport(name) => {
                if let Some(open) = &mut self.report {
                    open.rename(&name);
                }
            }
            Action::DismissBanner => self.clear_banner(),
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
