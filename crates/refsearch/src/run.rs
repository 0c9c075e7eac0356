//! Start-up: read every PDF (through OCR where a page is a scan), build and merge their
//! corpora, print the start-up lines, bind, and serve until a signal.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::net::TcpListener;

use crate::{
    extract, figures, serve, shutdown_signal, AppState, Args, Corpus, CorpusOptions, Error, Toggle,
};

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
fn file_name(pdf: &Path) -> String {
    pdf.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Reads one PDF's pages (printing what OCR did, as the startup lines say) and builds its
/// corpus.
async fn read_corpus(pdf: &Path, args: &Args, options: &CorpusOptions) -> Result<Corpus, Error> {
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
fn notes_unused_line(notes: usize, path: &Path) -> String {
    format!(
        "refsearch: figures off: {notes} figure notes in {} fit the PDF's captions; no figure chunk built",
        path.display()
    )
}
