//! The text of every physical page of a PDF, from poppler's `pdftotext`.
//!
//! The one way natively to get a PDF's page text, shared by the `figeval` command line
//! (`figeval ground`, `figeval captions`) and the `refsearch` reference deployment, which must
//! not depend on figeval. Page `n` is index `n - 1`: poppler ends every page, blank ones
//! included, with a form feed, and the count must equal `pdfinfo`'s `Pages:`, or the pages
//! would be numbered wrong.
//!
//! Why `pdftotext` and not a pure-Rust crate: measured on the GNU Octave manual (1158 pages,
//! 29 figure captions), see the figeval README's "Check a dataset against its PDF".
//!
//! [`read_pages`] adds OCR for scanned pages: a page whose text layer is nearly empty
//! ([`NEARLY_EMPTY_CHARS`]) and that carries an image is rendered by `pdftoppm` and read by
//! `tesseract`, one process per core, each page within a time limit, the readings cached by
//! the PDF's content hash (see the figeval contract, "Scanned pages").

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cache;
mod child;
mod ocr;

use std::collections::BTreeSet;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Why the text of a PDF could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// The PDF file does not exist.
    #[error("PDF not found: {0}")]
    PdfMissing(PathBuf),
    /// The PDF file exists but cannot be opened.
    #[error("cannot read {pdf}: {source}")]
    Unreadable {
        /// The PDF.
        pdf: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The PDF needs a password to be opened.
    #[error(
        "{0} is encrypted and needs a password to open; decrypt it first (for example `qpdf --password=... --decrypt in.pdf out.pdf`)"
    )]
    Encrypted(PathBuf),
    /// The file is not a PDF poppler can read.
    #[error("{pdf} is not a readable PDF: {detail}")]
    NotPdf {
        /// The file.
        pdf: PathBuf,
        /// The start of what poppler said.
        detail: String,
    },
    /// A tool is not installed.
    #[error("`{tool}` was not found on PATH: install {package} (apt-get install {package})")]
    ToolMissing {
        /// `pdftotext`, `pdfinfo`, `pdfimages`, `pdftoppm` or `tesseract`.
        tool: &'static str,
        /// The Debian package that has it.
        package: &'static str,
    },
    /// A poppler tool could not be started for another reason.
    #[error("could not run `{tool}`: {source}")]
    Spawn {
        /// `pdftotext` or `pdfinfo`.
        tool: &'static str,
        /// The operating system's error.
        source: io::Error,
    },
    /// A poppler tool exited with a failure status.
    #[error("`{tool}` failed on {pdf} ({status}): {stderr}")]
    ToolFailed {
        /// `pdftotext` or `pdfinfo`.
        tool: &'static str,
        /// The PDF it was run on.
        pdf: PathBuf,
        /// Its exit status.
        status: String,
        /// The start of what it wrote on stderr.
        stderr: String,
    },
    /// A poppler tool ran past its time limit ([`tool_limit`]) and was killed: a broken or
    /// hostile PDF, not a slow one.
    #[error("`{tool}` took longer than {seconds} s on {pdf} and was stopped: the PDF is damaged or built to stall a reader")]
    TimedOut {
        /// `pdftotext`, `pdfinfo` or `pdfimages`.
        tool: &'static str,
        /// The PDF it was run on.
        pdf: PathBuf,
        /// Its time limit, in seconds.
        seconds: u64,
    },
    /// `pdfinfo` printed no usable `Pages:` line.
    #[error("`pdfinfo` printed no `Pages:` line for {0}")]
    NoPageCount(PathBuf),
    /// The PDF has no pages.
    #[error("{0} has no pages")]
    NoPages(PathBuf),
    /// `pdftotext` did not produce one form feed per page, so pages cannot be numbered: the
    /// PDF's page count (its page tree's `/Count`) says more pages than it has, or less.
    #[error(
        "{pdf} has a damaged page count: `pdftotext -f {first} -l {last}` found {found} of the {expected} pages pdfinfo counts there; page numbers would be wrong"
    )]
    PageCountMismatch {
        /// The PDF.
        pdf: PathBuf,
        /// First page of the range (1-based).
        first: u32,
        /// Last page of the range (1-based, inclusive).
        last: u32,
        /// Pages in the range, from `pdfinfo`.
        expected: u32,
        /// Form-feed-terminated pages `pdftotext` wrote.
        found: usize,
    },
}

