//! OCR for scanned pages: when a page is read by OCR ([`OcrMode`], [`NEARLY_EMPTY_CHARS`]),
//! with which settings ([`Options`]), and [`read_pages`], which reads a PDF's text layer and
//! then, one tesseract per core, the pages that are scans, through the cache. One page's
//! reading, from rendering to tesseract's words, is `tesseract.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::cache::{self, default_cache_dir};
use crate::document::page_number;
use crate::extract::extract_pages;
use crate::probe::{page_sizes, pages_with_images};
use crate::tesseract;
use crate::tool::{package_of, spawn_failure, workers};
use crate::{Document, ExtractError, Page, Source, Unreadable};

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
                tesseract::SPECK_CONFIDENCE
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
                    let read = tesseract::read_page(
                        pdf,
                        n,
                        dpi_of(n),
                        &options.language,
                        options.page_timeout,
                    );
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
            Err(tesseract::OcrError::ToolMissing(tool)) => {
                return Err(ExtractError::ToolMissing {
                    tool,
                    package: package_of(tool),
                })
            }
            Err(tesseract::OcrError::TimedOut) => {
                page.text.clear();
                page.source =
                    Source::Unreadable(Unreadable::TimedOut(options.page_timeout.as_secs().max(1)));
            }
            Err(tesseract::OcrError::Failed(detail)) => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_is_nearly_empty_below_32_visible_characters() {
        assert!(is_nearly_empty(""));
        assert!(is_nearly_empty("  Chapter 15: Plotting      332\n"));
        assert!(!is_nearly_empty(&"x".repeat(NEARLY_EMPTY_CHARS)));
    }

    #[test]
    fn a_huge_page_is_rendered_at_a_lower_resolution() {
        assert_eq!(render_dpi(200, 792.0), 200);
        assert_eq!(render_dpi(200, 9000.0), 48);
        assert_eq!(render_dpi(200, 1.0e9), 1);
        assert_eq!(render_dpi(200, 0.0), 200);
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
