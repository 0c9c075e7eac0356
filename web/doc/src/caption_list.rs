//! The caption index of the open PDF (`caption-list`): every caption
//! `figeval_document::find_captions` finds in the page texts — the same finder the ground check uses —
//! with its page, its text and a thumbnail of the page.

use figeval::describe::counted;
use yew::prelude::*;

use crate::editor::{add_button, EditorHandle};
use crate::state::{Doc, Source, Texts};
use crate::thumb::Thumb;

/// The caption list.
#[function_component(CaptionList)]
pub fn caption_list() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let editor = use_context::<EditorHandle>().expect("the module provides the editor");
    let (status, text) = match &doc.texts {
        Texts::Ready(p) => ("ready", {
            let found = format!(
                "{} in {}",
                counted(p.captions.len(), "caption", "captions"),
                counted(p.texts.len(), "page", "pages")
            );
            match p.read_note() {
                None => format!("{found}."),
                Some(note) => format!("{found} ({note})."),
            }
        }),
        // While OCR reads the scanned pages, the captions of the pages read so far.
        Texts::Reading { done, total } => match &doc.so_far {
            Some(p) => (
                "reading",
                format!(
                    "So far {} in {} of {}; {} the other {}…",
                    counted(p.captions.len(), "caption", "captions"),
                    p.texts.len() - p.pages_unread(),
                    counted(p.texts.len(), "page", "pages"),
                    if p.pages_to_read() > 0 {
                        "OCR is reading"
                    } else {
                        "reading"
                    },
                    p.pages_unread()
                ),
            ),
            None => (
                "reading",
                format!("Reading the page text: {done} of {total} pages…"),
            ),
        },
        Texts::Failed(why) => ("failed", format!("The page text could not be read: {why}")),
        Texts::Waiting => (
            "waiting",
            "Open the PDF (above) to list its captions.".to_string(),
        ),
    };
    let rows = doc.pages_so_far().map(|p| {
        p.captions
            .iter()
            .map(|c| {
                let (source, confidence, read) = match p.source(c.page) {
                    Source::Ocr(conf) => ("ocr", Some(format!("{conf:.0}")), format!("ocr ({conf:.0}%)")),
                    Source::Layer => ("layer", None, "text layer".to_string()),
                    Source::Unreadable(why) => ("unreadable", None, why.to_string()),
                };
                html! {
                    <tr data-testid="caption-row" data-figure-ref={c.label.clone()} data-page={c.page.to_string()}
                        data-source={source} data-confidence={confidence}>
                        <th scope="row">{ c.label.clone() }</th>
                        <td class="num">{ c.page }</td>
                        <td>{ c.text.clone() }</td>
                        <td><Thumb page={c.page} generation={doc.generation} why={format!("caption of {}", c.label)} /></td>
                        <td>{ add_button(&editor, c) }</td>
                        <td data-testid="caption-source">{ read }</td>
                    </tr>
                }
            })
            .collect::<Html>()
    });
    html! {
        <section class="card doc-card" data-testid="caption-list" data-status={status} aria-labelledby="captions-h">
            <h3 id="captions-h">{ "Captions in the PDF" }</h3>
            <p class="muted small">{ "Every figure and table caption found in the page text (figeval captions lists the same), on its physical page: the page a dataset's expected_pages names." }</p>
            if doc.open.len() > 1 {
                <p class="small" data-testid="caption-list-of">{ format!("Of the PDF on show, {}: choose another of the {} open PDFs above (Shown).", crate::bridge::pdf_name(), doc.open.len()) }</p>
            }
            <p role="status">{ text }</p>
            if let Some(rows) = rows {
                <div class="table-wrap doc-scroll" tabindex="0" role="group" aria-label="captions">
                    <table class="caption-table">
                        <thead><tr><th scope="col">{ "label" }</th><th scope="col" class="num">{ "page" }</th><th scope="col">{ "caption" }</th><th scope="col">{ "thumbnail" }</th><th scope="col">{ "dataset" }</th><th scope="col">{ "read from" }</th></tr></thead>
                        <tbody>{ rows }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}