/// The text layer of every physical page of `pdf`, index 0 holding page 1 (no OCR: see
/// [`read_pages`]).
///
/// Runs `pdfinfo` for the page count, then `pdftotext -layout -enc UTF-8` over
/// contiguous page ranges, one process per available core, and splits the output
/// on form feeds (poppler ends every page, blank ones included, with `\f`). The
/// page count of every range must match `pdfinfo`, else numbering would drift.
pub fn extract_pages(pdf: &Path) -> Result<Vec<String>, ExtractError> {
    if !pdf.is_file() {
        return Err(ExtractError::PdfMissing(pdf.to_path_buf()));
    }
    let file = std::fs::File::open(pdf).map_err(|source| ExtractError::Unreadable {
        pdf: pdf.to_path_buf(),
        source,
    })?;
    let size = file
        .metadata()
        .map_err(|source| ExtractError::Unreadable {
            pdf: pdf.to_path_buf(),
            source,
        })?
        .len();
    if size == 0 {
        return Err(ExtractError::NotPdf {
            pdf: pdf.to_path_buf(),
            detail: "the file is empty (0 bytes)".into(),
        });
    }
    let page_count = pdf_page_count(pdf)?;
    if page_count == 0 {
        return Err(ExtractError::NoPages(pdf.to_path_buf()));
    }
    let ranges = page_ranges(page_count, workers());
    let results: Vec<Result<Vec<String>, ExtractError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .iter()
            .map(|&(first, last)| scope.spawn(move || extract_range(pdf, first, last)))
            .collect();
        handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    let mut pages = Vec::with_capacity(page_count as usize);
    for result in results {
        pages.extend(result?);
    }
    Ok(pages)
}

/// The `Pages:` count `pdfinfo` reports for `pdf`.
pub fn pdf_page_count(pdf: &Path) -> Result<u32, ExtractError> {
    let stdout = run_tool(
        "pdfinfo",
        Command::new("pdfinfo").arg(pdf),
        pdf,
        tool_limit(0),
    )?;
    parse_pdfinfo_pages(&stdout).ok_or_else(|| ExtractError::NoPageCount(pdf.to_path_buf()))
}

/// The page count in `pdfinfo` output (`Pages:          1158`).
pub fn parse_pdfinfo_pages(pdfinfo_output: &str) -> Option<u32> {
    pdfinfo_output
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|count| count.trim().parse().ok())
}

/// Splits `pdftotext` output into pages: one per form feed, the trailing empty
/// remainder dropped. Text after the last form feed (none from poppler) is kept
/// as a final page so that a miscount shows up instead of vanishing.
pub fn split_pages(text: &str) -> Vec<String> {
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    if pages.last().is_some_and(|last| last.is_empty()) {
        pages.pop();
    }
    pages
}

/// When OCR reads a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OcrMode {
    /// Pages whose text layer is nearly empty and that carry an image (the default).
    #[default]
    Auto,
    /// Every page that has text or an image, its text layer set aside.
    Always,
    /// No page: a page that needs OCR is [`Unreadable::OcrOff`].
    Never,
}

impl OcrMode {
    /// Every mode, in the order `--ocr` lists them.
    pub const ALL: [OcrMode; 3] = [OcrMode::Auto, OcrMode::Always, OcrMode::Never];

    /// The name `--ocr` takes: `auto`, `always`, `never`.
    pub fn name(self) -> &'static str {
        match self {
            OcrMode::Auto => "auto",
            OcrMode::Always => "always",
            OcrMode::Never => "never",
        }
    }
}

/// A text layer with fewer non-whitespace characters than this is nearly empty, and its page
/// is read through OCR when it carries an image. Why 32: scanned pages have no text layer or
/// only what the scanner stamped on it (a page number, `Page 12 of 359`, a running header such
/// as `Chapter 15: Plotting 332` has 22), while the shortest page of the Octave manual that
/// has any text has 98 (its 24 other pages have none).
pub const NEARLY_EMPTY_CHARS: usize = 32;

