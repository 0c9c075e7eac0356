//! The app's state and its reducer. Everything that changes together — the view, the report on
//! show, the comparison, the banner — is one value changed by [`Action`]s behind the one
//! `use_reducer`, so the reducer is a pure function with ordinary unit tests; the shells
//! (components, the effects that tell the other modules what is on screen, the bridge the
//! workbench hands its reports and banners through) do the I/O and dispatch what happened.
//! [`AppState::apply`] hands the comparison's actions to its list ([`compare`]), and here the
//! view, the report on show and the banner.

mod compare;
#[cfg(test)]
pub(crate) mod tests;

pub use compare::{Compared, OpenReport, Slot};

use std::rc::Rc;

use figeval::share::{Link, ShareError};
use figeval::{Dataset, Report, ReportError};
use yew::Reducible;

use crate::said::Said;

/// The page on show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Dataset, deployment, live run and offline scoring: the workbench module (web/work).
    Workbench,
    /// The report view.
    Report,
    /// Before/after comparison.
    Compare,
}

impl View {
    /// The view a page opens on: a share link's (`#report=`, `#compare=`), else the workbench.
    pub fn at_start(fragment: Option<&str>) -> View {
        match fragment {
            Some(f) if f.starts_with("#report=") => View::Report,
            Some(f) if f.starts_with("#compare=") => View::Compare,
            _ => View::Workbench,
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
    /// The reports compared, in order (the baseline first).
    pub compared: Compared,
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
            compared: Compared::default(),
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

    /// A report for the comparison: the file's text read (or refused with the banner), or the
    /// report on show when `text` is `None`.
    fn compare_input(&mut self, name: &str, text: Option<String>) -> Option<OpenReport> {
        match text {
            Some(text) => self
                .read_report(name, &text)
                .map(|r| OpenReport::new(name, r)),
            None => self.report.clone().map(OpenReport::keyed),
        }
    }

    /// A report text read, or refused with the banner: the reason is the detail; a dataset
    /// given where a report belongs is named as one.
    fn read_report(&mut self, name: &str, text: &str) -> Option<Report> {
        let e = match Report::parse(text) {
            Ok(r) => return Some(r),
            Err(e) => e,
        };
        let title = format!("{name} was refused");
        if Dataset::parse(text).is_ok() {
            self.banner(
                &title,
                "this is a dataset, not a report: load it under Dataset in Run & score, \
                 or open a report (figeval run --out, a downloaded report) here",
            );
        } else {
            self.banner(&title, ReportError::to_string(&e));
        }
        None
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

    fn show_report(&mut self, report: OpenReport, files: Option<WorkFiles>) {
        self.clear_banner();
        self.report = Some(report);
        self.report_files = files;
        self.show(View::Report);
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
                Ok(Link::Compare(reports)) => {
                    self.clear_banner();
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
