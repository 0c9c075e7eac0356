//! Reading a capture in every accepted form (contract §6.2) from chunks of any size, with the
//! cut-off last line rule; every response read is handed to a [`Pairing`].

use std::fmt;

use super::envelope::{Entries, Entry};
use super::error::{CaptureError, Source};
use super::Pairing;
use crate::describe;

/// Whether a capture whose first non-blank line is `first_line` must be read as one document
/// (a JSON array, or a body pretty-printed across lines) rather than line by line.
pub(super) fn is_multiline_document(first_line: &str) -> bool {
    let t = first_line.trim_start();
    if t.starts_with('[') {
        return true;
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(first_line) {
        Ok(_) => false,
        Err(e) => e.is_eof(),
    }
}

/// The longest capture line read (the limit a live run puts on a response body, too): a longer
/// one is an error, not a silent truncation, and it bounds what one line holds in memory.
pub(crate) const MAX_LINE_BYTES: usize = 64 << 20;

/// A last line that a crash cut off mid-write: no line break ends it and its JSON stops short
/// (or its text stops inside a character). It is dropped, not an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutOff {
    /// Its 1-based line number.
    pub line: usize,
    /// The byte offset it starts at: the capture's complete lines end there.
    pub offset: u64,
}

impl fmt::Display for CutOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is cut off (no line break ends it and its JSON stops short, as a crash \
             mid-write leaves a capture); it was dropped, and its item counts as unanswered",
            self.line
        )
    }
}

/// How the reader is reading.
enum Mode {
    /// Before the first non-blank line: the form is not known yet.
    Start,
    /// JSON Lines, one response a line.
    Lines,
    /// One document, gathered whole (line breaks before it kept, so errors keep their lines).
    Document(Vec<u8>),
}

/// Reads a capture in any accepted form (see the module documentation) from chunks of any
/// size, and pairs every response it holds. It does no I/O: a shell feeds it.
pub struct CaptureReader<'d, K = ()> {
    pairing: Pairing<'d, K>,
    mode: Mode,
    /// Lines completed so far.
    lines: usize,
    /// Bytes of the complete lines so far (where `partial` starts).
    offset: u64,
    /// The start of a line whose line break has not arrived yet.
    partial: Vec<u8>,
    /// Set after an error that ends reading (a line over [`MAX_LINE_BYTES`]).
    stopped: bool,
}

/// What reading a capture came to: the pairing to finish, and the cut-off last line, if any.
pub struct CaptureRead<'d, K = ()> {
    /// Every response read, paired; [`Pairing::finish`] gives the records or the problems.
    pub pairing: Pairing<'d, K>,
    /// The last line, when a crash cut it off (it was dropped).
    pub cut_off: Option<CutOff>,
}

/// The text of a line, or the 1-based column of its first byte that is not UTF-8.
fn line_text(bytes: &[u8]) -> Result<&str, usize> {
    // simdutf8 checks a line several times faster than `std::str::from_utf8` (whose check was
    // a sixth of a whole `figeval score`); on failure std says where.
    #[cfg(feature = "native-speed")]
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to() + 1)
}

