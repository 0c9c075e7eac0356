//! The provenance audit in the page (contract §14.8): is what each match of the report on show
//! said printed on the page it cites? The core's audit, on the open PDF's page texts and the
//! ranked windows' hits the main app hands over (a report whose responses were read in the
//! page: a live run or a capture scored here). Of a dataset of several files, each hit is read
//! in the open PDF its file is, as `figeval run --pdf A --pdf B` reads it.

use figeval::provenance::{self, AuditPdf, PageIndex};
use figeval::render;
use figeval::PageLabels;
use yew::prelude::*;

use crate::state::{DatasetIn, Doc};

/// The audit's card: its line, once the page texts are read, when there are hits to check.
#[function_component(ProvenancePanel)]
pub fn provenance_panel() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let several = match &doc.dataset {
        DatasetIn::SeveralFiles(d) => Some(d.clone()),
        _ => None,
    };
    let waiting = several.is_some() && !doc.still_reading().is_empty();
    let audit = use_memo(
        (
            doc.pages().cloned(),
            doc.hits.clone(),
            doc.read.clone(),
            several,
            waiting,
        ),
        |(pages, hits, read, several, waiting)| {
            let pages = pages.as_ref().filter(|_| !hits.is_empty() && !waiting)?;
            let hits = std::slice::from_ref(&**hits);
            let Some(d) = several else {
                let index = PageIndex::new(&pages.texts);
                // With the PDF's printed labels, an offset of cited labels is named as such.
                let labels = crate::bridge::page_labels(None).map(PageLabels::new);
                return Some(provenance::audit(&index, hits, labels.as_ref()));
            };
            // Each open PDF read, its hits found by their file (a hit of a file not open is
            // counted as of another file).
            let indexes: Vec<(PageIndex, Option<PageLabels>)> = read
                .iter()
                .map(|(name, p)| {
                    let labels = crate::bridge::page_labels(Some(name)).map(PageLabels::new);
                    (PageIndex::new(&p.texts), labels)
                })
                .collect();
            let pdfs: Vec<AuditPdf<'_>> = indexes
                .iter()
                .map(|(index, labels)| AuditPdf {
                    index,
                    labels: labels.as_ref(),
                })
                .collect();
            let names: Vec<String> = read.iter().map(|(n, _)| n.to_string()).collect();
            Some(provenance::audit_files(&pdfs, &names, d, hits))
        },
    );
    // Of several files, the audit is of the open PDFs the dataset names: none open, none to read.
    let of_none = match &doc.dataset {
        DatasetIn::SeveralFiles(d) => !doc.open.iter().any(|n| {
            d.items
                .iter()
                .flat_map(|i| &i.expected_locations)
                .any(|l| figeval::files::same_file(n, &l.path))
        }),
        _ => false,
    };
    if doc.hits.is_empty() || of_none {
        return html! {};
    }
    let (status, line) = match audit.as_ref() {
        Some(a) => ("checked", render::provenance_line(a)),
        None => (
            "waiting",
            "The audit waits for the text of every page of the open PDFs.".to_string(),
        ),
    };
    html! {
        <section class="card doc-card" data-testid="provenance-panel" data-status={status} aria-labelledby="provenance-h">
            <h3 id="provenance-h">{ "Provenance" }</h3>
            <p class="muted small">{ format!(
                "Is what each match said printed on a page it cites? The audit of figeval run --pdf, on the {} hits of the report on show's ranked windows (its top 5 a question) that carry content and pages.",
                doc.hits.len()
            ) }</p>
            <p role="status" data-testid="provenance-line">{ line }</p>
        </section>
    }
}
