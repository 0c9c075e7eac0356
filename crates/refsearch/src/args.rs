//! The command line of the `refsearch` binary, and how its OCR flags read a PDF.

use std::path::PathBuf;

use crate::{extract, Chunking};

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
    pub(crate) fn read_options(&self) -> extract::Options {
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
