//! A report open in the page, with its name, what its matches said and a key of its own; and
//! reading a report file's text, refused in words.

use std::rc::Rc;

use figeval::{Dataset, Report, ReportError};

use crate::said::Said;
use crate::shared::Shared;

/// A report, what it is called (its run's name) and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenReport {
    /// The run's name (`run.name`, else where it came from), as the report view's title,
    /// compare and the matrix show it; renaming the report renames its run.
    pub name: Rc<str>,
    /// Where it came from: its file, `live run`, `share link`…
    pub from: Rc<str>,
    /// The report.
    pub report: Shared<Report>,
    /// What its matches said, when it was scored here from responses (a live run, a capture).
    pub said: Option<Said>,
    /// This entry's own key, never shared with another entry: the compare view's list keys its
    /// rows by it, so a row (and its focus) follows its report when the list is reordered, also
    /// when the same report was added twice.
    pub key: u64,
    /// The run of the team server it was read from (`#run=ID`), when it was.
    pub stored: Option<Rc<Stored>>,
}

/// A run read from the team server (contract §15.5): its id and labels, shown as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The run's id.
    pub id: String,
    /// Its labels, in the server's order.
    pub labels: Vec<(String, String)>,
}

/// The next [`OpenReport::key`].
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl OpenReport {
    /// A report newly open from `from` (its file, `live run`, `share link`), with a key of its
    /// own, called by its run's name, else (a report from before names) by where it came from.
    /// (Not [`Report::shown_name`]'s name from the facts: its host and time formatting would put
    /// the main bundle over budget.)
    pub fn new(from: &str, report: Report) -> OpenReport {
        let name = report.run.name.clone().unwrap_or_else(|| from.to_string());
        OpenReport::named(name, from, report)
    }

    /// A report called `name`, from `from`, with a key of its own.
    pub fn named(name: String, from: &str, report: Report) -> OpenReport {
        OpenReport {
            name: name.into(),
            from: from.into(),
            report: Shared::new(report),
            said: None,
            key: 0,
            stored: None,
        }
        .keyed()
    }

    /// The same report with its run named `name` (trimmed; nothing when it is empty): the name
    /// it is shown by, and the `run.name` its share links and downloads carry.
    pub fn rename(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty() || *self.name == *name {
            return;
        }
        let mut report = (*self.report).clone();
        report.run.name = Some(name.to_string());
        self.report = Shared::new(report);
        self.name = name.into();
    }

    /// The same report as a new entry, with a key of its own.
    pub fn keyed(self) -> OpenReport {
        let key = NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenReport { key, ..self }
    }
}

/// Why a report's text was refused: the banner's title and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// `NAME was refused`.
    pub title: String,
    /// Why, in words: the core's, or that a dataset was given where a report belongs.
    pub detail: String,
}

/// A report's text read (`Report::parse`), or why it was refused: the reason is the detail; a
/// dataset given where a report belongs is named as one.
pub fn read_report(name: &str, text: &str) -> Result<Report, Refused> {
    let e = match Report::parse(text) {
        Ok(r) => return Ok(r),
        Err(e) => e,
    };
    let detail = if Dataset::parse(text).is_ok() {
        "this is a dataset, not a report: load it under Dataset in Run & score, \
         or open a report (figeval run --out, a downloaded report) here"
            .to_string()
    } else {
        ReportError::to_string(&e)
    };
    Err(Refused {
        title: format!("{name} was refused"),
        detail,
    })
}
