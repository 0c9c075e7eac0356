//! `figeval ground` (does each expected page carry its figure?) and `figeval captions` (the
//! caption index of a PDF). The page text comes from the shared `pagetext` crate; every
//! verdict comes from the core.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use figeval::{render, Ground};

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// The text of every page of `pdf`, or a bad-input failure that says what is wrong with it.
fn pages(pdf: &Path) -> Result<Vec<String>, Failure> {
    pagetext::extract_pages(pdf).map_err(|e| Failure::Input(e.to_string()))
}

/// Checks `dataset` against `pdf`, prints the findings, and with `fixed` writes the corrected
/// dataset there. Exit 0 when every checked item is `ok`, 1 on any finding.
pub fn run(dataset: &Path, pdf: &Path, format: Format, fixed: Option<&Path>) -> Outcome {
    let d = files::read_dataset(dataset)?;
    if let Some(out) = fixed {
        refuse_in_place(dataset, out)?;
    }
    let pages = pages(pdf)?;
    let g = figeval::ground(&d, &pages);
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
    let fixed = g.fix(d).map_err(Failure::Input)?;
    let json = serde_json::to_string_pretty(&fixed.dataset.to_value())
        .expect("a dataset always serializes")
        + "\n";
    files::write_whole(out, json.as_bytes()).map_err(|e| {
        Failure::Output(format!(
            "cannot write the fixed dataset to {}: {e}",
            out.display()
        ))
    })?;
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "figeval: wrote {} with {} item(s) changed",
        out.display(),
        fixed.changes.len()
    );
    for c in &fixed.changes {
        let reason = match c.reason {
            figeval::ground::FixReason::CaptionPage => "caption or heading page",
            figeval::ground::FixReason::Offset => "dataset offset",
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

/// Prints every caption of `pdf`: label, page and text; as JSON with `json`.
pub fn captions(pdf: &Path, json: bool) -> Outcome {
    let pages = pages(pdf)?;
    let captions = figeval::find_captions(&pages);
    let text = match json {
        true => {
            let v = serde_json::json!({"pdf_pages": pages.len(), "captions": captions});
            serde_json::to_string_pretty(&v).expect("a value always serializes") + "\n"
        }
        false => {
            let mut out = format!(
                "figeval captions: {} ({} pages): {} caption(s)\n",
                pdf.display(),
                pages.len(),
                captions.len()
            );
            for c in &captions {
                out.push_str(&format!(
                    "  p.{:<5} {:<12} {}\n",
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
