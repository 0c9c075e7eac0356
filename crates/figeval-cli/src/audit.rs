//! The provenance audit of `run` and `score` with `--pdf` (contract §14.8): each PDF's page
//! texts (`pagetext`, OCR where a page has no text layer) and page labels, then the core's
//! audit of every hit the pairing kept, each in the PDF that is its file when the dataset is
//! of several files.

use std::path::{Path, PathBuf};

use figeval::provenance::{self, AuditHit, AuditPdf, PageIndex};
use figeval::{Dataset, Match, Report};

use crate::fail::Failure;

/// What the pairing keeps of each answer: its hits for the audit when there is a PDF to audit
/// against, nothing otherwise.
pub fn keeper(pdfs: &[PathBuf]) -> fn(&[Match]) -> Vec<AuditHit> {
    if pdfs.is_empty() {
        |_| Vec::new()
    } else {
        provenance::hits_of
    }
}

/// Audits `kept` (one list of hits per scored item) against `pdfs`, puts the result in the
/// report and prints its line on stderr, before the report: it changes what every number
/// means. Nothing to do without a PDF. With a dataset of one file every hit is audited in its
/// one PDF; with several files, in the PDF that is the hit's file.
pub fn apply(
    report: &mut Report,
    dataset: &Dataset,
    pdfs: &[PathBuf],
    kept: &[Vec<AuditHit>],
) -> Result<(), Failure> {
    if pdfs.is_empty() {
        return Ok(());
    }
    let read: Vec<(PageIndex, Option<figeval::connector::PageLabels>)> = pdfs
        .iter()
        .map(|pdf| read_pdf(pdf, pdfs.len() > 1))
        .collect::<Result<_, _>>()?;
    let audited: Vec<AuditPdf<'_>> = read
        .iter()
        .map(|(index, labels)| AuditPdf {
            index,
            labels: labels.as_ref(),
        })
        .collect();
    let audit = if dataset.of_several_files() {
        let paths: Vec<String> = pdfs.iter().map(|p| p.display().to_string()).collect();
        provenance::audit_files(&audited, &paths, dataset, kept)
    } else {
        provenance::audit_pdfs(&audited, kept, &|_| Some(0))
    };
    eprintln!("figeval: {}", figeval::render::provenance_line(&audit));
    report.provenance = Some(audit);
    Ok(())
}

/// A PDF's page index and, when qpdf reads them, its page labels (they only name an offset's
/// cause; without them the offset is named by its distance). `named`: say which PDF a
/// failure is of.
fn read_pdf(
    pdf: &Path,
    named: bool,
) -> Result<(PageIndex, Option<figeval::connector::PageLabels>), Failure> {
    let options = pagetext::Options::from_flags(
        pagetext::OcrMode::Auto,
        pagetext::DEFAULT_PAGE_TIMEOUT.as_secs(),
        false,
    );
    let flag = if named {
        format!("--pdf {}", pdf.display())
    } else {
        "--pdf".to_string()
    };
    let document =
        pagetext::read_pages(pdf, &options).map_err(|e| Failure::Input(format!("{flag}: {e}")))?;
    let labels = match crate::labels::read(pdf) {
        Ok(l) => Some(l),
        Err(e) => {
            eprintln!("figeval: note: {flag}: {e}; an offset is named by its distance only");
            None
        }
    };
    Ok((PageIndex::new(&document.texts()), labels))
}
