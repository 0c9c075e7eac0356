//! `refsearch`: a small, real reference search deployment for figeval.
//!
//! It indexes one PDF and answers `POST /api/search` with BM25-ranked chunks
//! that cite physical pages, speaking contract §2–§3 and §9 (`docs/contract.md`), so that
//! figeval can be run end to end without the production deployment.
//!
//! Pipeline, each step a module:
//!
//! 1. [`extract`] (the shared `pagetext` crate) — text per physical 1-based page. We run poppler's
//!    `pdftotext -layout -enc UTF-8` as a subprocess and split its output on
//!    form feeds: poppler ends every page, blank ones included, with `\f`, so
//!    the n-th piece is page n. The count must equal `pdfinfo`'s `Pages:` or
//!    startup fails (a drift would silently shift every cited page). Why
//!    pdftotext rather than a Rust PDF crate: it is the reference extractor
//!    for text PDFs, handles the fonts and encodings of real manuals, and
//!    `-layout` keeps caption lines intact. To start in seconds on a
//!    1000-page manual, contiguous page ranges are extracted by one process
//!    per core and concatenated; each range is checked on its own.
//! 2. [`chunk`] — text chunks: one per page, or one per numbered section
//!    (`--chunking section`, chunks that run across pages).
//! 3. [`figures`] — one figure chunk per caption line `Figure N.M: ...`,
//!    described by a figure-notes file where it has the figure.
//! 4. [`index`] — an in-RAM tantivy index; BM25 over chunk content.
//! 5. [`http`] — the axum router: search, health, JSON errors, local-only CORS.
//!
//! The binary (`src/main.rs`) only parses [`Args`] and calls [`run`].

pub mod chunk;
pub use pagetext as extract;
pub mod figures;
pub mod http;
pub mod index;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpListener;

pub use chunk::{Chunk, ChunkKind, Chunking, FigureInfo};
pub use figures::{Caption, FigureNote, NotesError};
pub use http::{router, AppState};
pub use index::SearchIndex;

/// Everything that can stop `refsearch` from starting.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The PDF's text could not be read.
    #[error(transparent)]
    Extract(#[from] extract::ExtractError),
    /// The figure notes are unreadable or do not fit the PDF.
    #[error(transparent)]
    Notes(#[from] NotesError),
    /// The index could not be built.
    #[error("cannot build the search index: {0}")]
    Index(#[from] tantivy::TantivyError),
    /// The PDF has no text to index.
    #[error("the PDF has no extractable text on any of its {0} pages")]
    NoText(usize),
    /// Options that do not go together.
    #[error("{0}")]
    Usage(String),
    /// The listen address could not be bound or served.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: String,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// How to build a [`Corpus`] from page text.
#[derive(Debug, Clone)]
pub struct CorpusOptions {
    /// The id searches must name as `repo_id`.
    pub corpus_id: String,
    /// Page or section text chunks.
    pub chunking: Chunking,
    /// Whether to add figure chunks.
    pub figures: bool,
    /// Descriptions of figures; with `figures` off they are checked and not used.
    pub notes: Vec<FigureNote>,
}

/// An indexed PDF: its chunks, in order, and their index.
#[derive(Debug)]
pub struct Corpus {
    /// The id searches must name.
    pub corpus_id: String,
    /// How text was chunked.
    pub chunking: Chunking,
    /// Whether figure chunks were built.
    pub figures_enabled: bool,
    /// Physical pages in the PDF, blank ones included.
    pub page_count: usize,
    /// Text and figure chunks in document order (page, then text before figures);
    /// equal scores rank in this order.
    pub chunks: Vec<Chunk>,
    /// How many of `chunks` are figure chunks.
    pub figure_count: usize,
    /// BM25 index over `chunks`.
    pub index: SearchIndex,
}

impl Corpus {
    /// Chunks and indexes `pages` (index 0 = page 1).
    ///
    /// Figure notes are checked against the PDF's captions even with figures off (and then
    /// build nothing), so a before/after pair of runs differs only in `--figures`.
    pub fn build(pages: &[String], options: &CorpusOptions) -> Result<Corpus, Error> {
        let mut chunks = match options.chunking {
            Chunking::Page => chunk::page_chunks(pages),
            Chunking::Section => chunk::section_chunks(pages),
        };
        if chunks.is_empty() {
            return Err(Error::NoText(pages.len()));
        }
        let mut figure_count = 0;
        // Notes are checked against the captions whether or not figures are on, so that
        // flipping `--figures` is the only change between a before and an after run.
        if options.figures || !options.notes.is_empty() {
            let captions = figures::parse_captions(pages);
            let figure_chunks = figures::figure_chunks(&captions, &options.notes)?;
            if options.figures {
                figure_count = figure_chunks.len();
                chunks.extend(figure_chunks);
                // Stable: text chunks keep their order, a figure follows the text
                // chunks that start on or before its page.
                chunks.sort_by_key(|c| (c.page_start, matches!(c.kind, ChunkKind::Figure(_))));
            }
        }
        let index = SearchIndex::build(&chunks)?;
        Ok(Corpus {
            corpus_id: options.corpus_id.clone(),
            chunking: options.chunking,
            figures_enabled: options.figures,
            page_count: pages.len(),
            chunks,
            figure_count,
            index,
        })
    }
}

/// `--figures on|off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Toggle {
    /// Enabled.
    On,
    /// Disabled.
    Off,
}

/// The command line of the `refsearch` binary.
#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "refsearch",
    version,
    about = "Reference search deployment: BM25 over one PDF, page-cited, figure-aware"
)]
pub struct Args {
    /// The PDF to index.
    #[arg(long)]
    pub pdf: PathBuf,
    /// The corpus id searches must send as `repo_id`.
    #[arg(long, value_parser = non_empty)]
    pub corpus_id: String,
    /// Address to listen on (`127.0.0.1:0` picks a free port).
    #[arg(long, default_value = "127.0.0.1:58012")]
    pub listen: String,
    /// Add one figure chunk per `Figure N.M:` caption.
    #[arg(long, value_enum, default_value_t = Toggle::On)]
    pub figures: Toggle,
    /// JSON array of `{figure_ref, page, kind, summary}` describing figures.
    #[arg(long)]
    pub figure_notes: Option<PathBuf>,
    /// One text chunk per page, or per numbered section (chunks span pages).
    #[arg(long, value_enum, default_value_t = Chunking::Page)]
    pub chunking: Chunking,
    /// Fixed delay added to every search, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// When to read a page through OCR (tesseract): `auto`, a page whose text layer is nearly
    /// empty and that carries an image; `always`; `never`.
    #[arg(long, value_enum, default_value_t = Ocr::Auto)]
    pub ocr: Ocr,
    /// How long one page's OCR may take, in seconds; a page over it is indexed empty.
    #[arg(long, value_name = "SECONDS", default_value_t = extract::DEFAULT_PAGE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub ocr_timeout: u64,
    /// Read every page again instead of using the OCR cache ($XDG_CACHE_HOME/figeval/ocr).
    #[arg(long)]
    pub no_cache: bool,
}