/// Whether a page's text layer is nearly empty ([`NEARLY_EMPTY_CHARS`]).
pub fn is_nearly_empty(text: &str) -> bool {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .take(NEARLY_EMPTY_CHARS)
        .count()
        < NEARLY_EMPTY_CHARS
}

/// The longest side, in pixels, a page is rendered at for OCR: a larger page (a poster, a
/// hostile 12000-point page) is rendered at a lower resolution rather than filling memory.
pub const MAX_RENDER_PIXELS: u32 = 6000;

/// How [`read_pages`] reads a PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// When OCR reads a page.
    pub ocr: OcrMode,
    /// How long one page's OCR may take; a page over it is [`Unreadable::TimedOut`].
    pub page_timeout: Duration,
    /// The OCR cache's folder, `None` for no cache ([`default_cache_dir`] by default).
    pub cache_dir: Option<PathBuf>,
    /// The resolution pages are rendered at for OCR, in dots per inch.
    pub dpi: u32,
    /// Tesseract's language (`eng`, `eng+deu`).
    pub language: String,
    /// How many pages are read at once (one process per core by default).
    pub workers: usize,
}

/// The default time limit of one page's OCR.
pub const DEFAULT_PAGE_TIMEOUT: Duration = Duration::from_secs(60);

impl Default for Options {
    fn default() -> Options {
        Options {
            ocr: OcrMode::Auto,
            page_timeout: DEFAULT_PAGE_TIMEOUT,
            cache_dir: default_cache_dir(),
            dpi: 200,
            language: "eng".into(),
            workers: workers(),
        }
    }
}

impl Options {
    /// The defaults with what a command line says: `--ocr`, `--ocr-timeout SECONDS` and
    /// `--no-cache` (no cache folder).
    pub fn from_flags(ocr: OcrMode, timeout_seconds: u64, no_cache: bool) -> Options {
        let defaults = Options::default();
        Options {
            ocr,
            page_timeout: Duration::from_secs(timeout_seconds),
            cache_dir: if no_cache {
                None
            } else {
                defaults.cache_dir.clone()
            },
            ..defaults
        }
    }
}

