//! `figeval ground` (does each expected page carry its figure?) and `figeval captions` (the
//! caption index of a PDF). The page text comes from the shared `pagetext` crate, through OCR
//! where a page is a scan; every verdict comes from the document crate (`figeval-document`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use figeval::describe::counted;
use figeval_document::ground::PageSource;
use figeval_document::{render, Ground};
use pagetext::{Document, OcrMode, Source};

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// How `ground` and `captions` read the PDF's pages (contract §13.4).
#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// When to read a page through OCR (tesseract): `auto`, a page whose text layer is nearly
    /// empty and that carries an image; `always`, every page with text or an image; `never`.
    #[arg(long, value_enum, default_value_t = OcrArg::Auto)]
    ocr: OcrArg,
    /// How long one page's OCR may take, in seconds; a page over it is unreadable.
    #[arg(long, value_name = "SECONDS", default_value_t = pagetext::DEFAULT_PAGE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    ocr_timeout: u64,
    /// Read every page again instead of using the OCR cache ($XDG_CACHE_HOME/figeval/ocr).
    #[arg(long)]
    no_cache: bool,
}

/// `--ocr`'s values.
#[derive(ValueEnum, Debug, Clone, Copy)]
enum OcrArg {
    Auto,
    Always,
    Never,
}

impl ReadArgs {
    fn options(&self) -> pagetext::Options {
        let ocr = match self.ocr {
            OcrArg::Auto => OcrMode::Auto,
            OcrArg::Always => OcrMode::Always,
            OcrArg::Never => OcrMode::Never,
        };
        pagetext::Options::from_flags(ocr, self.ocr_timeout, self.no_cache)
    }
}

/// Every page of `pdf` as `read` says, or a bad-input failure that says what is wrong with it.
/// Why each unreadable page could not be read, and a cache that could not be written, go to
/// stderr.
fn pages(pdf: &Path, read: &ReadArgs) -> Result<Document, Failure> {
    let doc =
        pagetext::read_pages(pdf, &read.options()).map_err(|e| Failure::Input(e.to_string()))?;
    let mut err = std::io::stderr().lock();
    const LISTED: usize = 10;
    let unreadable = doc.unreadable();
    for (page, why) in unreadable.iter().take(LISTED) {
        let _ = writeln!(
            err,
            "figeval: {}: page {page} unreadable: {why}",
            pdf.display()
        );
    }
    if unreadable.len() > LISTED {
        let _ = writeln!(
            err,
            "figeval: {}: {} more",
            pdf.display(),
            counted(
                unreadable.len() - LISTED,
                "unreadable page",
                "unreadable pages"
            )
        );
    }
    if let Some(warning) = &doc.cache_warning {
        let _ = writeln!(err, "figeval: {warning}");
    }
    Ok(doc)
}

/// Where each page's text came from, as the core names it.
fn sources(doc: &Document) -> Vec<PageSource> {
    doc.pages
        .iter()
        .map(|p| match p.source {
            Source::Layer => PageSource::Layer,
            Source::Ocr { .. } => PageSource::Ocr,
            Source::Unreadable(_) => PageSource::Unreadable,
        })
        .collect()
}

