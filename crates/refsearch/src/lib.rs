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
    /// The PDF `refsearch` was started with has no text to index.
    #[error("{pdf} has no text on any of its {pages} pages, in its text layer or by OCR: nothing to index")]
    PdfWithoutText {
        /// The PDF.
        pdf: PathBuf,
        /// Its page count.
        pages: usize,
    },
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

impl Error {
    /// The exit status `refsearch` ends with on this error: 2 for bad input (the PDF, the
    /// figure notes, options that do not go together), 1 for the rest (the index, the listen
    /// address).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Extract(_)
            | Error::Notes(_)
            | Error::NoText(_)
            | Error::PdfWithoutText { .. }
            | Error::Usage(_) => 2,
            Error::Index(_) | Error::Listen { .. } => 1,
        }
    }
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
    /// The served PDFs' file names, each with the index of its first chunk, in `--pdf` order:
    /// every match states its chunk's file name as `file_path` (as a Ragweld deployment states
    /// the path of the file a chunk came from). Empty until [`run`] or [`Corpus::merge`] sets it.
    pub files: Vec<(String, usize)>,
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
            files: Vec::new(),
        })
    }

    /// The file name of chunk `chunk` (`""` before [`run`] names the files).
    pub fn file_of(&self, chunk: usize) -> &str {
        self.files
            .iter()
            .rev()
            .find(|(_, first)| *first <= chunk)
            .map_or("", |(name, _)| name.as_str())
    }

    /// One corpus of several PDFs' corpora, each with its file name, in order: their chunks
    /// one after the other, each id prefixed with its file name and `#` (`part2.pdf#p0003`),
    /// and one index over them all. One PDF keeps its chunk ids as they are.
    pub fn merge(parts: Vec<(String, Corpus)>) -> Result<Corpus, Error> {
        let several = parts.len() > 1;
        let mut parts = parts.into_iter();
        let (name, mut corpus) = parts
            .next()
            .ok_or_else(|| Error::Usage("no PDF to index".into()))?;
        if several {
            for c in &mut corpus.chunks {
                c.id = format!("{name}#{}", c.id);
            }
        }
        corpus.files = vec![(name, 0)];
        for (name, part) in parts {
            if corpus.files.iter().any(|(n, _)| *n == name) {
                return Err(Error::Usage(format!(
                    "two PDFs are named {name}: matches name their file by its name, so each \
                     --pdf must have a name of its own"
                )));
            }
            corpus.files.push((name.clone(), corpus.chunks.len()));
            corpus.page_count += part.page_count;
            corpus.figure_count += part.figure_count;
            corpus.chunks.extend(part.chunks.into_iter().map(|mut c| {
                c.id = format!("{name}#{}", c.id);
                c
            }));
        }
        if several {
            corpus.index = SearchIndex::build(&corpus.chunks)?;
        }
        Ok(corpus)
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
    about = "Reference search deployment: BM25 over one PDF or several, page-cited, figure-aware"
)]
pub struct Args {
    /// The PDF to index; repeated for a corpus of several files (each match names its file).
    #[arg(long, required = true)]
    pub pdf: Vec<PathBuf>,
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
    if args.pdf.len() > 1 && args.figure_notes.is_some() {
        return Err(Error::Usage(
            "--figure-notes describes the figures of one PDF: give one --pdf with it".into(),
        ));
    }
    let options = CorpusOptions {
        corpus_id: args.corpus_id.clone(),
        chunking: args.chunking,
        figures: args.figures == Toggle::On,
        notes,
    };
    let mut parts = Vec::with_capacity(args.pdf.len());
    for pdf in &args.pdf {
        parts.push((file_name(pdf), read_corpus(pdf, &args, &options).await?));
    }
    let corpus = Corpus::merge(parts)?;
    let pdfs: Vec<String> = args.pdf.iter().map(|p| p.display().to_string()).collect();
    eprintln!(
        "refsearch: indexed {} pages, {} chunks ({} figures, chunking {}) from {} in {:.2}s",
        corpus.page_count,
        corpus.chunks.len(),
        corpus.figure_count,
        corpus.chunking.as_str(),
        pdfs.join(", "),
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

/// The file name of `pdf`, which its matches state as `file_path`.
fn file_name(pdf: &std::path::Path) -> String {
    pdf.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Reads one PDF's pages (printing what OCR did, as the startup lines say) and builds its
/// corpus.
async fn read_corpus(
    pdf: &std::path::Path,
    args: &Args,
    options: &CorpusOptions,
) -> Result<Corpus, Error> {
    let path = pdf.to_path_buf();
    let read = args.read_options();
    let doc = tokio::task::spawn_blocking(move || extract::read_pages(&path, &read))
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
    Corpus::build(&pages, options).map_err(|err| match err {
        Error::NoText(pages) => Error::PdfWithoutText {
            pdf: pdf.to_path_buf(),
            pages,
        },
        other => other,
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
    fn several_pdfs_merge_into_one_index_whose_chunks_name_their_file() {
        let one = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let other: Vec<String> = ["sparse matrix storage\n", "   Figure 2.1: A bar chart.\n"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let two = Corpus::build(&other, &options(true, vec![])).unwrap();
        let corpus = Corpus::merge(vec![("a.pdf".into(), one), ("b.pdf".into(), two)]).unwrap();
        let ids: Vec<&str> = corpus.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "a.pdf#p0001",
                "a.pdf#p0003",
                "a.pdf#fig-1.1",
                "a.pdf#p0004",
                "b.pdf#p0001",
                "b.pdf#p0002",
                "b.pdf#fig-2.1"
            ]
        );
        assert_eq!((corpus.page_count, corpus.figure_count), (6, 2));
        let files: Vec<&str> = (0..ids.len()).map(|i| corpus.file_of(i)).collect();
        assert_eq!(files, [&["a.pdf"; 4][..], &["b.pdf"; 3][..]].concat());
        // One index over both: a search finds the second file's chunks, which keep their own
        // page numbers.
        let hits = corpus.index.search("sparse matrix", 5).unwrap();
        assert_eq!(hits.iter().map(|h| h.chunk).collect::<Vec<_>>(), [4]);
        assert_eq!(
            (corpus.file_of(4), corpus.chunks[4].page_start),
            ("b.pdf", 1)
        );
    }

    #[test]
    fn one_pdf_keeps_its_chunk_ids_and_two_of_one_name_are_refused() {
        let one = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let corpus = Corpus::merge(vec![("a.pdf".into(), one)]).unwrap();
        assert_eq!(corpus.chunks[0].id, "p0001");
        assert_eq!(corpus.file_of(3), "a.pdf");
        let parts = vec![
            (
                "a.pdf".into(),
                Corpus::build(&pages(), &options(true, vec![])).unwrap(),
            ),
            (
                "a.pdf".into(),
                Corpus::build(&pages(), &options(true, vec![])).unwrap(),
            ),
        ];
        let err = Corpus::merge(parts).unwrap_err().to_string();
        assert!(err.contains("two PDFs are named a.pdf"), "{err}");
        assert!(Corpus::merge(Vec::new()).is_err());
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
