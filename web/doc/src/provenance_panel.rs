//! The provenance audit in the page (contract §14.8): is what each match of the report on show
//! said printed on the page it cites? The core's audit, on the open PDF's page texts and the
//! ranked windows' hits the main app hands over (a report whose responses were read in the
//! page: a live run or a capture scored here).

use figeval::provenance::{self, PageIndex};
use figeval::render;
use figeval::PageLabels;
use yew::prelude::*;

use crate::state::Doc;

/// The audit's card: its line, once the page texts are read, when there are hits to check.
#[function_component(ProvenancePanel)]
pub fn provenance_panel() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let audit = use_memo((doc.pages().cloned(), doc.hits.clone()), |(pages, hits)| {
        let pages = pages.as_ref().filter(|_| !hits.is_empty())?;
        let index = PageIndex::new(&pages.texts);
        // With the PDF's printed labels, an offset of cited labels is named as such.
        let labels = crate::bridge::page_labels().map(PageLabels::new);
        Some(provenance::audit(
            &index,
            std::slice::from_ref(&**hits),
            labels.as_ref(),
        ))
    });
    if doc.hits.is_empty() {
        return html! {};
    }
    let (status, line) = match audit.as_ref() {
        Some(a) => ("checked", render::provenance_line(a)),
        None => (
            "waiting",
            "The audit waits for the text of every page of the PDF.".to_string(),
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
