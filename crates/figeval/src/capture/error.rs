//! What can be wrong with a capture (contract §6.3), each problem with where it is.

use std::fmt;

use crate::describe;
use crate::response::ResponseProblem;

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
    /// Text that is not JSON. It is one problem: the item it answers, when its question can
    /// be read, does not count again as an item with no response.
    NotJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The question the line answers, when it can be read from the broken line.
        question: Option<String>,
        /// What is wrong, in words ([`crate::describe::json_problem`]).
        problem: String,
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
    MissingResponses {
        /// Their questions, in dataset order.
        questions: Vec<String>,
        /// Lines listed above that cannot be tied to an item (their question cannot be read, or
        /// is no item's): some of the items may be theirs, so allowing missing responses is not
        /// offered as the fix.
        unread_lines: usize,
    },
    /// The capture holds no response at all.
    Empty,
    /// An entry read through a connector that is not an envelope `{"question", "response"}`.
    #[cfg(feature = "connectors")]
    NotAnEnvelope {
        /// Where it is.
        at: Source,
        /// The connector's name.
        connector: String,
    },
    /// The capture records another connector than the one it is read with.
    OtherConnector {
        /// Where the first such entry is.
        at: Source,
        /// The connector it records (a name, or a mapping as JSON).
        recorded: String,
        /// The connector it is read with.
        reading: String,
    },
    /// No hit of the first answer with hits (in dataset order) cites a page through the
    /// connector.
    #[cfg(feature = "connectors")]
    NoPage {
        /// Where the answer is.
        at: Source,
        /// Why, naming the pointer and the first hit's keys.
        reason: String,
    },
    /// More line-level errors than are listed.
    More(usize),
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureError::NotJson {
                line,
                column,
                question,
                problem,
            } => {
                write!(f, "line {line}")?;
                if let Some(q) = question {
                    write!(f, " (question {:?})", describe::question(q))?;
                }
                write!(
                    f,
                    ", column {column}: not valid JSON: {problem}; mend the line or delete it"
                )
            }
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
                "{} for questions that are not in the dataset:{}",
                describe::counted(qs.len(), "response", "responses"),
                describe::question_list(qs, LISTED_QUESTIONS)
            ),
            CaptureError::DuplicateResponses(qs) => write!(
                f,
                "{} with more than one response:{}",
                describe::counted(qs.len(), "question", "questions"),
                describe::question_list(qs, LISTED_QUESTIONS)
            ),
            CaptureError::MissingResponses {
                questions,
                unread_lines: 0,
            } => write!(
                f,
                "{} with no response (allow missing responses to score the rest and list \
                 these as unscored):{}",
                describe::counted(questions.len(), "item", "items"),
                describe::question_list(questions, LISTED_QUESTIONS)
            ),
            CaptureError::MissingResponses {
                questions,
                unread_lines,
            } => write!(
                f,
                "{} with no response; the {} above that cannot be read may answer some of them \
                 (mend {} first):{}",
                describe::counted(questions.len(), "item", "items"),
                describe::counted(*unread_lines, "line", "lines"),
                if *unread_lines == 1 { "it" } else { "them" },
                describe::question_list(questions, LISTED_QUESTIONS)
            ),
            CaptureError::Empty => f.write_str("the capture holds no response"),
            #[cfg(feature = "connectors")]
            CaptureError::NotAnEnvelope { at, connector } => write!(
                f,
                "{at}: answers read through the connector {connector:?} must be envelopes \
                 {{\"question\", \"response\"}} (as figeval run --capture writes them)"
            ),
            CaptureError::OtherConnector {
                at,
                recorded,
                reading,
            } => write!(
                f,
                "{at}: the answers were recorded with the connector {recorded} but are read \
                 with {reading:?}; read them with --connector {recorded}"
            ),
            #[cfg(feature = "connectors")]
            CaptureError::NoPage { at, reason } => write!(f, "{at}: {reason}"),
            CaptureError::More(n) => write!(
                f,
                "… and {n} more {} like those above",
                if *n == 1 { "error" } else { "errors" }
            ),
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