impl<'d, K> CaptureReader<'d, K> {
    /// Starts reading a capture into `pairing`.
    pub fn new(pairing: Pairing<'d, K>) -> CaptureReader<'d, K> {
        CaptureReader {
            pairing,
            mode: Mode::Start,
            lines: 0,
            offset: 0,
            partial: Vec::new(),
            stopped: false,
        }
    }

    /// Reads a whole capture text.
    pub fn read_str(pairing: Pairing<'d, K>, text: &str) -> CaptureRead<'d, K> {
        let mut r = CaptureReader::new(pairing);
        r.feed_str(text);
        r.end()
    }

    /// Feeds the next bytes of the capture (a chunk may end anywhere, even inside a character).
    pub fn feed(&mut self, bytes: &[u8]) {
        self.push(bytes, None);
    }

    /// Feeds the next text of the capture (already known to be UTF-8, so not checked again).
    pub(crate) fn feed_str(&mut self, text: &str) {
        self.push(text.as_bytes(), Some(text));
    }

    /// Feeds one complete line (without its line break), for a shell that holds lines.
    pub fn feed_line(&mut self, line: &str) {
        self.feed_str(line);
        self.feed_str("\n");
    }

    /// Whether more input is of use: `false` once an error has ended reading.
    pub fn wants_more(&self) -> bool {
        !self.stopped
    }

    fn push(&mut self, bytes: &[u8], text: Option<&str>) {
        let mut at = 0;
        while !self.stopped {
            if let Mode::Document(doc) = &mut self.mode {
                doc.extend_from_slice(&bytes[at..]);
                return;
            }
            let Some(end) = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i) else {
                break;
            };
            if self.partial.is_empty() {
                let line = match text {
                    Some(t) => Ok(&t[at..end]),
                    None => line_text(&bytes[at..end]),
                };
                self.complete_line(line, end - at);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(&bytes[at..end]);
                self.complete_line(line_text(&whole), whole.len());
                whole.clear();
                self.partial = whole;
            }
            at = end + 1;
        }
        if self.stopped {
            return;
        }
        let rest = &bytes[at..];
        if self.partial.len() + rest.len() > MAX_LINE_BYTES {
            self.too_long(self.lines + 1);
            return;
        }
        self.partial.extend_from_slice(rest);
    }

    fn too_long(&mut self, line: usize) {
        self.pairing.error(CaptureError::LineTooLong {
            line,
            limit: MAX_LINE_BYTES,
        });
        self.stopped = true;
    }

    fn complete_line(&mut self, line: Result<&str, usize>, len: usize) {
        self.lines += 1;
        self.offset += len as u64 + 1;
        let n = self.lines;
        if len > MAX_LINE_BYTES {
            return self.too_long(n);
        }
        let line = match line {
            Ok(l) => l,
            Err(column) => {
                return self
                    .pairing
                    .error(CaptureError::NotText { line: n, column })
            }
        };
        if line.trim().is_empty() {
            return;
        }
        if matches!(self.mode, Mode::Start) {
            if is_multiline_document(line) {
                let mut doc = "\n".repeat(n - 1).into_bytes();
                doc.extend_from_slice(line.as_bytes());
                doc.push(b'\n');
                self.mode = Mode::Document(doc);
                return;
            }
            self.mode = Mode::Lines;
        }
        match self.pairing.parse(line) {
            Ok(entry) => self.pairing.add_parsed(Source::Line(n), entry),
            Err(e) => self.pairing.broken_line(not_json(n, line, &e)),
        }
    }

    /// Ends the capture: reads its last line (the one no line break ends) and its document.
    pub fn end(mut self) -> CaptureRead<'d, K> {
        let mut cut_off = None;
        let last = std::mem::take(&mut self.partial);
        if !self.stopped && !last.is_empty() {
            let n = self.lines + 1;
            // A last line that stops inside a character was cut off if its JSON stops short.
            let (text, broken_char) = match std::str::from_utf8(&last) {
                Ok(t) => (t, None),
                Err(e) => (
                    std::str::from_utf8(&last[..e.valid_up_to()]).unwrap_or_default(),
                    Some((e.valid_up_to() + 1, e.error_len().is_none())),
                ),
            };
            let starts_document = matches!(self.mode, Mode::Start)
                && broken_char.is_none()
                && text.trim_start().starts_with('[');
            if starts_document {
                let mut doc = "\n".repeat(n - 1);
                doc.push_str(text);
                add_document(&mut self.pairing, &doc);
            } else if broken_char.is_some() || !text.trim().is_empty() {
                let cut = CutOff {
                    line: n,
                    offset: self.offset,
                };
                match (self.pairing.parse(text), broken_char) {
                    (Err(e), Some((_, true))) | (Err(e), None) if e.is_eof() => cut_off = Some(cut),
                    (_, Some((column, _))) => self
                        .pairing
                        .error(CaptureError::NotText { line: n, column }),
                    (Ok(entry), None) => self.pairing.add_parsed(Source::Line(n), entry),
                    (Err(e), None) => self.pairing.broken_line(not_json(n, text, &e)),
                }
            }
        }
        if let Mode::Document(doc) = std::mem::replace(&mut self.mode, Mode::Lines) {
            match String::from_utf8(doc) {
                Ok(text) => add_document(&mut self.pairing, &text),
                Err(e) => {
                    let bytes = e.as_bytes();
                    let at = e.utf8_error().valid_up_to();
                    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                    let line_start = bytes[..at]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    self.pairing.error(CaptureError::NotText {
                        line,
                        column: at - line_start + 1,
                    });
                }
            }
        }
        CaptureRead {
            pairing: self.pairing,
            cut_off,
        }
    }
}

/// Line `line`, whose text `text` is not JSON (`e` says why), as the one problem it is.
fn not_json(line: usize, text: &str, e: &serde_json::Error) -> CaptureError {
    CaptureError::NotJson {
        line,
        column: e.column(),
        question: question_in(text),
        problem: describe::json_problem(e),
    }
}

/// The question a line that is not JSON answers, when it can still be read: the string after
/// its first `"question":` (an envelope's), else after its first `"query":` (a bare body's).
/// A line broken by hand or cut short usually still starts with it.
pub(super) fn question_in(text: &str) -> Option<String> {
    ["\"question\"", "\"query\""].iter().find_map(|key| {
        let after = &text[text.find(key)? + key.len()..];
        let value = after.trim_start().strip_prefix(':')?.trim_start();
        let mut de = serde_json::Deserializer::from_str(value);
        serde::Deserialize::deserialize(&mut de).ok()
    })
}

/// Reads a document: a JSON array of entries, or one or more concatenated JSON values.
fn add_document<K>(pairing: &mut Pairing<'_, K>, text: &str) {
    #[cfg(feature = "connectors")]
    if pairing.reads_through_connector() {
        return pairing.add_mapped_document(text);
    }
    if text.trim_start().starts_with('[') {
        match serde_json::from_str::<Entries>(text) {
            Ok(Entries(entries)) => {
                for (i, e) in entries.into_iter().enumerate() {
                    pairing.add_entry(Source::Element(i + 1), e);
                }
            }
            Err(e) => pairing.syntax_error(&e),
        }
        return;
    }
    let stream = serde_json::Deserializer::from_str(text).into_iter::<Entry>();
    for (i, entry) in stream.enumerate() {
        match entry {
            Ok(e) => pairing.add_entry(Source::Value(i + 1), e),
            Err(e) => {
                pairing.syntax_error(&e);
                return;
            }
        }
    }
}
