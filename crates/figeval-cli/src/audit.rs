//! The provenance audit of `run` and `score` with `--pdf` (contract §14.8): the PDF's page
//! texts (`pagetext`, OCR where a page has no text layer) and its page labels, then the core's
//! audit of every hit the pairing kept.

use std::path::Path;

use figeval::provenance::{self, AuditHit, PageIndex};
use figeval::{Match, Report};

use crate::fail::Failure;

/// What the pairing keeps of each answer: its hits for the audit when there is a PDF to audit
/// against, nothing otherwise.
pub fn keeper(pdf: Option<&Path>) -> fn(&[Match]) -> Vec<AuditHit> {
    match pdf {
        Some(_) => provenance::hits_of,
        None => |_| Vec::new(),
    }
}

/// Audits `kept` (one list of hits per scored item) against `pdf`, puts the result in the
/// report and prints its line on stderr, before the report: it changes what every number
/// means.
pub fn apply(report: &mut Report, pdf: &Path, kept: &[Vec<AuditHit>]) -> Result<(), Failure> {
    let options = pagetext::Options::from_flags(
        pagetext::OcrMode::Auto,
        pagetext::DEFAULT_PAGE_TIMEOUT.as_secs(),
        false,
    );
    let document =
        pagetext::read_pages(pdf, &options).map_err(|e| Failure::Input(format!("--pdf: {e}")))?;
    let index = PageIndex::new(&document.texts());
    // The labels only name an offset's cause; without qpdf the offset is named by its distance.
    let labels = match crate::labels::read(pdf) {
        Ok(l) => Some(l),
        Err(e) => {
            eprintln!("figeval: note: {e}; an offset is named by its distance only");
            None
        }
    };
    let audit = provenance::audit(&index, kept, labels.as_ref());
    eprintln!("figeval: {}", figeval::render::provenance_line(&audit));
    report.provenance = Some(audit);
    Ok(())
}