/// The OCR cache's folder: `$XDG_CACHE_HOME/figeval/ocr`, or `~/.cache/figeval/ocr` when
/// `XDG_CACHE_HOME` is unset or not an absolute path (as the XDG base directory rules say);
/// `None` when neither can be found.
pub fn default_cache_dir() -> Option<PathBuf> {
    cache_dir_from(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

fn cache_dir_from(
    xdg_cache_home: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    let absolute = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute(xdg_cache_home).or_else(|| absolute(home).map(|h| h.join(".cache")))?;
    Some(base.join("figeval").join("ocr"))
}

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

/// Every page of a PDF, as [`read_pages`] read them.
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

fn page_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// Every page of `pdf`, its text layer where it has one and OCR where it is a scan
/// ([`OcrMode`]): the text layer first ([`extract_pages`]), then, among the pages OCR would
/// read, those with an image (`pdfimages -list`; a page with neither text nor image stays a
/// blank text-layer page), each served from the cache or rendered and read by tesseract,
/// `options.workers` pages at once, within `options.page_timeout`. A page OCR cannot read is
/// [`Source::Unreadable`], not an error; a PDF that cannot be opened, or a missing tool, is.
pub fn read_pages(pdf: &Path, options: &Options) -> Result<Document, ExtractError> {
    let layer = extract_pages(pdf)?;
    let mut pages: Vec<Page> = layer
        .into_iter()
        .map(|text| Page {
            text,
            source: Source::Layer,
        })
        .collect();
    let blankish: Vec<u32> = (0..pages.len())
        .filter(|&i| is_nearly_empty(&pages[i].text))
        .map(page_number)
        .collect();
    let with_images = pages_with_images(pdf, &blankish)?;
    let wanted: Vec<u32> = (0..pages.len())
        .map(page_number)
        .filter(|n| match options.ocr {
            OcrMode::Always => with_images.contains(n) || !blankish.contains(n),
            OcrMode::Auto | OcrMode::Never => with_images.contains(n),
        })
        .collect();
    if wanted.is_empty() {
        return Ok(Document {
            pages,
            cache_warning: None,
        });
    }
    if options.ocr == OcrMode::Never {
        for n in wanted {
            let page = &mut pages[n as usize - 1];
            page.text.clear();
            page.source = Source::Unreadable(Unreadable::OcrOff);
        }
        return Ok(Document {
            pages,
            cache_warning: None,
        });
    }
    let cache_warning = ocr_pages(pdf, options, &wanted, &mut pages)?;
    Ok(Document {
        pages,
        cache_warning,
    })
}

/// Reads `wanted` pages through OCR into `pages`; the first cache write error, if any.
fn ocr_pages(
    pdf: &Path,
    options: &Options,
    wanted: &[u32],
    pages: &mut [Page],
) -> Result<Option<String>, ExtractError> {
    let version = tesseract_version()?;
    let sizes = page_sizes(pdf, wanted)?;
    let dpi_of = |n: u32| {
        let longest = sizes.iter().find(|s| s.0 == n).map_or(0.0, |s| s.1);
        render_dpi(options.dpi, longest)
    };
    let cache = match &options.cache_dir {
        Some(dir) => {
            let hash = cache::file_sha256(pdf).map_err(|source| ExtractError::Unreadable {
                pdf: pdf.to_path_buf(),
                source,
            })?;
            let settings = format!(
                "dpi={} max={MAX_RENDER_PIXELS} lang={} {version} speck={}",
                options.dpi,
                options.language,
                ocr::SPECK_CONFIDENCE
            );
            Some(cache::Cache::new(dir, &hash, &settings))
        }
        None => None,
    };
    let mut to_read = Vec::new();
    for &n in wanted {
        match cache.as_ref().and_then(|c| c.get(n)) {
            Some(read) => {
                pages[n as usize - 1] = Page {
                    text: read.text,
                    source: Source::Ocr {
                        confidence: read.confidence,
                        cached: true,
                    },
                }
            }
            None => to_read.push(n),
        }
    }
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(to_read.len()));
    let workers = options.workers.clamp(1, to_read.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(&n) = to_read.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let read =
                        ocr::read_page(pdf, n, dpi_of(n), &options.language, options.page_timeout);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((n, read));
                }
            });
        }
    });
    let mut cache_warning = None;
    for (n, read) in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        let page = &mut pages[n as usize - 1];
        match read {
            Ok(read) => {
                if let Some(cache) = &cache {
                    if let Err(e) = cache.put(n, &read) {
                        cache_warning.get_or_insert_with(|| {
                            format!("the OCR cache could not be written: {e}")
                        });
                    }
                }
                *page = Page {
                    text: read.text,
                    source: Source::Ocr {
                        confidence: read.confidence,
                        cached: false,
                    },
                };
            }
            Err(ocr::OcrError::ToolMissing(tool)) => {
                return Err(ExtractError::ToolMissing {
                    tool,
                    package: package_of(tool),
                })
            }
            Err(ocr::OcrError::TimedOut) => {
                page.text.clear();
                page.source =
                    Source::Unreadable(Unreadable::TimedOut(options.page_timeout.as_secs().max(1)));
            }
            Err(ocr::OcrError::Failed(detail)) => {
                page.text.clear();
                page.source = Source::Unreadable(Unreadable::OcrFailed(detail));
            }
        }
    }
    Ok(cache_warning)
}

/// The resolution a page whose longest side is `longest_pt` points is rendered at: `dpi`, or
/// less when that would make it longer than [`MAX_RENDER_PIXELS`] (at least 1).
fn render_dpi(dpi: u32, longest_pt: f64) -> u32 {
    if longest_pt <= 0.0 {
        return dpi;
    }
    let most = (f64::from(MAX_RENDER_PIXELS) * 72.0 / longest_pt).floor();
    (f64::from(dpi).min(most) as u32).max(1)
}

/// `tesseract --version`'s first line (`tesseract 5.3.0`): part of the cache key.
fn tesseract_version() -> Result<String, ExtractError> {
    let output = Command::new("tesseract")
        .arg("--version")
        .output()
        .map_err(|source| spawn_failure("tesseract", source))?;
    let all = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    Ok(all.lines().next().unwrap_or("tesseract").trim().to_string())
}