/// Checks `dataset` against `pdf`, prints the findings, and with `fixed` writes the corrected
/// dataset there. Exit 0 when every checked item is `ok`, 1 on any finding.
pub fn run(
    dataset: &Path,
    pdfs: &[PathBuf],
    format: Format,
    fixed: Option<&Path>,
    read: &ReadArgs,
) -> Outcome {
    let d = files::read_dataset(dataset)?;
    if let Some(out) = fixed {
        refuse_in_place(dataset, out)?;
    }
    if d.of_several_files() {
        if fixed.is_some() {
            return Err(Failure::Input(
                "--write-fixed corrects a dataset of one PDF; this one gives expected_locations"
                    .into(),
            ));
        }
        return run_files(&d, dataset, pdfs, format, read);
    }
    let [pdf] = pdfs else {
        return Err(Failure::Input(format!(
            "--pdf is given {} times, but {} gives expected_pages, which are pages of one PDF: \
             a dataset of several files gives expected_locations (contract §1.5)",
            pdfs.len(),
            dataset.display()
        )));
    };
    let doc = pages(pdf, read)?;
    let g = figeval_document::ground::ground_read(&d, &doc.texts(), &sources(&doc));
    let (dl, pl) = (dataset.display().to_string(), pdf.display().to_string());
    let text = match format {
        Format::Text => render::ground_text(&g, &dl, &pl),
        Format::Markdown => render::ground_markdown(&g, &dl, &pl),
        Format::Json => g.to_json() + "\n",
    };
    files::print_text(&text)?;
    if let Some(out) = fixed {
        write_fixed(&g, &d, out)?;
    }
    Ok(if g.all_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The ground check of a dataset of several files (contract §1.5, §13.4): each PDF is checked
/// against the locations whose path is its path (on whole trailing path components), as a
/// dataset of one file whose expected pages are those locations' pages.
fn run_files(
    d: &figeval::Dataset,
    dataset: &Path,
    pdfs: &[PathBuf],
    format: Format,
    read: &ReadArgs,
) -> Outcome {
    let names: Vec<String> = pdfs.iter().map(|p| p.display().to_string()).collect();
    // Which PDF each location is in, checked for every item before any PDF is read.
    let mut placed: Vec<Vec<(usize, &figeval::ExpectedLocation)>> = vec![Vec::new(); pdfs.len()];
    for (n, item) in d.items.iter().enumerate() {
        let at = format!(
            "item {} ({:?})",
            n + 1,
            figeval::score::question_start(&item.question)
        );
        if item.expected_locations.is_empty() {
            return Err(Failure::Input(format!(
                "{at}: gives expected_pages, but the dataset is of several files: every item \
                 names its file with expected_locations"
            )));
        }
        for (j, l) in item.expected_locations.iter().enumerate() {
            let of: Vec<usize> = (0..pdfs.len())
                .filter(|&i| figeval::files::same_file(&names[i], &l.path))
                .collect();
            match of[..] {
                [i] => placed[i].push((n, l)),
                [] => {
                    return Err(Failure::Input(format!(
                        "{at}: expected_locations[{j}].path {:?} is none of the PDFs given \
                         (--pdf {}); paths compare on whole trailing path components",
                        l.path,
                        names.join(", --pdf ")
                    )))
                }
                _ => {
                    return Err(Failure::Input(format!(
                        "{at}: expected_locations[{j}].path {:?} is several of the PDFs given \
                         ({}): give paths that tell them apart",
                        l.path,
                        of.iter()
                            .map(|&i| names[i].as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            }
        }
    }
    let mut out = String::new();
    let mut listed = Vec::new();
    let mut all_ok = true;
    for (i, pdf) in pdfs.iter().enumerate() {
        if placed[i].is_empty() {
            eprintln!(
                "figeval: {}: no item's expected_locations names it; not checked",
                names[i]
            );
            continue;
        }
        let doc = pages(pdf, read)?;
        let items = placed[i]
            .iter()
            .map(|&(n, l)| figeval_document::ground::located(&d.items[n], l, doc.pages.len()))
            .collect();
        let sub = figeval::Dataset {
            corpus_id: d.corpus_id.clone(),
            items,
        };
        let g = figeval_document::ground::ground_read(&sub, &doc.texts(), &sources(&doc));
        all_ok &= g.all_ok();
        let dl = dataset.display().to_string();
        let numbers: Vec<usize> = placed[i].iter().map(|&(n, _)| n + 1).collect();
        match format {
            Format::Text => {
                out.push_str(&render::ground_text_numbered(&g, &dl, &names[i], &numbers))
            }
            Format::Markdown => out.push_str(&render::ground_markdown_numbered(
                &g, &dl, &names[i], &numbers,
            )),
            Format::Json => listed
                .push(serde_json::json!({"pdf": names[i], "item_numbers": numbers, "ground": g})),
        }
    }
    if matches!(format, Format::Json) {
        out = serde_json::to_string_pretty(&serde_json::json!({ "files": listed }))
            .expect("a value always serializes")
            + "\n";
    }
    files::print_text(&out)?;
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--write-fixed` must name another file than the dataset (also through a link).
fn refuse_in_place(dataset: &Path, out: &Path) -> Result<(), Failure> {
    let same = match (dataset.canonicalize(), out.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => dataset == out,
    };
    if same {
        return Err(Failure::Input(format!(
            "--write-fixed {} is the dataset itself; figeval never rewrites a dataset in place: name a new file",
            out.display()
        )));
    }
    Ok(())
}

fn write_fixed(g: &Ground, d: &figeval::Dataset, out: &Path) -> Result<(), Failure> {
    let fixed = g.fix(d).map_err(|e| Failure::Input(e.to_string()))?;
    let json = serde_json::to_string_pretty(&fixed.dataset.to_value())
        .expect("a dataset always serializes")
        + "\n";
    files::write_whole(out, json.as_bytes()).map_err(|e| {
        Failure::Output(format!(
            "cannot write the fixed dataset to {}: {}",
            out.display(),
            files::io_words(&e)
        ))
    })?;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "figeval: wrote {} with {} changed",
        out.display(),
        counted(fixed.changes.len(), "item", "items")
    );
    for c in &fixed.changes {
        let reason = match c.reason {
            figeval_document::ground::FixReason::CaptionPage => "caption or heading page",
            figeval_document::ground::FixReason::Offset => "dataset offset",
        };
        let _ = writeln!(
            err,
            "  item {}: {:?} -> {:?} ({reason})",
            c.item,
            c.from.iter().map(|p| p.get()).collect::<Vec<_>>(),
            c.to.iter().map(|p| p.get()).collect::<Vec<_>>()
        );
    }
    Ok(())
}

/// Prints every caption of `pdf`: label, page and text (and, off an OCR'd page, `ocr` and
/// tesseract's confidence); as JSON with `json`.
pub fn captions(pdf: &Path, json: bool, read: &ReadArgs) -> Outcome {
    let doc = pages(pdf, read)?;
    let captions = figeval_document::find_captions(&doc.texts());
    let pdf_pages = u32::try_from(doc.pages.len()).unwrap_or(u32::MAX);
    let ocr_pages = u32::try_from(doc.ocr_pages()).unwrap_or(u32::MAX);
    let unreadable: Vec<figeval::Page> = doc
        .unreadable()
        .iter()
        .filter_map(|(n, _)| figeval::Page::new(i64::from(*n)))
        .collect();
    let ocr_confidence = |page: u32| match doc.pages.get(page as usize - 1).map(|p| &p.source) {
        Some(Source::Ocr { confidence, .. }) => Some(*confidence),
        _ => None,
    };
    let text = match json {
        true => {
            let listed: Vec<serde_json::Value> = captions
                .iter()
                .map(|c| {
                    let mut v = serde_json::to_value(c).expect("a caption always serializes");
                    let confidence = ocr_confidence(c.page);
                    v["source"] = if confidence.is_some() { "ocr" } else { "layer" }.into();
                    if let Some(confidence) = confidence {
                        v["confidence"] = ((f64::from(confidence) * 10.0).round() / 10.0).into();
                    }
                    v
                })
                .collect();
            let v = serde_json::json!({
                "pdf_pages": pdf_pages,
                "ocr_pages": ocr_pages,
                "ocr_cached_pages": doc.ocr_pages() - doc.ocr_runs(),
                "unreadable_pages": unreadable,
                "captions": listed,
            });
            serde_json::to_string_pretty(&v).expect("a value always serializes") + "\n"
        }
        false => {
            let mut out = format!(
                "figeval captions: {} ({}): {}\n",
                pdf.display(),
                counted(pdf_pages, "page", "pages"),
                counted(captions.len(), "caption", "captions")
            );
            if let Some(note) = render::pages_read(pdf_pages, ocr_pages, &unreadable) {
                let cached = doc.ocr_pages() - doc.ocr_runs();
                out.push_str(&note);
                if cached > 0 {
                    out.push_str(&format!(" ({cached} from the OCR cache)"));
                }
                out.push('\n');
            }
            for c in &captions {
                let read_by = ocr_confidence(c.page)
                    .map(|conf| format!(" (OCR, confidence {conf:.0})"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "  p.{:<5} {:<12} {}{read_by}\n",
                    c.page,
                    c.label,
                    c.text.escape_debug()
                ));
            }
            out
        }
    };
    files::print_text(&text)?;
    Ok(ExitCode::SUCCESS)
}
