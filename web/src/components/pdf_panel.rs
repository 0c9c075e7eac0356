//! The document strip at the top of every view: open the PDF from a file (picker or drop,
//! `pdf-input`) or a URL (`pdf-url`), and the note that a file stays in the page. The strip is
//! markup only: `boot.js` listens to it and loads the PDF viewer (`web/pdfview.mjs`, on pdf.js)
//! when a PDF is opened, and the viewer writes the strip's status. A `pdf=` link's URL is
//! offered here and fetched only when the user says yes.

use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// Props of [`PdfPanel`].
#[derive(Properties, PartialEq)]
pub struct PdfPanelProps {
    /// A `pdf=` link's URL, offered until the user answers.
    pub offer: Option<AttrValue>,
}

/// Asks `boot.js` to fetch and open `url`.
fn open_url(url: &str) {
    let f = Reflect::get(&js_sys::global(), &JsValue::from_str("figevalOpenPdfUrl"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok());
    if let Some(f) = f {
        let _ = f.call1(&JsValue::NULL, &JsValue::from_str(url));
    }
}

/// The strip. Its status (`pdf-status`, and `data-status`, `data-pages` on the strip) is the
/// viewer's to write; the app never re-renders it.
#[function_component(PdfPanel)]
pub fn pdf_panel(props: &PdfPanelProps) -> Html {
    let answered = use_state(|| false);
    let offer = props.offer.clone().filter(|_| !*answered).map(|u| {
        let yes = {
            let answered = answered.clone();
            let u = u.clone();
            Callback::from(move |_: MouseEvent| {
                answered.set(true);
                open_url(&u);
            })
        };
        let no = {
            let answered = answered.clone();
            Callback::from(move |_: MouseEvent| answered.set(true))
        };
        html! {
            <div class="offer" role="status" data-testid="pdf-offer">
                <span>{ "This link offers a PDF: " }<code>{ u.to_string() }</code>{ ". Nothing is fetched until you load it." }</span>
                <button data-testid="pdf-offer-load" onclick={yes}>{ "Load it" }</button>
                <button class="ghost" data-testid="pdf-offer-decline" onclick={no}>{ "No thanks" }</button>
            </div>
        }
    });
    html! {
        <section class="card pdf-strip" aria-label="Document" data-testid="pdf-panel">
            { for offer }
            <div class="row wrap">
                <strong>{ "PDF" }</strong>
                <label class="file-button">
                    <input type="file" accept=".pdf,application/pdf" data-testid="pdf-input" />
                    <span>{ "Open the PDF…" }</span>
                </label>
                <form class="url-form" data-pdf-url-form="">
                    <input type="url" placeholder="or its URL (https://…/manual.pdf)" aria-label="PDF URL"
                           data-testid="pdf-url" />
                    <button type="submit" data-testid="load-pdf-url">{ "Load" }</button>
                </form>
                <span data-testid="pdf-status" role="status">{ "No PDF open: open it to see the cited pages." }</span>
            </div>
            <p class="muted small">{ "A PDF file is read in this page: it is never uploaded and never put in a share link. A URL is fetched by this page." }</p>
        </section>
    }
}