/// The pages among `pages` (1-based, ascending) that carry at least one image, from
/// `pdfimages -list` over the runs of consecutive pages.
fn pages_with_images(pdf: &Path, pages: &[u32]) -> Result<BTreeSet<u32>, ExtractError> {
    let mut found = BTreeSet::new();
    for (first, last) in runs(pages) {
        let mut command = Command::new("pdfimages");
        command
            .args(["-list", "-f", &first.to_string(), "-l", &last.to_string()])
            .arg(pdf);
        found.extend(parse_pdfimages_pages(&run_tool(
            "pdfimages",
            &mut command,
            pdf,
            tool_limit(last - first + 1),
        )?));
    }
    Ok(found)
}

/// The page numbers in `pdfimages -list` output (the first column after two header lines).
fn parse_pdfimages_pages(listing: &str) -> BTreeSet<u32> {
    listing
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

/// The longest side in points of each page among `pages`, from `pdfinfo -f -l`.
fn page_sizes(pdf: &Path, pages: &[u32]) -> Result<Vec<(u32, f64)>, ExtractError> {
    let mut sizes = Vec::new();
    for (first, last) in runs(pages) {
        let mut command = Command::new("pdfinfo");
        command
            .args(["-f", &first.to_string(), "-l", &last.to_string()])
            .arg(pdf);
        sizes.extend(parse_page_sizes(&run_tool(
            "pdfinfo",
            &mut command,
            pdf,
            tool_limit(last - first + 1),
        )?));
    }
    Ok(sizes)
}

/// `Page    1 size:  612 x 792 pts (letter)` lines as (page, longest side in points).
fn parse_page_sizes(pdfinfo_output: &str) -> Vec<(u32, f64)> {
    pdfinfo_output
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("Page")?;
            let (number, size) = rest.split_once("size:")?;
            let number: u32 = number.trim().parse().ok()?;
            let mut sides = size.split_whitespace();
            let width: f64 = sides.next()?.parse().ok()?;
            let height: f64 = sides.nth(1)?.parse().ok()?;
            Some((number, width.max(height)))
        })
        .collect()
}

/// Ascending page numbers as runs of consecutive pages (first, last).
fn runs(pages: &[u32]) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &n in pages {
        match runs.last_mut() {
            Some(run) if run.1 + 1 == n => run.1 = n,
            _ => runs.push((n, n)),
        }
    }
    runs
}

fn workers() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8)
}

/// The Debian package a tool comes from.
fn package_of(tool: &str) -> &'static str {
    match tool {
        "tesseract" => "tesseract-ocr tesseract-ocr-eng",
        _ => "poppler-utils",
    }
}

fn spawn_failure(tool: &'static str, source: io::Error) -> ExtractError {
    if source.kind() == io::ErrorKind::NotFound {
        ExtractError::ToolMissing {
            tool,
            package: package_of(tool),
        }
    } else {
        ExtractError::Spawn { tool, source }
    }
}

/// `count` pages cut into at most `parts` contiguous, inclusive, 1-based ranges.
fn page_ranges(count: u32, parts: usize) -> Vec<(u32, u32)> {
    let parts = (parts as u32).clamp(1, count.max(1));
    let base = count / parts;
    let extra = count % parts;
    let mut ranges = Vec::with_capacity(parts as usize);
    let mut first = 1;
    for part in 0..parts {
        let len = base + u32::from(part < extra);
        ranges.push((first, first + len - 1));
        first += len;
    }
    ranges
}

fn extract_range(pdf: &Path, first: u32, last: u32) -> Result<Vec<String>, ExtractError> {
    let mut command = Command::new("pdftotext");
    command
        .args(["-layout", "-enc", "UTF-8", "-f"])
        .arg(first.to_string())
        .arg("-l")
        .arg(last.to_string())
        .arg(pdf)
        .arg("-");
    let text = run_tool("pdftotext", &mut command, pdf, tool_limit(last - first + 1))?;
    let pages = split_pages(&text);
    let expected = last - first + 1;
    if pages.len() != expected as usize || !text.ends_with('\u{c}') {
        return Err(ExtractError::PageCountMismatch {
            pdf: pdf.to_path_buf(),
            first,
            last,
            expected,
            found: pages.len(),
        });
    }
    Ok(pages)
}

