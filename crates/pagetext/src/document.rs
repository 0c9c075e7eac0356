//! A PDF's pages as [`read_pages`](crate::read_pages) read them: each page's text and where it
//! came from (the text layer, OCR, or nothing, and why).

use std::fmt;

/// Where a page's text came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// The PDF's text layer (`pdftotext`), also for a page with neither text nor image.
    Layer,
    /// Tesseract.
    Ocr {
        /// Tesseract's mean word confidence, 0 to 100.
        confidence: f32,
        /// Whether the reading came from the cache.
        cached: bool,
    },
    /// The page's text could not be read; its text is empty.
    Unreadable(Unreadable),
}

/// Why a page's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// The page has an image and a nearly empty text layer, and OCR is off (`--ocr never`).
    OcrOff,
    /// OCR took longer than the page's time limit, in seconds.
    TimedOut(u64),
    /// `pdftoppm` or `tesseract` failed on the page.
    OcrFailed(String),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::OcrOff => f.write_str("no text layer, and OCR is off"),
            Unreadable::TimedOut(seconds) => {
                write!(f, "OCR took longer than the page time limit of {seconds} s")
            }
            Unreadable::OcrFailed(detail) => write!(f, "OCR failed: {detail}"),
        }
    }
}

/// One page's text and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The text (empty when unreadable).
    pub text: String,
    /// Where it came from.
    pub source: Source,
}

/// Every page of a PDF, as [`read_pages`](crate::read_pages) read them.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Index 0 holds page 1.
    pub pages: Vec<Page>,
    /// A cache entry that could not be written (the first such error), when any: the pages are
    /// read, but the next run reads them again.
    pub cache_warning: Option<String>,
}

impl Document {
    /// How many pages were read by OCR (from the cache or now).
    pub fn ocr_pages(&self) -> usize {
        self.pages
            .iter()
            .filter(|p| matches!(p.source, Source::Ocr { .. }))
            .count()
    }

    /// How many pages were read by tesseract in this run (not served from the cache).
    pub fn ocr_runs(&self) -> usize {
        self.pages
            .iter()
            .filter(|p| matches!(p.source, Source::Ocr { cached: false, .. }))
            .count()
    }

    /// The 1-based numbers of the pages that could not be read, with why.
    pub fn unreadable(&self) -> Vec<(u32, &Unreadable)> {
        self.pages
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match &p.source {
                Source::Unreadable(why) => Some((page_number(i), why)),
                _ => None,
            })
            .collect()
    }

    /// The page texts alone, index 0 holding page 1.
    pub fn texts(&self) -> Vec<&str> {
        self.pages.iter().map(|p| p.text.as_str()).collect()
    }
}

pub(crate) fn page_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}