/// `--ocr`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Ocr {
    /// Pages with a nearly empty text layer and an image.
    Auto,
    /// Every page with text or an image.
    Always,
    /// No page.
    Never,
}

impl Args {
    /// How the PDF's pages are read.
    fn read_options(&self) -> extract::Options {
        let ocr = match self.ocr {
            Ocr::Auto => extract::OcrMode::Auto,
            Ocr::Always => extract::OcrMode::Always,
            Ocr::Never => extract::OcrMode::Never,
        };
        extract::Options::from_flags(ocr, self.ocr_timeout, self.no_cache)
    }
}

fn non_empty(value: &str) -> Result<String, String> {
    if value.trim().is_empty() {
        Err("must not be empty".into())
    } else {
        Ok(value.to_owned())
    }
}

/// Builds the corpus, binds, prints the startup lines on stderr and serves
/// until ctrl-c or SIGTERM:
///
/// ```text
/// refsearch: <k> of <pages> pages read by OCR (<c> from the cache), <u> unreadable   (only when k or u > 0)
/// refsearch: indexed <pages> pages, <chunks> chunks (<figures> figures, chunking <page|section>) from <pdf> in <secs>s
/// refsearch: figures off: <n> figure notes in <notes> fit the PDF's captions; no figure chunk built
/// refsearch: listening on http://<bound addr>/api
/// ```
///
/// `<chunks>` counts figure chunks too. The middle line is printed only with
/// `--figures off --figure-notes`.
pub async fn run(args: Args) -> Result<(), Error> {
    let started = Instant::now();
    let notes = match &args.figure_notes {
        Some(path) => figures::load_notes(path)?,
        None => Vec::new(),
    };
    let pdf = args.pdf.clone();
    let read = args.read_options();
    let doc = tokio::task::spawn_blocking(move || extract::read_pages(&pdf, &read))
        .await
        .map_err(|err| Error::Usage(format!("text extraction stopped: {err}")))??;
    let unreadable = doc.unreadable();
    if doc.ocr_pages() > 0 || !unreadable.is_empty() {
        eprintln!(
            "refsearch: {} of {} pages read by OCR ({} from the cache), {} unreadable{}",
            doc.ocr_pages(),
            doc.pages.len(),
            doc.ocr_pages() - doc.ocr_runs(),
            unreadable.len(),
            unreadable
                .first()
                .map(|(page, why)| format!(" (page {page}: {why})"))
                .unwrap_or_default()
        );
    }
    if let Some(warning) = &doc.cache_warning {
        eprintln!("refsearch: {warning}");
    }
    let pages: Vec<String> = doc.pages.into_iter().map(|p| p.text).collect();
    let options = CorpusOptions {
        corpus_id: args.corpus_id.clone(),
        chunking: args.chunking,
        figures: args.figures == Toggle::On,
        notes,
    };
    let corpus = Corpus::build(&pages, &options)?;
    eprintln!(
        "refsearch: indexed {} pages, {} chunks ({} figures, chunking {}) from {} in {:.2}s",
        corpus.page_count,
        corpus.chunks.len(),
        corpus.figure_count,
        corpus.chunking.as_str(),
        args.pdf.display(),
        started.elapsed().as_secs_f64()
    );
    if let (Toggle::Off, Some(path)) = (args.figures, &args.figure_notes) {
        eprintln!("{}", notes_unused_line(options.notes.len(), path));
    }
    let listener = TcpListener::bind(&args.listen)
        .await
        .map_err(|source| Error::Listen {
            addr: args.listen.clone(),
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| Error::Listen {
        addr: args.listen.clone(),
        source,
    })?;
    eprintln!("refsearch: listening on http://{addr}/api");
    let state = Arc::new(AppState {
        corpus,
        latency: Duration::from_millis(args.latency_ms),
    });
    serve(listener, state, shutdown_signal())
        .await
        .map_err(|source| Error::Listen {
            addr: addr.to_string(),
            source,
        })
}

/// The startup line that says figure notes were checked but, with figures off, not used.
fn notes_unused_line(notes: usize, path: &std::path::Path) -> String {
    format!(
        "refsearch: figures off: {notes} figure notes in {} fit the PDF's captions; no figure chunk built",
        path.display()
    )
}

/// Serves the [`router`] on `listener` until `shutdown` completes, then lets
/// in-flight requests finish.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Completes on ctrl-c (SIGINT) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages() -> Vec<String> {
        [
            "intro text\n",
            "",
            "a plot\n   Figure 1.1: A plot of x.\n",
            "end\n",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect()
    }

    fn options(figures: bool, notes: Vec<FigureNote>) -> CorpusOptions {
        CorpusOptions {
            corpus_id: "c".into(),
            chunking: Chunking::Page,
            figures,
            notes,
        }
    }

    #[test]
    fn a_figure_chunk_follows_the_text_chunk_of_its_page() {
        let corpus = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let ids: Vec<&str> = corpus.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["p0001", "p0003", "fig-1.1", "p0004"]);
        assert_eq!((corpus.page_count, corpus.figure_count), (4, 1));
    }

    #[test]
    fn figures_off_builds_no_figure_chunk() {
        let corpus = Corpus::build(&pages(), &options(false, vec![])).unwrap();
        assert_eq!(corpus.figure_count, 0);
        assert!(corpus.chunks.iter().all(|c| c.kind_name() == "text"));
    }

    fn note(page: u32) -> FigureNote {
        FigureNote {
            figure_ref: "Figure 1.1".into(),
            page,
            kind: "chart".into(),
            summary: "s".into(),
        }
    }

    #[test]
    fn figure_notes_with_figures_off_are_checked_and_build_no_figure_chunk() {
        let corpus = Corpus::build(&pages(), &options(false, vec![note(3)])).unwrap();
        assert_eq!(corpus.figure_count, 0);
        assert!(corpus.chunks.iter().all(|c| c.kind_name() == "text"));
        assert!(!corpus.figures_enabled);
    }

    #[test]
    fn a_wrong_figure_note_fails_with_figures_off_as_with_figures_on() {
        for figures in [false, true] {
            let err = Corpus::build(&pages(), &options(figures, vec![note(4)])).unwrap_err();
            let Error::Notes(NotesError::Mismatch(problems)) = &err else {
                panic!("figures {figures}: {err}");
            };
            assert_eq!(
                problems,
                &["note 1 (Figure 1.1, page 4): the caption of Figure 1.1 is on page 3, not 4"]
            );
        }
    }

    #[test]
    fn a_pdf_without_text_is_refused() {
        let blank = vec![String::new(), " \n".to_string()];
        assert!(matches!(
            Corpus::build(&blank, &options(true, vec![])),
            Err(Error::NoText(2))
        ));
    }
}