/// How long one poppler call over `pages` pages may run before the PDF is taken to stall it:
/// a minute, and 50 ms a page. `pdftotext -layout` reads the Octave manual's 1158 pages in
/// 3.6 s here (3 ms a page), so the limit is far from any real document's time.
pub fn tool_limit(pages: u32) -> Duration {
    Duration::from_secs(60) + Duration::from_millis(50) * pages
}

/// Runs `command` with no input and its output captured, killing it past `limit`: `Ok(None)`
/// then. For the other tools a shell runs on a PDF (qpdf's page labels), under [`tool_limit`].
pub fn output_within(
    command: &mut Command,
    limit: Duration,
) -> io::Result<Option<std::process::Output>> {
    child::output_within(command, limit)
}

fn run_tool(
    tool: &'static str,
    command: &mut Command,
    pdf: &Path,
    limit: Duration,
) -> Result<String, ExtractError> {
    let Some(output) =
        child::output_within(command, limit).map_err(|source| spawn_failure(tool, source))?
    else {
        return Err(ExtractError::TimedOut {
            tool,
            pdf: pdf.to_path_buf(),
            seconds: limit.as_secs(),
        });
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("Incorrect password") {
            return Err(ExtractError::Encrypted(pdf.to_path_buf()));
        }
        if tool == "pdfinfo" && stderr.contains("Invalid page count 0") {
            return Err(ExtractError::NoPages(pdf.to_path_buf()));
        }
        if tool == "pdfinfo" && stderr.contains("Syntax Error") {
            return Err(ExtractError::NotPdf {
                pdf: pdf.to_path_buf(),
                detail: poppler_complaint(&stderr),
            });
        }
        return Err(ExtractError::ToolFailed {
            tool,
            pdf: pdf.to_path_buf(),
            status: output.status.to_string(),
            stderr: stderr.chars().take(500).collect(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// What poppler said about a PDF it could not open, for a message: its first two distinct
/// lines (poppler repeats itself), without the `Command Line Error` that follows from them
/// (`Wrong page range given`), at most 300 characters, and why that usually happens.
fn poppler_complaint(stderr: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in stderr.lines().map(str::trim) {
        if !line.is_empty() && !line.starts_with("Command Line Error") && !lines.contains(&line) {
            lines.push(line);
        }
    }
    let mut said: String = lines[..lines.len().min(2)]
        .join("; ")
        .chars()
        .take(300)
        .collect();
    let damaged = said.contains("trailer dictionary") || said.contains("xref table");
    if damaged && !said.contains("May not be a PDF") {
        said.push_str(" (the file is cut short or damaged)");
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poppler_call_past_its_limit_is_an_error_that_names_the_tool_and_the_pdf() {
        let err = run_tool(
            "pdftotext",
            Command::new("sleep").arg("30"),
            Path::new("/data/slow.pdf"),
            Duration::from_secs(1),
        )
        .expect_err("killed at its limit");
        assert_eq!(
            err.to_string(),
            "`pdftotext` took longer than 1 s on /data/slow.pdf and was stopped: the PDF is \
             damaged or built to stall a reader"
        );
        assert_eq!(tool_limit(1158), Duration::from_millis(60_000 + 57_900));
    }

    #[test]
    fn each_form_feed_ends_one_page_and_blank_pages_are_kept() {
        assert_eq!(split_pages("one\u{c}\u{c}three\u{c}"), ["one", "", "three"]);
    }

    #[test]
    fn text_after_the_last_form_feed_counts_as_a_page() {
        assert_eq!(split_pages("one\u{c}tail").len(), 2);
    }

    #[test]
    fn pdfinfo_page_count_is_read_from_the_pages_line() {
        let out = "Title: x\nPages:           1158\nEncrypted: no\n";
        assert_eq!(parse_pdfinfo_pages(out), Some(1158));
        assert_eq!(parse_pdfinfo_pages("Title: x\n"), None);
    }

    #[test]
    fn page_ranges_cover_every_page_once_in_order() {
        for count in [1, 2, 3, 7, 1158] {
            for parts in [1, 2, 3, 8] {
                let ranges = page_ranges(count, parts);
                assert_eq!(ranges.first().map(|r| r.0), Some(1));
                assert_eq!(ranges.last().map(|r| r.1), Some(count));
                for pair in ranges.windows(2) {
                    assert_eq!(pair[0].1 + 1, pair[1].0);
                }
                assert!(ranges.iter().all(|(a, b)| a <= b));
            }
        }
    }

    #[test]
    fn a_missing_pdf_is_reported_by_path() {
        let err = extract_pages(Path::new("/nonexistent/x.pdf")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.pdf"), "{err}");
    }

    fn fixture(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(name)
    }

    #[test]
    fn a_password_protected_pdf_is_reported_as_encrypted() {
        let err = extract_pages(&fixture("password.pdf")).unwrap_err();
        assert!(matches!(err, ExtractError::Encrypted(_)), "{err:?}");
        assert!(err.to_string().contains("needs a password"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_pdf_is_reported_as_such() {
        let dir = std::env::temp_dir().join(format!("pagetext-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("notes.pdf");
        std::fs::write(&path, "just some text, not a PDF\n").unwrap();
        let err = extract_pages(&path).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(err, ExtractError::NotPdf { .. }), "{err:?}");
        assert!(err.to_string().contains("is not a readable PDF"), "{err}");
    }

    #[test]
    fn poppler_complaints_are_quoted_once_without_what_follows_from_them() {
        let truncated = "Syntax Error: Couldn't find trailer dictionary\nSyntax Error: Couldn't find trailer dictionary\nSyntax Error: Couldn't read xref table\n";
        assert_eq!(
            poppler_complaint(truncated),
            "Syntax Error: Couldn't find trailer dictionary; Syntax Error: Couldn't read xref table (the file is cut short or damaged)"
        );
        let lying = "Syntax Error: Page count (1000000) larger than number of objects (8)\nCommand Line Error: Wrong page range given: the first page (1) can not be after the last page (0).\n";
        assert_eq!(
            poppler_complaint(lying),
            "Syntax Error: Page count (1000000) larger than number of objects (8)"
        );
        let text = "Syntax Warning: May not be a PDF file (continuing anyway)\nSyntax Error: Couldn't find trailer dictionary\n";
        assert!(!poppler_complaint(text).contains("cut short"));
    }

    #[test]
    fn an_empty_file_is_not_a_pdf() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.pdf");
        std::fs::write(&path, "").unwrap();
        let err = extract_pages(&path).unwrap_err();
        assert!(matches!(err, ExtractError::NotPdf { .. }), "{err:?}");
        assert!(err.to_string().contains("the file is empty"), "{err}");
    }

    #[test]
    fn a_folder_is_not_a_pdf() {
        let err = extract_pages(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err();
        assert!(matches!(err, ExtractError::PdfMissing(_)), "{err:?}");
    }
    #[test]
    fn a_layer_is_nearly_empty_below_32_visible_characters() {
        assert!(is_nearly_empty(""));
        assert!(is_nearly_empty("  Chapter 15: Plotting      332\n"));
        assert!(!is_nearly_empty(&"x".repeat(NEARLY_EMPTY_CHARS)));
    }

    #[test]
    fn pdfimages_listing_gives_the_pages_with_images() {
        let out = "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio\n\
            --------------------------------------------------------------------------------------------\n\
               1     0 image     876   951  rgb     3   8  image  no         7  0   452   452 51.3K 2.1%\n\
               3     1 image     876   951  rgb     3   8  image  no         8  0   452   452 51.3K 2.1%\n";
        assert_eq!(parse_pdfimages_pages(out), BTreeSet::from([1, 3]));
    }

    #[test]
    fn page_sizes_are_read_as_their_longest_side() {
        let out = "Page    1 size:  612 x 792 pts (letter)\nPage    2 size:  9000 x 300.5 pts\nFile size: 9 bytes\n";
        assert_eq!(parse_page_sizes(out), [(1, 792.0), (2, 9000.0)]);
    }

    #[test]
    fn a_huge_page_is_rendered_at_a_lower_resolution() {
        assert_eq!(render_dpi(200, 792.0), 200);
        assert_eq!(render_dpi(200, 9000.0), 48);
        assert_eq!(render_dpi(200, 1.0e9), 1);
        assert_eq!(render_dpi(200, 0.0), 200);
    }

    #[test]
    fn consecutive_pages_make_one_run() {
        assert_eq!(runs(&[1, 2, 3, 7, 9, 10]), [(1, 3), (7, 7), (9, 10)]);
        assert!(runs(&[]).is_empty());
    }

    #[test]
    fn the_cache_folder_follows_xdg_cache_home_then_home() {
        let dir = |xdg: Option<&str>, home: Option<&str>| {
            cache_dir_from(xdg.map(Into::into), home.map(Into::into))
        };
        let xdg = Some(PathBuf::from("/x/figeval/ocr"));
        assert_eq!(dir(Some("/x"), Some("/h")), xdg);
        let home = Some(PathBuf::from("/h/.cache/figeval/ocr"));
        assert_eq!(dir(Some("relative"), Some("/h")), home);
        assert_eq!(dir(None, Some("/h")), home);
        assert_eq!(dir(None, None), None);
    }

    /// A one-page scan of the Octave manual's page 332 (Figure 15.1), made with pdftoppm and
    /// img2pdf in `dir`.
    fn scanned_page(dir: &Path) -> PathBuf {
        let manual = testkit::manual::require();
        let image = dir.join("p332");
        let status = Command::new("pdftoppm")
            .args([
                "-r",
                "150",
                "-f",
                "332",
                "-l",
                "332",
                "-gray",
                "-jpeg",
                "-singlefile",
            ])
            .arg(manual)
            .arg(&image)
            .status()
            .unwrap();
        assert!(status.success());
        let pdf = dir.join("scan.pdf");
        let status = Command::new("img2pdf")
            .arg(image.with_extension("jpg"))
            .arg("-o")
            .arg(&pdf)
            .status()
            .unwrap();
        assert!(status.success());
        pdf
    }

    fn options(ocr: OcrMode, cache_dir: Option<PathBuf>) -> Options {
        Options {
            ocr,
            cache_dir,
            ..Options::default()
        }
    }

    #[test]
    fn a_scanned_page_is_read_by_ocr_and_then_served_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let pdf = scanned_page(dir.path());
        let cache = dir.path().join("cache");
        let first = read_pages(&pdf, &options(OcrMode::Auto, Some(cache.clone()))).unwrap();
        assert_eq!((first.ocr_pages(), first.ocr_runs()), (1, 1));
        assert!(
            first.pages[0]
                .text
                .contains("Figure 15.1: Simple Two-Dimensional Plot."),
            "{}",
            first.pages[0].text
        );
        let Source::Ocr { confidence, .. } = first.pages[0].source else {
            panic!("{:?}", first.pages[0].source)
        };
        assert!(confidence > 50.0, "{confidence}");
        let second = read_pages(&pdf, &options(OcrMode::Auto, Some(cache.clone()))).unwrap();
        assert_eq!((second.ocr_pages(), second.ocr_runs()), (1, 0));
        assert_eq!(second.pages[0].text, first.pages[0].text);
        // A damaged entry is read again, never trusted.
        let entry = std::fs::read_dir(cache.read_dir().unwrap().next().unwrap().unwrap().path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let damaged = std::fs::read_to_string(&entry)
            .unwrap()
            .replace("15.1", "99.9");
        std::fs::write(&entry, damaged).unwrap();
        let third = read_pages(&pdf, &options(OcrMode::Auto, Some(cache))).unwrap();
        assert_eq!(third.ocr_runs(), 1);
        assert!(third.pages[0].text.contains("Figure 15.1"));
    }

    #[test]
    fn with_ocr_never_a_scanned_page_is_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let pdf = scanned_page(dir.path());
        let doc = read_pages(&pdf, &options(OcrMode::Never, None)).unwrap();
        assert_eq!(doc.unreadable(), [(1, &Unreadable::OcrOff)]);
        assert_eq!(doc.pages[0].text, "");
    }

    #[test]
    fn a_page_over_its_time_limit_is_unreadable_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let pdf = scanned_page(dir.path());
        let started = std::time::Instant::now();
        let options = Options {
            page_timeout: Duration::from_millis(50),
            ..options(OcrMode::Auto, None)
        };
        let doc = read_pages(&pdf, &options).unwrap();
        assert!(
            matches!(doc.unreadable()[..], [(1, Unreadable::TimedOut(_))]),
            "{:?}",
            doc.pages[0].source
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
